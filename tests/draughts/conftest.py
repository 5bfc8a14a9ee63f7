"""Shared fixtures: warm the draughts kernels once per session."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def _warm() -> None:
    from bitgames.core import jit

    jit.warmup(["draughts"])
