"""Training pipeline: labels checked by the solver, resume, least squares recovers weights."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("scipy")

from bitgames.core.board import BLACK  # noqa: E402
from bitgames.othello import eval as ev  # noqa: E402
from bitgames.othello import patterns as P  # noqa: E402
from bitgames.othello.board import Board  # noqa: E402
from bitgames.othello.kernels import legal_moves, make_move  # noqa: E402
from bitgames.othello.solver import Solver  # noqa: E402
from bitgames.othello.train import (  # noqa: E402
    NO_LABEL,
    TrainConfig,
    Trainer,
    empties_of,
    fit_stage,
    successors,
)

U = np.uint64


def tiny(tmp_path, exact_empties: int = 10,  # type: ignore[no-untyped-def]
         damp: tuple[float, ...] = (1.0,)) -> Trainer:
    cfg = TrainConfig(games=6, seed=3, chunk=3, random_min=20, random_max=30, play_depth=1,
                      solve_empties=8, exact_empties=exact_empties, label_depth=2, window=2,
                      damp=damp, workers=1, scheduler="serial")
    return Trainer(tmp_path / "run", cfg, log=lambda s: None)


def test_generate_label_resume_and_fit(tmp_path) -> None:  # type: ignore[no-untyped-def]
    t = tiny(tmp_path, damp=(1.0, 1000.0))
    t.generate()
    chunks = sorted((tmp_path / "run" / "games").glob("chunk*.npz"))
    assert len(chunks) == 2
    before = [c.stat().st_mtime_ns for c in chunks]
    messages: list[str] = []
    t.log = messages.append
    t.generate()  # resume: nothing left to play
    assert "0 to play" in messages[0]
    assert [c.stat().st_mtime_ns for c in chunks] == before
    t.solve()
    solved = sorted((tmp_path / "run" / "exact").glob("chunk*.npz"))
    assert [c.name for c in solved] == [c.name for c in chunks]
    before = [c.stat().st_mtime_ns for c in solved]
    messages.clear()
    t.solve()  # resume: every chunk is solved that far
    assert "0 to solve" in messages[0]
    assert [c.stat().st_mtime_ns for c in solved] == before
    data = t.load()
    assert set(np.unique(data["game"])) == set(range(6))
    expected_empties = [64 - bin(int(a) | int(b)).count("1")
                        for a, b in zip(data["p"], data["o"], strict=True)]
    assert data["empties"].tolist() == expected_empties
    # every position with at most exact_empties empties is labelled, none above the solve
    assert (data["label"][data["empties"] <= 10] != NO_LABEL).all()
    assert (data["label"][data["empties"] > 10] == NO_LABEL).all()
    assert (data["empties"] == 10).sum() >= 5  # some positions were solved by solve()
    exact = np.flatnonzero(data["label"] != NO_LABEL)
    assert len(exact) >= 6 * 10
    solver = Solver(table_bits=14)
    for i in exact[::7]:  # exact labels agree with an independent solve
        b = _board(int(data["p"][i]), int(data["o"][i]))
        if b.is_game_over():
            assert data["label"][i] == 100 * _final(int(data["p"][i]), int(data["o"][i]))
            continue
        assert data["label"][i] == 100 * solver.solve(b).score
    report = t.fit()
    assert (tmp_path / "run" / "weights.npz").exists()
    stored = json.loads((tmp_path / "run" / "report.json").read_text())
    assert stored["games"] == report["games"] == 6 and stored["stages"]
    fitted = np.load(tmp_path / "run" / "labels.npz")["label"]  # every position labelled
    assert len(fitted) == len(data["p"]) and (fitted != NO_LABEL).all()
    assert (fitted[exact] == data["label"][exact]).all()
    # each stage is fitted on the training games' positions within 2 empties of its range
    # (all labelled by then, except those beyond: no label until their own stage)
    train = data["game"] % 10 != 0
    e = data["empties"]
    for row in report["stages"]:
        s = row["stage"]
        hi = 4 * s + 5 if s < ev.N_STAGES - 1 else 64
        labelled = (e <= 4 * s + 3) | (data["label"] != NO_LABEL)
        want = train & (e >= 4 * s - 2) & (e <= hi) & labelled
        assert row["train"] == int(want.sum()), row
        # the damping is chosen on the validation game (id 5) of the stage's positions;
        # damping 1000 fits weights ~0, so its error is the mean absolute label there
        val = (data["game"] == 5) & (np.minimum(e // 4, ev.N_STAGES - 1) == s)
        tried = row["validation_mae_by_damp"]
        if val.any():
            assert row["damp"] == float(min(tried, key=tried.get))
            assert abs(tried["1000.0"] - np.abs(fitted[val]).mean() / 100) < 0.05
        else:
            assert row["damp"] == 1.0 and tried == {}
    w = ev.Weights.load(tmp_path / "run" / "weights.npz")
    assert w.table.shape == (ev.N_STAGES, P.N_WEIGHTS) and "config" in w.meta


def _board(p: int, o: int) -> Board:
    sq = "".join("X" if p >> s & 1 else "O" if o >> s & 1 else "-" for s in range(64))
    return Board(sq + " X")


def _final(p: int, o: int) -> int:
    a, b = bin(p).count("1"), bin(o).count("1")
    d = a - b
    return d + (64 - a - b) * ((d > 0) - (d < 0))


def test_least_squares_recovers_a_known_evaluation() -> None:
    # labels made by a known sparse weight vector must be fitted almost exactly
    rng = np.random.default_rng(0)
    n = 3000
    ps, os_ = [], []
    for _ in range(n):
        c = rng.integers(0, 3, 64)
        ps.append(sum(1 << s for s in range(64) if c[s] == 1))
        os_.append(sum(1 << s for s in range(64) if c[s] == 2))
    feats = ev.batch_features(np.array(ps, dtype=np.uint64), np.array(os_, dtype=np.uint64),
                              ev.GATHER, ev.B3)
    true = np.zeros(P.N_WEIGHTS)
    off = P.SCALAR_OFFSETS
    true[off[0]:off[0] + 33] = np.linspace(-3, 3, 33)  # mobility: a smooth function
    true[off[5]] = 1.5  # bias
    y = true[feats].sum(axis=1)
    w = fit_stage(feats, y, damp=0.01)
    pred = w[feats].sum(axis=1)
    assert np.abs(pred - y).mean() < 0.05


def test_raising_exact_empties_solves_only_the_new_positions(tmp_path) -> None:  # type: ignore[no-untyped-def]
    t = tiny(tmp_path, exact_empties=9)
    t.generate()
    t.solve()
    first = t.load()
    t.cfg.exact_empties = 11
    t.solve()
    second = t.load()
    assert (second["label"][first["label"] != NO_LABEL]
            == first["label"][first["label"] != NO_LABEL]).all()
    new = (first["label"] == NO_LABEL) & (second["label"] != NO_LABEL)
    assert set(np.unique(second["empties"][new])) == {10, 11}
    solver = Solver(table_bits=14)
    for i in np.flatnonzero(new)[::3]:
        b = _board(int(second["p"][i]), int(second["o"][i]))
        assert second["label"][i] == 100 * solver.solve(b).score


def test_self_play_with_pattern_weights(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # --play-weights: after the random plies, every move is a best move of a 1-ply search
    # with those weights (checked by evaluating each child independently)
    weights = ev.default_weights()
    assert weights is not None
    wpath = tmp_path / "w.npz"
    weights.save(wpath)
    cfg = TrainConfig(games=4, seed=5, chunk=2, random_min=20, random_max=20, play_depth=1,
                      play_weights=str(wpath), solve_empties=8, exact_empties=8, workers=1,
                      scheduler="serial")
    t = Trainer(tmp_path / "run", cfg, log=lambda s: None)
    t.generate()
    data = t.load()
    checked = 0
    for g in range(4):
        idx = np.flatnonzero(data["game"] == g)
        ps, os_, labels = data["p"][idx], data["o"][idx], data["label"][idx]
        first_solved = int(np.flatnonzero(labels != NO_LABEL)[0])
        for k in range(20, first_solved):
            values = {}
            for sq in range(64):
                if int(legal_moves(ps[k], os_[k])) >> sq & 1:
                    q, r = make_move(ps[k], os_[k], sq)
                    values[(int(q), int(r))] = -_leaf_value(U(q), U(r), weights.table)
            nxt = (int(ps[k + 1]), int(os_[k + 1]))
            if nxt in values:  # else a pass came in between
                assert values[nxt] == max(values.values()), (g, k)
                checked += 1
    assert checked >= 4 * 15


def _leaf_value(p: np.uint64, o: np.uint64, table: np.ndarray) -> int:
    """The value of a 1-ply search's leaf: the final score, the pass, or the evaluation."""
    if not int(legal_moves(p, o)):
        if not int(legal_moves(o, p)):
            return 100 * _final(int(p), int(o))
        return -int(ev.evaluate(o, p, table, ev.GATHER, ev.B3))
    return int(ev.evaluate(p, o, table, ev.GATHER, ev.B3))


