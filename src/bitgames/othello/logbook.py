"""Logistello's self-play games (``logbook.gam``, often gzipped), read by a reader of our own.

Logistello (Michael Buro's program) learned its opening book from games it played against
itself; the file of those games is public. Each line is one game: the moves, each a colour
sign and a square (``+`` Black, ``-`` White; passes are not written), a colon, then Black's
disc difference at the end (discs on the board, empties to nobody) and one more number,
which this reader does not use::

    +d3-c3+c4-e3+c2-b3 ... -a8+b8-b7: -04 10

Every game of the public file is played to its end, and from 18 empty squares on the
results are exact: on 101 positions of 16 and of 18 empties sampled from the file, the
game's result from there equals our solver's score every time (at 20 empties 88 % of
the time, and always the same winner). :data:`EXACT_EMPTIES` records that.

>>> game = parse_line("+f5-f4+c3-c6+c5-d6+f3-c4+c7: +13 10")  # a 9-move wipe-out
>>> game.moves[:3], game.black_score
(['f5', 'f4', 'c3'], 64)
>>> [board.empties() for board in game.positions()][:3]
[60, 59, 58]
>>> parse_line("+f5-f4+c3-c6+c5-d6+f3-c4+c7: -13 10")
Traceback (most recent call last):
...
ValueError: the result -13 is not the board's +13
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bitgames.core.board import BLACK
from bitgames.core.errors import BitgamesError, IllegalMoveError, InvalidMoveError
from bitgames.othello.board import Board, positions_of

#: positions with at most this many empties carry their game's exact score (measured, see
#: the module's docstring)
EXACT_EMPTIES = 18


class LogbookError(BitgamesError):
    """A logbook line that cannot be read; the message names the file and the line."""


@dataclass(frozen=True)
class LogbookGame:
    """One game: its moves (no passes) and Black's final score, the disc difference with
    the empty squares given to the winner (as :meth:`Board.score`)."""

    moves: list[str]
    black_score: int

    def positions(self) -> Iterator[Board]:
        """The position before each move (see :func:`~bitgames.othello.board.positions_of`)."""
        return positions_of(self.moves)

    def transcript(self) -> str:
        """The moves as one string, ``f5f6e6f4...``."""
        return "".join(self.moves)


def parse_line(line: str) -> LogbookGame:
    """One game of a logbook line (:class:`ValueError` saying what is wrong: a move of the
    wrong colour, an illegal move, a game that is not over, or a result other than the
    board's)."""
    moves_text, sep, rest = line.strip().partition(":")
    fields = rest.split()
    if not sep or not fields:
        raise ValueError("no ': RESULT' after the moves")
    try:
        recorded = int(fields[0])
    except ValueError:
        raise ValueError(f"the result {fields[0]!r} is not a number") from None
    if len(moves_text) % 3:
        raise ValueError("the moves are not all a sign and a square (+d3-c3...)")
    board = Board()
    moves = []
    for i in range(0, len(moves_text), 3):
        sign, square = moves_text[i], moves_text[i + 1: i + 3].lower()
        if sign not in "+-":
            raise ValueError(f"move {i // 3 + 1} ({moves_text[i: i + 3]}): the sign must be "
                             "+ (Black) or - (White)")
        if board.must_pass():
            board.push("pass")
        if (sign == "+") != (board.turn == BLACK):
            raise ValueError(f"move {i // 3 + 1} ({moves_text[i: i + 3]}): it is "
                             f"{'Black' if board.turn == BLACK else 'White'}'s turn")
        try:
            board.push(square)
        except (IllegalMoveError, InvalidMoveError) as exc:
            raise ValueError(f"move {i // 3 + 1} ({moves_text[i: i + 3]}): {exc}") from None
        moves.append(square)
    if not board.is_game_over():
        raise ValueError(f"the game is not over after {len(moves)} moves")
    black, white = board.disc_count()
    if black - white != recorded:
        raise ValueError(f"the result {recorded:+d} is not the board's {black - white:+d}")
    return LogbookGame(moves, board.score())


def read_logbook(text: str, name: str = "logbook") -> list[LogbookGame]:
    """The games of a logbook's text (blank lines skipped; :class:`LogbookError` naming
    ``name`` and the line for what is wrong)."""
    games = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                games.append(parse_line(line))
            except ValueError as exc:
                raise LogbookError(f"{name}, line {number}: {exc}") from None
    return games


def load_logbook(path: str | Path) -> list[LogbookGame]:
    """Read a logbook file, gzipped (``.gz``) or not."""
    path = Path(path)
    try:
        data = path.read_bytes()
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
    except (OSError, EOFError) as exc:
        raise LogbookError(f"{path}: {getattr(exc, 'strerror', None) or exc}") from None
    return read_logbook(data.decode("ascii", errors="replace"), str(path))
