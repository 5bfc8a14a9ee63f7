"""Exact (and win/loss/draw) endgame solver for Othello.

The search is the one strong solvers use (see ``docs/REFERENCES.md``, Othello):

- principal-variation search at the root and along the PV, null-window search (NWS)
  everywhere else;
- a transposition table of 4-entry buckets holding the whole board (no false hits), lower
  and upper bounds and the best move; replacement keeps the deepest entries, entries of an
  older search go first;
- fastest-first move ordering: the transposition-table move, wipe-outs, then fewest
  opponent replies (corners counted twice), corner stability, potential mobility,
  square-value and parity terms; from 14 empties on, a shallow alpha-beta search on the
  pattern evaluation ranks the moves first (the evaluation itself at 14 empties, one ply
  more every two empties, at most 6 plies), as Edax and Egaroucid order theirs;
- iterative selectivity, as Edax and Egaroucid solve: from 22 empties, passes with
  endgame Multi-ProbCut (a null-window node is cut when a shallow evaluation search puts
  its score outside the window by 1.1, then 1.5, then 2.0 standard deviations) come
  before the exact pass, which starts from their best moves and searches a narrow window
  around their score; table entries carry their pass's level, and a pass takes bounds
  only from entries at least as exact as itself;
- enhanced transposition cutoff (ETC) near the root, stability cutoffs when alpha is high;
- at 7 empties: no table, and the opponent's mobility alone (with square value and
  parity) ranks the moves: on FFO #40-#49 a fifth fewer nodes than the parity order
  below, at the same speed;
- at 6 empties or fewer: no table, no move generation — each empty square next to an
  opponent disc is tried, odd quadrants (parity) and good squares first;
- the last two and last one empties have their own code; the last one counts the flipped
  discs without making the move;
- the recursive kernels allocate nothing and are compiled without numba's reference
  counting (``_nrt=False``, as in :mod:`bitgames.othello.search`): :func:`solve_kernel`
  owns every array for the whole solve (about 5 % faster on FFO #20-#39).

Scores are final disc differences for the side to move with empty squares given to the
winner. :func:`solve` is the Python entry point.

>>> from bitgames.othello.board import Board
>>> b = Board("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
>>> r = solve(b)
>>> r.score, r.best_move
(18, 'g8')
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from bitgames.core import tt as table
from bitgames.core import ybwc
from bitgames.core.bits import ctz, popcount
from bitgames.core.engine import StopSignal
from bitgames.core.jit import njit, register_warmup
from bitgames.core.tt import new_table
from bitgames.othello.eval import (
    B3,
    GATHER,
    Evaluation,
    Weights,
    classic_weights,
    default_weights,
    evaluate,
    potential_mobility,
)
from bitgames.othello.kernels import PASS, final_score, flips, legal_moves

U = np.uint64
_ZERO = U(0)
_ONE = U(1)

INF = 127
NO_MOVE = -1000  # returned by a node whose side to move has no move (internal)
#: slots of the solver's ``stats`` array: nodes searched, and the stop flag (set from
#: another thread, or by a Ctrl-C handler: the search then unwinds at once)
NODES, STOP = 0, 1
#: what a table file of the solver holds (:meth:`Solver.save_table`)
TABLE_KIND = "othello solver"
#: at this many empties or fewer: :func:`_shallow` (parity, then square-class ordering)
SHALLOW = 6
#: at this many empties or fewer, no transposition table (a probe costs more than it
#: saves); nodes above :data:`SHALLOW` but not above this rank their moves fastest first
#: (the opponent's mobility, then square value and parity) and skip the dearer terms
NO_TABLE = 7
ETC_MIN = 10  # enhanced transposition cutoff from this many empties up
#: from this many empties on, moves are ranked first by a shallow search on the pattern
#: evaluation, (empties - ORDER_BASE) // 2 plies deep, at most ORDER_MAX_DEPTH
ORDER_MIN = 14
ORDER_BASE = 13
ORDER_MAX_DEPTH = 6
#: nodes of those searches this deep try their moves fewest opponent replies first
ORDER_SORT_DEPTH = 2
#: the searches tell exactly only the moves within this many centi-discs of alpha (or
#: better): a move that is clearly worse need not be ranked precisely
ORDER_MARGIN = 800
ORDER_INF = 1 << 20
#: with more than one thread, nodes with this many empties or more are split between
#: threads (:mod:`bitgames.core.ybwc`); smaller subtrees are solved on one thread, unless
#: another thread is idle (:data:`SPLIT_IDLE`)
SPLIT_MIN = 20
#: children searched on one thread before a node is split: at most nodes, and at PV nodes
SPLIT_WAIT = 2
SPLIT_PV_WAIT = 1
#: nodes with fewer empties than :data:`SPLIT_MIN`, down to this many, are split too when a
#: thread is idle as they are entered (the leftmost branch of a pass); a solve of this many
#: empties or more is split from its root
SPLIT_IDLE = 16

#: Iterative selectivity (endgame Multi-ProbCut): a solve of at least SELECTIVE_MIN empties
#: first runs selective passes, each cutting a null-window node of at least PC_MIN empties
#: when a shallow evaluation search says its score lies outside the window by more than
#: ``SEL_T[level]`` standard deviations; then the exact pass (level EXACT) starts from their
#: best moves. The table tags each entry with its level: a pass takes a bound only from an
#: entry of its own level or a more exact one, so the exact pass uses exact bounds only.
SEL_T = np.array([1.1, 1.5, 2.0], dtype=np.float64)
EXACT = len(SEL_T)


def level_probability(sel: int) -> float:
    """How likely a pass at selectivity level ``sel`` is right: the chance that a normal
    error stays within ``SEL_T[sel]`` standard deviations (1.0 for :data:`EXACT`). The
    levels are those Edax reports as 73 %, 87 % and 95 %.

    >>> [round(100 * level_probability(sel)) for sel in range(EXACT + 1)]
    [73, 87, 95, 100]
    """
    return 1.0 if sel >= EXACT else math.erf(SEL_T[sel] / math.sqrt(2.0))


#: a table entry's depth word holds LEVELS * empties + level (8 bits: at most 4 levels)
LEVELS = 4
assert EXACT < LEVELS
SELECTIVE_MIN = 22
#: each pass after the first searches the window (score - ASPIRATION, score + ASPIRATION)
#: around the score of the pass before it, and again if the score falls outside
ASPIRATION = 1
#: selective passes try a probable cut at null-window nodes of at least PC_MIN empties
PC_MIN = 10
PC_MAX_DEPTH = 6
#: exact score (centi-discs) ~ shallow search value + PC_BIAS[d], residual PC_SIGMA[d], by
#: the shallow search's depth d, d = (empties - 11) // 2 at most PC_MAX_DEPTH: the mean fit
#: at 14-18 empties of ``python benchmarks/othello_endgame_mpc_fit.py 150 14 16 18 20 22``
#: (at 20-22 empties the residuals are up to 15 % larger)
PC_BIAS = np.array([150, -200, 90, -200, 60, -215, 65], dtype=np.int64)
PC_SIGMA = np.array([1000, 880, 750, 660, 625, 535, 495], dtype=np.float64)

_CORNERS = U(0x8100_0000_0000_0081)
_NOT_A = U(0xFEFE_FEFE_FEFE_FEFE)
_NOT_H = U(0x7F7F_7F7F_7F7F_7F7F)
_BORDER = U(0xFF81_8181_8181_81FF)
_FILES_AH = U(0x8181_8181_8181_8181)
_RANKS_18 = U(0xFF00_0000_0000_00FF)

#: Try a stability cutoff only when alpha reaches this, by number of empties (lowered by 8
#: from 6 empties on when the test got cheaper: FFO #40-#49 in 6.6 % fewer nodes and 2 %
#: less time, docs/PERFORMANCE.md)
STABILITY_THRESHOLD = np.array(
    [99, 99, 99, 99, 6, 8, 2, 4, 6, 8, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36]
    + [38, 40, 40, 42, 42, 44, 44, 46, 46, 48, 48, 50, 50, 52, 52, 54, 54]
    + [56] * 22,
    dtype=np.int64,
)


def _square_masks() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Neighbour masks, the 4 quadrants and the square classes by priority."""
    neigh = np.zeros(64, dtype=np.uint64)
    quadrant = np.zeros(4, dtype=np.uint64)
    for sq in range(64):
        f, r = sq % 8, sq // 8
        m = 0
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                if (df or dr) and 0 <= f + df < 8 and 0 <= r + dr < 8:
                    m |= 1 << (8 * (r + dr) + f + df)
        neigh[sq] = m
        quadrant[(r >= 4) * 2 + (f >= 4)] |= np.uint64(1 << sq)
    corners = 0x8100_0000_0000_0081
    x_squares = 0x0042_0000_0000_4200
    c_squares = 0x4281_0000_0000_8142
    others = ~(corners | x_squares | c_squares) & (2**64 - 1)
    classes = np.array([corners, others, c_squares, x_squares], dtype=np.uint64)
    return neigh, quadrant, classes


