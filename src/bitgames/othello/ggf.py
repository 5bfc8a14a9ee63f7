"""Reading and writing Othello games in GGF (the Generic Game Format of GGS and NBoard).

A game looks like ``(;GM[Othello]PC[NBoard]PB[me]PW[you]RE[?]TI[15:00]TY[8]
BO[8 <64 squares a1..h8: * black, O white, - empty> <side * or O>]B[F5//2.4]W[D6/0.00];)``.
Each move is ``move/eval/time`` (fields may be empty); ``PA`` is a pass. A move by the
side that is not to move, when the side to move has no legal move, implies a pass
(some programs leave passes out).

>>> game = parse_ggf("(;GM[Othello]BO[8 " + "-" * 27 + "O*------*O" + "-" * 27
...                  + " *]B[F5//1.2]W[d6/-0.5];)")
>>> game.board.transcript(), game.board.turn == BLACK, game.moves[0]
('f5d6', True, GgfMove(square='f5', eval=None, time=1.2))
>>> parse_ggf(to_ggf(game.start, ['f5', 'd6'])).board.transcript()
'f5d6'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from bitgames.core.errors import BitgamesError, InvalidPositionError
from bitgames.othello.board import BLACK, WHITE, Board, IllegalMoveError, Move

_PROP = re.compile(r"([A-Z]{1,2})\[([^\]]*)\]")


class GgfError(InvalidPositionError):
    """A GGF text that cannot be read, or a move in it that is illegal."""


@dataclass
class GgfMove:
    """One move of a GGF game: square name (or ``pass``), optional eval and time."""

    square: str
    eval: float | None = None
    time: float | None = None


@dataclass
class GgfGame:
    """A parsed game: properties, the start board, the moves and the board after them."""

    properties: dict[str, str]
    start: Board
    moves: list[GgfMove] = field(default_factory=list)
    board: Board = field(default_factory=Board)


def _number(text: str) -> float | None:
    text = text.strip()
    if not text:
        return None
    try:
        return float(text)
    except ValueError:
        return None


def parse_move(token: str) -> GgfMove:
    """``"F5/2.4/0.1"`` -> GgfMove('f5', 2.4, 0.1); raise :class:`GgfError` if unreadable."""
    parts = token.strip().split("/")
    name = parts[0].strip()
    try:
        move = Move.from_str(name)
    except BitgamesError as exc:
        raise GgfError(f"bad move {token!r} in GGF") from exc
    ev = _number(parts[1]) if len(parts) > 1 else None
    t = _number(parts[2]) if len(parts) > 2 else None
    return GgfMove(str(move), ev, t)


def parse_ggf(text: str) -> GgfGame:
    """Read one GGF game; raise :class:`GgfError` on bad syntax or illegal moves."""
    body = text.strip()
    if not body.startswith("(;") or not body.endswith(";)"):
        raise GgfError("a GGF game must look like (;GM[Othello]...;)")
    props: dict[str, str] = {}
    start: Board | None = None
    moves: list[tuple[str, GgfMove]] = []
    inner = body[2:-2]
    pos = 0
    for m in _PROP.finditer(inner):
        if inner[pos:m.start()].strip():
            raise GgfError(f"unexpected text {inner[pos:m.start()].strip()!r} in GGF")
        pos = m.end()
        key, value = m.group(1), m.group(2)
        if key in ("B", "W"):
            moves.append((key, parse_move(value)))
        elif key == "BO":
            start = _parse_bo(value)
        else:
            props[key] = value
    if inner[pos:].strip():
        raise GgfError(f"unexpected text {inner[pos:].strip()!r} in GGF")
    if props.get("GM", "Othello").lower() != "othello":
        raise GgfError(f"not an Othello game: GM[{props['GM']}]")
    if props.get("TY", "8").strip()[:1] not in ("8", ""):
        raise GgfError(f"unsupported board type TY[{props['TY']}]")
    if start is None:
        start = Board()
    board = start.copy()
    played: list[GgfMove] = []
    for colour, mv in moves:
        mover = BLACK if colour == "B" else WHITE
        if board.turn != mover and mv.square != "pass" and board.must_pass():
            board.push("pass")  # an implied pass
            played.append(GgfMove("pass"))
        try:
            board.push(mv.square)
        except IllegalMoveError as exc:
            raise GgfError(f"illegal move {colour}[{mv.square}] in GGF: {exc}") from exc
        played.append(mv)
    return GgfGame(props, start, played, board)


def _parse_bo(value: str) -> Board:
    fields = value.split()
    if not fields or fields[0] != "8":
        raise GgfError(f"unsupported board BO[{value}] (only 8x8)")
    rest = "".join(fields[1:])
    if len(rest) != 65:
        raise GgfError(f"BO needs 64 squares and the side to move, got BO[{value}]")
    squares = rest[:64].replace("*", "X")
    side = {"*": "X", "O": "O"}.get(rest[64])
    if side is None:
        raise GgfError(f"bad side to move {rest[64]!r} in BO[{value}]")
    try:
        return Board(squares + " " + side)
    except BitgamesError as exc:
        raise GgfError(f"bad board in BO[{value}]: {exc}") from exc


def to_ggf(start: Board, moves: list[str], black: str = "?", white: str = "?",
           clock: float | None = None, result: str = "?") -> str:
    """Write a game as GGF (passes written ``PA``); ``clock``: each player's time in
    seconds, as ``TI``; ``result``: the ``RE`` value (see :func:`ggf_result`)."""
    squares = start.fen()[:64].replace("X", "*")
    side = "*" if start.turn == BLACK else "O"
    ti = "" if clock is None else f"TI[{clock:.2f}]"
    out = [f"(;GM[Othello]PC[bitgames]PB[{_name(black)}]PW[{_name(white)}]RE[{result}]{ti}"
           f"TY[8]BO[8 {squares} {side}]"]
    board = start.copy()
    for mv in moves:
        colour = "B" if board.turn == BLACK else "W"
        m = Move.from_str(mv)
        board.push(m)
        out.append(f"{colour}[{'PA' if m.is_pass() else str(m).upper()}]")
    out.append(";)")
    return "".join(out)


def _name(text: str) -> str:
    """A player's name as a GGF value (which cannot hold brackets)."""
    return text.replace("[", "(").replace("]", ")")


