"""MoGo 3x3 patterns: the table on hand-drawn shapes, its symmetries, and the PATTERNS
and LEARNED playout policies' choice next to the last move."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from bitgames.cli import main
from bitgames.core import rng as R
from bitgames.go import WHITE, Board, Move
from bitgames.go import features as F
from bitgames.go import kernels as K
from bitgames.go.cli import POLICY_NAMES
from bitgames.go.patterns import OFFSETS, code, table

from .test_kernels import eye_rule, random_points, stone_code

# the stones as drawn: B black, W white, . empty, # off the board, * the move
DRAWN = {"B": 1, "W": 2, ".": 0, "#": 3, "*": 0}


def matches(*rows: str) -> bool:
    return bool(table()[code(list(rows), DRAWN)])


def test_shapes_that_match() -> None:
    assert matches("BWB", ".*.", "...")  # hane that encloses a white stone
    assert matches("...", ".*.", "BWB")  # the same, upside down
    assert matches("WBW", ".*.", "...")  # colours swapped
    assert matches("BW.", ".*.", "...")  # non-cutting hane
    assert matches("BW.", "W*.", "...")  # cut between two white stones
    assert matches(".BW", ".*W", "...")  # the same cut, mirrored
    assert matches(".B.", "W*W", "...")  # cut 2 (de): pushing between two stones
    assert matches("B..", "W*.", "###")  # first line: chase along the edge
    assert matches("WB.", "B*W", "###")  # first line: block the cut


def test_kernel_codes_every_point_of_random_boards() -> None:
    """The playouts' neighbourhood code (a shortcut inside the board, a bounds-checked
    loop on the edge) against the code read square by square through the board API."""
    gen = np.random.default_rng(3)
    for size in (3, 5, 9, 13):
        for _ in range(5):
            board = Board(size=size, rules="simple-ko")
            random_points(board, gen, int(gen.integers(0, size * size)))
            color = board._s[0]
            for p in range(size * size):
                assert K._pat3_code(color, size, p) == _neighbourhood(board, p), (size, p)


def test_shapes_that_do_not_match() -> None:
    assert not matches("...", ".*.", "...")  # empty
    assert not matches("B..", ".*.", "...")  # one stone
    assert not matches("BBB", ".*.", "...")  # own wall only
    assert not matches("...", ".*.", "###")  # empty first line
    assert not matches("BW.", "W*W", "...")  # cut 1 wants no white stone on the far side
    assert not matches(".B.", "W*W", ".B.")  # cut 2 with a black stone below


def test_table_is_symmetric() -> None:
    """The same value under the eight rotations and reflections and the colour swap."""
    t = table()
    codes = np.arange(1 << 16)
    cells = {off: (codes >> (2 * k)) & 3 for k, off in enumerate(OFFSETS)}
    index = {off: k for k, off in enumerate(OFFSETS)}
    maps = [
        lambda r, c: (c, -r),
        lambda r, c: (-r, -c),
        lambda r, c: (-c, r),
        lambda r, c: (r, -c),
        lambda r, c: (-r, c),
        lambda r, c: (c, r),
        lambda r, c: (-c, -r),
    ]
    for f in maps:
        moved = np.zeros_like(codes)
        for off, v in cells.items():
            moved |= v << (2 * index[f(*off)])
        assert np.array_equal(t[moved], t)
    swap = np.zeros_like(codes)
    for off, v in cells.items():
        swap |= np.where((v == 1) | (v == 2), 3 - v, v) << (2 * index[off])
    assert np.array_equal(t[swap], t)


def _neighbourhood(board: Board, p: int) -> int:
    size = board.size
    row, col = divmod(p, size)
    c = 0
    for k, (dr, dc) in enumerate(OFFSETS):
        r, cc = row + dr, col + dc
        v = stone_code(board, r * size + cc) if 0 <= r < size and 0 <= cc < size else 3
        c |= v << (2 * k)
    return c


def _safe(board: Board, p: int) -> bool:
    """Legal, and not a self-atari of two or more stones unless it captures."""
    move = Move.from_point(p, board.size)
    if not board.is_legal(move):
        return False
    c = board.turn
    before = board.captures(c)
    board.push(move)
    stones, libs = board.block(p)
    ok = len(stones) < 2 or len(libs) >= 2 or board.captures(c) > before
    board.pop()
    return ok


def test_patterns_policy_answers_next_to_the_last_move() -> None:
    """From positions reached by random play, with no block next to the last move in
    atari, the PATTERNS playout's first move is one of the empty neighbours of the last
    move whose shape matches and that the playouts may play; when none matches it is
    some other move."""
    t = table()
    checked = 0
    for seed in range(40):
        board = Board(size=9, rules="simple-ko")
        gen = np.random.default_rng(seed)
        random_points(board, gen, int(gen.integers(8, 40)))
        size = board.size
        last = board.peek().point(size)
        row, col = divmod(last, size)
        around = [
            (row + dr) * size + col + dc
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= row + dr < size and 0 <= col + dc < size
        ]
        if any(board.color_at(q) is not None and len(board.block(q)[1]) == 1 for q in around):
            continue
        good = {
            q
            for q in around
            if board.color_at(q) is None and t[_neighbourhood(board, q)] and _safe(board, q)
        }
        good = {q for q in good if not eye_rule(board, q, board.turn)}
        for stream in range(20):
            s = K.copy_state(board._s)
            trace = np.full(1, -9, np.int32)
            amaf = np.zeros(81, np.int8)
            K.playout(board._g, s, R.new_state(1000 * seed + stream), 1, amaf, trace, K.PATTERNS,
                      K.NO_WEIGHTS, K.NO_REPLIES)
            if good:
                assert int(trace[0]) in good
        checked += bool(good)
    assert checked >= 10



def test_learned_policy_draws_neighbours_of_the_last_move_by_their_weights() -> None:
    """The LEARNED playout's first move: each playable empty neighbour ``q`` of the last
    move is drawn with weight ``weights[k, code]`` (``k`` 0 next to it, 1 diagonal; the
    code seen from the mover, computed here from the board) against one per empty point
    for the random move, which is uniform over the points the playouts may play. The
    frequencies of 3,000 first moves are checked against those probabilities."""
    weights = F.playout_weights(F.load())
    checked = 0
    for seed in range(30):
        board = Board(size=9, rules="simple-ko")
        gen = np.random.default_rng(100 + seed)
        random_points(board, gen, int(gen.integers(8, 40)))
        size = board.size
        last = board.peek().point(size)
        row, col = divmod(last, size)
        around = {
            (row + dr) * size + col + dc: 1 - (dr + dc) % 2
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= row + dr < size and 0 <= col + dc < size
        }
        if any(board.color_at(q) is not None and len(board.block(q)[1]) == 1 for q in around):
            continue
        empty = [p for p in range(size * size) if board.color_at(p) is None]
        playable = [p for p in empty if _safe(board, p) and not eye_rule(board, p, board.turn)]
        local = {}
        for q, k in around.items():
            if q in playable:
                c = _neighbourhood(board, q)
                if board.turn == WHITE:  # seen from the mover: 1 its own, 2 the opponent's
                    c = sum((3 - v if v in (1, 2) else v) << (2 * i)
                            for i, v in enumerate((c >> (2 * i)) & 3 for i in range(8)))
                local[q] = int(weights[k, c])
        total = sum(local.values()) + len(empty)
        expected = {p: len(empty) / total / len(playable) for p in playable}
        for q, w in local.items():
            expected[q] += w / total
        n = 3000
        counts: dict[int, int] = {}
        for stream in range(n):
            s = K.copy_state(board._s)
            trace = np.full(1, -9, np.int32)
            K.playout(board._g, s, R.new_state(77_000 * seed + stream), 1,
                      np.zeros(81, np.int8), trace, K.LEARNED, weights, K.NO_REPLIES)
            counts[int(trace[0])] = counts.get(int(trace[0]), 0) + 1
        assert set(counts) <= set(expected)
        for p, prob in expected.items():
            sd = math.sqrt(n * prob * (1 - prob))
            assert abs(counts.get(p, 0) - n * prob) <= 4.5 * sd + 1, (seed, p)
        checked += 1
        if checked == 6:
            break
    assert checked == 6


def test_cli_policy_names_and_bench(capsys: pytest.CaptureFixture[str]) -> None:
    assert POLICY_NAMES == tuple(K.POLICIES)
    assert main(["go", "bench", "--size", "9", "--playouts", "1000", "--policy", "patterns",
                 "--json"]) == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert record["policy"] == "patterns" and record["playouts"] == 1000
    # a game of 9x9 fills most of the 81 points; playouts stop at the 243-move cap
    assert 60 < record["moves_per_playout"] < 243
