"""Othello positions and moves for people: :class:`Board`, :class:`Move`, square names.

The board keeps two bitboards (black and white discs; ``a1`` = bit 0 ... ``h8`` = bit 63)
and the side to move; rules are computed by the numba kernels of
:mod:`bitgames.othello.kernels`. Colours follow :mod:`bitgames.core.board`:
:data:`WHITE` is ``True``, :data:`BLACK` is ``False``, and Black moves first.

>>> board = Board()
>>> board.turn == BLACK
True
>>> board.push("f5")
>>> [str(m) for m in board.legal_moves]
['f4', 'd6', 'f6']
>>> board.push("d6"); board.push("c3")
>>> board.transcript()
'f5d6c3'
>>> board.pop()
Move.from_str('c3')
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
the winner (tournament scoring), e.g. 40-20 with 4 empties is 44-20, +24 for Black.
:meth:`Board.result` writes the final count (``"44-20"``), :meth:`Board.outcome` gives the
difference, Black minus White, as its ``score``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from bitgames.core import errors
from bitgames.core.bits import iter_bits, popcount
from bitgames.core.board import BLACK, WHITE, BaseBoard, Color, Outcome, Termination
from bitgames.core.errors import InvalidPositionError
from bitgames.othello import kernels

__all__ = [
    "BLACK", "PASS", "WHITE", "Board", "Color", "IllegalMoveError", "InvalidMoveError",
    "InvalidPositionError", "Move", "Outcome", "Termination", "parse_square", "square_name",
]

FILE_NAMES = "abcdefgh"
RANK_NAMES = "12345678"
SQUARE_NAMES = [f + r for r in RANK_NAMES for f in FILE_NAMES]
PASS = kernels.PASS

_BLACK_CHARS = "Xx*b"
_WHITE_CHARS = "Oow"
_EMPTY_CHARS = "-."
_U = np.uint64


class InvalidMoveError(errors.InvalidMoveError):
    """A move name that cannot be read (``"z9"``)."""


class IllegalMoveError(errors.IllegalMoveError):
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
    """A move: a square index 0-63, or :data:`PASS` (64). ``str()`` is ``f5`` or ``pass``.

    >>> Move.from_str("f5"), Move.from_str("PA"), str(Move(37))
    (Move.from_str('f5'), Move.from_str('pass'), 'f5')
    """

    square: int

    def __post_init__(self) -> None:
        if not 0 <= self.square <= PASS:
            raise InvalidMoveError(f"square index out of range: {self.square}")

    @classmethod
    def from_str(cls, name: str) -> Move:
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

    def __str__(self) -> str:
        return square_name(self.square)

    def __repr__(self) -> str:
        return f"Move.from_str({str(self)!r})"


MoveLike = Move | str | int


def _as_move(move: MoveLike) -> Move:
    if isinstance(move, Move):
        return move
    if isinstance(move, str):
        return Move.from_str(move)
    return Move(int(move))


class Board(BaseBoard[Move]):
    """An Othello position with its move history.

    ``Board()`` is the start position; ``Board(fen)`` reads a position string (see
    :meth:`set_fen`), ``board.fen()`` writes it.

    >>> b = Board("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
    >>> b.empties(), b.turn == BLACK, len(b.legal_moves)
    (14, True, 8)
    """

    def __init__(self, fen: str | None = None) -> None:
        self.black = kernels.BLACK_START
        self.white = kernels.WHITE_START
        self.turn: Color = BLACK
        self.move_stack: list[Move] = []
        self._stack: list[tuple[int, int, Color]] = []
        if fen is not None:
            self.set_fen(fen)

    # -- reading and writing -------------------------------------------------------------

    def set_fen(self, fen: str) -> None:
        """Read 64 squares (a1, b1, ..., h8) then the side to move, as in FFO and OBF files.

        Discs: ``X``/``x``/``*``/``b`` black, ``O``/``o``/``w`` white, ``-``/``.`` empty.
        Side: ``X``/``B``/``*`` black, ``O``/``W`` white. Anything after a ``;`` (OBF move
        scores) and white space inside the 64 squares are ignored. The move history is
        cleared. Raises :class:`~bitgames.core.errors.InvalidPositionError` naming what is
        wrong and where.

        >>> Board("-" * 27 + "OX------XO" + "-" * 27 + " X") == Board()
        True
        >>> Board("-" * 27 + "OX------XO" + "-" * 27 + " Q")
        Traceback (most recent call last):
        ...
        bitgames.core.errors.InvalidPositionError: bad side to move 'Q' (expected X or O)
        """
        text = fen.split(";", 1)[0].strip()
        if not text:
            raise InvalidPositionError("empty board string")
        body, side = text[:-1], text[-1]
        squares = "".join(body.split())
        if len(squares) != 64:
            raise InvalidPositionError(
                f"a board needs 64 squares then the side to move, got {len(squares)} squares"
                f" in {fen.strip()!r}"
            )
        black = white = 0
        for i, ch in enumerate(squares):
            if ch in _BLACK_CHARS:
                black |= 1 << i
            elif ch in _WHITE_CHARS:
                white |= 1 << i
            elif ch not in _EMPTY_CHARS:
                raise InvalidPositionError(
                    f"bad character {ch!r} at square {i + 1} ({SQUARE_NAMES[i]}) of the board"
                )
        if side.upper() in ("X", "B", "*"):
            turn = BLACK
        elif side.upper() in ("O", "W"):
            turn = WHITE
        else:
            raise InvalidPositionError(f"bad side to move {side!r} (expected X or O)")
        self.black, self.white, self.turn = black, white, turn
        self.move_stack.clear()
        self._stack.clear()

    def fen(self) -> str:
        """64 squares (``X`` black, ``O`` white, ``-`` empty), a space, then ``X`` or ``O``.

        >>> Board().fen() == "-" * 27 + "OX------XO" + "-" * 27 + " X"
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
            move = Move.from_str(text[i : i + 2])
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
            ("pa" if passes else "") if m.is_pass() else str(m) for m in self.move_stack
        )

    # -- rules ----------------------------------------------------------------------------

    def bitboards(self) -> tuple[int, int]:
        """``(player, opponent)``: discs of the side to move, then of the other side."""
        if self.turn == BLACK:
            return self.black, self.white
        return self.white, self.black

    def _squares(self) -> list[int]:
        p, o = self.bitboards()
        moves = int(kernels.legal_moves(_U(p), _U(o)))
        if moves:
            return list(iter_bits(moves))
        if int(kernels.legal_moves(_U(o), _U(p))):
            return [PASS]
        return []

    def generate_legal_moves(self) -> list[Move]:
        """The legal moves in square order; a single pass when only the opponent can move;
        none at the end of the game."""
        return [Move(sq) for sq in self._squares()]

    def is_legal(self, move: MoveLike) -> bool:
        try:
            return _as_move(move).square in self._squares()
        except ValueError:
            return False

    def parse_move(self, text: str) -> Move:
        """The legal move named ``text`` (``f5``, ``pass``); :class:`InvalidMoveError` for
        text that is no move, :class:`IllegalMoveError` for a move not legal here."""
        move = Move.from_str(text)
        if move.square not in self._squares():
            raise IllegalMoveError(f"{move} is illegal in {self.fen()}")
        return move

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
        elif not moves >> m.square & 1:
            if not moves:
                raise IllegalMoveError(f"{m} is illegal: the side to move must pass")
            raise IllegalMoveError(f"{m} is illegal here; legal: {self._moves_text(moves)}")
        self._push(m)

    def _push(self, move: Move) -> None:
        p, o = self.bitboards()
        if not move.is_pass():
            f = int(kernels.flips(_U(p), _U(o), move.square))
            p, o = p ^ f ^ (1 << move.square), o ^ f
        self._stack.append((self.black, self.white, self.turn))
        self.move_stack.append(move)
        if self.turn == BLACK:
            self.black, self.white = p, o
        else:
            self.white, self.black = p, o
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

    def final_count(self) -> tuple[int, int]:
        """``(black, white)`` if the game ended now, the empty squares given to the winner
        (shared on a draw).

        >>> Board().final_count()
        (32, 32)
        """
        b, w = self.disc_count()
        e = 64 - b - w
        if b > w:
            return b + e, w
        if w > b:
            return b, w + e
        return b + e // 2, w + e - e // 2

    def score(self) -> int:
        """Black's final score if the game ended now: disc difference, empties to the winner."""
        b, w = self.final_count()
        return b - w

    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on; at its end (neither side can move:
        :attr:`Termination.NO_MOVES`) the winner and the ``score``, Black's final disc
        difference with the empties to the winner.

        >>> b = Board.from_transcript("f5f4c3c6c5d6f3c4c7")  # a 9-move wipe-out: 13-0
        >>> b.outcome()
        Outcome(termination=<Termination.NO_MOVES: 'no moves'>, winner=False, score=64)
        >>> b.result()
        '64-0'
        """
        if not self.is_game_over():
            return None
        s = self.score()
        return Outcome(Termination.NO_MOVES, None if s == 0 else BLACK if s > 0 else WHITE, s)

    def result(self) -> str:
        """The final disc count Black-White, empties to the winner (``"36-28"``); ``"*"``
        while the game goes on."""
        if not self.is_game_over():
            return "*"
        b, w = self.final_count()
        return f"{b}-{w}"

    def position_key(self) -> tuple[int, int, bool]:
        return self.black, self.white, self.turn

    def copy(self, stack: bool = True) -> Board:
        """An independent copy; with ``stack=False`` without the move history."""
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
        return f"Board({self.fen()!r})"


def positions_of(moves: Iterable[str]) -> Iterator[Board]:
    """The position before each move of a game played from the start (a copy each, without
    the history). Passes need not be written: where the side to move has no legal move, a
    pass is pushed, so the side to move of every position yielded plays the move that
    follows (:class:`IllegalMoveError` for a move that is not legal).

    >>> [board.empties() for board in positions_of(["f5", "d6", "c5"])]
    [60, 59, 58]
    """
    board = Board()
    for move in moves:
        if board.must_pass():
            board.push("pass")
        yield board.copy(stack=False)
        board.push(move)
