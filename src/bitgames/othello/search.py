"""Othello midgame search: iterative-deepening PVS with aspiration windows.

Kernel side (numba):

- principal-variation search with a null window after the first move, re-searched on a
  fail high; scores in centi-discs from the side to move (exact scores are 100 x the
  final disc difference, so they lie outside every static evaluation);
- the shared transposition table (:mod:`bitgames.core.tt`), keyed by the whole position
  (no false hits): lower and upper bounds, best move, depth, generation; replacement keeps
  deep entries of the current search;
- move ordering: table move, then two killers per ply, then for remaining depth >=
  :data:`EVAL_ORDER_DEPTH` a shallow search (static evaluation of each child), else
  fastest-first (fewest opponent replies) plus a history score;
- depth-1 nodes are searched without the table and without sorting (:func:`_search1`): the
  killers first, then the other moves by square value, each child evaluated in place with
  the mobility already generated (no recursive call per leaf);
- no reference counting: a call between kernels that passes arrays costs an atomic
  increment and decrement of each array's reference count, and ``perf`` showed those
  taking half of the search time. The kernels called at every node allocate nothing, so
  they are compiled without numba's reference counting (``_nrt=False``: the caller owns
  every array for the whole search), and the small ones called per leaf are inlined
  (``inline="always"``);
- Multi-ProbCut at null-window nodes with depth >= 3: a shallow search of depth d/2 (parity
  kept) whose result beyond ``beta + t * sigma`` (or below ``alpha - t * sigma``) predicts
  the deep result and cuts. The linear model ``deep = a shallow + b`` and its error
  ``sigma(depth)`` were fitted from searches (``benchmarks/othello_mpc_fit.py``); ``t`` is
  set by hand;
- a stop flag and a node limit in a small control array, checked at every node, so a
  search can be stopped at any moment (from a timer or another thread: the kernels release
  the GIL).

Python side: :class:`Engine` runs iterative deepening with aspiration windows, hands over
to the exact (or win/loss/draw) solver of :mod:`bitgames.othello.solver` at a configurable
number of empties, and manages time through the core
:class:`~bitgames.core.engine.TimeManager`: a fixed time per move, or a game clock split by
the stage weights of :func:`time_weights` (seed 002, §8), with an emergency stop at the
budget's maximum.

>>> from bitgames.core.engine import Limit
>>> from bitgames.othello.board import Board
>>> engine = Engine(level=2, evaluation="classic")
>>> r = engine.search(Board(), Limit(depth=2))
>>> str(r.move) in ("d3", "c4", "f5", "e6"), r.depth
(True, 2)
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from bitgames.core import smp
from bitgames.core import tt as table
from bitgames.core.bits import ctz, popcount
from bitgames.core.engine import (
    End,
    Info,
    InfoCallback,
    Limit,
    Score,
    SearchResult,
    StopSignal,
    Unit,
)
from bitgames.core.engine import Engine as BaseEngine
from bitgames.core.errors import BitgamesError
from bitgames.core.jit import njit, register_warmup
from bitgames.core.tt import new_table
from bitgames.othello import eval as ev
from bitgames.othello import solver as solver_mod
from bitgames.othello.board import Move
from bitgames.othello.eval import Evaluation
from bitgames.othello.kernels import PASS, final_score, flips, legal_moves
from bitgames.othello.solver import SQUARE_VALUE, next_child

U = np.uint64
_ZERO = U(0)
_ONE = U(1)
INF = 30000
MAX_PLY = 64

PATTERN = 0
CLASSIC = 1

# Slots of the control array ``SearchState.ctl``: the stop flag (set from another thread,
# or by the kernel at the node limit), the node limit, the nodes searched, whether
# Multi-ProbCut is on, the evaluation (PATTERN or CLASSIC), the table generation of this
# search, the deepest ply reached, the score of the best root move searched to the end
# (what a stopped iteration leaves: Engine._deepen).
STOP = 0
NODE_LIMIT = 1
NODES = 2
USE_MPC = 3
EVAL_KIND = 4
GEN = 5
SEL_DEPTH = 6
ROOT_SCORE = 7


class SearchState(NamedTuple):
    """What the kernels of one search share, passed as one bundle (no allocation: the
    arrays belong to the caller for the whole search)."""

    #: the transposition table (:mod:`bitgames.core.tt`)
    table: np.ndarray
    #: two killer moves per ply, and a history score per square
    killers: np.ndarray
    hist: np.ndarray
    #: the ordered moves of each ply: square, ordering value, flipped discs
    move_sq: np.ndarray
    move_val: np.ndarray
    move_flip: np.ndarray
    #: the principal variation of each ply, and its length
    pv: np.ndarray
    pv_len: np.ndarray
    #: the control slots (``STOP`` ... ``ROOT_SCORE``)
    ctl: np.ndarray
    ev: Evaluation
    #: positions being searched, shared by the threads (:func:`bitgames.core.smp.busy_table`)
    busy: np.ndarray

# Multi-ProbCut: deep = a * shallow + b + noise(sigma), fitted by
# ``python benchmarks/othello_mpc_fit.py 150 9`` on 150 random midgame positions with the
# shipped weights (depth 3-8; deeper searches reuse the row of the same parity).
_MPC_FIT = {3: (0.967, 90.1, 607), 4: (1.018, 68.7, 512), 5: (0.972, 133.2, 687),
            6: (1.038, 95.0, 643), 7: (1.000, 134.2, 542), 8: (1.021, 108.5, 462)}
MPC_A = np.ones(65, dtype=np.float64)
MPC_B = np.zeros(65, dtype=np.float64)
#: Standard deviation (centi-discs) of deep - predicted-from-shallow search results.
MPC_SIGMA = np.zeros(65, dtype=np.float64)
for _d in range(3, 65):
    _a, _b, _s = _MPC_FIT[_d if _d <= 8 else (7 if _d & 1 else 8)]
    MPC_A[_d], MPC_B[_d], MPC_SIGMA[_d] = _a, _b, _s
#: Remaining depth from which a thread marks the positions it searches, and moves that
#: another thread is searching are put off to a second pass (bitgames.core.smp); PUT_OFF
#: marks such a move's ordering value.
SPREAD_DEPTH = 4
PUT_OFF = -(1 << 62)
#: Remaining depth from which moves are ordered by the static evaluation of each child
#: (below it, by mobility: cheaper, and the subtrees are too small to repay an evaluation).
EVAL_ORDER_DEPTH = 5
MPC_T = 1.4  # cut threshold in standard deviations


@njit
def static_eval(p: np.uint64, o: np.uint64, w: np.ndarray, gather: np.ndarray, b3: np.ndarray,
                wc: np.ndarray, kind: int) -> int:
    """The chosen static evaluation (pattern or classic) in centi-discs."""
    if kind == CLASSIC:
        return ev.classic_eval(p, o, wc)
    return ev.evaluate(p, o, w, gather, b3)


@njit(inline="always")
def _eval_moves(p: np.uint64, o: np.uint64, mp: np.uint64, mo: np.uint64, e: Evaluation,
                kind: int) -> int:
    """:func:`static_eval` given the legal moves ``mp`` of ``p`` and ``mo`` of ``o``."""
    if kind == CLASSIC:
        return ev.classic_mobility(p, o, popcount(mp), popcount(mo), e.classic)
    return ev.evaluate_mobility(p, o, popcount(mp), popcount(mo), e.weights, e.b3)


@njit(inline="always")
def _leaf(p: np.uint64, o: np.uint64, ctl: np.ndarray, e: Evaluation, kind: int) -> int:
    """Value of (p, o) as a depth-0 search sees it: the final score at the end of the game,
    after a forced pass the opponent's evaluation (the pass counts as a node), else the
    static evaluation."""
    mp = legal_moves(p, o)
    mo = legal_moves(o, p)
    if mp == _ZERO:
        if mo == _ZERO:
            return 100 * final_score(p, o)
        ctl[NODES] += 1
        return -_eval_moves(o, p, mo, mp, e, kind)
    return _eval_moves(p, o, mp, mo, e, kind)


#: Square masks by decreasing :data:`SQUARE_VALUE` (corners first, X-squares last).
SQUARE_CLASSES = np.array([sum(1 << x for x in range(64) if SQUARE_VALUE[x] == v)
                           for v in sorted(set(SQUARE_VALUE.tolist()), reverse=True)],
                          dtype=np.uint64)


@njit(inline="always")
def _next_leaf_move(moves: np.uint64, classes: np.ndarray) -> int:
    for c in range(classes.shape[0]):
        m = moves & classes[c]
        if m:
            return ctz(m)
    return ctz(moves)


@njit(inline="always")
def _leaf_parent(p: np.uint64, o: np.uint64, moves: np.uint64, k0: int, k1: int, beta: int,
                 ctl: np.ndarray, e: Evaluation, kind: int) -> tuple[int, int]:
    """Depth-1 search of a position with ``moves``: every child is evaluated in place (the
    killers ``k0``, ``k1`` first, then the others by square value) until one reaches
    ``beta``. Returns (score, best move); each child counts as a node, as if it had been
    searched to depth 0."""
    best = -INF
    best_move = PASS
    n = 0
    while moves:
        if n == 0 and k0 >= 0 and moves & (_ONE << U(k0)):
            x = k0
        elif n <= 1 and k1 >= 0 and moves & (_ONE << U(k1)):
            x = k1
        else:
            x = _next_leaf_move(moves, SQUARE_CLASSES)
        n += 1
        moves ^= _ONE << U(x)
        ctl[NODES] += 1
        if ctl[NODES] >= ctl[NODE_LIMIT]:
            ctl[STOP] = 1
            return 0, best_move
        f = flips(p, o, x)
        s = -_leaf(o ^ f, p ^ f ^ (_ONE << U(x)), ctl, e, kind)
        if s > best:
            best = s
            best_move = x
            if s >= beta:
                break
    return best, best_move


@njit(inline="always")
def _enter(ply: int, pv_len: np.ndarray, ctl: np.ndarray) -> bool:
    """Count a node and clear its PV; True when the search must stop (the stop flag is
    set, or the node limit is reached: then it sets the flag)."""
    ctl[NODES] += 1
    pv_len[ply] = 0
    if ctl[STOP] != 0:
        return True
    if ctl[NODES] >= ctl[NODE_LIMIT]:
        ctl[STOP] = 1
        return True
    return False


@njit(_nrt=False)
def _search1(p: np.uint64, o: np.uint64, alpha: int, beta: int, ply: int,
             st: SearchState) -> int:
    """A depth-1 node (what :func:`_pvs` does at depth 1, without the table or sorting)."""
    killers, pv, pv_len, ctl = st.killers, st.pv, st.pv_len, st.ctl
    if _enter(ply, pv_len, ctl):
        return 0
    moves = legal_moves(p, o)
    passed = moves == _ZERO
    if passed:
        moves = legal_moves(o, p)
        if moves == _ZERO:
            return 100 * final_score(p, o)
        ctl[NODES] += 1  # the pass is a node of its own
        p, o = o, p
        alpha, beta = -beta, -alpha
        pv[ply, 0] = PASS
        ply += 1
        pv_len[ply] = 0
    best, x = _leaf_parent(p, o, moves, killers[ply, 0], killers[ply, 1], beta, ctl, st.ev,
                           ctl[EVAL_KIND])
    if ctl[STOP] != 0:
        return 0
    if best >= beta:
        if killers[ply, 0] != x:
            killers[ply, 1] = killers[ply, 0]
            killers[ply, 0] = x
        st.hist[x] += 1
    pv[ply, 0] = x
    pv_len[ply] = 1
    if passed:
        pv[ply - 1, 1] = x
        pv_len[ply - 1] = 2
        return -best
    return best


@njit(_nrt=False)
def _order(p: np.uint64, o: np.uint64, moves: np.uint64, tt_move: int, depth: int, ply: int,
           st: SearchState, kind: int) -> int:
    """Write the moves of ply ``ply`` with their ordering values into ``st.move_*`` (the
    table move, a wipe-out, the killers, then by evaluation or mobility and history);
    return how many."""
    killers, hist, e = st.killers, st.hist, st.ev
    k = 0
    while moves:
        x = ctz(moves)
        moves &= moves - _ONE
        f = flips(p, o, x)
        cp = o ^ f
        co = p ^ f ^ (_ONE << U(x))
        if x == tt_move:
            val = 1 << 40
        elif cp == _ZERO:
            val = 1 << 39
        elif x == killers[ply, 0]:
            val = 1 << 38
        elif x == killers[ply, 1]:
            val = 1 << 37
        elif depth >= EVAL_ORDER_DEPTH:
            val = -static_eval(cp, co, e.weights, e.gather, e.b3, e.classic, kind) * 64 \
                + hist[x] // 16
        else:
            om = legal_moves(cp, co)
            val = -(popcount(om) << 20) + hist[x] + SQUARE_VALUE[x]
        st.move_sq[ply, k] = x
        st.move_val[ply, k] = val
        st.move_flip[ply, k] = f
        k += 1
    return k


@njit(_nrt=False)
def _pvs(p: np.uint64, o: np.uint64, alpha: int, beta: int, depth: int, ply: int,
         st: SearchState) -> int:
    """Principal-variation search of (p, o) to ``depth`` plies in (alpha, beta)."""
    if depth == 1:
        return _search1(p, o, alpha, beta, ply, st)
    tt, killers, pv, pv_len, ctl = st.table, st.killers, st.pv, st.pv_len, st.ctl
    if _enter(ply, pv_len, ctl):
        return 0
    kind = ctl[EVAL_KIND]
    moves = legal_moves(p, o)
    if moves == _ZERO:
        if legal_moves(o, p) == _ZERO:
            return 100 * final_score(p, o)
        s = -_pvs(o, p, -beta, -alpha, depth, ply + 1, st)
        pv[ply, 0] = PASS
        for j in range(pv_len[ply + 1]):
            pv[ply, j + 1] = pv[ply + 1, j]
        pv_len[ply] = pv_len[ply + 1] + 1
        return s
    if depth <= 0 or ply >= MAX_PLY - 2:
        e = st.ev
        return static_eval(p, o, e.weights, e.gather, e.b3, e.classic, kind)
    pv_node = beta - alpha > 1
    gen = ctl[GEN]
    tt_move = -1
    d = table.probe(tt, p, o)
    if d != table.MISS:
        tt_move = table.move(d)
        if not pv_node and table.depth(d) >= depth:
            lower = table.lower(d)
            upper = table.upper(d)
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
    # Multi-ProbCut, at any score (decided positions too: without it, a position scored
    # above +60 discs took 1,000 times longer to depth 13; docs/PERFORMANCE.md)
    if (not pv_node and ctl[USE_MPC] != 0 and depth >= 3
            and depth < 64 - popcount(p | o)):  # never selective when the end is in reach
        shallow = depth // 2
        if (depth - shallow) & 1:
            shallow -= 1
        if shallow < 1:
            shallow = 1
        # the shallow value that predicts deep >= beta (resp. <= alpha) with confidence t
        bound = np.int64(np.ceil((beta + MPC_T * MPC_SIGMA[depth] - MPC_B[depth])
                                 / MPC_A[depth]))
        if bound < 6000:
            s = _pvs(p, o, bound - 1, bound, shallow, ply, st)
            if s >= bound:
                return beta
        bound = np.int64(np.floor((alpha - MPC_T * MPC_SIGMA[depth] - MPC_B[depth])
                                  / MPC_A[depth]))
        if bound > -6000:
            s = _pvs(p, o, bound, bound + 1, shallow, ply, st)
            if s <= bound:
                return alpha
        if ctl[STOP] != 0:
            return 0
    k = _order(p, o, moves, tt_move, depth, ply, st, kind)
    best = -INF
    best_move = PASS
    a = alpha
    # with helper threads, a move whose position another thread is searching waits for a
    # second pass over the list (bitgames.core.smp); i counts the moves searched so far
    busy = st.busy
    spread = busy.shape[0] > 1 and depth >= SPREAD_DEPTH
    put_off = False
    second = False
    idx = 0
    i = 0
    while True:
        idx, second, done = smp.next_pass(idx, k, put_off, second)
        if done:
            break
        if second:
            if st.move_val[ply, idx] != PUT_OFF:
                idx += 1
                continue
            x = st.move_sq[ply, idx]
            f = st.move_flip[ply, idx]
            cp, co = o ^ f, p ^ f ^ (_ONE << U(x))
        else:
            x, cp, co = next_child(p, o, ply, idx, k, st.move_sq, st.move_val, st.move_flip)
        idx += 1
        tag = _ZERO
        if spread:
            tag = smp.busy_tag(cp, co)
            if i > 0 and not second and smp.is_busy(busy, tag):
                st.move_val[ply, idx - 1] = PUT_OFF
                put_off = True
                continue
            smp.mark_busy(busy, tag)
        lo = -beta if i == 0 else -a - 1
        if depth == 2:  # a direct call: no recursion overhead for the most frequent nodes
            s = -_search1(cp, co, lo, -a, ply + 1, st)
        else:
            s = -_pvs(cp, co, lo, -a, depth - 1, ply + 1, st)
        if i > 0 and a < s < beta and pv_node:  # null window failed high: search again
            s = -_pvs(cp, co, -beta, -s, depth - 1, ply + 1, st)
        i += 1
        if spread:
            smp.clear_busy(busy, tag)
        if ctl[STOP] != 0:
            return 0
        if s > best:
            best = s
            best_move = x
            if s > a:
                a = s
                pv[ply, 0] = x
                for j in range(pv_len[ply + 1]):
                    pv[ply, j + 1] = pv[ply + 1, j]
                pv_len[ply] = pv_len[ply + 1] + 1
                if ply == 0:
                    ctl[ROOT_SCORE] = s
                if s >= beta:
                    if killers[ply, 0] != x:
                        killers[ply, 1] = killers[ply, 0]
                        killers[ply, 0] = x
                    st.hist[x] += depth * depth
                    break
    if best_move != PASS and pv_len[ply] == 0:
        pv[ply, 0] = best_move
        pv_len[ply] = 1
    lower = best if best >= beta else -INF
    upper = best if best <= alpha else INF
    if alpha < best < beta:
        lower = best
        upper = best
    table.store(tt, p, o, depth, gen, lower, upper, best_move)
    return best


@njit(nogil=True)
def search_root(p: np.uint64, o: np.uint64, alpha: int, beta: int, depth: int, tt: np.ndarray,
                killers: np.ndarray, hist: np.ndarray, ctl: np.ndarray, w: np.ndarray,
                gather: np.ndarray, b3: np.ndarray, wc: np.ndarray, pv_out: np.ndarray,
                busy: np.ndarray) -> tuple[int, int]:
    """Search (p, o) to ``depth`` in (alpha, beta); return (score, PV length in pv_out).
    ``busy`` is the threads' shared :func:`~bitgames.core.smp.busy_table` (one thread:
    ``busy_table(1)``)."""
    st = SearchState(tt, killers, hist,
                     np.zeros((MAX_PLY + 2, 40), dtype=np.int64),
                     np.zeros((MAX_PLY + 2, 40), dtype=np.int64),
                     np.zeros((MAX_PLY + 2, 40), dtype=np.uint64),
                     np.zeros((MAX_PLY + 2, MAX_PLY + 2), dtype=np.int64),
                     np.zeros(MAX_PLY + 2, dtype=np.int64),
                     ctl, Evaluation(w, gather, b3, wc), busy)
    ply = np.int64(0)  # a variable, not a literal: one signature for _pvs
    s = _pvs(p, o, alpha, beta, depth, ply, st)
    for j in range(st.pv_len[0]):
        pv_out[j] = st.pv[0, j]
    return s, st.pv_len[0]


@njit(nogil=True)
def child_scores(p: np.uint64, o: np.uint64, depth: int, tt: np.ndarray, killers: np.ndarray,
                 hist: np.ndarray, ctl: np.ndarray, w: np.ndarray, gather: np.ndarray,
                 b3: np.ndarray, wc: np.ndarray, out: np.ndarray) -> int:
    """Full-window score of every legal move searched to ``depth - 1``: ``out[k] = (sq, s)``."""
    moves = legal_moves(p, o)
    pv = np.zeros(MAX_PLY + 2, dtype=np.int64)
    busy = np.zeros(1, dtype=np.uint64)  # one thread's busy table
    k = 0
    while moves:
        x = ctz(moves)
        moves &= moves - _ONE
        f = flips(p, o, x)
        s, _ = search_root(o ^ f, p ^ f ^ (_ONE << U(x)), np.int64(-INF), np.int64(INF),
                           depth - 1, tt, killers, hist, ctl, w, gather, b3, wc, pv, busy)
        out[k, 0] = x
        out[k, 1] = -s
        k += 1
    return k


# -- Python side -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Level:
    """What a user level means: midgame depth, exact and WLD solve thresholds, MPC."""

    depth: int
    exact: int
    wld: int
    mpc: bool


MAX_LEVEL = 20


def level_settings(n: int) -> Level:
    """Level ``n`` (1..:data:`MAX_LEVEL`): depth n, exact solve from about 1.6n empties
    (at most 24), a win/loss/draw solve 2 empties earlier from level 4, Multi-ProbCut
    from level 6.

    >>> level_settings(1), level_settings(10).exact
    (Level(depth=1, exact=2, wld=2, mpc=False), 16)
    """
    if not 1 <= n <= MAX_LEVEL:
        raise BitgamesError(f"level must be 1..{MAX_LEVEL}, got {n}")
    exact = min(24, max(2, n + (3 * n) // 5))
    wld = min(26, exact + (2 if n >= 4 else 0))
    return Level(depth=n, exact=exact, wld=wld, mpc=n >= 6)


def time_weight(empties: int) -> float:
    """Relative time of one of our moves at ``empties`` (seed 002: more in the early
    midgame, less at the start and in the last plies before the solve)."""
    if empties > 50:
        return 0.6
    if empties > 30:
        return 1.0 + (50 - empties) * 0.02
    if empties > 20:
        return 1.3
    return 0.7


#: The exact solve gets the time of this many average moves.
SOLVE_WEIGHT = 2.0
#: A timed solve that has not ended by this share of the move's maximum time gives way to
#: the midgame search, which answers in the rest: a solve's time varies tenfold between
#: positions of the same empties, and a stopped solve has no move to offer.
SOLVE_SHARE = 0.6


def time_weights(empties: int, exact_at: int) -> list[float]:
    """The per-phase hook of :class:`~bitgames.core.engine.TimeManager`: the weight of
    this move, then of each of our later moves until the exact solve, then of the solve.

    >>> [round(w, 2) for w in time_weights(40, 30)]
    [1.2, 1.24, 1.28, 1.32, 1.36, 2.0]
    >>> time_weights(12, 16)  # the solve itself
    [2.0]
    """
    return [time_weight(e) for e in range(empties, max(exact_at, 0), -2)] + [SOLVE_WEIGHT]


def solve_time_estimate(empties: int, threads: int = 1) -> float:
    """Rough seconds of an exact solve at ``empties`` on this machine kind: x2 per empty,
    fitted to FFO #40-#49 (20-26 empties: 0.7 s at 20, 35 s at 26, one thread); on more
    threads 1.8 times faster, as measured on 2 (docs/PERFORMANCE.md).

    >>> round(solve_time_estimate(20), 2), round(solve_time_estimate(20, threads=2), 2)
    (0.8, 0.44)
    """
    return 0.2 * 2.0 ** (empties - 18) / (1.8 if threads > 1 else 1.0)


def centi_discs(score: Score) -> int:
    """A score in the kernels' centi-discs (the book's unit): a proven win or loss of a
    win/loss/draw solve, which has no disc count, is +-100.

    >>> centi_discs(Score(1.5, Unit.DISCS)), centi_discs(-Score.win(Unit.DISCS))
    (150, -100)
    """
    if math.isinf(score.value):
        return 100 if score.value > 0 else -100
    return round(100 * score.value)


def _midgame_score(centi: int, exact: bool = False) -> Score:
    return Score(centi / 100, Unit.DISCS, exact=exact)


class Engine(BaseEngine):
    """The Othello engine: pattern (or classic) evaluation, PVS with a transposition table
    and Multi-ProbCut, an exact or win/loss/draw solve near the end, time management.

    Scores are in :attr:`Unit.DISCS <bitgames.core.engine.Unit.DISCS>` for the side to
    move: the midgame search's estimate of the final disc difference, ``exact=True`` once
    the result is proven (the exact solve, or a search that reached the end of every
    line). A win/loss/draw solve proves only who wins: a win is
    ``Score.win(Unit.DISCS)`` (a proven win of unknown margin), a loss its negation, a
    draw the exact score 0.

    ``level`` 1..20 (default 8) sets the midgame depth (= the level), the exact solve from
    about 1.6 x level empties (at most 24) and the win/loss/draw solve two empties
    earlier (from level 4), and Multi-ProbCut (from level 6): see :func:`level_settings`.
    ``evaluation`` is ``"pattern"`` (the shipped trained weights, or ``weights``) or
    ``"classic"`` (seed 002). ``exact_empties``, ``wld_empties`` and ``mpc`` override the
    level's choices, at this level and any set later.

    >>> from bitgames.core.engine import Limit
    >>> from bitgames.othello.board import Board
    >>> engine = Engine(level=2, evaluation="classic")
    >>> r = engine.search(Board(), Limit(depth=2))
    >>> str(r.move) in ("d3", "c4", "f5", "e6"), r.depth, r.score.unit
    (True, 2, <Unit.DISCS: 'discs'>)
    """

    MAX_LEVEL = MAX_LEVEL
    unit = Unit.DISCS

    def __init__(self, level: int = 8, evaluation: str = "pattern", weights: Any = None,
                 table_bits: int = 20, exact_empties: int | None = None,
                 wld_empties: int | None = None, mpc: bool | None = None,
                 threads: int = 1) -> None:
        from bitgames.othello.solver import Solver

        self._overrides = {name: value for name, value in (
            ("exact_empties", exact_empties), ("wld_empties", wld_empties), ("mpc", mpc))
            if value is not None}
        super().__init__(level, threads)
        if evaluation not in ("pattern", "classic"):
            raise BitgamesError(f"unknown evaluation {evaluation!r} (pattern or classic)")
        self.evaluation = evaluation
        if weights is None and evaluation == "pattern":
            weights = ev.default_weights()
            if weights is None:
                raise BitgamesError("no shipped pattern weights; use evaluation='classic'")
        if isinstance(weights, (str, bytes)) or hasattr(weights, "__fspath__"):
            weights = ev.Weights.load(weights)
        self.weights = (weights.kernel_table() if weights is not None
                        else np.zeros((ev.N_STAGES, 1), dtype=np.int16))
        self.classic = ev.classic_weights()
        self.table = new_table(table_bits)
        self.killers = np.full((MAX_PLY + 2, 2), -1, dtype=np.int64)
        self.hist = np.zeros(64, dtype=np.int64)
        self.ctl = np.zeros(8, dtype=np.int64)
        self._helper_tables: list[tuple[np.ndarray, np.ndarray]] = []  # killers, history
        # the solver orders its moves by the pattern evaluation (the shipped weights
        # when the engine has none: it evaluates with the classic one)
        self.solver = Solver(table_bits=min(table_bits, 21), evaluation=None if weights is None
                             else Evaluation(self.weights, ev.GATHER, ev.B3, self.classic))
        self.solver_stats = np.zeros(4, dtype=np.int64)
        self.stop_signal.attach(self.ctl, STOP)
        self.stop_signal.attach(self.solver_stats, solver_mod.STOP)
        #: stops the solve alone, when a timed solve has had its share of the time
        self._solve_alarm = StopSignal()
        self._solve_alarm.attach(self.solver_stats, solver_mod.STOP)
        self.generation = 0

    def _apply_level(self, n: int) -> None:
        lv = level_settings(n)
        self.depth = lv.depth
        self.exact_empties = lv.exact
        self.wld_empties = lv.wld
        self.mpc = lv.mpc
        for name, value in self._overrides.items():
            setattr(self, name, value)

    def new_game(self) -> None:
        """Forget the tables (transposition, killers, history), the helper threads' too."""
        self.table = table.cleared(self.table)
        self.killers[:] = -1
        self.hist[:] = 0
        self._helper_tables = []

    def evaluate(self, board: Any) -> int:
        """Static evaluation of a board for the side to move, in the kernels' centi-discs."""
        p, o = board.bitboards()
        kind = CLASSIC if self.evaluation == "classic" else PATTERN
        return int(static_eval(U(p), U(o), self.weights, ev.GATHER, ev.B3, self.classic, kind))

    # -- searching ---------------------------------------------------------------------------

    def _prepare(self, node_limit: int | None) -> None:
        self.generation = (self.generation % 250) + 1
        self.ctl[:] = 0
        self.ctl[NODE_LIMIT] = node_limit if node_limit else 1 << 62
        self.ctl[USE_MPC] = 1 if self.mpc else 0
        self.ctl[EVAL_KIND] = CLASSIC if self.evaluation == "classic" else PATTERN
        self.ctl[GEN] = self.generation
        self.hist //= 4

    def search(self, board: Any, limit: Limit | None = None,
               on_info: InfoCallback | None = None, *, solve: bool = True,
               multi: int = 1) -> SearchResult:
        """Search ``board`` within ``limit`` and return the best move.

        ``limit``: ``depth`` (default: the level's), ``nodes``, ``time`` per move, a game
        clock (``remaining``, ``increment``, ``moves_to_go``: the time manager splits it by
        :func:`time_weights`), or ``infinite`` (until :meth:`stop`). ``on_info`` receives
        each completed iteration (and the solve). With ``solve`` the exact/WLD solver takes
        over at the level's thresholds. ``multi`` > 1 also scores every other move
        (``result.multipv``, best first).
        """
        limit = limit or Limit()
        start = time.perf_counter()
        self.stop_signal.clear()
        p, o = board.bitboards()
        p, o = U(p), U(o)
        empties = 64 - popcount(p | o)
        max_depth = limit.depth if limit.depth is not None else self.depth
        if limit.infinite and limit.depth is None:
            max_depth = MAX_PLY - 4
        budget = self.time_manager.budget(limit, time_weights(empties, self.exact_empties))
        target, hard = budget.optimum, budget.maximum
        timed = limit.time is not None or limit.remaining is not None
        panic = limit.remaining is not None and limit.remaining < self.time_manager.panic
        if panic:
            max_depth = 1  # almost out of time: a 1-ply answer at once
            solve = False
            hard = math.inf
        moves = int(legal_moves(p, o))
        if moves == 0:
            return self._no_move(board, limit, start, solve)
        if moves & (moves - 1) == 0 and multi == 1 and timed:
            sq = ctz(U(moves))  # forced move: no need to think
            return SearchResult(Move(sq), _midgame_score(self.evaluate_after(board, sq)),
                                [Move(sq)], time=time.perf_counter() - start)
        self._prepare(limit.nodes)
        if hard < math.inf:
            self.stop_signal.arm(hard)
        try:
            fits = target == math.inf or (solve_time_estimate(empties, self.threads)
                                          <= 0.5 * target)
            if solve and empties <= self.wld_empties and fits:
                solved = self._solve(board, empties, start, hard, on_info)
                if solved is not None:
                    if multi > 1:
                        solved.multipv = self._multi(p, o, max(1, min(max_depth, empties)))
                    return solved
                # the solve ran out of its share: the midgame search aims at half the rest
                elapsed = time.perf_counter() - start
                target = max(target, elapsed + 0.5 * (hard - elapsed))
            result = self._iterate(p, o, max_depth, start, target, on_info)
            if panic:
                result.ended = End.TIME  # the clock, not the level, chose the depth
            if multi > 1 and result.ended is End.COMPLETED:
                result.multipv = self._multi(p, o, result.depth)
            return result
        finally:
            self.stop_signal.disarm()

    def _no_move(self, board: Any, limit: Limit, start: float, solve: bool) -> SearchResult:
        """The side to move has no placement: at the game's end no move and the exact
        final score; else a pass, scored by a search of the opponent's position."""
        if board.is_game_over():
            p, o = board.bitboards()
            score = Score(float(final_score(U(p), U(o))), Unit.DISCS, exact=True)
            return SearchResult(None, score, [], time=time.perf_counter() - start)
        after = board.copy(stack=False)
        after.push(Move(PASS))
        r = self.search(after, limit, solve=solve)
        return SearchResult(Move(PASS), None if r.score is None else -r.score,
                            [Move(PASS), *r.pv], r.depth, r.nodes,
                            time.perf_counter() - start, r.ended)

    def evaluate_after(self, board: Any, sq: int) -> int:
        """The static evaluation after ``sq`` for the side to move now (centi-discs)."""
        b = board.copy(stack=False)
        b.push(sq)
        return -self.evaluate(b)

    def _multi(self, p: np.uint64, o: np.uint64, depth: int) -> list[tuple[Move, Score]]:
        out = np.zeros((40, 2), dtype=np.int64)
        self.ctl[STOP] = 0
        self.ctl[NODE_LIMIT] = 1 << 62
        k = child_scores(p, o, np.int64(depth), self.table, self.killers, self.hist, self.ctl,
                         self.weights, ev.GATHER, ev.B3, self.classic, out)
        rows = sorted(((int(out[i, 0]), int(out[i, 1])) for i in range(k)),
                      key=lambda r: -r[1])
        exact = depth >= 64 - popcount(p | o)
        return [(Move(sq), _midgame_score(s, exact)) for sq, s in rows]

    def _solve(self, board: Any, empties: int, start: float, hard: float,
               on_info: InfoCallback | None) -> SearchResult | None:
        """Exact or WLD solve at the root, stoppable; None when stopped, by the stop
        signal or, with a time limit ``hard``, at :data:`SOLVE_SHARE` of it."""
        exact = empties <= self.exact_empties
        p, o = board.bitboards()
        if self.ctl[STOP]:
            return None
        pv = np.zeros(130, dtype=np.int64)
        stats = self.solver_stats
        stats[solver_mod.NODES] = 0
        alpha, beta = (-solver_mod.INF, solver_mod.INF) if exact else (-1, 1)
        self.solver.threads = self.threads
        if hard < math.inf:
            self._solve_alarm.arm(SOLVE_SHARE * hard - (time.perf_counter() - start))

        def passed(sel: int, value: int, length: int) -> None:
            """Report a selective pass, as Edax does: ``24@73%`` (:func:`depth_text`)."""
            assert on_info is not None
            if exact:
                score = Score(float(value), Unit.DISCS)
            else:
                score = Score(math.copysign(math.inf, value) if value else 0.0, Unit.DISCS)
            on_info(Info(empties, None, score, int(stats[solver_mod.NODES]),
                         time.perf_counter() - start, [Move(int(s)) for s in pv[:length]],
                         solver_mod.level_probability(sel)))

        try:
            value, length = self.solver.run(p, o, alpha, beta, pv, stats,
                                            None if on_info is None else passed)
        finally:
            self._solve_alarm.disarm()
        if stats[solver_mod.STOP]:
            return None
        moves = [Move(int(s)) for s in pv[:length]]
        if exact or value == 0:
            score = Score(float(value), Unit.DISCS, exact=True)
        else:
            score = Score.win(Unit.DISCS)
            score = score if value > 0 else -score
        res = SearchResult(moves[0] if moves else Move(PASS), score, moves, empties,
                           int(stats[solver_mod.NODES]), time.perf_counter() - start)
        if on_info is not None:
            on_info(res.info())
        return res

    def _iterate(self, p: np.uint64, o: np.uint64, max_depth: int, start: float, target: float,
                 on_info: InfoCallback | None) -> SearchResult:
        """Iterative deepening on the engine's thread, with ``threads - 1`` helpers."""
        pv = np.zeros(MAX_PLY + 2, dtype=np.int64)
        empties = 64 - popcount(p | o)
        busy = smp.busy_table(self.threads)
        lead = smp.Lead(self.ctl, NODE_LIMIT, ahead=True)
        helper = self._helper(p, o, max_depth, busy, lead)
        with smp.helping(self.threads, helper) as helper_nodes:
            best = self._deepen(p, o, max_depth, start, target, on_info, pv, empties, busy,
                                lead)
        best.nodes += sum(helper_nodes)
        return best

    def _helper(self, p: np.uint64, o: np.uint64, max_depth: int, busy: np.ndarray,
                lead: smp.Lead) -> smp.Helper:
        """A Lazy SMP helper of the search of (p, o) (:mod:`bitgames.core.smp`): the
        iterations it completes go to ``lead``."""
        while len(self._helper_tables) < self.threads - 1:
            self._helper_tables.append((np.full((MAX_PLY + 2, 2), -1, dtype=np.int64),
                                        np.zeros(64, dtype=np.int64)))

        def run(index: int, stop: StopSignal) -> int:
            killers, hist = self._helper_tables[index - 1]
            hist //= 4
            ctl = self.ctl.copy()
            ctl[STOP] = ctl[NODES] = 0
            ctl[NODE_LIMIT] = 1 << 62
            stop.attach(ctl, STOP)
            pv = np.zeros(MAX_PLY + 2, dtype=np.int64)
            # the root, with a full window, never shallower than the main thread
            # (docs/PERFORMANCE.md: helpers that searched the root's children one by one
            # instead were slower for the typical position)
            depth = 0
            while depth < max_depth:
                depth = min(lead.next_depth(index, depth), max_depth)
                if stop.is_set():
                    break
                s, length = search_root(p, o, np.int64(-INF), np.int64(INF), np.int64(depth),
                                        self.table, killers, hist, ctl, self.weights,
                                        ev.GATHER, ev.B3, self.classic, pv, busy)
                if ctl[STOP]:
                    break
                if length > 0:
                    lead.done(depth, int(pv[0]), int(s))
            return int(ctl[NODES])

        return run

    def _deepen(self, p: np.uint64, o: np.uint64, max_depth: int, start: float,
                target: float, on_info: InfoCallback | None, pv: np.ndarray,
                empties: int, busy: np.ndarray, lead: smp.Lead) -> SearchResult:
        """The iterative deepening of the engine's own thread, which goes on from a
        helper's result when a helper completes an iteration first (``lead``)."""
        best: SearchResult | None = None
        prev = 0
        last_time = 0.0
        limit = int(self.ctl[NODE_LIMIT])
        d = s = length = 0
        while d < max_depth:
            d += 1
            window = 60 if d > 2 else INF
            alpha, beta = max(prev - window, -INF), min(prev + window, INF)
            iter_start = time.perf_counter()
            self.ctl[NODE_LIMIT] = limit  # a lead may have zeroed it since the last one
            searched = lead.start(d)
            while searched:
                s, length = search_root(p, o, np.int64(alpha), np.int64(beta), np.int64(d),
                                        self.table, self.killers, self.hist, self.ctl,
                                        self.weights, ev.GATHER, ev.B3, self.classic, pv,
                                        busy)
                if self.ctl[STOP]:
                    break
                if s <= alpha and alpha > -INF:
                    alpha = max(alpha - 4 * window, -INF)
                    window *= 4
                elif s >= beta and beta < INF:
                    beta = min(beta + 4 * window, INF)
                    window *= 4
                else:
                    break
            led = not searched or bool(self.ctl[STOP] and lead.depth >= d)
            if led:
                # a helper completed this iteration or a deeper one first: its result (its
                # move alone as the variation), and go on from it unless the search is over
                d, s, length = lead.depth, lead.score, 1
                pv[0] = lead.move
                if not self.stop_signal.is_set() and self.ctl[NODES] < limit:
                    self.ctl[STOP] = 0
            self.ctl[NODE_LIMIT] = limit
            elapsed = time.perf_counter() - start
            stopped = bool(self.ctl[STOP])
            if stopped and not led and length == 0:  # no root move of this iteration ended
                if best is None:  # stopped before depth 1 ended: depth 1 regardless
                    ctl = self.ctl.copy()
                    ctl[STOP], ctl[NODE_LIMIT] = 0, 1 << 62
                    s, length = search_root(p, o, np.int64(-INF), np.int64(INF), np.int64(1),
                                            self.table, self.killers, self.hist, ctl,
                                            self.weights, ev.GATHER, ev.B3, self.classic, pv,
                                            busy)
                    best = SearchResult(Move(int(pv[0])), _midgame_score(int(s)),
                                        [Move(int(pv[0]))], 1)
            else:
                # iteration d's result; a stopped iteration still counts for the root moves
                # it finished: the first (last iteration's best) is searched to the end
                # before any other, and another replaces it only once a full-window search
                # proves it better
                partial = stopped and not led
                prev = int(self.ctl[ROOT_SCORE]) if partial else int(s)
                moves = [Move(int(x)) for x in pv[:length]]
                best = SearchResult(moves[0], _midgame_score(prev, d >= empties), moves,
                                    d - 1 if partial else d, int(self.ctl[NODES]), elapsed)
            if stopped:
                best.ended = self.stop_signal.end(completed=self.ctl[NODES]
                                                  >= self.ctl[NODE_LIMIT])
                best.nodes = int(self.ctl[NODES])
                best.time = elapsed
                return best
            if on_info is not None:
                on_info(best.info())
            if abs(prev) > 6300 and d >= empties:
                break  # the search saw the end of the game
            iter_time = time.perf_counter() - iter_start
            growth = iter_time / last_time if last_time > 0.002 else 3.0
            last_time = iter_time
            if elapsed >= target:
                break
            if elapsed + iter_time * min(max(growth, 1.5), 6.0) > target:
                # the next iteration will hardly end: it may still confirm or change the
                # move (above), but stops at the optimum rather than at a clock's maximum
                self.stop_signal.arm(target - elapsed)
        assert best is not None
        return best


