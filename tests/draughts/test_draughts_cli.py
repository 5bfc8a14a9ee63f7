"""The draughts command line (run in-process through bitgames.cli.main)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bitgames.cli import main
from tests.commands import interrupt, started


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["draughts", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_perft_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "perft", "6", "--json")
    record = json.loads(out)
    assert code == 0 and record["count"] == 37986 and record["variant"] == "russian"


def test_perft_divide_english(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "perft", "5", "--variant", "english", "--divide", "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(rows) == 8
    assert sum(r["count"] for r in rows[:-1]) == rows[-1]["count"] == 7361
    assert {r["move"] for r in rows[:-1]} == {"9-13", "9-14", "10-14", "10-15", "11-15",
                                              "11-16", "12-16"}


def test_perft_fen_and_all_paths(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "perft", "1", "--fen", "W:WKf8:Bb4,e7", "--json")
    assert json.loads(out)["count"] == 1
    _, out, _ = run(capsys, "perft", "1", "--fen", "W:WKf8:Bb4,e7", "--all-paths", "--json")
    assert json.loads(out)["count"] == 2


def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "perft", "3", "--fen", "W:Wz9:Bh8")
    assert code == 2 and err.count("\n") == 1 and "z9" in err
    code, _, err = run(capsys, "match", "wizard", "level:1")
    assert code == 2 and "wizard" in err
    code, _, err = run(capsys, "match", "level:1", "level:1,hash:big", "--games", "1",
                       "--scheduler", "serial")
    assert code == 2 and "hash:big" in err


def test_analyze(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "analyze", "--fen", "W:Wa1,c3:Bd4,f6", "--depth", "4", "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and records[-1]["bestmove"] == "c3:e5:g7"
    assert all("pv" in r for r in records[:-1])


HUB = f'cmd:"{sys.executable} -m bitgames.cli draughts hub"'


def test_match_against_our_hub_mode(capsys: pytest.CaptureFixture[str],
                                    tmp_path: Path) -> None:
    # the built-in engine against our own Hub mode as an outside engine (at its level 1)
    save, pdn = tmp_path / "games.jsonl", tmp_path / "games.pdn"
    argv = ["match", "level:2,depth:2", HUB, "--games", "2", "--variant", "english",
            "--max-plies", "40", "--scheduler", "serial", "--save", str(save),
            "--records", str(pdn), "--json"]
    code, out, _ = run(capsys, *argv)
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(records) == 3 and records[-1]["games"] == 2
    games = records[:2]
    assert {g["a_first"] for g in games} == {True, False}
    assert all(g["plies"] > 4 and g["result"] in ("1-0", "0-1", "1/2-1/2") for g in games)
    # the records file holds both games in PDN: the same moves and results, read back
    from bitgames.draughts.pdn import RESULTS, read_games

    pdn_games = list(read_games(pdn.read_text()))
    assert len(pdn_games) == 2
    for record, game in zip(sorted(games, key=lambda g: g["game"]), pdn_games, strict=True):
        assert [str(m) for m in game.board.move_stack] == record["moves"]
        assert game.result == RESULTS["english"][record["result"]]
        assert game.tags["GameType"] == "21"
        a_white = record["a_first"] is False  # English: Black moves first
        assert (game.tags["White" if a_white else "Black"]) == "level:2,depth:2"
    # resume after the first game: only the second one is played again
    lines = save.read_text().splitlines()
    assert len(lines) == 3 and "match" in json.loads(lines[0])
    save.write_text("\n".join(lines[:2]) + "\n")
    code, out, _ = run(capsys, *argv, "--resume")
    again = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(again) == 2 and again[0]["game"] == 2
    assert again[-1]["games"] == 2 and len(save.read_text().splitlines()) == 3


def test_match_stops_on_ctrl_c(tmp_path: Path) -> None:
    save = tmp_path / "games.jsonl"
    argv = ["draughts", "match", "depth:1", "depth:2", "--games", "200", "--scheduler",
            "serial", "--save", str(save), "--json"]
    with started(argv, stderr=subprocess.DEVNULL) as proc:
        assert proc.stdout is not None
        first = json.loads(proc.stdout.readline())  # one game finished: the match runs
        assert first["game"] == 1
        end = interrupt(proc)
    assert end.seconds < 5.0 and end.code == 130
    summary = json.loads(end.out.splitlines()[-1])
    assert summary["stopped"] == "interrupted" and 1 <= summary["games"] < 200
    assert len(save.read_text().splitlines()) == 1 + summary["games"]  # header + each game


def test_play_scripted() -> None:
    proc = subprocess.run([sys.executable, "-m", "bitgames.cli", "draughts", "play", "--level",
                           "1"], input="x9-y8\nc3-d4\nundo\nc3-d4\nquit\n",
                          capture_output=True, text=True, timeout=300)
    out = proc.stdout
    assert proc.returncode == 0 and "your move (a3-b4 c3-b4 c3-d4" in out
    assert "move 'x9-y8': 'y8' is not a square" in out and out.count("engine plays") == 2


def test_help_does_not_import_numba() -> None:
    code = ("import sys; from bitgames.cli import build_parser; build_parser(); "
            "print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "False"


def ctrl_c(proc: subprocess.Popen[str], after: float) -> dict[str, object]:
    """Ctrl-C ``proc`` after ``after`` seconds: it must exit with 130 within 3 s; its last
    JSON record."""
    time.sleep(after)
    end = interrupt(proc)
    assert end.seconds < 3.0 and end.code == 130
    record: dict[str, object] = json.loads(end.out.splitlines()[-1])
    assert record["stopped"] is True
    return record


@pytest.mark.parametrize("divide", [False, True])
def test_perft_stops_on_ctrl_c(divide: bool) -> None:
    argv = ["draughts", "perft", "16", "--json"]
    with started(argv + (["--divide"] if divide else [])) as proc:
        assert proc.stderr is not None
        for line in proc.stderr:  # compiling (first run only), then the count starts
            if "counting" in line:
                break
        record = ctrl_c(proc, 1.0)
    assert isinstance(record["count"], int) and record["count"] >= 0  # 0: still loading


def test_stop_flag_keeps_counts_identical() -> None:
    import numpy as np

    from bitgames.draughts import kernels as K

    w, b, k, side = K.start_position(K.RUSSIAN)
    assert K.perft(w, b, k, side, 7, K.RUSSIAN, stop=np.zeros(1, np.int64)) == 190_146  # published
    assert K.perft(w, b, k, side, 7, K.RUSSIAN, stop=np.ones(1, np.int64)) == 0
    assert K.divide(w, b, k, side, 5, K.RUSSIAN, stop=np.ones(1, np.int64)) == []
    # raised from another thread during a long count: the leaves so far, at once
    flag = np.zeros(1, np.int64)
    threading.Timer(0.5, lambda: flag.__setitem__(0, 1)).start()
    start = time.perf_counter()
    partial = K.perft(w, b, k, side, 16, K.RUSSIAN, stop=flag)
    assert time.perf_counter() - start < 3.0 and partial > 0


def test_analyze_stops_on_ctrl_c() -> None:
    argv = ["draughts", "analyze", "--depth", "60", "--json"]
    with started(argv, stderr=subprocess.DEVNULL) as proc:
        assert proc.stdout is not None
        first = json.loads(proc.stdout.readline())  # depth 1 is done: the search runs
        assert first["depth"] == 1
        assert ctrl_c(proc, 0.5)["bestmove"] in {
            "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}
