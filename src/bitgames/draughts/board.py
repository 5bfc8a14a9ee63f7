"""Draughts positions and moves for people: :class:`Board`, :class:`Move`, FEN and notation.

Two variants share the 8x8 board (a1 dark): ``"russian"`` (flying kings, men capture
backwards, free choice of capture, Turkish strike, a man crowned during a capture goes on
capturing as a king; White starts) and ``"english"`` checkers (short kings, men capture
forwards only, crowning ends the move; Black starts). Rules run in the numba kernels of
:mod:`bitgames.draughts.kernels`.

Notation: Russian uses algebraic squares (``c3-d4``, captures with every landing square
``c3:e5:g3``); English uses the standard numbers 1-32 (1 = b8, 32 = g1: ``11-15``,
``22x15``, ``27x18x11``). Parsing also accepts a capture by its start and end only
(``c3:g3``) when that is unambiguous.

>>> board = Board()
>>> [board.move_name(m) for m in board.legal_moves][:3]
['a3-b4', 'c3-b4', 'c3-d4']
>>> board.push("c3-d4"); board.push("f6-e5"); board.push("d4:f6")
>>> board.peek().captured_squares()
['e5']
>>> board.fen()
'B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,f6:Bb6,d6,h6,a7,c7,e7,g7,b8,d8,f8,h8'
>>> _ = board.pop(); board.fen() == Board(board.fen()).fen()
True
>>> print(Board("W:WKc1:Bd2,f4", variant="russian"))
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . b . .
3 . . . . . . . .
2 . . . b . . . .
1 . . W . . . . .
  a b c d e f g h
White to move
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Literal

from bitgames.core import errors
from bitgames.core.bits import iter_bits, popcount
from bitgames.core.board import BLACK, WHITE, BaseBoard, Color, Outcome, Termination
from bitgames.core.errors import InvalidPositionError
from bitgames.draughts import geometry as g

Variant = Literal["russian", "english"]
VARIANTS: tuple[str, ...] = ("russian", "english")

MAIN_ROAD = g.mask_of(g.lines()[8])  # a1-h8


class DraughtsError(errors.BitgamesError):
    """Base class of draughts input errors."""


class InvalidFenError(errors.InvalidPositionError, DraughtsError):
    """A FEN string that cannot be read."""


class InvalidMoveError(errors.InvalidMoveError, DraughtsError):
    """A move text that is no draughts move at all (bad square, bad separator)."""


class IllegalMoveError(errors.IllegalMoveError, DraughtsError):
    """A move that is not legal in the position."""


class AmbiguousMoveError(errors.AmbiguousMoveError, IllegalMoveError):
    """A move written by start and end that matches several captures."""


def _variant_code(variant: str) -> int:
    from bitgames.draughts import kernels

    if variant == "russian":
        return kernels.RUSSIAN
    if variant == "english":
        return kernels.ENGLISH
    raise DraughtsError(f"unknown variant {variant!r}; use 'russian' or 'english'")


def _square_token(sq: int, variant: str) -> str:
    return str(g.numeric_square(sq)) if variant == "english" else g.square_name(sq)


def _read_square(token: str, what: str) -> tuple[int, bool]:
    """(bit index, numeric?) of a square written ``c3`` or ``22``; ``what`` is for errors."""
    token = token.strip()
    if token.isascii() and token.isdigit():
        try:
            return g.from_numeric(int(token)), True
        except errors.BitgamesError as exc:
            raise InvalidMoveError(f"{what}: {exc}") from None
    try:
        return g.square_index(token), False
    except errors.BitgamesError:
        raise InvalidMoveError(f"{what}: {token!r} is not a square (a1 ... h8 or 1 ... 32)"
                               ) from None


def _between(a: int, b: int) -> list[int] | None:
    """The squares strictly between ``a`` and ``b`` on their diagonal (None: not one)."""
    (fa, ra), (fb, rb) = g.COORDS[a], g.COORDS[b]
    n = abs(fb - fa)
    if n == 0 or n != abs(rb - ra):
        return None
    df, dr = (fb - fa) // n, (rb - ra) // n
    return [g.index_of(fa + i * df, ra + i * dr) for i in range(1, n)]


@dataclass(frozen=True)
class Move:
    """A move: start and end squares (bit indices), the captured set, the landing squares.

    ``str(move)`` is the move in its variant's notation (Russian ``c3-d4``, ``c3:e5:c7``;
    English ``9-13``, ``9x18x27``, squares 1-32 as in PDN) and :meth:`from_str` reads it
    back. Two moves are equal when variant, start, end and captured set are equal: the
    landing path only matters for notation (as in draughts perft, two paths that take the
    same pieces are one move), and ``crowned`` follows from the position.

    >>> Move.from_str("c3:e5:c7")
    Move.from_str('c3:e5:c7')
    >>> Move.from_str("c3:e5:c7").captured_squares()
    ['d4', 'd6']
    >>> str(Move.from_str("9x18x27")), Move.from_str("9-13").variant
    ('9x18x27', 'english')
    >>> Move.from_str("a1:e5", captured="c3")  # a king's long jump names what it takes
    Move.from_str('a1:e5', captured='c3')
    """

    start: int
    end: int
    captured: int = 0
    path: tuple[int, ...] = field(default=(), compare=False)
    crowned: bool = field(default=False, compare=False)
    variant: str = "russian"

    @classmethod
    def from_str(cls, text: str, variant: str | None = None,
                 captured: str | Iterable[str] | None = None) -> Move:
        """The move written ``text``: ``c3-d4``, ``c3:e5:c7`` (Russian), ``9-13``,
        ``9x18x27`` (English). The notation says the variant (algebraic squares Russian,
        numbers English) unless ``variant`` is given. A capture's pieces follow from its
        path when every leg is a short jump; a flying king's longer leg needs
        ``captured`` (its squares, ``"d4,f6"`` or a list).
        """
        raw = text.strip()
        what = f"move {text!r}"
        is_capture = bool(re.search(r"[:x]", raw.lower()))
        tokens = re.split(r"[-:x]", raw.lower())
        if len(tokens) < 2 or not all(tokens) or (is_capture and "-" in raw):
            raise InvalidMoveError(f"{what}: write it as c3-d4, c3:e5:c7, 9-13 or 9x18x27")
        read = [_read_square(t, what) for t in tokens]
        numeric = {n for _, n in read}
        if len(numeric) > 1:
            raise InvalidMoveError(f"{what}: mixes numbers and algebraic squares")
        if variant is None:
            variant = "english" if numeric == {True} else "russian"
        elif variant not in VARIANTS:
            raise DraughtsError(f"unknown variant {variant!r}; use 'russian' or 'english'")
        squares = [s for s, _ in read]
        if not is_capture and len(squares) != 2:
            raise InvalidMoveError(f"{what}: a move without capture has two squares")
        mask = 0
        given = None
        if captured is not None:
            items = captured.split(",") if isinstance(captured, str) else list(captured)
            given = sum(1 << _read_square(c, f"{what}, captured {c!r}")[0] for c in items)
        for a, b in pairwise(squares):
            between = _between(a, b)
            if between is None:
                raise InvalidMoveError(f"{what}: {tokens[squares.index(a)]} and "
                                       f"{tokens[squares.index(b)]} are not on one diagonal")
            if is_capture and not between:
                raise InvalidMoveError(f"{what}: a capture leg jumps over a square")
            if is_capture and given is None:
                if len(between) != 1:
                    raise InvalidMoveError(f"{what}: a long capture leg needs captured=...")
                mask |= 1 << between[0]
        if given is not None:
            mask = given
        return cls(squares[0], squares[-1], mask, tuple(squares[1:]) if is_capture else (),
                   variant=variant)

    @property
    def is_capture(self) -> bool:
        return self.captured != 0

    def captured_squares(self) -> list[str]:
        """Names of the captured pieces' squares, in the variant's notation."""
        return [_square_token(s, self.variant) for s in iter_bits(self.captured)]

    def squares(self) -> list[int]:
        """Start, then every landing square (bit indices)."""
        return [self.start, *(self.path or (self.end,))]

    def name(self) -> str:
        """The move in its variant's notation (full landing path for captures)."""
        sep = ("x" if self.variant == "english" else ":") if self.is_capture else "-"
        return sep.join(_square_token(s, self.variant) for s in self.squares())

    def hub_name(self) -> str:
        """Hub protocol form: ``32-28`` or ``from x to x captured ...`` (numeric squares)."""
        if not self.is_capture:
            return f"{g.numeric_square(self.start)}-{g.numeric_square(self.end)}"
        caps = sorted(g.numeric_square(s) for s in iter_bits(self.captured))
        return "x".join(str(x) for x in [g.numeric_square(self.start),
                                         g.numeric_square(self.end), *caps])

    def __str__(self) -> str:
        return self.name()

    def __repr__(self) -> str:
        text = self.name()
        implied = 0
        for a, b in pairwise(self.squares()):
            between = _between(a, b) or []
            implied |= 1 << between[0] if self.is_capture and len(between) == 1 else 0
        inferred = "english" if text[0].isdigit() else "russian"
        extra = "" if inferred == self.variant else f", variant={self.variant!r}"
        if self.is_capture and implied != self.captured:
            extra += f", captured={','.join(self.captured_squares())!r}"
        return f"Move.from_str({text!r}{extra})"


