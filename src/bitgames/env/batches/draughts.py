"""Draughts batches (Russian and English): bitboards, draw-rule counters, repetition
history and the legal actions of every game.

:data:`bitgames.env.vector.KINDS` maps one name to one module, so each variant has its
own module, :mod:`~bitgames.env.batches.draughts_russian` and
:mod:`~bitgames.env.batches.draughts_english`, whose ``BATCH`` is :func:`variant_batch`
of it.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from bitgames.core.errors import BitgamesError
from bitgames.draughts import vector as V
from bitgames.env.vector import Batch


class DraughtsBatch(Batch):
    """Draughts of ``variant`` (``"russian"`` or ``"english"``) with the variant's
    :class:`~bitgames.draughts.board.DrawRules`, games cut after ``max_plies`` plies
    (default 300, as the AEC environment).

    ``obs[i] = (mover's men, mover's kings, opponent's men, opponent's kings)`` as
    ``uint32`` bitboards (bit numbering of :mod:`bitgames.draughts.geometry`);
    ``mask[i, :count[i]]`` the legal action numbers of the side to move, ``-1`` after
    them (``int16``, :data:`~bitgames.draughts.kernels.MAX_MOVES` columns; see
    :mod:`bitgames.draughts.vector`). ``turn`` is 0 when the side that starts moves
    (White in Russian, Black in English).

    >>> from bitgames.draughts.geometry import numeric_square as sq
    >>> b = DraughtsBatch(2, "english")
    >>> b.reset()
    >>> sorted(f"{sq(a // 128)}-{sq(a // 4 % 32)}" for a in b.mask[0, :b.count[0]])
    ['10-14', '10-15', '11-15', '11-16', '12-16', '9-13', '9-14']
    >>> b.action_mask().shape, int(b.action_mask()[0].sum())
    ((2, 4096), 7)
    >>> int(b.planes()[0, :, :, 4].max())  # Black moves first
    0
    """

    game = "draughts"
    n_actions = 32 * 32 * 4
    shape = (8, 8, 5)

    def __init__(self, num_envs: int, variant: str = "russian", max_plies: int = 300
                 ) -> None:
        if variant not in ("russian", "english"):
            raise BitgamesError(f"unknown variant {variant!r}; use 'russian' or 'english'")
        if max_plies < 1:
            raise BitgamesError(f"max_plies must be at least 1, got {max_plies}")
        super().__init__(num_envs)
        self.variant, self.max_plies = variant, int(max_plies)
        self.rules = V.rules_of(variant, self.max_plies)
        self.state = V.new_state(num_envs, V.history_length(self.rules))
        self.mask, self.count = self.state[3], self.state[5]
        self.bufs = V.new_buffers()
        self.obs = np.zeros((num_envs, 4), dtype=np.uint32)
        self.out = (self.turn, self.played, self.obs, self.reward, self.done,
                    self.truncated)

    def reset(self) -> None:
        V.restart_all(self.state, self.rules, self.bufs, self.turn, self.obs)

    def step(self, actions: np.ndarray) -> None:
        V.step_batch(self.state, self.rules, self.rng, self.bufs, actions, self.out)

    def planes(self) -> np.ndarray:
        out = np.zeros((self.num_envs, *self.shape), dtype=np.int8)
        V.planes(self.obs, out)
        white = (self.state[1][:, V.SIDE] == 0).astype(np.int8)
        out[:, :, :, 4] = white[:, None, None]
        return out

    def action_mask(self) -> np.ndarray:
        out = np.zeros((self.num_envs, self.n_actions), dtype=np.int8)
        games, slots = np.nonzero(self.mask >= 0)
        out[games, self.mask[games, slots]] = 1
        return out


def variant_batch(variant: str) -> Callable[..., DraughtsBatch]:
    """The ``BATCH`` of ``variant``'s module: :class:`DraughtsBatch` with the variant
    fixed (its one option is ``max_plies``)."""

    def batch(num_envs: int, max_plies: int = 300) -> DraughtsBatch:
        return DraughtsBatch(num_envs, variant, max_plies)

    return batch
