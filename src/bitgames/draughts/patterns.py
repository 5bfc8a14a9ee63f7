"""A learned draughts evaluation: tables of the men's patterns in 22 windows of the board.

The board is seen from the side to move (turned half round when Black moves, so that one's
own men always move up) and its 32 dark squares numbered by rows: square ``4 * rank +
file // 2``. Each *window* is a group of 8 squares; the men on it (empty, one's own, the
opponent's) make one of 3**8 = 6561 patterns, and each pattern has a learned value:

* windows 0-6: two neighbouring ranks (ranks 1-2, 2-3, ..., 7-8);
* windows 7-21: four neighbouring ranks by two neighbouring columns of squares.

Every pattern has two values, one for the opening (24 men on the board) and one for the
ending (none), mixed by the number of men. Kings, which patterns do not see, count through
a few more weights: a king (opening and ending), mobility (opening and ending) and a king on
the main road. Everything is fitted by least squares to the scores of searches
(``benchmarks/draughts_patterns.py``), in centi-men.

The weights are one ``int64`` array: the 8 hand weights of :mod:`bitgames.draughts.eval`,
then :data:`N_DENSE` learned weights, then the tables, ``(2, N_WINDOWS, PATTERNS)`` flat;
:func:`bitgames.draughts.eval.evaluate` hands such an array to :func:`evaluate`. A file
of them (``.npz``) keeps the learned part as ``learned`` (``int16``) with its ``variant``;
the weights shipped for Russian are ``data/patterns_russian.npz`` (``data/README.md``
says how they were made).

>>> from bitgames.draughts import kernels as K
>>> w, b, k, side = K.start_position(K.RUSSIAN)
>>> own, opp = oriented(w & ~k, b & ~k, side)
>>> [window_index(own, opp, i) for i in (0, 2, 3, 4)]  # ranks 1-2, 3-4, 4-5, 5-6
[3280, 40, 0, 6480]
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

import numpy as np

from bitgames.core.bits import popcount
from bitgames.core.errors import BitgamesError
from bitgames.core.files import FileError, atomic_write, load_npz
from bitgames.core.jit import njit
from bitgames.draughts import geometry as g
from bitgames.draughts.board import MAIN_ROAD
from bitgames.draughts.kernels import WHITE, count_quiet

U = np.uint64

N_WINDOWS = 22
PATTERNS = 3 ** 8
#: learned weights besides the tables: king (opening, ending), mobility (opening, ending),
#: king on the main road
N_DENSE = 5
D_KING_OPEN, D_KING_END, D_MOBILITY_OPEN, D_MOBILITY_END, D_ROAD = range(N_DENSE)
#: where the learned weights start in the weight array (after the hand weights)
FIRST = 8
TABLES = FIRST + N_DENSE
SIZE = TABLES + 2 * N_WINDOWS * PATTERNS


def _row_tables(turned: bool) -> np.ndarray:
    """``t[j, byte]``: the row-numbered word of the bits ``8j .. 8j + 7`` of a bitboard."""
    t = np.zeros((4, 256), dtype=np.uint64)
    for s in range(32):
        f, r = g.COORDS[s]
        q = 4 * r + f // 2
        if turned:
            q = 31 - q
        for byte in range(256):
            if byte >> (s % 8) & 1:
                t[s // 8, byte] |= np.uint64(1 << q)
    return t


ROWS = _row_tables(False)
ROWS_TURNED = _row_tables(True)
#: BASE3[m]: the sum of 3**i over the bits i of an 8-bit ``m``
BASE3 = np.array([sum(3 ** i for i in range(8) if m >> i & 1) for m in range(256)],
                 dtype=np.int64)


@njit(inline="always")
def _rows(x: np.uint64, t: np.ndarray) -> np.uint64:
    return (t[0, x & U(0xFF)] | t[1, (x >> U(8)) & U(0xFF)] | t[2, (x >> U(16)) & U(0xFF)]
            | t[3, (x >> U(24)) & U(0xFF)])


@njit(inline="always")
def oriented(wm: np.uint64, bm: np.uint64, side: int) -> tuple[np.uint64, np.uint64]:
    """The men of the side to move and of its opponent (``wm``, ``bm``: White's and Black's
    men), row-numbered from the side to move's point of view."""
    if side == 0:
        return _rows(wm, ROWS), _rows(bm, ROWS)
    return _rows(bm, ROWS_TURNED), _rows(wm, ROWS_TURNED)


@njit(inline="always")
def window_index(own: np.uint64, opp: np.uint64, i: int) -> int:
    """The pattern (0 .. 6560) of window ``i`` for row-numbered men ``own`` and ``opp``."""
    own, opp = U(own), U(opp)
    if i < 7:
        a = (own >> U(4 * i)) & U(0xFF)
        o = (opp >> U(4 * i)) & U(0xFF)
    else:
        rank, column = divmod(i - 7, 3)
        a = U(0)
        o = U(0)
        for j in range(4):
            shift = U(4 * (rank + j) + column)
            a |= ((own >> shift) & U(3)) << U(2 * j)
            o |= ((opp >> shift) & U(3)) << U(2 * j)
    return BASE3[a] + 2 * BASE3[o]


