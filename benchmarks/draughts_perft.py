"""Draughts figures: perft speed (Russian and English) and engine search speed.

Run: python benchmarks/draughts_perft.py [--depth 11] [--repeat 3] [--search-depth 14]
Kernels are warmed first (compile time excluded). Perft is single-threaded with bulk
counting; the figure is leaves per CPU second (best of --repeat), with wall time beside it
because the machine may be shared.
"""

from __future__ import annotations

import argparse
import os
import time

from bitgames.core import jit
from bitgames.core.engine import Limit
from bitgames.draughts import Board
from bitgames.draughts import kernels as K
from bitgames.draughts.search import Engine


def timed_perft(variant: int, depth: int, repeat: int) -> tuple[int, float, float]:
    w, b, k, side = K.start_position(variant)
    best_cpu, best_wall, n = float("inf"), float("inf"), 0
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        n = K.perft(w, b, k, side, depth, variant)
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    return n, best_cpu, best_wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--depth", type=int, default=11, help="deepest perft")
    ap.add_argument("--repeat", type=int, default=3, help="runs per figure (best is kept)")
    ap.add_argument("--search-depth", type=int, default=14, help="engine search depth")
    args = ap.parse_args()
    jit.warmup(["draughts"])
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for name, variant in (("russian", K.RUSSIAN), ("english", K.ENGLISH)):
        for depth in range(9, args.depth + 1):
            n, cpu, wall = timed_perft(variant, depth, args.repeat)
            print(f"{name} perft {depth}: {n} leaves, {cpu:.3f} s CPU ({wall:.3f} s wall) = "
                  f"{n / cpu / 1e6:.1f} M leaves/s CPU, {n / wall / 1e6:.1f} M/s wall")
    for variant in ("russian", "english"):
        engine = Engine(variant)
        cpu = time.process_time()
        r = engine.search(Board(variant=variant), Limit(depth=args.search_depth))
        cpu = time.process_time() - cpu
        print(f"{variant} search depth {args.search_depth} from the start: {r.nodes} nodes, "
              f"{r.time:.2f} s wall / {cpu:.2f} s CPU = {r.nodes / cpu / 1e6:.2f} M nodes/s"
              f" CPU (best {r.move}, score {r.score})")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
