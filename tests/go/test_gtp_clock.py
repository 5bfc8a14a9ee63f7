"""The Go engine never loses on time through GTP: games at short sudden-death clocks
kept by a controller that takes the wall time of every ``genmove`` off the clock
(:mod:`tests.go.gtp_clock`). One short game by default, 30 games of 5 s under ``-m slow``
(the issue's measure: 7 of 30 lost on time before the fix)."""

from __future__ import annotations

import pytest

from bitgames.core.engine import Limit
from bitgames.go.gtp import LAG, GtpSession
from tests.go.gtp_clock import play_clocked_game


def test_clock_keeps_the_lag_off() -> None:
    session = GtpSession(limit=Limit(nodes=10))
    for line in ("time_settings 5 0 0", "time_left b 3.5 0", "time_left w 0.1 0"):
        session.handle(line)
    # the session's own cap (10 playouts) stays under the clock
    assert session._limit(False) == Limit(nodes=10, remaining=3.5 - LAG)
    assert session._limit(True) == Limit(nodes=10, remaining=0.0)
    session.handle("time_left b 1e30 0")  # no more than the settings gave
    assert session._limit(False) == Limit(nodes=10, remaining=5.0 - LAG)


def test_short_game_not_lost_on_time() -> None:
    least, moves = play_clocked_game(2.0, seed=1)
    assert moves > 10 and least > 0


@pytest.mark.slow
def test_thirty_games_of_5_seconds_none_lost_on_time() -> None:
    results = [play_clocked_game(5.0, seed=seed) for seed in range(30)]
    assert min(least for least, _ in results) > 0, results
