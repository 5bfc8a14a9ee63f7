"""Where an Othello match was won and lost: exact values along its games.

    python benchmarks/othello_match_phases.py MATCH.jsonl [--empties 22,20] [--table-bits 22]

Reads a match saved by ``bitgames othello match ... --save MATCH.jsonl`` and, in every game,
solves the position at each of the given numbers of empty squares exactly (one thread).
Then, per number of empties: the mean exact value for player A (disc difference under
perfect play from there on), how many games A was winning or drawing then, and the score
that perfect play from there would have given A, beside the result and the mean final disc
difference. What changes from one row to the next was won or lost between those points;
what the first row already shows was decided before it. A progress line every 20 games;
Ctrl-C stops and reports the games solved so far.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from bitgames.core.match import GameRecord
from bitgames.othello.board import Board, positions_of
from bitgames.othello.solver import Solver


def values_along(game: GameRecord, points: list[int], solver: Solver) -> dict[int, int]:
    """The exact value for player A of the game's position at each number of empties in
    ``points`` where a move was played (after a pass, if one came first)."""
    found: dict[int, int] = {}
    for board in positions_of(str(m) for m in game.moves if str(m) != "pass"):
        empties = board.empties()
        if empties in points and empties not in found:
            score = solver.solve(board).score  # for the side to move
            a_to_move = (board.turn == Board().turn) == game.a_first
            found[empties] = score if a_to_move else -score
    return found


def final_margin(game: GameRecord) -> int:
    """A's final disc difference, from the result ``black-white``."""
    black, white = (int(x) for x in game.result.split("-"))
    return black - white if game.a_first else white - black


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("match", type=Path)
    parser.add_argument("--empties", default="22,20")
    parser.add_argument("--table-bits", type=int, default=22)
    args = parser.parse_args()
    points = sorted({int(x) for x in args.empties.split(",")}, reverse=True)
    lines = args.match.read_text().splitlines()
    if not lines or "match" not in json.loads(lines[0]):
        parser.error(f"{args.match}: line 1 is not a match header; is this a saved match?")
    games = [GameRecord.from_dict(json.loads(x)) for x in lines[1:] if x.strip()]
    games = [g for g in games if not g.adjudicated and "-" in g.result]
    print(f"{len(games)} finished games of {json.loads(lines[0])['match']['a']}")
    solver = Solver(args.table_bits)
    rows: list[tuple[dict[int, int], int, float]] = []
    start = time.process_time()
    try:
        for i, game in enumerate(games, 1):
            rows.append((values_along(game, points, solver), final_margin(game), game.a_score))
            if i % 20 == 0:
                print(f"{i} games solved, {time.process_time() - start:.0f} s CPU", flush=True)
    except KeyboardInterrupt:
        print(f"stopped: {len(rows)} games solved")
    if not rows:
        return 1
    final = np.array([r[1] for r in rows], dtype=float)
    score = np.array([r[2] for r in rows])
    print(f"{len(rows)} games, {time.process_time() - start:.0f} s CPU; result for A: score "
          f"{score.mean():.1%}, mean final disc difference {final.mean():+.2f}")
    for e in points:
        have = [(r[0][e], r[1]) for r in rows if e in r[0]]
        value = np.array([v for v, _ in have], dtype=float)
        ends = np.array([f for _, f in have], dtype=float)
        perfect = np.mean(value > 0) + 0.5 * np.mean(value == 0)
        print(f"at {e} empties ({len(have)} games): A's exact value {value.mean():+.2f} "
              f"(final {ends.mean():+.2f}); A winning {np.mean(value > 0):.1%}, drawing "
              f"{np.mean(value == 0):.1%}: perfect play from here scores {perfect:.1%}",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
