"""Rules kernels for Russian draughts and English checkers (numba).

A position is three 32-bit bitboards held in ``uint64`` scalars -- ``white``, ``black``,
``kings`` -- and ``side`` (0 = White to move, 1 = Black), in the diagonal bit numbering of
:mod:`bitgames.draughts.geometry`. ``variant`` is :data:`RUSSIAN` (0) or :data:`ENGLISH` (1).

Moves are packed into one ``uint64``: bits 0-31 the captured set, 32-36 the start square,
37-41 the end square, bit 42 "the man was crowned during this move". Two captures with the
same start, end and captured set are the same move and are kept once when ``unique`` is 1
(they give the same position); with ``unique`` 0 every landing-square path is kept.
Generators write into a move buffer (:func:`new_buffer`): row ``[ply, i]`` holds the move
(with the path length in bits 48-52) and its landing squares, 5 bits each, in two more
words (for notation). A position has at most :data:`MAX_MOVES` moves stored (no legal
8x8 position comes near it; extra moves would be dropped, never written out of bounds).

Flying kings read their rays from one lookup table indexed by the occupancy of the
diagonal, gathered by a magic multiply (:mod:`bitgames.draughts.magic`). Every table is
in one ``uint64`` array :data:`T` (:func:`tables`), a module constant of the kernels.

The kernels here, the evaluation and the search allocate nothing (the caller passes the
move buffer, tables and counters), so they are compiled without numba's reference
counting (``_nrt=False``, under which an allocation would not compile): with it, every
array handed to a call paid an atomic increment and decrement, which cost the search
about 40 % of its time (``docs/PERFORMANCE.md``).

>>> w, b, k, side = start_position(RUSSIAN)
>>> perft(w, b, k, side, 3, RUSSIAN)
302
"""

from __future__ import annotations

import numpy as np

from bitgames.core.bits import ctz, popcount
from bitgames.core.jit import njit, register_warmup
from bitgames.draughts import geometry as g
from bitgames.draughts.magic import MAGICS, subsets

U = np.uint64
Bits = int | np.uint64
RUSSIAN = 0
ENGLISH = 1
WHITE = 0
BLACK = 1

#: Buffer sizes: moves per position, plies of a perft/search.
MAX_MOVES = 512
MAX_PLY = 128

M32 = U(0xFFFF_FFFF)
CAN_UL = U(g.CAN[0])
CAN_UR = U(g.CAN[1])
CAN_DL = U(g.CAN[2])
CAN_DR = U(g.CAN[3])
RANK1 = U(g.RANK[0])
RANK8 = U(g.RANK[7])

# Layout of the table array T.
OFF_LINE = 0  # (s * 2 + p) * 3 + (0 mask, 1 magic, 2 shift); p = 0: UL/DR line, 1: UR/DL
OFF_NB = 192  # s * 4 + d -> bit of the neighbour (0 off the board)
OFF_RAY = 320  # ((s * 4 + d) << 8) + index -> empty run | first blocker << 32
TABLE_SIZE = OFF_RAY + 32 * 4 * 256


def line_params(s: int, p: int) -> tuple[int, int, int]:
    """(mask, magic, shift) of the diagonal of kind ``p`` through square ``s``."""
    line = tuple(g.line_squares(s, p))
    return g.mask_of(list(line)), MAGICS[line], 64 - len(line)


def magic_index(occ: int, mask: int, magic: int, shift: int) -> int:
    """The table index of an occupancy (plain Python, as in the kernels)."""
    return (((occ & mask) * magic) & 0xFFFF_FFFF_FFFF_FFFF) >> shift


def ray_walk(s: int, d: int, occ: int) -> tuple[int, int]:
    """(empty squares before the first piece, bit of that piece or 0) by a plain walk."""
    empty = 0
    for t in g.ray(s, d):
        if occ >> t & 1:
            return empty, 1 << t
        empty |= 1 << t
    return empty, 0


