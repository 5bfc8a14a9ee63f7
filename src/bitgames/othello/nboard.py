"""The NBoard protocol, version 2: our engine as a session (``bitgames othello nboard``)
and a client that drives any outside NBoard engine.

Commands read by :class:`NBoardSession` (one per line; the NBoard protocol, version 2,
``docs/REFERENCES.md``): ``nboard <v>``, ``set depth <n>``, ``set game <GGF>``,
``set contempt <n>``, ``move <mv>[/<eval>[/<time>]]`` (``PA`` = pass), ``hint <n>``,
``go``, ``ping <n>``, ``learn``, ``analyze``, ``quit``. Unknown commands are ignored
(logged on stderr); a bad line is logged and changes nothing: NBoard has no error reply.

Replies (standard output, flushed line by line, nothing else is printed there):
``set myname``, ``status``, ``search <pv> <eval> 0 <depth>``,
``book <pv> <eval> <games> <depth>``, ``nodestats``, ``=== <move>/<eval>/<time>``,
``pong <n>``, ``learned``, ``analysis <movesMade> <eval>``. Evaluations are in discs from
the side to move; depth is ``100%`` for an exact result and ``100%W`` for a win/loss/draw
solve, whose evaluation is then +1, 0 or -1 (the sign of the result: its disc count is
not known).

The opening book (:mod:`bitgames.othello.book`) answers ``go`` and ``hint`` while the game
is in it; ``set contempt`` (centi-discs for Black) is the value of book draws; ``learn``
adds the current game to the book (searched at :data:`LEARN_DEPTH` at most) and saves it.

``go``, ``hint`` and ``analyze`` think in the session's worker thread, so ``ping`` is
answered while thinking: the search is stopped (it keeps its best move so far), its reply
is sent, then ``pong``. Every ``ping`` gets its ``pong`` with the argument as it came
(``pong 0`` without one). A command that changes the game, or asks for another search,
stops the one in progress the same way. Numbers are read in ASCII digits only; the
clock of a game (``TI`` and the move times of ``set game``) is cut to
``0..``:data:`~bitgames.core.protocol.MAX_SECONDS`.

>>> from bitgames.core.protocol import SessionHarness
>>> from bitgames.othello.search import Engine
>>> nboard = SessionHarness(NBoardSession, engine=Engine(level=1, evaluation="classic"))
>>> nboard.converse([("nboard 2", []), ("set depth 1", ["set myname bitgames1"]),
...                  ("ping 4", ["pong 4"])])
"""

from __future__ import annotations

import math
import time
from typing import Any, TextIO

from bitgames.core.engine import End, Info, Limit, Score, SearchResult, Unit
from bitgames.core.errors import BitgamesError, EngineError
from bitgames.core.protocol import (
    MAX_SECONDS,
    Client,
    Command,
    Session,
    Transport,
    parse_float,
    parse_int,
)
from bitgames.othello.board import BLACK, Board, Move
from bitgames.othello.ggf import GgfGame, game_to_ggf, parse_ggf, parse_move

NAME = "bitgames"
LEARN_DEPTH = 10  #: deepest search used when learning a game into the book


def _clock_from_ggf(game: GgfGame, color: bool) -> float | None:
    """Seconds left for ``color``: TI[mm:ss] minus its recorded move times, within
    ``0..MAX_SECONDS`` (None without a readable ``TI``; a move time that is no finite
    non-negative number counts as 0).

    >>> game = parse_ggf("(;GM[Othello]TI[5:00]B[f5/0/20.5]W[d6//1e999];)")
    >>> _clock_from_ggf(game, BLACK), _clock_from_ggf(game, not BLACK)
    (279.5, 300.0)
    """
    ti = game.properties.get("TI", "").split("/")[0].strip()
    if not ti:
        return None
    try:
        parts = [parse_float(x.strip(), "TI", lo=0.0) for x in ti.split(":")]
    except BitgamesError:
        return None
    total = 0.0
    for x in parts:
        total = min(total * 60 + x, MAX_SECONDS)
    used = 0.0
    board = game.start.copy(stack=False)
    for mv in game.moves:
        if board.turn == color and mv.time is not None and 0 <= mv.time <= MAX_SECONDS:
            used += mv.time
        board.push(mv.square)
    return min(max(total - used, 0.0), MAX_SECONDS)


def eval_text(score: Score | None) -> str:
    """An NBoard evaluation: discs for the side to move, the sign of a win/loss/draw
    solve.

    >>> eval_text(Score(1.5, Unit.DISCS)), eval_text(-Score.win(Unit.DISCS))
    ('1.50', '-1.00')
    """
    if score is None:
        return "0.00"
    if math.isinf(score.value):
        return f"{math.copysign(1.0, score.value):.2f}"
    return f"{score.value:.2f}"


def _pv_text(pv: list[Move]) -> str:
    return "".join("PA" if m.is_pass() else str(m).upper() for m in pv)


