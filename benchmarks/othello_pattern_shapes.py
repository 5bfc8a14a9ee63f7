"""Would more pattern shapes make the Othello evaluation err less? A fit on exact labels.

    python benchmarks/othello_pattern_shapes.py WTHOR_DIR [--damp 3] [--shapes tri,cross]

Issue 14 names richer features among what could bring the evaluation's error down: more
pattern shapes, as Edax and Egaroucid use. This script answers it on labels nobody here
made: every WTHOR game's position with 24 empties, labelled by the game's theoretical
score (exact: perfect play from there, computed by the federation). It fits one stage of
weights by the training pipeline's regularised least squares (``bitgames.othello.train.ridge``:
columns scaled to unit norm, ``lsqr``) on nine games in ten and prints the mean absolute
error in discs on the tenth it held out (every tenth game in date order, as ``bitgames
othello train --wthor`` holds them out) and on the fitted games: first with the shipped
features alone (the patterns of :mod:`bitgames.othello.patterns` and the scalar
features), then with each extra shape added, then with all of them. A shape is given as
its squares near a1; its instances are its images under the board's eight symmetries,
as for the shipped patterns, and each extra shape gets one weight table shared by its
instances.

The extra shapes (10 squares each, 3^10 weights): ``tri``, the corner triangle
(Egaroucid); ``block``, the corner, a 4-square edge block, the far corner and the four
squares inside the block (Edax's edge block); ``cross``, the main diagonal from a1 with
its two neighbouring diagonals (Egaroucid); ``edge2``, the edge with both C-adjacent
squares of the second row (a2, h2). Reading the files takes under a minute, each fit 7-25 s.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from othello_wthor_error import position_at  # benchmarks/, the folder of this script
from scipy.sparse import csr_matrix

from bitgames.othello import patterns as P
from bitgames.othello.board import Board
from bitgames.othello.eval import B3, GATHER, batch_features
from bitgames.othello.train import ridge
from bitgames.othello.wthor import load_base

SHAPES = {
    "tri": "a1 b1 c1 d1 a2 b2 c2 a3 b3 a4",
    "block": "a1 c1 d1 e1 f1 h1 c2 d2 e2 f2",
    "cross": "a1 b2 c3 d4 b1 c2 d3 a2 b3 c4",
    "edge2": "a1 b1 c1 d1 e1 f1 g1 h1 a2 h2",
}


def read(folder: Path, empties: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Bitboards (side to move, other side), exact labels for the side to move and a
    held-out flag of every game's position with ``empties`` empties."""
    ps, os_, labels, held = [], [], [], []
    index = 0
    for path in sorted(folder.glob("WTH_*.wtb")):
        base = load_base(path)
        if base.depth != empties:
            raise SystemExit(f"{path}: theoretical depth {base.depth}, not {empties}")
        for game in base.games:
            board = position_at(game, empties)
            if board is not None:
                p, o = board.bitboards()
                black = 2 * game.theoretical - 64
                ps.append(p)
                os_.append(o)
                labels.append(black if board.turn == Board().turn else -black)
                held.append(index % 10 == 0)
            index += 1
    return (np.array(ps, dtype=np.uint64), np.array(os_, dtype=np.uint64),
            np.array(labels, dtype=np.float64), np.array(held))


def shape_columns(digits: np.ndarray, squares: str, first: int) -> tuple[np.ndarray, int]:
    """Weight columns (from ``first`` on) of every instance of a shape in each position,
    and the size of its table. ``digits``: 0 empty, 1 the side to move, 2 the other."""
    canonical = tuple(P.sq(name) for name in squares.split())
    powers = 3 ** np.arange(len(canonical) - 1, -1, -1)
    instances = P._instances(P.Pattern("extra", canonical))  # noqa: SLF001 - the same symmetry rule
    cols = [first + digits[:, list(inst)] @ powers for inst in instances]
    return np.stack(cols, axis=1), 3 ** len(canonical)


def fit_error(cols: np.ndarray, width: int, labels: np.ndarray, held: np.ndarray,
              damp: float) -> tuple[float, float]:
    """Held-out and fitted mean absolute error (discs) of a ridge fit on ``cols``."""
    fit = ~held
    rows, k = cols[fit].shape
    a = csr_matrix((np.ones(rows * k), cols[fit].ravel(), np.arange(0, rows * k + 1, k)),
                   shape=(rows, width))
    w = ridge(a, labels[fit], damp)
    return (float(np.abs(w[cols[held]].sum(axis=1) - labels[held]).mean()),
            float(np.abs(w[cols[fit]].sum(axis=1) - labels[fit]).mean()))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder", type=Path, help="folder of WTH_*.wtb files")
    ap.add_argument("--damp", type=float, default=3.0, help="ridge damping (the pipeline's)")
    ap.add_argument("--shapes", default=",".join(SHAPES), help="extra shapes to try")
    args = ap.parse_args()
    names = [name for name in args.shapes.split(",") if name]
    unknown = [name for name in names if name not in SHAPES]
    if unknown:
        raise SystemExit(f"unknown shape {unknown[0]!r}: choose from {', '.join(SHAPES)}")
    start = time.time()
    ps, os_, labels, held = read(args.folder, 24)
    print(f"{len(labels)} positions with 24 empties, {held.sum()} held out "
          f"({time.time() - start:.0f} s)", flush=True)
    base = P.PACK[batch_features(ps, os_, GATHER, B3)]  # the shipped features, tied
    bits = np.arange(64, dtype=np.uint64)
    digits = (((ps[:, None] >> bits) & np.uint64(1)) + 2 * ((os_[:, None] >> bits) & np.uint64(1))
              ).astype(np.int64)
    trials = [[]] + [[name] for name in names] + ([names] if len(names) > 1 else [])
    for extra in trials:
        cols, width = [base], int(P.N_WEIGHTS)
        for name in extra:
            more, size = shape_columns(digits, SHAPES[name], width)
            cols.append(more)
            width += size
        start = time.time()
        held_out, fitted = fit_error(np.hstack(cols), width, labels, held, args.damp)
        label = "shipped features" + "".join(f" + {name}" for name in extra)
        print(f"{label:45s} held out {held_out:.3f} discs, fitted {fitted:.3f} "
              f"({time.time() - start:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
