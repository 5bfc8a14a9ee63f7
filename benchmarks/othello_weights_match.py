"""Two Othello pattern weights files against each other at equal fixed depth.

    python benchmarks/othello_weights_match.py A.npz B.npz [--depth 4] [--games 200]
        [--random-plies 10] [--seed 11]

The match of ``bitgames othello match`` (varied random openings, each played with colours
swapped), but with a different weights file on each side; prints a line per game and the
score of A with its Elo difference and 95% interval.
"""

from __future__ import annotations

import argparse
from typing import Any

from bitgames.core.jit import ensure_warm
from bitgames.core.match import run_match
from bitgames.othello.board import Board
from bitgames.othello.cli import parse_player, random_openings


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--random-plies", type=int, default=10)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    ensure_warm("othello")
    a, _ = parse_player(f"pattern:d{args.depth}", args.a)
    b, _ = parse_player(f"pattern:d{args.depth}", args.b)

    def on_game(record: Any, result: Any) -> None:
        print(f"game {result.n}: A {'black' if record.a_first else 'white'} "
              f"{record.a_score}  [{result.summary()}]", flush=True)

    result = run_match(a, b, Board, random_openings(args.games // 2, args.random_plies,
                                                    args.seed), on_game=on_game)
    print(f"{args.a} vs {args.b} at depth {args.depth}: {result.summary()}", flush=True)


if __name__ == "__main__":
    main()
