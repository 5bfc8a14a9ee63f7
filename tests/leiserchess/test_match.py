"""``bitgames leiserchess match`` on the shared runner, and the referee's PGN-like records."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bitgames.cli import main
from bitgames.core.errors import InvalidPositionError
from bitgames.leiserchess.board import Board
from bitgames.leiserchess.notation import START_FEN
from bitgames.leiserchess.pgn import MoveComment, read_games, write_game
from tests.commands import interrupt, started
from tests.match_checks import (
    check_ctrl_c_keeps_the_games,
    check_resume_after_a_kill,
    json_lines,
)

UCI = f'cmd:"{sys.executable} -m bitgames.cli leiserchess uci"'

# The first two games of a record written by the course's autotester (its layout: the
# tags, five move numbers to a line, {nanoseconds depth nodes} after each searched move,
# a book move with time 0), typed from the format, not from our writer.
REFEREE_RECORD = """\
[Event "test"]
[Site "Local"]
[Date "Mon 2016.11.21 at 09:12:03 PM EST"]
[Round "1"]
[White "ref"]
[Black "student"]
[Result "0-1"]

1. h4g5 {0 0 0} c5b6 {0 0 0} 2. g3R {931044 3 1722} b6c5 {1002711 3 2408}
3. g3L {book} a7R {5 1 12} 0-1

[Event "test"]
[Round "2"]
[White "student"]
[Black "ref"]
[Result "1/2-1/2"]

1. h0R {1 1 1} {White wins due to time forfeit} 1/2-1/2
"""


def test_the_referee_format_reads_back() -> None:
    first, second = read_games(REFEREE_RECORD)
    assert first.tags["White"] == "ref" and first.result == "0-1"
    assert [str(m) for m in first.moves] == ["h4g5", "c5b6", "g3R", "b6c5", "g3L", "a7R"]
    assert first.comments[2] == MoveComment(931044, 3, 1722)
    assert first.comments[4] is None and first.notes == ["book"]
    assert second.notes == ["White wins due to time forfeit"]
    assert second.result == "1/2-1/2" and len(second.moves) == 1


def test_a_long_game_from_a_fen_round_trips() -> None:
    board = Board(START_FEN[:-1] + "B")
    for _ in range(13):
        for move in board.legal_moves:  # the first move that keeps the game going
            board.push(move)
            if not board.is_game_over():
                break
            board.pop()
    text = write_game(board, 'say "hi"', "B", "*", round=7)
    assert '[White "say \\"hi\\""]' in text and '[SetUp "1"]' in text
    lines = text.split("\n\n")[1].splitlines()
    # Lavender moved first: "1... m"; five move numbers to a line
    assert lines[0].startswith("1... ") and lines[1].startswith("6. ")
    (game,) = read_games(text)
    assert game.tags["White"] == 'say "hi"' and game.moves == board.move_stack
    assert game.board == board


def test_a_bad_move_in_a_record_is_named() -> None:
    with pytest.raises(InvalidPositionError, match=r"game 1, move 2 \(h4g5\)"):
        read_games('[Round "1"]\n\n1. h4g5 h4g5 *\n')
    with pytest.raises(ValueError, match="result must be"):
        write_game(Board(), "A", "B", "2-0")



def test_match_against_our_uci_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                    ) -> None:
    save, records = tmp_path / "match.jsonl", tmp_path / "games.pgn"
    # B, the outside engine, is our own UCI mode in a subprocess
    argv = ["leiserchess", "match", "level:1,depth:1,hash:12", UCI, "--games", "4",
            "--max-plies", "30", "--scheduler", "serial", "--save", str(save), "--json"]
    assert main([*argv, "--records", str(records)]) == 0
    out = json_lines(capsys.readouterr().out)
    games, total = out[:-1], out[-1]
    assert [g["game"] for g in games] == [1, 2, 3, 4] and total["games"] == 4
    assert [g["a_first"] for g in games] == [True, False, True, False]
    # the records file holds the same games, each move legal when read back
    read = read_games(records.read_text())
    assert [[str(m) for m in r.moves] for r in read] == [g["moves"] for g in games]
    assert [r.result for r in read] == [g["result"] for g in games]
    names = [(r.tags["White"], r.tags["Black"]) for r in read]
    assert names[0][0] == "level:1,depth:1,hash:12" and names[1][1] == names[0][0]
    check_resume_after_a_kill(argv, save, capsys)


def test_match_options_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leiserchess", "match", "eval:pawns", "level:1", "--games", "2",
                 "--scheduler", "serial"]) == 2
    assert "eval must be full, course or material" in capsys.readouterr().err
    assert main(["leiserchess", "match", "use_nmm:2", "level:1", "--games", "2",
                 "--scheduler", "serial"]) == 2
    assert "use_nmm must be at most 1, got 2" in capsys.readouterr().err
    assert main(["leiserchess", "match", "nmm:0", "level:1", "--games", "2",
                 "--scheduler", "serial"]) == 2
    assert "unknown Leiserchess engine option(s) nmm" in capsys.readouterr().err


def test_an_engine_spec_sets_the_uci_options() -> None:
    from bitgames.leiserchess.cli import match_kit
    from bitgames.leiserchess.eval import OPTIONS, P_PAWN

    engine = match_kit().engine({"eval": "material", "use_nmm": "0", "hmb": "7"})
    assert engine.params[OPTIONS["use_nmm"][0]] == 0 and engine.params[OPTIONS["hmb"][0]] == 7
    assert engine.params[OPTIONS["pawnpin"][0]] == 0 and engine.params[P_PAWN] == 10000
    # eval:course plays the course reference's weights (the defaults are fitted ones)
    course = match_kit().engine({"eval": "course", "pbetween": "1"}).params
    assert course[OPTIONS["pcentral"][0]] == 500 and course[OPTIONS["kaggressive"][0]] == 26000
    assert course[OPTIONS["pbetween"][0]] == 1  # a named weight still overrides
    assert match_kit().engine({}).params[OPTIONS["pcentral"][0]] == OPTIONS["pcentral"][1]


def test_a_match_stops_on_ctrl_c_and_keeps_its_games(tmp_path: Path) -> None:
    save = tmp_path / "match.jsonl"
    check_ctrl_c_keeps_the_games(
        ["leiserchess", "match", "depth:1", "depth:2,eval:material",
         "--games", "200", "--scheduler", "serial", "--save", str(save), "--json"], save)


def test_ctrl_c_in_a_terminal_stops_a_parallel_match_and_forfeits_no_game(
        tmp_path: Path) -> None:
    # a terminal's Ctrl-C reaches the workers and the outside engines too: the engines
    # must not die before the match stops, or the games in progress would be saved as
    # their crashes (our own UCI mode, as the outside engine, exits on SIGINT)
    save = tmp_path / "match.jsonl"
    engine = f"{sys.executable} -m bitgames.cli leiserchess uci"
    check_ctrl_c_keeps_the_games(
        ["leiserchess", "match", "depth:2", f'cmd:"{engine}",depth:2', "--games", "200",
         "--workers", "2", "--save", str(save), "--json"], save, within=10.0, group=True)


def test_a_parallel_match_ends_its_games_in_progress_on_ctrl_c(tmp_path: Path) -> None:
    # SIGINT to the match process alone: the games in progress (a minute each at 0.5 s a
    # move) are ended at once, not waited for, and none of them is saved
    import json
    import time

    save = tmp_path / "match.jsonl"
    with started(["leiserchess", "match", "time:0.5", "time:0.5", "--games", "4",
                  "--workers", "2", "--save", str(save), "--json"]) as proc:
        time.sleep(8.0)  # the two workers have started and are playing
        end = interrupt(proc, timeout=120)
    assert end.code == 130, end.err
    assert end.seconds < 5.0
    assert json.loads(end.out.splitlines()[-1])["stopped"] == "interrupted"
    assert len(save.read_text().splitlines()) == 1  # the header: no game was finished


def test_a_terminated_match_keeps_its_games_and_stops_its_engines(tmp_path: Path) -> None:
    # SIGTERM (kill, process managers) stops a match as Ctrl-C does: the games played stay
    # saved and the outside engines are closed, even one that ignores the end of its input
    # (the course's reference player then spins for ever): here a shell that appends its
    # process id, runs our engine and then becomes a sleep. The signal can land while the
    # next game's shell has opened the file but not yet written to it, so every id written
    # is checked, after a pause long enough for a shell left running to write its own.
    import os
    import signal
    import time

    save, pid_file = tmp_path / "match.jsonl", tmp_path / "engine.pid"
    engine = (f"sh -c 'echo $$ >> {pid_file}; {sys.executable} -m bitgames.cli leiserchess "
              "uci; exec sleep 600'")
    check_ctrl_c_keeps_the_games(
        ["leiserchess", "match", "depth:1", f'cmd:"{engine}",depth:1', "--games", "200",
         "--scheduler", "serial", "--save", str(save), "--json"], save,
        signum=signal.SIGTERM, within=10.0)
    time.sleep(1.0)
    pids = [int(line) for line in pid_file.read_text().split()]
    assert pids  # the engine of game 1 at least
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
