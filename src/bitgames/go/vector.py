"""Go for batched learning: many games stepped in one compiled call.

The kernels behind :class:`bitgames.env.VectorGame` for ``"go"``. A batch holds the
state of :mod:`bitgames.go.kernels` for every game, each array with the game as its
first index (``batch = (color, root, nst, stones, libs, bits, empties, epos, meta,
hsh)``, as :data:`~bitgames.go.kernels.State` with one more dimension in front), and the
history of each game's positions, for superko. :func:`step_batch` plays one move in
every game with the board kernels on all cores (``prange``), on the game's slices of the
batch. It calls :func:`~bitgames.go.kernels.play` and
:func:`~bitgames.go.kernels.is_legal` inlined (:data:`play` and :data:`is_legal` here
are the same functions compiled again with ``inline="always"``): as plain calls, their
two tuples of sixteen arrays cost more than the move itself (366 against 169 ns a random
move, measured).

Actions are points ``0 .. size*size - 1`` and ``size*size`` for the pass
(:mod:`bitgames.env.codecs`); ``-1`` asks for a uniformly random legal action, the pass
included: the kernel draws from the game's empty points and the pass without
replacement until the draw is legal (:func:`_draw`), so it tests a few points instead of
all of them. The rules are those of :class:`bitgames.go.board.Rules`: simple ko, or
positional or situational superko (``superko`` and ``side_key``), with or without
multi-stone suicide; the game ends after two passes in a row and is scored by area
(Tromp-Taylor, all stones alive, minus ``komi``) as :meth:`bitgames.go.board.Board.score`.

**Superko.** ``history[i, k]`` is the key of game ``i``'s position after ``k`` moves
(the stones' Zobrist hash, XORed with ``side_key`` when White is to move), and
``counts[i, n]`` ORs ``1 << (key % 64)`` over the positions it has seen with ``n``
stones. A move that is not a suicide makes a position of one stone more than now, less
the stones it captures: when the new key's bit is not in ``counts`` for that number of
stones, no earlier position can equal it, and the test is over without reading the
history. A move that captures nothing has the key of the hash XOR the stone's key. Only
the suicides of Tromp-Taylor rules and the rare filter hits scan the history.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import prange

from bitgames.core import jit
from bitgames.core.bits import ctz
from bitgames.core.jit import njit, register_warmup
from bitgames.core.rng import below_at
from bitgames.go import kernels as K

U = np.uint64
RANDOM = -1
#: what :func:`_move` reports
GOING, PASSED_OUT, ILLEGAL, TRUNCATED = 0, 1, 2, 3

#: the board kernels compiled again to be inlined (see the module docstring; not cached
#: on their own: only their callers' compiled code is)
play = jit.njit(nogil=True, inline="always", _nrt=False, cache=False)(K.play.py_func)
is_legal = jit.njit(nogil=True, inline="always", _nrt=False, cache=False)(K.is_legal.py_func)


def new_batch(size: int, n: int) -> tuple[np.ndarray, ...]:
    """The state arrays of ``n`` games on a ``size`` board (every game empty)."""
    start = K.new_state(size)
    return tuple(np.repeat(a[None], n, axis=0) for a in start)


@njit(nogil=True, inline="always")
def _game(b: Any, i: int) -> Any:
    """Game ``i``'s state: the tuple :mod:`bitgames.go.kernels` works on (views)."""
    color, root, nst, stones, libs, bits, empties, epos, meta, hsh = b
    return (color[i], root[i], nst[i], stones[i], libs[i], bits[i], empties[i], epos[i],
            meta[i], hsh[i])


@njit(nogil=True, inline="always")
def _key(h: np.uint64, to_move: int, side_key: np.uint64) -> np.uint64:
    return h ^ side_key if to_move == K.WHITE else h


@njit(nogil=True, inline="always")
def _in_history(history: np.ndarray, i: int, n: int, key: np.uint64) -> bool:
    found = False
    for k in range(n):
        if history[i, k] == key:
            found = True
            break
    return found


