"""The transposition table shared by the Othello search and the endgame solver.

A table is a ``uint64`` array of shape ``(2**bits, 3)``; a row holds the whole position
(player and opponent bitboards, so a hit is never false) and one data word::

    data = (lower + 32768) | (upper + 32768) << 16 | move << 32 | depth << 40 | gen << 48

Rows form buckets of :data:`BUCKET`; a store replaces the same position if present,
otherwise the entry of an older search (``gen``), otherwise the shallowest one. An
all-zero row is empty: no position has both bitboards empty.

>>> import numpy as np
>>> tt = new_table(8)
>>> p, o = np.uint64(0x0000_0008_1000_0000), np.uint64(0x0000_0010_0800_0000)
>>> store(tt, p, o, 5, 1, -3, 12, 19)
>>> i = probe(tt, p, o)
>>> int(lower(tt[i, 2])), int(upper(tt[i, 2])), int(move(tt[i, 2])), int(depth(tt[i, 2]))
(-3, 12, 19, 5)
"""

from __future__ import annotations

import numpy as np

from bitgames.core.errors import BitgamesError
from bitgames.core.jit import njit

U = np.uint64
BUCKET = 4


def new_table(bits: int = 20) -> np.ndarray:
    """An empty table of ``2**bits`` entries (24 bytes each)."""
    if not 4 <= bits <= 30:
        raise BitgamesError(f"table bits must be 4..30, got {bits}")
    return np.zeros((1 << bits, 3), dtype=np.uint64)


@njit
def _index(tt: np.ndarray, p: np.uint64, o: np.uint64) -> int:
    h = p * U(0x9E37_79B9_7F4A_7C15) ^ o * U(0xC2B2_AE3D_27D4_EB4F)
    h ^= h >> U(29)
    return np.int64(h & U(tt.shape[0] - BUCKET))


@njit
def probe(tt: np.ndarray, p: np.uint64, o: np.uint64) -> int:
    """Row of the position ``(p, o)``, or -1."""
    base = _index(tt, p, o)
    for i in range(base, base + BUCKET):
        if tt[i, 0] == p and tt[i, 1] == o:
            return i
    return -1


@njit
def store(tt: np.ndarray, p: np.uint64, o: np.uint64, depth: int, gen: int, lower: int,
          upper: int, move: int) -> None:
    """Record bounds ``lower <= score <= upper`` and the best move of ``(p, o)``."""
    base = _index(tt, p, o)
    slot = base
    worst = 1 << 30
    for i in range(base, base + BUCKET):
        if tt[i, 0] == p and tt[i, 1] == o:
            slot = i
            break
        d = tt[i, 2]
        age = 0 if np.int64((d >> U(48)) & U(0xFF)) == gen else 1000
        keep = np.int64((d >> U(40)) & U(0xFF)) - age
        if keep < worst:
            worst = keep
            slot = i
    tt[slot, 0] = p
    tt[slot, 1] = o
    tt[slot, 2] = (U(lower + 32768) | (U(upper + 32768) << U(16)) | (U(move) << U(32))
                   | (U(depth) << U(40)) | (U(gen) << U(48)))


@njit
def lower(data: np.uint64) -> int:
    """The lower bound stored in a data word."""
    return np.int64(data & U(0xFFFF)) - 32768


@njit
def upper(data: np.uint64) -> int:
    """The upper bound stored in a data word."""
    return np.int64((data >> U(16)) & U(0xFFFF)) - 32768


@njit
def move(data: np.uint64) -> int:
    """The best move stored in a data word."""
    return np.int64((data >> U(32)) & U(0xFF))


@njit
def depth(data: np.uint64) -> int:
    """The depth (plies, or empties for the solver) stored in a data word."""
    return np.int64((data >> U(40)) & U(0xFF))
