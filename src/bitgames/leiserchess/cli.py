"""Leiserchess (MIT 6.172, 2016 rules): perft, a UCI engine, play in the terminal, closebook.

Positions are FEN strings like the reference's (``ss3nw3/... W``); moves are written
``h4g5`` (step or swap), ``g3R`` (rotate R/U/L) and ``h0h0`` (King null move).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from bitgames.core.cli import (
    INTERRUPTED,
    Integer,
    add_json_flag,
    add_limit_options,
    add_match_options,
    add_threads_option,
    emit,
    limit_from_args,
    perft_record,
)

#: what a Leiserchess level sets (:data:`bitgames.leiserchess.search.LEVEL_DEPTHS`)
LEVEL_HELP = "a depth of 1, 2, 3, 4, 6 (level 5), 7, 8, 9, 10 or 12 plies"


def add_commands(sub: Any) -> None:
    """Register the ``bitgames leiserchess`` subcommands."""
    p = sub.add_parser(
        "perft",
        help="count move-tree leaves (the handout's pseudo-legal perft, or --legal with Ko)",
        description="Count the leaves of the move tree to DEPTH. By default this is the "
        "course handout's pseudo-legal perft (Ko ignored, pinned pawns excluded, a King "
        "zap is a leaf): 78, 6084, 473126, 36767050 from the start. --legal applies the "
        "Ko rule.",
    )
    p.add_argument("depth", type=Integer(1, 40), help="depth in plies (1 or more)")
    p.add_argument("--legal", action="store_true", help="count only Ko-legal moves")
    p.add_argument("--fen", help="start from this FEN instead of the opening position")
    p.add_argument("--moves", nargs="*", default=[], help="moves to play first")
    p.add_argument("--divide", action="store_true", help="also print the count below each move")
    add_json_flag(p)
    p.set_defaults(func=cmd_perft)

    u = sub.add_parser(
        "uci",
        help="run the engine in the course's UCI dialect on stdin/stdout",
        description="Speak the 6.172 UCI dialect (uci, isready, setoption, ucinewgame, "
        "position startpos|fen ... moves ..., go depth|time|inc, stop, quit). Protocol on "
        "stdout, logs on stderr.",
    )
    add_threads_option(u, "setoption name Threads value N")
    u.set_defaults(func=cmd_uci)

    pl = sub.add_parser(
        "play",
        help="play against the engine in the terminal (lasers drawn)",
        description="Play a game against the engine. Type moves like h4g5, g3R, h0h0; "
        "'undo', 'moves', 'quit'.",
    )
    pl.add_argument("--color", choices=["tangerine", "lavender", "white", "black"],
                    default="tangerine", help="your side (tangerine moves first)")
    add_limit_options(pl, 10, 5, LEVEL_HELP, aliases={"movetime": "--time"})
    pl.add_argument("--fen", help="start from this FEN")
    pl.set_defaults(func=cmd_play)

    s = sub.add_parser(
        "search",
        help="search one position and print the best move",
        description="Search a position with the engine and print the best move, score, "
        "depth, nodes and speed.",
    )
    s.add_argument("--fen", help="position (default: the opening)")
    s.add_argument("--moves", nargs="*", default=[], help="moves to play first")
    add_limit_options(s, 10, 5, LEVEL_HELP, aliases={"movetime": "--time"})
    add_json_flag(s)
    s.set_defaults(func=cmd_search)

    mt = sub.add_parser(
        "match",
        help="engine against engine: the built-in engine or outside UCI engines",
        description="Play a match: each opening twice with colours swapped, games in "
        "parallel; report the score and Elo of A with its 95% interval. Players: "
        "level:N[,depth:N][,nodes:N][,time:S][,eval:full|course|material][,hash:BITS]"
        "[,NAME:V] for the built-in engine (eval:course plays the course reference's "
        "weights, eval:material material alone; hash: table size "
        "2**BITS; NAME:V sets one of the engine's UCI options, e.g. use_nmm:0), or "
        "cmd:\"COMMAND\" for an outside engine speaking the 6.172 UCI dialect (e.g. "
        "cmd:\"./leiserchess\" for the course's binary). --records writes "
        "the referee's PGN-like records. Ctrl-C stops the match; the finished games "
        "stay in --save (exit 130).",
    )
    add_match_options(mt)
    mt.add_argument("--draw-rule", choices=["rules", "referee", "none"], default="rules",
                    help="the no-zap draw: rules (50 moves without a Pawn zapped, "
                    "default), referee (the autotester's 200 plies without a zap), none")
    mt.set_defaults(func=cmd_match)

    cb = sub.add_parser(
        "closebook",
        help="endgame table of every position with both Kings and at most one Pawn",
        description="Build or query the closebook: retrograde analysis of every position "
        "with both Kings and at most one Pawn, Ko state included, 2 bits per position.",
    )
    cbs = cb.add_subparsers(dest="closebook_command", metavar="ACTION")
    cbs.required = True
    build = cbs.add_parser("build", help="compute the table and write it to a file")
    build.add_argument("--out", default=None, help="output file (default: in the cache directory, "
                       "~/.cache/bitgames or $BITGAMES_CACHE_DIR)")
    build.add_argument("--kings-only", action="store_true",
                       help="only the two-Kings table (seconds instead of minutes)")
    add_json_flag(build)
    build.set_defaults(func=cmd_closebook_build)
    probe = cbs.add_parser("probe", help="look a position up")
    probe.add_argument("fen")
    probe.add_argument("--book", default=None, help="table file (default: the one closebook build "
                       "writes, in the cache directory)")
    add_json_flag(probe)
    probe.set_defaults(func=cmd_closebook_probe)


def _board_from(fen: str | None, moves: list[str], *groups: str) -> Any:
    """The board of ``fen`` (default: the start) after ``moves``. The kernels of the rules
    and ``groups`` are compiled or loaded once the FEN is read, so that a cold cache does
    not keep a mistyped one waiting (the moves need them)."""
    from bitgames.core import jit
    from bitgames.leiserchess.board import Board

    board = Board(fen) if fen else Board()
    jit.ensure_warm("leiserchess", "rules", *groups)
    for m in moves:
        board.push(m)
    return board


def cmd_perft(args: argparse.Namespace) -> int:
    from bitgames.core.engine import StopSignal, run_stoppable
    from bitgames.core.progress import bar
    from bitgames.leiserchess.perft import perft_board

    board = _board_from(args.fen, args.moves)
    roots = len(board.legal_moves if args.legal else board.pseudo_legal_moves)
    stop = StopSignal()
    start = time.perf_counter()
    with bar(roots, f"perft {args.depth}", "move") as shown:
        def counted(move: str, count: int) -> None:
            shown.update(1)

        split, stopped = run_stoppable(
            lambda: perft_board(board, args.depth, legal=args.legal, divide=True,
                                stop=stop.flag, on_move=counted), stop.set)
    if args.divide:
        for mv, count in split.items():
            if mv != "total":
                emit({"move": mv, "count": count}, args.json, f"{mv}: {count}")
    total = split["total"]
    seconds = time.perf_counter() - start
    kind = f"perft {args.depth}{' (legal)' if args.legal else ''}"
    record = perft_record(args.depth, total, seconds, stopped, legal=args.legal,
                          fen=board.fen())
    if stopped:
        emit(record, args.json,
             f"stopped: {kind}: {total} leaves counted so far  ({seconds:.3f} s)")
        return INTERRUPTED
    emit(record, args.json, f"{kind}: {total}  ({seconds:.3f} s)")
    return 0


def cmd_uci(args: argparse.Namespace) -> int:
    from bitgames.leiserchess.uci import run_uci

    return run_uci(threads=args.threads)


def cmd_play(args: argparse.Namespace) -> int:
    from bitgames.leiserchess.play import play

    return play(args)


def cmd_search(args: argparse.Namespace) -> int:
    from bitgames.leiserchess.search import Engine

    board = _board_from(args.fen, args.moves, "engine")
    res = Engine(args.level, threads=args.threads).search(board, limit_from_args(args))
    emit(
        {"fen": board.fen(), **res.to_dict()},
        args.json,
        f"bestmove {res.move} score {res.score} depth {res.depth} nodes {res.nodes} "
        f"time {res.time:.2f} s nps {int(res.nps)} pv {' '.join(str(m) for m in res.pv)}",
    )
    return 0


def match_kit(draw_rule: str = "rules") -> Any:
    """The :class:`~bitgames.core.match.GameKit` of Leiserchess: boards under
    ``draw_rule``, the built-in engine (options ``eval:full|course|material``,
    ``hash:BITS``), outside engines in the 6.172 UCI dialect, the referee's PGN-like
    records."""
    from bitgames.core.errors import BitgamesError
    from bitgames.core.match import GameKit
    from bitgames.leiserchess.board import Board

    if draw_rule not in ("rules", "referee", "none"):
        raise BitgamesError(f"draw_rule must be rules, referee or none, got {draw_rule!r}")

    def new_board() -> Any:
        return Board(draw_rule=draw_rule)  # type: ignore[arg-type]

    return GameKit("leiserchess", new_board, _engine, _client, _record,
                   engine_groups=("engine",))


def _engine(options: dict[str, str]) -> Any:
    from bitgames.core import jit
    from bitgames.core.errors import BitgamesError
    from bitgames.core.protocol import parse_int
    from bitgames.leiserchess.eval import (
        OPTIONS,
        course_params,
        default_params,
        material_params,
    )
    from bitgames.leiserchess.search import Engine

    unknown = set(options) - {"eval", "hash"} - set(OPTIONS)
    if unknown:
        raise BitgamesError(f"unknown Leiserchess engine option(s) {', '.join(sorted(unknown))}"
                            " (known: eval:full|course|material, hash:BITS, and the UCI "
                            f"options {', '.join(OPTIONS)})")
    kind = options.get("eval", "full")
    weights = {"full": default_params, "course": course_params, "material": material_params}
    if kind not in weights:
        raise BitgamesError(f"eval must be full, course or material, got {kind!r}")
    try:
        bits = int(options.get("hash", "20"))
    except ValueError:
        raise BitgamesError(f"hash needs a number of bits, got {options['hash']!r}") from None
    if not 8 <= bits <= 28:
        raise BitgamesError(f"hash must be 8..28 bits, got {bits}")
    params = weights[kind]()
    for name, (slot, _default, lo, hi) in OPTIONS.items():
        if name in options:
            params[slot] = parse_int(options[name], name, lo=lo, hi=hi)
    jit.ensure_warm("leiserchess", "rules", "engine")
    return Engine(table_bits=bits, params=params)


def _client(command: str) -> Any:
    from bitgames.leiserchess.uci import UciClient

    return UciClient.start(command)


def _record(board: Any, white: str, black: str, result: str) -> str:
    from bitgames.leiserchess.pgn import write_game

    return write_game(board, white, black, result)


def cmd_match(args: argparse.Namespace) -> int:
    from bitgames.core.cli import run_match_command

    return run_match_command(args, "bitgames.leiserchess.cli:match_kit",
                             {"draw_rule": args.draw_rule})


def cmd_closebook_build(args: argparse.Namespace) -> int:
    from bitgames.leiserchess.closebook import build_cli

    return build_cli(args)


def cmd_closebook_probe(args: argparse.Namespace) -> int:
    from bitgames.leiserchess.closebook import probe_cli

    return probe_cli(args)
