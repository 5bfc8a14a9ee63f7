"""``bitgames`` commands run as processes by the tests that stop them with a signal.

A test that starts a long command (a match of 200 games, perft 16, a million training
sweeps) and then fails before the command ends must not leave it running: it would go on
loading the machine for minutes or hours after the test run. :func:`started` kills it on
the way out, and kills it too if it runs past a time limit while the test waits on its
output (a test must not hang either).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


@contextmanager
def started(argv: list[str], *, group: bool = False, limit: float = 900.0,
            stderr: int = subprocess.PIPE) -> Iterator[subprocess.Popen[str]]:
    """``python -m bitgames.cli ARGV`` with its output piped as text, killed when the
    block ends if it is still running, or after ``limit`` seconds. With ``group``, it
    leads a process group of its own, which the kill takes whole (its workers, the outside
    engines it started)."""
    proc = subprocess.Popen([sys.executable, "-m", "bitgames.cli", *argv],
                            stdout=subprocess.PIPE, stderr=stderr, text=True,
                            start_new_session=group)

    def kill() -> None:
        if proc.poll() is None:
            if group:
                os.killpg(proc.pid, signal.SIGKILL)
            else:
                proc.kill()

    watchdog = threading.Timer(limit, kill)
    watchdog.start()
    try:
        yield proc
    finally:
        watchdog.cancel()
        kill()
        proc.communicate()


@dataclass
class Stopped:
    """How a command ended after its signal."""

    code: int
    seconds: float  # from the signal to the end
    out: str
    err: str


def interrupt(proc: subprocess.Popen[str], signum: int = signal.SIGINT, *,
              group: bool = False, timeout: float = 30.0) -> Stopped:
    """Send ``proc`` (still running) ``signum``, Ctrl-C by default (with ``group`` to its
    whole process group, as a terminal does), and wait at most ``timeout`` seconds for its
    end."""
    if proc.poll() is not None:
        _, err = proc.communicate()
        raise AssertionError(f"the command ended (status {proc.returncode}) before it was "
                             f"interrupted: {(err or '')[-2000:]}")
    if group:
        os.killpg(proc.pid, signum)
    else:
        proc.send_signal(signum)
    start = time.perf_counter()
    out, err = proc.communicate(timeout=timeout)
    return Stopped(proc.returncode, time.perf_counter() - start, out, err or "")
