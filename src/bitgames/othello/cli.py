"""Othello: perft, an exact endgame solver, and an engine to play, analyse, match, speak
NBoard, build an opening book and train its evaluation.

Boards are written as 64 squares a1, b1, ..., h8 (X black, O white, - empty) followed by
the side to move (X or O), as in FFO and Edax OBF files.
"""

# Only argparse at import time (no numba), so that `bitgames othello --help` stays fast:
# each cmd_* function imports what it needs.

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from bitgames.core.cli import (
    COUNT,
    INTERRUPTED,
    SEED,
    WORKERS,
    Integer,
    Number,
    add_json_flag,
    add_limit_options,
    add_match_options,
    add_threads_option,
    emit,
    limit_from_args,
    perft_record,
)
from bitgames.core.errors import BitgamesError

BOARD_HELP = 'a board: "<64 chars a1..h8> <X|O>" (default: the start position)'

MATCH_HELP = """\
Play player A against player B over varied openings, each opening twice with colours
swapped; print a line per game and the score with the Elo difference and its 95% interval.

Players:
  level:N[,depth:N][,nodes:N][,time:S][,eval:E][,weights:FILE][,exact:N][,wld:N][,mpc:on]
      the built-in engine: level 1-20 (default 8), a fixed depth, a node budget, seconds
      per move; eval:pattern (default, trained weights) or eval:classic; weights:FILE
      pattern weights of your own; exact:N and wld:N solve exactly / win-loss-draw from
      N empties, mpc:on|off, instead of the level's. With --tc the game clock replaces
      time:S.
  cmd:"COMMAND"[,depth:N]
      an outside engine speaking NBoard, at the depth its command line sets or the
      depth:N after the quotes (sent as NBoard's set depth), e.g.
      cmd:"bitgames othello nboard --level 4 --no-book"
  cmd:"COMMAND",protocol:gtp
      an outside engine speaking GTP (time limits only), e.g. GRhino:
      cmd:"gtp-rhino -l 5 -m 8 -e 16 -w 18 -b 0",protocol:gtp

The old player syntax maps as: pattern:6 and pattern:d6 -> level:6; classic:6 ->
level:6,eval:classic; a game clock pattern:6:t60 -> level:6 with --tc 60 (both players).

Openings (--openings FILE): one per line, as f5d6c3 or f5 d6 c3. --records FILE appends
each game as one line of GGF (RE: Black's disc difference). Ctrl-C stops the match
(exit status 130) with the finished games saved in --save FILE; --resume continues it.

Example:
  bitgames othello match level:6 level:6,eval:classic --games 40 --save m.jsonl
"""


#: what an Othello level sets (:func:`bitgames.othello.search.level_settings`)
LEVEL_HELP = "depth N, exact endgame solve from about 1.6 N empties"


def _engine_args(p: argparse.ArgumentParser, level: int = 8, limits: bool = True) -> None:
    add_limit_options(p, 20, level, LEVEL_HELP, limits=limits)
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
    p = sub.add_parser(
        "perft",
        help="count the leaves of the game tree to a depth",
        description="Count the positions DEPTH plies below a board (a pass is a ply), with "
        "bulk counting at the last ply, and print the count, the time and leaves per second.",
    )
    p.add_argument("depth", type=Integer(1, 60), help="depth in plies (1 or more)")
    p.add_argument(
        "--convention",
        choices=["edax", "bik"],
        default="edax",
        help="edax (default, OEIS A124004): games over before DEPTH are not counted; "
        "bik (Aart Bik 2009): each finished game counts as one leaf",
    )
    p.add_argument("--divide", action="store_true", help="print the count below each move")
    p.add_argument("--board", help=BOARD_HELP)
    add_json_flag(p)
    p.set_defaults(func=cmd_perft)

    s = sub.add_parser(
        "solve",
        help="solve endgame positions exactly (or win/loss/draw)",
        description="Solve positions exactly: print per position the empties, score (final "
        "disc difference for the side to move, empties to the winner), best move, principal "
        "variation, nodes, time and nodes/s, then totals. When the input gives the expected "
        "answer (OBF move scores, the FFO suite), say whether it matches.",
    )
    s.add_argument(
        "files", nargs="*", help="OBF or FFO-format files of positions ('-' for standard input)"
    )
    s.add_argument("--board", action="append", default=[],
                   help='a board to solve: "<64 chars a1..h8> <X|O>"; repeatable')
    s.add_argument("--ffo", metavar="RANGE", help="the shipped FFO suite, e.g. 1-19 or 40-59")
    s.add_argument(
        "--mode", choices=["exact", "wld"], default="exact", help="exact score or win/loss/draw"
    )
    s.add_argument("--table-bits", type=Integer(4, 30), default=21,
                   help="transposition table of 2^N entries (21)")
    s.add_argument("--quiet", action="store_true", help="do not draw the boards")
    s.add_argument("--passes", action="store_true",
                   help="print each selective pass as it ends (a long solve first finds "
                   "the score right with 73, 87 and 95 %% probability)")
    s.add_argument("--table-file", metavar="FILE",
                   help="keep the table in FILE (.npz): start from it if it exists (its size "
                   "wins over --table-bits), save it every --save-every minutes and when the "
                   "command ends or is stopped; a solve stopped by Ctrl-C or killed then goes "
                   "on from the last save when the command is run again")
    s.add_argument("--save-every", metavar="MINUTES", type=Number(above=0.0), default=10.0,
                   help="minutes between saves of --table-file during a solve (10)")
    s.add_argument("--moves", metavar="MOVES", type=_move_list,
                   help="solve these moves of each position (a1,b2,... or 'all'), one line "
                   "each, their scores from the position's side to move")
    s.add_argument("--window", metavar="LOW,HIGH", type=_window,
                   help="exact mode: only find whether each score is at most LOW (score <= "
                   "...), at least HIGH (score >= ...) or which score between them it is: "
                   "8,9 asks 'above +8?', and proves less and costs less than the score")
    add_threads_option(s)
    add_json_flag(s)
    s.set_defaults(func=cmd_solve)

    _add_engine_commands(sub)