def test_empties_of() -> None:
    ps = np.array([0, 1, 0xFFFF_FFFF_0000_0000], dtype=np.uint64)
    os_ = np.array([0, 1 << 63, 0x0000_0000_0000_00FF], dtype=np.uint64)
    assert empties_of(ps, os_).tolist() == [64, 62, 24]


def test_recenter_removes_a_planted_side_to_move_bias() -> None:
    """Plant 5 discs for the side to move in the constants of two midgame stages:
    recentering the planted weights and the shipped ones on the same positions must end at
    the same constants (within a third of a disc), and change no pattern weight."""
    from pathlib import Path

    from bitgames.othello.train import recenter, stage_sample
    from bitgames.othello.wthor import load_base

    sample = Path(__file__).with_name("wthor_2023_sample.wtb")
    games = load_base(sample).games
    ps, os_ = stage_sample((b for g in games for b in g.positions()), 30, 1)
    shipped = ev.default_weights()
    assert shipped is not None
    bias = int(P.SCALAR_OFFSETS[-1])
    planted = ev.Weights(shipped.table.copy(), {})
    planted.table[9, bias] += 500
    planted.table[12, bias] += 500
    for weights in (shipped, planted):
        recenter(weights, ps, os_, depths=(1, 2), rounds=2, scheduler="serial",
                 log=lambda s: None)
    apart = (planted.table[:, bias] - shipped.table[:, bias]) / 100
    assert np.all(np.abs(apart) < 0.34), apart
    assert np.array_equal(np.delete(planted.table, bias, axis=1),
                          np.delete(shipped.table, bias, axis=1))


