"""The engine: tactics, limits, strength against the greedy baseline and between levels."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

from bitgames.core.engine import End, EnginePlayer, Info, Limit, Player, Score, Unit
from bitgames.core.match import GameRecord, MatchResult, referee
from bitgames.draughts import Board, Engine
from bitgames.draughts.eval import hand_weights
from bitgames.draughts.search import LEVELS, GreedyPlayer, opening_lines


def test_takes_the_winning_capture() -> None:
    board = Board("W:Wa1,c3:Bd4,f6")
    result = Engine("russian").search(board, Limit(depth=4))
    assert str(result.move) == "c3:e5:g7" and result.score == Score.win_in(1, Unit.MEN)
    assert result.ended is End.COMPLETED and str(result.score) == "win in 1"


def test_limits() -> None:
    board = Board()
    engine = Engine("russian")
    r = engine.search(board, Limit(nodes=5000))
    assert r.nodes <= 5000 + 200 and r.move in list(board.legal_moves)
    start = time.perf_counter()
    r = engine.search(board, Limit(time=0.3))
    assert time.perf_counter() - start < 2.0 and r.depth >= 3
    r = engine.search(board, Limit(depth=5))
    assert r.depth == 5 and len(r.pv) >= 1 and r.score is not None
    assert r.score.unit is Unit.MEN and not r.score.exact
    single = Board("W:Wa1,c3:Bd4")
    assert engine.search(single, Limit(time=5.0)).depth <= 2
    with pytest.raises(ValueError):
        engine.search(Board(variant="english"), Limit(depth=2))
    with pytest.raises(ValueError):
        engine.level = 99


def test_levels_set_depth_and_time() -> None:
    engine = Engine("english", level=2)
    infos: list[Info] = []
    r = engine.search(Board(variant="english"), on_info=infos.append)
    assert r.depth == LEVELS[2][0] == 2 and [i.depth for i in infos] == [1, 2]
    assert r.score == infos[-1].score and r.pv == infos[-1].pv


def test_clock_gives_a_budget_within_the_remaining_time() -> None:
    engine = Engine("russian")
    start = time.perf_counter()
    r = engine.search(Board(), Limit(remaining=3.0))
    spent = time.perf_counter() - start
    # 3 s less the reserve, shared over about 34 moves: well under a second
    assert spent < 1.0 and r.move is not None


def test_stop_from_another_thread() -> None:
    engine = Engine("russian")
    threading.Timer(0.3, engine.stop).start()
    start = time.perf_counter()
    r = engine.search(Board(), Limit(infinite=True))
    assert time.perf_counter() - start < 3.0 and r.ended is End.STOPPED
    assert r.move in list(Board().legal_moves)


@pytest.mark.parametrize("limit", [Limit(nodes=1), Limit(remaining=0.0)])
def test_a_search_cut_in_its_first_iteration_still_answers_with_a_searched_move(
        limit: Limit) -> None:
    # a node limit below the first iteration, or a clock already run out (a stop raised
    # before the search starts); the first legal move, c1-b2, gives a man away at once
    # (a3:c1): a 1-ply search sees it, an unsearched answer does not
    board = Board("W:Wc1,g1,d2,c3,h4:BKe1,a3,f6,c7,e7,g7,b8,f8,h8")
    assert str(next(iter(board.legal_moves))) == "c1-b2"
    result = Engine("russian").search(board, limit)
    assert str(result.move) != "c1-b2" and result.depth >= 1 and result.pv[0] == result.move


def test_game_over_position_has_no_move() -> None:
    r = Engine().search(Board("W:W:Bd4"), Limit(depth=3))
    assert r.move is None and r.score is not None and r.score.is_loss


def test_pv_is_legal() -> None:
    board = Board()
    r = Engine().search(board, Limit(depth=7))
    b = board.copy()
    for m in r.pv:
        assert m in list(b.legal_moves)
        b.push(m)


def play_pairs(a: Player, b: Player, variant: str, openings: int) -> MatchResult:
    """A plays B from the first ``openings`` two-ply openings, each with both colours."""
    result = MatchResult()
    for index, line in enumerate(opening_lines(variant, 2)[:openings]):
        for a_first in (True, False):
            board = Board(variant=variant)
            for move in line:
                board.push(move)
            first, second = (a, b) if a_first else (b, a)
            score, _ = referee(board, first, second, Limit(), max_plies=300)
            result.add(GameRecord(index, a_first, score if a_first else 1.0 - score))
    return result


@pytest.mark.parametrize("variant", ["russian", "english"])
def test_engine_beats_greedy(variant: str) -> None:
    # 20 openings x 2 colours; the target is >= 95 %
    engine = EnginePlayer(Engine(variant, table_bits=18), Limit(depth=LEVELS[2][0]))
    result = play_pairs(engine, GreedyPlayer(1), variant, 20)
    assert result.n == 40 and result.score >= 0.95, result.summary()


def level_match(variant: str, high: int, low: int, openings: int) -> float:
    result = play_pairs(EnginePlayer(Engine(variant, table_bits=18), Limit(depth=LEVELS[high][0])),
                        EnginePlayer(Engine(variant, table_bits=18), Limit(depth=LEVELS[low][0])),
                        variant, openings)
    lo, _ = result.elo_interval()
    assert result.score > 0.5 and result.wins > result.losses, result.summary()
    return lo


@pytest.mark.parametrize("variant", ["russian", "english"])
@pytest.mark.parametrize("high", [3, 4])
def test_level_beats_level_two_below(variant: str, high: int) -> None:
    level_match(variant, high, high - 2, 20)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["russian", "english"])
@pytest.mark.parametrize("high", [5, 6, 7])
def test_higher_levels_beat_two_below(variant: str, high: int) -> None:
    level_match(variant, high, high - 2, 20)


def test_repetition_history_for_the_search() -> None:
    board = Board("W:WKc1,a3:BKf8,h6")
    for name in ["c1-d2", "f8-g7", "d2-c1", "g7-f8"]:
        board.push(name)
    rep = Engine._repetition_keys(board)
    assert int(rep[0]) == 4  # the four positions before the root can come back
    board.push("a3-b4")  # a man move: nothing before it can repeat
    assert int(Engine._repetition_keys(board)[0]) == 0


def test_search_scores_a_forced_repetition_as_a_draw() -> None:
    # White is a man down; its king has already shuffled c1-d2-c1, so playing c1-d2 again
    # repeats a position of the game: the search scores that line as a draw (0) where the
    # same position without its history is about a man down
    board = Board("W:WKc1:BKf8,h6")
    for name in ["c1-d2", "f8-g7", "d2-c1", "g7-f8"]:
        board.push(name)
    with_history = Engine("russian").search(board, Limit(depth=4))
    fresh = Engine("russian").search(Board(board.fen()), Limit(depth=4))
    assert with_history.score == Score(0.0, Unit.MEN)
    assert fresh.score is not None and fresh.score.value < -0.5


def forced_win_plies(board: Board, limit: int) -> int | None:
    """The fewest plies (at most ``limit``) in which the side to move leaves the opponent
    without a move whatever it plays: a plain memoised minimax over the board's legal
    moves, independent of the engine's search and table."""
    memo: dict[tuple[object, int], bool] = {}

    def wins(n: int) -> bool:
        key = (board.position_key(), n)
        if key not in memo:
            memo[key] = any(_after(m, lambda: loses(n - 1)) for m in board.legal_moves)
        return memo[key]

    def loses(n: int) -> bool:  # the side to move loses within n plies
        replies = list(board.legal_moves)
        return not replies or (n >= 2 and all(_after(r, lambda: wins(n - 1)) for r in replies))

    def _after(move: object, then: Callable[[], bool]) -> bool:
        board.push(move)  # type: ignore[arg-type]
        try:
            return then()
        finally:
            board.pop()

    return next((n for n in range(1, limit + 1, 2) if wins(n)), None)


