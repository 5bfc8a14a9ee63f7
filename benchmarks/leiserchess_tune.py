"""Fit the Leiserchess evaluation weights to game results (Texel's method).

    python benchmarks/leiserchess_tune.py GAMES.jsonl [GAMES.jsonl ...]
        [--every 2] [--skip 6] [--holdout 0.2] [--seed 1] [--start SPEC] [--ridge 1e-5]

GAMES are match files written by ``bitgames leiserchess match ... --save FILE`` (for
instance self-play at a fixed depth from random openings). Every ``--every``-th position
of each game after the first ``--skip`` plies is kept if it is quiet (the side to move has
no move that zaps an enemy piece, so the static evaluation is what quiescence would
return), with the game's result from the side to move's view (1, 1/2 or 0).

The evaluation is linear in its weights up to rounding, so each position is reduced to
one feature per weight (the evaluation with that weight alone set). The fit first finds
the scale ``K`` for which ``1 / (1 + exp(-eval / K))`` best predicts the results with the
starting weights (the engine's, or ``--start`` as a match player's options: ``eval:course``
for the course's, ``pbetween:6000,...``), then moves every positional weight (the Pawn
stays at 10,000 ev, the scale of the others; each within its engine option's range; the
having-the-move bonus stays too, as the quiet positions are not a fair sample of who is
to move) to minimise the mean squared error of that prediction on the training games,
plus a small pull (``--ridge``) towards the starting weights, as some weights are nearly
interchangeable in the fit. It reports the error on the held-out games (split by game)
before and after, and prints the weights as a match specification
(``pbetween:...,pcentral:...``); whether they play better is for a match to say, not
this error.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator

import numpy as np
from scipy.optimize import minimize

from bitgames.core.match import PlayerSpec
from bitgames.leiserchess import eval as ev
from bitgames.leiserchess.board import Board
from bitgames.leiserchess.cli import match_kit
from bitgames.leiserchess.kernels import MAX_MOVES, laser_path
from bitgames.leiserchess.search import zapping_moves

#: the tuned weights: option name and parameter slot
TUNED = [(name, ev.OPTIONS[name][0]) for name in
         ("pbetween", "pcentral", "kface", "kaggressive", "hattack", "mobility", "pawnpin")]
UNIT = 1_000_000  # a weight this large makes the evaluation's rounding negligible
PAWN = 10_000.0  # ev: the fit moves the weights in Pawns


def _games(paths: list[str]) -> Iterator[tuple[list[str], float]]:
    """(moves, result for the first player: 1, 0.5 or 0) of every game in the files."""
    for path in paths:
        with open(path) as f:
            for line in f:
                rec = json.loads(line)
                if "moves" not in rec:
                    continue
                result = {"1-0": 1.0, "0-1": 0.0}.get(rec["result"], 0.5)
                yield rec["moves"], result


def _features(bb: tuple[np.uint64, ...], side: int) -> np.ndarray:
    """The evaluation per unit of each weight, the Pawn's then ``TUNED``'s (centipawns
    per ev)."""
    out = np.zeros(len(TUNED) + 1)
    for i, slot in enumerate([ev.P_PAWN] + [s for _n, s in TUNED]):
        p = np.zeros(ev.N_PARAMS, dtype=np.int64)
        p[slot] = UNIT
        out[i] = ev.evaluate_position(*bb, side, p) / UNIT
    return out


def positions(paths: list[str], every: int, skip: int
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features, results (side to move's view) and game numbers of the quiet positions."""
    feats: list[np.ndarray] = []
    results: list[float] = []
    games: list[int] = []
    out = np.zeros(MAX_MOVES, dtype=np.int64)
    for g, (moves, result) in enumerate(_games(paths)):
        board = Board()
        for ply, text in enumerate(moves):
            if ply >= skip and (ply - skip) % every == 0 and ply < len(moves) - 1:
                bb = tuple(np.uint64(x) for x in board.bitboards())
                side = board.side
                enemy = np.uint64(laser_path(*bb, 1 - side))
                if zapping_moves(*bb, side, enemy, out) == 0:
                    feats.append(_features(bb, side))
                    results.append(result if side == 0 else 1.0 - result)
                    games.append(g)
            board.push(board.parse_move(text))
        if g % 200 == 199:
            print(f"  {g + 1} games, {len(results)} positions", file=sys.stderr)
    return np.array(feats), np.array(results), np.array(games)


def _scores(x: np.ndarray, weights: np.ndarray, hmb: float) -> np.ndarray:
    return x @ weights + hmb


def _mse(scores: np.ndarray, results: np.ndarray, k: float) -> float:
    return float(np.mean((results - 1.0 / (1.0 + np.exp(-scores / k))) ** 2))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="+")
    ap.add_argument("--every", type=int, default=2)
    ap.add_argument("--skip", type=int, default=6)
    ap.add_argument("--holdout", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ridge", type=float, default=1e-5,
                    help="weight of the pull towards the starting weights")
    ap.add_argument("--start", default="", metavar="SPEC",
                    help="weights to start from, as a match player's options "
                    "(eval:course, pbetween:V,...; default: the engine's)")
    args = ap.parse_args()

    x, r, g = positions(args.games, args.every, args.skip)
    rng = random.Random(args.seed)
    held = {i for i in set(g.tolist()) if rng.random() < args.holdout}
    test = np.array([i in held for i in g.tolist()])
    train = ~test
    print(f"{len(r)} quiet positions from {len(set(g.tolist()))} games "
          f"({int(train.sum())} to fit, {int(test.sum())} held out)")

    start = match_kit().engine(PlayerSpec.parse(args.start).options).params
    w0 = np.array([start[ev.P_PAWN]] + [start[s] for _n, s in TUNED], dtype=float)
    hmb = float(start[ev.P_HMB])  # not fitted: quiet positions are not a fair sample
    s0 = _scores(x, w0, hmb)
    k = float(minimize(lambda a: _mse(s0[train], r[train], a[0]), [100.0],
                       method="Nelder-Mead").x[0])
    print(f"K = {k:.1f} cp; starting weights: error {_mse(s0[train], r[train], k):.5f} "
          f"(fit), {_mse(s0[test], r[test], k):.5f} (held out)")

    # a small pull towards the starting weights picks, among weights that fit alike,
    # the nearest
    def loss(z: np.ndarray) -> float:  # z: the change of each weight, in Pawns
        w = np.concatenate(([w0[0]], w0[1:] + z * PAWN))
        pull = args.ridge * float(np.sum(z * z))
        return _mse(_scores(x[train], w, hmb), r[train], k) + pull

    bounds = [((ev.OPTIONS[name][2] - a) / PAWN, (ev.OPTIONS[name][3] - a) / PAWN)
              for (name, _slot), a in zip(TUNED, w0[1:], strict=True)]
    fit = minimize(loss, np.zeros(len(TUNED)), method="L-BFGS-B", bounds=bounds)
    w1 = np.concatenate(([w0[0]], np.round(w0[1:] + fit.x * PAWN)))
    s1 = _scores(x, w1, hmb)
    print(f"tuned weights: error {_mse(s1[train], r[train], k):.5f} (fit), "
          f"{_mse(s1[test], r[test], k):.5f} (held out)")
    for (name, _slot), a, b in zip(TUNED, w0[1:], w1[1:], strict=True):
        print(f"  {name:12s} {int(a):7d} -> {int(b):7d}")
    print(",".join(f"{name}:{int(v)}" for (name, _s), v in zip(TUNED, w1[1:], strict=True)))


if __name__ == "__main__":
    main()
