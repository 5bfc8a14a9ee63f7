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

from bitgames.cli import add_json_flag, emit

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
    g.add_argument("--playouts", type=int, help="simulations per move (default 10000)")
    g.add_argument("--seconds", type=float, help="seconds per move instead of a playout count")
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
        "with the Elo difference and its 95%% interval; games are saved as SGF.",
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
        "playouts per second, moves per playout and nanoseconds per move, for each size.",
    )
    p.add_argument(
        "--size", type=int, action="append", help="board size, repeatable (default 9 13 19)"
    )
    p.add_argument("--playouts", type=int, default=100_000, help="playouts on 9x9 (100000)")
    p.add_argument("--threads", type=int, default=1, help="threads (prange; default 1)")
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


def _limits(args: argparse.Namespace) -> tuple[int | None, float | None]:
    if args.seconds is not None:
        return None, args.seconds
    return (args.playouts if args.playouts is not None else 10_000), None


def cmd_gtp(args: argparse.Namespace) -> int:
    from bitgames.core.jit import ensure_warm
    from bitgames.go.gtp import GtpEngine

    ensure_warm("go", "rules", "mcts")
    playouts, seconds = _limits(args)
    engine = GtpEngine(
        size=args.size,
        komi=args.komi,
        rules=args.rules,
        playouts=playouts,
        seconds=seconds,
        seed=args.seed,
        resign=not args.no_resign,
        policy=args.policy,
    )
    engine.run(sys.stdin)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from bitgames.core.jit import ensure_warm
    from bitgames.go import kernels as K
    from bitgames.go.board import BLACK, PASS, RESIGN, Board, IllegalMoveError
    from bitgames.go.mcts import MCTS, final_score

    ensure_warm("go", "rules", "mcts")
    playouts, seconds = _limits(args)
    board = Board(size=args.size, komi=args.komi, rules=args.rules)
    engine = MCTS(seed=args.seed, policy=K.POLICIES[args.policy])
    human = BLACK if args.color == "black" else 3 - BLACK
    print(board, flush=True)
    while not board.is_game_over():
        if board.turn == human:
            legal = board.legal_moves
            try:
                line = input(f"your move ({len(legal) - 1} legal points, or pass/undo/quit): ")
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
            except (IllegalMoveError, ValueError) as exc:
                print(f"  {exc}", flush=True)
                continue
        else:
            move = engine.genmove(board, playouts, seconds)
            info = engine.info
            if move == RESIGN:
                board.push(RESIGN)
                print("engine resigns", flush=True)
                break
            print(
                f"engine: {board.vertex(move)}  (win rate {info.winrate:.1%}, "
                f"{info.playouts} playouts in {info.seconds:.1f} s, pv {info.pv})",
                flush=True,
            )
            board.push(move)
            if move == PASS:
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


class _GtpPlayer:
    """A match player backed by a GTP engine, kept in step with the board's moves."""

    def __init__(self, client: Any, size: int, komi: float) -> None:
        self.client = client
        self.size = size
        self.komi = komi
        self.sent: list[tuple[int, int]] | None = None

    def sync(self, board: Any) -> None:
        from bitgames.go.board import RESIGN

        moves = [m for m in board.move_stack if m[1] != RESIGN]
        if self.sent is None or moves[: len(self.sent)] != self.sent:
            self.client.command(f"boardsize {self.size}")
            self.client.command("clear_board")
            self.client.command(f"komi {self.komi}")
            self.sent = []
        for c, p in moves[len(self.sent) :]:
            self.client.command(f"play {'b' if c == 1 else 'w'} {board.vertex(p)}")
            self.sent.append((c, p))

    def __call__(self, board: Any) -> int:
        from bitgames.go.board import RESIGN

        self.sync(board)
        color = "b" if board.turn == 1 else "w"
        reply = self.client.command(f"genmove {color}").strip().lower()
        if reply == "resign":
            return RESIGN
        move = board.parse_move(reply)
        assert self.sent is not None
        self.sent.append((board.turn, move))
        return move


