"""The Hub protocol, version 2 (Scan 3.x), for ``bitgames draughts hub``.

Line-based, UCI-like: ``<command> <arg>=<val> ...`` with double quotes around values holding
spaces. The engine declares ``param name=variant ... values="russian english"``; positions
are ``pos pos=<W|B><32 squares in standard order 1 = b8 ... 32 = g1, 'w' 'b' 'W' 'B' 'e'>``
with optional ``moves="..."``; moves are ``32-28`` or ``from x to x captured ...``.
``set-param name=dialect value=pydraughts`` reads and writes what pydraughts' Hub client
sends (see :class:`Numbering`).
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
param name=dialect value=standard type=enum values="standard pydraughts"
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


class HubEngine:
    """The Hub engine loop; :meth:`run` reads commands, :meth:`serve` uses stdin/stdout."""

    def __init__(self, out: TextIO | None = None, err: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.variant = "russian"
        self.dialect = "standard"
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
    def numbering(self) -> Numbering:
        return Numbering(self.dialect, self.variant)

    @property
    def engine(self):  # type: ignore[no-untyped-def]
        if self._engine is None or self._engine.variant != self.variant:
            from bitgames.draughts.search import Engine

            self._engine = Engine(self.variant, tt_bits=self.tt_bits)
        return self._engine

    def _search(self, engine, board: Board, mode: str) -> None:  # type: ignore[no-untyped-def]
        from bitgames.draughts.search import SearchResult

        numbering = self.numbering

        def info(r: SearchResult) -> None:
            pv = " ".join(numbering.move_name(m) for m in r.pv)
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
            self.send(f"done move={numbering.move_name(legal[0])}")
            return
        line = f"done move={numbering.move_name(result.move)}"
        if len(result.pv) > 1:
            line += f" ponder={numbering.move_name(result.pv[1])}"
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
            self.send(f"param name=dialect value={self.dialect} type=enum "
                      f'values="standard pydraughts"')
            self.send("wait")
        elif command == "set-param":
            name, value = args.get("name", ""), args.get("value", "")
            if name == "variant":
                if value not in ("russian", "english"):
                    raise BitgamesError(f"unknown variant {value!r}")
                self.variant = value
                self.board = Board(variant=value)
            elif name == "dialect":
                Numbering(value, self.variant)  # checks the name
                self.dialect = value
            elif name == "tt-bits":
                if not value.isdigit() or not 10 <= int(value) <= 26:
                    raise BitgamesError(f"tt-bits must be 10..26, got {value!r}")
                self.tt_bits = int(value)
                self._engine = None
        elif command == "init":
            from bitgames.core import jit

            jit.ensure_warm("draughts", "rules", "engine")  # says "compiling" the first time
            self.engine.search(Board(variant=self.variant), depth=1)  # load compiled code
            self.send("ready")
        elif command == "new-game":
            if self._engine is not None:
                self._engine.new_game()
        elif command == "pos":
            numbering = self.numbering
            board = numbering.board(args.get("pos", ""))
            for text in args.get("moves", "").split():
                board.push(numbering.parse_move(board, text))
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