@njit(nogil=True, inline="always")
def _new_position(g: Any, s: Any, history: np.ndarray, counts: np.ndarray, i: int, p: int,
                  c: int, suicide: bool, side_key: np.uint64) -> bool:
    """Whether the legal move ``c`` at ``p`` makes a position game ``i`` has not seen."""
    nbr, nnbr, diag, ndiag, nbrmask, zob = g
    color, root, nst, stones, libs, bits, empties, epos, meta, hsh = s
    open_ = False
    taken = 0  # opponent stones the move captures
    for j in range(nnbr[p]):
        q = nbr[p, j]
        cq = color[q]
        if cq == 0:
            open_ = True
        elif cq != c and K.libcount(libs, root[q]) == 1:
            r = root[q]
            first = True  # the first neighbour of this block
            for k in range(j):
                if color[nbr[p, k]] == cq and root[nbr[p, k]] == r:
                    first = False
            if first:
                taken += nst[r]
    moves = np.int64(meta[K.M_MOVES]) + 1
    fresh = False
    if taken > 0 or open_ or not suicide:  # not a suicide: one stone more, ``taken`` fewer
        if taken == 0:
            h = hsh[0] ^ zob[p, c]
        else:
            h = K.hash_after(g, s, p, c)
        key = _key(h, 3 - c, side_key)
        stones_after = color.shape[0] - np.int64(meta[K.M_NEMPTY]) + 1 - taken
        fresh = (counts[i, stones_after] >> (key & U(63))) & U(1) == U(0)
    else:
        key = _key(K.hash_after(g, s, p, c), 3 - c, side_key)
    return fresh or not _in_history(history, i, moves, key)


@njit(nogil=True, inline="always")
def _remember(s: Any, history: np.ndarray, counts: np.ndarray, i: int,
              side_key: np.uint64) -> None:
    """Record game ``i``'s position (after its last move) in its history."""
    color, root, nst, stones, libs, bits, empties, epos, meta, hsh = s
    key = _key(hsh[0], np.int64(meta[K.M_TOMOVE]), side_key)
    history[i, meta[K.M_MOVES]] = key
    counts[i, color.shape[0] - meta[K.M_NEMPTY]] |= U(1) << (key & U(63))


@njit(nogil=True, inline="always")
def _legal(g: Any, s: Any, history: np.ndarray, counts: np.ndarray, i: int, p: int, c: int,
           suicide: bool, superko: bool, side_key: np.uint64) -> bool:
    """Whether colour ``c`` (to move) may play point ``p`` of game ``i``."""
    ok = is_legal(g, s, p, c, suicide)
    if ok and superko:
        ok = _new_position(g, s, history, counts, i, p, c, suicide, side_key)
    return ok


@njit(nogil=True, inline="always")
def _draw(g: Any, s: Any, history: np.ndarray, counts: np.ndarray, rng: np.ndarray, i: int,
          c: int, suicide: bool, superko: bool, side_key: np.uint64) -> int:
    """A uniformly random legal action of game ``i``: a point, or -1 for the pass.

    The empty points and the pass are drawn without replacement until the draw is legal
    (the pass always is); in a uniformly random order the first legal action is uniform
    over the legal ones. A rejected point is swapped behind the ones left, and the list
    of empty points stays a list of them (``epos`` follows)."""
    color, root, nst, stones, libs, bits, empties, epos, meta, hsh = s
    left = np.int64(meta[K.M_NEMPTY])
    choice = -1
    while left >= 0:
        j = below_at(rng, i, left + 1)
        if j == left:
            break
        p = np.int64(empties[j])
        if _legal(g, s, history, counts, i, p, c, suicide, superko, side_key):
            choice = p
            break
        left -= 1
        last = empties[left]
        empties[j] = last
        empties[left] = p
        epos[last] = j
        epos[p] = left
    return choice


