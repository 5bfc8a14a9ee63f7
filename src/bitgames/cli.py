"""The ``bitgames`` command line: ``bitgames <game> <command> ...``.

Building the parser imports only each game's small ``cli`` module, never numba, so every
``--help`` is fast. A game's ``cli`` module provides ``add_commands(subparsers)``; each
command stores a ``func(args) -> int`` that does the work (and imports kernels lazily).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import re
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from bitgames import __version__
from bitgames.core.cli import WORKERS, Integer, add_json_flag, emit

GAMES = {
    "othello": "Othello (Reversi): engine, exact endgame solver, book, NBoard, perft",
    "draughts": "Russian draughts and English checkers: engine, Hub, perft",
    "go": "Go on 9x9 to 19x19 boards: MCTS engine, GTP, scoring",
    "leiserchess": "Leiserchess (MIT 6.172, 2016 rules): engine, UCI, closebook, perft",
}


def installed_games() -> list[str]:
    """Games whose command-line module is present in this installation.

    Looks for the files without importing the game packages (which may load numba).
    """
    root = Path(__file__).resolve().parent
    return [g for g in GAMES if (root / g / "cli.py").exists()]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bitgames",
        description="Fast bitboard game engines compiled with numba.",
        epilog="Run 'bitgames GAME --help' for a game's commands.",
    )
    parser.add_argument("--version", action="version", version=f"bitgames {__version__}")
    games = parser.add_subparsers(dest="game", metavar="COMMAND")
    games.required = True

    warm = games.add_parser(
        "warmup",
        help="compile every kernel once (numba) and report the time",
        description="Compile every kernel of the given games (all by default) into the "
        "on-disk cache, so later commands start at once. Games compile in parallel "
        "processes; a line is printed as each one is ready.",
    )
    warm.add_argument("games", nargs="*", help="games to warm (default: all installed)")
    warm.add_argument("--workers", type=WORKERS, default=None,
                      help="processes compiling at once (default: the number of CPUs; "
                      "1 compiles here, one game after the other)")
    add_json_flag(warm)
    warm.set_defaults(func=_cmd_warmup)

    cache = games.add_parser(
        "cache-clear",
        help="delete numba's compiled-code cache",
        description="Delete every cached version of the compiled kernels.",
    )
    add_json_flag(cache)
    cache.set_defaults(func=_cmd_cache_clear)

    serve = games.add_parser(
        "serve",
        help="play and analyse every game in a web browser",
        description="Start a local web server with a page for every game: play against "
        "the engine by clicking, take back, hints, analysis with an evaluation graph, "
        "engine-against-engine games, position strings and game records. Needs the "
        "'web' extra (pip install 'bitgames[web]').",
    )
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=Integer(1, 65535), default=8000,
                       help="port (default 8000)")
    serve.set_defaults(func=_cmd_serve)

    plot = games.add_parser(
        "plot",
        help="draw a game's evaluation, a match's Elo or a training run (PNG, SVG, PDF)",
        description="Plots with matplotlib (the 'plot' extra): 'game' analyses a game "
        "record with the engine and draws its evaluation after each move, mistakes marked; "
        "'match' draws the Elo difference after each game of a match saved with --save, "
        "with its 95 % interval; 'training' draws the held-out error per stage of an "
        "'othello train' run.",
    )
    plot.add_argument("what", choices=["game", "match", "training"])
    plot.add_argument("file", help="game record, match --save file, or report.json")
    plot.add_argument("-o", "--output", required=True,
                      help="picture to write; its extension gives the format (.png, .svg)")
    plot.add_argument("--game", dest="kind", default=None,
                      help="for 'game': othello, russian, english, go9, go13, go19 or "
                      "leiserchess")
    plot.add_argument("--level", type=Integer(1, 20), default=3,
                      help="for 'game': the engine level of the analysis (default 3)")
    plot.set_defaults(func=_cmd_plot)

    for game in installed_games():
        module = importlib.import_module(f"bitgames.{game}.cli")
        game_parser = games.add_parser(game, help=GAMES[game], description=module.__doc__,
                                       formatter_class=argparse.RawDescriptionHelpFormatter)
        commands = game_parser.add_subparsers(dest="command", metavar="COMMAND")
        commands.required = True
        module.add_commands(commands)
    _plain_help(parser)
    return parser


def plain(text: str) -> str:
    """Help text as people read it: reStructuredText roles and literals unwrapped.

    >>> plain("moves like ``h4g5``; see :func:`~bitgames.core.match.run_plan`")
    'moves like h4g5; see run_plan'
    """
    text = re.sub(r":[a-z]+:`~[\w.]*?\.(\w+)`", r"\1", text)
    text = re.sub(r":[a-z]+:`([^`]*)`", r"\1", text)
    return re.sub(r"``(.*?)``", r"\1", text, flags=re.S)


def _plain_help(parser: argparse.ArgumentParser) -> None:
    """Apply :func:`plain` to the descriptions and help texts of ``parser`` and all its
    subcommands (module docstrings serve as descriptions)."""
    if parser.description:
        parser.description = plain(parser.description)
    for action in parser._actions:
        if action.help:
            action.help = plain(action.help)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if choice.help:
                    choice.help = plain(choice.help)
            for sub in set(action.choices.values()):
                _plain_help(sub)


def _cmd_warmup(args: argparse.Namespace) -> int:
    import time

    from bitgames.core import jit

    known = jit.available_games()
    for g in args.games:
        if g not in known:
            raise ValueError(f"unknown game {g!r}; installed: {', '.join(known)}")
    games = list(dict.fromkeys(args.games)) or known
    start = time.perf_counter()
    if not args.json:
        print(f"compiling {', '.join(games)} (first run only; a line as each game is ready)",
              file=sys.stderr, flush=True)

    def done(game: str, group: str | None, seconds: float) -> None:
        if group is not None:  # one group of a game: a progress line on stderr
            print(f"  {game} {group}: {seconds:.1f} s ({time.perf_counter() - start:.0f} s "
                  "elapsed)", file=sys.stderr, flush=True)
            return
        emit(
            {"game": game, "seconds": round(seconds, 3), "cache": str(jit.cache_dir(game))},
            args.json,
            f"{game}: kernels ready in {seconds:.2f} s "
            f"({time.perf_counter() - start:.0f} s elapsed)",
        )

    jit.parallel_warmup(games, workers=args.workers, progress=done)
    if not args.json:
        print(f"all ready in {time.perf_counter() - start:.1f} s; cache: {jit.cache_root()}")
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        from bitgames.web.app import serve
    except ImportError as exc:
        raise ValueError(f"the web app needs the 'web' extra (pip install 'bitgames[web]'): "
                         f"{exc}") from None
    try:
        serve(args.host, args.port)
    except OSError as exc:
        raise ValueError(f"cannot listen on {args.host}:{args.port}: {exc}") from None
    return 0


def _cmd_plot(args: argparse.Namespace) -> int:
    from pathlib import Path

    from bitgames import plots

    if args.what == "match":
        fig = plots.match_elo(args.file)
    elif args.what == "training":
        fig = plots.training(args.file)
    else:
        from bitgames.web.games import GAMES
        from bitgames.web.session import HUMAN, Game

        if args.kind not in GAMES:
            raise ValueError(f"plot game needs --game, one of {', '.join(GAMES)}")
        game = Game(GAMES[args.kind], level=min(args.level, GAMES[args.kind].max_level),
                    players=(HUMAN, HUMAN))
        game.load(Path(args.file).read_text(encoding="utf-8", errors="replace"))
        game.analyse(game.board.copy())
        unit = game.analysis and (game.analysis[0].get("score") or "").split(" ", 1)[-1]
        fig = plots.game_evaluation(game.analysis, unit=unit or "",
                                    title=f"{GAMES[args.kind].title}: {Path(args.file).name}")
        mistakes = [f"{r['ply']}. {r['move']} (best {r['best']})" for r in game.analysis
                    if r.get("mistake")]
        print("mistakes: " + (", ".join(mistakes) or "none"))
    fig.savefig(args.output)
    print(f"wrote {args.output}")
    return 0


def _cmd_cache_clear(args: argparse.Namespace) -> int:
    from bitgames.core import jit

    removed = jit.clear_cache()
    emit(
        {"removed": [str(p) for p in removed]},
        args.json,
        f"removed {len(removed)} cache director{'y' if len(removed) == 1 else 'ies'}",
    )
    return 0


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (what ``kill`` and process managers send) stops a command as Ctrl-C does:
    long jobs keep their finished work and close the outside engines they started."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status (``--help``: 0; a
    bad option: 2, with argparse's message on stderr)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    try:
        with _terminate_as_interrupt():
            return int(args.func(args))
    except BrokenPipeError:
        return 0
    except (ValueError, OSError) as exc:
        print(f"bitgames: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("bitgames: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
