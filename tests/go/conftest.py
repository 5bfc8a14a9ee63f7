"""Compile the Go kernels once per session (and mark the cache warm for subprocesses)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def _go_kernels_warm() -> None:
    from bitgames.core import jit

    jit.ensure_warm("go")
