"""The midgame search: exactness at the end, limits, stopping, time management, CLI."""

from __future__ import annotations

import argparse
import io
import threading
import time

import numpy as np
import pytest

from bitgames.core import smp
from bitgames.core.engine import End, Info, Limit, Score, TimeManager, Unit
from bitgames.core.errors import BitgamesError
from bitgames.othello import search as S
from bitgames.othello.board import Board
from bitgames.othello.obf import ffo_problems
from bitgames.othello.solver import Solver

ENDGAMES = [  # FFO #1-#3 style positions and a 12-empties one from a random game
    "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
    "-XXXXXX---XOOOO-XOXXOOX-OOOXOOOOOXXOOOOOOXXOXOOO--OXXOXO---O-O-- X",
]


@pytest.fixture(scope="module")
def engine() -> S.Engine:
    return S.Engine(level=6, evaluation="classic", table_bits=16)


def test_one_signature_per_recursive_kernel(engine: S.Engine) -> None:
    from bitgames.othello import eval as ev

    engine.search(Board(), Limit(depth=4))
    engine.search(Board(ENDGAMES[0]), Limit(depth=3), solve=False)
    # Call the recursive kernel itself with the types search_root uses (when search_root
    # came from the cache, _pvs has no signature of its own yet): exactly one must exist.
    p, o = (np.uint64(x) for x in Board().bitboards())
    n = S.MAX_PLY + 2
    i64 = np.int64
    st = S.SearchState(engine.table, engine.killers, engine.hist,
                       np.zeros((n, 40), dtype=np.int64), np.zeros((n, 40), dtype=np.int64),
                       np.zeros((n, 40), dtype=np.uint64), np.zeros((n, n), dtype=np.int64),
                       np.zeros(n, dtype=np.int64), engine.ctl,
                       S.Evaluation(engine.weights, ev.GATHER, ev.B3, engine.classic),
                       smp.busy_table(1))
    S._pvs(p, o, i64(-S.INF), i64(S.INF), i64(2), i64(0), st)
    assert len(S._pvs.signatures) == 1


def _search_marked(engine: S.Engine, board: Board, busy: np.ndarray,
                   marked: list[int]) -> tuple[int, list[int], int]:
    """Search ``board`` to depth 7 from a new table, the positions after the moves
    ``marked`` marked in ``busy`` as if another thread were searching them."""
    from bitgames.core.tt import new_table
    from bitgames.othello import eval as ev
    from bitgames.othello.kernels import flips

    p, o = (np.uint64(x) for x in board.bitboards())
    for sq in marked:
        f = np.uint64(flips(p, o, sq))
        tag = smp.busy_tag(o ^ f, p ^ f ^ (np.uint64(1) << np.uint64(sq)))
        smp.mark_busy(busy, np.uint64(tag))
    ctl = np.zeros(8, dtype=np.int64)
    ctl[S.NODE_LIMIT] = 1 << 62
    ctl[S.GEN] = 1
    ctl[S.EVAL_KIND] = S.CLASSIC  # the fixture engine evaluates with the classic one
    pv = np.zeros(S.MAX_PLY + 2, dtype=np.int64)
    score, length = S.search_root(p, o, np.int64(-S.INF), np.int64(S.INF), np.int64(7),
                                  new_table(16), np.full((S.MAX_PLY + 2, 2), -1, dtype=np.int64),
                                  np.zeros(64, dtype=np.int64), ctl, engine.weights, ev.GATHER,
                                  ev.B3, engine.classic, pv, busy)
    return int(score), [int(x) for x in pv[:length]], int(ctl[S.NODES])


