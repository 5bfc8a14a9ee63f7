"""How long exact solves take, by number of empties, on positions from engine games.

    python benchmarks/othello_solve_times.py [GAMES] [PER] [THREADS] [SEED]

Plays GAMES games (default 40) of the engine at depth 6 against itself after 8 random
plies (``SEED``, default 11), keeps the positions with 14-22 empties where the side to move
has a move, and solves up to PER of them (default 25) for each number of empties with a
``Solver`` of 2^21 entries on THREADS threads (default 1). Prints, per number of empties,
the median, 90th percentile, maximum and mean wall time, and
:func:`bitgames.othello.search.solve_time_estimate` (what a timed search expects).
"""

from __future__ import annotations

import random
import sys
import time

from bitgames.core.engine import Limit
from bitgames.othello.board import Board
from bitgames.othello.search import Engine, solve_time_estimate
from bitgames.othello.solver import Solver

EMPTIES = range(14, 23)


def game_positions(games: int, seed: int) -> dict[int, list[Board]]:
    """Positions of ``games`` depth-6 games, by number of empties."""
    rng = random.Random(seed)
    engine = Engine(level=6)
    found: dict[int, list[Board]] = {e: [] for e in EMPTIES}
    for _ in range(games):
        board = Board()
        for _ in range(8):
            board.push(rng.choice(list(board.legal_moves)))
        while not board.is_game_over() and board.empties() >= EMPTIES[0]:
            if board.must_pass():
                board.push("pass")
                continue
            if board.empties() in found:
                found[board.empties()].append(board.copy(stack=False))
            board.push(engine.search(board, Limit(depth=6), solve=False).move)
    return found


def main(argv: list[str]) -> None:
    games, per, threads, seed = ([int(a) for a in argv] + [40, 25, 1, 11][len(argv):])[:4]
    positions = game_positions(games, seed)
    solver = Solver(table_bits=21, threads=threads)
    solver.solve(positions[EMPTIES[0]][0])  # compiled code loaded before timing
    print(f"{games} games, seed {seed}, {threads} thread(s): seconds per solve")
    print("empties positions   median     90 %      max     mean  estimate")
    for empties, boards in positions.items():
        times = []
        for board in boards[:per]:
            start = time.perf_counter()
            solver.solve(board)
            times.append(time.perf_counter() - start)
        times.sort()
        n = len(times)
        estimate = solve_time_estimate(empties, threads)
        print(f"{empties:7d} {n:9d} {times[n // 2]:8.3f} {times[9 * n // 10]:8.3f} "
              f"{times[-1]:8.3f} {sum(times) / n:8.3f} {estimate:9.3f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
