"""The split search of core/ybwc.py on a game tree whose values a plain negamax gives,
and the Othello solver that runs on it (exact on FFO, stoppable, with any thread count)."""

from __future__ import annotations

import random
import threading
import time

import numpy as np
import pytest

from bitgames.core import ybwc
from bitgames.core.errors import BitgamesError


class _Tree:
    """A uniform tree of ``width`` moves a node, ``depth`` plies deep, with leaf values
    drawn from a seeded generator; a position is the path of moves from the root."""

    def __init__(self, width: int, depth: int, seed: int) -> None:
        self.width, self.depth, self.seed = width, depth, seed
        self.stored: list[tuple[tuple[int, ...], int, int, int]] = []

    def leaf(self, path: tuple[int, ...]) -> int:
        return random.Random(hash((self.seed, path))).randint(-50, 50)

    def negamax(self, path: tuple[int, ...], depth: int) -> int:
        if depth == 0:
            return self.leaf(path)
        return max(-self.negamax((*path, m), depth - 1) for m in range(self.width))

    def serial(self, thread: int, path: tuple[int, ...], alpha: int, beta: int, depth: int,
               pv_node: bool, stats: np.ndarray) -> tuple[int, list[int]]:
        stats[ybwc.NODES] += 1
        if depth == 0:
            return self.leaf(path), []
        best, line = -1000, []
        for m in range(self.width):
            s, sub = self.serial(thread, (*path, m), -beta, -max(alpha, best), depth - 1,
                                 pv_node, stats)
            if -s > best:
                best, line = -s, [m, *sub]
                if best >= beta:
                    break
        return best, line

    def expand(self, thread: int, path: tuple[int, ...], alpha: int, beta: int, depth: int,
               pv_node: bool) -> ybwc.Expansion[tuple[int, ...]]:
        time.sleep(0.0001)  # let the other threads in
        return ybwc.Expansion(children=[(m, (*path, m), depth - 1) for m in range(self.width)])

    def store(self, path: tuple[int, ...], depth: int, alpha: int, beta: int, best: int,
              best_move: int) -> None:
        self.stored.append((path, alpha, beta, best))


@pytest.mark.parametrize("threads", [2, 3, 8])
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(("wait", "pv_wait", "split", "idle_split"),
                         [(1, 1, 2, 2), (2, 3, 2, 2), (2, 2, 4, 1)])
def test_split_search_gives_the_negamax_value_and_a_line_that_reaches_it(
        threads: int, seed: int, wait: int, pv_wait: int, split: int, idle_split: int) -> None:
    tree = _Tree(4, 6, seed)
    value, line = ybwc.Search(tree, threads, split, wait, pv_wait, idle_split).run(
        (), -1000, 1000, 6, np.zeros(4, dtype=np.int64))
    assert value == tree.negamax((), 6)
    assert len(line) == 6 and tree.leaf(tuple(line)) == value  # 6 plies: same side to move
    # every stored result is a correct fail-soft bound of its node's true value
    for path, alpha, beta, best in tree.stored:
        true = tree.negamax(path, 6 - len(path))
        if best <= alpha:
            assert true <= best
        elif best >= beta:
            assert true >= best
        else:
            assert true == best


def test_nodes_below_the_split_depth_are_split_only_when_a_thread_is_idle_or_the_root() -> None:
    class Recorded(_Tree):
        expanded: list[int]

        def expand(self, thread: int, path: tuple[int, ...], alpha: int, beta: int,
                   depth: int, pv_node: bool) -> ybwc.Expansion[tuple[int, ...]]:
            self.expanded.append(depth)
            return super().expand(thread, path, alpha, beta, depth, pv_node)

    def expanded(idle_split: int | None, split: int = 5) -> list[int]:
        tree = Recorded(4, 6, 3)
        tree.expanded = []
        value, _ = ybwc.Search(tree, 2, split, 1, 1, idle_split).run(
            (), -1000, 1000, 6, np.zeros(4, dtype=np.int64))
        assert value == tree.negamax((), 6)
        return tree.expanded

    assert min(expanded(None)) == 5  # no idle splitting: the split depth is a floor
    assert expanded(None, split=8) == [6]  # but the root is split whatever its depth
    # the leftmost branch is entered while the other thread waits for work: split to 2
    assert min(expanded(2)) == 2


