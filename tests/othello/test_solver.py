"""Exact endgame solver: FFO suite, move scores, WLD mode, tiny endgames vs brute force."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bitgames.core import tt as table
from bitgames.othello.board import BLACK, Board
from bitgames.othello.obf import Problem, ffo_problems
from bitgames.othello.solver import EXACT, SELECTIVE_MIN, SelectivePass, Solver, solve, tt_depth
from tests.othello import reference_rules as ref


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(table_bits=20)


def _check_pv(board: Board, pv: list[str], score: int) -> None:
    """Replaying the principal variation reaches the end of the game with that score."""
    b = board.copy(stack=False)
    for move in pv:
        b.push(move)
    assert b.is_game_over(), f"PV {pv} stops before the end"
    assert (b.score() if board.turn == BLACK else -b.score()) == score


def _check_problem(solver: Solver, problem: Problem) -> None:
    """The published exact score, a move from the published best set, and a sound PV."""
    board = Board(problem.board)
    result = solver.solve(board)
    assert result.score == problem.expected_score
    assert result.best_move in problem.expected_moves
    _check_pv(board, result.pv, result.score)
    assert (len(result.passes) == EXACT) == (board.empties() >= SELECTIVE_MIN)


@pytest.mark.parametrize("problem", ffo_problems(1, 19), ids=lambda p: p.name)
def test_ffo_1_19(solver: Solver, problem: Problem) -> None:
    _check_problem(solver, problem)


@pytest.mark.slow
@pytest.mark.parametrize("problem", ffo_problems(20, 39), ids=lambda p: p.name)
def test_ffo_20_39(solver: Solver, problem: Problem) -> None:
    _check_problem(solver, problem)


@pytest.mark.parametrize("problem", ffo_problems(1, 7), ids=lambda p: p.name)
def test_every_move_score(solver: Solver, problem: Problem) -> None:
    """The exact score of every legal move (published with the FFO positions, Edax .obf),
    solved after the move and through ``move=``."""
    board = Board(problem.board)
    scores = problem.move_scores
    assert sorted(str(m) for m in board.legal_moves) == sorted(scores)
    for move, want in scores.items():
        board.push(move)
        assert -solver.solve(board).score == want, move
        board.pop()
        result = solver.solve(board, move=move)
        assert (result.score, result.bound, result.pv[0]) == (want, "exact", move)
        _check_pv(board, result.pv, want)


@pytest.mark.parametrize("problem", ffo_problems(1, 3), ids=lambda p: p.name)
def test_a_window_bounds_every_move_score(problem: Problem) -> None:
    """Solved in a window, each move's published score lies within the bound found: inside
    the window exactly, below it an upper bound, above it a lower one (fail-soft: the
    bound may be tighter than the window's edge, never on the wrong side of the score)."""
    board = Board(problem.board)
    for move, want in problem.move_scores.items():
        for lo, hi, bound in ((want - 1, want + 1, "exact"), (want, want + 1, "upper"),
                              (want + 2, want + 6, "upper"), (want - 1, want, "lower"),
                              (want - 7, want - 3, "lower")):
            if not -64 <= lo < hi <= 64:
                continue
            result = Solver(table_bits=16).solve(board, window=(lo, hi), move=move)
            assert result.bound == bound, (move, lo, hi)
            if bound == "exact":
                assert result.score == want
            elif bound == "upper":
                assert want <= result.score <= lo
            else:
                assert hi <= result.score <= want


def test_a_window_far_from_the_score_with_selective_passes() -> None:
    """From 22 empties the selective passes narrow the window around each pass's score:
    a window far from the score (FFO #47, +4, 25 empties) must stay a window, and every
    pass's bound lie on the right side of the published score."""
    problem = ffo_problems(47, 47)[0]
    board = Board(problem.board)
    for lo, hi, bound in ((10, 11, "upper"), (-12, -9, "lower"), (3, 5, "exact")):
        result = Solver(table_bits=18).solve(board, window=(lo, hi))
        assert len(result.passes) == EXACT
        assert result.bound == bound
        want = problem.expected_score
        assert want is not None
        assert (result.score == want if bound == "exact" else
                want <= result.score <= lo if bound == "upper" else hi <= result.score <= want)


def test_a_window_needs_the_exact_mode_and_a_low_below_the_high(solver: Solver) -> None:
    board = Board(ffo_problems(1, 1)[0].board)
    with pytest.raises(ValueError, match="window"):
        solver.solve(board, mode="wld", window=(0, 1))
    with pytest.raises(ValueError, match="bad window"):
        solver.solve(board, window=(3, 3))


@pytest.mark.parametrize("problem", ffo_problems(1, 19), ids=lambda p: p.name)
def test_wld_mode(solver: Solver, problem: Problem) -> None:
    result = solver.solve(Board(problem.board), mode="wld")
    want = problem.expected_score
    assert result.score == (want > 0) - (want < 0)
    assert result.outcome == ("win" if want > 0 else "loss" if want < 0 else "draw")


def _small_endgames(count: int, max_empties: int, seed: int) -> list[Board]:
    rng = random.Random(seed)
    boards: list[Board] = []
    while len(boards) < count:
        b = Board()
        target = rng.randrange(0, max_empties + 1)
        while b.empties() > target and not b.is_game_over():
            b.push(rng.choice(list(b.legal_moves)))
        boards.append(b.copy(stack=False))
    return boards


def test_small_endgames_against_brute_force(solver: Solver) -> None:
    """0-7 empties (passes and wipe-outs included) against plain minimax, both modes."""
    boards = _small_endgames(300, 7, seed=11)
    seen_pass = seen_over = False
    for b in boards:
        p, o = b.bitboards()
        want = ref.minimax(ref.from_bits(p, o))
        result = solver.solve(b)
        assert result.score == want, b.fen()
        assert solver.solve(b, mode="wld").score == (want > 0) - (want < 0)
        seen_pass |= "pass" in result.pv
        seen_over |= b.is_game_over()
    assert seen_pass and seen_over


def test_wld_lost_position_still_names_a_move() -> None:
    board = Board("XXXXXXXOXOXOOXOOXXOXXOXOXXOOOOXO-XOOOXXO-XOOXOXO--OOOOOO--OXXO-O O")
    exact = solve(board, table_bits=14)
    wld = solve(board, mode="wld", table_bits=14)
    p, o = board.bitboards()
    assert exact.score == ref.minimax(ref.from_bits(p, o)) < 0
    assert wld.outcome == "loss" and wld.score == -1
    assert wld.best_move in {str(m) for m in board.legal_moves}


def test_wipeout_and_pass() -> None:
    # Every square black except white b1 and empty a1, g8, h8. Black a1 flips b1 (c1 is
    # black) and wipes white out: 62 discs + 2 empties = +64. White to move has no move,
    # passes, and the same happens: -64.
    cells = ["X"] * 64
    cells[0] = cells[62] = cells[63] = "-"
    cells[1] = "O"
    text = "".join(cells)
    for side, want in (("X", 64), ("O", -64)):
        board = Board(f"{text} {side}")
        p, o = board.bitboards()
        assert ref.minimax(ref.from_bits(p, o)) == want
        result = solve(board, table_bits=12)
        assert result.score == want
        assert result.pv == (["a1"] if side == "X" else ["pass", "a1"])


def test_bad_mode() -> None:
    with pytest.raises(ValueError, match="mode"):
        solve(Board(), mode="fast")


@pytest.mark.parametrize("problem", [p for p in ffo_problems(37, 42)
                                     if p.name in ("#37", "#38", "#41", "#42")],
                         ids=lambda p: p.name)
def test_wld_mode_with_selective_passes(solver: Solver, problem: Problem) -> None:
    """22-24 empties: the win/loss/draw solve runs its selective passes first."""
    assert Board(problem.board).empties() >= SELECTIVE_MIN
    want = problem.expected_score
    result = solver.solve(Board(problem.board), mode="wld")
    assert result.score == (want > 0) - (want < 0)
    assert len(result.passes) == EXACT and all(p.score in (-1, 0, 1) for p in result.passes)


def test_selective_passes_reported_as_they_end(solver: Solver) -> None:
    """From SELECTIVE_MIN empties a solve reports its selective passes as they end, at the
    probabilities Edax prints for the same cuts (73, 87 and 95 %), then the exact score
    (FFO #41: 22 empties, 0). Each pass names a legal first move, and the node counts
    grow from pass to pass to the solve's total."""
    problem = next(iter(ffo_problems(41, 41)))
    board = Board(problem.board)
    heard: list[SelectivePass] = []
    result = solver.solve(board, on_pass=heard.append)
    assert result.score == problem.expected_score
    assert heard == result.passes
    assert [round(100 * p.probability) for p in heard] == [73, 87, 95]
    legal = {str(m) for m in board.legal_moves}
    assert all(p.pv and p.pv[0] in legal for p in heard)
    nodes = [p.nodes for p in heard] + [result.nodes]
    assert 0 < nodes[0] and nodes == sorted(nodes)
    assert result.to_dict()["passes"][0]["probability"] == heard[0].probability


def test_exact_pass_ignores_selective_bounds() -> None:
    """Bounds a selective pass stored are not proofs: the exact pass must not cut on them.

    Every child of the root (FFO #41, exact score 0) gets a false table entry saying its
    score is -64 for its side to move, so the root would score +64. A null-window solve
    around the true score (is it above 0?) must say no while the entries are tagged with a
    selective level; tagged exact, the same entries do give +64, which shows the solve
    reads them.
    """
    problem = next(iter(ffo_problems(41, 41)))
    board = Board(problem.board)
    want = problem.expected_score
    p, o = board.bitboards()
    n = board.empties()
    for level in (0, EXACT - 1, EXACT):
        s = Solver(table_bits=20, selective=False)
        for move in board.legal_moves:
            child = board.copy(stack=False)
            child.push(move)
            cp, co = child.bitboards()
            # the generation of the coming solve, so that its stores keep these entries
            table.store(s.table, np.uint64(cp), np.uint64(co), tt_depth(n - 1, level),
                        s.generation + 1, -64, -64, 0)
        stats = np.zeros(4, dtype=np.int64)
        value, _ = s.run(p, o, want, want + 1, np.zeros(130, dtype=np.int64), stats)
        if level < EXACT:
            assert value <= want, level
        else:
            assert value == 64
