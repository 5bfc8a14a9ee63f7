"""Error of the Othello engine against perfect play on real tournament positions: WTHOR.

    python benchmarks/othello_wthor_error.py WTHOR_DIR [--games 2000] [--depths 0,2,4,6]
        [--weights W.npz] [--solve N]

Every WTHOR game records its *theoretical score*: Black's discs under perfect play from the
position with 24 empty squares (``depth`` in the file header, 24 in every file from 1977
to 2023). The federation computed it, not us, so it is an exact label nobody here made.
This script takes ``games`` games spread evenly over all the files. For each it takes the
position with 24 empties and compares the engine's evaluation with the exact score: the
static evaluation (depth 0) and searches of the given depths. It prints the mean and
median absolute error in discs, and how often the sign (win, draw, loss) is right.

``--solve N`` checks our exact solver against the federation's scores instead: it solves
the first N of those positions (one thread) and prints every one whose score differs
(``--depths ''`` skips the evaluation).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from bitgames.core.engine import Limit
from bitgames.othello.board import Board
from bitgames.othello.search import Engine
from bitgames.othello.solver import Solver
from bitgames.othello.wthor import WthorGame, load_base


def position_at(game: WthorGame, empties: int) -> Board | None:
    """The game's position with ``empties`` empty squares (passes played where needed)."""
    board = Board()
    for move in game.moves:
        if board.empties() == empties:
            return board
        if not board.is_legal(move) and board.is_legal("pass"):
            board.push("pass")
        board.push(move)
    return board if board.empties() == empties else None


def sample(folder: Path, games: int) -> list[tuple[Board, int]]:
    """``games`` positions with 24 empties spread over every file, with their exact scores
    for the side to move (disc difference)."""
    everything = [g for path in sorted(folder.glob("WTH_*.wtb")) for g in load_base(path).games]
    step = max(1, len(everything) // games)
    out = []
    for game in everything[::step]:
        board = position_at(game, 24)
        if board is None or board.is_game_over():
            continue
        black = 2 * game.theoretical - 64
        out.append((board, black if board.turn == Board().turn else -black))
        if len(out) == games:
            break
    return out


def check_solver(positions: list[tuple[Board, int]]) -> None:
    """Solve each position exactly; print the ones whose score is not the recorded one."""
    solver = Solver(21)
    agree = nodes = 0
    start = time.process_time()
    for i, (board, exact) in enumerate(positions, 1):
        result = solver.solve(board)
        nodes += result.nodes
        if result.score == exact:
            agree += 1
        else:
            print(f"differs: {board.fen()}  solver {result.score:+d}, WTHOR {exact:+d}")
        if i % 10 == 0 or i == len(positions):
            print(f"solved {i}: {agree} agree with WTHOR, {nodes:,} nodes, "
                  f"{time.process_time() - start:.1f} s CPU", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--depths", default="0,2,4,6")
    parser.add_argument("--weights", default=None)
    parser.add_argument("--solve", type=int, default=0, metavar="N")
    args = parser.parse_args()
    positions = sample(args.folder, args.games)
    exact = np.array([score for _, score in positions], dtype=float)
    print(f"{len(positions)} positions with 24 empties from {args.folder}; exact scores: "
          f"mean |score| {np.abs(exact).mean():.2f} discs")
    # no exact or win/loss/draw solve: the evaluation and the search alone are measured
    if args.solve:
        check_solver(positions[:args.solve])
    engine = Engine(weights=args.weights, exact_empties=0, wld_empties=0)
    for depth in (int(d) for d in args.depths.split(",") if d):
        start = time.process_time()
        found: list[float] = []
        for board, _ in positions:
            if depth == 0:
                found.append(engine.evaluate(board) / 100)
                continue
            engine.new_game()
            result = engine.search(board, Limit(depth=depth))
            found.append(result.score.value if result.score is not None else 0.0)
        values = np.array(found)
        error = np.abs(values - exact)
        signs = np.mean(np.sign(np.round(values)) == np.sign(exact))
        print(f"depth {depth}: mean error {error.mean():.2f} discs, median "
              f"{np.median(error):.2f}, sign right {signs:.1%} "
              f"({time.process_time() - start:.1f} s CPU)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
