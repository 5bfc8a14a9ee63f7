"""Othello engine speed: cost of one evaluation, and midgame search nodes per second.

    python benchmarks/othello_engine.py [DEPTH] [POSITIONS]

1. Evaluation: a kernel loop evaluates the positions of random self-play games (20-50
   empties) many times; prints ns per full evaluation (pattern and classic), CPU time.
2. Search: fixed-depth searches (single thread, no MPC, no solver) from midgame positions
   with the shipped pattern weights and with the classic evaluation; prints nodes, CPU time,
   nodes/s and CPU ms per search (time to depth: the figure that move ordering cannot
   flatter). Nodes are the positions searched, interior nodes and leaves (a depth-1 node
   evaluates its children in place; each counts as a node); the evaluations made only to
   order moves are not counted.
"""

from __future__ import annotations

import os
import random
import sys
import time

import numpy as np

from bitgames.core.engine import Limit
from bitgames.core.jit import njit, warmup
from bitgames.othello import eval as ev
from bitgames.othello.board import Board
from bitgames.othello.search import Engine


@njit
def _eval_loop(ps: np.ndarray, os_: np.ndarray, w: np.ndarray, gather: np.ndarray,
               b3: np.ndarray, wc: np.ndarray, kind: int, reps: int) -> int:
    total = 0
    for _ in range(reps):
        for i in range(ps.shape[0]):
            if kind == 0:
                total += ev.evaluate(ps[i], os_[i], w, gather, b3)
            else:
                total += ev.classic_eval(ps[i], os_[i], wc)
    return total


def midgame_positions(n: int, seed: int = 1) -> list[Board]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        b = Board()
        target = rng.randint(20, 40)  # plies: 20-40 empties remain
        while len(b.move_stack) < target and not b.is_game_over():
            b.push(rng.choice(list(b.legal_moves)) if not b.must_pass() else "pass")
        if not b.is_game_over() and not b.must_pass():
            out.append(b)
    return out


def main() -> None:
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    warmup(["othello"])
    print(f"load average: {os.getloadavg()[0]:.2f}", flush=True)
    weights = ev.default_weights()
    assert weights is not None, "no shipped weights"
    boards = midgame_positions(200)
    ps = np.array([b.bitboards()[0] for b in boards], dtype=np.uint64)
    os_ = np.array([b.bitboards()[1] for b in boards], dtype=np.uint64)
    wc = ev.classic_weights()
    w16 = weights.table.astype(np.int16)
    for kind, name in ((0, "pattern"), (1, "classic")):
        _eval_loop(ps, os_, w16, ev.GATHER, ev.B3, wc, kind, 1)
        reps = 2000
        c0 = time.process_time()
        _eval_loop(ps, os_, w16, ev.GATHER, ev.B3, wc, kind, reps)
        cpu = time.process_time() - c0
        print(f"{name} evaluation: {cpu / (reps * len(ps)) * 1e9:.0f} ns per position "
              f"(cpu, {reps * len(ps):,} evaluations)", flush=True)
    for evaluation in ("pattern", "classic"):
        engine = Engine(level=1, evaluation=evaluation, table_bits=20, mpc=False)
        nodes = 0
        cpu = 0.0
        for b in midgame_positions(count, seed=2):
            engine.new_game()
            c0 = time.process_time()
            r = engine.search(b, Limit(depth=depth), solve=False)
            cpu += time.process_time() - c0
            nodes += r.nodes
        print(f"search {evaluation} depth {depth}, {count} midgame positions: {nodes:,} nodes, "
              f"cpu {cpu:.2f} s, {nodes / cpu / 1e6:.2f} M nodes/s, "
              f"{cpu / count * 1000:.1f} ms per search", flush=True)


if __name__ == "__main__":
    main()
