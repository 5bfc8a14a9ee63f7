"""Engine-against-engine matches for any game, with Elo differences and error bars.

A *board* is any object with ``push(move)``, ``is_game_over()``, ``winner()`` (the winning
colour or None), ``turn`` (the colour to move) and ``copy()`` -- the ``Board`` of every
bitgames game qualifies. A *player* is a callable ``player(board) -> move`` or an object
with a ``choose_move(board)`` method. Each opening (a list of moves played before the
players take over) is played twice with colours swapped, so neither player profits from
the side or the opening.

The Elo difference comes from the score fraction ``p`` by the logistic model,
``elo = -400 log10(1/p - 1)``; the error bar uses the normal approximation of the mean
per-game score (its sample variance over the games, wins/draws/losses = 1/0.5/0).

>>> round(elo_from_score(0.75), 1)
190.8
>>> r = MatchResult(wins=60, draws=20, losses=20)
>>> r.score, round(r.elo, 1), [round(x) for x in r.elo_interval()]
(0.7, 147.2, [86, 218])
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


class MatchBoard(Protocol):
    """What the match runner needs from a board."""

    @property
    def turn(self) -> Any: ...

    def push(self, move: Any) -> None: ...

    def is_game_over(self) -> bool: ...

    def winner(self) -> Any: ...

    def copy(self) -> Any: ...


Player = Callable[[Any], Any]


def as_player(player: Any) -> Player:
    """A callable ``board -> move`` from a callable or an object with ``choose_move``."""
    if hasattr(player, "choose_move"):
        return player.choose_move
    if callable(player):
        return player
    raise TypeError(f"{player!r} is neither callable nor has a choose_move(board) method")


def elo_from_score(p: float) -> float:
    """Elo difference that makes the expected score ``p`` (logistic model); +-inf at 1/0."""
    if p <= 0.0:
        return -math.inf
    if p >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / p - 1.0)


def score_from_elo(elo: float) -> float:
    """Expected score of a player ``elo`` points stronger.

    >>> score_from_elo(0.0)
    0.5
    """
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass
class GameRecord:
    """One game of a match: the opening index, whether player A moved first, the outcome."""

    opening: int
    a_first: bool
    a_score: float  # 1 win, 0.5 draw, 0 loss for player A
    moves: list[Any] = field(default_factory=list)
    plies: int = 0
    adjudicated: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record (without the moves, which are game objects)."""
        return {"opening": self.opening, "a_first": self.a_first, "a_score": self.a_score,
                "plies": self.plies, "adjudicated": self.adjudicated}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        return cls(int(data["opening"]), bool(data["a_first"]), float(data["a_score"]),
                   [], int(data.get("plies", 0)), bool(data.get("adjudicated", False)))


@dataclass
class MatchResult:
    """Wins, draws and losses of player A against player B, and what follows from them."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    games: list[GameRecord] = field(default_factory=list)

    @property
    def n(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """A's score fraction (draws count half)."""
        return (self.wins + 0.5 * self.draws) / self.n if self.n else 0.5

    @property
    def elo(self) -> float:
        """Elo difference A - B."""
        return elo_from_score(self.score)

    def stderr(self) -> float:
        """Standard error of the mean per-game score."""
        n = self.n
        if n < 2:
            return math.inf
        mu = self.score
        var = (self.wins * (1 - mu) ** 2 + self.draws * (0.5 - mu) ** 2
               + self.losses * mu ** 2) / n
        return math.sqrt(var / n)

    def elo_interval(self, z: float = 1.96) -> tuple[float, float]:
        """Confidence interval of the Elo difference (95 % by default).

        When every game had the same result the sample variance is 0 and the normal
        interval would collapse to a point; the Wilson score interval is used instead
        (40 wins out of 40 give a lower bound of 40 / (40 + z**2) = 91 %, +407 Elo).
        """
        se = self.stderr()
        if math.isinf(se):
            return -math.inf, math.inf
        if se == 0.0:
            n, p = self.n, self.score
            centre = (p + z * z / (2 * n)) / (1 + z * z / n)
            half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
            return elo_from_score(centre - half), elo_from_score(centre + half)
        return elo_from_score(self.score - z * se), elo_from_score(self.score + z * se)

    def los(self) -> float:
        """Likelihood of superiority: P(A is stronger), from wins and losses only."""
        if self.wins + self.losses == 0:
            return 0.5
        return 0.5 * (1 + math.erf((self.wins - self.losses)
                                   / math.sqrt(2 * (self.wins + self.losses))))

    def add(self, record: GameRecord) -> None:
        self.games.append(record)
        if record.a_score == 1.0:
            self.wins += 1
        elif record.a_score == 0.0:
            self.losses += 1
        else:
            self.draws += 1

    def summary(self) -> str:
        """One line: ``+W =D -L  score 62.5%  Elo +89 [+12, +170]``."""
        lo, hi = self.elo_interval()
        return (f"+{self.wins} ={self.draws} -{self.losses}  score {100 * self.score:.1f}%  "
                f"Elo {self.elo:+.0f} [{lo:+.0f}, {hi:+.0f}]")

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.elo_interval()
        return {"wins": self.wins, "draws": self.draws, "losses": self.losses,
                "games": self.n, "score": self.score, "elo": _finite(self.elo),
                "elo_low": _finite(lo), "elo_high": _finite(hi), "los": self.los()}


