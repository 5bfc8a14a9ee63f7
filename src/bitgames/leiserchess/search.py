"""The Leiserchess engine: principal-variation search in numba, driven from Python.

Kernel side: :func:`pvs` (negamax PVS with the shared transposition table of
:mod:`bitgames.core.tt`, keyed by two independent position hashes; killer and history
ordering, null-move pruning, late-move reductions outside PV nodes, reverse and extended
futility pruning, late move pruning (the ``lmp`` option), a +1 extension for zapping
moves, repetition draws and the Ko rule) and :func:`qsearch` (zapping moves only,
blunders skipped, history order, no table). Where the static value decides a cutoff (stand
pat, reverse futility, null move), a side whose King the enemy could zap next move
(:func:`zaps_king_next`) loses ``kthreat`` cp.
The history is the course players' one: a slot per piece kind, square and orientation
after the move; every move a node tries loses a tenth of its score, the node's best move
gains first. Both beam paths are computed once per node and shared by move generation
(pins) and evaluation. The kernels called at every node allocate nothing and are compiled
without numba's reference counting (``_nrt=False``: :func:`search_root` owns every
array), which saves an atomic increment and decrement per array argument per call: 2.7
-> 3.75 M nodes/s, the same tree.

Python side: :class:`Engine` (the core engine interface) runs iterative deepening
within a :class:`~bitgames.core.engine.Limit`; the search runs with the GIL released, so
another thread can answer ``isready`` and call :meth:`Engine.stop` (UCI ``stop``). With
``threads`` above 1, Lazy SMP helpers (:mod:`bitgames.core.smp`) search beside it, and
at nodes with :data:`SPREAD_DEPTH` plies or more left each thread puts off a move whose
position another thread is searching until the node's other moves are done.

>>> from bitgames.leiserchess.board import Board
>>> res = Engine(table_bits=12).search(Board("ss7/8/8/8/8/8/8/WW7 W"), Limit(depth=2))
>>> str(res.move), str(res.score)
('a0R', 'win in 1')
"""

from __future__ import annotations

import math
import threading
import time
from typing import Any, NamedTuple

import numpy as np

from bitgames.core import smp, tt
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
from bitgames.core.engine import Engine as CoreEngine
from bitgames.core.jit import njit, register_warmup
from bitgames.core.rng import mix64, random_at
from bitgames.leiserchess.board import Move
from bitgames.leiserchess.closebook import (
    CODE_DRAW,
    CODE_LOSS,
    CODE_WIN,
    ko_between,
    probe_code,
)
from bitgames.leiserchess.eval import (
    P_DRAW,
    P_FUT_DEPTH,
    P_FUT_MARGIN,
    P_HMB,
    P_KTHREAT,
    P_LMP,
    P_LMR_R1,
    P_LMR_R2,
    P_NULL_R,
    P_RFP,
    P_USE_NMM,
    P_USE_TT,
    default_params,
    evaluate,
)
from bitgames.leiserchess.kernels import (
    MAX_MOVES,
    NEIGHBOURS,
    NONE,
    fire_reach,
    gen_moves,
    king_sightlines,
    laser_path,
    make_move,
    orientation,
    same_board,
    trace,
)

U = np.uint64
ONE = U(1)
ZERO = U(0)

MATE = 32000
INF = 32700
#: Score of a closebook win (below mate scores, above any evaluation).
CB_WIN = 20000
MAX_PLY = 100
#: History slots per side: a King bit, then 64 squares x 4 orientations (:func:`_hkey`)
HISTORY_SLOTS = 512
#: Length of the position-hash history array (game plies + search plies).
HIST_LEN = 4096
#: With helper threads, a move at a node with at least this many plies left whose
#: position another thread is searching waits for a second pass over the node's moves
#: (:mod:`bitgames.core.smp`); PUT_OFF marks it in the node's ordering scores
SPREAD_DEPTH = 4
PUT_OFF = -(1 << 62)

# stats slots
S_NODES = 0
S_LIMIT = 1
S_ROOT_SIDE = 2
S_SELDEPTH = 3
S_GPLY0 = 4  # game ply of the root
S_TT_GEN = 5  # the search's generation in the table (1..255)
S_BEST_MOVE = 8  # the root's best move of the iteration (-1: none yet)
S_BEST_SCORE = 9  # its score

#: the words keying each of the two hashes (w, b, k, o0, o1, side to move), from core/rng
_KEYS_A = tuple(random_at(0x1E15E5C4E55, i) for i in range(1, 7))
_KEYS_B = tuple(random_at(0x6172_2016, i) for i in range(1, 7))


@njit(inline="always")
def _hash(w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64, side: int,
          keys: tuple[np.uint64, ...]) -> np.uint64:
    h = mix64(w ^ keys[0])
    h = mix64(h ^ b ^ keys[1])
    h = mix64(h ^ k ^ keys[2])
    h = mix64(h ^ o0 ^ keys[3])
    h = mix64(h ^ o1 ^ keys[4])
    return h ^ keys[5] if side else h


@njit
def hash_position(
    w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64, side: int
) -> np.uint64:
    """64-bit hash of a position (board and side to move): the key of the repetition
    history and the first table key (the second: the same chain under other keys, so a
    false table hit needs both 64-bit hashes to collide)."""
    return _hash(w, b, k, o0, o1, side, _KEYS_A)


