"""The odd/even swing of Othello pattern weights, on many opening positions.

    python benchmarks/othello_swing.py WTHOR_DIR [--positions 100] [--depth 12]
        [--workers 2] WEIGHTS [WEIGHTS ...]

Issue 14 asks that successive iterations of a search from the start agree within 1.5 discs
at depths 8-14 (``tests/othello/test_search.py`` checks the start and two openings). Three
positions say little about a set of weights, so this script searches ``--positions``
tournament positions after 4 to 10 plies (distinct WTHOR positions of 2000-2023, drawn by a
fixed seed) to ``--depth`` plies at level 20, one thread, and for each weights file
(``shipped`` for the package's weights) prints:

- the mean step from each depth to the next, signed so that a positive value means the
  even depth scored higher: a bias towards (or against) the side to move shows here, the
  same sign at every depth;
- the root mean square of the steps from depth 8 on, and the share of positions whose
  largest step from depth 8 on exceeds 1.5 discs: what a constant per stage cannot remove.
"""

from __future__ import annotations

import argparse
import random
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from itertools import islice
from pathlib import Path

import numpy as np

from bitgames.core.engine import Info, Limit
from bitgames.othello import eval as ev
from bitgames.othello import search as S
from bitgames.othello.board import Board
from bitgames.othello.wthor import games_of

FIRST = 8  # the first depth of issue 14's criterion


def openings(folder: Path, count: int, seed: int = 5) -> list[Board]:
    """``count`` distinct positions 4-10 plies into WTHOR games of 2000 and later."""
    games = [game for _, _, game in games_of(sorted(folder.glob("WTH_20*.wtb")))]
    rng = random.Random(seed)
    out: list[Board] = []
    seen: set[tuple[int, int]] = set()
    for game in rng.sample(games, min(len(games), 40 * count)):
        board = next(islice(game.positions(), rng.randint(4, 10), None))
        if board.bitboards() not in seen:
            seen.add(board.bitboards())
            out.append(board)
            if len(out) == count:
                break
    return out


@cache
def _load(weights: str) -> ev.Weights | None:
    """The weights of a file, or the shipped ones: read once per worker process."""
    return ev.default_weights() if weights == "shipped" else ev.Weights.load(weights)


def iterations(weights: str, board: Board, depth: int) -> list[float]:
    """The score of every iteration of a level-20 search of ``board`` to ``depth`` plies."""
    scores: list[float] = []

    def record(info: Info) -> None:
        if info.score is not None:
            scores.append(info.score.value)

    S.Engine(level=20, weights=_load(weights)).search(board, Limit(depth=depth), on_info=record)
    return scores


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("wthor", type=Path, help="folder of WTH_YYYY.wtb files")
    ap.add_argument("weights", nargs="+", help="weights files (.npz), or 'shipped'")
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    if args.depth < FIRST + 1:
        ap.error(f"--depth must be at least {FIRST + 1}")
    boards = openings(args.wthor, args.positions)
    print(f"{len(boards)} positions, searched to depth {args.depth}")
    for weights in args.weights:
        with ProcessPoolExecutor(args.workers) as pool:
            runs = list(pool.map(iterations, [weights] * len(boards), boards,
                                 [args.depth] * len(boards)))
        scores = np.array([r for r in runs if len(r) == args.depth])  # no early end
        steps = np.diff(scores, axis=1)  # column d: depth d+1 -> d+2
        signed = steps * np.array([(-1) ** d for d in range(steps.shape[1])])
        late = steps[:, FIRST - 1:]
        largest = np.abs(late).max(axis=1)
        print(f"{weights}: {len(scores)} positions")
        print("  mean step to each depth from 2 (+: the even depth higher): "
              + " ".join(f"{x:+.2f}" for x in signed.mean(axis=0)))
        print(f"  steps from depth {FIRST} on: root mean square {np.sqrt((late ** 2).mean()):.2f}"
              f" discs; largest step above 1.5 discs in {100 * np.mean(largest > 1.5):.0f} %"
              " of the positions")


if __name__ == "__main__":
    main()
