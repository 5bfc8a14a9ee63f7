"""Go on 9x9 to 19x19 boards: bitmap board kernels, light playouts, MCTS, GTP and SGF.

>>> from bitgames.go import Board
>>> Board(size=9, moves="E5 D5").vertex(Board(size=9, moves="E5").peek())
'E5'
"""

from typing import TYPE_CHECKING

from bitgames.core.lazy import lazy_exports

if TYPE_CHECKING:
    from bitgames.go.board import (
        BLACK,
        EMPTY,
        PASS,
        RESIGN,
        WHITE,
        Board,
        IllegalMoveError,
        Rules,
        point_to_vertex,
        vertex_to_point,
    )

__all__ = [
    "BLACK",
    "EMPTY",
    "PASS",
    "RESIGN",
    "WHITE",
    "Board",
    "IllegalMoveError",
    "Rules",
    "point_to_vertex",
    "vertex_to_point",
]

__getattr__ = lazy_exports(__name__, {name: "board" for name in __all__})
