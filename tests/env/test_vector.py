"""VectorGame: thousands of random games stepped in batches are the same games replayed
move by move through the Board API."""

from __future__ import annotations

import numpy as np
import pytest

from bitgames.env.vector import KINDS, VectorGame


def test_random_batches_replay_through_the_board() -> None:
    from bitgames.othello.board import Board, Move

    n = 256
    games = VectorGame("othello", n, threads=2)
    obs, mask = games.reset(seed=7)
    boards = [Board() for _ in range(n)]
    finished = 0
    while finished < 2000:
        before_mask = mask.copy()
        obs, mask, reward, done = games.step(None)
        for i in range(n):
            board = boards[i]
            legal = {m.square for m in board.legal_moves}
            # the mask before the step was the mover's legal squares (a pass: none)
            assert {s for s in range(64) if int(before_mask[i]) >> s & 1} == legal - {64}
            mover = board.turn
            board.push(Move(int(games.played[i])))
            if done[i]:
                outcome = board.outcome()
                assert outcome is not None
                expected = 0.0 if outcome.winner is None else (
                    1.0 if outcome.winner == mover else -1.0)
                assert reward[i] == expected
                boards[i] = Board()
                finished += 1
            else:
                assert reward[i] == 0.0
                p, o = boards[i].bitboards()
                assert (int(obs[i, 0]), int(obs[i, 1])) == (p, o)
    planes = games.planes()
    p, o = boards[0].bitboards()
    assert int(planes[0, :, :, 0].sum()) == bin(p).count("1")
    assert int(planes[0, :, :, 1].sum()) == bin(o).count("1")


def test_given_actions_and_an_illegal_one() -> None:
    games = VectorGame("othello", 2)
    games.reset()
    obs, mask, reward, done = games.step(np.array([37, 0]))  # f5 is legal, a1 is not
    assert not done[0] and reward[0] == 0.0 and games.played[0] == 37
    assert done[1] and reward[1] == -1.0  # the illegal move lost, and the game restarted
    with pytest.raises(ValueError, match="needs 2 actions"):
        games.step(np.array([37]))
    with pytest.raises(ValueError, match="not yet"):
        VectorGame("chess", 4)


def test_every_vector_game_has_its_warm_up_groups() -> None:
    from bitgames.core import jit
    from bitgames.env.vector import GROUPS

    for name in KINDS:
        game = VectorGame(name, 1).batch.game
        assert set(GROUPS) <= set(jit.group_names(game)), game


@pytest.mark.parametrize("name", list(KINDS))
def test_random_moves_are_uniform_over_the_legal_ones(name: str) -> None:
    from scipy.stats import chi2

    n = 30000
    games = VectorGame(name, n, **({"size": 5} if name == "go" else {}))
    games.reset(seed=11)
    legal = np.flatnonzero(games.action_mask()[0])  # the start: the same in every game
    games.step(None)
    counts = np.bincount(games.played, minlength=games.n_actions)
    assert counts[legal].sum() == n  # every move legal
    expected = n / len(legal)
    statistic = ((counts[legal] - expected) ** 2 / expected).sum()
    assert statistic < chi2.ppf(0.999, len(legal) - 1)
