"""Othello rules kernels on two ``uint64`` bitboards.

A position is ``(p, o)``: the discs of the player to move and of the opponent. Square
``a1`` is bit 0, ``h1`` bit 7, ``a2`` bit 8, ..., ``h8`` bit 63 (row-major, as in the FFO
and Edax OBF strings). A move is a square index 0-63; a pass is :data:`PASS` (64).

Kernels:

- :func:`legal_moves` — bitboard of the legal moves (Kogge-Stone style parallel prefix
  fill in the eight directions);
- :func:`flips` — the discs a move flips (one ray mask per direction: the first
  non-opponent square along the ray, found with a lowest/highest set bit, brackets the run);
- :func:`make_move` — the position after a move, seen from the new player to move;
- :func:`final_score` — tournament scoring: the disc difference, with the empty squares
  given to the winner (none on a draw);
- :func:`perft` — leaf counts with bulk counting at the last ply, in both published
  conventions (see :data:`EDAX` and :data:`BIK`).

>>> p, o = start_position()
>>> bin(legal_moves(p, o)).count("1")
4
"""

from __future__ import annotations

import numpy as np

from bitgames.core.bits import clz, ctz, popcount
from bitgames.core.jit import njit, register_warmup

U = np.uint64

PASS = 64
#: Perft convention of Edax and OEIS A124004: a game over before the last ply is not counted.
EDAX = 0
#: Perft convention of Aart Bik (2009): a finished game counts as one leaf at every later ply.
BIK = 1

BLACK_START = 0x0000_0008_1000_0000  # d5, e4
WHITE_START = 0x0000_0010_0800_0000  # d4, e5

_INNER = U(0x7E7E_7E7E_7E7E_7E7E)
_ZERO = U(0)
_ONE = U(1)
_HIGH = U(0x8000_0000_0000_0000)


def start_position() -> tuple[np.uint64, np.uint64]:
    """The standard start: black (to move) on d5 and e4, white on d4 and e5."""
    return U(BLACK_START), U(WHITE_START)


def _build_rays() -> np.ndarray:
    """``RAYS[d, sq]``: squares strictly beyond ``sq`` in direction ``d``.

    Directions 0-3 go towards higher bits (E, N, NE, NW), 4-7 towards lower (W, S, SW, SE).
    """
    steps = [(1, 0), (0, 1), (1, 1), (-1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1)]
    rays = np.zeros((8, 64), dtype=np.uint64)
    for d, (df, dr) in enumerate(steps):
        for sq in range(64):
            f, r = sq % 8 + df, sq // 8 + dr
            mask = 0
            while 0 <= f < 8 and 0 <= r < 8:
                mask |= 1 << (8 * r + f)
                f, r = f + df, r + dr
            rays[d, sq] = mask
    return rays


RAYS = _build_rays()


@njit
def _fill_moves(p: np.uint64, mo: np.uint64, d: np.uint64) -> np.uint64:
    """Squares reached by sliding from ``p`` through ``mo`` in both directions of shift ``d``."""
    d2 = d + d
    fl = mo & (p << d)
    fl |= mo & (fl << d)
    pl = mo & (mo << d)
    fl |= pl & (fl << d2)
    fl |= pl & (fl << d2)
    fr = mo & (p >> d)
    fr |= mo & (fr >> d)
    pr = mo & (mo >> d)
    fr |= pr & (fr >> d2)
    fr |= pr & (fr >> d2)
    return (fl << d) | (fr >> d)


@njit
def legal_moves(p: np.uint64, o: np.uint64) -> np.uint64:
    """Bitboard of the squares where the player to move may play."""
    mo = o & _INNER
    m = _fill_moves(p, mo, U(1))
    m |= _fill_moves(p, o, U(8))
    m |= _fill_moves(p, mo, U(7))
    m |= _fill_moves(p, mo, U(9))
    return m & ~(p | o)


