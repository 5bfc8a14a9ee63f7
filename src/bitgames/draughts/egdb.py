"""Endgame databases for Russian draughts and English checkers: the win/loss/draw value of
every position with few pieces, by retrograde analysis.

The positions are split into *slices* by material: White men, White kings, Black men,
Black kings (``(wm, wk, bm, bk)``). A capture leads into a slice with fewer pieces and a
promotion into one with fewer men, so the slices are solved in that order
(:func:`build_order`), each from the values of the slices below it, and the slices of one
step of the order are independent of each other: the task runner solves them in parallel.

Inside a slice the values come from a fix-point: a position is a win when some move
reaches a position lost for the opponent (or leaves the opponent no piece), a loss when
it has no move or every move reaches a position won for the opponent, and what never
resolves is a draw. Values are for the side to move. They follow the rules of moves
only: the 15-move rules of Russian draughts (three kings against one, kings-only play)
are not in the tables, so a "win" there may need more moves than those rules allow.

Index of a position in its slice: each group of pieces (White men, White kings, Black
men, Black kings) is ranked among the squares it may stand on (men never on their
promotion rank: 28 squares; kings on all 32) by the combinatorial number system, and the
four ranks are the digits of a mixed-radix number; indices whose groups overlap are not
positions (:data:`INVALID`). Each slice has one table per side to move, 2 bits a position
on disk (:func:`save_slice`), 4 positions a byte.

>>> spec = Slice(0, 2, 0, 1)  # two White kings against one Black king
>>> spec.size, spec.name
(15872, '0201')
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from math import comb
from pathlib import Path
from typing import Any

import numpy as np

from bitgames.core.bits import ctz, popcount
from bitgames.core.errors import BitgamesError
from bitgames.core.files import FileError, atomic_write, load_npz
from bitgames.core.jit import njit, register_warmup
from bitgames.draughts import geometry as g
from bitgames.draughts import kernels as K

# Values, as in :mod:`bitgames.core.retro` (for the side to move).
UNKNOWN, WIN, LOSS, DRAW, INVALID = 0, 1, 2, 3, 4
NAMES = ("unknown", "win", "loss", "draw", "invalid")
#: on disk: 2 bits a position (no UNKNOWN is left after a solve)
_PACKED = np.array([0, 0, 1, 2, 3], dtype=np.uint8)  # value -> 2-bit code
_UNPACKED = np.array([WIN, LOSS, DRAW, INVALID], dtype=np.uint8)  # code -> value

MAX_PIECES = 8  # of a side's group, for the tables below

#: the squares men may stand on (never their promotion rank) and kings may, as bit lists
WHITE_MEN = np.array([s for s in range(32) if g.COORDS[s][1] != 7], dtype=np.int64)
BLACK_MEN = np.array([s for s in range(32) if g.COORDS[s][1] != 0], dtype=np.int64)
ALL = np.arange(32, dtype=np.int64)


def _places(squares: np.ndarray) -> np.ndarray:
    """Each bit's place in ``squares`` (-1 where it may not stand)."""
    place = np.full(32, -1, dtype=np.int64)
    place[squares] = np.arange(len(squares))
    return place


#: SQUARES[group] lists the squares of a group (0 White men, 1 White kings, 2 Black men,
#: 3 Black kings), PLACE[group, bit] is the place of a square in that list (-1: none)
SQUARES = np.stack([np.pad(s, (0, 32 - len(s)), constant_values=-1)
                    for s in (WHITE_MEN, ALL, BLACK_MEN, ALL)])
PLACE = np.stack([_places(s) for s in (WHITE_MEN, ALL, BLACK_MEN, ALL)])
COUNT = np.array([len(WHITE_MEN), 32, len(BLACK_MEN), 32], dtype=np.int64)
#: BINOMIAL[n, k] = C(n, k)
BINOMIAL = np.array([[comb(n, k) for k in range(MAX_PIECES + 2)] for n in range(33)],
                    dtype=np.int64)