NEIGHBOURS, QUADRANTS, SQUARE_CLASSES = _square_masks()
#: the quadrant of each square
QUADRANT_OF = np.array([QUADRANTS[(sq >= 32) * 2 + (sq % 8 >= 4)] for sq in range(64)],
                       dtype=np.uint64)

#: The four line directions as (file, rank) steps: row, column, diagonal, anti-diagonal;
#: a step is a shift by ``8 * rank + file`` bits (towards higher bits), :data:`_SHIFTS`
_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (-1, 1))
_SHIFTS = tuple(8 * dr + df for df, dr in _DIRECTIONS)


def _off_board() -> np.ndarray:
    """``OFF[d, back, j]``: the squares from which ``2**j`` steps in direction ``d``
    (backwards if ``back``) leave the board."""
    off = np.zeros((4, 2, 3), dtype=np.uint64)
    for d, (df, dr) in enumerate(_DIRECTIONS):
        for back, sign in ((0, 1), (1, -1)):
            for j in range(3):
                m = sign << j
                for sq in range(64):
                    f, r = sq % 8 + m * df, sq // 8 + m * dr
                    if not (0 <= f < 8 and 0 <= r < 8):
                        off[d, back, j] |= np.uint64(1 << sq)
    return off


_OFF = _off_board()


@njit(inline="always")
def _full_lines(filled: np.uint64, d: int) -> np.uint64:
    """The squares of ``filled`` whose line in direction ``d`` is full: the line is filled
    from the square to the edge both ways, which three doubling steps find each way (a
    square past the edge counts as filled)."""
    k = U(_SHIFTS[d])
    fw = filled & ((filled >> k) | _OFF[d, 0, 0])
    fw &= (fw >> (k + k)) | _OFF[d, 0, 1]
    fw &= (fw >> (k << U(2))) | _OFF[d, 0, 2]
    bw = filled & ((filled << k) | _OFF[d, 1, 0])
    bw &= (bw << (k + k)) | _OFF[d, 1, 1]
    bw &= (bw << (k << U(2))) | _OFF[d, 1, 2]
    return fw & bw


#: Static square values used as the last ordering key (corners best, X-squares worst).
SQUARE_VALUE = np.array(
    [
        [18, 4, 16, 12, 12, 16, 4, 18],
        [4, 2, 6, 8, 8, 6, 2, 4],
        [16, 6, 14, 10, 10, 14, 6, 16],
        [12, 8, 10, 0, 0, 10, 8, 12],
        [12, 8, 10, 0, 0, 10, 8, 12],
        [16, 6, 14, 10, 10, 14, 6, 16],
        [4, 2, 6, 8, 8, 6, 2, 4],
        [18, 4, 16, 12, 12, 16, 4, 18],
    ],
    dtype=np.int64,
).ravel()


@njit
def stable_discs(p: np.uint64, o: np.uint64) -> np.uint64:
    """A subset of ``p``'s discs that can never be flipped.

    A disc is stable when, along each of the four lines through it, the line is full, or
    it touches the board edge, or a stable disc of its own colour is next to it.
    """
    filled = p | o
    h = _FILES_AH | _full_lines(filled, 0)
    v = _RANKS_18 | _full_lines(filled, 1)
    d9 = _BORDER | _full_lines(filled, 2)
    d7 = _BORDER | _full_lines(filled, 3)
    stable = p & h & v & d9 & d7
    if stable == _ZERO:
        return stable
    while True:
        nh = h | ((stable << U(1)) & _NOT_A) | ((stable >> U(1)) & _NOT_H)
        nv = v | (stable << U(8)) | (stable >> U(8))
        n9 = d9 | ((stable << U(9)) & _NOT_A) | ((stable >> U(9)) & _NOT_H)
        n7 = d7 | ((stable << U(7)) & _NOT_H) | ((stable >> U(7)) & _NOT_A)
        new = p & nh & nv & n9 & n7
        if new == stable:
            return stable
        stable = new


@njit
def corner_stability(p: np.uint64) -> int:
    """Number of ``p``'s discs on a corner or next to an own corner along an edge.

    A cheap lower bound of the stable discs, used as a move-ordering term.
    """
    corners = p & _CORNERS
    near = (
        ((corners & U(0x0100_0000_0000_0001)) << U(1))  # b1, b8 next to a1, a8
        | ((corners & U(0x8000_0000_0000_0080)) >> U(1))  # g1, g8 next to h1, h8
        | ((corners & U(0x0000_0000_0000_0081)) << U(8))  # a2, h2 above a1, h1
        | ((corners & U(0x8100_0000_0000_0000)) >> U(8))  # a7, h7 below a8, h8
    )
    return popcount(corners | (near & p))


@njit
def _solve1(p: np.uint64, o: np.uint64, x: int) -> int:
    """Exact score with one empty square ``x`` (counts flips, never makes the move)."""
    n = popcount(flips(p, o, x))
    if n:
        return 2 * (popcount(p) + n + 1) - 64
    n = popcount(flips(o, p, x))
    if n:
        return 2 * (popcount(p) - n) - 64
    diff = 2 * popcount(p) - 63
    return diff + 1 if diff > 0 else diff - 1


@njit(_nrt=False)
def _solve2(p: np.uint64, o: np.uint64, alpha: int, empties: np.uint64, stats: np.ndarray) -> int:
    """Null-window score with two empty squares."""
    stats[NODES] += 1
    x1 = ctz(empties)
    x2 = ctz(empties & (empties - _ONE))
    best = NO_MOVE
    if NEIGHBOURS[x1] & o:
        f = flips(p, o, x1)
        if f:
            stats[NODES] += 1
            best = -_solve1(o ^ f, p ^ f ^ (_ONE << U(x1)), x2)
            if best > alpha:
                return best
    if NEIGHBOURS[x2] & o:
        f = flips(p, o, x2)
        if f:
            stats[NODES] += 1
            s = -_solve1(o ^ f, p ^ f ^ (_ONE << U(x2)), x1)
            if s > best:
                best = s
    if best != NO_MOVE:
        return best
    if flips(o, p, x1) | flips(o, p, x2):
        return -_solve2(o, p, -alpha - 1, empties, stats)
    return final_score(p, o)


@njit(inline="always")
def _odd_quadrants(empties: np.uint64) -> np.uint64:
    """The quadrants with an odd number of empty squares (the parity order's first)."""
    odd = _ZERO
    for q in range(4):
        if popcount(empties & QUADRANTS[q]) & 1:
            odd |= QUADRANTS[q]
    return odd


@njit(_nrt=False)
def _shallow(
    p: np.uint64, o: np.uint64, alpha: int, empties: np.uint64, odd: np.uint64, n: int,
    stats: np.ndarray
) -> int:
    """Null-window search at 3-6 empties: no table, parity then square-class ordering
    (``odd``: :func:`_odd_quadrants` of ``empties``, kept up to date move by move)."""
    if n == 2:
        return _solve2(p, o, alpha, empties, stats)
    stats[NODES] += 1
    if n >= 5 and alpha >= STABILITY_THRESHOLD[n]:
        upper = 64 - 2 * popcount(stable_discs(o, p))
        if upper <= alpha:
            return upper
    best = NO_MOVE
    for group in range(2):
        side = empties & odd if group == 0 else empties & ~odd
        for c in range(4):
            cand = side & SQUARE_CLASSES[c]
            while cand:
                x = ctz(cand)
                cand &= cand - _ONE
                if NEIGHBOURS[x] & o:
                    f = flips(p, o, x)
                    if f:
                        bit = _ONE << U(x)
                        s = -_shallow(o ^ f, p ^ f ^ bit, -alpha - 1, empties ^ bit,
                                      odd ^ QUADRANT_OF[x], n - 1, stats)
                        if s > best:
                            best = s
                            if s > alpha:
                                return s
    if best != NO_MOVE:
        return best
    if legal_moves(o, p) == _ZERO:
        return final_score(p, o)
    return -_shallow(o, p, -alpha - 1, empties, odd, n, stats)


@njit(_nrt=False)
def _order_search(p: np.uint64, o: np.uint64, depth: int, alpha: int, beta: int,
                  ev: Evaluation, stats: np.ndarray) -> int:
    """Fail-soft alpha-beta on the pattern evaluation (centi-discs), for move ordering.

    Its nodes count in ``stats[NODES]``. From :data:`ORDER_SORT_DEPTH` plies up a node
    tries its moves fewest opponent replies first (found again for each move: nothing to
    allocate, and these nodes are few).
    """
    stats[NODES] += 1
    if depth == 0:
        return evaluate(p, o, ev.weights, ev.gather, ev.b3)
    moves = legal_moves(p, o)
    if moves == _ZERO:
        if legal_moves(o, p) == _ZERO:
            return 100 * final_score(p, o)
        return -_order_search(o, p, depth, -beta, -alpha, ev, stats)
    best = -ORDER_INF
    while moves:
        x = ctz(moves)
        if depth >= ORDER_SORT_DEPTH:
            fewest = ORDER_INF
            rest = moves
            while rest:
                y = ctz(rest)
                rest &= rest - _ONE
                f = flips(p, o, y)
                om = legal_moves(o ^ f, p ^ f ^ (_ONE << U(y)))
                replies = popcount(om) + popcount(om & _CORNERS) - (SQUARE_VALUE[y] >> 3)
                if replies < fewest:
                    fewest = replies
                    x = y
        moves &= ~(_ONE << U(x))
        f = flips(p, o, x)
        s = -_order_search(o ^ f, p ^ f ^ (_ONE << U(x)), depth - 1, -beta, -max(alpha, best),
                           ev, stats)
        if s > best:
            best = s
            if s >= beta:
                break
    return best


@njit(_nrt=False)
def _order_moves(
    p: np.uint64,
    o: np.uint64,
    moves: np.uint64,
    tt_move: int,
    n: int,
    alpha: int,
    msq: np.ndarray,
    mval: np.ndarray,
    mflip: np.ndarray,
    ev: Evaluation,
    stats: np.ndarray,
) -> int:
    """Fill row ``n`` of the move buffers with the moves and their ordering values
    (``alpha``: the node's, for the window of the ordering searches)."""
    odd = _odd_quadrants(~(p | o)) if n < 14 else _ZERO
    # the ordering searches' depth and window; np.int64(...): plain int64 arguments,
    # never literals (one signature)
    depth = np.int64(min((n - ORDER_BASE) >> 1, ORDER_MAX_DEPTH))
    lower = np.int64(-ORDER_INF)
    upper = np.int64(min(ORDER_INF, ORDER_MARGIN - 100 * alpha))
    k = 0
    while moves:
        x = ctz(moves)
        moves &= moves - _ONE
        f = flips(p, o, x)
        bit = _ONE << U(x)
        cp = o ^ f  # the opponent, to move after ours
        co = p ^ f ^ bit
        if x == tt_move:
            val = 1 << 30
        elif cp == _ZERO:
            val = 1 << 29
        else:
            om = legal_moves(cp, co)
            mob = popcount(om) + popcount(om & _CORNERS)
            val = -(mob << 15) + SQUARE_VALUE[x]
            if n > NO_TABLE:
                # potential mobility: empty squares next to our discs, where the opponent
                # may play
                pot = potential_mobility(cp, co)
                val += (corner_stability(co) << 11) - (pot << 6)
                if n >= ORDER_MIN:
                    val -= _order_search(cp, co, depth, lower, upper, ev, stats) << 13
            if odd & bit:
                val += 1 << 9
        msq[n, k] = x
        mval[n, k] = val
        mflip[n, k] = f
        k += 1
    return k


