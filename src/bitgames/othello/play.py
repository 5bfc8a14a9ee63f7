"""Terminal play for ``bitgames othello play``: you against the engine.

It reads commands from standard input, so it works in a terminal and in scripts::

    $ printf 'f5\\nhint\\nundo\\nquit\\n' | bitgames othello play --level 2

Commands: a move (``f5``), ``pass``, ``hint``, ``undo`` (takes back your last move and the
engine's answer), ``eval``, ``board``, ``save FILE``, ``load FILE`` (a transcript such as
``f5d6c3``), ``quit``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TextIO

from bitgames.core.board import Color
from bitgames.core.engine import Limit
from bitgames.core.errors import BitgamesError
from bitgames.othello.board import BLACK, Board, Move
from bitgames.othello.ggf import load_transcript
from bitgames.othello.search import depth_text


def _score_text(result: Any) -> str:
    return "?" if result.score is None else str(result.score)


def _pv_text(result: Any) -> str:
    return " ".join(str(m) for m in result.pv)


def run_play(engine: Any, book: Any, start: Board | None, human: Color, stdin: TextIO,
             stdout: TextIO, show_thinking: bool = False, opponent: str = "the engine",
             limit: Limit | None = None) -> int:
    """The interactive game loop (see the module docstring): ``human`` plays against
    ``engine`` (a :class:`~bitgames.othello.search.Engine`, thinking within ``limit``,
    default its level's) and its opening ``book`` (or None) from ``start`` (default: the
    start position)."""
    board = start.copy() if start is not None else Board()

    def say(text: str = "") -> None:
        print(text, file=stdout, flush=True)

    def show() -> None:
        say(board.grid(mark_moves=True))

    def info(r: Any) -> None:
        if show_thinking:
            say(f"  depth {depth_text(r)}: {_score_text(r)} pv {_pv_text(r)}")

    say(f"You play {'black (X)' if human == BLACK else 'white (O)'} against {opponent}. "
        "Legal moves are marked '*'. Type 'help' for commands.")
    show()
    lines = iter(stdin)
    while True:
        if board.is_game_over():
            say(f"final score (black): {board.score():+d}  transcript: {board.transcript()}")
            return 0
        if board.turn != human:
            if board.must_pass():
                say("engine passes")
                board.push("pass")
                continue
            known = book.choose(board) if book is not None else None
            if known is not None:
                board.push(known[0])
                say(f"engine plays {known[0]}  eval {known[1] / 100:+.2f} (book)")
                show()
                continue
            r = engine.search(board, limit, on_info=info)
            board.push(r.move)
            say(f"engine plays {r.move}  eval {_score_text(r)}  pv {_pv_text(r)}")
            show()
            continue
        if board.must_pass():
            say("you must pass (type 'pass' or just press enter)")
        try:
            line = next(lines)
        except StopIteration:
            say("end of input")
            return 0
        words = line.strip().split()
        if not words:
            if board.must_pass():
                board.push("pass")
            continue
        cmd = words[0].lower()
        try:
            if cmd in ("quit", "exit", "q"):
                say(f"transcript: {board.transcript()}")
                return 0
            if cmd == "help":
                say("a move (f5), pass, hint, undo, eval, board, save FILE, load FILE, quit")
            elif cmd == "hint":
                known = book.moves(board) if book is not None else []
                if known:
                    say(f"hint: {known[0][0]}  eval {known[0][1] / 100:+.2f} (book: "
                        + ", ".join(f"{m} {v / 100:+.2f}" for m, v in known) + ")")
                    continue
                r = engine.search(board, limit, on_info=info)
                say(f"hint: {r.move}  eval {_score_text(r)}  pv {_pv_text(r)}")
            elif cmd == "eval":
                r = engine.search(board, limit, on_info=info)
                say(f"eval {_score_text(r)} (depth {depth_text(r)}, pv {_pv_text(r)})")
            elif cmd == "board":
                show()
            elif cmd == "undo":
                if not board.move_stack:
                    say("nothing to undo")
                    continue
                board.pop()
                while board.move_stack and board.turn != human:
                    board.pop()
                show()
            elif cmd == "save":
                if len(words) < 2:
                    raise BitgamesError("save needs a file name")
                Path(words[1]).write_text(board.transcript(passes=False) + "\n")
                say(f"saved {len(board.move_stack)} moves to {words[1]}")
            elif cmd == "load":
                if len(words) < 2:
                    raise BitgamesError("load needs a file name")
                board = load_transcript(Path(words[1]).read_text())
                say(f"loaded {len(board.move_stack)} moves")
                show()
            else:
                board.push(Move.from_str(cmd))
                show()
        except (BitgamesError, OSError) as exc:
            say(f"error: {exc}")


