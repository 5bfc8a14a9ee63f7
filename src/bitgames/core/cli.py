"""Command-line plumbing every game shares: ``--json``, perft records, the match command.

A game's ``cli.py`` builds its subcommands with these helpers so the same option means the
same thing in every game, and the same fact has the same JSON key (``time`` in seconds,
``nodes``, ``nps``, ``depth``, ``score``, ``move``, ``pv``: the keys of
:meth:`bitgames.core.engine.SearchResult.to_dict`).

Importing this module never loads numba: ``--help`` stays instant.
"""

from __future__ import annotations

import argparse
import json
import math
import re
from typing import Any

from bitgames.core.parallel import default_workers

_INTEGER = re.compile(r"[+-]?[0-9]+")
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


#: the exit status of a command stopped by Ctrl-C (128 + SIGINT), as shells report it
INTERRUPTED = 130


def emit(record: dict[str, Any], as_json: bool, text: str) -> None:
    """Print one result: ``record`` as a JSON object with ``--json``, else ``text``."""
    from bitgames.core.progress import write

    write(json.dumps(record) if as_json else text)


class Integer:
    """An ``argparse`` type: a whole number in ASCII digits, within ``[minimum, maximum]``.

    Python's ``int()`` also reads other digits (``int('²')`` fails, ``int('٣')`` is 3) and
    numbers of any size; an option must be plain and in range, or the command refuses it
    with a message naming the option.

    >>> Integer(1)("12")
    12
    >>> Integer(1, 60)("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be 1..60, got 0
    """

    def __init__(self, minimum: int | None = None, maximum: int | None = None) -> None:
        self.minimum = minimum
        self.maximum = maximum
        self.__name__ = "integer"  # argparse names the type in its messages

    def __call__(self, text: str) -> int:
        if not _INTEGER.fullmatch(text.strip()):
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}")
        value = int(text)
        low = "" if self.minimum is None else str(self.minimum)
        high = "" if self.maximum is None else str(self.maximum)
        if ((self.minimum is not None and value < self.minimum)
                or (self.maximum is not None and value > self.maximum)):
            bounds = f"{low}..{high}" if low and high else (
                f"at least {low}" if low else f"at most {high}")
            raise argparse.ArgumentTypeError(f"must be {bounds}, got {value}")
        return value


class Number:
    """An ``argparse`` type: a finite decimal number in ``[minimum, maximum]``.

    ``nan``, ``inf`` and other spellings ``float()`` accepts are refused: a time of
    ``inf`` seconds would overflow a timer, ``nan`` compares false with everything.

    >>> Number(0)("2.5")
    2.5
    >>> Number(0)("inf")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a finite number, got 'inf'
    """

    def __init__(self, minimum: float | None = None, maximum: float | None = None,
                 above: float | None = None) -> None:
        self.minimum = minimum
        self.maximum = maximum
        self.above = above
        self.__name__ = "number"

    def __call__(self, text: str) -> float:
        if not _NUMBER.fullmatch(text.strip()):
            raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
        value = float(text)
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
        if self.above is not None and value <= self.above:
            raise argparse.ArgumentTypeError(f"must be more than {self.above:g}, got {value:g}")
        if self.minimum is not None and value < self.minimum:
            raise argparse.ArgumentTypeError(f"must be at least {self.minimum:g}, got {value:g}")
        if self.maximum is not None and value > self.maximum:
            raise argparse.ArgumentTypeError(f"must be at most {self.maximum:g}, got {value:g}")
        return value


#: the longest a move may be given on the command line: a year
MAX_SECONDS = 365 * 24 * 3600.0
#: seconds per move: more than zero, at most :data:`MAX_SECONDS`
SECONDS = Number(maximum=MAX_SECONDS, above=0.0)
#: nodes (Go: playouts) of a search: kernels count them in 64 bits
NODES = Integer(1, 10**12)
#: a random seed (numba's generators take 64 bits)
SEED = Integer(0, 2**63 - 1)
#: worker processes or threads
WORKERS = Integer(1, 1024)
#: search threads of an engine when ``--threads`` is not given: every core this process
#: may use (``--threads 1`` is the deterministic search, node counts included)
DEFAULT_THREADS = default_workers()
#: games, positions, plies: anything counted that a job holds in memory
COUNT = Integer(1, 10**9)


