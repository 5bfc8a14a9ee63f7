"""Othello: bitboard rules, perft, an engine, an exact endgame solver, the NBoard protocol.

The public names are imported lazily, so ``import bitgames.othello`` (done by the command
line to build its help) does not load numba.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bitgames.core.lazy import lazy_exports

if TYPE_CHECKING:
    from bitgames.othello.board import (
        BLACK,
        WHITE,
        Board,
        IllegalMoveError,
        InvalidPositionError,
        Move,
        Outcome,
        Termination,
    )
    from bitgames.othello.nboard import NBoardClient
    from bitgames.othello.picture import svg
    from bitgames.othello.search import Engine
    from bitgames.othello.solver import Solver, SolveResult, solve

__all__ = ["BLACK", "WHITE", "Board", "Engine", "IllegalMoveError", "InvalidPositionError",
           "Move", "NBoardClient", "Outcome", "SolveResult", "Solver", "Termination", "solve",
           "svg"]

__getattr__ = lazy_exports(
    __name__,
    {"BLACK": "board", "WHITE": "board", "Board": "board", "Move": "board",
     "IllegalMoveError": "board", "InvalidPositionError": "board", "Outcome": "board",
     "Termination": "board", "Engine": "search", "NBoardClient": "nboard",
     "SolveResult": "solver", "Solver": "solver", "solve": "solver", "svg": "picture"},
)
