"""Go playout and MCTS speed: playouts/s, moves/playout, ns/move.

Light playouts on 9x9, 13x13 and 19x19 (one thread and batched), the other playout
policies on 9x9, and MCTS simulations/s with the default policy.

Usage: python benchmarks/go_playouts.py [--playouts N] [--threads T] [--repeat R]

Each figure is the best of R timed runs (the machine is shared; the best run is the
least disturbed one), after an untimed warm-up; kernels are compiled before timing.
One-thread figures are CPU time of this process (``time.process_time``), which other
jobs on the machine disturb much less than wall time; the threaded batch is wall time.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--playouts", type=int, default=100_000, help="playouts on 9x9")
    ap.add_argument("--threads", type=int, default=2, help="threads for the batched run")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--mcts", type=int, default=20_000, help="MCTS simulations on 9x9")
    args = ap.parse_args()

    from numba import set_num_threads

    from bitgames.core import jit
    from bitgames.core.engine import Limit
    from bitgames.go import Board, Engine
    from bitgames.go import features as F
    from bitgames.go import kernels as K

    jit.ensure_warm("go")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for size in (9, 13, 19):
        n = max(2000, args.playouts * 81 // (size * size))
        g, s = K.geometry(size), K.new_state(size)
        scores = np.zeros(n, np.int64)
        moves = np.zeros(n, np.int64)
        cap = 3 * size * size
        K.playouts_serial(g, s, 500, np.uint64(7), cap, scores, moves, K.LIGHT, K.NO_WEIGHTS)
        for label, threads in (("1 thread", 1), (f"{args.threads} threads", args.threads)):
            best = float("inf")
            clock = time.process_time if threads == 1 else time.perf_counter
            for r in range(args.repeat):
                start = clock()
                if threads == 1:
                    K.playouts_serial(g, s, n, np.uint64(r + 1), cap, scores, moves, K.LIGHT,
                                      K.NO_WEIGHTS)
                else:
                    set_num_threads(threads)
                    K.playouts_parallel(
                        g, s, n, np.uint64(r + 1), cap, scores, moves, 8 * threads, K.LIGHT,
                        K.NO_WEIGHTS,
                    )
                best = min(best, clock() - start)
            mpp = moves.mean()
            print(
                f"{size}x{size} {label}: {n / best:,.0f} playouts/s, {mpp:.1f} moves/playout, "
                f"{best / moves.sum() * 1e9:.1f} ns/move  ({n} playouts, best of {args.repeat}, "
                f"{'CPU' if threads == 1 else 'wall'} time)"
            )
    n = args.playouts // 2
    g, s = K.geometry(9), K.new_state(9)
    scores = np.zeros(n, np.int64)
    moves = np.zeros(n, np.int64)
    for name, policy in K.POLICIES.items():
        if policy == K.LIGHT:
            continue
        weights = F.policy_weights(policy)
        K.playouts_serial(g, s, 500, np.uint64(7), 243, scores, moves, policy, weights)
        best = float("inf")
        for r in range(args.repeat):
            start = time.process_time()
            K.playouts_serial(g, s, n, np.uint64(r + 1), 243, scores, moves, policy, weights)
            best = min(best, time.process_time() - start)
        print(
            f"9x9 {name} playouts, 1 thread: {n / best:,.0f} playouts/s, "
            f"{moves.mean():.1f} moves/playout, {best / moves.sum() * 1e9:.1f} ns/move (CPU time)"
        )
    board = Board(size=9)
    Engine(seed=1).search(board, Limit(nodes=500))
    best = float("inf")
    for r in range(args.repeat):
        engine = Engine(seed=r)
        start = time.process_time()
        engine.search(board, Limit(nodes=args.mcts))
        best = min(best, time.process_time() - start)
    print(
        f"9x9 MCTS (UCT+RAVE, default policy, 1 thread): {args.mcts / best:,.0f} "
        "simulations/s from the empty board (CPU time)"
    )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
