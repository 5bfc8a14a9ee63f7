"""Where numba's compile time goes: seconds per kernel, from an empty cache.

    python benchmarks/compile_time.py                 # every game, each group
    python benchmarks/compile_time.py othello --top 15
    python benchmarks/compile_time.py othello:solver  # one warm-up group

Each game (or ``game:group``) is compiled in its own child process with an empty
``BITGAMES_CACHE_DIR``, so nothing comes from an earlier run. numba's ``numba:compile``
events give, for each compiled specialisation, the CPU time (of the process, so a busy
machine does not inflate it) from its start to its end; a
kernel that calls another compiles the callee inside its own compile, so the table shows
both *total* (inclusive) and *self* seconds (total minus nested compiles: type inference,
lowering and LLVM optimisation of the kernel's own module, with every ``inline="always"``
callee copied into it). ``sigs`` is the number of signatures the kernel ended with: more
than one means it was compiled twice (for instance once for int64, once for uint64
arguments). The last lines give the wall and CPU seconds of each child.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

CHILD = r"""
import json, sys, time
from numba.core import event
from bitgames.core import jit

target = sys.argv[1]
game, _, group = target.partition(":")
records = []
stack = []

class Listener(event.Listener):
    def on_start(self, ev):
        stack.append([ev.data["dispatcher"], str(ev.data["args"]), time.process_time(), 0.0])
    def on_end(self, ev):
        disp, args, start, nested = stack.pop()
        total = time.process_time() - start
        if stack:
            stack[-1][3] += total
        name = disp.py_func.__module__.replace("bitgames.", "") + "." + disp.py_func.__name__
        inline = disp.targetoptions.get("inline", "never")
        records.append({"kernel": name, "args": args, "total": total, "self": total - nested,
                        "sigs": len(disp.signatures), "inline": inline})

event.register("numba:compile", Listener())
start = time.perf_counter()
jit.warmup([game], groups=[group] if group else None)
records.append({"wall": time.perf_counter() - start})
print(json.dumps(records))
"""


def run(target: str) -> tuple[list[dict], float, float]:
    """Compile ``target`` in a child with an empty cache; its records, wall and CPU seconds."""
    with tempfile.TemporaryDirectory(prefix="bitgames-compile-") as cache:
        env = dict(os.environ, BITGAMES_CACHE_DIR=cache)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", CHILD, target], env=env, check=True,
                             capture_output=True, text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return json.loads(out.stdout.strip().splitlines()[-1]), wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("targets", nargs="*", help="game or game:group (default: every game)")
    parser.add_argument("--top", type=int, default=0, help="show only the N slowest kernels")
    parser.add_argument("--json", action="store_true", help="print the raw records")
    args = parser.parse_args()
    from bitgames.core import jit

    targets = args.targets or jit.available_games()
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs", flush=True)
    rows: list[dict] = []
    summary = []
    for target in targets:
        records, wall, cpu = run(target)
        for r in records:
            if "kernel" in r:
                rows.append({"target": target, **r})
        summary.append((target, wall, cpu))
        print(f"{target}: {wall:.1f} s wall, {cpu:.1f} s CPU (child process)", flush=True)
    if args.json:
        print(json.dumps(rows))
        return
    rows.sort(key=lambda r: -r["self"])
    shown = rows[: args.top] if args.top else rows
    print(f"\n{'self s':>7} {'total s':>7} {'sigs':>4} {'inline':>6}  kernel (argument types)")
    for r in shown:
        print(f"{r['self']:7.2f} {r['total']:7.2f} {r['sigs']:4d} {r['inline']:>6}  "
              f"{r['target']}: {r['kernel']} {r['args']}")
    print(f"\n{len(rows)} compiles, {sum(r['self'] for r in rows):.1f} s in all (self)")
    for target, wall, cpu in summary:
        print(f"{target:20s} {wall:7.1f} s wall {cpu:7.1f} s CPU")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