def tables() -> np.ndarray:
    """Build the table array ``T`` the kernels read (about 260 KB, built in ~0.3 s)."""
    global _TABLES
    if _TABLES is not None:
        return _TABLES
    t = np.zeros(TABLE_SIZE, dtype=np.uint64)
    for s in range(32):
        for p in (0, 1):
            mask, magic, shift = line_params(s, p)
            t[OFF_LINE + (s * 2 + p) * 3 : OFF_LINE + (s * 2 + p) * 3 + 3] = (mask, magic, shift)
        for d in range(4):
            nb = g.neighbour(s, d)
            t[OFF_NB + s * 4 + d] = 0 if nb < 0 else 1 << nb
            mask, magic, shift = line_params(s, 0 if d in (0, 3) else 1)
            for occ in subsets(mask):
                empty, blocker = ray_walk(s, d, occ)
                t[OFF_RAY + ((s * 4 + d) << 8) + magic_index(occ, mask, magic, shift)] = (
                    empty | blocker << 32
                )
    t.setflags(write=False)
    _TABLES = t
    return t


_TABLES: np.ndarray | None = None
#: The table array, a module constant that numba freezes into the compiled kernels
#: (260 KB, under numba's 1 MB limit for cacheable global arrays). Passing it as an argument
#: instead costs ~25 ns per call (a reference-count round trip), a quarter of a leaf's budget.
T = tables()


def start_position(variant: int) -> tuple[np.uint64, np.uint64, np.uint64, int]:
    """(white, black, kings, side) of the initial position of ``variant``."""
    white = U(g.RANK[0] | g.RANK[1] | g.RANK[2])
    black = U(g.RANK[5] | g.RANK[6] | g.RANK[7])
    return white, black, U(0), BLACK if variant == ENGLISH else WHITE


# ----------------------------------------------------------------------------- kernels


@njit(_nrt=False)
def step(x: np.uint64, d: int) -> np.uint64:
    """Shift every bit of ``x`` one square in direction ``d`` (off-board bits vanish)."""
    if d == 0:
        return (x & CAN_UL) << U(1)
    if d == 1:
        y = x & CAN_UR
        return ((y << U(7)) | (y >> U(25))) & M32
    if d == 2:
        y = x & CAN_DL
        return ((y << U(25)) | (y >> U(7))) & M32
    return (x & CAN_DR) >> U(1)


@njit(_nrt=False)
def line_index(s: int, p: int, occ: np.uint64) -> int:
    """Magic index of the occupancy of the diagonal of kind ``p`` through ``s``."""
    base = OFF_LINE + (s * 2 + p) * 3
    return np.int64(((occ & T[base]) * T[base + 1]) >> T[base + 2])


@njit(_nrt=False)
def king_has_capture(s: int, captured: np.uint64, occ: np.uint64,
                     foe: np.uint64) -> bool:
    """Can a flying king on ``s`` capture (Turkish strike: ``captured`` pieces block)?"""
    for d in range(4):
        p = 0 if (d == 0 or d == 3) else 1
        idx = line_index(s, p, occ)
        blk = (T[OFF_RAY + ((s * 4 + d) << 8) + idx] >> U(32)) & foe & ~captured
        if blk != U(0):
            if T[OFF_RAY + ((ctz(blk) * 4 + d) << 8) + idx] & M32 != U(0):
                return True
    return False


@njit(_nrt=False)
def short_has_capture(s: int, captured: np.uint64, occ: np.uint64,
                      foe: np.uint64, dlo: int, dhi: int) -> bool:
    """Can a man (or short king) on ``s`` jump, in directions ``dlo`` .. ``dhi - 1``?"""
    for d in range(dlo, dhi):
        nb = T[OFF_NB + s * 4 + d]
        if nb & foe & ~captured != U(0):
            nb2 = T[OFF_NB + ctz(nb) * 4 + d]
            if nb2 != U(0) and nb2 & occ == U(0):
                return True
    return False


KEY_MASK = U((1 << 43) - 1)


