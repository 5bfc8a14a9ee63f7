"""Go on 9x9 to 19x19 boards: bitmap board kernels, light playouts, MCTS, GTP and SGF.

>>> from bitgames.core.engine import Limit
>>> from bitgames.go import BLACK, Board, Engine, Move
>>> board = Board(size=9, komi=7.5, moves="E5 D5")
>>> board.turn == BLACK, board.peek(), board.color_at("E5")
(True, Move.from_gtp('D5'), False)
>>> board.fen()
'9/9/9/9/3OX4/9/9/9/9 b - 0 7.5 default'
>>> result = Engine(seed=1).search(board, Limit(nodes=1000))
>>> result.move in board.legal_moves, result.score.unit.name
(True, 'WINRATE')
>>> board.push(result.move)
>>> board.result()
'*'
"""

from typing import TYPE_CHECKING

from bitgames.core.lazy import lazy_exports

if TYPE_CHECKING:
    from bitgames.go.board import (
        BLACK,
        WHITE,
        Board,
        Color,
        IllegalMoveError,
        InvalidMoveError,
        InvalidPositionError,
        Move,
        Outcome,
        Rules,
        Termination,
    )
    from bitgames.go.gtp import GtpClient
    from bitgames.go.mcts import Engine
    from bitgames.go.picture import svg

__all__ = [
    "BLACK",
    "WHITE",
    "Board",
    "Color",
    "Engine",
    "GtpClient",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "Move",
    "Outcome",
    "Rules",
    "Termination",
    "svg",
]

__getattr__ = lazy_exports(
    __name__,
    {name: "board" for name in __all__} | {"Engine": "mcts", "GtpClient": "gtp", "svg": "picture"},
)