def test_a_lone_thread_marking_the_positions_it_searches_searches_as_before(
        engine: S.Engine) -> None:
    board = Board()
    for sq in ("f5", "d6", "c3", "d3", "c4", "f4"):
        board.push(sq)
    alone = _search_marked(engine, board, smp.busy_table(1), [])
    busy = smp.busy_table(2)  # a thread's marks, with no other thread
    assert _search_marked(engine, board, busy, []) == alone
    assert not busy.any()  # every mark it made is cleared
    moves = [m.square for m in board.legal_moves]
    # root moves another thread is searching are put off, not skipped: with all of them
    # marked, the second pass searches them in the same order, so the tree is the same
    assert _search_marked(engine, board, smp.busy_table(2), moves) == alone
    # one marked move (after the first) changes the order and the node count, never the
    # score (a fixed-depth search without Multi-ProbCut: the minimax value)
    one = [_search_marked(engine, board, smp.busy_table(2), [sq]) for sq in moves]
    assert all(score == alone[0] for score, _, _ in one)
    assert any(nodes != alone[2] for _, _, nodes in one)


@pytest.mark.parametrize("board", ENDGAMES)
def test_search_to_the_end_equals_the_solver(engine: S.Engine, board: str) -> None:
    b = Board(board)
    exact = Solver(table_bits=16).solve(b)
    for mpc in (False, True):
        engine.mpc = mpc
        r = engine.search(b, Limit(depth=b.empties()), solve=False)
        # MPC is off when the search sees the end; a search to the end is exact
        assert r.score == Score(exact.score, Unit.DISCS, exact=True)
    engine.mpc = False
    saved = engine.exact_empties, engine.wld_empties
    engine.exact_empties = engine.wld_empties = 20
    solved = engine.search(b, Limit(depth=1))  # hand-over to the solver at the root
    engine.exact_empties, engine.wld_empties = saved
    assert solved.score == Score(exact.score, Unit.DISCS, exact=True)
    assert S.depth_text(solved) == "100%" and solved.depth == b.empties()
    assert str(solved.move) == exact.best_move and [str(m) for m in solved.pv] == exact.pv


def test_wld_hand_over() -> None:
    e = S.Engine(level=1, evaluation="classic", table_bits=14, exact_empties=4, wld_empties=16)
    b = Board(ENDGAMES[0])
    r = e.search(b)
    # FFO #1 is a win for the side to move (+18): the WLD solve proves the win only
    assert r.score == Score.win(Unit.DISCS) and r.score.is_win
    assert S.depth_text(r) == "100%W"


def test_a_root_solve_reports_its_selective_passes() -> None:
    """A solve at the root tells the GUI its selective passes as they end, depth as Edax
    writes it for NBoard (``22@73%``: the empties, then the probability), and ends with
    the exact result (FFO #41, 22 empties: 0)."""
    problem = next(iter(ffo_problems(41, 41)))
    b = Board(problem.board)
    e = S.Engine(level=1, table_bits=20, exact_empties=22, wld_empties=22)
    infos: list[Info] = []
    r = e.search(b, on_info=infos.append)
    assert r.score == Score(float(problem.expected_score), Unit.DISCS, exact=True)
    assert [S.depth_text(i) for i in infos] == ["22@73%", "22@87%", "22@95%", "100%"]
    assert all(i.pv and i.pv[0] in b.legal_moves for i in infos)
    assert not any(i.score is None or i.score.exact for i in infos[:3])


def test_lost_wld_position_still_returns_a_move() -> None:
    # every move loses: the WLD window fails low everywhere (regression: the move was "pass")
    b = Board("XXXXXXXOXOXOOXOOXXOXXOXOXXOOOOXO-XOOOXXO-XOOXOXO--OOOOOO--OXXO-O O")
    e = S.Engine(level=4, evaluation="classic", table_bits=12)
    r = e.search(b)
    assert r.move in b.legal_moves and r.score is not None and r.score.value < 0


def test_node_limit_and_stop(engine: S.Engine) -> None:
    b = Board.from_transcript("f5d6c3d3c4f4f6f3e6e7")
    r = engine.search(b, Limit(depth=30, nodes=5000), solve=False)
    assert r.ended is End.COMPLETED and r.move in b.legal_moves  # a node limit completes
    assert 5000 <= r.nodes <= 5001
    t = threading.Timer(0.2, engine.stop)
    t0 = time.perf_counter()
    t.start()
    r = engine.search(b, Limit(depth=40), solve=False)
    assert time.perf_counter() - t0 < 3.0 and r.ended is End.STOPPED
    assert r.move in b.legal_moves


