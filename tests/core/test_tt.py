"""The shared transposition table: entries, buckets and replacement, torn entries, and
win scores kept right across plies."""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bitgames.core import tt
from bitgames.core.jit import njit

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
        d = tt.probe(table, k0, k1)
        if d != tt.MISS:
            hits += 1
            assert (tt.lower(d), tt.upper(d), tt.move(d), tt.depth(d)) == (
                -(n % 100), n % 200, n % 64, n % 60)
        assert tt.probe(table, k1, k0) == tt.MISS
    assert hits > 250  # 300 keys in 1,024 rows: only bucket overflows are lost


def test_replacement_prefers_old_searches_then_shallow_entries() -> None:
    table = tt.new_table(6)
    a, b, c, d, e, f = _keys_in_one_bucket(table, 6)
    for key, depth in ((a, 9), (b, 3), (c, 7), (d, 5)):
        tt.store(table, *key, depth, 1, 0, 0, 0)
    tt.store(table, *e, 4, 1, 0, 0, 0)  # same search: the shallowest (b, depth 3) goes
    assert tt.probe(table, *b) == tt.MISS and tt.probe(table, *e) != tt.MISS
    tt.store(table, *a, 2, 2, 0, 0, 0)  # a new search rewrites a in place
    tt.store(table, *f, 1, 2, 0, 0, 0)  # an entry of the old search goes, even deep c
    assert tt.probe(table, *a) != tt.MISS and tt.probe(table, *f) != tt.MISS
    assert sum(tt.probe(table, *k) != tt.MISS for k in (c, d, e)) == 2


def test_a_torn_entry_is_not_a_hit() -> None:
    table = tt.new_table(6)
    k0, k1 = U(0x1234), U(0x5678)
    tt.store(table, k0, k1, 4, 1, -5, 5, 9)
    row = next(i for i in range(len(table)) if table[i, 2] != 0)
    table[row, 2] ^= U(1 << 40)  # another thread's data word under our keys
    assert tt.probe(table, k0, k1) == tt.MISS


@njit(nogil=True)
def _hammer(table: np.ndarray, seed: int, rounds: int, out: np.ndarray) -> None:
    """Store and probe 64 positions at random in ``table``, each stored with data that
    depends on its key only; ``out``: [hits, hits whose data is another position's]."""
    np.random.seed(seed)
    for _ in range(rounds):
        k = np.random.randint(1, 65)
        k0, k1 = np.uint64(k), np.uint64(k * 7 + 3)
        if np.random.randint(2) == 0:
            tt.store(table, k0, k1, k % 50, 1, k - 100, k + 100, k)
        else:
            d = tt.probe(table, k0, k1)
            if d != tt.MISS:
                out[0] += 1
                if tt.lower(d) != k - 100 or tt.move(d) != k:
                    out[1] += 1


def test_threads_writing_a_tiny_table_at_once_never_read_another_positions_data() -> None:
    # 4 threads, 64 positions, 16 rows: rows change hands all the time. A probe that
    # checked a row and then read it again (as the searches once did) fails this.
    table = tt.new_table(4)
    outs = [np.zeros(2, dtype=np.int64) for _ in range(4)]
    _hammer(table, 0, 10, outs[0])  # compile first
    threads = [threading.Thread(target=_hammer, args=(table, i + 1, 3_000_000, outs[i]))
               for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    hits, wrong = sum(int(o[0]) for o in outs), sum(int(o[1]) for o in outs)
    assert hits > 100_000 and wrong == 0


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
        "d = tt.probe(t, np.uint64(5), np.uint64(6))\n"
        "print(tt.lower(d), tt.upper(d), tt.move(d), tt.depth(d), tt.generation(d))\n")
    assert out.split() == ["-2", "8", "17", "3", "1"]
