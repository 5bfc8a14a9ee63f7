"""Tune the draughts evaluation by matches: each weight change against the defaults.

Run: python benchmarks/draughts_tune.py [--variant russian] [--depth 4] [--openings 30]
     [--change mobility=4 --change king_russian=300,back_rank=16 ...]

Each candidate (the defaults with some weights changed) plays every opening of two plies with
both colours against the defaults at a fixed depth; prints the score and the Elo difference
with its 95 % interval (bitgames.core.match). Positive Elo = the change helps.
"""

from __future__ import annotations

import argparse
import time

from bitgames.core import jit
from bitgames.core.engine import EnginePlayer, Limit
from bitgames.core.match import run_match
from bitgames.draughts import Board
from bitgames.draughts.cli import chooser
from bitgames.draughts.eval import DEFAULTS, default_weights
from bitgames.draughts.search import Engine, opening_lines

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
    ap.add_argument("--change", action="append", help="name=value (repeatable)")
    args = ap.parse_args()
    jit.warmup(["draughts"])
    openings = opening_lines(args.variant, 2)[: args.openings]
    print(f"defaults: {DEFAULTS[args.variant]}")
    for change in args.change or DEFAULT_CHANGES[args.variant]:
        pairs = [part.partition("=") for part in change.split(",")]
        weights = default_weights(args.variant,
                                  **{name: int(value) for name, _, value in pairs})
        start = time.perf_counter()
        limit = Limit(depth=args.depth)
        tuned = EnginePlayer(Engine(args.variant, tt_bits=18, weights=weights), limit)
        default = EnginePlayer(Engine(args.variant, tt_bits=18), limit)
        result = run_match(chooser(tuned), chooser(default),
                           lambda: Board(variant=args.variant), openings=openings,
                           max_plies=300)
        print(f"{args.variant} depth {args.depth} {change:>18}: {result.summary()}  "
              f"({time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
