"""Plots (matplotlib): a game's evaluation with its mistakes, a match's running Elo with
its interval, a training run's error per stage, and ``bitgames plot`` writing them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from bitgames import plots  # noqa: E402
from bitgames.cli import main  # noqa: E402
from bitgames.core.match import MatchResult  # noqa: E402


def test_evaluation_marks_the_mistakes() -> None:
    fig = plots.evaluation([1.0, None, -2.0, 3.0], mistakes=[3, 2, 9], unit="men")
    ax = fig.axes[0]
    line = ax.lines[-1]
    assert list(line.get_xdata()) == [1, 3, 4] and list(line.get_ydata()) == [1.0, -2.0, 3.0]
    marked = ax.collections[0].get_offsets().tolist()
    assert marked == [[3.0, -2.0]]  # ply 2 has no value, ply 9 was not played


def _match(tmp_path: Path, scores: list[float]) -> Path:
    path = tmp_path / "match.jsonl"
    lines = [json.dumps({"match": {}})]
    lines += [json.dumps({"number": i + 1, "opening": 0, "a_first": True, "a_score": s,
                          "moves": [], "plies": 0}) for i, s in enumerate(scores)]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_match_elo_follows_the_games(tmp_path: Path) -> None:
    scores = [1.0, 0.5, 0.0, 1.0, 1.0, 0.5]
    fig = plots.match_elo(_match(tmp_path, scores))
    ax = fig.axes[0]
    elo = list(ax.lines[-1].get_ydata())
    expected = MatchResult(wins=3, draws=2, losses=1)
    assert len(elo) == 6 and elo[-1] == pytest.approx(expected.elo)
    assert ax.get_title().startswith("3 wins, 2 draws, 1 losses")
    band = ax.collections[0].get_paths()[0].vertices
    low, high = expected.elo_interval()
    assert band[:, 1].min() <= low + 1e-6 and band[:, 1].max() >= min(high, 1000) - 1e-6


def test_training_report(tmp_path: Path) -> None:
    report = {"games": 10, "positions": 600, "stages": [
        {"empties": "0-3", "mae_discs": 1.0, "mae_vs_exact_discs": 0.5},
        {"empties": "4-7", "mae_discs": 2.0, "mae_vs_exact_discs": None}]}
    fig = plots.training(report)
    labels = [line.get_label() for line in fig.axes[0].lines]
    assert labels == ["against the labels", "against exact scores"]
    assert list(fig.axes[0].lines[0].get_ydata()) == [1.0, 2.0]
    with pytest.raises(ValueError, match="no stages"):
        plots.training({"stages": []})


def test_the_plot_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "elo.png"
    assert main(["plot", "match", str(_match(tmp_path, [1.0, 0.0])), "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    record = tmp_path / "game.ggf"
    record.write_text("(;GM[Othello]PC[test]PB[a]PW[b]RE[?]TY[8]BO[8 -----------------------"
                      "----O*------*O--------------------------- *]B[f5]W[d6]B[c3]W[d3];)")
    svg = tmp_path / "eval.svg"
    assert main(["plot", "game", str(record), "--game", "othello", "--level", "1",
                 "-o", str(svg)]) == 0
    assert svg.read_text().lstrip().startswith("<?xml")
    assert "mistakes:" in capsys.readouterr().out
    assert main(["plot", "game", str(record), "-o", str(svg)]) == 2
    assert "needs --game" in capsys.readouterr().err