class NBoardSession(Session):
    """One protocol session: the current game, the engine (a
    :class:`~bitgames.othello.search.Engine`), the book."""

    protocol = "nboard"

    def __init__(self, engine: Any, out: TextIO | None = None, log: TextIO | None = None,
                 depth: int | None = None, book: Any = None, book_path: str | None = None,
                 use_book: bool = True) -> None:
        super().__init__(out, log)
        self.engine = engine
        self.book = book
        self.book_path = book_path
        self.use_book = use_book
        self.learning = False
        self.depth = depth or engine.depth
        self.contempt = 0
        self.version = 0
        self.game: GgfGame | None = None
        self.board = Board()

    # -- the dialect ---------------------------------------------------------------------------

    def parse(self, line: str) -> Command | None:
        """``set <what> <rest>`` keeps its rest whole (a GGF game has spaces)."""
        words = line.split()
        if not words:
            return None
        name = words[0].lower()
        if name == "set" and len(words) >= 2:
            rest = line.strip().split(None, 2)
            return Command(name, [words[1].lower(), rest[2] if len(rest) > 2 else ""],
                           line=line.rstrip("\r\n"))
        return Command(name, words[1:], line=line.rstrip("\r\n"))

    def error(self, command: Command, message: str) -> None:
        self.log(f"bad line {command.line!r}: {message}")

    def unknown(self, command: Command) -> None:
        self.log(f"unknown command ignored: {command.line!r}")

    def halt(self) -> None:
        if not self.learning:  # learning runs to its end: a book never gets half a game
            self.engine.stop()

    def think_failed(self, exc: Exception) -> None:
        self.send("status error")

    # -- commands ------------------------------------------------------------------------------

    def cmd_ping(self, args: list[str]) -> str:
        self.stop_thinking()
        return f"pong {args[0] if args else 0}"

    def cmd_nboard(self, args: list[str]) -> None:
        self.version = parse_int(args[0], "protocol version") if args else 1
        if self.version != 2:
            self.log(f"protocol version {self.version}; speaking version 2")

    def cmd_set(self, args: list[str]) -> str | None:
        what, rest = args
        words = rest.split()
        if what == "depth":
            if not words:
                raise BitgamesError("set depth needs a number")
            depth = parse_int(words[0], "depth", lo=1)
            self.stop_thinking()
            self.depth = min(depth, 60)
            self.engine.level = max(1, min(depth, self.engine.MAX_LEVEL))
            return f"set myname {NAME}{self.depth}"
        if what == "game":
            game = parse_ggf(rest)
            self.stop_thinking()
            self.game = game
            self.board = game.board.copy()
        elif what == "contempt":
            if not words:
                raise BitgamesError("set contempt needs a number")
            self.contempt = parse_int(words[0], "contempt", lo=-6400, hi=6400)
        else:
            self.log(f"unknown setting ignored: {what!r}")
        return None

    def cmd_move(self, args: list[str]) -> None:
        if not args:
            raise BitgamesError("move needs a move")
        mv = parse_move(args[0])
        self.stop_thinking()
        board = self.board.copy()
        if mv.square != "pass" and board.must_pass():
            board.push("pass")
        board.push(mv.square)
        self.board = board
        if self.game is not None:
            self.game.moves.append(mv)
            self.game.board = board.copy()

    def cmd_go(self, args: list[str]) -> None:
        self.stop_thinking()
        self.think(self._go)

    def cmd_hint(self, args: list[str]) -> None:
        n = min(max(parse_int(args[0], "hint") if args else 1, 1), 64)
        self.stop_thinking()
        self.think(lambda: self._hint(n))

    def cmd_learn(self, args: list[str]) -> None:
        self.wait()  # let a running search or analysis finish first
        self.learning = True
        self.think(self._learn)

    def cmd_analyze(self, args: list[str]) -> None:
        self.stop_thinking()
        self.think(self._analyze)

    # -- thinking ------------------------------------------------------------------------------

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
        board = self._begin("=== PA")
        if board is None:
            return
        if self.book is not None and self.use_book:
            known = self.book.choose(board, contempt=self.contempt)
            if known is not None:
                self.send(f"=== {known[0].upper()}/{known[1] / 100:.2f}/0.00")
                self.send(f"status {NAME} is waiting")
                return
        left = _clock_from_ggf(self.game, board.turn) if self.game is not None else None
        start = time.perf_counter()
        result = self.engine.search(board, Limit(depth=self.depth, remaining=left),
                                    on_info=self._search_line)
        elapsed = time.perf_counter() - start
        self.send(f"nodestats {result.nodes} {elapsed:.2f}")
        self.send(f"=== {_pv_text([result.move])}/{eval_text(result.score)}/{elapsed:.2f}")
        self.send(f"status {NAME} is waiting")

    def _search_line(self, info: Info) -> None:
        from bitgames.othello.search import depth_text

        self.send(f"search {_pv_text(info.pv)} {eval_text(info.score)} 0 {depth_text(info)}")

    def _hint(self, n: int) -> None:
        from bitgames.othello.search import depth_text

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
        limit = Limit(depth=self.depth)
        if n <= 1:
            result = self.engine.search(board, limit, on_info=self._search_line)
        else:
            result = self.engine.search(board, limit, multi=n)
            for move, score in result.multipv[:n]:
                depth = depth_text(Info(depth=result.depth, score=score))
                self.send(f"search {_pv_text([move])} {eval_text(score)} 0 {depth}")
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
            self.log(f"learned {added} new positions ({len(self.book)} in the book)")
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
        limit = Limit(depth=min(self.depth, 8))
        for i in range(len(boards) - 1, -1, -1):
            bd = boards[i]
            if bd.is_game_over():
                score = bd.score() * (1 if bd.turn == BLACK else -1)
                self.send(f"analysis {i} {score:.2f}")
                continue
            if bd.must_pass():
                continue
            r = self.engine.search(bd, limit)
            if r.ended is End.STOPPED:
                break
            self.send(f"analysis {i} {eval_text(r.score)}")
        self.send(f"status {NAME} is waiting")


