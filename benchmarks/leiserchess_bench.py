"""Leiserchess figures: perft speed (pseudo-legal and legal) and search speed.

Run: python benchmarks/leiserchess_bench.py [--depth 9] [--seconds 10]
Prints one line per figure; kernels are warmed first (compile time excluded).
"""

from __future__ import annotations

import argparse
import os
import time

from bitgames.core import jit
from bitgames.core.engine import Limit
from bitgames.leiserchess.board import Board
from bitgames.leiserchess.perft import perft_board
from bitgames.leiserchess.search import Engine


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--depth", type=int, default=9, help="fixed search depth from the start")
    ap.add_argument("--seconds", type=float, default=10.0, help="timed search length")
    args = ap.parse_args()
    jit.warmup(["leiserchess"])
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    board = Board()
    for legal in (False, True):
        start = time.perf_counter()
        n = perft_board(board, 4, legal=legal)["total"]
        s = time.perf_counter() - start
        kind = "legal" if legal else "pseudo-legal"
        print(f"perft 4 {kind}: {n} leaves in {s:.3f} s = {n / s / 1e6:.1f} M leaves/s")
    cpu = time.process_time()
    res = Engine().search(board, Limit(depth=args.depth))
    cpu = time.process_time() - cpu
    print(f"search depth {args.depth} from start: {res.nodes} nodes in {res.time:.2f} s"
          f" wall / {cpu:.2f} s CPU = {res.nps / 1e6:.2f} M nodes/s wall,"
          f" {res.nodes / cpu / 1e6:.2f} M nodes/s CPU (best {res.move}, score {res.score})")
    cpu = time.process_time()
    res = Engine().search(board, Limit(time=args.seconds))
    cpu = time.process_time() - cpu
    print(f"search {args.seconds:.0f} s from start: depth {res.depth}, {res.nodes} nodes"
          f" = {res.nps / 1e6:.2f} M nodes/s wall, {res.nodes / cpu / 1e6:.2f} M nodes/s CPU"
          f" (best {res.move}, score {res.score})")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
