"""Learn to play Othello in a minute or two: a table of square values, trained on games
played thousands at a time by ``bitgames.env.VectorGame``.

The player moves to the legal square of highest value. Its table has ten numbers, one per
kind of square (the board's eight symmetries map the 64 squares onto ten kinds: corners,
the squares next to them, edges, ...). The cross-entropy method learns them. Each
generation draws 32 tables around the current mean, lets each play 64 games against the
random player, and moves the mean to the best 6. Nothing tells it that corners are good
or that the squares next to them are bad: it finds out by playing.

    python examples/othello_learn.py [--generations 40] [--seed 1]

prints the learnt values and the score (wins + half the draws) against the random player
and against the greedy player (the move that flips most discs), over 2,000 games each
with colours alternating. numpy and bitgames only.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from numba import njit

from bitgames.core.bits import popcount
from bitgames.env.vector import VectorGame
from bitgames.othello.kernels import flips

PASS, RANDOM = 64, -1


def square_kinds() -> np.ndarray:
    """The kind (0..9) of each square: squares one symmetry of the board maps onto each
    other are of one kind (0 is a corner, 1 the square beside it on the edge, 4 the
    diagonal square next to the corner, 9 the centre)."""
    kinds: dict[tuple[int, ...], int] = {}
    out = np.zeros(64, dtype=np.int64)
    for square in range(64):
        row, col = divmod(square, 8)
        key = tuple(sorted((min(row, 7 - row), min(col, 7 - col))))
        out[square] = kinds.setdefault(key, len(kinds))
    return out


KINDS = square_kinds()
BITS = np.arange(64, dtype=np.uint64)


def legal_squares(mask: np.ndarray) -> np.ndarray:
    """Games x 64 booleans: the legal squares of each game's mover."""
    return ((mask[:, None] >> BITS) & np.uint64(1)).astype(bool)


def choose(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The square of highest value among each game's legal ones (``values``: games x 64),
    or a pass."""
    legal = legal_squares(mask)
    best = np.where(legal, values, -np.inf).argmax(axis=1)
    return np.where(legal.any(axis=1), best, PASS)


@njit(cache=False)
def greedy(obs: np.ndarray, mask: np.ndarray, out: np.ndarray) -> None:
    """The move that flips most discs in each game (the first such square), or a pass."""
    for i in range(obs.shape[0]):
        p, o, moves = obs[i, 0], obs[i, 1], mask[i]
        best, most = PASS, -1
        for square in range(64):
            if (moves >> np.uint64(square)) & np.uint64(1):
                n = popcount(flips(p, o, square))
                if n > most:
                    best, most = square, n
        out[i] = best


def play(values: np.ndarray, opponent: str = "random", seed: int = 0,
         opening: int = 4) -> np.ndarray:
    """One game per row of ``values`` (games x 64 square values) against ``opponent``
    ("random" or "greedy"), from ``opening`` random plies (so that two fixed players
    play different games), our player Black in even games and White in odd ones; the
    results for our player (+1, 0, -1)."""
    n = len(values)
    plies = 0
    games = VectorGame("othello", n)
    obs, mask = games.reset(seed)
    ours = np.arange(n) % 2  # the colour we play: 0 Black (moves first), 1 White
    result = np.zeros(n)
    finished = np.zeros(n, dtype=bool)
    theirs = np.full(n, RANDOM, dtype=np.int64)
    while not finished.all():
        mover_is_us = games.turn == ours
        if opponent == "greedy":
            greedy(obs, mask, theirs)
        actions = np.where(mover_is_us, choose(values, mask), theirs)
        obs, mask, reward, done = games.step(actions if plies >= opening else None)
        plies += 1
        new = done & ~finished
        result[new] = np.where(mover_is_us[new], reward[new], -reward[new])
        finished |= done
    return result


def score(results: np.ndarray) -> float:
    """Wins plus half the draws, as a fraction of the games."""
    return float(((results > 0) + 0.5 * (results == 0)).mean())


def train(generations: int = 40, population: int = 32, games: int = 64, elite: int = 6,
          seed: int = 1, log: bool = False) -> np.ndarray:
    """The cross-entropy method on the ten square values; returns the 64 square values."""
    rng = np.random.default_rng(seed)
    mean, std = np.zeros(10), np.ones(10)
    for generation in range(generations):
        tables = mean + std * rng.standard_normal((population, 10))
        values = np.repeat(tables[:, KINDS], games, axis=0)
        results = play(values, "random", seed=seed * 1000 + generation)
        fitness = np.array([score(r) for r in results.reshape(population, games)])
        best = tables[np.argsort(fitness)[-elite:]]
        mean, std = best.mean(axis=0), best.std(axis=0) + 0.02
        if log:
            print(f"generation {generation + 1}: best {fitness.max():.2f}, "
                  f"mean {fitness.mean():.2f} against the random player", flush=True)
    return np.asarray(mean[KINDS])


def evaluate(square_values: np.ndarray, opponent: str, games: int = 2000,
             seed: int = 99) -> float:
    """The score of the table against ``opponent`` over ``games`` games."""
    return score(play(np.tile(square_values, (games, 1)), opponent, seed))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generations", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    before = {o: evaluate(np.zeros(64), o) for o in ("random", "greedy")}
    values = train(args.generations, seed=args.seed, log=True)
    print("learnt square values (rows 1-8):")
    print(np.array2string(values.reshape(8, 8), precision=1, suppress_small=True))
    for opponent in ("random", "greedy"):
        print(f"against the {opponent} player: {evaluate(values, opponent):.1%} "
              f"(the untrained table, which always plays the first legal square: "
              f"{before[opponent]:.1%})")
    print(f"{time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
