"""The protocol fuzz suite: each mode run as a subprocess on seeded hostile input.

By default 300 lines per protocol (a few seconds each; ``tests/test_bounds_checked.py``
runs them again with numba's bounds checking on); ``-m slow`` adds 10,000 lines per
protocol, and 2,000 per protocol with bounds checking. Each run must end with the process
alive, every ping and required reply answered, only protocol lines on stdout and no
traceback on stderr (:func:`tests.fuzz.fuzzer.check`).
"""

from __future__ import annotations

import tempfile

import pytest

from tests.fuzz.fuzzer import fuzz_lines, run_session

PROTOCOLS = ["gtp", "nboard", "hub", "uci"]


def _assert_clean(protocol: str, n: int, seed: int, timeout: float,
                  env: dict[str, str] | None = None) -> None:
    report = run_session(protocol, fuzz_lines(protocol, n, seed), timeout, env)
    assert not report.defects, (
        f"{protocol}: {dict(report.counts())}\n" + "\n".join(report.defects[:20])
        + "\n--- stderr (end) ---\n" + report.stderr[-3000:])


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_fuzz_quick(protocol: str) -> None:
    _assert_clean(protocol, 300, seed=1, timeout=240)


@pytest.mark.slow
@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_fuzz_10000_lines(protocol: str) -> None:
    _assert_clean(protocol, 10_000, seed=2, timeout=3600)


@pytest.mark.slow
@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_fuzz_with_bounds_checking(protocol: str) -> None:
    """Kernels compiled with ``NUMBA_BOUNDSCHECK=1`` (in a cache of their own: numba's
    cache does not tell checked code from unchecked) raise ``IndexError`` where they would
    write outside an array; the session's reply then says "out of bounds", which fails
    the run."""
    with tempfile.TemporaryDirectory() as cache:
        env = {"NUMBA_BOUNDSCHECK": "1", "BITGAMES_CACHE_DIR": cache}
        _assert_clean(protocol, 2_000, seed=3, timeout=3600, env=env)