def _add_engine_commands(sub: argparse._SubParsersAction) -> None:
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
    a.add_argument("--mistake", type=Number(above=0), default=4.0,
                   help="mistake threshold in discs (4)")
    add_json_flag(a)
    a.set_defaults(func=cmd_analyze)

    m = sub.add_parser("match", help="engine against engine, with an Elo difference",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description=MATCH_HELP)
    add_match_options(m)
    m.set_defaults(func=cmd_match)

    n = sub.add_parser("nboard", help="speak the NBoard protocol (version 2) on stdin/stdout",
                       description="Run as an NBoard engine: read protocol commands on "
                       "standard input, reply on standard output.")
    _engine_args(n, level=10, limits=False)
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
    bb.add_argument("--plies", type=Integer(1, 60), default=8, help="plies from the start (8)")
    bb.add_argument("--depth", type=Integer(1, 60), default=10,
                    help="search depth per position (10)")
    bb.add_argument("--width", type=Number(0, 128), default=2.0,
                    help="follow moves within this many discs of the best (2.0)")
    bb.add_argument("--max-positions", type=COUNT,
                    help="stop after adding this many positions")
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
    bl.add_argument("--plies", type=Integer(1, 60), default=30,
                    help="plies of the game to learn (30)")
    bl.add_argument("--depth", type=Integer(1, 60), default=10,
                    help="search depth per position (10)")
    add_json_flag(bl)
    bl.set_defaults(func=cmd_book)
    bw = bsub.add_parser("wthor", help="add the positions of tournament games (WTHOR)",
                         description="Add to a book every position of the first --plies "
                         "plies that at least --min-games WTHOR games reached (up to "
                         "symmetry), each searched at --depth, the searches spread over "
                         "processes or a Dask cluster. The scores are saved as they come: "
                         "run the same command again to resume.")
    bw.add_argument("file", help="book file to create or extend (.npz)")
    bw.add_argument("--wthor", nargs="+", required=True, metavar="FILE",
                    help="WTHOR game files (WTH_YYYY.wtb)")
    bw.add_argument("--min-games", type=Integer(1, 10**7), default=20,
                    help="keep positions reached in at least this many games (20)")
    bw.add_argument("--plies", type=Integer(1, 60), default=20, help="plies from the start (20)")
    bw.add_argument("--depth", type=Integer(1, 60), default=10,
                    help="search depth per position (10)")
    bw.add_argument("--workers", type=WORKERS, help="processes (default: all CPUs)")
    bw.add_argument("--scheduler", default="processes",
                    help="serial, processes (default) or tcp://host:port (Dask)")
    _eval_args(bw)
    add_json_flag(bw)
    bw.set_defaults(func=cmd_book)

    t = sub.add_parser("train", help="train pattern weights from self-play (needs scipy)",
                       description="Self-play games labelled by exact solves and backed-up "
                       "searches; per-stage regularised least squares on a window of "
                       "empties; held-out error per stage. Interrupt and run again to resume: "
                       "finished games and exact labels are kept.")
    t.add_argument("out", help="working directory (games, weights.npz, report.json)")
    t.add_argument("--games", type=Integer(0, 10**9), default=2000,
                   help="number of self-play games (2000; may be 0 with --wthor or "
                   "--logbook)")
    t.add_argument("--seed", type=SEED, default=1, help="random seed (1)")
    t.add_argument("--solve-empties", type=Integer(0, 60), default=16,
                   help="solve games exactly from this many empties (16)")
    t.add_argument("--exact-empties", type=Integer(0, 60), default=17,
                   help="label every recorded position with at most this many empties by "
                   "an exact solve (17)")
    t.add_argument("--label-depth", type=Integer(1, 60), default=4,
                   help="search depth labelling earlier stages (4)")
    t.add_argument("--play-depth", type=Integer(1, 60), default=2,
                   help="self-play search depth (2)")
    t.add_argument("--play-weights", default="",
                   help="pattern weights (.npz) the self-play searches evaluate with "
                   "(default: the classic evaluation)")
    t.add_argument("--random-min", type=Integer(0, 60), default=6,
                   help="fewest random opening plies (6)")
    t.add_argument("--random-max", type=Integer(0, 60), default=36,
                   help="most random opening plies (36)")
    t.add_argument("--window", type=Integer(0, 64), default=2,
                   help="fit each stage on the labelled positions up to this many empties "
                   "beyond its own 4 (2)")
    t.add_argument("--damp", type=_floats, default=(3.0,),
                   help="ridge damping of the fit, or comma-separated candidates: each stage "
                   "takes the one that errs least on the validation games (3)")
    t.add_argument("--chunk", type=COUNT, default=25, help="games per saved chunk (25)")
    t.add_argument("--workers", type=WORKERS, help="processes (default: all CPUs)")
    t.add_argument("--scheduler", default="processes",
                   help="serial, processes (default) or tcp://host:port (Dask)")
    t.add_argument("--wthor", nargs="+", default=[], metavar="FILE",
                   help="add the games of these WTHOR files (.wtb) to the self-play games")
    t.add_argument("--logbook", nargs="+", default=[], metavar="FILE",
                   help="add Logistello's games (logbook.gam, gzipped or not)")
    t.add_argument("--wthor-labels", choices=("theory", "search"), default="theory",
                   help="label the WTHOR and logbook positions before their exact depth by "
                   "the game's (theoretical) score (default) or by backed-up searches like "
                   "self-play ones")
    t.add_argument("--outcome-below", type=Integer(1, 64), default=64,
                   help="with --wthor-labels theory, only positions with fewer empties than "
                   "this take their game's score; the earlier ones are labelled by "
                   "backed-up searches (64: all)")
    t.add_argument("--consistency", type=Number(0, 100), default=0.0,
                   help="weight of the rows asking each position's value to equal its "
                   "successor's in the same game (a temporal-difference term against "
                   "values that swing from one ply to the next; 0: none)")
    t.add_argument("--consistency-from", type=Integer(0, 64), default=0, metavar="EMPTIES",
                   help="only pairs whose later position has at least this many empties "
                   "take part in --consistency (0: all; the rows triple a stage's fitting "
                   "time, and near the end the exact labels agree already)")
    t.add_argument("--generate-only", action="store_true",
                   help="only play the games and solve their exact labels")
    t.set_defaults(func=cmd_train)

    r = sub.add_parser(
        "recenter", help="remove the side-to-move bias of pattern weights (search-averaged)",
        description="Shift the constant weight of each stage (from 20 empties) so that the "
        "static evaluation agrees on average with the mean of an odd- and an even-depth "
        "search, on positions of WTHOR tournament games: weights fitted on backed-up "
        "labels otherwise favour the side to move, and successive iterations of a search "
        "swing between optimism and pessimism.")
    r.add_argument("out", help="weights file to write (.npz)")
    r.add_argument("--wthor", nargs="+", required=True, metavar="FILE",
                   help="WTHOR game files (WTH_YYYY.wtb) to take positions from")
    r.add_argument("--weights", help="weights to start from (default: the shipped weights)")
    r.add_argument("--games", type=COUNT, default=2000,
                   help="games drawn at random from the files (2000)")
    r.add_argument("--per-stage", type=COUNT, default=400,
                   help="positions per stage of 4 empties (400)")
    r.add_argument("--depths", type=_depths, default=(3, 4),
                   help="search depths averaged, comma-separated (3,4)")
    r.add_argument("--rounds", type=Integer(1, 20), default=3, help="passes over the stages (3)")
    r.add_argument("--seed", type=SEED, default=7, help="random seed of the samples (7)")
    r.add_argument("--workers", type=WORKERS, help="processes (default: all CPUs)")
    r.add_argument("--scheduler", default="processes",
                   help="serial, processes (default) or tcp://host:port (Dask)")
    r.set_defaults(func=cmd_recenter)

    w = sub.add_parser(
        "wthor", help="read WTHOR tournament game files: list, filter, convert",
        description="Read the French federation's WTHOR files (WTH_YYYY.wtb; player and "
        "tournament names from WTHOR.JOU and WTHOR.TRN in the same folder). Every game is "
        "replayed by our rules. Lists one game per line, or writes them as GGF or "
        "transcripts; filters by player, year and opening.")
    w.add_argument("files", nargs="+", help="WTH_YYYY.wtb files")
    w.add_argument("--player", help="only games of a player whose name contains this "
                   "(any case)")
    w.add_argument("--year", type=Integer(1900, 2200), help="only games of this year")
    w.add_argument("--opening", help="only games that begin with these moves (f5d6c3)")
    w.add_argument("--to", choices=["list", "ggf", "transcript"], default="list",
                   help="what to print for each game (default: list)")
    w.add_argument("--limit", type=COUNT, help="print at most this many games")
    add_json_flag(w)
    w.set_defaults(func=cmd_wthor)


