"""The command line: fast help, one-line errors, --json output, file and stdin input."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from bitgames.cli import main

FFO1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bitgames.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=600, env=os.environ.copy())


def test_help_does_not_import_numba() -> None:
    """Every game's help and every command's help, without loading numba."""
    code = (
        "import sys\n"
        "from bitgames.cli import build_parser, installed_games\n"
        "parser = build_parser()\n"
        "games = parser._subparsers._group_actions[0].choices\n"
        "argvs = [['--help']]\n"
        "for game in installed_games():\n"
        "    argvs.append([game, '--help'])\n"
        "    commands = games[game]._subparsers._group_actions[0].choices\n"
        "    argvs += [[game, c, '--help'] for c in commands]\n"
        "for argv in argvs:\n"
        "    try:\n"
        "        parser.parse_args(argv)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "assert 'numba' not in sys.modules, 'numba imported by --help'\n"
        "print(len(argvs))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout.split()[-1]) >= 4


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["othello", "perft", "3", "--board", "XX X"], "64 squares"),
        (["othello", "solve", "--board", "Q" * 64 + " X"], "bad character"),
        (["othello", "solve"], "nothing to solve"),
        (["othello", "solve", "--ffo", "70-90"], "1-79"),
        (["othello", "solve", "/nonexistent/file.obf"], "No such file"),
        (["othello", "solve", "--ffo", "1", "--moves", "a1"], "a1 is not a legal move"),
        (["othello", "solve", "--ffo", "1", "--mode", "wld", "--window", "0,1"],
         "--window is for exact"),
    ],
)
def test_errors_are_one_line(argv: list[str], fragment: str) -> None:
    out = run(*argv)
    assert out.returncode == 2
    assert fragment in out.stderr
    assert "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_perft_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["othello", "perft", "6", "--json"]) == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert record["count"] == 8200 and record["convention"] == "edax"


def test_perft_divide(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["othello", "perft", "3", "--divide", "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.strip().splitlines()]
    assert sorted(r["move"] for r in lines[:-1]) == ["c4", "d3", "e6", "f5"]
    assert sum(r["count"] for r in lines[:-1]) == lines[-1]["count"] == 56


def test_solve_obf_from_stdin_json() -> None:
    out = run("othello", "solve", "-", "--json", stdin=f"{FFO1}; G8:+18; H1:+12;\n")
    assert out.returncode == 0, out.stderr
    records = [json.loads(x) for x in out.stdout.strip().splitlines()]
    first, total = records[0], records[-1]
    assert first["score"] == 18 and first["best_move"] == "g8" and first["matches"] is True
    assert set(first) >= {"score", "best_move", "pv", "nodes", "time", "empties"}
    assert total["total"] is True and total["matched"] == 1


def test_solve_ffo_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["othello", "solve", "--ffo", "2-3"]) == 0
    out = capsys.readouterr().out
    assert "#2: 14 empties, score +10, best a4" in out and "2/2 match" in out
    assert "a b c d e f g h" in out


def test_solve_every_move_in_a_window(capsys: pytest.CaptureFixture[str]) -> None:
    """FFO #1's published move scores: g8 +18, h1 +12, h7 and a2 +6, a3 +4, b1 -4, a4 -22,
    g2 -24. In the window 5..7 a move scoring +6 is found exactly, the others bounded."""
    assert main(["othello", "solve", "--ffo", "1", "--moves", "all", "--window", "5,7",
                 "--json"]) == 0
    records = [json.loads(x) for x in capsys.readouterr().out.strip().splitlines()]
    moves = {r["name"].split()[1]: r for r in records[:-1]}
    assert sorted(moves) == ["a2", "a3", "a4", "b1", "g2", "g8", "h1", "h7"]
    assert all(r["matches"] and r["pv"][0] == move for move, r in moves.items())
    assert {m for m, r in moves.items() if r["bound"] == "exact"} == {"h7", "a2"}
    assert moves["h7"]["score"] == 6
    assert {m for m, r in moves.items() if r["bound"] == "lower"} == {"g8", "h1"}
    assert all(7 <= moves[m]["score"] for m in ("g8", "h1"))
    assert all(moves[m]["bound"] == "upper" and moves[m]["score"] <= 5
               for m in ("a3", "b1", "a4", "g2"))
    assert records[-1]["matched"] == records[-1]["checked"] == 8


def test_solve_on_two_threads(capsys: pytest.CaptureFixture[str]) -> None:
    # FFO #26-#27 have 20 empties: the solve splits between the threads
    assert main(["othello", "solve", "--ffo", "26-27", "--threads", "2", "--quiet"]) == 0
    assert "2/2 match" in capsys.readouterr().out


def test_solve_mismatch_exit_status(tmp_path: pytest.TempPathFactory) -> None:
    path = os.path.join(str(tmp_path), "wrong.obf")
    with open(path, "w") as fh:
        fh.write(f"{FFO1}; G8:+20;\n")
    out = run("othello", "solve", path, "--quiet")
    assert out.returncode == 1
    assert "MISMATCH" in out.stdout


def test_warmup_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["warmup", "othello", "--json"]) == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[0])
    assert record["game"] == "othello" and record["seconds"] >= 0


def test_every_help_text_reads_as_plain_text() -> None:
    """No reST markup, doubled percent signs or empty help in any command's --help."""
    import argparse

    from bitgames.cli import build_parser

    def walk(parser: argparse.ArgumentParser, name: str) -> None:
        text = parser.format_help()
        for mark in ("``", ":func:", ":class:", ":meth:", "%%"):
            assert mark not in text, f"{name} --help shows {mark!r}"
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub_name, sub in action.choices.items():
                    walk(sub, f"{name} {sub_name}")

    walk(build_parser(), "bitgames")


def test_every_command_in_the_readme_parses() -> None:
    """Each ``bitgames ...`` command of the README's shell examples is accepted by the
    parser as written (no placeholders), and every file it names is in the repository."""
    import re
    import shlex
    from pathlib import Path

    from bitgames.cli import build_parser

    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text()
    blocks = re.findall(r"```bash\n(.*?)```", readme, flags=re.S)
    commands = []
    for block in blocks:
        for line in block.replace("\\\n", " ").splitlines():
            line = line.split(" #", 1)[0]
            for part in re.split(r"&&|\|", line):
                words = shlex.split(part)
                if words[:1] == ["bitgames"]:
                    commands.append(words[1:])
    assert len(commands) > 20
    parser = build_parser()
    for argv in commands:
        try:
            parser.parse_args(argv)
        except SystemExit as exc:  # --help exits 0; anything else is a broken example
            assert exc.code == 0 and "--help" in argv, f"README: bitgames {shlex.join(argv)}"
        for word in argv:
            if word.startswith("examples/"):
                assert (root / word).exists(), word
