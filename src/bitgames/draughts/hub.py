"""The Hub protocol, version 2 (Scan 3.x), for ``bitgames draughts hub``.

Line-based, UCI-like: ``<command> <arg>=<val> ...`` with double quotes around values holding
spaces. The engine declares ``param name=variant ... values="russian english"``; positions
are ``pos pos=<W|B><32 squares in standard order 1 = b8 ... 32 = g1, 'w' 'b' 'W' 'B' 'e'>``
with optional ``moves="..."``; moves are ``32-28`` or ``from x to x captured ...``.
``set-param name=dialect value=pydraughts`` reads and writes what pydraughts' Hub client
sends (see :class:`Numbering`).
A search runs in a worker thread so ``ping`` (answered ``pong``) and ``stop`` are handled
while it runs; it always ends with ``done move=... [ponder=...]``. Any other command stops
the search in progress first (its ``done`` comes before the command's answer), so no
command waits on a long search. Only protocol lines go to stdout (each flushed); unknown
commands are ignored; a bad line gets ``error message=...``, changes nothing and the
engine keeps running; end of input quits. Numbers are ASCII digits (``value=²`` is
refused); levels are checked when given (``depth`` 1 to 99, ``nodes`` 1 to
:data:`~bitgames.core.protocol.MAX_NODES`, times finite,
cut to ``0..``:data:`~bitgames.core.protocol.MAX_SECONDS`).

>>> from bitgames.core.protocol import SessionHarness
>>> hub = SessionHarness(HubSession)
>>> for line in ["hub", "init", "ping", "quit"]:
...     hub.send(line)
>>> while True:
...     line = hub.next_line(); print(line)
...     if line == "pong": break
id name=bitgames-draughts version=0.1.0 author="bitgames authors" country=none
param name=variant value=russian type=enum values="russian english"
param name=tt-bits value=20 type=int min=10 max=26
param name=threads value=1 type=int min=1 max=1024
param name=dialect value=standard type=enum values="standard pydraughts"
param name=egdb value="" type=string
wait
ready
pong
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from bitgames import __version__
from bitgames.core.engine import MAX_THREADS, Info, Limit, Score, SearchResult, Unit
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
from bitgames.draughts import geometry as g
from bitgames.draughts.board import VARIANTS, Board, Move
from bitgames.draughts.egdb import Tables
from bitgames.draughts.search import TB_WIN, WIN, Engine

SQUARE_CHARS = {"w": (True, False), "b": (False, False), "W": (True, True),
                "B": (False, True)}


def parse_line(line: str) -> tuple[str, dict[str, str]]:
    """Split a Hub line into its command and ``{arg: value}`` (flags get ``""``)."""
    tokens = shlex.split(line, posix=True)
    if not tokens:
        return "", {}
    args: dict[str, str] = {}
    for tok in tokens[1:]:
        key, _, value = tok.partition("=")
        args[key] = value
    return tokens[0], args


def quote(value: str) -> str:
    """Quote a value if it holds a space, ``=`` or a quote, or is empty."""
    if value == "" or any(c in value for c in ' ="'):
        return '"' + value.replace('"', "'") + '"'
    return value


def _russian_a1_number(index: int) -> int:
    """pydraughts' Russian square numbers: a1 = 1, c1 = 2, ..., h8 = 32 (row by row)."""
    f, r = g.COORDS[index]
    return r * 4 + f // 2 + 1


