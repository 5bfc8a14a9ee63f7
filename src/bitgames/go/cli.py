"""Go (9x9 to 19x19): GTP engine, matches against GNU Go, play in the terminal, playout speed.

Rules profiles: default (= cgos: area scoring, suicide forbidden, positional superko),
tromp-taylor (multi-stone suicide legal), simple-ko, situational. Komi 7.5 by default.
Vertices are GTP's: columns A-T without I, row 1 at the bottom, "pass".
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from bitgames.core.cli import add_json_flag, emit

GNUGO = "/usr/games/gnugo --mode gtp --level 10 --chinese-rules --positional-superko"


#: playout policies by name (`bitgames.go.kernels.POLICIES`, not imported here: building
#: the parser must not load the kernels)
POLICY_NAMES = ("light", "capture", "tactics", "patterns")


def _board_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--size", type=int, default=9, help="board size, 2 to 25 (default 9)")
    p.add_argument("--komi", type=float, default=7.5, help="komi (default 7.5)")
    p.add_argument(
        "--rules",
        default="default",
        help="default | tromp-taylor | simple-ko | situational (default: default)",
    )


def _engine_options(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument("--playouts", type=int, help="simulations per move (default: the level's)")
    g.add_argument("--seconds", type=float, help="seconds per move instead of a playout count")
    p.add_argument(
        "--level",
        type=int,
        default=5,
        help="engine level 1-10 when no --playouts/--seconds: 100, 300, 1000, 3000, 10000 "
        "(level 5, the default), 20000, 50000, 100000, 200000, 500000 playouts per move",
    )
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument(
        "--policy",
        choices=POLICY_NAMES,
        default="patterns",
        help="playout policy of the engine (default patterns)",
    )


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "gtp",
        help="run the engine in GTP (Go Text Protocol v2) mode on stdin/stdout",
        description="Speak GTP version 2 on standard input/output (GNU Go's regression "
        "helpers included: is_legal, all_legal, list_stones, captures, printsgf, loadsgf). "
        "Only protocol lines go to stdout; the engine's thinking goes to stderr. Time "
        "settings from the controller override --playouts/--seconds.",
    )
    _board_options(p)
    _engine_options(p)
    p.add_argument("--no-resign", action="store_true", help="never resign")
    p.set_defaults(func=cmd_gtp)

    p = sub.add_parser(
        "play",
        help="play against the engine in the terminal",
        description="Play a game against the engine: type a vertex (D4), 'pass', 'undo', "
        "'resign' or 'quit'. The board, the legal-move count and the engine's evaluation "
        "and principal variation are shown after each move.",
    )
    _board_options(p)
    _engine_options(p)
    p.add_argument(
        "--color", choices=["black", "white"], default="black", help="your colour (black)"
    )
    p.set_defaults(func=cmd_play)

    p = sub.add_parser(
        "match",
        help="play the engine against another GTP engine (GNU Go) and report Elo",
        description="Play GAMES games against a GTP engine (started with --opponent), "
        "colours alternating, through bitgames' own GTP controller. Each finished game is "
        "scored by the opponent's final_score when it has one (GNU Go's dead-stone "
        "judgement), else by our own estimate. Prints one line per game and a summary "
        "with the Elo difference and its 95% interval; games are saved as SGF. Ctrl-C "
        "stops at once: the summary of the finished games is printed (exit status 130).",
    )
    _board_options(p)
    _engine_options(p)
    p.add_argument("--games", type=int, default=10, help="number of games, even (default 10)")
    p.add_argument("--opponent", default=GNUGO, help=f"opponent command (default: {GNUGO})")
    p.add_argument("--sgf-dir", type=Path, help="directory for the games' SGF files")
    p.add_argument("--no-resign", action="store_true", help="our engine never resigns")
    add_json_flag(p)
    p.set_defaults(func=cmd_match)

    p = sub.add_parser(
        "bench",
        help="measure playout speed (playouts/s, moves/playout, ns/move)",
        description="Run playouts (light by default) from the empty board and print "
        "playouts per second, moves per playout and nanoseconds per move, for each size. "
        "Ctrl-C stops at once and prints the figures of the playouts done (exit status 130).",
    )
    p.add_argument(
        "--size", type=int, action="append", help="board size, repeatable (default 9 13 19)"
    )
    p.add_argument("--playouts", type=int, default=100_000, help="playouts on 9x9 (100000)")
    p.add_argument("--threads", type=int, default=1, help="threads (default 1)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--policy",
        choices=POLICY_NAMES,
        default="light",
        help="playout policy (default light)",
    )
    add_json_flag(p)
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser(
        "score",
        help="score an SGF game (Tromp-Taylor area and with dead stones removed)",
        description="Read an SGF game and print its Tromp-Taylor area score (all stones "
        "alive) and the score after removing the stones our playouts judge dead.",
    )
    p.add_argument("file", type=Path, help="SGF file")
    p.add_argument("--rules", default="default")
    add_json_flag(p)
    p.set_defaults(func=cmd_score)


def _limit(args: argparse.Namespace) -> Any:
    """The ``Limit`` of --playouts / --seconds (``Limit()``: the engine's level)."""
    from bitgames.core.engine import Limit

    if args.seconds is not None:
        return Limit(time=args.seconds)
    return Limit(nodes=args.playouts) if args.playouts is not None else Limit()


def _engine(args: argparse.Namespace, resign: bool = True) -> Any:
    from bitgames.go import kernels as K
    from bitgames.go.mcts import Engine

    return Engine(args.level, seed=args.seed, policy=K.POLICIES[args.policy],
                  resign=0.1 if resign else 0.0)


def _describe(limit: Any, engine: Any) -> str:
    if limit.time is not None:
        return f"{limit.time:g} s/move"
    return f"{limit.nodes or engine.playouts} playouts/move"


def cmd_gtp(args: argparse.Namespace) -> int:
    from bitgames.core.jit import ensure_warm
    from bitgames.go.gtp import GtpSession

    ensure_warm("go", "rules", "mcts")
    GtpSession(
        size=args.size,
        komi=args.komi,
        rules=args.rules,
        limit=_limit(args),
        engine=_engine(args),
        resign=not args.no_resign,
    ).serve()
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from bitgames.core.jit import ensure_warm
    from bitgames.go.board import BLACK, WHITE, Board, Move
    from bitgames.go.mcts import final_score

    ensure_warm("go", "rules", "mcts")
    limit = _limit(args)
    board = Board(size=args.size, komi=args.komi, rules=args.rules)
    engine = _engine(args)
    human = BLACK if args.color == "black" else WHITE
    print(board, flush=True)
    while not board.is_game_over():
        if board.turn == human:
            try:
                line = input(
                    f"your move ({len(board.legal_points())} legal points, or pass/undo/quit): "
                )
            except EOFError:
                return 0
            text = line.strip()
            if text in ("quit", "q"):
                return 0
            if text == "undo":
                for _ in range(2):
                    if board.move_stack:
                        board.pop()
                print(board, flush=True)
                continue
            try:
                board.push(text)
            except ValueError as exc:
                print(f"  {exc}", flush=True)
                continue
        else:
            result = engine.search(board, limit)
            move = result.move
            board.push(move)
            if move == Move.RESIGN:
                print("engine resigns", flush=True)
                break
            print(
                f"engine: {move}  ({result.score}, {result.nodes} playouts in "
                f"{result.time:.1f} s, pv {' '.join(map(str, result.pv))})",
                flush=True,
            )
            if move == Move.PASS:
                print("engine passes", flush=True)
        print(board, flush=True)
    if board.resigned is None:
        print(
            f"game over: {board.result()} by area (all stones alive); "
            f"with dead stones removed: {final_score(board):+.1f}",
            flush=True,
        )
    else:
        print(f"game over: {board.result()}", flush=True)
    return 0


class _Interrupted(Exception):
    """Ctrl-C was pressed during a match."""


def cmd_match(args: argparse.Namespace) -> int:
    from bitgames.core.engine import interruptible
    from bitgames.core.jit import ensure_warm
    from bitgames.core.match import GameRecord, MatchResult, run_match
    from bitgames.core.protocol import ProcessTransport
    from bitgames.go.board import Board, Move, format_score
    from bitgames.go.gtp import GtpClient
    from bitgames.go.mcts import final_score
    from bitgames.go.sgf import to_sgf

    ensure_warm("go", "rules", "mcts")
    limit = _limit(args)
    if args.games < 2 or args.games % 2:
        raise ValueError("--games must be an even number of at least 2 (colours alternate)")
    if args.sgf_dir is not None:
        args.sgf_dir.mkdir(parents=True, exist_ok=True)
    transport = ProcessTransport(args.opponent)
    client = GtpClient(transport)
    engine = _engine(args, resign=not args.no_resign)

    def new_board() -> Board:
        return Board(size=args.size, komi=args.komi, rules=args.rules)

    def referee_score(board: Board) -> float:
        """The opponent's final_score (dead stones judged), else our own estimate."""
        try:
            client.sync(board)
            ok, text = client.request("final_score")
        except ValueError:
            ok, text = False, ""
        if ok and text and text[0] in "BW0":
            if text == "0":
                return 0.0
            value = float(text[2:])
            return value if text[0] == "B" else -value
        return final_score(board)

    class Refereed(Board):
        """A board whose winner after two passes comes from the referee."""

        def winner(self) -> bool | None:
            if self.resigned is not None or not self.is_game_over():
                return super().winner()
            score = referee_score(self)
            return None if score == 0 else score < 0

    def ours(board: Board) -> Move:
        if pressed[0]:
            raise _Interrupted
        move = engine.search(board, limit).move
        if pressed[0]:
            raise _Interrupted
        return move

    def theirs(board: Board) -> Move:
        if pressed[0]:
            raise _Interrupted
        try:
            return client.play(board, limit).move
        except ValueError:
            if pressed[0]:
                raise _Interrupted from None
            raise

    started = time.perf_counter()
    played: list[MatchResult] = []

    def on_game(record: GameRecord, result: MatchResult) -> None:
        played[:] = [result]
        board = new_board()
        for m in record.moves:
            board.push(m)
        if board.resigned is not None or not board.is_game_over():
            res = board.result() if board.resigned is not None else "Void"
        else:
            res = format_score(referee_score(board))
        ours_color = "B" if record.a_first else "W"
        n = result.n
        if args.sgf_dir is not None:
            players = ("bitgames", client.name) if record.a_first else (client.name, "bitgames")
            text = to_sgf(board, result=res).replace(
                ";GM[1]", f";GM[1]PB[{players[0]}]PW[{players[1]}]", 1
            )
            (args.sgf_dir / f"game{n:04d}.sgf").write_text(text + "\n", encoding="utf-8")
        emit(
            {
                "game": n,
                "bitgames_color": ours_color,
                "result": res,
                "score": record.a_score,
                "plies": record.plies,
                "summary": result.to_dict(),
                "seconds": round(time.perf_counter() - started, 1),
            },
            args.json,
            f"game {n}: bitgames {ours_color} {res} ({record.plies} plies)  {result.summary()}",
        )

    def interrupt() -> None:
        engine.stop()
        transport.proc.kill()  # a genmove of the opponent ends at once

    described = _describe(limit, engine)
    status = 0
    with interruptible(interrupt) as pressed:
        try:
            result = run_match(
                ours,
                theirs,
                lambda: Refereed(size=args.size, komi=args.komi, rules=args.rules),
                max_plies=3 * args.size * args.size,
                on_game=on_game,
                rounds=args.games // 2,
            )
        except _Interrupted:
            result = played[0] if played else MatchResult()
            status = 130
            print("stopped: the game in progress is not counted", file=sys.stderr, flush=True)
        finally:
            (transport if pressed[0] else client).close()
    emit(
        {"opponent": args.opponent, "limit": described, "stopped": status == 130,
         **result.to_dict()},
        args.json,
        f"bitgames ({described}) vs {client.name}: {result.summary()}"
        + (" (stopped)" if status else ""),
    )
    return status


def _playouts(pool: Any, threads: int, kernel_args: tuple[Any, ...], lo: int, hi: int) -> None:
    """Playouts ``lo`` to ``hi - 1`` (the same random streams as one call for all), split
    among ``threads`` threads of ``pool`` (the kernel releases the GIL)."""
    from bitgames.go import kernels as K

    g, s, seed, cap, scores, moves, policy = kernel_args
    cuts = [lo + (hi - lo) * t // threads for t in range(threads + 1)]
    list(pool.map(lambda a, b: K._playout_range(g, s, a, b, seed, cap, scores, moves, policy),
                  cuts, cuts[1:]))


def cmd_bench(args: argparse.Namespace) -> int:
    from concurrent.futures import ThreadPoolExecutor

    import numpy as np

    from bitgames.core.engine import interruptible
    from bitgames.core.jit import ensure_warm
    from bitgames.go import kernels as K

    ensure_warm("go", "rules", "playouts", *(["parallel"] if args.threads > 1 else []))
    sizes = args.size or [9, 13, 19]
    policy = K.POLICIES[args.policy]
    seed = np.uint64(args.seed)
    pool = ThreadPoolExecutor(args.threads)
    with interruptible(lambda: None) as pressed:
        for size in sizes:
            n = max(1000, int(args.playouts * 81 / (size * size)))
            g, s = K.geometry(size), K.new_state(size)
            scores = np.zeros(n, np.int64)
            moves = np.zeros(n, np.int64)
            cap = 3 * size * size
            kernel_args = (g, s, seed, cap, scores, moves, policy)
            _playouts(pool, args.threads, kernel_args, 0, min(n, 200))  # untimed: page-in
            done = 0
            start = time.perf_counter()
            while done < n and not pressed[0]:  # blocks of ~20 ms: Ctrl-C stops at once
                step = min(n - done, max(100, 2000 * 81 // (size * size)) * args.threads)
                _playouts(pool, args.threads, kernel_args, done, done + step)
                done += step
            dt = time.perf_counter() - start
            total = int(moves[:done].sum())
            record = {
                "size": size,
                "threads": args.threads,
                "policy": args.policy,
                "playouts": done,
                "seconds": round(dt, 3),
                "playouts_per_s": round(done / dt),
                "moves_per_playout": round(total / done, 1),
                "ns_per_move": round(dt / total * 1e9, 1),
                "black_win_rate_komi_7.5": round(float((scores[:done] - 7.5 > 0).mean()), 3),
            }
            emit(
                record,
                args.json,
                f"{size}x{size}: {record['playouts_per_s']:,} playouts/s, "
                f"{record['moves_per_playout']} moves/playout, {record['ns_per_move']} ns/move "
                f"({done} playouts, {args.threads} thread{'s' if args.threads > 1 else ''})",
            )
            if pressed[0]:
                print(f"stopped after {done} of {n} playouts on {size}x{size}",
                      file=sys.stderr, flush=True)
                return 130
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    from bitgames.core.jit import ensure_warm
    from bitgames.go.board import format_score
    from bitgames.go.mcts import dead_stones, final_score
    from bitgames.go.sgf import load_sgf

    ensure_warm("go", "rules", "mcts")
    board = load_sgf(args.file, args.rules)
    dead = [board.vertex(p) for p in dead_stones(board)]
    fs = final_score(board)
    record = {
        "file": str(args.file),
        "area_score": board.score(),
        "area_result": format_score(board.score()),
        "dead": dead,
        "final_score": fs,
        "final_result": format_score(fs),
    }
    emit(
        record,
        args.json,
        f"{args.file}: Tromp-Taylor {format_score(board.score())}; dead stones removed "
        f"{format_score(fs)} (dead: {' '.join(dead) or 'none'})",
    )
    return 0
