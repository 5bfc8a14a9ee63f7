"""Leiserchess rules kernels (numba): lasers, move generation, make-move, Ko, perft.

A position is five ``uint64`` bitboards plus the side to move:

* ``w``, ``b`` -- squares holding a Tangerine (White) / Lavender (Black) piece;
* ``k`` -- squares holding a King (either colour);
* ``o0``, ``o1`` -- the two bits of every piece's orientation (0 elsewhere).

Squares are ``rank * 8 + file`` (``a0`` = 0, ``h7`` = 63). Orientations are numbered so
that a clockwise quarter turn adds one modulo 4: Kings N=0, E=1, S=2, W=3; Pawns NW=0,
NE=1, SE=2, SW=3. A move is an ``int64``: ``from | to << 6 | rot << 12`` where ``rot`` is
0 (step, swap, or -- with ``from == to`` -- the King's null move), 1 (R), 2 (U), 3 (L).
A step and a swap are the same operation on the bitboards: exchange the contents of two
squares (an empty square's bits are all zero).

Beam paths (the squares a King's laser crosses, including the King's own square and the
square where it stops) are ``uint64`` bitmaps: :func:`laser_path` computes one per side
per position, and move generation (pins) and evaluation reuse it.

Everything here also runs as plain Python under ``NUMBA_DISABLE_JIT=1``.

>>> from bitgames.leiserchess.notation import START_FEN, parse_fen
>>> *bb, side = parse_fen(START_FEN)
>>> w, b, k, o0, o1 = (np.uint64(x) for x in bb)
>>> perft(w, b, k, o0, o1, side, 2, perft_buffer(2), 0, np.zeros(1, dtype=np.int64))
6084
>>> [sq for sq in range(64) if laser_path(w, b, k, o0, o1, WHITE) >> np.uint64(sq) & ONE]
[7, 15, 23, 31, 39]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bitgames.core.bits import clz, ctz, popcount
from bitgames.core.jit import njit, register_warmup

U = np.uint64
ONE = U(1)
ZERO = U(0)

WHITE = 0
BLACK = 1

#: Result codes of :func:`make_move` / :func:`fire`.
NONE = 0
WHITE_KING_ZAPPED = 1
BLACK_KING_ZAPPED = 2

#: Maximum pseudo-legal moves in one position: 7 * (8 + 3) + (8 + 3 + 1).
MAX_MOVES = 96

# File / rank step of each beam direction N, E, S, W.
DFILE = np.array([0, 1, 0, -1], dtype=np.int64)
DRANK = np.array([1, 0, -1, 0], dtype=np.int64)

# REFLECT[dir * 4 + pawn_orientation]: new direction of a beam travelling ``dir`` that
# enters a Pawn, or -1 when it hits an opaque side (the Pawn is zapped).
REFLECT = np.array(
    [
        # beam N: NW zap, NE zap, SE -> E, SW -> W
        -1, -1, 1, 3,
        # beam E: NW -> N, NE zap, SE zap, SW -> S
        0, -1, -1, 2,
        # beam S: NW -> W, NE -> E, SE zap, SW zap
        3, 1, -1, -1,
        # beam W: NW zap, NE -> N, SE -> S, SW zap
        -1, 0, 2, -1,
    ],
    dtype=np.int64,
)  # fmt: skip


def _neighbour_table() -> np.ndarray:
    table = np.zeros(64, dtype=np.uint64)
    for sq in range(64):
        f, r = sq & 7, sq >> 3
        m = 0
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                if (df or dr) and 0 <= f + df < 8 and 0 <= r + dr < 8:
                    m |= 1 << ((r + dr) * 8 + f + df)
        table[sq] = m
    return table


#: NEIGHBOURS[sq]: bitmap of the (up to 8) squares adjacent to ``sq``.
NEIGHBOURS = _neighbour_table()


@njit(inline="always")
def orientation(o0: np.uint64, o1: np.uint64, sq: int) -> int:
    """Orientation (0..3) of the piece on ``sq``."""
    s = U(sq)
    return np.int64((o0 >> s) & ONE) | (np.int64((o1 >> s) & ONE) << 1)


def _ray_table() -> np.ndarray:
    table = np.zeros(4 * 64, dtype=np.uint64)
    for d in range(4):
        for sq in range(64):
            f, r, m = sq & 7, sq >> 3, 0
            while True:
                f += int(DFILE[d])
                r += int(DRANK[d])
                if not (0 <= f < 8 and 0 <= r < 8):
                    break
                m |= 1 << (r * 8 + f)
            table[d * 64 + sq] = m
    return table


#: RAYS[dir * 64 + sq]: the squares a beam leaving ``sq`` in direction ``dir`` crosses
#: on an empty board (``sq`` itself excluded).
RAYS = _ray_table()


@njit(inline="always")
def _stretch(occ: np.uint64, d: int, sq: int) -> tuple[np.uint64, int]:
    """One straight stretch of a beam leaving ``sq`` in direction ``d``: the squares it
    crosses (the first piece's square included) and that square (-1 if it leaves the
    board). The first piece on the ray is the lowest set bit of ``ray & occ`` going N or
    E, the highest going S or W."""
    ray = RAYS[d * 64 + sq]
    hit = ray & occ
    if hit == ZERO:
        return ray, -1
    piece = ctz(hit) if d < 2 else 63 - clz(hit)
    return ray & ~RAYS[d * 64 + piece], piece


@njit
def trace(occ: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64,
          ksq: int) -> tuple[np.uint64, int, int]:
    """Trace the laser of the King on ``ksq`` without changing the board.

    Returns ``(path, stop_sq, kind)``: ``path`` is the bitmap of the King's square, every
    square crossed and the stop square; ``kind`` is 0 when the beam leaves the board
    (``stop_sq`` = -1), 1 when it hits a Pawn on an opaque side, 2 when it hits a King.
    Each straight stretch is one ray lookup (:func:`_stretch`). The loop is bounded (a
    beam path is reversible, so it cannot cycle; kind 3 would say the bound was reached,
    which never happens).
    """
    d = orientation(o0, o1, ksq)
    path = ONE << U(ksq)
    sq = ksq
    pieces = U(occ)
    for _ in range(257):
        crossed, sq = _stretch(pieces, d, sq)
        path |= crossed
        if sq < 0:
            return path, -1, 0
        if (k >> U(sq)) & ONE:
            return path, sq, 2
        nd = REFLECT[d * 4 + orientation(o0, o1, sq)]
        if nd < 0:
            return path, sq, 1
        d = nd
    return path, -1, 3


@njit(inline="always")
def _mark(pending: np.uint64, done: np.uint64, bit: np.uint64) -> tuple[np.uint64, np.uint64]:
    """Add ``bit`` to a direction's ``pending`` states unless it is already ``done``."""
    if done & bit:
        return pending, done
    return pending | bit, done | bit


