"""The draughts command line (run in-process through bitgames.cli.main)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bitgames.cli import main


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
    code, _, err = run(capsys, "match", "--a", "wizard")
    assert code == 2 and "wizard" in err


def test_analyze(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "analyze", "--fen", "W:Wa1,c3:Bd4,f6", "--depth", "4", "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and records[-1]["bestmove"] == "c3:e5:g7"
    assert all("pv" in r for r in records[:-1])


def test_match(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "match", "--a", "depth:2", "--b", "greedy", "--openings", "2",
                       "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(records) == 5 and records[-1]["games"] == 4


def test_match_against_an_outside_hub_engine(capsys: pytest.CaptureFixture[str]) -> None:
    # our own Hub mode as the outside engine, driven through HubClient, at its own level
    engine = f"cmd:{sys.executable} -m bitgames.cli draughts hub"
    code, out, _ = run(capsys, "match", "--a", engine, "--b", "greedy", "--variant",
                       "english", "--openings", "1", "--max-plies", "40", "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and records[-1]["games"] == 2
    assert all(r["plies"] > 2 for r in records[:-1])


def test_match_save_and_resume(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    save = tmp_path / "games.jsonl"
    argv = ["match", "--a", "depth:1", "--b", "greedy", "--openings", "2", "--save",
            str(save), "--json"]
    code, out, _ = run(capsys, *argv)
    full = json.loads(out.splitlines()[-1])
    lines = save.read_text().splitlines()
    assert code == 0 and len(lines) == 4
    save.write_text("\n".join(lines[:3]) + "\n")  # as if interrupted after 3 games
    code, _, err = run(capsys, *argv)
    assert code == 2 and "--resume" in err
    code, out, _ = run(capsys, *argv, "--resume")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(records) == 2 and records[-1]["games"] == 4
    assert len(save.read_text().splitlines()) == 4
    assert records[-1]["score"] == full["score"]


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


def interrupt(proc: subprocess.Popen[str], after: float) -> dict[str, object]:
    """Ctrl-C ``proc`` after ``after`` seconds: it must exit with 130 within 3 s; its last
    JSON record."""
    time.sleep(after)
    proc.send_signal(signal.SIGINT)
    sent = time.perf_counter()
    out, _ = proc.communicate(timeout=30)
    assert time.perf_counter() - sent < 3.0 and proc.returncode == 130
    record: dict[str, object] = json.loads(out.splitlines()[-1])
    assert record["stopped"] is True
    return record


@pytest.mark.parametrize("divide", [False, True])
def test_perft_stops_on_ctrl_c(divide: bool) -> None:
    argv = [sys.executable, "-m", "bitgames.cli", "draughts", "perft", "16", "--json"]
    proc = subprocess.Popen(argv + (["--divide"] if divide else []), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    for line in proc.stderr:  # compiling (first run only), then the count starts
        if "counting" in line:
            break
    record = interrupt(proc, 1.0)
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
    argv = [sys.executable, "-m", "bitgames.cli", "draughts", "analyze", "--depth", "60",
            "--json"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)
    assert proc.stdout is not None
    first = json.loads(proc.stdout.readline())  # depth 1 is done: the search runs
    assert first["depth"] == 1
    assert interrupt(proc, 0.5)["bestmove"] in {
        "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}
