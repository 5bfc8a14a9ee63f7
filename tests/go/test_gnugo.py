"""Spot checks against GNU Go 3.8 (``/usr/games/gnugo``): legality and final scores.

Skipped when GNU Go is not installed (``apt-get install gnugo``).
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from bitgames.cli import main
from bitgames.core import rng as R
from bitgames.core.engine import Limit
from bitgames.go import BLACK, WHITE, Board, Engine, GtpClient, Move
from bitgames.go import kernels as K
from bitgames.go.board import format_score
from bitgames.go.sgf import parse_sgf, read_sgf, to_sgf

from .test_board import PSK_SGF
from .test_mcts import DISPUTED_PASS

GNUGO = shutil.which("gnugo") or shutil.which("/usr/games/gnugo")

pytestmark = [
    pytest.mark.gnugo,
    pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed"),
]

FLAGS = {
    "simple-ko": "",
    "default": "--positional-superko",
    "tromp-taylor": "--positional-superko --allow-suicide",
    "situational": "--situational-superko",
}


def gnugo(rules: str, level: int = 10) -> GtpClient:
    return GtpClient.start(f"{GNUGO} --mode gtp --level {level} --chinese-rules {FLAGS[rules]}")


@pytest.mark.parametrize("rules", ["simple-ko", "default", "tromp-taylor"])
def test_is_legal_matches_gnugo(rules: str) -> None:
    rnd = random.Random(rules)
    with gnugo(rules) as client:
        for game in range(3):
            board = Board(size=7, rules=rules)
            for ply in range(90):
                points = board.legal_points()
                if not points or board.is_game_over():
                    break
                board.push(Move.from_point(rnd.choice(points), board.size))
                if ply % 15 == 14:
                    client.sync(board)
                    color = "w" if board.turn else "b"
                    for p in range(board.points):
                        if board.color_at(p) is not None:
                            continue
                        move = Move.from_point(p, board.size)
                        theirs = client.command(f"is_legal {color} {move}") == "1"
                        assert board.is_legal(move) == theirs, (rules, game, ply, str(move))


def test_positional_superko_case_matches_gnugo(tmp_path: Path) -> None:
    # reference go.md §2.4: is_legal w b9 -> 1 default, 1 situational, 0 positional
    path = tmp_path / "psk.sgf"
    path.write_text(PSK_SGF)
    for rules, expected in (("simple-ko", "1"), ("situational", "1"), ("default", "0")):
        with gnugo(rules) as client:
            client.command(f"loadsgf {path} 3")
            assert client.command("is_legal w b9") == expected


def test_final_score_walls() -> None:
    board = Board(size=9, komi=7.5)
    for r in range(1, 10):
        board.push(f"D{r}")
        board.push(f"E{r}")
    with gnugo("default") as client:
        client.sync(board)
        assert client.command("final_score") == format_score(board.score()) == "W+16.5"


def test_the_disputed_pass_is_a_black_win_for_gnugo() -> None:
    # the position where our engine must not pass (tests/go/test_mcts.py): ended now,
    # GNU Go counts Black ahead with the dead stones removed, where Tromp-Taylor counts
    # White ahead
    board = Board(size=9, komi=7.5, moves=DISPUTED_PASS)
    assert board.score() < 0
    with gnugo("default") as client:
        client.sync(board)
        assert client.command("final_score").startswith("B+")


def test_score_command_removes_the_stones_gnugo_finds_dead(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = Board(size=9, komi=7.5, moves=DISPUTED_PASS)
    path = tmp_path / "disputed.sgf"
    path.write_text(to_sgf(board))
    assert main(["go", "score", str(path), "--json"]) == 0
    ours = json.loads(capsys.readouterr().out.splitlines()[-1])
    with gnugo("default") as client:
        client.command(f"loadsgf {path}")
        dead = client.command("final_status_list dead").split()
        result = client.command("final_score")
    assert ours["area_result"] == format_score(board.score()) == "W+10.5"
    assert sorted(ours["dead"]) == sorted(dead) and ours["final_result"] == result == "B+9.5"


def test_final_score_of_finished_playouts() -> None:
    # a finished light playout leaves only single-point eyes and seki: Tromp-Taylor area
    # is the score, and GNU Go's dead-stone-aware final_score should agree
    agree = 0
    with gnugo("simple-ko") as client:
        for seed in range(6):
            board = Board(size=9, rules="simple-ko")
            s = K.copy_state(board._s)
            trace = np.zeros(400, np.int32)
            K.playout(board._g, s, R.new_state(seed), 400, np.zeros(81, np.int8), trace, K.LIGHT,
                      K.NO_WEIGHTS, K.NO_REPLIES)
            for m in trace[: int(s[8][K.M_MOVES])]:
                board.push(Move.from_point(int(m), 9))
            assert board.is_game_over()
            client.sync(board)
            agree += client.command("final_score") == board.result()
    assert agree >= 5


def test_client_plays_gnugo_moves() -> None:
    """GNU Go through the client as a Player: its moves are legal by our rules."""
    board = Board(size=7, komi=5.5)
    engine = Engine(seed=1)
    with gnugo("default", level=1) as client:
        assert client.name == "GNU Go"
        while not board.is_game_over() and len(board.move_stack) < 30:
            if board.turn:
                move = client.play(board, Limit(time=1.0)).move
            else:
                move = engine.search(board, Limit(nodes=200)).move
            board.push(move)
        # GNU Go's board (it was sent our moves and made its own) is ours
        for color, name in ((BLACK, "black"), (WHITE, "white")):
            theirs = set(client.command(f"list_stones {name}").upper().split())
            assert theirs == {board.vertex(p) for p in board.stones(color)}


def test_cli_match_against_gnugo(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                 ) -> None:
    """GNU Go as an outside engine of ``go match`` (the old ``--opponent`` default)."""
    records = tmp_path / "games.sgf"
    gnu = f'cmd:"{GNUGO} --mode gtp --level 1 --chinese-rules --positional-superko"'
    assert main(["go", "match", "nodes:200", gnu, "--games", "2", "--size", "5",
                 "--scheduler", "serial", "--records", str(records), "--json"]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    summary = out[-1]
    assert summary["games"] == 2 and summary["wins"] + summary["draws"] + summary["losses"] == 2
    for game, line in zip(out[:2], records.read_text().splitlines(), strict=True):
        root = parse_sgf(line).root
        assert (root["PW"] if game["a_first"] else root["PB"]) == [gnu]  # named by spec
        assert [str(m) for m in read_sgf(line).move_stack] == [
            m for m in game["moves"] if m != "resign"]


# Ladders: (size, black stones, white stones, colour to play, move, block, lost).
# A white stone at E5 between black D5, E6 and F4: the ladder after black E4 runs up and
# to the right; on an empty board it reaches the edge and captures; a white stone on its
# path (G7, H8) breaks it, a black stone there (G7) does not. "lost" is the Go answer;
# GNU Go's own reading is checked to agree with it and with ours.
LADDERS = [
    (9, ["D5", "E6", "F4"], ["E5"], "b", "E4", "E5", True),
    (9, ["D5", "E6", "F4"], ["E5", "G7"], "b", "E4", "E5", False),
    (9, ["D5", "E6", "F4"], ["E5", "H8"], "b", "E4", "E5", False),
    (9, ["D5", "E6", "F4", "G7"], ["E5"], "b", "E4", "E5", True),
    (9, ["D5", "E6", "F4", "E4"], ["E5"], "w", "F5", "F5", True),
    (9, ["D5", "E6", "F4", "E4"], ["E5", "H8"], "w", "F5", "F5", False),
    (19, ["J10", "K11", "L9"], ["K10"], "b", "K9", "K10", True),
    (19, ["J10", "K11", "L9"], ["K10", "Q15"], "b", "K9", "K10", False),
    # the stone giving atari (E4) is itself in atari: the defender captures it
    (9, ["D5", "E6", "F4", "E4"], ["E5", "D4", "E3", "F3"], "w", "F5", "F5", False),
]


@pytest.mark.parametrize("case", LADDERS, ids=[f"{c[0]}x{c[0]}-{c[4]}-{len(c[2])}w"
                                               for c in LADDERS])
def test_ladder_reading_agrees_with_gnugo(case: tuple) -> None:
    size, black, white, color, move, block, lost = case
    board = Board(size=size)
    board.setup(black=black, white=white)
    board.turn = BLACK if color == "b" else WHITE
    c = 1 if color == "b" else 2
    ours = K.ladder_dies(board._g, board._s, K.ladder_stack(board._s), board._point(move), c,
                         board._point(block), False)
    board.push(move)
    with gnugo("default") as client:
        client.sync(board)
        if board.color_at(block) == board.turn:  # the block's owner to move: in atari
            theirs = client.command(f"defend {block}").split()[0] == "0"
        else:
            theirs = client.command(f"attack {block}").split()[0] != "0"
    assert ours == theirs == lost


def test_ladder_captures_are_captures_for_gnugo() -> None:
    """Every ladder our reader wins in random positions (an atari, or an extension from
    atari it says is still lost) is lost for GNU Go too, or saved only by a ko (GNU Go's
    codes 2 and 3, which our reader does not play): the read is a proof."""
    gen = np.random.default_rng(5)
    checked = 0
    with gnugo("default") as client:
        for game in range(40):
            board = Board(size=9)
            random_moves = int(gen.integers(20, 50))
            for _ in range(random_moves):
                points = board.legal_points()
                if not points:
                    break
                board.push(Move.from_point(int(gen.choice(points)), 9))
            c = 2 if board.turn == WHITE else 1
            stack = K.ladder_stack(board._s)
            for p in board.legal_points():
                for q in board._g[0][p][: board._g[1][p]]:
                    owner = board.color_at(int(q))
                    if owner is None:
                        continue
                    libs = len(board.block(int(q))[1])
                    if not ((owner == board.turn and libs == 1)
                            or (owner != board.turn and libs == 2)):
                        continue
                    target = p if owner == board.turn else int(q)
                    if not K.ladder_dies(board._g, board._s, stack, p, c, target, False):
                        continue
                    after = board.copy()
                    after.push(Move.from_point(p, 9))
                    if after.color_at(target) is None:
                        continue
                    client.sync(after)
                    vertex = after.vertex(target)
                    if after.color_at(target) == after.turn:
                        assert client.command(f"defend {vertex}").split()[0] != "1", (
                            game, board.vertex(p), vertex)
                    else:
                        assert client.command(f"attack {vertex}").split()[0] != "0", (
                            game, board.vertex(p), vertex)
                    checked += 1
    assert checked >= 20
