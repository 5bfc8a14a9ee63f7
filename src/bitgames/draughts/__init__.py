"""Russian draughts and English checkers: rules, perft, engine, FEN/PDN, Hub protocol.

>>> from bitgames.draughts import Board
>>> Board(variant="english").fen()
'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12'
"""

from typing import TYPE_CHECKING

from bitgames.core.lazy import lazy_exports

if TYPE_CHECKING:
    from bitgames.draughts.board import (
        BLACK,
        WHITE,
        AmbiguousMoveError,
        Board,
        DraughtsError,
        DrawRules,
        IllegalMoveError,
        InvalidFenError,
        InvalidMoveError,
        InvalidPositionError,
        Move,
        Outcome,
        Termination,
    )
    from bitgames.draughts.picture import svg
    from bitgames.draughts.search import Engine

__all__ = [
    "BLACK",
    "WHITE",
    "AmbiguousMoveError",
    "Board",
    "DraughtsError",
    "DrawRules",
    "Engine",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidPositionError",
    "Move",
    "Outcome",
    "Termination",
    "svg",
]

_HOMES = {name: "board" for name in __all__}
_HOMES["Engine"] = "search"
_HOMES["svg"] = "picture"

__getattr__ = lazy_exports(__name__, _HOMES)