@njit(inline="always")
def table_keys(w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64,
               side: int) -> tuple[np.uint64, np.uint64]:
    """The two key words of a position in the table (and in the threads' table of
    positions being searched): two independent 64-bit hashes of board and side."""
    return _hash(w, b, k, o0, o1, side, _KEYS_A), _hash(w, b, k, o0, o1, side, _KEYS_B)


@njit(_nrt=False)
def pseudo_legal(
    w: np.uint64, b: np.uint64, k: np.uint64, side: int, enemy_path: np.uint64, m: int
) -> bool:
    """True when move code ``m`` is one of ``side``'s pseudo-legal moves here."""
    fr = m & 63
    to = (m >> 6) & 63
    rot = (m >> 12) & 3
    own = w if side == 0 else b
    fbit = ONE << U(fr)
    if (own & fbit) == ZERO:
        return False
    is_king = (k & fbit) != ZERO
    if not is_king and (enemy_path & fbit) != ZERO:
        return False
    if fr == to:
        return rot != 0 or is_king
    return rot == 0 and ((NEIGHBOURS[fr] >> U(to)) & ONE) == ONE


class SearchState(NamedTuple):
    """The arrays every node of one search shares (allocated by :class:`Engine`)."""

    #: ``uint64[MAX_PLY + 4, 5]``: ``boards[ply + 1]`` is the position at ``ply``,
    #: ``boards[ply]`` the one before it (Ko rule (b))
    boards: np.ndarray
    #: ``uint64``: position hashes of the game, then of the search path (repetitions)
    hashes: np.ndarray
    #: ``int64[MAX_PLY + 2, MAX_MOVES]``: the moves of each ply, and their ordering scores
    moves: np.ndarray
    scores: np.ndarray
    #: ``int64[MAX_PLY + 2, 2]`` killer moves; ``int64[2, HISTORY_SLOTS]`` history by side
    #: and :func:`_hkey`
    killers: np.ndarray
    history: np.ndarray
    #: the transposition table (:func:`bitgames.core.tt.new_table`)
    table: np.ndarray
    #: evaluation weights and search settings (:func:`~bitgames.leiserchess.eval.default_params`)
    params: np.ndarray
    #: ``int64[16]``: counters and results in the ``S_*`` slots
    stats: np.ndarray
    #: the stop flag (``StopSignal.flag``)
    stop: np.ndarray
    #: the packed closebook tables (length 0: no closebook)
    cb_kings: np.ndarray
    cb_pawn: np.ndarray
    #: positions being searched, shared by the threads (:func:`bitgames.core.smp.busy_table`)
    busy: np.ndarray


@njit(_nrt=False, inline="always")
def _touches(m: int, squares: np.uint64) -> bool:
    """Whether move ``m`` leaves or enters one of ``squares`` (a rotation: its square)."""
    return bool((squares >> U(m & 63)) & ONE) or bool((squares >> U((m >> 6) & 63)) & ONE)


@njit(_nrt=False)
def zapping_moves(w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64,
                  side: int, enemy_path: np.uint64, out: np.ndarray) -> int:
    """Write ``side``'s pseudo-legal moves that zap an enemy piece into ``out`` (in
    generation order) and return their number, or -1 when one zaps the enemy King.

    Moves that zap only own Pawns, or the own King, are left out. Firing from the
    position as it stands tells what every move off the beam's squares would zap, so only
    the moves touching those squares are made.

    >>> from bitgames.leiserchess.board import Board
    >>> bb = [np.uint64(x) for x in Board().bitboards()]
    >>> zapping_moves(*bb, 0, np.uint64(laser_path(*bb, 1)), np.zeros(MAX_MOVES, dtype=np.int64))
    0
    """
    opp_n = popcount(b if side == 0 else w)
    fw, fb, _fk, _f0, _f1, _fz, fres, reach = fire_reach(w, b, k, o0, o1, side)
    if fres != NONE and (fres == 1) != (side == 0):
        return -1  # even the null move zaps the enemy King
    off_zaps = fres == NONE and popcount(fb if side == 0 else fw) < opp_n
    n = gen_moves(w, b, k, o0, o1, side, enemy_path, out)
    z = 0
    for i in range(n):
        m = out[i]
        if not _touches(m, reach):
            if off_zaps:
                out[z] = m
                z += 1
            continue
        nw, nb, _nk, _n0, _n1, zapped, res = make_move(w, b, k, o0, o1, side, m)
        if res != NONE:
            if (res == 1) == (side == 0):
                continue  # suicide
            return -1
        if zapped == 0 or popcount(nb if side == 0 else nw) == opp_n:
            continue  # no zap, or only own Pawns zapped
        out[z] = m
        z += 1
    return z