@njit(_nrt=False)
def next_child(
    p: np.uint64,
    o: np.uint64,
    n: int,
    i: int,
    k: int,
    msq: np.ndarray,
    mval: np.ndarray,
    mflip: np.ndarray,
) -> tuple[int, np.uint64, np.uint64]:
    """Bring the best remaining move of row ``n`` (from ``i`` on) to position ``i``.

    Returns the move and the position after it, from the opponent's view.
    """
    b = i
    for j in range(i + 1, k):
        if mval[n, j] > mval[n, b]:
            b = j
    if b != i:
        msq[n, i], msq[n, b] = msq[n, b], msq[n, i]
        mval[n, i], mval[n, b] = mval[n, b], mval[n, i]
        mflip[n, i], mflip[n, b] = mflip[n, b], mflip[n, i]
    x = msq[n, i]
    f = mflip[n, i]
    return x, o ^ f, p ^ f ^ (_ONE << U(x))


@njit(inline="always")
def tt_depth(n: int, sel: int) -> int:
    """The depth word of a table entry: the empties ``n`` and the selectivity level."""
    return LEVELS * n + sel


@njit(inline="always")
def tt_level(data: np.uint64) -> int:
    """The selectivity level of a table entry (:data:`EXACT`: its bounds are proven)."""
    return table.depth(data) % LEVELS


@njit(_nrt=False)
def _probcut(p: np.uint64, o: np.uint64, alpha: int, n: int, sel: int, ev: Evaluation,
             stats: np.ndarray) -> int:
    """Multi-ProbCut at a null-window node of ``n`` empties: +1 if a shallow evaluation
    search puts the score above ``alpha`` by ``SEL_T[sel]`` standard deviations, -1 if
    below by as much, else 0."""
    d = max(min((n - 11) >> 1, PC_MAX_DEPTH), 0)
    margin = SEL_T[sel] * PC_SIGMA[d]
    hi = np.int64(np.ceil(100.0 * (alpha + 1) + margin)) - PC_BIAS[d]
    # beyond +-6400 (a wipe-out, in centi-discs) the shallow search cannot reach
    if hi < 6400 and _order_search(p, o, d, hi - 1, hi, ev, stats) >= hi:
        return 1
    lo = np.int64(np.floor(100.0 * alpha - margin)) - PC_BIAS[d]
    if lo > -6400 and _order_search(p, o, d, lo, lo + 1, ev, stats) <= lo:
        return -1
    return 0


@njit(_nrt=False)
def _nws(
    p: np.uint64,
    o: np.uint64,
    alpha: int,
    n: int,
    tt: np.ndarray,
    gen: int,
    msq: np.ndarray,
    mval: np.ndarray,
    mflip: np.ndarray,
    stats: np.ndarray,
    ev: Evaluation,
    sel: int,
) -> int:
    """Null-window search (is the score > alpha?) with more than :data:`SHALLOW` empties,
    at selectivity level ``sel`` (:data:`EXACT`: no cut that is not proven).

    ``stats[STOP]`` nonzero asks the search to stop: it unwinds at once, storing nothing
    more (its result is then meaningless).
    """
    stats[NODES] += 1
    if stats[STOP] != 0:
        return alpha
    moves = legal_moves(p, o)
    if moves == _ZERO:
        if legal_moves(o, p) == _ZERO:
            return final_score(p, o)
        return -_nws(o, p, -alpha - 1, n, tt, gen, msq, mval, mflip, stats, ev, sel)
    if alpha >= STABILITY_THRESHOLD[n]:
        upper = 64 - 2 * popcount(stable_discs(o, p))
        if upper <= alpha:
            return upper
    tt_move = -1
    d = table.probe(tt, p, o) if n > NO_TABLE else table.MISS
    if d != table.MISS:
        tt_move = table.move(d)
        if tt_level(d) >= sel:
            lower = table.lower(d)
            if lower > alpha:
                return lower
            upper = table.upper(d)
            if upper <= alpha:
                return upper
    if sel < EXACT and n >= PC_MIN:
        cut = _probcut(p, o, alpha, n, sel, ev, stats)
        if cut != 0:
            return alpha + 1 if cut > 0 else alpha
    k = _order_moves(p, o, moves, tt_move, n, alpha, msq, mval, mflip, ev, stats)
    if n > ETC_MIN:
        for i in range(k):
            f = mflip[n, i]
            cp = o ^ f
            co = p ^ f ^ (_ONE << U(msq[n, i]))
            child = table.probe(tt, cp, co)
            if child != table.MISS and tt_level(child) >= sel:
                child_upper = table.upper(child)
                if -child_upper > alpha:
                    table.store(tt, p, o, tt_depth(n, sel), gen, -child_upper, 64, msq[n, i])
                    return -child_upper
    best = -INF
    best_move = PASS
    for i in range(k):
        x, cp, co = next_child(p, o, n, i, k, msq, mval, mflip)
        if n - 1 > SHALLOW:
            s = -_nws(cp, co, -alpha - 1, n - 1, tt, gen, msq, mval, mflip, stats, ev, sel)
        else:
            e = ~(cp | co)
            s = -_shallow(cp, co, -alpha - 1, e, _odd_quadrants(e), n - 1, stats)
        if s > best:
            best = s
            best_move = x
            if s > alpha:
                break
    if stats[STOP] != 0:  # stopped below: the children's scores mean nothing
        return alpha
    if n <= NO_TABLE:
        return best
    if best > alpha:
        table.store(tt, p, o, tt_depth(n, sel), gen, best, 64, best_move)
    else:
        table.store(tt, p, o, tt_depth(n, sel), gen, -64, best, best_move)
    return best


