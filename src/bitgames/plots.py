"""Plots of games, matches and training runs (matplotlib: ``pip install 'bitgames[plot]'``).

Each function returns a :class:`matplotlib.figure.Figure` (shown by notebooks, saved with
``fig.savefig("name.png")``); ``bitgames plot`` draws the same from files.

- :func:`evaluation`: a game's evaluation after each move, mistakes marked;
- :func:`match_elo`: a match's Elo difference after each game, with its 95 % interval;
- :func:`training`: the held-out error of trained Othello weights per stage.

>>> fig = evaluation([0.5, -1.0, 2.0, 1.5], mistakes=[2], unit="discs")
>>> fig.axes[0].get_ylabel()
'discs (first player)'
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from bitgames.core.errors import BitgamesError


def _figure(width: float = 7.0, height: float = 3.5) -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise BitgamesError("plots need matplotlib: pip install 'bitgames[plot]'") from None
    fig = Figure(figsize=(width, height), layout="constrained")
    return fig


def evaluation(values: Sequence[float | None], mistakes: Iterable[int] = (),
               unit: str = "", title: str | None = None) -> Any:
    """The evaluation after each move (``values[i]`` after ply ``i + 1``, from the first
    player's side; ``None`` where unknown), with the plies in ``mistakes`` marked."""
    fig = _figure()
    ax = fig.add_subplot()
    plies = [i + 1 for i, v in enumerate(values) if v is not None]
    shown = [v for v in values if v is not None]
    ax.axhline(0.0, color="#999", linewidth=1)
    ax.plot(plies, shown, color="#2d4a36", linewidth=2, marker=".")
    marked = [p for p in mistakes if 1 <= p <= len(values) and values[p - 1] is not None]
    ax.scatter(marked, [values[p - 1] for p in marked], color="#b00020", zorder=3,
               label="mistake")
    ax.set_xlabel("ply")
    ax.set_ylabel(f"{unit} (first player)".strip())
    if marked:
        ax.legend()
    if title:
        ax.set_title(title)
    return fig


def game_evaluation(rows: Sequence[dict[str, Any]], unit: str = "",
                    title: str | None = None) -> Any:
    """:func:`evaluation` of an analysis (the rows of
    :meth:`bitgames.web.session.Game.analyse`): each move's value for the side that made
    it, turned to the first player's side."""
    values: list[float | None] = []
    for row in rows:
        after = row.get("after")
        values.append(None if after is None else (after if row["ply"] % 2 else -after))
    return evaluation(values, [r["ply"] for r in rows if r.get("mistake")], unit, title)


def match_elo(records: Sequence[dict[str, Any]] | str | Path, title: str | None = None) -> Any:
    """The Elo difference of player A after each game of a match, with its 95 % interval
    (``records``: the games of a ``--save`` file, or its path)."""
    from bitgames.core.match import GameRecord, MatchResult

    if isinstance(records, str | Path):
        records = read_match(records)
    result = MatchResult()
    games, elo, low, high = [], [], [], []
    for data in records:
        result.add(GameRecord.from_dict(data))
        lo, hi = result.elo_interval()
        games.append(result.n)
        elo.append(_clip(result.elo))
        low.append(_clip(lo))
        high.append(_clip(hi))
    if not games:
        raise BitgamesError("no games to plot")
    fig = _figure()
    ax = fig.add_subplot()
    ax.axhline(0.0, color="#999", linewidth=1)
    ax.fill_between(games, low, high, color="#2d4a36", alpha=0.2, label="95 % interval")
    ax.plot(games, elo, color="#2d4a36", linewidth=2, label="Elo of A - B")
    ax.set_xlabel("games")
    ax.set_ylabel("Elo")
    ax.set_ylim(max(min(low), -800), min(max(high), 800))
    ax.legend(loc="upper right")
    ax.set_title(title or f"{result.wins} wins, {result.draws} draws, {result.losses} losses:"
                 f" {result.elo:+.0f} Elo")
    return fig


def _clip(elo: float) -> float:
    return max(-1000.0, min(1000.0, elo)) if math.isfinite(elo) else math.copysign(1000, elo)


def read_match(path: str | Path) -> list[dict[str, Any]]:
    """The game records of a match's ``--save`` file (JSON lines after a header)."""
    lines = Path(path).read_text().splitlines()
    games = []
    for number, line in enumerate(lines[1:], start=2):
        if line.strip():
            try:
                games.append(json.loads(line))
            except json.JSONDecodeError as exc:
                if number < len(lines):  # the last line may be cut short by a kill
                    raise BitgamesError(f"{path}:{number}: not a game record ({exc})"
                                        ) from None
    return games


def training(report: dict[str, Any] | str | Path, title: str | None = None) -> Any:
    """The held-out error (discs) of each stage of trained Othello weights, against the
    training labels and against exact scores (``report``: a training run's report.json,
    or its path)."""
    data: dict[str, Any] = (json.loads(Path(report).read_text())
                            if isinstance(report, str | Path) else report)
    stages = data.get("stages", [])
    if not stages:
        raise BitgamesError("the report has no stages")
    fig = _figure()
    ax = fig.add_subplot()
    empties = [int(str(s["empties"]).split("-")[0]) + 1.5 for s in stages]
    for key, label in (("mae_discs", "against the labels"),
                       ("mae_vs_exact_discs", "against exact scores")):
        points = [(e, s[key]) for e, s in zip(empties, stages, strict=True)
                  if s.get(key) is not None]
        if points:
            ax.plot(*zip(*points, strict=True), marker="o", label=label)
    ax.set_xlabel("empty squares")
    ax.set_ylabel("held-out error (discs)")
    ax.invert_xaxis()
    ax.legend()
    ax.set_title(title or f"{data.get('games', '?')} games, "
                 f"{data.get('positions', '?')} positions")
    return fig
