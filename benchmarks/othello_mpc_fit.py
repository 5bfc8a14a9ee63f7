"""Fit the Multi-ProbCut parameters: deep versus shallow search values.

    python benchmarks/othello_mpc_fit.py [POSITIONS] [MAX_DEPTH] [WEIGHTS]

For midgame positions of random games (20-44 empties) and each depth d = 3..MAX_DEPTH,
searches to depth d and to the shallow depth the search uses (d // 2, parity kept), with
the shipped pattern weights (or the WEIGHTS file) and no selectivity, then fits
deep = a * shallow + b by least squares and prints a, b and the residual standard
deviation sigma (centi-discs) per depth: the ``MPC_SIGMA`` table of ``bitgames.othello.search``.
"""

from __future__ import annotations

import random
import sys

import numpy as np

from bitgames.core.engine import Limit
from bitgames.core.jit import warmup
from bitgames.othello.board import Board
from bitgames.othello.search import Engine, centi_discs


def fit_line(shallow: list[float], deep: list[float]) -> str:
    """The least-squares fit deep = a * shallow + b and its residual, as a line of text."""
    x, y = np.array(shallow, float), np.array(deep, float)
    a, b = np.polyfit(x, y, 1)
    sigma = float(np.std(y - (a * x + b)))
    return (f"a {a:.3f} b {b:.1f} sigma {sigma:.0f} centi-discs (without the fit "
            f"{float(np.std(y - x)):.0f}; {len(x)} positions)")


def shallow_depth(depth: int) -> int:
    s = depth // 2
    if (depth - s) & 1:
        s -= 1
    return max(s, 1)


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    max_depth = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    warmup(["othello"])
    rng = random.Random(42)
    weights = sys.argv[3] if len(sys.argv) > 3 else None
    engine = Engine(level=1, evaluation="pattern", weights=weights, table_bits=18, mpc=False)
    boards = []
    while len(boards) < count:
        b = Board()
        target = rng.randint(16, 40)
        while len(b.move_stack) < target and not b.is_game_over():
            b.push(rng.choice(list(b.legal_moves)) if not b.must_pass() else "pass")
        if not b.is_game_over() and not b.must_pass():
            boards.append(b)
    for d in range(3, max_depth + 1):
        s = shallow_depth(d)
        xs, ys = [], []
        for b in boards:
            engine.new_game()
            ys.append(centi_discs(engine.search(b, Limit(depth=d), solve=False).score))
            engine.new_game()
            xs.append(centi_discs(engine.search(b, Limit(depth=s), solve=False).score))
        print(f"depth {d} vs {s}: {fit_line(xs, ys)}", flush=True)


if __name__ == "__main__":
    main()
