"""Parallel search: wall-clock time to a fixed depth with 1 and with more threads.

    python benchmarks/parallel_bench.py [--games othello,draughts,leiserchess]
        [--positions 20] [--threads 2] [--rounds 2]
        [--depths othello=13,draughts=17,leiserchess=9] [--table-bits N]

For each engine, the same positions (random openings, fixed seed) are searched to a fixed
depth from an empty table, on one thread and on ``--threads`` in turn (which goes first
alternates by round), so that a change of the machine's speed hits both alike; this is
repeated ``--rounds`` times. Prints the seconds and nodes of each round, then the ratio
of the summed times, and the geometric mean and median of the ratios position by
position (a few long searches weigh most in the summed times; these show the typical
position). ``--table-bits N`` gives every engine, on one thread and on more alike, a
transposition table of 2**N entries instead of its default.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from bitgames.core.engine import Limit


def _random_boards(new: Callable[[], Any], n: int, lo: int, hi: int, seed: int = 7
                   ) -> list[Any]:
    rng = random.Random(seed)
    boards: list[Any] = []
    while len(boards) < n:
        b = new()
        for _ in range(rng.randrange(lo, hi)):
            moves = list(b.legal_moves)
            if not moves or b.is_game_over():
                break
            b.push(rng.choice(moves))
        if not b.is_game_over() and list(b.legal_moves):
            boards.append(b)
    return boards


def _othello(n: int, depth: int, size: dict[str, Any]
             ) -> tuple[list[Any], Callable[[int], Any], Callable[[Any, Any], Any]]:
    from bitgames.othello.board import Board
    from bitgames.othello.search import Engine

    boards = _random_boards(Board, n, 10, 30)
    return (boards, lambda t: Engine(level=20, threads=t, **size),
            lambda e, b: e.search(b, Limit(depth=depth), solve=False))


def _draughts(n: int, depth: int, size: dict[str, Any]
              ) -> tuple[list[Any], Callable[[int], Any], Callable[[Any, Any], Any]]:
    from bitgames.draughts.board import Board
    from bitgames.draughts.search import Engine

    boards = _random_boards(Board, n, 6, 24)
    return boards, lambda t: Engine("russian", threads=t, **size), lambda e, b: e.search(
        b, Limit(depth=depth))


def _leiserchess(n: int, depth: int, size: dict[str, Any]
                 ) -> tuple[list[Any], Callable[[int], Any], Callable[[Any, Any], Any]]:
    from bitgames.leiserchess.board import Board
    from bitgames.leiserchess.search import Engine

    boards = _random_boards(Board, n, 4, 30)
    return boards, lambda t: Engine(threads=t, **size), lambda e, b: e.search(
        b, Limit(depth=depth))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="othello,draughts,leiserchess")
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--depths", default="othello=13,draughts=17,leiserchess=9",
                    help="the fixed depth of each engine")
    ap.add_argument("--table-bits", type=int, default=None,
                    help="a table of 2**N entries for every engine (default: its own)")
    args = ap.parse_args()
    depths = {name: int(d) for name, d in (x.split("=") for x in args.depths.split(","))}
    size: dict[str, Any] = {} if args.table_bits is None else {"table_bits": args.table_bits}
    for game in args.games.split(","):
        items, make, run = {"othello": _othello, "draughts": _draughts,
                            "leiserchess": _leiserchess}[game](args.positions, depths[game], size)
        counts = (1, args.threads)
        totals = {t: 0.0 for t in counts}
        ratios: list[float] = []  # 1 thread's time over more threads', each position
        for rnd in range(args.rounds):
            engines = {t: make(t) for t in counts}
            for t in counts:
                run(engines[t], items[0])  # compile and page in, untimed
            seconds = {t: 0.0 for t in counts}
            nodes = {t: 0 for t in counts}
            for item in items:
                # each position on 1 thread and on more, in turn, so that a change of the
                # machine's speed hits both alike
                took = {}
                for t in counts if rnd % 2 == 0 else counts[::-1]:
                    engines[t].new_game()
                    t0 = time.perf_counter()
                    r = run(engines[t], item)
                    took[t] = time.perf_counter() - t0
                    seconds[t] += took[t]
                    nodes[t] += r.nodes
                ratios.append(took[1] / took[args.threads])
            for t in counts:
                totals[t] += seconds[t]
                print(f"{game} round {rnd + 1}, {t} thread(s): {seconds[t]:.2f} s, "
                      f"{nodes[t]:,} nodes", flush=True)
        print(f"{game}: {args.threads} threads {totals[1] / totals[args.threads]:.2f} x "
              f"faster than 1 ({len(items)} positions, {args.rounds} rounds); position by "
              f"position: geometric mean {math.exp(statistics.fmean(map(math.log, ratios))):.2f}"
              f" x, median {statistics.median(ratios):.2f} x", flush=True)


if __name__ == "__main__":
    main()
