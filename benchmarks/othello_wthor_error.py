"""Error of the Othello engine against perfect play on real tournament positions: WTHOR.

    python benchmarks/othello_wthor_error.py WTHOR_DIR [--games 2000] [--depths 0,2,4,6]
        [--weights W.npz] [--solve N] [--zebra ZEBRA] [--held-out] [--empties 24]
        [--no-mpc]

Every WTHOR game records its *theoretical score*: Black's discs under perfect play from the
position with 24 empty squares (``depth`` in the file header, 24 in every file from 1977
to 2023). The federation computed it, not us, so it is an exact label nobody here made.
This script takes ``games`` games spread evenly over all the files. For each it takes the
position with 24 empties and compares the engine's evaluation with the exact score: the
static evaluation (depth 0) and searches of the given depths (the engine's level 8,
with its Multi-ProbCut unless ``--no-mpc``). It prints the mean and median absolute error
in discs, how often the sign (win, draw, loss) is right, and the median nodes searched.

``--zebra ZEBRA`` measures Zebra's evaluation the same way, beside ours: for every depth
of at least 1, Zebra's value of each position at that midgame depth (its console program,
built outside this repository by ``sh benchmarks/othello_zebra.sh OUT``; book, randomness
and endgame solving off, one process a position, started on the game's moves), so the two
programs' errors (and node counts) come from one run on the same positions. Zebra has
no depth 0, and plays a forced move without searching: positions with one legal move are
left out.

``--held-out`` takes the positions from every tenth game only, from the first on: the games
that ``bitgames othello train --wthor`` holds out (never fits) when it is given all the
files in date order, as the shipped weights were. Without it, most positions come from
games the shipped weights were fitted on.

``--empties E`` takes the positions with E empties instead. Below the files' theoretical
depth their exact scores come from our own solver (one thread, its CPU time printed),
checked against the files' scores at 24 empties by ``--solve``. Above it there is no exact
score: the label is the game's theoretical score, the value the game had under perfect
play 24 empties from the end, after the players' later mistakes. It is the same noisy
label for every program measured, so it compares evaluations (ours, other weights,
Zebra's) earlier in the game, where the games between them are decided, but its error is
no error against perfect play.

``--solve N`` checks our exact solver against the federation's scores instead: it solves
the first N of those positions (one thread) and prints every one whose score differs
(``--depths ''`` skips the evaluation).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
from othello_zebra_ffo import children_cpu
from othello_zebra_gtp import zebra_args, zebra_until_prompt

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


def sample(folder: Path, games: int, empties: int = 24, held_out: bool = False
           ) -> list[tuple[Board, int | None, list[str]]]:
    """``games`` positions with ``empties`` empties spread over every file, with their
    labels for the side to move (disc difference: the game's theoretical score, exact at
    the file's theoretical depth and only a game's later value before it; ``None`` after
    it) and the moves that reach them (no passes); ``held_out``: only from every tenth
    game, from the first on."""
    everything: list[tuple[WthorGame, int]] = []
    for path in sorted(folder.glob("WTH_*.wtb")):
        base = load_base(path)
        everything += [(game, base.depth) for game in base.games]
    pool = everything[::10] if held_out else everything
    step = max(1, len(pool) // games)
    out: list[tuple[Board, int | None, list[str]]] = []
    for game, depth in pool[::step]:
        board = position_at(game, empties)
        if board is None or board.is_game_over():
            continue
        black = 2 * game.theoretical - 64
        score = (black if board.turn == Board().turn else -black) if depth <= empties else None
        out.append((board, score, [str(m) for m in game.moves[:60 - empties]]))
        if len(out) == games:
            break
    return out


def solve_missing(positions: list[tuple[Board, int | None, list[str]]]) -> np.ndarray:
    """The exact scores of ``positions``: the files' where they have one, else solved
    (one thread; the CPU time is printed)."""
    solver = Solver(21)
    start = time.process_time()
    scores = [score if score is not None else solver.solve(board).score
              for board, score, _ in positions]
    solved = sum(score is None for _, score, _ in positions)
    if solved:
        print(f"solved {solved} positions: {time.process_time() - start:.1f} s CPU", flush=True)
    return np.array(scores, dtype=float)


def zebra_value(zebra: str, moves: list[str], black: bool, depth: int) -> tuple[float, int]:
    """Zebra's value (discs, side to move) of the position after ``moves`` at midgame
    ``depth``, no solving, and the nodes it searched: the last search line it prints."""
    args = [*zebra_args([str(depth), "0", "0"], black), "-seq", "".join(moves)]
    with tempfile.TemporaryDirectory() as work:
        out = zebra_until_prompt(zebra, args, work)
    lines = [x.split() for x in out.decode(errors="replace").splitlines()
             if x.startswith("-->")]
    if not lines:
        raise RuntimeError(f"Zebra printed no search line after {''.join(moves)}")
    return float(lines[-1][2]), int(lines[-1][3])


def check_solver(positions: list[tuple[Board, int | None, list[str]]]) -> None:
    """Solve each position exactly; print the ones whose score is not the recorded one."""
    solver = Solver(21)
    agree = nodes = 0
    start = time.process_time()
    for i, (board, exact, _) in enumerate(positions, 1):
        result = solver.solve(board)
        nodes += result.nodes
        if result.score == exact:
            agree += 1
        else:
            print(f"differs: {board.fen()}  solver {result.score:+d}, WTHOR {exact:+d}")
        if i % 10 == 0 or i == len(positions):
            print(f"solved {i}: {agree} agree with WTHOR, {nodes:,} nodes, "
                  f"{time.process_time() - start:.1f} s CPU", flush=True)


def report(name: str, values: np.ndarray, exact: np.ndarray, cpu: float,
           nodes: list[int]) -> None:
    """One line: the mean and median error of ``values`` against ``exact``, how often the
    sign (win, draw, loss) is right, and the median nodes of the searches (if any)."""
    error = np.abs(values - exact)
    signs = np.mean(np.sign(np.round(values)) == np.sign(exact))
    searched = f", median {np.median(nodes):,.0f} nodes" if nodes else ""
    print(f"{name}: mean error {error.mean():.2f} discs, median {np.median(error):.2f}, "
          f"sign right {signs:.1%} ({cpu:.1f} s CPU{searched})", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--depths", default="0,2,4,6")
    parser.add_argument("--weights", default=None)
    parser.add_argument("--solve", type=int, default=0, metavar="N")
    parser.add_argument("--zebra", default=None, metavar="ZEBRA")
    parser.add_argument("--held-out", action="store_true")
    parser.add_argument("--empties", type=int, default=24)
    parser.add_argument("--no-mpc", action="store_true")
    args = parser.parse_args()
    if args.solve and args.empties != 24:
        parser.error("--solve checks the files' theoretical scores: only with --empties 24")
    positions = sample(args.folder, args.games, args.empties, args.held_out)
    if args.zebra:  # Zebra plays a forced move (or a pass) without a search line
        positions = [x for x in positions if len(x[0].legal_moves) > 1]
    exact = solve_missing(positions)
    kind = "exact scores" if args.empties <= 24 else "labels (theoretical scores)"
    print(f"{len(positions)} positions with {args.empties} empties from {args.folder}; "
          f"{kind}: mean |score| {np.abs(exact).mean():.2f} discs")
    # no exact or win/loss/draw solve: the evaluation and the search alone are measured
    if args.solve:
        check_solver(positions[:args.solve])
    engine = Engine(weights=args.weights, exact_empties=0, wld_empties=0,
                    mpc=False if args.no_mpc else None)
    for depth in (int(d) for d in args.depths.split(",") if d):
        start = time.process_time()
        found: list[float] = []
        nodes: list[int] = []
        for board, _, _ in positions:
            if depth == 0:
                found.append(engine.evaluate(board) / 100)
                continue
            engine.new_game()
            result = engine.search(board, Limit(depth=depth))
            found.append(result.score.value if result.score is not None else 0.0)
            nodes.append(result.nodes)
        report(f"depth {depth}", np.array(found), exact, time.process_time() - start, nodes)
        if args.zebra and depth > 0:
            start = children_cpu()
            answers = [zebra_value(args.zebra, moves, board.turn == Board().turn, depth)
                       for board, _, moves in positions]
            report(f"Zebra depth {depth}", np.array([v for v, _ in answers]), exact,
                   children_cpu() - start, [n for _, n in answers])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
