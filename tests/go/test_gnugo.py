"""Spot checks against GNU Go 3.8 (``/usr/games/gnugo``): legality and final scores.

Skipped when GNU Go is not installed (``apt-get install gnugo``).
"""

from __future__ import annotations

import random
import shutil

import numpy as np
import pytest

from bitgames.core import rng as R
from bitgames.go import PASS, Board
from bitgames.go import kernels as K
from bitgames.go.gtp import GtpClient

from .test_board import PSK_SGF

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


def gnugo(rules: str) -> GtpClient:
    return GtpClient(f"{GNUGO} --mode gtp --chinese-rules {FLAGS[rules]}")


def _replay(client: GtpClient, board: Board) -> None:
    client.command(f"boardsize {board.size}")
    client.command("clear_board")
    client.command(f"komi {board.komi}")
    for c, p in board.move_stack:
        client.command(f"play {'b' if c == 1 else 'w'} {board.vertex(p)}")


@pytest.mark.parametrize("rules", ["simple-ko", "default", "tromp-taylor"])
def test_is_legal_matches_gnugo(rules: str) -> None:
    rnd = random.Random(rules)
    with gnugo(rules) as client:
        for game in range(3):
            board = Board(size=7, rules=rules)
            for ply in range(90):
                moves = [m for m in board.legal_moves if m != PASS]
                if not moves or board.is_game_over():
                    break
                board.push(rnd.choice(moves))
                if ply % 15 == 14:
                    _replay(client, board)
                    color = "b" if board.turn == 1 else "w"
                    for p in range(board.points):
                        if board.color_at(p):
                            continue
                        theirs = client.command(f"is_legal {color} {board.vertex(p)}") == "1"
                        assert board.is_legal(p) == theirs, (rules, game, ply, board.vertex(p))


def test_positional_superko_case_matches_gnugo(tmp_path: object) -> None:
    # reference go.md §2.4: is_legal w b9 -> 1 default, 1 situational, 0 positional
    from pathlib import Path

    path = Path(str(tmp_path)) / "psk.sgf"
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
        _replay(client, board)
        assert client.command("final_score") == board.result() == "W+16.5"


def test_final_score_of_finished_playouts() -> None:
    # a finished light playout leaves only single-point eyes and seki: Tromp-Taylor area
    # is the score, and GNU Go's dead-stone-aware final_score should agree
    agree = 0
    with gnugo("simple-ko") as client:
        for seed in range(6):
            board = Board(size=9, rules="simple-ko")
            s = K.copy_state(board._s)
            trace = np.zeros(400, np.int32)
            K.playout(board._g, s, R.new_state(seed), 400, np.zeros(81, np.int8), trace, K.LIGHT)
            for m in trace[: int(s[8][K.M_MOVES])]:
                board.push(int(m))
            assert board.is_game_over()
            _replay(client, board)
            agree += client.command("final_score") == board.result()
    assert agree >= 5
