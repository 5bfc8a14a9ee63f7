"""Russian draughts and English checkers: perft, play, analyze, match, Hub protocol.

Positions are FEN strings: 'W:Wa1,c1,Kd4:Bb8,h8' (Russian, algebraic squares, K = king) or
'B:W21-32:B1-12' (English, numeric squares). Moves: c3-d4, c3:e5:g3 (Russian), 11-15,
22x15 (English).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from bitgames.core.cli import (
    INTERRUPTED,
    WORKERS,
    Integer,
    add_json_flag,
    add_limit_options,
    add_match_options,
    add_threads_option,
    emit,
    limit_from_args,
    perft_record,
)

#: what a draughts level sets (:data:`bitgames.draughts.search.LEVELS`)
LEVEL_HELP = ("a depth and seconds per move, from 1 ply / 0.1 s (level 1) through 6 plies / "
              "0.5 s (level 5) to 40 plies / 15 s (level 10)")


def add_commands(sub: Any) -> None:
    """Register the draughts subcommands."""
    p = sub.add_parser("perft", help="count leaf positions of the move tree (rules check)",
                       description="Count the positions DEPTH plies deep (bulk counting at "
                       "the last ply; captures with the same start, end and captured set "
                       "count once unless --all-paths). Ctrl-C stops the count: it prints "
                       "the leaves counted so far and exits with 130.")
    p.add_argument("depth", type=Integer(0, 40), help="plies")
    _variant_fen(p)
    p.add_argument("--divide", action="store_true", help="one count per root move")
    p.add_argument("--all-paths", action="store_true",
                   help="count every landing-square path of a capture separately")
    add_json_flag(p)
    p.set_defaults(func=cmd_perft)

    p = sub.add_parser("play", help="play against the engine in the terminal",
                       description="Play a game against the engine; type moves in the "
                       "variant's notation, 'moves' lists them, 'undo' takes back, 'quit'.")
    _variant_fen(p)
    add_limit_options(p, 10, 5, LEVEL_HELP)
    p.add_argument("--egdb", metavar="DIR",
                   help="endgame tables to play by (see 'bitgames draughts egdb build')")
    p.add_argument("--color", choices=["white", "black"], default="white",
                   help="your colour (default white)")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("analyze", help="search a position and print the engine's lines",
                       description="Search a position with iterative deepening, one line "
                       "per depth (score in men for the side to move, PV). Ctrl-C stops "
                       "the search: it prints the best move so far and exits with 130.")
    _variant_fen(p)
    add_limit_options(p, 10, 5, LEVEL_HELP)
    p.add_argument("--egdb", metavar="DIR",
                   help="endgame tables to play by (see 'bitgames draughts egdb build')")
    add_json_flag(p)
    p.set_defaults(func=cmd_analyze)

    p = sub.add_parser("match", help="engine against engine (built-in or outside Hub)",
                       description="Play a match, each opening twice with colours swapped; "
                       "prints each game and the Elo difference of A with its 95 % interval. "
                       "Built-in players take level:N, depth:N, nodes:N, time:S and the "
                       "engine options hash:BITS (table size, default 18), egdb:DIR "
                       "(endgame tables), and the evaluation: by default the learned one "
                       "shipped for the variant (Russian), patterns:FILE another "
                       "(benchmarks/draughts_patterns.py), patterns:none or hand weights by "
                       "name (mobility:4, king_russian:300, ...) the hand evaluation; "
                       "cmd:\"COMMAND\" drives an outside Hub engine, e.g. "
                       "cmd:\"python -m bitgames.cli draughts hub\". Records are PDN.")
    add_match_options(p, max_plies=300)
    p.add_argument("--variant", choices=["russian", "english"], default="russian")
    p.set_defaults(func=cmd_match)

    p = sub.add_parser("egdb", help="endgame tables: build them, look a position up",
                       description="Win/loss/draw tables of every position with few pieces, "
                       "by retrograde analysis (bitgames.draughts.egdb). 'build' solves the "
                       "missing slices of material into --dir (resumable: run it again after "
                       "Ctrl-C); 'probe' looks positions up. The engine uses them with "
                       "--egdb DIR (analyze, play).")
    egsub = p.add_subparsers(dest="egdb_command", metavar="ACTION", required=True)
    e = egsub.add_parser("build", help="solve every slice of up to --pieces pieces")
    e.add_argument("--pieces", type=Integer(2, 6), default=4,
                   help="most pieces on the board (default 4; 5 takes tens of minutes)")
    e.add_argument("--variant", choices=["russian", "english"], default="russian")
    _egdb_dir(e)
    e.add_argument("--scheduler", default="processes",
                   help="serial, processes (default) or tcp://HOST:PORT (Dask)")
    e.add_argument("--workers", type=WORKERS, help="parallel slices (default: the CPUs)")
    add_json_flag(e)
    e.set_defaults(func=cmd_egdb)
    e = egsub.add_parser("probe", help="the value of positions for the side to move")
    e.add_argument("fen", nargs="+", help="positions (FEN)")
    e.add_argument("--variant", choices=["russian", "english"],
                   help="rules (default: the FEN's)")
    _egdb_dir(e)
    add_json_flag(e)
    e.set_defaults(func=cmd_egdb)

    p = sub.add_parser("hub", help="speak the Hub protocol (v2) on stdin/stdout",
                       description="Run as a Hub engine for draughts GUIs (Hub, pydraughts, "
                       "lidraughts-bot).")
    p.add_argument("--egdb", metavar="DIR",
                   help="endgame tables to play by (also: set-param name=egdb value=DIR)")
    add_threads_option(p, "set-param name=threads value=N")
    p.set_defaults(func=cmd_hub)


def _variant_fen(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", choices=["russian", "english"],
                   help="rules (default: the FEN's, numbers English, letters Russian; "
                   "russian without a FEN)")
    p.add_argument("--fen", help="start position (default: the initial position)")


def _egdb_dir(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dir", default=None,
                   help="folder of the tables (default: draughts-egdb in "
                   "~/.local/share/bitgames or $BITGAMES_DATA_DIR)")


def _tables(folder: str | None, variant: str) -> Any:
    """The endgame tables of ``variant`` in ``folder`` (None: none)."""
    if folder is None:
        return None
    from bitgames.core import jit
    from bitgames.draughts.egdb import Tables

    jit.ensure_warm("draughts", "egdb")
    return Tables(folder, variant)


def _egdb_folder(args: argparse.Namespace) -> Any:
    from bitgames.core.jit import data_root

    return args.dir if args.dir else data_root() / "draughts-egdb"


def cmd_egdb(args: argparse.Namespace) -> int:
    """``bitgames draughts egdb build|probe``."""
    from bitgames.core import jit
    from bitgames.core.parallel import check_scheduler

    folder = _egdb_folder(args)
    if args.egdb_command == "probe":
        jit.ensure_warm("draughts", "rules", "egdb")
        from bitgames.draughts.board import Board
        from bitgames.draughts.egdb import Tables

        boards = [Board(fen, variant=args.variant) for fen in args.fen]
        tables: dict[str, Any] = {}
        for board in boards:
            if board.variant not in tables:
                tables[board.variant] = Tables(folder, board.variant)
            value = tables[board.variant].probe(board)
            emit({"fen": board.fen(), "variant": board.variant, "value": value}, args.json,
                 f"{board.fen()}: {value}")
        return 0
    check_scheduler(args.scheduler)
    jit.ensure_warm("draughts", "rules", "egdb")
    from bitgames.core.progress import bar
    from bitgames.draughts.egdb import build, missing, slices

    start = time.perf_counter()
    total = len(slices(args.pieces))
    solved: list[Any] = []
    todo = len(missing(folder, args.variant, args.pieces))
    with bar(total, f"{args.variant} tables", "slice", initial=total - todo) as shown:
        def done(spec: Any) -> None:
            solved.append(spec)
            shown.update(1)
            emit({"slice": spec.name, "positions": 2 * spec.size,
                  "time": round(time.perf_counter() - start, 3)}, args.json,
                 f"slice {spec.name} solved ({2 * spec.size:,} indices)")

        try:
            build(folder, args.variant, args.pieces, args.scheduler, args.workers, done)
        except KeyboardInterrupt:
            emit({"folder": str(folder), "solved": len(solved), "stopped": True}, args.json,
                 f"stopped: {len(solved)} slices solved and kept in {folder}; run the same "
                 "command to go on")
            return INTERRUPTED
    emit({"folder": str(folder), "solved": len(solved), "slices": total,
          "time": round(time.perf_counter() - start, 3)}, args.json,
         f"{folder}: {len(solved)} slices solved, {total} up to {args.pieces} pieces "
         f"({time.perf_counter() - start:.1f} s)")
    return 0


def _board(args: argparse.Namespace) -> Any:
    from bitgames.draughts.board import Board

    return Board(args.fen, variant=args.variant)


def cmd_perft(args: argparse.Namespace) -> int:
    import numpy as np

    from bitgames.core import jit
    from bitgames.core.engine import StopSignal, run_stoppable
    from bitgames.core.progress import bar
    from bitgames.draughts import kernels
    from bitgames.draughts.board import _move_from_packed

    board = _board(args)  # a bad FEN is told before a cold cache compiles
    jit.ensure_warm("draughts", "rules")
    w, b, k, side = board.bitboards()
    code = board._code
    unique = not args.all_paths
    stop = StopSignal()
    start = time.perf_counter()
    roots = len(kernels.legal_moves(w, b, k, side, code, unique))
    print(f"perft {args.depth}: counting (Ctrl-C stops)", file=sys.stderr, flush=True)
    if args.depth <= 1 and not args.divide:
        total, stopped = run_stoppable(
            lambda: kernels.perft(w, b, k, side, args.depth, code, unique, stop.flag), stop.set)
    else:  # one count per root move, which the progress bar follows
        counts = np.full(kernels.MAX_MOVES, -1, dtype=np.int64)
        with bar(roots, f"perft {args.depth}", "move") as shown:
            def tick() -> None:
                shown.update(int(np.count_nonzero(counts >= 0)) - shown.n)

            rows, stopped = run_stoppable(
                lambda: kernels.divide(w, b, k, side, args.depth, code, unique, stop.flag,
                                       counts), stop.set, tick)
            tick()
        total = 0
        for packed, path, count in rows:
            total += count
            if args.divide:
                move = str(_move_from_packed(packed, path, board.variant))
                emit({"move": move, "count": count}, args.json, f"{move} {count}")
    seconds = time.perf_counter() - start
    rate = total / seconds if seconds > 0 else 0.0
    emit(perft_record(args.depth, total, seconds, stopped, variant=board.variant,
                      fen=board.fen()),
         args.json, f"{'stopped: ' if stopped else ''}perft {args.depth}: {total}"
         f"{' leaves so far' if stopped else ''}  ({seconds:.3f} s, {rate / 1e6:.1f} M/s)")
    return INTERRUPTED if stopped else 0


def cmd_analyze(args: argparse.Namespace) -> int:
    from bitgames.core import jit
    from bitgames.core.engine import Info, run_stoppable
    from bitgames.draughts.search import Engine

    board = _board(args)  # a bad FEN is told before a cold cache compiles
    jit.ensure_warm("draughts", "rules", "engine")
    if board.is_game_over():
        raise ValueError(f"no search: the game is over ({board.result()})")
    engine = Engine(board.variant, level=args.level, egdb=_tables(args.egdb, board.variant),
                    threads=args.threads)

    def info(r: Info) -> None:
        pv = " ".join(str(m) for m in r.pv)
        emit({"depth": r.depth, "score": r.score.to_dict() if r.score else None,
              "nodes": r.nodes, "time": round(r.time, 3), "nps": round(r.nps), "pv": pv},
             args.json, f"depth {r.depth:2d}  score {r.score!s:>12}  nodes {r.nodes:>10}"
             f"  {r.time:6.2f} s  {pv}")

    limit = limit_from_args(args)
    result, stopped = run_stoppable(lambda: engine.search(board, limit, on_info=info),
                                    engine.stop)
    if result.move is not None:
        score = result.score.to_dict() if result.score else None
        emit({"bestmove": str(result.move), "score": score, "stopped": stopped},
             args.json, f"{'stopped: ' if stopped else ''}best move {result.move}")
    return INTERRUPTED if stopped else 0


def cmd_play(args: argparse.Namespace) -> int:
    from bitgames.core import jit
    from bitgames.core.errors import BitgamesError
    from bitgames.draughts.board import WHITE
    from bitgames.draughts.search import Engine

    board = _board(args)  # a bad FEN is told before a cold cache compiles
    jit.ensure_warm("draughts", "rules", "engine")
    engine = Engine(board.variant, level=args.level, egdb=_tables(args.egdb, board.variant),
                    threads=args.threads)
    limit = limit_from_args(args)
    human = WHITE if args.color == "white" else not WHITE
    while True:
        print(board, flush=True)
        if board.is_game_over():
            print(f"result {board.result()}")
            return 0
        if board.turn != human:
            r = engine.search(board, limit)
            assert r.move is not None and r.score is not None
            print(f"engine plays {r.move}  (score {-r.score} for you, depth {r.depth})",
                  flush=True)
            board.push(r.move)
            continue
        legal = [str(m) for m in board.legal_moves]
        print("your move (" + " ".join(legal) + "): ", end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            return 0
        text = line.strip()
        if text in ("quit", "exit"):
            return 0
        if text == "undo":
            for _ in range(2):
                if board.move_stack:
                    board.pop()
            continue
        if text in ("moves", ""):
            continue
        try:
            board.push(text)
        except BitgamesError as exc:
            print(exc, flush=True)


def match_kit(variant: str = "russian") -> Any:
    """The :class:`~bitgames.core.match.GameKit` of ``variant`` for the match runner.

    >>> kit = match_kit("english")
    >>> kit.new_board().fen()
    'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12'
    """
    from bitgames.core.match import GameKit
    from bitgames.draughts.board import Board

    def engine(options: dict[str, str]) -> Any:
        from bitgames.draughts.eval import hand_weights
        from bitgames.draughts.patterns import load_patterns
        from bitgames.draughts.search import Engine

        numbers = {}
        tables = _tables(options.pop("egdb", None), variant)
        learned = options.pop("patterns", None)
        for name, value in options.items():
            try:
                numbers[name] = int(value)
            except ValueError:
                raise ValueError(f"draughts engine option {name}:{value} needs a whole "
                                 "number") from None
        bits = numbers.pop("hash", 18)
        weights = None  # the engine's default: learned where shipped
        if learned is not None and numbers:
            raise ValueError("draughts engine option patterns: takes no hand weights")
        if learned == "none" or numbers:
            weights = hand_weights(variant, **numbers)
        elif learned is not None:
            weights = load_patterns(learned)
        return Engine(variant, table_bits=bits, weights=weights, egdb=tables)

    def client(command: str) -> Any:
        from bitgames.draughts.hub import HubClient

        return HubClient.start(command, variant, timeout=120.0)

    def record(board: Any, white: str, black: str, result: str) -> str:
        from bitgames.draughts.pdn import RESULTS, write_game

        return write_game(board, {"White": white, "Black": black},
                          RESULTS[variant][result])

    return GameKit("draughts", lambda: Board(variant=variant), engine, client, record,
                   engine_groups=("engine",))


def cmd_match(args: argparse.Namespace) -> int:
    from bitgames.core.cli import run_match_command

    return run_match_command(args, "bitgames.draughts.cli:match_kit",
                             {"variant": args.variant})


def cmd_hub(args: argparse.Namespace) -> int:
    from bitgames.draughts.hub import HubSession

    HubSession(egdb=args.egdb, threads=args.threads).serve()
    return 0
