"""Bad input is told before a cold cache compiles kernels (up to a minute for an engine):
a mistyped position, a bad file, a mistyped player of a match. Each command is run with
``ensure_warm`` recording the groups it is asked for instead: it must exit with status 2,
naming what is wrong, having asked for none."""

from __future__ import annotations

from pathlib import Path

import pytest

from bitgames.cli import main

BAD_FEN = "garbage"

CASES = [
    # (command, what the message must hold; {bad}: a file that is no .npz archive,
    # {sgf}: an SGF file that is cut short, {missing}: no file at all)
    (["othello", "analyze", "--weights", "{bad}", "--level", "1", "f5"], "{bad}: "),
    (["othello", "solve", "--ffo", "1", "--table-file", "{bad}"], "{bad}: "),
    (["go", "score", "{missing}"], "No such file or directory"),
    (["go", "score", "{sgf}"], "{sgf}: unterminated"),
    (["draughts", "perft", "3", "--fen", BAD_FEN], f"FEN {BAD_FEN!r}"),
    (["draughts", "analyze", "--fen", BAD_FEN], f"FEN {BAD_FEN!r}"),
    (["leiserchess", "perft", "3", "--fen", BAD_FEN], f"bad FEN {BAD_FEN!r}"),
    (["leiserchess", "search", "--fen", BAD_FEN], f"bad FEN {BAD_FEN!r}"),
    *[([game, "match", *players, "--games", "2", "--scheduler", "serial"],
       "player 'level:abc': level needs a number, got 'abc'")
      for game in ("othello", "draughts", "go", "leiserchess")
      for players in (["level:abc", "level:1"], ["level:1", "level:abc"])],
]


@pytest.mark.parametrize("argv, said", CASES, ids=[" ".join(c[0][:2]) for c in CASES])
def test_bad_input_is_told_before_any_kernel_compiles(
        argv: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from bitgames.core import jit

    files = {"bad": tmp_path / "bad.npz", "sgf": tmp_path / "cut.sgf",
             "missing": tmp_path / "missing.sgf"}
    files["bad"].write_bytes(b"PK\x03\x04")
    files["sgf"].write_text("(;SZ[9];B[aa")
    asked: list[tuple[str, ...]] = []
    monkeypatch.setattr(jit, "ensure_warm",
                        lambda game, *groups, load=False: asked.append((game, *groups)))
    assert main([a.format(**files) for a in argv]) == 2
    err = capsys.readouterr().err
    assert said.format(**files) in err, err
    assert asked == []