ROAD = U(MAIN_ROAD)  # the main road (a1-h8) as the kernels' uint64


@njit(inline="always")
def terms(w: np.uint64, b: np.uint64, k: np.uint64, side: int,
          variant: int) -> tuple[np.uint64, np.uint64, int, int, int, int]:
    """What the learned evaluation reads of a position: the men (:func:`oriented`), then,
    from the side to move's point of view, the men on the board, kings, mobility (quiet
    moves) and kings on the main road, each as own minus the opponent's."""
    wm, bm, wk, bk = w & ~k, b & ~k, w & k, b & k
    own, opp = oriented(wm, bm, side)
    kings = popcount(wk) - popcount(bk)
    mobility = count_quiet(w, b, k, 0, variant) - count_quiet(w, b, k, 1, variant)
    road = popcount(wk & ROAD) - popcount(bk & ROAD)
    if side != WHITE:
        kings, mobility, road = -kings, -mobility, -road
    return own, opp, popcount(wm) + popcount(bm), kings, mobility, road


@njit(_nrt=False)
def evaluate(w: np.uint64, b: np.uint64, k: np.uint64, side: int, variant: int,
             wt: np.ndarray) -> int:
    """The learned evaluation of a position for the side to move, in centi-men."""
    own, opp, men, kings, mobility, road = terms(w, b, k, side, variant)
    d = FIRST
    opening = wt[d + D_KING_OPEN] * kings + wt[d + D_MOBILITY_OPEN] * mobility
    ending = wt[d + D_KING_END] * kings + wt[d + D_MOBILITY_END] * mobility
    for i in range(N_WINDOWS):
        x = window_index(own, opp, i)
        opening += wt[TABLES + i * PATTERNS + x]
        ending += wt[TABLES + (N_WINDOWS + i) * PATTERNS + x]
    return (men * opening + (24 - men) * ending) // 24 + wt[d + D_ROAD] * road


@njit(_nrt=False)
def features(w: np.ndarray, b: np.ndarray, k: np.ndarray, side: np.ndarray, variant: int,
             pattern: np.ndarray, dense: np.ndarray) -> None:
    """For fitting, position ``n``'s pattern of window ``i`` in ``pattern[n, i]`` and its
    men, kings, mobility and kings on the main road (:func:`terms`) in ``dense[n]``."""
    for n in range(len(w)):
        own, opp, men, kings, mobility, road = terms(w[n], b[n], k[n], side[n], variant)
        for i in range(N_WINDOWS):
            pattern[n, i] = window_index(own, opp, i)
        dense[n, 0], dense[n, 1], dense[n, 2], dense[n, 3] = men, kings, mobility, road


def save_patterns(path: str | Path, learned: np.ndarray, variant: str) -> None:
    """Write the learned part of a weight array (after the hand weights) to ``path``."""
    if learned.shape != (SIZE - FIRST,) or np.abs(learned).max() > 32767:
        raise BitgamesError(f"{learned.shape} learned weights, expected ({SIZE - FIRST},) "
                            "within 16 bits")
    with atomic_write(path) as f:
        np.savez_compressed(f, learned=learned.astype(np.int16), variant=np.array(variant))


def load_patterns(source: str | Path | bytes) -> np.ndarray:
    """The whole weight array of a pattern file (a path, or its bytes), checked.

    >>> weights = shipped("russian")
    >>> weights.shape == (SIZE,), weights.dtype
    (True, dtype('int64'))
    """
    from bitgames.draughts.eval import hand_weights

    data = load_npz(source, "draughts pattern weights", {"learned": ("i", 1),
                                                         "variant": ("U", 0)})
    learned, variant = data["learned"], str(data["variant"])
    if learned.shape != (SIZE - FIRST,) or variant not in ("russian", "english"):
        name = "<bytes>" if isinstance(source, bytes) else str(source)
        raise FileError(f"{name}: draughts pattern weights: {learned.shape} weights of "
                        f"{variant!r}, expected ({SIZE - FIRST},) of russian or english")
    return np.concatenate([hand_weights(variant), learned.astype(np.int64)])


@functools.cache
def _shipped(variant: str) -> np.ndarray | None:
    ref = resources.files("bitgames.draughts") / "data" / f"patterns_{variant}.npz"
    return load_patterns(ref.read_bytes()) if ref.is_file() else None


def shipped(variant: str) -> np.ndarray | None:
    """The learned weights shipped for ``variant`` (a copy of its own for each caller), or
    None where there are none."""
    weights = _shipped(variant)
    return None if weights is None else weights.copy()
