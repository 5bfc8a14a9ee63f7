"""Elo from match results: the logistic model, error bars, the likelihood of superiority,
and the game record's round trip (the runner itself: test_match_runner.py)."""

from __future__ import annotations

import math

import pytest

from bitgames.core.match import GameRecord, MatchResult, elo_from_score, score_from_elo


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


def test_interval_when_every_game_has_the_same_result() -> None:
    lo, hi = MatchResult(wins=40).elo_interval()
    assert lo == pytest.approx(elo_from_score(40 / (40 + 1.96**2))) and hi == math.inf
    lo, hi = MatchResult(draws=10).elo_interval()
    assert lo < 0 < hi and lo == pytest.approx(-hi)


def test_results_add_up_and_records_round_trip() -> None:
    result = MatchResult()
    for number, score in enumerate((1.0, 0.5, 0.0, 1.0), start=1):
        record = GameRecord(number // 2, number % 2 == 1, score, ["e3", "f4"], 2, False,
                            number, "1-0", "no moves")
        assert GameRecord.from_dict(record.to_dict()) == record
        result.add(record)
    assert (result.wins, result.draws, result.losses, result.n) == (2, 1, 1, 4)
    assert result.summary().startswith("+2 =1 -1  score 62.5%")
    assert result.to_dict()["games"] == 4
