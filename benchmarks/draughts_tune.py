"""Tune the draughts evaluation by matches: each weight change against the defaults.

Run: python benchmarks/draughts_tune.py [--variant russian] [--depth 4] [--openings 30]
     [--change mobility=4 --change king_russian=300,back_rank=16 ...]

Each candidate (the defaults with some weights changed) plays every opening of two plies with
both colours against the defaults at a fixed depth; prints the score and the Elo difference
with its 95 % interval, played by the match runner of bitgames.core.match (games in
parallel processes). Positive Elo = the change helps.
"""

from __future__ import annotations

import argparse
import time

from bitgames.core.match import MatchPlan, run_plan
from bitgames.draughts.eval import DEFAULTS
from bitgames.draughts.search import opening_lines

DEFAULT_CHANGES = {
    "russian": ["king_russian=200", "king_russian=300", "mobility=0", "mobility=4",
                "back_rank=0", "back_rank=16", "centre=0", "centre=10", "tempo=0",
                "tempo=4", "main_road=0", "main_road=24"],
    "english": ["king_english=130", "king_english=180", "mobility=0", "mobility=4",
                "back_rank=0", "back_rank=16", "centre=0", "centre=10", "tempo=0",
                "tempo=4"],
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--variant", choices=["russian", "english"], default="russian")
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--openings", type=int, default=30)
    ap.add_argument("--change", action="append",
                    help="name=value[,name=value] (repeatable)")
    args = ap.parse_args()
    openings = [tuple(str(m) for m in line)
                for line in opening_lines(args.variant, 2)[: args.openings]]
    print(f"defaults: {DEFAULTS[args.variant]}")
    for change in args.change or DEFAULT_CHANGES[args.variant]:
        start = time.perf_counter()
        tuned = f"depth:{args.depth}," + change.replace("=", ":")
        plan = MatchPlan(tuned, f"depth:{args.depth}", openings, 2 * len(openings),
                         max_plies=300)
        result = run_plan(plan, "bitgames.draughts.cli:match_kit",
                          {"variant": args.variant}).result
        print(f"{args.variant} depth {args.depth} {change:>18}: {result.summary()}  "
              f"({time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