class Numbering:
    """How a Hub dialect numbers squares and names colours.

    ``standard`` (Scan, Hub GUI): squares 1 = b8 ... 32 = g1 in positions and moves.
    ``pydraughts`` (its ``HubEngine`` client, 0.6.x): position character ``n`` is the square
    its move numbers call ``33 - n``; move numbers are a1 = 1 ... h8 = 32 for Russian and the
    standard ones for English; for English the colour letters and the side are swapped
    (the side that moves first is written ``W``).
    """

    def __init__(self, dialect: str, variant: str) -> None:
        if dialect not in ("standard", "pydraughts"):
            raise BitgamesError(f"unknown dialect {dialect!r}; use standard or pydraughts")
        self.dialect, self.variant = dialect, variant
        if dialect == "pydraughts" and variant == "russian":
            move_num = {i: _russian_a1_number(i) for i in range(32)}
        else:
            move_num = {i: g.numeric_square(i) for i in range(32)}
        self.move_number = move_num
        self.move_square = {n: i for i, n in move_num.items()}
        if dialect == "pydraughts":
            self.pos_square = {n: self.move_square[33 - n] for n in range(1, 33)}
        else:
            self.pos_square = {n: g.from_numeric(n) for n in range(1, 33)}
        self.swap = dialect == "pydraughts" and variant == "english"

    def board(self, pos: str) -> Board:
        """A :class:`Board` from a 33-character Hub position."""
        pos = pos.strip()
        if len(pos) != 33 or pos[0] not in "WB":
            raise BitgamesError(
                f"hub position {pos!r}: expected W or B and 32 squares (w b W B e)")
        white: list[str] = []
        black: list[str] = []
        for n, ch in enumerate(pos[1:], start=1):
            if ch == "e":
                continue
            if ch not in SQUARE_CHARS:
                raise BitgamesError(f"hub position: bad character {ch!r} on square {n}")
            is_white, is_king = SQUARE_CHARS[ch]
            if self.swap:
                is_white = not is_white
            name = str(g.numeric_square(self.pos_square[n]))
            (white if is_white else black).append(("K" if is_king else "") + name)
        side = pos[0] if not self.swap else ("B" if pos[0] == "W" else "W")
        return Board(f"{side}:W{','.join(white)}:B{','.join(black)}", variant=self.variant)

    def position(self, board: Board) -> str:
        """The 33-character Hub position of ``board``."""
        white_to_move = board.turn != self.swap
        chars = ["W" if white_to_move else "B"]
        for n in range(1, 33):
            piece = board.piece_at(self.pos_square[n]) or "e"
            if self.swap:
                piece = {"w": "b", "b": "w", "W": "B", "B": "W", "e": "e"}[piece]
            chars.append(piece)
        return "".join(chars)

    def move_name(self, move: Move) -> str:
        """``32-28`` or ``from x to x captured ...`` in this numbering."""
        num = self.move_number
        if not move.is_capture:
            return f"{num[move.start]}-{num[move.end]}"
        caps = sorted(num[i] for i in range(32) if move.captured >> i & 1)
        return "x".join(str(x) for x in [num[move.start], num[move.end], *caps])

    def parse_move(self, board: Board, text: str) -> Move:
        """The legal move of ``board`` written ``text`` in this numbering."""
        try:
            nums = [int(t) for t in text.replace("x", "-").split("-")]
            squares = [self.move_square[n] for n in nums]
        except (ValueError, KeyError):
            raise BitgamesError(f"cannot read hub move {text!r}") from None
        if len(squares) < 2:
            raise BitgamesError(f"cannot read hub move {text!r}")
        caps = sum(1 << s for s in squares[2:])
        for m in board.legal_moves:
            if m.start == squares[0] and m.end == squares[1] and (
                    m.captured == caps or (len(squares) == 2 and not m.is_capture)):
                return m
        if len(squares) == 2:  # a capture given by start and end only
            cands = [m for m in board.legal_moves
                     if m.start == squares[0] and m.end == squares[1]]
            if len(cands) == 1:
                return cands[0]
        raise BitgamesError(f"illegal hub move {text!r} in {board.fen()}")


def board_from_hub(pos: str, variant: str) -> Board:
    """A :class:`Board` from a standard 33-character Hub position."""
    return Numbering("standard", variant).board(pos)


def board_to_hub(board: Board) -> str:
    """The standard 33-character Hub position of ``board``."""
    return Numbering("standard", board.variant).position(board)


def hub_score(score: Score | None) -> str:
    """A score as Hub ``info`` lines give it: men, two decimals; a forced win in N plies is
    ``300.00 - N/100`` (Scan's convention: a mate is far above any material score), a win
    the endgame tables prove (no distance) ``200.00``.

    >>> hub_score(Score(1.25, Unit.MEN)), hub_score(Score.win_in(7, Unit.MEN))
    ('1.25', '299.93')
    >>> hub_score(-Score.win(Unit.MEN))
    '-200.00'
    """
    if score is None:
        return "0.00"
    if score.plies is not None:
        return f"{math.copysign((WIN - score.plies) / 100, score.value):.2f}"
    if math.isinf(score.value):
        return f"{math.copysign(TB_WIN / 100, score.value):.2f}"
    return f"{score.value:.2f}"


