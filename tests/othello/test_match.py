"""``bitgames othello match`` on the shared runner: the built-in engine against our own
NBoard mode as an outside engine, every game written as GGF and read back by our reader,
saving and resuming, and clear errors for bad player options."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bitgames.cli import main
from bitgames.othello.cli import match_kit
from bitgames.othello.ggf import parse_ggf

OURS = "level:1,eval:classic"
NBOARD = (f"{sys.executable} -m bitgames.cli othello nboard --level 1 --eval classic "
          "--no-book")
THEIRS = f'cmd:"{NBOARD}"'


def match(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict]]:
    """Run ``bitgames othello match ARGV`` serially with --json: its status and lines."""
    status = main(["othello", "match", *argv, "--scheduler", "serial", "--json"])
    out = capsys.readouterr().out
    return status, [json.loads(line) for line in out.splitlines()]


def test_our_engine_against_our_nboard_mode(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    save, records = tmp_path / "match.jsonl", tmp_path / "games.ggf"
    argv = [OURS, THEIRS, "--games", "2", "--random-plies", "6",
            "--save", str(save), "--records", str(records)]
    status, lines = match(argv, capsys)
    assert status == 0
    games, total = lines[:-1], lines[-1]
    assert [g["game"] for g in games] == [1, 2] and [g["a_first"] for g in games] == [
        True, False]
    assert (total["games"], total["stopped"]) == (2, None)
    assert total["wins"] + 0.5 * total["draws"] == sum(g["a_score"] for g in games)
    texts = records.read_text().splitlines()
    assert len(texts) == 2
    for g, text in zip(games, texts, strict=True):
        assert g["reason"] == "no moves"  # played to the end: no illegal move, no crash
        game = parse_ggf(text)  # every move replayed by our rules
        assert [str(m) for m in game.board.move_stack] == g["moves"]
        assert game.board.is_game_over() and game.board.result() == g["result"]
        black, white = map(int, g["result"].split("-"))
        assert game.properties["RE"] == f"{black - white:+.2f}"
        # six opening plies: Black moves first after them, so A is Black when A is first
        a_colour, b_colour = ("PB", "PW") if g["a_first"] else ("PW", "PB")
        assert (game.properties[a_colour], game.properties[b_colour]) == (OURS, THEIRS)
        a_discs = black - white if g["a_first"] else white - black
        assert g["a_score"] == (a_discs > 0) + 0.5 * (a_discs == 0)

    # a match killed after its first game: --resume plays only the second, the same way
    save.write_text("\n".join(save.read_text().splitlines()[:2]) + "\n")
    status, lines = match([*argv, "--resume"], capsys)
    assert status == 0 and [g["game"] for g in lines[:-1]] == [2]
    assert lines[-1]["games"] == 2 and lines[0]["moves"] == games[1]["moves"]
    assert len(save.read_text().splitlines()) == 3
    assert len(records.read_text().splitlines()) == 3


@pytest.mark.parametrize("player, error", [
    ("level:2,evl:classic", "unknown Othello player option 'evl'"),
    ("level:2,eval:chess", "unknown evaluation 'chess' (pattern or classic)"),
    ("weights:/no/such.npz", "/no/such.npz: Othello weights: no such file"),
    ("level:two", "level needs a number"),
])
def test_bad_players_are_named_before_any_game(player: str, error: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["othello", "match", player, OURS, "--games", "2"]) == 2
    assert error in capsys.readouterr().err


def test_openings_as_transcripts_or_moves(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    kit = match_kit()
    assert kit.split_opening("f5d6 c3") == kit.split_opening("f5 d6 c3") == ["f5", "d6", "c3"]
    openings = tmp_path / "openings.txt"
    openings.write_text("# two openings\nf5d6c3\nf5 z9\n")
    assert main(["othello", "match", OURS, OURS, "--openings", str(openings)]) == 2
    assert "openings.txt:3: not a square: 'z9'" in capsys.readouterr().err