@njit(_nrt=False)
def capture_dfs(s: int, king: int, frm: int, captured: np.uint64, occ: np.uint64,
                foe: np.uint64, promo_rank: np.uint64, variant: int, dlo: int, dhi: int,
                promo: int, p0: np.uint64, p1: np.uint64, plen: int, buf: np.ndarray,
                ply: int, n: int, unique: int) -> int:
    """Append to ``buf[ply]`` every capture sequence continuing from ``s``.

    A capture exists from ``s``. ``occ`` holds every piece still on the board (captured
    ones too: Turkish strike) but not the moving piece; ``foe`` the opponent's pieces;
    ``dlo``/``dhi`` a man's capture directions; ``p0``/``p1`` the landing squares so far,
    5 bits each (12 per word). Each move takes a row ``[move | plen << 48, p0, p1]``.
    Returns the new move count.
    """
    if king != 0 and variant == RUSSIAN:
        for d in range(4):
            p = 0 if (d == 0 or d == 3) else 1
            idx = line_index(s, p, occ)
            blk = (T[OFF_RAY + ((s * 4 + d) << 8) + idx] >> U(32)) & foe & ~captured
            if blk == U(0):
                continue
            land = T[OFF_RAY + ((ctz(blk) * 4 + d) << 8) + idx] & M32
            if land == U(0):
                continue
            ncap = captured | blk
            cont = U(0)
            x = land
            while x != U(0):
                i = ctz(x)
                x &= x - U(1)
                if king_has_capture(i, ncap, occ, foe):
                    cont |= U(1) << U(i)
            targets = cont if cont != U(0) else land
            while targets != U(0):
                i = ctz(targets)
                targets &= targets - U(1)
                q0 = p0
                q1 = p1
                if plen < 12:
                    q0 |= U(i) << U(5 * plen)
                else:
                    q1 |= U(i) << U(5 * (plen - 12))
                if cont != U(0):
                    n = capture_dfs(i, king, frm, ncap, occ, foe, promo_rank, variant, dlo, dhi,
                                    promo, q0, q1, plen + 1, buf, ply, n, unique)
                else:
                    n = _emit(frm, i, ncap, promo, q0, q1, plen + 1, buf, ply, n, unique)
        return n
    lo = dlo
    hi = dhi
    if king != 0:
        lo = 0
        hi = 4
    for d in range(lo, hi):
        nb = T[OFF_NB + s * 4 + d]
        if nb & foe & ~captured == U(0):
            continue
        nb2 = T[OFF_NB + ctz(nb) * 4 + d]
        if nb2 == U(0) or nb2 & occ != U(0):
            continue
        i = ctz(nb2)
        ncap = captured | nb
        q0 = p0
        q1 = p1
        if plen < 12:
            q0 |= U(i) << U(5 * plen)
        else:
            q1 |= U(i) << U(5 * (plen - 12))
        if king == 0 and nb2 & promo_rank != U(0):
            # crowned: Russian continues as a flying king, English ends the move
            if variant == RUSSIAN and king_has_capture(i, ncap, occ, foe):
                n = capture_dfs(i, king | 1, frm, ncap, occ, foe, promo_rank, variant, dlo, dhi,
                                promo | 1, q0, q1, plen + 1, buf, ply, n, unique)
            else:
                n = _emit(frm, i, ncap, promo | 1, q0, q1, plen + 1, buf, ply, n, unique)
        elif short_has_capture(i, ncap, occ, foe, lo, hi):
            n = capture_dfs(i, king, frm, ncap, occ, foe, promo_rank, variant, dlo, dhi, promo,
                            q0, q1, plen + 1, buf, ply, n, unique)
        else:
            n = _emit(frm, i, ncap, promo, q0, q1, plen + 1, buf, ply, n, unique)
    return n