@njit
def king_sightlines(occ: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64,
                    ksq: int) -> np.uint64:
    """Every square from which a beam could reach the King on ``ksq``, were any of the
    Pawns on its way zapped first: the beams from ``ksq`` in the four directions, traced
    backwards (a path read backwards is a path), that at each Pawn both reflect (where a
    mirror faces them) and go straight on (the Pawn gone), and stop at a King.

    A move that changes no square of this set cannot make a beam reach the King: the
    stretch of a beam after the last square a move changed crosses only squares as they
    were, or emptied by a zap. The walk visits each (square, direction) at most once: a
    bitmap of squares still to leave and one of squares already queued per direction.

    The King on a0, a Pawn facing NW on e0: rank 0 (8 squares, e0 and beyond it too),
    the a-file above a0 (7) and the e-file above e0, where the Pawn's mirror turns a beam
    coming down it towards a0 (7):

    >>> from bitgames.leiserchess.notation import parse_fen
    >>> *bb, side = parse_fen("7ss/8/8/8/8/8/8/NN3NW3 W")
    >>> w, b, k, o0, o1 = (np.uint64(x) for x in bb)
    >>> lines = king_sightlines(w | b, k, o0, o1, 0)
    >>> popcount(lines), bool(lines >> np.uint64(60) & ONE)  # 60: e7
    (22, True)
    """
    bit = ONE << U(ksq)
    p0 = p1 = p2 = p3 = bit  # squares to leave going N, E, S, W
    d0 = d1 = d2 = d3 = bit  # squares ever queued to leave going N, E, S, W
    out = bit
    while p0 | p1 | p2 | p3:
        if p0:
            d, sq = 0, ctz(p0)
            p0 &= p0 - ONE
        elif p1:
            d, sq = 1, ctz(p1)
            p1 &= p1 - ONE
        elif p2:
            d, sq = 2, ctz(p2)
            p2 &= p2 - ONE
        else:
            d, sq = 3, ctz(p3)
            p3 &= p3 - ONE
        crossed, piece = _stretch(occ, d, sq)
        out |= crossed
        if piece < 0 or (k >> U(piece)) & ONE:
            continue
        pb = ONE << U(piece)
        turned = REFLECT[d * 4 + orientation(o0, o1, piece)]
        for nd in (d, turned):
            if nd == 0:
                p0, d0 = _mark(p0, d0, pb)
            elif nd == 1:
                p1, d1 = _mark(p1, d1, pb)
            elif nd == 2:
                p2, d2 = _mark(p2, d2, pb)
            elif nd == 3:
                p3, d3 = _mark(p3, d3, pb)
    return out


