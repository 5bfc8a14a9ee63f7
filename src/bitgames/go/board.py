"""The Go board of the Python API: moves, rules profiles, position strings, scoring.

Colours are python-chess's booleans (:data:`BLACK` is ``False``, :data:`WHITE` is
``True``; Black moves first). A move is a :class:`Move`: a point given by its row and
column (independent of the board size), :attr:`Move.PASS` or :attr:`Move.RESIGN`; its
``str()`` is the GTP vertex (``D4``, ``pass``, ``resign``: columns A-Z without I, row 1
at the bottom). Anywhere a move is taken, its text works too. Board queries about points
(:meth:`Board.color_at`, :meth:`Board.stones`, :meth:`Board.block`) use point numbers
``p = row * size + col`` (``A1`` is 0) or vertices.

>>> board = Board(size=9)
>>> board.push("E5")
>>> board.push(Move.PASS)
>>> board.turn == BLACK, board.peek()
(True, Move.PASS)
>>> len(board.legal_moves)    # 80 empty points and the pass
81
>>> board.score()             # Tromp-Taylor area: black owns the board, minus komi
73.5
>>> board.result(), board.is_game_over()
('*', False)
>>> board.fen()
'9/9/9/9/4X4/9/9/9/9 b - 1 7.5 default'
>>> board.push("pass")
>>> board.result(), board.outcome().termination
('B+73.5', <Termination.PASSES: 'two passes'>)

The position string (``fen``) has six fields separated by spaces:

1. the stones, rows from the top (row ``size``) down to row 1, separated by ``/``:
   ``X`` black, ``O`` white, a number for a run of empty points (``4X4``); the number
   of rows is the board size (2 to 25);
2. the side to move, ``b`` or ``w``;
3. the simple-ko point forbidden to the side to move (a vertex), or ``-``;
4. the number of consecutive passes just played, ``0`` to ``2`` (2: the game is over);
5. the komi (a decimal number);
6. the rules profile (see :meth:`Rules.parse`).

Equality and hashing compare what the position string holds except the passes: the
stones, the side to move, the ko point, the komi and the rules. Like python-chess, the
history is not compared, and a board read from a string starts a new history: positions
before it do not count for superko.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from bitgames.core.board import BLACK, WHITE, BaseBoard, Color, Outcome, Termination, color_name
from bitgames.core.errors import (
    BitgamesError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
)
from bitgames.core.rng import random_at
from bitgames.go import kernels as K

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
MAX_SIZE = len(COLUMNS)
_B, _W = 1, 2  # the kernels' colours
_PASS, _RESIGN = -1, -2  # the kernels' pass, and the resignation in the move stack
#: XORed into the hash for "white to move" (situational superko): output 0 of the
#: Zobrist stream, so it differs from every stone key (outputs 1, 2, ... of the streams
#: at ``ZOBRIST_SEED + size``: mix64 is a bijection)
_SIDE_KEY = int(random_at(K.ZOBRIST_SEED, 0))
_VERTEX = re.compile(r"([A-HJ-Z])([0-9]{1,2})", re.ASCII)


def _kc(color: Color) -> int:
    """The kernels' colour (1 black, 2 white) of an API colour."""
    return _W if color else _B


