"""How each game meets a learning agent: its actions as integers, its observation planes.

A :class:`Codec` turns moves into action numbers and back, lists the legal ones as a mask,
and draws the position as planes of 0/1 (height x width x planes, ``int8``) seen from the
side to move. The encodings are stable: the same move of the same position always has the
same number.

- **othello** (65 actions): the square a1 = 0 ... h8 = 63, then 64 = pass. Planes: the
  mover's discs, the opponent's.
- **draughts-russian**, **draughts-english** (4,096 actions): ``(start * 32 + end) * 4 +
  route`` over the 32 dark squares (bit numbering of :mod:`bitgames.draughts.geometry`);
  ``route`` tells apart the captures with the same start and end but other captured pieces
  (rank of the captured set among them, smallest first; 0 for every other move). Planes
  (8 x 8): mover's men, mover's kings, opponent's men, opponent's kings, a plane of ones
  when White moves.
- **go** (``size`` x ``size`` + 1 actions): the point ``row * size + column`` (row 0 at the
  bottom), then the pass. Planes: mover's stones, opponent's, the Ko point, a plane of ones
  when Black moves.
- **leiserchess** (16,384 actions): the kernels' move code ``from + 64 * to + 4096 *
  rotation`` (rotation 1 = R, 2 = U, 3 = L; a null move goes from a square to itself).
  Planes (8 x 8): for the mover then the opponent, its King in each of 4 facings and its
  Pawns in each of 4 orientations; the same 16 planes for the position before the last
  move (the Ko rule forbids returning to it); a plane of ones when Tangerine moves.

>>> sorted(names())
['draughts-english', 'draughts-russian', 'go', 'leiserchess', 'othello']
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from bitgames.core.errors import IllegalMoveError


class Codec(ABC):
    """One game for the environments (see the module docstring)."""

    #: the agents, in the order they move from the start position
    agents: tuple[str, str]
    #: the colour (``board.turn``) of each agent
    colors: dict[str, bool]
    n_actions: int
    shape: tuple[int, int, int]
    #: plies after which a game still going is truncated (by default)
    max_plies: int

    @abstractmethod
    def new_board(self) -> Any:
        """The start position."""

    @abstractmethod
    def encode(self, board: Any, move: Any) -> int:
        """The action number of a legal ``move`` of ``board``."""

    @abstractmethod
    def planes(self, board: Any) -> np.ndarray:
        """The observation of ``board`` from the side to move."""

    @abstractmethod
    def engine(self, level: int) -> Any:
        """The game's built-in engine at ``level`` (an opponent)."""

    def decode(self, board: Any, action: int) -> Any:
        """The legal move of ``board`` with number ``action``
        (:class:`~bitgames.core.errors.IllegalMoveError` if none)."""
        for move in board.legal_moves:
            if self.encode(board, move) == action:
                return move
        raise IllegalMoveError(f"action {action} is not a legal move of {board.fen()}")

    def mask(self, board: Any) -> np.ndarray:
        """1 for each legal action, 0 elsewhere (all 0 once the game is over)."""
        out = np.zeros(self.n_actions, dtype=np.int8)
        if not board.is_game_over():
            for move in board.legal_moves:
                out[self.encode(board, move)] = 1
        return out


def _bits(x: int, n: int = 64) -> np.ndarray:
    return ((x >> np.arange(n, dtype=np.uint64)) & 1).astype(np.int8)


class Othello(Codec):
    agents = ("black", "white")
    colors = {"black": False, "white": True}
    n_actions = 65
    shape = (8, 8, 2)
    max_plies = 130

    def new_board(self) -> Any:
        from bitgames.othello.board import Board

        return Board()

    def engine(self, level: int) -> Any:
        from bitgames.othello.search import Engine

        return Engine(level=level, table_bits=16)

    def encode(self, board: Any, move: Any) -> int:
        return int(move.square)

    def decode(self, board: Any, action: int) -> Any:
        from bitgames.othello.board import Move

        move = Move(int(action)) if 0 <= action <= 64 else None
        if move is None or not board.is_legal(move):
            raise IllegalMoveError(f"action {action} is not a legal move of {board.fen()}")
        return move

    def planes(self, board: Any) -> np.ndarray:
        p, o = board.bitboards()  # rows a1..h8: row = rank - 1, column = file
        return np.stack([_bits(p).reshape(8, 8), _bits(o).reshape(8, 8)], axis=-1)


class Draughts(Codec):
    n_actions = 32 * 32 * 4
    shape = (8, 8, 5)
    max_plies = 300

    def __init__(self, variant: str) -> None:
        from bitgames.draughts import geometry as g

        self.variant = variant
        first = "white" if variant == "russian" else "black"
        self.agents = (first, "black" if first == "white" else "white")
        self.colors = {"white": True, "black": False}
        self.rows = np.array([7 - g.COORDS[s][1] for s in range(32)])
        self.cols = np.array([g.COORDS[s][0] for s in range(32)])

    def new_board(self) -> Any:
        from bitgames.draughts.board import Board

        return Board(variant=self.variant)

    def engine(self, level: int) -> Any:
        from bitgames.draughts.search import Engine

        return Engine(self.variant, level=level, table_bits=16)

    def encode(self, board: Any, move: Any) -> int:
        route = 0
        if move.captured:
            rivals = sorted(m.captured for m in board.legal_moves
                            if (m.start, m.end) == (move.start, move.end))
            route = rivals.index(move.captured)
            if route > 3:
                raise IllegalMoveError(f"{move}: more than 4 captures from {move.start} to "
                                       f"{move.end}; the encoding has room for 4")
        return (move.start * 32 + move.end) * 4 + route

    def planes(self, board: Any) -> np.ndarray:
        w, b, k, side = board.bitboards()
        own, opp = (w, b) if side == 0 else (b, w)
        out = np.zeros(self.shape, dtype=np.int8)
        for plane, bits in enumerate((own & ~k, own & k, opp & ~k, opp & k)):
            on = _bits(bits, 32).astype(bool)
            out[self.rows[on], self.cols[on], plane] = 1
        out[:, :, 4] = side == 0
        return out


class Go(Codec):
    agents = ("black", "white")
    colors = {"black": False, "white": True}

    def __init__(self, size: int = 9, komi: float = 7.5) -> None:
        self.size, self.komi = size, komi
        self.n_actions = size * size + 1
        self.shape = (size, size, 4)
        self.max_plies = 3 * size * size

    def new_board(self) -> Any:
        from bitgames.go.board import Board

        return Board(size=self.size, komi=self.komi)

    def engine(self, level: int) -> Any:
        from bitgames.go.mcts import Engine

        return Engine(level)

    def encode(self, board: Any, move: Any) -> int:
        point = move.point(self.size)
        return self.size * self.size if point < 0 else int(point)

    def planes(self, board: Any) -> np.ndarray:
        n = self.size
        out = np.zeros(self.shape, dtype=np.int8)
        for plane, colour in enumerate((board.turn, not board.turn)):
            for point in board.stones(colour):
                out[n - 1 - point // n, point % n, plane] = 1
        ko = board.ko_point
        if ko is not None and ko >= 0:
            out[n - 1 - ko // n, ko % n, 2] = 1
        out[:, :, 3] = board.turn is False  # Black to move
        return out


class Leiserchess(Codec):
    agents = ("tangerine", "lavender")
    colors = {"tangerine": True, "lavender": False}
    n_actions = 64 * 64 * 4
    shape = (8, 8, 33)
    max_plies = 400

    def new_board(self) -> Any:
        from bitgames.leiserchess.board import Board

        return Board()

    def engine(self, level: int) -> Any:
        from bitgames.leiserchess.search import Engine

        return Engine(level, table_bits=16)

    def encode(self, board: Any, move: Any) -> int:
        return int(move.code)

    def planes(self, board: Any) -> np.ndarray:
        out = np.zeros(self.shape, dtype=np.int8)
        self._pieces(board, board.turn, out, 0)
        if board.move_stack:
            before = board.copy()
            before.pop()
            self._pieces(before, board.turn, out, 16)
        out[:, :, 32] = board.turn is True
        return out

    @staticmethod
    def _pieces(board: Any, mover: bool, out: np.ndarray, first: int) -> None:
        for sq in range(64):
            piece = board.piece_at(sq)
            if piece is None:
                continue
            plane = first + (0 if piece.color == mover else 8) + (0 if piece.king else 4)
            out[7 - (sq >> 3), sq & 7, plane + piece.orientation] = 1


CODECS: dict[str, Any] = {
    "othello": Othello,
    "draughts-russian": lambda: Draughts("russian"),
    "draughts-english": lambda: Draughts("english"),
    "go": Go,
    "leiserchess": Leiserchess,
}


def names() -> list[str]:
    """The environments :func:`bitgames.env.make` builds."""
    return list(CODECS)
