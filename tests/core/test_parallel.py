"""The task runner: same results serially and on processes, errors, early stop."""

from __future__ import annotations

import operator

import pytest

from bitgames.core.errors import BitgamesError
from bitgames.core.parallel import check_scheduler, default_workers, run_tasks


def test_serial_in_order() -> None:
    assert list(run_tasks(operator.mul, [(2, 3), (4, 5), (6, 7)], scheduler="serial")) == [
        (0, 6), (1, 20), (2, 42)]


def test_processes_match_serial() -> None:
    tasks = [(i, 3) for i in range(7)]
    serial = dict(run_tasks(pow, tasks, scheduler="serial"))
    procs = dict(run_tasks(pow, tasks, scheduler="processes", workers=2))
    assert procs == serial == {i: i**3 for i in range(7)}


def test_empty_and_one_worker() -> None:
    assert list(run_tasks(pow, [], scheduler="processes")) == []
    assert list(run_tasks(pow, [(2, 2)], scheduler="processes", workers=1)) == [(0, 4)]


def test_bad_scheduler() -> None:
    with pytest.raises(BitgamesError, match="unknown scheduler"):
        check_scheduler("threads")
    with pytest.raises(BitgamesError):
        list(run_tasks(pow, [(1, 1)], scheduler="mpi"))
    assert check_scheduler("tcp://127.0.0.1:8786").startswith("tcp")
    assert default_workers() >= 1


def test_task_error_propagates() -> None:
    with pytest.raises(ZeroDivisionError):
        list(run_tasks(operator.truediv, [(1, 0)], scheduler="processes", workers=2))


def test_dask_missing_is_a_clear_error() -> None:
    try:
        import distributed  # noqa: F401
    except ImportError:
        with pytest.raises(BitgamesError, match="distributed"):
            list(run_tasks(pow, [(1, 1), (2, 2)], scheduler="tcp://127.0.0.1:1"))
    else:  # pragma: no cover
        pytest.skip("distributed installed; needs a running scheduler")


def _pid_then_sleep(folder: str, seconds: float) -> int:
    """A task that says which process runs it, then works for a long time."""
    import os
    import time
    from pathlib import Path

    Path(folder, f"{os.getpid()}.pid").touch()
    time.sleep(seconds)
    return os.getpid()


def test_workers_end_when_the_parent_is_killed(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import os
    import signal
    import subprocess
    import sys
    import time

    script = ("from bitgames.core.parallel import run_tasks\n"
              "from tests.core.test_parallel import _pid_then_sleep\n"
              f"list(run_tasks(_pid_then_sleep, [({str(tmp_path)!r}, 120.0)] * 2,"
              " workers=2))\n")
    parent = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 60
        while len(list(tmp_path.glob("*.pid"))) < 2:
            assert time.monotonic() < deadline, "the workers never started"
            assert parent.poll() is None
            time.sleep(0.1)
        workers = [int(p.stem) for p in tmp_path.glob("*.pid")]
        parent.send_signal(signal.SIGKILL)  # no chance to shut its pool down
        parent.wait()

        def alive(pid: int) -> bool:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return False
            return True

        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(pid) for pid in workers), "workers outlived their parent"
    finally:
        if parent.poll() is None:
            parent.kill()


def test_a_round_stopped_early_ends_its_tasks_in_progress(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # a caller that stops reading (Ctrl-C, an SPRT decision) must not wait for the tasks
    # still running (here two minutes each), nor for the one the pool had queued
    import os
    import time

    tasks = [(str(tmp_path), 0.0), (str(tmp_path), 120.0), (str(tmp_path), 120.0)]
    results = run_tasks(_pid_then_sleep, tasks, scheduler="processes", workers=2)
    next(results)
    start = time.monotonic()
    results.close()
    assert time.monotonic() - start < 10.0
    for pid in (int(p.stem) for p in tmp_path.glob("*.pid")):
        with pytest.raises(ProcessLookupError):  # the pool's workers are gone
            os.kill(pid, 0)
