"""Checks every game's ``match`` tests share."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bitgames.cli import main


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
