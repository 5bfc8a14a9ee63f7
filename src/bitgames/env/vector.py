"""Many games stepped in one compiled call, for agents that learn from millions of moves.

>>> from bitgames.env.vector import VectorGame
>>> games = VectorGame("othello", 8)
>>> obs, mask = games.reset(seed=1)
>>> obs.shape, bin(int(mask[0])).count("1")  # bitboards; four legal squares each
((8, 2), 4)
>>> obs, mask, reward, done = games.step(None)  # a random legal move in every game
>>> games.played.tolist() == [int(a) for a in games.played]
True
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

# OpenMP's threads spin while they wait for work by default: on a machine whose cores are
# also busy with other programs, a batch then waits for a descheduled spinner at every
# step (30 times slower, measured). Waiting passively costs nothing when the cores are
# free. Set before numba starts its OpenMP threads; an explicit setting wins.
os.environ.setdefault("OMP_WAIT_POLICY", "passive")

from bitgames.core.errors import BitgamesError

#: the games :class:`VectorGame` runs, and the module of their batch kernels
KERNELS = {"othello": "bitgames.othello.vector"}
#: the warm-up groups the batch kernels need (:func:`bitgames.core.jit.ensure_warm`)
GROUPS = ("rules", "vector")


class VectorGame:
    """``num_envs`` games of ``name`` stepped together on ``threads`` threads (default:
    all cores), each restarted as soon as it ends.

    Observations are bitboards written into arrays the object owns (``obs[i] =
    (mover's pieces, opponent's pieces)``, ``mask[i]`` = the legal squares as bits, 0 when
    the only move is a pass); :meth:`planes` gives 0/1 planes. Actions are the numbers of
    :mod:`bitgames.env.codecs` (Othello: square, or 64 to pass); ``step(None)`` plays a
    uniformly random legal move in every game, drawn inside the kernel, and
    :attr:`played` holds the actions taken. ``reward[i]`` is for the side that just moved
    (+1 won, -1 lost, 0 drawn or not over); an illegal action loses at once.
    """

    def __init__(self, name: str, num_envs: int, threads: int | None = None) -> None:
        if name not in KERNELS:
            raise BitgamesError(f"VectorGame runs {', '.join(KERNELS)}; {name!r} is not yet "
                                "written (use bitgames.env.make for the others)")
        if num_envs < 1:
            raise BitgamesError(f"num_envs must be at least 1, got {num_envs}")
        import importlib

        from bitgames.core.jit import ensure_warm

        ensure_warm(name, *GROUPS)
        self.kernels: Any = importlib.import_module(KERNELS[name])
        self.name, self.num_envs, self.threads = name, num_envs, threads
        n = num_envs
        self.discs = np.zeros((n, 2), dtype=np.uint64)
        self.turn = np.zeros(n, dtype=np.int8)
        self.rng = np.zeros(n, dtype=np.uint64)
        self.obs = np.zeros((n, 2), dtype=np.uint64)
        self.mask = np.zeros(n, dtype=np.uint64)
        self.reward = np.zeros(n, dtype=np.float32)
        self.done = np.zeros(n, dtype=np.bool_)
        self.played = np.zeros(n, dtype=np.int64)
        self._random = np.full(n, self.kernels.RANDOM, dtype=np.int64)
        self.reset()

    def reset(self, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """Every game at the start; the random generators seeded from ``seed``."""
        start = self.kernels.start()
        self.discs[:] = start
        self.obs[:] = start
        self.turn[:] = 0
        self.mask[:] = self.kernels.start_mask()
        seeds = np.random.SeedSequence(seed).generate_state(self.num_envs, dtype=np.uint64)
        self.rng[:] = seeds | np.uint64(1)  # xorshift needs a state other than 0
        return self.obs, self.mask

    def step(self, actions: np.ndarray | None = None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One move in every game: ``actions`` (one per game), or ``None`` for random
        moves. Returns ``(obs, mask, reward, done)``, the arrays this object owns."""
        import numba

        if actions is None:
            acts = self._random
        else:
            acts = np.asarray(actions, dtype=np.int64)
            if acts.shape != (self.num_envs,):
                raise BitgamesError(f"step needs {self.num_envs} actions, got shape "
                                    f"{acts.shape}")
        if self.threads is not None and numba.get_num_threads() != self.threads:
            numba.set_num_threads(self.threads)
        self.kernels.step_batch(self.discs, self.turn, self.rng, acts, self.played, self.obs,
                                self.mask, self.reward, self.done)
        return self.obs, self.mask, self.reward, self.done

    def planes(self) -> np.ndarray:
        """The observations as 0/1 planes (games x rows x columns x 2: the mover's, the
        opponent's), as :func:`bitgames.env.make` gives them."""
        out = np.zeros((self.num_envs, 8, 8, 2), dtype=np.int8)
        self.kernels.planes(self.obs, out)
        return out
