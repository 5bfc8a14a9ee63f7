"""The NBoard protocol, version 2 (``bitgames othello nboard``).

Commands read (one per line on standard input; ``shared/reference/othello.md`` §5.1):
``nboard <v>``, ``set depth <n>``, ``set game <GGF>``, ``set contempt <n>``,
``move <mv>[/<eval>[/<time>]]`` (``PA`` = pass), ``hint <n>``, ``go``, ``ping <n>``,
``learn``, ``analyze``, ``quit``. Unknown commands are ignored (logged on stderr); a bad
line never stops the engine.

Replies (standard output, flushed line by line, nothing else is printed there):
``set myname``, ``status``, ``search <pv> <eval> 0 <depth>``,
``book <pv> <eval> <games> <depth>``, ``nodestats``, ``=== <move>/<eval>/<time>``,
``pong <n>``, ``learned``, ``analysis <movesMade> <eval>``. Evaluations are in discs from
the side to move; depth is ``100%`` for an exact solve and ``100%W`` for a win/loss/draw
solve.

The opening book (:mod:`bitgames.othello.book`) answers ``go`` and ``hint`` while the game
is in it; ``set contempt`` (centi-discs for Black) is the value of book draws; ``learn``
adds the current game to the book (searched at :data:`LEARN_DEPTH` at most) and saves it.

``go``, ``hint`` and ``analyze`` think in a worker thread, so ``ping`` is answered while
thinking: the search is stopped (it keeps its best move so far), its reply is sent, then
``pong``.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import Any, TextIO

from bitgames.core.errors import BitgamesError
from bitgames.othello.board import Board
from bitgames.othello.ggf import GgfGame, parse_ggf, parse_move

NAME = "bitgames"
LEARN_DEPTH = 10  #: deepest search used when learning a game into the book


def _clock_from_ggf(game: GgfGame, black_to_move: bool) -> float | None:
    """Seconds left for the side to move: TI[mm:ss] minus its recorded move times."""
    ti = game.properties.get("TI", "").split("/")[0].strip()
    if not ti:
        return None
    try:
        parts = [float(x) for x in ti.split(":")]
    except ValueError:
        return None
    total = 0.0
    for x in parts:
        total = total * 60 + x
    used = 0.0
    board = game.start.copy(stack=False)
    for mv in game.moves:
        if board.turn == black_to_move and mv.time is not None:
            used += mv.time
        board.push(mv.square)
    return max(total - used, 0.0)


class NBoardSession:
    """One protocol session: the current game, the engine, a worker for thinking."""

    def __init__(self, engine: Any, out: TextIO = sys.stdout, log: TextIO = sys.stderr,
                 depth: int | None = None, book: Any = None,
                 book_path: str | None = None, use_book: bool = True) -> None:
        self.engine = engine
        self.book = book
        self.book_path = book_path
        self.use_book = use_book
        self.learning = False
        self.out = out
        self.log = log
        self.depth = depth or engine.depth
        self.contempt = 0
        self.version = 0
        self.game: GgfGame | None = None
        self.board = Board()
        self.worker: threading.Thread | None = None
        self.write_lock = threading.Lock()
        self.done = False

    # -- output ------------------------------------------------------------------------------

    def send(self, line: str) -> None:
        with self.write_lock:
            self.out.write(line + "\n")
            self.out.flush()

    def warn(self, text: str) -> None:
        print(f"nboard: {text}", file=self.log, flush=True)

    # -- thinking in a worker ----------------------------------------------------------------

    def _think(self, job: Callable[[], None]) -> None:
        self.wait()

        def run() -> None:
            try:
                job()
            except Exception as exc:  # never die: report and go on
                self.warn(f"error while thinking: {exc!r}")
                self.send("status error")

        self.worker = threading.Thread(target=run, daemon=True)
        self.worker.start()

    def stop(self) -> None:
        """Stop any thinking and wait for its reply to be sent."""
        while self.worker is not None and self.worker.is_alive():
            if not self.learning:  # learning runs to its end: a book never gets half a game
                self.engine.stop()  # repeated: the worker may not have started its search yet
            self.worker.join(0.005)
        self.wait()

    def wait(self) -> None:
        if self.worker is not None:
            self.worker.join()
            self.worker = None

    # -- commands ----------------------------------------------------------------------------

    def handle(self, line: str) -> None:
        """Handle one input line; errors are logged, never raised."""
        text = line.strip()
        if not text:
            return
        try:
            self._dispatch(text)
        except (BitgamesError, ValueError, IndexError) as exc:
            self.warn(f"bad line {text!r}: {exc}")
        except Exception as exc:  # pragma: no cover - defensive: never die on a line
            self.warn(f"unexpected error on {text!r}: {exc!r}")

    def _dispatch(self, text: str) -> None:
        words = text.split()
        cmd = words[0].lower()
        if cmd == "set" and len(words) >= 2:
            cmd = "set " + words[1].lower()
            args = text.split(None, 2)[2] if len(words) > 2 else ""
        else:
            args = text.split(None, 1)[1] if len(words) > 1 else ""
        if cmd == "ping":
            self.stop()
            self.send(f"pong {int(args.split()[0]) if args.split() else 0}")
        elif cmd == "quit":
            self.stop()
            self.done = True
        elif cmd == "nboard":
            self.version = int(args.split()[0]) if args.split() else 1
            if self.version != 2:
                self.warn(f"protocol version {self.version}; speaking version 2")
        elif cmd == "set depth":
            depth = int(args.split()[0])
            if depth < 1:
                raise BitgamesError(f"depth must be positive, got {depth}")
            self.stop()
            self.depth = min(depth, 60)
            self.engine.set_level(max(1, min(depth, 20)))
            self.send(f"set myname {NAME}{self.depth}")
        elif cmd == "set game":
            game = parse_ggf(args)
            self.stop()
            self.game = game
            self.board = game.board.copy()
        elif cmd == "set contempt":
            self.contempt = int(args.split()[0])
        elif cmd == "move":
            mv = parse_move(args.split()[0])
            self.stop()
            board = self.board.copy()
            if mv.square != "pass" and board.must_pass():
                board.push("pass")
            board.push(mv.square)
            self.board = board
            if self.game is not None:
                self.game.moves.append(mv)
                self.game.board = board.copy()
        elif cmd == "go":
            self._think(self._go)
        elif cmd == "hint":
            n = int(args.split()[0]) if args.split() else 1
            self._think(lambda: self._hint(max(1, n)))
        elif cmd == "learn":
            self.wait()  # let a running search or analysis finish first
            self.learning = True
            self._think(self._learn)
        elif cmd == "analyze":
            self._think(self._analyze)
        else:
            self.warn(f"unknown command ignored: {text!r}")

    def _begin(self, pass_reply: str) -> Board | None:
        """Announce thinking; None (after replying) when the game is over or a pass is forced."""
        board = self.board.copy()
        self.send(f"status {NAME} is thinking")
        if board.is_game_over():
            self.send("status game over")
            return None
        if board.must_pass():
            self.send(pass_reply)
            self.send(f"status {NAME} is waiting")
            return None
        return board

    def _go(self) -> None:
        from bitgames.othello.search import Clock

        board = self._begin("=== PA")
        if board is None:
            return
        if self.book is not None and self.use_book:
            known = self.book.choose(board, contempt=self.contempt)
            if known is not None:
                self.send(f"=== {known[0].upper()}/{known[1] / 100:.2f}/0.00")
                self.send(f"status {NAME} is waiting")
                return
        clock = None
        if self.game is not None:
            left = _clock_from_ggf(self.game, board.turn)
            if left is not None:
                clock = Clock(left)
        start = time.perf_counter()
        result = self.engine.search(board, depth=self.depth, clock=clock,
                                    on_info=lambda r: self._search_line(r))
        elapsed = time.perf_counter() - start
        self.send(f"nodestats {result.nodes} {elapsed:.2f}")
        self.send(f"=== {result.move.upper()}/{result.discs:.2f}/{elapsed:.2f}")
        self.send(f"status {NAME} is waiting")

    def _search_line(self, r: Any) -> None:
        pv = "".join("PA" if m == "pass" else m.upper() for m in r.pv) or r.move.upper()
        self.send(f"search {pv} {r.discs:.2f} 0 {r.depth_text}")

    def _hint(self, n: int) -> None:
        board = self._begin("search PA 0.00 0 0")
        if board is None:
            return
        start = time.perf_counter()
        known = (self.book.lines(board, self.contempt)
                 if self.book is not None and self.use_book else [])
        if known:
            for m in known[:n]:
                self.send(f"book {m.move.upper()} {m.score / 100:.2f} {m.games} {m.depth}")
            self.send(f"status {NAME} is waiting")
            return
        if n <= 1:
            result = self.engine.search(board, depth=self.depth,
                                        on_info=lambda r: self._search_line(r))
        else:
            result = self.engine.search(board, depth=self.depth, multi=n)
            for move, score in result.scores[:n]:
                depth = result.depth_text if result.mode != "midgame" else str(
                    max(result.depth - 1, 0) + 1)
                self.send(f"search {move.upper()} {score / 100:.2f} 0 {depth}")
        self.send(f"nodestats {result.nodes} {time.perf_counter() - start:.2f}")
        self.send(f"status {NAME} is waiting")

    def _game_moves(self) -> tuple[Board, list[str]]:
        """The start position of the current game and its moves (``pass`` included)."""
        if self.game is not None:
            return self.game.start.copy(), [m.square for m in self.game.moves]
        start = self.board.copy()
        moves = [str(m) for m in start.move_stack]
        while start.move_stack:
            start.pop()
        return start, moves

    def _learn(self) -> None:
        """Add the current game to the book and save it; reply ``learned``."""
        from bitgames.othello.book import Book, engine_search

        try:
            if self.book is None:
                self.book = Book()
            start, moves = self._game_moves()
            self.send(f"status {NAME} is learning")
            depth = min(self.depth, LEARN_DEPTH)
            added = self.book.learn(moves, engine_search(self.engine, depth), depth,
                                    start=start)
            if self.book_path is not None:
                self.book.save(self.book_path)
            self.warn(f"learned {added} new positions ({len(self.book)} in the book)")
        finally:
            self.learning = False
        self.send("learned")
        self.send(f"status {NAME} is waiting")

    def _analyze(self) -> None:
        """``analysis <movesMade> <eval>`` for every position of the game, last first."""
        start, moves = self._game_moves()
        boards = [start.copy(stack=False)]
        b = start.copy(stack=False)
        for mv in moves:
            b.push(mv)
            boards.append(b.copy(stack=False))
        self.send(f"status {NAME} is analysing")
        depth = min(self.depth, 8)
        for i in range(len(boards) - 1, -1, -1):
            if self.engine.ctl[0]:
                break
            bd = boards[i]
            if bd.is_game_over():
                score = bd.score() * (1 if bd.turn else -1)
                self.send(f"analysis {i} {score:.2f}")
                continue
            if bd.must_pass():
                continue
            r = self.engine.search(bd, depth=depth)
            if r.stopped:
                break
            self.send(f"analysis {i} {r.discs:.2f}")
        self.send(f"status {NAME} is waiting")


def run_session(engine: Any, stdin: TextIO, stdout: TextIO, stderr: TextIO,
                depth: int | None = None, book: Any = None, book_path: str | None = None,
                use_book: bool = True) -> NBoardSession:
    """Run the protocol until ``quit`` or end of input."""
    session = NBoardSession(engine, stdout, stderr, depth, book, book_path, use_book)
    for line in stdin:
        session.handle(line)
        if session.done:
            break
    session.wait()
    return session


def run_nboard(args: Any) -> int:
    """``bitgames othello nboard``: set up the engine, then speak the protocol."""
    from bitgames.core.jit import ensure_warm

    ensure_warm("othello", "rules", "solver", "engine")
    from bitgames.othello.book import open_book
    from bitgames.othello.search import Engine

    engine = Engine(level=args.level, evaluation=args.evaluation, weights=args.weights)
    book, path = open_book(args.book)
    run_session(engine, sys.stdin, sys.stdout, sys.stderr, book=book, book_path=str(path),
                use_book=not args.no_book)
    return 0
