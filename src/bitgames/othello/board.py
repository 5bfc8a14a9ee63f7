"""Othello positions and moves for people: :class:`Board`, :class:`Move`, square names.

The board keeps two bitboards (black and white discs; ``a1`` = bit 0 ... ``h8`` = bit 63)
and the side to move; rules are computed by the numba kernels of
:mod:`bitgames.othello.kernels`.

>>> board = Board()
>>> board.push("f5")
>>> [str(m) for m in board.legal_moves]
['f4', 'd6', 'f6']
>>> board.push("d6"); board.push("c3")
>>> board.transcript()
'f5d6c3'
>>> board.pop()
Move.from_name('c3')
>>> print(board)
  a b c d e f g h
1 . . . . . . . . 1
2 . . . . . . . . 2
3 . . . . . . . . 3
4 . . . O X . . . 4
5 . . . O X X . . 5
6 . . . O . . . . 6
7 . . . . . . . . 7
8 . . . . . . . . 8
  a b c d e f g h
Black (X) to move: X 3 O 3

Scoring convention: the final score is the disc difference with the empty squares given to
the winner (tournament scoring), e.g. 40-20 with 4 empties is +24 for the winner.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

import numpy as np

from bitgames.core.bits import iter_bits, popcount
from bitgames.core.errors import BitgamesError
from bitgames.othello import kernels

Color = bool
BLACK: Color = True
WHITE: Color = False

FILE_NAMES = "abcdefgh"
RANK_NAMES = "12345678"
SQUARE_NAMES = [f + r for r in RANK_NAMES for f in FILE_NAMES]
PASS = kernels.PASS

_BLACK_CHARS = "Xx*b"
_WHITE_CHARS = "Oow"
_EMPTY_CHARS = "-."
_U = np.uint64


class OthelloError(BitgamesError):
    """Base class of Othello input errors."""


class InvalidBoardError(OthelloError):
    """A board string that cannot be read."""


class InvalidMoveError(OthelloError):
    """A move name that cannot be read."""


class IllegalMoveError(OthelloError):
    """A move that is not legal in the position."""


def parse_square(name: str) -> int:
    """Square index of a name such as ``"f5"`` (case does not matter).

    >>> parse_square("a1"), parse_square("H8"), parse_square("f5")
    (0, 63, 37)
    """
    n = name.strip().lower()
    if len(n) != 2 or n[0] not in FILE_NAMES or n[1] not in RANK_NAMES:
        raise InvalidMoveError(f"not a square: {name!r} (expected a1..h8)")
    return FILE_NAMES.index(n[0]) + 8 * RANK_NAMES.index(n[1])


def square_name(square: int) -> str:
    """Name of a square index, ``"pass"`` for :data:`PASS`.

    >>> square_name(37), square_name(PASS)
    ('f5', 'pass')
    """
    return "pass" if square == PASS else SQUARE_NAMES[square]


@dataclass(frozen=True)
class Move:
    """A move: a square index 0-63, or :data:`PASS` (64).

    >>> Move.from_name("f5"), Move.from_name("PA"), str(Move(37))
    (Move.from_name('f5'), Move.from_name('pass'), 'f5')
    """

    square: int

    def __post_init__(self) -> None:
        if not 0 <= self.square <= PASS:
            raise InvalidMoveError(f"square index out of range: {self.square}")

    @classmethod
    def from_name(cls, name: str) -> Move:
        """Read ``"f5"``, ``"F5"``, or a pass as ``"pass"``, ``"pa"`` or ``"ps"``."""
        if name.strip().lower() in ("pass", "pa", "ps", "--", "@@"):
            return cls(PASS)
        return cls(parse_square(name))

    @classmethod
    def null(cls) -> Move:
        """The pass move."""
        return cls(PASS)

    def is_pass(self) -> bool:
        return self.square == PASS

    def name(self) -> str:
        return square_name(self.square)

    def __str__(self) -> str:
        return self.name()

    def __repr__(self) -> str:
        return f"Move.from_name({self.name()!r})"


MoveLike = Move | str | int


def _as_move(move: MoveLike) -> Move:
    if isinstance(move, Move):
        return move
    if isinstance(move, str):
        return Move.from_name(move)
    return Move(int(move))


class LegalMoves:
    """A view of the legal moves of a board (a pass when only the opponent can move)."""

    def __init__(self, board: Board) -> None:
        self._board = board

    def _squares(self) -> list[int]:
        p, o = self._board.bitboards()
        moves = int(kernels.legal_moves(_U(p), _U(o)))
        if moves:
            return list(iter_bits(moves))
        if int(kernels.legal_moves(_U(o), _U(p))):
            return [PASS]
        return []

    def __iter__(self) -> Iterator[Move]:
        return (Move(sq) for sq in self._squares())

    def __len__(self) -> int:
        return len(self._squares())

    def __bool__(self) -> bool:
        return bool(self._squares())

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and move.square in self._squares()

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(square_name(s) for s in self._squares())})>"


class Board:
    """An Othello position with its move history.

    ``Board()`` is the start position; ``Board(s)`` reads a board string (see
    :meth:`from_string`).

    >>> b = Board("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
    >>> b.empties(), b.turn == BLACK, len(b.legal_moves)
    (14, True, 8)
    """

    def __init__(self, string: str | None = None) -> None:
        self.black = kernels.BLACK_START
        self.white = kernels.WHITE_START
        self.turn: Color = BLACK
        self.move_stack: list[Move] = []
        self._stack: list[tuple[int, int, Color]] = []
        if string is not None:
            self.set_string(string)

    # -- reading and writing -------------------------------------------------------------

    @classmethod
    def from_string(cls, string: str) -> Board:
        """Read 64 squares (a1, b1, ..., h8) then the side to move, as in FFO and OBF files.

        Discs: ``X``/``x``/``*``/``b`` black, ``O``/``o``/``w`` white, ``-``/``.`` empty.
        Side: ``X``/``B`` black, ``O``/``W`` white. Anything after a ``;`` (OBF move scores)
        and white space inside the 64 squares are ignored.

        >>> Board.from_string("-" * 27 + "OX------XO" + "-" * 27 + " X") == Board()
        True
        """
        board = cls()
        board.set_string(string)
        return board

    def set_string(self, string: str) -> None:
        text = string.split(";", 1)[0].strip()
        if not text:
            raise InvalidBoardError("empty board string")
        body, side = text[:-1], text[-1]
        squares = "".join(body.split())
        if len(squares) != 64:
            raise InvalidBoardError(
                f"a board needs 64 squares then the side to move, got {len(squares)} squares"
                f" in {string.strip()!r}"
            )
        black = white = 0
        for i, ch in enumerate(squares):
            disc = _disc_of(ch)
            if disc is None:
                raise InvalidBoardError(
                    f"bad character {ch!r} at square {i + 1} ({SQUARE_NAMES[i]}) of the board"
                )
            if disc == "b":
                black |= 1 << i
            elif disc == "w":
                white |= 1 << i
        if side.upper() in ("X", "B", "*"):
            turn = BLACK
        elif side.upper() in ("O", "W"):
            turn = WHITE
        else:
            raise InvalidBoardError(f"bad side to move {side!r} (expected X or O)")
        self.black, self.white, self.turn = black, white, turn
        self.move_stack.clear()
        self._stack.clear()

    def to_string(self) -> str:
        """64 squares (``X`` black, ``O`` white, ``-`` empty), a space, then ``X`` or ``O``.

        >>> Board().to_string() == "-" * 27 + "OX------XO" + "-" * 27 + " X"
        True
        """
        chars = []
        for sq in range(64):
            bit = 1 << sq
            chars.append("X" if self.black & bit else "O" if self.white & bit else "-")
        return "".join(chars) + (" X" if self.turn == BLACK else " O")

    @classmethod
    def from_transcript(cls, transcript: str, start: Board | None = None) -> Board:
        """Play a transcript such as ``"f5d6c3d3c4"`` from the start (or ``start``).

        Passes may be written (``pa`` or ``ps``) or left out: when the side to move has no
        legal move, a pass is inserted before the next move.

        >>> Board.from_transcript("f5 d6 C3").transcript()
        'f5d6c3'
        """
        board = start.copy(stack=False) if start is not None else cls()
        text = "".join(transcript.split())
        if len(text) % 2:
            raise InvalidMoveError(f"a transcript is pairs of characters, got {transcript!r}")
        for i in range(0, len(text), 2):
            move = Move.from_name(text[i : i + 2])
            if not move.is_pass() and board.must_pass():
                board.push(Move(PASS))
            try:
                board.push(move)
            except IllegalMoveError as exc:
                raise IllegalMoveError(f"move {i // 2 + 1} of the transcript: {exc}") from None
        return board

    def transcript(self, passes: bool = False) -> str:
        """The moves played, as ``"f5d6c3"``; passes are written as ``pa`` if ``passes``."""
        return "".join(
            ("pa" if passes else "") if m.is_pass() else m.name() for m in self.move_stack
        )

    # -- rules ----------------------------------------------------------------------------

    def bitboards(self) -> tuple[int, int]:
        """``(player, opponent)``: discs of the side to move, then of the other side."""
        if self.turn == BLACK:
            return self.black, self.white
        return self.white, self.black

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves; a single pass when only the opponent can move; empty at the end."""
        return LegalMoves(self)

    def is_legal(self, move: MoveLike) -> bool:
        return _as_move(move) in self.legal_moves

    def must_pass(self) -> bool:
        """True when the side to move has no move but the opponent has one."""
        p, o = self.bitboards()
        return not int(kernels.legal_moves(_U(p), _U(o))) and bool(
            int(kernels.legal_moves(_U(o), _U(p)))
        )

    def flips(self, move: MoveLike) -> int:
        """Bitboard of the discs the move would flip (0 for a pass or an illegal move)."""
        m = _as_move(move)
        if m.is_pass():
            return 0
        p, o = self.bitboards()
        if (p | o) >> m.square & 1:
            return 0
        return int(kernels.flips(_U(p), _U(o), m.square))

    def push(self, move: MoveLike) -> None:
        """Play a legal move (a :class:`Move`, a name such as ``"f5"``/``"pass"``, or an index).

        Raises :class:`IllegalMoveError` if it is not legal here.
        """
        m = _as_move(move)
        p, o = self.bitboards()
        moves = int(kernels.legal_moves(_U(p), _U(o)))
        if m.is_pass():
            if moves:
                raise IllegalMoveError(f"cannot pass: {self._moves_text(moves)} available")
            if not int(kernels.legal_moves(_U(o), _U(p))):
                raise IllegalMoveError("cannot pass: the game is over")
            np_, no = p, o
        else:
            if not moves >> m.square & 1:
                if not moves:
                    raise IllegalMoveError(f"{m} is illegal: the side to move must pass")
                raise IllegalMoveError(f"{m} is illegal here; legal: {self._moves_text(moves)}")
            f = int(kernels.flips(_U(p), _U(o), m.square))
            np_, no = p ^ f ^ (1 << m.square), o ^ f
        self._stack.append((self.black, self.white, self.turn))
        self.move_stack.append(m)
        if self.turn == BLACK:
            self.black, self.white = np_, no
        else:
            self.white, self.black = np_, no
        self.turn = not self.turn

    @staticmethod
    def _moves_text(moves: int) -> str:
        return " ".join(SQUARE_NAMES[s] for s in iter_bits(moves))

    def pop(self) -> Move:
        """Take back the last move and return it."""
        if not self.move_stack:
            raise IndexError("pop from a board with no moves played")
        self.black, self.white, self.turn = self._stack.pop()
        return self.move_stack.pop()

    def peek(self) -> Move:
        """The last move played."""
        return self.move_stack[-1]

    def is_game_over(self) -> bool:
        p, o = self.bitboards()
        return bool(kernels.is_game_over(_U(p), _U(o)))

    def disc_count(self) -> tuple[int, int]:
        """``(black, white)`` discs on the board."""
        return popcount(self.black), popcount(self.white)

    def empties(self) -> int:
        return 64 - popcount(self.black | self.white)

    def score(self) -> int:
        """Black's final score if the game ended now: disc difference, empties to the winner."""
        b, w = self.disc_count()
        diff = b - w
        return diff + (64 - b - w) * ((diff > 0) - (diff < 0))

    def winner(self) -> Color | None:
        """Winner of a finished game (None on a draw or while the game goes on)."""
        if not self.is_game_over():
            return None
        s = self.score()
        return None if s == 0 else (BLACK if s > 0 else WHITE)

    def result(self) -> Literal["1-0", "0-1", "1/2-1/2", "*"]:
        """``"1-0"`` black won, ``"0-1"`` white won, ``"1/2-1/2"`` draw, ``"*"`` not over."""
        if not self.is_game_over():
            return "*"
        s = self.score()
        return "1-0" if s > 0 else "0-1" if s < 0 else "1/2-1/2"

    def copy(self, stack: bool = True) -> Board:
        board = Board.__new__(Board)
        board.black, board.white, board.turn = self.black, self.white, self.turn
        board.move_stack = list(self.move_stack) if stack else []
        board._stack = list(self._stack) if stack else []
        return board

    # -- display --------------------------------------------------------------------------

    def grid(self, mark_moves: bool = False) -> str:
        """The board as text; with ``mark_moves`` the legal moves are shown as ``*``."""
        p, o = self.bitboards()
        moves = int(kernels.legal_moves(_U(p), _U(o))) if mark_moves else 0
        lines = ["  a b c d e f g h"]
        for r in range(8):
            row = []
            for f in range(8):
                bit = 1 << (8 * r + f)
                if self.black & bit:
                    row.append("X")
                elif self.white & bit:
                    row.append("O")
                elif moves & bit:
                    row.append("*")
                else:
                    row.append(".")
            lines.append(f"{r + 1} {' '.join(row)} {r + 1}")
        lines.append("  a b c d e f g h")
        b, w = self.disc_count()
        if self.is_game_over():
            status = f"Game over: X {b} O {w}, {self.result()}"
        else:
            side = "Black (X)" if self.turn == BLACK else "White (O)"
            status = f"{side} to move: X {b} O {w}"
        lines.append(status)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.grid()

    def __repr__(self) -> str:
        return f"Board({self.to_string()!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Board)
            and (self.black, self.white, self.turn) == (other.black, other.white, other.turn)
        )

    def __hash__(self) -> int:
        return hash((self.black, self.white, self.turn))


def _disc_of(ch: str) -> str | None:
    if ch in _BLACK_CHARS:
        return "b"
    if ch in _WHITE_CHARS:
        return "w"
    if ch in _EMPTY_CHARS:
        return "e"
    return None
