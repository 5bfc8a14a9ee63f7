"""Board API: FEN, notation, push/pop, game end, draw rules; PDN round trips."""

from __future__ import annotations

import random

import pytest
from draughts_differential import playout_fens, random_fen

from bitgames.core.board import Outcome
from bitgames.core.errors import BitgamesError
from bitgames.draughts import (
    BLACK,
    WHITE,
    AmbiguousMoveError,
    Board,
    DrawRules,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    Move,
    Termination,
)
from bitgames.draughts.pdn import PdnError, read_game, read_games, write_game


@pytest.mark.parametrize("variant", ["russian", "english"])
def test_fen_round_trip(variant: str) -> None:
    rng = random.Random(3)
    fens = [random_fen(rng, variant) for _ in range(200)] + playout_fens(rng, variant, 20)
    for fen in fens:
        board = Board(fen, variant=variant)
        again = Board(board.fen(), variant=variant)
        assert again.fen() == board.fen() and again == board
        assert eval(repr(board)) == board


def test_start_positions() -> None:
    assert Board().turn == WHITE and len(Board().legal_moves) == 7
    english = Board(variant="english")
    assert english.turn == BLACK
    assert english.fen() == Board("B:W21-32:B1-12", variant="english").fen()
    # lidraughts' numeric FEN with halfmove/fullmove fields
    assert Board("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12:H0:F1",
                 variant="english") == english


@pytest.mark.parametrize("fen", [
    "", "X:Wa1:Bh8", "W:Wa1", "W:Wz9:Bh8", "W:Wa2:Bh8", "W:Wa1,a1:Bh8", "W:Wa1:Ba1",
    "W:Wb8:Bh6", "W:Wa3:Bc1", "W:W33:B1", "W:W5-2:B1", "W:Wa1:Bh8:Wc3",
])
def test_bad_fens_raise_clear_errors(fen: str) -> None:
    with pytest.raises(InvalidFenError) as info:
        Board(fen)
    assert isinstance(info.value, BitgamesError) and isinstance(info.value, ValueError)
    assert str(info.value)


def test_notation_and_parsing() -> None:
    board = Board("W:WKe1:Be5,g5,b4,f2")
    short = board.parse_move("e1:a5")  # the full path of the one-piece capture
    long = board.parse_move("e1:h4:f6:c3:a5")
    assert short.captured_squares() == ["b4"] and len(long.captured_squares()) == 4
    assert board.parse_move("e1:h4:a5") == long  # intermediate squares as a subsequence
    assert board.parse_move("E1:H4:F6:C3:A5") == long  # case-insensitive squares
    # same start and end, different captured sets: the short form is ambiguous
    amb = Board("B:Wd6,b4,e3,d4,d2,f2,f4,Kb8:Bh8,g3,Kc1,f6,Kg1,h4,a3,Ka1")
    with pytest.raises(AmbiguousMoveError, match="g3:e1:c3:a5"):
        amb.parse_move("g3:a5")
    assert amb.parse_move("g3:e5:c3:a5") != amb.parse_move("g3:e1:c3:a5")
    # Hub form: from x to x captured squares (numbers), any order
    hub = amb.parse_move("g3:e5:c3:a5").hub_name()
    assert amb.parse_move(hub) == amb.parse_move("g3:e5:c3:a5")
    with pytest.raises(IllegalMoveError):
        board.parse_move("e1-d2")
    with pytest.raises(InvalidMoveError):
        board.parse_move("nonsense")
    english = Board(variant="english")
    assert english.move_name(english.parse_move("11-15")) == "11-15"
    assert english.parse_move("11-15").hub_name() == "11-15"


def test_fen_says_its_variant() -> None:
    # PDN practice: English checkers FENs number the squares 1-32, Russian ones use a1-h8
    english = Board(variant="english")
    english.push("11-15")
    assert Board(english.fen()).variant == "english" and Board(english.fen()) == english
    assert Board("W:Wa1:Bh8").variant == "russian"
    assert Board("B:W21-32:B1-12") == Board(variant="english")
    # variant= overrides: a Russian position written in numbers (as Hub positions are)
    assert Board("W:W29:B4", variant="russian") == Board("W:Wa1:Bh8")
    with pytest.raises(InvalidFenError, match="mixes numbers"):
        Board("W:W29,c3:B4")


def test_move_value_type() -> None:
    # English notation of the standard numbers: 9 is the square b6 in bit terms... checked
    # through the board: Black's first moves from 9..12 to 13..16
    english = Board(variant="english")
    names = sorted(str(m) for m in english.legal_moves)
    assert names == ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]
    for board in (english, Board()):
        for move in board.legal_moves:
            assert eval(repr(move)) == move and board.parse_move(str(move)) == move
    assert Move.from_str("c3:e5:c7").captured_squares() == ["d4", "d6"]
    assert Move.from_str("9x18").captured_squares() == ["14"]
    assert Move.from_str("c3-d4") != Move.from_str("22-18")  # different variants
    long = Board("W:WKa1:Bd4").parse_move("a1:e5")
    assert eval(repr(long)) == long and "captured='d4'" in repr(long)
    for bad in ["c3", "c3-z9", "c3:d4", "c3-e5-g7", "c3-22", "a1:e5", "33-29"]:
        with pytest.raises(InvalidMoveError):
            Move.from_str(bad)