@njit(_nrt=False)
def zaps_king_next(w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64,
                   side: int, enemy_path: np.uint64) -> bool:
    """Whether one of ``side``'s pseudo-legal moves zaps the enemy King (what
    :func:`zapping_moves` answers with -1), trying only the moves that change a square of
    the beam's path (a piece's steps onto it, every move of a piece on it) and a square of
    the enemy King's :func:`~bitgames.leiserchess.kernels.king_sightlines`.

    >>> from bitgames.leiserchess.board import Board
    >>> bb = [np.uint64(x) for x in Board().bitboards()]
    >>> bool(zaps_king_next(*bb, 0, np.uint64(laser_path(*bb, 1))))
    False
    """
    _fw, _fb, _fk, _f0, _f1, _fz, fres, reach = fire_reach(w, b, k, o0, o1, side)
    if fres != NONE and (fres == 1) != (side == 0):
        return True  # even the null move zaps the enemy King
    own = w if side == 0 else b
    enemy_king = k & (b if side == 0 else w)
    if enemy_king == ZERO:
        return False
    lines = king_sightlines(w | b, k, o0, o1, ctz(enemy_king))
    movers = own & ~(enemy_path & own & ~k)  # own Pawns on the enemy beam are pinned
    while movers:
        sq = ctz(movers)
        movers &= movers - ONE
        on = (reach >> U(sq)) & ONE
        tos = NEIGHBOURS[sq] if on else NEIGHBOURS[sq] & reach
        n_rot = 3 if on else 0
        if not (lines >> U(sq)) & ONE:
            tos &= lines  # the move must change a square of the King's sightlines
            n_rot = 0
        while tos or n_rot:
            if tos:
                to = ctz(tos)
                tos &= tos - ONE
                m = sq | (to << 6)
            else:
                m = sq | (sq << 6) | (n_rot << 12)
                n_rot -= 1
            res = make_move(w, b, k, o0, o1, side, m)[6]
            if res != NONE and (res == 1) != (side == 0):
                return True
    return False


@njit(_nrt=False, inline="always")
def _king_threat(w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64,
                 side: int, wpath: np.uint64, bpath: np.uint64, st: SearchState) -> int:
    """``kthreat`` (cp) when the enemy, were it to move, could zap ``side``'s King, else 0.
    The static value the search stands on is lowered by it where it decides a cutoff."""
    if st.params[P_KTHREAT] == 0:
        return 0
    own_path = wpath if side == 0 else bpath
    if zaps_king_next(w, b, k, o0, o1, 1 - side, own_path):
        return st.params[P_KTHREAT]
    return 0


@njit(_nrt=False)
def qsearch(
    w: np.uint64,
    b: np.uint64,
    k: np.uint64,
    o0: np.uint64,
    o1: np.uint64,
    side: int,
    ply: int,
    alpha: int,
    beta: int,
    st: SearchState,
) -> int:
    """Quiescence search over zapping moves (those that only zap own Pawns skipped),
    ordered by history; no table (probing it here cost more time than it saved).

    The moves come from :func:`zapping_moves`.
    """
    stats = st.stats
    stop = st.stop
    params = st.params
    if _count_node(st):
        return 0
    if ply > stats[S_SELDEPTH]:
        stats[S_SELDEPTH] = ply
    own = w if side == 0 else b
    opp = b if side == 0 else w
    own_path, stop_sq, kind = trace(w | b, k, o0, o1, ctz(k & own))
    if kind == 2 and ((opp >> U(stop_sq)) & ONE):
        return MATE - (ply + 1)  # the null move zaps the enemy King
    opp_path = laser_path(w, b, k, o0, o1, 1 - side)
    wpath = own_path if side == 0 else opp_path
    bpath = opp_path if side == 0 else own_path
    stand = evaluate(w, b, k, o0, o1, side, wpath, bpath, params) + params[P_HMB]
    if alpha < stand < beta + params[P_KTHREAT]:  # elsewhere the penalty decides nothing
        stand -= _king_threat(w, b, k, o0, o1, side, wpath, bpath, st)
    if stand >= beta or ply >= MAX_PLY - 1:
        return stand
    if stand > alpha:
        alpha = stand
    mv = st.moves[ply]
    z = zapping_moves(w, b, k, o0, o1, side, opp_path, mv)
    if z < 0:
        return MATE - (ply + 1)
    best = stand
    sc = st.scores[ply]
    _order_scores(z, mv, sc, -1, -1, side, st.history, k, o0, o1)
    for i in range(z):
        m = _pick(i, z, mv, sc)
        nw, nb, nk, n0, n1, _zapped, _res = make_move(w, b, k, o0, o1, side, m)
        score = -qsearch(nw, nb, nk, n0, n1, 1 - side, ply + 1, -beta, -alpha, st)
        if stop[0]:
            return 0
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                if score >= beta:
                    break
    return best


@njit(_nrt=False, inline="always")
def _count_node(st: SearchState) -> bool:
    """Count a node of :func:`pvs` or :func:`qsearch`; true when the search must stop (it
    was stopped, or this node reaches its node limit)."""
    stats = st.stats
    stats[S_NODES] += 1
    if stats[S_NODES] >= stats[S_LIMIT]:
        st.stop[0] = 1
    return st.stop[0] != 0


@njit(_nrt=False, inline="always")
def _draw_score(side: int, st: SearchState) -> int:
    """The draw score (``P_DRAW``, from the root side's view) for ``side``."""
    d = st.params[P_DRAW]
    return d if side == st.stats[S_ROOT_SIDE] else -d


