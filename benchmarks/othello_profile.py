"""Where the Othello solver spends its time: a ``perf`` profile with the kernels named.

    python benchmarks/othello_profile.py [RANGE] [TABLE_BITS]   e.g. 45-45 21

``perf`` cannot name code that numba compiled at run time: it shows bare addresses. This
script compiles the kernels in a fresh cache directory (about a minute), writes the
address of every compiled function to ``/tmp/perf-PID.map`` (the file ``perf report``
reads for just-in-time code), then solves the FFO positions of RANGE on one thread while
``perf record`` samples the process, and prints the share of samples of each function.
Functions that LLVM inlined into their callers count as part of them.

Needs ``perf`` (Debian: ``linux-perf``) and permission to trace the process (root, or
``kernel.perf_event_paranoid`` at most 1). Kernels loaded from an on-disk cache carry no
function list, hence the fresh cache.
"""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import tempfile
import time


def write_perf_map() -> int:
    """Write ``/tmp/perf-PID.map`` for every function numba has compiled in this process;
    return how many addresses it names."""
    from numba.core.registry import CPUDispatcher

    addresses: dict[int, str] = {}
    for obj in gc.get_objects():
        if not isinstance(obj, CPUDispatcher):
            continue
        for compiled in obj.overloads.values():
            library = compiled.library  # type: ignore[attr-defined]
            for fn in library._final_module.functions:  # noqa: SLF001 - numba internals
                if not fn.is_declaration:
                    address = library.get_pointer_to_function(fn.name)
                    if address:
                        addresses[address] = _short(fn.name)
    starts = sorted(addresses)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for i, a in enumerate(starts):
            # a function ends where the next begins (numba does not give sizes)
            gap = starts[i + 1] - a if i + 1 < len(starts) else 1 << 20
            size = gap if gap < 1 << 20 else 4096
            f.write(f"{a:x} {size:x} {addresses[a]}\n")
    return len(starts)


def _short(mangled: str) -> str:
    """``_ZN8bitgames7othello6solver4_nwsB...`` -> ``bitgames.othello.solver._nws``."""
    if not mangled.startswith("_ZN"):
        return mangled
    parts, i = [], 3
    while i < len(mangled) and mangled[i].isdigit():
        j = i
        while j < len(mangled) and mangled[j].isdigit():
            j += 1
        n = int(mangled[i:j])
        parts.append(mangled[j:j + n])
        i = j + n
    return ".".join(parts) or mangled


def main() -> int:
    rng = sys.argv[1] if len(sys.argv) > 1 else "45-45"
    bits = int(sys.argv[2]) if len(sys.argv) > 2 else 21
    with tempfile.TemporaryDirectory(prefix="bitgames-profile-") as cache:
        os.environ["BITGAMES_CACHE_DIR"] = cache
        from bitgames.othello.board import Board
        from bitgames.othello.obf import ffo_problems, parse_range
        from bitgames.othello.solver import Solver

        lo, hi = parse_range(rng)
        print("compiling the kernels ...", flush=True)
        Solver(bits).solve(Board(next(iter(ffo_problems(40, 40))).board))  # every kernel
        solver = Solver(bits)  # an empty table: nothing of that solve is reused
        perf_map = f"/tmp/perf-{os.getpid()}.map"
        print(f"{write_perf_map()} functions named in {perf_map}", flush=True)
        data = os.path.join(cache, "perf.data")
        try:
            perf = subprocess.Popen(["perf", "record", "-q", "-F", "999", "-p",
                                     str(os.getpid()), "-o", data], stdout=subprocess.DEVNULL)
            time.sleep(1)  # perf attaches to the process before the solve starts
            try:
                for pr in ffo_problems(lo, hi):
                    r = solver.solve(Board(pr.board))
                    print(f"{pr.name} {r.nodes:,} nodes {r.time:.2f} s", flush=True)
            finally:
                perf.send_signal(signal.SIGINT)
                perf.wait()
            report = subprocess.run(["perf", "report", "-i", data, "--stdio", "--sort", "sym"],
                                    capture_output=True, text=True, check=True).stdout
        finally:
            os.remove(perf_map)
        lines = [ln for ln in report.splitlines() if ln.strip() and not ln.startswith("#")]
        print("\n".join(lines[:20]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
