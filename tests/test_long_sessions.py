"""Long protocol sessions (:mod:`tests.long_session`): two engine processes of each
protocol mode play each other under a sudden-death clock kept by the match referee,
with no margin for lag. No game may be lost on time, by a crash, an error or an illegal
move, and after the warm-up games the memory of the processes stays flat.

Three games of 1 s per side by default; 200 games per protocol under ``-m slow`` (the
figures are in docs/PERFORMANCE.md, section "Reliability").
"""

from __future__ import annotations

import pytest

from tests.long_session import SESSIONS, run


@pytest.mark.parametrize("protocol", list(SESSIONS))
def test_short_session(protocol: str) -> None:
    report = run(protocol, games=3, seconds=1.0)
    assert report.games == 3 and not report.failures, report.summary() + str(report.reasons)
    assert 0 < report.least_left < 1.0


@pytest.mark.slow
@pytest.mark.parametrize("protocol", list(SESSIONS))
def test_two_hundred_games_none_lost_memory_flat(protocol: str) -> None:
    report = run(protocol, games=200, seconds=1.0)
    assert not report.failures, report.summary() + str(report.reasons)
    assert report.growth < 32.0, report.summary()