@pytest.mark.parametrize("transcript", [  # random games where depths 5 and 6 disagree
    "e6f4e3d2e2f2g3h4h2f6g6g7g8g5c4h6f5e7f7e8d8c5b5h8e1b4",
    "c4c5c6c3e3b5d6e2f2c7d2g1a5e1f5",
    "c4c5b6d3e2d2f5b4a4f1d1c2",
])
def test_a_stopped_iteration_keeps_the_root_moves_it_finished(transcript: str) -> None:
    engine = S.Engine(level=20)
    b = Board.from_transcript(transcript)
    done = {}
    for depth in (5, 6):
        engine.new_game()
        done[depth] = engine.search(b, Limit(depth=depth), solve=False)
    assert done[5].move != done[6].move  # else this position tests nothing
    # stopped one node before depth 6 ends, every root move but the last is finished: the
    # answer is depth 6's, reported as depth 5 (the last iteration completed)
    engine.new_game()
    r = engine.search(b, Limit(depth=6, nodes=done[6].nodes - 1), solve=False)
    assert (r.move, r.score, r.depth) == (done[6].move, done[6].score, 5)


def test_a_solve_out_of_time_gives_way_to_the_midgame_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # FFO #45 takes seconds to solve; an estimate that says it fits makes the engine try
    engine = S.Engine(level=20)
    monkeypatch.setattr(S, "solve_time_estimate", lambda empties, threads=1: 0.0)
    b = Board(ffo_problems(45, 45)[0].board)
    assert b.empties() <= engine.exact_empties
    engine.search(Board(ENDGAMES[0]))  # compiled code loaded before timing
    engine.search(b, Limit(depth=2), solve=False)
    t0 = time.perf_counter()
    r = engine.search(b, Limit(time=0.5))
    took = time.perf_counter() - t0
    assert 0.5 * S.SOLVE_SHARE < took < 1.5  # the solve's share, then the midgame search
    assert r.move in b.legal_moves and r.score is not None and not r.score.exact
    # the clock, not the level, chose the depth; a search that reaches its time target
    # between two iterations reports COMPLETED (as in the test below), else TIME
    assert 4 <= r.depth < engine.depth and r.ended in (End.TIME, End.COMPLETED)


def test_a_search_stopped_in_its_solve_answers_with_a_1_ply_search() -> None:
    engine = S.Engine(level=20)
    b = Board(ffo_problems(45, 45)[0].board)
    expected = engine.search(b, Limit(depth=1), solve=False)
    t = threading.Timer(0.2, engine.stop)
    t.start()
    r = engine.search(b)  # no time limit: the solve starts, and is stopped
    assert r.ended is End.STOPPED
    assert (r.move, r.score, r.depth) == (expected.move, expected.score, 1)


def test_movetime_is_respected(engine: S.Engine) -> None:
    b = Board.from_transcript("f5d6c3d3c4f4f6f3e6e7")
    engine.search(b, Limit(depth=2))  # compiled code loaded before timing
    t0 = time.perf_counter()
    r = engine.search(b, Limit(depth=60, time=0.3))
    assert time.perf_counter() - t0 < 1.5
    assert r.move in b.legal_moves and r.ended in (End.TIME, End.COMPLETED)


def test_short_clock_never_loses_on_time() -> None:
    e = S.Engine(level=20, evaluation="classic", table_bits=16)
    # compile (or load) every kernel first, as the command line does: no clock pays for it
    e.search(Board(ENDGAMES[0]))
    e.search(Board(), Limit(depth=3))
    for total in (1.5, 3.0):
        board = Board()
        left = {True: total, False: total}
        while not board.is_game_over():
            if board.must_pass():
                board.push("pass")
                continue
            t0 = time.perf_counter()
            r = e.search(board, Limit(remaining=left[board.turn]))
            left[board.turn] -= time.perf_counter() - t0
            assert left[board.turn] > 0, f"lost on time with {total} s"
            board.push(r.move)