@njit(_nrt=False)
def _pvs(
    p: np.uint64,
    o: np.uint64,
    alpha: int,
    beta: int,
    n: int,
    ply: int,
    tt: np.ndarray,
    gen: int,
    msq: np.ndarray,
    mval: np.ndarray,
    mflip: np.ndarray,
    pv: np.ndarray,
    pv_len: np.ndarray,
    stats: np.ndarray,
    ev: Evaluation,
    sel: int,
) -> int:
    """Full-window search along the principal variation at selectivity level ``sel``;
    fills ``pv[ply]``."""
    stats[NODES] += 1
    if stats[STOP] != 0:
        return alpha
    pv_len[ply] = 0
    moves = legal_moves(p, o)
    if moves == _ZERO:
        if legal_moves(o, p) == _ZERO:
            return final_score(p, o)
        s = -_pvs(o, p, -beta, -alpha, n, ply + 1, tt, gen, msq, mval, mflip, pv, pv_len, stats,
                  ev, sel)
        pv[ply, 0] = PASS
        for j in range(pv_len[ply + 1]):
            pv[ply, j + 1] = pv[ply + 1, j]
        pv_len[ply] = pv_len[ply + 1] + 1
        return s
    tt_move = -1
    d = table.probe(tt, p, o) if n > NO_TABLE else table.MISS  # none stored at NO_TABLE or less
    if d != table.MISS:
        tt_move = table.move(d)
    k = _order_moves(p, o, moves, tt_move, n, alpha, msq, mval, mflip, ev, stats)
    best = -INF
    best_move = PASS
    a = alpha
    for i in range(k):
        x, cp, co = next_child(p, o, n, i, k, msq, mval, mflip)
        if n == 1:
            s = -final_score(cp, co)
        elif i == 0:
            s = -_pvs(cp, co, -beta, -a, n - 1, ply + 1, tt, gen, msq, mval, mflip, pv, pv_len,
                      stats, ev, sel)
        else:
            if n - 1 > SHALLOW:
                s = -_nws(cp, co, -a - 1, n - 1, tt, gen, msq, mval, mflip, stats, ev, sel)
            else:
                e = ~(cp | co)
                s = -_shallow(cp, co, -a - 1, e, _odd_quadrants(e), n - 1, stats)
            if a < s < beta:
                s = -_pvs(cp, co, -beta, 1 - s, n - 1, ply + 1, tt, gen, msq, mval, mflip, pv,
                          pv_len, stats, ev, sel)
        if s > best:
            best = s
            best_move = x
            if s > a:
                a = s
                pv[ply, 0] = x
                if n == 1 or (i > 0 and s >= beta):
                    pv_len[ply] = 1
                else:
                    for j in range(pv_len[ply + 1]):
                        pv[ply, j + 1] = pv[ply + 1, j]
                    pv_len[ply] = pv_len[ply + 1] + 1
                if s >= beta:
                    break
    if pv_len[ply] == 0:  # every move failed low: report the one with the best bound
        pv[ply, 0] = best_move
        pv_len[ply] = 1
    lower = best if best > alpha else -64
    upper = best if best < beta else 64
    if n > NO_TABLE and stats[STOP] == 0:
        table.store(tt, p, o, tt_depth(n, sel), gen, lower, upper, best_move)
    return best


@njit(nogil=True)
def solve_kernel(
    p: np.uint64,
    o: np.uint64,
    alpha: int,
    beta: int,
    tt: np.ndarray,
    gen: int,
    pv: np.ndarray,
    stats: np.ndarray,
    ev: Evaluation,
    sel: int,
) -> tuple[int, int]:
    """Solve ``(p, o)`` in the window (alpha, beta) at selectivity level ``sel``
    (:data:`EXACT`: exactly); return (score, PV length in ``pv``).

    ``ev``: the pattern evaluation that orders the moves far from the end.

    ``stats[NODES]`` counts nodes; setting ``stats[STOP]`` nonzero (from another thread: the
    kernel releases the GIL) stops the search early with a meaningless result.
    """
    n = 64 - popcount(p | o)
    msq = np.zeros((61, 40), dtype=np.int64)
    mval = np.zeros((61, 40), dtype=np.int64)
    mflip = np.zeros((61, 40), dtype=np.uint64)
    pvt = np.zeros((130, 130), dtype=np.int64)
    pv_len = np.zeros(130, dtype=np.int64)
    root_ply = np.int64(0)  # a variable, not the literal 0: one signature for _pvs
    s = _pvs(p, o, alpha, beta, n, root_ply, tt, gen, msq, mval, mflip, pvt, pv_len, stats, ev,
             sel)
    for j in range(pv_len[0]):
        pv[j] = pvt[0, j]
    return s, pv_len[0]


# -- entry points of the split (parallel) solve: bitgames.core.ybwc -----------------------


class Buffers(NamedTuple):
    """One thread's work arrays for the split solve's kernels."""

    msq: np.ndarray
    mval: np.ndarray
    mflip: np.ndarray
    pv: np.ndarray
    pv_len: np.ndarray
    child_sq: np.ndarray
    child_p: np.ndarray
    child_o: np.ndarray


def new_buffers() -> Buffers:
    return Buffers(np.zeros((61, 40), dtype=np.int64), np.zeros((61, 40), dtype=np.int64),
                   np.zeros((61, 40), dtype=np.uint64), np.zeros((130, 130), dtype=np.int64),
                   np.zeros(130, dtype=np.int64), np.zeros(40, dtype=np.int64),
                   np.zeros(40, dtype=np.uint64), np.zeros(40, dtype=np.uint64))


#: what :func:`expand_kernel` found: the node's value, a pass, or ``k`` ordered children
VALUE, PASSED, CHILDREN = 0, 1, 2