#: a damping of the least-squares fit
DAMP = Number(0)


def _floats(text: str) -> tuple[float, ...]:
    """``"1,3,6"`` -> ``(1.0, 3.0, 6.0)`` (argparse type): finite numbers >= 0.

    >>> _floats("1,3,6")
    (1.0, 3.0, 6.0)
    """
    try:
        return tuple(DAMP(x) for x in text.split(","))
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(f"in {text!r}: {exc}") from None


def _depths(text: str) -> tuple[int, ...]:
    """``"3,4"`` -> ``(3, 4)`` (argparse type): search depths 1..20.

    >>> _depths("3,4")
    (3, 4)
    """
    depth = Integer(1, 20)
    try:
        return tuple(depth(x) for x in text.split(","))
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(f"in {text!r}: {exc}") from None


def cmd_recenter(args: argparse.Namespace) -> int:
    """``bitgames othello recenter OUT --wthor FILE...``: weights without the side-to-move
    bias (:func:`bitgames.othello.train.recenter`)."""
    import random

    from bitgames.core.jit import ensure_warm
    from bitgames.core.parallel import check_scheduler
    from bitgames.othello import eval as ev
    from bitgames.othello.train import recenter, stage_sample
    from bitgames.othello.wthor import games_of

    check_scheduler(args.scheduler)
    weights = ev.Weights.load(args.weights) if args.weights else ev.default_weights()
    if weights is None:
        raise BitgamesError("no shipped weights to start from: give --weights")
    games = [game for _, _, game in games_of(args.wthor)]
    games = random.Random(args.seed).sample(games, min(args.games, len(games)))
    ps, os_ = stage_sample((board for game in games for board in game.positions()),
                           args.per_stage, args.seed)
    ensure_warm("othello")
    shifts = recenter(weights, ps, os_, args.depths, args.rounds,
                      scheduler=args.scheduler, workers=args.workers or 0)
    weights.meta["recentered"] = json.dumps(
        {"files": [Path(f).name for f in args.wthor], "games": len(games),
         "per_stage": args.per_stage, "depths": list(args.depths), "rounds": args.rounds,
         "seed": args.seed, "shifts_discs": shifts})
    weights.save(args.out)
    print(f"wrote {args.out}: the constants of the stages from 20 empties on moved by "
          + " ".join(f"{-sum(r[i] for r in shifts):+.2f}" for i in range(len(shifts[0])))
          + " discs")
    return 0


