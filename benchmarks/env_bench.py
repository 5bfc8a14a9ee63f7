"""Random-play steps per second of the learning environments, side by side in one run.

Run: python benchmarks/env_bench.py [--seconds 3] [--games othello,go] [--others]

Prints steps/s of ``VectorGame`` for every game it runs (or those of ``--games``) at batch
sizes 1, 64, 1024, 4096 and 16384 on 1 and 2 threads (random legal moves drawn inside the
kernel; Go 9x9 with positional superko, without the per-step masks, and once more with
them at batch 1024), then for the AEC environment of every game (``bitgames.env.make``; a
random legal action from the mask each step, in Python). With ``--others`` it also times
OpenSpiel's Othello, checkers and Go 9x9 and pgx's Othello and Go 9x9 (jax on the CPU) if
they are installed (``pip install open_spiel pgx``; neither is a dependency of bitgames),
in the same run.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np


def timed(step: Callable[[], int], seconds: float) -> float:
    """Steps per second of ``step`` (which returns how many steps it made)."""
    step()  # compile / warm up
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += step()
    return steps / (time.perf_counter() - start)


def vector(name: str, batch: int, threads: int, seconds: float, **options: object) -> float:
    from bitgames.env.vector import VectorGame

    games = VectorGame(name, batch, threads=threads, **options)

    def step() -> int:
        games.step(None)
        return batch

    return timed(step, seconds)


def aec(name: str, seconds: float) -> float:
    from bitgames.env import make

    env = make(name, **({"size": 9} if name == "go" else {}))
    rng = random.Random(1)
    env.reset(seed=1)

    def step() -> int:
        for _ in range(200):
            obs, _r, done, truncated, _ = env.last()
            if done or truncated:
                env.reset()
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        return 200

    return timed(step, seconds)


def open_spiel(game: str, seconds: float) -> float:
    import pyspiel

    g = pyspiel.load_game(game)
    rng = random.Random(1)
    state = g.new_initial_state()

    def step() -> int:
        nonlocal state
        for _ in range(1000):
            if state.is_terminal():
                state = g.new_initial_state()
            state.apply_action(rng.choice(state.legal_actions()))
        return 1000

    return timed(step, seconds)


def pgx(env_id: str, batch: int, seconds: float) -> float:
    import jax
    import jax.numpy as jnp
    import pgx as px

    env = px.make(env_id)
    init, step_fn = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    key = jax.random.PRNGKey(0)
    state = init(jax.random.split(key, batch))

    def act(state, key):  # type: ignore[no-untyped-def]
        logits = jnp.log(state.legal_action_mask.astype(jnp.float32))
        return jax.random.categorical(key, logits, axis=1)

    act = jax.jit(act)

    def step() -> int:
        nonlocal state, key
        for _ in range(10):
            key, sub = jax.random.split(key)
            state = step_fn(state, act(state, sub))
        state.current_player.block_until_ready()
        return 10 * batch

    return timed(step, seconds)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--others", action="store_true", help="also OpenSpiel and pgx")
    ap.add_argument("--games", help="VectorGame games, comma-separated (default: all)")
    args = ap.parse_args()
    from bitgames.env.vector import KINDS

    rows: list[tuple[str, float]] = []
    for name in args.games.split(",") if args.games else KINDS:
        options: dict[str, object] = {"size": 9, "masks": False} if name == "go" else {}
        runs = [(threads, batch, options) for threads in (1, 2)
                for batch in (1, 64, 1024, 4096, 16384)]
        if name == "go":
            runs += [(threads, 1024, {"size": 9}) for threads in (1, 2)]
        for threads, batch, opts in runs:
            rows.append((f"VectorGame {name} {opts or ''}, batch {batch}, {threads} thread(s)",
                         vector(name, batch, threads, args.seconds, **opts)))
            print(f"{rows[-1][0]}: {rows[-1][1] / 1e6:.2f} M steps/s", flush=True)
    for name in ("othello", "draughts-russian", "draughts-english", "go", "leiserchess"):
        rows.append((f"AEC {name}", aec(name, args.seconds)))
        print(f"{rows[-1][0]}: {rows[-1][1] / 1e3:.1f} k steps/s", flush=True)
    if args.others:
        for game in ("othello", "checkers", "go(board_size=9)"):
            try:
                rate = open_spiel(game, args.seconds)
            except ImportError:
                print("OpenSpiel not installed (pip install open_spiel)")
                break
            print(f"OpenSpiel {game}: {rate / 1e6:.3f} M steps/s", flush=True)
        for env_id, batch in (("othello", 1024), ("go_9x9", 1024)):
            try:
                rate = pgx(env_id, batch, args.seconds)
            except ImportError:
                print("pgx not installed (pip install pgx)")
                break
            print(f"pgx {env_id}, batch {batch}: {rate / 1e6:.3f} M steps/s", flush=True)


if __name__ == "__main__":
    main()