@pytest.mark.parametrize("fen", ["B:W26,12,19:B10,K30", "W:W27,14,32:B12,1",
                                 "W:WK2,K16,K26:BK3,K31"])
def test_win_distance_survives_the_table_at_another_ply(fen: str) -> None:
    # the table keeps wins relative to the node: two plies later the same engine (its
    # table full of the first search) reports a win two plies shorter, as minimax says;
    # with root-relative entries it kept reporting the first distance
    board = Board(fen)
    engine = Engine("english", table_bits=16)
    first = engine.search(board, Limit(depth=12))
    assert first.score is not None and first.score.is_win
    assert first.score.plies == forced_win_plies(board.copy(stack=False), 13)
    board.push(first.pv[0])
    board.push(first.pv[1])
    second = engine.search(board, Limit(depth=12))
    expected = forced_win_plies(board.copy(stack=False), 13)
    assert expected == first.score.plies - 2
    assert second.score == Score.win_in(expected, Unit.MEN)


@pytest.mark.parametrize("fen", ["B:W26,12,19:B10,K30", "W:W27,14,32:B12,1"])
def test_parallel_search_finds_the_minimax_win_distance(fen: str) -> None:
    # four threads on a table of 16 entries: torn or stale entries must not change the
    # proven distance, which plain minimax gives independently
    board = Board(fen)
    engine = Engine("english", table_bits=4, threads=4)
    result = engine.search(board, Limit(depth=12))
    expected = forced_win_plies(board.copy(stack=False), 13)
    assert expected is not None and result.score == Score.win_in(expected, Unit.MEN)
    assert result.move in list(board.legal_moves)


