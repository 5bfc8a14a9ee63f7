"""The Go board of the Python API: moves, rules profiles, GTP vertices, scoring.

A move is a point number ``p = row * size + col`` (``A1`` is 0, row 1 at the bottom) or
:data:`PASS` (-1); anywhere a move is taken, a GTP vertex string (``"D4"``, ``"pass"``,
no letter I) works too.

>>> board = Board(size=9)
>>> board.push("E5")
>>> board.push("pass")
>>> board.turn == BLACK, board.vertex(board.peek())
(True, 'pass')
>>> len(board.legal_moves)    # 80 empty points and the pass
81
>>> board.score()             # Tromp-Taylor area: black owns the board, minus komi
73.5
>>> board.result(), board.is_game_over()
('B+73.5', False)
>>> board
Board(size=9, komi=7.5, rules='default', moves='E5 pass')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from bitgames.core.errors import BitgamesError
from bitgames.go import kernels as K

EMPTY, BLACK, WHITE = 0, 1, 2
PASS = -1
RESIGN = -2
COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
_SIDE_KEY = 0x5BD1_E995_7F4A_7C15  # added to the hash for "white to move" (situational)


class IllegalMoveError(BitgamesError):
    """A move that the rules forbid in the current position."""


@dataclass(frozen=True)
class Rules:
    """A rules profile.

    ``ko`` is ``"positional"`` (positional superko: no move may recreate an earlier
    board), ``"situational"`` (not with the same player to move) or ``"simple"`` (only
    the immediate recapture of a single stone is forbidden). ``suicide`` allows
    multi-stone suicide (Tromp-Taylor); single-stone suicide is never legal.
    Scoring is always area (stones plus empty regions reaching only one colour).

    >>> Rules.parse("tromp-taylor")
    Rules(name='tromp-taylor', ko='positional', suicide=True)
    """

    name: str = "default"
    ko: str = "positional"
    suicide: bool = False

    PROFILES = ("default", "tromp-taylor", "simple-ko", "situational", "cgos", "chinese")

    @staticmethod
    def parse(name: str | Rules) -> Rules:
        """A profile by name: ``default`` (= ``cgos``: no suicide, positional superko),
        ``tromp-taylor`` (multi-stone suicide legal, positional superko), ``simple-ko``
        (= ``chinese`` here: no suicide, simple ko), ``situational`` (no suicide,
        situational superko)."""
        if isinstance(name, Rules):
            return name
        key = name.strip().lower().replace("_", "-")
        table = {
            "default": Rules("default", "positional", False),
            "cgos": Rules("cgos", "positional", False),
            "tromp-taylor": Rules("tromp-taylor", "positional", True),
            "tt": Rules("tromp-taylor", "positional", True),
            "simple-ko": Rules("simple-ko", "simple", False),
            "chinese": Rules("chinese", "simple", False),
            "situational": Rules("situational", "situational", False),
        }
        if key not in table:
            raise BitgamesError(
                f"unknown rules {name!r}; choose one of {', '.join(Rules.PROFILES)}"
            )
        return table[key]


def vertex_to_point(vertex: str, size: int) -> int:
    """The point of a GTP vertex (``"D4"``, case-insensitive) or -1 for ``"pass"``.

    >>> vertex_to_point("A1", 9), vertex_to_point("J9", 9), vertex_to_point("PASS", 9)
    (0, 80, -1)
    """
    v = vertex.strip().upper()
    if v == "PASS":
        return PASS
    if len(v) < 2 or v[0] not in COLUMNS or not v[1:].isdigit():
        raise BitgamesError(f"bad vertex {vertex!r}: expected a letter A-T (no I) and a row")
    col = COLUMNS.index(v[0])
    row = int(v[1:]) - 1
    if not (0 <= col < size and 0 <= row < size):
        raise BitgamesError(f"vertex {vertex!r} is off the {size}x{size} board")
    return row * size + col


def point_to_vertex(point: int, size: int) -> str:
    """The GTP vertex of a point (``"pass"`` for -1).

    >>> point_to_vertex(0, 9), point_to_vertex(80, 9), point_to_vertex(-1, 9)
    ('A1', 'J9', 'pass')
    """
    if point == RESIGN:
        return "resign"
    if point < 0:
        return "pass"
    row, col = divmod(point, size)
    return f"{COLUMNS[col]}{row + 1}"


class Board:
    """A Go position with its history: ``push``/``pop``, legal moves, scoring.

    ``rules`` is a :class:`Rules` or a profile name (see :meth:`Rules.parse`).
    ``moves`` (GTP vertices, a list or one space-separated string) are played in turn
    from Black, so ``eval(repr(board))`` rebuilds a board without setup stones.
    """

    def __init__(
        self,
        size: int = 9,
        komi: float = 7.5,
        rules: str | Rules = "default",
        moves: Iterable[str] | str = (),
    ) -> None:
        if not isinstance(size, int) or not 2 <= size <= 25:
            raise BitgamesError(f"board size must be an integer from 2 to 25, got {size!r}")
        self.size = size
        self.komi = float(komi)
        self.rules = Rules.parse(rules)
        self._g = K.geometry(size)
        self._s = K.new_state(size)
        self._stack: list[tuple[K.State, int, int]] = []
        self._keys: list[int] = []
        self._seen: Counter[int] = Counter()
        self.setup_black: list[int] = []
        self.setup_white: list[int] = []
        self.resigned: int | None = None
        self._remember()
        if isinstance(moves, str):
            moves = moves.split()
        for m in moves:
            self.push(m)

    # ------------------------------------------------------------------ basics
    @property
    def points(self) -> int:
        """Number of points of the board."""
        return self.size * self.size

    @property
    def turn(self) -> int:
        """Colour to move: :data:`BLACK` (1) or :data:`WHITE` (2)."""
        return int(self._s[8][K.M_TOMOVE])

    @turn.setter
    def turn(self, color: int) -> None:
        if color not in (BLACK, WHITE):
            raise BitgamesError(f"colour must be 1 (black) or 2 (white), got {color!r}")
        self._forget()
        self._s[8][K.M_TOMOVE] = color
        self._remember()

    @property
    def move_stack(self) -> list[tuple[int, int]]:
        """The moves played, as ``(colour, point)`` pairs."""
        return [(c, p) for _, p, c in self._stack]

    @property
    def ko_point(self) -> int | None:
        """The point forbidden by simple ko to the player to move, or None."""
        k = int(self._s[8][K.M_KO])
        return None if k < 0 else k

    @property
    def passes(self) -> int:
        """Number of consecutive passes at the end of the game so far."""
        return int(self._s[8][K.M_PASSES])

    def captures(self, color: int) -> int:
        """Number of stones captured by ``color`` (suicided stones count for the other)."""
        return int(self._s[8][K.M_CAPS + color - 1])

    def color_at(self, point: int | str) -> int:
        """``EMPTY``, ``BLACK`` or ``WHITE`` at a point or vertex."""
        return int(self._s[0][self._point(point, allow_pass=False)])

    def stones(self, color: int) -> list[int]:
        """The points holding stones of ``color``, ascending."""
        return [int(p) for p in np.flatnonzero(self._s[0] == color)]

    def block(self, point: int | str) -> tuple[list[int], list[int]]:
        """The stones and the liberties of the block at ``point``."""
        p = self._point(point, allow_pass=False)
        if self._s[0][p] == EMPTY:
            raise BitgamesError(f"no stone at {self.vertex(p)}")
        r = int(self._s[1][p])
        return _bitmap_points(self._s[3][r]), _bitmap_points(self._s[4][r])

    def vertex(self, point: int) -> str:
        """The GTP vertex of ``point``."""
        return point_to_vertex(point, self.size)

    def parse_move(self, move: int | str) -> int:
        """A point (or :data:`PASS`) from a point number or GTP vertex."""
        return self._point(move, allow_pass=True)

    def _point(self, move: int | str, allow_pass: bool) -> int:
        if isinstance(move, str):
            p = vertex_to_point(move, self.size)
        else:
            p = int(move)
            if not -1 <= p < self.points:
                raise BitgamesError(f"point {p} is off the {self.size}x{self.size} board")
        if p < 0 and not allow_pass:
            raise BitgamesError("a pass is not a point")
        return p

    # ------------------------------------------------------------------ history keys
    def _key(self, h: int, to_move: int) -> int:
        if self.rules.ko == "situational" and to_move == WHITE:
            return h ^ _SIDE_KEY
        return h

    def _remember(self) -> None:
        key = self._key(int(self._s[9][0]), self.turn)
        self._keys.append(key)
        self._seen[key] += 1

    def _forget(self) -> None:
        key = self._keys.pop()
        self._seen[key] -= 1
        if not self._seen[key]:
            del self._seen[key]

    def history_keys(self) -> np.ndarray:
        """Sorted hashes of every position of the game (for superko checks in search)."""
        return np.array(sorted(self._seen), dtype=np.uint64)

    # ------------------------------------------------------------------ legality
    def is_legal(self, move: int | str, color: int | None = None) -> bool:
        """Whether ``color`` (default: the side to move) may play ``move`` now."""
        try:
            p = self._point(move, allow_pass=True)
        except BitgamesError:
            return False
        c = self.turn if color is None else color
        return self._legal(p, c)

    def _legal(self, p: int, c: int) -> bool:
        if p < 0:
            return True
        s = self._s
        if c != self.turn and int(s[8][K.M_KO]) == p:
            # the simple-ko point binds only the player to move; test the other colour
            # without it (superko below still applies)
            saved = int(s[8][K.M_KO])
            s[8][K.M_KO] = -1
            try:
                ok = bool(K.is_legal(self._g, s, p, c, self.rules.suicide))
            finally:
                s[8][K.M_KO] = saved
        else:
            ok = bool(K.is_legal(self._g, s, p, c, self.rules.suicide))
        if not ok or self.rules.ko == "simple":
            return ok
        return self._key(int(K.hash_after(self._g, s, p, c)), 3 - c) not in self._seen

    @property
    def legal_moves(self) -> list[int]:
        """Every legal move of the side to move, points ascending, then :data:`PASS`."""
        c = self.turn
        legal = np.zeros(self.points, np.bool_)
        hashes = np.zeros(self.points, np.uint64)
        K.legal_scan(self._g, self._s, c, self.rules.suicide, legal, hashes)
        pts = np.flatnonzero(legal)
        if self.rules.ko != "simple" and len(pts):
            keys = hashes[pts]
            if self.rules.ko == "situational" and c == BLACK:
                keys = keys ^ np.uint64(_SIDE_KEY)
            seen = self.history_keys()
            pts = pts[~np.isin(keys, seen)]
        return [int(p) for p in pts] + [PASS]

    # ------------------------------------------------------------------ moves
    def push(self, move: int | str, color: int | None = None) -> None:
        """Play ``move`` for ``color`` (default: the side to move); raises
        :class:`IllegalMoveError` when the rules forbid it."""
        if isinstance(move, str) and move.strip().lower() == "resign" or move == RESIGN:
            p = RESIGN
        else:
            p = self._point(move, allow_pass=True)
        c = self.turn if color is None else color
        if c not in (BLACK, WHITE):
            raise BitgamesError(f"colour must be 1 (black) or 2 (white), got {color!r}")
        if self.resigned is not None:
            raise IllegalMoveError(f"the game is over: {color_name(self.resigned)} resigned")
        if p == RESIGN:
            self._stack.append((self._s, p, c))
            self._s = K.copy_state(self._s)
            self.resigned = c
            self._remember()
            return
        if not self._legal(p, c):
            raise IllegalMoveError(f"illegal move {self.vertex(p)} for {color_name(c)}")
        self._stack.append((K.copy_state(self._s), p, c))
        K.play(self._g, self._s, p, c)
        self._remember()

    def pass_move(self) -> None:
        """Play a pass for the side to move."""
        self.push(PASS)

    def pop(self) -> tuple[int, int]:
        """Take back the last move; returns its ``(colour, point)``."""
        if not self._stack:
            raise BitgamesError("no move to take back")
        state, p, c = self._stack.pop()
        self._forget()
        self._s = state
        if p == RESIGN:
            self.resigned = None
        return c, p

    def peek(self) -> int:
        """The last move played (a point or :data:`PASS`)."""
        if not self._stack:
            raise BitgamesError("no move played yet")
        return self._stack[-1][1]

    def setup(self, black: Iterable[int | str] = (), white: Iterable[int | str] = ()) -> None:
        """Place setup stones (SGF ``AB``/``AW``, handicap) before any move."""
        if self._stack:
            raise BitgamesError("setup stones must be placed before the first move")
        turn = self.turn
        meta = self._s[8].copy()
        for stones, col, store in (
            (black, BLACK, self.setup_black),
            (white, WHITE, self.setup_white),
        ):
            for v in stones:
                p = self._point(v, allow_pass=False)
                if self._s[0][p] != EMPTY:
                    raise BitgamesError(f"setup point {self.vertex(p)} is already occupied")
                K.play(self._g, self._s, p, col)
                store.append(p)
        self._s[8][K.M_TOMOVE] = turn
        for i in (K.M_KO, K.M_PASSES, K.M_MOVES, K.M_LAST, K.M_CAPS, K.M_CAPS + 1):
            self._s[8][i] = meta[i]
        self._keys.clear()
        self._seen.clear()
        self._remember()

    # ------------------------------------------------------------------ end of game
    def is_game_over(self) -> bool:
        """True after two consecutive passes or a resignation."""
        return self.passes >= 2 or self.resigned is not None

    def winner(self) -> int | None:
        """The winner of a finished game (by resignation, else by :meth:`score`), or
        None while the game goes on or on a tie."""
        if self.resigned is not None:
            return 3 - self.resigned
        if not self.is_game_over():
            return None
        score = self.score()
        return BLACK if score > 0 else WHITE if score < 0 else None

    def area(self) -> int:
        """Tromp-Taylor area difference, black minus white, without komi."""
        return int(K.area_score(self._g, self._s))

    def score(self) -> float:
        """Area score minus komi: positive when Black leads (all stones counted alive)."""
        return self.area() - self.komi

    def result(self) -> str:
        """The result as in SGF: ``B+3.5``, ``W+0.5``, ``0``, or ``W+R`` after Black resigned."""
        if self.resigned is not None:
            return ("W" if self.resigned == BLACK else "B") + "+R"
        return format_score(self.score())

    # ------------------------------------------------------------------ copies, text
    def copy(self) -> Board:
        """An independent copy, history included."""
        other = Board.__new__(Board)
        other.size = self.size
        other.komi = self.komi
        other.rules = self.rules
        other._g = self._g
        other._s = K.copy_state(self._s)
        other._stack = [(st, p, c) for st, p, c in self._stack]
        other._keys = list(self._keys)
        other._seen = Counter(self._seen)
        other.setup_black = list(self.setup_black)
        other.setup_white = list(self.setup_white)
        other.resigned = self.resigned
        return other

    def __str__(self) -> str:
        letters = COLUMNS[: self.size]
        lines = ["   " + " ".join(letters)]
        color = self._s[0]
        last = int(self._s[8][K.M_LAST])
        for row in range(self.size - 1, -1, -1):
            cells = []
            for col in range(self.size):
                p = row * self.size + col
                ch = ".XO"[int(color[p])]
                cells.append(ch)
            text = " ".join(cells)
            if 0 <= last and last // self.size == row:
                i = 2 * (last % self.size)
                text = text[:i] + ("x" if color[last] == BLACK else "o") + text[i + 1 :]
            lines.append(f"{row + 1:2d} {text} {row + 1:d}")
        lines.append("   " + " ".join(letters))
        lines.append(
            f"{color_name(self.turn)} to move, captures B {self.captures(BLACK)} "
            f"W {self.captures(WHITE)}, komi {self.komi:g}"
        )
        return "\n".join(lines)

    def __repr__(self) -> str:
        alternating = all(
            c == (BLACK if i % 2 == 0 else WHITE) for i, (c, _) in enumerate(self.move_stack)
        )
        if self.setup_black or self.setup_white or not alternating:
            from bitgames.go.sgf import to_sgf

            return f"Board.from_sgf({to_sgf(self)!r})"
        moves = " ".join(self.vertex(p) for _, p in self.move_stack)
        return (
            f"Board(size={self.size}, komi={self.komi:g}, "
            f"rules={self.rules.name!r}, moves={moves!r})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (
            self.size == other.size
            and self.turn == other.turn
            and bool(np.array_equal(self._s[0], other._s[0]))
            and self.ko_point == other.ko_point
        )

    __hash__ = None  # type: ignore[assignment]

    @classmethod
    def from_sgf(cls, text: str, rules: str | Rules = "default") -> Board:
        """A board after all moves of the main line of an SGF game."""
        from bitgames.go.sgf import read_sgf

        return read_sgf(text, rules=rules)

    def to_sgf(self) -> str:
        """The game as SGF text (size, komi, setup stones, moves, result when over)."""
        from bitgames.go.sgf import to_sgf

        return to_sgf(self)


def color_name(color: int) -> str:
    """``"black"`` or ``"white"``."""
    return "black" if color == BLACK else "white"


def format_score(score: float) -> str:
    """``B+x``, ``W+x`` or ``0`` for a black-minus-white score.

    >>> format_score(3.5), format_score(-0.5), format_score(0.0)
    ('B+3.5', 'W+0.5', '0')
    """
    if score > 0:
        return f"B+{score:g}"
    if score < 0:
        return f"W+{-score:g}"
    return "0"


def _bitmap_points(words: np.ndarray) -> list[int]:
    out = []
    for k, w in enumerate(words):
        x = int(w)
        while x:
            low = x & -x
            out.append(k * 64 + low.bit_length() - 1)
            x ^= low
    return out
