"""``othello book build`` killed with ``kill -9`` and run again: after the kill the file is
a whole book holding all but at most one save interval of the work reported done, no
temporary file is left (the next save removes a killed writer's), and the resumed build
ends with the book an uninterrupted build makes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bitgames.othello.book import Book

BUILD = ["--plies", "9", "--depth", "2", "--width", "2", "--json"]
#: the build saves every 100 new positions (or 10 s): a kill loses at most this many
SAVE_EVERY = 100


def _build(path: Path, kill_after: int | None = None) -> int:
    """Run the build; with ``kill_after``, ``kill -9`` it once it reported that many new
    positions. Returns the positions it reported added."""
    proc = subprocess.Popen([sys.executable, "-m", "bitgames.cli", "othello", "book", "build",
                             str(path), *BUILD], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    added = 0
    for line in proc.stdout:
        record = json.loads(line)
        added = record["added"]
        if kill_after is not None and added >= kill_after:
            proc.kill()
            break
    proc.stdout.close()
    code = proc.wait(timeout=300)
    assert code == (-9 if kill_after is not None else 0)
    return added


def _stray(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".tmp" in p.name or
                  p.name.startswith("tmp"))


def test_book_build_survives_kill_9(tmp_path: Path) -> None:
    whole = tmp_path / "whole" / "book.npz"
    whole.parent.mkdir()
    _build(whole)
    reference = Book.load(whole)
    # the build's size depends on the shipped weights (moves within 2 discs are followed)
    assert len(reference) >= 2 * SAVE_EVERY, "too small a build to kill half-way"
    path = tmp_path / "killed" / "book.npz"
    path.parent.mkdir()
    reported = _build(path, kill_after=len(reference) // 2)
    saved = len(Book.load(path))  # a whole book, whatever the moment of the kill
    assert reported - saved <= SAVE_EVERY
    _build(path)
    assert _stray(path.parent) == []
    assert Book.load(path).table == reference.table
