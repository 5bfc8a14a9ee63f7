"""Lazy re-exports for game packages.

A game package re-exports its main names (``from bitgames.go import Board``) without
importing its modules up front, so that building the command line's help never loads
numba. In the package's ``__init__``::

    __getattr__ = lazy_exports(__name__, {"Board": "board", "solve": "solver"})
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_exports(package: str, homes: dict[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports ``package.<homes[name]>`` on first access.

    >>> getattr_ = lazy_exports("bitgames.core", {"popcount": "bits"})
    >>> getattr_("popcount")(0b1011)
    3
    """

    def __getattr__(name: str) -> Any:
        if name in homes:
            return getattr(importlib.import_module(f"{package}.{homes[name]}"), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
