"""One engine interface for every game: limits, scores, search results, time, stopping.

Modelled on python-chess's engine layer. Every game has ``bitgames.<game>.Engine``, a
subclass of :class:`Engine`::

    engine = Engine(level=5)
    result = engine.search(board, Limit(depth=8), on_info=print)
    result.move, result.score, result.pv, result.depth, result.nodes, result.ended

- :class:`Limit` says how long to think: a depth, a node count (for Go: playouts), a time
  per move, or the game clock of the side to move (remaining time, increment, moves to
  go); ``Limit()`` means "the engine's level decides".
- :class:`Score` carries its unit (:class:`Unit`: discs, men, pawns, win rate) and says
  when it is exact: an Othello solve, a forced win in N plies, a database result.
- :class:`Info` is what ``on_info`` receives at every finished iteration;
  :class:`SearchResult` is the answer, with how the search ended (:class:`End`).
- ``engine.stop()`` (from any thread) makes the running search return its best move so far
  at once: every engine owns a :class:`StopSignal` whose flag its kernels poll.
- :class:`TimeManager` turns a clock into an optimum and a hard maximum per move, with a
  per-game hook for how the phase of the game weights time.
- :func:`interruptible` turns Ctrl-C into a stop: long commands print what they have and
  exit with status 130.

>>> Score(1.5, Unit.DISCS)
Score(1.5, Unit.DISCS)
>>> str(Score(-0.25, Unit.PAWNS)), str(Score(12, Unit.DISCS, exact=True))
('-0.25 pawns', '+12 discs (exact)')
>>> str(Score.win_in(7, Unit.MEN)), str(-Score.win_in(7, Unit.MEN))
('win in 7', 'loss in 7')
>>> budget = TimeManager().budget(Limit(remaining=60.0), [1.0] * 30)
>>> 1.0 < budget.optimum < budget.maximum < 20.0
True
"""

from __future__ import annotations

import contextlib
import enum
import heapq
import itertools
import math
import os
import signal
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Protocol, TypeVar

import numpy as np

from bitgames.core.errors import BitgamesError

T = TypeVar("T")

# -- scores -------------------------------------------------------------------------------------


class Unit(enum.Enum):
    """The unit of a score; each game documents which one its engine reports."""

    DISCS = "discs"  #: Othello: final disc difference (exact) or its estimate
    MEN = "men"  #: draughts: material, one man = 1.0
    PAWNS = "pawns"  #: Leiserchess: material, one pawn = 1.0 (UCI says centipawns)
    WINRATE = "win rate"  #: Go: the probability of winning, 0.0 to 1.0


@dataclass(frozen=True)
class Score:
    """A score for the side to move, in ``unit``.

    ``exact`` says the value is proven, not estimated. A forced end of the game has
    ``value`` +-inf: a win (> 0) or a loss (< 0), in ``plies`` plies where the search
    knows how many (:meth:`win_in`), or with the distance unknown (:meth:`win`: a
    win/loss/draw solve, an endgame table that stores only the result).

    >>> Score(0.62, Unit.WINRATE).value
    0.62
    >>> Score.win_in(3, Unit.PAWNS) > Score(50.0, Unit.PAWNS)
    True
    """

    value: float
    unit: Unit
    exact: bool = False
    plies: int | None = None

    @classmethod
    def win_in(cls, plies: int, unit: Unit) -> Score:
        """A forced win in ``plies`` plies (negate it for a loss)."""
        return cls(math.inf, unit, exact=True, plies=plies)

    @classmethod
    def win(cls, unit: Unit) -> Score:
        """A proven win whose distance is not known (negate it for a loss)."""
        return cls(math.inf, unit, exact=True)

    @property
    def is_win(self) -> bool:
        return self.value == math.inf

    @property
    def is_loss(self) -> bool:
        return self.value == -math.inf

    def __neg__(self) -> Score:
        value = 1.0 - self.value if self.unit is Unit.WINRATE else -self.value
        return replace(self, value=value)

    def _key(self) -> tuple[float, float]:
        if not math.isinf(self.value):
            return (0.0, self.value)
        # a quicker win is better, a slower loss is better; an unknown distance is the
        # slowest win and the slowest loss
        plies = math.inf if self.plies is None else self.plies
        return (math.copysign(1.0, self.value), -plies if self.value > 0 else plies)

    def __lt__(self, other: Score) -> bool:
        return self._key() < other._key()

    def __gt__(self, other: Score) -> bool:
        return self._key() > other._key()

    def __str__(self) -> str:
        if math.isinf(self.value):
            text = "win" if self.value > 0 else "loss"
            return text if self.plies is None else f"{text} in {self.plies}"
        if self.unit is Unit.WINRATE:
            text = f"{100 * self.value:.1f}% win rate"
        elif self.exact and float(self.value).is_integer():
            text = f"{int(self.value):+d} {self.unit.value}"
        else:
            text = f"{self.value:+.2f} {self.unit.value}"
        return text + (" (exact)" if self.exact else "")

    def __repr__(self) -> str:
        if math.isinf(self.value):
            sign = "" if self.value > 0 else "-"
            if self.plies is None:
                return f"{sign}Score.win(Unit.{self.unit.name})"
            return f"{sign}Score.win_in({self.plies}, Unit.{self.unit.name})"
        extra = ", exact=True" if self.exact else ""
        return f"Score({self.value!r}, Unit.{self.unit.name}{extra})"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"value": 1.5, "unit": "discs", "exact": false}``; a forced end
        has ``"value": "win"``/``"loss"`` and ``"plies"`` (``null`` when unknown)."""
        if math.isinf(self.value):
            return {"value": "win" if self.value > 0 else "loss", "plies": self.plies,
                    "unit": self.unit.value, "exact": True}
        return {"value": self.value, "unit": self.unit.value, "exact": self.exact}


# -- limits, infos, results ---------------------------------------------------------------------


@dataclass(frozen=True)
class Limit:
    """How long to think. Several limits may be given: the search stops at the first.

    ``depth`` plies, ``nodes`` (Go: playouts), ``time`` seconds for this move, or a game
    clock for the side to move: ``remaining`` seconds, ``increment`` per move, and
    ``moves_to_go`` until the next time control. ``infinite`` searches until
    :meth:`Engine.stop`. ``Limit()`` leaves it to the engine's level.

    >>> Limit(depth=6).is_empty(), Limit().is_empty()
    (False, True)
    """

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    remaining: float | None = None
    increment: float = 0.0
    moves_to_go: int | None = None
    infinite: bool = False

    def __post_init__(self) -> None:
        for name in ("depth", "nodes"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise BitgamesError(f"limit {name} must be at least 1, got {value}")
        for name in ("time", "remaining", "increment"):
            value = getattr(self, name)
            if value is not None and not 0 <= value < math.inf:
                raise BitgamesError(f"limit {name} must be a finite number of seconds, "
                                    f"not negative, got {value}")

    def is_empty(self) -> bool:
        """True when no limit is set (the engine's level decides)."""
        return (self.depth is None and self.nodes is None and self.time is None
                and self.remaining is None and not self.infinite)


class End(enum.Enum):
    """How a search ended."""

    COMPLETED = "completed"  #: reached its depth or node limit, or proved the result
    STOPPED = "stopped"  #: :meth:`Engine.stop` was called (a GUI, Ctrl-C)
    TIME = "time"  #: its time ran out


@dataclass
class Info:
    """What an engine reports while it searches (each finished iteration).

    ``probability``: for a result a selective search finds right with that probability
    and a later pass may still change (Othello's endgame passes before the exact solve),
    else None.
    """

    depth: int = 0
    seldepth: int | None = None
    score: Score | None = None
    nodes: int = 0
    time: float = 0.0
    pv: list[Any] = field(default_factory=list)
    probability: float | None = None

    @property
    def nps(self) -> float:
        """Nodes (Go: playouts) per second."""
        return self.nodes / self.time if self.time > 0 else 0.0


@dataclass
class SearchResult:
    """The answer of a search: the move to play (``None`` when there is none), its score,
    the principal variation and the statistics, and how the search ended.

    ``multipv`` holds every root move's score, best first, when the engine was asked for
    them.
    """

    move: Any
    score: Score | None = None
    pv: list[Any] = field(default_factory=list)
    depth: int = 0
    nodes: int = 0
    time: float = 0.0
    ended: End = End.COMPLETED
    seldepth: int | None = None
    multipv: list[tuple[Any, Score]] = field(default_factory=list)

    @property
    def nps(self) -> float:
        return self.nodes / self.time if self.time > 0 else 0.0

    def info(self) -> Info:
        """The same facts as an :class:`Info`."""
        return Info(self.depth, self.seldepth, self.score, self.nodes, self.time, list(self.pv))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, moves as text; the keys every command's ``--json`` uses."""
        return {
            "move": None if self.move is None else str(self.move),
            "score": None if self.score is None else self.score.to_dict(),
            "pv": [str(m) for m in self.pv],
            "depth": self.depth,
            "nodes": self.nodes,
            "time": round(self.time, 6),
            "nps": round(self.nps),
            "ended": self.ended.value,
        }


InfoCallback = Callable[[Info], None]


# -- stopping -----------------------------------------------------------------------------------


class _AlarmClock:
    """One daemon thread that raises armed :class:`StopSignal` s at their deadlines.

    Arming costs a push on a heap, not the start of a thread: a thread start waits for
    the new thread to be scheduled, which takes milliseconds on a loaded machine, a real
    share of a move in a fast game. A signal remembers the token of its one live alarm;
    an alarm whose token is no longer its signal's was disarmed and is dropped.
    """

    def __init__(self) -> None:
        self._reset()
        os.register_at_fork(after_in_child=self._reset)  # the thread is not forked

    def _reset(self) -> None:
        self.lock = threading.Condition()
        self._heap: list[tuple[float, int, StopSignal]] = []
        self._tokens = itertools.count(1)
        self._thread: threading.Thread | None = None

    def schedule(self, signal: StopSignal, seconds: float) -> None:
        with self.lock:
            token = next(self._tokens)
            signal._alarm = token
            heapq.heappush(self._heap, (time.monotonic() + seconds, token, signal))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="bitgames-alarms",
                                                daemon=True)
                self._thread.start()
            self.lock.notify()

    def _run(self) -> None:
        with self.lock:
            while True:
                heap = self._heap
                while heap and heap[0][2]._alarm != heap[0][1]:
                    heapq.heappop(heap)  # disarmed
                if not heap:
                    self.lock.wait()
                    continue
                wait = heap[0][0] - time.monotonic()
                if wait > 0:
                    self.lock.wait(wait)
                    continue
                _, _, signal = heapq.heappop(heap)
                signal._alarm = 0
                signal.timed_out = True
                signal.set()


_ALARMS = _AlarmClock()


class StopSignal:
    """One stop flag that kernels poll and any thread may raise.

    ``flag`` is an ``int64`` array of length 1 to pass to kernels (they stop when
    ``flag[0] != 0``); :meth:`attach` adds other slots to raise at the same time (a
    kernel's control array), :meth:`arm` raises it after a delay (a hard time limit).

    >>> stop = StopSignal()
    >>> stop.is_set(), stop.set(), stop.is_set(), int(stop.flag[0])
    (False, None, True, 1)
    """

    def __init__(self) -> None:
        self.flag = np.zeros(1, dtype=np.int64)
        self._slots: list[tuple[np.ndarray, int]] = []
        self._alarm = 0  # the token of the armed alarm (0: none; see _AlarmClock)
        self.timed_out = False

    def attach(self, array: np.ndarray, index: int) -> None:
        """Also write 1 into ``array[index]`` whenever the signal is set."""
        self._slots.append((array, index))

    def set(self) -> None:
        """Raise the flag: every kernel polling it returns as soon as it can."""
        self.flag[0] = 1
        for array, index in self._slots:
            array[index] = 1

    def is_set(self) -> bool:
        return bool(self.flag[0])

    def clear(self) -> None:
        """Lower the flag (and the attached slots) before a new search."""
        self.disarm()
        self.flag[0] = 0
        self.timed_out = False
        for array, index in self._slots:
            array[index] = 0

    def arm(self, seconds: float) -> None:
        """Raise the flag after ``seconds`` (and remember it was the clock); at once if
        ``seconds`` is not positive. Arming again replaces the earlier deadline."""
        if seconds <= 0:
            self.disarm()
            self.timed_out = True
            self.set()
            return
        _ALARMS.schedule(self, seconds)

    def disarm(self) -> None:
        if self._alarm:
            with _ALARMS.lock:
                self._alarm = 0

    def end(self, completed: bool = True) -> End:
        """How a search that polled this signal ended."""
        if self.timed_out:
            return End.TIME
        if self.is_set():
            return End.STOPPED
        return End.COMPLETED if completed else End.TIME


