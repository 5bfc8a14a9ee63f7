"""Ctrl-C: long Othello commands stop within a second, print what they have, exit 130;
the kernels poll a stop flag without changing their counts."""

from __future__ import annotations

import json
import signal
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from bitgames.othello import kernels
from bitgames.othello.board import Board
from bitgames.othello.obf import ffo_problems
from bitgames.othello.solver import Solver
from tests.commands import interrupt, started

FFO50 = ffo_problems(50, 50)[0].board  # 26 empties: tens of seconds to solve


def test_perft_polls_its_flag() -> None:
    p, o = kernels.start_position()
    flag = np.zeros(1, dtype=np.int64)
    for depth, leaves in ((5, 1396), (8, 390216), (9, 3005288)):  # OEIS A124004
        assert kernels.perft_stoppable(p, o, depth, kernels.EDAX, flag) == leaves
    flag[0] = 1
    assert kernels.perft_stoppable(p, o, 8, kernels.EDAX, flag) == 0


@pytest.mark.usefixtures("compiled")  # a compile inside the solve would outlast the timer
def test_solver_stops_from_another_thread() -> None:
    board = Board(FFO50)
    solver = Solver(table_bits=16)
    threading.Timer(0.5, solver.stop).start()
    t0 = time.perf_counter()
    result = solver.solve(board)
    assert result.stopped and time.perf_counter() - t0 < 3.0
    assert result.nodes > 0 and result.pv == []
    # stays stopped until a new solver: every later solve returns at once
    assert solver.solve(Board(FFO50)).stopped


def stopped_after(board: Board, nodes: int) -> Solver:
    """A solver (a table of 2^18 entries) whose solve of ``board`` was stopped, from another
    thread, once it had searched ``nodes`` nodes."""
    solver = Solver(table_bits=18)

    def stop() -> None:
        while solver.stats[0] < nodes:
            time.sleep(0.001)
        solver.stop()

    watcher = threading.Thread(target=stop)
    watcher.start()
    assert solver.solve(board).stopped
    watcher.join()
    return solver