@dataclass(frozen=True, order=True)
class Slice:
    """The positions with ``wm`` White men, ``wk`` White kings, ``bm`` Black men and ``bk``
    Black kings (each side at least one piece)."""

    wm: int
    wk: int
    bm: int
    bk: int

    def __post_init__(self) -> None:
        if min(self.counts) < 0 or max(self.counts) > MAX_PIECES:
            raise BitgamesError(f"piece counts must be 0..{MAX_PIECES}, got {self.counts}")
        if self.wm + self.wk == 0 or self.bm + self.bk == 0:
            raise BitgamesError(f"each side needs a piece, got {self.counts}")

    @property
    def counts(self) -> tuple[int, int, int, int]:
        return (self.wm, self.wk, self.bm, self.bk)

    @property
    def radix(self) -> tuple[int, int, int, int]:
        """How many ways each group can stand (the digits of an index)."""
        return tuple(comb(int(COUNT[i]), n) for i, n in enumerate(self.counts))  # type: ignore[return-value]

    @property
    def size(self) -> int:
        """Indices of one side to move (invalid ones included)."""
        a, b, c, d = self.radix
        return a * b * c * d

    @property
    def pieces(self) -> int:
        return sum(self.counts)

    @property
    def men(self) -> int:
        return self.wm + self.bm

    @property
    def name(self) -> str:
        return "".join(str(n) for n in self.counts)

    @classmethod
    def of(cls, name: str) -> Slice:
        """The slice of a name such as ``"1102"`` (White man and king against two Black
        kings)."""
        if len(name) != 4 or not name.isascii() or not name.isdigit():
            raise BitgamesError(f"a slice is 4 digits wm wk bm bk, such as 1102; got {name!r}")
        return cls(*(int(c) for c in name))


def slices(pieces: int) -> list[Slice]:
    """Every slice with 2 to ``pieces`` pieces (each side at least one).

    >>> len(slices(2)), [s.name for s in slices(2)][:3]
    (4, ['0101', '0110', '1001'])
    """
    out = []
    for counts in product(range(pieces + 1), repeat=4):
        wm, wk, bm, bk = counts
        if 2 <= sum(counts) <= pieces and wm + wk and bm + bk:
            out.append(Slice(*counts))
    return sorted(out)


def build_order(pieces: int) -> list[list[Slice]]:
    """The slices of up to ``pieces`` pieces in steps: every move from a slice leads into
    the same slice or one of an earlier step, so the slices of one step can be solved at
    once.

    >>> [[s.name for s in step] for step in build_order(2)]
    [['0101'], ['0110', '1001'], ['1010']]
    """
    steps: dict[tuple[int, int], list[Slice]] = {}
    for s in slices(pieces):
        steps.setdefault((s.pieces, s.men), []).append(s)
    return [steps[key] for key in sorted(steps)]


# -- kernels --------------------------------------------------------------------------------


@njit(_nrt=False)
def _rank(bits: np.uint64, group: int) -> int:
    """The combinatorial rank of a group's squares among the squares it may stand on (-1
    when a square is not one of them)."""
    r = 0
    i = 0
    while bits != np.uint64(0):
        s = ctz(bits)
        bits &= bits - np.uint64(1)
        place = PLACE[group, s]
        if place < 0:
            return -1
        i += 1
        r += BINOMIAL[place, i]
    return r


@njit(_nrt=False)
def _unrank(r: int, n: int, group: int) -> np.uint64:
    """The squares of rank ``r`` of a group of ``n`` pieces (inverse of :func:`_rank`)."""
    bits = np.uint64(0)
    top = COUNT[group] - 1
    for i in range(n, 0, -1):
        while BINOMIAL[top, i] > r:
            top -= 1
        r -= BINOMIAL[top, i]
        bits |= np.uint64(1) << np.uint64(SQUARES[group, top])
        top -= 1
    return bits


# A layout (:class:`Layout`) is one flat int64 array: ``[top]`` and then, for each
# ``(wm, wk, bm, bk)`` below ``top`` in mixed radix, the six fields below (offset -1: a
# slice left out). Flat, so that the search passes it around as one small array.
L_OFFSET, L_SIZE, L_RADIX = 0, 1, 2  # then the radix of the four groups
L_FIELDS = 6


@njit(_nrt=False)
def _entry(layout: np.ndarray, wm: int, wk: int, bm: int, bk: int) -> int:
    """Where the fields of slice ``(wm, wk, bm, bk)`` start in ``layout`` (-1: beyond)."""
    top = layout[0]
    if max(max(wm, wk), max(bm, bk)) >= top:
        return -1
    return 1 + (((wm * top + wk) * top + bm) * top + bk) * L_FIELDS


