"""Play Leiserchess against the engine in a terminal (the lasers are drawn)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

HELP = (
    "moves: h4g5 (step/swap), g3R / g3U / g3L (rotate), h0h0 (King null move); "
    "commands: moves, undo, hint, fen, help, quit"
)


def play(args: argparse.Namespace, inp: Any = None, out: Any = None) -> int:
    """Run a game on stdin/stdout; return the exit status."""
    from bitgames.core import jit

    jit.ensure_warm("leiserchess", "rules", "engine")
    from bitgames.core.cli import limit_from_args
    from bitgames.core.engine import Info
    from bitgames.leiserchess.board import BLACK, WHITE, Board
    from bitgames.leiserchess.search import Engine

    inp = inp or sys.stdin
    out = out or sys.stdout

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    board = Board(args.fen) if args.fen else Board()
    human = WHITE if args.color in ("tangerine", "white") else BLACK
    engine = Engine(args.level, threads=args.threads)
    limit = limit_from_args(args)
    say(HELP)

    def think() -> None:
        def info(rec: Info) -> None:
            say(f"  depth {rec.depth:2d}  score {rec.score!s:>12}  nodes {rec.nodes:9d}"
                f"  pv {' '.join(str(m) for m in rec.pv[:8])}")

        res = engine.search(board, limit, on_info=info)
        board.push(res.move)
        say(f"engine plays {res.move}")

    while not board.is_game_over():
        say("")
        say(str(board))
        if board.turn != human:
            think()
            continue
        say("your move> ")
        line = inp.readline()
        if not line:
            return 0
        text = line.strip()
        if text in ("quit", "exit"):
            return 0
        if text in ("help", "?"):
            say(HELP)
        elif text == "moves":
            say(" ".join(str(m) for m in board.legal_moves))
        elif text == "fen":
            say(board.fen())
        elif text == "undo":
            if len(board.move_stack) >= 2:
                board.pop()
                board.pop()
            else:
                say("nothing to undo")
        elif text == "hint":
            res = engine.search(board, limit)
            say(f"hint: {res.move} (score {res.score})")
        elif text:
            try:
                board.push(text)
            except ValueError as exc:
                say(f"error: {exc}")
    say(str(board))
    say(f"game over: {board.result()}")
    return 0
