"""Othello perft speed: leaves per second from the start position (single thread).

    python benchmarks/othello_perft.py [DEPTH] [REPEATS]

Prints wall-clock and process-CPU figures; the best of REPEATS runs is kept (the CPU
figure is the fair one on a shared machine).
"""

from __future__ import annotations

import sys
import time

from bitgames.core.jit import warmup
from bitgames.othello import kernels


def main() -> None:
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 11
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    warmup(["othello"])
    p, o = kernels.start_position()
    for name, conv in (("edax", kernels.EDAX), ("bik", kernels.BIK)):
        best_wall = best_cpu = float("inf")
        count = 0
        for _ in range(repeats):
            w0, c0 = time.perf_counter(), time.process_time()
            count = kernels.perft(p, o, depth, conv)
            best_wall = min(best_wall, time.perf_counter() - w0)
            best_cpu = min(best_cpu, time.process_time() - c0)
        print(
            f"perft {depth} {name}: {count:,} leaves, wall {best_wall:.3f} s "
            f"({count / best_wall / 1e6:.0f} M leaves/s), cpu {best_cpu:.3f} s "
            f"({count / best_cpu / 1e6:.0f} M leaves/s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
