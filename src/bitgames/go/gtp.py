"""GTP version 2: the engine side (``bitgames go gtp``) and a client for outside engines.

:class:`GtpSession` is a dialect of :class:`bitgames.core.protocol.Session`: it reads
commands on stdin and writes only protocol responses on stdout (``=id result`` or
``?id message``, each followed by a blank line); logs go to stderr. Input is preprocessed
as the spec says (control characters dropped, ``#`` comments removed, tabs to spaces,
blank lines skipped). Every failure - unknown command, bad argument, illegal move - is
answered ``? message``, changes nothing, and the session keeps reading. Numbers are read
in ASCII digits only and must be finite; times are cut to
``0..``:data:`~bitgames.core.protocol.MAX_SECONDS` (a ``time_left`` also to the
``time_settings`` it belongs to), and ``loadsgf`` reads at most :data:`MAX_SGF_BYTES`.

:class:`GtpClient` drives an outside GTP engine (GNU Go, or our own ``bitgames go gtp``)
as a :class:`bitgames.core.engine.Player`.

>>> from bitgames.core.protocol import SessionHarness
>>> harness = SessionHarness(GtpSession)
>>> harness.converse([
...     ("1 protocol_version", ["=1 2", ""]),
...     ("boardsize 30", ["? unacceptable size", ""]),
...     ("play b D4", ["= ", ""]),
...     ("foo", ["? unknown command", ""]),
... ])
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, TextIO

from bitgames import __version__
from bitgames.core.engine import Limit, SearchResult, with_clock
from bitgames.core.errors import BitgamesError, EngineError, ProtocolError
from bitgames.core.files import FileError, read_text
from bitgames.core.protocol import (
    MAX_SECONDS,
    Command,
    GtpController,
    Session,
    Transport,
    parse_float,
    parse_int,
    parse_seconds,
)
from bitgames.go.board import BLACK, WHITE, Board, Color, Move, Rules, format_score
from bitgames.go.mcts import Engine, dead_stones, final_score

#: the largest SGF file ``loadsgf`` reads (bytes)
MAX_SGF_BYTES = 1 << 22
#: seconds kept off the controller's clock for each move: reading the command, writing
#: the reply and the pipes between (more under load), which the engine cannot time
LAG = 0.2


class GtpError(ProtocolError):
    """A command that failed; its message becomes the ``?`` response."""


def preprocess(line: str) -> str:
    """Drop control characters (except tab), the comment after ``#``; tabs to spaces.

    >>> preprocess("  play\\tb d4 # comment\\x07")
    'play b d4'
    """
    line = "".join(ch for ch in line if ch == "\t" or ch >= " " and ch != "\x7f")
    line = line.split("#", 1)[0]
    return line.replace("\t", " ").strip()


def parse_color(text: str) -> Color:
    """``b``/``black`` -> BLACK, ``w``/``white`` -> WHITE."""
    t = text.lower()
    if t in ("b", "black"):
        return BLACK
    if t in ("w", "white"):
        return WHITE
    raise GtpError("invalid color")


class GtpSession(Session):
    """The engine side of GTP around a :class:`Board` and an :class:`Engine`.

    ``limit`` (default: the engine's level) sets the strength when the controller sends
    no time settings; with ``time_settings``/``time_left`` the engine's time manager
    spends a share of the remaining time.
    """

    protocol = "gtp"

    def __init__(
        self,
        size: int = 9,
        komi: float = 7.5,
        rules: str = "default",
        limit: Limit | None = None,
        engine: Engine | None = None,
        resign: bool = True,
        out: TextIO | None = None,
        log: TextIO | None = None,
    ) -> None:
        super().__init__(out, log)
        # GTP names with a hyphen (kgs-...) are methods cmd_kgs_...
        self.commands = {
            name.replace("kgs_", "kgs-", 1): fn for name, fn in self.commands.items()
        }
        self.rules = Rules.parse(rules)
        self.board = Board(size=size, komi=komi, rules=self.rules)
        self.limit = limit or Limit()
        self.engine = engine or Engine()
        self.resign = resign
        self.main_time = 0.0
        self.byo_time = 0.0
        self.byo_stones = 0
        self.time_left: dict[Color, tuple[float, int]] = {}

    # ------------------------------------------------------------------ the dialect
    def parse(self, line: str) -> Command | None:
        text = preprocess(line)
        if not text:
            return None
        parts = text.split()
        ident = ""
        if parts[0].isascii() and parts[0].isdigit():
            ident = parts.pop(0)
        if not parts:
            return Command("", [], ident, text)
        return Command(parts[0], parts[1:], ident, text)

    def reply(self, command: Command, result: str | None) -> None:
        self.send(f"={command.id} {result or ''}\n")

    def error(self, command: Command, message: str) -> None:
        self.send(f"?{command.id} {message}\n")

    def unknown(self, command: Command) -> None:
        self.error(command, "unknown command" if command.name else "missing command")

    # ------------------------------------------------------------------ commands
    def cmd_protocol_version(self, args: list[str]) -> str:
        return "2"

    def cmd_name(self, args: list[str]) -> str:
        return "bitgames"

    def cmd_version(self, args: list[str]) -> str:
        return __version__

    def cmd_known_command(self, args: list[str]) -> str:
        return "true" if args and args[0] in self.commands else "false"

    def cmd_list_commands(self, args: list[str]) -> str:
        return "\n".join(sorted(self.commands))

    def cmd_quit(self, args: list[str]) -> str:
        super().cmd_quit(args)
        return ""

    def cmd_boardsize(self, args: list[str]) -> str:
        try:
            size = parse_int(args[0], "boardsize")
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
            komi = parse_float(args[0], "komi", lo=-1000.0, hi=1000.0)
        except (IndexError, ValueError) as exc:
            raise GtpError("komi not a float") from exc
        self.board.komi = komi
        return ""

    def _color_move(self, args: list[str]) -> tuple[Color, Move]:
        if len(args) < 2:
            raise GtpError("invalid color or coordinate")
        color = parse_color(args[0])
        try:
            move = self.board.parse_move(args[1])
        except BitgamesError as exc:
            raise GtpError("invalid color or coordinate") from exc
        if move.is_resign:
            raise GtpError("invalid color or coordinate")
        return color, move

    def cmd_play(self, args: list[str]) -> str:
        color, move = self._color_move(args)
        if not self.board.is_legal(move, color):
            raise GtpError("illegal move")
        self.board.push(move, color)
        return ""

    def _limit(self, color: Color) -> Limit:
        """The session's limit, with the controller's clock on top when it sent one: the
        time left less :data:`LAG` for the time our answer takes to reach it (the
        controller's clock runs from sending ``genmove`` to reading the reply). A clock
        never raises the session's own caps (``--playouts 50`` stays 50 playouts a move,
        whatever time the controller offers)."""
        if color in self.time_left and (self.main_time > 0 or self.byo_time > 0):
            left, stones = self.time_left[color]
            return with_clock(self.limit, Limit(remaining=max(left - LAG, 0.0),
                                                moves_to_go=stones if stones > 0 else None))
        return self.limit

    def _genmove(self, args: list[str], play: bool, cleanup: bool = False) -> str:
        if not args:
            raise GtpError("invalid color")
        color = parse_color(args[0])
        if self.board.turn != color:
            self.board.turn = color
        result = self.engine.search(self.board, self._limit(color), cleanup=cleanup,
                                    allow_resign=self.resign and play)
        move = result.move or Move.PASS
        winrate = "-" if result.score is None else f"{result.score.value:.3f}"
        self.log(f"genmove {args[0]}: {move} winrate {winrate} playouts {result.nodes} "
                 f"({result.nps:.0f}/s) pv {' '.join(map(str, result.pv))}")
        if play and not move.is_resign:
            self.board.push(move, color)
        return str(move)

    def cmd_genmove(self, args: list[str]) -> str:
        return self._genmove(args, play=True)

    def cmd_reg_genmove(self, args: list[str]) -> str:
        return self._genmove(args, play=False)

    def cmd_kgs_genmove_cleanup(self, args: list[str]) -> str:
        return self._genmove(args, play=True, cleanup=True)

    def cmd_kgs_game_over(self, args: list[str]) -> str:
        return ""

    def cmd_undo(self, args: list[str]) -> str:
        if not self.board.move_stack:
            raise GtpError("cannot undo")
        self.board.pop()
        return ""

    def cmd_final_score(self, args: list[str]) -> str:
        return format_score(final_score(self.board, seed=self.engine.seed))

    def cmd_final_status_list(self, args: list[str]) -> str:
        if not args or args[0] not in ("alive", "dead", "seki"):
            raise GtpError("invalid status")
        if args[0] == "seki":
            return ""
        dead = set(dead_stones(self.board, seed=self.engine.seed))
        stones = self.board.stones(BLACK) + self.board.stones(WHITE)
        want = [p for p in stones if (p in dead) == (args[0] == "dead")]
        return " ".join(self.board.vertex(p) for p in sorted(want))

    def cmd_showboard(self, args: list[str]) -> str:
        return "\n" + str(self.board)

    def cmd_time_settings(self, args: list[str]) -> str:
        try:
            main = parse_seconds(args[0], "main time")
            byo = parse_seconds(args[1], "byo-yomi time")
            stones = parse_int(args[2], "byo-yomi stones", lo=0)
        except (IndexError, ValueError) as exc:
            raise GtpError("syntax error") from exc
        self.main_time, self.byo_time, self.byo_stones = main, byo, stones
        self.time_left.clear()
        return ""

    def cmd_time_left(self, args: list[str]) -> str:
        try:
            color = parse_color(args[0])
            seconds = parse_seconds(args[1], "time left")
            stones = parse_int(args[2], "stones left", lo=0)
        except (IndexError, ValueError) as exc:
            raise GtpError("syntax error") from exc
        # a clock never holds more than its settings gave (main time, or a byo-yomi period)
        most = max(self.main_time, self.byo_time) if self.main_time or self.byo_time else (
            MAX_SECONDS)
        self.time_left[color] = (min(seconds, most), stones)
        return ""

    def cmd_loadsgf(self, args: list[str]) -> str:
        from bitgames.go.sgf import read_sgf

        if not args:
            raise GtpError("missing filename")
        move_number = parse_int(args[1], "move number", lo=1) if len(args) > 1 else None
        try:
            text = read_text(args[0], MAX_SGF_BYTES, "SGF file")
        except FileError as exc:
            self.log(str(exc))
            raise GtpError("cannot load file") from exc  # the spec's words
        self.board = read_sgf(text, self.rules, move_number)
        return "white" if self.board.turn else "black"

    def cmd_printsgf(self, args: list[str]) -> str:
        text = self.board.to_sgf()
        if args:
            Path(args[0]).write_text(text + "\n", encoding="utf-8")
            return ""
        return text

    def cmd_is_legal(self, args: list[str]) -> str:
        color, move = self._color_move(args)
        return "1" if self.board.is_legal(move, color) else "0"

    def cmd_all_legal(self, args: list[str]) -> str:
        if not args:
            raise GtpError("invalid color")
        color = parse_color(args[0])
        moves = (Move.from_point(p, self.board.size) for p in range(self.board.points))
        return " ".join(str(m) for m in moves if self.board.is_legal(m, color))

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
        moves = [self.board.parse_move(v) for v in args]
        if any(m.row < 0 for m in moves) or len(set(moves)) != len(moves):
            raise GtpError("bad vertex list")
        self.board.place_handicap(moves)
        return ""

    def cmd_fixed_handicap(self, args: list[str]) -> str:
        try:
            n = parse_int(args[0], "handicap")
        except (IndexError, ValueError) as exc:
            raise GtpError("handicap not an integer") from exc
        points = fixed_handicap_points(self.board.size, n)
        self.cmd_set_free_handicap([self.board.vertex(p) for p in points])
        return " ".join(self.board.vertex(p) for p in points)


def fixed_handicap_points(size: int, n: int) -> list[int]:
    """The GTP spec's fixed handicap placement (section 4.1.1), 2 to 9 stones.

    >>> [Board(size=19).vertex(p) for p in fixed_handicap_points(19, 3)]
    ['D4', 'Q16', 'D16']
    >>> [Board(size=9).vertex(p) for p in fixed_handicap_points(9, 2)]
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


class GtpClient(GtpController):
    """A GTP controller for an outside engine, and a :class:`~bitgames.core.engine.Player`.

    :meth:`play` brings the engine to the board's position (``boardsize``,
    ``clear_board``, ``komi`` and the setup stones when the game is new or went another
    way, else only the moves it has not seen), passes the limit's time (``Limit(time=t)``:
    ``time_settings 0 t 1``; a clock: ``time_settings`` once and ``time_left`` before each
    move; GTP has no node limit) and asks ``genmove``.

    >>> from bitgames.core.protocol import MockTransport
    >>> mock = MockTransport()
    >>> mock.expect("name", ["= GNU Go", ""])
    >>> for line in ("boardsize 9", "clear_board", "komi 7.5", "play b E5"):
    ...     mock.expect(line, ["= ", ""])
    >>> mock.expect("genmove w", ["= D5", ""])
    >>> client = GtpClient(mock)
    >>> client.play(Board(moves="E5"), Limit()).move
    Move.from_gtp('D5')
    >>> mock.assert_done()
    """

    def __init__(self, transport: Transport, timeout: float = 600.0,
                 name: str | None = None) -> None:
        super().__init__(transport, timeout, name)
        self._game: tuple[Any, ...] | None = None
        self._sent: list[tuple[Color, Move]] = []

    def new_game(self) -> None:
        self._game = None

    def sync(self, board: Board) -> None:
        """Send what the engine lacks of ``board``'s game."""
        game = (board.size, board.komi, tuple(board.setup_black), tuple(board.setup_white))
        moves = [(c, m) for c, m in board.colored_moves() if not m.is_resign]
        if game != self._game or moves[: len(self._sent)] != self._sent:
            self.command(f"boardsize {board.size}")
            self.command("clear_board")
            self.command(f"komi {board.komi:g}")
            # handicap stones as handicap stones, so the engine knows it plays a handicap
            # game (an engine without the command gets them as Black's moves)
            stones = " ".join(board.vertex(p) for p in board.setup_black)
            if not board.handicap or not self.request(f"set_free_handicap {stones}")[0]:
                for points, color in ((board.setup_black, "b"), (board.setup_white, "w")):
                    for p in points:
                        self.command(f"play {color} {board.vertex(p)}")
            self._game, self._sent, self._time = game, [], None
        for c, m in moves[len(self._sent) :]:
            self.command(f"play {'w' if c else 'b'} {m}")
            self._sent.append((c, m))

    def play(self, board: Board, limit: Limit) -> SearchResult:
        """The engine's move in ``board`` (``Move.RESIGN`` when it resigns)."""
        start = time.perf_counter()
        self.sync(board)
        self.send_time("w" if board.turn else "b", limit)
        reply = self.command(f"genmove {'w' if board.turn else 'b'}")
        try:
            move = board.parse_move(reply)
        except BitgamesError as exc:
            raise EngineError(f"GTP engine {self.name!r} answered genmove with {reply!r}"
                              ) from exc
        if not move.is_resign:
            self._sent.append((board.turn, move))
        return SearchResult(move, time=time.perf_counter() - start)
