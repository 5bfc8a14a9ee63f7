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
from typing import Any


def emit(record: dict[str, Any], as_json: bool, text: str) -> None:
    """Print one result: ``record`` as a JSON object with ``--json``, else ``text``."""
    if as_json:
        print(json.dumps(record), flush=True)
    else:
        print(text, flush=True)


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
    parser.add_argument("--games", type=int, default=games,
                        help=f"games to play (default {games}; each opening twice, with "
                        "colours swapped)")
    parser.add_argument("--openings", metavar="FILE",
                        help="openings, one per line (moves in the game's notation); "
                        "default: random openings")
    parser.add_argument("--random-plies", type=int, default=4, metavar="N",
                        help="plies of each random opening (default 4)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random openings")
    parser.add_argument("--tc", metavar="SECONDS[+INC]",
                        help="a game clock for each player (losing on time loses the game)")
    parser.add_argument("--max-plies", type=int, default=max_plies,
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
    parser.add_argument("--workers", type=int, help="parallel games (default: the CPUs)")
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
        random_openings,
        run_plan,
    )
    from bitgames.core.parallel import check_scheduler

    specs = [PlayerSpec.parse(spec) for spec in (args.a, args.b)]  # errors before any game
    check_scheduler(args.scheduler)
    if args.games < 1:
        raise BitgamesError(f"--games must be at least 1, got {args.games}")
    if args.resume and not args.save:
        raise BitgamesError("--resume needs --save FILE")
    module, _, name = kit_factory.partition(":")
    kit = getattr(importlib.import_module(module), name)(**kit_options)
    for spec in specs:  # a built-in engine's options and level, checked (and its
        if spec.command is None:  # kernels compiled) here, before the workers start
            engine = kit.engine(spec.options)
            if spec.level is not None:
                engine.level = spec.level
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
        openings = random_openings(kit.new_board, (args.games + 1) // 2, args.random_plies,
                                   args.seed) or [()]
    plan = MatchPlan(args.a, args.b, openings, args.games,
                     clock=TimeControl.parse(args.tc) if args.tc else None,
                     max_plies=args.max_plies,
                     sprt=Sprt.parse(args.sprt) if args.sprt else None)

    def on_game(record: Any, result: Any) -> None:
        a_side = "A first" if record.a_first else "B first"
        emit({"game": record.number, **record.to_dict(), "total": result.to_dict()},
             args.json,
             f"game {record.number}/{plan.games} ({a_side}): {record.result} "
             f"[{record.reason}]  {result.summary()}")

    run = run_plan(plan, kit_factory, kit_options, scheduler=args.scheduler,
                   workers=args.workers, save=args.save, resume=args.resume,
                   records=args.records, on_game=on_game)
    result = run.result
    emit({"a": args.a, "b": args.b, **result.to_dict(), "stopped": run.stopped}, args.json,
         f"{args.a} vs {args.b}: {result.summary()}"
         + (f"  (stopped: {run.stopped})" if run.stopped else ""))
    return 130 if run.stopped == "interrupted" else 0