def test_time_budget_and_levels() -> None:
    manager = TimeManager()
    early = manager.budget(Limit(remaining=10.0), S.time_weights(40, 16))
    assert 0 < early.optimum <= early.maximum < 10.0 / 2
    # the solve (at 16 empties and below) gets the whole usable time as its optimum
    solve = manager.budget(Limit(remaining=10.0), S.time_weights(14, 16))
    assert solve.optimum > early.optimum and solve.maximum <= 10.0 / 4
    assert manager.budget(Limit(remaining=0.0), S.time_weights(30, 16)).maximum == 0.0
    assert [S.level_settings(n).depth for n in (1, 5, 20)] == [1, 5, 20]
    assert all(S.level_settings(n).exact <= S.level_settings(n + 1).exact
               for n in range(1, S.MAX_LEVEL))
    with pytest.raises(BitgamesError):
        S.level_settings(0)
    with pytest.raises(BitgamesError):
        S.Engine(evaluation="nonsense")
    engine = S.Engine(level=3, evaluation="classic", table_bits=10)
    assert (engine.level, engine.depth, S.Engine.MAX_LEVEL) == (3, 3, 20)
    engine.level = 12
    assert engine.depth == 12 and engine.mpc and engine.exact_empties == 19
    with pytest.raises(BitgamesError, match="level must be 1..20"):
        engine.level = 21


def test_a_clock_run_out_answers_a_one_ply_search_and_says_time_ended_it() -> None:
    # after f5 f6 the first legal move (d3, by square order) is not the best by one ply
    board = Board.from_transcript("f5f6")
    engine = S.Engine(level=10, table_bits=12)
    by_one_ply = max(board.legal_moves, key=lambda m: engine.evaluate_after(board, m.square))
    assert next(iter(board.legal_moves)) != by_one_ply
    r = engine.search(board, Limit(remaining=0.0))
    assert (r.move, r.depth, r.ended) == (by_one_ply, 1, End.TIME)
    # with time to spare the level's depth completes
    assert engine.search(board, Limit(depth=2)).ended is End.COMPLETED


def test_multi_scores_every_move(engine: S.Engine) -> None:
    b = Board.from_transcript("f5")
    r = engine.search(b, Limit(depth=3), multi=3)
    assert sorted(str(m) for m, _ in r.multipv) == sorted(str(m) for m in b.legal_moves)
    values = [s.value for _, s in r.multipv]
    assert values == sorted(values, reverse=True)
    assert r.multipv[0][1].value == r.score.value  # the best move's score is the result's


