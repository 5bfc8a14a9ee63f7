"""Stable discs (the solver's stability cutoff): never flipped in any continuation, and
the full-line test against a square-by-square walk of every line."""

from __future__ import annotations

import random

import numpy as np

from bitgames.othello.kernels import flips, legal_moves
from bitgames.othello.solver import _full_lines, stable_discs
from tests.othello import reference_rules as ref

U = np.uint64


def _full_by_walking(filled: int, df: int, dr: int) -> int:
    """Squares of ``filled`` whose whole line along (df, dr) is filled, walking the line."""
    out = 0
    for sq in range(64):
        f, r = sq % 8, sq // 8
        full = True
        for sign in (1, -1):
            ff, rr = f, r
            while 0 <= ff < 8 and 0 <= rr < 8:
                if not filled >> (8 * rr + ff) & 1:
                    full = False
                ff, rr = ff + sign * df, rr + sign * dr
        if full:
            out |= 1 << sq
    return out


def test_full_lines_match_a_walk_along_each_line() -> None:
    rng = random.Random(7)
    for _ in range(400):
        density = rng.choice((0.7, 0.9, 0.97, 1.0))
        filled = sum(1 << sq for sq in range(64) if rng.random() < density)
        for d, (df, dr) in enumerate(((1, 0), (0, 1), (1, 1), (-1, 1))):
            got = int(_full_lines(U(filled), d))
            assert got == _full_by_walking(filled, df, dr), (hex(filled), d)


def _random_position(rng: random.Random, plies: int) -> tuple[int, int]:
    p, o = 0x0000_0008_1000_0000, 0x0000_0010_0800_0000
    for _ in range(plies):
        moves = ref.moves(ref.from_bits(p, o))
        if not moves:
            p, o = o, p
            continue
        sq = rng.choice(moves)
        f = int(flips(U(p), U(o), sq))
        p, o = o ^ f, p ^ f | 1 << sq
    return p, o


def test_stable_discs_are_never_flipped() -> None:
    """Random games continued from random positions to the end: no disc the function
    calls stable (of either side) ever changes colour or leaves the board."""
    rng = random.Random(11)
    checked = 0
    for _ in range(150):
        p, o = _random_position(rng, rng.randrange(30, 58))
        mine, theirs = int(stable_discs(U(p), U(o))), int(stable_discs(U(o), U(p)))
        checked += bin(mine | theirs).count("1")
        for _ in range(4):
            a, b, a_is_p = p, o, True  # a: the side to move
            while True:
                moves = int(legal_moves(U(a), U(b)))
                if moves == 0:
                    if int(legal_moves(U(b), U(a))) == 0:
                        break
                    a, b, a_is_p = b, a, not a_is_p
                    continue
                squares = [sq for sq in range(64) if moves >> sq & 1]
                sq = rng.choice(squares)
                f = int(flips(U(a), U(b), sq))
                a, b, a_is_p = b ^ f, a ^ f | 1 << sq, not a_is_p
                now_p, now_o = (a, b) if a_is_p else (b, a)
                assert mine & now_p == mine and theirs & now_o == theirs
    assert checked > 1000  # the positions had stable discs to check