@njit(_nrt=False)
def _emit(frm: int, to: int, captured: np.uint64, promo: int, p0: np.uint64, p1: np.uint64,
          plen: int, buf: np.ndarray, ply: int, n: int, unique: int) -> int:
    mv = captured | (U(frm) << U(32)) | (U(to) << U(37)) | (U(promo) << U(42))
    if unique != 0:
        for j in range(n):
            if buf[ply, j, 0] & KEY_MASK == mv:
                return n
    if n >= buf.shape[1]:
        return n
    buf[ply, n, 0] = mv | (U(plen) << U(48))
    buf[ply, n, 1] = p0
    buf[ply, n, 2] = p1
    return n + 1


@njit(_nrt=False)
def _man_dirs(side: int, variant: int) -> tuple[int, int]:
    if variant == RUSSIAN:
        return 0, 4
    if side == WHITE:
        return 0, 2
    return 2, 4


@njit(_nrt=False)
def _sides(w: np.uint64, b: np.uint64, side: int) -> tuple[np.uint64, np.uint64, np.uint64]:
    """The mover's pieces, the opponent's, and the mover's promotion rank."""
    if side == WHITE:
        return w, b, RANK8
    return b, w, RANK1


@njit(_nrt=False)
def gen_captures(w: np.uint64, b: np.uint64, k: np.uint64, side: int, variant: int,
                 buf: np.ndarray, ply: int, unique: int) -> int:
    """Write every capture of the side to move into ``buf[ply]``; return how many."""
    own, foe, promo_rank = _sides(w, b, side)
    occ_all = w | b
    empty = ~occ_all & M32
    men = own & ~k
    kings = own & k
    dlo, dhi = _man_dirs(side, variant)
    zero = np.int64(0)
    one = zero + 1
    n = zero
    # men: a bitboard test first, then the sequences of each man that can jump
    any_jump = U(0)
    for d in range(dlo, dhi):
        any_jump |= step(step(men, d) & foe, d) & empty
    if any_jump != U(0):
        x = men
        while x != U(0):
            s = ctz(x)
            x &= x - U(1)
            occ = occ_all & ~(U(1) << U(s))
            if short_has_capture(s, U(0), occ, foe, dlo, dhi):
                n = capture_dfs(s, zero, s, U(0), occ, foe, promo_rank, variant, dlo, dhi,
                                zero, U(0), U(0), zero, buf, ply, n, unique)
    x = kings
    while x != U(0):
        s = ctz(x)
        x &= x - U(1)
        occ = occ_all & ~(U(1) << U(s))
        if variant == RUSSIAN:
            has = king_has_capture(s, U(0), occ, foe)
        else:
            has = short_has_capture(s, U(0), occ, foe, 0, 4)
        if has:
            n = capture_dfs(s, one, s, U(0), occ, foe, promo_rank, variant, dlo, dhi,
                            zero, U(0), U(0), zero, buf, ply, n, unique)
    return n


@njit(_nrt=False)
def gen_quiet(w: np.uint64, b: np.uint64, k: np.uint64, side: int, variant: int,
              buf: np.ndarray, ply: int, n: int) -> int:
    """Append the non-capturing moves of the side to move; return the new count."""
    if side == WHITE:
        own = w
        promo_rank = RANK8
        dlo = 0
    else:
        own = b
        promo_rank = RANK1
        dlo = 2
    occ = w | b
    empty = ~occ & M32
    men = own & ~k
    for d in range(dlo, dlo + 2):
        delta = 1 if d == 0 else (7 if d == 1 else (25 if d == 2 else 31))
        t = step(men, d) & empty
        while t != U(0):
            to = ctz(t)
            t &= t - U(1)
            frm = (to - delta) & 31
            promo = U(1) if (U(1) << U(to)) & promo_rank != U(0) else U(0)
            if n < buf.shape[1]:
                buf[ply, n, 0] = (U(frm) << U(32)) | (U(to) << U(37)) | (promo << U(42))
                n += 1
    x = own & k
    while x != U(0):
        s = ctz(x)
        x &= x - U(1)
        for d in range(4):
            if variant == RUSSIAN:
                p = 0 if (d == 0 or d == 3) else 1
                t = T[OFF_RAY + ((s * 4 + d) << 8) + line_index(s, p, occ)] & M32
            else:
                t = T[OFF_NB + s * 4 + d] & empty
            while t != U(0):
                to = ctz(t)
                t &= t - U(1)
                if n < buf.shape[1]:
                    buf[ply, n, 0] = (U(s) << U(32)) | (U(to) << U(37))
                    n += 1
    return n


