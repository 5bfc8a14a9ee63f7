"""The 6.172 UCI dialect (``doc/engine-interface.txt`` of the 2016 handout).

Commands: ``uci``, ``isready`` (answered at once, also while searching), ``setoption name
<id> value <x>``, ``ucinewgame``, ``position startpos|fen <board> <W|B>|endgame [moves
...]``, ``go [depth N] [time MS] [inc MS] [nodes N] [movestogo M] [infinite]``, ``stop``,
``quit``; extras ``display`` and ``perft N`` answer with ``info string`` lines.

Only protocol lines go to stdout, each flushed; logs go to stderr. A bad line never stops
the engine: an illegal move in ``position`` is reported as ``info string Move <m> is
illegal`` and the position falls back to the base position, as the reference engine does.

Time use follows the reference player: target = 2 % of the remaining time + 80 % of the
increment, at most a tenth of the remaining time; no new iteration after half the target,
hard stop at three times the target.

>>> import io
>>> out = io.StringIO()
>>> _ = run_uci(io.StringIO("uci\\nposition startpos moves h4g5 zz\\nisready\\nquit\\n"), out)
>>> lines = out.getvalue().splitlines()
>>> lines[0], lines[-2:]
('id name bitgames-leiserchess', ['info string Move zz is illegal', 'readyok'])
"""

from __future__ import annotations

import sys
import threading
from typing import Any, TextIO

from bitgames.leiserchess.notation import START_FEN

ENDGAME_FEN = "ss7/8/8/8/8/8/8/7NN W"


