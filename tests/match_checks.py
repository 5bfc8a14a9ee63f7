"""Checks every game's ``match`` tests share."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

import pytest

from bitgames.cli import main
from tests.commands import interrupt, started


def json_lines(text: str) -> list[dict[str, Any]]:
    """The JSON objects of a command's ``--json`` output, one per line."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def check_resume_after_a_kill(argv: list[str], save: Path,
                              capsys: pytest.CaptureFixture[str]) -> None:
    """A 4-game match saved in ``save`` is cut short as a kill would leave it (game 3's
    line half written): ``--resume`` plays games 3 and 4 only."""
    lines = save.read_text().splitlines()
    assert len(lines) == 5 and "match" in json.loads(lines[0])
    save.write_text("\n".join(lines[:3]) + "\n" + lines[3][:20])
    assert main([*argv, "--resume"]) == 0
    again = json_lines(capsys.readouterr().out)
    assert [g["game"] for g in again[:-1]] == [3, 4] and again[-1]["games"] == 4


def check_ctrl_c_keeps_the_games(argv: list[str], save: Path,
                                 signum: signal.Signals = signal.SIGINT,
                                 within: float = 5.0, group: bool = False) -> None:
    """``bitgames`` with ``argv`` (a long match saved in ``save``, ``--json``) gets SIGINT
    (or ``signum``) after its first game: it exits 130 within ``within`` seconds, says so,
    and that game is saved. With ``group``, the signal goes to its whole process group, as a
    terminal's Ctrl-C does (the workers and the outside engines get it too): no game in
    progress may be saved as a player's failure."""
    with started(argv, group=group) as proc:
        assert proc.stdout is not None
        # the first game done (with several workers, not always game 1)
        first = json.loads(proc.stdout.readline())["game"]
        end = interrupt(proc, signum, group=group)
    assert end.code == 130, end.err
    assert end.seconds < within
    assert json.loads(end.out.splitlines()[-1])["stopped"] == "interrupted"
    saved = save.read_text().splitlines()
    assert len(saved) >= 2 and first in [json.loads(line)["number"] for line in saved[1:]]
    reasons = [json.loads(line)["reason"] for line in saved[1:]]
    assert not [r for r in reasons if "failed" in r or "illegal" in r], reasons
