"""Scripted GTP sessions, malformed lines included, and the command-line GTP mode."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from bitgames.go.gtp import GtpEngine

from .test_board import PSK_SGF


def session(script: str, **kwargs: object) -> list[str]:
    out = io.StringIO()
    engine = GtpEngine(playouts=300, out=out, log=io.StringIO(), **kwargs)  # type: ignore[arg-type]
    engine.run(io.StringIO(script))
    text = out.getvalue()
    assert text.endswith("\n\n") or text == ""
    return text[:-2].split("\n\n") if text else []


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
    env = dict(os.environ)
    proc = subprocess.run(
        [sys.executable, "-m", "bitgames.cli", "go", "gtp", "--playouts", "200"],
        input="protocol_version\nboardsize 9\nclear_board\ngenmove b\nbogus\nquit\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0
    parts = proc.stdout.split("\n\n")
    assert parts[0] == "= 2" and parts[3].startswith("= ") and parts[4] == "? unknown command"
    assert proc.stdout.endswith("= \n\n")
    assert "genmove b:" in proc.stderr
