"""The learned draughts evaluation: its windows against a square-by-square reading of the
board, its sum against the formula in the module's docstring, and its weight files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bitgames.core.errors import BitgamesError
from bitgames.draughts import eval as E
from bitgames.draughts import geometry as g
from bitgames.draughts import kernels as K
from bitgames.draughts import patterns as P


def random_positions(n: int, seed: int) -> list[tuple[int, int, int, int]]:
    """Random (white, black, kings, side) with up to 12 pieces a side, a few kings."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        squares = rng.permutation(32)
        nw, nb = rng.integers(1, 13, size=2)
        white = sum(1 << int(s) for s in squares[:nw])
        black = sum(1 << int(s) for s in squares[nw:nw + nb])
        kings = sum(1 << int(s) for s in squares[:nw + nb] if rng.random() < 0.15)
        out.append((white, black, kings, int(rng.integers(2))))
    return out


def window_squares(i: int) -> list[tuple[int, int]]:
    """(rank, column) of the 8 squares of window ``i``, digit by digit."""
    if i < 7:
        return [(i + j // 4, j % 4) for j in range(8)]
    rank, column = divmod(i - 7, 3)
    return [(rank + j // 2, column + j % 2) for j in range(8)]


def reference_index(w: int, b: int, k: int, side: int, i: int) -> int:
    """Window ``i``'s pattern, read square by square from the side to move's view."""
    value = {}
    for s in range(32):
        f, r = g.COORDS[s]
        if side == K.BLACK:
            f, r = 7 - f, 7 - r
        man = not k >> s & 1
        own = (w if side == K.WHITE else b) >> s & 1
        opp = (b if side == K.WHITE else w) >> s & 1
        value[(r, f // 2)] = 1 if man and own else 2 if man and opp else 0
    return sum(value[sq] * 3 ** j for j, sq in enumerate(window_squares(i)))


def test_windows_cover_the_board_in_groups_of_eight_squares() -> None:
    for i in range(P.N_WINDOWS):
        squares = window_squares(i)
        assert len(set(squares)) == 8
        assert all(0 <= r < 8 and 0 <= c < 4 for r, c in squares)


def test_window_patterns_match_a_square_by_square_reading() -> None:
    for w, b, k, side in random_positions(300, 1):
        U = np.uint64
        own, opp = P.oriented(U(w & ~k), U(b & ~k), side)
        for i in range(P.N_WINDOWS):
            assert P.window_index(own, opp, i) == reference_index(w, b, k, side, i)


def test_learned_evaluation_is_the_documented_sum() -> None:
    rng = np.random.default_rng(2)
    wt = np.zeros(P.SIZE, dtype=np.int64)
    wt[P.FIRST:] = rng.integers(-50, 51, size=P.SIZE - P.FIRST)
    tables = wt[P.TABLES:].reshape(2, P.N_WINDOWS, P.PATTERNS)
    d = wt[P.FIRST:P.TABLES]
    road = g.mask_of(g.lines()[8])
    for w, b, k, side in random_positions(200, 3):
        sign = 1 if side == K.WHITE else -1
        men = bin((w | b) & ~k).count("1")
        kings = sign * (bin(w & k).count("1") - bin(b & k).count("1"))
        on_road = sign * (bin(w & k & road).count("1") - bin(b & k & road).count("1"))
        U = np.uint64
        mobility = sign * (K.count_quiet(U(w), U(b), U(k), 0, K.RUSSIAN)
                           - K.count_quiet(U(w), U(b), U(k), 1, K.RUSSIAN))
        x = [reference_index(w, b, k, side, i) for i in range(P.N_WINDOWS)]
        opening = sum(int(tables[0, i, x[i]]) for i in range(P.N_WINDOWS))
        ending = sum(int(tables[1, i, x[i]]) for i in range(P.N_WINDOWS))
        opening += d[P.D_KING_OPEN] * kings + d[P.D_MOBILITY_OPEN] * mobility
        ending += d[P.D_KING_END] * kings + d[P.D_MOBILITY_END] * mobility
        expected = (men * opening + (24 - men) * ending) // 24 + d[P.D_ROAD] * on_road
        assert E.evaluate(U(w), U(b), U(k), side, K.RUSSIAN, wt) == expected


def test_a_position_and_its_colour_reversed_twin_score_the_same() -> None:
    rng = np.random.default_rng(4)
    wt = np.zeros(P.SIZE, dtype=np.int64)
    wt[P.FIRST:] = rng.integers(-50, 51, size=P.SIZE - P.FIRST)
    turn = [g.index_of(7 - f, 7 - r) for f, r in g.COORDS]

    def turned(x: int) -> int:
        return sum(1 << turn[s] for s in range(32) if x >> s & 1)

    U = np.uint64
    for w, b, k, side in random_positions(200, 5):
        here = E.evaluate(U(w), U(b), U(k), side, K.RUSSIAN, wt)
        twin = E.evaluate(U(turned(b)), U(turned(w)), U(turned(k)), 1 - side, K.RUSSIAN, wt)
        assert here == twin


def test_a_bad_pattern_file_is_named(tmp_path: Path) -> None:
    short = tmp_path / "short.npz"
    np.savez(short, learned=np.zeros(10, dtype=np.int16), variant=np.array("russian"))
    with pytest.raises(BitgamesError, match="short.npz.*expected"):
        P.load_patterns(short)
    old = tmp_path / "old.npz"
    np.savez(old, weights=np.zeros(P.SIZE, dtype=np.int64))
    with pytest.raises(BitgamesError, match="old.npz.*no array 'learned'"):
        P.load_patterns(old)
    with pytest.raises(BitgamesError, match="missing.npz"):
        P.load_patterns(tmp_path / "missing.npz")


def test_saved_weights_load_back_whole(tmp_path: Path) -> None:
    learned = np.arange(P.SIZE - P.FIRST, dtype=np.int64) % 601 - 300
    P.save_patterns(tmp_path / "w.npz", learned, "english")
    weights = P.load_patterns(tmp_path / "w.npz")
    assert (weights[:P.FIRST] == E.hand_weights("english")).all()
    assert (weights[P.FIRST:] == learned).all()
    with pytest.raises(BitgamesError, match="16 bits"):
        P.save_patterns(tmp_path / "big.npz", learned * 1000, "english")
