"""The draughts engine: iterative-deepening principal-variation search (numba).

The recursive kernel :func:`_pvs` runs a negamax alpha-beta with a principal-variation
(null-window) scheme, the shared transposition table (:mod:`bitgames.core.tt`, keyed by
the position itself), killer moves and a history table for move
ordering, a one-ply extension of forced moves, repetition detection (a position met again
on the line or earlier in the game, since its last irreversible move, scores 0), and a
quiescence search that resolves pending captures (captures are compulsory, so a side that
must capture has no "stand pat"), and endgame tables (:mod:`bitgames.draughts.egdb`) probed
at every node below a root they do not hold: a position they call won scores ``TB_WIN``
less its ply, so the search heads for the conversions it can prove.
:class:`Engine` drives it from Python: iterative deepening, limits by depth, nodes or time,
and :data:`LEVELS` for people.

See :class:`Engine` for an example.
"""

from __future__ import annotations

import math
import time
from typing import NamedTuple

import numpy as np

from bitgames.core import engine as core_engine
from bitgames.core import smp, tt
from bitgames.core.bits import ctz, popcount
from bitgames.core.engine import InfoCallback, Limit, Score, SearchResult, StopSignal, Unit
from bitgames.core.jit import njit, register_warmup
from bitgames.core.rng import random_at
from bitgames.draughts import board as board_mod
from bitgames.draughts import egdb as egdb_mod
from bitgames.draughts.eval import default_weights, evaluate
from bitgames.draughts.kernels import (
    KEY_MASK,
    M32,
    MAX_PLY,
    any_capture,
    gen_captures,
    gen_moves,
    make_move,
    new_buffer,
)

U = np.uint64
WIN = 30_000
INF = 32_000
#: the score of a position the endgame tables call won (less its ply): below every
#: forced win the search sees (``WIN - plies``), above every evaluation
TB_WIN = 20_000
#: scores at least this far from 0 are wins, stored in the table relative to the node
DECISIVE = TB_WIN - MAX_PLY

# Zobrist keys of the repetition check, from the shared generator (bitgames.core.rng):
# [white man, white king, black man, black king] x 32, then the side to move.
ZOBRIST_SEED = 0x0D_0D_0D_0D
ZOBRIST = np.array([random_at(ZOBRIST_SEED, k) for k in range(1, 4 * 32 + 2)], dtype=U)
ZOBRIST_SIDE = U(ZOBRIST[128])

#: What each engine level sets: (maximum depth, seconds per move); see :class:`Engine`.
LEVELS: dict[int, tuple[int, float]] = {
    1: (1, 0.1), 2: (2, 0.1), 3: (3, 0.2), 4: (4, 0.3), 5: (6, 0.5), 6: (8, 1.0),
    7: (10, 2.0), 8: (14, 4.0), 9: (20, 8.0), 10: (40, 15.0),
}

#: with helper threads, moves at nodes of at least this depth are marked while searched
#: and put off by the other threads (bitgames.core.smp); PUT_OFF marks such a move in
#: the move list
SPREAD_DEPTH = 4
PUT_OFF = U(0xFFFF_FFFF_FFFF_FFFF)

#: late move reductions: from this depth, moves after the first ``LMR_MOVES`` that are
#: quiet are searched a ply shallower first
LMR_DEPTH, LMR_MOVES = 3, 3

# control slots of SearchState.stats: nodes searched, node limit (a stop writes 1 there),
# aborted, best root move, selective depth, generation of the search (for the table), the
# most pieces of a position the endgame tables are probed for (0: not probed), the best
# root move's score
S_NODES, S_LIMIT, S_ABORT, S_BEST, S_SELDEPTH, S_GEN, S_EGDB, S_BEST_SCORE = range(8)


