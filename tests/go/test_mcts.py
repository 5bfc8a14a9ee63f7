"""MCTS engine behaviour: tactics, safe passing, resignation, tree reuse, superko."""

from __future__ import annotations

import numpy as np
import pytest

from bitgames.go import BLACK, PASS, RESIGN, WHITE, Board, patterns
from bitgames.go.mcts import MCTS, T_ROOT, dead_stones, search_kernel
from bitgames.go.sgf import read_sgf

from .test_board import PSK_SGF


def walls(black_col: str, white_col: str) -> Board:
    board = Board(size=9)
    board.setup(
        [f"{black_col}{r}" for r in range(1, 10)], [f"{white_col}{r}" for r in range(1, 10)]
    )
    return board


def test_captures_a_group_in_atari() -> None:
    board = Board(size=9)
    board.setup(
        ["C4", "D4", "E4", "F4", "G4", "B5", "H5", "C6", "D6", "E6", "F6"],
        ["C5", "D5", "E5", "F5", "G5"],
    )
    assert board.vertex(MCTS(seed=3).genmove(board, playouts=2000)) == "G6"


def test_passes_only_when_safe() -> None:
    # white leads by 9 + 7.5 on the board; after black's pass white passes and wins
    board = walls("D", "E")
    board.push(PASS)
    assert MCTS(seed=1).genmove(board, playouts=500) == PASS
    # black, behind, does not pass after white's pass
    board = walls("D", "E")
    board.turn = WHITE
    board.push(PASS)
    assert MCTS(seed=1).genmove(board, playouts=500, allow_resign=False) != PASS
    # and nobody passes on an open board
    assert MCTS(seed=1).genmove(Board(size=9), playouts=500) != PASS


def test_resigns_when_hopeless() -> None:
    # black: a wall on B with column A empty (18 points); white fills C-J except eight
    # single-point eyes (63 points): nothing black plays can change the result
    eyes = {f"{c}{r}" for c in "DG" for r in (2, 4, 6, 8)}
    board = Board(size=9)
    board.setup(
        [f"B{r}" for r in range(1, 10)],
        [f"{c}{r}" for c in "CDEFGHJ" for r in range(1, 10) if f"{c}{r}" not in eyes],
    )
    engine = MCTS(seed=2)
    assert engine.genmove(board, playouts=1000) == RESIGN
    assert engine.info.winrate < 0.1
    assert MCTS(seed=2).genmove(board, playouts=300, allow_resign=False) != RESIGN


def test_tree_reuse() -> None:
    board = Board(size=9)
    engine = MCTS(seed=4)
    move = engine.genmove(board, playouts=2000)
    board.push(move)
    board.push("C3" if move != board.parse_move("C3") else "G7")
    engine.genmove(board, playouts=500)
    assert engine.reused > 0


def test_superko_excluded_at_root() -> None:
    board = read_sgf(PSK_SGF)  # W B9 would repeat an earlier board (positional superko)
    engine = MCTS(seed=5)
    engine.search(board, playouts=300)
    tree = engine._tree
    assert tree is not None
    root = int(tree[8][T_ROOT])
    first, n = int(tree[2][root]), int(tree[3][root])
    children = {board.vertex(int(m)) for m in tree[0][first : first + n]}
    assert "B9" not in children and len(children) > 3
    situational = read_sgf(PSK_SGF, "simple-ko")
    engine = MCTS(seed=5)
    engine.search(situational, playouts=300)
    tree = engine._tree
    assert tree is not None
    first, n = int(tree[2][0]), int(tree[3][0])
    assert "B9" in {situational.vertex(int(m)) for m in tree[0][first : first + n]}


def test_reproducible_from_seed() -> None:
    a = [MCTS(seed=9).genmove(Board(size=9, moves="E5 E6"), playouts=700) for _ in range(2)]
    assert a[0] == a[1]


def test_dead_stone_in_black_area() -> None:
    board = walls("D", "E")
    board.push("B5", WHITE)
    assert [board.vertex(p) for p in dead_stones(board)] == ["B5"]
    assert board.turn == BLACK


def test_kernel_has_one_signature() -> None:
    MCTS(seed=0).genmove(Board(size=9), playouts=10)
    MCTS(seed=0).genmove(Board(size=13), playouts=10)
    assert len(search_kernel.signatures) == 1
    assert np.uint64 is not None


def test_children_start_with_their_priors() -> None:
    """Root children after one simulation: 0.8 of the prior visits won next to a block in
    atari, 0.3 on the first line, the shape prior on a MoGo 3x3 pattern, 0.5 elsewhere
    (the pattern test written here from the table and the board API)."""
    board = Board(size=9, moves="E5 E6 D6 F5 D4 C5 F6 D5")  # White D5 puts D6 in atari
    engine = MCTS(seed=0, shape_prior=0.7)
    engine.search(board, playouts=1)
    tree = engine._tree
    assert tree is not None
    root = int(tree[8][T_ROOT])
    first, n = int(tree[2][root]), int(tree[3][root])
    table = patterns.table()
    seen = set()
    for ch in range(first, first + n):
        p = int(tree[0][ch])
        if tree[4][ch] != engine.prior:
            continue  # the child the simulation went through
        row, col = divmod(p, 9)
        near_atari = any(
            board.color_at(q) and len(board.block(q)[1]) == 1
            for q in (p - 9, p + 9, p - 1 if col else -1, p + 1 if col < 8 else -1)
            if 0 <= q < 81
        )
        code = 0
        for k, (dr, dc) in enumerate(patterns.OFFSETS):
            r, c = row + dr, col + dc
            code |= (board.color_at(r * 9 + c) if 0 <= r < 9 and 0 <= c < 9 else 3) << (2 * k)
        if near_atari:
            expected = 0.8
        elif min(row, col, 8 - row, 8 - col) == 0:
            expected = 0.3
        elif table[code]:
            expected = 0.7
        else:
            expected = 0.5
        assert tree[5][ch] == pytest.approx(expected * engine.prior), board.vertex(p)
        seen.add(expected)
    assert seen == {0.8, 0.3, 0.7, 0.5}
