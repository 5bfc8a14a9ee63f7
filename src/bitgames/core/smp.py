"""Lazy SMP: threads that help one alpha-beta search through the shared table.

The alpha-beta engines (Othello, draughts, Leiserchess) search in parallel the way most
chess engines do since Stockfish 7 ("Lazy SMP"; the Othello endgame solver, which does
not deepen iteratively, splits its tree instead: :mod:`bitgames.core.ybwc`). The
engine's own thread runs its
iterative deepening exactly as with one thread; while it does, each helper thread runs
the same search kernel from the same root, on killers and history of its own, and writes
what it finds into the one transposition table they share. The main search then finds
the subtrees a helper has already searched as table hits, and the helpers, being a
little ahead or aside, search different lines first. Only the main thread's result is
used, so a search never returns a helper's half-finished answer.

The kernels release the GIL (``nogil=True``), so the threads run on separate cores. The
table needs no lock: an entry is checked by its key words stored XOR-ed with its data
(:mod:`bitgames.core.tt`), so a row torn by two writers reads as a miss.

:func:`helping` runs the helpers around the main search; a helper is a function of its
number (1, 2, ...) and a :class:`~bitgames.core.engine.StopSignal` that it must poll (or
attach to its kernel's control array) and that is raised when the main search ends. No
helper outlives the ``with`` block.

>>> import time
>>> def helper(index, stop):
...     while not stop.is_set():  # a real helper runs its search kernel until stopped
...         time.sleep(0.001)
...     return 10 * index
>>> with helping(3, helper) as nodes:
...     pass
>>> nodes
[10, 20]
>>> with helping(1, helper) as nodes:  # one thread: no helper at all
...     pass
>>> nodes
[]
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator

from bitgames.core.engine import StopSignal
from bitgames.core.errors import BitgamesError

#: A helper: ``helper(index, stop) -> nodes searched``; it runs until ``stop`` is raised
#: (or its own search ends) and must return soon after.
Helper = Callable[[int, StopSignal], int]


def helper_depth(index: int, depth: int) -> int:
    """The depth helper ``index`` searches while its own iteration is ``depth``: odd
    helpers one ply deeper, so that half of them fill the table ahead of the main search
    and half search beside it.

    >>> [helper_depth(i, 5) for i in (1, 2, 3)]
    [6, 5, 6]
    """
    return depth + (index & 1)


@contextlib.contextmanager
def helping(threads: int, helper: Helper) -> Iterator[list[int]]:
    """Run ``threads - 1`` helpers while the ``with`` block (the main search) runs.

    On leaving the block, by its end or by an exception, every helper's stop signal is
    raised and every helper joined; the yielded list then holds each helper's node
    count. An exception raised in a helper is raised again here, after the join.
    """
    if threads < 1:
        raise BitgamesError(f"threads must be at least 1, got {threads}")
    nodes: list[int] = []
    if threads == 1:
        yield nodes
        return
    signals = [StopSignal() for _ in range(threads - 1)]
    counts = [0] * (threads - 1)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            counts[i] = helper(i + 1, signals[i])
        except BaseException as e:  # noqa: BLE001 - handed to the main thread
            errors.append(e)

    workers = [threading.Thread(target=run, args=(i,), name=f"bitgames-helper-{i + 1}",
                                daemon=True) for i in range(threads - 1)]
    for w in workers:
        w.start()
    try:
        yield nodes
    finally:
        for s in signals:
            s.set()
        for w in workers:
            w.join()
        nodes.extend(counts)
    if errors:
        raise errors[0]
