"""Many games stepped in one compiled call, for agents that learn from millions of moves.

:class:`VectorGame` keeps ``num_envs`` games of one kind in NumPy arrays and steps them all
with one call of the game's batch kernel (``bitgames.<game>.vector``), on every core
(numba's ``prange``). Each game restarts as soon as it ends. The actions are those of
:mod:`bitgames.env.codecs`, the same numbers as the AEC environments of
:func:`bitgames.env.make`.

>>> from bitgames.env.vector import VectorGame
>>> games = VectorGame("othello", 8)
>>> obs, mask = games.reset(seed=1)
>>> obs.shape, bin(int(mask[0])).count("1")  # bitboards; four legal squares each
((8, 2), 4)
>>> obs, mask, reward, done = games.step(None)  # a random legal move in every game
>>> games.action_mask().shape  # the legal actions as 0/1, one row per game
(8, 65)
>>> go = VectorGame("go", 4, size=9)
>>> obs, mask = go.reset(seed=1)
>>> go.planes().shape  # as the AEC environment's observation: games x 9 x 9 x 4
(4, 9, 9, 4)
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from typing import Any

import numpy as np

# OpenMP's threads spin while they wait for work by default: on a machine whose cores are
# also busy with other programs, a batch then waits for a descheduled spinner at every
# step (30 times slower, measured). Waiting passively costs nothing when the cores are
# free. Set before numba starts its OpenMP threads; an explicit setting wins.
os.environ.setdefault("OMP_WAIT_POLICY", "passive")

from bitgames.core.errors import BitgamesError  # noqa: E402

#: the action that asks a batch kernel for a uniformly random legal move
RANDOM = -1

#: the games :class:`VectorGame` runs, and the module of their batch
KINDS = {
    "othello": "bitgames.env.batches.othello",
    "draughts-russian": "bitgames.env.batches.draughts_russian",
    "draughts-english": "bitgames.env.batches.draughts_english",
    "go": "bitgames.env.batches.go",
    "leiserchess": "bitgames.env.batches.leiserchess",
}
#: the warm-up groups the batch kernels need (:func:`bitgames.core.jit.ensure_warm`)
GROUPS = ("rules", "vector")


class Batch(ABC):
    """The arrays and kernels of ``num_envs`` games of one kind (one subclass per game in
    :mod:`bitgames.env.batches`).

    Every batch has ``turn`` (the colour to move, 0 for the side that starts), ``rng``
    (one random stream per game, :mod:`bitgames.core.rng`), ``played`` (the actions just
    taken), ``reward`` (for the side that just moved: +1 won, -1 lost, 0 drawn or not
    over), ``done`` (the game just ended and was restarted) and ``truncated`` (it ended
    because it reached ``max_plies``); ``obs`` and ``mask`` are the game's own compact
    forms (see its class).
    """

    #: the game's name for :func:`bitgames.core.jit.ensure_warm`
    game: str
    n_actions: int
    #: the shape of one game's observation planes (rows x columns x planes)
    shape: tuple[int, int, int]
    obs: np.ndarray
    mask: np.ndarray

    def __init__(self, num_envs: int) -> None:
        n = num_envs
        self.num_envs = n
        self.turn = np.zeros(n, dtype=np.int8)
        self.rng = np.ones(n, dtype=np.uint64)
        self.played = np.zeros(n, dtype=np.int64)
        self.reward = np.zeros(n, dtype=np.float32)
        self.done = np.zeros(n, dtype=np.bool_)
        self.truncated = np.zeros(n, dtype=np.bool_)

    @abstractmethod
    def reset(self) -> None:
        """Every game at its start position (the random streams are seeded by the caller)."""

    @abstractmethod
    def step(self, actions: np.ndarray) -> None:
        """One move in every game (``RANDOM``: a random legal one)."""

    @abstractmethod
    def planes(self) -> np.ndarray:
        """Every game's observation as 0/1 planes, ``(num_envs, *shape)`` ``int8``."""

    @abstractmethod
    def action_mask(self) -> np.ndarray:
        """``(num_envs, n_actions)`` ``int8``: 1 for each legal action of the side to move."""


class VectorGame:
    """``num_envs`` games of ``name`` stepped together on ``threads`` threads (default:
    all cores), each restarted as soon as it ends; ``options`` go to the game's batch
    (every game: ``max_plies``; Go: ``size``, ``komi``, ``rules``, ``masks``).

    :meth:`step` returns ``(obs, mask, reward, done)``, arrays this object owns and
    rewrites in place. ``obs`` and ``mask`` are the game's compact forms, documented by
    its batch class in :mod:`bitgames.env.batches`: bitboards for the observation; the
    legal squares as bits for Othello and the legal points for Go, the legal action
    numbers padded with -1 for draughts and Leiserchess. :meth:`planes` and
    :meth:`action_mask` give the AEC environment's planes and mask.
    ``reward[i]`` is for the side that just moved (+1 won, -1 lost, 0 drawn or not over);
    an illegal action loses at once. :attr:`played` holds the actions just taken,
    :attr:`turn` the colour to move (0: the side that starts) and :attr:`truncated` the
    games cut at ``max_plies`` (``done`` too, reward 0).
    """

    def __init__(self, name: str, num_envs: int, threads: int | None = None,
                 **options: Any) -> None:
        if name not in KINDS:
            raise BitgamesError(f"VectorGame runs {', '.join(KINDS)}; {name!r} is not yet "
                                "written (use bitgames.env.make for the others)")
        if num_envs < 1:
            raise BitgamesError(f"num_envs must be at least 1, got {num_envs}")
        if threads is not None and threads < 1:
            raise BitgamesError(f"threads must be at least 1, got {threads}")
        import importlib

        from bitgames.core.jit import ensure_warm

        module = importlib.import_module(KINDS[name])
        self.batch: Batch = module.BATCH(num_envs, **options)
        ensure_warm(self.batch.game, *GROUPS)
        self.name, self.num_envs, self.threads = name, num_envs, threads
        self._random = np.full(num_envs, RANDOM, dtype=np.int64)
        self.reset()

    @property
    def n_actions(self) -> int:
        """The number of actions (:mod:`bitgames.env.codecs`)."""
        return self.batch.n_actions

    def __getattr__(self, attr: str) -> Any:
        if attr in ("obs", "mask", "reward", "done", "truncated", "played", "turn"):
            return getattr(self.batch, attr)
        raise AttributeError(attr)

    def reset(self, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """Every game at the start; the random streams seeded from ``seed``."""
        self.batch.rng[:] = np.random.SeedSequence(seed).generate_state(
            self.num_envs, dtype=np.uint64)
        self.batch.reset()
        return self.batch.obs, self.batch.mask

    def step(self, actions: np.ndarray | None = None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One move in every game: ``actions`` (one per game), or ``None`` for random
        moves. Returns ``(obs, mask, reward, done)``."""
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
        b = self.batch
        b.step(acts)
        return b.obs, b.mask, b.reward, b.done

    def planes(self) -> np.ndarray:
        """The observations as 0/1 planes, as :func:`bitgames.env.make` gives them
        (games x rows x columns x planes)."""
        return self.batch.planes()

    def action_mask(self) -> np.ndarray:
        """The legal actions of every game as 0/1 (games x actions), as the AEC
        environment's ``action_mask``."""
        return self.batch.action_mask()
