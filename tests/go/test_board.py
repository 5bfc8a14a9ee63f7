"""Hand-built rule cases (suicide, snapback, ko, triple ko, superko), moves, position
strings, outcomes, SGF, API."""

from __future__ import annotations

import pytest

from bitgames.core.errors import BitgamesError, InvalidMoveError
from bitgames.go import (
    BLACK,
    WHITE,
    Board,
    IllegalMoveError,
    InvalidPositionError,
    Move,
    Rules,
    Termination,
)
from bitgames.go.sgf import SgfError, parse_sgf, read_sgf, to_sgf


def diagram(rows: list[str], rules: str = "default", komi: float = 7.5) -> Board:
    """A board from rows drawn top first: X black, O white, . empty."""
    size = len(rows)
    board = Board(size=size, rules=rules, komi=komi)
    black, white = [], []
    for i, line in enumerate(rows):
        row = size - 1 - i
        for col, ch in enumerate(line.replace(" ", "")):
            if ch == "X":
                black.append(row * size + col)
            elif ch == "O":
                white.append(row * size + col)
    board.setup(black, white)
    return board


ALL_RULES = ["default", "tromp-taylor", "simple-ko", "situational"]


@pytest.mark.parametrize("rules", ALL_RULES)
def test_single_stone_suicide_is_illegal_everywhere(rules: str) -> None:
    board = diagram([". . . . .", ". . . . .", ". . . . .", "O . . . .", ". O . . ."], rules)
    assert not board.is_legal("A1")
    assert Move.from_gtp("A1") not in board.legal_moves
    with pytest.raises(IllegalMoveError):
        board.push("A1")


def test_multi_stone_suicide_only_in_tromp_taylor() -> None:
    rows = [". . . . .", ". . . . .", ". . . . .", "O O . . .", "X . O . ."]
    for rules in ("default", "simple-ko", "situational"):
        assert not diagram(rows, rules).is_legal("B1")
    board = diagram(rows, "tromp-taylor")
    assert board.is_legal("B1")
    board.push("B1")
    assert board.color_at("A1") is None and board.color_at("B1") is None
    assert board.captures(WHITE) == 2 and board.captures(BLACK) == 0
    board.pop()
    assert board.color_at("A1") is BLACK and board.color_at("B1") is None


@pytest.mark.parametrize("rules", ALL_RULES)
def test_snapback(rules: str) -> None:
    board = diagram([". . . . .", ". . . . .", "X X X X .", "O O O X .", ". . O X ."], rules)
    board.push("B1")  # throw-in
    board.push("A1")  # white captures one stone
    assert board.captures(WHITE) == 1 and board.ko_point is None
    assert board.is_legal("B1")  # retaking five stones is no ko
    board.push("B1")
    assert board.captures(BLACK) == 5
    for v in ("A1", "A2", "B2", "C2", "C1"):
        assert board.color_at(v) is None


@pytest.mark.parametrize("rules", ALL_RULES)
def test_simple_ko(rules: str) -> None:
    board = diagram([". . . . .", ". X O . .", "X O . O .", ". X O . .", ". . . . ."], rules)
    board.push("C3")  # black takes the ko
    assert board.captures(BLACK) == 1
    assert board.ko_point is not None and board.vertex(board.ko_point) == "B3"
    assert not board.is_legal("B3")
    board.push("E5")  # a ko threat elsewhere
    board.push("E1")
    assert board.is_legal("B3")
    board.push("B3")
    assert board.color_at("C3") is None and board.captures(WHITE) == 1


def _triple_ko(rules: str) -> Board:
    # three ko shapes (rows 2, 5, 8, columns C-F); white holds the first two, black the third
    def v(row: int, col: int) -> str:
        return "ABCDEFGHJ"[col] + str(row + 1)

    black, white = [], []
    for r, holder in ((1, WHITE), (4, WHITE), (7, BLACK)):
        black += [v(r, 2), v(r + 1, 3), v(r - 1, 3)]
        white += [v(r + 1, 4), v(r - 1, 4), v(r, 5)]
        (white if holder == WHITE else black).append(v(r, 3) if holder == WHITE else v(r, 4))
    board = Board(size=9, rules=rules)
    board.setup(black, white)
    for m in ("E2", "D8", "E5", "D2", "E8"):
        board.push(m)
    return board


