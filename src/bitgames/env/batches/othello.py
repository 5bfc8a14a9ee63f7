"""Othello batches: two bitboards and a colour per game."""

from __future__ import annotations

import numpy as np

from bitgames.env.vector import Batch
from bitgames.othello import vector as K


class OthelloBatch(Batch):
    """``obs[i] = (mover's discs, opponent's discs)`` as bitboards (a1 = bit 0) and
    ``mask[i]`` the mover's legal squares as bits (0: only the pass is legal).

    >>> b = OthelloBatch(2)
    >>> b.reset()
    >>> int(b.action_mask().sum(axis=1)[0])
    4
    """

    game = "othello"
    n_actions = 65
    shape = (8, 8, 2)

    def __init__(self, num_envs: int) -> None:
        super().__init__(num_envs)
        self.discs = np.zeros((num_envs, 2), dtype=np.uint64)
        self.obs = np.zeros((num_envs, 2), dtype=np.uint64)
        self.mask = np.zeros(num_envs, dtype=np.uint64)

    def reset(self) -> None:
        start = K.start()
        self.discs[:] = start
        self.obs[:] = start
        self.turn[:] = 0
        self.mask[:] = K.start_mask()

    def step(self, actions: np.ndarray) -> None:
        K.step_batch(self.discs, self.turn, self.rng, actions, self.played, self.obs,
                     self.mask, self.reward, self.done)

    def planes(self) -> np.ndarray:
        out = np.zeros((self.num_envs, *self.shape), dtype=np.int8)
        K.planes(self.obs, out)
        return out

    def action_mask(self) -> np.ndarray:
        squares = (self.mask[:, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1)
        out = np.zeros((self.num_envs, self.n_actions), dtype=np.int8)
        out[:, :64] = squares
        out[:, 64] = self.mask == 0
        return out


BATCH = OthelloBatch
