"""Othello endgame solver speed on the FFO suite (exact solves).

    python benchmarks/othello_ffo.py [RANGE] [TABLE_BITS] [THREADS]   e.g. 40-59 21 2

Prints one line per position (empties, score, best move, nodes, wall and CPU time) as
soon as it is solved, then totals: nodes, time, nodes/s by wall clock and by process CPU
time (the fair figure on a shared machine). Exits non-zero if any answer is wrong. On
standard error, each selective pass of a solve as it ends (a long solve's progress).
Ctrl-C stops the solve at once and prints the totals of the positions solved before it
(exit status 130).
"""

from __future__ import annotations

import sys
import time
from functools import partial

from bitgames.core.engine import run_stoppable
from bitgames.core.jit import warmup
from bitgames.othello.board import Board
from bitgames.othello.obf import ffo_problems, parse_range
from bitgames.othello.solver import SelectivePass, Solver


def show_pass(done: SelectivePass) -> None:
    """A selective pass as it ends, on standard error."""
    print(f"     {done.probability:4.0%}: score {done.score:+3d}  best {done.best_move}  "
          f"{done.nodes:>13,} nodes  {done.time:9.3f} s", file=sys.stderr, flush=True)


def main() -> int:
    lo, hi = parse_range(sys.argv[1] if len(sys.argv) > 1 else "20-39")
    bits = int(sys.argv[2]) if len(sys.argv) > 2 else 21
    threads = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    warmup(["othello"])
    solver = Solver(bits, threads=threads)
    solver.solve(Board("-" * 60 + "XOXO X"))
    nodes = 0
    wall = cpu = 0.0
    wrong = 0
    interrupted = False
    for pr in ffo_problems(lo, hi):
        board = Board(pr.board)
        c0 = time.process_time()
        r, interrupted = run_stoppable(partial(solver.solve, board, on_pass=show_pass),
                                       solver.stop)
        c = time.process_time() - c0
        if r.stopped:
            print(f"{pr.name:>4} stopped after {r.nodes:,} nodes, cpu {c:.3f} s", flush=True)
            break
        ok = pr.is_answer(r.score, r.best_move)
        wrong += not ok
        nodes += r.nodes
        wall += r.time
        cpu += c
        print(
            f"{pr.name:>4} {r.empties:2d} empties  score {r.score:+3d}  best {r.best_move}  "
            f"{r.nodes:>13,} nodes  wall {r.time:8.3f} s  cpu {c:8.3f} s  "
            f"{r.nodes / max(c, 1e-9) / 1e6:5.1f} M nodes/s (cpu)  {'ok' if ok else 'WRONG'}",
            flush=True,
        )
        if interrupted:  # Ctrl-C just as this solve finished
            break
    print(
        f"FFO #{lo}-#{hi}: {nodes:,} nodes, wall {wall:.2f} s "
        f"({nodes / max(wall, 1e-9) / 1e6:.1f} M nodes/s),"
        f" cpu {cpu:.2f} s ({nodes / max(cpu, 1e-9) / 1e6:.1f} M nodes/s), {wrong} wrong"
        + (" (stopped)" if interrupted else ""),
        flush=True,
    )
    return 130 if interrupted else 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
