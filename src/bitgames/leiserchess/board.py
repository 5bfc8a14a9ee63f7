"""Leiserchess positions and moves for people: :class:`Board`, :class:`Move`, :class:`Piece`.

The rules (2016, MIT 6.172) are computed by :mod:`bitgames.leiserchess.kernels`; this module
keeps the history needed by the Ko rule and the draw rules.

>>> board = Board()
>>> len(board.legal_moves), len(board.pseudo_legal_moves)
(65, 78)
>>> board.turn == WHITE  # Tangerine (uppercase) moves first
True
>>> board.push("h4g5")
>>> board.push(Move.from_str("c5R"))
>>> board.fen()
'ss3nw3/3nw4/2ne1nw1SE1/1nw3SE2/nw1nw3SE1/3SE1SE2/4SE3/3SE3NN W'
>>> board.pop(), board.pop()
(Move.from_str('c5R'), Move.from_str('h4g5'))
>>> board == Board()
True

Ko: after Tangerine swaps its King with a Lavender Pawn, Lavender may not swap straight back.

>>> b = Board("ss7/8/8/8/8/8/6nw1/7NN W")
>>> b.push("h0g1")
>>> Move.from_str("h0g1") in b.legal_moves, Move.from_str("h0g1") in b.pseudo_legal_moves
(False, True)

Draw rules: ``draw_rule="rules"`` (the rules document: 50 moves each without a Pawn
zapped, or the same position with the same side to move a third time),
``"referee"`` (the course referee: 200 plies without any zap, or threefold repetition), or
``"none"`` (only a zapped King ends the game; the UCI engine uses this, since the referee
adjudicates draws itself).

>>> Board("ss7/8/8/8/8/8/8/WW7 W").outcome() is None
True
>>> b = Board("ss7/8/8/8/8/8/8/WW7 W"); b.push("a0R"); b.outcome(), b.result()
(Outcome(termination=<Termination.KING_CAPTURED: 'king captured'>, winner=True, score=None), '1-0')
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

import numpy as np

from bitgames.core.board import (
    BLACK,
    WHITE,
    BaseBoard,
    Color,
    LegalMoves,
    Outcome,
    Termination,
)
from bitgames.core.errors import BitgamesError, IllegalMoveError
from bitgames.leiserchess import kernels
from bitgames.leiserchess.notation import (
    KING_ORIENTATIONS,
    PAWN_ORIENTATIONS,
    START_FEN,
    MoveError,
    encode_move,
    format_fen,
    move_to_str,
    parse_fen,
    parse_square,
    piece_code,
    square_name,
    str_to_move,
)

__all__ = ["BLACK", "WHITE", "Board", "Color", "IllegalMoveError", "Move", "Outcome", "Piece",
           "Termination", "side_index"]

#: Names of the colours, by kernel index (:func:`side_index`).
COLOR_NAMES = ("Tangerine", "Lavender")
DrawRule = Literal["rules", "referee", "none"]

_U = np.uint64
_LASER_CELLS = ("..", "**", "++", "##")
Bitboards = tuple[int, int, int, int, int]


def side_index(color: Color) -> int:
    """The kernels' index of a colour: 0 for :data:`WHITE` (Tangerine, moves first), 1 for
    :data:`BLACK` (Lavender).

    >>> side_index(WHITE), side_index(BLACK)
    (0, 1)
    """
    return 0 if color else 1


@dataclass(frozen=True)
class Move:
    """A move: a step or swap (``from != to``), a rotation (``rotation`` 1=R, 2=U, 3=L) or
    the King's null move (``from == to``, no rotation).

    >>> Move.from_str("h4g5"), Move.from_str("g3r"), str(Move(7, 7))
    (Move.from_str('h4g5'), Move.from_str('g3R'), 'h0h0')
    """

    from_square: int
    to_square: int
    rotation: int = 0

    def __post_init__(self) -> None:
        if not (0 <= self.from_square < 64 and 0 <= self.to_square < 64):
            raise MoveError(
                f"square index out of range in move {self.from_square}->{self.to_square}"
            )
        if self.rotation not in (0, 1, 2, 3):
            raise MoveError(f"rotation must be 0..3, got {self.rotation}")
        if self.rotation and self.from_square != self.to_square:
            raise MoveError("a rotation keeps the piece on its square")

    @classmethod
    def from_str(cls, text: str) -> Move:
        """Read ``h4g5``, ``g3R``/``g3U``/``g3L`` or ``h0h0`` (case-insensitive)."""
        return cls.from_code(str_to_move(text))

    @classmethod
    def from_code(cls, code: int) -> Move:
        """The move of a kernel move code."""
        return cls(code & 63, (code >> 6) & 63, (code >> 12) & 3)

    @property
    def code(self) -> int:
        """The kernels' move code."""
        return encode_move(self.from_square, self.to_square, self.rotation)

    def is_null(self) -> bool:
        return self.from_square == self.to_square and self.rotation == 0

    def is_rotation(self) -> bool:
        return self.rotation != 0

    def __str__(self) -> str:
        return move_to_str(self.code)

    def __repr__(self) -> str:
        return f"Move.from_str({str(self)!r})"


