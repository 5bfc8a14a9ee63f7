"""Fit a draughts evaluation with square tables to the results of games (Texel's method).

Run: python benchmarks/draughts_texel.py games OUT [--games 6000] [--depth 6]
     python benchmarks/draughts_texel.py fit OUT [--ridge 1e-4]

``games`` plays the engine against itself at a fixed depth from random openings of eight
plies, in chunks of 100 games on every core, and keeps each quiet position (no capture to
make) with the game's result in ``OUT/chunk_NNNN.npz``; a chunk already there is not played
again, so a stopped run goes on where it stopped. ``fit`` finds the weights whose evaluation,
through a logistic curve, best predicts those results: material, centre, mobility, the main
road (the terms of ``bitgames.draughts.eval``) and a man's value on each square, from its
owner's side, tapered from the opening (24 men) to the ending; back rank and tempo are left to
the square tables. It holds out every tenth game, prints the held-out log-loss of today's
weights (their scale fitted too) and of the fitted ones, and the fitted weights in centi-men.
``--material 100,250`` keeps a man's and a king's value fixed and each table's sum at 0.

The fit predicts results better than today's weights, and played worse: see
docs/PERFORMANCE.md (Draughts, "An evaluation fitted to game results"). The square tables are
not in the engine.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from bitgames.core.engine import Limit
from bitgames.core.files import atomic_write
from bitgames.core.match import random_openings
from bitgames.core.parallel import run_tasks
from bitgames.draughts import eval as E
from bitgames.draughts import geometry as g
from bitgames.draughts import kernels as K
from bitgames.draughts.board import Board
from bitgames.draughts.search import Engine

CHUNK = 100


def play_chunk(out: str, index: int, variant: str, depth: int, seed: int) -> int:
    """Play one chunk of games and save its positions; the number of positions."""
    engine = Engine(variant, table_bits=18)
    rows: list[tuple[int, int, int, int, int]] = []
    scores: list[float] = []
    results: list[float] = []
    openings = random_openings(lambda: Board(variant=variant), CHUNK, 8, seed + index)
    for line in openings:
        board = Board(variant=variant)
        for text in line:
            board.push(text)
        engine.new_game()
        start = len(rows)
        while board.outcome() is None and len(board.move_stack) < 300:
            found = engine.search(board, Limit(depth=depth))
            if not next(iter(board.legal_moves)).is_capture:
                w, b, k, side = board.bitboards()
                rows.append((w, b, k, side, len(results)))
                scores.append(found.score.value)
            board.push(found.move)
        outcome = board.outcome()
        winner = None if outcome is None else outcome.winner
        results.append(0.5 if winner is None else 1.0 if winner else 0.0)
        if len(rows) == start:
            results.pop()
    data = np.array(rows, dtype=np.uint64).reshape(-1, 5)
    with atomic_write(Path(out) / f"chunk_{index:04d}.npz") as f:  # whole, or not there
        np.savez_compressed(f, w=data[:, 0], b=data[:, 1], k=data[:, 2], side=data[:, 3],
                            game=data[:, 4], result=np.array(results), score=np.array(scores))
    return len(rows)


def games(args: argparse.Namespace) -> None:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    todo = [i for i in range(args.games // CHUNK)
            if not (out / f"chunk_{i:04d}.npz").exists()]
    print(f"{len(todo)} chunks of {CHUNK} games to play at depth {args.depth}", flush=True)
    start = time.perf_counter()
    tasks = [(str(out), i, args.variant, args.depth, args.seed) for i in todo]
    for done, (i, n) in enumerate(run_tasks(play_chunk, tasks, workers=args.workers), 1):
        print(f"chunk {todo[i]}: {n} positions ({done}/{len(todo)}, "
              f"{time.perf_counter() - start:.0f} s)", flush=True)


def _bits(x: np.ndarray) -> np.ndarray:
    """(N, 32) 0/1 of the low 32 bits of each ``x``."""
    return ((x[:, None] >> np.arange(32, dtype=np.uint64)) & np.uint64(1)).astype(np.float64)


NAMES = ("man", "king", "centre", "mobility", "main_road")


def features(data: dict[str, np.ndarray], variant: str) -> tuple[np.ndarray, np.ndarray]:
    """Feature rows (White's view) of every position, and today's evaluation of each."""
    # the square a Black man stands on, seen from Black's side (the board turned half round)
    mirror = np.array([g.index_of(7 - f, 7 - r) for f, r in g.COORDS])

    code = K.RUSSIAN if variant == "russian" else K.ENGLISH
    w, b, k, side = data["w"], data["b"], data["k"], data["side"]
    wm, bm = _bits(w & ~k), _bits(b & ~k)
    wk, bk = _bits(w & k), _bits(b & k)
    centre, road = _bits(np.array([E.CENTRE_MASK])), _bits(np.array([E.MAIN_ROAD]))
    mirrored = np.zeros_like(bm)
    mirrored[:, mirror] = bm  # a Black man on s counts on mirror[s]
    men = (wm.sum(1) + bm.sum(1))[:, None]
    weights = E.hand_weights(variant)
    mobility = np.empty(len(w))
    today = np.empty(len(w))
    for i in range(len(w)):
        wi, bi, ki = np.uint64(w[i]), np.uint64(b[i]), np.uint64(k[i])
        mobility[i] = K.count_quiet(wi, bi, ki, 0, code) - K.count_quiet(wi, bi, ki, 1, code)
        value = E.evaluate(wi, bi, ki, int(side[i]), code, weights)
        today[i] = value if side[i] == 0 else -value
    square = wm - mirrored
    x = np.hstack([
        (wm.sum(1) - bm.sum(1))[:, None], (wk.sum(1) - bk.sum(1))[:, None],
        ((wm + wk - bm - bk) * centre).sum(1)[:, None], mobility[:, None],
        ((wk - bk) * road).sum(1)[:, None], square * men / 24, square * (24 - men) / 24])
    return x, today


def _log_loss(z: np.ndarray, y: np.ndarray) -> float:
    """Mean cross-entropy of results ``y`` (1, 0.5, 0) against logits ``z``."""
    return float(np.mean(np.logaddexp(0.0, z) - y * z))


def _logistic_fit(x: np.ndarray, y: np.ndarray, ridge: np.ndarray) -> np.ndarray:
    from scipy.optimize import minimize
    from scipy.special import expit

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        z = x @ theta
        grad = x.T @ (expit(z) - y) / len(y)
        return _log_loss(z, y) + float(ridge @ theta ** 2), grad + 2 * ridge * theta

    return minimize(loss, np.zeros(x.shape[1]), jac=True, method="L-BFGS-B").x


def fit(args: argparse.Namespace) -> None:
    chunks = sorted(Path(args.out).glob("chunk_*.npz"))
    if not chunks:
        raise SystemExit(f"no chunk_*.npz in {args.out}: run the games command first")
    parts: dict[str, list[np.ndarray]] = {key: [] for key in ("w", "b", "k", "side", "y",
                                                                "game")}
    for n, path in enumerate(chunks):
        with np.load(path) as data:
            game = data["game"].astype(np.int64)
            for key in ("w", "b", "k", "side"):
                parts[key].append(data[key])
            parts["y"].append(data["result"][game])
            parts["game"].append(game + n * CHUNK)
    data = {key: np.concatenate(value) for key, value in parts.items()}
    start = time.perf_counter()
    x, today = features(data, args.variant)
    y = data["y"]
    held = data["game"] % 10 == 0
    print(f"{len(y)} positions from {len(chunks) * CHUNK} games, features in "
          f"{time.perf_counter() - start:.0f} s; {held.sum()} held out", flush=True)
    scale = _logistic_fit(today[~held, None], y[~held], np.zeros(1))
    print(f"today's weights: held-out log-loss {_log_loss(today[held] * scale[0], y[held]):.4f}"
          f" (1 centi-man = {scale[0]:.5f} logit)")
    ridge = np.full(x.shape[1], args.ridge)
    ridge[: len(NAMES)] = 0.0
    if args.material:  # a man and a king fixed: one column of their sum, the rest free
        man, king = (float(v) for v in args.material.split(","))
        x = np.hstack([x[:, :1] * man / 100 + x[:, 1:2] * king / 100, x[:, 2:]])
        ridge = np.concatenate([[0.0], ridge[2:]])
        # and each square table sums to 0 over the 28 squares a man can stand on, so that
        # it moves men about and leaves a man's value alone: with those features centred,
        # the ridge keeps the tables' sums at 0
        free = np.array([r < 7 for _f, r in g.COORDS])
        for first in (len(NAMES) - 1, len(NAMES) + 31):
            block = x[:, first:first + 32]
            block[:, free] -= block[:, free].mean(axis=1, keepdims=True)
            block[:, ~free] = 0.0
    theta = _logistic_fit(x[~held], y[~held], ridge)
    print(f"fitted weights:  held-out log-loss {_log_loss(x[held] @ theta, y[held]):.4f}")
    centi = theta * 100 / theta[0]  # a man is worth 100
    if args.material:
        centi = np.concatenate([[man, king], centi[1:]])
    for name, value in zip(NAMES, centi, strict=False):
        print(f"  {name}: {value:.1f}")
    tables = np.rint(centi[len(NAMES):]).astype(int)
    for label, table in (("opening", tables[:32]), ("ending", tables[32:])):
        print(f"  {label} square table (White's view, by rank from 8 down to 1):")
        for rank in range(7, -1, -1):
            cells = [f"{table[g.index_of(f, rank)]:5d}" if (f + rank) % 2 == 0 else "    ."
                     for f in range(8)]
            print("   " + "".join(cells))
    print("  as a tuple (bit order): " + repr(tuple(int(v) for v in tables)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    play = sub.add_parser("games", help="play the self-play games (resumable)")
    play.add_argument("out")
    play.add_argument("--games", type=int, default=6000)
    play.add_argument("--depth", type=int, default=6)
    play.add_argument("--seed", type=int, default=1)
    play.add_argument("--workers", type=int, default=None)
    play.add_argument("--variant", choices=["russian", "english"], default="russian")
    play.set_defaults(run=games)
    fitting = sub.add_parser("fit", help="fit the weights to the games' results")
    fitting.add_argument("out")
    fitting.add_argument("--ridge", type=float, default=1e-4)
    fitting.add_argument("--material", metavar="MAN,KING",
                         help="keep a man's and a king's value fixed (100,250)")
    fitting.add_argument("--variant", choices=["russian", "english"], default="russian")
    fitting.set_defaults(run=fit)
    args = ap.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