#: GGF results of games that did not end on the board, by the result of the core match
#: runner: a forfeit (an illegal move, a crash, a lost clock) is written as a resignation,
#: a draw by adjudication as a mutual score.
_FORFEITS = {"1-0": "-64.00:r", "0-1": "+64.00:r", "1/2-1/2": "+0.00:s"}


def ggf_result(board: Board, result: str = "*") -> str:
    """The GGF ``RE`` of a game: Black's final disc difference (``+12.00``) once the game
    is over; else a forfeit (``result`` ``"1-0"``: White won, ``"0-1"``: Black won) as a
    resignation of the loser, ``+64.00:r`` or ``-64.00:r``, an adjudicated draw
    (``"1/2-1/2"``) as ``+0.00:s``, and ``?`` for a game still going.

    >>> ggf_result(Board.from_transcript("f5f4c3c6c5d6f3c4c7")), ggf_result(Board(), "1-0")
    ('+64.00', '-64.00:r')
    """
    if board.is_game_over():
        return f"{board.score():+.2f}"
    return _FORFEITS.get(result, "?")


def game_to_ggf(board: Board, black: str = "?", white: str = "?", clock: float | None = None,
                result: str = "*") -> str:
    """The game that led to ``board`` (its start and every move of its stack) as GGF,
    with its result as ``RE`` (see :func:`ggf_result`).

    >>> text = game_to_ggf(Board.from_transcript("f5d6"), black="me", white="you")
    >>> text.startswith("(;GM[Othello]PC[bitgames]PB[me]PW[you]RE[?]"), text[-12:]
    (True, 'B[F5]W[D6];)')
    """
    start = board.copy()
    while start.move_stack:
        start.pop()
    return to_ggf(start, [str(m) for m in board.move_stack], black, white, clock,
                  ggf_result(board, result))


def load_transcript(text: str) -> Board:
    """A board from a transcript (``f5d6...``), a GGF game, or a file holding either."""
    path = Path(text)
    try:
        if len(text) < 4096 and path.is_file():
            text = path.read_text()
    except OSError:
        pass
    text = text.strip()
    if text.startswith("(;"):
        return parse_ggf(text).board
    compact = "".join(text.split())
    return Board.from_transcript(compact)