def test_split_search_in_a_window_fails_soft() -> None:
    tree = _Tree(5, 5, 7)
    true = tree.negamax((), 5)
    for alpha, beta in [(true - 10, true - 5), (true + 5, true + 10), (true - 1, true + 1)]:
        value, _ = ybwc.Search(tree, 4, split_depth=2).run((), alpha, beta, 5,
                                                             np.zeros(4, dtype=np.int64))
        if value <= alpha:
            assert true <= value
        elif value >= beta:
            assert true >= value
        else:
            assert value == true


def test_an_error_in_any_thread_is_raised_by_run_after_every_thread_ended() -> None:
    class Broken(_Tree):
        def expand(self, thread: int, path: tuple[int, ...], alpha: int, beta: int,
                   depth: int, pv_node: bool) -> ybwc.Expansion[tuple[int, ...]]:
            if len(path) == 2:
                raise ValueError(f"broken at {path}")
            return super().expand(thread, path, alpha, beta, depth, pv_node)

    with pytest.raises(ValueError, match="broken at"):
        ybwc.Search(Broken(3, 5, 1), 3, split_depth=2).run((), -1000, 1000, 5,
                                                            np.zeros(4, dtype=np.int64))
    assert _split_threads() == 0


def test_split_search_needs_two_threads() -> None:
    with pytest.raises(BitgamesError, match="at least 2 threads"):
        ybwc.Search(_Tree(2, 2, 0), 1, split_depth=1)


def _split_threads() -> int:
    return sum(t.name.startswith("bitgames-split") for t in threading.enumerate())


# -- the Othello solver on it --------------------------------------------------------------


@pytest.mark.parametrize("threads", [2, 4])
def test_split_solver_is_exact_on_ffo(threads: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from bitgames.othello import solver as solver_mod
    from bitgames.othello.board import Board
    from bitgames.othello.obf import ffo_problems
    from tests.othello.test_solver import _check_pv

    monkeypatch.setattr(solver_mod, "SPLIT_MIN", 12)  # split often, even on small solves
    monkeypatch.setattr(solver_mod, "SPLIT_IDLE", 9)
    solver = solver_mod.Solver(table_bits=16, threads=threads)
    for problem in ffo_problems(1, 10):
        board = Board(problem.board)
        r = solver.solve(board)
        assert r.score == problem.expected_score, problem.name
        assert r.best_move in problem.expected_moves, problem.name
        _check_pv(board, r.pv, r.score)
        w = solver.solve(board, mode="wld")
        assert w.score == (r.score > 0) - (r.score < 0)
    assert _split_threads() == 0


def test_split_solver_on_a_tiny_table_with_many_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    # 6 threads writing a 16-entry table at once: a torn entry read as a hit would give a
    # wrong score; the one-thread solver (proven on FFO) gives the right one.
    from bitgames.othello import solver as solver_mod
    from tests.core.test_smp import _othello_endgames

    monkeypatch.setattr(solver_mod, "SPLIT_MIN", 8)
    monkeypatch.setattr(solver_mod, "SPLIT_IDLE", 8)
    tiny = solver_mod.Solver(table_bits=4, threads=6)
    one = solver_mod.Solver(table_bits=16)
    for board in _othello_endgames(12, 13, seed=5):
        assert tiny.solve(board).score == one.solve(board).score, board.fen()


def test_split_solver_stops_at_once_and_leaves_a_sound_table() -> None:
    from bitgames.othello.board import Board
    from bitgames.othello.obf import ffo_problems
    from bitgames.othello.solver import Solver

    solver = Solver(table_bits=16, threads=2)
    hard = Board(ffo_problems(45, 45)[0].board)  # 24 empties: minutes
    timer = threading.Timer(0.3, solver.stop)
    timer.start()
    t0 = time.perf_counter()
    r = solver.solve(hard)
    assert r.stopped and time.perf_counter() - t0 < 2.0
    assert _split_threads() == 0
    solver.stop_signal.clear()
    for problem in ffo_problems(1, 3):  # what the stopped solve stored is still right
        assert solver.solve(Board(problem.board)).score == problem.expected_score
