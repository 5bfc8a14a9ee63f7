"""Move generation compared with pydraughts on random positions (sets of start, end, captured).

The default run checks 1,000 positions per variant (600 random placements with many kings
and long captures, 400 from random games); ``-m slow`` checks 5,000 more per variant.
"""

from __future__ import annotations

import random

import pytest
from draughts_differential import (
    our_moves,
    playout_fens,
    pydraughts_moves,
    random_fen,
)

pytest.importorskip("draughts")


def positions(variant: str, seed: int, random_count: int, games: int) -> list[str]:
    rng = random.Random(seed)
    fens = [random_fen(rng, variant) for _ in range(random_count)]
    return fens + playout_fens(rng, variant, games)


def compare(fens: list[str], variant: str) -> None:
    bad = []
    for fen in fens:
        ours, theirs = our_moves(fen, variant), pydraughts_moves(fen, variant)
        if ours != theirs:
            bad.append((fen, ours ^ theirs))
    assert not bad, f"{len(bad)} of {len(fens)} differ, first: {bad[:3]}"


@pytest.mark.parametrize("variant", ["russian", "english"])
def test_same_moves_as_pydraughts(variant: str) -> None:
    compare(positions(variant, 1, 600, 400), variant)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["russian", "english"])
def test_same_moves_as_pydraughts_many(variant: str) -> None:
    compare(positions(variant, 2, 4000, 1000), variant)
