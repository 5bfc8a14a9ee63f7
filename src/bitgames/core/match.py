"""Engine-against-engine matches for any game, with Elo differences and error bars.

A game takes part through its :class:`GameKit` (the start position, its built-in engine,
a client for outside engines in its protocol, its record format); players are named by
:class:`PlayerSpec` (``level:5,time:0.5`` or ``cmd:"COMMAND"``) and every move is checked
by :func:`referee`. :func:`run_plan` plays a :class:`MatchPlan` -- each opening twice with
the colours swapped, so neither player profits from the side or the opening -- in
parallel, saving every finished game, and stops early when an :class:`Sprt` decides.

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
import shlex
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bitgames.core.engine import Limit, with_clock
from bitgames.core.errors import BitgamesError, EngineError


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
    number: int = 0  # the game's place in the match (1, 2, ...); 0 when not numbered
    result: str = "*"  # the game's result in its own notation
    reason: str = ""  # how it ended: "no moves", "illegal move e9 by B", "time", ...
    # wall-clock seconds each player took over its moves (protocol and start-up of the
    # move included), and how many moves: what an engine's clock really cost
    a_seconds: float = 0.0
    a_moves: int = 0
    b_seconds: float = 0.0
    b_moves: int = 0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record, the moves as text."""
        return {"number": self.number, "opening": self.opening, "a_first": self.a_first,
                "a_score": self.a_score, "plies": self.plies,
                "adjudicated": self.adjudicated, "result": self.result,
                "reason": self.reason, "a_seconds": round(self.a_seconds, 4),
                "a_moves": self.a_moves, "b_seconds": round(self.b_seconds, 4),
                "b_moves": self.b_moves, "moves": [str(m) for m in self.moves]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        return cls(int(data["opening"]), bool(data["a_first"]), float(data["a_score"]),
                   list(data.get("moves", [])), int(data.get("plies", 0)),
                   bool(data.get("adjudicated", False)), int(data.get("number", 0)),
                   str(data.get("result", "*")), str(data.get("reason", "")),
                   float(data.get("a_seconds", 0.0)), int(data.get("a_moves", 0)),
                   float(data.get("b_seconds", 0.0)), int(data.get("b_moves", 0)))


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

    def seconds_per_move(self) -> tuple[float, float] | None:
        """The mean thinking time per move of A and of B over the games that recorded it
        (an engine that overshoots its budget shows here); ``None`` when none did.

        >>> r = MatchResult()
        >>> r.add(GameRecord(0, True, 1.0, a_seconds=3.0, a_moves=10, b_seconds=6.0, b_moves=10))
        >>> r.add(GameRecord(0, False, 0.5, a_seconds=1.0, a_moves=10, b_seconds=2.0, b_moves=10))
        >>> r.seconds_per_move()
        (0.2, 0.4)
        """
        a_moves = sum(g.a_moves for g in self.games)
        b_moves = sum(g.b_moves for g in self.games)
        if not a_moves or not b_moves:
            return None
        return (sum(g.a_seconds for g in self.games) / a_moves,
                sum(g.b_seconds for g in self.games) / b_moves)

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
        times = self.seconds_per_move()
        return {"wins": self.wins, "draws": self.draws, "losses": self.losses,
                "games": self.n, "score": self.score, "elo": _finite(self.elo),
                "elo_low": _finite(lo), "elo_high": _finite(hi), "los": self.los(),
                "a_seconds_per_move": None if times is None else round(times[0], 4),
                "b_seconds_per_move": None if times is None else round(times[1], 4)}


def _finite(x: float) -> float | None:
    return None if math.isinf(x) or math.isnan(x) else round(x, 1)


# -- SPRT ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0: Elo = ``elo0`` against H1: Elo = ``elo1``.

    The log-likelihood ratio is the generalised SPRT's normal approximation on the per-game
    scores (as fishtest and cutechess use): with ``n`` games, mean score ``x`` and
    per-game variance ``v``, ``LLR = n (s1 - s0) (2x - s0 - s1) / (2v)`` where ``s0, s1``
    are the expected scores at ``elo0, elo1``. The test accepts H1 once the LLR reaches
    ``log((1 - beta) / alpha)`` and H0 once it falls to ``log(beta / (1 - alpha))``.

    >>> test = Sprt(0.0, 10.0)
    >>> round(test.upper, 3), round(test.lower, 3)
    (2.944, -2.944)
    >>> test.decide(MatchResult(wins=2000, draws=1000, losses=1000))
    'H1'
    >>> test.decide(MatchResult(wins=10, draws=5, losses=10)) is None
    True
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, result: MatchResult) -> float:
        """The log-likelihood ratio of H1 against H0 after ``result``."""
        n = result.n
        if n < 2:
            return 0.0
        x = result.score
        var = (result.wins * (1 - x) ** 2 + result.draws * (0.5 - x) ** 2
               + result.losses * x**2) / n
        if var <= 0.0:
            var = 1.0 / (4 * n)  # every game alike: a variance floor of one game in n
        s0, s1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        return n * (s1 - s0) * (2 * x - s0 - s1) / (2 * var)

    def decide(self, result: MatchResult) -> str | None:
        """``"H1"`` (Elo >= elo1 accepted), ``"H0"`` (Elo <= elo0 accepted), or None."""
        llr = self.llr(result)
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """``"0,10"`` -> ``Sprt(0.0, 10.0)`` (alpha = beta = 0.05)."""
        try:
            elo0, elo1 = (float(x) for x in text.split(","))
        except ValueError:
            raise BitgamesError(f"--sprt wants ELO0,ELO1 (e.g. 0,10), got {text!r}") from None
        if elo1 <= elo0:
            raise BitgamesError(f"--sprt needs ELO0 < ELO1, got {text!r}")
        return cls(elo0, elo1)