def test_play_scripted_and_analyze(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from bitgames.othello.cli import cmd_analyze, cmd_play

    save = tmp_path / "game.txt"
    args = argparse.Namespace(level=1, evaluation="classic", weights=None, color="black",
                              moves="", show_thinking=True, book=None, no_book=True,
                              depth=None, nodes=None, movetime=None, threads=1)
    out = io.StringIO()
    script = f"f5\nhint\nundo\nbad\nf5\nsave {save}\nload {save}\nquit\n"
    assert cmd_play(args, io.StringIO(script), out) == 0
    text = out.getvalue()
    assert "engine plays" in text and "hint:" in text and "error:" in text
    assert save.read_text().startswith("f5") and len(save.read_text().strip()) == 4
    out = io.StringIO()
    a = argparse.Namespace(transcript="f5d6c3d3c4f4f6f3e6e7d7c6", level=2, evaluation="classic",
                           weights=None, mistake=1.0, json=False, depth=None, nodes=None,
                           movetime=None, threads=1)
    assert cmd_analyze(a, out) == 0
    rows = out.getvalue().splitlines()
    assert len(rows) == 13 and rows[0].startswith("  1. X f5")


def test_pattern_engine_uses_weights() -> None:
    from bitgames.othello import eval as ev
    from bitgames.othello import patterns as P

    w = ev.Weights.zeros()
    # one weight: the edge pattern (hv1) with only its first square, owned by the side to
    # move; a1 begins two instances (row 1 and column a), so it counts twice
    w.table[:, P.PATTERN_OFFSETS[0] + 3**7] = 1000
    e = S.Engine(level=2, evaluation="pattern", weights=w, table_bits=12)
    b = Board("X" + "-" * 26 + "OX------XO" + "-" * 26 + "- X")
    assert e.evaluate(b) == 2000
    assert isinstance(np.int64(e.evaluate(Board())), np.int64)


def _negamax(engine: S.Engine, b: Board, depth: int) -> int:
    """Plain negamax of the static evaluation: every move, no pruning, no table."""
    from bitgames.othello.board import BLACK

    if b.is_game_over():
        return 100 * (b.score() if b.turn == BLACK else -b.score())
    if b.must_pass():  # a pass does not use up depth, as in the search
        b.push("pass")
        value = -_negamax(engine, b, depth)
        b.pop()
        return value
    if depth == 0:
        return engine.evaluate(b)
    best = -S.INF
    for m in list(b.legal_moves):
        b.push(m)
        best = max(best, -_negamax(engine, b, depth - 1))
        b.pop()
    return best


def _pass_within(b: Board, depth: int) -> bool:
    if depth == 0 or b.is_game_over():
        return False
    if b.must_pass():
        return True
    for m in list(b.legal_moves):
        b.push(m)
        found = _pass_within(b, depth - 1)
        b.pop()
        if found:
            return True
    return False


@pytest.mark.parametrize("evaluation", ["pattern", "classic"])
def test_fixed_depth_search_equals_plain_negamax(evaluation: str) -> None:
    # the shortcuts near the leaves (children evaluated in place at depth 1, no table
    # there, cheaper ordering) must not change the value of a full-width search
    import random

    rng = random.Random(7)
    e = S.Engine(level=1, evaluation=evaluation, table_bits=14, mpc=False)
    boards = [Board(ENDGAMES[1])]
    with_pass = 0
    while len(boards) < 10:  # midgame, and near the end with a pass within 3 plies
        b = Board()
        for _ in range(rng.randint(15, 45) if len(boards) < 5 else rng.randint(48, 56)):
            if b.is_game_over():
                break
            b.push("pass" if b.must_pass() else rng.choice(list(b.legal_moves)))
        if b.is_game_over() or b.must_pass():
            continue
        if len(boards) >= 5:
            if not _pass_within(b, 3):
                continue
            with_pass += 1
        boards.append(b)
    assert with_pass == 5
    for b in boards:
        for depth in (1, 2, 3):
            e.new_game()
            score = e.search(b, Limit(depth=depth), solve=False).score
            assert round(100 * score.value) == _negamax(e, b, depth), (b.fen(), depth)


@pytest.mark.parametrize("opening", ["", "f5d6c3d3c4f4f6", "f5f6e6f4"])
def test_successive_iterations_agree(opening: str) -> None:
    """Issue 14's measure of the odd/even swing: the shipped evaluation, searched from
    the start (and two openings) at depths 8-14, changes its score by at most 1.5 discs
    from one iteration to the next. Before the weights were recentred the scores from the
    start alternated +4.66, -1.69, +5.11, -1.05, +3.84, -1.43, +4.22."""
    engine = S.Engine(level=20)
    scores: list[float] = []
    engine.search(Board.from_transcript(opening), Limit(depth=14),
                  on_info=lambda info: scores.append(info.score.value))
    steps = [abs(b - a) for a, b in zip(scores[7:-1], scores[8:], strict=True)]
    assert len(scores) == 14 and max(steps) <= 1.5, scores
