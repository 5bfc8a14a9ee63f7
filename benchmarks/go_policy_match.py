"""Go engine against itself with two playout policies: MCTS A vs MCTS B (9x9 by default).

Usage: python benchmarks/go_policy_match.py [--a patterns] [--b tactics] [--games 40]
[--playouts 2000] [--set-a ATTR=VALUE ...] [--set-b ATTR=VALUE ...] [--workers N]
[--size 9] [--seed 1]

Played on the shared match runner (``bitgames go match``'s): each random two-move opening
twice with colours swapped, games in parallel, every move refereed; a game ended by two
passes is scored by area with dead stones removed, komi 7.5. Prints every game and A's
result with an Elo difference and its error bar. ``--set-a uct=0.1`` sets one search
parameter of engine A (``uct``, ``rave_bias``, ``prior``, ``expand_at``, ``shape_prior``,
``resign``: the engine options of ``go match --help``).
"""

from __future__ import annotations

import argparse
import time

from bitgames.core.match import GameRecord, MatchPlan, MatchResult, random_openings, run_plan
from bitgames.go import Board
from bitgames.go.cli import POLICY_NAMES

KIT = "bitgames.go.cli:match_kit"


def _spec(policy: str, seed: int, playouts: int, settings: list[str]) -> str:
    """A ``go match`` player: ``nodes:N,policy:P,seed:S`` and ``ATTR:VALUE`` settings."""
    options = [f"nodes:{playouts}", f"policy:{policy}", f"seed:{seed}"]
    for item in settings:
        name, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"--set-a/--set-b take ATTR=VALUE, got {item!r}")
        options.append(f"{name}:{value}")
    return ",".join(options)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--a", default="patterns", choices=POLICY_NAMES)
    ap.add_argument("--b", default="tactics", choices=POLICY_NAMES)
    ap.add_argument("--games", type=int, default=40, help="an even number")
    ap.add_argument("--playouts", type=int, default=2000, help="simulations per move")
    ap.add_argument("--set-a", action="append", default=[], metavar="ATTR=VALUE")
    ap.add_argument("--set-b", action="append", default=[], metavar="ATTR=VALUE")
    ap.add_argument("--workers", type=int, help="parallel games (default: the CPUs)")
    ap.add_argument("--size", type=int, default=9, choices=range(5, 20), metavar="5..19",
                    help="board size (default 9)")
    ap.add_argument("--seed", type=int, default=1,
                    help="seed of the random openings (default 1)")
    args = ap.parse_args()
    plan = MatchPlan(_spec(args.a, 11, args.playouts, args.set_a),
                     _spec(args.b, 22, args.playouts, args.set_b),
                     random_openings(lambda: Board(size=args.size), args.games // 2, 2,
                                    seed=args.seed),
                     args.games, max_plies=3 * args.size**2)
    start = time.perf_counter()

    def on_game(record: GameRecord, result: MatchResult) -> None:
        print(f"game {record.number}: A ({'B' if record.a_first else 'W'}) scores "
              f"{record.a_score} ({record.result}, {record.reason}) in {record.plies} plies"
              f"  {result.summary()}  {time.perf_counter() - start:.0f} s", flush=True)

    run = run_plan(plan, KIT, {"size": args.size, "komi": 7.5}, workers=args.workers,
                   on_game=on_game)
    print(f"A {plan.spec_a} vs B {plan.spec_b}: {run.result.summary()}"
          + (f" (stopped: {run.stopped})" if run.stopped else ""))


if __name__ == "__main__":
    main()
