"""PDN (Portable Draughts Notation) games: read and write.

A game is tag pairs (``[GameType "25"]`` Russian, ``[GameType "21"]`` English; the long
form ``"25,W,8,8,A0,0"`` is read too; ``[FEN "..."]`` for a set-up position) followed by the
move text. Reading skips move numbers, comments ``{...}``, variations ``(...)``, NAGs
(``$1``, ``!``, ``?``) and checks every move. Results are written White-Black: ``2-0``,
``1-1``, ``0-2`` for Russian (FMJD style), ``1-0``, ``1/2-1/2``, ``0-1`` for English.

>>> game = read_game('[GameType "25"]\\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 *')
>>> game.board.fen()
'W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3:Be5,b6,d6,h6,a7,c7,e7,b8,d8,f8,h8'
>>> print(write_game(game.board, {"Event": "demo"}))
[Event "demo"]
[GameType "25"]
[Result "*"]
<BLANKLINE>
1. c3-d4 f6-e5 2. d4:f6 g7:e5 *
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from bitgames.draughts.board import WHITE, Board, DraughtsError

GAME_TYPES = {"25": "russian", "21": "english"}
TYPE_OF = {"russian": "25", "english": "21"}
RESULTS = {
    "russian": {"1-0": "2-0", "0-1": "0-2", "1/2-1/2": "1-1", "*": "*"},
    "english": {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", "*": "*"},
}
RESULT_TOKENS = {"2-0", "0-2", "1-1", "1-0", "0-1", "1/2-1/2", "0-0", "*"}

_TAG = re.compile(r'\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]')


class PdnError(DraughtsError):
    """A PDN game that cannot be read."""


@dataclass
class PdnGame:
    """A game read from PDN: its tags, the final board (with the moves), the result tag."""

    tags: dict[str, str] = field(default_factory=dict)
    board: Board = field(default_factory=Board)
    result: str = "*"


def _variant_of(tags: dict[str, str]) -> str:
    gt = tags.get("GameType", "25").split(",")[0].strip()
    if gt not in GAME_TYPES:
        raise PdnError(f"GameType {gt!r} is not supported (25 Russian, 21 English)")
    return GAME_TYPES[gt]


def _strip(text: str) -> str:
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r";[^\n]*", " ", text)
    while True:  # innermost variations first
        new = re.sub(r"\([^()]*\)", " ", text)
        if new == text:
            return text
        text = new


def read_game(text: str) -> PdnGame:
    """Read one PDN game (the first one in ``text``)."""
    games = list(read_games(text))
    if not games:
        raise PdnError("no game found")
    return games[0]


def read_games(text: str) -> Iterator[PdnGame]:
    """Read every game of a PDN file's text."""
    # split before each tag block that follows move text
    chunks: list[str] = []
    current: list[str] = []
    in_moves = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("[") and in_moves:
            chunks.append("\n".join(current))
            current, in_moves = [], False
        if stripped and not stripped.startswith("["):
            in_moves = True
        current.append(line)
    if any(s.strip() for s in current):
        chunks.append("\n".join(current))
    for number, chunk in enumerate(chunks, start=1):
        try:
            yield _read_one(chunk)
        except DraughtsError as exc:
            raise PdnError(f"game {number}: {exc}") from None


def _read_one(chunk: str) -> PdnGame:
    tags = {m.group(1): re.sub(r"\\(.)", r"\1", m.group(2)) for m in _TAG.finditer(chunk)}
    moves_text = _strip(_TAG.sub(" ", chunk))
    variant = _variant_of(tags)
    board = Board(tags.get("FEN"), variant=variant)
    result = tags.get("Result", "*")
    for token in moves_text.split():
        token = token.strip()
        if token in RESULT_TOKENS:
            result = token
            continue
        token = re.sub(r"^\d+\.(\.\.)?", "", token)  # "12." or "12..." glued to a move
        token = re.sub(r"[!?]+$", "", token)
        if not token or token.startswith("$") or re.fullmatch(r"\.+", token):
            continue
        try:
            board.push(token)
        except DraughtsError as exc:
            raise PdnError(f"move {len(board.move_stack) + 1} ({token!r}): {exc}") from None
    return PdnGame(tags, board, result)


def write_game(board: Board, tags: dict[str, str] | None = None,
               result: str | None = None) -> str:
    """The game of ``board`` (its moves from the start or from its set-up FEN) as PDN."""
    moves = list(board.move_stack)
    start = board.copy()
    for _ in moves:
        start.pop()
    out_tags = dict(tags or {})
    out_tags["GameType"] = TYPE_OF[board.variant]
    initial = Board(variant=board.variant)
    if start.fen() != initial.fen():
        out_tags["FEN"] = start.fen()
    if result is None:
        result = RESULTS[board.variant][board.result()]
    out_tags["Result"] = result
    lines = [f'[{k} "{_escape(v)}"]' for k, v in out_tags.items()]
    words: list[str] = []
    b = start
    number = 1
    first = True
    for m in moves:
        white_like = (b.turn == WHITE) if board.variant == "russian" else (b.turn != WHITE)
        if white_like:
            words.append(f"{number}.")
        elif first:
            words.append(f"{number}...")
        words.append(b.move_name(m))
        if not white_like:
            number += 1
        b.push(m)
        first = False
    words.append(result)
    text, line = [], ""
    for w in words:
        if len(line) + len(w) + 1 > 79:
            text.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    text.append(line)
    return "\n".join(lines) + "\n\n" + "\n".join(text)


def _escape(value: str) -> str:
    """A tag value with ``\\`` and ``"`` escaped, as PGN and PDN write them.

    >>> _escape('cmd:"scan hub"')
    'cmd:\\\\"scan hub\\\\"'
    """
    return value.replace("\\", "\\\\").replace('"', '\\"')