def test_a_stopped_iteration_keeps_a_better_move_it_finished() -> None:
    # depth 5 changes its mind (h6-g5 at depth 4, f8-e7 at depth 5): stopped by a node limit
    # in the middle of the fifth iteration, after f8-e7 was searched to the end, the search
    # plays it, although the last finished iteration is the fourth (with the hand
    # evaluation, with which the position was found)
    board = Board("B:Wa1,c1,e1,b2,f2,h2,a3,e3:Ba5,h6,a7,d8,f8,h8", variant="russian")

    def engine() -> Engine:
        return Engine("russian", table_bits=16, weights=hand_weights("russian"))

    four = engine().search(board, Limit(depth=4))
    five = engine().search(board, Limit(depth=5))
    assert four.move != five.move
    stopped = [engine().search(board, Limit(nodes=n)) for n in range(256, five.nodes, 64)]
    assert any(r.depth == 4 and r.move == five.move for r in stopped)


def test_a_lone_thread_marking_the_moves_it_searches_searches_as_before(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # one thread given the shared table of positions being searched (bitgames.core.smp)
    # marks each move while it searches it and unmarks it after: with nobody else
    # searching, a mark left behind would put off a later move and change the tree, so the
    # node count must be exactly the one without the table
    from bitgames.core import smp
    from bitgames.draughts import search

    board = Board("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
                  variant="russian")
    before = Engine("russian", table_bits=16).search(board, Limit(depth=9))
    full = smp.busy_table(2)
    monkeypatch.setattr(search.smp, "busy_table", lambda threads: full)
    marked = Engine("russian", table_bits=16).search(board, Limit(depth=9))
    assert (marked.move, marked.score, marked.nodes) == (before.move, before.score,
                                                          before.nodes)
    assert not full.any()  # every mark was taken back
    # marks of another thread: a marked move (not a node's first) waits for a second
    # pass over the list. Marked alone, a move goes last and the tree changes; with every
    # move marked, the second pass searches them in the first pass's order: the same
    # tree, so none was skipped
    tags = []
    for m in board.legal_moves:
        b = board.copy(stack=False)
        b.push(m)
        w, bl, k, side = b.bitboards()
        key = search.tt_key(search.U(w), search.U(bl), search.U(k), side)
        tags.append(search.U(smp.busy_tag(*key)))
    counts = set()
    for tag in tags:
        smp.mark_busy(full, tag)
        counts.add(Engine("russian", table_bits=16).search(board, Limit(depth=9)).nodes)
        smp.clear_busy(full, tag)
    assert len(counts) > 1
    for tag in tags:
        smp.mark_busy(full, tag)
    again = Engine("russian", table_bits=16).search(board, Limit(depth=9))
    assert (again.move, again.score, again.nodes) == (before.move, before.score,
                                                      before.nodes)
