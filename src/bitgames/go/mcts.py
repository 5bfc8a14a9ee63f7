"""Monte Carlo tree search: UCT with RAVE (AMAF), small priors, tree reuse, superko.

The tree lives in NumPy arrays (one row per node, children stored contiguously) and the
whole simulation loop - descent, expansion, playout, back-up - is one numba kernel
(:func:`search_kernel`); Python only decides how many simulations to run (playouts or a
time budget) and picks the move.

Selection value of a child (Gelly & Silver's RAVE, AIJ 2011):
``(1 - beta) * Q + beta * Q_amaf + c * sqrt(ln N_parent / N)`` with
``beta = N_amaf / (N + N_amaf + bias * N * N_amaf)``. Children start with ``prior``
(10) visits and a prior win rate from the probability :mod:`bitgames.go.features` gives
their move (shape, captures, ataris and ladders, self-ataris, distance to the last move
and to the edge, with strengths learned from strong players' games): a move ``x`` times
likelier than the average legal move starts at ``x^w / (1 + x^w)`` with ``w =
pattern_prior`` (1; +252 Elo in self-play on 9x9, see docs/PERFORMANCE.md). With
``pattern_prior=0`` they start from the hand-made priors instead: neutral 0.5, 0.8 next
to a block in atari (captures, escapes), 0.3 on the first line, and ``shape_prior``
(0.7) elsewhere on a MoGo 3x3 shape (:mod:`bitgames.go.patterns`); a ladder read
(:func:`bitgames.go.kernels.ladder_dies`) moves an escape from atari that a ladder still
captures down to ``1 - ladder_prior`` (0.1) and an atari that wins a ladder up to
``ladder_prior`` (0.9; 0 turns the reads off). Children are the legal moves that do
not fill one's own single-point eye, minus superko repeats (the game's history plus the
positions on the path from the root); a pass child exists only when the previous move
was a pass (the pass then ends the game and is scored exactly) or when nothing else is
legal, so the engine passes only when it is safe (after the opponent's pass, a pass that
Tromp-Taylor counts as a win is taken only if it still wins with the stones its playouts
judge dead removed; otherwise the root offers no pass). Two options measured without a
gain (docs/PERFORMANCE.md) are off by default: ``widen`` (progressive widening: children
sorted by their prior, only the first few selectable, more as the node's visits grow;
:func:`_width`) and ``rave_distance`` (AMAF weighted by how soon after the node a move
was played; :func:`_amaf_weight`). The
engine resigns when its best move wins less than ``resign`` of the time. The playouts
follow ``policy`` (:data:`bitgames.go.kernels.LIBERTIES` by default: answers to ataris
next to the last move, then to blocks of two liberties next to it, then a point next to
it drawn by the learned shape strengths, weighted ``local_weight`` (16) against one per
empty point for a random move; in self-play on 9x9 the learned shapes gained +85 Elo over
the MoGo patterns, the answers to two liberties +70 more).

>>> from bitgames.core.engine import Limit
>>> from bitgames.go import Board
>>> result = Engine(seed=1).search(Board(size=9), Limit(nodes=300))
>>> result.nodes, result.move in Board(size=9).legal_moves
(300, True)
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from typing import Any, NamedTuple

import numpy as np

from bitgames.core import jit
from bitgames.core.engine import End, InfoCallback, Limit, Score, SearchResult, Unit
from bitgames.core.engine import Engine as CoreEngine
from bitgames.core.rng import stream_seed
from bitgames.go import features as F
from bitgames.go import kernels as K
from bitgames.go.board import BLACK, MAX_SIZE, WHITE, Board, Move

# tree meta fields
T_NNODES, T_ROOT, T_CAP = 0, 1, 2

# params fields
P_UCT, P_RAVE_BIAS, P_PRIOR, P_KOMI, P_EXPAND = 0, 1, 2, 3, 4
P_SUPERKO, P_SUICIDE, P_MAXMOVES, P_CLEANUP, P_POLICY = 5, 6, 7, 8, 9
P_SHAPE, P_LADDER, P_GAMMA, P_WIDEN, P_RAVE_DISTANCE = 10, 11, 12, 13, 14

#: progressive widening: a node's children selectable before :data:`WIDEN_AT` visits
WIDEN_START = 5
#: the visits (priors included) from which a node's selectable children grow
WIDEN_AT = 40.0


class Tree(NamedTuple):
    """The search tree: one row per node in each array, children stored contiguously
    (a numba kernel takes it as one argument and unpacks it)."""

    move: np.ndarray  #: int32: the point played into the node (-1 pass)
    parent: np.ndarray  #: int32: the parent node (-1 for the root)
    first: np.ndarray  #: int32: the first child (-1 before expansion)
    nchildren: np.ndarray  #: int32: the number of children
    visits: np.ndarray  #: float64: visits (priors included)
    wins: np.ndarray  #: float64: wins for the player who moved into the node
    amaf_visits: np.ndarray  #: float64: AMAF (RAVE) visits
    amaf_wins: np.ndarray  #: float64: AMAF wins
    meta: np.ndarray  #: int64: the ``T_*`` slots: number of nodes, root, capacity
    #: int32[3, points]: each colour's last good reply to each point (-1: none), which
    #: the playouts play (:func:`bitgames.go.kernels.playout`); kept with the tree
    replies: np.ndarray


def new_tree(capacity: int) -> Tree:
    """Empty tree arrays for ``capacity`` nodes (node 0 is the root)."""
    tree = Tree(
        np.full(capacity, -1, np.int32),
        np.full(capacity, -1, np.int32),
        np.full(capacity, -1, np.int32),
        np.zeros(capacity, np.int32),
        np.zeros(capacity, np.float64),
        np.zeros(capacity, np.float64),
        np.zeros(capacity, np.float64),
        np.zeros(capacity, np.float64),
        np.zeros(4, np.int64),
        np.full((3, MAX_SIZE * MAX_SIZE), -1, np.int32),
    )
    tree.meta[T_NNODES] = 1
    tree.meta[T_ROOT] = 0
    tree.meta[T_CAP] = capacity
    return tree


@jit.njit(nogil=True)
def _expand(
    g: Any,
    s: Any,
    tree: Tree,
    node: int,
    history: np.ndarray,
    path_h: np.ndarray,
    depth: int,
    params: np.ndarray,
    side_key: np.uint64,
    stack: Any,
    gammas: np.ndarray,
    dictionary: np.ndarray,
    tmp: np.ndarray,
) -> int:
    """Create the children of ``node`` for the side to move in ``s``; returns their count
    (0 if the tree is full).

    ``history`` and ``path_h`` hold position keys: the stones' hash, XORed with
    ``side_key`` when White is to move (:meth:`Board.history_keys`); a child's key is
    built the same way before it is looked up. ``gammas`` is the strength table of the
    learned prior (:func:`bitgames.go.features.load`) and ``dictionary`` its spatial
    patterns (:func:`bitgames.go.features.load_dictionary`), ``stack`` and ``tmp`` scratch
    space for its features' ladder reads and liberty counts.
    """
    nbr, nnbr, diag, ndiag, nbrmask, zob = g
    color, root, nst, stones, libs, bits, empties, epos, meta, hsh = s
    tmove, tparent, tfirst, tnchild, tvis, twin, tavis, tawin, tmeta, _ = tree
    c = meta[K.M_TOMOVE]
    npts = color.shape[0]
    size = np.int64(math.sqrt(npts) + 0.5)
    nn = tmeta[T_NNODES]
    cap = tmeta[T_CAP]
    if nn + npts + 1 > cap:
        return 0
    first = nn
    superko = params[P_SUPERKO] > 0.0
    multi = params[P_SUICIDE] > 0.0
    prior = params[P_PRIOR]
    ladder = params[P_LADDER]
    learned = params[P_GAMMA]
    total = 0.0
    for p in range(npts):
        if color[p] != 0:
            continue
        if K.is_eye(g, color, p, c):
            continue
        if not K.is_legal(g, s, p, c, multi):
            continue
        if superko:
            h = K.hash_after(g, s, p, c)
            if c == K.BLACK:  # White to move after the move
                h ^= side_key
            i = np.searchsorted(history, h)
            if i < history.shape[0] and history[i] == h:
                continue
            rep = False
            for d in range(depth + 1):
                if path_h[d] == h:
                    rep = True
            if rep:
                continue
        tmove[nn] = p
        tparent[nn] = node
        tfirst[nn] = -1
        tnchild[nn] = 0
        tvis[nn] = prior
        tavis[nn] = 0.0
        tawin[nn] = 0.0
        if learned > 0.0:  # the strength for now, the prior below
            twin[nn] = F.gamma(gammas, F.move_key(g, s, stack, tmp, p, c, multi,
                                                     dictionary))
            total += twin[nn]
            nn += 1
            continue
        # priors: neutral, captures and atari escapes up (an escape into a lost ladder
        # down, an atari that wins a ladder up), first line down, good shape up
        value = 0.5
        escape = False
        capture = False
        chase = -1
        for i in range(nnbr[p]):
            q = nbr[p, i]
            if color[q] != 0:
                n = K.libcount(libs, root[q])
                if n == 1:
                    value = 0.8
                    escape |= color[q] == c
                    capture |= color[q] != c
                elif n == 2 and color[q] != c:
                    chase = q
        if ladder > 0.0:
            if escape and not capture:
                if K.ladder_dies(g, s, stack, p, c, p, multi):
                    value = 1.0 - ladder
            elif chase >= 0 and value == 0.5 and K.ladder_dies(g, s, stack, p, c,
                                                              np.int64(chase), multi):
                value = ladder
        row = p // size
        col = p - row * size
        line = min(min(row, col), min(size - 1 - row, size - 1 - col))
        if line == 0 and value == 0.5:
            value = 0.3
        if value == 0.5 and K.PAT3[K._pat3_code(color, size, p)] != 0:
            value = params[P_SHAPE]
        twin[nn] = prior * value
        nn += 1
    if learned > 0.0:
        # a move the model finds x times likelier than average starts at x^w / (1 + x^w)
        for ch in range(first, nn):
            x = (twin[ch] * (nn - first) / total) ** learned
            twin[ch] = prior * x / (1.0 + x)
    allow_pass = meta[K.M_LAST] == -1 and not (params[P_CLEANUP] > 0.0 and depth == 0)
    if nn == first or allow_pass:
        tmove[nn] = -1
        tparent[nn] = node
        tfirst[nn] = -1
        tnchild[nn] = 0
        tvis[nn] = prior
        twin[nn] = prior * 0.5
        tavis[nn] = 0.0
        tawin[nn] = 0.0
        nn += 1
    if params[P_WIDEN] > 0.0:
        _sort_by_prior(tmove, twin, first, nn)
    tfirst[node] = first
    tnchild[node] = nn - first
    tmeta[T_NNODES] = nn
    return nn - first


@jit.njit(nogil=True, inline="always")
def _position_key(s: Any, side_key: np.uint64) -> np.uint64:
    """The key of the position of state ``s`` (see :meth:`Board.history_keys`)."""
    h = s[9][0]
    if s[8][K.M_TOMOVE] == K.WHITE:
        h ^= side_key
    return h


@jit.njit(nogil=True)
def _sort_by_prior(tmove: np.ndarray, twin: np.ndarray, first: int, end: int) -> None:
    """Order the new children ``first:end`` (all with the same prior visits) by their
    prior wins, best first, a pass (which ends the game) before them all so that widening
    never hides it (an insertion sort: a few dozen children)."""
    for i in range(first + 1, end):
        m, w = tmove[i], twin[i]
        j = i - 1
        while j >= first and tmove[j] >= 0 and (m < 0 or twin[j] < w):
            tmove[j + 1] = tmove[j]
            twin[j + 1] = twin[j]
            j -= 1
        tmove[j + 1] = m
        twin[j + 1] = w


@jit.njit(nogil=True, inline="always")
def _width(visits: float, nchildren: int, base: float) -> int:
    """How many of a node's children (best prior first) selection considers: all
    without widening (``base`` 0); else :data:`WIDEN_START`, one more each time the
    node's visits grow by the factor ``base`` from :data:`WIDEN_AT` on (Chaslot et al.'s
    progressive unpruning, Coulom's progressive widening).

    >>> _width(30.0, 50, 1.4), _width(40.0, 50, 1.4), _width(57.0, 50, 1.4), _width(1e9, 50, 1.4)
    (5, 5, 6, 50)
    >>> _width(30.0, 50, 0.0), _width(30.0, 3, 1.4)
    (50, 3)
    """
    if base <= 0.0:
        return nchildren
    k = WIDEN_START
    if visits > WIDEN_AT:
        k += np.int64(math.log(visits / WIDEN_AT) / math.log(base))
    return min(k, nchildren)


@jit.njit(nogil=True)
def _select(tree: Tree, node: int, params: np.ndarray) -> int:
    tmove, tparent, tfirst, tnchild, tvis, twin, tavis, tawin, tmeta, _ = tree
    best = -1
    best_v = -1e300
    logn = math.log(tvis[node] + 1.0)
    cu = params[P_UCT]
    bias = params[P_RAVE_BIAS]
    first = tfirst[node]
    for ch in range(first, first + _width(tvis[node], tnchild[node], params[P_WIDEN])):
        n = tvis[ch]
        q = twin[ch] / n
        an = tavis[ch]
        if an > 0.0:
            beta = an / (n + an + bias * n * an)
            q = (1.0 - beta) * q + beta * (tawin[ch] / an)
        v = q + cu * math.sqrt(logn / n)
        if v > best_v:
            best_v = v
            best = ch
    return best


@jit.njit(nogil=True, inline="always")
def _amaf_weight(rave_distance: float, n: int, j: int, d: int) -> float:
    """The AMAF weight, for the node at index ``d`` of a simulation of ``n`` moves, of a
    move first played at index ``j`` (``d <= j < n``): a move played sooner after the
    node says more about it (Pachi's ``distance_rave``), so the weight falls from about 1
    right after the node to ``1 / (1 + rave_distance)`` at the end; 1 throughout when
    ``rave_distance`` is 0.

    >>> _amaf_weight(0.0, 100, 60, 10), round(_amaf_weight(3.0, 100, 10, 10), 3)
    (1.0, 0.992)
    >>> round(_amaf_weight(3.0, 100, 99, 10), 3)
    0.258
    """
    return (1.0 + rave_distance * (n - j) / (n - d + 1)) / (1.0 + rave_distance)


@jit.njit(nogil=True)
def remember_replies(replies: np.ndarray, seq: np.ndarray, n: int, first: int,
                     winner: int) -> None:
    """Learn from one simulation's moves ``seq[:n]`` (colours alternating from ``first``):
    each move of the ``winner`` becomes its reply to the move before it, and a loser's
    reply that the loser played is forgotten (Drake 2009, Baier and Drake 2010)."""
    for j in range(1, n):
        prev = seq[j - 1]
        if prev < 0:
            continue
        mv = seq[j]
        col = first if j % 2 == 0 else 3 - first
        if col == winner:
            if mv >= 0:
                replies[col, prev] = mv
        elif replies[col, prev] == mv:
            replies[col, prev] = -1


@jit.njit(nogil=True)
def search_kernel(
    g: Any,
    s0: Any,
    tree: Tree,
    nsims: int,
    seed: np.uint64,
    counter: int,
    params: np.ndarray,
    history: np.ndarray,
    side_key: np.uint64,
    gammas: np.ndarray,
    dictionary: np.ndarray,
    weights: np.ndarray,
    replies: np.ndarray,
) -> int:
    """Run ``nsims`` simulations from the tree's root, whose position is ``s0``.

    Simulation ``i`` draws from the random stream ``stream_seed(seed, counter + i)``.
    ``history`` is the sorted :meth:`Board.history_keys` and ``side_key`` its
    :meth:`Board.side_key`: superko compares position keys (stones and, under
    situational superko, the side to move) with position keys. ``gammas`` is the
    strength table of the learned prior (:func:`bitgames.go.features.load`),
    ``dictionary`` its spatial patterns, ``weights`` the shape weights of the
    :data:`bitgames.go.kernels.LEARNED` and :data:`bitgames.go.kernels.LIBERTIES` playouts,
    ``replies`` the tree's last good replies (:data:`bitgames.go.kernels.NO_REPLIES`: none).
    Returns the number of playout moves made (for speed reports).
    """
    tmove, tparent, tfirst, tnchild, tvis, twin, tavis, tawin, tmeta, _ = tree
    npts = s0[0].shape[0]
    maxm = np.int64(params[P_MAXMOVES])
    s = K.copy_state_kernel(s0)
    stack = K.ladder_stack(s0)
    tmp = np.zeros(s0[5].shape[1], np.uint64)
    rng = np.zeros(1, np.uint64)
    maxdepth = 4 * npts + 8
    path = np.zeros(maxdepth, np.int64)
    path_h = np.zeros(maxdepth, np.uint64)
    seq = np.zeros(maxdepth + maxm + 2, np.int32)
    trace = np.zeros(maxm + 1, np.int32)
    amaf = np.zeros(npts, np.int8)
    firstcol = np.zeros(npts, np.int8)
    firstidx = np.zeros(npts, np.int64)  # where in seq each point was first played
    rave_distance = params[P_RAVE_DISTANCE]
    komi = params[P_KOMI]
    policy = np.int64(params[P_POLICY])
    expand_at = params[P_EXPAND]
    prior = params[P_PRIOR]
    total_moves = 0
    for sim in range(nsims):
        K._copy_into(s, s0)
        meta = s[8]
        rng[0] = stream_seed(seed, counter + sim)
        node = tmeta[T_ROOT]
        start_color = meta[K.M_TOMOVE]
        depth = 0
        path[0] = node
        path_h[0] = _position_key(s, side_key)
        nseq = 0
        # ---- descent
        while meta[K.M_PASSES] < 2 and depth < maxdepth - 2:
            if tnchild[node] == 0:
                if tvis[node] - prior >= expand_at or node == tmeta[T_ROOT]:
                    if _expand(g, s, tree, node, history, path_h, np.int64(depth), params,
                               side_key, stack, gammas, dictionary, tmp) == 0:
                        break
                else:
                    break
            ch = _select(tree, node, params)
            m = np.int64(tmove[ch])
            K.play(g, s, m, meta[K.M_TOMOVE])
            seq[nseq] = m
            nseq += 1
            depth += 1
            path[depth] = ch
            path_h[depth] = _position_key(s, side_key)
            node = ch
        # ---- playout
        amaf[:] = 0
        ntr = 0
        if meta[K.M_PASSES] < 2:
            m0 = meta[K.M_MOVES]
            score = K.playout(g, s, rng, maxm, amaf, trace, policy, weights, replies)
            ntr = meta[K.M_MOVES] - m0
            total_moves += ntr
        else:
            score = K.area_score(g, s)
        for j in range(ntr):
            seq[nseq] = trace[j]
            nseq += 1
        final = score - komi
        bwin = 0.5
        if final > 0:
            bwin = 1.0
        elif final < 0:
            bwin = 0.0
        if replies.shape[0] > 0 and final != 0:
            remember_replies(replies, seq, nseq, start_color, 1 if final > 0 else 2)
        # ---- back-up, with AMAF over the moves played from each node on
        firstcol[:] = 0
        # colour of seq[j] alternates from start_color
        j = nseq - 1
        for d in range(depth, -1, -1):
            # include moves from index d on
            while j >= d:
                mv = seq[j]
                if mv >= 0:
                    firstcol[mv] = start_color if j % 2 == 0 else 3 - start_color
                    firstidx[mv] = j
                j -= 1
            nd = path[d]
            # the player who moved into nd
            mover = start_color if (d - 1) % 2 == 0 else 3 - start_color
            if d > 0:
                tvis[nd] += 1.0
                twin[nd] += bwin if mover == 1 else 1.0 - bwin
            else:
                tvis[nd] += 1.0
            # AMAF for the children of nd: chosen by the player to move at nd
            if tnchild[nd] > 0:
                chooser = start_color if d % 2 == 0 else 3 - start_color
                w = bwin if chooser == 1 else 1.0 - bwin
                first = tfirst[nd]
                for ch in range(first, first + tnchild[nd]):
                    mv = tmove[ch]
                    if mv >= 0 and firstcol[mv] == chooser:
                        a = _amaf_weight(rave_distance, nseq, firstidx[mv], d)
                        tavis[ch] += a
                        tawin[ch] += a * w
    return total_moves


@jit.njit(nogil=True)
def ownership_kernel(
    g: Any, s0: Any, n: int, seed: np.uint64, max_moves: int, own: np.ndarray
) -> None:
    """Add, over ``n`` playouts, +1 for each point black owns at the end, -1 for white
    (stones, and empty points whose neighbours are all one colour)."""
    nbr, nnbr, diag, ndiag, nbrmask, zob = g
    s = K.copy_state_kernel(s0)
    npts = s0[0].shape[0]
    amaf = np.zeros(npts, np.int8)
    trace = np.zeros(0, np.int32)
    rng = np.zeros(1, np.uint64)
    for i in range(n):
        K._copy_into(s, s0)
        rng[0] = stream_seed(seed, i)
        K.playout(g, s, rng, max_moves, amaf, trace, K.CAPTURE, K.NO_WEIGHTS, K.NO_REPLIES)
        color = s[0]
        for p in range(npts):
            cp = color[p]
            if cp == 0:
                touch = 0
                for j in range(nnbr[p]):
                    touch |= color[nbr[p, j]]
                cp = touch if touch < 3 else 0
            if cp == 1:
                own[p] += 1.0
            elif cp == 2:
                own[p] -= 1.0


@jit.register_warmup("go", "mcts")
def _warmup() -> None:
    board = Board(size=9)
    Engine(seed=0).search(board, Limit(nodes=20))
    ownership(board, 2)


#: dynamic komi in handicap games (:meth:`Engine.search_komi`): the extra komi falls
#: linearly to none after this many moves per point of the board (200 moves on 19x19, 45
#: on 9x9)
DYNAMIC_KOMI_SPAN = 0.555

#: playouts per move at each level, 1 (weakest) to 10; level 5, the default, is the
#: command line's 10,000
LEVEL_PLAYOUTS = (100, 300, 1_000, 3_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000)


def moves_left(board: Board) -> int:
    """Our moves the game is still expected to need: the time manager's estimate, from
    the empty points (a 9x9 game fills about 2.5 points per move of one side)."""
    empties = int(board._s[8][K.M_NEMPTY])
    return max(12, round(empties / 2.5))


class Engine(CoreEngine):
    """The MCTS engine on the one engine interface (:class:`bitgames.core.engine.Engine`).

    ``search(board, Limit(nodes=N))`` runs ``N`` new simulations (playouts) from
    ``board``; ``Limit(time=t)`` as many as fit in ``t`` seconds; a clock
    (``Limit(remaining=..., increment=..., moves_to_go=...)``) a share of it from the time
    manager, with :func:`moves_left` moves to go; ``Limit()`` the level's playouts
    (:data:`LEVEL_PLAYOUTS`: level 1 = 100 ... level 10 = 500,000; a depth is ignored).
    Scores are win rates of the side to move (:attr:`Unit.WINRATE`); the result's
    ``nodes`` counts the simulations of this search, its ``depth`` is the length of the
    principal variation (the most visited line, at most 8 moves). The playout loop
    polls :attr:`stop_signal` between batches of at most 1,024 simulations, so
    :meth:`stop` works from any thread within milliseconds.

    The tree is kept between searches and reused when the new position follows the old
    root by the moves played since (:attr:`reused` counts the visits kept). The engine
    passes only when it is safe (after the opponent's pass, when it wins both by
    Tromp-Taylor and with dead stones removed; or when nothing else is legal) and
    resigns (``Move.RESIGN``) when its best move wins less than ``resign`` of the time
    after at least 200 simulations (``resign=0`` never resigns).

    >>> from bitgames.core.engine import Limit
    >>> result = Engine(seed=1).search(Board(size=9), Limit(nodes=300))
    >>> result.nodes, result.move in Board(size=9).legal_moves, result.score.unit.name
    (300, True, 'WINRATE')
    """

    MAX_LEVEL = 10
    unit = Unit.WINRATE

    def __init__(
        self,
        level: int | None = None,
        *,
        seed: int = 0,
        capacity: int = 1_500_000,
        uct: float = 0.2,
        rave_bias: float = 0.04,
        prior: float = 10.0,
        expand_at: float = 3.0,
        resign: float = 0.1,
        max_moves: int | None = None,
        policy: int = K.LIBERTIES,
        shape_prior: float = 0.7,
        ladder_prior: float = 0.9,
        pattern_prior: float = 1.0,
        local_weight: float = F.LOCAL_WEIGHT,
        replies: bool = False,
        widen: float = 0.0,
        rave_distance: float = 0.0,
        extend: float = 1.0,
        dynamic_komi: float = 0.0,
        threads: int = 1,
    ) -> None:
        #: in a handicap game, the points of komi per handicap stone that the search adds
        #: at the first move, falling to none by :data:`DYNAMIC_KOMI_SPAN` (0, the
        #: default: off; on 9x9 with 2 and 3 stones 7 gained nothing measurable, either
        #: giving the stones or taking them, docs/PERFORMANCE.md; :meth:`search_komi`)
        self.dynamic_komi = dynamic_komi
        #: on a clock, how many times the time manager's optimum a move may take while
        #: its best is in doubt (:meth:`_unsettled`); above 1, a move also stops before
        #: the optimum once its most simulated move cannot be overtaken (1, the default:
        #: neither; against Pachi neither gained, docs/PERFORMANCE.md)
        self.extend = extend
        #: AMAF weight of a move by how soon after a node it was played (0: all alike)
        self.rave_distance = rave_distance
        #: progressive widening's growth factor (:func:`_width`; 0: every child at once)
        self.widen = widen
        #: the playouts play last good replies (:func:`remember_replies`)
        self.replies = replies
        self.seed = seed
        self.pattern_prior = pattern_prior
        self.local_weight = local_weight
        self._gammas = F.load()
        self._dictionary = F.load_dictionary()
        self.policy = policy
        self.shape_prior = shape_prior
        self.ladder_prior = ladder_prior
        self.capacity = capacity
        self.uct = uct
        self.rave_bias = rave_bias
        self.prior = prior
        self.expand_at = expand_at
        self.resign = resign
        self.max_moves = max_moves
        self.playouts = LEVEL_PLAYOUTS[4]
        self.reused = 0.0
        self._tree: Tree | None = None
        self._helpers: list[Tree] = []  # the other threads' trees (root parallelism)
        self._tree_moves: list[tuple[int, int]] = []
        self._tree_key: tuple[int, float, str, tuple[int, ...], tuple[int, ...]] | None = None
        self._tree_turn = 0  # the kernels' colour to move at the tree's root
        self._counter = 0
        super().__init__(level, threads)

    def _apply_level(self, n: int) -> None:
        self.playouts = LEVEL_PLAYOUTS[n - 1]

    def new_game(self) -> None:
        """Drop the trees."""
        self._tree = None
        self._helpers = []
        self._tree_moves = []
        self._tree_key = None
        self.reused = 0.0

    def search_komi(self, board: Board) -> float:
        """The komi the search scores its playouts with: the board's, and in a handicap
        game (:attr:`Board.handicap`) :attr:`dynamic_komi` points more per handicap stone
        at the first move, falling linearly to none after :data:`DYNAMIC_KOMI_SPAN` moves
        per point of the board (the linear dynamic komi of Baudiš, "Balancing MCTS by
        dynamically adjusting the komi value", ICGA Journal 2011).

        MCTS plays for the win rate: given a handicap, the stronger White finds every move
        losing and the weaker Black every move winning, and either plays as if nothing
        mattered. With more komi for White early on, White plays for a game it can still
        catch up and Black for a lead large enough to keep. The win rates the search
        reports are counted with this komi; the engine does not resign while it takes the
        handicap (Black with komi above the board's).

        >>> board = Board(size=9, komi=0.5)
        >>> board.place_handicap(["C3", "G7"])
        >>> engine = Engine(dynamic_komi=7)
        >>> engine.search_komi(board), engine.search_komi(Board(size=9))
        (14.5, 7.5)
        >>> for _ in range(15):
        ...     board.push(next(iter(board.legal_moves)))
        >>> round(engine.search_komi(board), 2)  # 15 of the 45 moves: two thirds left
        9.83
        """
        span = DYNAMIC_KOMI_SPAN * board.points
        left = max(0.0, 1.0 - len(board._stack) / span)
        return board.komi + self.dynamic_komi * board.handicap * left

    def _params(self, board: Board, cleanup: bool = False) -> np.ndarray:
        maxm = self.max_moves or 3 * board.points
        return np.array(
            [
                self.uct,
                self.rave_bias,
                self.prior,
                self.search_komi(board),
                self.expand_at,
                1.0 if board.rules.ko != "simple" else 0.0,
                1.0 if board.rules.suicide else 0.0,
                float(maxm),
                1.0 if cleanup else 0.0,
                float(self.policy),
                self.shape_prior,
                self.ladder_prior,
                self.pattern_prior,
                self.widen,
                self.rave_distance,
            ],
            np.float64,
        )

    def _root_for(self, board: Board, no_pass: bool = False) -> None:
        """Reuse the subtrees that match ``board`` or start new trees (one per thread);
        with ``no_pass`` (a cleanup search) not a subtree whose root offers a pass.

        The tree's nodes alternate colours from its root's side to move, so a subtree is
        reused only when the moves played since alternate that way too and ``board`` has
        the side to move the subtree expects: GTP lets a colour play twice or ``genmove``
        for the side not on move (:attr:`Board.turn` set without a move), and a subtree
        of the other colour's moves would then replay points that are no longer empty.
        """
        key = (
            board.size,
            board.komi,
            board.rules.name,
            tuple(board.setup_black),
            tuple(board.setup_white),
        )
        moves = board._played()
        trees = [] if self._tree is None else [self._tree, *self._helpers]
        to_move = int(board._s[8][K.M_TOMOVE])
        if (
            len(trees) == self.threads
            and key == self._tree_key
            and moves[: len(self._tree_moves)] == self._tree_moves
            and all(tree.meta[T_NNODES] < 0.6 * self.capacity for tree in trees)
        ):
            roots = [self._subtree(tree, moves[len(self._tree_moves):], to_move)
                     for tree in trees]
            assert self._tree is not None
            if all(node >= 0 for node in roots) and not (
                    no_pass and any(self._tree.move[ch] == -1
                                    for ch in _children(self._tree, roots[0]))):
                for tree, node in zip(trees, roots, strict=True):
                    tree.meta[T_ROOT] = node
                    tree.parent[node] = -1
                self._tree_moves = list(moves)
                self._tree_turn = to_move
                self.reused = float(sum(tree.visits[node]
                                        for tree, node in zip(trees, roots, strict=True)))
                return
        self._tree = new_tree(self.capacity)
        self._helpers = [new_tree(self.capacity) for _ in range(self.threads - 1)]
        self._tree_moves = list(moves)
        self._tree_key = key
        self._tree_turn = to_move
        self.reused = 0.0

    def _subtree(self, tree: Tree, moves: list[tuple[int, int]], to_move: int) -> int:
        """The node of ``tree`` reached from its root by ``moves`` (colour, point), or -1
        when they leave the tree, do not alternate from the root's side to move, or end
        with another side to move than ``to_move``."""
        node = int(tree.meta[T_ROOT])
        turn = self._tree_turn
        for c, p in moves:
            if c != turn:
                return -1
            turn = 3 - turn
            found = [ch for ch in _children(tree, node) if int(tree.move[ch]) == p]
            if not found:
                return -1
            node = found[-1]
        return node if turn == to_move else -1

    def search(
        self,
        board: Board,
        limit: Limit | None = None,
        on_info: InfoCallback | None = None,
        *,
        cleanup: bool = False,
        allow_resign: bool = True,
    ) -> SearchResult:
        """The move to play for the side to move (the board is not changed).

        With ``cleanup`` (GTP ``kgs-genmove_cleanup``) the root never offers a pass while
        another move is legal, so dead stones get captured before the game ends;
        ``allow_resign=False`` never resigns (GTP ``reg_genmove``, ``--no-resign``).
        ``on_info`` receives an :class:`Info` about once a second and at the end. The
        move is ``None`` only after a resignation.
        """
        begun = time.perf_counter()  # the clock runs from here: the pass check counts
        limit = limit or Limit()
        self.stop_signal.clear()
        if board.resigned is not None:
            return SearchResult(None)
        if board.is_game_over() and not cleanup:
            return SearchResult(Move.PASS, Score(0.5, Unit.WINRATE))
        if not cleanup and board.passes == 1:
            # the opponent passed: passing ends the game; do it when we win both by
            # Tromp-Taylor (all stones alive) and with the stones judged dead removed
            sign = -1.0 if board.turn else 1.0
            if sign * board.score() > 0:
                if sign * final_score(board, 200, self.seed) > 0:
                    return SearchResult(Move.PASS, Score(1.0, Unit.WINRATE, exact=True),
                                        [Move.PASS])
                # a win only while stones judged dead count: the tree would take it (its
                # pass child scores Tromp-Taylor), so the root offers no pass this time
                cleanup = True
        result = self._run(board, limit, on_info, cleanup, begun)
        if result.move is None:
            result.move = Move.PASS
        elif (allow_resign and not result.move.is_pass and result.score is not None
              and result.score.value < self.resign and result.nodes >= 200
              # not as Black while the dynamic komi asks for more than the board's
              and (board.turn or self.search_komi(board) <= board.komi)):
            result.move = Move.RESIGN
        elif not result.move.is_pass and not board.is_legal(result.move):
            # never return an illegal move (e.g. a superko repeat missed in the tree)
            result.move = next(iter(board.legal_moves))
        return result

    def _run(self, board: Board, limit: Limit, on_info: InfoCallback | None,
             cleanup: bool, begun: float) -> SearchResult:
        """The simulations within ``limit``; the most visited root move (None if the root
        has no child) with its win rate and principal variation.

        Time is counted from ``begun`` (when :meth:`search` was called: setting up the
        tree and the pass check use the clock too), and a batch of simulations is never
        larger than the time left lets it be at the speed measured so far, so a clock is
        not overrun by the last batch.
        """
        budget = self.time_manager.budget(limit, [1.0] * moves_left(board))
        seconds = budget.optimum
        # on a clock, a search whose best move is in doubt at the optimum goes on, up to
        # ``extend`` times it (within the maximum)
        longest = min(budget.maximum, self.extend * seconds) \
            if limit.remaining is not None else seconds
        playouts = limit.nodes
        if playouts is None and math.isinf(seconds) and not limit.infinite:
            playouts = self.playouts
        self._root_for(board, no_pass=cleanup)
        assert self._tree is not None
        trees = [self._tree, *self._helpers]
        params = self._params(board, cleanup)
        history = board.history_keys()
        side_key = np.uint64(board.side_key())
        weights = F.policy_weights(self.policy, self.local_weight)
        g, s = board._g, board._s

        def simulate(k: int, n: int) -> None:
            # tree k draws from streams of its own: seed + k (the kernel releases the GIL)
            search_kernel(g, s, trees[k], n, np.uint64(self.seed + k), self._counter, params,
                          history, side_key, self._gammas, self._dictionary, weights,
                          trees[k].replies if self.replies else K.NO_REPLIES)

        start = time.perf_counter()
        reported = start
        deadline = seconds
        done = 0
        batch = 64
        stop = self.stop_signal
        with ThreadPoolExecutor(len(trees) - 1) if len(trees) > 1 else nullcontext() as pool:
            while not stop.is_set():
                n = batch if playouts is None else min(batch, playouts - done)
                if n <= 0:
                    break
                if done and math.isfinite(seconds):
                    rate = done / max(time.perf_counter() - start, 1e-6)
                    left = deadline - (time.perf_counter() - begun)
                    n = min(n, max(8, int(rate * left)))
                # each thread runs a share of the batch in its own tree
                shares = [n // len(trees) + (k < n % len(trees)) for k in range(len(trees))]
                others = [pool.submit(simulate, k, shares[k])
                          for k in range(1, len(trees)) if shares[k]] if pool else []
                simulate(0, shares[0])
                for other in others:
                    other.result()
                self._counter += max(shares)
                done += n
                now = time.perf_counter()
                if now - begun >= deadline:
                    if deadline < longest and self._unsettled():
                        deadline = longest
                    else:
                        break
                elif longest > seconds and deadline == seconds and self._decided(
                        done / max(now - start, 1e-6) * (deadline - (now - begun))):
                    break
                if on_info is not None and now - reported >= 1.0:
                    reported = now
                    on_info(self._result(board, done, now - start).info())
                if batch < 1024 * len(trees):
                    batch *= 2
        result = self._result(board, done, time.perf_counter() - start)
        if playouts is not None and done >= playouts:
            result.ended = End.COMPLETED
        else:
            result.ended = End.STOPPED if stop.is_set() else End.TIME
        if on_info is not None:
            on_info(result.info())
        return result

    def _root_totals(self) -> dict[int, tuple[float, float, float]]:
        """Each root move's simulations (without the prior's visits), visits (with them)
        and wins, summed over the trees, in the first tree's order."""
        totals: dict[int, tuple[float, float, float]] = {}
        for t in (self._tree, *self._helpers):
            assert t is not None
            for ch in _children(t):
                move = int(t.move[ch])
                sims, visits, wins = totals.get(move, (0.0, 0.0, 0.0))
                totals[move] = (sims + float(t.visits[ch]) - self.prior,
                                visits + float(t.visits[ch]), wins + float(t.wins[ch]))
        return totals

    def _root_moves(self) -> list[tuple[float, float]]:
        """Each root move's simulations and win rate, most simulated first."""
        return sorted(((sims, wins / visits) for sims, visits, wins
                       in self._root_totals().values() if visits > 0), reverse=True)

    def _decided(self, simulations: float) -> bool:
        """Whether ``simulations`` more could not change the most simulated root move,
        and it is not in doubt (:meth:`_unsettled`: a move in doubt may be extended)."""
        rows = self._root_moves()
        return (len(rows) < 2 or rows[0][0] - rows[1][0] > simulations) \
            and not self._unsettled()

    def _unsettled(self) -> bool:
        """Whether the most simulated root move is in doubt: the next one has more than
        two thirds of its simulations, or a better win rate."""
        rows = self._root_moves()
        return len(rows) >= 2 and (3 * rows[1][0] > 2 * rows[0][0] or rows[1][1] > rows[0][1])

    def _result(self, board: Board, done: int, elapsed: float) -> SearchResult:
        """The most visited root move, its win rate and principal variation; with
        several trees, the visits and wins of each move are summed over them."""
        tree = self._tree
        assert tree is not None
        totals = self._root_totals()
        if not totals:
            return SearchResult(None, nodes=done, time=elapsed)
        move = max(totals, key=lambda m: totals[m][0])  # the first of equals, as argmax
        best = next((ch for ch in _children(tree) if int(tree.move[ch]) == move), -1)
        pv = self._pv(board, best) if best >= 0 else [Move.from_point(move, board.size)]
        _sims, visits, wins = totals[move]
        score = Score(wins / visits, Unit.WINRATE)
        return SearchResult(pv[0], score, pv, len(pv), done, elapsed)

    def _pv(self, board: Board, node: int) -> list[Move]:
        tree = self._tree
        assert tree is not None
        out = []
        for _ in range(8):
            out.append(Move.from_point(int(tree.move[node]), board.size))
            rows = _children(tree, node)
            if not rows:
                break
            node = rows.start + int(np.argmax(tree.visits[rows.start : rows.stop]))
        return out


def _children(tree: Tree, node: int | None = None) -> range:
    """The rows of ``node``'s children in ``tree`` (the root's by default)."""
    if node is None:
        node = int(tree.meta[T_ROOT])
    first = int(tree.first[node])
    return range(first, first + int(tree.nchildren[node]))


def ownership(board: Board, playouts: int = 200, seed: int = 0) -> np.ndarray:
    """Per point, the mean owner over ``playouts`` playouts: +1 black ... -1 white.

    A game ended by two passes is played on as if they had not been played, so the
    playouts judge its stones (else no playout would move and every stone would live).
    """
    own = np.zeros(board.points, np.float64)
    state = board._s
    if board.passes >= 2:
        state = K.copy_state(state)
        state[8][K.M_PASSES] = 0
    ownership_kernel(board._g, state, playouts, np.uint64(seed), 3 * board.points, own)
    return own / max(playouts, 1)


#: a stone is dead when the mean ownership of its point leans this far to the other side
#: (light playouts kill live groups often, so clear cases sit near 0.4 rather than 1)
DEAD_THRESHOLD = 0.3


def dead_stones(board: Board, playouts: int = 400, seed: int = 0) -> list[int]:
    """Stones whose points end owned by the other colour in most playouts."""
    own = ownership(board, playouts, seed)
    dead = []
    for p in board.stones(BLACK):
        if own[p] < -DEAD_THRESHOLD:
            dead.append(p)
    for p in board.stones(WHITE):
        if own[p] > DEAD_THRESHOLD:
            dead.append(p)
    return sorted(dead)


def final_score(board: Board, playouts: int = 400, seed: int = 0) -> float:
    """Area score (black minus white, komi included) after removing dead stones."""
    dead = set(dead_stones(board, playouts, seed))
    size = board.size
    # the kernels' colours: 1 black, 2 white
    grid = [0 if p in dead else int(c) for p, c in enumerate(board._s[0])]
    score = grid.count(1) - grid.count(2)
    seen = [False] * board.points
    for p0 in range(board.points):
        if grid[p0] or seen[p0]:
            continue
        stack, region, touch = [p0], 0, 0
        seen[p0] = True
        while stack:
            p = stack.pop()
            region += 1
            r, c = divmod(p, size)
            for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if 0 <= rr < size and 0 <= cc < size:
                    q = rr * size + cc
                    if grid[q]:
                        touch |= grid[q]
                    elif not seen[q]:
                        seen[q] = True
                        stack.append(q)
        if touch == 1:
            score += region
        elif touch == 2:
            score -= region
    return score - board.komi
