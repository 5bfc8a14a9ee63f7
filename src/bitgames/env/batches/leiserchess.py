"""Leiserchess batches: the bitboards of every game, the one before its last move, and
the positions since its last Pawn zap (for the draw by repetition)."""

from __future__ import annotations

import numpy as np

from bitgames.core.errors import BitgamesError
from bitgames.env.vector import Batch
from bitgames.leiserchess import vector as V


class LeiserchessBatch(Batch):
    """Leiserchess games with the default draw rules of
    :class:`bitgames.leiserchess.board.Board` (threefold repetition, 100 plies without a
    Pawn zapped), cut after ``max_plies`` plies (default 400, as the AEC environment).

    ``obs[i] = (now, before)``: the bitboards ``(w, b, k, o0, o1)`` of
    :mod:`bitgames.leiserchess.kernels` for the position and for the one before the last
    move (all zero at a game's start); ``turn[i]`` is 0 when Tangerine moves.
    ``mask[i]`` lists the legal actions (move codes, as :mod:`bitgames.env.codecs`) in
    its first ``count[i]`` entries, then ``-1``: ``int16``, 96 entries
    (:data:`bitgames.leiserchess.vector.MAX_MOVES`, more than a position ever has).

    >>> b = LeiserchessBatch(2)
    >>> b.reset()
    >>> int(b.count[0]), int(b.action_mask()[0].sum())  # as Board().legal_moves
    (65, 65)
    >>> b.step(np.array([-1, 39 + 64 * 46]))  # a random move; h4g5
    >>> bool(b.done.any()), b.planes().shape
    (False, (2, 8, 8, 33))
    """

    game = "leiserchess"
    n_actions = 64 * 64 * 4
    shape = (8, 8, 33)

    def __init__(self, num_envs: int, max_plies: int = 400) -> None:
        if max_plies < 1:
            raise BitgamesError(f"max_plies must be at least 1, got {max_plies}")
        super().__init__(num_envs)
        self.max_plies = int(max_plies)
        self.begin = V.start()
        self.state = V.new_state(num_envs)
        self.count = self.state[6]
        self.obs = np.zeros((num_envs, 2, 5), dtype=np.uint64)
        self.mask = np.zeros((num_envs, V.MAX_MOVES), dtype=np.int16)
        self.out = (self.turn, self.played, self.obs, self.mask, self.reward, self.done,
                    self.truncated)

    def reset(self) -> None:
        V.restart_all(self.state, self.begin, self.turn, self.obs, self.mask)

    def step(self, actions: np.ndarray) -> None:
        V.step_batch(self.state, self.begin, self.rng, self.max_plies, actions, self.out)

    def planes(self) -> np.ndarray:
        out = np.zeros((self.num_envs, *self.shape), dtype=np.int8)
        V.planes(self.obs, self.turn, out)
        return out

    def action_mask(self) -> np.ndarray:
        out = np.zeros((self.num_envs, self.n_actions), dtype=np.int8)
        rows, cols = np.nonzero(self.mask >= 0)
        out[rows, self.mask[rows, cols]] = 1
        return out


BATCH = LeiserchessBatch
