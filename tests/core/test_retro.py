"""The generic retrograde solver on toy games with independently known values."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bitgames.core.jit import njit
from bitgames.core.retro import DRAW, INVALID, LOSS, UNKNOWN, WIN, solve, solve_graph


def subtraction_graph(n: int, steps: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    indptr = [0]
    succ: list[int] = []
    for s in range(n):
        succ += [s - k for k in steps if s - k >= 0]
        indptr.append(len(succ))
    return np.array(indptr), np.array(succ)


def test_subtraction_game_1_2_3() -> None:
    # Bouton-style theory: with moves {1, 2, 3} the lost heaps are the multiples of 4, and
    # the game lasts 2 * (n // 4) + 1 plies from a won heap, 2 * (n // 4) from a lost one.
    values, depth = solve_graph(*subtraction_graph(101, (1, 2, 3)))
    for n in range(101):
        assert values[n] == (LOSS if n % 4 == 0 else WIN)
        assert depth[n] == 2 * (n // 4) + (1 if n % 4 else 0)


def test_subtraction_game_1_3_4() -> None:
    # Known result: with moves {1, 3, 4}, heaps with n % 7 in {0, 2} are lost.
    values, _ = solve_graph(*subtraction_graph(200, (1, 3, 4)))
    for n in range(200):
        assert values[n] == (LOSS if n % 7 in (0, 2) else WIN)


def fixed_point(succ_lists: list[list[int]]) -> list[int]:
    """Values by naive iteration to a fixed point (an independent method)."""
    n = len(succ_lists)
    v = [UNKNOWN] * n
    changed = True
    while changed:
        changed = False
        for s in range(n):
            if v[s] != UNKNOWN:
                continue
            succ = succ_lists[s]
            if any(v[t] == LOSS for t in succ):
                v[s] = WIN
                changed = True
            elif all(v[t] == WIN for t in succ):
                v[s] = LOSS
                changed = True
    return [DRAW if x == UNKNOWN else x for x in v]


@pytest.mark.parametrize("seed", range(20))
def test_random_cyclic_graphs(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(5, 300)
    degrees = [rng.choice([0, 1, 1, 2, 3, 4]) for _ in range(n)]
    lists = [[rng.randrange(n) for _ in range(d)] for d in degrees]
    indptr = np.cumsum([0] + [len(x) for x in lists])
    succ = np.array([t for x in lists for t in x], dtype=np.int64)
    values, _ = solve_graph(indptr, succ)
    assert list(values) == fixed_point(lists)


def test_draw_cycle_and_multi_edges() -> None:
    # 0 <-> 1 is a cycle (draw); 2 has two moves into the lost state 3 and one into 0
    values, _ = solve_graph(np.array([0, 1, 2, 5, 5]), np.array([1, 0, 3, 3, 0]))
    assert list(values) == [DRAW, DRAW, WIN, LOSS]


@njit
def _chain_preds(s: int, ctx: np.ndarray, out: np.ndarray) -> int:
    # implicit graph: state s moves to s - 1 only (s >= 1); ctx unused
    if s + 1 < ctx.shape[0]:
        out[0] = s + 1
        return 1
    return 0


def test_implicit_predecessors_and_invalid_states() -> None:
    n = 10
    values = np.zeros(n, dtype=np.uint8)
    values[0] = LOSS
    values[7] = INVALID  # never touched, never a predecessor target of propagation
    counts = np.ones(n, dtype=np.uint8)
    depth = np.zeros(0, dtype=np.int32)
    progress = np.zeros(2, dtype=np.int64)
    decided = solve(values, counts, depth, _chain_preds, np.zeros(n), 4, progress)
    assert list(values[:7]) == [LOSS, WIN, LOSS, WIN, LOSS, WIN, LOSS]
    assert values[7] == INVALID and list(values[8:]) == [DRAW, DRAW]
    assert decided == 6
    assert list(progress) == [7, 7]  # the queue emptied: 1 seed and 6 decided states
