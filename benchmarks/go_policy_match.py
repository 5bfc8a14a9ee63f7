"""Go engine against itself with two playout policies: MCTS A vs MCTS B on 9x9.

Usage: python benchmarks/go_policy_match.py [--a patterns] [--b tactics] [--games 40]
[--playouts 2000] [--set-a ATTR=VALUE ...] [--set-b ATTR=VALUE ...]

Colours alternate; a finished game is scored by Tromp-Taylor area with komi 7.5 (the
engines pass only when passing is safe). Prints every game and A's result with an Elo
difference and its error bar. ``--set-a uct=0.1`` changes one attribute of engine A's
``Engine`` object (any float attribute: ``uct``, ``rave_bias``, ``prior``...).
"""

from __future__ import annotations

import argparse
import time

from bitgames.core.engine import Limit
from bitgames.core.match import GameRecord, MatchResult, run_match
from bitgames.go import Board, Engine
from bitgames.go import kernels as K


def _engine(policy: str, seed: int, settings: list[str]) -> Engine:
    engine = Engine(seed=seed, policy=K.POLICIES[policy])
    for item in settings:
        name, value = item.split("=", 1)
        if not isinstance(getattr(engine, name, None), float):
            raise SystemExit(f"Engine has no float attribute {name!r}")
        setattr(engine, name, float(value))
    return engine


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--a", default="patterns", choices=sorted(K.POLICIES))
    ap.add_argument("--b", default="tactics", choices=sorted(K.POLICIES))
    ap.add_argument("--games", type=int, default=40, help="an even number")
    ap.add_argument("--playouts", type=int, default=2000, help="simulations per move")
    ap.add_argument("--set-a", action="append", default=[], metavar="ATTR=VALUE")
    ap.add_argument("--set-b", action="append", default=[], metavar="ATTR=VALUE")
    args = ap.parse_args()
    a = _engine(args.a, 11, args.set_a)
    b = _engine(args.b, 22, args.set_b)
    start = time.perf_counter()

    def on_game(record: GameRecord, result: MatchResult) -> None:
        print(
            f"game {result.n}: A ({'B' if record.a_first else 'W'}) scores {record.a_score} "
            f"in {record.plies} plies  {result.summary()}  "
            f"{time.perf_counter() - start:.0f} s",
            flush=True,
        )

    limit = Limit(nodes=args.playouts)
    result = run_match(
        lambda board: a.search(board, limit).move,
        lambda board: b.search(board, limit).move,
        lambda: Board(size=9),
        max_plies=3 * 81,
        on_game=on_game,
        rounds=args.games // 2,
    )
    print(
        f"A {args.a} {args.set_a} vs B {args.b} {args.set_b}, {args.playouts} playouts/move: "
        f"{result.summary()}"
    )


if __name__ == "__main__":
    main()