def _move_from_packed(packed: int, path: list[int], variant: str) -> Move:
    start = (packed >> 32) & 31
    end = (packed >> 37) & 31
    return Move(start, end, packed & 0xFFFF_FFFF, tuple(path) if path else (),
                bool(packed >> 42 & 1), variant)


@dataclass(frozen=True)
class DrawRules:
    """Automatic draw rules; every limit is in *moves* (a move by each side), None = off.

    Defaults for Russian (the FMJD-64 list, ``docs/REFERENCES.md``): threefold
    repetition; 15 moves with only kings moved and no capture; 3 or more kings against a
    lone king not won in 15 moves; 3 pieces (with a king) against a lone king on the main
    road a1-h8 not won in 5 moves; both sides with kings and no capture or crowning for 30
    moves with 4-5 pieces, 60 moves with 6-7. English: threefold repetition and 40 moves
    without a man move or capture.
    """

    repetition: int | None = 3
    kings_only: int | None = None
    three_kings_vs_one: int | None = None
    main_road: int | None = None
    balance_4_5: int | None = None
    balance_6_7: int | None = None
    no_progress: int | None = None

    @classmethod
    def russian(cls) -> DrawRules:
        return cls(3, 15, 15, 5, 30, 60, None)

    @classmethod
    def english(cls) -> DrawRules:
        return cls(3, None, None, None, None, None, 40)

    @classmethod
    def none(cls) -> DrawRules:
        return cls(None)


