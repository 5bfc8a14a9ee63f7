"""numba set-up shared by every kernel module.

Every kernel module imports :func:`njit` from here instead of from numba. numba's
on-disk cache only notices edits to the file of the cached function itself, not to the
helpers it calls in other files; so :func:`njit` points each function's cache at a
directory keyed by a hash of the sources it can depend on — ``core/`` plus the function's
own game package (``othello/``, ``go/``, ...). Editing any kernel, or a helper it calls,
changes the key and numba starts a fresh cache; editing one game leaves the others'
compiled code alone.

The cache root is ``$BITGAMES_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/bitgames`` (by
default ``~/.cache/bitgames``); inside it, ``numba-<game>-<hash>`` holds one version.

Kernel modules also register *warm-up* functions: small calls that compile kernels with
the argument types used in production, in named groups (``rules``, ``solver``, ``engine``,
...: :func:`register_warmup`). Each command of the command line asks for the groups it
needs (:func:`ensure_warm`), which are compiled once per cache with a line on stderr per
group ("compiling othello solver kernels (first run only)..."); ``bitgames warmup`` runs
every group of every game, one game per worker process (:func:`parallel_warmup`).
``benchmarks/compile_time.py`` shows what each kernel costs to compile.

Two options of ``numba.njit`` that kernels use on purpose, written here once:

``_nrt=False`` -- compile without numba's reference-counting runtime (NRT). A kernel that
    allocates nothing (no new arrays, no lists, no slicing that makes a view object) does
    not need it, and without it numba leaves out the incref/decref pairs on every array it
    passes around: the Go playout loop, the draughts search and the Othello solver run
    markedly faster (the figures are in docs/PERFORMANCE.md). A kernel compiled this way
    *cannot* allocate: the compile fails with an error about NRT, which is the check that
    keeps it honest. ``NamedTuple`` bundles of arrays are fine under it.

``inline="always"`` -- numba inlines the function into each caller at the level of its own
    IR, before LLVM sees it, so small helpers on the hottest paths (a flip, a legality test,
    a table probe) cost no call and are optimised with their caller's constants. The price
    is compile time: the helper's code is compiled again inside every caller, so it is
    kept for small functions called on every node or playout step, where measurements
    showed the gain (replacing it with plain calls cost Othello's search about 10 % and
    halved Go's playout speed; docs/PERFORMANCE.md, "First run and compile time").

``tests/core/test_jit.py`` fails if numba stops honouring either option.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import importlib.util
import os
import shutil
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

PACKAGE_ROOT = Path(__file__).resolve().parent.parent

#: Kernel modules of each game, imported by :func:`warmup` (each registers its warm-ups).
KERNEL_MODULES: dict[str, tuple[str, ...]] = {
    "othello": (
        "bitgames.othello.kernels",
        "bitgames.othello.solver",
        "bitgames.othello.eval",
        "bitgames.othello.search",
        "bitgames.othello.vector",
    ),
    "draughts": ("bitgames.draughts.kernels", "bitgames.draughts.search",
                 "bitgames.draughts.egdb", "bitgames.draughts.vector"),
    "go": ("bitgames.go.kernels", "bitgames.go.mcts", "bitgames.go.vector"),
    "leiserchess": (
        "bitgames.leiserchess.kernels",
        "bitgames.leiserchess.eval",
        "bitgames.leiserchess.search",
        "bitgames.leiserchess.vector",
    ),
}


@functools.cache
def source_hash(game: str | None = None) -> str:
    """A short hash of the ``.py`` files of ``core/`` and of ``game``'s package.

    >>> len(source_hash("othello")), source_hash("othello") != source_hash("go")
    (16, True)
    """
    digest = hashlib.sha256()
    for part in ("core",) if game is None else ("core", game):
        for path in sorted((PACKAGE_ROOT / part).rglob("*.py")):
            digest.update(str(path.relative_to(PACKAGE_ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_root() -> Path:
    """The directory that holds one numba cache per game and source version."""
    env = os.environ.get("BITGAMES_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "bitgames"


def data_root() -> Path:
    """The directory of what bitgames learns and builds for its user (a learned opening
    book, endgame tables): ``$BITGAMES_DATA_DIR``, else ``~/.local/share/bitgames``."""
    env = os.environ.get("BITGAMES_DATA_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg) / "bitgames"


def cache_dir(game: str | None = None) -> Path:
    """Where the compiled kernels of ``game`` (or of ``core`` alone) are cached."""
    return cache_root() / f"numba-{game or 'core'}-{source_hash(game)}"


def _game_of(module: str) -> str | None:
    """``"bitgames.go.kernels"`` -> ``"go"``; None outside the game packages."""
    parts = module.split(".")
    if len(parts) > 2 and parts[0] == "bitgames" and parts[1] in KERNEL_MODULES:
        return parts[1]
    return None


# numba reads NUMBA_CACHE_DIR when it is first imported: give it the core directory.
os.environ["NUMBA_CACHE_DIR"] = str(cache_dir())
import numba  # noqa: E402

F = TypeVar("F", bound=Callable[..., Any])


def njit(*args: Any, **kwargs: Any) -> Any:
    """``numba.njit`` with ``cache=True`` by default; use exactly like ``numba.njit``.

    The function's cache goes to :func:`cache_dir` of its game.
    """
    kwargs.setdefault("cache", True)

    def compile_(fn: F, signatures: tuple[Any, ...] = ()) -> F:
        # numba's cache locator reads config.CACHE_DIR when the function is decorated
        numba.config.CACHE_DIR = str(cache_dir(_game_of(fn.__module__)))  # type: ignore[attr-defined]
        return numba.njit(*signatures, **kwargs)(fn)

    if len(args) == 1 and callable(args[0]) and not isinstance(args[0], str):
        return compile_(args[0])
    return lambda fn: compile_(fn, args)


#: Warm-up functions of each game, by group: ``_WARMUPS[game][group]``.
_WARMUPS: dict[str, dict[str, list[Callable[[], None]]]] = {}

#: Held while kernels are imported and compiled: threads of one process (a web server's
#: first games) compile each group once, one after the other, and never see a game's
#: kernel modules half imported.
_WARM_LOCK = threading.RLock()

#: The default group of :func:`register_warmup`.
DEFAULT_GROUP = "rules"


def register_warmup(game: str, group: str = DEFAULT_GROUP) -> Callable[[F], F]:
    """Decorator: register a function that compiles some kernels of ``game``.

    ``group`` names what the kernels are for (``"rules"``, ``"solver"``, ``"engine"``,
    ...): a command compiles only the groups it needs (see :func:`ensure_warm`).
    """

    def deco(fn: F) -> F:
        funcs = _WARMUPS.setdefault(game, {}).setdefault(group, [])
        if all(f.__qualname__ != fn.__qualname__ or f.__module__ != fn.__module__
               for f in funcs):  # a module imported twice registers once
            funcs.append(fn)
        return fn

    return deco


def available_games() -> list[str]:
    """Games whose kernel modules are present in this installation."""
    games = []
    for game, modules in KERNEL_MODULES.items():
        if (PACKAGE_ROOT / game / "__init__.py").exists() and all(
            importlib.util.find_spec(m) is not None for m in modules
        ):
            games.append(game)
    return games


def _load(game: str) -> dict[str, list[Callable[[], None]]]:
    """Import ``game``'s kernel modules (which register their warm-ups); its groups."""
    if game not in KERNEL_MODULES:
        raise ValueError(f"unknown game {game!r}; known: {', '.join(KERNEL_MODULES)}")
    for module in KERNEL_MODULES[game]:
        importlib.import_module(module)
    return _WARMUPS.get(game, {})


