"""The shared transposition table: entries, buckets and replacement, torn entries, and
win scores kept right across plies."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bitgames.core import tt

U = np.uint64
MATE, INF = 31_000, 32_000  # a win n plies from the root scores MATE - n
WIN = MATE - 128  # the least win score: a win within 128 plies


def _keys_in_one_bucket(table: np.ndarray, count: int) -> list[tuple[np.uint64, np.uint64]]:
    """Distinct keys that all map to the bucket of the first one."""
    out: list[tuple[np.uint64, np.uint64]] = []
    target = None
    k = 1
    while len(out) < count:
        key = (U(k), U(k * 7 + 3))
        base = tt._index(table, *key)
        if target is None:
            target = base
        if base == target:
            out.append(key)
        k += 1
    return out


def test_entries_round_trip_and_never_hit_another_position() -> None:
    table = tt.new_table(10)
    rng = np.random.default_rng(1)
    keys = {(U(a), U(b)) for a, b in rng.integers(1, 2**63, size=(300, 2))}
    for n, (k0, k1) in enumerate(sorted(keys)):
        tt.store(table, k0, k1, n % 60, 3, -(n % 100), n % 200, n % 64)
    hits = 0
    for n, (k0, k1) in enumerate(sorted(keys)):
        row = tt.probe(table, k0, k1)
        if row >= 0:
            hits += 1
            d = table[row, 2]
            assert (tt.lower(d), tt.upper(d), tt.move(d), tt.depth(d)) == (
                -(n % 100), n % 200, n % 64, n % 60)
        assert tt.probe(table, k1, k0) == -1
    assert hits > 250  # 300 keys in 1,024 rows: only bucket overflows are lost


def test_replacement_prefers_old_searches_then_shallow_entries() -> None:
    table = tt.new_table(6)
    a, b, c, d, e, f = _keys_in_one_bucket(table, 6)
    for key, depth in ((a, 9), (b, 3), (c, 7), (d, 5)):
        tt.store(table, *key, depth, 1, 0, 0, 0)
    tt.store(table, *e, 4, 1, 0, 0, 0)  # same search: the shallowest (b, depth 3) goes
    assert tt.probe(table, *b) == -1 and tt.probe(table, *e) >= 0
    tt.store(table, *a, 2, 2, 0, 0, 0)  # a new search rewrites a in place
    tt.store(table, *f, 1, 2, 0, 0, 0)  # an entry of the old search goes, even deep c
    assert tt.probe(table, *a) >= 0 and tt.probe(table, *f) >= 0
    assert sum(tt.probe(table, *k) >= 0 for k in (c, d, e)) == 2


def test_a_torn_entry_is_not_a_hit() -> None:
    table = tt.new_table(6)
    k0, k1 = U(0x1234), U(0x5678)
    tt.store(table, k0, k1, 4, 1, -5, 5, 9)
    row = tt.probe(table, k0, k1)
    table[row, 2] ^= U(1 << 40)  # another thread's data word under our keys
    assert tt.probe(table, k0, k1) == -1


@settings(deadline=None)  # the first example compiles the kernels
@given(st.integers(0, 60), st.integers(0, 60), st.integers(1, 60), st.booleans())
def test_a_forced_win_keeps_its_distance_at_any_ply(ply_stored: int, ply_read: int,
                                                    to_end: int, win: bool) -> None:
    """A win (or loss) ``to_end`` plies after a node is that, whichever ply the node is at."""
    sign = 1 if win else -1
    at_store = sign * (MATE - (ply_stored + to_end))
    stored = tt.value_to_tt(at_store, ply_stored, WIN, INF)
    assert tt.value_from_tt(stored, ply_read, WIN, INF) == sign * (MATE - (ply_read + to_end))


@settings(deadline=None)
@given(st.integers(-WIN + 1, WIN - 1), st.integers(0, 100))
def test_ordinary_scores_and_infinities_are_stored_as_they_are(value: int, ply: int) -> None:
    assert tt.value_to_tt(value, ply, WIN, INF) == value
    assert tt.value_from_tt(value, ply, WIN, INF) == value
    for bound in (INF, -INF):
        assert tt.value_to_tt(bound, ply, WIN, INF) == bound


def test_without_jit(run_without_jit: Callable[..., str]) -> None:
    out = run_without_jit(
        "import numpy as np\n"
        "from bitgames.core import tt\n"
        "t = tt.new_table(6)\n"
        "tt.store(t, np.uint64(5), np.uint64(6), 3, 1, -2, 8, 17)\n"
        "d = t[tt.probe(t, np.uint64(5), np.uint64(6)), 2]\n"
        "print(tt.lower(d), tt.upper(d), tt.move(d), tt.depth(d), tt.generation(d))\n")
    assert out.split() == ["-2", "8", "17", "3", "1"]