@dataclass(frozen=True)
class _State:
    white: int
    black: int
    kings: int
    turn: Color
    kings_only: int = 0  # plies in a row with a king move and no capture
    no_progress: int = 0  # plies without a man move or capture
    balance: int = 0  # plies without capture or crowning
    lone: int = 0  # plies since ">= 3 kings vs a lone king" arose
    road: int = 0  # plies since "3 pieces vs a lone king on the main road" arose


class Board(BaseBoard[Move]):
    """A draughts position with its move history.

    ``Board()`` is the Russian start position, ``Board(variant="english")`` the English
    one. ``Board(fen)`` reads a FEN (PDN's ``[FEN]`` form, ``K`` marks a king), and the FEN
    says its variant the way PDN files write them: algebraic squares are Russian
    (``W:Wa1,Kc3:Bh8``), the numbers 1-32 are English checkers (``B:W21-32:B1-12``, 1 = b8,
    32 = g1). ``variant=`` overrides that (a Russian FEN in numbers, as Hub positions give
    it); a FEN with no piece at all is Russian unless ``variant`` says otherwise.
    ``draw_rules`` defaults to the variant's :class:`DrawRules`.

    :meth:`outcome` uses :attr:`Termination.NO_MOVES <bitgames.core.board.Termination>`
    (the side to move has no move and loses), ``REPETITION``, ``MOVE_RULE`` (the 15-move
    kings-only rule, English 40 moves without a man move or capture) and ``DRAW_RULE``
    (Russian endgame rules: three kings against one, the main road, 4-7 piece endings).

    >>> b = Board(variant="english")
    >>> b.turn == BLACK, len(b.legal_moves), str(next(iter(b.legal_moves)))
    (True, 7, '9-13')
    >>> b.push("11-15"); b.push("22-18"); b.push("15x22"); str(b.peek())
    '15x22'
    >>> Board(b.fen()) == b, b.variant, Board(b.fen()).variant
    (True, 'english', 'english')
    >>> eval(repr(b)) == b
    True
    """

    def __init__(self, fen: str | None = None, variant: str | None = None,
                 draw_rules: DrawRules | None = None) -> None:
        from bitgames.draughts import kernels

        if fen is not None and variant is None:
            variant = _fen_variant(fen)
        self.variant = variant or "russian"
        self._code = _variant_code(self.variant)
        self.draw_rules = draw_rules or (
            DrawRules.russian() if self.variant == "russian" else DrawRules.english())
        w, b, k, side = kernels.start_position(self._code)
        self._state = _State(int(w), int(b), int(k), side == kernels.WHITE)
        self.move_stack: list[Move] = []
        self._stack: list[_State] = []
        self._cache: tuple[_State, list[Move]] | None = None
        if fen is not None:
            self.set_fen(fen)

    # -- state ---------------------------------------------------------------------------

    @property
    def white(self) -> int:
        return self._state.white

    @property
    def black(self) -> int:
        return self._state.black

    @property
    def kings(self) -> int:
        return self._state.kings

    @property
    def turn(self) -> Color:  # type: ignore[override]
        return self._state.turn

    def bitboards(self) -> tuple[int, int, int, int]:
        """(white, black, kings, side) with side 0 = White to move, as the kernels take."""
        s = self._state
        return s.white, s.black, s.kings, 0 if s.turn == WHITE else 1

    def piece_at(self, square: int | str) -> str | None:
        """``'w'``/``'W'`` white man/king, ``'b'``/``'B'`` black, None if empty."""
        sq = g.square_index(square) if isinstance(square, str) else square
        bit = 1 << sq
        s = self._state
        ch = "w" if s.white & bit else "b" if s.black & bit else None
        if ch and s.kings & bit:
            ch = ch.upper()
        return ch

    # -- FEN -------------------------------------------------------------------------------

    def _order(self, mask: int) -> list[int]:
        if self.variant == "english":
            return sorted(iter_bits(mask), key=g.numeric_square)
        return sorted(iter_bits(mask), key=lambda s: (g.COORDS[s][1], g.COORDS[s][0]))

    def fen(self) -> str:
        """FEN ``W:W<white squares>:B<black squares>`` (``K`` marks kings), squares in the
        variant's notation, so ``Board(board.fen()) == board``."""
        s = self._state
        parts = []
        for tag, mask in (("W", s.white), ("B", s.black)):
            items = [("K" if s.kings >> sq & 1 else "") + _square_token(sq, self.variant)
                     for sq in self._order(mask)]
            parts.append(tag + ",".join(items))
        return f"{'W' if s.turn == WHITE else 'B'}:{parts[0]}:{parts[1]}"

    def set_fen(self, fen: str) -> None:
        """Set the position from a FEN; clears the move history."""
        text = fen.strip().strip('"')
        fields = [f.strip() for f in text.split(":")]
        if len(fields) < 3 or fields[0].upper() not in ("W", "B"):
            raise InvalidFenError(f"FEN {fen!r}: expected 'W:W...:B...' (side, then pieces)")
        turn = fields[0].upper() == "W"
        masks = {"W": 0, "B": 0}
        kings = 0
        seen = set()
        for part in fields[1:]:
            if not part:
                raise InvalidFenError(f"FEN {fen!r}: an empty field")
            tag = part[0].upper()
            if tag in "HF" and part[1:].isascii() and part[1:].isdigit():
                continue  # lidraughts' halfmove/fullmove counters
            if tag not in "WB" or tag in seen:
                raise InvalidFenError(f"FEN {fen!r}: bad piece field {part!r} (W... or B...)")
            seen.add(tag)
            items = part[1:].split(",")
            if items == [""]:
                continue
            for item in (x.strip() for x in items):
                if not item:
                    raise InvalidFenError(f"FEN {fen!r}: an empty square in field {part!r}")
                king = item[0] in "Kk"
                body = item[1:] if king else item
                for sq in self._parse_squares(body, fen):
                    if (masks["W"] | masks["B"]) >> sq & 1:
                        raise InvalidFenError(
                            f"FEN {fen!r}: square {_square_token(sq, self.variant)} given "
                            "twice")
                    masks[tag] |= 1 << sq
                    if king:
                        kings |= 1 << sq
        if seen != {"W", "B"}:
            raise InvalidFenError(f"FEN {fen!r}: needs a W field and a B field")
        promo_white = g.RANK[7] & masks["W"] & ~kings
        promo_black = g.RANK[0] & masks["B"] & ~kings
        if promo_white or promo_black:
            sq = next(iter_bits(promo_white | promo_black))
            raise InvalidFenError(f"FEN {fen!r}: a man on {_square_token(sq, self.variant)}, "
                                  "its promotion rank")
        self._state = _State(masks["W"], masks["B"], kings, turn)
        self.move_stack = []
        self._stack = []

    def _parse_squares(self, body: str, fen: str) -> list[int]:
        m = re.fullmatch(r"(\d+)-(\d+)", body)
        try:
            if m:
                lo, hi = int(m.group(1)), int(m.group(2))
                if lo > hi:
                    raise InvalidFenError(f"FEN {fen!r}: empty range {body!r}")
                return [g.from_numeric(n) for n in range(lo, hi + 1)]
            if body.isascii() and body.isdigit():
                return [g.from_numeric(int(body))]
            return [g.square_index(body)]
        except InvalidFenError:
            raise
        except errors.BitgamesError:
            raise InvalidFenError(f"FEN {fen!r}: {body!r} is not a square") from None

    # -- moves -----------------------------------------------------------------------------

    def _legal(self) -> list[Move]:
        if self._cache is not None and self._cache[0] is self._state:
            return self._cache[1]
        from bitgames.draughts import kernels

        w, b, k, side = self.bitboards()
        moves = sorted((_move_from_packed(mv, path, self.variant)
                        for mv, path in kernels.legal_moves(w, b, k, side, self._code)),
                       key=self._sort_key)
        self._cache = (self._state, moves)
        return moves

    def generate_legal_moves(self) -> list[Move]:
        """Every legal move, in notation order (a fresh list)."""
        return list(self._legal())

    def count_legal_moves(self) -> int:
        return len(self._legal())

    def _sort_key(self, m: Move) -> tuple[int, ...]:
        if self.variant == "english":
            return tuple(g.numeric_square(x) for x in m.squares())
        return tuple(c for x in m.squares() for c in g.COORDS[x])

    def move_name(self, move: Move) -> str:
        """``move`` in this variant's notation (``str(move)`` of the board's own moves)."""
        return move.name() if move.variant == self.variant else self._as_move(move).name()

    def parse_move(self, text: str) -> Move:
        """The legal move written as ``text`` (``c3-d4``, ``c3:e5:g3``, ``c3:g3``, ``11-15``,
        ``22x15``; Hub form ``from x to x captured...`` is accepted too)."""
        raw = text.strip()
        tokens = [t for t in re.split(r"[-:x]", raw.lower()) if t]
        if len(tokens) < 2:
            raise InvalidMoveError(f"cannot read move {text!r}")
        squares = [_read_square(t, f"move {text!r}")[0] for t in tokens]
        legal = self._legal()
        start, end = squares[0], squares[-1]
        exact = [m for m in legal if m.squares() == squares]
        if exact:
            return exact[0]
        cands = [m for m in legal if m.start == start and m.end == end
                 and _is_subsequence(squares[1:-1], list(m.path[:-1]))]
        if not cands and len(squares) > 2:
            # Hub form: from x to x captured squares (any order)
            caps = sum(1 << s for s in squares[2:])
            cands = [m for m in legal if m.start == start and m.end == squares[1]
                     and m.captured == caps]
        if not cands:
            raise IllegalMoveError(f"illegal move {text!r} in {self.fen()}")
        if len(set(cands)) > 1:
            names = ", ".join(m.name() for m in cands)
            raise AmbiguousMoveError(f"move {text!r} is ambiguous: {names}")
        return cands[0]

    def _as_move(self, move: Move | str) -> Move:
        if isinstance(move, str):
            return self.parse_move(move)
        for m in self._legal():
            if m == move:
                return m
        raise IllegalMoveError(f"illegal move {move} in {self.fen()}")

    def is_legal(self, move: Move | str) -> bool:
        try:
            self._as_move(move)
        except errors.BitgamesError:
            return False
        return True

    def push(self, move: Move | str) -> None:
        """Play a legal move (a :class:`Move` or its notation); :meth:`peek` returns it."""
        self._push(self._as_move(move))

    def _push(self, m: Move) -> None:
        from bitgames.draughts import kernels

        s = self._state
        w, b, k, side = self.bitboards()
        packed = (m.captured | m.start << 32 | m.end << 37 | int(m.crowned) << 42)
        nw, nb, nk, _ = kernels.make_move(kernels.U(w), kernels.U(b), kernels.U(k),
                                          side, kernels.U(packed))
        nw, nb, nk = int(nw), int(nb), int(nk)
        king_move = bool(s.kings >> m.start & 1)
        capture = m.is_capture
        kings_only = s.kings_only + 1 if king_move and not capture else 0
        no_progress = s.no_progress + 1 if king_move and not capture else 0
        balance = 0 if capture or m.crowned else s.balance + 1
        lone = road = 0
        if not capture:
            if _three_kings_vs_one(nw, nb, nk):
                lone = s.lone + 1 if _three_kings_vs_one(s.white, s.black, s.kings) else 1
            if _main_road_case(nw, nb, nk):
                road = s.road + 1 if _main_road_case(s.white, s.black, s.kings) else 1
        self._stack.append(s)
        self.move_stack.append(m)
        self._state = _State(nw, nb, nk, not s.turn, kings_only, no_progress, balance, lone,
                             road)

    def pop(self) -> Move:
        """Take back the last move and return it."""
        if not self.move_stack:
            raise IndexError("pop from an empty move stack")
        self._state = self._stack.pop()
        return self.move_stack.pop()

    def peek(self) -> Move:
        """The last move played."""
        return self.move_stack[-1]

    # -- game end ---------------------------------------------------------------------------

    def _key(self, s: _State) -> tuple[int, int, int, bool]:
        return s.white, s.black, s.kings, s.turn

    def position_key(self) -> tuple[str, int, int, int, bool]:
        return (self.variant, *self._key(self._state))

    def repetitions(self) -> int:
        """How many times the current position (with the side to move) has occurred."""
        key = self._key(self._state)
        return 1 + sum(1 for st in self._stack if self._key(st) == key)

    def _draw(self) -> tuple[Termination, str] | None:
        r, s = self.draw_rules, self._state
        if r.repetition and self.repetitions() >= r.repetition:
            return Termination.REPETITION, f"{r.repetition}-fold repetition"
        if r.kings_only and s.kings_only >= 2 * r.kings_only:
            return (Termination.MOVE_RULE,
                    f"{r.kings_only} moves with only kings moved and no capture")
        if r.no_progress and s.no_progress >= 2 * r.no_progress:
            return (Termination.MOVE_RULE,
                    f"{r.no_progress} moves without a man move or capture")
        if r.three_kings_vs_one and s.lone >= 2 * r.three_kings_vs_one:
            return (Termination.DRAW_RULE,
                    f"3 kings against a lone king for {r.three_kings_vs_one} moves")
        if r.main_road and s.road >= 2 * r.main_road:
            return Termination.DRAW_RULE, f"lone king on the main road for {r.main_road} moves"
        if s.white & s.kings and s.black & s.kings:
            pieces = popcount(s.white | s.black)
            limit = r.balance_4_5 if pieces in (4, 5) else (
                r.balance_6_7 if pieces in (6, 7) else None)
            if limit and s.balance >= 2 * limit:
                return (Termination.DRAW_RULE,
                        f"{pieces}-piece ending unchanged for {limit} moves")
        return None

    def draw_reason(self) -> str | None:
        """The draw rule that ends the game now, in words, or None."""
        draw = self._draw()
        return None if draw is None else draw[1]

    def outcome(self) -> Outcome | None:
        """``NO_MOVES`` (the side to move lost), a draw rule's termination, or None.

        >>> Board("W:W:Bd4").outcome()
        Outcome(termination=<Termination.NO_MOVES: 'no moves'>, winner=False, score=None)
        """
        if not self._legal():
            return Outcome(Termination.NO_MOVES, not self.turn)
        draw = self._draw()
        return None if draw is None else Outcome(draw[0], None)

    def copy(self, stack: bool = True) -> Board:
        board = Board.__new__(Board)
        board.variant, board._code, board.draw_rules = self.variant, self._code, self.draw_rules
        board._state = self._state
        board.move_stack = list(self.move_stack) if stack else []
        board._stack = list(self._stack) if stack else []
        board._cache = self._cache
        return board

    # -- display ----------------------------------------------------------------------------

    def grid(self) -> str:
        """The board as text, rank 8 on top (``w``/``b`` men, ``W``/``B`` kings)."""
        lines = []
        for r in range(7, -1, -1):
            row = []
            for f in range(8):
                if (f + r) % 2:
                    row.append(".")
                else:
                    row.append(self.piece_at(g.index_of(f, r)) or ".")
            lines.append(f"{r + 1} {' '.join(row)}")
        lines.append("  a b c d e f g h")
        return "\n".join(lines)

    def __str__(self) -> str:
        if self.is_game_over():
            reason = self.draw_reason()
            status = f"Game over, {self.result()}" + (f" ({reason})" if reason else "")
        else:
            status = f"{'White' if self.turn == WHITE else 'Black'} to move"
        return f"{self.grid()}\n{status}"

    def __repr__(self) -> str:
        fen = self.fen()
        if _fen_variant(fen) == self.variant:
            return f"Board({fen!r})"
        return f"Board({fen!r}, variant={self.variant!r})"