def cmd_wthor(args: argparse.Namespace) -> int:
    """``bitgames othello wthor FILE...``: the games of WTHOR files, filtered."""
    from bitgames.othello.ggf import game_to_ggf
    from bitgames.othello.wthor import Names, games_of

    opening = "".join((args.opening or "").lower().split())
    player = (args.player or "").lower()
    names = Names.beside(args.files[0])
    shown = 0
    for path, number, game in games_of(args.files):
        if args.limit is not None and shown >= args.limit:
            break
        black, white = names.player(game.black), names.player(game.white)
        if ((args.year is not None and game.year != args.year)
                or (player and player not in black.lower() and player not in white.lower())
                or not game.transcript().startswith(opening)):
            continue
        board = game.board()
        result = f"{game.black_discs}-{64 - game.black_discs}" if board.is_game_over() else "*"
        record = {"file": path.name, "game": number, "year": game.year,
                  "tournament": names.tournament(game.tournament), "black": black,
                  "white": white, "black_discs": game.black_discs,
                  "theoretical": game.theoretical, "moves": game.transcript()}
        if args.to == "ggf":
            text = game_to_ggf(board, black, white, result=result)
        elif args.to == "transcript":
            text = game.transcript()
        else:
            text = (f"{game.year} {record['tournament']}: {black} - {white} "
                    f"{game.black_discs}-{64 - game.black_discs} (perfect play: "
                    f"{game.theoretical}) {game.transcript()}")
        emit(record, args.json, text)
        shown += 1
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    from bitgames.core.parallel import check_scheduler

    check_scheduler(args.scheduler)
    if args.games < 1 and not args.wthor and not args.logbook:
        raise BitgamesError("need --games >= 1, WTHOR files (--wthor) or a logbook "
                            "(--logbook)")
    if not 0 <= args.random_min <= args.random_max <= 59:
        raise BitgamesError("need 0 <= --random-min <= --random-max <= 59")
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
                      window=args.window, damp=args.damp, workers=args.workers or 0,
                      scheduler=args.scheduler, wthor=tuple(args.wthor),
                      wthor_labels=args.wthor_labels, logbook=tuple(args.logbook),
                      outcome_below=args.outcome_below, consistency=args.consistency,
                      consistency_from=args.consistency_from)
    trainer = Trainer(args.out, cfg)
    trainer.generate()
    trainer.import_wthor()
    trainer.import_logbook()
    trainer.solve()
    if not args.generate_only:
        trainer.fit()
    return 0


def _parse_board(text: str | None) -> object:
    from bitgames.othello.board import Board

    return Board() if text is None else Board(text)


def cmd_perft(args: argparse.Namespace) -> int:
    board = _parse_board(args.board)
    from bitgames.core.jit import ensure_warm

    ensure_warm("othello", "rules", "perft")
    import numpy as np

    from bitgames.othello import kernels
    from bitgames.othello.board import Board

    assert isinstance(board, Board)
    from bitgames.core.engine import StopSignal, run_stoppable
    from bitgames.core.progress import bar

    conv = kernels.EDAX if args.convention == "edax" else kernels.BIK
    stop = StopSignal()

    def count(b: Board, depth: int) -> tuple[int, bool]:
        q, r = b.bitboards()
        n, interrupted = run_stoppable(
            lambda: int(kernels.perft_stoppable(np.uint64(q), np.uint64(r), depth, conv,
                                                stop.flag)), stop.set)
        return int(n or 0), interrupted

    start = time.perf_counter()
    interrupted = False
    moves = list(board.legal_moves)
    if args.depth == 1 or not moves:  # (the kernel needs a depth of 1 or more)
        total, interrupted = count(board, args.depth)
        if args.divide:
            for move in moves:
                emit({"move": str(move), "count": 1, "time": 0.0}, args.json, f"{move} 1")
    else:  # one count per root move: the progress bar's steps (and --divide's lines)
        total = 0
        with bar(len(moves), f"perft {args.depth}", "move") as shown:
            for move in moves:
                board.push(move)
                t0 = time.perf_counter()
                n, interrupted = count(board, args.depth - 1)
                board.pop()
                total += n
                if interrupted:
                    break
                shown.update(1)
                if args.divide:
                    emit({"move": str(move), "count": n,
                          "time": round(time.perf_counter() - t0, 6)}, args.json, f"{move} {n}")
    elapsed = time.perf_counter() - start
    rate = total / elapsed if elapsed > 0 else 0.0
    record = perft_record(args.depth, total, elapsed, interrupted,
                          convention=args.convention)
    if interrupted:
        emit(record, args.json,
             f"perft {args.depth} ({args.convention}): stopped after {total:,} leaves in "
             f"{elapsed:.3f} s ({rate / 1e6:.1f} M leaves/s)")
        return INTERRUPTED
    emit(record, args.json,
         f"perft {args.depth} ({args.convention}): {total:,} leaves in {elapsed:.3f} s "
         f"({rate / 1e6:.1f} M leaves/s)")
    return 0


def _window(text: str) -> tuple[int, int]:
    """``--window LOW,HIGH``: two scores, -64 <= LOW < HIGH <= +64.

    >>> _window("8,9"), _window("-10,+10")
    ((8, 9), (-10, 10))
    >>> _window("9,8")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected LOW,HIGH with -64 <= LOW < HIGH <= 64, got '9,8'
    """
    try:
        lo, hi = (Integer(-64, 64)(part) for part in text.split(","))
    except (ValueError, argparse.ArgumentTypeError):  # not two parts, or not scores
        lo = hi = 0
    if not lo < hi:
        raise argparse.ArgumentTypeError(
            f"expected LOW,HIGH with -64 <= LOW < HIGH <= 64, got {text!r}")
    return lo, hi


def _move_list(text: str) -> list[str]:
    """``--moves``: move names (checked against each position later), or ['all'].

    >>> _move_list("A7,c8"), _move_list("all")
    (['a7', 'c8'], ['all'])
    """
    if text.strip().lower() == "all":
        return ["all"]
    from bitgames.othello.board import Move

    names = [part.strip().lower() for part in text.split(",")]
    for name in names:
        try:
            Move.from_str(name)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected moves such as a7,c8 or 'all', got {name!r}") from None
    return names


