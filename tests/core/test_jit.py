"""numba set-up: a cache keyed by the package's source, warm-up registry."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bitgames.core import jit


def test_each_game_caches_under_its_own_source_hash() -> None:
    from bitgames.othello import kernels

    othello = jit.cache_dir("othello")
    assert othello.name == f"numba-othello-{jit.source_hash('othello')}"
    assert othello != jit.cache_dir("go") and othello.parent == jit.cache_root()
    # the compiled kernels of the Othello package live there
    assert str(kernels.perft._cache._cache_path).startswith(str(othello))


def test_cache_root_follows_environment(tmp_path: Path) -> None:
    code = "from bitgames.core import jit; print(jit.cache_dir('go'))"
    env = dict(os.environ, BITGAMES_CACHE_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=60, check=True)
    assert Path(out.stdout.strip()).parent == tmp_path


def test_source_hash_changes_with_any_source_file(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    pkg = tmp_path / "pkg"
    (pkg / "game").mkdir(parents=True)
    (pkg / "a.py").write_text("x = 1\n")
    (pkg / "game" / "kernels.py").write_text("y = 2\n")
    (pkg / "core").mkdir()
    (pkg / "core" / "bits.py").write_text("z = 0\n")
    monkeypatch.setattr(jit, "PACKAGE_ROOT", pkg)
    jit.source_hash.cache_clear()
    try:
        before, core_before = jit.source_hash("game"), jit.source_hash()
        (pkg / "game" / "kernels.py").write_text("y = 3\n")
        jit.source_hash.cache_clear()
        assert jit.source_hash("game") != before
        assert jit.source_hash() == core_before  # core does not depend on a game
        (pkg / "core" / "bits.py").write_text("z = 1\n")
        jit.source_hash.cache_clear()
        assert jit.source_hash() != core_before
    finally:
        jit.source_hash.cache_clear()


def test_warm_marker(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("BITGAMES_CACHE_DIR", str(tmp_path))
    assert not jit.is_warm("othello")
    timings = jit.warmup(["othello"])
    assert timings["othello"] >= 0 and jit.is_warm("othello")