def _fen_variant(fen: str) -> str:
    """The variant a FEN's square notation says: numbers English, letters Russian."""
    kinds = set()
    for part in fen.strip().strip('"').split(":")[1:]:
        if part[:1].upper() in ("W", "B"):
            for item in part[1:].split(","):
                body = item.strip().lstrip("Kk")
                if body:
                    kinds.add(body[0].isdigit())
    if len(kinds) > 1:
        raise InvalidFenError(f"FEN {fen!r}: mixes numbers (English) and algebraic squares "
                              "(Russian)")
    return "english" if kinds == {True} else "russian"


def _is_subsequence(small: list[int], big: list[int]) -> bool:
    it = iter(big)
    return all(x in it for x in small)


def _three_kings_vs_one(w: int, b: int, k: int) -> bool:
    for strong, weak in ((w, b), (b, w)):
        if popcount(weak) == 1 and weak & k and popcount(strong & k) >= 3:
            return True
    return False


def _main_road_case(w: int, b: int, k: int) -> bool:
    """3 pieces with at least one king against a lone king standing on the main road."""
    for strong, weak in ((w, b), (b, w)):
        if (popcount(weak) == 1 and weak & k and weak & MAIN_ROAD and popcount(strong) == 3
                and strong & k):
            return True
    return False


__all__ = ["Board", "Move", "DrawRules", "WHITE", "BLACK", "Outcome", "Termination",
           "DraughtsError", "InvalidPositionError", "InvalidFenError", "InvalidMoveError",
           "IllegalMoveError", "AmbiguousMoveError"]
