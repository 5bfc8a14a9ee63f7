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

Kernel modules also register *warm-up* functions: small calls that compile every kernel
with the argument types used in production. ``bitgames warmup`` runs them all; the command
line runs a game's warm-ups once per cache (printing "compiling (first run only)") before
its first use.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.util
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterable
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
    ),
    "draughts": ("bitgames.draughts.kernels", "bitgames.draughts.search"),
    "go": ("bitgames.go.kernels", "bitgames.go.mcts"),
    "leiserchess": (
        "bitgames.leiserchess.kernels",
        "bitgames.leiserchess.eval",
        "bitgames.leiserchess.search",
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


_WARMUPS: dict[str, list[Callable[[], None]]] = {}


def register_warmup(game: str) -> Callable[[F], F]:
    """Decorator: register a function that compiles some kernels of ``game``."""

    def deco(fn: F) -> F:
        _WARMUPS.setdefault(game, []).append(fn)
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


def warmup(games: Iterable[str] | None = None) -> dict[str, float]:
    """Compile (or load from the cache) every kernel of ``games``; return seconds per game."""
    timings: dict[str, float] = {}
    for game in games if games is not None else available_games():
        start = time.perf_counter()
        for module in KERNEL_MODULES[game]:
            importlib.import_module(module)
        for fn in _WARMUPS.get(game, []):
            fn()
        marker = cache_dir(game) / "warm"
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
        timings[game] = time.perf_counter() - start
    return timings


def is_warm(game: str) -> bool:
    """True when ``game``'s kernels were compiled into the current cache."""
    return (cache_dir(game) / "warm").exists()


def ensure_warm(game: str) -> None:
    """Compile ``game``'s kernels if this cache has never seen them, saying so on stderr."""
    if is_warm(game) or os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return
    print(f"compiling {game} kernels (first run only)...", file=sys.stderr, flush=True)
    seconds = warmup([game])[game]
    print(f"compiled in {seconds:.1f} s", file=sys.stderr, flush=True)


def clear_cache() -> list[Path]:
    """Remove every cached version (all games and hashes); return the directories removed."""
    root = cache_root()
    removed = []
    if root.is_dir():
        for path in root.glob("numba-*"):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed
