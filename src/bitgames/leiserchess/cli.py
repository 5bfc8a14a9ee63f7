"""Leiserchess (MIT 6.172, 2016 rules): perft, a UCI engine, play in the terminal, closebook.

Positions are FEN strings like the reference's (``ss3nw3/... W``); moves are written
``h4g5`` (step or swap), ``g3R`` (rotate R/U/L) and ``h0h0`` (King null move).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from bitgames.core.cli import add_json_flag, emit


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
    p.add_argument("depth", type=int, help="depth in plies (1 or more)")
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
    u.set_defaults(func=cmd_uci)

    pl = sub.add_parser(
        "play",
        help="play against the engine in the terminal (lasers drawn)",
        description="Play a game against the engine. Type moves like h4g5, g3R, h0h0; "
        "'undo', 'moves', 'quit'.",
    )
    pl.add_argument("--color", choices=["tangerine", "lavender", "white", "black"],
                    default="tangerine", help="your side (tangerine moves first)")
    pl.add_argument("--depth", type=int, default=0, help="engine depth (0: use --time)")
    pl.add_argument("--time", type=float, default=1.0, help="engine seconds per move")
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
    s.add_argument("--depth", type=int, default=0, help="search depth (0: use --time)")
    s.add_argument("--time", type=float, default=1.0, help="seconds (when --depth is 0)")
    add_json_flag(s)
    s.set_defaults(func=cmd_search)

    mt = sub.add_parser(
        "match",
        help="engine against engine (full evaluation vs material only, or vs itself)",
        description="Play engine-vs-engine games through bitgames.core.match: each random "
        "opening twice with colours swapped; report the score and Elo of A with an error "
        "bar.",
    )
    mt.add_argument("--a", choices=["full", "material"], default="full", help="player A eval")
    mt.add_argument("--b", choices=["full", "material"], default="material",
                    help="player B eval")
    mt.add_argument("--depth", type=int, default=4, help="search depth of both players")
    mt.add_argument("--games", type=int, default=200, help="number of games (even)")
    mt.add_argument("--opening-plies", type=int, default=4,
                    help="random legal plies of each opening")
    mt.add_argument("--seed", type=int, default=2016, help="seed of the random openings")
    mt.add_argument("--max-plies", type=int, default=400, help="adjudicate a draw after this")
    add_json_flag(mt)
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
    build.add_argument("--out", default=None, help="output file (default: the package data dir)")
    build.add_argument("--kings-only", action="store_true",
                       help="only the two-Kings table (seconds instead of minutes)")
    add_json_flag(build)
    build.set_defaults(func=cmd_closebook_build)
    probe = cbs.add_parser("probe", help="look a position up")
    probe.add_argument("fen")
    probe.add_argument("--book", default=None, help="table file (default: the package data dir)")
    add_json_flag(probe)
    probe.set_defaults(func=cmd_closebook_probe)


def _board_from(fen: str | None, moves: list[str]) -> Any:
    from bitgames.leiserchess.board import Board

    board = Board(fen) if fen else Board()
    for m in moves:
        board.push(m)
    return board


def cmd_perft(args: argparse.Namespace) -> int:
    from bitgames.core.errors import BitgamesError

    if args.depth < 1:
        raise BitgamesError(f"perft depth must be 1 or more, got {args.depth}")
    from bitgames.core import jit

    jit.ensure_warm("leiserchess", "rules")
    from bitgames.core.engine import StopSignal, interruptible, run_in_worker
    from bitgames.leiserchess.perft import perft_board

    board = _board_from(args.fen, args.moves)
    stop = StopSignal()
    start = time.perf_counter()
    with interruptible(stop.set) as pressed:
        if args.divide:
            split = run_in_worker(lambda: perft_board(board, args.depth, legal=args.legal,
                                                  divide=True, stop=stop.flag))
            for mv, count in split.items():
                if mv != "total":
                    emit({"move": mv, "nodes": count}, args.json, f"{mv}: {count}")
            total = split["total"]
        if not pressed[0]:
            start = time.perf_counter()
            total = run_in_worker(lambda: perft_board(board, args.depth, legal=args.legal,
                                                  stop=stop.flag))["total"]
    seconds = time.perf_counter() - start
    kind = f"perft {args.depth}{' (legal)' if args.legal else ''}"
    record = {"depth": args.depth, "legal": args.legal, "fen": board.fen(), "nodes": total,
              "seconds": round(seconds, 4)}
    if pressed[0]:
        emit({**record, "stopped": True}, args.json,
             f"stopped: {kind}: {total} leaves counted so far  ({seconds:.3f} s)")
        return 130
    emit(record, args.json, f"{kind}: {total}  ({seconds:.3f} s)")
    return 0


def cmd_uci(args: argparse.Namespace) -> int:
    from bitgames.leiserchess.uci import run_uci

    return run_uci()


def cmd_play(args: argparse.Namespace) -> int:
    from bitgames.leiserchess.play import play

    return play(args)


def cmd_search(args: argparse.Namespace) -> int:
    from bitgames.core import jit

    jit.ensure_warm("leiserchess", "rules", "engine")
    from bitgames.core.engine import Limit
    from bitgames.leiserchess.search import Engine

    board = _board_from(args.fen, args.moves)
    limit = Limit(depth=args.depth) if args.depth else Limit(time=args.time)
    res = Engine().search(board, limit)
    emit(
        {"fen": board.fen(), **res.to_dict()},
        args.json,
        f"bestmove {res.move} score {res.score} depth {res.depth} nodes {res.nodes} "
        f"time {res.time:.2f} s nps {int(res.nps)} pv {' '.join(str(m) for m in res.pv)}",
    )
    return 0


def random_openings(count: int, plies: int, seed: int) -> list[list[str]]:
    """``count`` distinct random openings of ``plies`` legal moves from the start."""
    import random

    from bitgames.leiserchess.board import Board

    rng = random.Random(seed)
    seen: set[str] = set()
    out: list[list[str]] = []
    while len(out) < count:
        board = Board()
        line: list[str] = []
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            m = rng.choice(moves)
            board.push(m)
            line.append(str(m))
        if board.is_game_over() or board.fen() in seen:
            continue
        seen.add(board.fen())
        out.append(line)
    return out


def cmd_match(args: argparse.Namespace) -> int:
    import sys

    from bitgames.core import jit
    from bitgames.core.errors import BitgamesError
    from bitgames.core.match import run_match

    if args.games < 2 or args.games % 2:
        raise BitgamesError(f"--games must be an even number >= 2, got {args.games}")
    if args.depth < 1:
        raise BitgamesError(f"--depth must be 1 or more, got {args.depth}")
    jit.ensure_warm("leiserchess", "rules", "engine")
    from bitgames.core.engine import Limit
    from bitgames.leiserchess.board import Board
    from bitgames.leiserchess.eval import default_params, material_params
    from bitgames.leiserchess.search import Engine

    def player(kind: str) -> Any:
        engine = Engine(tt_bits=18, params=default_params() if kind == "full"
                        else material_params())

        def choose(board: Any) -> Any:
            return engine.play(board, Limit(depth=args.depth))

        return choose

    openings = random_openings(args.games // 2, args.opening_plies, args.seed)
    start = time.perf_counter()

    def progress(record: Any, result: Any) -> None:
        print(f"game {result.n}: A {record.a_score} ({record.plies} plies)  {result.summary()}",
              file=sys.stderr, flush=True)

    new_board: Any = Board
    result = run_match(player(args.a), player(args.b), new_board, openings,
                       max_plies=args.max_plies, on_game=progress)
    rec = result.to_dict()
    rec.update({"a": args.a, "b": args.b, "depth": args.depth,
                "seconds": round(time.perf_counter() - start, 1)})
    emit(rec, args.json, f"A={args.a} vs B={args.b} at depth {args.depth}: {result.summary()}")
    return 0


def cmd_closebook_build(args: argparse.Namespace) -> int:
    from bitgames.leiserchess.closebook import build_cli

    return build_cli(args)


def cmd_closebook_probe(args: argparse.Namespace) -> int:
    from bitgames.leiserchess.closebook import probe_cli

    return probe_cli(args)
