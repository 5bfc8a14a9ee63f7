"""Long protocol sessions: two engine processes of one protocol mode play many games
against each other under a sudden-death clock kept by our match referee, as a GUI or a
tournament manager would run them for hours.

Each engine process lives for the whole session (``new_game`` between games, the clock
sent as its protocol sends it: GTP ``time_left``, NBoard's GGF ``TI``, Hub ``level
time=``, UCI ``go wtime``). The report counts games lost on time or by any failure and
the resident memory of both processes after the warm-up games and at the end.

``python -m tests.long_session PROTOCOL [GAMES] [SECONDS]`` prints the figures that
docs/PERFORMANCE.md records (section "Reliability").
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bitgames.core.engine import Limit
from bitgames.core.match import (
    PlayerSpec,
    TimeControl,
    load_kernels,
    make_player,
    random_openings,
    referee,
)

#: per protocol: the game's kit (module:function, options), the engine command, the
#: plies of the random openings (so the games differ)
SESSIONS: dict[str, tuple[str, dict[str, Any], str, int]] = {
    "gtp": ("bitgames.go.cli:match_kit", {"size": 9}, "go gtp", 2),
    "nboard": ("bitgames.othello.cli:match_kit", {}, "othello nboard", 4),
    "hub": ("bitgames.draughts.cli:match_kit", {}, "draughts hub", 4),
    "uci": ("bitgames.leiserchess.cli:match_kit", {}, "leiserchess uci", 4),
}

#: games played before the first memory reading (caches and compiled code settle)
WARM_UP = 5


@dataclass
class SessionReport:
    """What a long session showed: how each game ended, the least time an engine had
    left after a move, and resident memory (MB) of each process after the warm-up games
    and at the end."""

    protocol: str
    games: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    least_left: float = float("inf")
    rss_warm: list[float] = field(default_factory=list)
    rss_end: list[float] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def failures(self) -> list[str]:
        """Every game that ended by a loss on time, a crash, an error or an illegal move."""
        bad = ("lost on time", "failed", "illegal")
        return [r for r in self.reasons.elements() if any(b in r for b in bad)]

    @property
    def growth(self) -> float:
        """The largest growth of resident memory (MB) of either process after warm-up."""
        return max((e - w for w, e in zip(self.rss_warm, self.rss_end, strict=True)),
                   default=0.0)

    def summary(self) -> str:
        return (f"{self.protocol}: {self.games} games in {self.seconds:.0f} s, "
                f"failures {len(self.failures)}, least time left {self.least_left:.3f} s, "
                f"memory MB after {WARM_UP} games {self.rss_warm} -> end {self.rss_end}")


def resident_mb(pid: int) -> float:
    """Resident memory of process ``pid`` in MB (Linux ``/proc``)."""
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    raise RuntimeError(f"no VmRSS for process {pid}")


class _Timed:
    """A player that notes the least time its clock showed after each of its moves."""

    def __init__(self, player: Any, report: SessionReport) -> None:
        self.player = player
        self.name = player.name
        self.report = report

    def new_game(self) -> None:
        self.player.new_game()

    def play(self, board: Any, limit: Limit) -> Any:
        start = time.monotonic()
        answer = self.player.play(board, limit)
        if limit.remaining is not None:
            left = limit.remaining - (time.monotonic() - start)
            self.report.least_left = min(self.report.least_left, left)
        return answer


def run(protocol: str, games: int, seconds: float, seed: int = 1,
        max_plies: int = 300) -> SessionReport:
    """Play ``games`` games of ``seconds`` sudden death per side between two long-lived
    engine processes of ``protocol``."""
    import importlib

    factory, options, command, plies = SESSIONS[protocol]
    module, _, name = factory.partition(":")
    kit = getattr(importlib.import_module(module), name)(**options)
    load_kernels(kit)
    spec = PlayerSpec.parse(f'cmd:"{sys.executable} -m bitgames.cli {command}"')
    report = SessionReport(protocol)
    engines = [make_player(kit, spec), make_player(kit, spec)]
    pids = [e.transport.proc.pid for e in engines]
    players = [_Timed(e, report) for e in engines]
    openings = random_openings(kit.new_board, max(games, 1), plies, seed=seed)
    rng = random.Random(seed)
    clock = TimeControl(seconds, 0.0, margin=0.0)
    start = time.monotonic()
    try:
        for number in range(games):
            board = kit.new_board()
            for move in openings[number % len(openings)]:
                board.push(move)
            first, second = players if rng.random() < 0.5 else players[::-1]
            _, reason = referee(board, first, second, Limit(), clock, max_plies, kit)
            report.reasons[reason] += 1
            report.games += 1
            if report.games == min(WARM_UP, games):
                report.rss_warm = [resident_mb(p) for p in pids]
        report.rss_end = [resident_mb(p) for p in pids]
    finally:
        for e in engines:
            e.close()
    report.seconds = time.monotonic() - start
    return report


def main(argv: list[str]) -> int:
    protocol = argv[0]
    games = int(argv[1]) if len(argv) > 1 else 200
    seconds = float(argv[2]) if len(argv) > 2 else 1.0
    report = run(protocol, games, seconds)
    print(report.summary())
    print("endings:", dict(report.reasons.most_common()))
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
