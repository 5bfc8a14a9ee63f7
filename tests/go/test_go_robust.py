"""Go memory safety and superko in the search: regressions for the crashes and the wrong
superko keys found by fuzzing the GTP mode (issue "protocols that survive anything").

The crash: the engine kept its tree when the side to move was switched without a move
(GTP ``genmove`` for the colour not on move, a colour playing twice) and replayed the
other colour's subtree, whose points were no longer empty; the compiled kernel then wrote
outside the empty-point list (exit 139; ``IndexError`` in ``kernels._add_empty`` without
the JIT). Each test below ran into it before the fix.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bitgames.core.board import BLACK, WHITE
from bitgames.core.engine import Limit
from bitgames.go import Board, Move
from bitgames.go.mcts import T_ROOT, Engine

#: the 9x9 GTP script of the issue that crashed ``go gtp --seed 37 --playouts 100``
CRASH_9X9 = """boardsize 9
play b H8
genmove b
genmove b
play w H5
genmove w
genmove b
play w G1
play b B2
play b E7
genmove b
play b B6
genmove b
genmove b
play b J9
play w H7
genmove b
play w G8
genmove w
genmove b
genmove b
genmove b
play b J4
genmove b
genmove w
genmove w
genmove b
genmove w
genmove b
genmove b
genmove b
genmove b
"""


def _two_by_two() -> Board:
    """The issue's 2x2 position: White A2 B1 B2 captured by Black A1, then White B2."""
    board = Board(size=2)
    for vertex in ("A2", "B1", "B2"):
        board.push(vertex, WHITE)
    board.push("A1", BLACK)
    board.push("B2", WHITE)
    return board


def _root_children(engine: Engine, board: Board) -> set[str]:
    tree = engine._tree
    assert tree is not None
    root = int(tree.meta[T_ROOT])
    first, n = int(tree.first[root]), int(tree.nchildren[root])
    return {str(Move.from_point(int(m), board.size)) for m in tree.move[first:first + n]}


def test_genmove_twice_for_one_colour_reuses_no_foreign_subtree() -> None:
    """The issue's Python reproduction: two searches for White in a row, one engine."""
    board = _two_by_two()
    engine = Engine(seed=0)
    for _ in range(2):
        board.turn = WHITE
        move = engine.search(board, Limit(nodes=30)).move
        assert move is not None and board.is_legal(move)
        # every root child is a legal move of the side to move
        assert _root_children(engine, board) <= {str(m) for m in board.legal_moves}
        board.push(move)


def test_subtree_reused_only_for_the_side_it_expects() -> None:
    board = Board(size=9, moves="E5")
    engine = Engine(seed=3)
    engine.search(board, Limit(nodes=300))
    board.push("D5")  # White, as the tree's root expects: its subtree is reused
    engine.search(board, Limit(nodes=50))
    assert engine.reused > 0
    board.turn = WHITE  # Black to move at the tree's root, White now: a new tree
    engine.search(board, Limit(nodes=50))
    assert engine.reused == 0
    assert _root_children(engine, board) <= {str(m) for m in board.legal_moves}


@pytest.mark.parametrize("jit", [
    pytest.param(True, id="compiled"),
    pytest.param(False, id="no-jit", marks=pytest.mark.slow),
])
def test_gtp_script_of_the_issue_runs_to_the_end(jit: bool) -> None:
    """The compiled run died by a segmentation fault; without the JIT (15 s) an
    out-of-range index raises instead of corrupting memory, and was answered ``?``."""
    env = dict(os.environ) if jit else dict(os.environ, NUMBA_DISABLE_JIT="1")
    proc = subprocess.run(
        [sys.executable, "-W", "ignore", "-m", "bitgames.cli", "go", "gtp", "--seed", "37",
         "--playouts", "100", "--threads", "1"],
        input=CRASH_9X9, capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    replies = [block for block in proc.stdout.split("\n\n") if block]
    assert len(replies) == CRASH_9X9.count("\n")
    assert "Traceback" not in proc.stderr
    assert all(r.startswith(("=", "? illegal move")) for r in replies)


# -- situational superko in the search --------------------------------------------------------
#
# 5x5, the position C (Black to capture-or-not in a ko at C3/D3):
#   4 . . O X .        C3 black, one liberty D3; White D3 would take it (ko), after which
#   3 . O X . X        Black C3 takes D3 back and makes C again.
#   2 . . O X .
KO_C = "5/2OX1/1OX1X/2OX1/5 {side} - 0 20.5 {rules}"


def _ko_retake(side: str, rules: str) -> Board:
    """C with ``side`` to move, then White takes the ko at D3 and White passes (the pass
    clears the simple-ko point): Black to move, and Black C3 would make C with White to
    move."""
    board = Board(KO_C.format(side=side, rules=rules))
    board.push("D3", WHITE)
    board.turn = WHITE
    board.push(Move.PASS)
    assert board.turn == BLACK and board.ko_point is None
    return board


def test_situational_superko_retake_is_legal_when_c_had_black_to_move() -> None:
    """C was seen only with Black to move: making it with White to move is no situational
    repeat (the rules), so the search must offer C3; positional superko forbids it. The
    search used to compare the stones' hash with side-keyed history keys and dropped it."""
    board = _ko_retake("b", "situational")
    assert board.is_legal("C3")
    engine = Engine(seed=1)
    engine.search(board, Limit(nodes=200))
    assert "C3" in _root_children(engine, board)
    positional = _ko_retake("b", "default")
    assert not positional.is_legal("C3")
    engine = Engine(seed=1)
    engine.search(positional, Limit(nodes=200))
    assert "C3" not in _root_children(engine, positional)


def test_situational_superko_retake_is_illegal_when_c_had_white_to_move() -> None:
    """C was seen with White to move: Black C3 repeats it with the same side to move, a
    situational repeat; the search used to offer it."""
    board = _ko_retake("w", "situational")
    assert not board.is_legal("C3")
    engine = Engine(seed=1)
    engine.search(board, Limit(nodes=200))
    children = _root_children(engine, board)
    assert "C3" not in children and len(children) > 3