@dataclass(frozen=True)
class Move:
    """A Go move: a point (``row``, ``col`` from 0, row 0 at the bottom), a pass or a
    resignation. ``str()`` is the GTP vertex, ``repr`` evaluates back.

    >>> Move.from_gtp("d4"), str(Move.from_gtp("D4")), Move.from_gtp("D4").row
    (Move.from_gtp('D4'), 'D4', 3)
    >>> Move.from_gtp("pass") == Move.PASS, str(Move.RESIGN)
    (True, 'resign')
    >>> Move.from_point(80, 9), Move.from_gtp("J9").point(9)
    (Move.from_gtp('J9'), 80)
    """

    row: int
    col: int

    #: the pass (``str()`` ``"pass"``)
    PASS: ClassVar[Move]
    #: the resignation (``str()`` ``"resign"``): not a board move, never in ``legal_moves``
    RESIGN: ClassVar[Move]

    def __post_init__(self) -> None:
        special = self.row == self.col and self.row in (_PASS, _RESIGN)
        if not special and not (0 <= self.row < MAX_SIZE and 0 <= self.col < MAX_SIZE):
            raise InvalidMoveError(f"no such point: row {self.row}, column {self.col}")

    @classmethod
    def from_gtp(cls, text: str) -> Move:
        """The move of a GTP vertex (case-insensitive), ``pass`` or ``resign``."""
        v = text.strip().upper()
        if v == "PASS":
            return cls.PASS
        if v == "RESIGN":
            return cls.RESIGN
        match = _VERTEX.fullmatch(v)
        if match is None or not 1 <= int(match[2]) <= MAX_SIZE:
            raise InvalidMoveError(
                f"bad vertex {text!r}: expected a column letter A-Z (no I) and a row 1-25, "
                "'pass' or 'resign'"
            )
        return cls(int(match[2]) - 1, COLUMNS.index(match[1]))

    @classmethod
    def from_point(cls, point: int, size: int) -> Move:
        """The move of a point number on a ``size`` x ``size`` board (-1: the pass)."""
        if point == _PASS:
            return cls.PASS
        if point == _RESIGN:
            return cls.RESIGN
        return _point_moves(size)[point]

    @property
    def is_pass(self) -> bool:
        return self.row == _PASS

    @property
    def is_resign(self) -> bool:
        return self.row == _RESIGN

    def point(self, size: int) -> int:
        """The point number on a ``size`` x ``size`` board (-1 pass, -2 resign);
        :class:`InvalidMoveError` when the point is off that board."""
        if self.row < 0:
            return self.row
        if self.row >= size or self.col >= size:
            raise InvalidMoveError(f"vertex {self} is off the {size}x{size} board")
        return self.row * size + self.col

    def __str__(self) -> str:
        if self.row < 0:
            return "pass" if self.row == _PASS else "resign"
        return f"{COLUMNS[self.col]}{self.row + 1}"

    def __repr__(self) -> str:
        if self.row < 0:
            return "Move.PASS" if self.row == _PASS else "Move.RESIGN"
        return f"Move.from_gtp({str(self)!r})"


Move.PASS = Move(_PASS, _PASS)
Move.RESIGN = Move(_RESIGN, _RESIGN)


