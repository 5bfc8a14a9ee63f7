"""The random-game suites and the quick protocol fuzz of every game, run again with
numba's bounds checking on (``NUMBA_BOUNDSCHECK=1``).

Compiled kernels do not check array indices: an index out of range reads or writes
outside the array and corrupts memory or crashes the process (the GTP segmentation
faults of issue 19 were one). With bounds checking the same access raises ``IndexError``
and fails a test. The checked kernels are compiled into a cache of their own (numba's
cache does not tell checked code from unchecked), shared by the games of one run, in a
pytest run of their own in a subprocess. Each game's takes one to four minutes, so they
are in the slow suite (``-m slow``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: per game: the tests that play random games through its kernels, and its protocol's
#: quick fuzz run
SUITES = {
    "othello": ["tests/othello/test_kernels.py", "tests/othello/test_board.py",
                "tests/env/test_vector.py", "tests/fuzz/test_protocol_fuzz.py::"
                "test_fuzz_quick[nboard]"],
    "draughts": ["tests/draughts/test_draughts_differential.py",
                 "tests/fuzz/test_protocol_fuzz.py::test_fuzz_quick[hub]"],
    "go": ["tests/go/test_kernels.py", "tests/go/test_sgfmill.py",
           "tests/fuzz/test_protocol_fuzz.py::test_fuzz_quick[gtp]"],
    "leiserchess": ["tests/leiserchess/test_rules.py",
                    "tests/fuzz/test_protocol_fuzz.py::test_fuzz_quick[uci]"],
}


@pytest.fixture(scope="module")
def checked_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("boundscheck-cache")


#: every game's checked run recompiles its kernels (3-4 minutes for Othello, 1-2 for the
#: others): run with ``-m slow``
@pytest.mark.slow
@pytest.mark.parametrize("game", list(SUITES))
def test_suites_pass_with_bounds_checking(game: str, checked_cache: Path) -> None:
    env = {**os.environ, "NUMBA_BOUNDSCHECK": "1", "BITGAMES_CACHE_DIR": str(checked_cache),
           "BITGAMES_PROGRESS": "0"}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                           "-m", "not slow", *SUITES[game]],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=1500)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout
