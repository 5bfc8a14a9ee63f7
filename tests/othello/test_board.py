"""The Board API: strings, transcripts, push/pop, passes, results, errors."""

from __future__ import annotations

import re

import pytest

from bitgames.othello.board import (
    BLACK,
    WHITE,
    Board,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Outcome,
    Termination,
    parse_square,
)

FFO1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"


def test_start_position() -> None:
    b = Board()
    assert b.turn == BLACK
    assert b.disc_count() == (2, 2)
    assert sorted(str(m) for m in b.legal_moves) == ["c4", "d3", "e6", "f5"]
    assert b.result() == "*" and b.outcome() is None
    assert BLACK is False and WHITE is True


def test_string_round_trip_and_repr() -> None:
    b = Board(FFO1)
    assert b.fen() == FFO1
    assert eval(repr(b)) == b  # noqa: S307 - repr evaluates back
    obf = FFO1 + "; G8:+18; H1:+12"
    assert Board(obf) == b
    lower = FFO1.replace("X", "x").replace("O", "o")
    assert Board(lower[:-1] + "O").turn == WHITE


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("", "empty"),
        ("X" * 63 + " X", "64 squares"),
        ("X" * 65 + " X", "64 squares"),
        ("Z" + "-" * 63 + " X", "square 1 (a1)"),
        ("-" * 64 + " Q", "side to move"),
    ],
)
def test_bad_board_strings(text: str, fragment: str) -> None:
    with pytest.raises(InvalidPositionError, match=re.escape(fragment)):
        Board(text)
    assert issubclass(InvalidPositionError, ValueError)


def test_move_names() -> None:
    assert parse_square("F5") == 37
    assert Move.from_str("pass").is_pass()
    with pytest.raises(InvalidMoveError):
        Move.from_str("z9")
    with pytest.raises(InvalidMoveError):
        Move.from_str("a")


def test_push_pop_and_illegal_moves() -> None:
    b = Board()
    with pytest.raises(IllegalMoveError, match="a1 is illegal"):
        b.push("a1")
    with pytest.raises(IllegalMoveError, match="cannot pass"):
        b.push("pass")
    b.push("f5")
    assert b.turn == WHITE
    assert b.disc_count() == (4, 1)
    assert b.pop() == Move.from_str("f5")
    assert b == Board()
    with pytest.raises(IndexError):
        b.pop()


def test_transcript_with_passes() -> None:
    # A known 9-move wipe-out (the shortest possible game): f5 d6 c5 f4 e3 f6 d3 f3 d4?
    # Instead of relying on a remembered line, find a game with a pass by search.
    import random

    rng = random.Random(7)
    for _ in range(500):
        b = Board()
        passed = False
        while not b.is_game_over():
            moves = list(b.legal_moves)
            m = rng.choice(moves)
            passed |= m.is_pass()
            b.push(m)
        if passed:
            break
    assert passed, "no random game with a pass found"
    implicit = b.transcript()
    explicit = b.transcript(passes=True)
    assert "pa" in explicit and "pa" not in implicit
    assert Board.from_transcript(implicit) == b
    assert Board.from_transcript(explicit) == b
    assert b.is_game_over()
    black, white = b.disc_count()
    empties = 64 - black - white
    diff = black - white
    assert b.score() == diff + (empties if diff > 0 else -empties if diff < 0 else 0)
    assert b.winner() == (None if diff == 0 else BLACK if diff > 0 else WHITE)
    outcome = b.outcome()
    assert outcome is not None and outcome.score == b.score()
    assert outcome.termination is Termination.NO_MOVES and outcome.winner == b.winner()
    x, o = (int(n) for n in b.result().split("-"))
    assert x + o == 64 and x - o == b.score()


def test_shortest_game_result() -> None:
    # The shortest possible game (9 moves, Black wins 13-0, M. Maruo 1975): empties go
    # to the winner in the result.
    b = Board.from_transcript("f5f4c3c6c5d6f3c4c7")
    assert b.disc_count() == (13, 0)
    assert b.result() == "64-0" and b.winner() is BLACK
    assert b.outcome() == Outcome(Termination.NO_MOVES, BLACK, 64)
    assert list(b.legal_moves) == []


def test_pass_is_listed_exactly_when_legal() -> None:
    board = Board("-" * 27 + "OX------XO" + "-" * 27 + " X")
    assert Move.null() not in board.legal_moves
    # a1 White, b1 Black: Black cannot flank the corner, White takes c1 (O X O)
    b = Board("OX" + "-" * 62 + " X")
    assert list(b.legal_moves) == [Move.null()] and b.must_pass()
    assert b.result() == "*"
    b.push("pass")
    assert b.turn is WHITE and [str(m) for m in b.legal_moves] == ["c1"]
    b.push("c1")  # now neither side can move: White wins 3-0, 64-0 with the empties
    assert list(b.legal_moves) == [] and b.result() == "0-64" and b.winner() is WHITE
    with pytest.raises(IllegalMoveError, match="game is over"):
        b.push("pass")


def test_transcript_errors_say_where() -> None:
    with pytest.raises(IllegalMoveError, match="move 2"):
        Board.from_transcript("f5a1")
    with pytest.raises(InvalidMoveError):
        Board.from_transcript("f5d")


def test_copy_is_independent() -> None:
    b = Board()
    b.push("f5")
    c = b.copy()
    c.push("d6")
    assert len(b.move_stack) == 1 and len(c.move_stack) == 2
    assert b.copy(stack=False).move_stack == []


def test_str_marks_moves() -> None:
    grid = Board().grid(mark_moves=True)
    assert grid.count("*") == 4
    assert "Black (X) to move" in str(Board())