@njit(_nrt=False)
def count_quiet(w: np.uint64, b: np.uint64, k: np.uint64, side: int,
                variant: int) -> int:
    """Number of non-capturing moves of the side to move (for bulk counting)."""
    own = w if side == WHITE else b
    occ = w | b
    empty = ~occ & M32
    men = own & ~k
    kings = own & k
    dlo = 0 if side == WHITE else 2
    n = popcount(step(men, dlo) & empty) + popcount(step(men, dlo + 1) & empty)
    if kings == U(0):
        return n
    if variant == RUSSIAN:
        x = kings
        while x != U(0):
            s = ctz(x)
            x &= x - U(1)
            i0 = line_index(s, 0, occ)
            i1 = line_index(s, 1, occ)
            base = OFF_RAY + (s << 10)
            n += popcount((T[base + i0] | T[base + 256 + i1] | T[base + 512 + i1]
                           | T[base + 768 + i0]) & M32)
        return n
    for d in range(4):
        n += popcount(step(kings, d) & empty)
    return n


@njit(_nrt=False)
def any_capture(w: np.uint64, b: np.uint64, k: np.uint64, side: int,
                variant: int) -> bool:
    """Has the side to move a capture? (Bitboard shifts for men, table look-ups for kings.)"""
    if side == WHITE:
        own = w
        foe = b
    else:
        own = b
        foe = w
    occ = w | b
    empty = ~occ & M32
    men = own & ~k
    kings = own & k
    # one step and then another in each direction: UL << 1, DR >> 1, UR/DL rotations
    if variant == RUSSIAN or side == WHITE:
        if ((((men & CAN_UL) << U(1)) & foe & CAN_UL) << U(1)) & empty != U(0):
            return True
        y = men & CAN_UR
        y = (((y << U(7)) | (y >> U(25))) & foe & CAN_UR)
        if ((y << U(7)) | (y >> U(25))) & empty & M32 != U(0):
            return True
    if variant == RUSSIAN or side == BLACK:
        if ((((men & CAN_DR) >> U(1)) & foe & CAN_DR) >> U(1)) & empty != U(0):
            return True
        y = men & CAN_DL
        y = (((y << U(25)) | (y >> U(7))) & foe & CAN_DL)
        if ((y << U(25)) | (y >> U(7))) & empty & M32 != U(0):
            return True
    if kings == U(0):
        return False
    if variant == RUSSIAN:
        x = kings
        while x != U(0):
            s = ctz(x)
            x &= x - U(1)
            if king_has_capture(s, U(0), occ & ~(U(1) << U(s)), foe):
                return True
        return False
    for d in range(4):
        if step(step(kings, d) & foe, d) & empty != U(0):
            return True
    return False


@njit(_nrt=False)
def gen_moves(w: np.uint64, b: np.uint64, k: np.uint64, side: int, variant: int,
              buf: np.ndarray, ply: int, unique: int) -> int:
    """Every legal move into ``buf[ply]`` (captures if any, else quiet moves); the count."""
    if any_capture(w, b, k, side, variant):
        return gen_captures(w, b, k, side, variant, buf, ply, unique)
    return gen_quiet(w, b, k, side, variant, buf, ply, np.int64(0))