def _moves_to_solve(problem: Any, board: Any, moves: list[str] | None) -> list[str | None]:
    """What ``othello solve`` solves of a position: the position itself ([None]) without
    ``--moves``, else each move named (every legal move for 'all'), checked to be legal."""
    if moves is None:
        return [None]
    if not board.legal_moves:
        raise ValueError(f"{problem.name}: no move to solve, the game is over")
    if moves == ["all"]:
        return [str(m) for m in board.legal_moves]
    for name in moves:
        if not board.is_legal(name):
            legal = ",".join(str(m) for m in board.legal_moves)
            raise ValueError(f"{problem.name}: {name} is not a legal move here (legal: {legal})")
    return list(moves)


def cmd_solve(args: argparse.Namespace) -> int:
    from bitgames.othello.board import Board
    from bitgames.othello.obf import Problem, ffo_problems, parse_range, read_problems

    problems: list[Problem] = []
    if args.ffo:
        problems += ffo_problems(*parse_range(args.ffo))
    for i, text in enumerate(args.board, 1):
        problems.append(Problem(f"board {i}", text))
    for path in args.files:
        if path == "-":
            problems += read_problems(sys.stdin, "<stdin>")
        else:
            with open(path) as handle:
                problems += read_problems(handle, path)
    if not problems:
        raise ValueError("nothing to solve: give files, --board or --ffo")
    if args.window is not None and args.mode != "exact":
        raise ValueError("--window is for exact solves (win/loss/draw is the window -1,+1)")
    jobs = [(pr, board, move) for pr, board in ((pr, Board(pr.board)) for pr in problems)
            for move in _moves_to_solve(pr, board, args.moves)]  # check all input first
    from bitgames.core.progress import bar, note, write
    from bitgames.othello.solver import SelectivePass, Solver

    solver = Solver(args.table_bits, threads=args.threads)
    if args.table_file is not None and Path(args.table_file).exists():
        solver.load_table(args.table_file)
        note(f"table: {args.table_file}, {len(solver.table):,} entries, from an earlier run")

    from bitgames.core.jit import ensure_warm

    ensure_warm("othello", "rules", "solver")
    from bitgames.core.engine import run_stoppable

    Solver(10, threads=args.threads).solve(Board("-" * 60 + "XOXO X"))  # load the compiled code
    total_nodes, total_time, checked, matched = 0, 0.0, 0, 0
    interrupted = False
    solved = 0
    shown = bar(len(jobs), "solve", "position" if args.moves is None else "move")
    saved = [time.monotonic()]
    drawn = [0.0]
    solving: list[tuple[Board, str | None]] = []  # what a running solve solves
    last_drawn = None  # the problem whose board was drawn last

    def proven_so_far() -> str:
        return _proven_text(solver.proven(*solving[0])) if solving else ""

    def save_table() -> None:
        start = time.monotonic()
        solver.save_table(args.table_file)
        saved[0] = time.monotonic()
        # on standard error with the log lines, not among the results (--json); in a log
        # (no bar drawn), these lines are a long solve's progress
        where = f"; {solver.progress().nodes:,} nodes{proven_so_far()}" if solving else ""
        note(f"table saved to {args.table_file} ({saved[0] - start:.1f} s){where}")

    def tick() -> None:  # while a solve runs: its pass and nodes, the table now and then
        now = time.monotonic()
        if now - drawn[0] >= 1.0 and not shown.disable:  # (no bar drawn: nothing to show)
            drawn[0] = now
            at = solver.progress()
            shown.set_postfix_str(f"{at.probability:.0%} pass, {at.nodes / 1e6:,.0f} M nodes"
                                  + proven_so_far())
        if args.table_file is not None and now - saved[0] >= 60 * args.save_every:
            save_table()

    def show_pass(done: SelectivePass) -> None:
        write(f"  {done.probability:.0%}: score {done.score:+d}, best {done.best_move}, "
              f"{done.nodes:,} nodes, {done.time:.3f} s")

    on_pass = show_pass if args.passes and not args.json else None
    try:
        for pr, board, move in jobs:
            solving[:] = [(board, move)]
            answer, interrupted = run_stoppable(
                partial(solver.solve, board, args.mode, on_pass, args.window, move),
                solver.stop, tick)
            solving.clear()
            assert answer is not None
            result = answer
            total_nodes += result.nodes
            total_time += result.time
            if not result.stopped:
                shown.update(1)
            shown.set_postfix_str(f"{total_nodes / max(total_time, 1e-9) / 1e6:.1f} M nodes/s")
            name = pr.name if move is None else f"{pr.name} {move}"
            if result.stopped:
                last = result.passes[-1] if result.passes else None
                known = solver.proven(board, move)
                emit({"name": name, "stopped": True, "nodes": result.nodes,
                      "time": round(result.time, 6), "passes": result.to_dict()["passes"],
                      "proven": known._asdict()},
                     args.json,
                     f"{name}: stopped after {result.nodes:,} nodes, {result.time:.3f} s"
                     + ("" if last is None else f"; at {last.probability:.0%}: score "
                        f"{last.score:+d}, best {last.best_move}")
                     + _proven_text(known)
                     + ("" if args.table_file is None else
                        f"; run the command again to go on from {args.table_file}"))
                break
            record, text, ok = _solve_report(pr, result, args.mode, move)
            if ok is not None:
                checked += 1
                matched += ok
            if not args.quiet and not args.json and pr is not last_drawn:
                last_drawn = pr  # (a position's board once, before its first move)
                write(board.grid())
            emit(record, args.json, text)
            solved += 1
            if interrupted:  # Ctrl-C just as this solve finished
                break
    except KeyboardInterrupt:  # SIGTERM, or a second Ctrl-C: keep what the solve proved
        solver.stop()
        if args.table_file is not None:
            save_table()
        raise
    shown.close()
    if args.table_file is not None:
        save_table()
    rate = total_nodes / total_time if total_time > 0 else 0.0
    summary = {"total": True, "positions": solved, "nodes": total_nodes,
               "time": round(total_time, 6), "nodes_per_second": round(rate),
               "checked": checked, "matched": matched}
    if interrupted:
        summary["stopped"] = True
    emit(summary, args.json,
         f"total: {solved} {'positions' if args.moves is None else 'moves'}"
         f"{' (stopped)' if interrupted else ''}, {total_nodes:,} "
         f"nodes, {total_time:.3f} s, {rate / 1e6:.1f} M nodes/s"
         + (f", {matched}/{checked} match" if checked else ""))
    if interrupted:
        return INTERRUPTED
    return 0 if matched == checked else 1


