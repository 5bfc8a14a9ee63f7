"""Our Othello endgame solver against Zebra's on the FFO suite, CPU time in the same run.

    python benchmarks/othello_zebra_ffo.py SCRZEBRA [RANGE] [TABLE_BITS]   e.g. ./scrzebra 40-49

SCRZEBRA is the path of Zebra's script-mode solver, built outside this repository (Zebra
is GPL: none of it belongs here) by ``sh benchmarks/othello_zebra.sh OUT`` (lk16/zebra @
bee2dade, ``-O2 -march=native -fwrapv -fno-strict-aliasing``: without ``-fwrapv`` it
crashes in endgame code). Zebra reads its weights, ``coeffs2.bin``, from the working
directory, so it is run in SCRZEBRA's folder.

Each position is solved twice: by ``scrzebra -e 0 -b 0 -h TABLE_BITS -line 1 -script IN
OUT``, one process per position, whose CPU time (user + system, from the rusage of reaped
children) is counted less Zebra's start-up (loading its weights and clearing its table,
measured first on a finished game); then by our ``Solver(TABLE_BITS, threads=1)``, timed
with ``time.process_time()`` after a JIT warm-up and with its table's pages already
touched. Both answers are checked against the published score and best moves. One line
per position as soon as both are done (nodes and CPU seconds of each, ratio ours/Zebra),
then totals. TABLE_BITS (default 22) sizes both hash tables: 2**bits entries of 16 bytes
for Zebra, 24 bytes for ours. Exits 1 if any answer is wrong, 2 if SCRZEBRA is missing.
Zebra's times are net of a start-up of some 0.05 s, so below a tenth of a second (small
positions) times and ratios are noise: compare from #40 on.
"""

from __future__ import annotations

import re
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bitgames.core.jit import warmup
from bitgames.othello.board import Board
from bitgames.othello.obf import Problem, ffo_problems, parse_range
from bitgames.othello.solver import Solver

BUILD_HELP = """\
scrzebra not found at {path}.
Build Zebra outside this repository: sh benchmarks/othello_zebra.sh OUT
(lk16/zebra @ bee2dade), then pass OUT/zebra/scrzebra (coeffs2.bin sits beside it)."""

#: Zebra's output line: black discs, white discs, then the line of play (``--`` = a pass)
RESULT_LINE = re.compile(r"^\s*(\d+)\s*-\s*(\d+)((?:\s+(?:[a-h][1-8]|--))*)")
TOTAL_NODES = re.compile(r"Total nodes:\s*(\d+)")


@dataclass
class ZebraResult:
    """Zebra's answer for one position, from the side to move's point of view."""

    score: int
    best_move: str
    nodes: int
    cpu: float


