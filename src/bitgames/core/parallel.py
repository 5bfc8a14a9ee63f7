"""Run independent tasks: serially, on local processes (default) or on a Dask cluster.

:func:`run_tasks` maps a picklable module-level function over a list of argument tuples
and yields ``(index, result)`` pairs as tasks finish (not in order), so callers can save
each result at once and resume later without losing finished work.

- ``scheduler="serial"``: in this process, in order (debugging, tests, one core);
- ``scheduler="processes"`` (default): a local process pool of ``workers`` processes
  (default: the number of CPUs); processes are started with ``spawn`` so workers never
  inherit threads or numba state from the parent, and they exit when the parent is
  killed. Ctrl-C is the parent's to handle: the workers, and the outside engines they
  start, ignore SIGINT, and a round stopped early (Ctrl-C, SIGTERM, a caller that stops
  reading) ends the tasks in progress at once instead of waiting for them;
- ``scheduler="tcp://host:port"``: a Dask distributed scheduler (``pip install
  distributed``); imported only then.

A job of several rounds, each needing the last one's results (the steps of an endgame
table build, the stages of a fit), runs them on one :class:`TaskRunner`, so a local
pool's processes are started once: a spawned worker takes seconds to import the package
and load its kernels.

>>> sorted(run_tasks(pow, [(2, 3), (3, 2)], scheduler="serial"))
[(0, 8), (1, 9)]
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from bitgames.core.errors import BitgamesError

SCHEDULERS = ("serial", "processes")


def default_workers() -> int:
    """Number of CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def check_scheduler(scheduler: str) -> str:
    """Validate a scheduler name; raise :class:`BitgamesError` if it is not one."""
    if scheduler in SCHEDULERS or scheduler.startswith("tcp://"):
        return scheduler
    raise BitgamesError(
        f"unknown scheduler {scheduler!r}: use serial, processes or tcp://host:port (Dask)")


def run_tasks(fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]],
              scheduler: str = "processes", workers: int | None = None
              ) -> Iterator[tuple[int, Any]]:
    """Yield ``(i, fn(*tasks[i]))`` for every task, as each finishes.

    Stopping the iteration early (or Ctrl-C) cancels the tasks not yet started.
    """
    with TaskRunner(scheduler, workers) as runner:
        yield from runner.map(fn, tasks)


class TaskRunner:
    """A scheduler kept for several rounds of tasks; a local pool's worker processes are
    started at the first round that needs them and serve every later one. Use it as a
    context manager (the pool ends with the block); :meth:`map` runs one round.

    >>> with TaskRunner("serial") as runner:
    ...     list(runner.map(pow, [(2, 3)])) + list(runner.map(pow, [(3, 2)]))
    [(0, 8), (0, 9)]
    """

    def __init__(self, scheduler: str = "processes", workers: int | None = None) -> None:
        self.scheduler = check_scheduler(scheduler)
        self.workers = workers
        self._pool: Any = None

    def __enter__(self) -> TaskRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """End the worker processes (tasks not yet started are dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def map(self, fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]]
            ) -> Iterator[tuple[int, Any]]:
        """Yield ``(i, fn(*tasks[i]))`` for every task, as each finishes; stopping the
        iteration early cancels this round's tasks not yet started."""
        if not tasks:
            return
        scheduler = self.scheduler
        if scheduler == "serial" or (scheduler == "processes" and (self.workers or 2) <= 1):
            for i, args in enumerate(tasks):
                yield i, fn(*args)
            return
        if scheduler != "processes":
            yield from _run_dask(fn, tasks, scheduler)
            return
        import concurrent.futures as cf

        pool = self._process_pool()
        futures = {pool.submit(_run_task, fn, args): i for i, args in enumerate(tasks)}
        try:
            for fut in cf.as_completed(futures):
                yield futures[fut], fut.result()
        finally:
            for fut in futures:
                fut.cancel()
            if any(fut.running() for fut in futures):
                self._stop_workers()

    def _stop_workers(self) -> None:
        """End the tasks in progress now (SIGTERM makes each worker's task raise
        :class:`KeyboardInterrupt`, so its ``finally`` blocks close what it opened), then
        the pool."""
        # ProcessPoolExecutor has no public way to reach its processes before Python 3.14
        for process in list(getattr(self._pool, "_processes", {}).values()):
            if process.is_alive():
                process.terminate()
        self.close()

    def _process_pool(self) -> Any:
        if self._pool is None:
            import concurrent.futures as cf
            import multiprocessing

            # spawned, never forked: no threads or numba state inherited from the parent
            ctx = multiprocessing.get_context("spawn")
            self._pool = cf.ProcessPoolExecutor(
                max_workers=self.workers or default_workers(), mp_context=ctx,
                initializer=_start_worker, initargs=(os.getpid(),))
        return self._pool


#: set in a pool worker while it runs a task
_IN_TASK = threading.Event()
#: set in a pool worker told to stop (SIGTERM): it starts no more tasks
_STOPPED = threading.Event()


def _run_task(fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    """In a pool worker: ``fn(*args)``, marked as a task that SIGTERM may stop.

    A pool hands a worker one task more than it runs, which can no longer be cancelled:
    a worker that was stopped refuses it rather than running it to the end.
    """
    if _STOPPED.is_set():
        raise KeyboardInterrupt
    _IN_TASK.set()
    try:
        return fn(*args)
    finally:
        _IN_TASK.clear()


def _stop_task(signum: int, frame: Any) -> None:
    """In a pool worker, on SIGTERM: stop the task in progress and start no other (an
    idle worker waits for the pool to end it)."""
    _STOPPED.set()
    if _IN_TASK.is_set():
        raise KeyboardInterrupt


def _start_worker(parent: int) -> None:
    """In a pool worker, before its first task: leave Ctrl-C to the parent, let SIGTERM
    stop a task, and exit as soon as the process that started the pool is gone.

    A terminal's Ctrl-C reaches every process of its group: the workers ignore it, and so
    do the outside engines they start (an ignored signal stays ignored in a program
    started from the worker), so a game in progress is not lost as an engine's crash;
    the parent stops the tasks through :meth:`TaskRunner._stop_workers`.

    A pool's workers end with the pool, but a parent killed outright (``kill -9``, the
    out-of-memory killer) cannot tell them to: they would go on computing for nobody. A
    daemon thread in each worker looks every half second.
    """
    import time

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop_task)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="bitgames-parent-watch").start()


def _run_dask(fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]],
              address: str) -> Iterator[tuple[int, Any]]:
    try:
        from distributed import Client, as_completed
    except ImportError as exc:
        raise BitgamesError(
            "a Dask scheduler was given but the 'distributed' package is not installed "
            "(pip install distributed)") from exc
    client = Client(address)
    try:
        futures = [client.submit(fn, *args, pure=False) for args in tasks]
        index = {f.key: i for i, f in enumerate(futures)}
        for fut in as_completed(futures):
            yield index[fut.key], fut.result()
    finally:
        client.close()