def hub_limit(args: dict[str, str]) -> Limit:
    """The :class:`~bitgames.core.engine.Limit` of a ``level`` command's arguments;
    :class:`~bitgames.core.errors.ProtocolError` for a value out of range.

    >>> hub_limit({"depth": "6"}), hub_limit({"move-time": "1e30"}).time
    (Limit(depth=6, nodes=None, time=None, remaining=None, increment=0.0, \
moves_to_go=None, infinite=False), 1000000.0)
    >>> hub_limit({"depth": "0"})
    Traceback (most recent call last):
    ...
    bitgames.core.errors.ProtocolError: level depth must be at least 1, got 0
    """
    if "depth" in args:
        return Limit(depth=parse_int(args["depth"], "level depth", lo=1, hi=99))
    if "nodes" in args:
        return Limit(nodes=parse_int(args["nodes"], "level nodes", lo=1, hi=MAX_NODES))
    if "move-time" in args:
        return Limit(time=parse_seconds(args["move-time"], "level move-time"))
    if "infinite" in args:
        return Limit(infinite=True)
    if "time" in args:
        moves = parse_int(args.get("moves", "0"), "level moves", lo=0, hi=10_000)
        return Limit(remaining=parse_seconds(args["time"], "level time"),
                     increment=parse_seconds(args.get("inc", "0"), "level inc"),
                     moves_to_go=moves or None)
    raise BitgamesError(f"level needs depth, nodes, move-time, time or infinite: {args}")


