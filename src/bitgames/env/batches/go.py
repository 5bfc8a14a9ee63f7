"""Go batches: the board kernels' state of every game, and its table of seen positions."""

from __future__ import annotations

import numpy as np

from bitgames.core.errors import BitgamesError
from bitgames.env.vector import Batch
from bitgames.go import kernels as K
from bitgames.go import vector as V


class GoBatch(Batch):
    """Go on a ``size`` board with ``komi`` and ``rules`` (a profile of
    :class:`bitgames.go.board.Rules`; default: no suicide, positional superko), games cut
    after ``max_plies`` plies (default ``3 * size * size``, as the AEC environment).

    ``obs[i] = (mover's stones, opponent's stones, the ko point)`` as bitmaps of
    ``ceil(size * size / 64)`` words (point ``row * size + column`` is bit ``p % 64`` of
    word ``p // 64``, row 0 at the bottom); ``mask[i]`` the legal points as a bitmap of
    the same form (the pass is always legal). Working out every legal point costs more
    than a move (a superko test per empty point), so with ``masks=False`` :meth:`step`
    leaves ``mask`` alone, the random moves test only the points they draw, and
    :meth:`action_mask` works the masks out when asked.

    >>> b = GoBatch(2, size=5)
    >>> b.reset()
    >>> int(b.action_mask()[0].sum())  # 25 points and the pass
    26
    """

    game = "go"

    def __init__(self, num_envs: int, size: int = 9, komi: float = 7.5,
                 rules: str = "default", max_plies: int | None = None,
                 masks: bool = True) -> None:
        from bitgames.go.board import _SIDE_KEY, MAX_SIZE, Rules

        if not 2 <= size <= MAX_SIZE:
            raise BitgamesError(f"size must be 2-{MAX_SIZE}, got {size}")
        super().__init__(num_envs)
        profile = Rules.parse(rules)
        self.size, self.komi, self.rules = size, float(komi), profile
        self.max_plies = 3 * size * size if max_plies is None else int(max_plies)
        if self.max_plies < 1:
            raise BitgamesError(f"max_plies must be at least 1, got {max_plies}")
        self.masks = masks
        self.n_actions = size * size + 1
        self.shape = (size, size, 4)
        self.geometry = K.geometry(size)
        self.start = K.new_state(size)
        self.state = V.new_batch(size, num_envs)
        words = self.start[5].shape[1]
        superko = profile.ko != "simple"
        side_key = np.uint64(_SIDE_KEY if profile.ko == "situational" else 0)
        self.kernel_rules = (bool(profile.suicide), superko, side_key, self.komi,
                             self.max_plies, bool(masks))
        self.past = V.new_past(size, num_envs, self.max_plies)
        self.obs = np.zeros((num_envs, 3, words), dtype=np.uint64)
        self.mask = np.zeros((num_envs, words), dtype=np.uint64)
        self.out = (self.turn, self.played, self.obs, self.mask, self.reward, self.done,
                    self.truncated)

    def reset(self) -> None:
        V.restart_all(self.state, self.start, self.past)
        self.turn[:] = 0
        V.observe_all(self.geometry, self.state, self.past, self.kernel_rules, self.obs,
                      self.mask)

    def step(self, actions: np.ndarray) -> None:
        V.step_batch(self.geometry, self.state, self.start, self.past, self.rng,
                     self.kernel_rules, actions, self.out)

    def planes(self) -> np.ndarray:
        out = np.zeros((self.num_envs, *self.shape), dtype=np.int8)
        V.planes(self.obs, self.turn, self.size, out)
        return out

    def action_mask(self) -> np.ndarray:
        if not self.masks:
            V.observe_all(self.geometry, self.state, self.past, self.kernel_rules,
                          self.obs, self.mask)
        points = self.size * self.size
        out = np.zeros((self.num_envs, self.n_actions), dtype=np.int8)
        bits = np.arange(points)
        out[:, :points] = (self.mask[:, bits // 64] >> (bits % 64).astype(np.uint64)) & 1
        out[:, points] = 1
        return out


BATCH = GoBatch
