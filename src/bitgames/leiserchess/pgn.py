"""Game records in the 6.172 referee's PGN-like format (plain Python, no numba).

The course's autotester writes each game as tag pairs (``Event``, ``Site``, ``Date``,
``Round``, ``White``, ``Black``, ``Result``), a blank line, then the moves in the
engines' own notation, numbered per move pair, five numbers to a line. After each move a
comment ``{NANOSECONDS DEPTH NODES}`` gives the think time, the depth reached and the
nodes searched; an irregular end is a comment such as ``{Black wins due to time
forfeit}``; the result closes the game. A game not from the opening position carries the
usual PGN ``SetUp``/``FEN`` tags.

>>> from bitgames.leiserchess.board import Board
>>> board = Board()
>>> for text in ("h4g5", "c5b6", "g3R"):
...     board.push(text)
>>> text = write_game(board, "A", "B", "*", round=3, date="2026.11.23",
...                   comments=[MoveComment(1_200_000, 4, 812), None, None])
>>> print(text)
[Event "bitgames match"]
[Site "Local"]
[Date "2026.11.23"]
[Round "3"]
[White "A"]
[Black "B"]
[Result "*"]
<BLANKLINE>
1. h4g5 {1200000 4 812} c5b6 2. g3R *
<BLANKLINE>
>>> game = read_games(text)[0]
>>> game.tags["White"], [str(m) for m in game.moves], game.comments[0], game.result
('A', ['h4g5', 'c5b6', 'g3R'], MoveComment(nanoseconds=1200000, depth=4, nodes=812), '*')
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bitgames.core.errors import InvalidPositionError
from bitgames.leiserchess.notation import START_FEN

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_TOKEN = re.compile(r'\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]|\{([^}]*)\}|(\S+)')
_MOVE_NUMBER = re.compile(r"\d+\.+$")


@dataclass(frozen=True)
class MoveComment:
    """What the referee notes after a move: think time, depth and nodes."""

    nanoseconds: int
    depth: int
    nodes: int

    def __str__(self) -> str:
        return f"{{{self.nanoseconds} {self.depth} {self.nodes}}}"


@dataclass
class GameText:
    """One game read back: its tags, moves (``Move``), per-move comments (None where the
    record has none), other comments (an irregular end), result, and the final board."""

    tags: dict[str, str]
    moves: list[Any]
    comments: list[MoveComment | None]
    notes: list[str] = field(default_factory=list)
    result: str = "*"
    board: Any = None


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def write_game(board: Any, white: str, black: str, result: str, *,
               event: str = "bitgames match", site: str = "Local", date: str | None = None,
               round: int | str = "?", comments: Sequence[MoveComment | None] = (),
               note: str = "") -> str:
    """The record of the game played on ``board`` (its whole move stack).

    ``comments[i]`` (where given and not None) follows move ``i``; ``note`` (an irregular
    end, say ``Black wins due to time forfeit``) comes before the result.
    """
    if result not in RESULTS:
        raise ValueError(f"result must be one of {', '.join(RESULTS)}, got {result!r}")
    start = board.copy()
    while start.move_stack:
        start.pop()
    tags = [("Event", event), ("Site", site),
            ("Date", date or datetime.date.today().strftime("%Y.%m.%d")),
            ("Round", str(round)), ("White", white), ("Black", black), ("Result", result)]
    if start.fen() != START_FEN:
        tags += [("SetUp", "1"), ("FEN", start.fen())]
    head = "".join(f'[{key} "{_quote(value)}"]\n' for key, value in tags)
    lines: list[str] = []
    words: list[str] = []
    first_black = not start.turn
    for index, move in enumerate(board.move_stack):
        ply = index + first_black
        if ply % 2 == 0 or index == 0:
            number = ply // 2 + 1
            if words and (number - 1) % 5 == 0:
                lines.append(" ".join(words))
                words = []
            words.append(f"{number}." if ply % 2 == 0 else f"{number}...")
        words.append(str(move))
        if index < len(comments) and comments[index] is not None:
            words.append(str(comments[index]))
    if note:
        words.append(f"{{{note}}}")
    words.append(result)
    lines.append(" ".join(words))
    return head + "\n" + "\n".join(lines) + "\n"


def read_games(text: str, draw_rule: str = "rules") -> list[GameText]:
    """Every game in ``text``; each move is checked by the rules (an illegal or unreadable
    move raises :class:`~bitgames.core.errors.InvalidPositionError` naming the game and
    the move)."""
    from bitgames.leiserchess.board import Board

    games: list[GameText] = []
    game: GameText | None = None
    for match in _TOKEN.finditer(text):
        key, value, comment, word = match.groups()
        if key is not None:
            if game is None or game.moves or game.board is not None:
                game = GameText({}, [], [])
                games.append(game)
            game.tags[key] = re.sub(r"\\(.)", r"\1", value)
            continue
        if game is None:
            game = GameText({}, [], [])
            games.append(game)
        if game.board is None:
            game.board = Board(game.tags.get("FEN", START_FEN),
                               draw_rule=draw_rule)  # type: ignore[arg-type]
        if comment is not None:
            parts = comment.split()
            if len(parts) == 3 and all(p.lstrip("-").isdigit() for p in parts) and game.moves:
                game.comments[-1] = MoveComment(*(int(p) for p in parts))
            else:
                game.notes.append(comment.strip())
        elif word in RESULTS:
            game.result = word
            game = None
        elif not _MOVE_NUMBER.match(word):
            try:
                game.board.push(word)
            except ValueError as exc:
                raise InvalidPositionError(
                    f"game {len(games)}, move {len(game.moves) + 1} ({word}): {exc}") from None
            game.moves.append(game.board.peek())
            game.comments.append(None)
    return games
