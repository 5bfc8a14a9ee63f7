"""GTP version 2: the engine side (``bitgames go gtp``) and a small controller.

The engine reads commands on stdin and writes only protocol responses on stdout, one
flush per response; logs go to stderr. Input is preprocessed as the spec says (control
characters dropped, ``#`` comments removed, tabs to spaces, blank lines skipped). Every
failure - unknown command, bad argument, illegal move - is answered ``? message`` and the
engine keeps reading.

>>> import io
>>> out = io.StringIO()
>>> engine = GtpEngine(playouts=50, out=out)
>>> engine.run(io.StringIO("1 protocol_version\\nboardsize 30\\nplay b D4\\nfoo\\n"))
>>> out.getvalue().split("\\n\\n")[:4]
['=1 2', '? unacceptable size', '= ', '? unknown command']
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO

from bitgames import __version__
from bitgames.core.errors import BitgamesError
from bitgames.go.board import BLACK, PASS, WHITE, Board, Rules, format_score

Handler = Callable[[list[str]], str]


class GtpError(BitgamesError):
    """A command that failed; its message becomes the ``?`` response."""


def preprocess(line: str) -> str:
    """Drop control characters (except tab), the comment after ``#``; tabs to spaces.

    >>> preprocess("  play\\tb d4 # comment\\x07")
    'play b d4'
    """
    line = "".join(ch for ch in line if ch == "\t" or ch >= " " and ch != "\x7f")
    line = line.split("#", 1)[0]
    return line.replace("\t", " ").strip()


def parse_color(text: str) -> int:
    """``b``/``black`` -> BLACK, ``w``/``white`` -> WHITE."""
    t = text.lower()
    if t in ("b", "black"):
        return BLACK
    if t in ("w", "white"):
        return WHITE
    raise GtpError("invalid color")


class GtpEngine:
    """The engine side of GTP around a :class:`Board` and an MCTS player.

    ``playouts`` (per move) or ``seconds`` (per move) set the strength when the
    controller sends no time settings; with ``time_settings``/``time_left`` the engine
    spends a share of the remaining time.
    """

    def __init__(
        self,
        size: int = 9,
        komi: float = 7.5,
        rules: str = "default",
        playouts: int | None = 10_000,
        seconds: float | None = None,
        seed: int = 0,
        out: IO[str] | None = None,
        log: IO[str] | None = None,
        resign: bool = True,
        policy: str = "patterns",
    ) -> None:
        self.rules = Rules.parse(rules)
        self.policy = policy
        self.board = Board(size=size, komi=komi, rules=self.rules)
        self.playouts = playouts
        self.seconds = seconds
        self.seed = seed
        self.out = out if out is not None else sys.stdout
        self.log = log if log is not None else sys.stderr
        self.resign = resign
        self._engine: object | None = None
        self.main_time = 0.0
        self.byo_time = 0.0
        self.byo_stones = 0
        self.time_left: dict[int, tuple[float, int]] = {}
        self.running = True
        self.commands: dict[str, Handler] = {
            "protocol_version": lambda a: "2",
            "name": lambda a: "bitgames",
            "version": lambda a: __version__,
            "known_command": self.cmd_known_command,
            "list_commands": lambda a: "\n".join(sorted(self.commands)),
            "quit": self.cmd_quit,
            "boardsize": self.cmd_boardsize,
            "clear_board": self.cmd_clear_board,
            "komi": self.cmd_komi,
            "play": self.cmd_play,
            "genmove": self.cmd_genmove,
            "reg_genmove": self.cmd_reg_genmove,
            "kgs-genmove_cleanup": self.cmd_genmove_cleanup,
            "undo": self.cmd_undo,
            "final_score": self.cmd_final_score,
            "final_status_list": self.cmd_final_status_list,
            "showboard": lambda a: "\n" + str(self.board),
            "time_settings": self.cmd_time_settings,
            "time_left": self.cmd_time_left,
            "loadsgf": self.cmd_loadsgf,
            "printsgf": self.cmd_printsgf,
            "is_legal": self.cmd_is_legal,
            "all_legal": self.cmd_all_legal,
            "list_stones": self.cmd_list_stones,
            "captures": self.cmd_captures,
            "set_free_handicap": self.cmd_set_free_handicap,
            "fixed_handicap": self.cmd_fixed_handicap,
            "kgs-game_over": lambda a: "",
        }

    # ------------------------------------------------------------------ plumbing
    def run(self, lines: Iterable[str]) -> None:
        """Answer every command of ``lines`` until ``quit`` or the end of input."""
        for raw in lines:
            response = self.handle(raw)
            if response is not None:
                self.out.write(response)
                self.out.flush()
            if not self.running:
                break

    def handle(self, raw: str) -> str | None:
        """The full response (with its blank line) to one input line, or None."""
        line = preprocess(raw)
        if not line:
            return None
        parts = line.split()
        ident = ""
        if parts[0].isdigit():
            ident = parts.pop(0)
            if not parts:
                return f"?{ident} missing command\n\n"
        name, args = parts[0], parts[1:]
        handler = self.commands.get(name)
        if handler is None:
            return f"?{ident} unknown command\n\n"
        try:
            result = handler(args)
        except (GtpError, BitgamesError, ValueError, OSError, IndexError) as exc:
            message = str(exc) or type(exc).__name__
            return f"?{ident} {message.splitlines()[0]}\n\n"
        except Exception as exc:  # noqa: BLE001 - a protocol mode must never die
            print(f"internal error in {name}: {exc!r}", file=self.log, flush=True)
            return f"?{ident} internal error: {exc}\n\n"
        return f"={ident} {result}\n\n"

    def engine(self) -> object:
        if self._engine is None:
            from bitgames.go import kernels as K
            from bitgames.go.mcts import MCTS

            self._engine = MCTS(seed=self.seed, policy=K.POLICIES[self.policy])
        return self._engine

    # ------------------------------------------------------------------ commands
    def cmd_known_command(self, args: list[str]) -> str:
        return "true" if args and args[0] in self.commands else "false"

    def cmd_quit(self, args: list[str]) -> str:
        self.running = False
        return ""

    def cmd_boardsize(self, args: list[str]) -> str:
        try:
            size = int(args[0])
        except (IndexError, ValueError) as exc:
            raise GtpError("boardsize not an integer") from exc
        if not 2 <= size <= 25:
            raise GtpError("unacceptable size")
        self.board = Board(size=size, komi=self.board.komi, rules=self.rules)
        return ""

    def cmd_clear_board(self, args: list[str]) -> str:
        self.board = Board(size=self.board.size, komi=self.board.komi, rules=self.rules)
        self.time_left.clear()
        return ""

    def cmd_komi(self, args: list[str]) -> str:
        try:
            komi = float(args[0])
        except (IndexError, ValueError) as exc:
            raise GtpError("komi not a float") from exc
        self.board.komi = komi
        return ""

    def _color_vertex(self, args: list[str]) -> tuple[int, int]:
        if len(args) < 2:
            raise GtpError("invalid color or coordinate")
        color = parse_color(args[0])
        try:
            point = self.board.parse_move(args[1])
        except BitgamesError as exc:
            raise GtpError("invalid color or coordinate") from exc
        return color, point

    def cmd_play(self, args: list[str]) -> str:
        color, point = self._color_vertex(args)
        if not self.board.is_legal(point, color):
            raise GtpError("illegal move")
        self.board.push(point, color)
        return ""

    def _budget(self, color: int) -> tuple[int | None, float | None]:
        if color in self.time_left and (self.main_time > 0 or self.byo_time > 0):
            left, stones = self.time_left[color]
            empties = (
                self.board.points - len(self.board.stones(BLACK)) - len(self.board.stones(WHITE))
            )
            if stones > 0:
                seconds = 0.8 * left / stones
            else:
                seconds = left / max(12.0, empties / 2.5)
            return None, max(0.05, min(seconds, left - 1.0 if left > 2.0 else 0.05))
        return self.playouts, self.seconds

    def _genmove(self, args: list[str], play: bool, cleanup: bool = False) -> str:
        if not args:
            raise GtpError("invalid color")
        color = parse_color(args[0])
        from bitgames.go.mcts import MCTS, RESIGN

        engine = self.engine()
        assert isinstance(engine, MCTS)
        if self.board.turn != color:
            self.board.turn = color
        playouts, seconds = self._budget(color)
        start = time.perf_counter()
        move = engine.genmove(
            self.board, playouts, seconds, allow_resign=self.resign and play, cleanup=cleanup
        )
        info = engine.info
        print(
            f"genmove {args[0]}: {self.board.vertex(move) if move != RESIGN else 'resign'} "
            f"winrate {info.winrate:.3f} playouts {info.playouts} "
            f"({info.playouts / max(time.perf_counter() - start, 1e-9):.0f}/s) pv {info.pv}",
            file=self.log,
            flush=True,
        )
        if move == RESIGN:
            return "resign"
        if play:
            self.board.push(move, color)
        return self.board.vertex(move)

    def cmd_genmove(self, args: list[str]) -> str:
        return self._genmove(args, play=True)

    def cmd_reg_genmove(self, args: list[str]) -> str:
        return self._genmove(args, play=False)

    def cmd_genmove_cleanup(self, args: list[str]) -> str:
        return self._genmove(args, play=True, cleanup=True)

    def cmd_undo(self, args: list[str]) -> str:
        if not self.board.move_stack:
            raise GtpError("cannot undo")
        self.board.pop()
        return ""

    def cmd_final_score(self, args: list[str]) -> str:
        from bitgames.go.mcts import final_score

        return format_score(final_score(self.board, seed=self.seed))

    def cmd_final_status_list(self, args: list[str]) -> str:
        from bitgames.go.mcts import dead_stones

        if not args or args[0] not in ("alive", "dead", "seki"):
            raise GtpError("invalid status")
        if args[0] == "seki":
            return ""
        dead = set(dead_stones(self.board, seed=self.seed))
        stones = self.board.stones(BLACK) + self.board.stones(WHITE)
        want = [p for p in stones if (p in dead) == (args[0] == "dead")]
        return " ".join(self.board.vertex(p) for p in sorted(want))

    def cmd_time_settings(self, args: list[str]) -> str:
        try:
            main, byo, stones = float(args[0]), float(args[1]), int(args[2])
        except (IndexError, ValueError) as exc:
            raise GtpError("syntax error") from exc
        self.main_time, self.byo_time, self.byo_stones = main, byo, stones
        self.time_left.clear()
        return ""

    def cmd_time_left(self, args: list[str]) -> str:
        try:
            color, seconds, stones = parse_color(args[0]), float(args[1]), int(args[2])
        except (IndexError, ValueError) as exc:
            raise GtpError("syntax error") from exc
        self.time_left[color] = (seconds, stones)
        return ""

    def cmd_loadsgf(self, args: list[str]) -> str:
        from bitgames.go.sgf import load_sgf

        if not args:
            raise GtpError("missing filename")
        move_number = int(args[1]) if len(args) > 1 else None
        try:
            board = load_sgf(args[0], self.rules, move_number)
        except OSError as exc:
            raise GtpError("cannot load file") from exc
        self.board = board
        return "black" if board.turn == BLACK else "white"

    def cmd_printsgf(self, args: list[str]) -> str:
        text = self.board.to_sgf()
        if args:
            Path(args[0]).write_text(text + "\n", encoding="utf-8")
            return ""
        return text

    def cmd_is_legal(self, args: list[str]) -> str:
        color, point = self._color_vertex(args)
        return "1" if self.board.is_legal(point, color) else "0"

    def cmd_all_legal(self, args: list[str]) -> str:
        if not args:
            raise GtpError("invalid color")
        color = parse_color(args[0])
        pts = [p for p in range(self.board.points) if self.board.is_legal(p, color)]
        return " ".join(self.board.vertex(p) for p in pts)

    def cmd_list_stones(self, args: list[str]) -> str:
        if not args:
            raise GtpError("invalid color")
        color = parse_color(args[0])
        return " ".join(self.board.vertex(p) for p in self.board.stones(color))

    def cmd_captures(self, args: list[str]) -> str:
        if not args:
            raise GtpError("invalid color")
        return str(self.board.captures(parse_color(args[0])))

    def cmd_set_free_handicap(self, args: list[str]) -> str:
        if self.board.move_stack or self.board.stones(BLACK) or self.board.stones(WHITE):
            raise GtpError("board not empty")
        if len(args) < 2:
            raise GtpError("bad handicap")
        points = [self.board.parse_move(v) for v in args]
        if PASS in points or len(set(points)) != len(points):
            raise GtpError("bad vertex list")
        self.board.setup(points, [])
        self.board.turn = WHITE
        return ""

    def cmd_fixed_handicap(self, args: list[str]) -> str:
        try:
            n = int(args[0])
        except (IndexError, ValueError) as exc:
            raise GtpError("handicap not an integer") from exc
        points = fixed_handicap_points(self.board.size, n)
        self.cmd_set_free_handicap([self.board.vertex(p) for p in points])
        return " ".join(self.board.vertex(p) for p in points)


def fixed_handicap_points(size: int, n: int) -> list[int]:
    """The GTP spec's fixed handicap placement (section 4.1.1), 2 to 9 stones.

    >>> from bitgames.go import point_to_vertex
    >>> [point_to_vertex(p, 19) for p in fixed_handicap_points(19, 3)]
    ['D4', 'Q16', 'D16']
    >>> [point_to_vertex(p, 9) for p in fixed_handicap_points(9, 2)]
    ['C3', 'G7']
    """
    if size < 7 or not 2 <= n <= 9 or ((size % 2 == 0 or size == 7) and n > 4):
        raise GtpError("invalid handicap")
    lo = 2 if size < 13 else 3
    hi, mid = size - 1 - lo, size // 2

    def pt(col: int, row: int) -> int:
        return row * size + col

    corners = [pt(lo, lo), pt(hi, hi), pt(lo, hi), pt(hi, lo)]
    sides = [pt(lo, mid), pt(hi, mid), pt(mid, lo), pt(mid, hi)]
    center = pt(mid, mid)
    table = {
        2: corners[:2],
        3: corners[:3],
        4: corners,
        5: corners + [center],
        6: corners + sides[:2],
        7: corners + sides[:2] + [center],
        8: corners + sides,
        9: corners + sides + [center],
    }
    return table[n]


class GtpClient:
    """A GTP controller for one engine subprocess (e.g. ``gnugo --mode gtp``)."""

    def __init__(self, command: str | list[str], log: IO[str] | None = None) -> None:
        argv = shlex.split(command) if isinstance(command, str) else command
        self.argv = argv
        self.log = log
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as exc:
            raise BitgamesError(f"cannot start GTP engine {argv[0]!r}: {exc}") from exc

    def send(self, command: str) -> tuple[bool, str]:
        """Send one command; returns (success, response text without ``=``/``?``)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines: list[str] = []
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                raise BitgamesError(f"GTP engine {self.argv[0]!r} closed its output")
            line = line.rstrip("\r\n")
            if line == "" and lines:
                break
            if line == "" and not lines:
                continue
            lines.append(line)
        head = lines[0]
        ok = head.startswith("=")
        first = head[1:].lstrip("0123456789").strip()
        text = "\n".join([first] + lines[1:]).strip()
        if self.log is not None:
            print(f"> {command}\n< {head}", file=self.log, flush=True)
        return ok, text

    def command(self, command: str) -> str:
        """Send a command that must succeed; returns its response."""
        ok, text = self.send(command)
        if not ok:
            raise BitgamesError(f"GTP engine refused {command!r}: {text}")
        return text

    def close(self) -> None:
        """Send ``quit`` and wait for the process."""
        try:
            self.send("quit")
        except (BitgamesError, OSError, ValueError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()

    def __enter__(self) -> GtpClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