class SearchState(NamedTuple):
    """The per-search state the kernels share, one bundle instead of loose arguments."""

    #: move lists per ply: ``buf[ply, i] = (packed move, ordering score, path...)``
    buf: np.ndarray
    #: the transposition table (:func:`bitgames.core.tt.new_table`)
    table: np.ndarray
    #: two killer moves per ply
    killers: np.ndarray
    #: history scores of quiet moves, by start * 32 + end
    history: np.ndarray
    #: control slots ``S_*``
    stats: np.ndarray
    #: evaluation weights (:func:`bitgames.draughts.eval.default_weights`)
    weights: np.ndarray
    #: repetition keys: the game before the root, then the current line (see ``_pvs``)
    rep: np.ndarray
    #: endgame tables, 2 bits a position, and where each slice lies in them
    #: (:class:`bitgames.draughts.egdb.Tables`; empty when there are none)
    egdb: np.ndarray
    egdb_layout: np.ndarray
    #: positions being searched, shared by the threads (:func:`bitgames.core.smp.busy_table`)
    busy: np.ndarray


@njit(_nrt=False)
def zobrist(w: np.uint64, b: np.uint64, k: np.uint64, side: int) -> np.uint64:
    """Hash key of a position."""
    h = U(0)
    x = w
    while x != U(0):
        s = ctz(x)
        x &= x - U(1)
        h ^= ZOBRIST[s + (32 if k >> U(s) & U(1) else 0)]
    x = b
    while x != U(0):
        s = ctz(x)
        x &= x - U(1)
        h ^= ZOBRIST[64 + s + (32 if k >> U(s) & U(1) else 0)]
    if side != 0:
        h ^= ZOBRIST_SIDE
    return h


@njit(inline="always")
def tt_key(w: np.uint64, b: np.uint64, k: np.uint64, side: int) -> tuple[np.uint64, np.uint64]:
    """The position as the two key words of the shared table (never a false hit): white
    and black men in one word, kings and the side to move in the other."""
    return w | (b << U(32)), k | (U(side) << U(32))


@njit(inline="always")
def move_code(mv: np.uint64) -> int:
    """The 16-bit table code of a packed move: start and end square (5 bits each) and 6
    bits of a hash of the captured set (a king's captures with the same ends differ)."""
    cap = ((mv & M32) * U(0x9E37_79B9_7F4A_7C15)) >> U(58)
    return np.int64(((mv >> U(32)) & U(31)) | (((mv >> U(37)) & U(31)) << U(5))
                    | (cap << U(10)))


@njit(_nrt=False)
def _quiesce(w: np.uint64, b: np.uint64, k: np.uint64, side: int, alpha: int, beta: int,
             ply: int, variant: int, buf: np.ndarray, stats: np.ndarray,
             wt: np.ndarray) -> int:
    stats[S_NODES] += 1
    if ply > stats[S_SELDEPTH]:
        stats[S_SELDEPTH] = ply
    if not any_capture(w, b, k, side, variant) or ply >= MAX_PLY - 1:
        return evaluate(w, b, k, side, variant, wt)
    n = gen_captures(w, b, k, side, variant, buf, ply, np.int64(1))
    best = -INF
    for i in range(n):
        w2, b2, k2, s2 = make_move(w, b, k, side, buf[ply, i, 0])
        score = -_quiesce(w2, b2, k2, s2, -beta, -alpha, ply + 1, variant, buf, stats, wt)
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
    return best


@njit(nogil=True, _nrt=False)
def _pvs(w: np.uint64, b: np.uint64, k: np.uint64, side: int, depth: int, alpha: int,
         beta: int, ply: int, variant: int, st: SearchState) -> int:
    stats = st.stats
    if stats[S_NODES] >= stats[S_LIMIT]:
        stats[S_ABORT] = 1
        return 0
    # endgame tables: a proven value ends the line (at the leaves too)
    if stats[S_EGDB] != 0 and ply > 0 and popcount(w | b) <= stats[S_EGDB]:
        known = egdb_mod._probe(st.egdb, st.egdb_layout, w, b, k, side)
        if known == egdb_mod.WIN:
            return TB_WIN - ply
        if known == egdb_mod.LOSS:
            return -TB_WIN + ply
        if known == egdb_mod.DRAW:
            return 0
    if depth <= 0 or ply >= MAX_PLY - 2:
        return _quiesce(w, b, k, side, alpha, beta, ply, variant, st.buf, stats, st.weights)
    stats[S_NODES] += 1
    buf, table, killers, history, rep = st.buf, st.table, st.killers, st.history, st.rep
    key = zobrist(w, b, k, side)
    # repetitions: rep[0] = h, rep[1..h] = keys of the game before the root (since its last
    # man move or capture), rep[1 + h + p] = key at ply p of the current line. Only king
    # moves are reversible, so without kings there is nothing to look for.
    base = 1 + np.int64(rep[0])
    if ply > 0 and k != U(0):
        i = ply - 2
        while i >= 0:
            if rep[base + i] == key:
                return 0
            i -= 2
        for j in range(1, base):
            if rep[j] == key:
                return 0
    rep[base + ply] = key
    k0, k1 = tt_key(w, b, k, side)
    data = tt.probe(table, k0, k1)
    tt_move = tt.NO_MOVE
    if data != tt.MISS:
        tt_move = tt.move(data)
        if ply > 0 and tt.depth(data) >= depth:
            lo = tt.value_from_tt(tt.lower(data), ply, DECISIVE, INF)
            hi = tt.value_from_tt(tt.upper(data), ply, DECISIVE, INF)
            if lo == hi or lo >= beta:
                return lo
            if hi <= alpha:
                return hi
    n = gen_moves(w, b, k, side, variant, buf, ply, np.int64(1))
    if n == 0:
        return -WIN + ply
    if n == 1 and ply > 0:
        depth += 1  # forced move: look one ply further for free
    # order: TT move, captures by size, killers, history (scores kept in buf[ply, i, 1])
    for i in range(n):
        mv = buf[ply, i, 0] & KEY_MASK
        if move_code(mv) == tt_move:
            sc = 1 << 40
        elif mv & M32 != U(0):
            sc = (1 << 30) + popcount(mv & M32)
        elif mv == killers[ply, 0]:
            sc = 1 << 29
        elif mv == killers[ply, 1]:
            sc = (1 << 29) - 1
        else:
            sc = history[((mv >> U(32)) & U(31)) * U(32) + ((mv >> U(37)) & U(31))]
        buf[ply, i, 1] = U(sc)
    alpha0 = alpha
    best = -INF
    best_move = U(0)
    # with helper threads, a move whose position another thread is searching waits for a
    # second pass over the list (bitgames.core.smp); i counts the moves searched so far
    busy = st.busy
    spread = busy.shape[0] > 1 and depth >= SPREAD_DEPTH
    put_off = False
    second = False
    idx = 0
    i = 0
    while True:
        idx, second, done = smp.next_pass(idx, n, put_off, second)
        if done:
            break
        if second:
            if buf[ply, idx, 1] != PUT_OFF:
                idx += 1
                continue
        else:
            # selection sort step: bring the best-scored remaining move to position idx
            j_best = idx
            for j in range(idx + 1, n):
                if buf[ply, j, 1] > buf[ply, j_best, 1]:
                    j_best = j
            if j_best != idx:
                t0 = buf[ply, idx, 0]
                t1 = buf[ply, idx, 1]
                buf[ply, idx, 0] = buf[ply, j_best, 0]
                buf[ply, idx, 1] = buf[ply, j_best, 1]
                buf[ply, j_best, 0] = t0
                buf[ply, j_best, 1] = t1
        mv = buf[ply, idx, 0] & KEY_MASK
        idx += 1
        w2, b2, k2, s2 = make_move(w, b, k, side, mv)
        tag = U(0)
        if spread:
            c0, c1 = tt_key(w2, b2, k2, s2)
            tag = smp.busy_tag(c0, c1)
            if i > 0 and not second and smp.is_busy(busy, tag):
                buf[ply, idx - 1, 1] = PUT_OFF
                put_off = True
                continue
            smp.mark_busy(busy, tag)
        if i == 0:
            score = -_pvs(w2, b2, k2, s2, depth - 1, -beta, -alpha, ply + 1, variant, st)
        else:
            # late move reductions: a late quiet move (no capture, no crowning, not a
            # killer) is first searched a ply shallower; only one that beats alpha there
            # is searched again to the full depth
            reduce = (depth >= LMR_DEPTH and i >= LMR_MOVES and mv & M32 == U(0)
                      and popcount(k2) == popcount(k) and mv != killers[ply, 0]
                      and mv != killers[ply, 1])
            score = -_pvs(w2, b2, k2, s2, depth - 1 - np.int64(reduce), -alpha - 1, -alpha,
                          ply + 1, variant, st)
            if reduce and score > alpha:
                score = -_pvs(w2, b2, k2, s2, depth - 1, -alpha - 1, -alpha, ply + 1,
                              variant, st)
            if alpha < score < beta:
                score = -_pvs(w2, b2, k2, s2, depth - 1, -beta, -alpha, ply + 1, variant,
                              st)
        i += 1
        if spread:
            smp.clear_busy(busy, tag)
        if stats[S_ABORT] != 0:
            return 0
        if score > best:
            best = score
            best_move = mv
            if ply == 0:
                stats[S_BEST] = np.int64(mv)
                stats[S_BEST_SCORE] = score
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    if mv & M32 == U(0):
                        if killers[ply, 0] != mv:
                            killers[ply, 1] = killers[ply, 0]
                            killers[ply, 0] = mv
                        hidx = ((mv >> U(32)) & U(31)) * U(32) + ((mv >> U(37)) & U(31))
                        history[hidx] += depth * depth
                    break
    stored = tt.value_to_tt(best, ply, DECISIVE, INF)
    lo, hi = stored, stored
    if best <= alpha0:
        lo = -INF
    elif best >= beta:
        hi = INF
    tt.store(table, k0, k1, min(depth, 255), stats[S_GEN], lo, hi,
             move_code(best_move) if best_move != U(0) else tt.NO_MOVE)
    return best


def moves_left(board: board_mod.Board) -> int:
    """Our moves the game is expected to last still: 10 plus one per piece on the board
    (34 at the start, 12 with two pieces left). The time manager shares the clock by it."""
    return 10 + popcount(board.white | board.black)


def to_score(raw: int) -> Score:
    """A kernel score (centi-men for the side to move, ``+-(WIN - plies)`` for a forced
    end, ``+-(TB_WIN - plies)`` for a win the endgame tables prove) as a core
    :class:`~bitgames.core.engine.Score` in :attr:`Unit.MEN`.

    >>> to_score(125), str(to_score(WIN - 7)), str(to_score(-WIN + 4))
    (Score(1.25, Unit.MEN), 'win in 7', 'loss in 4')
    >>> to_score(TB_WIN - 3) == Score.win(Unit.MEN)
    True
    """
    if abs(raw) >= WIN - MAX_PLY:
        win = Score.win_in(WIN - abs(raw), Unit.MEN)
        return win if raw > 0 else -win
    if abs(raw) >= DECISIVE:
        return Score.win(Unit.MEN) if raw > 0 else -Score.win(Unit.MEN)
    return Score(raw / 100, Unit.MEN)


#: the tables of an engine without endgame tables (never probed: ``S_EGDB`` is 0)
_NO_TABLES = (np.zeros(0, dtype=np.uint8), np.zeros(1, dtype=np.int64))