@njit(nogil=True, inline="always")
def _move(g: Any, s: Any, history: np.ndarray, counts: np.ndarray, rng: np.ndarray, i: int,
          a: int, suicide: bool, superko: bool, side_key: np.uint64, max_plies: int) -> int:
    """Play action ``a`` in game ``i`` (state ``s``); what happened (``GOING`` ...
    ``TRUNCATED``)."""
    meta = s[8]
    c = np.int64(meta[K.M_TOMOVE])
    npts = s[0].shape[0]
    what = GOING
    p = -1
    if a == RANDOM:
        p = _draw(g, s, history, counts, rng, i, c, suicide, superko, side_key)
    elif a == npts:
        p = -1
    elif 0 <= a < npts and _legal(g, s, history, counts, i, a, c, suicide, superko,
                                  side_key):
        p = a
    else:
        what = ILLEGAL
    if what == GOING:
        play(g, s, p, c)
        if superko:
            _remember(s, history, counts, i, side_key)
        if meta[K.M_PASSES] >= 2:
            what = PASSED_OUT
        elif meta[K.M_MOVES] >= max_plies:
            what = TRUNCATED
    return what


@njit(nogil=True, inline="always")
def _restart(b: Any, start: Any, history: np.ndarray, counts: np.ndarray, i: int) -> None:
    """Game ``i`` back at the start position ``start`` (a state), its history emptied.

    Only the arrays valid at empty points are copied: ``root``, ``nst``, ``stones`` and
    ``libs`` are read only at stones, and :func:`~bitgames.go.kernels.play` sets them
    for each stone it places."""
    s = _game(b, i)
    for k in range(s[0].shape[0]):
        s[0][k] = start[0][k]
        s[6][k] = start[6][k]
        s[7][k] = start[7][k]
    for k in range(3):
        for w in range(s[5].shape[1]):
            s[5][k, w] = start[5][k, w]
    for k in range(s[8].shape[0]):
        s[8][k] = start[8][k]
    s[9][0] = start[9][0]
    for k in range(counts.shape[1]):
        counts[i, k] = U(0)
    _remember(s, history, counts, i, U(0))  # the empty board, Black to move: key 0


@njit(nogil=True, inline="always")
def _observe(g: Any, b: Any, history: np.ndarray, counts: np.ndarray, i: int, suicide: bool,
             superko: bool, side_key: np.uint64, masks: bool, obs: np.ndarray,
             mask: np.ndarray) -> None:
    """Write game ``i``'s observation (mover's stones, opponent's, the ko point as
    bitmaps) and, with ``masks``, its legal points as a bitmap."""
    s = _game(b, i)
    bits, empties, meta = s[5], s[6], s[8]
    c = np.int64(meta[K.M_TOMOVE])
    ko = meta[K.M_KO]
    for w in range(bits.shape[1]):
        obs[i, 0, w] = bits[c, w]
        obs[i, 1, w] = bits[3 - c, w]
        obs[i, 2, w] = U(0)
    if ko >= 0:
        obs[i, 2, ko >> 6] = U(1) << U(ko & 63)
    if masks:
        for w in range(bits.shape[1]):
            mask[i, w] = U(0)
        for j in range(meta[K.M_NEMPTY]):
            p = np.int64(empties[j])
            if _legal(g, s, history, counts, i, p, c, suicide, superko, side_key):
                mask[i, p >> 6] |= U(1) << U(p & 63)


@njit(nogil=True, _nrt=False)
def _step_game(g: Any, b: Any, start: Any, past: Any, rng: np.ndarray, rules: Any,
               out: Any, i: int, a: int) -> None:
    """:func:`step_batch` for game ``i``: one call per game, everything in it inlined."""
    history, counts, mark, stack = past
    suicide, superko, side_key, komi, max_plies, masks = rules
    turn, played, obs, mask, reward, done, truncated = out
    s = _game(b, i)
    meta = s[8]
    mover = np.int64(meta[K.M_TOMOVE])
    what = _move(g, s, history, counts, rng, i, a, suicide, superko, side_key, max_plies)
    npts = s[0].shape[0]
    played[i] = a if what == ILLEGAL else (npts if meta[K.M_LAST] < 0 else meta[K.M_LAST])
    r = 0.0
    if what == ILLEGAL:
        r = -1.0
    elif what == PASSED_OUT:
        for p in range(npts):
            mark[i, p] = 0
        score = K.area_into(g, s, mark[i], stack[i]) - komi  # Black's lead
        r = 0.0 if score == 0 else (1.0 if (score > 0) == (mover == K.BLACK) else -1.0)
    reward[i] = r
    done[i] = what != GOING
    truncated[i] = what == TRUNCATED
    if what != GOING:
        _restart(b, start, history, counts, i)
    turn[i] = meta[K.M_TOMOVE] - 1
    _observe(g, b, history, counts, i, suicide, superko, side_key, masks, obs, mask)