def cmd_match(args: argparse.Namespace) -> int:
    from bitgames.core.jit import ensure_warm
    from bitgames.core.match import GameRecord, MatchResult, run_match
    from bitgames.go import kernels as K
    from bitgames.go.board import Board
    from bitgames.go.gtp import GtpClient
    from bitgames.go.mcts import MCTS, final_score

    ensure_warm("go", "rules", "mcts")
    playouts, seconds = _limits(args)
    if args.games < 2 or args.games % 2:
        raise ValueError("--games must be an even number of at least 2 (colours alternate)")
    if args.sgf_dir is not None:
        args.sgf_dir.mkdir(parents=True, exist_ok=True)
    client = GtpClient(args.opponent)
    name = client.command("name")
    opponent = _GtpPlayer(client, args.size, args.komi)
    engine = MCTS(
        seed=args.seed, resign=0.0 if args.no_resign else 0.1, policy=K.POLICIES[args.policy]
    )

    def ours(board: Board) -> int:
        return engine.genmove(board, playouts, seconds)

    class Refereed(Board):
        """A board whose winner after two passes comes from the referee."""

        def winner(self) -> int | None:
            if self.resigned is not None or not self.is_game_over():
                return super().winner()
            score = self.referee_score()
            return 1 if score > 0 else 2 if score < 0 else None

        def referee_score(self) -> float:
            try:
                opponent.sync(self)
                ok, text = client.send("final_score")
            except ValueError:
                ok, text = False, ""
            if ok and text and text[0] in "BW0":
                if text == "0":
                    return 0.0
                value = float(text[2:])
                return value if text[0] == "B" else -value
            return final_score(self)

    started = time.perf_counter()

    def on_game(record: GameRecord, result: MatchResult) -> None:
        board = Refereed(size=args.size, komi=args.komi, rules=args.rules)
        for m in record.moves:
            board.push(m)
        if board.resigned is not None or not board.is_game_over():
            res = board.result() if board.resigned is not None else "Void"
        else:
            from bitgames.go.board import format_score

            res = format_score(board.referee_score())
        ours_color = "B" if record.a_first else "W"
        n = result.n
        if args.sgf_dir is not None:
            from bitgames.go.sgf import to_sgf

            text = to_sgf(board, result=res).replace(
                ";GM[1]",
                f";GM[1]PB[{'bitgames' if record.a_first else name}]"
                f"PW[{name if record.a_first else 'bitgames'}]",
                1,
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

    try:
        result = run_match(
            ours,
            opponent,
            lambda: Refereed(size=args.size, komi=args.komi, rules=args.rules),
            max_plies=3 * args.size * args.size,
            on_game=on_game,
            rounds=args.games // 2,
        )
    finally:
        client.close()
    limit = f"{playouts} playouts/move" if playouts else f"{seconds} s/move"
    emit(
        {"opponent": args.opponent, "limit": limit, **result.to_dict()},
        args.json,
        f"bitgames ({limit}) vs {name}: {result.summary()}",
    )
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    import numpy as np

    from bitgames.core.jit import ensure_warm
    from bitgames.go import kernels as K

    ensure_warm("go", "rules", "playouts", *(["parallel"] if args.threads > 1 else []))
    sizes = args.size or [9, 13, 19]
    for size in sizes:
        n = max(1000, int(args.playouts * 81 / (size * size)))
        g, s = K.geometry(size), K.new_state(size)
        scores = np.zeros(n, np.int64)
        moves = np.zeros(n, np.int64)
        seed = np.uint64(args.seed)
        policy = K.POLICIES[args.policy]
        # a short untimed run first (page-in, thread start)
        K.playouts_serial(g, s, min(n, 200), seed, 3 * size * size, scores, moves, policy)
        start = time.perf_counter()
        if args.threads <= 1:
            K.playouts_serial(g, s, n, seed, 3 * size * size, scores, moves, policy)
        else:
            from numba import set_num_threads

            set_num_threads(args.threads)
            K.playouts_parallel(
                g, s, n, seed, 3 * size * size, scores, moves, 4 * args.threads, policy
            )
        dt = time.perf_counter() - start
        total = int(moves.sum())
        record = {
            "size": size,
            "threads": args.threads,
            "policy": args.policy,
            "playouts": n,
            "seconds": round(dt, 3),
            "playouts_per_s": round(n / dt),
            "moves_per_playout": round(total / n, 1),
            "ns_per_move": round(dt / total * 1e9, 1),
            "black_win_rate_komi_7.5": round(float((scores - 7.5 > 0).mean()), 3),
        }
        emit(
            record,
            args.json,
            f"{size}x{size}: {record['playouts_per_s']:,} playouts/s, "
            f"{record['moves_per_playout']} moves/playout, {record['ns_per_move']} ns/move "
            f"({n} playouts, {args.threads} thread{'s' if args.threads > 1 else ''})",
        )
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
        "area_result": board.result(),
        "dead": dead,
        "final_score": fs,
        "final_result": format_score(fs),
    }
    emit(
        record,
        args.json,
        f"{args.file}: Tromp-Taylor {board.result()}; dead stones removed "
        f"{format_score(fs)} (dead: {' '.join(dead) or 'none'})",
    )
    return 0