def test_triple_ko_cycle() -> None:
    # the sixth capture recreates the starting position with Black to move:
    # legal under simple ko, forbidden by positional and situational superko
    assert _triple_ko("simple-ko").is_legal("D5")
    assert not _triple_ko("default").is_legal("D5")
    assert not _triple_ko("situational").is_legal("D5")
    board = _triple_ko("simple-ko")
    start = _triple_ko("simple-ko")
    for _ in range(5):
        start.pop()
    board.push("D5")
    assert board.stones(BLACK) == start.stones(BLACK)
    assert board.stones(WHITE) == start.stones(WHITE)
    assert board.turn == start.turn == BLACK


# Fuego's regression/sgf/repetition/positional-superko.sgf (GoGui, 2006), used by Fuego's
# repetition.tst: after move 2, W B9 is legal under simple ko and situational superko and
# illegal under positional superko (GNU Go 3.8 agrees, reference go.md §2.4).
PSK_SGF = (
    "(;FF[4]CA[ISO8859_1]GN[positional-superko]AP[GoGui:0.8.x]SZ[9]KM[6.5]"
    "AB[ad][bd][bb][cd][cc][cb][db][da]"
    "AW[ae][ac][ab][be][ba][ce][de][dd][dc][ec][eb][ea]PL[W];W[ca];B[aa];"
    "C[W B9 is forbidden if positional superko is used])"
)


def test_positional_vs_situational_superko() -> None:
    assert read_sgf(PSK_SGF, "simple-ko").is_legal("B9", WHITE)
    assert read_sgf(PSK_SGF, "situational").is_legal("B9", WHITE)
    assert not read_sgf(PSK_SGF, "default").is_legal("B9", WHITE)
    assert Move.from_gtp("B9") not in read_sgf(PSK_SGF).legal_moves


def test_area_score_walls() -> None:
    # reference go.md §3.2: black wall on column D, white wall on column E, komi 7.5:
    # Tromp-Taylor 36 - 45, W+16.5 (GNU Go final_score agrees)
    board = Board(size=9, komi=7.5)
    board.setup([f"D{r}" for r in range(1, 10)], [f"E{r}" for r in range(1, 10)])
    assert board.area() == 36 - 45 and board.score() == -16.5
    board.push(Move.PASS)
    board.push(Move.PASS)
    assert board.result() == "W+16.5"


def test_two_passes_end_the_game() -> None:
    board = Board(size=9, moves="E5 pass")
    assert not board.is_game_over() and board.result() == "*" and board.outcome() is None
    board.push(Move.PASS)
    assert board.is_game_over() and board.result() == "B+73.5"
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.PASSES
    assert outcome.winner is BLACK and outcome.score == 81 - 7.5
    # play may go on (GTP's clean-up phase): a move resumes the game
    assert Move.from_gtp("A1") in board.legal_moves
    board.push("A1")
    assert not board.is_game_over()


def test_resignation() -> None:
    board = Board(size=9, moves="E5")
    assert not board.is_legal(Move.RESIGN) and Move.RESIGN not in board.legal_moves
    board.push("resign")  # White resigns
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.RESIGNATION
    assert outcome.winner is BLACK and outcome.score is None and board.result() == "B+R"
    assert not board.legal_moves and not board.is_legal(Move.PASS)
    with pytest.raises(IllegalMoveError, match="resigned"):
        board.push(Move.PASS)
    assert board.pop() == Move.RESIGN and board.result() == "*"
    board.push(Move.RESIGN, BLACK)
    assert board.result() == "W+R"


