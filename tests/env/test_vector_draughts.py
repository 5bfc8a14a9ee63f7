"""VectorGame draughts: random games stepped in batches are the same games replayed move
by move through the Board API (legal actions, moves, observations, outcomes by every draw
rule, truncation), in both variants."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from bitgames.core.errors import IllegalMoveError
from bitgames.draughts import kernels as K
from bitgames.draughts.board import Board
from bitgames.env.codecs import Draughts
from bitgames.env.vector import VectorGame


def _actions(codec: Draughts, board: Board) -> set[int]:
    """The codec's numbers of the board's legal moves (a fifth capture with the same
    start and end has none)."""
    out = set()
    for move in board.legal_moves:
        try:
            out.add(codec.encode(board, move))
        except IllegalMoveError:
            pass
    return out


def _assert_observed(vec: VectorGame, i: int, board: Board, first: bool) -> None:
    """Game ``i``'s observation and turn are those of ``board`` (``first``: the colour
    that starts)."""
    w, b, k, side = board.bitboards()
    own, opp = (w, b) if side == 0 else (b, w)
    assert vec.obs[i].tolist() == [own & ~k, own & k, opp & ~k, opp & k]
    assert vec.turn[i] == (0 if board.turn == first else 1)


def _careful(vec: VectorGame, rng: np.random.Generator) -> np.ndarray:
    """Actions that leave the opponent no capture when some do, moving a king when one
    can every other time, and a man (not to be crowned) when the kings have moved alone
    for ten moves: the games last into king endings, where every draw rule ends some of
    them. (The batch's packed moves and counters, and the rules kernels, look ahead; the
    Boards check the outcome.)"""
    pos, meta, _, mask, moves, count = vec.batch.state
    variant = vec.batch.rules[0]
    actions = np.empty(vec.num_envs, dtype=np.int64)
    for i in range(vec.num_envs):
        safe, kings, men = [], [], []
        for j in range(count[i]):
            w, b, k, side = K.make_move(pos[i, 0], pos[i, 1], pos[i, 2], meta[i, 0],
                                        moves[j >> 4, i, j & 15])
            if not K.any_capture(K.U(w), K.U(b), K.U(k), side, variant):
                safe.append(j)
                if (int(vec.obs[i, 1]) >> (int(mask[i, j]) // 128)) & 1:
                    kings.append(j)
                elif not int(moves[j >> 4, i, j & 15]) >> 42 & 1:
                    men.append(j)
        pool = ((men if meta[i, 2] >= 20 else [])
                or (kings if rng.random() < 0.5 else []) or safe or list(range(count[i])))
        actions[i] = mask[i, pool[rng.integers(len(pool))]]
    return actions


def replay(variant: str, n: int, games: int, seed: int, max_plies: int = 300,
           careful: bool = False) -> Counter:
    """Step ``n`` games until ``games`` have ended, checking every step against Boards;
    returns how the games ended (terminations, "truncated", and the draws' reasons), and
    how many legal captures had another with the same start and end (``"routes"``). The
    moves are random, drawn by the kernel, or with ``careful`` chosen by
    :func:`_careful`."""
    name = f"draughts-{variant}"
    codec = Draughts(variant)
    vec = VectorGame(name, n, threads=2, max_plies=max_plies)
    obs, mask = vec.reset(seed=seed)
    count = vec.batch.count
    boards = [Board(variant=variant) for _ in range(n)]
    first = boards[0].turn
    ends: Counter = Counter()
    rng = np.random.default_rng(seed)
    finished = 0
    while finished < games:
        before = [set(mask[i, :count[i]].tolist()) for i in range(n)]
        assert (mask[np.arange(mask.shape[1]) >= count[:, None]] == -1).all()
        obs, mask, reward, done = vec.step(_careful(vec, rng) if careful else None)
        for i in range(n):
            board = boards[i]
            legal = _actions(codec, board)
            assert before[i] == legal, (i, board.fen())
            ends["routes"] += sum(a % 4 > 0 for a in legal)
            action = int(vec.played[i])
            assert action in legal
            mover = board.turn
            board.push(codec.decode(board, action))
            outcome = board.outcome()
            if outcome is not None:
                assert done[i] and not vec.truncated[i], board.fen()
                expected = 0.0 if outcome.winner is None else (
                    1.0 if outcome.winner == mover else -1.0)
                assert reward[i] == expected
                ends[outcome.termination.name] += 1
                if outcome.winner is None:
                    ends[str(board.draw_reason())] += 1
            elif len(board.move_stack) >= max_plies:
                assert done[i] and vec.truncated[i] and reward[i] == 0.0
                ends["truncated"] += 1
            else:
                assert not done[i] and reward[i] == 0.0, board.fen()
                _assert_observed(vec, i, board, first)
                continue
            boards[i] = Board(variant=variant)
            finished += 1
            _assert_observed(vec, i, boards[i], first)  # restarted
    return ends


@pytest.mark.parametrize("variant", ["russian", "english"])
def test_random_batches_replay_through_the_board(variant: str) -> None:
    ends = replay(variant, 64, 300, seed=11)
    assert ends["NO_MOVES"] > 0


@pytest.mark.parametrize("variant", ["russian", "english"])
def test_careful_games_replay_and_end_by_every_rule(variant: str) -> None:
    ends = replay(variant, 64, 500 if variant == "russian" else 200, seed=13, careful=True)
    reasons = {" ".join(w for w in str(r).split() if not w[0].isdigit()) for r in ends}
    assert ends["NO_MOVES"] > 0 and ends["routes"] > 0  # captures told apart by route
    if variant == "english":
        assert {"repetition", "moves without a man move or capture"} <= reasons, ends
    else:
        assert {"repetition", "moves with only kings moved and no capture",
                "kings against a lone king for moves", "lone king on the main road for moves",
                "ending unchanged for moves"} <= reasons, ends


@pytest.mark.parametrize("variant", ["russian", "english"])
def test_short_games_are_truncated(variant: str) -> None:
    ends = replay(variant, 32, 200, seed=12, max_plies=40)
    assert ends["truncated"] > 0


@pytest.mark.parametrize("variant,moves", [("russian", ["c3-d4", "f6-e5", "d4:f6"]),
                                           ("english", ["11-15", "22-18", "15x22"])])
def test_given_actions_an_illegal_one_and_the_planes(variant: str, moves: list[str]) -> None:
    from bitgames.env import make

    name = f"draughts-{variant}"
    codec = Draughts(variant)
    env = make(name)
    env.reset()
    games = VectorGame(name, 2)
    games.reset()
    start = games.obs[1].copy()
    for text in moves:
        board = env.board  # type: ignore[attr-defined]
        action = codec.encode(board, board.parse_move(text))
        env.step(action)
        # game 1 plays an action that is no legal move: it loses and restarts
        obs, mask, reward, done = games.step(np.array([action, 0]))
        assert games.played.tolist() == [action, 0]
        assert not done[0] and reward[0] == 0.0
        assert done[1] and reward[1] == -1.0 and (obs[1] == start).all()
        seen = env.observe(env.agent_selection)
        assert (games.planes()[0] == seen["observation"]).all()
        assert (games.action_mask()[0] == seen["action_mask"]).all()
    assert int(games.planes()[0, :, :, 4].max()) == (variant == "english")  # White moves
    with pytest.raises(TypeError):
        VectorGame(name, 2, variant="english")
    with pytest.raises(ValueError, match="max_plies"):
        VectorGame(name, 2, max_plies=0)


def test_random_moves_are_uniform() -> None:
    games = VectorGame("draughts-english", 7000)
    games.reset(seed=5)
    games.step(None)
    counts = np.unique(games.played, return_counts=True)[1]
    assert len(counts) == 7 and counts.min() > 850 and counts.max() < 1150  # 1000 each