@njit
def laser_path(w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64,
               side: int) -> np.uint64:
    """Bitmap of the squares ``side``'s laser crosses in this position (0 if no King)."""
    own = w if side == WHITE else b
    kb = k & own
    if kb == ZERO:
        return ZERO
    path, stop, kind = trace(w | b, k, o0, o1, ctz(kb))
    return path


@njit
def fire_reach(w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64,
               side: int) -> tuple[Any, ...]:
    """:func:`fire`, also returning (last) the bitmap of every square the beam crossed,
    zapped squares included: what happens depends only on the pieces on those squares,
    so a move that neither leaves nor enters one of them is followed by the same zaps."""
    own = w if side == WHITE else b
    kb = k & own
    zapped = 0
    reach = ZERO
    if kb == ZERO:
        return w, b, k, o0, o1, zapped, NONE, reach
    ksq = ctz(kb)
    for _ in range(17):
        path, sq, kind = trace(w | b, k, o0, o1, ksq)
        reach |= path
        if kind == 0 or kind == 3:
            return w, b, k, o0, o1, zapped, NONE, reach
        keep = ~(ONE << U(sq))
        is_white = (w >> U(sq)) & ONE
        w &= keep
        b &= keep
        k &= keep
        o0 &= keep
        o1 &= keep
        if kind == 2:
            res = WHITE_KING_ZAPPED if is_white else BLACK_KING_ZAPPED
            return w, b, k, o0, o1, zapped, res, reach
        zapped += 1
    return w, b, k, o0, o1, zapped, NONE, reach


@njit
def fire(w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64,
         side: int) -> tuple[Any, ...]:
    """Fire ``side``'s laser, re-firing after every zapped Pawn.

    Returns ``(w, b, k, o0, o1, zapped, result)``: the new bitboards, the number of Pawns
    zapped, and :data:`NONE`, :data:`WHITE_KING_ZAPPED` or :data:`BLACK_KING_ZAPPED`
    (that King is removed from the board).
    """
    w, b, k, o0, o1, zapped, res, _reach = fire_reach(w, b, k, o0, o1, side)
    return w, b, k, o0, o1, zapped, res


@njit
def gen_moves(w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64,
              side: int, enemy_path: np.uint64, out: np.ndarray) -> int:
    """Write ``side``'s pseudo-legal moves into ``out``; return their number.

    ``enemy_path`` is the enemy laser's path in this position (from :func:`laser_path`):
    own Pawns on it are pinned and cannot move. Ko is not checked here.
    """
    own = w if side == WHITE else b
    pinned = enemy_path & own & ~k
    movers = own & ~pinned
    n = 0
    while movers:
        sq = ctz(movers)
        movers &= movers - ONE
        tos = NEIGHBOURS[sq]
        while tos:
            to = ctz(tos)
            tos &= tos - ONE
            out[n] = sq | (to << 6)
            n += 1
        out[n] = sq | (sq << 6) | (1 << 12)
        out[n + 1] = sq | (sq << 6) | (2 << 12)
        out[n + 2] = sq | (sq << 6) | (3 << 12)
        n += 3
        if (k >> U(sq)) & ONE:
            out[n] = sq | (sq << 6)
            n += 1
    return n


@njit
def count_moves(w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64,
                side: int, enemy_path: np.uint64) -> int:
    """Number of pseudo-legal moves (what :func:`gen_moves` would write)."""
    own = w if side == WHITE else b
    movers = own & ~(enemy_path & own & ~k)
    n = 0
    while movers:
        sq = ctz(movers)
        movers &= movers - ONE
        n += popcount(NEIGHBOURS[sq]) + 3
    if k & own:
        n += 1
    return n


@njit
def apply_move(w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64,
               mv: int) -> tuple[Any, ...]:
    """The move phase only (no laser): returns the new ``(w, b, k, o0, o1)``."""
    fr = mv & 63
    to = (mv >> 6) & 63
    rot = (mv >> 12) & 3
    if fr != to:
        bf = U(fr)
        bt = U(to)
        swap = (ONE << bf) | (ONE << bt)
        if ((w >> bf) ^ (w >> bt)) & ONE:
            w ^= swap
        if ((b >> bf) ^ (b >> bt)) & ONE:
            b ^= swap
        if ((k >> bf) ^ (k >> bt)) & ONE:
            k ^= swap
        if ((o0 >> bf) ^ (o0 >> bt)) & ONE:
            o0 ^= swap
        if ((o1 >> bf) ^ (o1 >> bt)) & ONE:
            o1 ^= swap
    elif rot != 0:
        o = (orientation(o0, o1, fr) + rot) & 3
        bit = ONE << U(fr)
        o0 = (o0 & ~bit) | (bit if o & 1 else ZERO)
        o1 = (o1 & ~bit) | (bit if o & 2 else ZERO)
    return w, b, k, o0, o1


@njit
def make_move(w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64,
              side: int, mv: int) -> tuple[Any, ...]:
    """Play ``mv`` for ``side`` and fire its laser.

    Returns ``(w, b, k, o0, o1, zapped, result)`` as :func:`fire` does.
    """
    w, b, k, o0, o1 = apply_move(w, b, k, o0, o1, mv)
    return fire(w, b, k, o0, o1, side)


@njit(inline="always")
def same_board(w1: np.uint64, b1: np.uint64, k1: np.uint64, o01: np.uint64, o11: np.uint64,
               w2: np.uint64, b2: np.uint64, k2: np.uint64, o02: np.uint64,
               o12: np.uint64) -> bool:
    """True when two boards are identical."""
    return w1 == w2 and b1 == b2 and k1 == k2 and o01 == o02 and o11 == o12


@njit(nogil=True)
def perft(w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64,
          side: int, depth: int, buf: np.ndarray, ply: int, stop: np.ndarray) -> int:
    """The handout's pseudo-legal perft.

    Every generated move counts (Ko is ignored, a null move that zaps nothing counts),
    pinned Pawns do not move, depth 1 counts moves without making them, and a move that
    zaps a King is one leaf and is not expanded. ``buf`` is an ``int64`` array of shape
    ``(depth + 1, MAX_MOVES)``. The count stops early (a partial count) once ``stop[0]``
    is set: it is read before each move made.
    """
    enemy_path = laser_path(w, b, k, o0, o1, 1 - side)
    if depth <= 1:
        return count_moves(w, b, k, o0, o1, side, enemy_path)
    moves = buf[ply]
    n = gen_moves(w, b, k, o0, o1, side, enemy_path, moves)
    total = 0
    other = 1 - side
    for i in range(n):
        if stop[0]:
            break
        nw, nb, nk, n0, n1, zapped, res = make_move(w, b, k, o0, o1, side, moves[i])
        if res != NONE:
            total += 1
        else:
            total += perft(nw, nb, nk, n0, n1, other, depth - 1, buf, ply + 1, stop)
    return total