class HubSession(Session):
    """The Hub dialect of :class:`~bitgames.core.protocol.Session` (``bitgames draughts
    hub``): ``<command> <arg>=<val> ...`` lines; a bad line gets ``error message=...``;
    unknown commands are ignored (logged on stderr).

    ``ping``, ``stop``, ``ponder-hit`` and ``quit`` are handled while a search runs; any
    other command waits for it to end first. At the end of input a search in progress
    finishes (an infinite one is stopped).
    """

    protocol = "hub"

    def __init__(self, out: TextIO | None = None, log: TextIO | None = None,
                 egdb: str | None = None, threads: int = 1) -> None:
        super().__init__(out, log)
        self.variant = "russian"
        self.dialect = "standard"
        self.table_bits = 20
        #: search threads (``set-param name=threads``; see :mod:`bitgames.core.smp`)
        self.threads = threads
        #: the folder of endgame tables (:mod:`bitgames.draughts.egdb`) the engine plays by
        self.egdb = egdb
        self.board = Board(variant=self.variant)
        self._positions = PositionCache[Board]()
        self.limit = Limit(depth=8)
        self._engine: Engine | None = None

    # -- the dialect ----------------------------------------------------------------------

    def parse(self, line: str) -> Command | None:
        """``name key=value ...`` (shlex quoting); ``set-param`` runs ``cmd_set_param``."""
        tokens = shlex.split(line, posix=True)
        if not tokens:
            return None
        name = tokens[0].replace("-", "_")
        if name not in ("ping", "stop", "ponder_hit", "quit"):
            self.stop_thinking()  # the search in progress answers first
        return Command(name, tokens[1:], line=line)

    def error(self, command: Command, message: str) -> None:
        self.send(f"error message={quote(message)}")

    def unknown(self, command: Command) -> None:
        self.log(f"ignored unknown command {command.name.replace('_', '-')!r}")

    def halt(self) -> None:
        if self._engine is not None:
            self._engine.stop()

    def finish(self) -> None:
        if self.limit.infinite:
            self.stop_thinking()
        self.wait()

    def think_failed(self, exc: Exception) -> None:
        self.send(f"error message={quote(f'search failed: {exc}')}")

    # -- the engine -----------------------------------------------------------------------

    @property
    def numbering(self) -> Numbering:
        return Numbering(self.dialect, self.variant)

    @property
    def engine(self) -> Engine:
        if self._engine is None or self._engine.variant != self.variant:
            self._engine = Engine(self.variant, table_bits=self.table_bits, egdb=self._tables())
        self._engine.threads = self.threads
        return self._engine

    def _tables(self) -> Tables | None:
        """The endgame tables of the variant in :attr:`egdb`, if it holds any."""
        if not self.egdb:
            return None
        try:
            return Tables(self.egdb, self.variant)
        except BitgamesError as exc:  # none for this variant: play without
            self.log(f"no endgame tables: {exc}")
            return None

    def _search(self, engine: Engine, board: Board, limit: Limit) -> None:
        numbering = self.numbering

        def info(r: Info) -> None:
            pv = " ".join(numbering.move_name(m) for m in r.pv)
            self.send(f"info depth={r.depth} mean-depth={r.seldepth} "
                      f"score={hub_score(r.score)} nodes={r.nodes} time={r.time:.3f} "
                      f"nps={r.nps / 1e6:.2f} pv={quote(pv)}")

        result = engine.search(board, limit, on_info=info)
        move = result.move or next(iter(board.legal_moves))
        line = f"done move={numbering.move_name(move)}"
        if result.move is not None and len(result.pv) > 1:
            line += f" ponder={numbering.move_name(result.pv[1])}"
        self.send(line)

    # -- commands -------------------------------------------------------------------------

    def cmd_hub(self, args: list[str]) -> str:
        return "\n".join([
            f'id name=bitgames-draughts version={__version__} author="bitgames authors" '
            "country=none",
            f'param name=variant value={self.variant} type=enum values="russian english"',
            f"param name=tt-bits value={self.table_bits} type=int min=10 max=26",
            f"param name=threads value={self.threads} type=int min=1 max={MAX_THREADS}",
            f'param name=dialect value={self.dialect} type=enum values="standard pydraughts"',
            f"param name=egdb value={quote(self.egdb or '')} type=string",
            "wait"])

    def cmd_set_param(self, args: list[str]) -> None:
        values = _args(args)
        name, value = values.get("name", ""), values.get("value", "")
        if name == "variant":
            if value not in VARIANTS:
                raise BitgamesError(f"unknown variant {value!r}")
            self.variant = value
            self.board = Board(variant=value)
        elif name == "dialect":
            Numbering(value, self.variant)  # checks the name
            self.dialect = value
        elif name == "tt-bits":
            self.table_bits = parse_int(value, "tt-bits", lo=10, hi=26)
            self._engine = None
        elif name == "threads":
            self.threads = parse_int(value, "threads", lo=1, hi=MAX_THREADS)
        elif name == "egdb":  # a folder of endgame tables, or "" for none
            if value and not Path(value).is_dir():
                raise BitgamesError(f"no folder {value!r}")
            self.egdb = value or None
            self._engine = None

    def cmd_init(self, args: list[str]) -> str:
        from bitgames.core import jit

        jit.ensure_warm("draughts", "rules", "engine", load=True)  # says "compiling" if cold
        self.engine.search(Board(variant=self.variant), Limit(depth=1))  # load the code
        return "ready"

    def cmd_new_game(self, args: list[str]) -> None:
        if self._engine is not None:
            self._engine.new_game()

    def cmd_pos(self, args: list[str]) -> None:
        values = _args(args)
        numbering = self.numbering
        pos = values.get("pos", "")

        def play(board: Board, text: str) -> None:
            board.push(numbering.parse_move(board, text))

        self.board = self._positions.board(f"{self.variant} {self.dialect} {pos}",
                                           values.get("moves", "").split(),
                                           lambda: numbering.board(pos), play)

    def cmd_level(self, args: list[str]) -> None:
        self.limit = hub_limit(_args(args))

    def cmd_go(self, args: list[str]) -> None:
        if not self.board.legal_moves:
            raise BitgamesError("no legal move in this position")
        engine = self.engine  # created here, so a "stop" always finds it
        board, limit = self.board.copy(), self.limit
        self.think(lambda: self._search(engine, board, limit))

    def cmd_ping(self, args: list[str]) -> str:
        return "pong"

    def cmd_stop(self, args: list[str]) -> None:
        self.stop_thinking()

    def cmd_ponder_hit(self, args: list[str]) -> None:
        pass


