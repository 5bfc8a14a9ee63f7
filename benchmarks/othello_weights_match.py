"""Two Othello pattern weights files against each other at equal level.

    python benchmarks/othello_weights_match.py A.npz B.npz [--level 4] [--games 200]
        [--random-plies 10] [--seed 11] [--scheduler processes] [--workers N]

The match of ``bitgames othello match level:4,weights:A.npz level:4,weights:B.npz``
(varied random openings, each played with colours swapped, games in parallel) through the
shared runner :func:`bitgames.core.match.run_plan`; prints a line per game and the score
of A with its Elo difference and 95% interval.
"""

from __future__ import annotations

import argparse
from typing import Any

from bitgames.core.jit import ensure_warm
from bitgames.core.match import MatchPlan, random_openings, run_plan
from bitgames.othello.board import Board


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--level", type=int, default=4)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--random-plies", type=int, default=10)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--scheduler", default="processes")
    ap.add_argument("--workers", type=int)
    args = ap.parse_args()
    ensure_warm("othello")
    openings = random_openings(Board, (args.games + 1) // 2, args.random_plies, args.seed)
    plan = MatchPlan(f"level:{args.level},weights:{args.a}",
                     f"level:{args.level},weights:{args.b}", openings, args.games)

    def on_game(record: Any, result: Any) -> None:
        print(f"game {record.number}: A {'black' if record.a_first else 'white'} "
              f"{record.result}  [{result.summary()}]", flush=True)

    run = run_plan(plan, "bitgames.othello.cli:match_kit", {}, scheduler=args.scheduler,
                   workers=args.workers, on_game=on_game)
    print(f"{args.a} vs {args.b} at level {args.level}: {run.result.summary()}"
          + (f" (stopped: {run.stopped})" if run.stopped else ""), flush=True)


if __name__ == "__main__":
    main()