def add_limit_options(parser: argparse.ArgumentParser, max_level: int,
                      level: int | None = None, level_help: str = "", *,
                      limits: bool = True, depth: bool = True,
                      nodes_help: str = "nodes per move",
                      aliases: dict[str, str] | None = None) -> None:
    """The engine options, the same in every game: ``--level``, ``--threads`` and, with
    ``limits``, the
    limits ``--depth``, ``--nodes`` and ``--movetime`` (see :func:`limit_from_args`).

    ``level`` is the default level (``None``: the engine's own default) and ``level_help``
    says what a level sets in this game; ``depth=False`` leaves out ``--depth`` (Go's
    tree search has none); ``aliases`` adds a game's older name of an option, e.g.
    ``{"nodes": "--playouts"}``.
    """
    names = {"nodes": ["--nodes"], "movetime": ["--movetime"]}
    for key, alias in (aliases or {}).items():
        names[key].append(alias)
    default = "" if level is None else f", default {level}"
    parser.add_argument("--level", type=Integer(1, max_level), default=level,
                        help=f"engine level 1 (weakest) to {max_level}{default}"
                        + (f": {level_help}" if level_help else ""))
    add_threads_option(parser)
    if not limits:
        return
    if depth:
        parser.add_argument("--depth", type=Integer(1, 255), metavar="PLIES",
                            help="search this many plies (instead of the level's limit)")
    parser.add_argument(*names["nodes"], dest="nodes", type=NODES, metavar="N",
                        help=nodes_help)
    parser.add_argument(*names["movetime"], dest="movetime", type=SECONDS, metavar="SECONDS",
                        help="seconds per move")


def add_threads_option(parser: argparse.ArgumentParser, protocol: str = "") -> None:
    """``--threads N``: the engine's search threads (``protocol``: how the mode's GUIs
    set it too, for the help)."""
    also = f"; also {protocol}" if protocol else ""
    parser.add_argument("--threads", type=WORKERS, default=DEFAULT_THREADS, metavar="N",
                        help=f"search threads (default {DEFAULT_THREADS}: every core; 1 is "
                        f"the deterministic search{also})")


def limit_from_args(args: argparse.Namespace) -> Any:
    """The :class:`~bitgames.core.engine.Limit` of :func:`add_limit_options`' options:
    ``Limit()`` (the level decides) when none of depth, nodes, movetime is given.

    >>> limit_from_args(argparse.Namespace(depth=6, nodes=None, movetime=None))
    Limit(depth=6, nodes=None, time=None, remaining=None, increment=0.0, moves_to_go=None, \
infinite=False)
    """
    from bitgames.core.engine import Limit

    return Limit(depth=getattr(args, "depth", None), nodes=args.nodes, time=args.movetime)


def add_json_flag(parser: argparse.ArgumentParser) -> None:
    """Give a command the common ``--json`` flag."""
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object per result, for scripts"
    )


def perft_record(depth: int, count: int, seconds: float, stopped: bool = False,
                 **extra: Any) -> dict[str, Any]:
    """The JSON record of a perft run, the same keys in every game.

    >>> perft_record(3, 1000, 0.5)
    {'depth': 3, 'count': 1000, 'time': 0.5, 'leaves_per_second': 2000, 'stopped': False}
    """
    rate = count / seconds if seconds > 0 else 0.0
    return {"depth": depth, **extra, "count": count, "time": round(seconds, 6),
            "leaves_per_second": round(rate), "stopped": stopped}


def add_match_options(parser: argparse.ArgumentParser, games: int = 20,
                      max_plies: int = 400) -> None:
    """The ``match`` command's arguments, the same in every game."""
    parser.add_argument("a", help="player A: level:N[,depth:N][,nodes:N][,time:S] for the "
                        "built-in engine, or cmd:\"COMMAND\" for an outside engine")
    parser.add_argument("b", help="player B, as A")
    parser.add_argument("--games", type=COUNT, default=games,
                        help=f"games to play (default {games}; each opening twice, with "
                        "colours swapped)")
    parser.add_argument("--openings", metavar="FILE",
                        help="openings, one per line (moves in the game's notation); "
                        "default: random openings")
    parser.add_argument("--random-plies", type=Integer(0, 100), default=4, metavar="N",
                        help="plies of each random opening (default 4)")
    parser.add_argument("--seed", type=SEED, default=0,
                        help="seed of the random openings")
    parser.add_argument("--no-swap", dest="swap", action="store_false",
                        help="A moves first in every game, from a new opening each game "
                        "(default: each opening twice, colours swapped)")
    parser.add_argument("--tc", metavar="SECONDS[+INC]",
                        help="a game clock for each player (losing on time loses the game)")
    parser.add_argument("--max-plies", type=COUNT, default=max_plies,
                        help=f"adjudicate a draw after this many plies (default {max_plies})")
    parser.add_argument("--sprt", metavar="ELO0,ELO1",
                        help="stop as soon as a sequential test (alpha = beta = 0.05) "
                        "decides between Elo <= ELO0 and Elo >= ELO1")
    parser.add_argument("--save", metavar="FILE",
                        help="save every finished game (JSON lines) for --resume")
    parser.add_argument("--resume", action="store_true",
                        help="continue the match saved in --save")
    parser.add_argument("--records", metavar="FILE",
                        help="append each game's record in the game's file format")
    parser.add_argument("--scheduler", default="processes",
                        help="serial, processes (default) or tcp://HOST:PORT (Dask)")
    parser.add_argument("--workers", type=WORKERS, help="parallel games (default: the CPUs)")
    add_json_flag(parser)


