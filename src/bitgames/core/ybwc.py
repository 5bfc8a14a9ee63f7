"""Young Brothers Wait: a parallel alpha-beta search that splits the tree between threads.

Lazy SMP (:mod:`bitgames.core.smp`) lets helper threads race the main search through a
shared table; it suits iterative deepening, where the table carries what the helpers
found from one iteration to the next. An exact endgame solve is one deep search with no
iterations, and there racing helpers only repeat the main thread's work. Edax and most
strong Othello solvers split the tree instead, in the "Young Brothers Wait" way (YBWC,
Feldmann 1993):

- a node is searched on one thread until its first child (the eldest brother) is done;
  only then, when the node is known not to be cut off by its best move, may the other
  children (the young brothers) be searched in parallel;
- the thread that owns such a node makes it a *split point*, searches young brothers
  itself, and idle threads take the others; a child that raises the split point's alpha
  narrows the window of the children searched after it;
- a child that reaches beta cuts the split point off: the threads still searching its
  other children are stopped at once (through their kernels' stop flags), and their
  half-finished results are dropped;
- an owner whose children are all taken waits for the threads still searching them and,
  while it waits, helps with split points below its own (a "helpful master"), so no
  thread idles while there is work under it;
- at a PV node, a child that beats alpha is searched again with a full window; until
  that search ends no thread starts another child there (its window would be stale),
  and a second child that beats alpha meanwhile waits for it and is tested again at the
  new alpha. Without this rule, FFO #45 took 26 % more nodes on 2 threads than on one;
  with it, about as many;
- a PV node may search more than its eldest child on its own thread first
  (``pv_wait``): where the best move is not the first tried, its alpha is then right
  before the others are shared. Waiting for 2 took the Othello solver's FFO #49 from
  30 % more nodes on 2 threads than on one to 2 % more; since the solver also splits
  below its split depth when a thread is idle, waiting for 1 is faster again (and as
  thrifty: 0.3 % more nodes than one thread on FFO #40-#49).

Only nodes with at least ``split_depth`` plies (empties) left are split; below that a
game's serial kernel searches the whole subtree on the calling thread, so the Python
code here runs on a few thousand nodes at most while the kernels (compiled with
``nogil=True``) do the work in parallel. A node with fewer plies left, down to
``idle_split_depth``, is split too when a thread is idle at the moment it is entered
(as Edax splits only when a thread is free): along the leftmost branch, where every
node waits for its eldest children, the other threads would otherwise idle while one
solves a whole subtree of ``split_depth - 1`` plies. Every thread shares the game's
transposition table, whose entries check themselves (:mod:`bitgames.core.tt`).

A game plugs in through :class:`Game`: its serial search, how a node expands into
ordered children (or a cut-off), and how a result is stored.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

import numpy as np

from bitgames.core.errors import BitgamesError

P = TypeVar("P")

#: slots of each thread's ``stats`` array (the layout the game kernels use)
NODES, STOP = 0, 1


@dataclass
class Expansion(Generic[P]):
    """A node expanded by :meth:`Game.expand`: either a ``value`` that ends it (a cut-off
    from the table, a game end) or its ``children`` in search order, as ``(move, position,
    plies left)``."""

    value: int | None = None
    children: list[tuple[int, P, int]] = field(default_factory=list)


class Game(Protocol[P]):
    """What :class:`Search` needs from a game; ``thread`` numbers the calling thread
    (0 is the one that called :meth:`Search.run`), for buffers of its own."""

    def serial(self, thread: int, position: P, alpha: int, beta: int, depth: int,
               pv_node: bool, stats: np.ndarray) -> tuple[int, list[int]]:
        """Search ``position`` on this thread alone: (score, principal variation). The
        kernel counts nodes in ``stats[NODES]`` and must unwind when ``stats[STOP]`` is
        set, storing nothing from then on."""

    def expand(self, thread: int, position: P, alpha: int, beta: int, depth: int,
               pv_node: bool) -> Expansion[P]:
        """The node's children, best first, or the value that ends it."""

    def store(self, position: P, depth: int, alpha: int, beta: int, best: int,
              best_move: int) -> None:
        """Record a finished node's result, searched in the window (alpha, beta)."""


class _SplitPoint(Generic[P]):
    """A node whose young brothers are open to every thread."""

    def __init__(self, parent: _SplitPoint[P] | None, children: list[tuple[int, P, int]],
                 alpha: int, beta: int, best: int, best_move: int, pv: list[int],
                 pv_node: bool, depth: int) -> None:
        self.parent = parent
        self.children = children
        self.next = 0  # the first child no thread has taken
        self.active = 0  # threads searching one of its children now
        self.alpha, self.beta = alpha, beta
        self.best, self.best_move, self.pv = best, best_move, pv
        self.pv_node = pv_node
        self.depth = depth
        self.cut = False  # a child reached beta: the others are stopped
        #: children being searched again with a full window, as the likely new best:
        #: meanwhile no thread takes another child, whose window would be stale
        self.resolving = 0

    def under(self, other: _SplitPoint[P]) -> bool:
        """Whether this split point is ``other`` or below it."""
        sp: _SplitPoint[P] | None = self
        while sp is not None:
            if sp is other:
                return True
            sp = sp.parent
        return False

    def dead(self) -> bool:
        """Whether this split point or one above it was cut off."""
        sp: _SplitPoint[P] | None = self
        while sp is not None:
            if sp.cut:
                return True
            sp = sp.parent
        return False


class _Thread(Generic[P]):
    def __init__(self, index: int) -> None:
        self.index = index
        self.stats = np.zeros(4, dtype=np.int64)
        self.current: _SplitPoint[P] | None = None  # the innermost split point it works for