# -- the other direction: driving an outside NBoard engine --------------------------------------


class NBoardClient(Client):
    """An outside NBoard engine as a :class:`~bitgames.core.engine.Player`.

    ``play(board, limit)`` sends the game so far (``set game`` with the board's history
    as GGF, the clock ``limit.remaining`` as its ``TI``), ``set depth`` when
    ``limit.depth`` changes it, synchronises with ``ping``/``pong``, then ``go``, and
    reads the ``search`` and ``nodestats`` lines up to the ``=== move/eval/time`` reply.
    ``depth`` is sent at once (``set depth``, which most engines answer with their name);
    ``None`` leaves the engine at the depth it was started with (its command line) until
    a ``limit.depth`` asks for another.

    >>> from bitgames.core.protocol import MockTransport
    >>> mock = MockTransport()
    >>> mock.expect("nboard 2"); mock.expect("set depth 4", ["set myname Mock4"])
    >>> mock.expect("ping 1", ["pong 1"])
    >>> client = NBoardClient(mock, depth=4)
    >>> client.name
    'Mock4'
    """

    def __init__(self, transport: Transport, depth: int | None = None,
                 timeout: float = 60.0) -> None:
        super().__init__(transport, timeout)
        self.depth = depth
        self._ping = 0
        self.send("nboard 2")
        if depth is not None:
            self.send(f"set depth {depth}")
        for line in self.sync():
            if line.startswith("set myname "):
                self.name = line.split(None, 2)[2].strip()

    def sync(self) -> list[str]:
        """``ping n``, then the lines read until ``pong n`` (included)."""
        self._ping += 1
        pong = f"pong {self._ping}"
        self.send(f"ping {self._ping}")
        return self.read_until(lambda line: line.strip() == pong)

    def new_game(self) -> None:
        """Nothing to reset: every ``play`` sends the whole game."""

    def play(self, board: Board, limit: Limit) -> SearchResult:
        game = game_to_ggf(board, clock=limit.remaining)
        if limit.depth is not None and limit.depth != self.depth:
            self.depth = limit.depth
            self.send(f"set depth {limit.depth}")
        self.send(f"set game {game}")
        self.sync()
        begun = time.perf_counter()
        self.send("go")
        wait = self.timeout
        for seconds in (limit.time, limit.remaining):
            if seconds is not None:
                wait = min(wait, seconds + 5.0)
        lines = self.read_until(lambda line: line.startswith("==="), timeout=wait)
        return self._result(board, lines, time.perf_counter() - begun)

    def _result(self, board: Board, lines: list[str], elapsed: float) -> SearchResult:
        fields = lines[-1][3:].strip().split("/")
        try:
            move = Move.from_str(fields[0])
            score = (Score(float(fields[1]), Unit.DISCS)
                     if len(fields) > 1 and fields[1].strip() else None)
        except ValueError as exc:
            raise EngineError(f"engine {self.name!r} sent a bad move line {lines[-1]!r}"
                              ) from exc
        pv, depth, nodes = [move], 0, 0
        for line in lines[:-1]:
            words = line.split()
            if words[:1] == ["search"] and len(words) >= 5:
                pv, depth = self._search_pv(words[1]) or pv, self._depth(words[4], board)
            elif words[:1] == ["nodestats"] and len(words) >= 2 and words[1].isdigit():
                nodes = int(words[1])
        if pv[0] != move:
            pv = [move]
        return SearchResult(move, score, pv, depth, nodes, elapsed)

    @staticmethod
    def _search_pv(text: str) -> list[Move]:
        try:
            return [Move.from_str(text[i:i + 2]) for i in range(0, len(text) - 1, 2)]
        except ValueError:
            return []

    @staticmethod
    def _depth(text: str, board: Board) -> int:
        digits = "".join(c for c in text if c.isdigit())
        if text.startswith("100%"):
            return board.empties()
        return int(digits) if digits else 0
