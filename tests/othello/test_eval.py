"""Pattern indices against a square-by-square computation; evaluation properties."""

from __future__ import annotations

import numpy as np
import pytest

from bitgames.othello import eval as ev
from bitgames.othello import patterns as P
from bitgames.othello.board import Board
from bitgames.othello.kernels import legal_moves, make_move, start_position

U = np.uint64


def random_positions(n: int, seed: int = 1) -> list[tuple[int, int]]:
    """Positions from random games (all stages), plus random 3-colourings of the board."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        p, o = start_position()
        for _ in range(int(rng.integers(0, 61))):
            moves = int(legal_moves(U(p), U(o)))
            if moves == 0:
                if int(legal_moves(U(o), U(p))) == 0:
                    break
                p, o = o, p
                continue
            squares = [s for s in range(64) if moves >> s & 1]
            p, o = make_move(U(p), U(o), int(rng.choice(squares)))
        out.append((int(p), int(o)))
        colours = rng.integers(0, 3, 64)
        out.append((sum(1 << s for s in range(64) if colours[s] == 1),
                    sum(1 << s for s in range(64) if colours[s] == 2)))
    return out


def test_every_instance_index_matches_square_by_square() -> None:
    for p, o in random_positions(400):
        for i in range(P.N_INSTANCES):
            got = int(ev.instance_index(U(p), U(o), ev.GATHER, ev.B3, i))
            assert got == P.index_reference(p, o, i), (P.describe()[i], p, o)


def test_full_and_empty_instances() -> None:
    full = (1 << 64) - 1
    for i in range(P.N_INSTANCES):
        n = int((P.INST_SQUARES[i] >= 0).sum())
        assert ev.instance_index(U(full), U(0), ev.GATHER, ev.B3, i) == (3**n - 1) // 2
        assert ev.instance_index(U(0), U(full), ev.GATHER, ev.B3, i) == 3**n - 1
        assert ev.instance_index(U(0), U(0), ev.GATHER, ev.B3, i) == 0


def _mirror(x: int, k: int) -> int:
    return sum(1 << P._sym(s, k) for s in range(64) if x >> s & 1)


def test_instances_are_symmetric_images_and_share_tables() -> None:
    # the multiset of canonical weight indices is invariant under the 8 symmetries
    for p, o in random_positions(40, seed=2):
        def canon(i: int, idx: int) -> int:
            return int(P.PACK[int(P.INST_OFFSET[i]) + idx])

        base = sorted(canon(i, P.index_reference(p, o, i)) for i in range(P.N_INSTANCES))
        for k in range(8):
            q, r = _mirror(p, k), _mirror(o, k)
            img = sorted(canon(i, P.index_reference(q, r, i)) for i in range(P.N_INSTANCES))
            assert img == base


def test_methods_are_documented_and_used() -> None:
    methods = {r["method"] for r in P.describe()}
    assert methods == set(P.METHOD_NAMES.values())
    counts = {pat.name: int((P.INST_PATTERN == k).sum()) for k, pat in enumerate(P.PATTERNS)}
    assert counts == {"hv1": 4, "hv2": 4, "hv3": 4, "hv4": 4, "d8": 2, "d7": 4, "d6": 4,
                      "d5": 4, "d4": 4, "c3x3": 4, "c2x5": 8, "e2x": 4}


def test_base3_tables_are_shared_and_small() -> None:
    # every row and column is gathered in its canonical order: they all share one table
    rows = [i for i in range(P.N_INSTANCES) if P.PATTERNS[P.INST_PATTERN[i]].name[:2] == "hv"]
    assert len({int(P.B3_BASE[i]) for i in rows}) == 1
    assert P.B3.dtype == np.int16 and P.B3.nbytes <= 16 * 1024  # fits in the L1 cache
    assert int(P.B3.max()) == (3**10 - 1) // 2  # the 10-square patterns, all discs "1"


def test_random_weights_evaluation_is_symmetric_and_equals_feature_sum() -> None:
    rng = np.random.default_rng(3)
    w = rng.integers(-50, 50, size=(ev.N_STAGES, P.N_WEIGHTS)).astype(np.int32)
    w = w[:, P.PACK]  # tie the weights of self-symmetric configurations
    row = np.zeros(P.N_FEATURES, dtype=np.int64)
    for p, o in random_positions(60, seed=4):
        if p == 0 or o == 0:
            continue
        e = int(ev.evaluate(U(p), U(o), w, ev.GATHER, ev.B3))
        ev.features(U(p), U(o), ev.GATHER, ev.B3, row)
        s = int(ev.stage(64 - bin(p | o).count("1")))
        total = int(w[s, row].sum())
        assert e == max(-ev.MAX_EVAL, min(ev.MAX_EVAL, total))
        for k in range(8):
            assert ev.evaluate(U(_mirror(p, k)), U(_mirror(o, k)), w, ev.GATHER, ev.B3) == e


def test_scalar_features_by_hand() -> None:
    board = Board()
    p, o = board.bitboards()
    row = np.zeros(P.N_FEATURES, dtype=np.int64)
    ev.features(U(p), U(o), ev.GATHER, ev.B3, row)
    n = P.N_INSTANCES
    off = P.SCALAR_OFFSETS
    assert row[n] - off[0] == 4 and row[n + 1] - off[1] == 4  # 4 moves each
    # empties next to the 2 opponent discs (d4, e5): 10 squares
    assert row[n + 2] - off[2] == 10 and row[n + 3] - off[3] == 10
    assert row[n + 4] - off[4] == 0 and row[n + 5] == off[5]


def test_classic_eval_terms() -> None:
    w = np.zeros((ev.N_STAGES, 5), dtype=np.int64)
    w[:, 3] = 100  # corners only
    # black owns a1 and h8, white owns h1; white X-square b2 next to empty... a1 is full
    b = Board("X------O" + "-" * 48 + "-------X X")
    p, o = b.bitboards()
    assert ev.classic_eval(U(p), U(o), w) == 100 * (2 - 1)
    w[:, 3] = 0
    w[:, 4] = -100  # X-squares next to an empty corner
    b = Board("-" * 9 + "O" + "-" * 44 + "X" + "-" * 9 + " X")  # white b2, black g7
    p, o = b.bitboards()
    assert ev.classic_eval(U(p), U(o), w) == -100 * (1 - 1)
    b = Board("-" * 9 + "O" + "-" * 44 + "X" + "-" * 8 + "X X")  # h8 full: g7 not an X
    p, o = b.bitboards()
    assert ev.classic_eval(U(p), U(o), w) == -100 * (0 - 1)
    assert ev.classic_eval(U(p), U(0), w) == ev.WIPEOUT


def test_weights_roundtrip(tmp_path) -> None:  # type: ignore[no-untyped-def]
    w = ev.Weights.zeros()
    w.table[3, 17] = -123
    w.table[15, P.N_WEIGHTS - 1] = 456
    w.meta["seed"] = "7"
    path = tmp_path / "w.npz"
    w.save(path)
    back = ev.Weights.load(path)
    assert np.array_equal(back.table, w.table) and back.meta == {"seed": "7"}
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a weights file")
    with pytest.raises(ev.FileError, match="bad.npz: Othello weights: not an .npz"):
        ev.Weights.load(bad)


def test_generated_kernel_is_up_to_date() -> None:
    from pathlib import Path

    path = Path(P.__file__).with_name(P.GENERATED_MODULE)
    assert path.read_text() == P.generate_kernel_source(), (
        "regenerate eval_gen.py from patterns.generate_kernel_source()")
