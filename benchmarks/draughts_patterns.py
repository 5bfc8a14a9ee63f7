"""Fit the learned draughts evaluation (``bitgames.draughts.patterns``) to search scores.

Run: python benchmarks/draughts_texel.py games DATA --games 16000 --depth 6
     python benchmarks/draughts_patterns.py DATA OUT.npz [--clip 600] [--damp 1.0]
                                            [--prior FILE.npz]

The games (``draughts_texel.py``, resumable) keep every quiet position of self-play from
random openings with the score the engine's search gave it. This fits, by least squares,
the pattern tables and the few weights for kings and mobility so that the static evaluation
predicts those scores (in centi-men, clipped to ``--clip``; proven wins and losses are left
out), holds out every tenth game, prints the held-out error of today's hand evaluation and
of the fit, and writes the weights to ``OUT.npz`` (``bitgames.draughts.patterns.save_patterns``)
for the engine option ``patterns:OUT.npz``; ``src/bitgames/draughts/data/patterns_russian.npz``
is such a file (its README gives the run).

``--prior FILE.npz`` fits the change from the weights in that file instead of from zero: the
damping then pulls each weight towards its value there, so a pattern the new games seldom
show keeps what earlier games taught it, and a new round of games can refine the shipped
weights without the data they were fitted to.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from bitgames.draughts import eval as E
from bitgames.draughts import kernels as K
from bitgames.draughts import patterns as P


def load(folder: str) -> dict[str, np.ndarray]:
    """Every position of the chunks in ``folder`` with its score and game number."""
    chunks = sorted(Path(folder).glob("chunk_*.npz"))
    if not chunks:
        raise SystemExit(f"no chunk_*.npz in {folder}: run draughts_texel.py games first")
    parts: dict[str, list[np.ndarray]] = {key: [] for key in ("w", "b", "k", "side",
                                                                "score", "game")}
    for n, path in enumerate(chunks):
        with np.load(path) as data:
            if "score" not in data:
                raise SystemExit(f"{path} has no search scores: made by an older version")
            for key in ("w", "b", "k", "side", "score"):
                parts[key].append(data[key])
            parts["game"].append(data["game"].astype(np.int64) + n * 1000)
    return {key: np.concatenate(value) for key, value in parts.items()}


def design(data: dict[str, np.ndarray], variant: int) -> tuple[object, np.ndarray]:
    """The sparse feature matrix (columns as the weights after ``P.FIRST``) and today's
    hand evaluation of every position."""
    from scipy import sparse

    w, b, k, side = data["w"], data["b"], data["k"], data["side"].astype(np.int64)
    n = len(w)
    pattern = np.empty((n, P.N_WINDOWS), dtype=np.int64)
    dense = np.empty((n, 4), dtype=np.int64)
    P.features(w, b, k, side, variant, pattern, dense)
    men, kings, mobility, road = dense.T
    t = men / 24
    hand = E.hand_weights("russian" if variant == K.RUSSIAN else "english")
    today = np.array([E.evaluate(w[i], b[i], k[i], int(side[i]), variant, hand)
                      for i in range(n)], dtype=np.float64)
    # the columns D_KING_OPEN ... D_ROAD, then each window's opening and ending tables
    window = np.arange(P.N_WINDOWS)
    cols = np.concatenate([np.broadcast_to(np.arange(P.N_DENSE), (n, P.N_DENSE)),
                           P.N_DENSE + window * P.PATTERNS + pattern,
                           P.N_DENSE + (P.N_WINDOWS + window) * P.PATTERNS + pattern], 1)
    vals = np.concatenate([np.stack([kings * t, kings * (1 - t), mobility * t,
                                     mobility * (1 - t), road], 1),
                           np.repeat(t[:, None], P.N_WINDOWS, 1),
                           np.repeat((1 - t)[:, None], P.N_WINDOWS, 1)], 1)
    rows = np.repeat(np.arange(n), cols.shape[1])
    x = sparse.csr_matrix((vals.ravel(), (rows, cols.ravel())), shape=(n, P.SIZE - P.FIRST))
    return x, today


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data")
    ap.add_argument("out")
    ap.add_argument("--variant", choices=("russian", "english"), default="russian")
    ap.add_argument("--clip", type=float, default=600.0)
    ap.add_argument("--damp", type=float, default=1.0)
    ap.add_argument("--prior", metavar="FILE.npz",
                    help="fit the change from these weights (damped towards them)")
    args = ap.parse_args()
    from scipy.sparse.linalg import lsqr

    variant = K.RUSSIAN if args.variant == "russian" else K.ENGLISH
    data = load(args.data)
    keep = np.isfinite(data["score"])
    data = {key: value[keep] for key, value in data.items()}
    y = np.clip(100 * data["score"], -args.clip, args.clip)
    start = time.perf_counter()
    x, today = design(data, variant)
    held = data["game"] % 10 == 0
    print(f"{len(y)} positions ({held.sum()} held out), features in "
          f"{time.perf_counter() - start:.0f} s", flush=True)
    scale = float(today[~held] @ y[~held] / (today[~held] @ today[~held]))
    rms = float(np.sqrt(np.mean((np.clip(today[held] * scale, -args.clip, args.clip)
                                 - y[held]) ** 2)))
    print(f"hand evaluation (scaled by {scale:.3f}): held-out error {rms:.1f} centi-men")
    start = time.perf_counter()
    train, test = x[~held], x[held]  # row copies of a large matrix: made once
    prior = np.zeros(P.SIZE - P.FIRST)
    if args.prior:
        prior = P.load_patterns(args.prior)[P.FIRST:].astype(np.float64)
        error = float(np.sqrt(np.mean((test @ prior - y[held]) ** 2)))
        print(f"{args.prior}: held-out error {error:.1f} centi-men")
    theta = prior + lsqr(train, y[~held] - train @ prior, damp=args.damp, iter_lim=1000)[0]
    error = float(np.sqrt(np.mean((test @ theta - y[held]) ** 2)))
    print(f"fitted in {time.perf_counter() - start:.0f} s: held-out error {error:.1f} "
          f"centi-men; king {theta[0]:.0f}/{theta[1]:.0f}, mobility {theta[2]:.1f}/"
          f"{theta[3]:.1f}, main road {theta[4]:.1f}")
    P.save_patterns(args.out, np.rint(theta).astype(np.int64), args.variant)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
