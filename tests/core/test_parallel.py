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