def group_names(game: str) -> list[str]:
    """The warm-up groups of ``game``, in registration order (imports its kernel modules)."""
    return list(_load(game))


def _marker(game: str, group: str | None = None) -> Path:
    return cache_dir(game) / ("warm" if group is None else f"warm-{group}")


def warmup(
    games: Iterable[str] | None = None,
    groups: Iterable[str] | None = None,
    progress: Callable[[str, str, float], None] | None = None,
) -> dict[str, float]:
    """Compile (or load from the cache) the kernels of ``games``; return seconds per game.

    ``groups`` limits the work to those warm-up groups (default: every group, which also
    marks the whole game warm). ``progress(game, group, seconds)`` is called as each
    group is done.
    """
    wanted = None if groups is None else list(groups)
    with _WARM_LOCK:
        timings: dict[str, float] = {}
        for game in games if games is not None else available_games():
            start = time.perf_counter()
            registered = _load(game)
            if wanted is not None:
                unknown = [g for g in wanted if g not in registered]
                if unknown:
                    raise ValueError(f"{game} has no warm-up group {unknown[0]!r}; "
                                     f"groups: {', '.join(registered)}")
            for group, funcs in registered.items():
                if wanted is not None and group not in wanted:
                    continue
                t0 = time.perf_counter()
                for fn in funcs:
                    fn()
                marker = _marker(game, group)
                marker.parent.mkdir(parents=True, exist_ok=True)
                marker.touch()
                if progress is not None:
                    progress(game, group, time.perf_counter() - t0)
            if wanted is None or all(_marker(game, g).exists() for g in registered):
                _marker(game).touch()
            timings[game] = time.perf_counter() - start
        return timings


def is_warm(game: str, group: str | None = None) -> bool:
    """True when ``game``'s kernels (or one group of them) were compiled into this cache."""
    return _marker(game).exists() or (group is not None and _marker(game, group).exists())


