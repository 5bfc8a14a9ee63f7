"""``bitgames go score``: a bad file is told with its name (before any kernel compiles:
``tests/test_told_before_compiling.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bitgames.cli import main


def test_an_illegal_move_is_named_with_the_file(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.sgf"
    path.write_text("(;SZ[9];B[aa];W[aa])")
    assert main(["go", "score", str(path)]) == 2
    assert f"{path}: move 2: illegal move A9 for white" in capsys.readouterr().err