class UciSession:
    """State of one UCI conversation; :meth:`handle` takes one input line."""

    def __init__(self, out: TextIO, err: TextIO) -> None:
        from bitgames.leiserchess import closebook
        from bitgames.leiserchess.board import Board
        from bitgames.leiserchess.search import Engine

        self.out = out
        self.err = err
        self._out_lock = threading.Lock()
        book = None
        path = closebook.default_path()
        if path.exists():
            try:
                book = closebook.Closebook.load(path)
                self.log(f"closebook loaded from {path}")
            except (ValueError, OSError) as exc:
                self.log(f"closebook not loaded: {exc}")
        self.engine = Engine(closebook=book)
        self.board = Board(draw_rule="none")
        self._thread: threading.Thread | None = None
        self._infinite = False

    # -- output ----------------------------------------------------------------------------

    def send(self, line: str) -> None:
        with self._out_lock:
            self.out.write(line + "\n")
            self.out.flush()

    def log(self, line: str) -> None:
        self.err.write(line + "\n")
        self.err.flush()

    # -- commands ---------------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Process one line; return False on ``quit``."""
        tokens = line.split()
        if not tokens:
            return True
        cmd, args = tokens[0], tokens[1:]
        try:
            if cmd == "quit":
                self.stop_search()
                return False
            handler = getattr(self, "cmd_" + cmd.lower(), None)
            if handler is None:
                self.log(f"unknown command ignored: {line.strip()}")
                return True
            handler(args)
        except Exception as exc:  # a bad line must never kill the engine
            self.send(f"info string error: {exc}")
            self.log(f"error on line {line.strip()!r}: {exc!r}")
        return True

    def cmd_uci(self, args: list[str]) -> None:
        from bitgames.leiserchess.eval import OPTIONS

        self.send("id name bitgames-leiserchess")
        self.send("id author bitgames")
        for name, (slot, default, lo, hi) in OPTIONS.items():
            value = int(self.engine.params[slot])
            self.send(f"option name {name} type spin value {value} default {default} "
                      f"min {lo} max {hi}")
        self.send("uciok")

    def cmd_isready(self, args: list[str]) -> None:
        self.send("readyok")

    def cmd_ucinewgame(self, args: list[str]) -> None:
        self.stop_search()
        self.engine.new_game()

    def cmd_setoption(self, args: list[str]) -> None:
        from bitgames.leiserchess.eval import OPTIONS

        low = [a.lower() for a in args]
        if "name" not in low or "value" not in low:
            self.send("info string setoption needs 'name <id> value <x>'")
            return
        name = " ".join(args[low.index("name") + 1 : low.index("value")]).lower()
        raw = " ".join(args[low.index("value") + 1 :])
        if name not in OPTIONS:
            self.send(f"info string unknown option {name}")
            return
        slot, _default, lo, hi = OPTIONS[name]
        try:
            value = int(raw)
        except ValueError:
            self.send(f"info string option {name} needs an integer, got {raw!r}")
            return
        if not lo <= value <= hi:
            self.send(f"info string option {name} must be in {lo}..{hi}, got {value}")
            return
        self.engine.params[slot] = value

    def cmd_position(self, args: list[str]) -> None:
        from bitgames.leiserchess.board import Board

        self.stop_search()
        if not args:
            self.send("info string position needs startpos, fen or endgame")
            return
        if args[0] == "startpos":
            fen, rest = START_FEN, args[1:]
        elif args[0] == "endgame":
            fen, rest = ENDGAME_FEN, args[1:]
        elif args[0] == "fen":
            if len(args) < 3:
                self.send("info string position fen needs '<board> <W|B>'")
                return
            fen, rest = " ".join(args[1:3]), args[3:]
        else:
            self.send(f"info string unknown position type {args[0]}")
            return
        try:
            base = Board(fen, draw_rule="none")
        except ValueError as exc:
            self.send(f"info string {exc}")
            return
        board = base.copy()
        moves = rest[1:] if rest and rest[0].lower() == "moves" else rest
        for m in moves:
            try:
                board.push(board.parse_move(m))
            except ValueError:
                self.send(f"info string Move {m} is illegal")
                board = base
                break
        self.board = board

    def cmd_go(self, args: list[str]) -> None:
        self.stop_search()
        opts: dict[str, int] = {}
        i = 0
        infinite = False
        while i < len(args):
            key = args[i].lower()
            if key == "infinite":
                infinite = True
                i += 1
                continue
            if key in ("depth", "time", "inc", "nodes", "movestogo", "wtime", "btime",
                       "winc", "binc", "movetime") and i + 1 < len(args):
                try:
                    opts[key] = int(args[i + 1])
                except ValueError:
                    self.send(f"info string go: {key} needs an integer, got {args[i + 1]!r}")
                    return
                i += 2
                continue
            i += 1
        side_time = "wtime" if self.board.turn == 0 else "btime"
        side_inc = "winc" if self.board.turn == 0 else "binc"
        remaining = opts.get("time", opts.get(side_time))
        inc = opts.get("inc", opts.get(side_inc, 0))
        depth = opts.get("depth")
        nodes = opts.get("nodes")
        seconds = soft = None
        if "movetime" in opts:
            seconds = opts["movetime"] / 1000
            soft = seconds
        elif remaining is not None:
            target = min(0.02 * remaining + 0.8 * inc, remaining / 10) / 1000
            seconds, soft = 3 * target, 0.5 * target
        if not self.board.legal_moves:
            self.send("info string no legal moves: game over " + self.board.result())
            self.send("bestmove (none)")
            return
        if depth is None and seconds is None and nodes is None and not infinite:
            depth = 6
        board = self.board.copy()
        self._infinite = depth is None and seconds is None and nodes is None

        def run() -> None:
            def info(rec: dict[str, Any]) -> None:
                ms = max(int(rec["time"] * 1000), 1)
                nps = int(rec["nodes"] * 1000 / ms)
                self.send(f"info depth {rec['depth']} seldepth {rec['seldepth']} score cp "
                          f"{rec['score']} nodes {rec['nodes']} nps {nps} time {ms} pv "
                          + " ".join(rec["pv"]))

            try:
                res = self.engine.search(board, depth=depth, seconds=seconds, nodes=nodes,
                                         info=info, soft_seconds=soft)
                self.send(f"bestmove {res.best}")
            except Exception as exc:
                self.log(f"search failed: {exc!r}")
                self.send(f"info string search failed: {exc}")
                moves = list(board.legal_moves)
                self.send(f"bestmove {moves[0] if moves else '(none)'}")

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def cmd_stop(self, args: list[str]) -> None:
        self.stop_search()

    def cmd_display(self, args: list[str]) -> None:
        for row in str(self.board).splitlines():
            self.send("info string " + row)

    def cmd_perft(self, args: list[str]) -> None:
        from bitgames.leiserchess.perft import perft_board

        depth = int(args[0]) if args else 4
        if not 1 <= depth <= 6:
            self.send("info string perft depth must be 1..6")
            return
        self.send(f"info string perft {depth} {perft_board(self.board, depth)['total']}")

    def stop_search(self) -> None:
        """Stop a running search (it prints its ``bestmove``) and wait for it."""
        t = self._thread
        if t is not None and t.is_alive():
            self.engine.stop()
            t.join()
        self._thread = None

    def finish(self) -> None:
        """End of input: let a limited search finish, stop an infinite one."""
        t = self._thread
        if t is not None and t.is_alive():
            if self._infinite:
                self.engine.stop()
            t.join()
        self._thread = None


def run_uci(inp: TextIO | None = None, out: TextIO | None = None,
            err: TextIO | None = None) -> int:
    """Run the protocol loop until ``quit`` or end of input; return the exit status."""
    from bitgames.core import jit

    jit.ensure_warm("leiserchess", "rules", "engine")
    session = UciSession(out or sys.stdout, err or sys.stderr)
    source = inp or sys.stdin
    while True:
        line = source.readline()
        if not line:
            session.finish()
            break
        if not session.handle(line):
            break
    return 0