def test_move_value_type() -> None:
    d4 = Move.from_gtp("d4")
    assert d4 == Move(3, 3) and hash(d4) == hash(Move(3, 3)) and str(d4) == "D4"
    assert repr(d4) == "Move.from_gtp('D4')" and eval(repr(d4), {"Move": Move}) == d4
    assert str(Move.PASS) == "pass" and repr(Move.RESIGN) == "Move.RESIGN"
    assert Move.from_gtp(" PASS ") is Move.PASS and Move.PASS.is_pass and Move.RESIGN.is_resign
    # J is the 9th column (no I); the point number depends on the board size, the move not
    assert Move.from_gtp("J9").point(9) == 80 and Move.from_gtp("J9").point(19) == 8 * 19 + 8
    assert Move.from_point(80, 9) == Move.from_gtp("J9") and Move.from_point(-1, 9).is_pass
    assert Move.from_gtp("Z25") == Move(24, 24)
    for bad in ("I5", "A0", "A26", "", "5A", "pas", "D4x", "D٤"):
        with pytest.raises(InvalidMoveError):
            Move.from_gtp(bad)
    with pytest.raises(InvalidMoveError, match="off the 9x9 board"):
        Move.from_gtp("K10").point(9)
    with pytest.raises(InvalidMoveError):
        Move(25, 0)


def test_vertices() -> None:
    board = Board(size=19)
    assert board.parse_move("T19").point(19) == 360 and board.parse_move("j1") == Move(0, 8)
    for bad in ("I5", "Z1", "A20", "A0", "", "5A", "pas"):
        with pytest.raises(BitgamesError):
            board.parse_move(bad)
    assert board.is_legal("I5") is False


def test_errors() -> None:
    board = Board(size=9, moves="E5")
    with pytest.raises(IllegalMoveError, match="E5"):
        board.push("E5")
    with pytest.raises(BitgamesError):
        Board(size=1)
    with pytest.raises(IndexError):
        Board(size=9).pop()
    with pytest.raises(IndexError):
        Board(size=9).peek()
    with pytest.raises(BitgamesError, match="unknown rules"):
        Rules.parse("japanese-ish")
    with pytest.raises(BitgamesError):
        board.setup(["A1"])


def test_push_pop_copy_repr() -> None:
    board = Board(size=9, komi=6.5, rules="situational", moves="E5 D4 pass C3")
    clone = board.copy()
    assert eval(repr(board), {"Board": Board}) == board
    assert board.pop() == Move.from_gtp("C3")
    assert clone != board and len(clone.move_stack) == 4
    text = str(clone)
    assert "o" in text and "X" in text and text.splitlines()[0].split() == list("ABCDEFGHJ")


def test_sgf_round_trip_with_handicap() -> None:
    board = Board(size=13, komi=0.5)
    board.setup(["D4", "K10"])
    board.turn = WHITE
    for m in ("C3", "D3", "pass"):
        board.push(m)
    text = to_sgf(board)
    assert "HA[2]" in text and "AB[dj][jd]" in text and "PL[W]" in text
    again = read_sgf(text)
    assert again == board and again.komi == 0.5
    assert again.move_stack == board.move_stack
    assert eval(repr(board), {"Board": Board}) == board


def test_sgf_main_line_and_errors() -> None:
    game = parse_sgf("(;SZ[9];B[ee](;W[dd];B[cc])(;W[ff]))")
    assert [list(n) for n in game.nodes] == [["B"], ["W"], ["B"]]
    assert read_sgf("(;SZ[9];B[ee](;W[dd];B[cc])(;W[ff]))").vertex(0) == "A1"
    assert len(read_sgf("(;SZ[9];B[ee];W[dd];B[cc])", move_number=3).move_stack) == 2
    for bad in ("", "(;SZ[9]", "(;SZ[9];B[zz])", "(;SZ[9];B[ee];W[ee])", "(;SZ[x])"):
        with pytest.raises(SgfError):
            read_sgf(bad)