@njit(_nrt=False)
def _decode(idx: int, wm: int, wk: int, bm: int, bk: int, layout: np.ndarray
            ) -> tuple[np.uint64, np.uint64, np.uint64, bool]:
    """White, Black and kings of an index of slice ``(wm, wk, bm, bk)``; False when the
    groups overlap (no position)."""
    radix = _entry(layout, wm, wk, bm, bk) + L_RADIX
    r3 = idx % layout[radix + 3]
    idx //= layout[radix + 3]
    r2 = idx % layout[radix + 2]
    idx //= layout[radix + 2]
    r1 = idx % layout[radix + 1]
    r0 = idx // layout[radix + 1]
    a = _unrank(r0, wm, 0)
    b = _unrank(r1, wk, 1)
    c = _unrank(r2, bm, 2)
    d = _unrank(r3, bk, 3)
    ok = popcount(a | b | c | d) == wm + wk + bm + bk
    return a | b, c | d, b | d, ok


@njit(_nrt=False)
def _locate(w: np.uint64, b: np.uint64, k: np.uint64, side: int, layout: np.ndarray
            ) -> int:
    """Where the value of a position lies in the flat table of :class:`Layout` (-1: its
    slice is not in the table)."""
    wm_bits = w & ~k
    wk_bits = w & k
    bm_bits = b & ~k
    bk_bits = b & k
    wm = popcount(wm_bits)
    wk = popcount(wk_bits)
    bm = popcount(bm_bits)
    bk = popcount(bk_bits)
    at = _entry(layout, wm, wk, bm, bk)
    if at < 0 or layout[at + L_OFFSET] < 0:
        return -1
    radix = at + L_RADIX
    idx = _rank(wm_bits, 0)
    idx = idx * layout[radix + 1] + _rank(wk_bits, 1)
    idx = idx * layout[radix + 2] + _rank(bm_bits, 2)
    idx = idx * layout[radix + 3] + _rank(bk_bits, 3)
    return layout[at + L_OFFSET] + side * layout[at + L_SIZE] + idx


@njit(nogil=True, _nrt=False)
def _solve(values: np.ndarray, layout: np.ndarray, wm: int, wk: int, bm: int, bk: int,
           variant: int, buf: np.ndarray, stop: np.ndarray, track: np.ndarray) -> int:
    """Solve one slice in place in ``values`` (see the module docstring); return the
    passes made. ``track[0]`` counts the positions decided so far, ``track[1]`` the
    passes; ``stop[0]`` ends the work at once (the slice is then unfinished)."""
    at = _entry(layout, wm, wk, bm, bk)
    offset = layout[at + L_OFFSET]
    size = layout[at + L_SIZE]
    for idx in range(size):  # the indices that are no position
        a, b, k, ok = _decode(idx, wm, wk, bm, bk, layout)
        if not ok:
            values[offset + idx] = INVALID
            values[offset + size + idx] = INVALID
    passes = 0
    changed = True
    while changed:
        changed = False
        passes += 1
        track[1] = passes
        for idx in range(size):
            if (idx & 4095) == 0 and stop[0] != 0:
                return passes
            if values[offset + idx] != UNKNOWN and values[offset + size + idx] != UNKNOWN:
                continue
            w, b, k, ok = _decode(idx, wm, wk, bm, bk, layout)
            for side in range(2):
                at = offset + side * size + idx
                if values[at] != UNKNOWN:
                    continue
                n = K.gen_moves(w, b, k, side, variant, buf, np.int64(0), np.int64(1))
                value = LOSS  # no move, or every move wins for the opponent
                for i in range(n):
                    w2, b2, k2, s2 = K.make_move(w, b, k, side, buf[0, i, 0])
                    if (b2 if side == 0 else w2) == np.uint64(0):
                        value = WIN  # the opponent has no piece left
                        break
                    there = values[_locate(w2, b2, k2, s2, layout)]
                    if there == LOSS:
                        value = WIN
                        break
                    if there != WIN:
                        value = UNKNOWN
                if value != UNKNOWN:
                    values[at] = value
                    track[0] += 1
                    changed = True
    for at in range(offset, offset + 2 * size):
        if values[at] == UNKNOWN:
            values[at] = DRAW
    return passes