@dataclass(frozen=True)
class Piece:
    """A piece: colour, King or Pawn, orientation 0..3.

    >>> Piece.from_code("SE"), Piece.from_code("ss").symbol()
    (Piece.from_code('SE'), 'ss')
    """

    color: Color  #: WHITE (Tangerine, uppercase) or BLACK (Lavender, lowercase)
    king: bool
    orientation: int

    @classmethod
    def from_code(cls, code: str) -> Piece:
        up = code.upper()
        color = WHITE if code.isupper() else BLACK
        if up in KING_ORIENTATIONS:
            return cls(color, True, KING_ORIENTATIONS.index(up))
        if up in PAWN_ORIENTATIONS:
            return cls(color, False, PAWN_ORIENTATIONS.index(up))
        raise BitgamesError(f"unknown piece code {code!r}")

    def symbol(self) -> str:
        code = (KING_ORIENTATIONS if self.king else PAWN_ORIENTATIONS)[self.orientation]
        return code if self.color else code.lower()

    def __repr__(self) -> str:
        return f"Piece.from_code({self.symbol()!r})"


MoveLike = Move | str


class PseudoLegalMoves(LegalMoves[Move]):
    """A live view of every generated move, the Ko rule ignored (the handout's perft)."""

    _board: Board

    def __iter__(self) -> Iterator[Move]:
        return (Move.from_code(c) for c in self._board._move_codes(False))

    def __len__(self) -> int:
        return len(self._board._move_codes(False))

    def __bool__(self) -> bool:
        return bool(self._board._move_codes(False))

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and move.code in self._board._move_codes(False)

    def __repr__(self) -> str:
        return f"<PseudoLegalMoves ({', '.join(str(m) for m in self)})>"


@dataclass
class _Undo:
    bitboards: Bitboards
    zapped: int
    result: int
    no_pawn_zap: int
    no_zap: int