def test_recenter_command(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from pathlib import Path

    from bitgames.cli import main

    sample = Path(__file__).with_name("wthor_2023_sample.wtb")
    out = tmp_path / "w.npz"
    assert main(["othello", "recenter", str(out), "--wthor", str(sample), "--per-stage", "8",
                 "--rounds", "1", "--depths", "1,2", "--scheduler", "serial"]) == 0
    meta = json.loads(ev.Weights.load(out).meta["recentered"])
    assert meta["games"] == 6 and meta["depths"] == [1, 2] and len(meta["shifts_discs"]) == 1
    assert main(["othello", "recenter", str(out), "--wthor", str(sample), "--depths", "3,x"]) == 2


def test_tournament_games_join_the_training(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The WTHOR sample as training games: the positions are those the board replays, the
    label at the file's theoretical depth is the file's theoretical score for the side to
    move, the earlier positions carry it as their outcome, and a fit runs on them alone."""
    from pathlib import Path

    from bitgames.othello.train import WTHOR_IDS
    from bitgames.othello.wthor import load_base

    sample = str(Path(__file__).with_name("wthor_2023_sample.wtb"))
    base = load_base(sample)
    cfg = TrainConfig(games=0, exact_empties=8, label_depth=1, workers=1, scheduler="serial",
                      wthor=(sample,))
    t = Trainer(tmp_path / "run", cfg, log=lambda s: None)
    t.generate()
    t.import_wthor()
    t.solve()
    data = t.load()
    boards = [(i, b) for i, g in enumerate(base.games) for b in g.positions()]
    assert len(data["p"]) == len(boards)
    for k, (i, board) in enumerate(boards):
        assert (int(data["p"][k]), int(data["o"][k])) == board.bitboards()
        assert data["game"][k] == WTHOR_IDS + i
        black = 2 * base.games[i].theoretical - 64
        theory = 100 * (black if board.turn == BLACK else -black)
        e = board.empties()
        assert data["outcome"][k] == (theory if e > base.depth else NO_LABEL)
        if e == base.depth:
            assert data["label"][k] == theory
        elif e <= 8:  # solved exactly: the solver's score
            score, _ = Solver(table_bits=14).run(*board.bitboards(), -127, 127,
                                                 np.zeros(130, dtype=np.int64),
                                                 np.zeros(4, dtype=np.int64))
            assert data["label"][k] == 100 * score
        else:
            assert data["label"][k] == NO_LABEL
    report = t.fit()
    assert report["games"] == len(base.games)
    by_stage = {row["stage"]: row for row in report["stages"]}
    assert by_stage[8]["held_out"] > 0 and by_stage[8]["exact_held_out"] == 0


def test_a_tournament_game_with_an_illegal_move_is_named() -> None:
    from bitgames.othello.train import wthor_chunk
    from bitgames.othello.wthor import WthorError, read_base

    header = bytes([20, 23, 4, 26, 2, 0, 0, 0, 0, 0, 231, 7, 8, 0, 24, 0])  # 2 games
    good = bytes([0, 0, 0, 0, 0, 0, 33, 32]) + bytes([56, 64]) + bytes(58)  # f5 d6
    bad = bytes([0, 0, 0, 0, 0, 0, 33, 32]) + bytes([56, 11]) + bytes(58)  # f5 a1
    with pytest.raises(WthorError, match=r"WTH_2023.wtb: game 2: .*a1"):
        wthor_chunk(read_base(header + good + bad), 0, "WTH_2023.wtb")


def test_outcomes_label_only_positions_below_outcome_below(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """By default every WTHOR position before the theoretical depth takes its game's
    theoretical score as label; with ``outcome_below=40`` only those with fewer than 40
    empties do, and the earlier ones take backed-up searches (some of which differ)."""
    from pathlib import Path

    sample = str(Path(__file__).with_name("wthor_2023_sample.wtb"))
    fitted = {}
    for below in (64, 40):
        cfg = TrainConfig(games=0, exact_empties=8, label_depth=1, workers=1,
                          scheduler="serial", wthor=(sample,), outcome_below=below)
        t = Trainer(tmp_path / str(below), cfg, log=lambda s: None)
        t.import_wthor()
        t.solve()
        t.fit()
        fitted[below] = np.load(tmp_path / str(below) / "labels.npz")["label"]
    data = t.load()
    empties, outcome = data["empties"], data["outcome"]
    early, mid = empties >= 40, (empties > 24) & (empties < 40)
    assert early.any() and mid.any()
    assert np.array_equal(fitted[64][early | mid], outcome[early | mid])
    assert np.array_equal(fitted[40][mid], outcome[mid])
    assert (fitted[40][early] != NO_LABEL).all()
    assert (fitted[40][early] != outcome[early]).any()


def test_train_command_takes_tournament_games_alone(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from pathlib import Path

    from bitgames.cli import main

    sample = str(Path(__file__).with_name("wthor_2023_sample.wtb"))
    run = str(tmp_path / "run")
    assert main(["othello", "train", run, "--games", "0"]) == 2
    assert "--wthor" in capsys.readouterr().err
    assert main(["othello", "train", run, "--games", "0", "--wthor", sample,
                 "--exact-empties", "8", "--workers", "1", "--scheduler", "serial",
                 "--generate-only"]) == 0
    assert [p.name for p in (tmp_path / "run" / "games").iterdir()] == [
        "wthor-wthor_2023_sample.npz"]
    assert [p.name for p in (tmp_path / "run" / "exact").iterdir()] == [
        "wthor-wthor_2023_sample.npz"]


def _sample_games() -> tuple[np.ndarray, np.ndarray, np.ndarray, list[bool]]:
    """Positions of the WTHOR sample's games in order, with whether the side to move
    changes from each position to the next of its game (read from the boards)."""
    from pathlib import Path

    from bitgames.othello.wthor import load_base

    base = load_base(Path(__file__).with_name("wthor_2023_sample.wtb"))
    ps, os_, games, turn = [], [], [], []
    for g, game in enumerate(base.games):
        for board in game.positions():
            p, o = board.bitboards()
            ps.append(p)
            os_.append(o)
            games.append(g)
            turn.append(board.turn)
    changes = [a != b for a, b in zip(turn, turn[1:], strict=False)] + [False]
    return (np.array(ps, dtype=np.uint64), np.array(os_, dtype=np.uint64),
            np.array(games, dtype=np.int32), changes)


def test_successors_follow_the_games_and_their_passes() -> None:
    ps, os_, games, changes = _sample_games()
    ok, sign = successors(ps, os_, games, empties_of(ps, os_))
    last = np.append(games[1:] != games[:-1], True)
    assert np.array_equal(ok, ~last)  # every move of a game is a successor, never across games
    assert np.array_equal(sign[ok] == -1, np.array(changes)[ok])


def test_consistency_pulls_a_position_and_its_successor_together() -> None:
    """Noisy labels fitted alone leave a position's value and its successor's apart; the
    consistency rows bring ``value(x) - sign * value(next)`` towards zero (and with the
    sign inverted, away from it)."""
    ps, os_, games, _ = _sample_games()
    feats = ev.batch_features(ps, os_, ev.GATHER, ev.B3)
    ok, sign = successors(ps, os_, games, empties_of(ps, os_))
    y = np.random.default_rng(1).normal(0, 20, len(ps))
    first = np.flatnonzero(ok)

    def gap(c: float, s: np.ndarray) -> float:
        w = fit_stage(feats, y, 1.0, (feats[first], feats[first + 1], s, c))
        v = w[feats].sum(axis=1)
        return float(np.abs(v[first] - sign[first] * v[first + 1]).mean())

    signs = sign[first].astype(np.float64)
    alone, pulled, inverted = gap(0.0, signs), gap(3.0, signs), gap(3.0, -signs)
    assert pulled < 0.5 * alone and pulled < 0.5 * inverted


def test_consistency_rows_only_from_their_empties(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The consistency rows change the stages whose positions they reach, and only those:
    from 64 empties none take part and the fit is the plain one."""
    from pathlib import Path

    sample = str(Path(__file__).with_name("wthor_2023_sample.wtb"))
    tables = {}
    for name, weight, start in (("plain", 0.0, 0), ("none", 1.0, 64), ("from40", 1.0, 40)):
        cfg = TrainConfig(games=0, exact_empties=8, workers=1, scheduler="serial",
                          wthor=(sample,), consistency=weight, consistency_from=start)
        t = Trainer(tmp_path / name, cfg, log=lambda s: None)
        t.import_wthor()
        t.solve()
        t.fit()
        tables[name] = ev.Weights.load(tmp_path / name / "weights.npz").table
    assert np.array_equal(tables["none"], tables["plain"])
    changed = [s for s in range(ev.N_STAGES)
               if not np.array_equal(tables["from40"][s], tables["plain"][s])]
    assert changed and min(changed) == 9  # stage 9 (36-39 empties) fits positions up to 41
