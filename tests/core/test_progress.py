"""Progress bars of long jobs: on stderr, with the total, never on stdout."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bitgames.core import progress


def test_bars_follow_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(progress.ENV, "0")
    assert not progress.enabled() and progress.bar(5, "x").disable
    monkeypatch.setenv(progress.ENV, "1")
    assert progress.enabled()
    with progress.bar(5, "x") as shown:
        assert not shown.disable
        shown.update(2)
        assert (shown.n, shown.total) == (2, 5)


def test_results_go_above_a_bar(monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(progress.ENV, "1")
    with progress.bar(3, "work", "step") as shown:
        progress.write("a result")
        progress.note("a log line")
        shown.update(3)
    out, err = capsys.readouterr()
    assert out == "a result\n"  # nothing of the bar on stdout
    assert "a log line" in err and "3/3" in err


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, progress.ENV: "1"}
    return subprocess.run([sys.executable, "-m", "bitgames.cli", *argv], env=env,
                          capture_output=True, text=True, timeout=600)


# The bar counts the root moves of each start position: Othello 4, Russian draughts 7,
# Leiserchess 78 (perft 1). The counts are the published ones (docs/REFERENCES.md): Othello
# OEIS A124004, Russian draughts dctl / pydraughts, Leiserchess the course handout.
@pytest.mark.parametrize("argv, steps, count", [
    (("othello", "perft", "6"), "4/4", "8200"),
    (("draughts", "perft", "5"), "7/7", "7482"),
    (("leiserchess", "perft", "2"), "78/78", "6084"),
])
def test_perft_draws_a_bar_of_root_moves(argv: tuple[str, ...], steps: str, count: str) -> None:
    out = _run(*argv, "--json")
    assert out.returncode == 0, out.stderr
    assert f"perft {argv[2]}" in out.stderr and steps in out.stderr
    assert f'"count": {count},' in out.stdout  # the published counts, unchanged
    assert all(line.startswith("{") for line in out.stdout.splitlines())
