"""The game-independent match runner, on a toy game (Nim) so no engine is involved."""

from __future__ import annotations

import math
import random

import pytest

from bitgames.core.match import (
    GameRecord,
    MatchResult,
    as_player,
    elo_from_score,
    play_game,
    run_match,
    score_from_elo,
)


class Nim:
    """Take 1-3 stones; whoever takes the last stone wins. Colours are True/False."""

    def __init__(self, stones: int = 21) -> None:
        self.stones = stones
        self.turn = True
        self.last: bool | None = None

    def push(self, take: int) -> None:
        if not 1 <= take <= min(3, self.stones):
            raise ValueError(f"illegal take {take}")
        self.stones -= take
        self.last = self.turn
        self.turn = not self.turn

    def is_game_over(self) -> bool:
        return self.stones == 0

    def winner(self) -> bool | None:
        return self.last if self.stones == 0 else None

    def copy(self) -> Nim:
        other = Nim(self.stones)
        other.turn, other.last = self.turn, self.last
        return other


def perfect(board: Nim) -> int:
    return board.stones % 4 or 1


class RandomPlayer:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose_move(self, board: Nim) -> int:
        return self.rng.randint(1, min(3, board.stones))


def test_elo_model() -> None:
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(0.0) == -math.inf and elo_from_score(1.0) == math.inf
    for elo in (-300.0, -50.0, 0.0, 120.0, 400.0):
        assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo)
    assert elo_from_score(10 / 11) == pytest.approx(400.0)  # 10:1 odds = 400 Elo


def test_error_bars_shrink_with_games_and_cover_the_estimate() -> None:
    small = MatchResult(wins=6, draws=2, losses=2)
    big = MatchResult(wins=600, draws=200, losses=200)
    assert small.score == big.score == 0.7
    lo_s, hi_s = small.elo_interval()
    lo_b, hi_b = big.elo_interval()
    assert lo_s < lo_b < big.elo < hi_b < hi_s
    # standard error of the mean score: sqrt(var / n) with var = 0.16 here
    assert big.stderr() == pytest.approx(math.sqrt(0.16 / 1000))
    assert MatchResult(wins=5, losses=5).los() == pytest.approx(0.5)
    assert MatchResult(wins=30, losses=10).los() > 0.99


def test_play_game_and_colours() -> None:
    board = Nim(5)
    winner, moves, adjudicated = play_game(board, perfect, perfect)
    assert winner is True and sum(moves) == 5 and not adjudicated
    winner, moves, adjudicated = play_game(Nim(50), lambda b: 1, lambda b: 1, max_plies=10)
    assert winner is None and adjudicated and len(moves) == 10


def test_colours_are_swapped_and_scores_counted() -> None:
    # 21 stones: the first player loses against perfect play (21 % 4 == 1),
    # so two perfect players split 1-1 and every game is decided
    result = run_match(perfect, perfect, lambda: Nim(21))
    assert (result.wins, result.draws, result.losses) == (1, 0, 1)
    assert [g.a_first for g in result.games] == [True, False]


def test_openings_and_objects_as_players() -> None:
    openings = [[1], [2], [3]]
    seen = []
    result = run_match(perfect, RandomPlayer(1), lambda: Nim(22), openings=openings,
                       on_game=lambda rec, res: seen.append(rec.opening))
    assert seen == [0, 0, 1, 1, 2, 2]
    assert result.n == 6 and result.score > 0.8
    assert result.summary().startswith(f"+{result.wins} ={result.draws} -{result.losses}")
    assert result.to_dict()["games"] == 6


def test_perfect_beats_random_with_a_positive_elo_interval() -> None:
    result = run_match(perfect, RandomPlayer(2), lambda: Nim(30), rounds=30)
    lo, _ = result.elo_interval()
    assert result.score > 0.9 and lo > 200


def test_as_player_rejects_non_players() -> None:
    with pytest.raises(TypeError):
        as_player(42)


def test_resume_counts_saved_games_without_replaying_them() -> None:
    openings = [[1], [2], [3]]
    full = run_match(perfect, RandomPlayer(3), lambda: Nim(22), openings=openings)
    saved = [GameRecord.from_dict(g.to_dict()) for g in full.games[:4]]
    played = []
    resumed = run_match(perfect, RandomPlayer(3), lambda: Nim(22), openings=openings,
                        previous=saved, on_game=lambda rec, res: played.append(rec.opening))
    assert played == [2, 2] and resumed.n == 6
    assert [g.a_first for g in resumed.games] == [g.a_first for g in full.games]
    with pytest.raises(ValueError, match="does not match"):
        run_match(perfect, perfect, lambda: Nim(22), openings=openings,
                  previous=[saved[1], saved[0]])
    with pytest.raises(ValueError, match="only 2"):
        run_match(perfect, perfect, lambda: Nim(22), openings=[[2]], previous=saved)


def test_interval_when_every_game_has_the_same_result() -> None:
    lo, hi = MatchResult(wins=40).elo_interval()
    assert lo == pytest.approx(elo_from_score(40 / (40 + 1.96**2))) and hi == math.inf
    lo, hi = MatchResult(draws=10).elo_interval()
    assert lo < 0 < hi and lo == pytest.approx(-hi)