@njit(_nrt=False)
def _probe(packed: np.ndarray, layout: np.ndarray, w: np.uint64, b: np.uint64,
           k: np.uint64, side: int) -> int:
    """The value of a position from 2-bit packed tables (UNKNOWN: not in them)."""
    at = _locate(w, b, k, side, layout)
    if at < 0:
        return UNKNOWN
    code = (packed[at >> 2] >> np.uint8(2 * (at & 3))) & np.uint8(3)
    return int(code) + 1


# -- tables ---------------------------------------------------------------------------------


class Layout:
    """Where each slice's values lie in one flat array of ``total`` values (both sides to
    move of each slice in turn); :attr:`table` is what the kernels read (see ``_entry``).
    """

    def __init__(self, specs: list[Slice]) -> None:
        top = max((max(s.counts) for s in specs), default=0) + 1
        self.table = np.full(1 + top ** 4 * L_FIELDS, -1, dtype=np.int64)
        self.table[0] = top
        self.total = 0
        for s in sorted(specs):
            at = int(_entry(self.table, *s.counts))
            self.table[at:at + L_FIELDS] = (self.total, s.size, *s.radix)
            self.total += 2 * s.size

    def where(self, spec: Slice) -> tuple[int, int]:
        """``(offset, size)``: the values of ``spec`` are ``size`` with White to move
        from ``offset``, then ``size`` with Black to move."""
        at = int(_entry(self.table, *spec.counts))
        return int(self.table[at + L_OFFSET]), int(self.table[at + L_SIZE])


def _path(folder: Path, variant: str, spec: Slice) -> Path:
    return folder / f"{variant}-{spec.name}.npz"


def _pack(values: np.ndarray) -> np.ndarray:
    """Values (one byte each, no UNKNOWN) as 2-bit codes, 4 a byte."""
    codes = _PACKED[values]
    codes = np.pad(codes, (0, -len(codes) % 4))
    return (codes[0::4] | codes[1::4] << 2 | codes[2::4] << 4 | codes[3::4] << 6
            ).astype(np.uint8)


_WHAT = "endgame table"


def save_slice(path: Path, values: np.ndarray) -> None:
    """Write a solved slice's values (both sides to move), 2 bits each, atomically."""
    with atomic_write(path, _WHAT) as f:
        np.savez_compressed(f, values=_pack(values), count=np.int64(len(values)))


def load_slice(path: Path, count: int) -> np.ndarray:
    """The ``count`` values of a slice written by :func:`save_slice` (one byte each); a
    :class:`~bitgames.core.files.FileError` naming the file when it is not that."""
    data = load_npz(path, _WHAT, {"values": ("u", 1), "count": ("i", 0)})
    if int(data["count"]) != count or len(data["values"]) != (count + 3) // 4:
        raise FileError(f"{path}: {_WHAT}: holds {int(data['count'])} values in "
                        f"{len(data['values'])} bytes, the slice has {count}")
    packed = data["values"]
    codes = np.stack([packed & 3, packed >> 2 & 3, packed >> 4 & 3, packed >> 6 & 3], axis=1)
    return _UNPACKED[codes.reshape(-1)[:count]]


def _variant_code(variant: str) -> int:
    if variant not in ("russian", "english"):
        raise BitgamesError(f"variant must be russian or english, got {variant!r}")
    return K.RUSSIAN if variant == "russian" else K.ENGLISH


def solve_slice(folder: str | Path, variant: str, name: str, pieces: int,
                stop: np.ndarray | None = None, track: np.ndarray | None = None) -> str:
    """Solve slice ``name`` of up to ``pieces`` pieces from the slices already in
    ``folder`` and write it there (a task of :func:`build`); returns its file name.
    With ``stop`` set the slice is left unsolved and nothing is written."""
    folder = Path(folder)
    spec = Slice.of(name)
    code = _variant_code(variant)
    specs = slices(pieces)
    layout = Layout(specs)
    values = np.zeros(layout.total, dtype=np.uint8)
    for other in specs:  # every solved slice (more than this one needs; cheap to load)
        path = _path(folder, variant, other)
        if other != spec and path.exists():
            offset, size = layout.where(other)
            values[offset:offset + 2 * size] = load_slice(path, 2 * size)
    stop = np.zeros(1, dtype=np.int64) if stop is None else stop
    track = np.zeros(2, dtype=np.int64) if track is None else track
    _solve(values, layout.table, *spec.counts, code, K.new_buffer(1), stop, track)
    if stop[0]:
        return ""
    offset, size = layout.where(spec)
    path = _path(folder, variant, spec)
    save_slice(path, values[offset:offset + 2 * size])
    return path.name


