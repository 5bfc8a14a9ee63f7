"""The conventions every game's ``Board`` follows, and the pieces they share.

Every ``bitgames.<game>.Board`` has the same names, python-chess's:

- colours are ``bool``: :data:`WHITE` is ``True``, :data:`BLACK` is ``False`` (who moves
  first stays each game's rule: Black in Othello and Go, White elsewhere); ``board.turn``;
- ``Board()`` is the start position, ``Board(fen)`` reads a position string and
  ``board.fen()`` writes it back;
- ``board.legal_moves`` is a :class:`LegalMoves` view (``len``, ``in``, iteration): every
  move that ``push`` accepts, a pass included exactly where the rules allow one; it is
  empty only when the game is over;
- ``push(move | str)``, ``pop() -> Move``, ``peek()``, ``copy()``;
- ``is_game_over()``, ``outcome() -> Outcome | None``, ``result()`` (``"*"`` while the
  game goes on), ``__eq__`` / ``__hash__`` on the position and the side to move.

:class:`BaseBoard` implements the parts that are the same in every game on top of a few
methods each game provides; ``tests/test_conformance.py`` checks all of it on every game.

>>> WHITE, BLACK, color_name(BLACK)
(True, False, 'black')
>>> Outcome(Termination.NO_MOVES, WHITE).result()
'1-0'
>>> Outcome(Termination.REPETITION, None).result()
'1/2-1/2'
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from bitgames.core.errors import IllegalMoveError

Color = bool
WHITE: Color = True
BLACK: Color = False


def color_name(color: Color) -> str:
    """``"white"`` or ``"black"``."""
    return "white" if color else "black"


class Termination(enum.Enum):
    """Why a game ended. Each game documents which of these it uses."""

    #: Othello: neither side can move. Draughts: the side to move has no move (it loses).
    NO_MOVES = "no moves"
    #: Leiserchess: a king was zapped by a laser.
    KING_CAPTURED = "king captured"
    #: Go: two passes in a row.
    PASSES = "two passes"
    #: Go: a player resigned.
    RESIGNATION = "resignation"
    #: A position repeated as often as the rules allow (a draw).
    REPETITION = "repetition"
    #: A move-count rule: no progress for too long (draughts' 15/25-move rules,
    #: Leiserchess' no-zap limit).
    MOVE_RULE = "move rule"
    #: Another draw rule of the game (draughts' endgame rules: 3 kings against 1, ...).
    DRAW_RULE = "draw rule"


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: why, who won (``None``: a draw), and the final score
    where the game has one (Othello: discs, Black minus White; Go: points, Black minus
    White, komi included)."""

    termination: Termination
    winner: Color | None
    score: float | None = None

    def result(self) -> str:
        """``"1-0"`` White won, ``"0-1"`` Black won, ``"1/2-1/2"`` a draw.

        Games with a result notation of their own (Go's ``B+3.5``, Othello's disc count)
        give it from ``Board.result()``.
        """
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner else "0-1"


M = TypeVar("M")


class LegalMoves(Generic[M]):
    """A live view of the legal moves of a board: ``len``, ``in``, ``bool``, iteration.

    It asks the board each time, so it follows the board through ``push`` and ``pop``.
    """

    def __init__(self, board: BaseBoard[M]) -> None:
        self._board = board

    def __iter__(self) -> Iterator[M]:
        return iter(self._board.generate_legal_moves())

    def __len__(self) -> int:
        return self._board.count_legal_moves()

    def __bool__(self) -> bool:
        return self._board.count_legal_moves() > 0

    def __contains__(self, move: object) -> bool:
        return self._board.is_legal(move)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(str(m) for m in self)})>"


class BaseBoard(ABC, Generic[M]):
    """What the four games' boards share; a game implements the abstract methods.

    The defaults here are written once for every game: the :attr:`legal_moves` view,
    ``is_legal`` by membership, ``push`` of a move or its text with a clear error,
    ``is_game_over`` and ``result`` from :meth:`outcome`, and equality and hashing on
    :meth:`position_key`.
    """

    #: The colour that moves ``True``/``False`` (:data:`WHITE`/:data:`BLACK`).
    turn: Color

    # -- what each game provides --------------------------------------------------------------

    @abstractmethod
    def fen(self) -> str:
        """The position string: ``Board(board.fen()) == board``."""

    @abstractmethod
    def generate_legal_moves(self) -> list[M]:
        """Every legal move, in the game's own order (a pass where the rules allow it)."""

    @abstractmethod
    def parse_move(self, text: str) -> M:
        """The move ``text`` names in this position, in the game's notation.

        Raises :class:`~bitgames.core.errors.InvalidMoveError` for text that is no move,
        :class:`~bitgames.core.errors.IllegalMoveError` for a move not legal here.
        """

    @abstractmethod
    def _push(self, move: M) -> None:
        """Play ``move``, already known to be legal."""

    @abstractmethod
    def pop(self) -> M:
        """Take back the last move and return it."""

    @abstractmethod
    def peek(self) -> M:
        """The last move played (``IndexError`` if none)."""

    @abstractmethod
    def copy(self) -> Any:
        """An independent copy, move history included."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    @abstractmethod
    def position_key(self) -> tuple[Any, ...]:
        """What equality and hashing compare: the position and the side to move."""

    # -- shared -------------------------------------------------------------------------------

    def count_legal_moves(self) -> int:
        """``len(board.legal_moves)``; a game may count faster than it lists."""
        return len(self.generate_legal_moves())

    @property
    def legal_moves(self) -> LegalMoves[M]:
        """The legal moves, as a live view."""
        return LegalMoves(self)

    def is_legal(self, move: M | str) -> bool:
        """Whether ``push(move)`` would be accepted."""
        try:
            move = self.parse_move(move) if isinstance(move, str) else move
        except ValueError:
            return False
        return move in self.generate_legal_moves()

    def push(self, move: M | str) -> None:
        """Play ``move`` (a move or its text); :class:`IllegalMoveError` if not legal."""
        if isinstance(move, str):
            move = self.parse_move(move)
        if move not in self.generate_legal_moves():
            raise IllegalMoveError(f"illegal move {move} in {self.fen()}")
        self._push(move)

    def is_game_over(self) -> bool:
        """True once the game has ended (see :meth:`outcome`)."""
        return self.outcome() is not None

    def result(self) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` (or the game's own notation); ``"*"`` while
        the game goes on."""
        outcome = self.outcome()
        return "*" if outcome is None else outcome.result()

    def winner(self) -> Color | None:
        """The winner of a finished game; ``None`` on a draw or while the game goes on."""
        outcome = self.outcome()
        return None if outcome is None else outcome.winner

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.position_key() == other.position_key()

    def __hash__(self) -> int:
        return hash(self.position_key())

    def _repr_svg_(self) -> str:
        """The board as an SVG picture, which notebooks show: the ``svg()`` of the game's
        ``picture`` module (``bitgames.<game>.svg``), with its defaults."""
        import importlib

        package = type(self).__module__.rsplit(".", 1)[0]
        return str(importlib.import_module(f"{package}.picture").svg(self))