@njit(nogil=True)
def perft_legal(w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64,
                side: int, depth: int, pw: np.uint64, pb: np.uint64, pk: np.uint64,
                p0: np.uint64, p1: np.uint64, has_prev: int, buf: np.ndarray,
                ply: int, stop: np.ndarray) -> int:
    """Perft over legal moves: pseudo-legal moves that do not break the Ko rule.

    ``(pw, pb, pk, p0, p1)`` is the board before the previous ply (used when
    ``has_prev`` is 1), for Ko rule (b). Moves are made at every depth; a King zap is one
    leaf. ``stop`` as in :func:`perft`.
    """
    enemy_path = laser_path(w, b, k, o0, o1, 1 - side)
    moves = buf[ply]
    n = gen_moves(w, b, k, o0, o1, side, enemy_path, moves)
    total = 0
    other = 1 - side
    one = np.int64(1)
    for i in range(n):
        if stop[0]:
            break
        nw, nb, nk, n0, n1, zapped, res = make_move(w, b, k, o0, o1, side, moves[i])
        if same_board(nw, nb, nk, n0, n1, w, b, k, o0, o1):
            continue
        if has_prev and same_board(nw, nb, nk, n0, n1, pw, pb, pk, p0, p1):
            continue
        if res != NONE or depth <= 1:
            total += 1
        else:
            total += perft_legal(nw, nb, nk, n0, n1, other, depth - 1,
                                 w, b, k, o0, o1, one, buf, ply + 1, stop)
    return total


@njit
def legal_moves(w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64,
                side: int, pw: np.uint64, pb: np.uint64, pk: np.uint64, p0: np.uint64,
                p1: np.uint64, has_prev: int, out: np.ndarray) -> int:
    """Write the Ko-legal moves into ``out`` (generation order); return their number."""
    enemy_path = laser_path(w, b, k, o0, o1, 1 - side)
    tmp = np.empty(MAX_MOVES, dtype=np.int64)
    n = gen_moves(w, b, k, o0, o1, side, enemy_path, tmp)
    m = 0
    for i in range(n):
        nw, nb, nk, n0, n1, zapped, res = make_move(w, b, k, o0, o1, side, tmp[i])
        if same_board(nw, nb, nk, n0, n1, w, b, k, o0, o1):
            continue
        if has_prev and same_board(nw, nb, nk, n0, n1, pw, pb, pk, p0, p1):
            continue
        out[m] = tmp[i]
        m += 1
    return m


def perft_buffer(depth: int) -> np.ndarray:
    """Scratch move buffer for :func:`perft` / :func:`perft_legal`."""
    return np.zeros((max(depth, 1) + 2, MAX_MOVES), dtype=np.int64)


@register_warmup("leiserchess", "rules")
def _warm() -> None:
    # eight Tangerine pieces (a King and 7 Pawns) at most: MAX_MOVES is sized for them
    w = U(0x0000_0000_A040_2C88)
    bb = U(0x1000_0000_0000_0000)
    k = U(0x1000_0000_0000_0080)
    z = U(0)
    buf = perft_buffer(2)
    flag = np.zeros(1, dtype=np.int64)
    perft(w, bb, k, z, z, 0, 2, buf, 0, flag)
    perft_legal(w, bb, k, z, z, 0, 2, z, z, z, z, z, 0, buf, 0, flag)
    out = np.zeros(MAX_MOVES, dtype=np.int64)
    legal_moves(w, bb, k, z, z, 0, z, z, z, z, z, 0, out)
    laser_path(w, bb, k, z, z, 0)
    make_move(w, bb, k, z, z, 0, 7 | (7 << 6))