def missing(folder: str | Path, variant: str, pieces: int) -> list[Slice]:
    """The slices of up to ``pieces`` pieces not yet in ``folder``."""
    return [s for s in slices(pieces) if not _path(Path(folder), variant, s).exists()]


def build(folder: str | Path, variant: str, pieces: int, scheduler: str = "processes",
          workers: int | None = None, on_slice: Any = None) -> list[Slice]:
    """Solve every slice of up to ``pieces`` pieces missing from ``folder`` (resumable:
    the slices on disk are kept), a step of :func:`build_order` at a time on the task
    runner. ``on_slice(slice)`` is called as each is written; returns the slices solved.
    """
    from bitgames.core.parallel import TaskRunner

    _variant_code(variant)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    done = []
    with TaskRunner(scheduler, workers) as runner:  # one pool for every step
        for step in build_order(pieces):
            todo = [s for s in step if not _path(folder, variant, s).exists()]
            tasks = [(str(folder), variant, s.name, pieces) for s in todo]
            for i, _name in runner.map(solve_slice, tasks):
                done.append(todo[i])
                if on_slice is not None:
                    on_slice(todo[i])
    return done


class Tables:
    """The solved slices of a folder, ready to probe.

    >>> import tempfile
    >>> from bitgames.draughts.board import Board
    >>> folder = tempfile.mkdtemp()
    >>> _ = build(folder, "russian", 2, scheduler="serial")
    >>> tables = Tables(folder, "russian")
    >>> tables.probe(Board("W:WKc1:BKh8")), tables.probe(Board("B:Wc3:Bd4"))
    ('draw', 'win')
    """

    def __init__(self, folder: str | Path, variant: str) -> None:
        self.variant = variant
        self.code = _variant_code(variant)
        folder = Path(folder)
        found = sorted(Slice.of(p.stem.split("-", 1)[1])
                       for p in folder.glob(f"{variant}-????.npz"))
        if not found:
            raise BitgamesError(f"{folder}: no {variant} endgame tables")
        self.pieces = max(s.pieces for s in found)
        self.slices = found
        self.layout = Layout(found)
        values = np.zeros(self.layout.total, dtype=np.uint8)
        for s in found:
            offset, size = self.layout.where(s)
            values[offset:offset + 2 * size] = load_slice(_path(folder, variant, s), 2 * size)
        self.packed = _pack(values)

    def probe_bits(self, w: int, b: int, k: int, side: int) -> str:
        """The value (``"win"``, ``"loss"``, ``"draw"``, or ``"unknown"`` when the tables
        hold no such position) of bitboards for the side to move (0 White)."""
        v = _probe(self.packed, self.layout.table, np.uint64(w), np.uint64(b), np.uint64(k),
                   side)
        return NAMES[v] if v != INVALID else "unknown"

    def probe(self, board: Any) -> str:
        """The value of ``board`` for the side to move (see :meth:`probe_bits`)."""
        if board.variant != self.variant:
            raise BitgamesError(f"these are {self.variant} tables, the board is "
                                f"{board.variant}")
        w, b, k, side = board.bitboards()
        return self.probe_bits(w, b, k, side)


@register_warmup("draughts", "egdb")
def _warm() -> None:
    specs = slices(2)
    layout = Layout(specs)
    values = np.zeros(layout.total, dtype=np.uint8)
    stop, track = np.ones(1, dtype=np.int64), np.zeros(2, dtype=np.int64)
    _solve(values, layout.table, 0, 1, 0, 1, K.RUSSIAN, K.new_buffer(1), stop, track)
    _probe(np.zeros(1, dtype=np.uint8), layout.table, np.uint64(1), np.uint64(2),
           np.uint64(3), 0)
