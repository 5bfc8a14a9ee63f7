"""The board API (the conventions of ``bitgames.core.board``) and the engine interface."""

from __future__ import annotations

import threading
import time

import pytest

import bitgames.leiserchess as lc
from bitgames.core.engine import End, Info, Limit, Score, Unit
from bitgames.core.errors import IllegalMoveError, InvalidMoveError, InvalidPositionError
from bitgames.leiserchess import BLACK, WHITE, Board, Engine, Move, Outcome, Termination

from .test_rules import SUICIDE

KINGS = "ss7/8/8/8/8/8/8/7NN W"


def test_exports() -> None:
    for name in lc.__all__:
        assert getattr(lc, name) is not None
    assert lc.IllegalMoveError is IllegalMoveError
    assert lc.InvalidPositionError is InvalidPositionError


def test_colours_and_turn() -> None:
    board = Board()
    assert board.turn is WHITE and WHITE is True and BLACK is False
    board.push("h4g5")
    assert board.turn is BLACK
    assert board.piece_at("a7") == lc.Piece(BLACK, True, 2)  # 'ss': Lavender King facing S
    assert board.pop() == Move.from_str("h4g5") and board.turn is WHITE


def test_push_returns_none_and_accepts_text_or_move() -> None:
    board = Board()
    assert board.push("h4g5") is None  # type: ignore[func-returns-value]
    assert board.push(Move.from_str("c5R")) is None  # type: ignore[func-returns-value]
    assert [str(m) for m in board.move_stack] == ["h4g5", "c5R"]


def test_move_errors() -> None:
    with pytest.raises(InvalidMoveError, match="not next to"):
        Board().push("h4h6")
    with pytest.raises(IllegalMoveError, match="no Tangerine piece on a3"):
        Board().push("a3a2")
    with pytest.raises(IndexError):
        Board().pop()


def test_repr_round_trips_with_draw_rule() -> None:
    board = Board(KINGS, draw_rule="none")
    again = eval(repr(board), {"Board": Board})
    assert again == board and again.draw_rule == "none"


@pytest.mark.parametrize("fen,where", [
    ("ss7/8/8/8/8/8/8/7NN X", "side to move"),
    ("ss7/8/8/8/8/8/7NN W", "8 ranks"),
    ("ss7/8/8/8/8/8/8/7XX W", "rank 0"),
    ("ssss6/8/8/8/8/8/8/7NN W", "exactly one King"),
])
def test_bad_fen_names_what_and_where(fen: str, where: str) -> None:
    with pytest.raises(InvalidPositionError, match=where):
        Board(fen)


def test_outcome_king_captured() -> None:
    board = Board("ss7/8/8/8/8/8/8/WW7 W")
    board.push("a0R")  # fires up the a-file into the Lavender King
    assert board.outcome() == Outcome(Termination.KING_CAPTURED, WHITE)
    assert board.result() == "1-0" and board.winner() is WHITE
    suicide = Board(SUICIDE)
    suicide.push("g0R")
    assert suicide.outcome() == Outcome(Termination.KING_CAPTURED, BLACK)
    assert suicide.result() == "0-1"


def test_finished_game_fen_round_trips() -> None:
    board = Board("ss7/8/8/8/8/8/8/WW7 W")
    board.push("a0R")
    again = Board(board.fen())
    assert again == board and again.outcome() == board.outcome()
    assert not again.legal_moves


def test_outcome_repetition() -> None:
    board = Board(KINGS)
    for _ in range(2):
        for m in ("h0R", "a7R", "h0L", "a7L"):
            assert board.outcome() is None
            board.push(m)
    assert board.repetitions() == 3
    assert board.outcome() == Outcome(Termination.REPETITION, None)
    assert board.result() == "1/2-1/2" and board.is_game_over()


@pytest.mark.parametrize("rule,plies", [("rules", 100), ("referee", 200)])
def test_outcome_move_rule(rule: str, plies: int) -> None:
    board = Board(KINGS, draw_rule=rule)  # type: ignore[arg-type]
    # Kings walk without zapping anything and without repeating a position three times
    board.no_pawn_zap_plies = board.no_zap_plies = plies - 1
    assert board.outcome() is None
    board.push("h0R")
    assert board.outcome() == Outcome(Termination.MOVE_RULE, None)
    assert Board(KINGS, draw_rule="none").outcome() is None


# -- engine ------------------------------------------------------------------------------


def test_engine_interface_result() -> None:
    infos: list[Info] = []
    res = Engine(table_bits=14).search(Board(), Limit(depth=4), on_info=infos.append)
    assert [i.depth for i in infos] == [1, 2, 3, 4]
    assert res.depth == 4 and res.ended is End.COMPLETED
    assert isinstance(res.move, Move) and Board().is_legal(res.move)
    assert res.pv[0] == res.move and res.nodes == infos[-1].nodes
    assert res.score is not None and res.score.unit is Unit.PAWNS and not res.score.exact


def test_engine_level_sets_the_default_depth() -> None:
    # Limit() = the level's depth; level 5 (the default) searches 6 plies
    a = Engine(table_bits=14).search(Board(), Limit(depth=4))
    b = Engine(level=4, table_bits=14).search(Board())
    assert (a.nodes, a.move, a.score, b.depth) == (b.nodes, b.move, b.score, 4)
    assert Engine(table_bits=10).level == 5 and Engine(table_bits=10).default_depth == 6
    assert Engine(level=1, table_bits=10).search(Board()).depth == 1
    with pytest.raises(ValueError, match="level"):
        Engine(level=11)


def test_engine_mate_score_and_no_move() -> None:
    res = Engine(table_bits=12).search(Board("ss7/8/8/8/8/8/8/WW7 W"), Limit(depth=3))
    assert res.score == Score.win_in(1, Unit.PAWNS) and str(res.move) == "a0R"
    over = Board("ss7/8/8/8/8/8/8/WW7 W")
    over.push("a0R")
    assert Engine(table_bits=10).search(over).move is None


def test_engine_stop_from_another_thread() -> None:
    engine = Engine(table_bits=16)
    threading.Timer(0.5, engine.stop).start()
    start = time.perf_counter()
    res = engine.search(Board(), Limit(infinite=True))
    assert time.perf_counter() - start < 3.0
    assert res.ended is End.STOPPED and Board().is_legal(res.move)


def test_engine_clock_budget() -> None:
    # 2 s on the clock: the time manager's budget is a small share of it
    start = time.perf_counter()
    res = Engine(table_bits=16).search(Board(), Limit(remaining=2.0))
    assert time.perf_counter() - start < 1.0
    assert res.ended in (End.TIME, End.COMPLETED) and Board().is_legal(res.move)


def test_engine_node_limit_completes() -> None:
    res = Engine(table_bits=14).search(Board(), Limit(nodes=5000))
    assert res.ended is End.COMPLETED and 5000 <= res.nodes < 5000 + 2048
