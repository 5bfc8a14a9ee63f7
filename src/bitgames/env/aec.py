"""The PettingZoo AEC environment of any game (:func:`bitgames.env.make`)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from bitgames.core.errors import BitgamesError
from bitgames.env.codecs import Codec


def check_render_mode(mode: str | None, modes: Any) -> str | None:
    """``mode`` if it is one of ``modes`` (or None); :class:`BitgamesError` otherwise."""
    if mode is not None and mode not in modes:
        raise BitgamesError(f"render_mode must be one of {', '.join(modes)}, got {mode!r}")
    return mode


def rgb_array(board: Any) -> np.ndarray:
    """The board's picture (``bitgames.<game>.svg``, as notebooks show it) as an RGB
    array, height x width x 3 (:func:`bitgames.core.svg.raster`)."""
    from bitgames.core.svg import raster

    return raster(board._repr_svg_())


class GameEnv(AECEnv):
    """Two agents take turns on one board of ``codec``'s game (see
    :mod:`bitgames.env.codecs` for the actions and the observation planes).

    The observation of an agent is a dict: ``observation`` (the planes, seen from the
    side to move) and ``action_mask``. An illegal action ends the game: the agent who
    played it gets -1, the other +1 (PettingZoo's convention for its classic games).
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "name": "bitgames",
                "is_parallelizable": False}

    def __init__(self, codec: Codec, max_plies: int | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.codec = codec
        self.max_plies = codec.max_plies if max_plies is None else max_plies
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.possible_agents = list(codec.agents)
        self.agents = list(codec.agents)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0, 1, codec.shape, dtype=np.int8),
                "action_mask": spaces.Box(0, 1, (codec.n_actions,), dtype=np.int8),
            }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(codec.n_actions)
                              for a in self.possible_agents}
        self.board: Any = codec.new_board()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _agent_to_move(self) -> str:
        return next(a for a in self.possible_agents
                    if self.codec.colors[a] == self.board.turn)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game from the start position (the game has no randomness: ``seed`` only
        seeds the action spaces)."""
        if seed is not None:
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + i)
        self.board = self.codec.new_board()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._agent_to_move()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        mask = (self.codec.mask(self.board) if agent == self.agent_selection
                else np.zeros(self.codec.n_actions, dtype=np.int8))
        return {"observation": self.codec.planes(self.board), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        try:
            move = self.codec.decode(self.board, int(action))  # type: ignore[arg-type]
        except (ValueError, TypeError):  # an illegal action loses the game
            other = next(a for a in self.agents if a != agent)
            self._finish({agent: -1, other: 1}, {"illegal_move": True})
            self._accumulate_rewards()
            return
        self.board.push(move)
        outcome = self.board.outcome()
        if outcome is not None:
            if outcome.winner is None:
                self._finish({a: 0 for a in self.agents}, {})
            else:
                self._finish({a: 1 if self.codec.colors[a] == outcome.winner else -1
                              for a in self.agents}, {})
        elif len(self.board.move_stack) >= self.max_plies:
            self.truncations = {a: True for a in self.agents}
        else:
            self.agent_selection = self._agent_to_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _finish(self, rewards: dict[str, int], info: dict[str, Any]) -> None:
        self.rewards = rewards
        self.terminations = {a: True for a in self.agents}
        self.infos = {a: dict(info) for a in self.agents}

    def render(self) -> str | np.ndarray | None:
        """The board as text (``ansi``: returned; ``human``: printed) or as the picture of
        ``bitgames.<game>.svg`` in an RGB array (``rgb_array``: height x width x 3)."""
        if self.render_mode == "rgb_array":
            return rgb_array(self.board)
        text = str(self.board)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
