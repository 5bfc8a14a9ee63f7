"""numba set-up: a cache keyed by the package's source, warm-up registry."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bitgames.core import jit


def test_cache_dir_is_keyed_by_source_hash() -> None:
    assert jit.CACHE_DIR.name == f"numba-{jit.source_hash()}"
    import numba

    assert numba.config.CACHE_DIR == str(jit.CACHE_DIR)


def test_cache_root_follows_environment(tmp_path: Path) -> None:
    code = "from bitgames.core import jit; print(jit.CACHE_DIR)"
    env = dict(os.environ, BITGAMES_CACHE_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=60, check=True)
    assert Path(out.stdout.strip()).parent == tmp_path


def test_source_hash_changes_with_any_source_file(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    pkg = tmp_path / "pkg"
    (pkg / "game").mkdir(parents=True)
    (pkg / "a.py").write_text("x = 1\n")
    (pkg / "game" / "kernels.py").write_text("y = 2\n")
    monkeypatch.setattr(jit, "PACKAGE_ROOT", pkg)
    before = jit.source_hash()
    (pkg / "game" / "kernels.py").write_text("y = 3\n")
    assert jit.source_hash() != before


def test_warm_marker(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(jit, "CACHE_DIR", tmp_path / "numba-test")
    assert not jit.is_warm("othello")
    timings = jit.warmup(["othello"])
    assert timings["othello"] >= 0 and jit.is_warm("othello")