@functools.cache
def _point_moves(size: int) -> tuple[Move, ...]:
    """The moves of the points of a board, by point number."""
    return tuple(Move(p // size, p % size) for p in range(size * size))


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


class Board(BaseBoard[Move]):
    """A Go position with its history: ``push``/``pop``, legal moves, scoring.

    ``Board()`` is an empty 9x9 board with komi 7.5 and the default rules;
    ``Board(fen)`` reads a position string (see the module's documentation);
    ``size``, ``komi`` and ``rules`` (a :class:`Rules` or a profile name) set up an empty
    board instead, and ``moves`` (moves or GTP vertices, a list or one space-separated
    string) are then played in turn.

    Two passes in a row end the game (:meth:`outcome`), but as in GTP's clean-up phase
    play may go on: :attr:`legal_moves` still lists the moves, and a move resumes the
    game. After a resignation no move is legal.
    """

    def __init__(
        self,
        fen: str | None = None,
        *,
        size: int | None = None,
        komi: float | None = None,
        rules: str | Rules | None = None,
        moves: Iterable[Move | str] | str = (),
    ) -> None:
        if fen is not None:
            if size is not None or komi is not None or rules is not None:
                raise BitgamesError("give a position string or size/komi/rules, not both")
            if not isinstance(fen, str):
                raise InvalidPositionError(f"a position string must be a str, got {fen!r}")
            self._set_fen(fen)
        else:
            self._reset(9 if size is None else size, 7.5 if komi is None else komi,
                        "default" if rules is None else rules)
        for m in moves.split() if isinstance(moves, str) else moves:
            self.push(m)

    def _reset(self, size: int, komi: float, rules: str | Rules) -> None:
        if not isinstance(size, int) or not 2 <= size <= MAX_SIZE:
            raise BitgamesError(f"board size must be an integer from 2 to 25, got {size!r}")
        komi = float(komi)
        if not math.isfinite(komi):
            raise BitgamesError(f"komi must be a finite number, got {komi!r}")
        self.size = size
        self.komi = komi
        self.rules = Rules.parse(rules)
        self._g = K.geometry(size)
        self._s = K.new_state(size)
        self._stack: list[tuple[K.State, int, int]] = []  # (state before, point, colour)
        self._keys: list[int] = []
        self._seen: Counter[int] = Counter()
        self.setup_black: list[int] = []
        self.setup_white: list[int] = []
        self.resigned: Color | None = None
        self._remember()

    # ------------------------------------------------------------------ basics
    @property
    def points(self) -> int:
        """Number of points of the board."""
        return self.size * self.size

    @property
    def handicap(self) -> int:
        """The handicap stones: Black's setup stones when there are two or more and White
        has none (:meth:`place_handicap`, GTP ``fixed_handicap``, SGF ``HA`` with ``AB``);
        otherwise 0.

        >>> board = Board(size=9, komi=0.5)
        >>> board.place_handicap(["C3", "G7"])
        >>> board.handicap, board.turn == WHITE
        (2, True)
        """
        if self.setup_white or len(self.setup_black) < 2:
            return 0
        return len(self.setup_black)

    @property
    def turn(self) -> Color:
        """The colour to move: :data:`BLACK` (``False``) or :data:`WHITE` (``True``).

        Setting it (a handicap, GTP ``genmove`` for the other colour) keeps the stones.
        """
        return bool(self._s[8][K.M_TOMOVE] == _W)

    @turn.setter
    def turn(self, color: Color) -> None:
        if not isinstance(color, bool):
            raise BitgamesError(f"a colour is WHITE (True) or BLACK (False), got {color!r}")
        self._forget()
        self._s[8][K.M_TOMOVE] = _kc(color)
        self._remember()

    @property
    def move_stack(self) -> list[Move]:
        """The moves played, first to last (a resignation included)."""
        return [Move.from_point(p, self.size) for _, p, _ in self._stack]

    def colored_moves(self) -> list[tuple[Color, Move]]:
        """The moves played with the colour that played each (GTP may play out of turn)."""
        return [(c == _W, Move.from_point(p, self.size)) for _, p, c in self._stack]

    def _played(self) -> list[tuple[int, int]]:
        """The moves played as the kernels see them: (colour 1/2, point)."""
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

    def captures(self, color: Color) -> int:
        """Number of stones captured by ``color`` (suicided stones count for the other)."""
        return int(self._s[8][K.M_CAPS + _kc(color) - 1])

    def color_at(self, point: int | str | Move) -> Color | None:
        """The colour of the stone at a point, vertex or move, ``None`` if empty.

        >>> Board(moves="E5").color_at("E5"), Board().color_at(0)
        (False, None)
        """
        c = int(self._s[0][self._point(point)])
        return None if c == 0 else c == _W

    def stones(self, color: Color) -> list[int]:
        """The points holding stones of ``color``, ascending."""
        return [int(p) for p in np.flatnonzero(self._s[0] == _kc(color))]

    def block(self, point: int | str | Move) -> tuple[list[int], list[int]]:
        """The stones and the liberties of the block at ``point``."""
        p = self._point(point)
        if self._s[0][p] == 0:
            raise BitgamesError(f"no stone at {self.vertex(p)}")
        r = int(self._s[1][p])
        return _bitmap_points(self._s[3][r]), _bitmap_points(self._s[4][r])

    def vertex(self, point: int) -> str:
        """The GTP vertex of a point number (``pass`` for -1)."""
        return str(Move.from_point(point, self.size))

    def parse_move(self, text: str) -> Move:
        """The move of a GTP vertex, ``pass`` or ``resign`` on this board.

        :class:`InvalidMoveError` when it is no vertex or off the board (its legality is
        not checked).
        """
        move = Move.from_gtp(text)
        move.point(self.size)
        return move

    def _point(self, where: int | str | Move) -> int:
        """The point number of a point, a vertex or a move (not a pass)."""
        if isinstance(where, str):
            where = Move.from_gtp(where)
        if isinstance(where, Move):
            p = where.point(self.size)
        else:
            p = int(where)
            if not 0 <= p < self.points:
                raise BitgamesError(f"point {p} is off the {self.size}x{self.size} board")
        if p < 0:
            raise BitgamesError(f"{where} is not a point")
        return p

    # ------------------------------------------------------------------ history keys
    def side_key(self) -> int:
        """What :meth:`history_keys` XORs into a position's stone hash when White is to
        move: the side key under situational superko, else 0 (the stones alone count).

        >>> Board(rules="situational").side_key() != 0, Board().side_key()
        (True, 0)
        """
        return _SIDE_KEY if self.rules.ko == "situational" else 0

    def _key(self, h: int, to_move: int) -> int:
        return h ^ self.side_key() if to_move == _W else h

    def _remember(self) -> None:
        key = self._key(int(self._s[9][0]), int(self._s[8][K.M_TOMOVE]))
        self._keys.append(key)
        self._seen[key] += 1

    def _forget(self) -> None:
        key = self._keys.pop()
        self._seen[key] -= 1
        if not self._seen[key]:
            del self._seen[key]

    def history_keys(self) -> np.ndarray:
        """Sorted keys of every position of the game (for superko checks in search): the
        stones' Zobrist hash, XORed with :meth:`side_key` when White is to move."""
        return np.array(sorted(self._seen), dtype=np.uint64)

    # ------------------------------------------------------------------ legality
    def is_legal(self, move: Move | str, color: Color | None = None) -> bool:
        """Whether ``color`` (default: the side to move) may play ``move`` now (as
        ``move in board.legal_moves``: a resignation is no board move, see :meth:`push`)."""
        try:
            m = Move.from_gtp(move) if isinstance(move, str) else move
            p = m.point(self.size)
        except BitgamesError:
            return False
        if self.resigned is not None or p == _RESIGN:
            return False
        return self._legal(p, self._mover(color))

    def _mover(self, color: Color | None) -> int:
        if color is None:
            return int(self._s[8][K.M_TOMOVE])
        if not isinstance(color, bool):
            raise BitgamesError(f"a colour is WHITE (True) or BLACK (False), got {color!r}")
        return _kc(color)

    def _legal(self, p: int, c: int) -> bool:
        if p < 0:
            return True
        s = self._s
        if c != int(s[8][K.M_TOMOVE]) and int(s[8][K.M_KO]) == p:
            # the simple-ko point binds only the player to move; test the other colour
            # without it (superko below still applies)
            s[8][K.M_KO] = -1
            try:
                ok = bool(K.is_legal(self._g, s, p, c, self.rules.suicide))
            finally:
                s[8][K.M_KO] = p
        else:
            ok = bool(K.is_legal(self._g, s, p, c, self.rules.suicide))
        if not ok or self.rules.ko == "simple":
            return ok
        return self._key(int(K.hash_after(self._g, s, p, c)), 3 - c) not in self._seen

    def legal_points(self) -> list[int]:
        """The points the side to move may play, ascending (the pass is always legal
        too, until a resignation)."""
        if self.resigned is not None:
            return []
        c = int(self._s[8][K.M_TOMOVE])
        legal = np.zeros(self.points, np.bool_)
        hashes = np.zeros(self.points, np.uint64)
        K.legal_scan(self._g, self._s, c, self.rules.suicide, legal, hashes)
        pts = np.flatnonzero(legal)
        if self.rules.ko != "simple" and len(pts):
            keys = hashes[pts]
            if c == _B:  # White to move after the move
                keys = keys ^ np.uint64(self.side_key())
            pts = pts[~np.isin(keys, self.history_keys())]
        return [int(p) for p in pts]

    def generate_legal_moves(self) -> list[Move]:
        """Every legal move of the side to move: points ascending, then the pass (none
        after a resignation; a resignation is not listed)."""
        if self.resigned is not None:
            return []
        moves = _point_moves(self.size)
        return [moves[p] for p in self.legal_points()] + [Move.PASS]

    # ------------------------------------------------------------------ moves
    def push(self, move: Move | str, color: Color | None = None) -> None:
        """Play ``move`` (a :class:`Move` or its text) for ``color`` (default: the side to
        move); :class:`IllegalMoveError` when the rules forbid it.

        ``Move.RESIGN`` is accepted too, though it is no board move (like python-chess's
        null move, it is never in :attr:`legal_moves`): it records the resignation of
        ``color`` and ends the game; :meth:`pop` takes it back.
        """
        m = self.parse_move(move) if isinstance(move, str) else move
        if not isinstance(m, Move):
            raise InvalidMoveError(f"not a move: {move!r}")
        p = m.point(self.size)
        c = self._mover(color)
        if self.resigned is not None:
            raise IllegalMoveError(f"the game is over: {color_name(self.resigned)} resigned")
        if p != _RESIGN and not self._legal(p, c):
            raise IllegalMoveError(
                f"illegal move {m} for {color_name(c == _W)} in {self.fen()}")
        self._play(p, c)

    def _push(self, move: Move) -> None:
        self._play(move.point(self.size), int(self._s[8][K.M_TOMOVE]))

    def _play(self, p: int, c: int) -> None:
        """Play a point (or pass, or resign) already known to be legal."""
        if p == _RESIGN:
            self._stack.append((self._s, p, c))
            self._s = K.copy_state(self._s)
            self.resigned = c == _W
        else:
            self._stack.append((K.copy_state(self._s), p, c))
            K.play(self._g, self._s, p, c)
        self._remember()

    def pop(self) -> Move:
        """Take back the last move and return it."""
        if not self._stack:
            raise IndexError("no move to take back")
        state, p, _ = self._stack.pop()
        self._forget()
        self._s = K.copy_state(state)  # a copy of the board may hold the same state
        if p == _RESIGN:
            self.resigned = None
        return Move.from_point(p, self.size)

    def peek(self) -> Move:
        """The last move played."""
        if not self._stack:
            raise IndexError("no move played yet")
        return Move.from_point(self._stack[-1][1], self.size)

    def setup(self, black: Iterable[int | str | Move] = (),
              white: Iterable[int | str | Move] = ()) -> None:
        """Place setup stones (SGF ``AB``/``AW``, handicap) before any move."""
        if self._stack:
            raise BitgamesError("setup stones must be placed before the first move")
        meta = self._s[8].copy()
        for stones, col, store in (
            (black, _B, self.setup_black),
            (white, _W, self.setup_white),
        ):
            for v in stones:
                p = self._point(v)
                if self._s[0][p] != 0:
                    raise BitgamesError(f"setup point {self.vertex(p)} is already occupied")
                K.play(self._g, self._s, p, col)
                store.append(p)
        for i in (K.M_TOMOVE, K.M_KO, K.M_PASSES, K.M_MOVES, K.M_LAST, K.M_LAST2, K.M_CAPS,
                  K.M_CAPS + 1):
            self._s[8][i] = meta[i]
        self._keys.clear()
        self._seen.clear()
        self._remember()

    def place_handicap(self, stones: Iterable[int | str | Move]) -> None:
        """Black's handicap stones, before any move; White then moves first."""
        self.setup(stones)
        self.turn = WHITE

    # ------------------------------------------------------------------ end of game
    def outcome(self) -> Outcome | None:
        """How the game ended: ``Termination.RESIGNATION`` (no score) or
        ``Termination.PASSES`` (two passes in a row; ``score`` is the Tromp-Taylor area
        score, Black minus White with komi, all stones counted alive); ``None`` while it
        goes on."""
        if self.resigned is not None:
            return Outcome(Termination.RESIGNATION, not self.resigned)
        if self.passes < 2:
            return None
        score = self.score()
        return Outcome(Termination.PASSES, None if score == 0 else score < 0, score)

    def area(self) -> int:
        """Tromp-Taylor area difference, black minus white, without komi."""
        return int(K.area_score(self._g, self._s))

    def score(self) -> float:
        """Area score minus komi: positive when Black leads (all stones counted alive)."""
        return self.area() - self.komi

    def result(self) -> str:
        """The result as in SGF: ``B+3.5``, ``W+0.5``, ``0``, ``W+R`` after Black
        resigned; ``"*"`` while the game goes on."""
        outcome = self.outcome()
        if outcome is None:
            return "*"
        if outcome.score is None:
            return ("W" if outcome.winner else "B") + "+R"
        return format_score(outcome.score)

    # ------------------------------------------------------------------ position strings
    def fen(self) -> str:
        """The position string (see the module's documentation); ``Board(fen)`` reads it.

        >>> Board(size=5, komi=0.5, rules="simple-ko", moves="C3 D3").fen()
        '5/5/2XO1/5/5 b - 0 0.5 simple-ko'
        """
        color = self._s[0]
        rows = []
        for row in range(self.size - 1, -1, -1):
            text, run = [], 0
            for c in color[row * self.size : (row + 1) * self.size]:
                if c == 0:
                    run += 1
                    continue
                if run:
                    text.append(str(run))
                    run = 0
                text.append("X" if c == _B else "O")
            if run:
                text.append(str(run))
            rows.append("".join(text))
        ko = self.ko_point
        komi = f"{self.komi:g}"
        if float(komi) != self.komi:
            komi = repr(self.komi)
        return " ".join((
            "/".join(rows),
            "w" if self.turn else "b",
            "-" if ko is None else self.vertex(ko),
            str(min(self.passes, 2)),
            komi,
            self.rules.name,
        ))

    def _set_fen(self, fen: str) -> None:
        fields = fen.split()
        names = ("stones", "side to move", "ko point", "passes", "komi", "rules")
        if len(fields) != len(names):
            raise InvalidPositionError(
                f"position string {fen!r}: expected {len(names)} fields ({', '.join(names)}), "
                f"got {len(fields)}")
        rows = fields[0].split("/")
        size = len(rows)
        if not 2 <= size <= MAX_SIZE:
            raise InvalidPositionError(f"position string {fen!r}: {size} rows, the board "
                                       f"size must be 2 to {MAX_SIZE}")
        black: list[int] = []
        white: list[int] = []
        for i, text in enumerate(rows):
            row = size - 1 - i
            col = 0
            for token in re.findall(r"[0-9]+|.", text):
                if token.isdigit():
                    if token[0] == "0":
                        raise InvalidPositionError(
                            f"position string: row {row + 1}: bad run of empty points "
                            f"{token!r}")
                    col += int(token)
                    continue
                if token not in "XO" or col >= size:
                    what = f"unexpected {token!r}" if token not in "XO" else "too many points"
                    raise InvalidPositionError(f"position string: row {row + 1}: {what} "
                                               "(X black, O white, a number of empty points)")
                (black if token == "X" else white).append(row * size + col)
                col += 1
            if col != size:
                raise InvalidPositionError(
                    f"position string: row {row + 1} has {col} points, expected {size}")
        side = fields[1]
        if side not in ("b", "w"):
            raise InvalidPositionError(f"position string: side to move must be 'b' or 'w', "
                                       f"got {side!r}")
        if fields[3] not in ("0", "1", "2"):
            raise InvalidPositionError(f"position string: passes must be 0, 1 or 2, got "
                                       f"{fields[3]!r}")
        try:
            komi = float(fields[4])
        except ValueError:
            komi = math.nan
        if not math.isfinite(komi):
            raise InvalidPositionError(f"position string: bad komi {fields[4]!r}")
        try:
            rules = Rules.parse(fields[5])
        except BitgamesError as exc:
            raise InvalidPositionError(f"position string: {exc}") from None
        self._reset(size, komi, rules)
        grid = np.zeros(size * size, np.int8)
        grid[black] = _B
        grid[white] = _W
        for p in black + white:
            if not _has_liberty(grid, size, p):
                raise InvalidPositionError(
                    f"position string: the block at {self.vertex(p)} has no liberty")
        self.setup(black, white)
        meta = self._s[8]
        to_move = _W if side == "w" else _B
        meta[K.M_TOMOVE] = to_move
        meta[K.M_PASSES] = int(fields[3])
        meta[K.M_LAST] = _PASS if meta[K.M_PASSES] else -2
        meta[K.M_LAST2] = _PASS if meta[K.M_PASSES] > 1 else -2
        if fields[2] != "-":
            try:
                ko = self._point(fields[2])
            except BitgamesError as exc:
                raise InvalidPositionError(f"position string: ko point: {exc}") from None
            if not _is_ko(grid, size, ko, 3 - to_move):
                raise InvalidPositionError(
                    f"position string: {fields[2]} is no ko point: it must be empty, all "
                    f"its neighbours {color_name(to_move == _B)}, one of them a lone stone "
                    "in atari")
            meta[K.M_KO] = ko
        self._keys.clear()
        self._seen.clear()
        self._remember()

    def position_key(self) -> tuple[object, ...]:
        """The stones, the side to move, the ko point, the komi and the rules."""
        return (self.size, self._s[0].tobytes(), self.turn, self.ko_point, self.komi,
                self.rules)

    # ------------------------------------------------------------------ copies, text
    def copy(self) -> Board:
        """An independent copy, history included."""
        other = Board.__new__(Board)
        other.size = self.size
        other.komi = self.komi
        other.rules = self.rules
        other._g = self._g
        other._s = K.copy_state(self._s)
        other._stack = list(self._stack)  # the states in it are never changed
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
                text = text[:i] + ("x" if color[last] == _B else "o") + text[i + 1 :]
            lines.append(f"{row + 1:2d} {text} {row + 1:d}")
        lines.append("   " + " ".join(letters))
        lines.append(
            f"{color_name(self.turn)} to move, captures B {self.captures(BLACK)} "
            f"W {self.captures(WHITE)}, komi {self.komi:g}"
        )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Board({self.fen()!r})"

    @classmethod
    def from_sgf(cls, text: str, rules: str | Rules = "default") -> Board:
        """A board after all moves of the main line of an SGF game."""
        from bitgames.go.sgf import read_sgf

        return read_sgf(text, rules=rules)

    def to_sgf(self) -> str:
        """The game as SGF text (size, komi, setup stones, moves, result when over)."""
        from bitgames.go.sgf import to_sgf

        return to_sgf(self)


def _neighbours(size: int, p: int) -> list[int]:
    row, col = divmod(p, size)
    out = [p - size] if row else []
    if row < size - 1:
        out.append(p + size)
    if col:
        out.append(p - 1)
    if col < size - 1:
        out.append(p + 1)
    return out


def _has_liberty(grid: np.ndarray, size: int, p: int) -> bool:
    """Whether the block of the stone at ``p`` touches an empty point."""
    c = grid[p]
    seen, todo = {p}, [p]
    while todo:
        for q in _neighbours(size, todo.pop()):
            if grid[q] == 0:
                return True
            if grid[q] == c and q not in seen:
                seen.add(q)
                todo.append(q)
    return False


def _is_ko(grid: np.ndarray, size: int, p: int, capturer: int) -> bool:
    """Whether ``p`` can be the ko point just made by ``capturer``: empty, every
    neighbour a ``capturer`` stone, one of them a lone stone whose only liberty is ``p``."""
    around = _neighbours(size, p)
    if grid[p] != 0 or any(grid[q] != capturer for q in around):
        return False
    return any(
        all(grid[r] != capturer and (grid[r] != 0 or r == p) for r in _neighbours(size, q))
        for q in around
    )


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


def parse_score(text: str) -> float:
    """The black-minus-white score of a result ``B+x``, ``W+x`` or ``0`` (as GTP's
    ``final_score`` answers); :class:`BitgamesError` for anything else.

    >>> parse_score("B+3.5"), parse_score("W+0.5"), parse_score("0")
    (3.5, -0.5, 0.0)
    >>> parse_score("B+R")
    Traceback (most recent call last):
    ...
    bitgames.core.errors.BitgamesError: not a score: 'B+R' (expected B+x, W+x or 0)
    """
    t = text.strip()
    try:
        if t in ("0", "Draw"):
            return 0.0
        if t[:2].upper() in ("B+", "W+"):
            value = float(t[2:])
            if value == value and abs(value) != float("inf"):
                return value if t[0] in "Bb" else -value
    except ValueError:
        pass
    raise BitgamesError(f"not a score: {text!r} (expected B+x, W+x or 0)")


def _bitmap_points(words: np.ndarray) -> list[int]:
    out = []
    for k, w in enumerate(words):
        x = int(w)
        while x:
            low = x & -x
            out.append(k * 64 + low.bit_length() - 1)
            x ^= low
    return out
