"""Logistello's logbook games: the reader, and the games as training positions.

``logbook_sample.gam`` holds seven lines of the public ``logbook.gam`` (lines 1, 30001, 60001,
90001 and 120001, and the first two games that end with an empty square; the second has a
pass). The labels are checked against our exact solver, which knows nothing of the file.
"""

from __future__ import annotations

import gzip
import os
import re
from pathlib import Path

import numpy as np
import pytest

from bitgames.othello.logbook import (
    EXACT_EMPTIES,
    LogbookError,
    load_logbook,
    parse_line,
    read_logbook,
)
from bitgames.othello.solver import Solver
from bitgames.othello.train import LOGBOOK_IDS, NO_LABEL, TrainConfig, Trainer

SAMPLE = Path(__file__).with_name("logbook_sample.gam")


def test_the_sample_replays_with_its_recorded_results() -> None:
    games = load_logbook(SAMPLE)
    assert len(games) == 7
    assert [len(g.moves) for g in games] == [60, 60, 60, 60, 60, 59, 59]
    # the recorded +03 counts discs only; the score gives the one empty to the winner
    assert games[5].black_score == 4 and games[6].black_score == 2
    assert games[0].transcript().startswith("d3c3c4e3")


def test_gzipped_and_plain_files_read_alike(tmp_path: Path) -> None:
    packed = tmp_path / "logbook.gam.gz"
    packed.write_bytes(gzip.compress(SAMPLE.read_bytes()))
    assert load_logbook(packed) == load_logbook(SAMPLE)


@pytest.mark.parametrize("line, message", [
    ("+f5-f4+c3-c6+c5-d6+f3-c4+c7 +13", "no ': RESULT'"),
    ("+f5-f4+c3-c6+c5-d6+f3-c4+c7: x", "is not a number"),
    ("+f5-f4+c3-c6+c5-d6+f3-c4+c: +13", "a sign and a square"),
    ("+f5*f4+c3-c6+c5-d6+f3-c4+c7: +13", "move 2 (*f4): the sign"),
    ("+f5+f4: +0", "move 2 (+f4): it is White's turn"),
    ("+f5-a1: +0", "move 2 (-a1)"),
    ("+f5-f4: +0", "not over after 2 moves"),
    ("+f5-f4+c3-c6+c5-d6+f3-c4+c7: +12 10", "the result +12 is not the board's +13"),
])
def test_bad_lines_say_what_is_wrong(line: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_line(line)


def test_a_bad_line_is_named_by_its_number(tmp_path: Path) -> None:
    text = SAMPLE.read_text().splitlines()
    bad = tmp_path / "bad.gam"
    bad.write_text("\n".join(text[:2] + ["", "+f5-f4: +0"]))
    with pytest.raises(LogbookError, match=r"bad.gam, line 4: the game is not over"):
        load_logbook(bad)
    with pytest.raises(LogbookError, match="missing.gam"):
        load_logbook(tmp_path / "missing.gam")
    assert len(read_logbook("\n".join(text[:3]))) == 3


def test_logbook_games_join_the_training_with_exact_labels(tmp_path: Path) -> None:
    """The sample's positions in a training run: the positions the board replays, labelled
    by the game's result up to EXACT_EMPTIES empties (the solver agrees wherever it is
    asked, up to 14 empties), carrying it as their outcome before that; a fit runs."""
    games = load_logbook(SAMPLE)
    cfg = TrainConfig(games=0, exact_empties=8, label_depth=1, workers=1, scheduler="serial",
                      logbook=(str(SAMPLE),))
    t = Trainer(tmp_path / "run", cfg, log=lambda s: None)
    t.generate()
    t.import_logbook()
    chunk = tmp_path / "run" / "games" / "logbook-logbook_sample-000.npz"
    written = chunk.stat().st_mtime_ns
    t.import_logbook()  # a second import finds the chunk on disk
    assert chunk.stat().st_mtime_ns == written
    t.solve()
    data = t.load()
    boards = [(i, b) for i, g in enumerate(games) for b in g.positions()]
    assert len(data["p"]) == len(boards)
    solver = Solver(table_bits=16)
    checked = 0
    for k, (i, board) in enumerate(boards):
        assert (int(data["p"][k]), int(data["o"][k])) == board.bitboards()
        assert data["game"][k] == LOGBOOK_IDS + i
        e = board.empties()
        label, outcome = int(data["label"][k]), int(data["outcome"][k])
        if e <= EXACT_EMPTIES:
            assert outcome == NO_LABEL and label != NO_LABEL
            if e <= 14:
                score, _ = solver.run(*board.bitboards(), -127, 127,
                                      np.zeros(130, dtype=np.int64), np.zeros(4, dtype=np.int64))
                assert label == 100 * score, (i, e)
                checked += 1
        else:
            assert label == NO_LABEL and outcome != NO_LABEL
    # a position before each move: 14..1 empties in a full game, 14..2 in the short ones
    assert checked == 5 * 14 + 2 * 13
    report = t.fit()
    assert report["games"] == len(games)


def test_train_command_takes_a_logbook_alone(tmp_path: Path) -> None:
    from bitgames.cli import main

    run = tmp_path / "run"
    assert main(["othello", "train", str(run), "--games", "0", "--logbook", str(SAMPLE),
                 "--exact-empties", "8", "--workers", "1", "--scheduler", "serial",
                 "--generate-only"]) == 0
    assert [p.name for p in (run / "games").iterdir()] == ["logbook-logbook_sample-000.npz"]


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("BITGAMES_LOGBOOK"),
                    reason="set BITGAMES_LOGBOOK to the path of logbook.gam(.gz)")
def test_every_logbook_game_replays_with_its_result() -> None:
    """All 121,123 games of the public file replay legally and end with the disc difference
    each records."""
    assert len(load_logbook(os.environ["BITGAMES_LOGBOOK"])) == 121_123