def test_a_stopped_solve_goes_on_from_its_saved_table(tmp_path: Path) -> None:
    """What a solve proved before it was stopped is kept: its table saved and loaded by
    another solver, the same position is solved exactly (the published answer) with only
    what was left to do (FFO #38, 24 empties, stopped half way through its nodes)."""
    problem = ffo_problems(38, 38)[0]
    board = Board(problem.board)
    cold = Solver(table_bits=18).solve(board)
    first = stopped_after(board, cold.nodes // 2)
    path = tmp_path / "table.npz"
    first.save_table(path)
    again = Solver(table_bits=4)
    again.load_table(path)
    warm = again.solve(board)
    assert problem.is_answer(warm.score, warm.best_move) and not warm.stopped
    done = again.proven(board)
    assert done.lower == done.upper == warm.score and problem.is_answer(done.lower, done.move)
    assert warm.nodes < 0.75 * cold.nodes, (warm.nodes, cold.nodes)


def test_a_stopped_solve_says_what_it_had_proven() -> None:
    # FFO #38 stopped at 95 % of its nodes: the exact pass has settled its first move, the
    # published best one, at the published score, and no other move yet
    problem = ffo_problems(38, 38)[0]
    board = Board(problem.board)
    cold = Solver(table_bits=18).solve(board)
    assert Solver(table_bits=18).proven(board) == (-64, 64, None)
    known = stopped_after(board, int(cold.nodes * 0.95)).proven(board)
    assert known.lower == problem.expected_score < known.upper, known
    assert problem.is_answer(known.lower, known.move)


@pytest.fixture(scope="module")
def compiled() -> None:
    """Every Othello kernel in the on-disk cache, so that the commands below load them
    in a moment and are at work when Ctrl-C comes."""
    from bitgames.core.jit import warmup

    warmup(["othello"])


@pytest.mark.parametrize("argv, said", [
    (["perft", "14"], "perft 14 (edax): stopped after "),
    (["perft", "13", "--divide"], "perft 13 (edax): stopped after "),
    (["solve", "--board", FFO50, "--quiet"], "board 1: stopped after "),
])
@pytest.mark.usefixtures("compiled")
def test_ctrl_c_stops_long_commands(argv: list[str], said: str) -> None:
    out = ctrl_c(argv, after=8.0)  # well into the counting or solving
    assert said in out, out


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.usefixtures("compiled")
def test_a_stopped_solve_saves_its_table(signum: int, tmp_path: Path) -> None:
    from bitgames.core import tt
    from bitgames.othello.solver import TABLE_KIND

    path = tmp_path / "ffo50.npz"
    with started(["othello", "solve", "--board", FFO50, "--quiet", "--passes",
                  "--table-bits", "16", "--table-file", str(path), "--save-every", "60"]) as proc:
        assert proc.stdout is not None
        seen = ""
        while "95%:" not in seen and (line := proc.stdout.readline()):
            seen += line
        time.sleep(1.0)  # into the exact pass, long before its first timed save
        end = interrupt(proc, signum, timeout=10)
    assert end.code == 130, end.err
    out = seen + end.out
    if signum == signal.SIGINT:
        assert "board 1: stopped after " in out and f"go on from {path}" in out, out
    assert f"table saved to {path}" in out + end.err
    table, _ = tt.load(path, TABLE_KIND)
    assert table.shape == (1 << 16, 3) and np.count_nonzero(table[:, 2]) > 1000


@pytest.mark.parametrize("threads", [1, 2])
def test_the_progress_of_a_running_solve(threads: int) -> None:
    problem = ffo_problems(38, 38)[0]
    solver = Solver(table_bits=18, threads=threads)
    seen = []
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            seen.append(solver.progress())
            time.sleep(0.002)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        result = solver.solve(Board(problem.board))
    finally:
        done.set()
        watcher.join()
    seen = [at for at in seen if at.nodes > 0]  # from the solve's start
    levels = [round(100 * at.probability) for at in seen]
    assert levels == sorted(levels) and levels[-1] == 100 and 95 in levels, levels
    assert 0 < max(at.nodes for at in seen) <= result.nodes * 1.01
    assert solver.progress() == (1.0, result.nodes)
    if threads == 1:
        nodes = [at.nodes for at in seen]
        assert nodes == sorted(nodes)


def ctrl_c(argv: list[str], after: float = 0.0, until: str | None = None) -> str:
    """Run ``bitgames othello ARGV``, Ctrl-C it after ``after`` seconds (counted from the
    first output line holding ``until``, if given); check that it exits with 130 soon (a
    second plus the interpreter's exit, on a busy machine) and return its output."""
    seen = ""
    with started(["othello", *argv]) as proc:
        if until is not None:
            assert proc.stdout is not None
            while until not in seen and (line := proc.stdout.readline()):
                seen += line
        time.sleep(after)
        end = interrupt(proc, timeout=10)
    assert end.code == 130, end.err
    assert end.seconds < 3.0
    return seen + end.out


@pytest.mark.usefixtures("compiled")
def test_ctrl_c_ends_a_match_with_the_finished_games_saved(tmp_path: Path) -> None:
    save = tmp_path / "match.jsonl"
    out = ctrl_c(["match", "level:4,eval:classic", "level:3,eval:classic", "--games",
                     "200", "--scheduler", "serial", "--save", str(save), "--json"],
                    after=0.5, until='"game": 1,')
    lines = [json.loads(line) for line in out.splitlines()]
    total = lines[-1]
    assert total["stopped"] == "interrupted" and 1 <= total["games"] < 200
    saved = save.read_text().splitlines()
    assert "match" in json.loads(saved[0])
    assert [json.loads(x)["number"] for x in saved[1:]] == list(range(1, total["games"] + 1))


@pytest.mark.usefixtures("compiled")
def test_ctrl_c_ends_a_book_build_with_its_work_saved(tmp_path: Path) -> None:
    from bitgames.othello.book import Book

    path = tmp_path / "book.npz"
    out = ctrl_c(["book", "build", str(path), "--plies", "8", "--depth", "6", "--eval",
                     "classic", "--json"], after=8.0)
    records = [json.loads(line) for line in out.splitlines()]
    assert records[-1]["stopped"] and records[-1]["added"] == records[-2]["added"] > 0
    assert len(Book.load(path)) == records[-1]["positions"]  # every searched position saved


@pytest.mark.usefixtures("compiled")
def test_a_long_solve_logs_its_progress_at_each_save(tmp_path: Path) -> None:
    # without a terminal no bar is drawn: the timed saves' lines (on standard error: with
    # --json, standard output holds nothing but JSON) are a log's progress, with the nodes
    # so far and what the exact pass has proven (FFO #50: +10, d8 published)
    import re

    path = tmp_path / "ffo50.npz"
    with started(["othello", "solve", "--board", FFO50, "--json", "--table-bits", "16",
                  "--table-file", str(path), "--save-every", "0.02"]) as proc:
        assert proc.stderr is not None
        lines: list[str] = []
        while len(lines) < 4 and (line := proc.stderr.readline()):
            if line.startswith(f"table saved to {path}"):
                lines.append(line)
        end = interrupt(proc, timeout=10)
    assert end.code == 130, end.err
    assert [json.loads(x)["stopped"] for x in end.out.splitlines()] == [True, True]
    nodes = [int(re.search(r"; ([\d,]+) nodes", x).group(1).replace(",", ""))  # type: ignore[union-attr]
             for x in lines]
    assert len(nodes) == 4 and nodes == sorted(nodes) and nodes[0] > 0, lines
    for x in lines:  # a bound shown during the solve holds the exact score
        if (m := re.search(r"proven: score (>=|<=)? ?([+-]\d+)(?:\.\.([+-]\d+))?", x)):
            op, a, b = m.group(1), int(m.group(2)), m.group(3)
            lo, hi = (a, 64) if op == ">=" else (-64, a) if op == "<=" else (a, int(b or a))
            assert lo <= 10 <= hi, x