class Board(BaseBoard[Move]):
    """A Leiserchess position with its history (for Ko and draws).

    ``Board()`` is the opening position, ``Board(fen)`` reads a FEN
    (:class:`~bitgames.core.errors.InvalidPositionError` naming what is wrong and where).
    A FEN carries no history, so Ko rule (b) does not apply to the first move after it.
    ``turn`` is :data:`WHITE` (Tangerine) or :data:`BLACK` (Lavender).

    Games end by :attr:`Termination.KING_CAPTURED` (the zapped King's owner loses),
    :attr:`Termination.REPETITION` (a third occurrence) or :attr:`Termination.MOVE_RULE`
    (the no-zap limit of ``draw_rule``).
    """

    def __init__(self, fen: str | None = START_FEN, *, draw_rule: DrawRule = "rules") -> None:
        if draw_rule not in ("rules", "referee", "none"):
            raise BitgamesError(
                f"draw_rule must be 'rules', 'referee' or 'none', got {draw_rule!r}"
            )
        self.draw_rule: DrawRule = draw_rule
        self.move_stack: list[Move] = []
        self._undo: list[_Undo] = []
        self._boards: list[tuple[Bitboards, int]] = []
        self.set_fen(START_FEN if fen is None else fen)

    # -- FEN -----------------------------------------------------------------------------

    def set_fen(self, fen: str) -> None:
        """Replace the position (and forget the history) with a FEN."""
        w, b, k, o0, o1, side = parse_fen(fen)
        self._bb: Bitboards = (w, b, k, o0, o1)
        self.turn: Color = side == 0
        self.result_code = kernels.NONE  # a FEN without a King: that King was zapped
        if not k & w:
            self.result_code = kernels.WHITE_KING_ZAPPED
        elif not k & b:
            self.result_code = kernels.BLACK_KING_ZAPPED
        self.last_zapped = 0
        self.no_pawn_zap_plies = 0
        self.no_zap_plies = 0
        self.move_stack.clear()
        self._undo.clear()
        self._boards = [(self._bb, side)]

    def fen(self) -> str:
        """The position as FEN.

        >>> Board().fen() == START_FEN
        True
        """
        return format_fen(*self._bb, self.side)

    @classmethod
    def from_fen(cls, fen: str, *, draw_rule: DrawRule = "rules") -> Board:
        return cls(fen, draw_rule=draw_rule)

    @property
    def side(self) -> int:
        """The side to move as the kernels' index (0 Tangerine, 1 Lavender)."""
        return 0 if self.turn else 1

    def bitboards(self) -> Bitboards:
        """``(w, b, k, o0, o1)`` as plain ints (see :mod:`bitgames.leiserchess.kernels`)."""
        return self._bb

    def _u(self) -> tuple[np.uint64, ...]:
        return tuple(_U(x) for x in self._bb)

    def _prev(self) -> tuple[Bitboards, int]:
        """Board two plies back (Ko rule (b)) and whether it exists."""
        if len(self._boards) >= 2:
            return self._boards[-2][0], 1
        return (0, 0, 0, 0, 0), 0

    # -- pieces and lasers -----------------------------------------------------------------

    def piece_at(self, square: int | str) -> Piece | None:
        """The piece on a square (index or name), or None.

        >>> Board().piece_at("h0"), Board().piece_at("a7"), Board().piece_at("e4")
        (Piece.from_code('NN'), Piece.from_code('ss'), None)
        """
        sq = parse_square(square) if isinstance(square, str) else square
        code = piece_code(*self._bb, sq)
        return Piece.from_code(code) if code else None

    def king_square(self, color: Color) -> int | None:
        """The square of ``color``'s King (None once it was zapped).

        >>> square_name(Board().king_square(WHITE)), square_name(Board().king_square(BLACK))
        ('h0', 'a7')
        """
        w, b, k, _, _ = self._bb
        kb = k & (w if color else b)
        return kb.bit_length() - 1 if kb else None

    def laser_path(self, color: Color) -> int:
        """Bitmap of the squares ``color``'s laser crosses now (King square and stop square
        included).

        >>> from bitgames.core.bits import iter_bits
        >>> [square_name(s) for s in iter_bits(Board().laser_path(WHITE))]
        ['h0', 'h1', 'h2', 'h3', 'h4']
        """
        return int(kernels.laser_path(*self._u(), side_index(color)))

    def pinned(self) -> int:
        """Bitmap of the side to move's Pawns on the enemy beam (they cannot move)."""
        w, b, k, _, _ = self._bb
        own = w if self.turn else b
        return self.laser_path(not self.turn) & own & ~k

    # -- moves -----------------------------------------------------------------------------

    def _move_codes(self, legal: bool) -> list[int]:
        if self.result_code != kernels.NONE or (legal and self.is_draw()):
            return []
        out = np.zeros(kernels.MAX_MOVES, dtype=np.int64)
        if legal:
            prev, has = self._prev()
            n = kernels.legal_moves(*self._u(), self.side, *(_U(x) for x in prev), has, out)
        else:
            u = self._u()
            path = _U(kernels.laser_path(*u, 1 - self.side))
            n = kernels.gen_moves(*u, self.side, path, out)
        return [int(c) for c in out[:n]]

    def generate_legal_moves(self) -> list[Move]:
        """The moves that obey the Ko rule, in generation order (none once the game is
        over)."""
        return [Move.from_code(c) for c in self._move_codes(True)]

    def count_legal_moves(self) -> int:
        return len(self._move_codes(True))

    @property
    def pseudo_legal_moves(self) -> PseudoLegalMoves:
        """Every generated move, Ko ignored (what the handout's perft counts)."""
        return PseudoLegalMoves(self)

    def is_legal(self, move: MoveLike) -> bool:
        try:
            code = (Move.from_str(move) if isinstance(move, str) else move).code
        except ValueError:
            return False
        return code in self._move_codes(True)

    def parse_move(self, text: str) -> Move:
        """Read a move and check that it is legal here.

        >>> Board().parse_move("h0h0")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        bitgames.core.errors.IllegalMoveError: illegal move h0h0 in ...: Ko rule (...)
        """
        move = Move.from_str(text)
        if move.code in self._move_codes(True):
            return move
        raise IllegalMoveError(f"illegal move {move} in {self.fen()}: {self._why_illegal(move)}")

    def _why_illegal(self, move: Move) -> str:
        if self.result_code != kernels.NONE:
            return "the game is over"
        if self.is_draw():
            return "the game is drawn"
        w, b, k, _, _ = self._bb
        own = w if self.turn else b
        bit = 1 << move.from_square
        if not own & bit:
            return f"no {COLOR_NAMES[self.side]} piece on {square_name(move.from_square)}"
        if self.pinned() & bit:
            return f"the Pawn on {square_name(move.from_square)} is pinned by the enemy laser"
        if move.is_null() and not k & bit:
            return "only a King can make a null move"
        if move.code in self._move_codes(False):
            after = kernels.make_move(*self._u(), self.side, move.code)
            bb = tuple(int(x) for x in after[:5])
            if bb == self._bb:
                return "Ko rule (the position would not change)"
            return "Ko rule (it would restore the position before the opponent's move)"
        return "not a move of this position"

    def push(self, move: MoveLike) -> None:
        """Play a legal move (a :class:`Move` or its text); :class:`IllegalMoveError`
        saying why otherwise."""
        m = move if isinstance(move, Move) else Move.from_str(move)
        if m.code not in self._move_codes(True):
            raise IllegalMoveError(f"illegal move {m} in {self.fen()}: {self._why_illegal(m)}")
        self._push(m)

    def _push(self, move: Move) -> None:
        w, b, k, o0, o1, zapped, result = kernels.make_move(*self._u(), self.side, move.code)
        self._undo.append(
            _Undo(self._bb, self.last_zapped, self.result_code, self.no_pawn_zap_plies,
                  self.no_zap_plies)
        )
        self._bb = (int(w), int(b), int(k), int(o0), int(o1))
        self.last_zapped = int(zapped)
        self.result_code = int(result)
        any_zap = zapped > 0 or result != kernels.NONE
        self.no_pawn_zap_plies = 0 if zapped > 0 else self.no_pawn_zap_plies + 1
        self.no_zap_plies = 0 if any_zap else self.no_zap_plies + 1
        self.turn = not self.turn
        self.move_stack.append(move)
        self._boards.append((self._bb, self.side))

    def pop(self) -> Move:
        """Take back the last move; return it (``IndexError`` if none was played)."""
        if not self.move_stack:
            raise IndexError("pop from a board with no moves played")
        u = self._undo.pop()
        self._boards.pop()
        self._bb = u.bitboards
        self.last_zapped = u.zapped
        self.result_code = u.result
        self.no_pawn_zap_plies = u.no_pawn_zap
        self.no_zap_plies = u.no_zap
        self.turn = not self.turn
        return self.move_stack.pop()

    def peek(self) -> Move:
        """The last move played (``IndexError`` if none)."""
        return self.move_stack[-1]

    # -- end of game -----------------------------------------------------------------------

    def repetitions(self) -> int:
        """How many times the current position (same side to move) has occurred."""
        cur = self._boards[-1]
        return sum(1 for x in self._boards if x == cur)

    def _draw_termination(self) -> Termination | None:
        if self.result_code != kernels.NONE or self.draw_rule == "none":
            return None
        if self.repetitions() >= 3:
            return Termination.REPETITION
        if self.draw_rule == "rules":
            limit_reached = self.no_pawn_zap_plies >= 100
        else:
            limit_reached = self.no_zap_plies >= 200
        return Termination.MOVE_RULE if limit_reached else None

    def is_draw(self) -> bool:
        """True when a draw rule applies (threefold repetition, or the no-zap limit)."""
        return self._draw_termination() is not None

    def outcome(self) -> Outcome | None:
        """``KING_CAPTURED`` with the winner, a draw by ``REPETITION`` or ``MOVE_RULE``
        (the no-zap limit), or None while the game goes on."""
        if self.result_code == kernels.WHITE_KING_ZAPPED:
            return Outcome(Termination.KING_CAPTURED, BLACK)
        if self.result_code == kernels.BLACK_KING_ZAPPED:
            return Outcome(Termination.KING_CAPTURED, WHITE)
        draw = self._draw_termination()
        return None if draw is None else Outcome(draw, None)

    # -- copies, comparison, display -------------------------------------------------------

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.__dict__.update(self.__dict__)
        other.move_stack = list(self.move_stack)
        other._undo = list(self._undo)
        other._boards = list(self._boards)
        return other

    def position_key(self) -> tuple[Bitboards, bool]:
        return self._bb, self.turn

    def __repr__(self) -> str:
        rule = "" if self.draw_rule == "rules" else f", draw_rule={self.draw_rule!r}"
        return f"Board({self.fen()!r}{rule})"

    def draw(self, lasers: bool = True) -> str:
        """The board as text, rank 7 at the top; with ``lasers`` the empty squares crossed
        by Tangerine's beam show ``**``, by Lavender's ``++``, by both ``##``.

        >>> print(Board("ss7/8/8/8/8/8/8/7NN W").draw())
           a  b  c  d  e  f  g  h
        7  ss .. .. .. .. .. .. ** 7
        6  ++ .. .. .. .. .. .. ** 6
        5  ++ .. .. .. .. .. .. ** 5
        4  ++ .. .. .. .. .. .. ** 4
        3  ++ .. .. .. .. .. .. ** 3
        2  ++ .. .. .. .. .. .. ** 2
        1  ++ .. .. .. .. .. .. ** 1
        0  ++ .. .. .. .. .. .. NN 0
           a  b  c  d  e  f  g  h
        Tangerine (uppercase) to move
        """
        wp = self.laser_path(WHITE) if lasers else 0
        bp = self.laser_path(BLACK) if lasers else 0
        header = "   " + "  ".join("abcdefgh")
        lines = [header]
        for rank in range(7, -1, -1):
            cells = []
            for f in range(8):
                sq = rank * 8 + f
                code = piece_code(*self._bb, sq)
                if code:
                    cells.append(code)
                else:
                    on_w, on_b = wp >> sq & 1, bp >> sq & 1
                    cells.append(_LASER_CELLS[on_w + 2 * on_b])
            lines.append(f"{rank}  {' '.join(cells)} {rank}")
        lines.append(header)
        if self.is_game_over():
            lines.append(f"game over: {self.result()}")
        else:
            case = "uppercase" if self.turn else "lowercase"
            lines.append(f"{COLOR_NAMES[self.side]} ({case}) to move")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.draw(lasers=True)
