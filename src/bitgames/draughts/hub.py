"""The Hub protocol, version 2 (Scan 3.x), for ``bitgames draughts hub``.

Line-based, UCI-like: ``<command> <arg>=<val> ...`` with double quotes around values holding
spaces. The engine declares ``param name=variant ... values="russian english"``; positions
are ``pos pos=<W|B><32 squares in standard order 1 = b8 ... 32 = g1, 'w' 'b' 'W' 'B' 'e'>``
with optional ``moves="..."``; moves are ``32-28`` or ``from x to x captured ...``.
A search runs in a worker thread so ``ping`` (answered ``pong``) and ``stop`` are handled
while it runs; it always ends with ``done move=... [ponder=...]``. Only protocol lines go to
stdout (each flushed); unknown commands are ignored; a bad line gets ``error message=...``
and the engine keeps running; end of input quits.

>>> import io
>>> out = io.StringIO()
>>> HubEngine(out=out).run(["hub", "init", "ping", "quit"])
>>> print(out.getvalue().strip())
id name=bitgames-draughts version=0.1.0 author="bitgames authors" country=none
param name=variant value=russian type=enum values="russian english"
param name=tt-bits value=20 type=int min=10 max=26
wait
ready
pong
"""

from __future__ import annotations

import queue
import shlex
import sys
import threading
from collections.abc import Iterable
from typing import TextIO

from bitgames import __version__
from bitgames.core.errors import BitgamesError
from bitgames.draughts import geometry as g
from bitgames.draughts.board import Board, Move

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


def board_from_hub(pos: str, variant: str) -> Board:
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
        (white if is_white else black).append(("K" if is_king else "") + str(n))
    fen = f"{pos[0]}:W{','.join(white)}:B{','.join(black)}"
    return Board(fen, variant=variant)


def board_to_hub(board: Board) -> str:
    """The 33-character Hub position of ``board``."""
    chars = ["W" if board.turn else "B"]
    for n in range(1, 33):
        piece = board.piece_at(g.from_numeric(n))
        chars.append(piece if piece else "e")
    return "".join(chars)


def move_from_hub(board: Board, text: str) -> Move:
    """The legal move written in Hub form (``32-28``, ``28x19x23``)."""
    return board.parse_move(text)


