"""Long jobs killed with ``kill -9`` and run again: training, table builds and matches.

Each job is killed in the middle of its work (and the Othello book build in
``tests/othello/test_book_kill.py``). After the kill its worker processes end within
seconds, every file it left is whole (no temporary file stays once the job has run
again), and the resumed job ends with exactly what an uninterrupted run makes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np


def descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (children, their children, ...), read from /proc."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    stat = fh.read()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _says(text: str) -> Callable[[str], bool]:
    """A test of a line: does it hold ``text``?"""
    return lambda line: text in line


def run_and_kill(argv: list[str], ready: Callable[[str], bool] | None = None,
                 stream: str = "stdout", after: float = 0.0) -> set[int]:
    """Run ``bitgames`` with ``argv``; ``kill -9`` it at the first line of ``stream`` for
    which ``ready`` is true, or ``after`` seconds. Returns its worker processes that are
    still alive 10 s later (none should be)."""
    env = {**os.environ, "BITGAMES_PROGRESS": "0"}
    proc = subprocess.Popen([sys.executable, "-m", "bitgames.cli", *argv], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if ready is None:
        time.sleep(after)
        assert proc.poll() is None, f"{argv} ended before the point of the kill"
    else:
        lines = proc.stdout if stream == "stdout" else proc.stderr
        assert lines is not None
        if not any(ready(line) for line in lines):
            raise AssertionError(f"{argv} ended before the point of the kill")
    workers = descendants(proc.pid)
    proc.kill()
    proc.communicate(timeout=60)
    assert proc.returncode == -9
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(p) for p in workers):
        time.sleep(0.1)
    return {p for p in workers if _alive(p)}


def run(argv: list[str]) -> str:
    proc = subprocess.run([sys.executable, "-m", "bitgames.cli", *argv], capture_output=True,
                          text=True, env={**os.environ, "BITGAMES_PROGRESS": "0"},
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def _hidden(folder: Path) -> list[str]:
    """Temporary files (``atomic_write`` names them ``.NAME...``) under ``folder``."""
    return sorted(str(p) for p in folder.rglob(".*") if p.is_file())


def test_training_killed_leaves_no_workers_and_resumes_identically(tmp_path: Path) -> None:
    train = ["othello", "train", "--games", "24", "--chunk", "4", "--workers", "2",
             "--solve-empties", "12", "--exact-empties", "14", "--generate-only"]
    run([*train, str(tmp_path / "whole")])
    killed = tmp_path / "killed"
    for chunks in ("games: chunk 2/", "games: chunk 4/"):
        assert run_and_kill([*train, str(killed)], _says(chunks),
                            stream="stderr") == set()
    run([*train, str(killed)])
    assert _hidden(killed) == []
    for part in ("games", "exact"):
        names = sorted(p.name for p in (tmp_path / "whole" / part).iterdir())
        assert names == sorted(p.name for p in (killed / part).iterdir()) and names
        for name in names:
            whole = dict(np.load(tmp_path / "whole" / part / name))
            again = dict(np.load(killed / part / name))
            assert whole.keys() == again.keys()
            assert all(np.array_equal(whole[k], again[k]) for k in whole), (part, name)


def test_endgame_table_build_killed_resumes_to_the_same_tables(tmp_path: Path) -> None:
    build = ["draughts", "egdb", "build", "--variant", "english", "--pieces", "3",
             "--workers", "2", "--json"]
    run([*build, "--dir", str(tmp_path / "whole")])
    killed = tmp_path / "killed"
    seen: list[str] = []

    def ready(line: str) -> bool:  # killed once two slices are done
        seen.append(line)
        return len(seen) >= 2

    assert run_and_kill([*build, "--dir", str(killed)], ready) == set()
    run([*build, "--dir", str(killed)])
    assert _hidden(killed) == []
    names = sorted(p.name for p in (tmp_path / "whole").iterdir())
    assert names == sorted(p.name for p in killed.iterdir()) and len(names) >= 10
    for name in names:
        with np.load(tmp_path / "whole" / name) as whole, np.load(killed / name) as again:
            assert np.array_equal(whole["values"], again["values"]), name


def test_closebook_build_killed_leaves_no_half_file(tmp_path: Path) -> None:
    from bitgames.leiserchess.closebook import Closebook

    path = tmp_path / "kings.npz"
    build = ["leiserchess", "closebook", "build", "--kings-only", "--out", str(path)]
    for delay in (0.2, 0.0):  # while starting, while solving
        assert (run_and_kill(build, after=delay) if delay else
                run_and_kill(build, _says("solving"), stream="stderr")) == set()
        assert not path.exists() or Closebook.load(path) is not None
    run(build)
    assert Closebook.load(path) is not None
    assert _hidden(tmp_path) == []


def test_match_killed_resumes_with_the_same_games(tmp_path: Path) -> None:
    match = ["draughts", "match", "level:1", "level:2", "--games", "8", "--workers", "2",
             "--json", "--seed", "5"]
    whole = [json.loads(x) for x in run([*match, "--save", str(tmp_path / "whole.jsonl")])
             .splitlines() if x.startswith("{")]
    save = tmp_path / "killed.jsonl"
    assert run_and_kill([*match, "--save", str(save)], _says('"game"')) == set()
    run([*match, "--save", str(save), "--resume"])

    def games(path: Path) -> dict[int, list[str]]:
        lines = [json.loads(x) for x in path.read_text().splitlines()[1:]]
        return {g["number"]: g["moves"] for g in lines}

    assert games(save) == games(tmp_path / "whole.jsonl")
    assert len(games(save)) == 8 and whole[-1]["games"] == 8
