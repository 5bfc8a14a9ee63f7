"""Othello: bitboard rules, perft and an exact endgame solver.

The public names are imported lazily, so ``import bitgames.othello`` (done by the command
line to build its help) does not load numba.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bitgames.core.lazy import lazy_exports

if TYPE_CHECKING:
    from bitgames.othello.board import BLACK, WHITE, Board, Move
    from bitgames.othello.solver import Solver, SolveResult, solve

__all__ = ["BLACK", "WHITE", "Board", "Move", "SolveResult", "Solver", "solve"]

__getattr__ = lazy_exports(
    __name__,
    {"BLACK": "board", "WHITE": "board", "Board": "board", "Move": "board",
     "SolveResult": "solver", "Solver": "solver", "solve": "solver"},
)
