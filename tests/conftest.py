"""Fixtures shared by every game's tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Give this process Python's Ctrl-C handler if it started with SIGINT ignored.

    A shell without job control starts a background command with SIGINT ignored, and an
    ignored signal stays ignored across ``exec``: the commands the Ctrl-C tests start would
    never see their SIGINT. With a handler here, they start with the default and install
    Python's own.
    """
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture
def run_without_jit() -> Callable[..., str]:
    """Run Python code in a fresh interpreter with ``NUMBA_DISABLE_JIT=1``; return stdout.

    Kernels must give the same answers as plain Python (the ``@overload`` bit helpers
    make that possible); a failing run fails the test with the child's stderr. Warnings
    are silenced: plain NumPy warns where uint64 arithmetic wraps, as kernels mean it to.
    """

    def run(code: str, timeout: float = 600) -> str:
        env = dict(os.environ, NUMBA_DISABLE_JIT="1")
        out = subprocess.run([sys.executable, "-W", "ignore", "-c", code], env=env,
                             capture_output=True,
                             text=True, timeout=timeout)
        assert out.returncode == 0, out.stderr
        return out.stdout

    return run


@pytest.fixture
def sigint_inside_savez(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``np.savez`` and ``np.savez_compressed`` of the test first sends this process
    a SIGINT and lets it arrive, so that a Ctrl-C lands inside the writing of an archive."""
    for name in ("savez", "savez_compressed"):
        monkeypatch.setattr(np, name, _interrupted(getattr(np, name)))


def _interrupted(savez: Callable[..., None]) -> Callable[..., None]:
    def interrupted_savez(*args: Any, **kwargs: Any) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # the signal is delivered here, inside the write
        savez(*args, **kwargs)

    return interrupted_savez


@pytest.fixture(autouse=True, scope="session")
def _private_data_dir(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Learned data (the Othello book) goes to a fresh directory, never the user's."""
    os.environ["BITGAMES_DATA_DIR"] = str(tmp_path_factory.mktemp("data"))


#: a run of at least this many tests is a whole suite (not one file being worked on)
WHOLE_RUN = 500


def pytest_collection_finish(session: pytest.Session) -> None:
    """A whole run on an empty kernel cache (CI) compiles every game's kernels first, one
    game per core (:func:`bitgames.core.jit.parallel_warmup`), instead of one kernel after
    the other in the single test process as the tests reach them."""
    if (len(session.items) < WHOLE_RUN or session.config.option.collectonly
            or os.environ.get("NUMBA_DISABLE_JIT") == "1"):
        return
    from bitgames.core import jit

    cold = [game for game in jit.available_games() if not jit.is_warm(game)]
    if cold:
        session.config.get_terminal_writer().line(
            f"compiling the kernels of {', '.join(cold)} first (empty cache)...")
        jit.parallel_warmup(cold)
