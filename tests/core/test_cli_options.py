"""The shared command-line options: numbers are checked when parsed, the limit options mean
the same in every game."""

from __future__ import annotations

import argparse
import os

import pytest

from bitgames.cli import build_parser
from bitgames.core.cli import Integer, Number, limit_from_args
from bitgames.core.engine import Limit

# Each argv must be refused by the parser itself (exit status 2, argparse's message naming
# the option), before any kernel is loaded: numbers that are not plain ASCII, not finite,
# or out of range. Several are the cases that once ended in a traceback or a hang.
BAD = [
    (["othello", "perft", "0"], "argument depth: must be 1..60, got 0"),
    (["othello", "perft", "99999999999999999999999"], "argument depth: must be 1..60"),
    (["othello", "perft", "²"], "argument depth: expected a whole number, got '²'"),
    (["othello", "solve", "--table-bits", "40"], "argument --table-bits: must be 4..30"),
    (["othello", "analyze", "f5", "--mistake", "nan"], "argument --mistake: expected a finite"),
    (["othello", "play", "--level", "21"], "argument --level: must be 1..20, got 21"),
    (["othello", "play", "--movetime", "0"], "argument --movetime: must be more than 0"),
    (["draughts", "analyze", "--level", "٣"], "argument --level: expected a whole number"),
    (["draughts", "analyze", "--nodes", "-5"],
     "argument --nodes: must be 1..1000000000000, got -5"),
    (["draughts", "perft", "-1"], "argument depth: must be 0..40, got -1"),
    (["go", "gtp", "--seconds", "nan"],
     "argument --movetime/--seconds: expected a finite number, got 'nan'"),
    (["go", "play", "--size", "30"], "argument --size: must be 2..25, got 30"),
    (["go", "play", "--komi", "inf"], "argument --komi: expected a finite number"),
    (["leiserchess", "search", "--time", "inf"], "argument --movetime/--time: expected a finite"),
    (["leiserchess", "search", "--time", "1e30"], "argument --movetime/--time: must be at most"),
    (["leiserchess", "search", "--time", "-1"], "argument --movetime/--time: must be more than 0"),
    (["leiserchess", "search", "--depth", "-1"], "argument --depth: must be 1..255, got -1"),
    (["leiserchess", "perft", "0"], "argument depth: must be 1..40, got 0"),
    (["leiserchess", "match", "depth:1", "depth:1", "--games", "0"],
     "argument --games: must be 1..1000000000, got 0"),
    (["leiserchess", "match", "a", "b", "--random-plies", "1000"],
     "argument --random-plies: must be 0..100, got 1000"),
    (["othello", "match", "a", "b", "--max-plies", "-1"],
     "argument --max-plies: must be 1..1000000000, got -1"),
]


@pytest.mark.parametrize("argv, message", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_numbers_are_refused_when_parsed(argv: list[str], message: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        build_parser().parse_args(argv)
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("game, command", [("othello", "play"), ("othello", "analyze"),
                                           ("draughts", "play"), ("draughts", "analyze"),
                                           ("leiserchess", "play"), ("leiserchess", "search")])
def test_every_engine_command_takes_the_same_limits(game: str, command: str) -> None:
    extra = ["f5"] if command == "analyze" and game == "othello" else []
    args = build_parser().parse_args([game, command, *extra, "--level", "3", "--depth", "4",
                                      "--nodes", "1000", "--movetime", "2.5"])
    assert args.level == 3
    assert limit_from_args(args) == Limit(depth=4, nodes=1000, time=2.5)
    args = build_parser().parse_args([game, command, *extra])
    assert limit_from_args(args).is_empty()  # no limit: the level decides


@pytest.mark.parametrize("argv", [["othello", "play"], ["othello", "analyze", "f5"],
                                  ["othello", "nboard"], ["draughts", "play"],
                                  ["draughts", "analyze"], ["draughts", "hub"],
                                  ["go", "gtp"], ["go", "play"], ["leiserchess", "play"],
                                  ["leiserchess", "search"], ["leiserchess", "uci"],
                                  ["othello", "solve"]])
def test_every_engine_mode_takes_threads(argv: list[str],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    cores = len(os.sched_getaffinity(0))
    assert build_parser().parse_args(argv).threads == cores  # every core by default
    assert build_parser().parse_args([*argv, "--threads", "2"]).threads == 2
    with pytest.raises(SystemExit):
        build_parser().parse_args([*argv, "--threads", "0"])
    assert "argument --threads: must be 1..1024, got 0" in capsys.readouterr().err


def test_go_limits_keep_their_older_names() -> None:
    args = build_parser().parse_args(["go", "gtp", "--playouts", "300", "--seconds", "1.5"])
    assert limit_from_args(args) == Limit(nodes=300, time=1.5)
    assert not hasattr(build_parser().parse_args(["go", "play"]), "depth")  # MCTS: no depth


def test_number_types_read_plain_numbers() -> None:
    assert Integer(0)("+7") == 7 and Integer()(" -3 ") == -3
    assert Number()("1e3") == 1000.0 and Number()(".5") == 0.5
    for text in ("1_000", "0x10", "", "1.5"):
        with pytest.raises(argparse.ArgumentTypeError):
            Integer()(text)
    for text in ("infinity", "-inf", "NaN", "1,5", "1e999"):
        with pytest.raises(argparse.ArgumentTypeError):
            Number()(text)