def _args(tokens: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for tok in tokens:
        key, _, value = tok.partition("=")
        out[key] = value
    return out


class HubClient(Client):
    """Drive an outside Hub engine (Scan and other Hub v2 engines, or our own ``bitgames
    draughts hub``): a :class:`~bitgames.core.engine.Player` for matches.

    The handshake (``hub`` ... ``wait``, ``set-param name=variant`` when the engine has
    that parameter, ``init`` ... ``ready``) runs on construction; an engine whose variant
    parameter does not offer ``variant`` (Scan: international rules) is refused with
    :class:`~bitgames.core.errors.EngineError`. :meth:`play` sends the
    game from its start position with its moves, the limit as a ``level`` command, ``go
    think``, and reads the ``info`` lines up to ``done``. Squares use the standard
    numbering (1 = b8 ... 32 = g1).
    """

    def __init__(self, transport: Transport, variant: str = "russian",
                 timeout: float = 30.0) -> None:
        super().__init__(transport, timeout)
        self.variant = variant
        self.numbering = Numbering("standard", variant)
        self.params: dict[str, dict[str, str]] = {}
        self.send("hub")
        for line in self.read_until(lambda x: x.split()[:1] == ["wait"]):
            command, args = parse_line(line)
            if command == "id" and args.get("name"):
                self.name = args["name"]
            elif command == "param" and "name" in args:
                self.params[args["name"]] = args
        if "variant" in self.params:
            offered = self.params["variant"].get("values", "").split()
            if offered and variant not in offered:
                raise EngineError(f"engine {self.name!r} plays {', '.join(offered)}, "
                                  f"not {variant}")
            self.send(f"set-param name=variant value={variant}")
        self.send("init")
        self._read_ok(lambda x: x.split()[:1] == ["ready"], timeout=max(timeout, 300.0))

    def _read_ok(self, done: Callable[[str], bool], timeout: float | None = None,
                 ) -> list[str]:
        lines = self.read_until(lambda x: done(x) or x.startswith("error"), timeout)
        if lines[-1].startswith("error"):
            raise EngineError(f"engine {self.name!r}: {lines[-1]}")
        return lines

    def new_game(self) -> None:
        self.send("new-game")

    def play(self, board: Board, limit: Limit) -> SearchResult:
        """Ask the engine for its move in ``board``; :class:`EngineError` for a move that
        is not legal, an ``error`` reply or no answer in time."""
        start = board.copy()
        while start.move_stack:
            start.pop()
        names = [self.numbering.move_name(move) for move in board.move_stack]
        line = f"pos pos={self.numbering.position(start)}"
        if names:
            line += f' moves="{" ".join(names)}"'
        self.send(line)
        level = _level_line(limit)
        if level:
            self.send(level)
        self.send("go think")
        wait = None
        if limit.time is not None or limit.remaining is not None:
            wait = (limit.time or limit.remaining or 0.0) + self.timeout
        lines = self._read_ok(lambda x: x.split()[:1] == ["done"], wait)
        info: dict[str, str] = {}
        for text in lines:
            command, args = parse_line(text)
            if command == "info":
                info.update(args)
        _, done = parse_line(lines[-1])
        try:
            move = self.numbering.parse_move(board, done.get("move", ""))
        except BitgamesError as exc:
            raise EngineError(f"engine {self.name!r} played {done.get('move')!r}: {exc}"
                              ) from None
        return SearchResult(move, _info_score(info.get("score")), [move],
                            int(info.get("depth", 0) or 0), int(info.get("nodes", 0) or 0),
                            float(info.get("time", 0) or 0))


def _level_line(limit: Limit) -> str:
    if limit.depth is not None:
        return f"level depth={limit.depth}"
    if limit.nodes is not None:
        return f"level nodes={limit.nodes}"
    if limit.time is not None:
        return f"level move-time={limit.time:g}"
    if limit.remaining is not None:
        moves = f" moves={limit.moves_to_go}" if limit.moves_to_go else ""
        return f"level time={limit.remaining:g} inc={limit.increment:g}{moves}"
    return ""


def _info_score(text: str | None) -> Score | None:
    if not text:
        return None
    try:
        return Score(float(text), Unit.MEN)
    except ValueError:
        return None
