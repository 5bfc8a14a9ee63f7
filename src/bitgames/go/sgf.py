"""SGF (FF[4]) reading and writing for Go games: size, komi, handicap setup, moves.

Only the main line (first variation) is read. Properties used: ``SZ``, ``KM``, ``HA``,
``AB``/``AW`` (with ``aa:cc`` rectangles), ``PL``, ``B``/``W`` (``[]`` or ``[tt]`` on boards
up to 19x19 is a pass); others are kept as text in :class:`SgfGame` but ignored by the board.

>>> board = read_sgf("(;GM[1]FF[4]SZ[9]KM[6.5]AB[cc][gg];W[ee];B[];W[ec])")
>>> board.komi, str(board.peek()), len(board.move_stack)
(6.5, 'E7', 3)
>>> read_sgf(to_sgf(board)) == board
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bitgames.core.errors import BitgamesError, InvalidPositionError
from bitgames.go.board import BLACK, WHITE, Board, Move, Rules

_LETTERS = "abcdefghijklmnopqrstuvwxyz"


class SgfError(InvalidPositionError):
    """Malformed SGF text or an SGF game this board cannot hold."""


@dataclass
class SgfGame:
    """The parsed main line: the root's properties and the nodes that follow."""

    root: dict[str, list[str]] = field(default_factory=dict)
    nodes: list[dict[str, list[str]]] = field(default_factory=list)


def parse_sgf(text: str) -> SgfGame:
    """Parse the main line of the first game tree in ``text``.

    >>> parse_sgf("(;SZ[9]C[a \\\\] b];B[aa])").root["C"]
    ['a ] b']
    """
    i = text.find("(")
    if i < 0:
        raise SgfError("not an SGF game: no '('")
    n = len(text)
    nodes: list[dict[str, list[str]]] = []
    depth = 0
    i += 1
    depth = 1
    skipping = 0  # depth of a variation we are skipping (0 = on the main line)
    seen_variation_end = False
    while i < n and depth > 0:
        ch = text[i]
        if ch == "(":
            depth += 1
            if seen_variation_end and not skipping:
                skipping = depth
            i += 1
        elif ch == ")":
            if skipping and depth == skipping:
                skipping = 0
            elif not skipping:
                seen_variation_end = True
            depth -= 1
            i += 1
        elif ch == ";":
            i += 1
            node: dict[str, list[str]] = {}
            while True:
                while i < n and text[i].isspace():
                    i += 1
                j = i
                while j < n and text[j].isalpha():
                    j += 1
                if j == i:
                    break
                ident = "".join(c for c in text[i:j] if c.isupper())
                i = j
                values: list[str] = []
                while True:
                    while i < n and text[i].isspace():
                        i += 1
                    if i >= n or text[i] != "[":
                        break
                    i += 1
                    buf = []
                    while i < n and text[i] != "]":
                        if text[i] == "\\" and i + 1 < n:
                            i += 1
                        buf.append(text[i])
                        i += 1
                    if i >= n:
                        raise SgfError(f"unterminated value of property {ident}")
                    i += 1
                    values.append("".join(buf))
                if not values:
                    raise SgfError(f"property {ident} has no value (at character {i})")
                node[ident] = values
            if not skipping:
                nodes.append(node)
        elif ch.isspace():
            i += 1
        else:
            raise SgfError(f"unexpected {ch!r} at character {i}")
    if depth > 0:
        raise SgfError("unbalanced parentheses: the game tree is not closed")
    if not nodes:
        raise SgfError("empty game tree")
    return SgfGame(root=nodes[0], nodes=nodes[1:])


def _sgf_point(value: str, size: int) -> int:
    v = value.strip()
    if v == "" or (v == "tt" and size <= 19):
        return -1  # the pass
    if len(v) != 2 or v[0] not in _LETTERS or v[1] not in _LETTERS:
        raise SgfError(f"bad SGF point {value!r}")
    col = _LETTERS.index(v[0])
    row_from_top = _LETTERS.index(v[1])
    if col >= size or row_from_top >= size:
        raise SgfError(f"SGF point {value!r} is off the {size}x{size} board")
    return (size - 1 - row_from_top) * size + col


def _point_list(values: list[str], size: int) -> list[int]:
    out: list[int] = []
    for v in values:
        if ":" in v:
            a, b = v.split(":", 1)
            pa, pb = _sgf_point(a, size), _sgf_point(b, size)
            if pa < 0 or pb < 0:
                raise SgfError(f"bad SGF rectangle {v!r}")
            ra, ca = divmod(pa, size)
            rb, cb = divmod(pb, size)
            for r in range(min(ra, rb), max(ra, rb) + 1):
                for c in range(min(ca, cb), max(ca, cb) + 1):
                    out.append(r * size + c)
        else:
            p = _sgf_point(v, size)
            if p < 0:
                raise SgfError("a setup point cannot be a pass")
            out.append(p)
    return out


