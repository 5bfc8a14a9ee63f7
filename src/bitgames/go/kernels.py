"""Go board kernels: bitmaps of points, per-block stone and liberty bitmaps, playouts.

Points are numbered ``p = row * size + col`` (row 0 at the bottom, GTP ``A1`` is point 0)
and a bitmap of points is ``NW = ceil(size*size / 64)`` ``uint64`` words (2 for 9x9, 3 for
13x13, 6 for 19x19). Following the seed (de Maricourt, computer-go list, 2006) every block
of connected stones keeps, under its *root* point, a bitmap of its stones and a bitmap of
its liberties; precomputed single-point and neighbour bitmaps initialise a new block; a
block merges into the larger neighbour on connection (its stones are relabelled to the
new root); a block whose liberty bitmap becomes empty is captured.

A *geometry* ``G`` is a tuple of read-only arrays for one board size (built by
:func:`geometry`); a *state* ``S`` is a tuple of mutable arrays (built by
:func:`new_state`), copied with :func:`copy_state`. Both are plain NumPy arrays, so the
kernels are cached by numba and one compilation serves every board size.

State layout (all indexed by point):

``color`` int8 (0 empty, 1 black, 2 white) · ``root`` uint32 (block root, valid at
stones) · ``nst`` int32 (stones in the block, valid at roots) · ``stones``/``libs``
uint64[NP, NW] (valid at roots) · ``bits`` uint64[3, NW] (empty, black, white bitmaps) ·
``empties``/``epos`` uint32 (the list of empty points and each point's index in it) ·
``meta`` int64 (see the ``M_*`` constants) · ``hsh`` uint64[1] (Zobrist hash of the stones).

Point numbers stored in arrays (``root``, ``empties``, ``epos`` and the geometry's
neighbour lists) are unsigned: numba indexes with a signed integer only after testing it
for a negative (wrap-around) value, and that test on every such load cost about 15 % of
the playout time.

The kernels that change or test a position without allocating (:func:`play` and the
block helpers it calls, :func:`is_legal`, :func:`is_eye`, :func:`hash_after`, and the
playout's move loop) are compiled without numba's reference counting (``_nrt=False``):
with it, every call paid atomic increments and decrements on each array of the geometry
and state tuples it unpacks, which made the tree part of an MCTS simulation 1.7 times
slower (``docs/PERFORMANCE.md``).

Playouts (:func:`playout`) use simple ko only, never fill the mover's own single-point
eye (the Brown/libego eye rule: all orthogonal neighbours own, and opponent diagonals plus
one for any off-board diagonal fewer than two), forbid suicide, stop after two passes or
a move cap, and return the Tromp-Taylor area difference (black minus white, no komi).

The random move is uniform over the legal non-eye moves: the kernel draws points from the
empty list *without replacement* (a partial Fisher-Yates shuffle of the list, which stays
a list of the empty points) until one passes the tests. In a uniformly random order of the
empty points the first acceptable one is uniformly distributed over the acceptable ones,
whatever their number; ``tests/go/test_kernels.py`` checks this with a chi-square test.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import prange

from bitgames.core import jit
from bitgames.core.bits import ctz, popcount
from bitgames.core.rng import below, next_u64, stream_seed
from bitgames.core.rng import new_state as rng_state
from bitgames.go import patterns

U = np.uint64

EMPTY, BLACK, WHITE = 0, 1, 2

M_NEMPTY = 0  #: number of empty points (length of the empty list)
M_KO = 1  #: simple-ko point forbidden to the player to move, or -1
M_TOMOVE = 2  #: colour to move (1 black, 2 white)
M_PASSES = 3  #: consecutive passes
M_CAPS = 4  #: stones captured by black (index 4) and by white (index 5)
M_MOVES = 6  #: moves played (passes included)
M_LAST = 7  #: last move (point, -1 for pass, -2 at the start)
M_LAST2 = 8  #: the move before it (the same codes)
M_SIZE = 9

PASS = -1

#: playout policies: LIGHT is the uniform light playout; CAPTURE first answers the
#: opponent's last move by capturing its block if that is in atari, else by extending a
#: block of ours next to it that is in atari (when the extension has two empty
#: neighbours), and otherwise plays the uniform light move; TACTICS is CAPTURE where the
#: extension must leave two liberties (counted with :func:`_libs_after`) and the random
#: move never puts a block of two or more stones into atari; PATTERNS is TACTICS that
#: saves a block of ours in atari next to the last move by capturing an enemy block in
#: atari next to it, when there is one, before it tries to extend, and, when no atari
#: needs an answer, first plays one of the empty points next to the last move (its eight
#: neighbours) whose 3x3 shape matches a MoGo pattern (:mod:`bitgames.go.patterns`),
#: chosen uniformly among those that pass the tests of the random move; LEARNED is
#: PATTERNS whose shape move is drawn by learned strengths instead: each empty neighbour
#: ``q`` of the last move weighs ``weights[k, code]`` (``k`` 0 for the four points next to
#: it, 1 for the four diagonal ones, ``code`` the 3x3 neighbourhood of ``q`` seen from the
#: mover: 1 its stones, 2 the opponent's), every empty point of the board weighs 1 for the
#: random move, and a draw that falls on the random move, or on no playable neighbour,
#: plays it (:func:`bitgames.go.features.playout_weights` makes the weights); LIBERTIES is
#: LEARNED that, when no atari needs an answer, also reads blocks of two liberties next to
#: the last move (:func:`_two_liberty_move`): it ataris the last move's block when that
#: leaves it no escape, else gives a block of ours two liberties more
LIGHT, CAPTURE, TACTICS, PATTERNS, LEARNED, LIBERTIES = 0, 1, 2, 3, 4, 5

#: the policies by name (command-line options)
POLICIES = {"light": LIGHT, "capture": CAPTURE, "tactics": TACTICS, "patterns": PATTERNS,
            "learned": LEARNED, "liberties": LIBERTIES}

#: the ``weights`` of the playout kernels for the policies that read none (read-only,
#: like the weights of :func:`bitgames.go.features.playout_weights`: one compiled type)
NO_WEIGHTS = np.zeros((2, 0), np.int64)
NO_WEIGHTS.flags.writeable = False
#: no reply table: the playouts play no last good replies (see :func:`playout`)
NO_REPLIES = np.zeros((0, 0), np.int32)

#: 3x3 pattern table (:func:`bitgames.go.patterns.table`), a constant of the kernels
PAT3 = patterns.table()

Geometry = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
State = tuple[
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
]

_GEOMETRIES: dict[int, Geometry] = {}

ZOBRIST_SEED = 0x60_60_60_60


def geometry(size: int) -> Geometry:
    """Precomputed tables of a ``size`` x ``size`` board (2 <= size <= 25), cached.

    Returns ``(nbr, nnbr, diag, ndiag, nbrmask, zob)``: neighbour and diagonal point
    lists (``uint32``, 0 padded) with their counts, the neighbour bitmap of every point,
    and Zobrist keys ``zob[p, colour]``.

    >>> nbr, nnbr, diag, ndiag, nbrmask, zob = geometry(9)
    >>> int(nnbr[0]), sorted(int(q) for q in nbr[40, :4])
    (2, [31, 39, 41, 49])
    >>> nbrmask.shape
    (81, 2)
    """
    if size in _GEOMETRIES:
        return _GEOMETRIES[size]
    if not 2 <= size <= 25:
        raise ValueError(f"board size must be between 2 and 25, got {size}")
    npts = size * size
    nw = (npts + 63) // 64
    nbr = np.zeros((npts, 4), np.uint32)
    nnbr = np.zeros(npts, np.int32)
    diag = np.zeros((npts, 4), np.uint32)
    ndiag = np.zeros(npts, np.int32)
    nbrmask = np.zeros((npts, nw), np.uint64)
    for p in range(npts):
        r, c = divmod(p, size)
        for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < size and 0 <= cc < size:
                q = rr * size + cc
                nbr[p, nnbr[p]] = q
                nnbr[p] += 1
                nbrmask[p, q >> 6] |= U(1 << (q & 63))
        for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < size and 0 <= cc < size:
                diag[p, ndiag[p]] = rr * size + cc
                ndiag[p] += 1
    zob = np.zeros((npts, 3), np.uint64)
    st = rng_state(ZOBRIST_SEED + size)
    for p in range(npts):
        zob[p, 1] = next_u64(st)
        zob[p, 2] = next_u64(st)
    g: Geometry = (nbr, nnbr, diag, ndiag, nbrmask, zob)
    for a in g:
        a.flags.writeable = False
    _GEOMETRIES[size] = g
    return g


def new_state(size: int) -> State:
    """The state of an empty ``size`` x ``size`` board, black to move."""
    npts = size * size
    nw = (npts + 63) // 64
    bits = np.zeros((3, nw), np.uint64)
    for p in range(npts):
        bits[0, p >> 6] |= U(1 << (p & 63))
    meta = np.zeros(M_SIZE, np.int64)
    meta[M_NEMPTY] = npts
    meta[M_KO] = -1
    meta[M_TOMOVE] = BLACK
    meta[M_LAST] = -2
    meta[M_LAST2] = -2
    return (
        np.zeros(npts, np.int8),
        np.zeros(npts, np.uint32),
        np.zeros(npts, np.int32),
        np.zeros((npts, nw), np.uint64),
        np.zeros((npts, nw), np.uint64),
        bits,
        np.arange(npts, dtype=np.uint32),
        np.arange(npts, dtype=np.uint32),
        meta,
        np.zeros(1, np.uint64),
    )


def copy_state(s: State) -> State:
    """An independent copy of a state."""
    return tuple(a.copy() for a in s)


# --------------------------------------------------------------------------- helpers


@jit.njit(nogil=True)
def copy_state_kernel(src: Any) -> Any:
    """:func:`copy_state` inside kernels (a generator expression does not compile)."""
    return (
        src[0].copy(),
        src[1].copy(),
        src[2].copy(),
        src[3].copy(),
        src[4].copy(),
        src[5].copy(),
        src[6].copy(),
        src[7].copy(),
        src[8].copy(),
        src[9].copy(),
    )


@jit.njit(nogil=True)
def _copy_into(dst: Any, src: Any) -> None:
    dst[0][:] = src[0]
    dst[1][:] = src[1]
    dst[2][:] = src[2]
    dst[3][:, :] = src[3]
    dst[4][:, :] = src[4]
    dst[5][:, :] = src[5]
    dst[6][:] = src[6]
    dst[7][:] = src[7]
    dst[8][:] = src[8]
    dst[9][:] = src[9]


@jit.njit(nogil=True)
def libcount(libs: np.ndarray, r: int) -> int:
    """Number of liberties of the block rooted at ``r``."""
    n = 0
    for k in range(libs.shape[1]):
        n += popcount(libs[r, k])
    return n


# The helpers below are shared by :func:`play` and the playout loop of :func:`playout`,
# which keeps the empty count and the hash in local variables: so they take and return
# those values instead of reading ``meta`` and ``hsh``. numba inlines them (a real call
# costs the playout its speed, see :func:`_stone`), and none returns from inside a loop.


@jit.njit(nogil=True, inline="always")
def _no_libs(libs: np.ndarray, r: int) -> bool:
    """Whether the block rooted at ``r`` has no liberty."""
    any_lib = U(0)
    for k in range(libs.shape[1]):
        any_lib |= libs[r, k]
    return any_lib == U(0)


@jit.njit(nogil=True, inline="always")
def _leave_empties(empties: np.ndarray, epos: np.ndarray, nempty: int, p: int) -> int:
    """Take ``p`` out of the first ``nempty`` entries of the empty list; the new count."""
    n = nempty - 1
    i = epos[p]
    q = empties[n]
    empties[i] = q
    epos[q] = i
    empties[n] = p
    epos[p] = n
    return n


@jit.njit(nogil=True, inline="always")
def _join_empties(empties: np.ndarray, epos: np.ndarray, nempty: int, p: int) -> int:
    """Put ``p`` back after the first ``nempty`` entries of the empty list; the new count."""
    i = epos[p]
    q = empties[nempty]
    empties[i] = q
    epos[q] = i
    empties[nempty] = p
    epos[p] = nempty
    return nempty + 1


@jit.njit(nogil=True, inline="always")
def _take_block(g: Any, s: Any, r: int, col: int, nempty: int,
                h: np.uint64) -> tuple[int, np.uint64]:
    """Remove the block of colour ``col`` rooted at ``r`` from the board: its points
    empty again and liberties of the blocks around them. Takes and returns the empty
    count and the hash."""
    nbr, nnbr, diag, ndiag, nbrmask, zob = g
    color, root, nst, stones, libs, bits, empties, epos, meta, hsh = s
    other = 3 - col
    for k in range(stones.shape[1]):
        word = stones[r, k]
        while word != U(0):
            b = ctz(word)
            word &= word - U(1)
            m = U(1) << U(b)
            pt = k * 64 + b
            color[pt] = 0
            bits[col, k] &= ~m
            bits[0, k] |= m
            h ^= zob[pt, col]
            nempty = _join_empties(empties, epos, nempty, pt)
            for i in range(nnbr[pt]):
                t = nbr[pt, i]
                if color[t] == other:
                    libs[root[t], k] |= m
    return nempty, h


@jit.njit(nogil=True, inline="always")
def _merge(
    root: np.ndarray, nst: np.ndarray, stones: np.ndarray, libs: np.ndarray, r: int, rq: int
) -> int:
    """Join the blocks rooted at ``r`` and ``rq``, the smaller into the larger; the root
    of the joined block."""
    big = r
    small = rq
    if nst[rq] > nst[r]:
        big = rq
        small = r
    for k in range(stones.shape[1]):
        word = stones[small, k]
        stones[big, k] |= word
        libs[big, k] |= libs[small, k]
        while word != U(0):
            b = ctz(word)
            word &= word - U(1)
            root[k * 64 + b] = big
    nst[big] += nst[small]
    return big


@jit.njit(nogil=True, inline="always")
def _place(g: Any, s: Any, p: int, c: int, nempty: int,
           h: np.uint64) -> tuple[int, int, int, int, np.uint64]:
    """Play colour ``c`` on the empty point ``p``: the stone, merges with its own blocks,
    captures of the opponent's blocks left without liberties. Takes the empty count and
    the hash; returns the root of the stone's block, the stones captured, the simple-ko
    point (-1 if none), the new empty count and the new hash. The caller handles
    suicide."""
    nbr, nnbr, diag, ndiag, nbrmask, zob = g
    color, root, nst, stones, libs, bits, empties, epos, meta, hsh = s
    opp = 3 - c
    nempty = _leave_empties(empties, epos, nempty, p)
    h ^= zob[p, c]
    _stone(nbr, nnbr, nbrmask, color, root, nst, stones, libs, bits, p, c)
    nn = nnbr[p]
    r = p
    for i in range(nn):
        q = nbr[p, i]
        if color[q] == c:
            rq = np.int64(root[q])
            if rq != r:
                r = _merge(root, nst, stones, libs, r, rq)
    captured = 0
    last_cap = -1
    for i in range(nn):
        q = nbr[p, i]
        if color[q] == opp:
            rq = np.int64(root[q])
            if _no_libs(libs, rq):
                captured += nst[rq]
                last_cap = q
                nempty, h = _take_block(g, s, rq, opp, nempty, h)
    ko = -1
    if captured == 1 and nst[r] == 1 and libcount(libs, r) == 1:
        ko = last_cap
    return r, captured, ko, nempty, h


@jit.njit(nogil=True, inline="always")
def _stone(
    nbr: np.ndarray,
    nnbr: np.ndarray,
    nbrmask: np.ndarray,
    color: np.ndarray,
    root: np.ndarray,
    nst: np.ndarray,
    stones: np.ndarray,
    libs: np.ndarray,
    bits: np.ndarray,
    p: int,
    c: int,
) -> None:
    """Put a lone stone of colour ``c`` on the empty point ``p``: its colour and bitmaps,
    a one-stone block rooted at ``p`` with its empty neighbours as liberties, and ``p`` no
    longer a liberty of the neighbouring blocks (the empty list and hash are the caller's).

    Shared by :func:`play` and :func:`playout`; numba inlines it (a real call would
    reference-count its nine arrays on every move). It has no early return: inlined helpers
    that return from inside a loop kept their reference counting and made the playout
    two to four times slower.
    """
    w = p >> 6
    m = U(1) << U(p & 63)
    color[p] = c
    bits[0, w] &= ~m
    bits[c, w] |= m
    root[p] = p
    nst[p] = 1
    for k in range(stones.shape[1]):
        stones[p, k] = U(0)
        libs[p, k] = nbrmask[p, k] & bits[0, k]
    stones[p, w] = m
    for i in range(nnbr[p]):
        q = nbr[p, i]
        if color[q] != 0:
            libs[root[q], w] &= ~m


@jit.njit(nogil=True, inline="always")
def _libs_after(
    nbr: np.ndarray,
    nnbr: np.ndarray,
    nbrmask: np.ndarray,
    color: np.ndarray,
    root: np.ndarray,
    nst: np.ndarray,
    libs: np.ndarray,
    bits: np.ndarray,
    tmp: np.ndarray,
    p: int,
    c: int,
) -> tuple[int, int, bool]:
    """What a stone of colour ``c`` on the empty point ``p`` would make, without playing
    it: ``(liberties, stones, captures)`` of its block, where ``captures`` says whether it
    takes an opponent block in atari (then the liberties are not counted exactly) and
    ``stones`` counts a neighbouring block once per contact. ``tmp`` is scratch space of
    one bitmap. No early return (see :func:`_stone`)."""
    w0 = p >> 6
    for k in range(tmp.shape[0]):
        tmp[k] = nbrmask[p, k] & bits[0, k]
    size = 1
    captures = False
    for i in range(nnbr[p]):
        q = nbr[p, i]
        cq = color[q]
        if cq == c:
            r = root[q]
            size += nst[r]
            for k in range(tmp.shape[0]):
                tmp[k] |= libs[r, k]
        elif cq != 0:
            captures |= libcount(libs, root[q]) == 1
    tmp[w0] &= ~(U(1) << U(p & 63))
    n = 0
    for k in range(tmp.shape[0]):
        n += popcount(tmp[k])
    return n, size, captures


@jit.njit(nogil=True, inline="always")
def _atari_liberty(libs: np.ndarray, r: int) -> int:
    """The only liberty of the block rooted at ``r`` when it is in atari, else -1. No early
    return (see :func:`_stone`)."""
    n = 0
    lib = -1
    for w in range(libs.shape[1]):
        n += popcount(libs[r, w])
        if lib < 0 and libs[r, w] != U(0):
            lib = w * 64 + ctz(libs[r, w])
    return lib if n == 1 else -1


@jit.njit(nogil=True, inline="always")
def _counter_capture(nbr: np.ndarray, nnbr: np.ndarray, color: np.ndarray, root: np.ndarray,
                     stones: np.ndarray, libs: np.ndarray, r: int, opp: int, ko: int) -> int:
    """The point that captures an enemy block (colour ``opp``) in atari next to the block
    rooted at ``r``, or -1: the capture gives that block liberties. The first such block
    found, its stones walked in bitmap order; a capture on the ko point ``ko`` does not
    count. No early return (see :func:`_stone`)."""
    p = -1
    for w in range(stones.shape[1]):
        word = stones[r, w]
        while word != U(0) and p < 0:
            st = w * 64 + ctz(word)
            word &= word - U(1)
            for t in range(nnbr[st]):
                u = nbr[st, t]
                if p < 0 and color[u] == opp:
                    lib = _atari_liberty(libs, root[u])
                    if lib != ko:
                        p = lib
    return p


@jit.njit(nogil=True, inline="always")
def _two_libs(libs: np.ndarray, r: int) -> tuple[int, int]:
    """The two lowest liberties of the block rooted at ``r`` (-1 where it has fewer). No
    early return (see :func:`_stone`)."""
    a = -1
    b = -1
    for w in range(libs.shape[1]):
        word = libs[r, w]
        while word != U(0) and b < 0:
            q = w * 64 + ctz(word)
            word &= word - U(1)
            if a < 0:
                a = q
            else:
                b = q
    return a, b


@jit.njit(nogil=True, inline="always")
def _two_liberty_move(g: Any, s: Any, tmp: np.ndarray, last: int, c: int, ko: int) -> int:
    """The LIBERTIES playouts' answer to the opponent's stone on ``last`` when blocks of two
    liberties touch it, or -1 (colour ``c`` to move, ``ko`` forbidden). First, when the
    last move's block has two liberties, atari it from the one that leaves it no escape:
    the block extending on its other liberty would have at most one, and captures nothing,
    and our stone keeps two liberties or captures. Else, for a block of ours next to the
    last move with two liberties, the liberty that gives it the most, if at least three.
    Every move passes :func:`_playable` (safe). No early return (see :func:`_stone`).
    """
    nbr, nnbr, diag, ndiag, nbrmask, zob = g
    color, root, nst, stones, libs, bits, empties, epos, meta, hsh = s
    opp = 3 - c
    p = -1
    rl = np.int64(root[last])
    if libcount(libs, rl) == 2:
        a, b = _two_libs(libs, rl)
        for k in range(2):
            x = a if k == 0 else b  # our atari
            y = b if k == 0 else a  # the block's escape
            if p < 0:
                esc, _, saved = _libs_after(nbr, nnbr, nbrmask, color, root, nst, libs, bits,
                                            tmp, y, opp)
                if not saved and esc <= 2:  # ``esc`` counts x, which our stone takes
                    n, _, takes = _libs_after(nbr, nnbr, nbrmask, color, root, nst, libs,
                                              bits, tmp, x, c)
                    if (takes or n >= 2) and _playable(g, s, tmp, x, c, ko, True):
                        p = x
    for j in range(nnbr[last]):
        q = nbr[last, j]
        if p < 0 and color[q] == c:
            rq = np.int64(root[q])
            if libcount(libs, rq) == 2:
                a, b = _two_libs(libs, rq)
                most = 2
                for k in range(2):
                    x = a if k == 0 else b
                    n, _, takes = _libs_after(nbr, nnbr, nbrmask, color, root, nst, libs,
                                              bits, tmp, x, c)
                    n = 3 if takes and n < 3 else n
                    if n > most and _playable(g, s, tmp, x, c, ko, True):
                        most = n
                        p = x
    return p


@jit.njit(nogil=True, inline="always")
def _playable(g: Any, s: Any, tmp: np.ndarray, p: int, c: int, ko: int, safe: bool) -> bool:
    """Whether the playouts may play colour ``c`` on the empty point ``p`` of state ``s``:
    legal under simple ko (``ko``), not the mover's own eye and, when ``safe``, not a
    self-atari of a block of two or more stones unless it captures. ``tmp`` is scratch
    space of one bitmap. No early return (see :func:`_stone`).
    """
    nbr, nnbr, diag, ndiag, nbrmask, zob = g
    color, root, nst, stones, libs, bits, empties, epos, meta, hsh = s
    nw = bits.shape[1]
    # an empty neighbour settles it (legal, no eye); otherwise an eye has only own
    # neighbours, and a legal move captures or joins a block of 2+ liberties
    emp = U(0)
    foreign = U(0)
    for w in range(nw):
        nm = nbrmask[p, w]
        emp |= nm & bits[0, w]
        foreign |= nm & ~bits[c, w]
    ok = p != ko
    if ok and emp == U(0):
        if foreign == U(0):
            bad = 0 if nnbr[p] == 4 else 1
            for j in range(ndiag[p]):
                if color[diag[p, j]] == 3 - c:
                    bad += 1
            ok = bad >= 2
        if ok:
            legal = False
            for j in range(nnbr[p]):
                r = root[nbr[p, j]]
                n = 0
                for w in range(nw):
                    n += popcount(libs[r, w])
                if n > 1 if color[nbr[p, j]] == c else n == 1:
                    legal = True
                    break
            ok = legal
    if ok and safe:
        n = 0
        for w in range(nw):
            n += popcount(nbrmask[p, w] & bits[0, w])
        if n < 2:
            n, size, takes = _libs_after(
                nbr, nnbr, nbrmask, color, root, nst, libs, bits, tmp, p, c
            )
            ok = takes or n >= 2 or size < 2
    return ok


@jit.njit(nogil=True, inline="always")
def _draw_playable(g: Any, s: Any, tmp: np.ndarray, pts: Any, n: int, pos: np.ndarray,
                   track: bool, rng: np.ndarray, c: int, ko: int, safe: bool) -> int:
    """A uniformly random point of ``pts[:n]`` that :func:`_playable` accepts, or -1:
    points are drawn without replacement and tested only when drawn. A rejected point
    is swapped behind the ones left; with ``track``, ``pos[q]`` (the index of each point
    ``q`` in ``pts``) follows the swaps."""
    while n > 0:
        i = below(rng, n)
        q = np.int64(pts[i])
        if _playable(g, s, tmp, q, c, ko, safe):
            return q
        n -= 1
        last = pts[n]
        pts[i] = last
        pts[n] = q
        if track:
            pos[last] = i
            pos[q] = n
    return -1


@jit.njit(nogil=True, inline="always")
def _draw_weighted(g: Any, s: Any, tmp: np.ndarray, shape: np.ndarray, n: int, rest: int,
                   rng: np.ndarray, c: int, ko: int, safe: bool) -> int:
    """A point of ``shape[:n]`` that :func:`_playable` accepts, drawn with probability its
    weight (``shape[8 + i]``) over the weights of the points not yet rejected plus
    ``rest``, or -1 when the draw falls on ``rest`` or no point is playable."""
    total = rest
    for i in range(n):
        total += shape[8 + i]
    while n > 0:
        u = below(rng, total)
        i = 0
        while i < n and u >= shape[8 + i]:
            u -= shape[8 + i]
            i += 1
        if i == n:
            return -1
        q = np.int64(shape[i])
        if _playable(g, s, tmp, q, c, ko, safe):
            return q
        total -= shape[8 + i]
        n -= 1
        shape[i] = shape[n]
        shape[8 + i] = shape[8 + n]
    return -1


@jit.njit(nogil=True, inline="always")
def _seen_by(code: int, c: int) -> int:
    """A 3x3 neighbourhood ``code`` (:func:`_pat3_code`) seen by colour ``c``: 1 its
    stones, 2 the opponent's (for white, the colours 1 and 2 of every cell swapped)."""
    if c == WHITE:
        x = (code ^ (code >> 1)) & 0x5555
        code ^= x | (x << 1)
    return code


@jit.njit(nogil=True, inline="always")
def _pat3_code(color: np.ndarray, size: int, p: int) -> int:
    """The 3x3 neighbourhood code of point ``p`` (:mod:`bitgames.go.patterns`)."""
    r0 = p // size
    c0 = p - r0 * size
    if 0 < r0 < size - 1 and 0 < c0 < size - 1:  # inside: no neighbour is off the board
        up = p - size
        down = p + size
        return (np.int64(color[up - 1]) | np.int64(color[up]) << 2
                | np.int64(color[up + 1]) << 4 | np.int64(color[p - 1]) << 6
                | np.int64(color[p + 1]) << 8 | np.int64(color[down - 1]) << 10
                | np.int64(color[down]) << 12 | np.int64(color[down + 1]) << 14)
    code = 0
    k = 0
    for dr in range(-1, 2):
        for dc in range(-1, 2):
            if dr != 0 or dc != 0:
                r = r0 + dr
                cc = c0 + dc
                v = 3
                if 0 <= r < size and 0 <= cc < size:
                    v = np.int64(color[r * size + cc])
                code |= v << (2 * k)
                k += 1
    return code


# --------------------------------------------------------------------------- moves


@jit.njit(nogil=True, _nrt=False)
def play(g: Any, s: Any, p: int, c: int) -> int:
    """Play colour ``c`` at point ``p`` (or pass when ``p`` < 0); the move must be legal.

    Captures opponent blocks left without liberties, then removes the mover's own block if
    it has none (multi-stone suicide, legal only in Tromp-Taylor rules), sets the simple-ko
    point and the colour to move. Returns the number of opponent stones captured.
    """
    color, root, nst, stones, libs, bits, empties, epos, meta, hsh = s
    opp = 3 - c
    meta[M_MOVES] += 1
    meta[M_TOMOVE] = opp
    meta[M_KO] = -1
    meta[M_LAST2] = meta[M_LAST]
    if p < 0:
        meta[M_PASSES] += 1
        meta[M_LAST] = -1
        return 0
    meta[M_PASSES] = 0
    meta[M_LAST] = p
    r, captured, ko, nempty, h = _place(g, s, p, c, meta[M_NEMPTY], hsh[0])
    meta[M_KO] = ko
    if captured > 0:
        meta[M_CAPS + c - 1] += captured
    elif _no_libs(libs, r):
        meta[M_CAPS + opp - 1] += nst[r]
        nempty, h = _take_block(g, s, r, c, nempty, h)
    meta[M_NEMPTY] = nempty
    hsh[0] = h
    return captured


@jit.njit(nogil=True, _nrt=False)
def is_legal(g: Any, s: Any, p: int, c: int, multi_suicide: bool) -> bool:
    """Legality of colour ``c`` at ``p`` under simple ko (no superko test).

    Single-stone suicide is always illegal; multi-stone suicide only when
    ``multi_suicide`` is true (Tromp-Taylor). A pass (``p`` < 0) is always legal.
    """
    nbr, nnbr, diag, ndiag, nbrmask, zob = g
    color, root, nst, stones, libs, bits, empties, epos, meta, hsh = s
    if p < 0:
        return True
    if color[p] != 0 or p == meta[M_KO]:
        return False
    has_own = False
    for i in range(nnbr[p]):
        q = nbr[p, i]
        cq = color[q]
        if cq == 0:
            return True
        n = libcount(libs, root[q])
        if cq == c:
            has_own = True
            if n > 1:
                return True
        elif n == 1:
            return True
    return has_own and multi_suicide


@jit.njit(nogil=True, _nrt=False)
def is_eye(g: Any, color: np.ndarray, p: int, c: int) -> bool:
    """True if empty point ``p`` is a single-point eye of colour ``c`` (playout eye rule)."""
    nbr, nnbr, diag, ndiag, nbrmask, zob = g
    for i in range(nnbr[p]):
        if color[nbr[p, i]] != c:
            return False
    bad = 0 if nnbr[p] == 4 else 1
    opp = 3 - c
    for i in range(ndiag[p]):
        if color[diag[p, i]] == opp:
            bad += 1
    return bad < 2


@jit.njit(nogil=True, _nrt=False)
def hash_after(g: Any, s: Any, p: int, c: int) -> np.uint64:
    """Zobrist hash of the stones after the legal move ``c`` at ``p``, without playing it."""
    nbr, nnbr, diag, ndiag, nbrmask, zob = g
    color, root, nst, stones, libs, bits, empties, epos, meta, hsh = s
    h = hsh[0]
    if p < 0:
        return h
    h ^= zob[p, c]
    captured = False
    own_alive = False
    for i in range(nnbr[p]):
        q = nbr[p, i]
        cq = color[q]
        if cq == 0:
            own_alive = True
            continue
        r = np.int64(root[q])
        n = libcount(libs, r)
        if cq == c:
            if n > 1:
                own_alive = True
            continue
        if n != 1 or _root_seen(nbr, color, root, p, i, r):
            continue
        captured = True
        h ^= _block_hash(zob, stones, r, cq)
    if not captured and not own_alive:
        # multi-stone suicide: the new stone and its own neighbouring blocks go
        h ^= zob[p, c]
        for i in range(nnbr[p]):
            q = nbr[p, i]
            if color[q] == c:
                r = np.int64(root[q])
                if not _root_seen(nbr, color, root, p, i, r):
                    h ^= _block_hash(zob, stones, r, c)
    return h


@jit.njit(nogil=True, inline="always")
def _root_seen(nbr: np.ndarray, color: np.ndarray, root: np.ndarray, p: int, i: int,
               r: int) -> bool:
    """Whether one of the first ``i`` neighbours of ``p`` is a stone of block ``r`` (the
    root of an empty point is stale: only stones count)."""
    for j in range(i):
        q = nbr[p, j]
        if color[q] != 0 and root[q] == r:
            return True
    return False


@jit.njit(nogil=True, _nrt=False)
def _block_hash(zob: np.ndarray, stones: np.ndarray, r: int, col: int) -> np.uint64:
    h = U(0)
    for k in range(stones.shape[1]):
        word = stones[r, k]
        while word != U(0):
            b = ctz(word)
            word &= word - U(1)
            h ^= zob[k * 64 + b, col]
    return h


@jit.njit(nogil=True)
def legal_scan(
    g: Any, s: Any, c: int, multi_suicide: bool, legal: np.ndarray, hashes: np.ndarray
) -> int:
    """Fill ``legal[p]`` (simple-ko legality) and ``hashes[p]`` (hash after the move).

    Returns the number of legal points. Superko is checked by the caller against its
    history of hashes.
    """
    color = s[0]
    n = 0
    for p in range(color.shape[0]):
        ok = is_legal(g, s, p, c, multi_suicide)
        legal[p] = ok
        if ok:
            hashes[p] = hash_after(g, s, p, c)
            n += 1
    return n


@jit.njit(nogil=True)
def area_score(g: Any, s: Any) -> int:
    """Tromp-Taylor area difference, black minus white (no komi): stones plus empty
    regions that reach only one colour."""
    npts = s[0].shape[0]
    return area_into(g, s, np.zeros(npts, np.int8), np.empty(npts, np.int32))


@jit.njit(nogil=True, _nrt=False)
def area_into(g: Any, s: Any, mark: np.ndarray, stack: np.ndarray) -> int:
    """:func:`area_score` with scratch arrays of the caller (one ``int8`` and one
    ``int32`` per point; ``mark`` must be all 0 and is left dirty)."""
    nbr, nnbr, diag, ndiag, nbrmask, zob = g
    color, root, nst, stones, libs, bits, empties, epos, meta, hsh = s
    score = 0
    for k in range(bits.shape[1]):
        score += popcount(bits[1, k]) - popcount(bits[2, k])
    ne = meta[M_NEMPTY]
    for j in range(ne):
        p0 = empties[j]
        if mark[p0]:
            continue
        mark[p0] = 1
        stack[0] = p0
        top = 1
        size = 0
        touch = 0
        while top > 0:
            top -= 1
            p = stack[top]
            size += 1
            for i in range(nnbr[p]):
                q = nbr[p, i]
                cq = color[q]
                if cq == 0:
                    if not mark[q]:
                        mark[q] = 1
                        stack[top] = q
                        top += 1
                else:
                    touch |= cq
        if touch == 1:
            score += size
        elif touch == 2:
            score -= size
    return score


# --------------------------------------------------------------------------- ladders

#: positions a ladder read may visit before it gives up (and counts the block as escaped)
LADDER_BUDGET = 200


@jit.njit(nogil=True)
def ladder_stack(s: Any) -> Any:
    """Scratch space for :func:`ladder_dies`: each array of state ``s`` with a leading
    dimension of one level per move a ladder may last (four per row of the board), and
    the number of moves tried at each level."""
    depth = 4 * np.int64(np.sqrt(s[0].shape[0]) + 0.5) + 4
    return (
        np.empty((depth,) + s[0].shape, s[0].dtype),
        np.empty((depth,) + s[1].shape, s[1].dtype),
        np.empty((depth,) + s[2].shape, s[2].dtype),
        np.empty((depth,) + s[3].shape, s[3].dtype),
        np.empty((depth,) + s[4].shape, s[4].dtype),
        np.empty((depth,) + s[5].shape, s[5].dtype),
        np.empty((depth,) + s[6].shape, s[6].dtype),
        np.empty((depth,) + s[7].shape, s[7].dtype),
        np.empty((depth,) + s[8].shape, s[8].dtype),
        np.empty((depth,) + s[9].shape, s[9].dtype),
        np.zeros(depth, np.int64),
    )


@jit.njit(nogil=True, inline="always")
def _level(stack: Any, d: int) -> Any:
    """The position at level ``d`` of a :func:`ladder_stack` (views, no copy)."""
    return (stack[0][d], stack[1][d], stack[2][d], stack[3][d], stack[4][d], stack[5][d],
            stack[6][d], stack[7][d], stack[8][d], stack[9][d])


@jit.njit(nogil=True)
def _ladder(g: Any, stack: Any, b: int, c: int, multi: bool) -> bool:
    """Whether the block of colour ``c`` at point ``b`` in the position at level 0 of
    ``stack`` is captured by a ladder.

    At a level where ``c`` is to move, the block is in atari: it escapes by capturing a
    stone next to it, or extends (three liberties or more after the extension: escaped;
    one: captured; two: the next level). At a level where the attacker is to move, the
    block has two liberties and the attacker tries an atari on each in turn (a stone it
    plays in atari is taken at the next level). The defender has one move at each of its
    levels, so one capture anywhere decides the read; an escape goes back to the last
    attacker level with a move left to try. A read longer than the stack or than
    :data:`LADDER_BUDGET` positions counts as an escape. Written as a loop over the
    levels: numba's on-disk cache does not reload recursive functions."""
    nbr, nnbr, diag, ndiag, nbrmask, zob = g
    tried = stack[10]
    depth = tried.shape[0]
    tried[0] = 0
    d = 0
    for _ in range(LADDER_BUDGET):
        s = _level(stack, d)
        color, root, nst, stones, libs, bits, empties, epos, meta, hsh = s
        r = np.int64(root[b])
        escaped = d + 1 >= depth
        if not escaped:
            t = _level(stack, d + 1)
            if meta[M_TOMOVE] == c:
                lib = _atari_liberty(libs, r)
                if lib < 0 or _counter_capture(nbr, nnbr, color, root, stones, libs, r, 3 - c,
                                               meta[M_KO]) >= 0:
                    escaped = True
                elif not is_legal(g, s, np.int64(lib), c, multi):
                    return True
                else:
                    _copy_into(t, s)
                    play(g, t, np.int64(lib), c)
                    n = libcount(t[4], np.int64(t[1][b]))
                    if n < 2:
                        return True
                    escaped = n > 2
            else:
                escaped = True
                while escaped and tried[d] < 2:
                    k = tried[d]  # the k-th liberty (0 or 1), in bitmap order
                    tried[d] += 1
                    a = -1
                    for w in range(libs.shape[1]):
                        word = libs[r, w]
                        while word != U(0) and a < 0:
                            if k == 0:
                                a = w * 64 + ctz(word)
                            k -= 1
                            word &= word - U(1)
                    if a >= 0 and is_legal(g, s, np.int64(a), 3 - c, multi):
                        _copy_into(t, s)
                        play(g, t, np.int64(a), 3 - c)
                        escaped = libcount(t[4], np.int64(t[1][b])) != 1
        if escaped:  # back to the last attacker level with a move left
            d -= 1
            while d >= 0 and (stack[8][d, M_TOMOVE] == c or tried[d] >= 2):
                d -= 1
            if d < 0:
                return False
        else:
            d += 1
            tried[d] = 0
    return False


@jit.njit(nogil=True)
def ladder_dies(g: Any, s: Any, stack: Any, p: int, c: int, b: int, multi: bool) -> bool:
    """Whether, after colour ``c`` plays the legal move ``p`` in state ``s``, the block at
    point ``b`` (of either colour, next to ``p`` or at ``p``) is lost to a ladder: it is
    in atari with its owner to move, or has two liberties with the other side to move,
    and :func:`_ladder` reads a capture. ``stack`` is a :func:`ladder_stack`; ``multi``
    allows multi-stone suicide (as in :func:`is_legal`)."""
    t = _level(stack, 0)
    _copy_into(t, s)
    play(g, t, p, c)
    owner = np.int64(t[0][b])
    if owner == 0:
        return True
    n = libcount(t[4], np.int64(t[1][b]))
    if owner == c:
        return n < 2 or (n == 2 and _ladder(g, stack, b, owner, multi))
    return n == 1 and _ladder(g, stack, b, owner, multi)


# --------------------------------------------------------------------------- playouts


@jit.njit(nogil=True)
def playout(
    g: Any,
    s: Any,
    rng: np.ndarray,
    max_moves: int,
    amaf: np.ndarray,
    trace: np.ndarray,
    policy: int,
    weights: np.ndarray,
    replies: np.ndarray,
) -> int:
    """Play random moves from state ``s`` (modified) until two passes or ``max_moves``
    more moves; return the Tromp-Taylor area difference (black minus white).

    ``amaf[p]`` receives the colour that first played at ``p`` during the playout
    (0 if none); points already set (non-zero) are left alone. When ``trace`` is not
    empty, the moves played (points, -1 for a pass) are written to it, as far as it goes.
    ``policy`` is one of :data:`POLICIES`, ``weights`` the shape weights of
    :data:`LEARNED` (:data:`NO_WEIGHTS` for the others).

    ``replies`` (``int32[3, points]``, or :data:`NO_REPLIES`) holds each colour's last
    good reply to each point: the move that followed it in the last simulation that
    colour won (Drake's "last good reply with forgetting", which the search updates after
    every simulation: :func:`bitgames.go.mcts.remember_replies`). Before any other rule,
    a playout answers the last move with the mover's reply to it when there is one and
    the move is playable.
    """
    tmp = np.empty(s[3].shape[1], np.uint64)
    shape = np.empty(16, np.int64)
    _playout_moves(g, s, rng, max_moves, amaf, trace, policy, weights, replies, tmp, shape)
    return area_score(g, s)


@jit.njit(nogil=True, _nrt=False)
def _playout_moves(
    g: Any,
    s: Any,
    rng: np.ndarray,
    max_moves: int,
    amaf: np.ndarray,
    trace: np.ndarray,
    policy: int,
    weights: np.ndarray,
    replies: np.ndarray,
    tmp: np.ndarray,
    shape: np.ndarray,
) -> None:
    """The moves of :func:`playout`; ``tmp`` (one bitmap) and ``shape`` (8 points, then
    their weights) are scratch space.

    Compiled without numba's reference counting (it allocates nothing): the move choice
    is written out in the loop and the move played by :func:`_place`, as :func:`play`
    does, both in helpers that numba inlines; with reference counting every array handed
    to such a helper cost atomic increments on every move (measured two to four times
    slower). The tests replay recorded playouts through :func:`play` to check that both
    agree.
    """
    nbr, nnbr, diag, ndiag, nbrmask, zob = g
    color, root, nst, stones, libs, bits, empties, epos, meta, hsh = s
    start = meta[M_MOVES]
    moves = start
    passes = meta[M_PASSES]
    ko = meta[M_KO]
    c = meta[M_TOMOVE]
    nempty = meta[M_NEMPTY]
    last = meta[M_LAST]
    last2 = meta[M_LAST2]
    h = hsh[0]
    cap_b = meta[M_CAPS]
    cap_w = meta[M_CAPS + 1]
    ntrace = trace.shape[0]
    safe = policy >= TACTICS
    width = np.int64(np.sqrt(color.shape[0]) + 0.5)
    use_replies = replies.shape[0] > 0
    while passes < 2 and moves - start < max_moves:
        opp = 3 - c
        moves += 1
        p = -1
        # ---- the last good reply to the last move
        if use_replies and last >= 0:
            q = np.int64(replies[c, last])
            if q >= 0 and color[q] == 0 and _playable(g, s, tmp, q, c, ko, safe):
                p = q
        if p < 0 and policy != LIGHT and last >= 0 and color[last] == opp:
            p = _atari_liberty(libs, np.int64(root[last]))
            if p == ko:
                p = -1
            if p < 0:
                for j in range(nnbr[last]):
                    q = nbr[last, j]
                    if color[q] != c:
                        continue
                    rq = np.int64(root[q])
                    lib = _atari_liberty(libs, rq)
                    if lib < 0 or lib == ko:
                        continue
                    if policy >= PATTERNS:
                        p = _counter_capture(nbr, nnbr, color, root, stones, libs, rq, opp, ko)
                        if p >= 0:
                            break
                    if safe:
                        e, _, takes = _libs_after(
                            nbr, nnbr, nbrmask, color, root, nst, libs, bits, tmp, lib, c
                        )
                        e = 2 if takes else e
                    else:
                        e = 0
                        for t in range(nnbr[lib]):
                            if color[nbr[lib, t]] == 0:
                                e += 1
                    if e >= 2:
                        p = lib
                        break
        # ---- blocks of two liberties next to the last move (LIBERTIES)
        if p < 0 and policy >= LIBERTIES and last >= 0 and color[last] == opp:
            p = _two_liberty_move(g, s, tmp, last, c, ko)
        # ---- a shape next to the last move: a MoGo pattern (PATTERNS) or a point drawn
        # by its learned weight against the random move's (LEARNED)
        if p < 0 and policy >= PATTERNS and last >= 0:
            nshape = 0
            r0 = last // width
            c0 = last - r0 * width
            for dr in range(-1, 2):
                for dc in range(-1, 2):
                    r = r0 + dr
                    cc = c0 + dc
                    if 0 <= r < width and 0 <= cc < width:
                        q = r * width + cc
                        if color[q] != 0:
                            continue
                        code = np.int64(_pat3_code(color, width, q))
                        if policy == PATTERNS:
                            if PAT3[code] != 0:
                                shape[nshape] = q
                                nshape += 1
                            continue
                        shape[nshape] = q
                        shape[8 + nshape] = weights[1 - ((dr + dc) & 1), _seen_by(code, c)]
                        nshape += 1
            if policy == PATTERNS:
                p = _draw_playable(g, s, tmp, shape, nshape, epos, False, rng, c, ko, safe)
            else:
                p = _draw_weighted(g, s, tmp, shape, nshape, nempty, rng, c, ko, safe)
        # ---- choose a uniformly random legal non-eye point
        if p < 0:
            p = _draw_playable(g, s, tmp, empties, nempty, epos, True, rng, c, ko, safe)
        if moves - start <= ntrace:
            trace[moves - start - 1] = p
        last2 = last
        if p < 0:
            passes += 1
            ko = -1
            last = -1
            c = opp
            continue
        passes = 0
        last = p
        if amaf[p] == 0:
            amaf[p] = c
        # ---- play p (the policy plays no suicide)
        _, captured, ko, nempty, h = _place(g, s, p, c, nempty, h)
        if c == 1:
            cap_b += captured
        else:
            cap_w += captured
        c = opp
    meta[M_NEMPTY] = nempty
    meta[M_KO] = ko
    meta[M_TOMOVE] = c
    meta[M_PASSES] = passes
    meta[M_MOVES] = moves
    meta[M_LAST] = last
    meta[M_LAST2] = last2
    meta[M_CAPS] = cap_b
    meta[M_CAPS + 1] = cap_w
    hsh[0] = h


@jit.njit(nogil=True)
def playouts_serial(
    g: Any,
    s0: Any,
    n: int,
    seed: np.uint64,
    max_moves: int,
    scores: np.ndarray,
    moves: np.ndarray,
    policy: int,
    weights: np.ndarray,
) -> None:
    """``n`` playouts of ``policy`` (with ``weights``, as in :func:`playout`) from ``s0``
    in this thread: playout ``i`` uses the random stream ``stream_seed(seed, i)``; its
    score and length go to ``scores[i]``, ``moves[i]``."""
    _playout_range(g, s0, 0, n, seed, max_moves, scores, moves, policy, weights)


@jit.njit(nogil=True)
def _playout_range(
    g: Any,
    s0: Any,
    lo: int,
    hi: int,
    seed: np.uint64,
    max_moves: int,
    scores: np.ndarray,
    moves: np.ndarray,
    policy: int,
    weights: np.ndarray,
) -> None:
    s = copy_state_kernel(s0)
    amaf = np.zeros(s0[0].shape[0], np.int8)
    trace = np.zeros(0, np.int32)
    rng = np.zeros(1, np.uint64)
    for i in range(lo, hi):
        _copy_into(s, s0)
        rng[0] = stream_seed(seed, i)
        scores[i] = playout(g, s, rng, max_moves, amaf, trace, policy, weights, NO_REPLIES)
        moves[i] = s[8][M_MOVES] - s0[8][M_MOVES]


@jit.njit(nogil=True, parallel=True)
def playouts_parallel(
    g: Any,
    s0: Any,
    n: int,
    seed: np.uint64,
    max_moves: int,
    scores: np.ndarray,
    moves: np.ndarray,
    chunks: int,
    policy: int,
    weights: np.ndarray,
) -> None:
    """Like :func:`playouts_serial`, split into ``chunks`` ranges run by numba's threads
    (``prange``). The results are the same as the serial ones, whatever the threads."""
    for t in prange(chunks):
        lo = n * t // chunks
        hi = n * (t + 1) // chunks
        _playout_range(g, s0, lo, hi, seed, max_moves, scores, moves, policy, weights)


@jit.register_warmup("go", "rules")
def _warmup() -> None:
    g = geometry(9)
    s = new_state(9)
    legal = np.zeros(81, np.bool_)
    hashes = np.zeros(81, np.uint64)
    legal_scan(g, s, 1, False, legal, hashes)
    play(g, s, 40, 1)
    area_score(g, s)


@jit.register_warmup("go", "playouts")
def _warmup_playouts() -> None:  # bitgames go bench (one thread)
    g, s = geometry(9), new_state(9)
    scores = np.zeros(2, np.int64)
    moves = np.zeros(2, np.int64)
    playouts_serial(g, s, 2, U(1), 400, scores, moves, LIGHT, NO_WEIGHTS)


@jit.register_warmup("go", "parallel")
def _warmup_parallel() -> None:  # bitgames go bench --threads N
    g, s = geometry(9), new_state(9)
    scores = np.zeros(2, np.int64)
    moves = np.zeros(2, np.int64)
    playouts_parallel(g, s, 2, U(1), 400, scores, moves, 2, LIGHT, NO_WEIGHTS)
