"""Static evaluation of draughts positions (numba kernel).

Terms, in centi-men from the side to move's point of view: material (man 100, king 250 in
Russian where kings fly, 150 in English), back-rank guard (men still on their own first
rank), centre (pieces on the eight central squares), tempo (how far the men have advanced,
which matters more as material comes off), mobility (quiet moves available), and for
Russian a bonus for a king on the main road a1-h8.

>>> from bitgames.draughts import kernels as K
>>> w, b, k, side = K.start_position(K.RUSSIAN)
>>> int(evaluate(w, b, k, side, K.RUSSIAN))
0
"""

from __future__ import annotations

import numpy as np

from bitgames.core.bits import popcount
from bitgames.core.jit import njit
from bitgames.draughts import geometry as g
from bitgames.draughts.kernels import RUSSIAN, WHITE, count_quiet

U = np.uint64

MAN = 100
KING_RUSSIAN = 250
KING_ENGLISH = 150
BACK_RANK = 8
CENTRE = 5
TEMPO = 2
MOBILITY = 2
MAIN_ROAD_KING = 12

R = [U(m) for m in g.RANK]
R1, R2, R3, R4, R5, R6, R7, R8 = R
CENTRE_MASK = U(g.mask_of([g.square_index(s) for s in
                           ("c3", "e3", "d4", "f4", "c5", "e5", "d6", "f6")]))
MAIN_ROAD = U(g.mask_of(g.lines()[8]))


@njit
def _advance_white(m: np.uint64) -> int:
    return (popcount(m & R2) + 2 * popcount(m & R3) + 3 * popcount(m & R4)
            + 4 * popcount(m & R5) + 5 * popcount(m & R6) + 6 * popcount(m & R7))


@njit
def _advance_black(m: np.uint64) -> int:
    return (popcount(m & R7) + 2 * popcount(m & R6) + 3 * popcount(m & R5)
            + 4 * popcount(m & R4) + 5 * popcount(m & R3) + 6 * popcount(m & R2))


@njit
def evaluate(w: np.uint64, b: np.uint64, k: np.uint64, side: int, variant: int) -> int:
    """Score of the position for the side to move (positive = good for it)."""
    wm = w & ~k
    bm = b & ~k
    wk = w & k
    bk = b & k
    king = KING_RUSSIAN if variant == RUSSIAN else KING_ENGLISH
    nwm = popcount(wm)
    nbm = popcount(bm)
    s = MAN * (nwm - nbm) + king * (popcount(wk) - popcount(bk))
    s += BACK_RANK * (popcount(wm & R1) - popcount(bm & R8))
    s += CENTRE * (popcount(w & CENTRE_MASK) - popcount(b & CENTRE_MASK))
    # tempo counts more in the ending (fewer men on the board)
    phase = 24 - nwm - nbm
    s += (TEMPO + phase // 6) * (_advance_white(wm) - _advance_black(bm))
    s += MOBILITY * (count_quiet(w, b, k, 0, variant) - count_quiet(w, b, k, 1, variant))
    if variant == RUSSIAN:
        s += MAIN_ROAD_KING * (popcount(wk & MAIN_ROAD) - popcount(bk & MAIN_ROAD))
    return s if side == WHITE else -s
