"""VectorGame Leiserchess: random games stepped in batches are the same games replayed
move by move through the Board API (Ko, zapped Kings, both draw rules, truncation)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from bitgames.env.vector import VectorGame
from bitgames.leiserchess import kernels
from bitgames.leiserchess.board import Board, Move

START = Board().bitboards()
NONE_BEFORE = (0, 0, 0, 0, 0)


def replay(n: int, games: int, seed: int, max_plies: int) -> Counter[str]:
    """Step ``n`` random games until ``games`` have ended, checking every step against
    Boards; returns how the games ended, and in how many positions the Ko rule (b)
    forbade swapping back (``"ko"``)."""
    vec = VectorGame("leiserchess", n, threads=2, max_plies=max_plies)
    obs, mask = vec.reset(seed=seed)
    boards = [Board() for _ in range(n)]
    befores = [NONE_BEFORE] * n
    seen: Counter[str] = Counter()
    finished = 0
    while finished < games:
        listed = mask.copy()
        count = vec.batch.count.copy()
        obs, mask, reward, done = vec.step(None)
        for i in range(n):
            board = boards[i]
            legal = {m.code for m in board.legal_moves}
            codes = listed[i, :count[i]].tolist()
            assert len(codes) == len(set(codes)) and set(codes) == legal, board.fen()
            assert (listed[i, count[i]:] == -1).all()
            seen["ko"] += _swap_back_forbidden(board, befores[i], legal)
            action = int(vec.played[i])
            assert action in legal
            mover, before = board.turn, board.bitboards()
            befores[i] = before
            board.push(Move.from_code(action))
            outcome = board.outcome()
            if outcome is not None:
                assert done[i] and not vec.truncated[i]
                expected = 0.0 if outcome.winner is None else (
                    1.0 if outcome.winner == mover else -1.0)
                assert reward[i] == expected
                seen[outcome.termination.name] += 1
            elif len(board.move_stack) >= max_plies:
                assert done[i] and vec.truncated[i] and reward[i] == 0.0
                seen["TRUNCATED"] += 1
            else:
                assert not done[i] and not vec.truncated[i] and reward[i] == 0.0
                assert tuple(int(x) for x in obs[i, 0]) == board.bitboards()
                assert tuple(int(x) for x in obs[i, 1]) == before
                assert vec.turn[i] == board.side
                continue
            # restarted: the start position, nothing before it, Tangerine to move
            assert tuple(int(x) for x in obs[i, 0]) == START
            assert tuple(int(x) for x in obs[i, 1]) == NONE_BEFORE and vec.turn[i] == 0
            boards[i] = Board()
            befores[i] = NONE_BEFORE
            finished += 1
    return seen


def _swap_back_forbidden(board: Board, before: tuple[int, ...], legal: set[int]) -> bool:
    """Whether the mover may not swap back the two pieces the opponent just swapped
    (which would restore ``before``, the board before that move)."""
    if not board.move_stack or board.peek().from_square == board.peek().to_square:
        return False
    last = board.peek()
    for code in (last.from_square | last.to_square << 6,
                 last.to_square | last.from_square << 6):
        after = kernels.make_move(*(np.uint64(x) for x in board.bitboards()),
                                  board.side, code)
        if (tuple(int(x) for x in after[:5]) == before and code not in legal
                and Move.from_code(code) in board.pseudo_legal_moves):
            return True
    return False


def test_random_games_replay_through_the_board() -> None:
    seen = replay(64, 200, seed=1, max_plies=250)
    # Kings zapped, the 100-ply draw and truncation happened, and Ko rule (b) applied
    # (random play never repeats a position three times: the next test does)
    assert seen["KING_CAPTURED"] > 150 and seen["MOVE_RULE"] > 0, seen
    assert seen["TRUNCATED"] > 0 and seen["ko"] > 0, seen


def test_short_games_are_truncated_like_the_aec_environment() -> None:
    seen = replay(64, 400, seed=2, max_plies=40)
    assert seen["TRUNCATED"] > 200 and seen["KING_CAPTURED"] > 0, seen


def test_given_actions_an_illegal_one_and_the_planes() -> None:
    from bitgames.env import make

    h4g5 = Move.from_str("h4g5").code
    null = Move.from_str("h0h0").code  # Ko rule (a): the start has nothing to zap
    games = VectorGame("leiserchess", 3)
    games.reset()
    obs, mask, reward, done = games.step(np.array([h4g5, null, 0]))  # 0: a0 is empty
    assert games.played.tolist() == [h4g5, null, 0]
    assert not done[0] and reward[0] == 0.0 and games.turn[0] == 1
    assert done[1] and reward[1] == -1.0 and done[2] and reward[2] == -1.0
    assert games.turn[1] == games.turn[2] == 0  # restarted
    board = Board()
    board.push("h4g5")
    assert tuple(int(x) for x in obs[0, 0]) == board.bitboards()
    # the planes and masks are the AEC environment's, move after move
    env = make("leiserchess")
    env.reset()
    env.step(h4g5)
    for _ in range(60):
        seen = env.observe(env.agent_selection)
        assert (games.planes()[0] == seen["observation"]).all()
        assert (games.action_mask()[0] == seen["action_mask"]).all()
        games.step(None)
        env.step(int(games.played[0]))
        if games.done[0]:
            env.reset()
    # both Kings turn right then back, twice: the start position a third time is a draw
    turns = [Move.from_str(m).code for m in ("h0R", "a7R", "h0L", "a7L")] * 2
    games.reset()
    for ply, code in enumerate(turns, 1):
        obs, mask, reward, done = games.step(np.full(3, code))
        assert done.tolist() == [ply == 8] * 3 and (reward == 0.0).all()
    with pytest.raises(ValueError, match="max_plies"):
        VectorGame("leiserchess", 2, max_plies=0)
