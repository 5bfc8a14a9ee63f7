"""Terminal play, game analysis and engine matches for ``bitgames othello``.

``play`` reads commands from standard input, so it works in a terminal and in scripts::

    $ printf 'f5\\nhint\\nundo\\nquit\\n' | bitgames othello play --level 2

Commands: a move (``f5``), ``pass``, ``hint``, ``undo`` (takes back your last move and the
engine's answer), ``eval``, ``board``, ``save FILE``, ``load FILE`` (a transcript such as
``f5d6c3``), ``quit``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any, TextIO

from bitgames.core.errors import BitgamesError
from bitgames.othello.board import BLACK, Board, Move


def make_engine(level: int, evaluation: str, weights: str | None = None,
                table_bits: int = 20) -> Any:
    from bitgames.core.jit import ensure_warm

    ensure_warm("othello", "rules", "solver", "engine")
    from bitgames.othello.search import Engine

    return Engine(level=level, evaluation=evaluation, weights=weights, table_bits=table_bits)


def _score_text(result: Any) -> str:
    tag = {"exact": " (exact)", "wld": " (win/loss/draw)"}.get(result.mode, "")
    return f"{result.discs:+.2f}{tag}"


def load_transcript(text: str) -> Board:
    """A board from a transcript (``f5d6...``), a GGF game, or a file holding either."""
    path = Path(text)
    try:
        if len(text) < 4096 and path.is_file():
            text = path.read_text()
    except OSError:
        pass
    text = text.strip()
    if text.startswith("(;"):
        from bitgames.othello.ggf import parse_ggf

        return parse_ggf(text).board
    compact = "".join(text.split())
    return Board.from_transcript(compact)


def load_book(args: argparse.Namespace) -> Any:
    """The book of ``--book`` (see :func:`~bitgames.othello.book.open_book`), or None."""
    if getattr(args, "no_book", False):
        return None
    from bitgames.othello.book import open_book

    return open_book(getattr(args, "book", None))[0]


def run_play(args: argparse.Namespace, stdin: TextIO = sys.stdin,
             stdout: TextIO = sys.stdout) -> int:
    """The interactive game loop (see the module docstring)."""
    engine = make_engine(args.level, args.evaluation, args.weights)
    book = load_book(args)
    board = load_transcript(args.moves) if args.moves else Board()
    human = BLACK if args.color == "black" else not BLACK

    def say(text: str = "") -> None:
        print(text, file=stdout, flush=True)

    def show() -> None:
        say(board.grid(mark_moves=True))

    def info(r: Any) -> None:
        if args.show_thinking:
            say(f"  depth {r.depth_text}: {r.move} {_score_text(r)} pv {' '.join(r.pv)}")

    say(f"You play {'black (X)' if human == BLACK else 'white (O)'} against level {args.level}"
        f" ({args.evaluation} evaluation). Legal moves are marked '*'. Type 'help' for commands.")
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
            r = engine.search(board, on_info=info)
            board.push(r.move)
            say(f"engine plays {r.move}  eval {_score_text(r)}  pv {' '.join(r.pv)}")
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
                r = engine.search(board, on_info=info)
                say(f"hint: {r.move}  eval {_score_text(r)}  pv {' '.join(r.pv)}")
            elif cmd == "eval":
                r = engine.search(board, on_info=info)
                say(f"eval {_score_text(r)} (depth {r.depth_text}, pv {' '.join(r.pv)})")
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
                board.push(Move.from_name(cmd))
                show()
        except (BitgamesError, OSError) as exc:
            say(f"error: {exc}")


def run_analyze(args: argparse.Namespace, stdout: TextIO = sys.stdout) -> int:
    """Evaluate every position of a game; mark moves losing ``--mistake`` discs or more."""
    final = load_transcript(args.transcript)
    engine = make_engine(args.level, args.evaluation, args.weights)
    moves = list(final.move_stack)
    board = Board()
    rows = []
    total_loss = {True: 0.0, False: 0.0}
    for ply, move in enumerate(moves, 1):
        if move.is_pass():
            board.push(move)
            continue
        mover = board.turn
        best = engine.search(board)
        after = board.copy(stack=False)
        after.push(move)
        if str(move) == best.move:
            played = best.score
        elif after.is_game_over():
            played = 100 * after.score() * (1 if mover == BLACK else -1)
        else:
            res = engine.search(after, depth=max(1, best.depth - 1) if best.mode == "midgame"
                                else None)
            played = -res.score
        loss = max(0.0, (best.score - played) / 100.0)
        mark = "??" if loss >= 2 * args.mistake else "?" if loss >= args.mistake else ""
        total_loss[mover] += loss
        row = {"ply": ply, "color": "black" if mover == BLACK else "white", "move": str(move),
               "eval": played / 100.0, "best": best.move, "best_eval": best.score / 100.0,
               "loss": round(loss, 2), "mark": mark, "depth": best.depth_text}
        rows.append(row)
        text = (f"{ply:3d}. {'X' if mover == BLACK else 'O'} {str(move):4s}{mark:2s} "
                f"{played / 100:+7.2f}   best {best.move:4s} {best.score / 100:+7.2f} "
                f"(depth {best.depth_text})")
        if args.json:
            print(json.dumps(row), file=stdout, flush=True)
        else:
            print(text, file=stdout, flush=True)
        board.push(move)
    summary = {"plies": len(moves), "black_loss": round(total_loss[True], 2),
               "white_loss": round(total_loss[False], 2),
               "mistakes": sum(1 for r in rows if r["mark"])}
    if args.json:
        print(json.dumps(summary), file=stdout, flush=True)
    else:
        print(f"discs lost to mistakes: black {summary['black_loss']:.1f}, white "
              f"{summary['white_loss']:.1f}; {summary['mistakes']} moves marked", file=stdout,
              flush=True)
    return 0


def parse_player(spec: str, weights: str | None) -> tuple[Any, str]:
    """``classic:4`` / ``pattern:d6`` / ``pattern:8:t30`` -> (player callable, label)."""
    from bitgames.othello.search import Clock, Engine

    parts = spec.split(":")
    if parts[0] not in ("classic", "pattern") or len(parts) < 2:
        raise BitgamesError(f"bad player {spec!r}: use EVAL:LEVEL, EVAL:dDEPTH, [:tSECONDS]")
    try:
        fixed_depth = int(parts[1][1:]) if parts[1].startswith("d") else None
        lvl = int(parts[1]) if fixed_depth is None else max(1, min(fixed_depth, 20))
        clock_s = float(parts[2][1:]) if len(parts) > 2 and parts[2].startswith("t") else None
    except ValueError:
        raise BitgamesError(f"bad player {spec!r}") from None
    engine = Engine(level=lvl, evaluation=parts[0], weights=weights if parts[0] == "pattern"
                    else None, table_bits=18)
    if fixed_depth is not None:
        engine.depth = fixed_depth
    state: dict[str, Any] = {"left": clock_s, "plies": 10**9}

    def player(board: Board) -> str:
        if board.must_pass():
            return "pass"
        if clock_s is None:
            return engine.search(board).move
        import time

        if len(board.move_stack) < state["plies"]:  # a new game: reset the clock
            state["left"] = clock_s
        state["plies"] = len(board.move_stack)

        t0 = time.perf_counter()
        r = engine.search(board, clock=Clock(state["left"]))
        state["left"] -= time.perf_counter() - t0
        if state["left"] < 0:
            raise BitgamesError(f"{spec} lost on time")
        return r.move

    return player, spec


def random_openings(n: int, plies: int, seed: int) -> list[list[str]]:
    """``n`` distinct openings of ``plies`` random legal moves (deterministic by seed)."""
    rng = random.Random(seed)
    seen: set[str] = set()
    out: list[list[str]] = []
    attempts = 0
    while len(out) < n and attempts < 100 * n + 100:
        attempts += 1
        b = Board()
        for _ in range(plies):
            moves = list(b.legal_moves)
            if not moves:
                break
            b.push(rng.choice(moves))
        key = b.to_string()
        if key not in seen and not b.is_game_over():
            seen.add(key)
            out.append([str(m) for m in b.move_stack])
    return out


def run_match_cmd(args: argparse.Namespace, stdout: TextIO = sys.stdout) -> int:
    """``bitgames othello match A B``: openings x colours, Elo with a 95% interval."""
    from bitgames.core.match import run_match

    if args.games < 2 or args.games % 2:
        raise BitgamesError("--games must be an even number >= 2 (each opening twice)")
    from bitgames.core.jit import ensure_warm

    ensure_warm("othello", "rules", "solver", "engine")
    a, label_a = parse_player(args.player_a, args.weights)
    b, label_b = parse_player(args.player_b, args.weights)
    openings = random_openings(args.games // 2, args.random_plies, args.seed)

    def on_game(record: Any, result: Any) -> None:
        if not args.json:
            print(f"game {result.n}: opening {record.opening + 1} "
                  f"{label_a} {'black' if record.a_first else 'white'}: "
                  f"{ {1.0: 'win', 0.5: 'draw', 0.0: 'loss'}[record.a_score]}  "
                  f"[{result.summary()}]", file=stdout, flush=True)

    result = run_match(a, b, Board, openings, on_game=on_game)
    record = {"player_a": label_a, "player_b": label_b, **result.to_dict()}
    if args.json:
        print(json.dumps(record), file=stdout, flush=True)
    else:
        print(f"{label_a} vs {label_b}: {result.summary()}", file=stdout, flush=True)
    return 0


def run_book(args: argparse.Namespace, stdout: TextIO | None = None) -> int:
    """``bitgames othello book build|show|learn`` (printing to ``stdout``, default sys.stdout)."""
    from bitgames.othello.book import Book, engine_search, open_book

    if stdout is None:
        stdout = sys.stdout  # looked up now: tests and callers may have replaced it

    def emit(record: dict[str, Any], text: str) -> None:
        print(json.dumps(record) if args.json else text, file=stdout, flush=True)

    if args.book_command == "show":
        if args.book is not None and not Path(args.book).exists():
            raise BitgamesError(f"no opening book at {args.book}")
        book, _ = open_book(args.book)
        board = load_transcript(args.moves) if args.moves else Board()
        entry = book.entry(board)
        moves = book.moves(board)
        if args.json:
            emit({"board": board.to_string(), "in_book": entry is not None,
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
    for name in ("depth", "plies"):
        if getattr(args, name) < 1:
            raise BitgamesError(f"--{name} must be at least 1")
    if args.book_command == "build":
        engine = make_engine(max(1, min(args.depth, 20)), args.evaluation, args.weights)
        path = Path(args.file)
        book = Book.load(path) if path.exists() else Book()
        before = len(book)

        def progress(n: int, ply: int) -> None:
            emit({"added": n, "ply": ply, "positions": len(book)},
                 f"{n:6d} new positions ({len(book)} in all), ply {ply}")

        added = book.build(engine_search(engine, args.depth), args.depth, args.plies,
                           round(100 * args.width), args.max_positions, on_position=progress,
                           save_to=path)
        emit({"file": str(path), "added": added, "positions": len(book), "before": before},
             f"{path}: {added} positions added, {len(book)} in all")
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