@contextlib.contextmanager
def interruptible(on_interrupt: Callable[[], None]) -> Iterator[list[bool]]:
    """Within the block, Ctrl-C (SIGINT) calls ``on_interrupt`` instead of raising.

    The block receives a one-element list that turns ``[True]`` once Ctrl-C was pressed,
    so a command can print what it has and exit with status 130. A second Ctrl-C raises
    ``KeyboardInterrupt`` as usual. Outside the main thread this does nothing.

    >>> with interruptible(lambda: None) as pressed:
    ...     pressed
    [False]
    """
    pressed = [False]
    if threading.current_thread() is not threading.main_thread():
        yield pressed
        return

    def handler(signum: int, frame: Any) -> None:
        if pressed[0]:
            raise KeyboardInterrupt
        pressed[0] = True
        on_interrupt()

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield pressed
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def uninterrupted() -> Iterator[None]:
    """Within the block, Ctrl-C (SIGINT) waits for the block to end: a file being written
    is finished, then the handler in place before (``KeyboardInterrupt`` by default)
    runs. Outside the main thread this does nothing.

    >>> with uninterrupted():
    ...     done = True
    >>> done
    True
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        if callable(previous):
            previous(signal.SIGINT, None)
        elif previous != signal.SIG_IGN:
            raise KeyboardInterrupt


def run_in_worker(job: Callable[[], T], tick: Callable[[], None] | None = None) -> T:
    """``job()`` run in a worker thread while this thread waits in short joins, calling
    ``tick()`` (if given) after each: to draw the progress a kernel writes into an array.

    Python runs a signal handler only between bytecodes of the main thread, so a kernel
    called from the main thread would never let :func:`interruptible`'s handler raise
    its stop flag. Run long ``nogil`` kernels through this instead: Ctrl-C is handled at
    once and the kernel, polling the flag, returns what it has. An exception in ``job``
    is raised here.

    >>> run_in_worker(lambda: 6 * 7)
    42
    """
    box: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            box.append(job())
        except BaseException as exc:  # handed to the caller below
            errors.append(exc)

    worker = threading.Thread(target=run, daemon=True, name="bitgames-worker")
    worker.start()
    while worker.is_alive():
        worker.join(0.05)
        if tick is not None:
            tick()
    if errors:
        raise errors[0]
    return box[0]



def run_stoppable(job: Callable[[], T], stop: Callable[[], None],
                  tick: Callable[[], None] | None = None) -> tuple[T, bool]:
    """``job()`` run by :func:`run_in_worker` (with its ``tick``) and Ctrl-C calling
    ``stop`` (which makes the job's kernel return what it has). Returns ``(job's result,
    interrupted)``: the pair a long command needs to print what it has and exit with
    status 130.

    >>> run_stoppable(lambda: 6 * 7, lambda: None)
    (42, False)
    """
    with interruptible(stop) as pressed:
        value = run_in_worker(job, tick)
    return value, pressed[0]

# -- time ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TimeBudget:
    """Seconds for one move: aim at ``optimum`` (start no new iteration after it), never
    pass ``maximum`` (the stop signal is armed for it)."""

    optimum: float
    maximum: float


class TimeManager:
    """From a :class:`Limit` to a :class:`TimeBudget` for this move.

    ``weights`` (the per-game hook) give the relative time of this move (first) and of each
    of our later moves the game is expected to need: Othello weights the early midgame
    more and hands a block to the exact solve; a game with no better idea passes
    ``[1.0] * moves_left``. ``moves_to_go`` cuts them at the next time control.

    The optimum is the usable time (the clock less an emergency reserve) times this move's
    share of the weights, plus most of the increment; the maximum is ``max_ratio`` times
    that, but never more than ``max_fraction`` of the usable time (or, with
    ``moves_to_go``, this move's even share of it if that is more: all of it for the last
    move before a time control), so a game is never lost on time. Below ``panic`` seconds
    the engine gets a token budget and should answer at once. Every move costs
    ``move_cost`` however fast it is played (the protocol's round trip, a first shallow
    search): that much is kept aside for twice the moves expected, plus ten, so that a
    game of sudden death that lasts longer than expected is still not lost on time.
    ``Limit(time=t)`` gives exactly ``t``; no time limit gives ``inf``.

    >>> TimeManager().budget(Limit(time=2.0), [1.0])
    TimeBudget(optimum=2.0, maximum=2.0)
    >>> TimeManager().budget(Limit(depth=3), [1.0]).maximum
    inf
    >>> b = TimeManager().budget(Limit(remaining=0.05), [1.0] * 10)
    >>> b.maximum < 0.05
    True
    """

    def __init__(self, reserve_fraction: float = 0.08, reserve_max: float = 1.0,
                 overhead: float = 0.03, max_ratio: float = 2.5, max_fraction: float = 0.25,
                 panic: float = 0.25, move_cost: float = 0.005) -> None:
        self.reserve_fraction = reserve_fraction
        self.move_cost = move_cost
        self.reserve_max = reserve_max
        self.overhead = overhead
        self.max_ratio = max_ratio
        self.max_fraction = max_fraction
        self.panic = panic

    def budget(self, limit: Limit, weights: Sequence[float]) -> TimeBudget:
        optimum = maximum = math.inf
        if limit.time is not None:
            optimum = maximum = max(limit.time, 0.001)
        if limit.remaining is not None:
            clock = self._from_clock(limit, weights)
            optimum, maximum = min(optimum, clock.optimum), min(maximum, clock.maximum)
        return TimeBudget(optimum, maximum)

    def _from_clock(self, limit: Limit, weights: Sequence[float]) -> TimeBudget:
        remaining = float(limit.remaining or 0.0)
        increment = limit.increment
        ahead = list(weights) or [1.0]
        if limit.moves_to_go is not None:
            ahead = ahead[: max(1, limit.moves_to_go)]
        spare = max(0.0, remaining - self.move_cost * (2 * len(ahead) + 10))
        if spare < self.panic:
            token = min(0.1 * spare + 0.5 * increment,
                        max(0.0, 0.5 * (remaining - self.move_cost)))
            return TimeBudget(token, token)
        usable = max(0.0, spare - min(self.reserve_max, self.reserve_fraction * spare)
                     - self.overhead)
        optimum = usable * ahead[0] / sum(ahead) + 0.8 * increment
        # the last moves before a time control may take all that is left
        share = self.max_fraction if limit.moves_to_go is None else max(
            self.max_fraction, 1.0 / max(1, limit.moves_to_go))
        maximum = min(self.max_ratio * optimum, share * usable + 0.8 * increment)
        maximum = min(maximum, usable)
        return TimeBudget(max(min(optimum, maximum), 0.0), max(maximum, 0.0))


# -- the engine interface -----------------------------------------------------------------------


#: The most search threads an engine accepts.
MAX_THREADS = 1024


class Engine(ABC):
    """The interface every game's engine implements.

    Subclasses set :attr:`MAX_LEVEL` and :attr:`unit`, document what each level sets, and
    implement :meth:`search`, :meth:`new_game` and :meth:`_apply_level`. Their kernels poll
    ``self.stop_signal.flag`` (or slots attached to it), so :meth:`stop` works from any
    thread.
    """

    #: The strongest level; level 1 is the weakest in every game.
    MAX_LEVEL: ClassVar[int] = 10
    #: The unit of this engine's scores.
    unit: ClassVar[Unit]

    def __init__(self, level: int | None = None, threads: int = 1) -> None:
        self.stop_signal = StopSignal()
        self.time_manager = TimeManager()
        self._level = 0
        self.level = self.MAX_LEVEL // 2 if level is None else level
        self._threads = 1
        self.threads = threads

    @property
    def threads(self) -> int:
        """Search threads, 1 to :data:`MAX_THREADS` (default 1: the deterministic
        search, node counts included; see :mod:`bitgames.core.smp`)."""
        return self._threads

    @threads.setter
    def threads(self, n: int) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_THREADS:
            raise BitgamesError(f"threads must be a whole number from 1 to {MAX_THREADS}, "
                                f"got {n!r}")
        self._threads = n

    @property
    def level(self) -> int:
        """The strength setting, 1 (weakest) to :attr:`MAX_LEVEL`."""
        return self._level

    @level.setter
    def level(self, n: int) -> None:
        if not 1 <= n <= self.MAX_LEVEL:
            raise BitgamesError(f"level must be 1..{self.MAX_LEVEL}, got {n}")
        self._level = n
        self._apply_level(n)

    @abstractmethod
    def _apply_level(self, n: int) -> None:
        """Set what level ``n`` means (depth, time, selectivity, ...)."""

    @abstractmethod
    def search(self, board: Any, limit: Limit | None = None,
               on_info: InfoCallback | None = None) -> SearchResult:
        """Search ``board`` (not changed) within ``limit`` and return the best move.

        ``on_info`` receives an :class:`Info` at every finished iteration.
        """

    @abstractmethod
    def new_game(self) -> None:
        """Forget what was learnt in the previous game (tables, histories, trees)."""

    def stop(self) -> None:
        """Make the running search return its best move so far, at once (thread-safe)."""
        self.stop_signal.set()


class Player(Protocol):
    """Anything that plays games: a built-in engine with limits, or an outside engine
    driven through its protocol (``bitgames.<game>`` clients). Used by matches."""

    name: str

    def new_game(self) -> None: ...

    def play(self, board: Any, limit: Limit) -> SearchResult: ...

    def close(self) -> None: ...


def with_clock(own: Limit, match: Limit) -> Limit:
    """A player's own limit with the match's clock (remaining time, increment, moves to
    go) on top, when the match has one.

    >>> with_clock(Limit(depth=6), Limit(remaining=30.0, increment=0.5)).remaining
    30.0
    """
    if match.remaining is None:
        return own
    return replace(own, remaining=match.remaining, increment=match.increment,
                   moves_to_go=match.moves_to_go)


class EnginePlayer:
    """A :class:`Player` made of a built-in engine and a fixed limit.

    The match's clock, when it has one, replaces the limit's ``remaining``/``increment``.
    """

    def __init__(self, engine: Engine, limit: Limit | None = None, name: str = "") -> None:
        self.engine = engine
        self.limit = limit or Limit()
        self.name = name or f"{type(engine).__module__.split('.')[1]} level {engine.level}"

    def new_game(self) -> None:
        self.engine.new_game()

    def play(self, board: Any, limit: Limit) -> SearchResult:
        return self.engine.search(board, with_clock(self.limit, limit))

    def close(self) -> None:
        pass