@njit(nogil=True)
def expand_kernel(p: np.uint64, o: np.uint64, alpha: int, pv_node: int, n: int,
                  tt: np.ndarray, gen: int, b: Buffers, ev: Evaluation,
                  stats: np.ndarray, sel: int) -> tuple[int, int, int]:
    """Expand a node of the split solve as :func:`_nws` (or :func:`_pvs` when ``pv_node``)
    begins it: ``(VALUE, value, 0)`` for a game end or a cut-off, ``(PASSED, 0, 0)``, or
    ``(CHILDREN, 0, k)`` with the ``k`` children best first in ``b.child_*``."""
    moves = legal_moves(p, o)
    if moves == _ZERO:
        if legal_moves(o, p) == _ZERO:
            return VALUE, final_score(p, o), 0
        return PASSED, 0, 0
    tt_move = -1
    d = table.probe(tt, p, o)
    if d != table.MISS:
        tt_move = table.move(d)
        if not pv_node and tt_level(d) >= sel:
            if table.lower(d) > alpha:
                return VALUE, table.lower(d), 0
            if table.upper(d) <= alpha:
                return VALUE, table.upper(d), 0
    if not pv_node and alpha >= STABILITY_THRESHOLD[n]:
        upper = 64 - 2 * popcount(stable_discs(o, p))
        if upper <= alpha:
            return VALUE, upper, 0
    if not pv_node and sel < EXACT and n >= PC_MIN:
        cut = _probcut(p, o, alpha, n, sel, ev, stats)
        if cut != 0:
            return VALUE, alpha + 1 if cut > 0 else alpha, 0
    k = _order_moves(p, o, moves, tt_move, n, alpha, b.msq, b.mval, b.mflip, ev, stats)
    for i in range(k):
        x, cp, co = next_child(p, o, n, i, k, b.msq, b.mval, b.mflip)
        if not pv_node:  # enhanced transposition cutoff
            child = table.probe(tt, cp, co)
            if child != table.MISS and tt_level(child) >= sel and -table.upper(child) > alpha:
                table.store(tt, p, o, tt_depth(n, sel), gen, -table.upper(child), 64, x)
                return VALUE, -table.upper(child), 0
        b.child_sq[i] = x
        b.child_p[i] = cp
        b.child_o[i] = co
    return CHILDREN, 0, k


@njit(nogil=True)
def serial_kernel(p: np.uint64, o: np.uint64, alpha: int, beta: int, n: int, tt: np.ndarray,
                  gen: int, b: Buffers, stats: np.ndarray, ev: Evaluation,
                  sel: int) -> tuple[int, int]:
    """The one-thread search of a node of the split solve: a null-window search when
    ``beta == alpha + 1`` (no PV), else a PV search; returns (score, PV length in
    ``b.pv[0]``)."""
    if beta == alpha + 1 and n > SHALLOW:
        return _nws(p, o, alpha, n, tt, gen, b.msq, b.mval, b.mflip, stats, ev, sel), 0
    root_ply = np.int64(0)
    s = _pvs(p, o, alpha, beta, n, root_ply, tt, gen, b.msq, b.mval, b.mflip, b.pv, b.pv_len,
             stats, ev, sel)
    return s, b.pv_len[0]


class _SplitSolve:
    """The solver's side of a split search (:class:`bitgames.core.ybwc.Game`); a
    position is the pair of bitboards (side to move, other side)."""

    def __init__(self, tt: np.ndarray, gen: int, threads: int, ev: Evaluation,
                 sel: int = EXACT) -> None:
        self.tt = tt
        self.gen = gen
        self.ev = ev
        #: the selectivity level of the pass
        self.sel = sel
        self.buffers = [new_buffers() for _ in range(threads)]
        #: per thread: the nodes of the ordering searches of :meth:`expand`
        self.expand_stats = np.zeros((threads, 4), dtype=np.int64)

    def serial(self, thread: int, position: tuple[np.uint64, np.uint64], alpha: int,
               beta: int, depth: int, pv_node: bool,
               stats: np.ndarray) -> tuple[int, list[int]]:
        b = self.buffers[thread]
        s, length = serial_kernel(position[0], position[1], alpha, beta, depth, self.tt,
                                  self.gen, b, stats, self.ev, self.sel)
        return int(s), [int(x) for x in b.pv[0, :length]]

    def expand(self, thread: int, position: tuple[np.uint64, np.uint64], alpha: int,
               beta: int, depth: int,
               pv_node: bool) -> ybwc.Expansion[tuple[np.uint64, np.uint64]]:
        p, o = position
        b = self.buffers[thread]
        status, value, k = expand_kernel(p, o, alpha, int(pv_node), depth, self.tt, self.gen, b,
                                         self.ev, self.expand_stats[thread], self.sel)
        if status == VALUE:
            return ybwc.Expansion(value=int(value))
        if status == PASSED:
            return ybwc.Expansion(children=[(PASS, (o, p), depth)])
        return ybwc.Expansion(children=[(int(b.child_sq[i]), (b.child_p[i], b.child_o[i]),
                                         depth - 1) for i in range(k)])

    def store(self, position: tuple[np.uint64, np.uint64], depth: int, alpha: int, beta: int,
              best: int, best_move: int) -> None:
        if best_move != PASS:
            table.store(self.tt, position[0], position[1], tt_depth(depth, self.sel), self.gen,
                        best if best > alpha else -64, best if best < beta else 64, best_move)


# -- Python API ----------------------------------------------------------------------------


class Progress(NamedTuple):
    """How far a running solve is: the probability of the pass it is in (1.0: the exact
    pass) and its nodes so far."""

    probability: float
    nodes: int


class Proven(NamedTuple):
    """Bounds of a position's exact score that a solver's table holds proven, and the move
    proven to reach ``lower`` (None: not known)."""

    lower: int
    upper: int
    move: str | None


@dataclass
class SelectivePass:
    """A selective pass of a solve as it ended (from :data:`SELECTIVE_MIN` empties the
    exact pass follows these): a score and line right with ``probability``, the solve's
    nodes and seconds so far. ``score`` is in the solve's unit (discs, or +1/0/-1)."""

    probability: float
    score: int
    pv: list[str]
    nodes: int
    time: float

    @property
    def best_move(self) -> str:
        """The line's first move (``none`` if it has none)."""
        return self.pv[0] if self.pv else "none"


@dataclass
class SolveResult:
    """The answer of :func:`solve` for one position.

    ``score`` is the exact final disc difference for the side to move (empties to the
    winner) in exact mode; in win/loss/draw mode it is +1, 0 or -1 (see ``outcome``).
    ``stopped``: :meth:`Solver.stop` ended the solve first (``nodes`` and ``time`` are
    what it spent; the score, moves and outcome mean nothing, but ``passes`` holds the
    selective passes it finished). ``passes``: the selective passes before the exact one.
    ``bound``: ``"exact"``, or for a solve in a window (:meth:`Solver.solve`) that the
    score fell outside, ``"upper"`` (the exact score is at most ``score``) or ``"lower"``
    (at least ``score``).
    """

    board: str
    empties: int
    mode: str
    score: int
    best_move: str
    pv: list[str]
    nodes: int
    time: float
    outcome: str = field(default="")
    stopped: bool = False
    passes: list[SelectivePass] = field(default_factory=list)
    bound: str = "exact"

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.time if self.time > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["nodes_per_second"] = round(self.nodes_per_second)
        d["time"] = round(self.time, 6)
        for done in d["passes"]:
            done["time"] = round(done["time"], 6)
        return d


