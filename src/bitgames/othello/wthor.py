"""The French federation's WTHOR database of tournament games (``WTH_YYYY.wtb``), with its
player and tournament lists (``WTHOR.JOU``, ``WTHOR.TRN``), read by a reader of our own.

A file starts with a 16-byte header: the date it was written (century, year, month,
day), the number of games (4 bytes) or of names (2 bytes), the year of the games, the
board size (0 or 8), the game kind, and the number of empty squares from which the
*theoretical score* was computed by perfect play. Then come 68-byte games: tournament,
Black and White as indices into the lists (2 bytes each), Black's discs at the end and
Black's theoretical score (1 byte each), and 60 moves coded as ``10 * row + column``
(``56`` is f5), 0 after the last one. Passes are not written: the side that cannot move
passes. Names are Latin-1, 20 bytes (players) or 26 bytes (tournaments), zero-padded.
Numbers are little-endian.

>>> header = bytes([20, 23, 4, 26, 1, 0, 0, 0, 0, 0, 231, 7, 8, 0, 24, 0])
>>> game = bytes([5, 0, 1, 0, 2, 0, 33, 32]) + bytes([56, 64, 53, 46]) + bytes(56)
>>> base = read_base(header + game)
>>> base.year, base.depth, base.games[0].moves
(2023, 24, ['f5', 'd6', 'c5', 'f4'])
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bitgames.core.errors import BitgamesError
from bitgames.othello.board import Board, positions_of

HEADER = 16
GAME = 68
#: bytes of a name in the player (``.JOU``) and tournament (``.TRN``) lists
PLAYER_NAME, TOURNAMENT_NAME = 20, 26
_HEAD = struct.Struct("<BBBBIHHBBBB")
_GAME = struct.Struct("<HHHBB")


class WthorError(BitgamesError):
    """A WTHOR file that cannot be read; the message names the file and the game."""


@dataclass(frozen=True)
class WthorGame:
    """One game: indices of its tournament and players, Black's discs at the end,
    Black's theoretical score, the moves (no passes) and the year."""

    tournament: int
    black: int
    white: int
    black_discs: int
    theoretical: int
    moves: list[str]
    year: int

    def board(self) -> Board:
        """The game replayed by our rules, passes pushed where a side cannot move
        (:class:`~bitgames.core.errors.IllegalMoveError` for a move that is not legal)."""
        return Board.from_transcript(self.transcript())

    def positions(self) -> Iterator[Board]:
        """The position before each move of the game (a copy each; passes pushed where a
        side cannot move, so the side to move always has the move that follows).

        >>> game = WthorGame(0, 0, 0, 33, 32, ["f5", "d6", "c5"], 2023)
        >>> [board.empties() for board in game.positions()]
        [60, 59, 58]
        """
        return positions_of(self.moves)

    def transcript(self) -> str:
        """The moves as one string, ``f5f6e6f4...``."""
        return "".join(self.moves)


@dataclass
class WthorBase:
    """A ``.wtb`` file: its header facts and its games."""

    year: int
    depth: int
    written: str
    games: list[WthorGame] = field(default_factory=list)


def _square(code: int) -> str:
    row, column = divmod(code, 10)
    if not (1 <= row <= 8 and 1 <= column <= 8):
        raise ValueError(f"move code {code} is no square (10 x row + column, 1..8)")
    return "abcdefgh"[column - 1] + str(row)


def read_base(data: bytes, name: str = "WTHOR file") -> WthorBase:
    """The games of a ``.wtb`` file's bytes (:class:`WthorError` naming ``name`` and the
    game for what is wrong)."""
    if len(data) < HEADER:
        raise WthorError(f"{name}: {len(data)} bytes, shorter than the 16-byte header")
    century, year2, month, day, count, _, year, size, _, depth, _ = _HEAD.unpack_from(data)
    if size not in (0, 8):
        raise WthorError(f"{name}: board size {size}; only 8x8 games are read")
    if len(data) != HEADER + GAME * count:
        raise WthorError(f"{name}: the header says {count} games ({HEADER + GAME * count} "
                         f"bytes) but the file has {len(data)} bytes")
    base = WthorBase(year, depth, f"{century:02d}{year2:02d}-{month:02d}-{day:02d}")
    for index in range(count):
        offset = HEADER + GAME * index
        tournament, black, white, discs, theory = _GAME.unpack_from(data, offset)
        codes = data[offset + 8: offset + GAME]
        end = codes.index(0) if 0 in codes else len(codes)
        try:
            moves = [_square(c) for c in codes[:end]]
        except ValueError as exc:
            raise WthorError(f"{name}: game {index + 1}: {exc}") from None
        if discs > 64 or theory > 64:
            raise WthorError(f"{name}: game {index + 1}: a score of more than 64 discs")
        base.games.append(WthorGame(tournament, black, white, discs, theory, moves, year))
    return base


def read_names(data: bytes, width: int, name: str = "WTHOR list") -> list[str]:
    """The names of a ``WTHOR.JOU`` (``width`` 20) or ``WTHOR.TRN`` (26) file's bytes."""
    if len(data) < HEADER or (len(data) - HEADER) % width:
        raise WthorError(f"{name}: {len(data)} bytes is not a 16-byte header and "
                         f"{width}-byte names")
    body = data[HEADER:]
    return [body[i: i + width].split(b"\0", 1)[0].decode("latin-1").strip()
            for i in range(0, len(body), width)]


def load_base(path: str | Path) -> WthorBase:
    """Read a ``.wtb`` file."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise WthorError(f"{path}: {exc.strerror or exc}") from None
    return read_base(data, str(path))


@dataclass
class Names:
    """Player and tournament names, from the lists beside the games (when present)."""

    players: list[str] = field(default_factory=list)
    tournaments: list[str] = field(default_factory=list)

    @classmethod
    def beside(cls, path: str | Path) -> Names:
        """The lists in the folder of ``path`` (``WTHOR.JOU``, ``WTHOR.TRN``), any case."""
        folder = Path(path).parent
        found = {p.name.upper(): p for p in folder.iterdir()} if folder.is_dir() else {}
        names = cls()
        if "WTHOR.JOU" in found:
            names.players = read_names(found["WTHOR.JOU"].read_bytes(), PLAYER_NAME,
                                       str(found["WTHOR.JOU"]))
        if "WTHOR.TRN" in found:
            names.tournaments = read_names(found["WTHOR.TRN"].read_bytes(), TOURNAMENT_NAME,
                                           str(found["WTHOR.TRN"]))
        return names

    def player(self, index: int) -> str:
        return self.players[index] if 0 <= index < len(self.players) else f"player {index}"

    def tournament(self, index: int) -> str:
        return (self.tournaments[index] if 0 <= index < len(self.tournaments)
                else f"tournament {index}")


def games_of(paths: list[str | Path]) -> Iterator[tuple[Path, int, WthorGame]]:
    """Each game of each file: its file, its number in the file (from 1), the game."""
    for path in paths:
        for number, game in enumerate(load_base(path).games, 1):
            yield Path(path), number, game
