"""Bit numbering of the 32 dark squares: the seed's diagonal numbering against row numbering.

Run: python benchmarks/draughts_numbering.py [--positions 1000000] [--repeat 5]

Both kernels do the same work on the same random positions (translated into each
numbering): count the quiet moves of the men of both sides and test whether each side has
a man capture -- the bitboard shifts that dominate perft at the leaves (kings use the
magic tables, which do not depend on the numbering). Diagonal numbering: a step is a shift
by 1 or a 32-bit rotation by 7 (one mask each). Row numbering (a1 = 0, four squares per
row): a step is a shift by 3/4 or 4/5 depending on the row's parity (two masks and two
shifts each). Prints ns per position for each.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bitgames.core.bits import popcount
from bitgames.core.jit import njit
from bitgames.draughts import geometry as g

U = np.uint64
M32 = U(0xFFFF_FFFF)

# diagonal numbering masks
D_UL, D_UR, D_DL, D_DR = (U(m) for m in g.CAN)


def row_index(s: int) -> int:
    f, r = g.COORDS[s]
    return 4 * r + f // 2


def row_mask(pred) -> np.uint64:  # type: ignore[no-untyped-def]
    m = 0
    for s in range(32):
        f, r = g.COORDS[s]
        if pred(f, r):
            m |= 1 << row_index(s)
    return U(m)


# row numbering: UL is +3 on even rows (k >= 1) and +4 on odd rows; UR +4 even, +5 odd (k <= 2)
R_UL3 = row_mask(lambda f, r: r % 2 == 0 and r < 7 and f > 0)
R_UL4 = row_mask(lambda f, r: r % 2 == 1 and r < 7)
R_UR4 = row_mask(lambda f, r: r % 2 == 0 and r < 7)
R_UR5 = row_mask(lambda f, r: r % 2 == 1 and r < 7 and f < 7)


@njit
def _d_ul(x: np.uint64) -> np.uint64:
    return (x & D_UL) << U(1)


@njit
def _d_ur(x: np.uint64) -> np.uint64:
    y = x & D_UR
    return ((y << U(7)) | (y >> U(25))) & M32


@njit
def _d_dl(x: np.uint64) -> np.uint64:
    y = x & D_DL
    return ((y << U(25)) | (y >> U(7))) & M32


@njit
def _d_dr(x: np.uint64) -> np.uint64:
    return (x & D_DR) >> U(1)


@njit
def _r_ul(x: np.uint64) -> np.uint64:
    return ((x & R_UL3) << U(3)) | ((x & R_UL4) << U(4))


@njit
def _r_ur(x: np.uint64) -> np.uint64:
    return ((x & R_UR4) << U(4)) | ((x & R_UR5) << U(5))


@njit
def _r_dl(x: np.uint64) -> np.uint64:
    # down-left: even rows -5 (k >= 1), odd rows -4
    return ((x & R_DL_EVEN) >> U(5)) | ((x & R_DL_ODD) >> U(4))


@njit
def _r_dr(x: np.uint64) -> np.uint64:
    # down-right: even rows -4, odd rows -3 (k <= 2)
    return ((x & R_DR_EVEN) >> U(4)) | ((x & R_DR_ODD) >> U(3))


R_DL_EVEN = row_mask(lambda f, r: r % 2 == 0 and r > 0 and f > 0)
R_DL_ODD = row_mask(lambda f, r: r % 2 == 1)
R_DR_EVEN = row_mask(lambda f, r: r % 2 == 0 and r > 0)
R_DR_ODD = row_mask(lambda f, r: r % 2 == 1 and f < 7)


def _counter(ul, ur, dl, dr):  # type: ignore[no-untyped-def]
    """The benchmark's kernel for one numbering, given its four step functions (numba
    compiles each returned kernel with its own steps as constants)."""

    @njit
    def count(pos: np.ndarray, reps: int) -> int:
        total = 0
        for _ in range(reps):
            for i in range(pos.shape[0]):
                w = pos[i, 0]
                b = pos[i, 1]
                e = ~(w | b) & M32
                total += popcount(ul(w) & e) + popcount(ur(w) & e)
                total += popcount(dl(b) & e) + popcount(dr(b) & e)
                if (ul(ul(w) & b) | ur(ur(w) & b) | dl(dl(w) & b) | dr(dr(w) & b)) & e != U(0):
                    total += 1
                if (ul(ul(b) & w) | ur(ur(b) & w) | dl(dl(b) & w) | dr(dr(b) & w)) & e != U(0):
                    total += 1
        return total

    return count


diagonal = _counter(_d_ul, _d_ur, _d_dl, _d_dr)
rows = _counter(_r_ul, _r_ur, _r_dl, _r_dr)


def positions(n: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    diag = np.zeros((n, 2), dtype=np.uint64)
    row = np.zeros((n, 2), dtype=np.uint64)
    to_row = [row_index(s) for s in range(32)]
    for i in range(n):
        squares = rng.permutation(32)[: rng.integers(4, 25)]
        half = len(squares) // 2
        for col, part in ((0, squares[:half]), (1, squares[half:])):
            diag[i, col] = U(sum(1 << int(s) for s in part))
            row[i, col] = U(sum(1 << to_row[int(s)] for s in part))
    return diag, row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--positions", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    diag, row = positions(args.positions)
    assert diagonal(diag, 1) == rows(row, 1), "the two numberings disagree"
    for name, fn, pos in (("diagonal", diagonal, diag), ("row", rows, row)):
        best = float("inf")
        for _ in range(args.repeat):
            cpu = time.process_time()
            fn(pos, 10)
            best = min(best, time.process_time() - cpu)
        print(f"{name} numbering: {best / (10 * args.positions) * 1e9:.2f} ns per position "
              "(men quiet-move count + capture test, both sides)")


if __name__ == "__main__":
    main()
