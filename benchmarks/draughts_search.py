"""Time to depth and nodes per second of the draughts engine (fixed positions, one thread).

Run: python benchmarks/draughts_search.py [--depth 13] [--repeat 3]

Searches each position to ``--depth`` with a fresh engine (2**20 table entries) and prints
the nodes, the best time of ``--repeat`` runs and the nodes per second; the total last.
"""

from __future__ import annotations

import argparse
import time

from bitgames.core import jit
from bitgames.core.engine import Limit
from bitgames.draughts import Board, Engine

POSITIONS = [
    ("russian start", "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,"
     "f8,h8"),
    ("english start", "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"),
    ("russian kings", "W:WKa1,c3,e3,g3,b2,f2:BKh8,b6,d6,f6,g7"),
    ("english kings", "W:WK29,22,23,26,27:BK4,9,10,11,14"),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--depth", type=int, default=13)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    jit.warmup(["draughts"])
    total_nodes, total_time = 0, 0.0
    for name, fen in POSITIONS:
        board = Board(fen)
        best = float("inf")
        nodes = 0
        for _ in range(args.repeat):
            engine = Engine(board.variant, table_bits=20)
            start = time.perf_counter()
            result = engine.search(board, Limit(depth=args.depth))
            best = min(best, time.perf_counter() - start)
            nodes = result.nodes
        total_nodes += nodes
        total_time += best
        print(f"{name:14s} depth {args.depth}: {nodes:>10} nodes  {best:7.3f} s  "
              f"{nodes / best / 1e6:5.2f} M nodes/s  {result.move} {result.score}", flush=True)
    print(f"total: {total_nodes} nodes  {total_time:.3f} s  "
          f"{total_nodes / total_time / 1e6:.2f} M nodes/s")


if __name__ == "__main__":
    main()
