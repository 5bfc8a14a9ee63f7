"""Move features (bitgames.go.features): every tactical feature checked against sgfmill's
board (an independent implementation) on random positions, the shape symmetry against
Burnside's count, MM against strengths it must recover, and the ``go patterns`` command.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest

from bitgames.cli import main
from bitgames.core.errors import BitgamesError
from bitgames.go import BLACK, Board, spatial
from bitgames.go import features as F
from bitgames.go.patterns import OFFSETS
from tests.commands import interrupt, started

from .test_kernels import random_points

boards = pytest.importorskip("sgfmill.boards")


def _group(sb: boards.Board, size: int, row: int, col: int) -> tuple[set, set]:
    """The stones and liberties of the block at (row, col) of an sgfmill board."""
    colour = sb.get(row, col)
    stones, libs, todo = {(row, col)}, set(), [(row, col)]
    while todo:
        r, c = todo.pop()
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if not (0 <= rr < size and 0 <= cc < size):
                continue
            v = sb.get(rr, cc)
            if v is None:
                libs.add((rr, cc))
            elif v == colour and (rr, cc) not in stones:
                stones.add((rr, cc))
                todo.append((rr, cc))
    return stones, libs


def _distance(row: int, col: int, last: tuple[int, int] | None) -> int:
    if last is None:
        return 0
    dr, dc = abs(row - last[0]), abs(col - last[1])
    d = dr + dc + max(dr, dc)
    return d - 1 if d <= 6 else 6 if d <= 8 else 7 if d <= 12 else 8


def _expected(sb: boards.Board, size: int, row: int, col: int, colour: str,
              last: tuple[int, int] | None, last2: tuple[int, int] | None) -> dict[str, int]:
    """The features the module docstring defines, computed on sgfmill's board (the ladder
    reads aside: ``escape`` and ``atari`` are checked where no ladder is read)."""
    other = "w" if colour == "b" else "b"
    nbrs = [(r, c) for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            if 0 <= r < size and 0 <= c < size]
    own_atari = any(sb.get(r, c) == colour and len(_group(sb, size, r, c)[1]) == 1
                    for r, c in nbrs)
    chased = any(sb.get(r, c) == other and len(_group(sb, size, r, c)[1]) == 2
                 for r, c in nbrs)
    trial = sb.copy()
    before = sum(1 for c, _ in sb.list_occupied_points() if c == other)
    trial.play(row, col, colour)
    taken = before - sum(1 for c, _ in trial.list_occupied_points() if c == other)
    stones, libs = _group(trial, size, row, col)
    out = {"capture": 0 if not taken else 3 if own_atari else 1 if taken == 1 else 2,
           "self_atari": 0, "escape": 0, "atari": -1 if chased else 0}
    if not taken:
        if len(libs) <= 1:
            out["self_atari"] = 1 if len(stones) == 1 else 2
        if own_atari:
            out["escape"] = 2 if len(libs) <= 1 else 1 if len(libs) >= 3 else -1
    code = 0
    for k, (dr, dc) in enumerate(OFFSETS):
        r, c = row + dr, col + dc  # rows as the points count them (the shapes are symmetric)
        v = 3 if not (0 <= r < size and 0 <= c < size) else \
            {None: 0, colour: 1, other: 2}[sb.get(r, c)]
        code |= v << (2 * k)
        if k in F.ATARI_CELLS and v in (1, 2) and len(_group(sb, size, r, c)[1]) == 1:
            code |= 1 << (16 + F.ATARI_CELLS.index(k))
    out["shape"] = code
    out["line"] = min(row, col, size - 1 - row, size - 1 - col, 4)
    out["distance"] = _distance(row, col, last)
    out["distance2"] = _distance(row, col, last2)
    return out


@pytest.mark.parametrize("size,seed", [(9, 1), (9, 2), (13, 3), (19, 4)])
def test_features_match_sgfmill(size: int, seed: int) -> None:
    gen = np.random.default_rng(seed)
    checked = {"capture": 0, "self_atari": 0, "escape": 0, "atari": 0}
    for game in range(6):
        board = Board(size=size)
        random_points(board, gen, int(gen.integers(10, size * size)))
        sb = boards.Board(size)
        for p in range(board.points):
            c = board.color_at(p)
            if c is not None:
                sb.play(p // size, p % size, "b" if c == BLACK else "w")
        colour = "b" if board.turn == BLACK else "w"
        moves = board.move_stack
        last = divmod(moves[-1].point(size), size) if not moves[-1].is_pass else None
        last2 = divmod(moves[-2].point(size), size) if not moves[-2].is_pass else None
        stack, tmp = F._scratch(board)
        points = np.empty(board.points, np.int64)
        keys = np.empty(board.points, np.int64)
        n = F.candidate_keys(board._g, board._s, stack, tmp, False, F.load_dictionary(),
                               points, keys)
        assert n > 0
        for p, key in zip(points[:n], keys[:n], strict=True):
            got = F.fields(int(key))
            want = _expected(sb, size, int(p) // size, int(p) % size, colour, last, last2)
            for name, value in want.items():
                if value == -1:  # a ladder is read: only whether the feature is on
                    assert got[name] > 0, (game, int(p), name)
                else:
                    assert got[name] == value, (game, int(p), name, got, want)
            for name in checked:
                checked[name] += got[name] > 0
    assert all(checked.values()), checked  # every feature was seen on


def test_canonical_shapes_follow_burnside() -> None:
    canon = F.canonical_shapes()
    # 3x3 neighbourhoods up to the 8 symmetries of the square, the four side cells with 8
    # values (colour and atari flag), the four corners with 4, by Burnside's lemma: the
    # identity, two quarter turns, the half turn, two axis and two diagonal reflections
    count = (8**4 * 4**4 + 2 * 8 * 4 + 8**2 * 4**2 + 2 * 8**3 * 4**2 + 2 * 8**2 * 4**3) // 8
    assert len(np.unique(canon)) == count
    gen = np.random.default_rng(5)
    for code in gen.integers(0, 1 << 20, 200):
        grid = np.zeros((3, 3), np.int64)  # 3 bits a cell: the colour, 4 for the flag
        for k, (dr, dc) in enumerate(OFFSETS):
            grid[1 + dr, 1 + dc] = (code >> (2 * k)) & 3
            if k in F.ATARI_CELLS:
                grid[1 + dr, 1 + dc] |= ((code >> (16 + F.ATARI_CELLS.index(k))) & 1) << 2
        for image in (np.rot90(grid), np.fliplr(grid), np.rot90(grid, 2).T):
            other = 0
            for k, (dr, dc) in enumerate(OFFSETS):
                v = int(image[1 + dr, 1 + dc])
                other |= (v & 3) << (2 * k)
                if k in F.ATARI_CELLS:
                    other |= (v >> 2) << (16 + F.ATARI_CELLS.index(k))
            assert canon[other] == canon[code]


def test_fit_recovers_the_strengths_that_made_the_choices() -> None:
    """Moves drawn from a Bradley-Terry model with known strengths: MM finds them."""
    gen = np.random.default_rng(6)
    truth = {"capture": [1.0, 6.0, 3.0, 12.0], "distance": [1.0, 8.0, 5.0, 2.0, 1.5, 1.0,
                                                           0.8, 0.5, 0.2],
             "spatial": [1.0, 0.3, 4.0, 9.0]}
    dictionary = np.array([[11, 22, 33], [1, 2, 3]], np.uint64)  # three spatial patterns
    starts, keys, counts, winners = [0], [], [], []
    for _ in range(4000):
        cap = gen.choice(4, 30, p=[0.85, 0.05, 0.05, 0.05])
        dist = gen.integers(0, 9, 30)
        pattern = gen.choice(4, 30, p=[0.7, 0.1, 0.1, 0.1])
        k = (pattern << F.SPATIAL_SHIFT) | (cap << 14) | (dist << 4)
        strength = np.array([truth["capture"][a] * truth["distance"][b]
                             * truth["spatial"][c]
                             for a, b, c in zip(cap, dist, pattern, strict=True)])
        winners.append(starts[-1] + int(gen.choice(30, p=strength / strength.sum())))
        keys.append(k)
        counts.append(np.ones(30, np.int32))
        starts.append(starts[-1] + 30)
    data = F.Competitions(np.array(starts), np.concatenate(keys), np.concatenate(counts),
                          np.array(winners), dictionary)
    fitted = F.fit(data, sweeps=30)
    assert np.array_equal(fitted.dictionary, dictionary)
    offsets = dict(zip([name for name, _, _ in F.SMALL],
                       np.cumsum([0] + [n for _, n, _ in F.SMALL[:-1]]), strict=True))
    for name, want in truth.items():
        if name == "spatial":
            g = fitted.pattern_gammas
        else:
            g = fitted.small[offsets[name]:offsets[name] + len(want)]
        ratio = (g / g[0]) / (np.array(want) / want[0])
        assert np.all(np.abs(np.log(ratio)) < 0.3), (name, g / g[0])


def _random_game(seed: int) -> str:
    board = Board(size=9)
    random_points(board, np.random.default_rng(seed), 50)
    return board.to_sgf()


def test_patterns_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for i in range(6):
        (tmp_path / f"g{i}.sgf").write_text(_random_game(i))
    out = tmp_path / "gammas.npz"
    assert main(["go", "patterns", str(tmp_path), "--out", str(out), "--test", "2",
                 "--sweeps", "3", "--min-count", "2", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["train_games"] == 4 and record["test_games"] == 2
    assert 0 < record["train_moves"] <= 4 * 50  # cut at a move filling an eye
    fit = record["fit"]
    assert -np.log(81) < fit["log_likelihood"] < 0 and 0 <= fit["top1"] <= 1
    gammas = F.Gammas.read(out)
    # the empty neighbourhoods of the first moves, at least
    assert spatial.patterns(gammas.dictionary) == record["patterns"] > 0
    table = gammas.table()
    assert table.shape == (F.TABLE_SIZE + record["patterns"] + 1,) and np.all(table > 0)


def test_patterns_command_needs_training_games(tmp_path: Path) -> None:
    (tmp_path / "a.sgf").write_text(_random_game(1))
    with pytest.raises(SystemExit, match="nothing is left to train on"):
        main(["go", "patterns", str(tmp_path), "--out", str(tmp_path / "x.npz")])


def test_a_table_of_another_feature_set_is_refused(tmp_path: Path) -> None:
    shipped = F.Gammas.read(F.DEFAULT_PATH)
    old = F.Gammas(shipped.shapes, shipped.shape_gammas, shipped.small[:-1],
                   shipped.dictionary, shipped.pattern_gammas)
    old.save(tmp_path / "old.npz")
    with pytest.raises(BitgamesError, match="another feature set"):
        F.Gammas.read(tmp_path / "old.npz")
    np.savez(tmp_path / "older.npz", shapes=shipped.shapes, shape_gammas=shipped.shape_gammas,
             small=shipped.small, source=np.array(""))
    with pytest.raises(BitgamesError, match="without spatial patterns"):
        F.Gammas.read(tmp_path / "older.npz")


@pytest.mark.usefixtures("sigint_inside_savez")
def test_ctrl_c_during_a_save_waits_for_the_file(tmp_path: Path) -> None:
    """A Ctrl-C that arrives while the table is written (the cause of a failure in CI:
    the zip archive could not be closed) raises only once the file is complete."""
    out = tmp_path / "gammas.npz"
    with pytest.raises(KeyboardInterrupt):
        F.shipped().save(out)
    assert np.array_equal(F.Gammas.read(out).dictionary, F.shipped().dictionary)


def test_ctrl_c_keeps_the_last_sweep(tmp_path: Path) -> None:
    for i in range(4):
        (tmp_path / f"g{i}.sgf").write_text(_random_game(i))
    out = tmp_path / "gammas.npz"
    argv = ["go", "patterns", str(tmp_path), "--out", str(out), "--test", "1",
            "--sweeps", "1000000"]
    with started(argv) as proc:  # a million sweeps: never left running
        deadline = time.monotonic() + 300
        while not out.exists() and time.monotonic() < deadline:  # the first sweep is saved
            time.sleep(0.2)
        end = interrupt(proc, timeout=20)
    assert end.code == 130, end.err
    assert "stopped" in end.out
    assert F.Gammas.read(out).table().shape[0] > F.TABLE_SIZE
