"""``bitgames go match`` on the shared runner: our engine against our own GTP mode as an
outside engine, the SGF records, saving and resuming, Ctrl-C; the kit's scoring."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from bitgames.cli import main
from bitgames.core.board import Outcome, Termination
from bitgames.core.engine import EnginePlayer, Limit, SearchResult
from bitgames.core.match import referee
from bitgames.go import BLACK, WHITE, Board, Engine, Move
from bitgames.go.cli import match_kit
from bitgames.go.sgf import parse_sgf, read_sgf
from tests.match_checks import (
    check_ctrl_c_keeps_the_games,
    check_resume_after_a_kill,
    json_lines,
)

GTP = f'cmd:"{sys.executable} -m bitgames.cli go gtp --playouts 50"'
RESULT = re.compile(r"[BW]\+(R|[0-9.]+)|0|1/2-1/2|1-0|0-1")



def test_match_against_our_gtp_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                    ) -> None:
    save, records = tmp_path / "match.jsonl", tmp_path / "games.sgf"
    argv = ["go", "match", "nodes:100,seed:1", GTP, "--games", "4", "--size", "5",
            "--komi", "0.5", "--scheduler", "serial", "--save", str(save), "--json"]
    assert main([*argv, "--records", str(records)]) == 0
    out = json_lines(capsys.readouterr().out)
    games, total = out[:-1], out[-1]
    assert [g["game"] for g in games] == [1, 2, 3, 4] and total["games"] == 4
    assert [g["a_first"] for g in games] == [True, False, True, False]
    assert total["wins"] + total["draws"] + total["losses"] == 4
    # the records file: one SGF game a line, the same moves (a resignation is no SGF
    # move), the result, and A on Black in the games A began
    sgf = records.read_text().splitlines()
    assert len(sgf) == 4
    for game, line in zip(games, sgf, strict=True):
        board, root = read_sgf(line), parse_sgf(line).root
        assert [str(m) for m in board.move_stack] == [m for m in game["moves"]
                                                      if m != "resign"]
        assert (board.size, board.komi) == (5, 0.5)
        assert root["RE"] == [game["result"]] and RESULT.fullmatch(game["result"])
        black = root["PB"][0] if game["a_first"] else root["PW"][0]
        assert black == "nodes:100,seed:1"
        assert board.is_game_over() == (game["reason"] == "two passes")
    check_resume_after_a_kill(argv, save, capsys)


def test_match_options_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["--games", "2", "--size", "5", "--scheduler", "serial"]
    assert main(["go", "match", "policy:heavy", "level:1", *base]) == 2
    assert "policy must be one of light, capture, tactics, patterns" in capsys.readouterr().err
    assert main(["go", "match", "level:1,colour:red", "level:1", *base]) == 2
    assert "unknown Go engine option(s) colour" in capsys.readouterr().err
    assert main(["go", "match", "level:1", "level:2", *base, "--rules", "japanese"]) == 2
    assert "japanese" in capsys.readouterr().err


def test_match_help_says_how_to_play_gnugo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["go", "match", "--help"]) == 0
    text = capsys.readouterr().out
    assert 'cmd:"gnugo --mode gtp --level 10 --chinese-rules --positional-superko"' in text


def test_a_match_stops_on_ctrl_c_and_keeps_its_games(tmp_path: Path) -> None:
    save = tmp_path / "match.jsonl"
    check_ctrl_c_keeps_the_games(
        ["go", "match", "nodes:50", GTP, "--size", "5",
         "--games", "200", "--scheduler", "serial", "--save", str(save), "--json"], save)


def _walls(dead_white: str | None) -> Board:
    """9x9: Black's wall on column C, White's on D, both passed: Black owns A-C (27
    points), White D-J (54, no column I); komi 7.5 -> W+34.5 with no intruder."""
    board = Board(size=9, komi=7.5)
    for row in range(1, 10):
        board.push(f"C{row}")
        board.push(f"D{row}")
    if dead_white is not None:
        board.push("pass")
        board.push(dead_white)  # a lone white stone deep in Black's area
    board.push("pass")
    board.push("pass")
    return board


def test_a_game_ended_by_passes_is_scored_with_dead_stones_removed() -> None:
    kit = match_kit(size=9, komi=7.5)
    assert kit.final_result is not None
    assert kit.final_result(_walls(None)) == (Outcome(Termination.PASSES, WHITE, -34.5),
                                              "W+34.5")
    board = _walls("B5")
    # all stones alive, the intruder makes Black's side neutral: only the wall counts
    assert board.result() == "W+53.5"  # 9 - (54 + 1) - 7.5
    assert kit.final_result(board) == (Outcome(Termination.PASSES, WHITE, -34.5), "W+34.5")


class _Resigner:
    name = "resigner"

    def new_game(self) -> None:
        pass

    def play(self, board: Board, limit: Limit) -> SearchResult:
        return SearchResult(Move.RESIGN)

    def close(self) -> None:
        pass


def test_the_referee_takes_a_resignation() -> None:
    kit = match_kit(size=5)
    engine = EnginePlayer(Engine(seed=1), Limit(nodes=50))
    board = kit.new_board()
    # the engine moves first (Black), the resigner answers by resigning: Black wins
    score, reason = referee(board, engine, _Resigner(), Limit(), kit=kit)
    assert (score, reason) == (1.0, "resignation")
    assert board.resigned is WHITE and board.result() == "B+R"
    assert kit.final_result is not None and kit.final_result(board)[1] == "B+R"
    assert board.outcome() == Outcome(Termination.RESIGNATION, BLACK)
