"""The learning environments pass PettingZoo's and Gymnasium's own checks, and a random
game played through them is the same game replayed through the Board API."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from bitgames.env import SingleAgentEnv, make, names  # noqa: E402

OPTIONS: dict[str, dict[str, Any]] = {"go": {"size": 5}}


@pytest.mark.parametrize("name", names())
def test_pettingzoo_api(name: str) -> None:
    from pettingzoo.test import api_test

    api_test(make(name, max_plies=80, **OPTIONS.get(name, {})), num_cycles=300)


@pytest.mark.parametrize("name", names())
def test_gymnasium_checker(name: str) -> None:
    from gymnasium.utils.env_checker import check_env

    check_env(SingleAgentEnv(name, **OPTIONS.get(name, {})), skip_render_check=True)


@pytest.mark.parametrize("name", names())
def test_random_games_replay_through_the_board(name: str) -> None:
    rng = random.Random(11)
    for game in range(4):
        env = make(name, **OPTIONS.get(name, {}))
        env.reset(seed=game)
        codec = env.codec
        board = codec.new_board()
        while True:
            agent = env.agent_selection
            obs, reward, done, truncated, _ = env.last()
            if done or truncated:
                break
            mask = obs["action_mask"]
            legal = list(board.legal_moves)
            # the mask is exactly the legal moves, and each number reads back to its move
            assert int(mask.sum()) == len(legal)
            for move in legal:
                action = codec.encode(board, move)
                assert mask[action] == 1 and codec.decode(board, action) == move
            assert codec.colors[agent] == board.turn
            action = int(rng.choice(np.flatnonzero(mask)))
            env.step(action)
            board.push(codec.decode(board, action))
        assert env.board == board
        outcome = board.outcome()
        for a in env.possible_agents:
            if outcome is None:  # truncated
                assert env._cumulative_rewards[a] == 0
            elif outcome.winner is None:
                assert env._cumulative_rewards[a] == 0
            else:
                won = codec.colors[a] == outcome.winner
                assert env._cumulative_rewards[a] == (1 if won else -1)


def test_othello_planes_and_passes() -> None:
    env = make("othello")
    env.reset()
    planes = env.observe("black")["observation"]
    # Black to move: its discs d5 and e4 on plane 0, White's d4 and e5 on plane 1
    # (row = rank - 1, column = file)
    assert {(r, c) for r, c in zip(*np.nonzero(planes[:, :, 0]), strict=True)} == {(4, 3),
                                                                                   (3, 4)}
    assert {(r, c) for r, c in zip(*np.nonzero(planes[:, :, 1]), strict=True)} == {(3, 3),
                                                                                   (4, 4)}
    assert env.observe("white")["action_mask"].sum() == 0  # not White's turn


def test_an_illegal_action_loses() -> None:
    env = make("draughts-russian")
    env.reset()
    env.step(0)  # no move goes from square 0 to square 0
    assert env.terminations["white"] and env._cumulative_rewards == {"white": -1, "black": 1}


def test_single_agent_against_the_engine() -> None:
    env = SingleAgentEnv("othello", opponent="level:1", seat="white")
    obs, _ = env.reset(seed=0)
    assert len(env.board.move_stack) == 1  # the engine (Black) moved first
    total = 0.0
    done = False
    while not done:
        action = int(np.flatnonzero(obs["action_mask"])[0])
        obs, reward, done, truncated, _ = env.step(action)
        total += reward
        done = done or truncated
    assert total in (-1.0, 0.0, 1.0) and env.board.is_game_over()


@pytest.mark.parametrize("name", names())
def test_rgb_array_is_the_board_picture(name: str) -> None:
    env = make(name, render_mode="rgb_array", **OPTIONS.get(name, {}))
    env.reset(seed=3)
    image = env.render()
    assert isinstance(image, np.ndarray)
    assert image.shape == (400, 400, 3) and image.dtype == np.uint8
    assert len(np.unique(image.reshape(-1, 3), axis=0)) >= 2
    single = SingleAgentEnv(name, render_mode="rgb_array", **OPTIONS.get(name, {}))
    single.reset(seed=3)
    assert np.array_equal(single.render(), image)  # the same start, the same picture


def test_rgb_array_shows_the_discs() -> None:
    from bitgames.othello.picture import svg

    env = make("othello", render_mode="rgb_array")
    env.reset()
    image = env.render()
    assert isinstance(image, np.ndarray)
    cell = 400 / 9  # eight cells and a half-cell margin on each side

    def centre(col: int, row: int) -> list[int]:
        return list(image[int(cell * (row + 1)), int(cell * (col + 1))].tolist())

    assert max(centre(4, 3)) < 60  # e4: a black disc
    assert min(centre(3, 3)) > 200  # d4: a white disc
    assert min(centre(0, 0)) < 100 < max(centre(0, 0))  # a1: the green board
    assert svg(env.board).count("disc black") == 2


def test_a_bad_render_mode_is_refused() -> None:
    from bitgames.core.errors import BitgamesError

    with pytest.raises(BitgamesError, match="render_mode must be one of"):
        make("othello", render_mode="video")
    with pytest.raises(BitgamesError, match="render_mode must be one of"):
        SingleAgentEnv("othello", render_mode="human")
