"""Perft for :class:`~bitgames.leiserchess.board.Board` positions.

>>> from bitgames.leiserchess.board import Board
>>> perft_board(Board(), 2)["total"], perft_board(Board(), 2, legal=True)["total"]
(6084, 4227)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from bitgames.core.errors import BitgamesError
from bitgames.leiserchess import kernels
from bitgames.leiserchess.board import Board
from bitgames.leiserchess.notation import move_to_str

_U = np.uint64


def perft_board(board: Board, depth: int, *, legal: bool = False, divide: bool = False,
                stop: np.ndarray | None = None,
                on_move: Callable[[str, int], None] | None = None) -> dict[str, int]:
    """Leaf count below ``board`` (key ``"total"``), and per root move with ``divide``.

    The pseudo-legal count is the course handout's (Ko ignored); ``legal`` applies the Ko
    rule, using the board's history for the root (none after a bare FEN). Once
    ``stop[0]`` is set (a :class:`~bitgames.core.engine.StopSignal`'s ``flag``) the
    kernels return at once and the counts are partial. With ``divide``,
    ``on_move(move, count)`` is called as each root move is counted (a progress bar).
    """
    if stop is None:
        stop = np.zeros(1, dtype=np.int64)
    if depth < 1:
        raise BitgamesError(f"perft depth must be 1 or more, got {depth}")
    if board.is_game_over():
        return {"total": 0}
    bb = tuple(_U(x) for x in board.bitboards())
    buf = kernels.perft_buffer(depth)
    prev, has = board._prev()
    pv = tuple(_U(x) for x in prev)
    side = board.side
    if not divide:
        assert on_move is None, "on_move needs divide=True"
        if legal:
            n = kernels.perft_legal(*bb, side, depth, *pv, has, buf, 0, stop)
        else:
            n = kernels.perft(*bb, side, depth, buf, 0, stop)
        return {"total": int(n)}
    out: dict[str, int] = {}
    codes = [m.code for m in (board.legal_moves if legal else board.pseudo_legal_moves)]
    for code in codes:
        if stop[0]:
            break
        w, b, k, o0, o1, _zapped, res = kernels.make_move(*bb, side, code)
        if res != kernels.NONE or depth == 1:
            out[move_to_str(code)] = 1
            if on_move is not None:
                on_move(move_to_str(code), 1)
            continue
        child = (_U(w), _U(b), _U(k), _U(o0), _U(o1))
        if legal:
            n = kernels.perft_legal(*child, 1 - side, depth - 1, *bb, 1, buf, 0, stop)
        else:
            n = kernels.perft(*child, 1 - side, depth - 1, buf, 0, stop)
        out[move_to_str(code)] = int(n)
        if on_move is not None:
            on_move(move_to_str(code), int(n))
    out["total"] = sum(out.values())
    return out
