"""``bitgames go score``: a bad file is told, with its name, before any kernel compiles."""

from __future__ import annotations

from pathlib import Path

import pytest

from bitgames.cli import main


@pytest.mark.parametrize("text, said", [
    (None, "No such file or directory"),
    ("(;SZ[9];B[aa", "unterminated"),
    ("not a game", "not an SGF game"),
])
def test_a_bad_file_fails_before_the_kernels_load(
        text: str | None, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a cold cache takes the dead-stone playouts a minute to compile
    from bitgames.core import jit

    loaded: list[tuple[str, ...]] = []
    monkeypatch.setattr(jit, "ensure_warm",
                        lambda game, *groups, load=False: loaded.append(groups))
    path = tmp_path / "game.sgf"
    if text is not None:
        path.write_text(text)
    assert main(["go", "score", str(path)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and said in err, err
    assert loaded == []


def test_an_illegal_move_is_named_with_the_file(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.sgf"
    path.write_text("(;SZ[9];B[aa];W[aa])")
    assert main(["go", "score", str(path)]) == 2
    assert f"{path}: move 2: illegal move A9 for white" in capsys.readouterr().err
