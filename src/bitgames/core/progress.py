"""Progress of long jobs: a bar on stderr with the work done, the total and an ETA.

Every long command (perft, solve, book build, training, closebook, match) counts its work
through :func:`bar`, a `tqdm <https://tqdm.github.io>`_ bar on standard error, so standard
output keeps only results. The bar is drawn when standard error is a terminal; set
``BITGAMES_PROGRESS=1`` to draw it anyway (into a log file, say) or ``0`` to never draw it.
Results printed while a bar is drawn go above it (:func:`write`).

>>> with bar(3, "positions", enabled=False) as shown:  # a bar that is not drawn
...     _ = shown.update(1)
...     shown.total
3
"""

from __future__ import annotations

import os
import sys
from typing import Any

from tqdm import tqdm

#: the environment variable that turns the bars on (``1``) or off (``0``)
ENV = "BITGAMES_PROGRESS"


def enabled() -> bool:
    """Whether bars are drawn: ``$BITGAMES_PROGRESS`` if set, else whether standard error
    is a terminal."""
    setting = os.environ.get(ENV, "").strip()
    if setting:
        return setting not in ("0", "no", "false")
    return sys.stderr.isatty()


def bar(total: int | float | None, desc: str, unit: str = "it",
        enabled: bool | None = None, **options: Any) -> tqdm:
    """A progress bar on standard error for ``total`` steps of ``unit`` (``None``: the
    total is not known; the bar counts and gives the rate). Use it as a context manager,
    ``update(n)`` as work finishes and ``set_postfix_str`` for a running figure (an Elo,
    the nodes)."""
    on = globals()["enabled"]() if enabled is None else enabled
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, disable=not on,
                dynamic_ncols=True, mininterval=0.5, smoothing=0.1, **options)


def _drawing() -> bool:
    return any(not getattr(b, "disable", True) for b in getattr(tqdm, "_instances", ()))


def write(text: str) -> None:
    """Print ``text`` on standard output, above any bar being drawn."""
    if _drawing():
        tqdm.write(text, file=sys.stdout)
        sys.stdout.flush()
    else:
        print(text, flush=True)


def note(text: str) -> None:
    """Print ``text`` on standard error (a log line), above any bar being drawn."""
    if _drawing():
        tqdm.write(text, file=sys.stderr)
    else:
        print(text, file=sys.stderr, flush=True)