@njit(_nrt=False, inline="always")
def _known_result(w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64,
                  side: int, ply: int, irrev: int, h: np.uint64, gply: int,
                  st: SearchState) -> tuple[bool, int]:
    """``(True, score)`` when the node needs no search: a repetition since the last zap, a
    closebook position, or the ply limit (static evaluation)."""
    if ply > 0:
        i = gply - 2
        while i >= irrev:
            if st.hashes[i] == h:
                return True, _draw_score(side, st)
            i -= 2
    if ply > 0 and st.cb_kings.shape[0] > 0 and popcount(w | b) <= 3:
        bd = st.boards
        ko = ko_between(bd[ply, 0], bd[ply, 1], bd[ply, 2], bd[ply, 3], bd[ply, 4],
                        w, b, k, o0, o1)
        code = probe_code(st.cb_kings, st.cb_pawn, w, b, k, o0, o1, side, ko)
        if code == CODE_WIN:
            return True, CB_WIN - ply
        if code == CODE_LOSS:
            return True, -(CB_WIN - ply)
        if code == CODE_DRAW:
            return True, _draw_score(side, st)
    if ply >= MAX_PLY - 2:
        return True, evaluate(w, b, k, o0, o1, side, laser_path(w, b, k, o0, o1, 0),
                              laser_path(w, b, k, o0, o1, 1), st.params)
    return False, 0


#: scores at least this large are forced King zaps, kept relative to the node in the table
MATE_BOUND = MATE - MAX_PLY + 1


@njit(_nrt=False, inline="always")
def _tt_probe(h: np.uint64, h2: np.uint64, depth: int, ply: int, alpha: int, beta: int,
              is_pv: int, st: SearchState) -> tuple[int, bool, int]:
    """``(tt_move, cut, score)``: the stored move (-1: none) and, outside PV nodes, whether
    the stored bounds settle the node (then return ``score``)."""
    data = tt.probe(st.table, h, h2)
    if data == tt.MISS:
        return -1, False, 0
    tt_move = tt.move(data)
    if tt_move == tt.NO_MOVE:
        tt_move = -1
    if not is_pv and tt.depth(data) >= depth:
        lo = tt.value_from_tt(tt.lower(data), ply, MATE_BOUND, INF)
        hi = tt.value_from_tt(tt.upper(data), ply, MATE_BOUND, INF)
        if lo == hi:
            return tt_move, True, lo
        if lo >= beta:
            return tt_move, True, lo
        if hi <= alpha:
            return tt_move, True, hi
    return tt_move, False, 0


@njit(_nrt=False, inline="always")
def _set_board(boards: np.ndarray, row: int, w: np.uint64, b: np.uint64, k: np.uint64,
               o0: np.uint64, o1: np.uint64) -> None:
    boards[row, 0] = w
    boards[row, 1] = b
    boards[row, 2] = k
    boards[row, 3] = o0
    boards[row, 4] = o1


@njit(_nrt=False, inline="always")
def _hkey(m: int, k: np.uint64, o0: np.uint64, o1: np.uint64) -> int:
    """History slot of move ``m``: the piece's kind, its square and orientation after it."""
    fr = m & 63
    to = (m >> 6) & 63
    ori = (orientation(o0, o1, fr) + ((m >> 12) & 3)) & 3
    return np.int64((k >> U(fr)) & ONE) * 256 + to * 4 + ori


@njit(_nrt=False, inline="always")
def _order_scores(n: int, mv: np.ndarray, sc: np.ndarray, k0: int, k1: int, side: int,
                  history: np.ndarray, k: np.uint64, o0: np.uint64, o1: np.uint64) -> None:
    """Ordering scores of the ``n`` generated moves: ``k0`` then ``k1`` first (the killers;
    in quiescence none), then history."""
    for i in range(n):
        mi = mv[i]
        if mi == k0:
            sc[i] = 1 << 30
        elif mi == k1:
            sc[i] = (1 << 30) - 1
        else:
            sc[i] = history[side, _hkey(mi, k, o0, o1)]


@njit(_nrt=False, inline="always")
def _update_history(history: np.ndarray, side: int, m: int, best: bool, k: np.uint64,
                    o0: np.uint64, o1: np.uint64) -> None:
    """Score move ``m``, tried at a node whose best move it is (``best``) or not: the
    best gains 11200, then every move tried keeps nine tenths of its score."""
    key = _hkey(m, k, o0, o1)
    v = history[side, key]
    if best:
        v += 11200
    history[side, key] = v * 9 // 10


@njit(_nrt=False, inline="always")
def _pick(idx: int, n: int, mv: np.ndarray, sc: np.ndarray) -> int:
    """Selection sort step: swap the best of ``mv[idx:n]`` into ``idx`` and return it."""
    bi = idx
    bs = sc[idx]
    for j in range(idx + 1, n):
        if sc[j] > bs:
            bs = sc[j]
            bi = j
    m = mv[bi]
    mv[bi] = mv[idx]
    mv[idx] = m
    sc[bi] = sc[idx]
    sc[idx] = bs
    return m


@njit(_nrt=False, inline="always")
def _reduction(depth: int, nd: int, legal: int, quiet_late: bool, r1: int, r2: int) -> int:
    """Late-move reduction of a move searched ``legal``-th: 1 after ``r1`` moves, 2 after
    ``r2``, never down to depth 0; none for zaps, killers and the TT move."""
    red = 0
    if depth >= 2 and quiet_late:
        if legal > r2:
            red = 2
        elif legal > r1:
            red = 1
        if red >= nd:
            red = nd - 1 if nd > 1 else 0
    return red


@njit(_nrt=False, inline="always")
def _killer(m: int, ply: int, st: SearchState) -> None:
    """A move (quiet or zapping) cut off: make it the first killer of its ply."""
    killers = st.killers
    if killers[ply, 0] != m:
        killers[ply, 1] = killers[ply, 0]
        killers[ply, 0] = m


@njit(_nrt=False)
def pvs(
    w: np.uint64,
    b: np.uint64,
    k: np.uint64,
    o0: np.uint64,
    o1: np.uint64,
    side: int,
    depth: int,
    ply: int,
    alpha: int,
    beta: int,
    is_pv: int,
    allow_null: int,
    irrev: int,
    st: SearchState,
) -> int:
    """Negamax principal-variation search; score from ``side``'s view.

    ``st.boards[ply + 1]`` holds this position and ``st.boards[ply]`` the one before (Ko
    rule); ``st.hashes[gply0 + ply]`` the position hashes of the game and the search path,
    for repetition draws since the last zap (index ``irrev``).
    """
    stats = st.stats
    stop = st.stop
    params = st.params
    if _count_node(st):
        return 0
    if ply > stats[S_SELDEPTH]:
        stats[S_SELDEPTH] = ply
    gply = stats[S_GPLY0] + ply
    h = _hash(w, b, k, o0, o1, side, _KEYS_A)
    st.hashes[gply] = h
    known, value = _known_result(w, b, k, o0, o1, side, ply, irrev, h, gply, st)
    if known:
        return value
    if depth <= 0:
        stats[S_NODES] -= 1
        return qsearch(w, b, k, o0, o1, side, ply, alpha, beta, st)

    tt_move = -1
    use_tt = params[P_USE_TT] != 0
    if use_tt:
        h2 = _hash(w, b, k, o0, o1, side, _KEYS_B)
        tt_move, cut, value = _tt_probe(h, h2, depth, ply, alpha, beta, is_pv, st)
        if cut:
            return value

    wpath = laser_path(w, b, k, o0, o1, 0)
    bpath = laser_path(w, b, k, o0, o1, 1)
    static = evaluate(w, b, k, o0, o1, side, wpath, bpath, params) + params[P_HMB]
    enemy_path = bpath if side == 0 else wpath
    one = np.int64(1)
    zero = np.int64(0)

    if not is_pv and abs(beta) < MATE - MAX_PLY:
        if static >= beta:
            static -= _king_threat(w, b, k, o0, o1, side, wpath, bpath, st)
        # reverse futility (the reference's margin pruning at depth 1-2)
        if depth <= 2:
            margin = 100 + params[P_RFP] * depth
            if static - margin >= beta:
                return static - margin
        # null-move pruning (a search heuristic: the side to move passes)
        if params[P_USE_NMM] and allow_null and depth >= 3 and static >= beta:
            _set_board(st.boards, ply + 2, w, b, k, o0, o1)
            r = params[P_NULL_R] + (depth >= 6)
            score = -pvs(w, b, k, o0, o1, 1 - side, depth - 1 - r, ply + 1, -beta, -beta + 1,
                         zero, zero, gply + 1, st)
            if stop[0]:
                return 0
            if score >= beta:
                return beta

    mv = st.moves[ply]
    sc = st.scores[ply]
    k0 = st.killers[ply, 0]
    k1 = st.killers[ply, 1]
    # the TT move is tried before any move generation (often it cuts off at once)
    tt_ok = tt_move >= 0 and pseudo_legal(w, b, k, side, enemy_path, tt_move)
    n = 0
    generated = False
    futile = (
        not is_pv
        and depth <= params[P_FUT_DEPTH]
        and abs(alpha) < MATE - MAX_PLY
        and static + params[P_FUT_MARGIN] * depth + 80 <= alpha
    )
    # late move pruning: quiet moves after the first lmp * depth^2 are not searched
    late = params[P_LMP] * depth * depth
    prune_late = not is_pv and depth <= 3 and late > 0 and abs(alpha) < MATE - MAX_PLY
    pruning = futile or prune_late
    # moves searched before quiet ones are pruned; below, none is pruned either while the
    # best so far is a forced loss (best <= -MATE_BOUND): a pruned move may escape it, and
    # the node would return a false loss
    keep = 1 if futile else late
    best = -INF
    best_move = -1
    legal = 0
    orig_alpha = alpha
    bd = st.boards
    pw, pb, pk, p0, p1 = bd[ply, 0], bd[ply, 1], bd[ply, 2], bd[ply, 3], bd[ply, 4]
    reach = ZERO
    off_quiet = False
    busy = st.busy
    spread = busy.shape[0] > 1 and depth >= SPREAD_DEPTH
    put_off = False
    second = False
    idx = -1 if tt_ok else 0
    while True:
        if idx < 0:
            m = tt_move
        else:
            if not generated:
                generated = True
                n = gen_moves(w, b, k, o0, o1, side, enemy_path, mv)
                _order_scores(n, mv, sc, k0, k1, side, st.history, k, o0, o1)
                if pruning:
                    # quiet moves are pruned here: those off the squares the beam's firing
                    # depends on are known quiet unmade
                    _w, _b, _k, _o0, _o1, fz, fres, reach = fire_reach(w, b, k, o0, o1, side)
                    off_quiet = fres == NONE and fz == 0
            idx, second, done = smp.next_pass(idx, n, put_off, second)
            if done:
                break
            if second:
                if sc[idx] != PUT_OFF:
                    idx += 1
                    continue
                m = mv[idx]
            else:
                m = _pick(idx, n, mv, sc)
            if tt_ok and m == tt_move:
                idx += 1
                continue
            if (not second and off_quiet and legal >= keep and best > -MATE_BOUND and m != k0
                    and m != k1 and not _touches(m, reach)):
                legal += 1
                idx += 1
                continue
        idx += 1

        nw, nb, nk, n0, n1, zapped, res = make_move(w, b, k, o0, o1, side, m)
        if res != NONE:
            legal += 1
            if (res == 1) == (side == 0):
                score = -(MATE - (ply + 1))
            else:
                score = MATE - (ply + 1)
        else:
            if zapped == 0:
                if same_board(nw, nb, nk, n0, n1, w, b, k, o0, o1):
                    continue
                if same_board(nw, nb, nk, n0, n1, pw, pb, pk, p0, p1):
                    continue
            if not second:
                legal += 1
            is_killer = m == k0 or m == k1
            if (pruning and not second and zapped == 0 and not is_killer and legal > keep
                    and best > -MATE_BOUND):
                continue
            tag = ZERO
            if spread:
                c0, c1 = table_keys(nw, nb, nk, n0, n1, 1 - side)
                tag = smp.busy_tag(c0, c1)
                if legal > 1 and not second and smp.is_busy(busy, tag):
                    sc[idx - 1] = PUT_OFF
                    put_off = True
                    continue
                smp.mark_busy(busy, tag)
            _set_board(bd, ply + 2, nw, nb, nk, n0, n1)
            new_irrev = irrev if zapped == 0 else gply + 1
            ext = 0  # +1 for a move that zaps an enemy Pawn
            if zapped > 0:
                nopp = popcount(nb if side == 0 else nw)
                opp = popcount(b if side == 0 else w)
                if nopp < opp and ply < 2 * depth + 4:
                    ext = 1
            nd = depth - 1 + ext
            # first move: full window; later ones: null window, reduced when late and quiet,
            # searched again at full depth if that fails high, then with the full window in
            # a PV node
            if legal == 1:
                d_try, lo, pv_flag = nd, -beta, is_pv
            else:
                # reduced only at null-window nodes, as the course's players do: reducing
                # the root's and the PV's late moves hid good moves (docs/PERFORMANCE.md)
                quiet_late = zapped == 0 and not is_killer and m != tt_move and not is_pv
                red = _reduction(depth, nd, legal, quiet_late, params[P_LMR_R1],
                                 params[P_LMR_R2])
                d_try, lo, pv_flag = nd - red, -alpha - 1, zero
            while True:
                score = -pvs(nw, nb, nk, n0, n1, 1 - side, d_try, ply + 1, lo, -alpha, pv_flag,
                             one, new_irrev, st)
                if stop[0] or score <= alpha:
                    break
                if d_try < nd:
                    d_try = nd
                elif is_pv and lo != -beta and score < beta:
                    lo, pv_flag = -beta, one
                else:
                    break
            if spread:
                smp.clear_busy(busy, tag)
            if stop[0]:
                return 0
        if score > best:
            best = score
            best_move = m
            if ply == 0:
                stats[S_BEST_MOVE] = m
                stats[S_BEST_SCORE] = score
            if score > alpha:
                alpha = score
                if score >= beta:
                    if res == NONE:
                        _killer(m, ply, st)
                    break
    if best_move >= 0:
        hist = st.history
        if tt_ok:
            _update_history(hist, side, tt_move, tt_move == best_move, k, o0, o1)
        for j in range(min(idx, n)):
            if not (tt_ok and mv[j] == tt_move):
                _update_history(hist, side, mv[j], mv[j] == best_move, k, o0, o1)
    if legal == 0:
        # cannot happen under the rules (a King rotation is always legal); be safe
        return static
    if use_tt:
        value = tt.value_to_tt(best, ply, MATE_BOUND, INF)
        lo = value if best > orig_alpha else -INF
        hi = value if best < beta else INF
        tt.store(st.table, h, h2, depth, stats[S_TT_GEN], lo, hi,
                 tt.NO_MOVE if best_move < 0 else best_move)
    return best


