"""Rules kernels: published perft counts, JIT-free runs, differential test vs an oracle."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from bitgames.othello import kernels
from bitgames.othello.obf import ffo_problems
from tests.othello import reference_rules as ref

U = np.uint64

# docs/REFERENCES.md, Othello perft conventions: A (Edax, OEIS A124004) and B (Aart Bik).
PERFT_EDAX = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571056, 212258216,
              1939879668, 18429618408]
PERFT_BIK = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800,
             1939886636, 18429641748]


@pytest.mark.parametrize("depth", range(1, 12))
def test_perft_start_both_conventions(depth: int) -> None:
    p, o = kernels.start_position()
    assert kernels.perft(p, o, depth, kernels.EDAX) == PERFT_EDAX[depth - 1]
    assert kernels.perft(p, o, depth, kernels.BIK) == PERFT_BIK[depth - 1]


@pytest.mark.slow
@pytest.mark.parametrize("depth", [12, 13])
def test_perft_deep(depth: int) -> None:
    p, o = kernels.start_position()
    assert kernels.perft(p, o, depth, kernels.EDAX) == PERFT_EDAX[depth - 1]
    assert kernels.perft(p, o, depth, kernels.BIK) == PERFT_BIK[depth - 1]


def test_perft_without_jit_matches(run_without_jit: Callable[..., str]) -> None:
    code = (
        "from bitgames.othello import kernels as k\n"
        "p, o = k.start_position()\n"
        "print(k.perft(p, o, 5, k.EDAX), k.perft(p, o, 5, k.BIK))\n"
    )
    assert run_without_jit(code).split() == [str(PERFT_EDAX[4]), str(PERFT_BIK[4])]


def test_recursive_kernels_have_one_signature() -> None:
    """Each recursive kernel is compiled for exactly one signature (numba#6061 otherwise).

    The solver runs first (from the cache or compiled, which types its callees), then each
    kernel is called directly with the argument types production code uses: a second
    signature appears if any call site passes other types (a literal, say).
    """
    from bitgames.othello import solver

    solve_ffo = solver.Solver(table_bits=12)
    board_text = ffo_problems(1, 1)[0].board
    from bitgames.othello.board import Board

    solve_ffo.solve(Board(board_text))
    p, o = (U(x) for x in Board(board_text).bitboards())
    i64 = np.int64
    stats = np.zeros(4, dtype=np.int64)
    bufs = (np.zeros((61, 40), dtype=np.int64), np.zeros((61, 40), dtype=np.int64),
            np.zeros((61, 40), dtype=np.uint64))
    empties = ~(p | o)
    kernels.perft(p, o, 3, kernels.EDAX)
    kernels.perft_stoppable(p, o, 3, kernels.EDAX, np.zeros(1, dtype=np.int64))  # as the CLI
    ev = solve_ffo.evaluation
    sel = i64(solver.EXACT)
    solver._nws(p, o, i64(0), i64(14), solve_ffo.table, i64(1), *bufs, stats, ev, sel)
    solver._pvs(p, o, i64(-64), i64(64), i64(14), i64(0), solve_ffo.table, i64(1), *bufs,
                np.zeros((130, 130), dtype=np.int64), np.zeros(130, dtype=np.int64), stats, ev,
                sel)
    solver._shallow(p, o, i64(0), empties, solver._odd_quadrants(empties), i64(14), stats)
    solver._solve2(p, o, i64(0), empties, stats)
    solver._order_search(p, o, i64(2), i64(-100), i64(100), ev, stats)
    for fn in (kernels.perft, kernels.perft_stoppable, solver._nws, solver._pvs,
               solver._shallow, solver._solve2, solver._order_search):
        assert len(fn.signatures) == 1, (fn, fn.signatures)


def _random_positions(count: int, seed: int) -> list[tuple[int, int]]:
    """Positions from random games (player to move, opponent), at every stage."""
    rng = random.Random(seed)
    out: list[tuple[int, int]] = []
    while len(out) < count:
        cells = [0] * 64
        cells[27] = cells[36] = 2
        cells[28] = cells[35] = 1
        stop = rng.randrange(0, 61)
        for _ in range(stop):
            ms = ref.moves(cells)
            if not ms:
                cells = [0 if v == 0 else 3 - v for v in cells]
                ms = ref.moves(cells)
                if not ms:
                    break
            cells = ref.play(cells, rng.choice(ms))
        p = sum(1 << i for i, v in enumerate(cells) if v == 1)
        o = sum(1 << i for i, v in enumerate(cells) if v == 2)
        out.append((p, o))
    return out


def test_differential_against_simple_rules() -> None:
    """Legal moves, flips of every move, game over and final score on 1,200 positions."""
    for p, o in _random_positions(1200, seed=2026):
        cells = ref.from_bits(p, o)
        expected_moves = ref.moves(cells)
        got = int(kernels.legal_moves(U(p), U(o)))
        assert got == sum(1 << m for m in expected_moves)
        for sq in expected_moves:
            want = sum(1 << s for s in ref.flipped(cells, sq))
            assert int(kernels.flips(U(p), U(o), sq)) == want
            q, r = kernels.make_move(U(p), U(o), sq)
            assert ref.from_bits(int(q), int(r)) == ref.play(cells, sq)
        over = not expected_moves and not ref.moves(cells, 2)
        assert bool(kernels.is_game_over(U(p), U(o))) == over
        assert kernels.final_score(U(p), U(o)) == ref.final(cells)


def test_illegal_square_flips_nothing() -> None:
    p, o = kernels.start_position()
    assert kernels.flips(p, o, 0) == 0  # a1: no neighbour
    assert kernels.flips(p, o, 37) == 1 << 36  # black f5 flips e5
    assert kernels.flips(o, p, 37) == 0  # white cannot play f5
