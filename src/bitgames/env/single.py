"""A Gymnasium environment: one agent against a fixed opponent, in any game.

>>> from bitgames.env.single import SingleAgentEnv
>>> env = SingleAgentEnv("othello", opponent="random", seat="white")
>>> obs, info = env.reset(seed=3)
>>> obs["observation"].shape, int(obs["action_mask"].sum())  # Black has played already
((8, 8, 2), 3)
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium as gym
import numpy as np

from bitgames.core.errors import BitgamesError
from bitgames.env.aec import check_render_mode, rgb_array
from bitgames.env.codecs import CODECS


class SingleAgentEnv(gym.Env):
    """Play ``name`` (see :func:`bitgames.env.names`) from ``seat`` (an agent name, or
    ``None``: the side that moves first) against ``opponent``: ``"random"`` (a uniformly
    random legal move) or ``"level:N"`` (the game's engine at level N). Observations as in
    :class:`bitgames.env.aec.GameEnv`; reward +1 / -1 / 0 when the game ends; an illegal
    action loses at once. ``options`` go to the game's board (Go: ``size``, ``komi``)."""

    metadata = {"render_modes": ["ansi", "rgb_array"]}

    def __init__(self, name: str, opponent: str = "random", seat: str | None = None,
                 max_plies: int | None = None, render_mode: str | None = None,
                 **options: Any) -> None:
        if name not in CODECS:
            raise BitgamesError(f"unknown environment {name!r}")
        self.codec = CODECS[name](**options)
        self.seat = seat or self.codec.agents[0]
        if self.seat not in self.codec.agents:
            raise BitgamesError(f"seat must be one of {', '.join(self.codec.agents)}")
        self.max_plies = max_plies or self.codec.max_plies
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.observation_space = gym.spaces.Dict({
            "observation": gym.spaces.Box(0, 1, self.codec.shape, dtype=np.int8),
            "action_mask": gym.spaces.Box(0, 1, (self.codec.n_actions,), dtype=np.int8),
        })
        self.action_space = gym.spaces.Discrete(self.codec.n_actions)
        self.engine = None
        if opponent.startswith("level:"):
            self.engine = self.codec.engine(int(opponent.split(":", 1)[1]))
        elif opponent != "random":
            raise BitgamesError(f"opponent must be random or level:N, got {opponent!r}")
        self.rng = random.Random()
        self.board: Any = self.codec.new_board()

    def _observation(self) -> dict[str, np.ndarray]:
        return {"observation": self.codec.planes(self.board),
                "action_mask": self.codec.mask(self.board)}

    def _result(self) -> float:
        outcome = self.board.outcome()
        if outcome is None or outcome.winner is None:
            return 0.0
        return 1.0 if outcome.winner == self.codec.colors[self.seat] else -1.0

    def _opponent_moves(self) -> None:
        mine = self.codec.colors[self.seat]
        while not self.board.is_game_over() and self.board.turn != mine:
            if self.engine is not None:
                move = self.engine.search(self.board).move
            else:
                move = self.rng.choice(list(self.board.legal_moves))
            self.board.push(move)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self.rng.seed(seed)
        self.board = self.codec.new_board()
        if self.engine is not None:
            self.engine.new_game()
        self._opponent_moves()
        return self._observation(), {}

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                         dict[str, Any]]:
        try:
            move = self.codec.decode(self.board, int(action))
        except ValueError:
            return self._observation(), -1.0, True, False, {"illegal_move": True}
        self.board.push(move)
        self._opponent_moves()
        done = self.board.is_game_over()
        truncated = not done and len(self.board.move_stack) >= self.max_plies
        return self._observation(), self._result() if done else 0.0, done, truncated, {}

    def render(self) -> str | np.ndarray:
        """The board as text (``ansi``) or as its picture in an RGB array (``rgb_array``)."""
        if self.render_mode == "rgb_array":
            return rgb_array(self.board)
        return str(self.board)