@contextlib.contextmanager
def _ctrl_c_ends_a_compile() -> Iterator[None]:
    """A Ctrl-C during the block ends it as a Ctrl-C, whatever numba makes of it.

    numba's compiler calls back from C into Python (llvmlite's object-cache callbacks,
    ``_raw_object_cache_*``). A ``KeyboardInterrupt`` raised in such a callback is
    swallowed there (with an "Exception ignored" message), and the compile then fails
    with an error of its own ("no compiled object yet for ..."), which would end the
    command with a traceback. So a Ctrl-C that lands in a callback is held until the block
    ends, and any exception after a Ctrl-C becomes ``KeyboardInterrupt``. The handler in
    place before runs as usual otherwise. Outside the main thread this does nothing.
    """
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or previous is None:
        yield  # (None: a handler not set from Python, which cannot be put back)
        return
    pressed: list[int] = []
    held: list[int] = []

    def handler(signum: int, frame: Any) -> None:
        pressed.append(signum)
        caller = frame
        while caller is not None:
            if caller.f_code.co_name.startswith("_raw_object_cache"):
                held.append(signum)
                return
            caller = caller.f_back
        if callable(previous):
            previous(signum, frame)

    signal.signal(signal.SIGINT, handler)
    try:
        yield
    except Exception:
        if pressed:
            raise KeyboardInterrupt from None
        raise
    finally:
        signal.signal(signal.SIGINT, previous)
    if held and callable(previous):
        previous(signal.SIGINT, None)


def ensure_warm(game: str, *needs: str, load: bool = False) -> None:
    """Compile the kernels a command needs if this cache has never seen them, saying so.

    ``needs`` are warm-up groups of ``game`` (``ensure_warm("othello", "solver")``); with
    none, every group of the game. Each group still cold is compiled in turn with one
    line on stderr before and after it ("compiling othello solver kernels (first run
    only)..."); on a warm cache it only checks a marker file per group, and numba loads
    each kernel from the cache at its first call. With ``load`` the warm groups are
    loaded now (a fraction of a second): protocol modes do so at start-up, so that the
    first move of a clocked game does not pay for it.
    """
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return
    if not load and (_marker(game).exists()
                     or needs and all(_marker(game, g).exists() for g in needs)):
        return
    with _WARM_LOCK:  # another thread may have compiled them while this one waited
        groups = list(needs) or group_names(game)
        cold = [] if _marker(game).exists() else [g for g in groups
                                                  if not _marker(game, g).exists()]
        for i, group in enumerate(cold, 1):
            step = f" [{i}/{len(cold)}]" if len(cold) > 1 else ""
            print(f"compiling {game} {group} kernels (first run only){step}...",
                  file=sys.stderr, flush=True)
            start = time.perf_counter()
            with _ctrl_c_ends_a_compile():
                warmup([game], [group])
            print(f"  {game} {group}: compiled in {time.perf_counter() - start:.1f} s",
                  file=sys.stderr, flush=True)
        if load and (warm := [g for g in groups if g not in cold]):
            warmup([game], warm)


def _warm_task(game: str, queue: Any = None) -> tuple[str, None, float]:
    """One task of :func:`parallel_warmup` (module level: it runs in a worker process).

    Each finished group is put on ``queue`` (a manager's queue) for the parent to show.
    """
    start = time.perf_counter()

    def tell(game: str, group: str, seconds: float) -> None:
        if queue is not None:
            queue.put((game, group, seconds))

    warmup([game], progress=tell)
    return game, None, time.perf_counter() - start


def parallel_warmup(
    games: Iterable[str] | None = None,
    workers: int | None = None,
    progress: Callable[[str, str | None, float], None] | None = None,
) -> dict[str, float]:
    """:func:`warmup` with every game compiled in its own worker process.

    The slowest games go first so the pool stays busy. ``progress(game, group, seconds)``
    is called (in this process) as each group of a game is ready, then once more with
    ``group=None`` when the whole game is; returns seconds per game (in its worker).
    ``workers=1``, or a single game, compiles in this process.
    """
    from bitgames.core.parallel import default_workers, run_tasks

    todo = list(games if games is not None else available_games())
    todo.sort(key=lambda g: WARMUP_ORDER.index(g) if g in WARMUP_ORDER else len(WARMUP_ORDER))
    n = min(workers or default_workers(), len(todo))
    timings: dict[str, float] = {}
    if n <= 1:
        for game in todo:
            timings[game] = warmup([game], progress=progress)[game]
            if progress is not None:
                progress(game, None, timings[game])
        return timings

    import multiprocessing
    import threading

    manager = multiprocessing.get_context("spawn").Manager()
    try:
        queue = manager.Queue()

        def relay() -> None:
            while (item := queue.get()) is not None:
                if progress is not None:
                    progress(*item)

        thread = threading.Thread(target=relay, daemon=True)
        thread.start()
        try:
            for _, (game, _none, seconds) in run_tasks(
                    _warm_task, [(game, queue) for game in todo], "processes", n):
                timings[game] = seconds
                if progress is not None:
                    progress(game, None, seconds)
        finally:
            queue.put(None)
            thread.join(timeout=10)
    finally:
        manager.shutdown()
    return {g: timings[g] for g in todo}


#: Games in the order :func:`parallel_warmup` starts them: slowest to compile first.
WARMUP_ORDER = ("go", "othello", "leiserchess", "draughts")


def clear_cache() -> list[Path]:
    """Remove every cached version (all games and hashes); return the directories removed."""
    root = cache_root()
    removed = []
    if root.is_dir():
        for path in root.glob("numba-*"):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed
