"""Scripted GTP sessions (malformed lines included) through the session harness, the GTP
client against scripted and real engines (our own GTP mode as a subprocess), the
command-line GTP mode and match, and Ctrl-C."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bitgames.core.engine import Engine as CoreEngine
from bitgames.core.engine import Limit
from bitgames.core.errors import EngineError
from bitgames.core.protocol import MockTransport, SessionHarness
from bitgames.go import Board, Engine, GtpClient, Move
from bitgames.go.gtp import GtpSession
from tests.commands import Stopped, interrupt, started

from .test_board import PSK_SGF

OWN_GTP = [sys.executable, "-m", "bitgames.cli", "go", "gtp", "--playouts", "200"]


def session(script: str, **kwargs: object) -> list[str]:
    """The responses (without their blank line) to the lines of ``script``."""
    harness = SessionHarness(GtpSession, limit=Limit(nodes=300), **kwargs)
    for line in script.split("\n"):
        if not harness.session.running:
            break
        harness.send(line)
    lines = []
    while not harness.sink.lines.empty():
        lines.append(harness.sink.lines.get())
    text = "".join(line + "\n" for line in lines)
    assert text.endswith("\n\n") or text == ""
    return text[:-2].split("\n\n") if text else []


def test_ids_and_blank_lines_with_the_harness() -> None:
    harness = SessionHarness(GtpSession, limit=Limit(nodes=50))
    harness.converse([
        ("12 name", ["=12 bitgames", ""]),
        ("13 play b D4", ["=13 ", ""]),
        ("14 play w D4", ["?14 illegal move", ""]),
        ("15 frobnicate", ["?15 unknown command", ""]),
        ("16 genmove w", [re.compile(r"=16 ([A-HJ]\d|pass)"), ""]),
        ("17 quit", ["=17 ", ""]),
    ])
    assert not harness.session.running
    assert "genmove w:" in harness.log.getvalue()


def test_required_commands_and_errors() -> None:
    r = session(
        "1 protocol_version\n"
        "name\n"
        "2 known_command genmove\n"
        "known_command frobnicate\n"
        "boardsize 30\n"
        "boardsize nine\n"
        "boardsize 9\n"
        "clear_board\n"
        "komi 6.5\n"
        "komi six\n"
        "play b E5\n"
        "play w E5\n"
        "play b Z9\n"
        "play x E6\n"
        "play b\n"
        "play w I3\n"
        "foo bar\n"
        "3 undo\n"
        "undo\n"
    )
    assert r == [
        "=1 2",
        "= bitgames",
        "=2 true",
        "= false",
        "? unacceptable size",
        "? boardsize not an integer",
        "= ",
        "= ",
        "= ",
        "? komi not a float",
        "= ",
        "? illegal move",
        "? invalid color or coordinate",
        "? invalid color",
        "? invalid color or coordinate",
        "? invalid color or coordinate",
        "? unknown command",
        "=3 ",
        "? cannot undo",
    ]


def test_preprocessing_blank_comment_control_lines() -> None:
    r = session("\n   \n# only a comment\n\tname\t# trailing\nna\x01me\n7\n\x00\n")
    assert r == ["= bitgames", "= bitgames", "?7 missing command"]


def test_list_commands_has_the_required_set() -> None:
    (listing,) = session("list_commands\n")
    names = set(listing[2:].split("\n"))
    required = {
        "protocol_version", "name", "version", "known_command", "list_commands", "quit",
        "boardsize", "clear_board", "komi", "play", "genmove", "undo", "final_score",
        "final_status_list", "showboard", "time_settings", "time_left", "loadsgf",
        "kgs-genmove_cleanup", "is_legal", "all_legal", "list_stones", "captures", "printsgf",
    }  # fmt: skip
    assert required <= names


def test_quit_stops_reading() -> None:
    assert session("name\nquit\nname\n") == ["= bitgames", "= "]


def test_genmove_and_regression_helpers() -> None:
    r = session(
        "boardsize 5\nclear_board\n"
        "play b A2\nplay w A1\nplay b B1\n"  # black captures A1
        "captures b\ncaptures w\nlist_stones b\nlist_stones w\n"
        "is_legal w A1\nis_legal b A1\nis_legal w C3\n"
        "all_legal w\n"
        "genmove w\n"
        "showboard\n"
    )
    assert r[:7] == ["= ", "= ", "= ", "= ", "= ", "= 1", "= 0"]
    assert r[7] == "= B1 A2" and r[8] == "= "
    assert r[9:12] == ["= 0", "= 1", "= 1"]
    legal = r[12][2:].split()
    assert "A1" not in legal and "A2" not in legal and len(legal) == 22
    assert r[13][2:] in legal or r[13][2:] in ("pass", "resign")
    assert r[14].startswith("= \n   A B C D E")


def test_final_score_and_status_on_settled_board() -> None:
    # black wall on D, white wall on E: Tromp-Taylor and GNU Go both say W+16.5 (go.md §3.2)
    moves = "".join(f"play b D{r}\nplay w E{r}\n" for r in range(1, 10))
    r = session(
        "boardsize 9\nclear_board\nkomi 7.5\n" + moves + "final_score\n"
        "final_status_list dead\nfinal_status_list seki\nfinal_status_list bogus\n"
    )
    assert r[-4:] == ["= W+16.5", "= ", "= ", "? invalid status"]


def test_final_status_dead_stones() -> None:
    # a lone white stone inside black's solid area is dead
    rows = []
    for r in range(1, 10):
        rows.append(f"play b D{r}\nplay w E{r}\n")
    r = session(
        "boardsize 9\nclear_board\n" + "".join(rows) + "play w B5\n"
        "final_status_list dead\nfinal_score\n"
    )
    assert r[-2] == "= B5"
    assert r[-1] == "= W+16.5"


def test_loadsgf_printsgf_superko(tmp_path: Path) -> None:
    path = tmp_path / "psk.sgf"
    path.write_text(PSK_SGF)
    out = tmp_path / "out.sgf"
    r = session(
        f"loadsgf {path} 3\nis_legal w B9\nall_legal w\nprintsgf\nprintsgf {out}\n"
        f"loadsgf {tmp_path / 'missing.sgf'}\nloadsgf\n"
    )
    assert r[0] == "= white" and r[1] == "= 0"
    assert "B9" not in r[2][2:].split()
    assert r[3].startswith("= (;GM[1]") and "AB[" in r[3]
    assert r[4] == "= " and out.read_text().startswith("(;GM[1]")
    assert r[5] == "? cannot load file" and r[6] == "? missing filename"
    r = session(f"loadsgf {path} 3\nis_legal w B9\n", rules="situational")
    assert r[1] == "= 1"


def test_time_control_and_cleanup() -> None:
    r = session(
        "boardsize 9\nclear_board\ntime_settings 10 0 0\ntime_left w 0.5 0\ntime_left b x\n"
        "genmove w\ntime_settings 1\nplay b pass\nkgs-genmove_cleanup w\nreg_genmove b\n"
        "fixed_handicap 2\nclear_board\nfixed_handicap 2\nset_free_handicap A1\n"
    )
    assert r[:5] == ["= ", "= ", "= ", "= ", "? syntax error"]
    assert r[5].startswith("= ") and r[6] == "? syntax error" and r[7] == "= "
    assert r[8] != "= pass" and r[8].startswith("= ")  # cleanup never passes early
    assert r[9].startswith("= ")
    assert r[10] == "? board not empty"
    assert r[12] == "= C3 G7" and r[13] == "? board not empty"


def test_cli_gtp_mode_prints_only_protocol() -> None:
    proc = subprocess.run(
        OWN_GTP,
        input="protocol_version\nboardsize 9\nclear_board\ngenmove b\nbogus\nquit\n",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0
    parts = proc.stdout.split("\n\n")
    assert parts[0] == "= 2" and parts[3].startswith("= ") and parts[4] == "? unknown command"
    assert proc.stdout.endswith("= \n\n")
    assert "genmove b:" in proc.stderr


def test_client_with_a_scripted_engine() -> None:
    mock = MockTransport()
    mock.expect("name", ["= Scripted", ""])
    client = GtpClient(mock)
    assert client.name == "Scripted"
    board = Board(size=9, komi=6.5, moves="E5 pass")
    for line in ("boardsize 9", "clear_board", "komi 6.5", "play b E5", "play w pass"):
        mock.expect(line, ["= ", ""])
    mock.expect("time_settings 0 2 1", ["= ", ""])
    mock.expect("genmove b", ["", "=", ""])  # a blank line before a response is skipped
    with pytest.raises(EngineError, match="answered genmove with ''"):
        client.play(board, Limit(time=2.0))
    # the engine's own move is remembered: only the new moves are sent
    board.push("D4")
    mock.expect("play b D4", ["= ", ""])
    mock.expect("genmove w", ["= c3", ""])
    result = client.play(board, Limit(nodes=100))
    assert result.move == Move.from_gtp("C3")
    board.push(result.move)
    board.push("D5")
    mock.expect("play b D5", ["= ", ""])
    mock.expect("genmove w", ["=7 resign", ""])
    assert client.play(board, Limit()).move == Move.RESIGN
    # another game: everything again; a clock goes as time_settings + time_left
    client.new_game()
    for line in ("boardsize 9", "clear_board", "komi 7.5"):
        mock.expect(line, ["= ", ""])
    mock.expect("time_settings 30 0 0", ["= ", ""])
    mock.expect("time_left b 30 0", ["? not supported", ""])  # refusals of time are fine
    mock.expect("genmove b", ["? illegal", ""])
    with pytest.raises(EngineError, match="refused 'genmove b': illegal"):
        client.play(Board(), Limit(remaining=30.0))
    mock.expect("quit", ["= ", ""])
    client.close()
    mock.assert_done()


def test_client_rejects_a_bad_reply() -> None:
    mock = MockTransport()
    mock.expect("name", ["hello", ""])
    with pytest.raises(ValueError, match="not '=' or '\\?'"):
        GtpClient(mock)


def test_client_against_our_own_gtp_mode() -> None:
    """A game between our engine and our GTP mode in another process, refereed here."""
    engine: CoreEngine = Engine(seed=3)
    board = Board(size=7, komi=9.5)
    with GtpClient.start(OWN_GTP) as client:
        assert client.name == "bitgames"
        while not board.is_game_over() and len(board.move_stack) < 40:
            if board.turn:
                move = client.play(board, Limit()).move
            else:
                move = engine.search(board, Limit(nodes=300)).move
            board.push(move)  # refereed: an illegal move would raise here
        stones = client.command("list_stones white").split()
        assert sorted(stones) == sorted(board.vertex(p) for p in board.stones(True))
        assert client.command("showboard").splitlines()[0].split() == list("ABCDEFG")


def test_close_kills_an_engine_that_never_answered() -> None:
    """A command whose answer never came (Ctrl-C, a timeout): close() does not wait for
    the engine to finish it."""
    script = "import time; print('= x', flush=True); print(flush=True); time.sleep(60)"
    client = GtpClient.start([sys.executable, "-c", script], timeout=2.0)
    assert client.name == "x"
    with pytest.raises(EngineError, match="did not answer within 0.5 s"):
        client.request("genmove b", timeout=0.5)
    start = time.perf_counter()
    client.close()
    assert time.perf_counter() - start < 1.0


def _interrupt(argv: list[str], after: float) -> Stopped:
    """Run ``bitgames argv``, send SIGINT after ``after`` seconds; it must exit with 130
    within a few seconds."""
    with started(argv) as proc:
        time.sleep(after)
        end = interrupt(proc, timeout=10)
    assert end.seconds < 3.0
    assert end.code == 130, end.err
    return end


def test_ctrl_c_stops_bench() -> None:
    done = _interrupt(["go", "bench", "--size", "19", "--playouts", "100000000"], 5.0)
    if "stopped before the first timed playout on 19x19" in done.err:
        # a loaded machine was still loading the kernels: nothing timed, nothing printed
        assert not done.out.strip()
        return
    line = done.out.strip().splitlines()[-1]
    assert line.startswith("19x19: ") and "playouts/s" in line
    assert re.search(r"stopped after \d+ of \d+ playouts on 19x19", done.err)


def test_loadsgf_in_a_session(tmp_path: Path) -> None:
    path = tmp_path / "psk.sgf"
    path.write_text(PSK_SGF)
    assert session(f"loadsgf {path}\nall_legal w\n")[0] == "= white"
