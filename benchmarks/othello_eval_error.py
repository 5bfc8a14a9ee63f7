"""Error of Othello pattern weights against exact scores on the held-out positions of a run.

    python benchmarks/othello_eval_error.py RUN_DIR [--empties 20] [--count 300]
        [--weights W.npz ...] [--exact-empties 17]

Takes the games of a training run (``RUN_DIR/games``, written by ``bitgames othello
train``: self-play and WTHOR games), keeps the held-out games (game id % 10 == 0, never
used for fitting), ``count`` positions with exactly ``empties`` empty squares and a legal
move, evenly spread over them (so over every WTHOR file of a run that has them; figures
recorded before 2026-11-25 took the first ``count``), solves them exactly (cached in
``RUN_DIR/exact_heldout_<empties>.npz``, so a second run is instant) and
prints the mean and median absolute error in discs of each weights file (default: the
shipped weights), and the CPU time of the solves. Then, per stage of 4 empties, the mean
absolute error on every held-out position whose exact score the run knows (positions with
at most ``--exact-empties`` empties: those on the solved line and those solved by
``bitgames othello train --exact-empties``).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from bitgames.othello import eval as ev
from bitgames.othello.kernels import legal_moves
from bitgames.othello.train import NO_LABEL, TrainConfig, Trainer, empties_of, solve_positions


def held_out_exact(run: Path, empties: int, count: int) -> tuple[np.ndarray, np.ndarray,
                                                                  np.ndarray]:
    """(p, o, exact score in centi-discs) of the held-out positions; solved once, cached."""
    cache = run / f"exact_heldout_{empties}.npz"
    if cache.exists():
        d = np.load(cache)
        if len(d["score"]) >= count:
            return d["p"][:count], d["o"][:count], d["score"][:count]
    data = Trainer(run, TrainConfig(), log=lambda s: None).load()
    ps, os_ = data["p"], data["o"]
    sel = np.flatnonzero((data["game"] % 10 == 0) & (empties_of(ps, os_) == empties))
    sel = np.array([i for i in sel if int(legal_moves(ps[i], os_[i]))], dtype=np.int64)
    sel = sel[np.linspace(0, len(sel) - 1, min(count, len(sel))).astype(np.int64)]
    t0 = time.process_time()
    score = solve_positions(ps[sel], os_[sel])
    print(f"solved {len(sel)} positions at {empties} empties: "
          f"{time.process_time() - t0:.1f} s CPU", flush=True)
    np.savez(cache, p=ps[sel], o=os_[sel], score=score)
    return ps[sel], os_[sel], score


def _predict(w: ev.Weights, ps: np.ndarray, os_: np.ndarray) -> np.ndarray:
    """The static evaluation (centi-discs, side to move) of each position by ``w``."""
    return np.array([ev.evaluate(p, o, w.table, ev.GATHER, ev.B3)
                     for p, o in zip(ps, os_, strict=True)])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path)
    ap.add_argument("--empties", type=int, default=20)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--weights", nargs="*", default=[])
    ap.add_argument("--exact-empties", type=int, default=17)
    args = ap.parse_args()
    ps, os_, score = held_out_exact(args.run, args.empties, args.count)
    sources: list[tuple[str, ev.Weights | None]] = (
        [(w, ev.Weights.load(w)) for w in args.weights] or [("shipped", ev.default_weights())])
    for name, w in sources:
        assert w is not None, "no shipped weights"
        err = np.abs(_predict(w, ps, os_) - score) / 100.0
        print(f"{name}: {len(err)} positions at {args.empties} empties, "
              f"MAE {err.mean():.2f} discs, median {np.median(err):.2f}", flush=True)
    data = Trainer(args.run, TrainConfig(exact_empties=args.exact_empties),
                   log=lambda s: None).load()
    known = (data["game"] % 10 == 0) & (data["label"] != NO_LABEL)
    ps, os_, e, label = (data[k][known] for k in ("p", "o", "empties", "label"))
    for name, w in sources:
        assert w is not None
        err = np.abs(_predict(w, ps, os_) - label) / 100.0
        cells = [f"{4 * s}-{min(4 * s + 3, args.exact_empties)}: {err[e // 4 == s].mean():.2f}"
                 f" ({int((e // 4 == s).sum())})" for s in range(args.exact_empties // 4 + 1)
                 if (e // 4 == s).any()]
        print(f"{name}: held-out MAE vs exact by empties: {', '.join(cells)}", flush=True)


if __name__ == "__main__":
    main()
