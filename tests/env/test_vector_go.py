"""VectorGame Go: random games stepped in batches are the same games replayed move by
move through the Board API, under each rules profile (superko included)."""

from __future__ import annotations

import numpy as np
import pytest

from bitgames.env.vector import VectorGame
from bitgames.go.board import Board, Move, Rules


def _bitmap(points: list[int], words: int) -> list[int]:
    out = [0] * words
    for p in points:
        out[p // 64] |= 1 << (p % 64)
    return out


def replay(size: int, rules: str, n: int, games: int, seed: int) -> int:
    """Step ``n`` random games until ``games`` have ended, checking every step against
    Boards; returns how many positions the superko rule changed the legal moves of."""
    vec = VectorGame("go", n, threads=2, size=size, rules=rules, komi=0.5)
    max_plies = vec.batch.max_plies
    obs, mask = vec.reset(seed=seed)
    boards = [Board(size=size, komi=0.5, rules=rules) for _ in range(n)]
    # the same games under simple ko: where their legal points differ, superko decided
    simple_ko = Rules("simple", "simple", Rules.parse(rules).suicide)
    simple = [Board(size=size, komi=0.5, rules=simple_ko) for _ in range(n)]
    words = obs.shape[2]
    finished = superko_changes = 0
    while finished < games:
        before = mask.copy()
        obs, mask, reward, done = vec.step(None)
        for i in range(n):
            board = boards[i]
            legal = board.legal_points()
            assert list(before[i]) == _bitmap(legal, words), (i, board.fen())
            superko_changes += simple[i].legal_points() != legal
            action = int(vec.played[i])
            assert action == size * size or action in legal
            mover = board.turn
            move = Move.PASS if action == size * size else Move.from_point(action, size)
            board.push(move)
            simple[i].push(move)
            outcome = board.outcome()
            if outcome is not None:
                assert done[i] and not vec.truncated[i]
                expected = 0.0 if outcome.winner is None else (
                    1.0 if outcome.winner == mover else -1.0)
                assert reward[i] == expected
            elif len(board.move_stack) >= max_plies:
                assert done[i] and vec.truncated[i] and reward[i] == 0.0
            else:
                assert not done[i] and reward[i] == 0.0
                side = board.turn
                assert list(obs[i, 0]) == _bitmap(board.stones(side), words)
                assert list(obs[i, 1]) == _bitmap(board.stones(not side), words)
                ko = board.ko_point
                assert list(obs[i, 2]) == _bitmap([] if ko is None else [ko], words)
                continue
            boards[i] = Board(size=size, komi=0.5, rules=rules)
            simple[i] = Board(size=size, komi=0.5, rules=simple_ko)
            finished += 1
    return superko_changes


@pytest.mark.parametrize("rules", ["default", "situational", "tromp-taylor"])
def test_small_boards_replay_through_the_board(rules: str) -> None:
    # on 5x5, random games repeat earlier positions now and then: superko must have
    # changed the legal moves somewhere in 300 games
    assert replay(5, rules, 32, 300, seed=3) > 0


def test_simple_ko_and_9x9_replay_through_the_board() -> None:
    assert replay(5, "simple-ko", 32, 200, seed=4) == 0
    assert replay(9, "default", 32, 40, seed=5) >= 0


def test_masks_on_request_planes_and_given_actions() -> None:
    from bitgames.env import make

    lazy = VectorGame("go", 3, size=9, masks=False)
    eager = VectorGame("go", 3, size=9)
    lazy.reset(seed=2)
    eager.reset(seed=2)
    at_start = lazy.mask.copy()
    for _ in range(30):
        lazy.step(None)
        eager.step(None)
    assert (lazy.mask == at_start).all()  # masks=False: step leaves the mask alone
    assert (lazy.action_mask() == eager.action_mask()).all()
    # given actions: E5 (point 40) then F5 in game 0; two passes in game 1 end it (an
    # empty board: White wins by the komi, and White passed last); an occupied point
    # loses game 2 at once
    games = VectorGame("go", 3, size=9)
    games.reset()
    games.step(np.array([40, 81, 40]))
    obs, mask, reward, done = games.step(np.array([41, 81, 40]))
    assert games.played.tolist() == [41, 81, 40]
    assert not done[0] and reward[0] == 0.0
    assert done[1] and reward[1] == 1.0
    assert done[2] and reward[2] == -1.0
    # the planes are the AEC environment's
    env = make("go", size=9)
    env.reset()
    env.step(40)
    env.step(41)
    assert (games.planes()[0] == env.observe(env.agent_selection)["observation"]).all()
    with pytest.raises(ValueError, match="size must be"):
        VectorGame("go", 2, size=1)


def test_random_moves_skip_the_illegal_points_uniformly() -> None:
    from scipy.stats import chi2

    # 5x5: Black B1 and A2 make A1 (point 0) a suicide for White, who is to move
    n = 30000
    games = VectorGame("go", n, size=5)
    games.reset(seed=12)
    for point in (1, 12, 5):
        games.step(np.full(n, point))
    legal = np.flatnonzero(games.action_mask()[0])
    assert 0 not in legal and len(legal) == 25 - 3 - 1 + 1  # the pass is legal too
    games.step(None)
    counts = np.bincount(games.played, minlength=games.n_actions)
    assert counts[legal].sum() == n
    expected = n / len(legal)
    assert ((counts[legal] - expected) ** 2 / expected).sum() < chi2.ppf(0.999, len(legal) - 1)


def test_reset_restarts_games_in_progress() -> None:
    games = VectorGame("go", 16, size=9)
    first = games.step(None)[0].copy()
    for _ in range(60):
        games.step(None)
    obs, mask = games.reset(seed=0)
    assert not obs.any() and (games.turn == 0).all()
    assert int(games.action_mask().sum()) == 16 * 82
    assert (games.step(None)[0] == first).all()  # the same seed: the same first moves