@njit
def flips(p: np.uint64, o: np.uint64, sq: int) -> np.uint64:
    """Discs of ``o`` flipped when the player ``p`` plays on the empty square ``sq``.

    Zero when the move is illegal. Along each ray the first square that is not the
    opponent's ends the run of opponent discs; the run flips when that square is ours.
    The code has no branch (it is on the solver's hottest path): a missing end gives an
    empty run.
    """
    f = _ZERO
    not_o = ~o
    for d in range(4):  # towards higher bits: the end is the lowest non-opponent square
        r = RAYS[d, sq]
        x = r & not_o
        end = x & (_ZERO - x) & p
        f |= (end - U(end != _ZERO)) & r  # the squares below the end, or nothing
    for d in range(4, 8):  # towards lower bits: the end is the highest one
        r = RAYS[d, sq]
        x = r & not_o
        # x | 1: clz(0) would shift by 64; with an empty x, bit 0 is masked off by r & p
        # (were a1 on the ray and ours, x would not be empty)
        end = (_HIGH >> U(clz(x | _ONE))) & p & r
        f |= r & (_ZERO - (end << _ONE))  # the squares above the end, or nothing
    return f


@njit
def make_move(p: np.uint64, o: np.uint64, sq: int) -> tuple[np.uint64, np.uint64]:
    """Position after ``sq`` (or :data:`PASS`), from the view of the next player to move.

    The move is not checked: an illegal square puts a disc without flipping anything.
    """
    if sq == PASS:
        return o, p
    f = flips(p, o, sq)
    return o ^ f, p ^ f ^ (_ONE << U(sq))


@njit
def is_game_over(p: np.uint64, o: np.uint64) -> bool:
    """True when neither side has a legal move."""
    return legal_moves(p, o) == _ZERO and legal_moves(o, p) == _ZERO


@njit
def final_score(p: np.uint64, o: np.uint64) -> int:
    """Final disc difference for the player ``p``, empty squares going to the winner."""
    np_ = popcount(p)
    no = popcount(o)
    diff = np_ - no
    empties = 64 - np_ - no
    if diff > 0:
        return diff + empties
    if diff < 0:
        return diff - empties
    return 0


@njit
def perft(p: np.uint64, o: np.uint64, depth: int, convention: int) -> int:
    """Number of leaves ``depth`` plies below ``(p, o)`` (``depth`` >= 1).

    A pass is a ply. ``convention`` is :data:`EDAX` (a game that ended before the last
    ply is not counted) or :data:`BIK` (it counts as one leaf). Bulk counting: the last
    ply counts the legal moves without playing them.

    >>> p, o = start_position()
    >>> perft(p, o, 4, EDAX)
    244
    """
    moves = legal_moves(p, o)
    if moves == _ZERO:
        if legal_moves(o, p) == _ZERO:
            return convention  # game over: a leaf only in Bik's convention
        if depth == 1:
            return 1
        return perft(o, p, depth - 1, convention)
    if depth == 1:
        return popcount(moves)
    total = 0
    while moves:
        sq = ctz(moves)
        moves &= moves - _ONE
        f = flips(p, o, sq)
        total += perft(o ^ f, p ^ f ^ (_ONE << U(sq)), depth - 1, convention)
    return total


#: :func:`perft_stoppable` polls its stop flag at every node with more plies than this
#: below it; a subtree of this depth takes a few milliseconds at most to count.
POLL_DEPTH = 5


@njit(nogil=True)
def perft_stoppable(p: np.uint64, o: np.uint64, depth: int, convention: int,
                    stop: np.ndarray) -> int:
    """:func:`perft` that can be stopped: every node more than :data:`POLL_DEPTH` plies
    above the leaves polls ``stop[0]`` (a :class:`~bitgames.core.engine.StopSignal` flag;
    the kernel releases the GIL, so another thread can raise it) and, once it is nonzero,
    returns the count so far at once. The subtrees below are counted by :func:`perft`
    itself: the same counts at the same speed.
    """
    if depth <= POLL_DEPTH:
        return perft(p, o, depth, convention)
    if stop[0] != 0:
        return 0
    moves = legal_moves(p, o)
    if moves == _ZERO:
        if legal_moves(o, p) == _ZERO:
            return convention
        return perft_stoppable(o, p, depth - 1, convention, stop)
    total = 0
    while moves:
        sq = ctz(moves)
        moves &= moves - _ONE
        f = flips(p, o, sq)
        total += perft_stoppable(o ^ f, p ^ f ^ (_ONE << U(sq)), depth - 1, convention, stop)
    return total


@register_warmup("othello")
def _warm() -> None:
    p, o = start_position()
    legal_moves(p, o)
    flips(p, o, 19)
    make_move(p, o, 19)
    is_game_over(p, o)
    final_score(p, o)


@register_warmup("othello", "perft")
def _warm_perft() -> None:
    p, o = start_position()
    perft(p, o, 2, EDAX)
    perft_stoppable(p, o, 2, EDAX, np.zeros(1, dtype=np.int64))