def test_outcome_terminations() -> None:
    blocked = Board("W:Wa1:Bb2,c3")
    assert blocked.outcome() == Outcome(Termination.NO_MOVES, BLACK)
    board = Board("W:WKc1:BKf8")
    shuffle(board, "c1", "d2", "f8", "g7", 2)
    assert board.outcome() == Outcome(Termination.REPETITION, None)
    rules = DrawRules(repetition=None, kings_only=1)
    kings = Board("W:WKc1,a3:BKf8,h6", draw_rules=rules)
    kings.push("c1-d2")
    kings.push("f8-g7")
    assert kings.outcome() == Outcome(Termination.MOVE_RULE, None)
    road = Board("W:WKc1,Ke1,Kg1:BKh8", draw_rules=DrawRules(repetition=None, main_road=1))
    road.push("c1-d2")
    road.push("h8-g7")
    assert road.outcome() == Outcome(Termination.DRAW_RULE, None)
    assert Board().outcome() is None and Board().result() == "*"


def test_push_pop_copy() -> None:
    board = Board()
    fens = [board.fen()]
    for name in ["c3-d4", "f6-e5", "d4:f6", "g7:e5"]:
        board.push(name)
        fens.append(board.fen())
    copy = board.copy()
    copy.push(next(iter(copy.legal_moves)))
    assert board.fen() == fens[-1] and len(copy.move_stack) == 5
    for fen in reversed(fens[:-1]):
        board.pop()
        assert board.fen() == fen
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(InvalidMoveError):  # c4 is a light square: no move at all
        board.push("c3-c4")
    with pytest.raises(IllegalMoveError):
        board.push("c3-e5")


def test_no_move_loses() -> None:
    assert Board("W:W:Bd4").result() == "0-1"
    blocked = Board("W:Wa1:Bb2,c3")  # a1 blocked and cannot take b2 (c3 occupied)
    assert blocked.is_game_over() and blocked.winner() == BLACK and blocked.result() == "0-1"
    assert "Game over" in str(blocked)
    assert Board("B:Wd4:B", variant="english").result() == "1-0"


def shuffle(board: Board, a: str, b: str, c: str, d: str, times: int) -> None:
    for _ in range(times):
        board.push(f"{a}-{b}")
        board.push(f"{c}-{d}")
        board.push(f"{b}-{a}")
        board.push(f"{d}-{c}")


def test_threefold_repetition() -> None:
    board = Board("W:WKc1:BKf8")
    shuffle(board, "c1", "d2", "f8", "g7", 1)
    assert board.draw_reason() is None and board.repetitions() == 2
    shuffle(board, "c1", "d2", "f8", "g7", 1)
    assert board.repetitions() == 3 and board.result() == "1/2-1/2"


def test_kings_only_and_english_forty_move_rules() -> None:
    rules = DrawRules(repetition=None, kings_only=15)
    board = Board("W:WKc1,a3:BKf8,h6", draw_rules=rules)
    shuffle(board, "c1", "d2", "f8", "g7", 7)
    board.push("c1-d2")
    assert board.draw_reason() is None  # 29 plies
    board.push("f8-g7")
    assert "only kings" in (board.draw_reason() or "")
    english = Board("B:WK29,21:BK4,12", variant="english",
                    draw_rules=DrawRules(repetition=None, no_progress=40))
    shuffle(english, "4", "8", "29", "25", 19)
    english.push("4-8")
    english.push("29-25")
    english.push("8-4")
    assert english.draw_reason() is None  # 79 plies
    english.push("25-29")
    assert "40 moves" in (english.draw_reason() or "")


def test_main_road_rule() -> None:
    rules = DrawRules(repetition=None, main_road=5)
    board = Board("W:WKc1,Ke1,Kg1:BKh8", draw_rules=rules)
    shuffle(board, "c1", "d2", "h8", "g7", 2)
    board.push("c1-d2")
    assert board.draw_reason() is None
    board.push("h8-g7")
    assert "main road" in (board.draw_reason() or "")
    # the default Russian rules also carry the rule (with repetition on)
    assert DrawRules.russian().main_road == 5 and DrawRules.english().kings_only is None


def test_str_shows_grid_and_side() -> None:
    text = str(Board(variant="english"))
    assert text.splitlines()[0] == "8 . b . b . b . b" and text.endswith("Black to move")


@pytest.mark.parametrize("variant", ["russian", "english"])
def test_pdn_round_trip(variant: str) -> None:
    rng = random.Random(11)
    for start in (None, random_fen(rng, variant)):
        board = Board(start, variant=variant)
        for _ in range(rng.randint(5, 40)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        text = write_game(board, {"Event": "test", "White": "a", "Black": "b"})
        assert f'[GameType "{25 if variant == "russian" else 21}"]' in text
        game = read_game(text)
        assert game.board.fen() == board.fen()
        assert game.board.move_stack == board.move_stack
        assert game.tags["Event"] == "test"


def test_pdn_reads_comments_variations_and_several_games() -> None:
    text = """[Event "one"]
[GameType "25,W,8,8,A0,0"]

1. c3-d4 {a comment} f6-e5 (1... f6-g5 2. d4-e5) 2. d4:f6! g7:e5 $1 1-1

[Event "two"]
[GameType "21"]
1. 11-15 22-18 2. 15x22 25x18 0-1
"""
    games = list(read_games(text))
    assert [g.tags["Event"] for g in games] == ["one", "two"]
    assert len(games[0].board.move_stack) == 4 and games[0].result == "1-1"
    assert games[1].board.variant == "english" and len(games[1].board.move_stack) == 4


@pytest.mark.parametrize("text, match", [
    ('[GameType "20"]\n1. 32-28 *', "GameType"),
    ('[GameType "25"]\n1. c3-d4 f6-e5 2. a1-b2 *', "move 3"),
    ('[GameType "25"]\n[FEN "nonsense"]\n*', "FEN"),
    ("", "no game"),
])
def test_pdn_errors(text: str, match: str) -> None:
    with pytest.raises(PdnError, match=match):
        read_game(text)
