"""numba set-up: a cache keyed by the package's source, warm-up registry."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

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
    # one group compiled into an empty cache marks that group warm, not the whole game
    # (all of Othello's groups take a minute: the whole-game marker is checked with -m slow)
    monkeypatch.setenv("BITGAMES_CACHE_DIR", str(tmp_path))
    assert not jit.is_warm("othello", "rules")
    timings = jit.warmup(["othello"], ["rules"])
    assert timings["othello"] >= 0 and jit.is_warm("othello", "rules")
    assert not jit.is_warm("othello") and not jit.is_warm("othello", "solver")


@pytest.mark.slow
def test_warm_marker_of_a_whole_game(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("BITGAMES_CACHE_DIR", str(tmp_path))
    assert not jit.is_warm("othello")
    timings = jit.warmup(["othello"])
    assert timings["othello"] >= 0 and jit.is_warm("othello")


def test_every_game_has_groups_and_commands_name_existing_ones() -> None:
    """Each ``ensure_warm(game, *groups)`` in the sources names groups that exist."""
    import ast

    names = {game: jit.group_names(game) for game in jit.available_games()}
    for game, groups in names.items():
        assert "rules" in groups, (game, groups)
    calls = 0
    for path in sorted(jit.PACKAGE_ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and getattr(node.func, "attr",
                                                           getattr(node.func, "id", None))
                    == "ensure_warm"):
                continue
            args = [a.value for a in node.args if isinstance(a, ast.Constant)]
            if not args:  # a variable: checked where it is built
                continue
            game, needs = args[0], args[1:]
            calls += 1
            assert game in names, (path, game)
            assert set(needs) <= set(names[game]), (path, needs, names[game])
    assert calls >= 15


def test_solve_needs_neither_engine_nor_perft() -> None:
    import inspect

    from bitgames.othello import cli

    source = inspect.getsource(cli.cmd_solve)
    assert 'ensure_warm("othello", "rules", "solver")' in source


def test_ensure_warm_compiles_only_the_groups_asked(tmp_path: Path, monkeypatch,  # type: ignore[no-untyped-def]
                                                    capsys) -> None:
    monkeypatch.setenv("BITGAMES_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    monkeypatch.setitem(jit.KERNEL_MODULES, "fake", ())
    monkeypatch.setitem(jit._WARMUPS, "fake", {})
    ran: list[str] = []
    jit.register_warmup("fake", "rules")(lambda: ran.append("rules"))
    jit.register_warmup("fake", "solver")(lambda: ran.append("solver"))
    jit.register_warmup("fake", "engine")(lambda: ran.append("engine"))
    monkeypatch.setattr(jit, "source_hash", lambda game=None: "0" * 16)

    jit.ensure_warm("fake", "rules", "solver")
    assert ran == ["rules", "solver"]
    err = capsys.readouterr().err
    assert "compiling fake rules kernels (first run only) [1/2]" in err
    assert "compiling fake solver kernels (first run only) [2/2]" in err
    assert jit.is_warm("fake", "solver") and not jit.is_warm("fake", "engine")
    assert not jit.is_warm("fake")  # the whole game is not warm yet

    jit.ensure_warm("fake", "solver")  # warm: nothing printed, nothing run
    assert ran == ["rules", "solver"] and capsys.readouterr().err == ""

    jit.ensure_warm("fake")  # every group: only the cold one is compiled
    assert ran == ["rules", "solver", "engine"]
    assert "compiling fake engine kernels (first run only)..." in capsys.readouterr().err
    jit.warmup(["fake"])  # a full warm-up marks the whole game
    assert jit.is_warm("fake")
    try:
        jit.warmup(["fake"], ["nope"])
    except ValueError as exc:
        assert "nope" in str(exc)
    else:
        raise AssertionError("an unknown group must be refused")


def test_ctrl_c_during_a_compile_ends_it_as_ctrl_c(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # numba swallows a KeyboardInterrupt raised in its callbacks, then fails with an error
    # of its own: the command must still end as interrupted, not with that error
    import os
    import signal
    import time

    monkeypatch.setenv("BITGAMES_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    monkeypatch.setitem(jit.KERNEL_MODULES, "fake", ())
    monkeypatch.setitem(jit._WARMUPS, "fake", {})
    monkeypatch.setattr(jit, "source_hash", lambda game=None: "0" * 16)

    def compile_like_numba() -> None:
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.1)  # the handler runs here, inside the "callback"
        except KeyboardInterrupt:
            pass  # swallowed, as by a ctypes callback
        raise RuntimeError("no compiled object yet")

    def a_bug() -> None:
        raise RuntimeError("a bug")

    def _raw_object_cache_notify() -> None:  # named as llvmlite's callback from C
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.1)  # the handler runs here and holds the Ctrl-C till the compile ends
        finished.append(True)

    finished: list[bool] = []
    jit.register_warmup("fake", "rules")(compile_like_numba)
    jit.register_warmup("fake", "solver")(a_bug)
    jit.register_warmup("fake", "engine")(_raw_object_cache_notify)
    with pytest.raises(KeyboardInterrupt):
        jit.ensure_warm("fake", "rules")
    assert not jit.is_warm("fake", "rules")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with pytest.raises(RuntimeError, match="a bug"):  # without a Ctrl-C, an error stays one
        jit.ensure_warm("fake", "solver")
    with pytest.raises(KeyboardInterrupt):
        jit.ensure_warm("fake", "engine")
    assert finished == [True]  # not interrupted inside the callback


@pytest.mark.slow
def test_parallel_warmup_from_an_empty_cache(tmp_path: Path) -> None:
    """``bitgames warmup --json`` reports every game and marks it warm (several minutes)."""
    import json

    env = dict(os.environ, BITGAMES_CACHE_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-m", "bitgames.cli", "warmup", "--json"], env=env,
                         capture_output=True, text=True, timeout=3600, check=True)
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert sorted(r["game"] for r in records) == sorted(jit.available_games())
    code = ("from bitgames.core import jit; "
            "print(all(jit.is_warm(g) for g in jit.available_games()))")
    check = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, timeout=120, check=True)
    assert check.stdout.strip() == "True"


def test_numba_honours_nrt_false_and_inline_always() -> None:
    """The two numba options the kernels rely on (see core/jit.py) still do what we say:
    a kernel compiled with ``_nrt=False`` cannot allocate, and a helper marked
    ``inline="always"`` leaves no call in its caller's code."""
    import numba
    import numpy as np
    import pytest

    def allocates(n: int) -> float:
        return float(np.zeros(n).sum())

    assert numba.njit(allocates)(3) == 0.0  # the control: with NRT it compiles
    with pytest.raises(numba.core.errors.TypingError):  # without it, np.zeros has no
        numba.njit(_nrt=False)(allocates)(3)  # implementation: it cannot allocate

    @numba.njit(_nrt=False)
    def no_allocation(a: np.ndarray) -> int:
        return a[0] + a[-1]

    assert no_allocation(np.arange(5)) == 4

    @numba.njit(inline="always")
    def helper_inlined(x: int) -> int:
        return x * 3 + 1

    @numba.njit(inline="never")
    def helper_called(x: int) -> int:
        return x * 3 + 1

    @numba.njit
    def caller_inlined(x: int) -> int:
        return helper_inlined(x) + helper_inlined(x + 1)

    @numba.njit
    def caller_called(x: int) -> int:
        return helper_called(x) + helper_called(x + 1)

    assert caller_inlined(2) == caller_called(2) == 17
    inlined_ir = next(iter(caller_inlined.inspect_llvm().values()))
    called_ir = next(iter(caller_called.inspect_llvm().values()))
    assert "helper_called" in called_ir  # the control: a real call is visible
    assert "helper_inlined" not in inlined_ir