def _finite(x: float) -> float | None:
    return None if math.isinf(x) or math.isnan(x) else round(x, 1)


def play_game(board: MatchBoard, white_player: Player, black_player: Player,
              max_plies: int = 400) -> tuple[Any, list[Any], bool]:
    """Play one game from ``board`` (changed in place).

    ``white_player`` moves whenever ``board.turn`` equals the colour to move at the start,
    ``black_player`` otherwise. Returns (winning colour or None, moves, adjudicated):
    a game still going after ``max_plies`` is adjudicated a draw.
    """
    first = board.turn
    moves: list[Any] = []
    while not board.is_game_over():
        if len(moves) >= max_plies:
            return None, moves, True
        player = white_player if board.turn == first else black_player
        move = player(board.copy())
        board.push(move)
        moves.append(move)
    return board.winner(), moves, False


def run_match(player_a: Any, player_b: Any, new_board: Callable[[], MatchBoard],
              openings: Sequence[Sequence[Any]] = ((),), max_plies: int = 400,
              on_game: Callable[[GameRecord, MatchResult], None] | None = None,
              rounds: int = 1, previous: Sequence[GameRecord] = ()) -> MatchResult:
    """Play every opening ``rounds`` times with each colour; A's results.

    ``new_board()`` returns the start position; each opening's moves are pushed on it
    before the players take over. ``on_game`` is called after every game (progress; save
    the records to resume later). ``previous`` holds the records of games already played
    by an interrupted run of the same match: they are counted, not replayed.
    """
    a, b = as_player(player_a), as_player(player_b)
    result = MatchResult()
    number = 0
    for _ in range(rounds):
        for index, opening in enumerate(openings):
            for a_moves_first in (True, False):
                number += 1
                if number <= len(previous):
                    done = previous[number - 1]
                    if (done.opening, done.a_first) != (index, a_moves_first):
                        raise ValueError(f"game {number} of the saved run does not match "
                                         "this match (other openings or order)")
                    result.add(done)
                    continue
                board = new_board()
                for move in opening:
                    board.push(move)
                first_color = board.turn
                first, second = (a, b) if a_moves_first else (b, a)
                winner, moves, adjudicated = play_game(board, first, second, max_plies)
                if winner is None:
                    a_score = 0.5
                else:
                    a_score = 1.0 if (winner == first_color) == a_moves_first else 0.0
                record = GameRecord(index, a_moves_first, a_score, moves, len(moves),
                                    adjudicated)
                result.add(record)
                if on_game is not None:
                    on_game(record, result)
    if number < len(previous):
        raise ValueError(f"the saved run has {len(previous)} games, this match only {number}")
    return result


def openings_from_lines(lines: Iterable[str], parse: Callable[[str], Sequence[Any]]
                        ) -> list[Sequence[Any]]:
    """Read openings, one per line (blank lines and ``#`` comments skipped)."""
    out = []
    for line in lines:
        text = line.split("#", 1)[0].strip()
        if text:
            out.append(parse(text))
    return out