def test_position_string_format() -> None:
    # written by hand from the documented format: rows from the top, X black, O white,
    # runs of empty points as numbers; side to move, ko point, passes, komi, rules
    board = Board(size=5, komi=0.5, rules="simple-ko", moves="C3 D3 pass")
    assert board.fen() == "5/5/2XO1/5/5 w - 1 0.5 simple-ko"
    again = Board("5/5/2XO1/5/5 w - 1 0.5 simple-ko")
    assert again == board and again.turn is WHITE and again.passes == 1
    assert again.color_at("C3") is BLACK and again.color_at("D3") is WHITE
    assert again.komi == 0.5 and again.rules == Rules.parse("simple-ko")
    assert Board().fen() == "9/9/9/9/9/9/9/9/9 b - 0 7.5 default"
    assert Board() == Board(Board().fen())
    nineteen = Board(size=19, moves="Q16")
    assert nineteen.fen().split()[0].split("/")[3] == "15X3"
    assert Board(nineteen.fen()) == nineteen


def test_position_string_keeps_the_ko() -> None:
    board = diagram([". . . . .", ". X O . .", "X O . O .", ". X O . .", ". . . . ."])
    board.push("C3")  # black takes the ko: white may not retake at B3 at once
    fen = board.fen()
    assert fen.split()[1:3] == ["w", "B3"]
    again = Board(fen)
    assert again.ko_point == board.ko_point and not again.is_legal("B3")
    assert Board(fen.replace(" B3 ", " - ")) != board  # the ko point is part of equality
    assert Board(fen.replace(" B3 ", " - ")).is_legal("B3")


def test_copies_stay_independent_through_pop() -> None:
    board = Board(size=5, moves="C3 D3 B3")
    clone = board.copy()
    board.pop()
    board.push("E5")  # plays on the state popped from the shared history
    assert clone.fen() == "5/5/1XXO1/5/5 w - 0 7.5 default"
    clone.pop()
    assert clone.fen() == "5/5/2XO1/5/5 b - 0 7.5 default"


def test_equality_and_hash() -> None:
    a = Board(size=9, moves="E5 D5 pass")
    b = Board(size=9, moves="pass D5 E5")  # same stones and side to move, another history
    assert a == b and hash(a) == hash(b)
    assert a != Board(size=9, komi=6.5, moves="E5 D5 pass")
    assert a != Board(size=9, moves="E5 D5")  # the side to move differs
    assert len({a, b, a.copy()}) == 1


@pytest.mark.parametrize(
    ("fen", "message"),
    [
        ("9/9/9 b - 0 7.5", "expected 6 fields"),
        ("9 b - 0 7.5 default", "board size must be 2 to 25"),
        ("9/9/9/9/9/9/9/9/8 b - 0 7.5 default", "row 1 has 8 points, expected 9"),
        ("9/9/9/9/4x4/9/9/9/9 b - 0 7.5 default", "row 5: unexpected 'x'"),
        ("9/9/9/9/4X04/9/9/9/9 b - 0 7.5 default", "row 5: bad run"),
        ("9/9/9/9/9/9/9/9/9 x - 0 7.5 default", "side to move"),
        ("9/9/9/9/9/9/9/9/9 b - 3 7.5 default", "passes must be 0, 1 or 2"),
        ("9/9/9/9/9/9/9/9/9 b - 0 seven default", "bad komi"),
        ("9/9/9/9/9/9/9/9/9 b - 0 inf default", "bad komi"),
        ("9/9/9/9/9/9/9/9/9 b - 0 7.5 japanese", "unknown rules"),
        ("9/9/9/9/9/9/9/O8/XO7 b - 0 7.5 default", "block at A1 has no liberty"),
        ("9/9/9/9/9/9/9/9/9 b K1 0 7.5 default", "ko point: vertex K1 is off the 9x9"),
        ("9/9/9/9/9/9/9/9/9 b E5 0 7.5 default", "E5 is no ko point"),
    ],
)
def test_position_string_errors(fen: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        Board(fen)
