"""Rules of Leiserchess 2016: perft counts, worked examples, Ko, zaps, pins, swaps, FEN."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bitgames.core.bits import iter_bits
from bitgames.leiserchess import kernels
from bitgames.leiserchess.board import BLACK, WHITE, Board, IllegalMoveError, Move
from bitgames.leiserchess.notation import (
    START_FEN,
    FenError,
    MoveError,
    format_fen,
    parse_fen,
    parse_square,
    square_name,
)
from bitgames.leiserchess.perft import perft_board

from . import refimpl

U = np.uint64

SUICIDE = "ssse6/8/5se1sw/2nw5/5NESW1/2NE5/8/6NWNN W"
TACTIC = "ssse3SW2/3sw4/5se1sw/ne1nw5/6SESW/2NE1NE3/6NW1/7NN W"


def names(bitmap: int) -> list[str]:
    return [square_name(s) for s in iter_bits(bitmap)]


# -- perft: the course handout's counts (reference §6) ----------------------------------


@pytest.mark.parametrize("depth,count", [(1, 78), (2, 6_084), (3, 473_126)])
def test_handout_perft(depth: int, count: int) -> None:
    assert perft_board(Board(), depth)["total"] == count


@pytest.mark.slow
def test_handout_perft_depth4() -> None:
    assert perft_board(Board(), 4)["total"] == 36_767_050


@pytest.mark.parametrize("depth,count", [(1, 65), (2, 4_227), (3, 281_474)])
def test_legal_perft(depth: int, count: int) -> None:
    # counts of the reference's independent model (Ko (a)+(b), no history at the root)
    assert perft_board(Board(), depth, legal=True)["total"] == count


@pytest.mark.slow
def test_legal_perft_depth4() -> None:
    assert perft_board(Board(), 4, legal=True)["total"] == 18_743_510


def test_divide_sums_to_total() -> None:
    d = perft_board(Board(), 3, divide=True)
    assert d["total"] == 473_126 and len(d) == 79


def test_perft_without_jit_matches(run_without_jit: Callable[..., str]) -> None:
    code = (
        "from bitgames.leiserchess.board import Board\n"
        "from bitgames.leiserchess.perft import perft_board\n"
        "print(perft_board(Board(), 2)['total'], perft_board(Board(), 2, legal=True)['total'])\n"
    )
    assert run_without_jit(code, timeout=300).split() == ["6084", "4227"]


def test_recursive_kernels_have_one_signature() -> None:
    perft_board(Board(), 2)
    perft_board(Board(), 2, legal=True)
    perft_board(Board(TACTIC), 2, legal=True, divide=True)
    assert len(kernels.perft.signatures) == 1
    assert len(kernels.perft_legal.signatures) == 1


# -- worked examples from the rules PDF (reference §6) ----------------------------------


def test_suicide_example() -> None:
    board = Board(SUICIDE)
    board.push("g0R")
    assert board.result() == "0-1"
    assert board.winner() == BLACK
    assert board.piece_at("h0") is None
    assert board.is_game_over() and len(board.legal_moves) == 0


def test_suicide_beam_path() -> None:
    board = Board(SUICIDE)
    board.push("g0R")
    board.pop()
    # after g0R the beam runs h0 -> h5 -> f5 -> f3 -> g3 -> g0 -> h0
    w, b, k, o0, o1 = board.bitboards()
    g0r = Move.from_str("g0R").code
    nw, nb, nk, n0, n1 = kernels.apply_move(U(w), U(b), U(k), U(o0), U(o1), g0r)
    path, stop, kind = kernels.trace(nw | nb, nk, n0, n1, parse_square("h0"))
    assert kind == 2 and stop == parse_square("h0")
    expected = {"h0", "h1", "h2", "h3", "h4", "h5", "g5", "f5", "f4", "f3", "g3", "g2", "g1", "g0"}
    assert set(names(int(path))) == expected


def test_suicide_position_black_pins() -> None:
    board = Board(SUICIDE.replace(" W", " B"))
    assert set(names(board.pinned())) == {"f5", "h5"}
    froms = {square_name(m.from_square) for m in board.pseudo_legal_moves}
    assert "f5" not in froms and "h5" not in froms
    assert {"a7", "b7", "c4"} <= froms


def test_tactic_example() -> None:
    board = Board(TACTIC)
    assert board.piece_at("f5") is not None
    board.push("c2b1")
    assert board.last_zapped == 1 and board.piece_at("f5") is None
    board.push("d6c7")
    assert board.result() == "0-1" and board.piece_at("h0") is None


# -- Ko ----------------------------------------------------------------------------------


def test_start_ko_exclusions() -> None:
    board = Board()
    pseudo = {str(m) for m in board.pseudo_legal_moves}
    legal = {str(m) for m in board.legal_moves}
    excluded = pseudo - legal
    assert len(excluded) == 13
    assert "h0h0" in excluded  # null move that zaps nothing
    # the other 12: swaps of two adjacent Tangerine SE pawns (both directions)
    se = {"d0", "e1", "d2", "f2", "g3", "f4", "h4"}
    for m in excluded - {"h0h0"}:
        assert m[:2] in se and m[2:] in se


def test_ko_undo_of_mixed_swap() -> None:
    board = Board("ss7/8/8/8/8/8/6nw1/7NN W")
    board.push("h0g1")  # King swaps with the enemy pawn, nothing zapped
    assert not board.is_legal("h0g1")
    with pytest.raises(IllegalMoveError, match="Ko rule"):
        board.push("h0g1")


def test_ko_no_history_after_fen() -> None:
    # same position as after the swap, set up by FEN: no history, so the swap is legal
    board = Board("ss7/8/8/8/8/8/6NN1/7nw B")
    assert board.is_legal("h0g1")


def test_null_move_legal_only_if_it_zaps() -> None:
    board = Board("ss7/8/8/7nw/8/8/8/7NN W")  # h4 pawn: beam travelling N hits NW's body
    assert board.is_legal("h0h0")
    board.push("h0h0")
    assert board.last_zapped == 1 and board.piece_at("h4") is None
    assert not Board("ss7/8/8/8/8/8/8/7NN W").is_legal("h0h0")


# -- zaps ----------------------------------------------------------------------------------


def test_multi_zap() -> None:
    board = Board("7ss/8/nw7/8/ne7/8/8/NN7 W")
    board.push("a0a0")
    assert board.last_zapped == 2
    assert board.fen() == "7ss/8/8/8/8/8/8/NN7 B"


def test_refire_from_scratch() -> None:
    # The beam goes d0 -> d3 (turned west) -> b3 -> b5 -> f5 -> f3 -> back into d3 from the
    # east, which zaps it. Fired again from scratch, the beam runs straight up the d-file.
    board = Board("7ss/8/1SE3SW2/8/1NE1sw1NW2/8/8/3NN4 W")
    path_before = board.laser_path(WHITE)
    assert {"b3", "b5", "f5", "f3", "e3"} <= set(names(path_before))
    board.push("d0d0")
    assert board.last_zapped == 1 and board.piece_at("d3") is None
    assert board.fen() == "7ss/8/1SE3SW2/8/1NE3NW2/8/8/3NN4 B"
    assert set(names(board.laser_path(WHITE))) == {f"d{r}" for r in range(8)}


def test_friendly_fire() -> None:
    board = Board("7ss/8/8/8/NW7/8/8/NN7 W")
    board.push("a0a0")
    assert board.last_zapped == 1 and board.piece_at("a3") is None


def test_zap_enemy_king_wins() -> None:
    board = Board("ss7/8/8/8/8/8/8/WW7 W")
    board.push("a0R")  # now facing N, fires up the a-file into the Lavender King
    assert board.result() == "1-0"


# -- pins and swaps -----------------------------------------------------------------------


def test_pinned_pawn_is_passive_swap_partner() -> None:
    # Lavender King on h7 faces W: its beam crosses rank 7 and pins the Tangerine pawn b7.
    board = Board("1NW5ww/8/8/8/8/8/8/NN7 W")
    assert names(board.pinned()) == ["b7"]
    assert not any(m.from_square == parse_square("b7") for m in board.legal_moves)
    # the King on a0 is not adjacent; put it next to the pinned pawn via FEN
    board = Board("1NW5ww/NN7/8/8/8/8/8/8 W")
    assert board.is_legal("a6b7")
    board.push("a6b7")
    piece = board.piece_at("a6")
    assert piece is not None and piece.symbol() == "NW"


def test_swap_with_enemy_king() -> None:
    board = Board("8/8/8/8/8/8/1ss6/SE6NN W")
    board.push("a0b1")
    assert board.piece_at("a0").symbol() == "ss"
    assert board.piece_at("b1").symbol() == "SE"


def test_king_swaps_with_enemy_king() -> None:
    board = Board("8/8/8/8/8/8/8/6NNss W")
    board.push("g0h0")
    assert board.piece_at("g0").symbol() == "ss" and board.piece_at("h0").symbol() == "NN"


def test_rotations() -> None:
    board = Board("7ww/8/8/8/8/8/8/NE1NN5 W")
    board.push("a0R")
    assert board.piece_at("a0").symbol() == "SE"
    board.pop()
    board.push("a0U")
    assert board.piece_at("a0").symbol() == "SW"
    board.pop()
    board.push("a0L")
    assert board.piece_at("a0").symbol() == "NW"


def test_move_count_bound() -> None:
    # at most 7 * (8 + 3) + (8 + 3 + 1) = 89 pseudo-legal moves
    board = Board("ss7/8/2NWNWNW3/2NW1NW3/2NWNWNN3/8/8/8 W")
    assert len(board.pseudo_legal_moves) == 89


# -- draws ----------------------------------------------------------------------------------


def test_threefold_repetition() -> None:
    board = Board("ss7/8/8/8/8/8/8/7NN W")
    for _ in range(2):
        for m in ("h0R", "a7R", "h0L", "a7L"):
            board.push(m)
    assert board.repetitions() == 3
    assert board.is_draw() and board.result() == "1/2-1/2"


def test_fifty_move_rule_and_referee_variant() -> None:
    board = Board("ss7/8/8/8/8/8/8/7NN W")
    board.no_pawn_zap_plies = 99
    assert not board.is_draw()
    board.push("h0R")
    assert board.is_draw()
    ref = Board("ss7/8/8/8/8/8/8/7NN W", draw_rule="referee")
    ref.no_zap_plies = 199
    ref.push("h0R")
    assert ref.is_draw()
    ref2 = Board("ss7/8/8/8/8/8/8/7NN W", draw_rule="referee")
    ref2.no_zap_plies = 150
    ref2.push("h0R")
    assert not ref2.is_draw()
    none = Board("ss7/8/8/8/8/8/8/7NN W", draw_rule="none")
    none.no_pawn_zap_plies = none.no_zap_plies = 10_000
    assert not none.is_draw() and len(none.legal_moves) > 0


# -- FEN and notation ---------------------------------------------------------------------


def test_start_fen_round_trip() -> None:
    assert format_fen(*parse_fen(START_FEN)) == START_FEN
    assert repr(Board()) == f"Board({START_FEN!r})"
    assert eval(repr(Board(TACTIC))) == Board(TACTIC)


@pytest.mark.parametrize(
    "fen",
    [
        "ss7/8/8/8/8/8/8/7NN",
        "ss7/8/8/8/8/8/8/7NN X",
        "ss7/8/8/8/8/8/7NN W",
        "ss7/8/8/8/8/8/8/8NN W",
        "ss7/8/8/8/8/8/8/6NN W",
        "ss7/8/8/8/8/8/8/7XX W",
        "ss7/8/8/8/8/8/8/7Nn W",
        "8/8/8/8/8/8/8/8 W",
        "ssss6/8/8/8/8/8/8/7NN W",
        "ss7/8/8/8/NWNWNWNWNWNWNWNW/8/8/7NN W",
    ],
)
def test_bad_fen(fen: str) -> None:
    with pytest.raises(FenError):
        Board(fen)


@pytest.mark.parametrize("text", ["", "h4", "h4h6", "i0i1", "h8h7", "h4X", "h4g5x"])
def test_bad_move_text(text: str) -> None:
    with pytest.raises(MoveError):
        Move.from_str(text)


def test_illegal_move_messages() -> None:
    board = Board()
    with pytest.raises(IllegalMoveError, match="no Tangerine piece on a3"):
        board.push("a3a2")
    b = Board(SUICIDE.replace(" W", " B"))
    with pytest.raises(IllegalMoveError, match="pinned"):
        b.push("f5f6")


@st.composite
def random_positions(draw: st.DrawFn) -> str:
    squares = draw(st.permutations(range(64)))
    nw = draw(st.integers(0, 7))
    nb = draw(st.integers(0, 7))
    pieces: dict[int, str] = {}
    pieces[squares[0]] = draw(st.sampled_from(["NN", "EE", "SS", "WW"]))
    pieces[squares[1]] = draw(st.sampled_from(["nn", "ee", "ss", "ww"]))
    for i in range(nw):
        pieces[squares[2 + i]] = draw(st.sampled_from(["NW", "NE", "SE", "SW"]))
    for i in range(nb):
        pieces[squares[2 + nw + i]] = draw(st.sampled_from(["nw", "ne", "se", "sw"]))
    rows = []
    for r in range(7, -1, -1):
        row, run = "", 0
        for f in range(8):
            p = pieces.get(r * 8 + f)
            if p is None:
                run += 1
            else:
                row += (str(run) if run else "") + p
                run = 0
        rows.append(row + (str(run) if run else ""))
    return "/".join(rows) + " " + draw(st.sampled_from("WB"))


@settings(max_examples=200, deadline=None)
@given(random_positions())
def test_fen_round_trip_random(fen: str) -> None:
    assert Board(fen).fen() == fen
    assert format_fen(*parse_fen(fen)) == fen


@settings(max_examples=200, deadline=None)
@given(random_positions())
def test_beam_terminates_and_zaps_never_add(fen: str) -> None:
    board = Board(fen)
    w, b, k, o0, o1 = board.bitboards()
    for side in (WHITE, BLACK):
        ksq = board.king_square(side)
        assert ksq is not None
        _, _, kind = kernels.trace(U(w | b), U(k), U(o0), U(o1), ksq)
        assert kind in (0, 1, 2)
    before = bin(w | b).count("1")
    for m in board.pseudo_legal_moves:
        nw, nb, nk, *_ = kernels.make_move(U(w), U(b), U(k), U(o0), U(o1), board.side, m.code)
        assert bin(int(nw) | int(nb)).count("1") <= before


@settings(max_examples=150, deadline=None)
@given(random_positions())
def test_against_independent_model(fen: str) -> None:
    board = Board(fen)
    ref_board, side = refimpl.parse(fen)
    ours = sorted(str(m) for m in board.pseudo_legal_moves)
    assert ours == sorted(refimpl.moves(ref_board, side))
    for m in ours:
        b2 = board.copy()
        b2._boards = b2._boards[-1:]  # no Ko history: compare raw effects
        w, b, k, o0, o1 = b2.bitboards()
        nw, nb, nk, n0, n1, zapped, res = kernels.make_move(
            U(w), U(b), U(k), U(o0), U(o1), board.side, Move.from_str(m).code
        )
        rb, rz, loser = refimpl.play(ref_board, side, m)
        assert int(zapped) == rz
        if loser is None:
            assert res == kernels.NONE
            assert format_fen(int(nw), int(nb), int(nk), int(n0), int(n1), 1 - side) == \
                refimpl.fen_of(rb, 1 - side)
        else:
            want = kernels.WHITE_KING_ZAPPED if loser == "white" else kernels.BLACK_KING_ZAPPED
            assert res == want


def test_random_games_against_independent_model() -> None:
    rng = random.Random(6172)
    for _ in range(20):
        board = Board()
        ref_board, side = refimpl.parse(START_FEN)
        for _ply in range(60):
            legal = list(board.legal_moves)
            if not legal:
                break
            m = rng.choice(legal)
            board.push(m)
            ref_board, _, loser = refimpl.play(ref_board, side, str(m))
            side = 1 - side
            if loser is not None:
                assert board.result() == ("0-1" if loser == "white" else "1-0")
                break
            assert board.fen() == refimpl.fen_of(ref_board, side)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="nsewNSEW12345678/ WBx0", max_size=60))
def test_fen_parser_fuzz(text: str) -> None:
    try:
        board = Board(text)
    except FenError:
        return
    assert Board(board.fen()) == board


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abcdefghi0123456789RULrul ", max_size=6))
def test_move_parser_fuzz(text: str) -> None:
    board = Board()
    try:
        move = board.parse_move(text)
    except (MoveError, IllegalMoveError):
        return
    assert move in board.legal_moves
