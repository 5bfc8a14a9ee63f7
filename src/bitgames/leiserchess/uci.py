"""The 6.172 UCI dialect (``doc/engine-interface.txt`` of the 2016 handout), both ways.

:class:`UciSession` is our engine's side, a dialect of :class:`bitgames.core.protocol.Session`.
Commands: ``uci``, ``isready`` (answered at once, also while searching), ``setoption name
<id> value <x>`` (the evaluation options, and ``Threads``: search threads),
``ucinewgame``, ``position startpos|fen <board> <W|B>|endgame [moves ...]``, ``go
[depth N] [nodes N] [movetime MS] [time MS] [inc MS] [wtime MS] [btime MS] [winc MS]
[binc MS] [movestogo M] [infinite]``, ``stop``, ``quit``; extras ``display``
and ``perft N`` answer with ``info string`` lines.

Only protocol lines go to stdout, each flushed; logs go to stderr. A bad line never stops
the engine: it gets an ``info string`` saying what is wrong and the state is unchanged;
an illegal move in ``position`` is reported as ``info string Move <m> is illegal`` and the
position falls back to the base position, as the reference engine does. Unknown commands
are ignored (logged on stderr). Every ``go`` is answered ``bestmove``: a ``go`` option
with a bad value (not ASCII digits, a count out of range) is reported in an
``info string`` and left out, and times are cut to ``0..``
:data:`~bitgames.core.protocol.MAX_SECONDS`. A clock (``time``/``inc``) is turned into a
time budget by the engine's time manager (:class:`bitgames.core.engine.TimeManager`).

:class:`UciClient` is the other direction: it drives an outside engine speaking this
dialect (the course's reference player, or ``bitgames leiserchess uci``) as a
:class:`~bitgames.core.engine.Player`.

>>> import io
>>> out = io.StringIO()
>>> _ = run_uci(io.StringIO("uci\\nposition startpos moves h4g5 zz\\nisready\\nquit\\n"), out)
>>> lines = out.getvalue().splitlines()
>>> lines[0], lines[-2:]
('id name bitgames-leiserchess', ['info string Move zz is illegal', 'readyok'])
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from bitgames.core.engine import MAX_THREADS, End, Info, Limit, Score, SearchResult, Unit
from bitgames.core.errors import BitgamesError, EngineError
from bitgames.core.protocol import (
    MAX_NODES,
    Client,
    Command,
    PositionCache,
    Session,
    Transport,
    parse_int,
    parse_seconds,
)
from bitgames.leiserchess.board import Board, Move
from bitgames.leiserchess.notation import START_FEN

ENDGAME_FEN = "ss7/8/8/8/8/8/8/7NN W"
#: the moves in the clock that stands for a fixed time per move (:func:`go_command`)
_MOVES_IN_CLOCK = 50

#: ``go`` options that take a count, with the least and the largest value each accepts
_GO_COUNTS = {"depth": (1, 99), "nodes": (1, MAX_NODES), "movestogo": (1, 10_000)}
#: ``go`` options that take milliseconds
_GO_TIMES = ("movetime", "time", "inc", "wtime", "btime", "winc", "binc")


def _go_limit(args: list[str], board: Board) -> tuple[Limit, list[str]]:
    """The :class:`Limit` of a ``go`` command's arguments (times in milliseconds; ``time``
    and ``inc`` are the side to move's clock, as are ``wtime``/``winc`` for Tangerine and
    ``btime``/``binc`` for Lavender), and what was wrong with the options left out.

    >>> _go_limit("time 60000 inc 500 depth 9".split(), Board())
    (Limit(depth=9, nodes=None, time=None, remaining=60.0, increment=0.5, \
moves_to_go=None, infinite=False), [])
    >>> _go_limit("depth 0 movetime 1e999".split(), Board())[1]
    ['go depth must be at least 1, got 0', "go movetime must be a finite number, got '1e999'"]
    """
    counts: dict[str, int] = {}
    times: dict[str, float] = {}
    problems: list[str] = []
    infinite = False
    i = 0
    while i < len(args):
        key = args[i].lower()
        if key == "infinite":
            infinite = True
        elif (key in _GO_COUNTS or key in _GO_TIMES) and i + 1 < len(args):
            try:
                if key in _GO_COUNTS:
                    lo, hi = _GO_COUNTS[key]
                    counts[key] = parse_int(args[i + 1], f"go {key}", lo=lo, hi=hi)
                else:
                    times[key] = parse_seconds(args[i + 1], f"go {key}", 0.001)
            except BitgamesError as exc:
                problems.append(str(exc))
            i += 1
        i += 1
    side_time, side_inc = ("wtime", "winc") if board.turn else ("btime", "binc")
    remaining = times.get("time", times.get(side_time))
    limit = Limit(
        depth=counts.get("depth"),
        nodes=counts.get("nodes"),
        time=times.get("movetime"),
        remaining=remaining,
        increment=times.get("inc", times.get(side_inc, 0.0)),
        moves_to_go=counts.get("movestogo"),
        infinite=infinite,
    )
    return limit, problems


def info_line(info: Info) -> str:
    """The ``info depth ...`` line of an iteration (score in centipawns, as the course's
    tools read it; a forced King zap is +-(32000 - plies)).

    >>> from bitgames.core.engine import Unit
    >>> info_line(Info(3, 5, Score(0.5, Unit.PAWNS), 1000, 0.01, [Move.from_str("h4g5")]))
    'info depth 3 seldepth 5 score cp 50 nodes 1000 nps 100000 time 10 pv h4g5'
    """
    from bitgames.leiserchess.search import to_centipawns

    ms = max(int(info.time * 1000), 1)
    cp = 0 if info.score is None else to_centipawns(info.score)
    return (f"info depth {info.depth} seldepth {info.seldepth or 0} score cp {cp} "
            f"nodes {info.nodes} nps {info.nodes * 1000 // ms} time {ms} pv "
            + " ".join(str(m) for m in info.pv))


class _IllegalMove(Exception):
    """A ``position`` move that is not legal (its text is the message)."""


def _play(board: Board, text: str) -> None:
    try:
        board.push(text)
    except ValueError:
        raise _IllegalMove(text) from None


class UciSession(Session):
    """Our engine in the 6.172 UCI dialect (see the module docstring).

    ``engine`` defaults to a :class:`~bitgames.leiserchess.search.Engine` that probes the
    closebook when one was built.
    """

    protocol = "uci"

    def __init__(self, out: TextIO | None = None, log: TextIO | None = None,
                 engine: Any = None) -> None:
        super().__init__(out, log)
        if engine is None:
            from bitgames.leiserchess.search import Engine

            engine = Engine(closebook=self._load_closebook())
        self.engine = engine
        #: the search threads the session started with (the Threads option's default)
        self.default_threads = engine.threads
        self.board = Board(draw_rule="none")
        self._positions = PositionCache[Board]()
        self._thinking_board = self.board
        self._infinite = False

    def _load_closebook(self) -> Any:
        from bitgames.leiserchess import closebook

        path = closebook.default_path()
        if not path.exists():
            return None
        try:
            book = closebook.Closebook.load(path)
        except (ValueError, OSError) as exc:
            self.log(f"closebook not loaded: {exc}")
            return None
        self.log(f"closebook loaded from {path}")
        return book

    # -- the dialect ------------------------------------------------------------------------

    def parse(self, line: str) -> Command | None:
        parts = line.split()
        if not parts:
            return None
        return Command(parts[0].lower(), parts[1:], line=line.rstrip("\r\n"))

    def error(self, command: Command, message: str) -> None:
        self.send(f"info string {message}")

    def unknown(self, command: Command) -> None:
        self.log(f"unknown command ignored: {command.line.strip()}")

    def halt(self) -> None:
        self.engine.stop()

    def finish(self) -> None:
        """End of input: let a limited search finish, stop an infinite one."""
        if self._infinite:
            self.stop_thinking()
        self.wait()

    # -- commands ---------------------------------------------------------------------------

    def cmd_uci(self, args: list[str]) -> str:
        from bitgames.leiserchess.eval import OPTIONS

        lines = ["id name bitgames-leiserchess", "id author bitgames"]
        for name, (slot, default, lo, hi) in OPTIONS.items():
            value = int(self.engine.params[slot])
            lines.append(f"option name {name} type spin value {value} default {default} "
                         f"min {lo} max {hi}")
        lines.append(f"option name Threads type spin value {self.engine.threads} "
                     f"default {self.default_threads} min 1 max {MAX_THREADS}")
        return "\n".join([*lines, "uciok"])

    def cmd_isready(self, args: list[str]) -> str:
        return "readyok"

    def cmd_ucinewgame(self, args: list[str]) -> None:
        self.stop_thinking()
        self.engine.new_game()

    def cmd_setoption(self, args: list[str]) -> None:
        from bitgames.leiserchess.eval import OPTIONS

        low = [a.lower() for a in args]
        if "name" not in low or "value" not in low:
            raise BitgamesError("setoption needs 'name <id> value <x>'")
        name = " ".join(args[low.index("name") + 1 : low.index("value")]).lower()
        raw = " ".join(args[low.index("value") + 1 :])
        if name == "threads":
            self.engine.threads = parse_int(raw, "option Threads", lo=1, hi=MAX_THREADS)
            return
        if name not in OPTIONS:
            raise BitgamesError(f"unknown option {name}")
        slot, _default, lo, hi = OPTIONS[name]
        self.engine.params[slot] = parse_int(raw, f"option {name}", lo=lo, hi=hi)

    def cmd_position(self, args: list[str]) -> None:
        if not args:
            raise BitgamesError("position needs startpos, fen or endgame")
        if args[0] == "startpos":
            fen, rest = START_FEN, args[1:]
        elif args[0] == "endgame":
            fen, rest = ENDGAME_FEN, args[1:]
        elif args[0] == "fen":
            if len(args) < 3:
                raise BitgamesError("position fen needs '<board> <W|B>'")
            fen, rest = " ".join(args[1:3]), args[3:]
        else:
            raise BitgamesError(f"unknown position type {args[0]}")
        moves = rest[1:] if rest and rest[0].lower() == "moves" else rest
        self.stop_thinking()

        def first() -> Board:
            return Board(fen, draw_rule="none")

        try:
            self.board = self._positions.board(fen, moves, first, _play)
        except _IllegalMove as exc:
            self.send(f"info string Move {exc} is illegal")
            self.board = first()

    def cmd_go(self, args: list[str]) -> None:
        limit, problems = _go_limit(args, self.board)
        for problem in problems:
            self.send(f"info string {problem} (left out)")
        self.stop_thinking()
        if not self.board.legal_moves:
            self.send("info string no legal moves: game over " + self.board.result())
            self.send("bestmove (none)")
            return
        board = self.board.copy()
        self._infinite = limit.infinite and limit.depth is None and limit.nodes is None
        self._thinking_board = board

        def run() -> None:
            def on_info(info: Info) -> None:
                self.send(info_line(info))

            res = self.engine.search(board, limit, on_info=on_info)
            self.send(f"bestmove {res.move}")

        self.think(run)

    def think_failed(self, exc: Exception) -> None:
        self.send(f"info string search failed: {exc}")
        moves = list(self._thinking_board.legal_moves)
        self.send(f"bestmove {moves[0] if moves else '(none)'}")

    def cmd_stop(self, args: list[str]) -> None:
        self.stop_thinking()

    def cmd_display(self, args: list[str]) -> str:
        return "\n".join("info string " + row for row in str(self.board).splitlines())

    def cmd_perft(self, args: list[str]) -> str:
        from bitgames.leiserchess.perft import perft_board

        depth = parse_int(args[0], "perft depth", lo=1, hi=6) if args else 4
        return f"info string perft {depth} {perft_board(self.board, depth)['total']}"


def run_uci(inp: TextIO | None = None, out: TextIO | None = None,
            err: TextIO | None = None, threads: int = 1) -> int:
    """Run the protocol loop until ``quit`` or end of input, the engine on ``threads``
    search threads (until ``setoption name Threads``); return the exit status."""
    from bitgames.core import jit

    jit.ensure_warm("leiserchess", "rules", "engine", load=True)
    session = UciSession(out or sys.stdout, err or sys.stderr)
    session.engine.threads = session.default_threads = threads
    session.serve(inp)
    return 0


# -- the other direction: driving an outside engine ----------------------------------------------


def position_command(board: Board) -> str:
    """The ``position`` line of ``board``: its first position and the moves since.

    >>> b = Board(); b.push("h4g5"); position_command(b)
    'position startpos moves h4g5'
    >>> position_command(Board(ENDGAME_FEN))
    'position fen ss7/8/8/8/8/8/8/7NN W'
    """
    root = board.copy()
    while root.move_stack:
        root.pop()
    fen = root.fen()
    head = "position startpos" if fen == START_FEN else f"position fen {fen}"
    moves = " ".join(str(m) for m in board.move_stack)
    return f"{head} moves {moves}" if moves else head


def go_command(limit: Limit) -> str:
    """The ``go`` line of a :class:`Limit` (times in milliseconds; the clock as ``time``
    and ``inc``, the dialect's names for the side to move's clock).

    The course's engines know no ``movetime``: they read only ``depth``, ``time`` and
    ``inc``, and spend 2 % of the remaining time on a move. A fixed time per move is
    therefore sent twice: as ``movetime`` for engines that know it (ours), and as the
    clock of 50 such moves (``time`` 50 times as long, ``movestogo 50``), from which the
    course's rule aims at the same time per move.

    >>> go_command(Limit(depth=6)), go_command(Limit(remaining=30, increment=0.5))
    ('go depth 6', 'go time 30000 inc 500')
    >>> go_command(Limit(time=0.1))
    'go movetime 100 time 5000 inc 0 movestogo 50'
    """
    parts = ["go"]
    if limit.depth is not None:
        parts += ["depth", str(limit.depth)]
    if limit.nodes is not None:
        parts += ["nodes", str(limit.nodes)]
    if limit.time is not None:
        parts += ["movetime", str(round(limit.time * 1000))]
        if limit.remaining is None:
            parts += ["time", str(round(limit.time * _MOVES_IN_CLOCK * 1000)), "inc", "0",
                      "movestogo", str(_MOVES_IN_CLOCK)]
    if limit.remaining is not None:
        parts += ["time", str(round(limit.remaining * 1000)),
                  "inc", str(round(limit.increment * 1000))]
        if limit.moves_to_go is not None:
            parts += ["movestogo", str(limit.moves_to_go)]
    if limit.infinite:
        parts.append("infinite")
    return " ".join(parts)


def parse_info(line: str, board: Board) -> Info:
    """An :class:`Info` from an ``info depth ...`` line (the PV kept up to its first move
    that is not legal from ``board``). The course's engines write their time as ``time
    (microsec) T``, in microseconds.

    >>> parse_info("info depth 2 score cp -35 nodes 900 time 12 pv h4g5 c5R", Board())
    Info(depth=2, seldepth=None, score=Score(-0.35, Unit.PAWNS), nodes=900, time=0.012, \
pv=[Move.from_str('h4g5'), Move.from_str('c5R')], probability=None)
    >>> parse_info("info depth 7 move_no 3 time (microsec) 2500 nodes 88 nps 35200", Board())
    Info(depth=7, seldepth=None, score=None, nodes=88, time=0.0025, pv=[], probability=None)
    """
    from bitgames.leiserchess.search import to_score

    words = line.split()
    info = Info()
    i = 1
    while i < len(words) - 1:
        key, value = words[i], words[i + 1]
        try:
            if key == "depth":
                info.depth = int(value)
            elif key == "seldepth":
                info.seldepth = int(value)
            elif key == "nodes":
                info.nodes = int(value)
            elif key == "time" and value == "(microsec)" and i + 2 < len(words):
                info.time = int(words[i + 2]) / 1_000_000
                i += 1
            elif key == "time":
                info.time = int(value) / 1000
            elif key == "score" and i + 2 < len(words):
                info.score = _score(value, int(words[i + 2]), to_score)
                i += 1
            elif key == "pv":
                info.pv = _legal_prefix(words[i + 1 :], board)
                break
        except ValueError:
            raise EngineError(f"bad info line from the engine: {line!r}") from None
        i += 2
    return info


def merge_infos(infos: list[Info]) -> Info:
    """One :class:`Info` of a search's ``info`` lines: each field from the last line that
    has it (the course's engines write depth and nodes on one line, score and PV on the
    next).

    >>> merge_infos([Info(depth=5, nodes=900), Info(score=Score(0.2, Unit.PAWNS))])
    Info(depth=5, seldepth=None, score=Score(0.2, Unit.PAWNS), nodes=900, time=0.0, pv=[], \
probability=None)
    """
    merged = Info()
    for info in infos:
        merged.depth = info.depth or merged.depth
        merged.seldepth = info.seldepth if info.seldepth is not None else merged.seldepth
        merged.score = info.score if info.score is not None else merged.score
        merged.nodes = info.nodes or merged.nodes
        merged.time = info.time or merged.time
        merged.pv = info.pv or merged.pv
    return merged


def _score(kind: str, value: int, to_score: Any) -> Score | None:
    if kind == "cp":
        return to_score(value)
    if kind == "mate":  # in moves: a win in 2n - 1 plies, a loss in 2n
        win = Score.win_in(2 * value - 1 if value > 0 else -2 * value, Unit.PAWNS)
        return win if value > 0 else -win
    return None


def _legal_prefix(texts: list[str], board: Board) -> list[Move]:
    b = board.copy()
    pv = []
    for text in texts:
        try:
            b.push(text)
        except ValueError:
            break
        pv.append(b.peek())
    return pv


class UciClient(Client):
    """An outside engine speaking the 6.172 UCI dialect, as a
    :class:`~bitgames.core.engine.Player`.

    The handshake (``uci`` ... ``uciok``, ``setoption`` of each of ``options``,
    ``isready``) runs at construction; ``name`` is the engine's ``id name``.
    :meth:`play` sends the board's first position and moves and a ``go`` of the limit,
    and returns the engine's ``bestmove`` with its last ``info`` line. A move that is not
    legal, a crash or no answer in time raises :class:`~bitgames.core.errors.EngineError`.
    """

    def __init__(self, transport: Transport, timeout: float = 30.0,
                 options: dict[str, int] | None = None) -> None:
        super().__init__(transport, timeout)
        self.send("uci")
        for line in self.read_until(lambda line: line.strip() == "uciok"):
            if line.startswith("id name "):
                self.name = line[len("id name "):].strip()
        for name, value in (options or {}).items():
            self.send(f"setoption name {name} value {value}")
        self.ready()

    def ready(self) -> None:
        """``isready``, and wait for ``readyok``."""
        self.send("isready")
        self.read_until(lambda line: line.strip() == "readyok")

    def new_game(self) -> None:
        self.send("ucinewgame")
        self.ready()

    def play(self, board: Board, limit: Limit) -> SearchResult:
        if not board.legal_moves:
            raise BitgamesError(f"no legal moves in {board.fen()} ({board.result()})")
        self.send(position_command(board))
        self.send(go_command(limit))
        wait = self.timeout
        if limit.time is not None:
            wait += limit.time
        elif limit.remaining is not None:
            wait += limit.remaining
        lines = self.read_until(lambda line: line.startswith("bestmove"), timeout=wait)
        infos = [parse_info(x, board) for x in lines if x.startswith("info ")
                 and not x.startswith("info string")]
        last = merge_infos(infos)
        text = lines[-1].split()[1] if len(lines[-1].split()) > 1 else ""
        try:
            move = Move.from_str(text)
        except ValueError:
            raise EngineError(f"engine {self.name!r} sent a bad move: {lines[-1]!r}") from None
        if not board.is_legal(move):
            raise EngineError(
                f"engine {self.name!r} played the illegal move {text} in {board.fen()}")
        return SearchResult(move, last.score, last.pv or [move], last.depth, last.nodes,
                            last.time, End.COMPLETED, last.seldepth)
