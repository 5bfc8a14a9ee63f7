"""Argument parsers of the Othello engine commands: play, analyze, match, nboard, book, train.

Only argparse here (no numba): ``bitgames othello --help`` stays fast. Each ``cmd_*``
imports what it needs.
"""

from __future__ import annotations

import argparse

from bitgames.cli import add_json_flag


def _engine_args(p: argparse.ArgumentParser, level: int = 8) -> None:
    p.add_argument("--level", type=int, default=level, help=f"engine level 1-20 ({level})")
    _eval_args(p)


def _eval_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--eval", dest="evaluation", choices=["pattern", "classic"],
                   default="pattern", help="evaluation: trained patterns (default) or classic")
    p.add_argument("--weights", help="pattern weights file (default: the shipped weights)")


def _book_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--book", help="opening book file (default: your learned book if any, "
                   "else the shipped one; learning writes ~/.local/share/bitgames/"
                   "othello-book.npz or $BITGAMES_DATA_DIR)")
    p.add_argument("--no-book", action="store_true", help="never play from the book")


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play against the engine in the terminal",
                       description="Play a game against the engine. Commands at the prompt: a "
                       "move (f5), 'pass', 'hint', 'undo', 'save FILE', 'load FILE', 'eval', "
                       "'board', 'quit'. Reads standard input, so it can be scripted.")
    _engine_args(p, level=6)
    _book_args(p)
    p.add_argument("--color", choices=["black", "white"], default="black",
                   help="your colour (black moves first)")
    p.add_argument("--moves", default="", help="start after these moves (e.g. f5d6)")
    p.add_argument("--show-thinking", action="store_true", help="print each search iteration")
    p.set_defaults(func=cmd_play)

    a = sub.add_parser("analyze", help="evaluate every move of a game, marking mistakes",
                       description="Replay a transcript (f5d6c3...) or a GGF game and print, "
                       "per ply, the move played, the engine's best move and both scores; "
                       "moves losing at least --mistake discs are marked '?' (blunders '??').")
    a.add_argument("transcript", help="moves such as f5d6c3..., a GGF game, or a file of one")
    _engine_args(a, level=8)
    a.add_argument("--mistake", type=float, default=4.0, help="mistake threshold in discs (4)")
    add_json_flag(a)
    a.set_defaults(func=cmd_analyze)

    m = sub.add_parser("match", help="engine against engine, with an Elo difference",
                       description="Play engine A against engine B over varied openings with "
                       "colours swapped; print the score and the Elo difference with a 95% "
                       "interval. Players are given as 'EVAL:LEVEL' (classic:4, pattern:6) or "
                       "'EVAL:dDEPTH' for a fixed depth, optionally ':tSECONDS' for a game clock.")
    m.add_argument("player_a", help="e.g. pattern:4")
    m.add_argument("player_b", help="e.g. classic:4")
    m.add_argument("--games", type=int, default=20, help="number of games (even; 20)")
    m.add_argument("--random-plies", type=int, default=8,
                   help="random opening plies making the varied openings (8)")
    m.add_argument("--seed", type=int, default=1, help="seed of the openings")
    m.add_argument("--weights", help="pattern weights file for pattern players")
    add_json_flag(m)
    m.set_defaults(func=cmd_match)

    n = sub.add_parser("nboard", help="speak the NBoard protocol (version 2) on stdin/stdout",
                       description="Run as an NBoard engine: read protocol commands on "
                       "standard input, reply on standard output.")
    _engine_args(n, level=10)
    _book_args(n)
    n.set_defaults(func=cmd_nboard)

    b = sub.add_parser("book", help="build, show or extend the opening book",
                       description="The opening book: positions (up to symmetry) with "
                       "negamax scores from searches at a fixed depth.")
    bsub = b.add_subparsers(dest="book_command", metavar="ACTION", required=True)
    bb = bsub.add_parser("build", help="expand a book from the start position by search",
                         description="Breadth first from the start position, follow every "
                         "move within --width discs of the best down to --plies plies, "
                         "searching each new position at --depth. Saves as it goes; run the "
                         "same command again to resume.")
    bb.add_argument("file", help="book file to create or extend (.npz)")
    bb.add_argument("--plies", type=int, default=8, help="plies from the start (8)")
    bb.add_argument("--depth", type=int, default=10, help="search depth per position (10)")
    bb.add_argument("--width", type=float, default=2.0,
                    help="follow moves within this many discs of the best (2.0)")
    bb.add_argument("--max-positions", type=int, help="stop after adding this many positions")
    _eval_args(bb)
    add_json_flag(bb)
    bb.set_defaults(func=cmd_book)
    bs = bsub.add_parser("show", help="the book moves of a position",
                         description="Print the book moves of the position after --moves "
                         "(default: the start), best first, with scores from the side to "
                         "move and the depth and games of the position.")
    bs.add_argument("--book", help="book file (default: your learned book, else the shipped)")
    bs.add_argument("--moves", default="", help="moves from the start, e.g. f5d6")
    add_json_flag(bs)
    bs.set_defaults(func=cmd_book)
    bl = bsub.add_parser("learn", help="add the positions of a game to the book",
                         description="Add every position of a game (transcript, GGF or a "
                         "file of either) up to --plies plies to the book, searched at "
                         "--depth, and update the scores back to the start.")
    bl.add_argument("transcript", help="moves such as f5d6c3..., a GGF game, or a file of one")
    bl.add_argument("--book", help="book file (default: your learned book)")
    bl.add_argument("--plies", type=int, default=30, help="plies of the game to learn (30)")
    bl.add_argument("--depth", type=int, default=10, help="search depth per position (10)")
    add_json_flag(bl)
    bl.set_defaults(func=cmd_book)

    t = sub.add_parser("train", help="train pattern weights from self-play (needs scipy)",
                       description="Self-play games labelled by exact solves and backed-up "
                       "searches; per-stage regularised least squares on a window of "
                       "empties; held-out error per stage. Interrupt and run again to resume: "
                       "finished games and exact labels are kept.")
    t.add_argument("out", help="working directory (games, weights.npz, report.json)")
    t.add_argument("--games", type=int, default=2000, help="number of self-play games (2000)")
    t.add_argument("--seed", type=int, default=1, help="random seed (1)")
    t.add_argument("--solve-empties", type=int, default=16,
                   help="solve games exactly from this many empties (16)")
    t.add_argument("--exact-empties", type=int, default=17,
                   help="label every recorded position with at most this many empties by "
                   "an exact solve (17)")
    t.add_argument("--label-depth", type=int, default=4,
                   help="search depth labelling earlier stages (4)")
    t.add_argument("--play-depth", type=int, default=2, help="self-play search depth (2)")
    t.add_argument("--play-weights", default="",
                   help="pattern weights (.npz) the self-play searches evaluate with "
                   "(default: the classic evaluation)")
    t.add_argument("--random-min", type=int, default=6, help="fewest random opening plies (6)")
    t.add_argument("--random-max", type=int, default=36, help="most random opening plies (36)")
    t.add_argument("--window", type=int, default=2,
                   help="fit each stage on the labelled positions up to this many empties "
                   "beyond its own 4 (2)")
    t.add_argument("--damp", type=_floats, default=(3.0,),
                   help="ridge damping of the fit, or comma-separated candidates: each stage "
                   "takes the one that errs least on the validation games (3)")
    t.add_argument("--chunk", type=int, default=25, help="games per saved chunk (25)")
    t.add_argument("--workers", type=int, default=0, help="processes (default: all CPUs)")
    t.add_argument("--scheduler", default="processes",
                   help="serial, processes (default) or tcp://host:port (Dask)")
    t.add_argument("--generate-only", action="store_true",
                   help="only play the games and solve their exact labels")
    t.set_defaults(func=cmd_train)


