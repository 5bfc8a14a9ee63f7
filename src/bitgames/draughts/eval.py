"""Static evaluation of draughts positions (numba kernel).

Terms, in centi-men from the side to move's point of view: material (man 100, king 250 in
Russian where kings fly, 150 in English), back-rank guard (men still on their own first
rank), centre (pieces on the eight central squares), tempo (how far the men have advanced,
which matters more as material comes off), mobility (quiet moves available), and for
Russian a bonus for a king on the main road a1-h8.

The weights are an ``int64`` array (:func:`hand_weights`, indices ``W_*``) passed to the
kernel, so matches can compare weight sets without recompiling
(``benchmarks/draughts_tune.py``). A longer array holds a learned evaluation
(:mod:`bitgames.draughts.patterns`), which the kernel then uses instead; where one is
shipped (Russian) it is what the engine plays with (:func:`default_weights`).

>>> from bitgames.draughts import kernels as K
>>> w, b, k, side = K.start_position(K.RUSSIAN)
>>> int(evaluate(w, b, k, side, K.RUSSIAN, hand_weights()))
0
>>> len(default_weights("russian")) > len(default_weights("english"))
True
"""

from __future__ import annotations

import numpy as np

from bitgames.core.bits import popcount
from bitgames.core.jit import njit
from bitgames.draughts import geometry as g
from bitgames.draughts import patterns as P
from bitgames.draughts.kernels import RUSSIAN, WHITE, count_quiet

U = np.uint64

W_MAN, W_KING_RUSSIAN, W_KING_ENGLISH, W_BACK_RANK, W_CENTRE, W_TEMPO, W_MOBILITY, \
    W_MAIN_ROAD = range(8)
WEIGHT_NAMES = ("man", "king_russian", "king_english", "back_rank", "centre", "tempo",
                "mobility", "main_road")
#: Default weights (centi-men) per variant, from matches (``benchmarks/draughts_tune.py``,
#: 98 games per change, depth 4 and 6; figures in docs/PERFORMANCE.md). English gained
#: +76 Elo [+40, +113] at depth 6 from back_rank 16 and mobility 4; the same change did not
#: help Russian at depth 6, so Russian keeps the first guesses.
DEFAULTS: dict[str, dict[str, int]] = {
    "russian": {"man": 100, "king_russian": 250, "king_english": 150, "back_rank": 8,
                "centre": 5, "tempo": 2, "mobility": 2, "main_road": 12},
    "english": {"man": 100, "king_russian": 250, "king_english": 150, "back_rank": 16,
                "centre": 5, "tempo": 2, "mobility": 4, "main_road": 0},
}


def hand_weights(variant: str = "russian", **changes: int) -> np.ndarray:
    """The hand weight array of ``variant``, with named weights changed (``mobility=4``)."""
    if variant not in DEFAULTS:
        raise ValueError(f"unknown variant {variant!r}")
    values = dict(DEFAULTS[variant])
    for name, value in changes.items():
        if name not in values:
            raise ValueError(f"unknown weight {name!r}; known: {', '.join(WEIGHT_NAMES)}")
        values[name] = value
    return np.array([values[n] for n in WEIGHT_NAMES], dtype=np.int64)


def default_weights(variant: str = "russian") -> np.ndarray:
    """The weights the engine plays ``variant`` with: the learned evaluation shipped for it
    (:func:`bitgames.draughts.patterns.shipped`), else the hand weights."""
    learned = P.shipped(variant)
    return hand_weights(variant) if learned is None else learned


R = [U(m) for m in g.RANK]
R1, R2, R3, R4, R5, R6, R7, R8 = R
CENTRE_MASK = U(g.mask_of([g.square_index(s) for s in
                           ("c3", "e3", "d4", "f4", "c5", "e5", "d6", "f6")]))
MAIN_ROAD = P.ROAD


@njit(_nrt=False)
def _advance_white(m: np.uint64) -> int:
    return (popcount(m & R2) + 2 * popcount(m & R3) + 3 * popcount(m & R4)
            + 4 * popcount(m & R5) + 5 * popcount(m & R6) + 6 * popcount(m & R7))


@njit(_nrt=False)
def _advance_black(m: np.uint64) -> int:
    return (popcount(m & R7) + 2 * popcount(m & R6) + 3 * popcount(m & R5)
            + 4 * popcount(m & R4) + 5 * popcount(m & R3) + 6 * popcount(m & R2))


@njit(_nrt=False)
def evaluate(w: np.uint64, b: np.uint64, k: np.uint64, side: int, variant: int,
             wt: np.ndarray) -> int:
    """Score of the position for the side to move (positive = good for it)."""
    if len(wt) == P.SIZE:
        return P.evaluate(w, b, k, side, variant, wt)
    wm = w & ~k
    bm = b & ~k
    wk = w & k
    bk = b & k
    king = wt[W_KING_RUSSIAN] if variant == RUSSIAN else wt[W_KING_ENGLISH]
    nwm = popcount(wm)
    nbm = popcount(bm)
    s = wt[W_MAN] * (nwm - nbm) + king * (popcount(wk) - popcount(bk))
    s += wt[W_BACK_RANK] * (popcount(wm & R1) - popcount(bm & R8))
    s += wt[W_CENTRE] * (popcount(w & CENTRE_MASK) - popcount(b & CENTRE_MASK))
    # tempo counts more in the ending (fewer men on the board)
    phase = 24 - nwm - nbm
    s += (wt[W_TEMPO] + phase // 6) * (_advance_white(wm) - _advance_black(bm))
    s += wt[W_MOBILITY] * (count_quiet(w, b, k, 0, variant) - count_quiet(w, b, k, 1, variant))
    if variant == RUSSIAN:
        s += wt[W_MAIN_ROAD] * (popcount(wk & MAIN_ROAD) - popcount(bk & MAIN_ROAD))
    return s if side == WHITE else -s

