"""Large shape patterns around a move, matched by hashing ("spatial" patterns).

The 3x3 shape (:mod:`bitgames.go.patterns`) sees the eight neighbours of a move. Strong
Monte-Carlo programs also rate moves by larger neighbourhoods learned from game records
(Stern, Herbrich and Graepel, *Bayesian Pattern Ranking for Move Prediction in the Game of
Go*, ICML 2006; Coulom's "Elo ratings" of moves, 2007; Pachi's spatial dictionary). A
neighbourhood of size ``D`` is every point at gridcular distance ``d = |dx| + |dy| +
max(|dx|, |dy|)`` of at most ``D`` from the move, each point empty, the mover's stone, the
opponent's or off the board. Sizes :data:`MIN_SIZE` (12 points: the 3x3 square and the
four points two lines away) to :data:`MAX_SIZE` (72 points) are hashed; ``d <= 3`` is the
3x3 shape, a feature of its own.

A pattern's hash is the XOR of one random word per (point, content); its canonical hash
is the smallest of the hashes of its eight rotations and reflections, and a pattern is
counted in training by its canonical hash. A dictionary (:func:`build`) keeps the
patterns seen often enough, numbered from 1 in the order of their canonical hashes, and
lists the hashes of all eight orientations of each, so that :func:`match` hashes the
board's neighbourhood in one orientation only. It is closed downwards: a pattern seen
``k`` times was seen with every smaller neighbourhood of the same moves, so the smaller
ones are in the dictionary too, and matching stops at the first size not in it.

>>> from bitgames.go import Board
>>> b = Board(size=9)
>>> b.push("c3")
>>> h = canonical_hashes(b, "e7")  # one hash per size, MIN_SIZE to MAX_SIZE
>>> len(h), bool(np.all(h == canonical_hashes(b, "g5")))  # mirror images across c3
(7, True)
>>> bool(h[-1] == canonical_hashes(b, "e5")[-1])
False
>>> dictionary = build(hashes(b, "e7")[None], 1)  # the patterns of one move
>>> patterns(dictionary), match(b._s[0], 9, b.parse_move("g5").point(9), 2, dictionary) > 0
(7, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bitgames.core import jit, rng
from bitgames.go import kernels as K

#: the smallest and largest neighbourhood sizes hashed (gridcular distance)
MIN_SIZE = 4
MAX_SIZE = 10


def _distance(dr: int, dc: int) -> int:
    return abs(dr) + abs(dc) + max(abs(dr), abs(dc))


def _offsets() -> list[tuple[int, int]]:
    """The (row, column) offsets of a neighbourhood of :data:`MAX_SIZE`, nearest first."""
    span = range(-MAX_SIZE // 2, MAX_SIZE // 2 + 1)
    out = [(dr, dc) for dr in span for dc in span
           if (dr, dc) != (0, 0) and _distance(dr, dc) <= MAX_SIZE]
    return sorted(out, key=lambda o: (_distance(*o), o))


def turn(dr: int, dc: int, s: int) -> tuple[int, int]:
    """The offset (``dr``, ``dc``) under symmetry ``s`` of the square (0-7): ``s // 2``
    quarter turns, then a reflection of the columns if ``s`` is odd.

    >>> [turn(1, 2, s) for s in (0, 1, 2, 3)]
    [(1, 2), (1, -2), (2, -1), (2, 1)]
    """
    for _ in range(s >> 1):
        dr, dc = dc, -dr
    return (dr, -dc) if s & 1 else (dr, dc)


def _turned(offsets: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """``int64[8, n]`` rows and columns of the offsets under the eight symmetries."""
    rows = np.empty((8, len(offsets)), np.int64)
    cols = np.empty((8, len(offsets)), np.int64)
    for s in range(8):
        for k, (dr, dc) in enumerate(offsets):
            rows[s, k], cols[s, k] = turn(dr, dc, s)
    return rows, cols


_OFFSETS = _offsets()
#: the offsets turned by each symmetry (the first row: as listed)
ROWS, COLS = _turned(_OFFSETS)
#: how many of the offsets make a neighbourhood of each size, MIN_SIZE to MAX_SIZE
ENDS = np.array([sum(1 for o in _OFFSETS if _distance(*o) <= d)
                 for d in range(MIN_SIZE, MAX_SIZE + 1)], np.int64)
#: the random word of each (offset, content): 0 empty, 1 the mover's, 2 the opponent's,
#: 3 off the board
ZOBRIST = np.array([[rng.random_at(0x5EA7_1A1, 4 * k + v + 1) for v in range(4)]
                    for k in range(len(_OFFSETS))], np.uint64)
for _a in (ROWS, COLS, ENDS, ZOBRIST):
    _a.flags.writeable = False
#: an empty dictionary (no pattern matches)
EMPTY = np.zeros((2, 0), np.uint64)
EMPTY.flags.writeable = False


@jit.njit(nogil=True)
def hashes_at(color: np.ndarray, size: int, p: int, c: int, out: np.ndarray) -> None:
    """Write the hash of each neighbourhood size of point ``p``, seen by colour ``c`` (1
    black, 2 white), in each of the eight orientations into ``out`` (``uint64[8,
    len(ENDS)]``: orientation, then size, smallest first)."""
    r0 = p // size
    c0 = p - r0 * size
    for s in range(8):
        h = np.uint64(0)
        lo = 0
        for j in range(ENDS.shape[0]):
            h ^= _ring(color, size, c, r0, c0, s, lo, ENDS[j])
            lo = ENDS[j]
            out[s, j] = h


@jit.njit(nogil=True)
def match(color: np.ndarray, size: int, p: int, c: int, dictionary: np.ndarray) -> int:
    """The largest pattern of ``dictionary`` (:func:`build`) at point ``p`` for colour
    ``c`` (1 black, 2 white): its number, or 0 if none."""
    r0 = p // size
    c0 = p - r0 * size
    keys = dictionary[0]
    found = 0
    h = np.uint64(0)
    lo = 0
    for j in range(ENDS.shape[0]):
        h ^= _ring(color, size, c, r0, c0, 0, lo, ENDS[j])
        lo = ENDS[j]
        i = np.searchsorted(keys, h)
        if i == keys.shape[0] or keys[i] != h:
            break  # the dictionary is closed downwards: nothing larger
        found = dictionary[1, i]
    return found


@jit.njit(nogil=True, inline="always")
def _ring(color: np.ndarray, size: int, c: int, r0: int, c0: int, s: int, lo: int,
          hi: int) -> np.uint64:
    """The XOR of the random words of the offsets ``lo:hi`` turned by symmetry ``s``."""
    x = np.uint64(0)
    for k in range(lo, hi):
        r = r0 + ROWS[s, k]
        col = c0 + COLS[s, k]
        if r < 0 or r >= size or col < 0 or col >= size:
            x ^= ZOBRIST[k, 3]
        else:
            v = color[r * size + col]
            x ^= ZOBRIST[k, 0 if v == 0 else (1 if v == c else 2)]
    return x


def hashes(board: Any, move: str) -> np.ndarray:
    """:func:`hashes_at` of ``move`` for the side to move on ``board`` (a
    :class:`bitgames.go.Board`): ``uint64[8, len(ENDS)]``."""
    p = board.parse_move(move).point(board.size)
    out = np.empty((8, len(ENDS)), np.uint64)
    hashes_at(board._s[0], board.size, p, board._s[8][K.M_TOMOVE], out)
    return out


def canonical_hashes(board: Any, move: str) -> np.ndarray:
    """The canonical hashes of the neighbourhoods of ``move`` for the side to move on
    ``board``, sizes :data:`MIN_SIZE` to :data:`MAX_SIZE`."""
    return hashes(board, move).min(axis=0)


def patterns(dictionary: np.ndarray) -> int:
    """The number of patterns of ``dictionary``."""
    return int(dictionary[1].max()) if dictionary.shape[1] else 0


def build(played: np.ndarray, min_count: int) -> np.ndarray:
    """The dictionary of the patterns seen at least ``min_count`` times among ``played``
    (``uint64[n, 8, len(ENDS)]``: the :func:`hashes_at` of the moves played in training
    games). Returns ``uint64[2, m]``: the hashes of every orientation of every pattern
    kept, sorted, and under each the pattern's number (from 1, in the order of the
    canonical hashes).

    >>> played = np.zeros((3, 8, 2), np.uint64)
    >>> played[:, :, 0] = 5  # a pattern the same in every orientation, three times
    >>> played[:, :, 1] = [[9, 8, 9, 8, 9, 8, 9, 8]] * 2 + [[7] * 8]
    >>> build(played, 2).tolist()
    [[5, 8, 9], [1, 2, 2]]
    """
    played = np.asarray(played, np.uint64)
    canonical = played.min(axis=1)  # [move, size]
    values, counts = np.unique(canonical, return_counts=True)
    kept = values[counts >= min_count]
    number = np.searchsorted(kept, canonical)
    move, size = np.nonzero(np.isin(canonical, kept))
    pairs = np.stack([played[move, :, size].ravel(),
                      np.repeat(number[move, size] + 1, 8).astype(np.uint64)])
    pairs = np.unique(pairs, axis=1)  # sorted by hash
    return np.ascontiguousarray(pairs)
