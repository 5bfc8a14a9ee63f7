"""``bitgames go match`` on the shared runner: our engine against our own GTP mode as an
outside engine, the SGF records, saving and resuming, Ctrl-C; the kit's scoring."""

from __future__ import annotations

import re
import shutil
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
GNUGO = shutil.which("gnugo") or shutil.which("/usr/games/gnugo")
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


def test_a_bad_player_fails_before_the_engine_kernels_load(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # a cold cache takes the MCTS kernels a minute to compile: a mistyped spec must be
    # told before that
    from bitgames.core import jit

    loaded: list[tuple[str, ...]] = []
    monkeypatch.setattr(jit, "ensure_warm",
                        lambda game, *groups, load=False: loaded.append(groups))
    base = ["--games", "2", "--size", "5", "--scheduler", "serial"]
    assert main(["go", "match", "nodes:abc", "level:1", *base]) == 2
    assert "nodes needs a number, got 'abc'" in capsys.readouterr().err
    assert loaded == []
    assert main(["go", "match", f'cmd:"{sys.executable} -m bitgames.cli go gtp",time:x',
                 "level:1", *base]) == 2
    assert loaded == []


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


#: a stand-in GTP engine: passes at every genmove, scores the n-th game it is asked
#: about W+(n + 1.5) (a referee that asks again for the same game would answer W+3.5)
_STAND_IN = """\
import sys
asked = 0
for line in sys.stdin:
    word = (line.split() or [''])[0]
    asked += word == 'final_score'
    answer = {'genmove': '= pass', 'final_score': f'= W+{asked + 1.5}'}.get(word, '=')
    print(answer, end='\\n\\n', flush=True)
"""


def test_a_referee_scores_the_games_ended_by_two_passes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "stand_in.py"
    script.write_text(_STAND_IN)
    command = f"{sys.executable} {script}"
    # both players pass at once on an empty 5x5 board: by our count White wins by the
    # komi (W+0.5); the referee's answer is what counts
    argv = ["go", "match", f'cmd:"{command}"', f'cmd:"{command}"', "--games", "2",
            "--size", "5", "--komi", "0.5", "--random-plies", "0", "--scheduler", "serial",
            "--json"]
    assert main(argv) == 0
    ours = json_lines(capsys.readouterr().out)
    assert [g["result"] for g in ours[:-1]] == ["W+0.5", "W+0.5"]
    # two one-ply openings, each played twice: one referee (the games run in this
    # process), asked once for each game (the same moves, the same score)
    assert main([*argv, "--random-plies", "1", "--seed", "1", "--games", "4",
                 "--referee", command]) == 0
    theirs = json_lines(capsys.readouterr().out)
    assert [g["opening"] for g in theirs[:-1]] == [0, 0, 1, 1]
    assert [(g["result"], g["reason"]) for g in theirs[:-1]] == [
        ("W+2.5", "two passes"), ("W+2.5", "two passes"), ("W+3.5", "two passes"),
        ("W+3.5", "two passes")]
    assert theirs[-1]["wins"] == theirs[-1]["losses"] == 2  # White won them all


def test_a_referee_that_cannot_be_found_stops_the_match(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    assert main(["go", "match", "level:1", "level:1", "--games", "2", "--size", "5",
                 "--scheduler", "serial", "--referee", "no-such-referee --mode gtp"]) == 2
    assert "--referee 'no-such-referee --mode gtp': program not found" in \
        capsys.readouterr().err


@pytest.mark.gnugo
@pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed")
def test_gnugo_as_referee_removes_a_dead_stone() -> None:
    # the intruder in Black's area is dead: W+34.5 counted by hand (see _walls), where
    # counting every stone alive gives W+53.5
    kit = match_kit(size=9, komi=7.5, referee=f"{GNUGO} --mode gtp --chinese-rules")
    assert kit.final_result is not None
    assert kit.final_result(_walls("B5")) == (Outcome(Termination.PASSES, WHITE, -34.5),
                                              "W+34.5")