@njit(nogil=True, parallel=True)
def step_batch(g: Any, b: Any, start: Any, past: Any, rng: np.ndarray, rules: Any,
               actions: np.ndarray, out: Any) -> None:
    """One move in every game (``actions[i]``, ``RANDOM``: a random legal one).

    ``past = (history, counts, mark, stack)`` (the histories, and scratch space for the
    score); ``rules = (suicide, superko, side_key, komi, max_plies, masks)``; ``out =
    (turn, played, obs, mask, reward, done, truncated)``, written for every game. An
    illegal action loses at once (reward -1); a finished or truncated game restarts."""
    for i in prange(b[0].shape[0]):
        _step_game(g, b, start, past, rng, rules, out, i, actions[i])


@njit(nogil=True, parallel=True)
def observe_all(g: Any, b: Any, past: Any, rules: Any, obs: np.ndarray,
                mask: np.ndarray) -> None:
    """Every game's observation and legal points (as :func:`step_batch` writes them with
    ``masks``)."""
    history, counts, mark, stack = past
    suicide, superko, side_key, komi, max_plies, masks = rules
    for i in prange(b[0].shape[0]):
        _observe(g, b, history, counts, i, suicide, superko, side_key, True, obs, mask)


@njit(nogil=True, parallel=True)
def restart_all(b: Any, start: Any, past: Any) -> None:
    """Every game at the start."""
    history, counts, mark, stack = past
    for i in prange(b[0].shape[0]):
        _restart(b, start, history, counts, i)


@njit(nogil=True, parallel=True)
def planes(obs: np.ndarray, turn: np.ndarray, size: int, out: np.ndarray) -> None:
    """Expand the bitmaps ``obs[i] = (mover, opponent, ko)`` into 0/1 planes
    ``out[i, row, column, 0..2]`` (row 0 at the top, as :mod:`bitgames.env.codecs`), and
    plane 3: ones when Black moves (``turn[i] == 0``)."""
    for i in prange(obs.shape[0]):
        for plane in range(3):
            for w in range(obs.shape[2]):
                bits = obs[i, plane, w]
                while bits != U(0):
                    p = w * 64 + ctz(bits)
                    bits &= bits - U(1)
                    out[i, size - 1 - p // size, p % size, plane] = 1
        black = 1 if turn[i] == 0 else 0
        for r in range(size):
            for col in range(size):
                out[i, r, col, 3] = black


def new_past(size: int, n: int, max_plies: int) -> tuple[np.ndarray, ...]:
    """The empty histories of ``n`` games of at most ``max_plies`` plies, and the scratch
    space of their scores."""
    points = size * size
    return (np.zeros((n, max_plies + 1), np.uint64), np.zeros((n, points + 1), np.uint64),
            np.zeros((n, points), np.int8), np.zeros((n, points), np.int32))


@register_warmup("go", "vector")
def _warm() -> None:
    n, size = 2, 9
    g = K.geometry(size)
    start = K.new_state(size)
    b = new_batch(size, n)
    nw = start[5].shape[1]
    past = new_past(size, n, 40)
    rules = (False, True, U(1), 7.5, 40, True)
    restart_all(b, start, past)
    obs = np.zeros((n, 3, nw), np.uint64)
    mask = np.zeros((n, nw), np.uint64)
    turn = np.zeros(n, np.int8)
    out = (turn, np.zeros(n, np.int64), obs, mask, np.zeros(n, np.float32),
           np.zeros(n, np.bool_), np.zeros(n, np.bool_))
    step_batch(g, b, start, past, np.ones(n, np.uint64), rules, np.full(n, RANDOM), out)
    observe_all(g, b, past, rules, obs, mask)
    planes(obs, turn, size, np.zeros((n, size, size, 4), np.int8))