class Search(Generic[P]):
    """One parallel search of ``game`` on ``threads`` threads (the caller's and
    ``threads - 1`` helpers, started by :meth:`run` and joined before it returns).

    ``stop`` is the caller's stop flag array (``stop[STOP]`` set from any thread stops
    the search: :meth:`run` then returns a meaningless result); ``nodes`` counts every
    thread's nodes once the search returns.
    """

    def __init__(self, game: Game[P], threads: int, split_depth: int, wait: int = 1,
                 pv_wait: int = 1, idle_split_depth: int | None = None) -> None:
        if threads < 2:
            raise BitgamesError(f"a split search needs at least 2 threads, got {threads}")
        self.game = game
        self.split_depth = split_depth
        self.idle_split_depth = split_depth if idle_split_depth is None else idle_split_depth
        self.idle = 0  # threads waiting for work now
        #: children searched on the owner's thread before a node is split: ``wait`` at
        #: other nodes, ``pv_wait`` at PV nodes (whose young brothers there get a null
        #: window, then a full one if they beat alpha, as in a serial PVS)
        self.wait = wait
        self.pv_wait = pv_wait
        self.threads: list[_Thread[P]] = [_Thread(i) for i in range(threads)]
        self.lock = threading.Condition()
        self.open: list[_SplitPoint[P]] = []
        self.done = False
        self.stopped = False
        self.errors: list[BaseException] = []
        self.nodes = 0

    # -- the search of one node, on any thread -----------------------------------------

    def node(self, t: _Thread[P], position: P, alpha: int, beta: int, depth: int,
             pv_node: bool) -> tuple[int, list[int]]:
        """Search ``position`` in (alpha, beta) on thread ``t``, splitting where allowed.
        When ``t.stats[STOP]`` is set on return, the result means nothing."""
        if depth < self.split_depth and (depth < self.idle_split_depth or not self.idle):
            return self.game.serial(t.index, position, alpha, beta, depth, pv_node, t.stats)
        return self._split_node(t, position, alpha, beta, depth, pv_node)

    def _split_node(self, t: _Thread[P], position: P, alpha: int, beta: int, depth: int,
                    pv_node: bool) -> tuple[int, list[int]]:
        """:meth:`node` at a node that may be split."""
        t.stats[NODES] += 1
        e = self.game.expand(t.index, position, alpha, beta, depth, pv_node)
        if e.value is not None:
            return e.value, []
        best, best_move, pv = -(1 << 30), 0, []
        wait = self.pv_wait if pv_node else self.wait
        for i, (move, child, child_depth) in enumerate(e.children[:wait]):
            a = max(alpha, best)
            if pv_node and i > 0:  # a young brother of a PV node, still on this thread
                s, child_pv = self.node(t, child, -a - 1, -a, child_depth, False)
                if not t.stats[STOP] and a < -s < beta:
                    s, child_pv = self.node(t, child, -beta, s + 1, child_depth, True)
            else:
                s, child_pv = self.node(t, child, -beta, -a, child_depth, pv_node)
            if t.stats[STOP]:
                return alpha, []
            if -s > best:
                best, best_move, pv = -s, move, [move, *child_pv]
                if best >= beta:
                    break
        if best < beta and len(e.children) > wait:
            sp = _SplitPoint(t.current, e.children[wait:], max(alpha, best), beta, best,
                             best_move, pv, pv_node, depth)
            self._own(t, sp)
            if t.stats[STOP]:
                return alpha, []
            best, best_move, pv = sp.best, sp.best_move, sp.pv
        self.game.store(position, depth, alpha, beta, best, best_move)
        return best, pv

    def _child(self, t: _Thread[P], sp: _SplitPoint[P], i: int) -> None:
        """Search child ``i`` of ``sp``: a null window at the split point's alpha, and
        at a PV node a full window when the child beats it (tested again first when
        another thread raised alpha in the meantime)."""
        move, child, child_depth = sp.children[i]
        while True:
            a = sp.alpha
            s, child_pv = self.node(t, child, -a - 1, -a, child_depth, False)
            s = -s
            if t.stats[STOP]:
                return
            if not sp.pv_node or s <= a or s >= sp.beta:
                break
            if sp.alpha > a:  # another child raised alpha meanwhile: test at the new one
                continue
            with self.lock:
                if sp.resolving:  # wait for the other new best (helping it), then retest
                    self._help_until_resolved(t, sp)
                    continue
                sp.resolving += 1
            try:
                s, child_pv = self.node(t, child, -sp.beta, -max(s - 1, a), child_depth, True)
            finally:
                with self.lock:
                    sp.resolving -= 1
            s = -s
            if t.stats[STOP]:
                return
            break
        with self.lock:
            if s > sp.best:
                sp.best, sp.best_move = s, move
                if s > sp.alpha or not sp.pv:
                    sp.pv = [move, *child_pv]
            if s > sp.alpha:
                sp.alpha = s
                if s >= sp.beta and not sp.cut:
                    self._cut(sp)

    def _help_until_resolved(self, t: _Thread[P], sp: _SplitPoint[P]) -> None:
        """Help below ``sp`` until no child of it is searched again (lock held)."""
        while sp.resolving and not t.stats[STOP]:
            job = self._take(t, sp)
            if job is None:
                self._wait()
                continue
            self.lock.release()
            try:
                self._work(t, job[0], job[1], sp)
            finally:
                self.lock.acquire()

    def _wait(self) -> None:
        """Wait (lock held) until another thread signals, or 5 ms, counted as idle."""
        self.idle += 1
        self.lock.wait(0.005)
        self.idle -= 1

    def _cut(self, sp: _SplitPoint[P]) -> None:
        """Stop every thread working under ``sp`` (the lock is held)."""
        sp.cut = True
        for t in self.threads:
            if t.current is not None and t.current.under(sp):
                t.stats[STOP] = 1
        self.lock.notify_all()

    # -- taking work: the owner of a split point, and idle threads ----------------------

    def _take(self, t: _Thread[P], below: _SplitPoint[P] | None) -> tuple[
            _SplitPoint[P], int] | None:
        """Claim a young brother to search (lock held), from the deepest open split
        point (under ``below`` if given); None if there is none."""
        best: _SplitPoint[P] | None = None
        for sp in self.open:
            if sp.next < len(sp.children) and not sp.resolving and not sp.dead() and (
                    below is None or sp.under(below)) and (best is None
                                                            or sp.depth > best.depth):
                best = sp
        if best is None:
            return None
        i = best.next
        best.next += 1
        best.active += 1
        t.current = best
        return best, i

    def _work(self, t: _Thread[P], sp: _SplitPoint[P], i: int,
              home: _SplitPoint[P] | None) -> None:
        """Search child ``i`` of ``sp``, then go back to working for ``home`` (lock not
        held on entry). A stop caused by a cut at or below ``sp`` ends here; one from
        further up stays raised, for the caller to unwind."""
        try:
            self._child(t, sp, i)
        finally:
            with self.lock:
                sp.active -= 1
                t.current = home
                if t.stats[STOP] and not self.stopped and not (home is not None
                                                                and home.dead()):
                    t.stats[STOP] = 0
                self.lock.notify_all()

    def _own(self, t: _Thread[P], sp: _SplitPoint[P]) -> None:
        """Search the young brothers of ``sp`` with any idle threads and wait for them,
        helping below ``sp`` while it waits."""
        home = t.current
        with self.lock:
            self.open.append(sp)
            self.lock.notify_all()
        try:
            while True:
                with self.lock:
                    if sp.active == 0 and (sp.cut or t.stats[STOP]
                                           or sp.next >= len(sp.children)):
                        return
                    job = None if t.stats[STOP] else self._take(t, sp)
                    if job is None:
                        self._wait()
                        continue
                self._work(t, job[0], job[1], home)
        finally:
            with self.lock:
                self.open.remove(sp)

    def _helper(self, t: _Thread[P]) -> None:
        """An idle thread's loop: take young brothers until the search is over."""
        try:
            self._take_jobs(t)
        except BaseException as e:  # noqa: BLE001 - raised again by run()
            self.errors.append(e)
            self._stop_all()

    def _stop_all(self) -> None:
        with self.lock:
            self.stopped = True
            for t in self.threads:
                t.stats[STOP] = 1
            self.lock.notify_all()

    def _take_jobs(self, t: _Thread[P]) -> None:
        while True:
            with self.lock:
                job = None
                while not self.done:
                    job = self._take(t, None)
                    if job is not None:
                        break
                    self._wait()
                if job is None:
                    return
            self._work(t, job[0], job[1], None)

    def _watch(self, stop: np.ndarray) -> None:
        """Pass the caller's stop flag on to every thread's kernel."""
        while not self.done:
            if stop[STOP]:
                self._stop_all()
                return
            with self.lock:
                self.lock.wait(0.002)

    def run(self, position: P, alpha: int, beta: int, depth: int,
            stop: np.ndarray) -> tuple[int, list[int]]:
        """Search ``position`` in (alpha, beta): (score, principal variation)."""
        main = self.threads[0]
        workers = [threading.Thread(target=self._helper, args=(t,), daemon=True,
                                    name=f"bitgames-split-{t.index}")
                   for t in self.threads[1:]]
        watcher = threading.Thread(target=self._watch, args=(stop,), daemon=True,
                                   name="bitgames-split-stop")
        for w in [*workers, watcher]:
            w.start()
        try:
            # the root may be split whatever its depth: the helpers may not be waiting yet
            result = self._split_node(main, position, alpha, beta, depth, True)
        finally:
            self._stop_all()  # an exception (Ctrl-C) may leave helpers in their kernels
            with self.lock:
                self.done = True
                self.lock.notify_all()
            for w in [*workers, watcher]:
                w.join()
            self.nodes = self.nodes_so_far()
        if self.errors:
            raise self.errors[0]
        return result

    def nodes_so_far(self) -> int:
        """Every thread's nodes until now: while the search runs (from another thread, to
        show its progress) a count that may lag by a few nodes."""
        return sum(int(t.stats[NODES]) for t in self.threads)