@njit(_nrt=False)
def _count_single_jumps(w: np.uint64, b: np.uint64, k: np.uint64, side: int,
                        variant: int) -> int:
    """Number of captures when none can continue past one jump; -1 when some can.

    Bitboards give each man's single jumps (a landing square fixes its man and victim); a
    continuation check on each landing square decides whether the full generator is needed.
    The mover must have no kings.
    """
    own, foe, promo_rank = _sides(w, b, side)
    occ_all = w | b
    empty = ~occ_all & M32
    dlo, dhi = _man_dirs(side, variant)
    n = 0
    for d in range(dlo, dhi):
        land = step(step(own, d) & foe, d) & empty
        back = 3 - d
        while land != U(0):
            i = ctz(land)
            land &= land - U(1)
            cap = T[OFF_NB + i * 4 + back]
            frm = T[OFF_NB + ctz(cap) * 4 + back]
            occ = occ_all & ~frm
            if (U(1) << U(i)) & promo_rank != U(0):
                if variant == RUSSIAN and king_has_capture(i, cap, occ, foe):
                    return -1
            elif short_has_capture(i, cap, occ, foe, dlo, dhi):
                return -1
            n += 1
    return n


@njit(_nrt=False)
def count_fast(w: np.uint64, b: np.uint64, k: np.uint64, side: int, variant: int) -> int:
    """Number of legal moves without generating them, or -1 when captures must be generated.

    Quiet moves are counted by popcount, single jumps by bitboards (no array is touched,
    so the call costs no reference counting).
    """
    if not any_capture(w, b, k, side, variant):
        return count_quiet(w, b, k, side, variant)
    own = w if side == WHITE else b
    if own & k == U(0):
        return _count_single_jumps(w, b, k, side, variant)
    return -1


@njit(_nrt=False)
def make_move(w: np.uint64, b: np.uint64, k: np.uint64, side: int,
              mv: np.uint64) -> tuple[np.uint64, np.uint64, np.uint64, int]:
    """The position after move ``mv`` (copy-make)."""
    cap = mv & M32
    fb = U(1) << ((mv >> U(32)) & U(31))
    tb = U(1) << ((mv >> U(37)) & U(31))
    was_king = k & fb
    if side == WHITE:
        w = (w & ~fb) | tb
        b = b & ~cap
    else:
        b = (b & ~fb) | tb
        w = w & ~cap
    k = k & ~cap & ~fb
    if was_king != U(0) or (mv >> U(42)) & U(1) != U(0):
        k |= tb
    return w, b, k, 1 - side


@njit(nogil=True, _nrt=False)  # nogil: a Ctrl-C handler can run while it counts
def _perft(w: np.uint64, b: np.uint64, k: np.uint64, side: int, depth: int, variant: int,
           unique: int, buf: np.ndarray, ply: int, stop: np.ndarray) -> int:
    if depth == 1:
        n = count_fast(w, b, k, side, variant)
        if n < 0:
            n = gen_captures(w, b, k, side, variant, buf, ply, unique)
        return n
    n = gen_moves(w, b, k, side, variant, buf, ply, unique)
    total = 0
    if depth == 2:
        for i in range(n):
            w2, b2, k2, s2 = make_move(w, b, k, side, buf[ply, i, 0])
            c = count_fast(w2, b2, k2, s2, variant)
            if c < 0:
                c = gen_captures(w2, b2, k2, s2, variant, buf, ply + 1, unique)
            total += c
        return total
    for i in range(n):
        if stop[0] != 0:  # polled above the last two plies: microseconds apart
            break
        w2, b2, k2, s2 = make_move(w, b, k, side, buf[ply, i, 0])
        total += _perft(w2, b2, k2, s2, depth - 1, variant, unique, buf, ply + 1, stop)
    return total


def new_buffer(plies: int = MAX_PLY) -> np.ndarray:
    """A move buffer for ``plies`` plies: rows ``[move | plen << 48, path0, path1]``."""
    return np.zeros((plies, MAX_MOVES, 3), dtype=np.uint64)