def _floats(text: str) -> tuple[float, ...]:
    """``"1,3,6"`` -> ``(1.0, 3.0, 6.0)`` (argparse type)."""
    try:
        return tuple(float(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of numbers: {text!r}"
                                         ) from None


def cmd_train(args: argparse.Namespace) -> int:
    from bitgames.core.errors import BitgamesError
    from bitgames.core.parallel import check_scheduler

    check_scheduler(args.scheduler)
    if args.games < 1 or not 0 <= args.random_min <= args.random_max <= 59:
        raise BitgamesError("need --games >= 1 and 0 <= --random-min <= --random-max <= 59")
    if not 1 <= args.solve_empties <= 24 or args.exact_empties > 24:
        raise BitgamesError("--solve-empties must be 1..24 and --exact-empties at most 24")
    if args.window < 0 or min(args.damp) < 0:
        raise BitgamesError("--window and --damp must not be negative")
    try:
        import scipy  # noqa: F401
    except ImportError as exc:
        raise BitgamesError("training needs scipy: pip install 'bitgames[train]'") from exc
    from bitgames.core.jit import ensure_warm

    ensure_warm("othello")
    from bitgames.othello.train import TrainConfig, Trainer

    cfg = TrainConfig(games=args.games, seed=args.seed, chunk=args.chunk,
                      random_min=args.random_min, random_max=args.random_max,
                      play_depth=args.play_depth, play_weights=args.play_weights,
                      solve_empties=args.solve_empties,
                      exact_empties=args.exact_empties, label_depth=args.label_depth,
                      window=args.window, damp=args.damp, workers=args.workers,
                      scheduler=args.scheduler)
    trainer = Trainer(args.out, cfg)
    trainer.generate()
    trainer.solve()
    if not args.generate_only:
        trainer.fit()
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from bitgames.othello.play import run_play

    return run_play(args)


def cmd_analyze(args: argparse.Namespace) -> int:
    from bitgames.othello.play import run_analyze

    return run_analyze(args)


def cmd_match(args: argparse.Namespace) -> int:
    from bitgames.othello.play import run_match_cmd

    return run_match_cmd(args)


def cmd_book(args: argparse.Namespace) -> int:
    from bitgames.othello.play import run_book

    return run_book(args)


def cmd_nboard(args: argparse.Namespace) -> int:
    from bitgames.othello.nboard import run_nboard

    return run_nboard(args)
