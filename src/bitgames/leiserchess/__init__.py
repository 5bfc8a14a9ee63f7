"""Leiserchess (MIT 6.172, 2016 rules): rules, perft, engine, the 6.172 UCI dialect.

The public names are imported lazily, so ``import bitgames.leiserchess`` (done by the
command line to build its help) does not load numba.

>>> from bitgames.leiserchess import WHITE, Board
>>> board = Board()
>>> board.turn == WHITE, len(board.legal_moves)
(True, 65)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bitgames.core.lazy import lazy_exports

if TYPE_CHECKING:
    from bitgames.core.errors import InvalidPositionError
    from bitgames.leiserchess.board import (
        BLACK,
        WHITE,
        Board,
        Color,
        IllegalMoveError,
        Move,
        Outcome,
        Piece,
        Termination,
    )
    from bitgames.leiserchess.closebook import Closebook
    from bitgames.leiserchess.picture import svg
    from bitgames.leiserchess.search import Engine
    from bitgames.leiserchess.uci import UciClient

__all__ = [
    "BLACK",
    "WHITE",
    "Board",
    "Closebook",
    "Color",
    "Engine",
    "IllegalMoveError",
    "InvalidPositionError",
    "Move",
    "Outcome",
    "Piece",
    "Termination",
    "UciClient",
    "svg",
]

_HOMES = {name: "board" for name in ("BLACK", "WHITE", "Board", "Color", "IllegalMoveError",
                                     "Move", "Outcome", "Piece", "Termination")}
_HOMES.update(Closebook="closebook", Engine="search", InvalidPositionError="notation",
              UciClient="uci", svg="picture")

__getattr__ = lazy_exports(__name__, _HOMES)