class HubEngine:
    """The Hub engine loop; :meth:`run` reads commands, :meth:`serve` uses stdin/stdout."""

    def __init__(self, out: TextIO | None = None, err: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.variant = "russian"
        self.tt_bits = 20
        self.board = Board(variant=self.variant)
        self.limits: dict[str, float | int | None] = {"depth": 8}
        self._engine = None
        self._lock = threading.Lock()
        self._worker: threading.Thread | None = None

    # -- output --------------------------------------------------------------------------

    def send(self, line: str) -> None:
        with self._lock:
            self.out.write(line + "\n")
            self.out.flush()

    def log(self, text: str) -> None:
        self.err.write(text + "\n")
        self.err.flush()

    def error(self, message: str) -> None:
        self.send(f"error message={quote(message)}")

    # -- engine ------------------------------------------------------------------------------

    @property
    def engine(self):  # type: ignore[no-untyped-def]
        if self._engine is None or self._engine.variant != self.variant:
            from bitgames.draughts.search import Engine

            self._engine = Engine(self.variant, tt_bits=self.tt_bits)
        return self._engine

    def _search(self, engine, board: Board, mode: str) -> None:  # type: ignore[no-untyped-def]
        from bitgames.draughts.search import SearchResult

        def info(r: SearchResult) -> None:
            pv = " ".join(m.hub_name() for m in r.pv)
            self.send(f"info depth={r.depth} mean-depth={r.seldepth} "
                      f"score={r.score / 100:.2f} nodes={r.nodes} time={r.seconds:.3f} "
                      f"nps={r.nps / 1e6:.2f} pv={quote(pv)}")

        try:
            limits = dict(self.limits)
            result = engine.search(board, info=info, **limits)
        except Exception as exc:  # the loop must survive anything
            self.log(f"search failed: {exc!r}")
            result = None
        legal = list(board.legal_moves)
        if result is None or result.move is None:
            if not legal:
                self.error("no legal move in this position")
                return
            self.send(f"done move={legal[0].hub_name()}")
            return
        line = f"done move={result.move.hub_name()}"
        if len(result.pv) > 1:
            line += f" ponder={result.pv[1].hub_name()}"
        self.send(line)

    def _wait_search(self) -> None:
        if self._worker is not None:
            self._worker.join()
            self._worker = None

    def searching(self) -> bool:
        return self._worker is not None and self._worker.is_alive()

    # -- commands ------------------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Process one line; False when the engine should quit."""
        try:
            command, args = parse_line(line)
        except ValueError as exc:
            self.error(f"cannot parse line: {exc}")
            return True
        if not command:
            return True
        if command == "ping":
            self.send("pong")
            return True
        if command == "stop":
            if self._engine is not None and self.searching():
                self._engine.stop()
            self._wait_search()
            return True
        if command == "ponder-hit":
            return True
        if command == "quit":
            if self._engine is not None and self.searching():
                self._engine.stop()
            self._wait_search()
            return False
        # anything else waits for a running search to finish
        self._wait_search()
        try:
            self._dispatch(command, args)
        except BitgamesError as exc:
            self.error(str(exc))
        return True

    def _dispatch(self, command: str, args: dict[str, str]) -> None:
        if command == "hub":
            self.send(f"id name=bitgames-draughts version={__version__} "
                      f'author="bitgames authors" country=none')
            self.send(f"param name=variant value={self.variant} type=enum "
                      f'values="russian english"')
            self.send(f"param name=tt-bits value={self.tt_bits} type=int min=10 max=26")
            self.send("wait")
        elif command == "set-param":
            name, value = args.get("name", ""), args.get("value", "")
            if name == "variant":
                if value not in ("russian", "english"):
                    raise BitgamesError(f"unknown variant {value!r}")
                self.variant = value
                self.board = Board(variant=value)
            elif name == "tt-bits":
                if not value.isdigit() or not 10 <= int(value) <= 26:
                    raise BitgamesError(f"tt-bits must be 10..26, got {value!r}")
                self.tt_bits = int(value)
                self._engine = None
        elif command == "init":
            from bitgames.core import jit

            jit.ensure_warm("draughts")  # says "compiling" on stderr the first time
            self.engine.search(Board(variant=self.variant), depth=1)  # load compiled code
            self.send("ready")
        elif command == "new-game":
            if self._engine is not None:
                self._engine.new_game()
        elif command == "pos":
            board = board_from_hub(args.get("pos", ""), self.variant)
            for text in args.get("moves", "").split():
                board.push(move_from_hub(board, text))
            self.board = board
        elif command == "level":
            self.limits = self._level(args)
        elif command == "go":
            if not self.board.legal_moves:
                raise BitgamesError("no legal move in this position")
            mode = next(iter(args), "think")
            engine = self.engine  # created here, so a "stop" always finds it
            engine.stop_requested = False
            self._worker = threading.Thread(target=self._search,
                                            args=(engine, self.board.copy(), mode),
                                            daemon=True)
            self._worker.start()
        else:
            self.log(f"ignored unknown command {command!r}")

    def _level(self, args: dict[str, str]) -> dict[str, float | int | None]:
        try:
            if "depth" in args:
                return {"depth": int(args["depth"])}
            if "nodes" in args:
                return {"nodes": int(args["nodes"])}
            if "move-time" in args:
                return {"movetime": float(args["move-time"])}
            if "infinite" in args:
                return {"depth": 100}
            if "time" in args:
                remaining = float(args["time"])
                moves = int(args.get("moves", "0")) or 30
                inc = float(args.get("inc", "0"))
                return {"movetime": max(0.01, min(remaining / moves + 0.8 * inc,
                                                  remaining * 0.5))}
        except ValueError as exc:
            raise BitgamesError(f"bad level values {args}: {exc}") from None
        raise BitgamesError(f"level needs depth, nodes, move-time, time or infinite: {args}")

    # -- loops ---------------------------------------------------------------------------------

    def run(self, lines: Iterable[str]) -> None:
        """Process ``lines`` in order (searches finish before the next non-ping line)."""
        for line in lines:
            if not self.handle(line.rstrip("\n")):
                return
        self._wait_search()

    def serve(self, stdin: TextIO | None = None) -> None:
        """Read stdin in a thread so ``ping``/``stop`` reach a running search; quit on EOF."""
        stream = stdin or sys.stdin
        lines: queue.Queue[str | None] = queue.Queue()

        def reader() -> None:
            for line in stream:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=reader, daemon=True).start()
        while True:
            line = lines.get()
            if line is None:
                if self._engine is not None and self.searching():
                    self._engine.stop()
                self._wait_search()
                return
            if not self.handle(line.rstrip("\n")):
                return