def sgf_point(point: int, size: int) -> str:
    """The SGF coordinates of a point (``""`` for a pass).

    >>> sgf_point(0, 9), sgf_point(80, 9), sgf_point(-1, 9)
    ('ai', 'ia', '')
    """
    if point < 0:
        return ""
    row, col = divmod(point, size)
    return _LETTERS[col] + _LETTERS[size - 1 - row]


def read_sgf(text: str, rules: str | Rules = "default", move_number: int | None = None) -> Board:
    """A :class:`Board` after the main line of ``text`` (or before move ``move_number``,
    counted from 1 as in GTP ``loadsgf``). Illegal moves raise :class:`SgfError`."""
    return game_board(parse_sgf(text), rules, move_number)


def game_board(game: SgfGame, rules: str | Rules = "default",
               move_number: int | None = None) -> Board:
    """:func:`read_sgf` on a game already parsed by :func:`parse_sgf`."""
    root = game.root
    try:
        size = int(root.get("SZ", ["19"])[0].split(":")[0])
    except ValueError as exc:
        raise SgfError(f"bad board size SZ[{root['SZ'][0]}]") from exc
    try:
        komi = float(root.get("KM", ["0"])[0] or 0)
    except ValueError as exc:
        raise SgfError(f"bad komi KM[{root['KM'][0]}]") from exc
    board = Board(size=size, komi=komi, rules=rules)
    nodes = [root] + game.nodes
    black = _point_list(root.get("AB", []), size)
    white = _point_list(root.get("AW", []), size)
    if black or white:
        board.setup(black, white)
    if "PL" in root:
        board.turn = WHITE if root["PL"][0].strip().upper().startswith("W") else BLACK
    elif black and not white:
        board.turn = WHITE
    played = 0
    for node in nodes:
        for prop, col in (("B", BLACK), ("W", WHITE)):
            if prop in node:
                if move_number is not None and played + 1 >= move_number:
                    return board
                move = Move.from_point(_sgf_point(node[prop][0], size), size)
                try:
                    board.push(move, col)
                except BitgamesError as exc:
                    raise SgfError(f"move {played + 1}: {exc}") from exc
                played += 1
    return board


def to_sgf(board: Board, result: str | None = None, black: str | None = None,
           white: str | None = None) -> str:
    """The game of ``board`` as one line of SGF text, with the players' names if given.

    >>> text = to_sgf(Board(size=5, moves="C3"), "B+R", black="x [1]", white="y")
    >>> print(text)
    (;GM[1]FF[4]CA[UTF-8]AP[bitgames]SZ[5]KM[7.5]RU[CGOS]PB[x [1\\]]PW[y]RE[B+R];B[cc])
    >>> parse_sgf(text).root["PB"]
    ['x [1]']
    """
    size = board.size
    parts = [f"(;GM[1]FF[4]CA[UTF-8]AP[bitgames]SZ[{size}]KM[{board.komi:g}]"]
    parts.append(f"RU[{_rules_name(board)}]")
    for key, name in (("PB", black), ("PW", white)):
        if name is not None:
            parts.append(f"{key}[{_escape(name)}]")
    if board.setup_black:
        if not board.setup_white:
            parts.append(f"HA[{len(board.setup_black)}]")
        parts.append("AB" + "".join(f"[{sgf_point(p, size)}]" for p in board.setup_black))
    if board.setup_white:
        parts.append("AW" + "".join(f"[{sgf_point(p, size)}]" for p in board.setup_white))
    if result is None and board.is_game_over():
        result = board.result()
    if result:
        parts.append(f"RE[{result}]")
    moves = board.colored_moves()
    if moves and moves[0][0] == WHITE and (board.setup_black or board.setup_white):
        parts.append("PL[W]")
    for c, m in moves:
        if not m.is_resign:
            parts.append(f";{'W' if c else 'B'}[{sgf_point(m.point(size), size)}]")
    parts.append(")")
    return "".join(parts)


def _escape(text: str) -> str:
    """``text`` as an SGF SimpleText value: ``\\`` and ``]`` escaped."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _rules_name(board: Board) -> str:
    return {
        "positional": "Tromp-Taylor" if board.rules.suicide else "CGOS",
        "simple": "Chinese",
        "situational": "AGA",
    }[board.rules.ko]
