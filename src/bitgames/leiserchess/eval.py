"""Static evaluation (numba): the reference player's terms, from cached beam bitmaps.

Internal units are the reference's "ev": one Pawn = 10 000. The result is
``(Tangerine total - Lavender total) / 100`` in centipawns, from the side to move's view.
Every weight lives in an ``int64`` parameter array (:func:`default_params`), so a
material-only engine is the same kernel with the other weights set to zero, and the
course's own weights (:func:`course_params`) are one array away. The default weights
were fitted to self-play results (``benchmarks/leiserchess_tune.py``; docs/PERFORMANCE.md,
"The evaluation's weights fitted to game results").

Terms (reference §7): material; ``pbetween`` (Pawn inside the Kings' rectangle);
``pcentral`` (a table); ``kface``; ``kaggressive``; ``hattack`` (h_squares_attackable over
the own beam path); ``mobility`` (King square and neighbours off the enemy beam);
``pawnpin`` (own Pawns off the enemy beam). The two beam paths are computed once per
node by the search and passed in.

>>> from bitgames.leiserchess.board import Board
>>> evaluate_board(Board())
0
>>> evaluate_board(Board("ss7/8/8/8/8/8/NW7/7NN W"), default_params()) > 9000 // 100
True
>>> evaluate_board(Board("ss7/8/8/8/8/8/8/7EE W"), course_params())  # the course's figure
-77
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from bitgames.core.bits import ctz, popcount
from bitgames.core.jit import njit, register_warmup
from bitgames.leiserchess.kernels import NEIGHBOURS, laser_path

U = np.uint64
ONE = U(1)
ZERO = U(0)

# Parameter slots.
P_PAWN = 0
P_PBETWEEN = 1
P_PCENTRAL = 2
P_KFACE = 3
P_KAGGRESSIVE = 4
P_HATTACK = 5
P_MOBILITY = 6
P_PAWNPIN = 7
P_HMB = 8  # having-the-move bonus, cp
P_DRAW = 9  # draw score, cp, from the root side's view
P_LMR_R1 = 10
P_LMR_R2 = 11
P_FUT_DEPTH = 12
P_USE_NMM = 13
P_USE_TT = 14
P_RFP = 15  # reverse futility margin per ply of depth, cp (margin 100 + P_RFP * depth)
P_FUT_MARGIN = 16  # futility margin per ply of depth, cp (margin P_FUT_MARGIN * depth + 80)
P_KTHREAT = 17  # cp off the static value of a side whose King the enemy can zap next move
P_LMP = 18  # late move pruning: quiet moves tried at depth d <= 3, P_LMP * d * d (0: off)
P_NULL_R = 19  # null-move depth reduction (one more from depth 6)
N_PARAMS = 20

#: Option names (UCI ``setoption``), their slots, defaults and ranges.
OPTIONS: dict[str, tuple[int, int, int, int]] = {
    # name: (slot, default, min, max); evaluation weights in ev (1 pawn = 10000), fitted
    # to self-play results (session 42; the course's in COURSE_WEIGHTS); the pruning
    # settings, kthreat and lmp tuned by matches (sessions 43-45; before, COURSE_SEARCH)
    "pbetween": (P_PBETWEEN, 6589, -10000, 10000),
    "pcentral": (P_PCENTRAL, -7689, -10000, 10000),
    "kface": (P_KFACE, 4984, -10000, 10000),
    "kaggressive": (P_KAGGRESSIVE, 20138, 0, 30000),
    "hattack": (P_HATTACK, 1566, 0, 10000),
    "mobility": (P_MOBILITY, 0, -10000, 10000),
    "pawnpin": (P_PAWNPIN, 5191, 0, 10000),
    "hmb": (P_HMB, 3, 0, 100),
    "draw": (P_DRAW, -7, -100, 100),
    "lmr_r1": (P_LMR_R1, 3, 1, 100),
    "lmr_r2": (P_LMR_R2, 12, 1, 100),
    "fut_depth": (P_FUT_DEPTH, 3, 0, 5),
    "use_nmm": (P_USE_NMM, 1, 0, 1),
    "use_tt": (P_USE_TT, 1, 0, 1),
    "rfp_margin": (P_RFP, 100, 0, 10000),
    "fut_margin": (P_FUT_MARGIN, 60, 0, 10000),
    "kthreat": (P_KTHREAT, 300, 0, 10000),
    "lmp": (P_LMP, 6, 0, 100),
    "null_r": (P_NULL_R, 2, 1, 6),
}


#: The course reference player's evaluation weights (ev), which the engine played with
#: until session 42.
COURSE_WEIGHTS = {"pbetween": 2000, "pcentral": 500, "kface": 5000, "kaggressive": 26000,
                  "hattack": 900, "mobility": 400, "pawnpin": 4000}
#: The pruning the engine used until session 43, close to the course player's: its late
#: move reductions, its margins, no King-threat term.
COURSE_SEARCH = {"lmr_r1": 5, "lmr_r2": 20, "rfp_margin": 200, "fut_margin": 120,
                 "kthreat": 0, "lmp": 0}


def default_params() -> np.ndarray:
    """The default weights (fitted to game results) and search settings."""
    p = np.zeros(N_PARAMS, dtype=np.int64)
    p[P_PAWN] = 10000
    for slot, default, _lo, _hi in OPTIONS.values():
        p[slot] = default
    return p


def course_params(search: bool = False) -> np.ndarray:
    """The course reference player's weights, with the default search settings, or with
    ``search`` its pruning too (:data:`COURSE_SEARCH`: what the tests that compare our
    search with the course player's use).

    >>> int(course_params()[OPTIONS["pbetween"][0]]), int(default_params()[P_PAWN])
    (2000, 10000)
    >>> int(course_params(search=True)[OPTIONS["lmr_r1"][0]])
    5
    """
    p = default_params()
    for name, value in (COURSE_WEIGHTS | (COURSE_SEARCH if search else {})).items():
        p[OPTIONS[name][0]] = value
    return p


def material_params() -> np.ndarray:
    """Material only: every positional weight zero (search settings unchanged)."""
    p = default_params()
    for slot in (P_PBETWEEN, P_PCENTRAL, P_KFACE, P_KAGGRESSIVE, P_HATTACK, P_MOBILITY,
                 P_PAWNPIN):
        p[slot] = 0
    return p


def _pcentral_table() -> np.ndarray:
    t = np.zeros(64, dtype=np.float64)
    for sq in range(64):
        f, r = sq & 7, sq >> 3
        df = 3 - f if f <= 3 else f - 4
        dr = 3 - r if r <= 3 else r - 4
        t[sq] = 1.0 - math.sqrt(df * df + dr * dr) / (8 / math.sqrt(2))
    return t


def _hattack_table() -> np.ndarray:
    t = np.zeros(64 * 64, dtype=np.float64)
    for a in range(64):
        for b in range(64):
            df = abs((a & 7) - (b & 7))
            dr = abs((a >> 3) - (b >> 3))
            t[a * 64 + b] = 1.0 / (df + 1) + 1.0 / (dr + 1)
    return t


#: PCENTRAL_TABLE[sq]: the pcentral bonus of a Pawn on ``sq`` per unit of weight.
PCENTRAL_TABLE = _pcentral_table()
#: HATTACK_TABLE[sq * 64 + king_sq]: 1/(|dfile|+1) + 1/(|drank|+1).
HATTACK_TABLE = _hattack_table()


@njit(inline="always")
def _tdiv(a: int, b: int) -> int:
    """Integer division truncating toward zero (as C does)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


@njit
def _king_terms(ksq: int, ori: int, osq: int, params: np.ndarray) -> int:
    f = ksq & 7
    r = ksq >> 3
    dfil = (osq & 7) - f
    drnk = (osq >> 3) - r
    if ori == 0:
        bonus = drnk
    elif ori == 1:
        bonus = dfil
    elif ori == 2:
        bonus = -drnk
    else:
        bonus = -dfil
    dist = abs(drnk) + abs(dfil)
    score = _tdiv(bonus * params[P_KFACE], dist) if dist > 0 else 0
    if dfil >= 0 and drnk >= 0:
        count = (f + 1) * (r + 1)
    elif dfil <= 0 and drnk >= 0:
        count = (8 - f) * (r + 1)
    elif dfil <= 0 and drnk <= 0:
        count = (8 - f) * (8 - r)
    else:
        count = (f + 1) * (8 - r)
    score += _tdiv(params[P_KAGGRESSIVE] * count, 64)
    return score


@njit
def _side_terms(own: np.uint64, k: np.uint64, own_path: np.uint64, enemy_path: np.uint64,
                ksq: int, osq: int, kf_lo: int, kf_hi: int, kr_lo: int, kr_hi: int,
                params: np.ndarray) -> int:
    score = 0
    pawns = own & ~k
    score += params[P_PAWN] * popcount(pawns)
    pc = params[P_PCENTRAL]
    pb = params[P_PBETWEEN]
    x = pawns
    while x:
        sq = ctz(x)
        x &= x - ONE
        score += np.int64(pc * PCENTRAL_TABLE[sq])
        f = sq & 7
        r = sq >> 3
        if kf_lo <= f <= kf_hi and kr_lo <= r <= kr_hi:
            score += pb
    # h_squares_attackable over the own beam path, truncated
    h = 0.0
    x = own_path
    base = osq
    while x:
        sq = ctz(x)
        x &= x - ONE
        h += HATTACK_TABLE[sq * 64 + base]
    # + 1e-9: sums that are whole numbers (e.g. 1/3 + 1/6 + ... = 3) must not truncate
    # to one less because of the order the squares were added in
    score += np.int64(h + 1e-9) * params[P_HATTACK]
    area = NEIGHBOURS[ksq] | (ONE << U(ksq))
    score += params[P_MOBILITY] * popcount(area & ~enemy_path)
    score += params[P_PAWNPIN] * popcount(pawns & ~enemy_path)
    return score


@njit
def evaluate(w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64,
             side: int, wpath: np.uint64, bpath: np.uint64, params: np.ndarray) -> int:
    """Static score in centipawns from ``side``'s view (no having-the-move bonus).

    ``wpath`` / ``bpath`` are the two lasers' paths in this position.
    """
    wk = k & w
    bk = k & b
    if wk == ZERO or bk == ZERO:
        return 0
    wsq = ctz(wk)
    bsq = ctz(bk)
    wo = np.int64((o0 >> U(wsq)) & ONE) | (np.int64((o1 >> U(wsq)) & ONE) << 1)
    bo = np.int64((o0 >> U(bsq)) & ONE) | (np.int64((o1 >> U(bsq)) & ONE) << 1)
    wf = wsq & 7
    wr = wsq >> 3
    bf = bsq & 7
    br = bsq >> 3
    f_lo = min(wf, bf)
    f_hi = max(wf, bf)
    r_lo = min(wr, br)
    r_hi = max(wr, br)
    sw = _king_terms(wsq, wo, bsq, params)
    sw += _side_terms(w, k, wpath, bpath, wsq, bsq, f_lo, f_hi, r_lo, r_hi, params)
    sb = _king_terms(bsq, bo, wsq, params)
    sb += _side_terms(b, k, bpath, wpath, bsq, wsq, f_lo, f_hi, r_lo, r_hi, params)
    score = _tdiv(sw - sb, 100)
    return score if side == 0 else -score


@njit
def evaluate_position(w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64,
                      o1: np.uint64, side: int, params: np.ndarray) -> int:
    """:func:`evaluate` computing the two beam paths itself."""
    wpath = laser_path(w, b, k, o0, o1, 0)
    bpath = laser_path(w, b, k, o0, o1, 1)
    return evaluate(w, b, k, o0, o1, side, wpath, bpath, params)


def evaluate_board(board: Any, params: np.ndarray | None = None) -> int:
    """Static evaluation of a :class:`~bitgames.leiserchess.board.Board`, centipawns,
    from the side to move's view."""
    p = default_params() if params is None else params
    bb = tuple(U(x) for x in board.bitboards())
    return int(evaluate_position(*bb, board.side, p))


@register_warmup("leiserchess", "engine")
def _warm() -> None:
    from bitgames.leiserchess.notation import START_FEN, parse_fen

    w, b, k, o0, o1, side = parse_fen(START_FEN)
    evaluate_position(U(w), U(b), U(k), U(o0), U(o1), side, default_params())