@njit(nogil=True)
def search_root(w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64,
                side: int, depth: int, alpha: int, beta: int, irrev: int,
                st: SearchState) -> int:
    """One iteration at the root (``st.boards[0]`` = the board before the last move,
    ``st.boards[1]`` = the root). Best move and score land in ``stats[S_BEST_MOVE]`` /
    ``stats[S_BEST_SCORE]``."""
    one = np.int64(1)
    zero = np.int64(0)
    return pvs(w, b, k, o0, o1, side, depth, zero, alpha, beta, one, one, irrev, st)


@njit
def probe_tt_move(table: np.ndarray, w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64,
                  o1: np.uint64, side: int) -> int:
    """The move stored for a position, or -1."""
    k0, k1 = table_keys(w, b, k, o0, o1, side)
    data = tt.probe(table, k0, k1)
    if data == tt.MISS:
        return -1
    m = tt.move(data)
    return -1 if m == tt.NO_MOVE else m


#: Default search depth of each level (index ``level - 1``), used when the limit sets
#: neither a depth, a node count, a time nor a clock.
LEVEL_DEPTHS = (1, 2, 3, 4, 6, 7, 8, 9, 10, 12)


def to_score(centipawns: int) -> Score:
    """The core :class:`~bitgames.core.engine.Score` of a kernel score: centipawns / 100
    in :attr:`Unit.PAWNS`, a forced King zap as a win or loss in that many plies, a
    closebook result (beyond any evaluation) as an exact score.

    >>> to_score(-125), to_score(MATE - 3), to_score(-(MATE - 2))
    (Score(-1.25, Unit.PAWNS), Score.win_in(3, Unit.PAWNS), -Score.win_in(2, Unit.PAWNS))
    """
    if abs(centipawns) > MATE - MAX_PLY:
        win = Score.win_in(MATE - abs(centipawns), Unit.PAWNS)
        return win if centipawns > 0 else -win
    exact = abs(centipawns) > CB_WIN - MAX_PLY
    return Score(centipawns / 100, Unit.PAWNS, exact=exact)