def _proven_text(known: Any) -> str:
    """What a stopped solve had proven of the exact score, for its line ('' if nothing).

    >>> from bitgames.othello.solver import Proven
    >>> _proven_text(Proven(8, 64, "f1")), _proven_text(Proven(-30, -24, None))
    ('; proven: score >= +8 (f1)', '; proven: score -30..-24')
    """
    move = f" ({known.move})" if known.move else ""
    if known.lower == known.upper:
        return f"; proven: score {known.lower:+d}{move}"
    if known.upper < 64 and known.lower > -64:
        return f"; proven: score {known.lower:+d}..{known.upper:+d}"
    if known.upper < 64:
        return f"; proven: score <= {known.upper:+d}"
    if known.lower > -64:
        return f"; proven: score >= {known.lower:+d}{move}"
    return ""


def _solve_report(problem: Any, result: Any, mode: str, move: str | None = None
                  ) -> tuple[dict[str, Any], str, bool | None]:
    """The JSON record and the line of a solved position (or of its ``move``), and whether
    the answer is the expected one (None: the input gives none). A score in a window's
    bound matches when the expected score lies within the bound."""
    name = problem.name if move is None else f"{problem.name} {move}"
    record = {"name": name, **result.to_dict()}
    expected = problem.expected_score if move is None else problem.move_scores.get(move)
    best = problem.expected_moves if move is None else ()
    ok = None
    verdict = ""
    if expected is not None:
        want = expected if mode == "exact" else (expected > 0) - (expected < 0)
        if result.bound == "upper":
            ok = want <= result.score
        elif result.bound == "lower":
            ok = want >= result.score
        else:
            ok = result.score == want and (mode == "wld" or not best
                                           or result.best_move in best)
        record["expected_score"] = expected
        record["expected_moves"] = list(best)
        record["matches"] = ok
        verdict = "  ok" if ok else f"  MISMATCH (expected {expected:+d} {','.join(best)})"
    relation = {"upper": "<= ", "lower": ">= "}.get(result.bound, "")
    text = (f"{name}: {result.empties} empties, score {relation}{result.score:+d}"
            + (f" ({result.outcome})" if mode == "wld" else "")
            + f", best {result.best_move}, pv {' '.join(result.pv)}, {result.nodes:,} nodes, "
            f"{result.time:.3f} s, {result.nodes_per_second / 1e6:.1f} M nodes/s{verdict}")
    return record, text, ok


def make_engine(level: int, evaluation: str, weights: str | None = None,
                table_bits: int = 20, **settings: Any) -> Any:
    """An Othello engine, its kernels compiled or loaded first; ``settings`` are further
    :class:`~bitgames.othello.search.Engine` arguments (``exact_empties``, ...)."""
    from bitgames.core.jit import ensure_warm
    from bitgames.othello.eval import Weights

    loaded = None if weights is None else Weights.load(weights)  # told before a cold compile
    ensure_warm("othello", "rules", "solver", "engine")
    from bitgames.othello.search import Engine

    return Engine(level=level, evaluation=evaluation, weights=loaded, table_bits=table_bits,
                  **settings)


def load_book(args: argparse.Namespace) -> Any:
    """The book of ``--book`` (see :func:`~bitgames.othello.book.open_book`), or None."""
    if getattr(args, "no_book", False):
        return None
    from bitgames.othello.book import open_book

    return open_book(getattr(args, "book", None))[0]


def cmd_play(args: argparse.Namespace, stdin: TextIO | None = None,
             stdout: TextIO | None = None) -> int:
    """``bitgames othello play``: you against the engine (see :mod:`bitgames.othello.play`)."""
    from bitgames.othello.board import BLACK, WHITE
    from bitgames.othello.ggf import load_transcript
    from bitgames.othello.play import run_play

    engine = make_engine(args.level, args.evaluation, args.weights)
    engine.threads = args.threads
    board = load_transcript(args.moves) if args.moves else None
    return run_play(engine, load_book(args), board, BLACK if args.color == "black" else WHITE,
                    stdin or sys.stdin, stdout or sys.stdout, args.show_thinking,
                    f"level {args.level} ({args.evaluation} evaluation)",
                    limit_from_args(args))


def cmd_analyze(args: argparse.Namespace, stdout: TextIO | None = None) -> int:
    """Evaluate every position of a game; mark moves losing ``--mistake`` discs or more."""
    from bitgames.core.engine import Limit
    from bitgames.othello.board import BLACK, WHITE, Board
    from bitgames.othello.ggf import load_transcript
    from bitgames.othello.search import centi_discs, depth_text

    final = load_transcript(args.transcript)
    engine = make_engine(args.level, args.evaluation, args.weights)
    engine.threads = args.threads
    limit = limit_from_args(args)
    moves = list(final.move_stack)
    board = Board()
    rows = []
    total_loss = {BLACK: 0.0, WHITE: 0.0}
    for ply, move in enumerate(moves, 1):
        if move.is_pass():
            board.push(move)
            continue
        mover = board.turn
        best = engine.search(board, limit)
        best_score = centi_discs(best.score)
        after = board.copy(stack=False)
        after.push(move)
        if move == best.move:
            played = best_score
        elif after.is_game_over():
            played = 100 * after.score() * (1 if mover == BLACK else -1)
        else:
            proven = best.score.exact
            res = engine.search(after, limit if proven else Limit(depth=max(1, best.depth - 1)))
            played = -centi_discs(res.score)
        loss = max(0.0, (best_score - played) / 100.0)
        mark = "??" if loss >= 2 * args.mistake else "?" if loss >= args.mistake else ""
        total_loss[mover] += loss
        row = {"ply": ply, "color": "black" if mover == BLACK else "white", "move": str(move),
               "eval": played / 100.0, "best": str(best.move), "best_eval": best_score / 100,
               "loss": round(loss, 2), "mark": mark, "depth": depth_text(best)}
        rows.append(row)
        text = (f"{ply:3d}. {'X' if mover == BLACK else 'O'} {str(move):4s}{mark:2s} "
                f"{played / 100:+7.2f}   best {str(best.move):4s} {best_score / 100:+7.2f} "
                f"(depth {depth_text(best)})")
        if args.json:
            print(json.dumps(row), file=stdout, flush=True)
        else:
            print(text, file=stdout, flush=True)
        board.push(move)
    summary = {"plies": len(moves), "black_loss": round(total_loss[BLACK], 2),
               "white_loss": round(total_loss[WHITE], 2),
               "mistakes": sum(1 for r in rows if r["mark"])}
    if args.json:
        print(json.dumps(summary), file=stdout, flush=True)
    else:
        print(f"discs lost to mistakes: black {summary['black_loss']:.1f}, white "
              f"{summary['white_loss']:.1f}; {summary['mistakes']} moves marked", file=stdout,
              flush=True)
    return 0