@functools.cache
def _shipped_evaluation() -> Evaluation:
    """The shipped weights as the kernels read them, loaded once (0.1 s)."""
    weights = default_weights() or Weights.zeros()
    return Evaluation(weights.kernel_table(), GATHER, B3, classic_weights())


class Solver:
    """Reusable solver state: a transposition table kept between calls.

    >>> from bitgames.othello.board import Board
    >>> solver = Solver(table_bits=16)
    >>> solver.solve(Board("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"),
    ...              mode="wld").outcome
    'win'
    """

    def __init__(self, table_bits: int = 21, threads: int = 1,
                 evaluation: Evaluation | None = None, selective: bool = True) -> None:
        self.table = new_table(table_bits)
        #: the pattern evaluation that orders moves far from the end: ``evaluation``,
        #: else the shipped weights (else none: the ordering then rests on mobility alone)
        self.evaluation = evaluation if evaluation is not None else _shipped_evaluation()
        #: threads of a solve: above 1, positions of at least :data:`SPLIT_IDLE` empties
        #: are solved by the split search of :mod:`bitgames.core.ybwc`
        self.threads = threads
        #: run the selective passes before the exact one (the answer is exact either way)
        self.selective = selective
        self.generation = 0
        self._level = EXACT  # the pass running now
        self._split: tuple[ybwc.Search[Any], _SplitSolve] | None = None  # its split search
        #: raised by :meth:`stop`; the kernel polls ``stats[STOP]``, attached to it
        self.stop_signal = StopSignal()
        self.stats = np.zeros(4, dtype=np.int64)
        self.stop_signal.attach(self.stats, 1)

    def stop(self) -> None:
        """Stop the running :meth:`solve` at once, and every later one (thread-safe)."""
        self.stop_signal.set()

    def progress(self) -> Progress:
        """How far the running :meth:`solve` is (from another thread: a command's progress
        display); after it, where it ended."""
        nodes = int(self.stats[NODES])
        split = self._split
        if split is not None:
            search, game = split
            nodes += search.nodes_so_far() + int(game.expand_stats[:, NODES].sum())
        return Progress(level_probability(self._level), nodes)

    def proven(self, board: Any, move: Any = None) -> Proven:
        """What the table holds proven of ``board``'s exact score: its entry's exact bounds,
        narrowed by those of its children (a stopped solve's exact pass may have settled
        some root moves before it could store the root), and the move that reaches the
        lower bound, if one is known to. ``move``: of the position after that move, from
        ``board``'s side to move (as :meth:`solve` with ``move``).

        >>> from bitgames.othello.board import Board
        >>> board = Board("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
        >>> solver = Solver(table_bits=12)
        >>> solver.proven(board)
        Proven(lower=-64, upper=64, move=None)
        >>> solver.solve(board).score, solver.proven(board)
        (18, Proven(lower=18, upper=18, move='g8'))
        """
        if move is not None:
            child = board.copy(stack=False)
            child.push(move)
            after = self.proven(child)  # the opponent's view: turned round
            return Proven(-after.upper, -after.lower, None)

        def bounds(b: Any) -> tuple[int, int] | None:
            p, o = b.bitboards()
            d = table.probe(self.table, U(p), U(o))
            if d == table.MISS or tt_level(d) < EXACT:
                return None
            return int(table.lower(d)), int(table.upper(d))

        lower, upper = bounds(board) or (-64, 64)
        moves = list(board.legal_moves)
        if not moves:  # nothing to play: the game is over, or a pass
            return Proven(lower, upper, None)
        move = None
        children_upper = -64
        for x in moves:
            child = board.copy(stack=False)
            child.push(x)
            known = bounds(child)
            if known is None:
                children_upper = 64
                continue
            children_upper = max(children_upper, -known[0])
            if -known[1] >= lower:
                lower, move = -known[1], str(x)
        return Proven(lower, min(upper, children_upper), move)

    def save_table(self, path: str | Path) -> None:
        """Write the table to ``path`` for :meth:`load_table`; safe while a solve runs (a
        stopped solve stores nothing it has not proven, so what is saved holds)."""
        table.save(path, self.table, self.generation, TABLE_KIND)

    def load_table(self, path: str | Path) -> None:
        """Go on from the table :meth:`save_table` wrote to ``path`` (its size and its
        entries): a solve of the same position then finds what was proven before the save
        in the table, and the next solve writes its entries as the saved one's generation,
        so they are not the first to be replaced.

        >>> import tempfile
        >>> from bitgames.othello.board import Board
        >>> board = Board("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
        >>> first = Solver(table_bits=12)
        >>> cold = first.solve(board)
        >>> path = Path(tempfile.mkdtemp()) / "table.npz"
        >>> first.save_table(path)
        >>> again = Solver()
        >>> again.load_table(path)
        >>> warm = again.solve(board)
        >>> warm.score == cold.score, warm.nodes < cold.nodes, again.table.shape
        (True, True, (4096, 3))
        """
        self.table, saved = table.load(path, TABLE_KIND)
        self.generation = (saved - 1) & 0xFF

    def run(self, p: int | np.uint64, o: int | np.uint64, alpha: int, beta: int, pv: np.ndarray,
            stats: np.ndarray, on_pass: Callable[[int, int, int], None] | None = None,
            ) -> tuple[int, int]:
        """Solve bitboards ``p`` (side to move) and ``o`` in the window ``(alpha, beta)``,
        with a new table generation: returns ``(score, length of the principal
        variation)``; the variation goes to ``pv`` (130 entries), the node count and the
        stop flag to ``stats``. From :data:`SELECTIVE_MIN` empties (if :attr:`selective`),
        selective passes run first (see :data:`SEL_T`); only the last pass is exact.
        ``on_pass(level, score, PV length)`` hears of each selective pass as it ends (its
        line in ``pv`` until the next pass)."""
        self.generation = (self.generation + 1) & 0xFF
        mover, other = U(p), U(o)
        empties = 64 - popcount(mover | other)
        first = 0 if self.selective and empties >= SELECTIVE_MIN else EXACT
        value = length = 0
        for sel in range(first, EXACT + 1):
            if stats[STOP]:
                break
            self._level = sel
            lo, hi = alpha, beta
            if sel > first:  # a window around the last pass's score, widened if it fails
                # (a fail-soft score beyond the window counts as the window's edge, so that
                # the aspiration window stays inside it and is never empty)
                centre = min(max(value, alpha), beta)
                lo, hi = max(alpha, centre - ASPIRATION), min(beta, centre + ASPIRATION)
            value, length = self._pass(mover, other, lo, hi, empties, sel, pv, stats)
            if value <= lo and lo > alpha and not stats[STOP]:
                value, length = self._pass(mover, other, alpha, value + 1, empties, sel, pv, stats)
            elif value >= hi and hi < beta and not stats[STOP]:
                value, length = self._pass(mover, other, value - 1, beta, empties, sel, pv, stats)
            if sel < EXACT and on_pass is not None and not stats[STOP]:
                on_pass(sel, value, length)
        return value, length

    def _pass(self, p: np.uint64, o: np.uint64, alpha: int, beta: int, empties: int, sel: int,
              pv: np.ndarray, stats: np.ndarray) -> tuple[int, int]:
        """One pass of :meth:`run` at selectivity level ``sel``."""
        if self.threads > 1 and empties >= SPLIT_IDLE:
            game = _SplitSolve(self.table, self.generation, self.threads, self.evaluation, sel)
            search = ybwc.Search(game, self.threads, SPLIT_MIN, SPLIT_WAIT, SPLIT_PV_WAIT,
                                 SPLIT_IDLE)
            self._split = (search, game)
            try:
                value, line = search.run((p, o), alpha, beta, empties, stats)
            finally:
                self._split = None
                stats[NODES] += search.nodes + int(game.expand_stats[:, NODES].sum())
            pv[:len(line)] = line
            return value, len(line)
        score, length = solve_kernel(p, o, alpha, beta, self.table, self.generation, pv, stats,
                                     self.evaluation, sel)
        return int(score), int(length)

    def solve(self, board: Any, mode: str = "exact",
              on_pass: Callable[[SelectivePass], None] | None = None,
              window: tuple[int, int] | None = None, move: Any = None) -> SolveResult:
        """Solve a :class:`~bitgames.othello.board.Board` exactly or as win/loss/draw;
        ``on_pass`` hears of each selective pass as it ends (a long solve's progress).

        ``window=(lo, hi)`` (exact mode): only tell whether the score is at most ``lo``,
        at least ``hi``, or which score between them it is (``bound`` in the result),
        which proves less and costs less than the exact score: ``(8, 9)`` asks whether
        the score is above +8. ``move``: solve the position after that move (a name such
        as ``"a7"``, or a :class:`~bitgames.othello.board.Move`), its score, line and
        passes still from ``board``'s side to move, the line starting with the move.

        >>> from bitgames.othello.board import Board
        >>> board = Board("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
        >>> solver = Solver(table_bits=12)
        >>> solver.solve(board).score  # exact: +18, by g8
        18
        >>> above = solver.solve(board, window=(10, 11))
        >>> above.bound, above.score >= 11
        ('lower', True)
        >>> after = solver.solve(board, move="h1")  # the published score of h1 is +12
        >>> after.score, after.pv[0]
        (12, 'h1')
        """
        from bitgames.othello.board import square_name

        if mode not in ("exact", "wld"):
            raise ValueError(f"unknown solve mode {mode!r} (expected 'exact' or 'wld')")
        if window is not None:
            if mode != "exact":
                raise ValueError("a window is for exact solves (win/loss/draw is the window "
                                 "-1..+1)")
            lo, hi = window
            if not -64 <= lo < hi <= 64:
                raise ValueError(f"bad window {lo:+d}..{hi:+d}: expected -64 <= low < high "
                                 "<= +64")
        if move is not None:
            played = str(board.parse_move(str(move)))
            child = board.copy(stack=False)
            child.push(played)
            flipped = None if window is None else (-window[1], -window[0])
            after = self.solve(child, mode, None if on_pass is None else
                               lambda done: on_pass(_after(done, played)), flipped)
            return replace(after, board=board.fen(), empties=board.empties(),
                           score=-after.score, best_move=played, pv=[played, *after.pv],
                           outcome=_OPPOSITE.get(after.outcome, after.outcome),
                           bound=_OPPOSITE.get(after.bound, after.bound),
                           passes=[_after(done, played) for done in after.passes])
        p, o = board.bitboards()
        pv = np.zeros(130, dtype=np.int64)
        stats = self.stats
        stats[NODES] = 0
        alpha, beta = (-INF, INF) if mode == "exact" else (-1, 1)
        if window is not None:
            alpha, beta = window
        start = time.perf_counter()
        passes: list[SelectivePass] = []

        def passed(sel: int, value: int, length: int) -> None:
            done = SelectivePass(
                level_probability(sel), value if mode == "exact" else (value > 0) - (value < 0),
                [square_name(int(s)) for s in pv[:length]], int(stats[NODES]),
                time.perf_counter() - start)
            passes.append(done)
            if on_pass is not None:
                on_pass(done)

        score, length = self.run(p, o, alpha, beta, pv, stats, passed)
        elapsed = time.perf_counter() - start
        stopped = bool(stats[STOP])
        if stopped:
            length = 0
        moves = [square_name(int(s)) for s in pv[:length]]
        bound = ("exact" if window is None or alpha < score < beta
                 else "upper" if score <= alpha else "lower")
        outcome = "win" if score > 0 else "loss" if score < 0 else "draw"
        if mode == "wld":
            score = (score > 0) - (score < 0)
        return SolveResult(
            board=board.fen(),
            empties=board.empties(),
            mode=mode,
            score=int(score),
            best_move=moves[0] if moves else "none",
            pv=moves,
            nodes=int(stats[NODES]),
            time=elapsed,
            outcome=outcome,
            stopped=stopped,
            passes=passes,
            bound=bound,
        )


#: win and loss, upper and lower bound, seen from the other side
_OPPOSITE = {"win": "loss", "loss": "win", "upper": "lower", "lower": "upper"}


def _after(done: SelectivePass, move: str) -> SelectivePass:
    """A selective pass of the position after ``move``, seen from before it."""
    return replace(done, score=-done.score, pv=[move, *done.pv])


def solve(board: Any, mode: str = "exact", table_bits: int = 21) -> SolveResult:
    """Solve a position exactly (``mode="exact"``) or as win/loss/draw (``mode="wld"``)."""
    return Solver(table_bits).solve(board, mode)


@register_warmup("othello", "solver")
def _warm() -> None:
    from bitgames.othello.board import Board

    board = Board("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
    solver = Solver(table_bits=10)
    solver.solve(board)
    stable_discs(U(1), U(2))
    # the kernels of a solve on several threads
    split = _SplitSolve(new_table(10), 1, 1, solver.evaluation)
    position = tuple(U(b) for b in board.bitboards())
    split.expand(0, position, -1, 0, board.empties(), False)
    split.serial(0, position, -1, 0, board.empties(), False, np.zeros(4, dtype=np.int64))
    split.store(position, board.empties(), -1, 0, 2, 0)