def perft(w: Bits, b: Bits, k: Bits, side: int, depth: int, variant: int,
          unique: bool = True, stop: np.ndarray | None = None) -> int:
    """Leaf count of the move tree ``depth`` plies deep (bulk-counted at the last ply).

    ``unique`` counts captures with the same start, end and captured set once; ``False``
    counts every landing-square path. ``stop`` (an ``int64`` array of one, a
    :class:`~bitgames.core.engine.StopSignal`'s ``flag``) ends the count early once it is
    non-zero: the leaves counted so far are returned.
    """
    if depth <= 0:
        return 1
    flag = np.zeros(1, dtype=np.int64) if stop is None else stop
    return int(_perft(U(w), U(b), U(k), np.int64(side), np.int64(depth), np.int64(variant),
                      np.int64(1 if unique else 0), new_buffer(depth + 1), np.int64(0), flag))


def path_of(row: np.ndarray) -> list[int]:
    """Landing squares stored in a buffer row."""
    plen = int(row[0]) >> 48 & 31
    p0, p1 = int(row[1]), int(row[2])
    return [(p0 >> 5 * j & 31) if j < 12 else (p1 >> 5 * (j - 12) & 31) for j in range(plen)]


@njit(nogil=True, _nrt=False)
def _divide(w: np.uint64, b: np.uint64, k: np.uint64, side: int, depth: int, variant: int,
            unique: int, buf: np.ndarray, counts: np.ndarray, stop: np.ndarray) -> int:
    zero = np.int64(0)
    n = gen_moves(w, b, k, side, variant, buf, zero, unique)
    one = zero + 1
    for i in range(n):
        if stop[0] != 0:
            break
        if depth <= 1:
            counts[i] = 1
        else:
            w2, b2, k2, s2 = make_move(w, b, k, side, buf[0, i, 0])
            counts[i] = _perft(w2, b2, k2, s2, depth - 1, variant, unique, buf, one, stop)
    return n


def divide(w: Bits, b: Bits, k: Bits, side: int, depth: int, variant: int,
           unique: bool = True, stop: np.ndarray | None = None,
           counts: np.ndarray | None = None) -> list[tuple[int, list[int], int]]:
    """Per root move: (packed move, landing squares, leaf count ``depth - 1`` plies below).

    Stopped by ``stop`` (see :func:`perft`), it lists the root moves counted so far, the
    last one with a partial count. ``counts`` (``int64``, :data:`MAX_MOVES` entries of -1)
    receives each root move's count as it is done, for another thread to follow.
    """
    buf = new_buffer(depth + 1)
    if counts is None:
        counts = np.full(MAX_MOVES, -1, dtype=np.int64)
    flag = np.zeros(1, dtype=np.int64) if stop is None else stop
    n = _divide(U(w), U(b), U(k), np.int64(side), np.int64(max(depth, 1)), np.int64(variant),
                np.int64(1 if unique else 0), buf, counts, flag)
    return [(int(buf[0, i, 0]) & KEY_MASK_INT, path_of(buf[0, i]), int(counts[i]))
            for i in range(n) if counts[i] >= 0]


KEY_MASK_INT = (1 << 43) - 1


def legal_moves(w: Bits, b: Bits, k: Bits, side: int, variant: int,
                unique: bool = True) -> list[tuple[int, list[int]]]:
    """Every legal move as (packed move, landing squares of a capture or [])."""
    buf = new_buffer(1)
    n = gen_moves(U(w), U(b), U(k), np.int64(side), np.int64(variant), buf, np.int64(0),
                  np.int64(1 if unique else 0))
    return [(int(buf[0, i, 0]) & KEY_MASK_INT, path_of(buf[0, i])) for i in range(n)]


def unpack(mv: int) -> tuple[int, int, int, bool]:
    """(start, end, captured set, crowned) of a packed move."""
    return (mv >> 32) & 31, (mv >> 37) & 31, mv & 0xFFFF_FFFF, bool(mv >> 42 & 1)


@register_warmup("draughts", "rules")
def _warm() -> None:
    for variant in (RUSSIAN, ENGLISH):
        w, b, k, side = start_position(variant)
        perft(w, b, k, side, 2, variant)
        divide(w, b, k, side, 2, variant)
        moves = legal_moves(w, b, k, side, variant)
        make_move(U(w), U(b), U(k), side, U(moves[0][0]))  # Board.push calls it from Python