class Engine(core_engine.Engine):
    """A draughts engine for one variant; keeps its transposition table between moves.

    ``search(board, Limit(...))``: any combination of ``depth`` plies, ``nodes``, ``time``
    per move or a game clock (shared over :func:`moves_left` moves by the core
    :class:`~bitgames.core.engine.TimeManager`); the search stops at the first limit
    reached. ``Limit()`` (or none) plays at the engine's ``level``, which sets a maximum
    depth and seconds per move (:data:`LEVELS`). ``weights`` is the evaluation
    (:func:`bitgames.draughts.eval.default_weights`: the learned one for Russian, the hand
    one for English; :func:`~bitgames.draughts.eval.hand_weights` for the hand one):

    ======  =====  =======      ======  =====  =======
    level   depth  seconds      level   depth  seconds
    ======  =====  =======      ======  =====  =======
    1       1      0.1          6       8      1.0
    2       2      0.1          7       10     2.0
    3       3      0.2          8       14     4.0
    4       4      0.3          9       20     8.0
    5       6      0.5          10      40     15.0
    ======  =====  =======      ======  =====  =======

    Scores are in :attr:`Unit.MEN` for the side to move (one man = 1.0); a forced end is
    ``Score.win_in(plies)`` or its negation.

    >>> from bitgames.core.engine import Limit
    >>> from bitgames.draughts.board import Board
    >>> result = Engine("russian").search(Board("W:Wa1,c3:Bd4,f6"), Limit(depth=6))
    >>> str(result.move), str(result.score)
    ('c3:e5:g7', 'win in 1')
    """

    unit = Unit.MEN

    def __init__(self, variant: str = "russian", level: int | None = None,
                 table_bits: int = 20, weights: np.ndarray | None = None,
                 egdb: egdb_mod.Tables | None = None, threads: int = 1) -> None:
        self.variant = variant
        if egdb is not None and egdb.variant != variant:
            raise board_mod.DraughtsError(f"endgame tables of {egdb.variant}, engine of "
                                          f"{variant}")
        self.egdb = egdb
        self._code = board_mod._variant_code(variant)
        super().__init__(level, threads)
        self.weights = default_weights(variant) if weights is None else weights
        self.table = tt.new_table(table_bits)
        self._generation = 0
        self.killers = np.zeros((MAX_PLY, 2), dtype=np.uint64)
        self.history = np.zeros(32 * 32, dtype=np.int64)
        self.buf = new_buffer(MAX_PLY)
        self._stats = np.zeros(8, dtype=np.int64)
        self._helper_tables: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        # the kernel stops once its node count reaches stats[S_LIMIT]: a stop writes 1 there
        self.stop_signal.attach(self._stats, S_LIMIT)

    def _apply_level(self, n: int) -> None:
        self.level_depth, self.level_time = LEVELS[n]

    def new_game(self) -> None:
        """Forget everything learnt (transposition table, killers, history), the helper
        threads' too."""
        self.table = tt.cleared(self.table)
        self.killers[:] = 0
        self.history[:] = 0
        self._helper_tables = []

    def search(self, board: board_mod.Board, limit: Limit | None = None,
               on_info: InfoCallback | None = None) -> SearchResult:
        """Search ``board`` (not changed) and return the best move found within ``limit``."""
        if board.variant != self.variant:
            raise board_mod.DraughtsError(
                f"engine plays {self.variant}, board is {board.variant}")
        if limit is None or limit.is_empty():
            limit = Limit(depth=self.level_depth, time=self.level_time)
        stop = self.stop_signal
        stop.clear()
        self._generation = (self._generation + 1) & 0xFF  # older entries go first
        budget = self.time_manager.budget(limit, [1.0] * moves_left(board))
        max_depth = min(limit.depth or MAX_PLY - 10, MAX_PLY - 10)
        node_limit = limit.nodes if limit.nodes is not None else 1 << 62
        legal = list(board.legal_moves)
        start = time.perf_counter()
        if not legal:
            return SearchResult(None, to_score(-WIN))
        if budget.maximum < math.inf:
            stop.arm(budget.maximum)
        w, b, k, side = board.bitboards()
        stats = self._stats
        state = SearchState(self.buf, self.table, self.killers, self.history, stats,
                            self.weights, self._repetition_keys(board), *self._tables(),
                            smp.busy_table(self.threads))
        # probed below a root they do not hold (a root they hold would give every move
        # that keeps the win the same score: the search plays on by evaluation there)
        probe = 0
        if self.egdb is not None and self.egdb.probe_bits(w, b, k, side) == "unknown":
            probe = self.egdb.pieces
        self.killers[:] = 0
        self.history //= 4
        result = SearchResult(legal[0], Score(0.0, Unit.MEN), [legal[0]])
        total_nodes = 0
        out_of_time = False
        lead = smp.Lead(stats, S_LIMIT)
        helper = self._helper(w, b, k, side, state, probe, max_depth, lead)
        # the first iteration (a few hundred nodes) runs on control slots of its own, which
        # no stop and no node limit cut, so that every answer is a searched move
        first = state._replace(stats=np.zeros_like(stats))
        with smp.helping(self.threads, helper) as helper_nodes:
            d = score = best = seldepth = 0
            while d < max_depth:
                d += 1
                run = state if d > 1 else first
                run.stats[:] = 0
                run.stats[S_LIMIT] = node_limit - total_nodes if d > 1 else 1 << 62
                run.stats[S_GEN] = self._generation
                run.stats[S_EGDB] = probe
                if stop.is_set() and d > 1:
                    stats[S_LIMIT] = 0
                searched = lead.start(d)
                if searched:
                    score = _pvs(U(w), U(b), U(k), np.int64(side), np.int64(d),
                                 np.int64(-INF), np.int64(INF), np.int64(0),
                                 np.int64(self._code), run)
                    if run is first:
                        stats[:] = first.stats
                    total_nodes += int(stats[S_NODES])
                    best, seldepth = int(stats[S_BEST]), int(stats[S_SELDEPTH])
                elapsed = time.perf_counter() - start
                if not searched or (stats[S_ABORT] != 0 and lead.depth >= d):
                    # a helper completed this iteration or a deeper one first: go on
                    # from its result
                    d, best, score = lead.depth, lead.move, lead.score
                    seldepth = max(seldepth, d)
                elif stats[S_ABORT] != 0 and d > 1:
                    # a stopped iteration still counts for the root moves it finished: the
                    # first one (the table's move, last iteration's best) is searched to the
                    # end before any other, and another only replaces it once a full-window
                    # search proves it better
                    move = self._move_of(board, int(stats[S_BEST]))
                    if move is not None:
                        result = SearchResult(move, to_score(int(stats[S_BEST_SCORE])),
                                              self._pv(board, move, d - 1), d - 1,
                                              seldepth=result.seldepth)
                    result.nodes, result.time = total_nodes, elapsed
                    break
                move = self._move_of(board, best) or legal[0]
                result = SearchResult(move, to_score(int(score)), self._pv(board, move, d), d,
                                      total_nodes, elapsed, seldepth=seldepth)
                if on_info is not None:
                    on_info(result.info())
                if abs(int(score)) >= WIN - MAX_PLY or total_nodes >= node_limit or stop.is_set():
                    break
                if budget.optimum < math.inf:
                    if len(legal) == 1:  # nothing to choose: answer at once
                        break
                    if elapsed >= budget.optimum:
                        out_of_time = True
                        break
                    if elapsed > budget.optimum * 0.45:
                        # the next iteration will hardly end: it may still find a better
                        # move, but stops at the optimum rather than a clock's maximum
                        stop.arm(budget.optimum - elapsed)
        result.nodes += sum(helper_nodes)
        stop.disarm()
        result.ended = stop.end(completed=not out_of_time)
        return result

    def _helper(self, w: int, b: int, k: int, side: int, state: SearchState, probe: int,
                max_depth: int, lead: smp.Lead) -> smp.Helper:
        """A Lazy SMP helper of the search of ``state``'s root (:mod:`bitgames.core.smp`):
        move lists, killers, history, control slots and repetition line of its own, the
        table shared; the iterations it completes go to ``lead``."""
        while len(self._helper_tables) < self.threads - 1:
            self._helper_tables.append((new_buffer(MAX_PLY),
                                        np.zeros((MAX_PLY, 2), dtype=np.uint64),
                                        np.zeros(32 * 32, dtype=np.int64)))

        def run(index: int, stop: StopSignal) -> int:
            buf, killers, history = self._helper_tables[index - 1]
            killers[:] = 0
            history //= 4
            stats = np.zeros(8, dtype=np.int64)
            own = state._replace(buf=buf, killers=killers, history=history, stats=stats,
                                 rep=state.rep.copy())
            stop.attach(stats, S_LIMIT)
            nodes = 0
            depth = 0
            while depth < max_depth:
                depth = min(lead.next_depth(index, depth), max_depth)
                stats[:] = 0
                stats[S_LIMIT] = 1 << 62
                stats[S_GEN] = self._generation
                stats[S_EGDB] = probe
                if stop.is_set():  # after the reset: a stop raised during it is seen here
                    break
                score = _pvs(U(w), U(b), U(k), np.int64(side), np.int64(depth),
                             np.int64(-INF), np.int64(INF), np.int64(0),
                             np.int64(self._code), own)
                nodes += int(stats[S_NODES])
                if stats[S_ABORT] == 0:
                    lead.done(depth, int(stats[S_BEST]), int(score))
            return nodes

        return run

    def _tables(self) -> tuple[np.ndarray, np.ndarray]:
        if self.egdb is None:
            return _NO_TABLES
        return self.egdb.packed, self.egdb.layout.table

    @staticmethod
    def _repetition_keys(board: board_mod.Board) -> np.ndarray:
        """Keys of the earlier positions that the search may repeat (see ``_pvs``)."""
        keys: list[int] = []
        states = board._stack
        moves = board.move_stack
        for i in range(len(states) - 1, -1, -1):
            st = states[i]
            keys.append(int(zobrist(U(st.white), U(st.black), U(st.kings),
                                    np.int64(0 if st.turn else 1))))
            m = moves[i]
            if m.is_capture or not (st.kings >> m.start & 1) or len(keys) >= 256:
                keys.pop()  # the move from this position was irreversible
                break
        rep = np.zeros(1 + len(keys) + MAX_PLY, dtype=np.uint64)
        rep[0] = len(keys)
        rep[1 : 1 + len(keys)] = keys
        return rep

    @staticmethod
    def _move_of_code(board: board_mod.Board, code: int) -> board_mod.Move | None:
        for m in board.legal_moves:
            packed = m.captured | m.start << 32 | m.end << 37
            if int(move_code(U(packed))) == code:
                return m
        return None

    @staticmethod
    def _move_of(board: board_mod.Board, packed: int) -> board_mod.Move | None:
        start, end, cap = (packed >> 32) & 31, (packed >> 37) & 31, packed & 0xFFFF_FFFF
        for m in board.legal_moves:
            if (m.start, m.end, m.captured) == (start, end, cap):
                return m
        return None

    def _pv(self, board: board_mod.Board, first: board_mod.Move, depth: int,
            ) -> list[board_mod.Move]:
        pv = [first]
        b = board.copy(stack=False)
        b.push(first)
        seen = {b.fen()}
        while len(pv) < depth:
            w, bl, k, side = b.bitboards()
            k0, k1 = tt_key(U(w), U(bl), U(k), np.int64(side))
            data = U(tt.probe(self.table, U(k0), U(k1)))  # from Python: an int, typed back
            if data == tt.MISS:
                break
            m = self._move_of_code(b, int(tt.move(data)))
            if m is None:
                break
            pv.append(m)
            b.push(m)
            if b.fen() in seen:
                break
            seen.add(b.fen())
        return pv


