"""Lazy SMP: threads that help one alpha-beta search through the shared table.

The alpha-beta engines (Othello, draughts, Leiserchess) search in parallel the way most
chess engines do since Stockfish 7 ("Lazy SMP"; the Othello endgame solver, which does
not deepen iteratively, splits its tree instead: :mod:`bitgames.core.ybwc`). The
engine's own thread runs its
iterative deepening exactly as with one thread; while it does, each helper thread runs
the same search kernel from the same root, on killers and history of its own, and writes
what it finds into the one transposition table they share. The main search then finds
the subtrees a helper has already searched as table hits, and the helpers, being a
little ahead or aside, search different lines first. A helper's result is used only
for an iteration it completed (:class:`Lead`, below), so a search never returns a
helper's half-finished answer.

The kernels release the GIL (``nogil=True``), so the threads run on separate cores. The
table needs no lock: an entry is checked by its key words stored XOR-ed with its data
(:mod:`bitgames.core.tt`), so a row torn by two writers reads as a miss.

:func:`helping` runs the helpers around the main search; a helper is a function of its
number (1, 2, ...) and a :class:`~bitgames.core.engine.StopSignal` that it must poll (or
attach to its kernel's control array) and that is raised when the main search ends. No
helper outlives the ``with`` block.

Two refinements, used by the draughts and Othello midgame searches (docs/PERFORMANCE.md
has the figures):
a helper may finish an iteration before the main thread does (the odd helpers search
one ply deeper), and :class:`Lead` then hands its result to the main thread, which stops its
own iteration and goes on from the helper's depth, so the search is as deep as its
fastest thread. The odd helpers then either search the main thread's new iteration beside it
(draughts) or keep one ply ahead of it (Othello: ``Lead(..., ahead=True)``); each engine
uses the one that measured faster.

Threads that search the same tree also tend to search the same subtree at the same
time. So that they spread out, the kernels (draughts, the Othello midgame, Leiserchess)
keep a small shared table of the positions being searched (:func:`busy_table`, in the
manner of Kerrigan's "simplified ABDADA"): before searching a move at a deep enough node
a thread marks the position it leads to (:func:`mark_busy`), and a thread that meets a
move (other than a node's first) whose position is marked puts it off until it has
searched the node's other moves (:func:`is_busy`), by when the other thread's result is
usually in the table. With one thread the table has one slot and the kernels never look
at it.

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

import numpy as np

from bitgames.core.engine import StopSignal
from bitgames.core.errors import BitgamesError
from bitgames.core.jit import njit

#: A helper: ``helper(index, stop) -> nodes searched``; it runs until ``stop`` is raised
#: (or its own search ends) and must return soon after.
Helper = Callable[[int, StopSignal], int]


#: slots of the table of positions being searched: 2**BUSY_BITS
BUSY_BITS = 14
_BUSY_SHIFT = np.uint64(64 - BUSY_BITS)


def busy_table(threads: int) -> np.ndarray:
    """The shared table of positions being searched, for a search on ``threads``
    threads: one empty slot (never looked at) for one thread.

    >>> len(busy_table(1)), len(busy_table(2))
    (1, 16384)
    """
    return np.zeros(1 << BUSY_BITS if threads > 1 else 1, dtype=np.uint64)


@njit(inline="always")
def busy_tag(k0: np.uint64, k1: np.uint64) -> np.uint64:
    """The tag of the position with table key words ``k0``, ``k1`` (never 0, the empty
    slot); its top bits choose the slot.

    >>> # the same for Python ints and numpy words
    >>> busy_tag(np.uint64(2**63 + 1), np.uint64(2**32)) == busy_tag(2**63 + 1, 2**32)
    True
    """
    h = (np.uint64(k0) * np.uint64(0x9E37_79B9_7F4A_7C15)
         ^ (np.uint64(k1) + np.uint64(0x632B_E59B_D9B4_E019)))
    h ^= h >> np.uint64(29)
    h *= np.uint64(0xBF58_476D_1CE4_E5B9)
    return h ^ (h >> np.uint64(32)) | np.uint64(1)


@njit(inline="always")
def next_pass(idx: int, n: int, put_off: bool, second: bool) -> tuple[int, bool, bool]:
    """Where a move loop that puts moves off goes on at position ``idx`` of its ``n``
    moves: ``(idx, second, done)``. At the end of the first pass it starts again from 0
    for the second pass (which searches only the moves put off) if a move was put off.

    >>> next_pass(3, 5, False, False), next_pass(5, 5, True, False), next_pass(5, 5, True, True)
    ((3, False, False), (0, True, False), (5, True, True))
    """
    if idx < n:
        return idx, second, False
    if put_off and not second:
        return 0, True, False
    return idx, second, True


@njit(inline="always")
def is_busy(busy: np.ndarray, tag: np.uint64) -> bool:
    """Whether a thread marked the position of ``tag`` and has not finished it."""
    return busy[tag >> _BUSY_SHIFT] == tag


@njit(inline="always")
def mark_busy(busy: np.ndarray, tag: np.uint64) -> None:
    """Mark the position of ``tag`` as being searched (a collision overwrites)."""
    busy[tag >> _BUSY_SHIFT] = tag


@njit(inline="always")
def clear_busy(busy: np.ndarray, tag: np.uint64) -> None:
    """Unmark the position of ``tag`` unless another position took its slot since."""
    slot = tag >> _BUSY_SHIFT
    if busy[slot] == tag:
        busy[slot] = np.uint64(0)


class Lead:
    """The deepest iteration a helper has completed, for the main thread to go on from.

    The main thread calls :meth:`start` before each iteration; a helper that completes
    one calls :meth:`done`, which, if the helper got at least as deep as the main
    thread's iteration, interrupts the main thread's kernel (it writes 0 into the main
    thread's node-limit slot ``stats[slot]``, as a stop does). The main thread then finds
    :attr:`depth` at least its own and takes :attr:`move` and :attr:`score` as that
    iteration's result.

    >>> stats = np.array([0, 1 << 62])
    >>> lead = Lead(stats, 1)
    >>> lead.start(5)  # nothing completed yet: the main thread searches depth 5
    True
    >>> lead.done(4, move=17, score=30)  # shallower than the main thread: kept only
    >>> int(stats[1]) > 0
    True
    >>> lead.done(6, move=21, score=25)  # deeper: the main thread's kernel stops
    >>> int(stats[1]), lead.depth, lead.move
    (0, 6, 21)
    >>> lead.start(6), lead.start(7)  # depth 6 is done already; depth 7 is not
    (False, True)
    >>> lead.next_depth(1, last=0), lead.next_depth(2, last=0)  # helpers 1, 2 start
    (2, 1)
    >>> lead.next_depth(1, last=5), lead.next_depth(1, last=8)  # the main thread is at 7
    (7, 9)
    >>> ahead = Lead(stats, 1, ahead=True)  # odd helpers keep one ply ahead
    >>> ahead.start(7)
    True
    >>> ahead.next_depth(1, last=5), ahead.next_depth(2, last=5), ahead.next_depth(1, last=8)
    (8, 7, 9)
    """

    def __init__(self, stats: np.ndarray, slot: int, ahead: bool = False) -> None:
        #: the deepest iteration a helper completed (0: none), its best move and score
        #: in the kernel's own encoding
        self.depth = 0
        self.move = 0
        self.score = 0
        self._stats = stats
        self._slot = slot
        self._current = 0
        self._ahead = ahead
        self._lock = threading.Lock()

    def start(self, depth: int) -> bool:
        """The main thread is about to search iteration ``depth`` (its control slots
        already reset): whether it should, that is, no helper has completed it yet."""
        with self._lock:
            self._current = depth
            return self.depth < depth

    def done(self, depth: int, move: int, score: int) -> None:
        """A helper completed iteration ``depth`` (its full window, not stopped) with
        best move ``move`` and score ``score``."""
        with self._lock:
            if depth > self.depth:
                self.depth, self.move, self.score = depth, move, score
                if self._current and depth >= self._current:
                    self._stats[self._slot] = 0

    def next_depth(self, index: int, last: int) -> int:
        """The depth helper ``index`` searches after completing ``last`` (0: none yet):
        first :func:`helper_depth` of 1, then one deeper each time, but never shallower
        than the main thread's iteration (with ``ahead``, :func:`helper_depth` of it)."""
        if last == 0:
            return helper_depth(index, 1)
        return max(last + 1, helper_depth(index, self._current) if self._ahead
                   else self._current)


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