def to_centipawns(score: Score) -> int:
    """The kernel score of a :class:`~bitgames.core.engine.Score` (UCI's ``score cp``):
    the inverse of :func:`to_score`.

    >>> to_centipawns(to_score(-125)), to_centipawns(to_score(MATE - 3))
    (-125, 31997)
    """
    if score.plies is not None:
        return (MATE - score.plies) * (1 if score.value > 0 else -1)
    return round(score.value * 100)


def moves_left(board: Any) -> int:
    """Our expected number of moves still to play: 20, plus 2 per Pawn on the board (48
    from the opening, close to the course player's 2 % of the clock per move)."""
    w, b, k, _, _ = board.bitboards()
    return 20 + 2 * bin((w | b) & ~k).count("1")


class Engine(CoreEngine):
    """Iterative-deepening PVS with a transposition table of ``2**table_bits`` entries.

    Scores are in :attr:`Unit.PAWNS` (the kernels' centipawns / 100); a forced King zap
    is ``Score.win_in(plies)`` or its negation. ``params`` are the evaluation weights and
    search settings (:func:`bitgames.leiserchess.eval.default_params`); ``closebook`` a
    :class:`~bitgames.leiserchess.closebook.Closebook` to probe.

    Levels 1..10 set the depth searched when the :class:`Limit` is empty:
    1, 2, 3, 4, 6, 7, 8, 9, 10, 12 plies (level 5, the default, searches 6 plies).
    A clock (``Limit(remaining=...)``) is turned into a time budget by the core time
    manager with :func:`moves_left` equal weights.

    >>> from bitgames.core.engine import Limit
    >>> from bitgames.leiserchess.board import Board
    >>> res = Engine(table_bits=12).search(Board("ss7/8/8/8/8/8/8/WW7 W"), Limit(depth=2))
    >>> str(res.move), res.score, res.ended.value
    ('a0R', Score.win_in(1, Unit.PAWNS), 'completed')
    """

    MAX_LEVEL = 10
    unit = Unit.PAWNS

    def __init__(self, level: int | None = None, *, table_bits: int = 20,
                 params: np.ndarray | None = None, closebook: Any = None,
                 threads: int = 1) -> None:
        self.params = default_params() if params is None else params.copy()
        empty = np.zeros(0, dtype=np.uint8)
        self.cb_kings = closebook.kings if closebook is not None else empty
        self.cb_pawn = closebook.pawn if closebook is not None else empty
        self.table = tt.new_table(table_bits)
        self.generation = 0  # of the table: one more per search, 1..255
        self.killers = np.zeros((MAX_PLY + 2, 2), dtype=np.int64)
        self.history = np.zeros((2, HISTORY_SLOTS), dtype=np.int64)
        self._lock = threading.Lock()
        self._helper_tables: list[tuple[np.ndarray, np.ndarray]] = []  # killers, history
        self.default_depth = LEVEL_DEPTHS[4]
        super().__init__(level, threads)

    def _apply_level(self, n: int) -> None:
        self.default_depth = LEVEL_DEPTHS[n - 1]

    def new_game(self) -> None:
        """Forget the table and the history, the helper threads' too."""
        self.table = tt.cleared(self.table)
        self.history[:] = 0
        self._helper_tables = []

    def search(self, board: Any, limit: Limit | None = None,
               on_info: InfoCallback | None = None) -> SearchResult:
        """Search ``board`` within ``limit`` (see :class:`Limit`; empty: the level's
        depth). Returns the best move of the last iteration (one stopped by the limit
        counts with the root moves it finished); ``move`` is None when the game is
        over."""
        if limit is None or limit.is_empty():
            limit = Limit(depth=self.default_depth)
        with self._lock:
            return self._search(board, limit, on_info)

    def _search(self, board: Any, limit: Limit, on_info: InfoCallback | None) -> SearchResult:
        legal = [m.code for m in board.legal_moves]
        if not legal:
            return SearchResult(None)
        max_depth = limit.depth if limit.depth else MAX_PLY - 10
        budget = self.time_manager.budget(limit, [1.0] * moves_left(board))
        stop = self.stop_signal
        stop.clear()
        start = time.perf_counter()
        if budget.maximum != math.inf:
            stop.arm(budget.maximum)

        bb = tuple(U(x) for x in board.bitboards())
        boards = np.zeros((MAX_PLY + 4, 5), dtype=np.uint64)
        prev, _has = board._prev()
        boards[0] = [U(x) for x in prev]
        boards[1] = bb
        game = board._boards
        hashes = np.zeros(len(game) + MAX_PLY + 4, dtype=np.uint64)
        counts = [bin(g[0] | g[1]).count("1") for g, _side in game]
        irrev = 0
        for i, (g, side) in enumerate(game):
            hashes[i] = hash_position(*(U(x) for x in g), side)
            if i > 0 and counts[i] < counts[i - 1]:
                irrev = i
        last = len(game) - 1
        moves = np.zeros((MAX_PLY + 2, MAX_MOVES), dtype=np.int64)
        scores = np.zeros((MAX_PLY + 2, MAX_MOVES), dtype=np.int64)
        stats = np.zeros(16, dtype=np.int64)
        node_limit = limit.nodes if limit.nodes else 1 << 62
        stats[S_ROOT_SIDE] = board.side
        stats[S_GPLY0] = last
        self.generation = self.generation % 255 + 1
        stats[S_TT_GEN] = self.generation
        self.killers[:] = 0
        state = SearchState(boards, hashes, moves, scores, self.killers, self.history,
                            self.table, self.params, stats, stop.flag,
                            self.cb_kings, self.cb_pawn, smp.busy_table(self.threads))
        # the first iteration (a few hundred nodes) runs with a stop flag of its own and no
        # node limit, so that every answer is a searched move
        first = state._replace(stop=np.zeros_like(stop.flag))
        best = legal[0]
        best_score = 0
        done_depth = 0
        total_nodes = 0
        helper_nodes: list[int] = []
        seldepth = 0
        completed = True
        pv: list[Move] = []
        try:
            helper = self._helper(bb, board.side, irrev, max_depth, state)
            with smp.helping(self.threads, helper) as helper_nodes:
                for d in range(1, max_depth + 1):
                    stats[S_SELDEPTH] = 0
                    stats[S_BEST_MOVE] = -1
                    stats[S_LIMIT] = node_limit if d > 1 else 1 << 62
                    score = int(search_root(*bb, board.side, d, -INF, INF, irrev,
                                            state if d > 1 else first))
                    total_nodes = int(stats[S_NODES])
                    # a stopped iteration still counts for the root moves it finished: the
                    # first one (the table's move, last iteration's best) is searched to
                    # the end before any other, and another only replaces it once a
                    # full-window search proves it better
                    stopped = stop.is_set() and d > 1
                    if stats[S_BEST_MOVE] >= 0:
                        best = int(stats[S_BEST_MOVE])
                        best_score = int(stats[S_BEST_SCORE]) if stopped else score
                        if stopped:
                            pv = self._pv(board, best)
                    if stopped:
                        break
                    done_depth = d
                    seldepth = int(stats[S_SELDEPTH])
                    pv = self._pv(board, best)
                    elapsed = time.perf_counter() - start
                    if on_info is not None:
                        on_info(Info(d, seldepth, to_score(best_score), total_nodes, elapsed,
                                     list(pv)))
                    if stop.is_set():
                        break
                    if abs(best_score) > MATE - MAX_PLY and d > 1:
                        break
                    if elapsed >= budget.optimum:
                        completed = d == max_depth
                        break
        finally:
            stop.disarm()
        out_of_nodes = limit.nodes is not None and total_nodes >= limit.nodes
        ended = End.COMPLETED if out_of_nodes else stop.end(completed)
        return SearchResult(Move.from_code(best), to_score(best_score), pv, done_depth,
                            total_nodes + sum(helper_nodes), time.perf_counter() - start,
                            ended, seldepth)

    def _helper(self, bb: tuple[np.uint64, ...], side: int, irrev: int, max_depth: int,
                state: SearchState) -> smp.Helper:
        """A Lazy SMP helper of the search of ``state``'s root (:mod:`bitgames.core.smp`):
        its own path, move lists, killers, history, counters and stop flag; the table
        shared."""
        while len(self._helper_tables) < self.threads - 1:
            self._helper_tables.append((np.zeros((MAX_PLY + 2, 2), dtype=np.int64),
                                        np.zeros((2, HISTORY_SLOTS), dtype=np.int64)))

        def run(index: int, stop: StopSignal) -> int:
            killers, history = self._helper_tables[index - 1]
            killers[:] = 0
            stats = state.stats.copy()
            stats[S_NODES] = 0
            stats[S_LIMIT] = 1 << 62
            own = state._replace(boards=state.boards.copy(), hashes=state.hashes.copy(),
                                 moves=np.zeros_like(state.moves),
                                 scores=np.zeros_like(state.scores), killers=killers,
                                 history=history, stats=stats, stop=stop.flag)
            for d in range(1, max_depth + 1):
                if stop.is_set():
                    break
                search_root(*bb, side, smp.helper_depth(index, d), -INF, INF, irrev, own)
            return int(stats[S_NODES])

        return run

    def _pv(self, board: Any, first: int) -> list[Move]:
        """Principal variation: ``first``, then TT moves while legal (at most 20)."""
        b = board.copy()
        pv: list[Move] = []
        move = Move.from_code(first)
        for _ in range(20):
            if not b.is_legal(move):
                break
            b.push(move)
            pv.append(move)
            if b.is_game_over():
                break
            code = int(probe_tt_move(self.table, *(U(x) for x in b.bitboards()), b.side))
            if code < 0:
                break
            move = Move.from_code(code)
        return pv


@register_warmup("leiserchess", "engine")
def _warm() -> None:
    from bitgames.leiserchess.board import Board

    Engine(table_bits=10).search(Board(), Limit(depth=2))