class GreedyPlayer:
    """The 1-ply baseline :class:`~bitgames.core.engine.Player`: takes the move that leaves
    the best material (ties at random)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        import random

        self.rng = random.Random(seed)

    def new_game(self) -> None:
        pass

    def close(self) -> None:
        pass

    def play(self, board: board_mod.Board, limit: Limit | None = None) -> SearchResult:
        king = 2.5 if board.variant == "russian" else 1.5
        best: list[board_mod.Move] = []
        best_score = -1e9
        for m in board.legal_moves:
            b = board.copy(stack=False)
            b.push(m)
            own = b.black if board.turn == board_mod.WHITE else b.white
            mine = b.white if board.turn == board_mod.WHITE else b.black
            score = (popcount(mine & ~b.kings) + king * popcount(mine & b.kings)
                     - popcount(own & ~b.kings) - king * popcount(own & b.kings))
            if score > best_score + 1e-9:
                best, best_score = [m], score
            elif abs(score - best_score) < 1e-9:
                best.append(m)
        return SearchResult(self.rng.choice(best) if best else None)


def opening_lines(variant: str, plies: int = 2) -> list[list[board_mod.Move]]:
    """Every line of ``plies`` moves from the start position (match openings)."""
    lines: list[list[board_mod.Move]] = [[]]
    for _ in range(plies):
        nxt: list[list[board_mod.Move]] = []
        for line in lines:
            b = board_mod.Board(variant=variant)
            for m in line:
                b.push(m)
            nxt.extend(line + [m] for m in b.legal_moves)
        lines = nxt
    return lines


@register_warmup("draughts", "engine")
def _warm() -> None:
    for variant in board_mod.VARIANTS:
        Engine(variant, table_bits=10).search(board_mod.Board(variant=variant), Limit(depth=3))
