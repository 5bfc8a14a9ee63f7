"""Othello: bitboard rules, perft and an exact endgame solver.

The public names are imported lazily, so ``import bitgames.othello`` (done by the command
line to build its help) does not load numba.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bitgames.othello.board import BLACK, WHITE, Board, Move
    from bitgames.othello.solver import SolveResult, Solver, solve

__all__ = ["BLACK", "WHITE", "Board", "Move", "SolveResult", "Solver", "solve"]

_HOME = {
    "BLACK": "board", "WHITE": "board", "Board": "board", "Move": "board",
    "SolveResult": "solver", "Solver": "solver", "solve": "solver",
}


def __getattr__(name: str) -> Any:
    if name in _HOME:
        import importlib

        return getattr(importlib.import_module(f"bitgames.othello.{_HOME[name]}"), name)
    raise AttributeError(f"module 'bitgames.othello' has no attribute {name!r}")
