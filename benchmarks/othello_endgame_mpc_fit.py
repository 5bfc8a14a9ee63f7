"""Fit the solver's endgame Multi-ProbCut: exact scores against shallow evaluation searches.

    python benchmarks/othello_endgame_mpc_fit.py [POSITIONS] [EMPTIES...]   e.g. 150 14 16 18 20 22

For positions of random games with the given numbers of empty squares (and a legal move),
solves each exactly and searches it with the solver's ordering search (alpha-beta on the
shipped pattern evaluation, in centi-discs) at shallow depths 0-6, then fits
100 * exact = a * shallow + b by least squares and prints a, b and the residual standard
deviation sigma (centi-discs) per number of empties and shallow depth: the ``PC_*`` tables
of ``bitgames.othello.solver``.
"""

from __future__ import annotations

import random
import sys

import numpy as np
from othello_mpc_fit import fit_line  # benchmarks/, the folder of this script

from bitgames.core.jit import warmup
from bitgames.othello.board import Board
from bitgames.othello.solver import ORDER_INF, Solver, _order_search, _shipped_evaluation

DEPTHS = range(7)


def positions(count: int, empties: int, rng: random.Random) -> list[Board]:
    """``count`` positions of random games with ``empties`` empty squares, side to move
    having a legal move."""
    boards: list[Board] = []
    while len(boards) < count:
        b = Board()
        while b.empties() > empties and not b.is_game_over():
            b.push(rng.choice(list(b.legal_moves)) if not b.must_pass() else "pass")
        if b.empties() == empties and not b.is_game_over() and not b.must_pass():
            boards.append(b)
    return boards


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 150
    all_empties = [int(a) for a in sys.argv[2:]] or [14, 16, 18, 20, 22]
    warmup(["othello"])
    rng = random.Random(7)
    ev = _shipped_evaluation()
    solver = Solver(table_bits=20)
    stats = np.zeros(4, dtype=np.int64)
    for n in all_empties:
        boards = positions(count, n, rng)
        exact = [100.0 * solver.solve(b).score for b in boards]
        for d in DEPTHS:
            shallow = []
            for b in boards:
                p, o = b.bitboards()
                shallow.append(_order_search(np.uint64(p), np.uint64(o), np.int64(d),
                                             np.int64(-ORDER_INF), np.int64(ORDER_INF), ev,
                                             stats))
            print(f"empties {n} depth {d}: {fit_line(shallow, exact)}", flush=True)

if __name__ == "__main__":
    main()
