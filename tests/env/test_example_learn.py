"""The example that learns (``examples/othello_learn.py``), shortened: from ten square
values at zero, the cross-entropy method on games against the random player finds a
table that beats the random player at least 88 % of the time and the greedy player (most
discs flipped) at least 60 %, and it learns that a corner is worth more than the diagonal
square next to it."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "othello_learn.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("othello_learn", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_learns() -> None:
    learn = load()
    untrained = learn.evaluate(np.zeros(64), "random", games=600)
    values = learn.train(generations=20, population=24, games=48, seed=1)
    kinds = learn.KINDS
    corner, x_square = values[kinds == 0][0], values[kinds == 4][0]
    assert corner > x_square
    against_random = learn.evaluate(values, "random", games=600)
    against_greedy = learn.evaluate(values, "greedy", games=600)
    assert against_random >= 0.88 > untrained + 0.2, (against_random, untrained)
    assert against_greedy >= 0.60, against_greedy


def test_the_untrained_player_and_the_greedy_one_are_what_they_say() -> None:
    learn = load()
    # a table that only values corners takes a corner whenever one is legal
    corners = np.where(learn.KINDS == 0, 1.0, 0.0)
    mask = np.array([(1 << 0) | (1 << 19), 1 << 19, 0], dtype=np.uint64)
    assert learn.choose(np.tile(corners, (3, 1)), mask).tolist() == [0, 19, learn.PASS]
    # the greedy player flips most: after f5 d6 c3, d3 flips two discs, no other move more
    from bitgames.othello.board import Board
    from bitgames.othello.kernels import legal_moves

    board = Board()
    for move in ("f5", "d6", "c3"):
        board.push(move)
    p, o = (np.uint64(x) for x in board.bitboards())
    out = np.zeros(1, dtype=np.int64)
    learn.greedy(np.array([[p, o]], dtype=np.uint64),
                 np.array([legal_moves(p, o)], dtype=np.uint64), out)
    after = board.copy()
    after.push(_name(int(out[0])))
    before_discs = board.fen()[:64].count("O")
    assert after.fen()[:64].count("O") - before_discs == 1 + max(
        _flipped(board, m) for m in board.legal_moves)


def _name(square: int) -> str:
    return "abcdefgh"[square % 8] + str(square // 8 + 1)


def _flipped(board, move) -> int:  # type: ignore[no-untyped-def]
    after = board.copy()
    after.push(move)
    return after.fen()[:64].count("O") - board.fen()[:64].count("O") - 1
