"""Lazy SMP helpers (core/smp.py) and the parallel search of every alpha-beta engine."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest

from bitgames.core import smp
from bitgames.core.engine import End, Limit, StopSignal
from bitgames.core.errors import BitgamesError


def _spin(index: int, stop: StopSignal) -> int:
    while not stop.is_set():
        time.sleep(0.001)
    return index


def _helpers_alive() -> int:
    return sum(t.name.startswith("bitgames-helper") for t in threading.enumerate())


def test_helpers_run_during_the_block_and_are_joined_after() -> None:
    with smp.helping(4, _spin) as nodes:
        time.sleep(0.05)
        assert _helpers_alive() == 3 and nodes == []
    assert nodes == [1, 2, 3] and _helpers_alive() == 0


def test_a_helper_error_is_raised_in_the_main_thread_after_the_join() -> None:
    def broken(index: int, stop: StopSignal) -> int:
        if index == 2:
            raise ValueError("helper 2 broke")
        return _spin(index, stop)

    with pytest.raises(ValueError, match="helper 2 broke"):
        with smp.helping(3, broken):
            time.sleep(0.02)
    assert _helpers_alive() == 0


def test_a_main_search_error_still_stops_the_helpers() -> None:
    with pytest.raises(KeyError):
        with smp.helping(3, _spin):
            raise KeyError("main")
    assert _helpers_alive() == 0


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2", 1025])
def test_engine_threads_are_checked(bad: Any) -> None:
    from bitgames.draughts.search import Engine

    with pytest.raises(BitgamesError, match="threads must be a whole number from 1 to 1024"):
        Engine("russian", threads=bad)


def _engines(threads: int) -> list[tuple[Any, Any]]:
    from bitgames.draughts.board import Board as DBoard
    from bitgames.draughts.search import Engine as DEngine
    from bitgames.leiserchess.board import Board as LBoard
    from bitgames.leiserchess.search import Engine as LEngine
    from bitgames.othello.board import Board as OBoard
    from bitgames.othello.search import Engine as OEngine

    return [(OEngine(level=20, evaluation="classic", table_bits=8, threads=threads),
             OBoard.from_transcript("f5d6c3d3c4f4f6f3e6e7")),
            (DEngine("russian", table_bits=8, threads=threads), DBoard()),
            (LEngine(table_bits=8, threads=threads), LBoard())]


@pytest.mark.parametrize("threads", [2, 4])
def test_parallel_searches_stop_on_time_and_on_stop_with_legal_moves(threads: int) -> None:
    for engine, board in _engines(threads):
        engine.search(board, Limit(depth=2))  # compiled before timing
        t0 = time.perf_counter()
        r = engine.search(board, Limit(time=0.3))
        assert time.perf_counter() - t0 < 1.5, type(engine)
        assert r.move in list(board.legal_moves) and r.pv and r.pv[0] == r.move
        timer = threading.Timer(0.2, engine.stop)
        timer.start()
        t0 = time.perf_counter()
        r = engine.search(board, Limit(infinite=True))
        assert time.perf_counter() - t0 < 2.0 and r.ended is End.STOPPED, type(engine)
        assert r.move in list(board.legal_moves)
        assert _helpers_alive() == 0  # no helper outlives its search


def test_a_new_game_makes_the_helpers_forget_too() -> None:
    """``new_game`` forgets what the search learnt: the helper threads' killers and
    history as well as the main thread's (a new game, or a benchmark's next position,
    must not start from another position's move ordering)."""
    for engine, board in _engines(2):
        # searched for a while, not to a depth: on a loaded machine a depth-4 search can end
        # before the helper thread has run at all
        engine.search(board, Limit(time=0.3))
        learnt = [table for tables in engine._helper_tables for table in tables[-2:]]
        assert learnt and any(table.any() for table in learnt), type(engine)
        engine.new_game()
        assert not any(table.any() for tables in engine._helper_tables for table in tables)


def _othello_endgames(n: int, empties: int, seed: int) -> list[Any]:
    from bitgames.othello.board import Board

    rng = random.Random(seed)
    boards: list[Any] = []
    while len(boards) < n:
        b = Board()
        while b.empties() > empties and not b.is_game_over():
            b.push(rng.choice(list(b.legal_moves)))
        if not b.is_game_over() and b.empties() == empties and list(b.legal_moves):
            boards.append(b)
    return boards


@pytest.mark.parametrize("threads,bits", [(2, 12), (8, 4)])
def test_parallel_othello_search_to_the_end_is_exact(threads: int, bits: int) -> None:
    # Many threads writing one tiny table at once (16 entries with 8 threads): a torn
    # entry read as a hit would give a wrong score. A search to the end is exact, so
    # every score must equal the solver's (which FFO proves).
    from bitgames.core.engine import Score, Unit
    from bitgames.othello.search import Engine
    from bitgames.othello.solver import Solver

    engine = Engine(level=20, evaluation="classic", table_bits=bits, mpc=False,
                    threads=threads)
    solver = Solver(table_bits=16)
    for board in _othello_endgames(12, 11, seed=threads):
        exact = solver.solve(board)
        r = engine.search(board, Limit(depth=board.empties()), solve=False)
        assert r.score == Score(exact.score, Unit.DISCS, exact=True), board.fen()
        assert r.move in list(board.legal_moves)