def run_match_command(args: argparse.Namespace, kit_factory: str,
                      kit_options: dict[str, Any]) -> int:
    """Run the ``match`` command of :func:`add_match_options` for one game's kit.

    Prints a line per game and a summary with the Elo difference and its 95 % interval;
    exit status 130 when interrupted (finished games are saved).
    """
    import importlib
    from pathlib import Path

    from bitgames.core.errors import BitgamesError
    from bitgames.core.match import (
        MatchPlan,
        PlayerSpec,
        Sprt,
        TimeControl,
        client_factory,
        load_kernels,
        make_player,
        random_openings,
        require_program,
        run_plan,
    )
    from bitgames.core.parallel import check_scheduler
    from bitgames.core.progress import bar

    specs = [PlayerSpec.parse(spec) for spec in (args.a, args.b)]  # errors before any game
    check_scheduler(args.scheduler)
    if args.resume and not args.save:
        raise BitgamesError("--resume needs --save FILE")
    module, _, name = kit_factory.partition(":")
    kit = getattr(importlib.import_module(module), name)(**kit_options)
    for spec in specs:  # a built-in engine's options, level and threads, checked here,
        if spec.command is None:  # before the workers start
            make_player(kit, spec).close()
        else:
            client_factory(kit, spec)  # an unknown protocol:NAME fails here
            require_program(spec)  # and a program not found, not as games lost
    # its kernels compiled once here if the cache has never seen them, not by every worker
    # at once inside its first game's first move
    load_kernels(kit, engine=any(spec.command is None for spec in specs))
    openings: list[tuple[str, ...]]
    if args.openings:
        path = Path(args.openings)
        try:
            lines = path.read_text().splitlines()
        except OSError as exc:
            raise BitgamesError(f"cannot read openings {path}: {exc.strerror}") from None
        openings = []
        for number, line in enumerate(lines, start=1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            moves = tuple(kit.split_opening(text))
            board = kit.new_board()
            try:
                for move in moves:
                    board.push(move)
            except ValueError as exc:
                raise BitgamesError(f"{path}:{number}: {exc}") from None
            openings.append(moves)
        if not openings:
            raise BitgamesError(f"{path}: no openings in the file")
    else:
        count = (args.games + 1) // 2 if args.swap else args.games
        openings = random_openings(kit.new_board, count, args.random_plies, args.seed) or [()]
    plan = MatchPlan(args.a, args.b, openings, args.games,
                     clock=TimeControl.parse(args.tc) if args.tc else None,
                     max_plies=args.max_plies,
                     sprt=Sprt.parse(args.sprt) if args.sprt else None, swap=args.swap)

    shown = bar(plan.games, "match", "game")

    def on_game(record: Any, result: Any) -> None:
        a_side = "A first" if record.a_first else "B first"
        emit({"game": record.number, **record.to_dict(), "total": result.to_dict()},
             args.json,
             f"game {record.number}/{plan.games} ({a_side}): {record.result} "
             f"[{record.reason}]  {result.summary()}")
        shown.update(result.n - shown.n)  # resumed games count too
        low, high = result.elo_interval()
        shown.set_postfix_str(f"Elo {result.elo:+.0f} [{low:+.0f}, {high:+.0f}]")

    with shown:
        run = run_plan(plan, kit_factory, kit_options, scheduler=args.scheduler,
                       workers=args.workers, save=args.save, resume=args.resume,
                       records=args.records, on_game=on_game)
    result = run.result
    times = result.seconds_per_move()
    emit({"a": args.a, "b": args.b, **result.to_dict(), "stopped": run.stopped}, args.json,
         f"{args.a} vs {args.b}: {result.summary()}"
         + (f"  (stopped: {run.stopped})" if run.stopped else "")
         + ("" if times is None else
            f"\n  seconds per move: A {times[0]:.3f}, B {times[1]:.3f}"))
    return 130 if run.stopped == "interrupted" else 0