#: the engine options of a match player, besides its level and limits
PLAYER_OPTIONS = {"eval": "pattern or classic", "weights": "a pattern weights file (.npz)",
                  "exact": "solve exactly from N empties (0..30; default: the level's)",
                  "wld": "solve win/loss/draw from N empties (0..30; default: the level's)",
                  "mpc": "on or off: Multi-ProbCut (default: the level's)"}


def match_engine(options: dict[str, str]) -> Any:
    """The built-in engine of a match player (level 8 until the spec sets one; a 2^18
    table, as several games may run at once), with the :data:`PLAYER_OPTIONS`.

    >>> engine = match_engine({"eval": "classic", "exact": "16", "wld": "18"})
    >>> engine.level = 6
    >>> engine.depth, engine.exact_empties, engine.wld_empties
    (6, 16, 18)
    >>> match_engine({"wld": "x"})
    Traceback (most recent call last):
    ...
    bitgames.core.errors.BitgamesError: Othello player option wld:x: need a whole number \
from 0 to 30
    """
    unknown = sorted(set(options) - set(PLAYER_OPTIONS))
    if unknown:
        raise BitgamesError(f"unknown Othello player option {unknown[0]!r}; the options are "
                            + ", ".join(f"{k}:{v}" for k, v in PLAYER_OPTIONS.items()))
    empties: dict[str, int] = {}
    for key in ("exact", "wld"):
        if key in options:
            text = options[key]
            if not (text.isascii() and text.isdigit() and int(text) <= 30):
                raise BitgamesError(f"Othello player option {key}:{text}: need a whole "
                                    "number from 0 to 30")
            empties[key] = int(text)
    mpc = options.get("mpc")
    if mpc not in (None, "on", "off"):
        raise BitgamesError(f"Othello player option mpc:{mpc}: need on or off")
    return make_engine(8, options.get("eval", "pattern"), options.get("weights"),
                       table_bits=18, exact_empties=empties.get("exact"),
                       wld_empties=empties.get("wld"), mpc=None if mpc is None else mpc == "on")


def match_client(command: str) -> Any:
    """An outside NBoard engine started with ``command``, at its own depth."""
    from bitgames.othello.nboard import NBoardClient

    return NBoardClient.start(command)


def match_gtp_client(command: str) -> Any:
    """An outside engine speaking GTP for Othello (``protocol:gtp``), e.g. GRhino's
    ``gtp-rhino -l 5 -m 8``."""
    from bitgames.othello.gtp import GtpClient

    return GtpClient.start(command)


def match_record(board: Any, white: str, black: str, result: str) -> str:
    """A finished match game as one line of GGF (:func:`bitgames.othello.ggf.game_to_ggf`)."""
    from bitgames.othello.ggf import game_to_ggf

    return game_to_ggf(board, black=black, white=white, result=result)


def match_kit() -> Any:
    """Othello for the shared match runner (:mod:`bitgames.core.match`): the start
    position, the built-in engine (:func:`match_engine`), outside NBoard engines
    (:func:`match_client`) and GGF records (:func:`match_record`).

    >>> kit = match_kit()
    >>> kit.game, kit.new_board().fen()[27:37], kit.split_opening("f5 d6")
    ('othello', 'OX------XO', ['f5', 'd6'])
    """
    from bitgames.core.match import GameKit
    from bitgames.othello.board import Board

    return GameKit("othello", Board, match_engine, match_client, match_record,
                   split_opening=_split_opening, other_clients={"gtp": match_gtp_client},
                   engine_groups=("engine", "solver"))


def _split_opening(line: str) -> list[str]:
    """An opening as moves: ``f5 d6`` or a transcript ``f5d6c3`` (checked by the runner,
    which names the file and line of a bad move)."""
    text = "".join(line.split())
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def cmd_match(args: argparse.Namespace) -> int:
    """``bitgames othello match A B`` on the shared runner
    (:func:`bitgames.core.cli.run_match_command`, see :data:`MATCH_HELP`)."""
    from bitgames.core.cli import run_match_command

    return run_match_command(args, "bitgames.othello.cli:match_kit", {})


#: positions per search task of ``book wthor``
BOOK_CHUNK = 20