def depth_text(info: Info | SearchResult) -> str:
    """NBoard-style depth of a search result: ``12``, ``100%`` (proven exactly),
    ``100%W`` (a win/loss/draw solve), or the empties and the probability of a selective
    endgame pass (``W`` for win/loss/draw).

    >>> depth_text(Info(depth=20, score=Score(18, Unit.DISCS, exact=True)))
    '100%'
    >>> depth_text(Info(depth=9, score=Score(1.5, Unit.DISCS)))
    '9'
    >>> depth_text(Info(depth=24, score=Score(4, Unit.DISCS), probability=0.729))
    '24@73%'
    """
    score = info.score
    if isinstance(info, Info) and info.probability is not None:
        wld = score is not None and math.isinf(score.value)
        return f"{info.depth}@{round(100 * info.probability)}%{'W' if wld else ''}"
    if score is not None and math.isinf(score.value):
        return "100%W"
    if score is not None and score.exact:
        return "100%"
    return str(info.depth)


@register_warmup("othello", "engine")
def _warm() -> None:
    from bitgames.othello.board import Board

    engine = Engine(level=4, evaluation="classic", table_bits=10)
    engine.search(Board(), Limit(depth=3), multi=2)
    engine.mpc = True
    engine.search(Board(), Limit(depth=4))
