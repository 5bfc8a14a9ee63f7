"""Spatial patterns (bitgames.go.spatial): the canonical hash of a neighbourhood does not
change when the board is turned, reflected or its colours swapped, each size sees exactly
the points within its gridcular distance (Coulom's ``|dx| + |dy| + max(|dx|, |dy|)``), and
a dictionary match is the largest size found, stopping at the first size missing."""

from __future__ import annotations

import numpy as np
import pytest

from bitgames.go import Board
from bitgames.go import features as F
from bitgames.go import kernels as K
from bitgames.go import spatial as S

SIZES = range(S.MIN_SIZE, S.MAX_SIZE + 1)


def _hashes(grid: np.ndarray, row: int, col: int, c: int) -> np.ndarray:
    """The canonical hashes (the smallest of the eight orientations') of each size."""
    out = np.empty((8, len(SIZES)), np.uint64)
    size = grid.shape[0]
    S.hashes_at(grid.ravel().astype(np.int8), size, row * size + col, c, out)
    return out.min(axis=0)


@pytest.mark.parametrize("size", [9, 13, 19])
def test_hashes_do_not_change_under_the_eight_symmetries_or_a_colour_swap(size: int) -> None:
    gen = np.random.default_rng(size)
    index = np.arange(size * size).reshape(size, size)
    for _ in range(20):
        grid = gen.choice(3, (size, size), p=[0.5, 0.25, 0.25])
        row, col = (int(v) for v in gen.integers(0, size, 2))
        c = int(gen.integers(1, 3))
        want = _hashes(grid, row, col, c)
        for k in range(4):
            for flip in (False, True):
                turned, where = np.rot90(grid, k), np.rot90(index, k)
                if flip:
                    turned, where = np.fliplr(turned), np.fliplr(where)
                r, cc = (int(v[0]) for v in np.nonzero(where == row * size + col))
                assert np.array_equal(_hashes(turned, r, cc, c), want)
        swapped = np.where(grid == 0, 0, 3 - grid)
        assert np.array_equal(_hashes(swapped, row, col, 3 - c), want)


def test_each_size_sees_the_points_within_its_gridcular_distance() -> None:
    size = 19
    empty = _hashes(np.zeros((size, size), np.int64), 9, 9, 1)
    for dr in range(-6, 7):
        for dc in range(-6, 7):
            if (dr, dc) == (0, 0):
                continue
            d = abs(dr) + abs(dc) + max(abs(dr), abs(dc))
            for colour in (1, 2):
                grid = np.zeros((size, size), np.int64)
                grid[9 + dr, 9 + dc] = colour
                got = _hashes(grid, 9, 9, 1)
                for j, n in enumerate(SIZES):
                    assert (got[j] == empty[j]) == (n < d), (dr, dc, n)


def test_the_edge_is_seen() -> None:
    """On an empty board every neighbourhood of a corner point holds the edge; from the
    4-4 point the first point off the board is four rows away (d = 8), from the 5-5 point
    five (d = 10): smaller sizes look like the centre of the board."""
    grid = np.zeros((19, 19), np.int64)
    centre = _hashes(grid, 9, 9, 1)
    assert not np.any(_hashes(grid, 0, 0, 1) == centre)
    four, five = _hashes(grid, 3, 3, 1), _hashes(grid, 4, 4, 1)
    for j, n in enumerate(SIZES):
        assert (four[j] == centre[j]) == (n < 8), n
        assert (five[j] == centre[j]) == (n < 10), n


def test_match_finds_the_largest_size_and_stops_at_the_first_missing() -> None:
    board = Board(size=19, moves="Q16 D4 Q3 D16 R5")
    c = int(board._s[8][K.M_TOMOVE])
    color = board._s[0]
    p = board.parse_move("C14").point(19)
    here = S.hashes(board, "C14")  # [orientation, size]
    corner = S.hashes(board, "A1")  # the edge in every size: no pattern in common
    canonical = here.min(axis=0)

    def number(dictionary: np.ndarray, h: np.uint64) -> int:
        return int(dictionary[1, np.searchsorted(dictionary[0], h)])

    for top in range(len(SIZES)):  # C14's patterns seen up to size ``top`` only
        played = here.copy()
        played[:, top + 1:] = corner[:, top + 1:]
        dictionary = S.build(played[None], 1)
        assert S.match(color, 19, p, c, dictionary) == number(dictionary, canonical[top])
    played = here.copy()
    played[:, 2] = corner[:, 2]  # size 6 missing: matching stops at size 5
    dictionary = S.build(played[None], 1)
    assert S.match(color, 19, p, c, dictionary) == number(dictionary, canonical[1])
    assert S.match(color, 19, p, c, S.EMPTY) == 0
    assert S.match(color, 19, p, c, S.build(corner[None], 1)) == 0


def test_the_shipped_dictionary_knows_the_opening_corners() -> None:
    """Strong players open on the 4-4 and 3-4 points: their empty-corner neighbourhoods,
    the largest size included, are among the shipped patterns."""
    board = Board(size=19)
    dictionary = F.load_dictionary()
    assert S.patterns(dictionary) > 1000 and np.all(np.diff(dictionary[0]) > 0)
    largest = {int(n) for h, n in dictionary.T if h in S.hashes(board, "D16")[:, -1]}
    assert len(largest) == 1  # the eight orientations of one pattern
    for move in ("D16", "Q4", "Q16", "D4"):  # the same pattern in the four corners
        assert {F.fields(F.key_at(board, move))["spatial"]} == largest
    table = F.load()
    assert table[F.TABLE_SIZE + F.fields(F.key_at(board, "D16"))["spatial"]] > \
        table[F.TABLE_SIZE + F.fields(F.key_at(board, "K10"))["spatial"]]