def _book_from_wthor(args: argparse.Namespace, emit: Callable[[dict[str, Any], str], None]
                     ) -> int:
    """``bitgames othello book wthor``: count the positions of the games, search those
    not yet scored in parallel chunks (saving after each), then add them to the book."""
    from bitgames.core.parallel import check_scheduler, default_workers, run_tasks
    from bitgames.core.progress import bar
    from bitgames.othello.book import Book, common_positions, engine_search, search_boards
    from bitgames.othello.wthor import games_of

    check_scheduler(args.scheduler)
    path = Path(args.file)
    book = Book.load(path) if path.exists() else Book()
    before = len(book)
    games = [game for _, _, game in games_of(args.wthor)]
    with bar(len(games), "counting positions", "game") as counted:
        positions = common_positions((counted.update(1) or game.positions()
                                      for game in games), args.plies, args.min_games)
    todo = [b for b, _ in positions if not b.is_game_over() and b not in book
            and not book.has_scores(b, args.depth)]
    emit({"positions": len(positions), "to_search": len(todo)},
         f"{len(positions)} positions reached by at least {args.min_games} games in "
         f"{args.plies} plies; {len(todo)} to search at depth {args.depth}")
    chunks = [todo[i:i + BOOK_CHUNK] for i in range(0, len(todo), BOOK_CHUNK)]
    tasks = [([b.fen() for b in chunk], args.depth, args.evaluation, args.weights)
             for chunk in chunks]
    workers = args.workers or default_workers()
    interrupted = False
    with bar(len(todo), "book wthor", "position") as shown:
        try:
            for i, results in run_tasks(search_boards, tasks, args.scheduler, workers):
                for board, scores in zip(chunks[i], results, strict=True):
                    book.keep_scores(board, args.depth, scores)
                book.save(path)  # every finished search is kept: a rerun resumes
                shown.update(len(chunks[i]))
        except KeyboardInterrupt:
            interrupted = True
    if interrupted:
        emit({"file": str(path), "stopped": True},
             f"{path}: stopped; the searches finished so far are saved (run again to resume)")
        return INTERRUPTED
    engine = make_engine(max(1, min(args.depth, 20)), args.evaluation, args.weights)
    added = book.add_positions(positions, engine_search(engine, args.depth), args.depth)
    book.save(path)
    emit({"file": str(path), "added": added, "positions": len(book), "before": before},
         f"{path}: {added} positions added, {len(book)} in all")
    return 0


def cmd_book(args: argparse.Namespace, stdout: TextIO | None = None) -> int:
    """``bitgames othello book build|show|learn`` (printing to ``stdout``, default sys.stdout)."""
    from bitgames.core.engine import interruptible
    from bitgames.core.progress import bar, write
    from bitgames.othello.board import Board
    from bitgames.othello.book import Book, engine_search, open_book
    from bitgames.othello.ggf import load_transcript

    if stdout is None:
        stdout = sys.stdout  # looked up now: tests and callers may have replaced it

    def emit(record: dict[str, Any], text: str) -> None:
        line = json.dumps(record) if args.json else text
        if stdout is sys.stdout:
            write(line)  # above the progress bar
        else:
            print(line, file=stdout, flush=True)

    if args.book_command == "show":
        if args.book is not None and not Path(args.book).exists():
            raise BitgamesError(f"no opening book at {args.book}")
        book, _ = open_book(args.book)
        board = load_transcript(args.moves) if args.moves else Board()
        entry = book.entry(board)
        moves = book.moves(board)
        if args.json:
            emit({"board": board.fen(), "in_book": entry is not None,
                  "moves": [{"move": m, "score": v / 100} for m, v in moves],
                  "depth": entry.depth if entry else None,
                  "games": entry.games if entry else None}, "")
        elif not moves:
            emit({}, f"not in the book ({len(book)} positions)")
        else:
            for m, v in moves:
                print(f"{m}  {v / 100:+.2f}", file=stdout)
            if entry is not None:
                print(f"(position searched at depth {entry.depth}; {entry.games} games "
                      f"learned; {len(book)} positions in the book)", file=stdout, flush=True)
        return 0
    if args.book_command == "wthor":
        return _book_from_wthor(args, emit)
    if args.book_command == "build":
        engine = make_engine(max(1, min(args.depth, 20)), args.evaluation, args.weights)
        path = Path(args.file)
        book = Book.load(path) if path.exists() else Book()
        before = len(book)

        shown = bar(None, "book", "position")

        def progress(n: int, ply: int) -> None:
            emit({"added": n, "ply": ply, "positions": len(book)},
                 f"{n:6d} new positions ({len(book)} in all), ply {ply}")

        def frontier(ply: int, done: int, of: int) -> None:
            if done == 0:
                shown.reset(of)
                shown.set_description(f"book ply {ply}/{args.plies}")
            else:
                shown.update(1)

        with shown, interruptible(lambda: None) as pressed:  # Ctrl-C: end after this position
            added = book.build(engine_search(engine, args.depth), args.depth, args.plies,
                               round(100 * args.width), args.max_positions,
                               on_position=progress, save_to=path, stop=lambda: pressed[0],
                               on_frontier=frontier)
        record = {"file": str(path), "added": added, "positions": len(book), "before": before}
        if pressed[0]:
            emit({**record, "stopped": True},
                 f"{path}: stopped; {added} positions added and saved, {len(book)} in all")
            return INTERRUPTED
        emit(record, f"{path}: {added} positions added, {len(book)} in all")
        return 0
    engine = make_engine(max(1, min(args.depth, 20)), "pattern")
    book, path = open_book(args.book)
    final = load_transcript(args.transcript)
    played = [str(m) for m in final.move_stack]
    added = book.learn(played, engine_search(engine, args.depth), args.depth, args.plies)
    book.save(path)
    emit({"file": str(path), "added": added, "positions": len(book)},
         f"{path}: {added} positions added, {len(book)} in all")
    return 0


def cmd_nboard(args: argparse.Namespace) -> int:
    """``bitgames othello nboard``: set up the engine, then speak the protocol."""
    from bitgames.core.jit import ensure_warm

    ensure_warm("othello", "rules", "solver", "engine", load=True)
    from bitgames.othello.book import open_book
    from bitgames.othello.search import Engine

    engine = Engine(level=args.level, evaluation=args.evaluation, weights=args.weights,
                    threads=args.threads)
    book, path = open_book(args.book)
    from bitgames.othello.nboard import NBoardSession

    NBoardSession(engine, book=book, book_path=str(path), use_book=not args.no_book).serve()
    return 0