# -- players, time controls and games -----------------------------------------------------------


@dataclass(frozen=True)
class TimeControl:
    """A game clock: ``seconds`` for the game plus ``increment`` per move.

    ``margin`` seconds of lag are forgiven (process start-up, pipes).

    >>> TimeControl.parse("60+0.5")
    TimeControl(seconds=60.0, increment=0.5, margin=0.1)
    """

    seconds: float
    increment: float = 0.0
    margin: float = 0.1

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``"SECONDS"`` or ``"SECONDS+INCREMENT"``."""
        base, _, inc = text.partition("+")
        try:
            seconds, increment = float(base), float(inc or 0.0)
        except ValueError:
            raise BitgamesError(f"time control must be SECONDS[+INCREMENT], got {text!r}"
                                ) from None
        if seconds <= 0 or increment < 0:
            raise BitgamesError(f"time control must be positive, got {text!r}")
        return cls(seconds, increment)


_LIMIT_KEYS = ("depth", "nodes", "time")


@dataclass(frozen=True)
class PlayerSpec:
    """A player as the command line names it, the same in every game.

    - ``cmd:COMMAND`` -- an outside engine started with ``COMMAND`` (split as a shell
      would) and spoken to in the game's protocol (NBoard, Hub, GTP, UCI); with the
      command in quotes, limits may follow: ``cmd:"my-engine --hub",depth:8`` (sent to
      the engine where its protocol can say them), and ``protocol:NAME`` for an engine
      that speaks another protocol the game knows (Othello: ``protocol:gtp``);
    - ``key:value,...`` -- the built-in engine: ``level:N``, and limits ``depth:N``,
      ``nodes:N`` (Go: playouts), ``time:SECONDS`` per move, ``threads:N`` search
      threads; other keys are the game's own engine options (Othello ``eval:classic``).
      A bare number is a level.

    Either kind may have a game clock of its own, ``tc:SECONDS+INCREMENT``, in place of
    the match's (``--tc``): a player on a clock against one on fixed playouts, say.

    >>> PlayerSpec.parse("level:5,time:0.5")
    PlayerSpec(text='level:5,time:0.5', command=None, level=5, limit=Limit(depth=None, \
nodes=None, time=0.5, remaining=None, increment=0.0, moves_to_go=None, infinite=False), \
options={}, protocol=None, clock=None)
    >>> PlayerSpec.parse('cmd:gnugo --mode gtp --level 10').command
    'gnugo --mode gtp --level 10'
    >>> spec = PlayerSpec.parse('cmd:"scan hub",depth:8')
    >>> spec.command, spec.limit.depth
    ('scan hub', 8)
    >>> PlayerSpec.parse('cmd:"gtp-rhino -l 5",protocol:gtp').protocol
    'gtp'
    >>> PlayerSpec.parse("tc:4+0.25").clock
    TimeControl(seconds=4.0, increment=0.25, margin=0.1)
    """

    text: str
    command: str | None = None
    level: int | None = None
    limit: Limit = field(default_factory=Limit)
    options: dict[str, str] = field(default_factory=dict)
    protocol: str | None = None
    clock: TimeControl | None = None

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        text = text.strip()
        if text.startswith("cmd:"):
            command, rest = text[4:].strip(), ""
            if command[:1] in ("'", '"'):
                end = command.find(command[0], 1)
                if end < 0:
                    raise BitgamesError(f"player {text!r}: the command's quote is not closed")
                command, rest = command[1:end], command[end + 1:].strip()
                if rest and not rest.startswith(","):
                    raise BitgamesError(f"player {text!r}: after the quoted command, only "
                                        ",depth:N / ,nodes:N / ,time:S / ,tc:S+I / "
                                        ",protocol:NAME may follow")
            if not command:
                raise BitgamesError("player 'cmd:' needs a command, e.g. cmd:\"gnugo --mode gtp\"")
            level, limit, options = cls._settings(text, rest)
            protocol = options.pop("protocol", None)
            clock = cls._clock(options)
            if level is not None or options:
                raise BitgamesError(f"player {text!r}: an outside engine takes only limits "
                                    "(depth, nodes, time), tc:S+I and protocol:NAME; set "
                                    "its level in its command")
            return cls(text, command=command, limit=limit, protocol=protocol, clock=clock)
        level, limit, options = cls._settings(text, text)
        clock = cls._clock(options)
        return cls(text, level=level, limit=limit, options=options, clock=clock)

    @staticmethod
    def _clock(options: dict[str, str]) -> TimeControl | None:
        text = options.pop("tc", None)
        return None if text is None else TimeControl.parse(text)

    @staticmethod
    def _settings(text: str, part_text: str) -> tuple[int | None, Limit, dict[str, str]]:
        level: int | None = None
        limits: dict[str, Any] = {}
        options: dict[str, str] = {}
        for part in filter(None, (p.strip() for p in part_text.split(","))):
            key, sep, value = part.partition(":")
            if not sep:
                key, value = "level", part
            try:
                if key == "level":
                    level = int(value)
                elif key in ("depth", "nodes"):
                    limits[key] = int(value)
                elif key == "time":
                    limits["time"] = float(value)
                else:
                    options[key] = value
            except ValueError:
                raise BitgamesError(f"player {text!r}: {key} needs a number, got {value!r}"
                                    ) from None
        return level, Limit(**limits), options


@dataclass(frozen=True)
class GameKit:
    """What the match runner needs to know of one game (each game's ``match_kit``)."""

    #: the game's name, for messages
    game: str
    #: the start position
    new_board: Callable[[], Any]
    #: the built-in engine, from a spec's own options (``{}``: the defaults)
    engine: Callable[[dict[str, str]], Any]
    #: an outside engine speaking the game's protocol, from its command line
    client: Callable[[str], Any]
    #: the game's record in its file format: ``record(board, white, black, result)``
    record: Callable[[Any, str, str, str], str]
    #: one line of an openings file -> its moves as text (default: split on spaces)
    split_opening: Callable[[str], list[str]] = str.split
    #: whether a move is a resignation (pushed to end the game, never in legal_moves)
    is_resignation: Callable[[Any], bool] = lambda move: False
    #: the outcome of a finished game and its result text, where it needs more than
    #: ``board.outcome()`` (Go: the score with dead stones removed, ``B+3.5``);
    #: ``None``: ``board.outcome()`` and ``board.result()``
    final_result: Callable[[Any], tuple[Any, str]] | None = None
    #: outside engines speaking other protocols, by the name a spec gives them
    #: (``cmd:"gtp-rhino",protocol:gtp``)
    other_clients: dict[str, Callable[[str], Any]] = field(default_factory=dict)
    #: the kernel groups the built-in engine needs besides the rules
    #: (:func:`bitgames.core.jit.ensure_warm`), loaded before a game starts
    engine_groups: tuple[str, ...] = ()
    #: the kernel groups :attr:`final_result` needs besides the rules, loaded before a
    #: game starts whoever plays (Go: the playouts that judge dead stones)
    scoring_groups: tuple[str, ...] = ()


def client_factory(kit: GameKit, spec: PlayerSpec) -> Callable[[str], Any]:
    """What starts the outside engine of a ``cmd:`` spec: the game's own protocol, or the
    one its ``protocol:NAME`` asks for (:class:`BitgamesError` if the game has none)."""
    if spec.protocol is None:
        return kit.client
    if spec.protocol not in kit.other_clients:
        known = ", ".join(sorted(kit.other_clients)) or "none"
        raise BitgamesError(f"player {spec.text!r}: {kit.game} knows no outside engines "
                            f"in protocol {spec.protocol!r} (other protocols: {known})")
    return kit.other_clients[spec.protocol]


def require_program(spec: PlayerSpec) -> None:
    """Raise :class:`BitgamesError` if the program of an outside engine's command cannot
    be found (no such file, nothing of that name on ``PATH``), so that a mistyped command
    ends a match before its first game instead of losing every game of it.

    >>> require_program(PlayerSpec.parse("level:3"))  # a built-in engine: nothing to find
    >>> require_program(PlayerSpec.parse('cmd:"no-such-engine-anywhere --gtp"'))
    Traceback (most recent call last):
    ...
    bitgames.core.errors.BitgamesError: player 'cmd:"no-such-engine-anywhere --gtp"': \
program 'no-such-engine-anywhere' not found (not a file, not on PATH)
    """
    if spec.command is None:
        return
    try:
        missing = missing_program(spec.command)
    except ValueError as exc:
        raise BitgamesError(f"player {spec.text!r}: {exc}") from None
    if missing:
        raise BitgamesError(f"player {spec.text!r}: program {missing!r} not found (not a "
                            "file, not on PATH)")


def missing_program(command: str) -> str | None:
    """The program that ``command`` starts if it cannot be found (not a file, not on
    ``PATH``; ``""`` for a command naming none), else None; :class:`ValueError` for bad
    quoting.

    >>> missing_program("sh -c true"), missing_program("no-such-engine-anywhere --gtp")
    (None, 'no-such-engine-anywhere')
    """
    argv = shlex.split(command)
    if not argv:
        return ""
    return argv[0] if shutil.which(argv[0]) is None else None


def make_player(kit: GameKit, spec: PlayerSpec) -> Any:
    """The :class:`~bitgames.core.engine.Player` a spec names."""
    from bitgames.core.engine import EnginePlayer

    if spec.command is not None:
        client = client_factory(kit, spec)(spec.command)
        return client if spec.limit.is_empty() else LimitedPlayer(client, spec.limit)
    options = dict(spec.options)
    threads = options.pop("threads", "1")
    if not threads.isdigit():
        raise BitgamesError(f"player {spec.text!r}: threads must be a whole number from 1 "
                            f"to 1024, got {threads!r}")
    engine = kit.engine(options)
    if spec.level is not None:
        engine.level = spec.level
    engine.threads = int(threads)  # checked by the engine
    return EnginePlayer(engine, spec.limit, name=spec.text)


class LimitedPlayer:
    """An outside engine told the limits of its spec (``cmd:"...",depth:8``) at each move;
    the match's clock comes on top, as for built-in engines."""

    def __init__(self, player: Any, limit: Limit) -> None:
        self.player = player
        self.limit = limit
        self.name = player.name

    def new_game(self) -> None:
        self.player.new_game()

    def play(self, board: Any, limit: Limit) -> Any:
        return self.player.play(board, with_clock(self.limit, limit))

    def close(self) -> None:
        self.player.close()


def referee(board: Any, first: Any, second: Any, limit: Limit,
            clock: TimeControl | tuple[TimeControl | None, TimeControl | None] | None = None,
            max_plies: int = 400, kit: GameKit | None = None,
            move_times: tuple[list[float], list[float]] | None = None) -> tuple[float, str]:
    """Play one game from ``board`` (changed in place); ``first`` moves now.

    Every move is checked by our own rules: an illegal move, an engine error or crash,
    or (with a ``clock``: one for both, or a pair, ``first``'s then ``second``'s, either
    None for no clock) an overstepped time loses the game. The ``kit`` says which moves
    are resignations and how a finished game is scored, where its game needs it.
    With ``move_times``, the wall-clock seconds of each answer of ``first`` and of
    ``second`` are appended to its two lists.
    Returns the first player's score (1, 0.5 or 0) and the reason the game ended.
    """
    players = (first, second)
    first_color = board.turn
    clocks = clock if isinstance(clock, tuple) else (clock, clock)
    remaining = [c.seconds if c else 0.0 for c in clocks]
    for player in players:
        player.new_game()
    plies = 0
    while True:
        outcome = board.outcome()
        if outcome is not None and kit is not None and kit.final_result is not None:
            outcome = kit.final_result(board)[0]
        if outcome is not None:
            if outcome.winner is None:
                return 0.5, outcome.termination.value
            return (1.0 if outcome.winner == first_color else 0.0), outcome.termination.value
        if plies >= max_plies:
            return 0.5, f"adjudicated a draw after {max_plies} plies"
        side = 0 if board.turn == first_color else 1
        player = players[side]
        move_limit = limit
        own_clock = clocks[side]
        if own_clock is not None:
            move_limit = Limit(depth=limit.depth, nodes=limit.nodes, time=limit.time,
                               remaining=max(remaining[side], 0.0),
                               increment=own_clock.increment)
        start = time.monotonic()
        try:
            answer = player.play(board.copy(), move_limit)
            move = answer.move
            if isinstance(move, str):
                move = board.parse_move(move)
        except EngineError as exc:
            return float(side), f"{player.name} failed: {exc}"
        except ValueError as exc:
            return float(side), f"illegal move by {player.name}: {exc}"
        took = time.monotonic() - start
        if move_times is not None:
            move_times[side].append(took)
        if own_clock is not None:
            remaining[side] -= took
            if remaining[side] < -own_clock.margin:
                return float(side), f"{player.name} lost on time"
            remaining[side] += own_clock.increment
        resigns = kit is not None and move is not None and kit.is_resignation(move)
        if move is None or not (resigns or move in board.legal_moves):
            return float(side), f"illegal move {move} by {player.name}"
        board.push(move)
        plies += 1


class _Forfeit:
    """A player whose engine could not start: it loses at its first move."""

    def __init__(self, name: str, error: EngineError) -> None:
        self.name = name
        self.error = error

    def new_game(self) -> None:
        pass

    def play(self, board: Any, limit: Limit) -> Any:
        raise EngineError(f"could not start: {self.error}")

    def close(self) -> None:
        pass


def _start_player(kit: GameKit, spec: PlayerSpec) -> Any:
    """The player of a spec, named by the spec's text (so a record says how to play the
    game again, and two copies of one engine stay apart); an outside engine that fails to
    start (crash, no answer to the handshake) loses this game instead of ending the
    match."""
    try:
        player = make_player(kit, spec)
    except EngineError as exc:
        return _Forfeit(spec.text, exc)
    player.name = spec.text
    return player


@dataclass(frozen=True)
class GameSetup:
    """One game of a match: its number, the opening (moves as text), who moves first."""

    number: int
    opening: int
    moves: tuple[str, ...]
    a_first: bool


def load_kernels(kit: GameKit, engine: bool = False) -> None:
    """Load the kernels of ``kit``'s rules and scoring, and with ``engine`` those of its
    built-in engine, in this process now (compiled first, with a line on stderr, if the
    cache has never seen them).

    numba loads a cached kernel at its first call (some 0.3 s for a game's rules) and
    compiles one it has never seen (a minute for an engine): done inside the first move,
    that would count on the first mover's clock.
    """
    from bitgames.core import jit

    if kit.game in jit.KERNEL_MODULES:
        groups = dict.fromkeys(("rules", *kit.scoring_groups,
                                *(kit.engine_groups if engine else ())))
        jit.ensure_warm(kit.game, *groups, load=True)


def play_setup(kit_factory: str, kit_options: dict[str, Any], spec_a: str, spec_b: str,
               setup: GameSetup, limit: Limit, clock: TimeControl | None,
               max_plies: int) -> tuple[GameRecord, str]:
    """Play one game in this process (a task for :func:`bitgames.core.parallel.run_tasks`).

    ``kit_factory`` names the game's kit function (``"bitgames.othello.cli:match_kit"``),
    called with ``kit_options``. Returns the record and the game's record text.
    """
    import importlib

    module, _, name = kit_factory.partition(":")
    kit: GameKit = getattr(importlib.import_module(module), name)(**kit_options)
    specs = [PlayerSpec.parse(spec_a), PlayerSpec.parse(spec_b)]
    load_kernels(kit, engine=any(spec.command is None for spec in specs))
    board = kit.new_board()
    for text in setup.moves:
        board.push(text)
    a = _start_player(kit, specs[0])
    try:
        b = _start_player(kit, specs[1])
    except BaseException:
        a.close()
        raise
    try:
        first, second = (a, b) if setup.a_first else (b, a)
        first_color = board.turn
        start_ply = len(board.move_stack)
        times: tuple[list[float], list[float]] = ([], [])
        clock_a, clock_b = (spec.clock or clock for spec in specs)
        clocks = (clock_a, clock_b) if setup.a_first else (clock_b, clock_a)
        first_score, reason = referee(board, first, second, limit, clocks, max_plies, kit,
                                      times)
    finally:
        a.close()
        b.close()
    a_score = first_score if setup.a_first else 1.0 - first_score
    moves = [str(m) for m in board.move_stack]
    outcome = board.outcome()
    if outcome is not None and kit.final_result is not None:
        outcome, result = kit.final_result(board)
    elif outcome is not None:
        result = board.result()
    elif first_score == 0.5:
        result = "1/2-1/2"
    else:  # a forfeit: the winner is the one who did not fail
        result = "1-0" if (first_score == 1.0) == first_color else "0-1"
    white, black = (first, second) if first_color else (second, first)
    text = kit.record(board, white.name, black.name, result)
    a_times, b_times = times if setup.a_first else times[::-1]
    record = GameRecord(setup.opening, setup.a_first, a_score, moves,
                        len(moves) - start_ply, "adjudicated" in reason, setup.number,
                        result, reason, sum(a_times), len(a_times), sum(b_times),
                        len(b_times))
    return record, text


def random_openings(new_board: Callable[[], Any], count: int, plies: int,
                    seed: int = 0) -> list[tuple[str, ...]]:
    """``count`` different openings of ``plies`` random legal moves (as text).

    >>> class Line:  # a toy game: each ply adds 1 or 2
    ...     def __init__(self): self.moves = []
    ...     legal_moves = property(lambda self: ["1", "2"])
    ...     def push(self, m): self.moves.append(m)
    ...     def is_game_over(self): return False
    ...     def fen(self): return "".join(self.moves)
    >>> random_openings(Line, 3, 2, seed=1)
    [('1', '1'), ('2', '1'), ('2', '2')]
    """
    import random

    rng = random.Random(seed)
    found: dict[str, tuple[str, ...]] = {}
    for _ in range(50 * count):
        if len(found) >= count:
            break
        board = new_board()
        moves: list[str] = []
        for _ in range(plies):
            legal = list(board.legal_moves)
            if not legal or board.is_game_over():
                break
            move = rng.choice(legal)
            moves.append(str(move))
            board.push(move)
        if len(moves) == plies and not board.is_game_over():
            found.setdefault(board.fen(), tuple(moves))
    return sorted(found.values())


# -- a whole match: plan, parallel games, saving, resuming, SPRT --------------------------------


@dataclass
class MatchPlan:
    """Who plays, from which openings, how many games, under which limits.

    Openings are played in pairs, each with both colours: game 1 and 2 use opening 0
    (A first, then B first), games 3 and 4 opening 1, and so on round the list. With
    ``swap=False`` A moves first in every game and each game takes the next opening (a
    handicap match, where the side that moves first is the one giving the stones).

    >>> [(s.number, s.opening, s.a_first) for s in MatchPlan("a", "b", [(), ("x",)], 3).setups()]
    [(1, 0, True), (2, 0, False), (3, 1, True)]
    >>> plan = MatchPlan("a", "b", [(), ("x",)], 3, swap=False)
    >>> [(s.number, s.opening, s.a_first) for s in plan.setups()]
    [(1, 0, True), (2, 1, True), (3, 0, True)]
    """

    spec_a: str
    spec_b: str
    openings: list[tuple[str, ...]]
    games: int
    limit: Limit = field(default_factory=Limit)
    clock: TimeControl | None = None
    max_plies: int = 400
    sprt: Sprt | None = None
    swap: bool = True

    def setups(self) -> list[GameSetup]:
        if not self.openings:
            raise BitgamesError("a match needs at least one opening (the empty one will do)")
        out = []
        for number in range(1, self.games + 1):
            turn = (number - 1) // 2 if self.swap else number - 1
            index = turn % len(self.openings)
            out.append(GameSetup(number, index, self.openings[index],
                                 number % 2 == 1 or not self.swap))
        return out

    def header(self) -> dict[str, Any]:
        """What a saved match must agree on to be resumed."""
        return {"a": self.spec_a, "b": self.spec_b, "games": self.games,
                "openings": [list(o) for o in self.openings], "max_plies": self.max_plies,
                "clock": None if self.clock is None else [self.clock.seconds,
                                                          self.clock.increment],
                # a match saved before the option existed swapped colours
                **({} if self.swap else {"swap": False})}


@dataclass
class MatchRun:
    """The outcome of :func:`run_plan`: the result, and why it stopped early (if it did):
    ``"sprt H0"``, ``"sprt H1"`` or ``"interrupted"``."""

    result: MatchResult
    stopped: str | None = None


def load_saved(path: Any, plan: MatchPlan) -> list[GameRecord]:
    """The games of an interrupted run saved in ``path`` (JSON lines), checked against
    ``plan``; ``[]`` when the file does not exist."""
    import json
    from pathlib import Path

    path = Path(path)
    if not path.exists():
        return []
    lines = path.read_text().splitlines()
    if not lines:
        return []
    try:
        header = json.loads(lines[0]).get("match")
    except (json.JSONDecodeError, AttributeError):
        header = None
    if header is None:
        raise BitgamesError(f"{path}: line 1 is not a match header; is this a saved match?")
    if header != plan.header():
        raise BitgamesError(f"{path} holds another match (players, games, openings or clock "
                            "differ); use another --save file or drop --resume")
    records = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            records.append(GameRecord.from_dict(json.loads(line)))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            if number == len(lines):  # a line cut short by a kill: that game is replayed
                break
            raise BitgamesError(f"{path}:{number}: not a game record ({exc})") from None
    return records


def run_plan(plan: MatchPlan, kit_factory: str, kit_options: dict[str, Any],
             scheduler: str = "processes", workers: int | None = None,
             save: Any = None, resume: bool = False, records: Any = None,
             on_game: Callable[[GameRecord, MatchResult], None] | None = None) -> MatchRun:
    """Play the games of ``plan`` (in parallel on ``scheduler``), A's results.

    Each finished game is appended at once to ``save`` (JSON lines, a header first) and
    its record text to ``records``, so a kill loses only the games in progress; with
    ``resume`` the games already in ``save`` are counted, not replayed. The match stops
    early when the SPRT decides, or on Ctrl-C (``MatchRun.stopped`` says which).
    """
    import json
    from pathlib import Path

    from bitgames.core.parallel import run_tasks

    setups = plan.setups()
    result = MatchResult()
    done: set[int] = set()
    save_path = Path(save) if save is not None else None
    if save_path is not None and resume:
        for record in load_saved(save_path, plan):
            if record.number and record.number not in done:
                done.add(record.number)
                result.add(record)
    elif save_path is not None:
        save_path.write_text(json.dumps({"match": plan.header()}) + "\n")
    run = MatchRun(result)
    if plan.sprt is not None and (verdict := plan.sprt.decide(result)):
        run.stopped = f"sprt {verdict}"
        return run
    todo = [s for s in setups if s.number not in done]
    tasks = [(kit_factory, kit_options, plan.spec_a, plan.spec_b, s, plan.limit, plan.clock,
              plan.max_plies) for s in todo]
    games = run_tasks(play_setup, tasks, scheduler=scheduler, workers=workers)
    try:
        for _index, (record, text) in games:
            result.add(record)
            if save_path is not None:
                with save_path.open("a") as fh:
                    fh.write(json.dumps(record.to_dict()) + "\n")
            if records is not None:
                with Path(records).open("a") as fh:
                    fh.write(text.rstrip("\n") + "\n")
            if on_game is not None:
                on_game(record, result)
            if plan.sprt is not None and (verdict := plan.sprt.decide(result)):
                run.stopped = f"sprt {verdict}"
                break
    except KeyboardInterrupt:
        run.stopped = "interrupted"
    finally:
        close = getattr(games, "close", None)
        if close is not None:
            try:
                close()
            except KeyboardInterrupt:
                run.stopped = "interrupted"
    return run
