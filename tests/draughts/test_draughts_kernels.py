"""Rules kernels: magic tables, published perft counts, rule positions, numba hygiene."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Callable

import pytest

from bitgames.draughts import geometry as g
from bitgames.draughts import kernels as K
from bitgames.draughts.board import Board
from bitgames.draughts.magic import MAGICS, check_magic, find_magic, subsets

# Published perft counts from the start position (docs/REFERENCES.md, draughts perft):
# Russian from dctl (unique captures), English from Aart Bik 2009 and dctl.
RUSSIAN_PERFT = [1, 7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586, 22444032,
                 110917189, 544770444]
ENGLISH_PERFT = [1, 7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564,
                 85242128]


def test_numbering_is_the_seed_diagram() -> None:
    # seed 001: a1=0, b2=7, c3=14, ..., f6=3, h8=17; b8=31, h4=1; up-left adds 1
    assert [g.square_index(s) for s in ("a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8")] == [
        0, 7, 14, 21, 28, 3, 10, 17]
    assert g.square_index("b8") == 31 and g.square_index("h4") == 1
    assert sorted(g.NAMES) == sorted({g.square_name(i) for i in range(32)})
    for s in range(32):
        for d in range(4):
            n = g.neighbour(s, d)
            if n >= 0:
                assert n == (s + g.DELTA[d]) % 32
                assert int(K.step(K.U(1 << s), d)) == 1 << n
            else:
                assert int(K.step(K.U(1 << s), d)) == 0


def test_magics_are_perfect() -> None:
    assert len(MAGICS) == 15
    for line, magic in MAGICS.items():
        assert check_magic(g.mask_of(list(line)), magic)


def test_magic_search_program_finds_magics() -> None:
    import random

    rng = random.Random(7)
    for line in g.lines():
        mask = g.mask_of(line)
        assert check_magic(mask, find_magic(mask, rng))


def test_every_ray_table_entry_matches_a_ray_walk() -> None:
    T = K.tables()
    checked = 0
    for s in range(32):
        for d in range(4):
            p = 0 if d in (0, 3) else 1
            mask, magic, shift = K.line_params(s, p)
            for occ in subsets(mask):
                idx = K.magic_index(occ, mask, magic, shift)
                assert idx == int(K.line_index(s, p, K.U(occ)))
                empty, blocker = K.ray_walk(s, d, occ)
                entry = int(T[K.OFF_RAY + ((s * 4 + d) << 8) + idx])
                assert entry == empty | blocker << 32, (s, d, occ)
                checked += 1
    assert checked == sum(2 ** len(g.line_squares(s, 0 if d in (0, 3) else 1))
                          for s in range(32) for d in range(4))


@pytest.mark.parametrize("depth", range(1, 11))
def test_russian_perft(depth: int) -> None:
    w, b, k, side = K.start_position(K.RUSSIAN)
    assert K.perft(w, b, k, side, depth, K.RUSSIAN) == RUSSIAN_PERFT[depth]


@pytest.mark.parametrize("depth", range(1, 11))
def test_english_perft(depth: int) -> None:
    w, b, k, side = K.start_position(K.ENGLISH)
    assert K.perft(w, b, k, side, depth, K.ENGLISH) == ENGLISH_PERFT[depth]


@pytest.mark.slow
def test_deep_perft() -> None:
    w, b, k, side = K.start_position(K.RUSSIAN)
    assert K.perft(w, b, k, side, 12, K.RUSSIAN) == RUSSIAN_PERFT[12]
    w, b, k, side = K.start_position(K.ENGLISH)
    assert K.perft(w, b, k, side, 11, K.ENGLISH) == ENGLISH_PERFT[11]
    # Bik keeps duplicate king captures, dctl removes them: they first differ at depth 12
    assert K.perft(w, b, k, side, 12, K.ENGLISH) == 388_617_999
    assert K.perft(w, b, k, side, 12, K.ENGLISH, unique=False) == 388_623_673


def test_russian_perft_8_all_paths() -> None:
    # pydraughts counts every landing path: 929,905 at depth 8 (6 duplicate captures)
    w, b, k, side = K.start_position(K.RUSSIAN)
    assert K.perft(w, b, k, side, 8, K.RUSSIAN, unique=False) == 929_905


def test_divide_sums_to_perft() -> None:
    w, b, k, side = K.start_position(K.RUSSIAN)
    rows = K.divide(w, b, k, side, 6, K.RUSSIAN)
    assert len(rows) == 7 and sum(c for _, _, c in rows) == RUSSIAN_PERFT[6]


def names(fen: str, variant: str = "russian") -> list[str]:
    board = Board(fen, variant=variant)
    return sorted(board.move_name(m) for m in board.legal_moves)


def test_flying_king_must_land_where_the_capture_continues() -> None:
    # stopping on d4, f6, g7 or h8 after taking c3 is illegal: only e5 continues
    assert names("W:WKa1:Bc3,f4") == ["a1:e5:g3", "a1:e5:h2"]


def test_flying_king_lands_anywhere_when_the_capture_ends() -> None:
    assert names("W:WKa1:Bc3") == ["a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"]


def test_man_crowned_during_capture_goes_on_as_king() -> None:
    assert names("W:Wb6:Bc7,f6") == ["b6:d8:g5", "b6:d8:h4"]
    board = Board("W:Wb6:Bc7,f6")
    assert all(m.crowned for m in board.legal_moves)


def test_english_crowning_ends_the_move() -> None:
    # white man on b6 (numeric 9) jumps c7 (6) to d8 (2) and stops though e7 (7) hangs
    assert names("W:W9:B6,7", "english") == ["9x2"]


def test_men_capture_backwards_in_russian_only() -> None:
    assert names("W:Wd4:Bc3") == ["d4:b2"]
    assert names("W:W15:B10,11,18", "english") == ["15x6", "15x8"]


def test_turkish_strike_captured_pieces_block() -> None:
    # King d8 takes e7 and c3 and stops on b2: c3 is still on the board (removed only after
    # the move), so it blocks the main road and g7 cannot be taken on the way to h8.
    # (Found by searching random positions; pydraughts gives the same list.)
    fen = "W:Wb4,Kf8,b6,Kd8,c5,e3,g5:Bf4,c3,Ke1,e7,Ka1,g7,Kg1"
    assert names(fen) == ["b4:d2", "d8:f6:b2", "d8:f6:h8", "f8:d6:g3", "f8:d6:h2", "f8:h6"]
    (m,) = [m for m in Board(fen).legal_moves if Board(fen).move_name(m) == "d8:f6:b2"]
    assert sorted(m.captured_squares()) == ["c3", "e7"]


def test_same_start_end_and_captured_set_is_one_move() -> None:
    # two landing paths take the same pieces: one move (unique), two paths otherwise
    board = Board("W:WKf8:Bb4,e7")
    assert len(board.legal_moves) == 1
    w, b, k, side = board.bitboards()
    assert len(K.legal_moves(w, b, k, side, K.RUSSIAN, unique=False)) == 2
    ring = Board("W:Wc1:Bb2,d2,b4,d4")
    assert len(ring.legal_moves) == 1
    (m,) = ring.legal_moves
    assert m.start == m.end == g.square_index("c1") and len(m.captured_squares()) == 4


def test_same_start_end_different_captured_sets_are_two_moves() -> None:
    board = Board("W:WKe1:Be5,g5,b4,f2")
    to_a5 = [m for m in board.legal_moves if g.square_name(m.end) == "a5"]
    assert len(to_a5) == 2
    assert {len(m.captured_squares()) for m in to_a5} == {1, 4}


@pytest.mark.slow  # compiles every draughts kernel again (some 40 s)
def test_recursive_kernels_have_one_signature(tmp_path: object) -> None:
    # a fresh cache, so the recursive kernels are compiled (not loaded) in the child
    code = textwrap.dedent("""
        from bitgames.core import jit
        jit.warmup(["draughts"])
        from bitgames.draughts import kernels as K
        from bitgames.draughts import search as S
        print(len(K.capture_dfs.signatures), len(K._perft.signatures),
              len(S._pvs.signatures), len(S._quiesce.signatures))
    """)
    env = dict(os.environ, BITGAMES_CACHE_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == ["1", "1", "1", "1"]


def test_kernels_run_without_jit(run_without_jit: Callable[..., str]) -> None:
    code = textwrap.dedent("""
        from bitgames.draughts import kernels as K
        from bitgames.draughts.board import Board
        for v in (K.RUSSIAN, K.ENGLISH):
            w, b, k, side = K.start_position(v)
            print(K.perft(w, b, k, side, 4, v))
        b = Board("W:WKe1:Be5,g5,b4,f2")
        print(len(b.legal_moves))
        from bitgames.core.engine import Limit
        from bitgames.draughts.search import Engine
        r = Engine("russian", table_bits=12).search(Board(), Limit(depth=4))
        print(r.move, r.score.value, r.nodes)
    """)
    out = run_without_jit(code).split()
    from bitgames.core.engine import Limit
    from bitgames.draughts.search import Engine

    r = Engine("russian", table_bits=12).search(Board(), Limit(depth=4))
    # same counts as published, and the same search (move, score, nodes) as the JIT
    assert r.score is not None
    assert out == ["1469", "1469", "4", str(r.move), str(r.score.value), str(r.nodes)]