def children_cpu() -> float:
    """User + system CPU seconds of all reaped child processes so far."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_zebra(scrzebra: Path, bits: int, script: str, workdir: Path) -> tuple[str, str, float]:
    """Run scrzebra on a script text; return its stdout, its output file and CPU seconds."""
    script_in, script_out = workdir / "in.scr", workdir / "out.txt"
    script_in.write_text(script)
    command = [str(scrzebra), "-e", "0", "-b", "0", "-h", str(bits), "-line", "1",
               "-script", str(script_in), str(script_out)]
    c0 = children_cpu()
    done = subprocess.run(command, cwd=scrzebra.parent, capture_output=True, text=True)
    cpu = children_cpu() - c0
    if done.returncode != 0 or not script_out.exists():
        raise RuntimeError(f"scrzebra failed (exit {done.returncode}):\n{done.stdout}"
                           f"{done.stderr}")
    return done.stdout, script_out.read_text(), cpu


def zebra_overhead(scrzebra: Path, bits: int, workdir: Path) -> float:
    """CPU seconds of a scrzebra run on a finished game (the least of three runs).

    That is what every run pays besides the search: loading the weights, then clearing the
    hash table for the position.
    """
    finished = "X" * 32 + "O" * 32 + " X\n"
    return min(run_zebra(scrzebra, bits, finished, workdir)[2] for _ in range(3))


def zebra_solve(scrzebra: Path, bits: int, board: Board, workdir: Path) -> ZebraResult:
    """Solve one position with scrzebra (CPU time includes its start-up)."""
    fen = board.fen()
    stdout, output, cpu = run_zebra(scrzebra, bits, f"{fen} % position\n", workdir)
    found = RESULT_LINE.match(output)
    nodes = TOTAL_NODES.search(stdout)
    if found is None or nodes is None:
        raise RuntimeError(f"cannot read Zebra's answer:\n{output}\n{stdout}")
    black, white = int(found[1]), int(found[2])
    score = black - white if fen.endswith("X") else white - black
    line = found[3].split()
    best = line[0] if line else "--"
    return ZebraResult(score, "pass" if best == "--" else best, int(nodes[1]), cpu)


def verdict(pr: Problem, score: int, move: str) -> str:
    """``ok`` if score and move agree with the published answer, else ``WRONG``."""
    return "ok" if pr.is_answer(score, move) else "WRONG"


def ratio(ours: float, zebra: float) -> str:
    """``ours / zebra`` to two decimals, or ``-`` when Zebra's time is under a millisecond."""
    return f"{ours / zebra:6.2f}" if zebra >= 1e-3 else f"{'-':>6}"


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    scrzebra = Path(sys.argv[1]).resolve()
    if not scrzebra.is_file():
        print(BUILD_HELP.format(path=scrzebra))
        return 2
    lo, hi = parse_range(sys.argv[2] if len(sys.argv) > 2 else "20-39")
    bits = int(sys.argv[3]) if len(sys.argv) > 3 else 22

    warmup(["othello"])
    solver = Solver(bits, threads=1)
    solver.table.fill(0)  # fault its pages in now: Zebra's table clearing is not counted either
    solver.solve(Board("-" * 60 + "XOXO X"))
    wrong = 0
    nodes_ours = nodes_zebra = 0
    cpu_ours = cpu_zebra = 0.0
    with tempfile.TemporaryDirectory(prefix="zebra-ffo-") as tmp:
        workdir = Path(tmp)
        overhead = zebra_overhead(scrzebra, bits, workdir)
        print(f"Zebra start-up {overhead:.3f} s CPU a run (subtracted below); "
              f"table 2**{bits} entries for both", flush=True)
        for pr in ffo_problems(lo, hi):
            board = Board(pr.board)
            z = zebra_solve(scrzebra, bits, board, workdir)
            z_cpu = max(z.cpu - overhead, 0.0)
            c0 = time.process_time()
            r = solver.solve(board)
            cpu = time.process_time() - c0
            ours_ok = verdict(pr, r.score, r.best_move)
            zebra_ok = verdict(pr, z.score, z.best_move)
            wrong += (ours_ok != "ok") + (zebra_ok != "ok")
            nodes_ours += r.nodes
            nodes_zebra += z.nodes
            cpu_ours += cpu
            cpu_zebra += z_cpu
            print(
                f"{pr.name:>4} {r.empties:2d} empties  "
                f"ours {r.score:+3d} {r.best_move} {r.nodes:>13,} nodes {cpu:8.3f} s {ours_ok:5}"
                f"  zebra {z.score:+3d} {z.best_move} {z.nodes:>13,} nodes {z_cpu:8.3f} s "
                f"{zebra_ok:5}  cpu ours/zebra {ratio(cpu, z_cpu)}",
                flush=True,
            )
    print(
        f"FFO #{lo}-#{hi}: ours {nodes_ours:,} nodes, cpu {cpu_ours:.2f} s; "
        f"zebra {nodes_zebra:,} nodes, cpu {cpu_zebra:.2f} s; "
        f"cpu ours/zebra {ratio(cpu_ours, cpu_zebra).strip()}; {wrong} wrong",
        flush=True,
    )
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
