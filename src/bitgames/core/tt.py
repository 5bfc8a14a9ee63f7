"""The transposition table every alpha-beta search uses (Othello, draughts, Leiserchess).

A table is a ``uint64`` array of shape ``(2**bits, 3)``. A row is one entry: two key words
and one data word. Games whose position fits in two words store it whole, so a hit is
never false (Othello: the player and opponent bitboards; draughts: white and black men in
one word, kings and the side to move in the other); a game whose position does not fit
stores two independent hashes of it (Leiserchess), so a false hit needs a 128-bit
collision. The key words are stored XOR-ed with the data word, so an entry torn by two
threads writing at once fails the check instead of giving a wrong hit (lockless hashing,
Hyatt and Mann 2002). The key ``(0, 0)`` is reserved: an all-zero row is empty.

:func:`probe` returns the data word it checked, never the row: another thread may
rewrite the row the moment after, and a second read of it could be another position's
data (with 6 threads on a 16-entry table that gave the Othello solver wrong scores). A
stored data word is never 0 (bounds are within +-32767, so bits 0-15 are not all zero):
0 is :data:`MISS`.

The data word (Stockfish's ``tt.h`` keeps a similar one)::

    bits  0-15  lower bound + 32768        (the score is >= lower)
    bits 16-31  upper bound + 32768        (the score is <= upper)
    bits 32-47  best move, a 16-bit code of the game (NO_MOVE = 0xFFFF: none)
    bits 48-55  depth (plies; empties for Othello's solver)
    bits 56-63  generation (the search that wrote it)

An exact score has ``lower == upper``; a fail-high stores ``(score, +inf)``, a fail-low
``(-inf, score)``, with the game's own infinity. Entries form buckets of :data:`BUCKET`
rows: a store replaces the same position if it is there, else the entry of an older
search, else the shallowest one.

Scores of a forced win or loss depend on the distance to the end, which differs between
the node where a score is stored and the node where it is read back at another ply. So
they are stored relative to the node (:func:`value_to_tt` adds the ply to a win score,
:func:`value_from_tt` takes it off again), as Stockfish does; a "win in N" stays right
when the position is reached at another depth.

>>> import numpy as np
>>> tt = new_table(8)
>>> p, o = np.uint64(0x0000_0008_1000_0000), np.uint64(0x0000_0010_0800_0000)
>>> store(tt, p, o, 5, 1, -3, 12, 19)
>>> d = probe(tt, p, o)
>>> int(lower(d)), int(upper(d)), int(move(d)), int(depth(d)), int(generation(d))
(-3, 12, 19, 5, 1)
>>> bool(probe(tt, o, p) == MISS)
True
>>> int(value_to_tt(29_990, 4, 29_000, 32_000)), int(value_from_tt(29_994, 7, 29_000, 32_000))
(29994, 29987)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bitgames.core.errors import BitgamesError
from bitgames.core.files import FileError, atomic_write, load_npz
from bitgames.core.jit import njit

U = np.uint64
#: rows per bucket (a store chooses among them)
BUCKET = 4
#: the move code of an entry without a best move
NO_MOVE = 0xFFFF
#: what :func:`probe` returns for a position not in the table
MISS = U(0)


def new_table(bits: int = 20) -> np.ndarray:
    """An empty table of ``2**bits`` entries (24 bytes each)."""
    if not 4 <= bits <= 30:
        raise BitgamesError(f"table bits must be 4..30, got {bits}")
    return np.zeros((1 << bits, 3), dtype=np.uint64)


def cleared(table: np.ndarray) -> np.ndarray:
    """An empty table the size of ``table``, for a new game.

    Fresh zeroed memory, which the system hands out page by page as a search touches it:
    zeroing ``table`` in place is a pass over all of it (0.3 s for a few hundred MB), paid
    on the clock of the game's first move.

    >>> t = new_table(4)
    >>> t[3, 0] = 7
    >>> int(cleared(t).sum()), cleared(t).shape
    (0, (16, 3))
    """
    return np.zeros(table.shape, dtype=table.dtype)


def save(path: str | Path, tt: np.ndarray, gen: int, kind: str) -> None:
    """Write ``tt`` to ``path`` (an ``.npz`` archive, replaced atomically) with the
    generation ``gen`` of the search that fills it and the ``kind`` of search whose entries
    it holds, so a long search stopped or killed can go on from it (:func:`load`).

    A search may be writing the table meanwhile (its kernel runs without the GIL): a row
    copied half-written fails its check when read back, like a row torn by two threads.
    """
    with atomic_write(path, "transposition table") as f:
        np.savez(f, table=tt, generation=np.int64(gen), kind=np.str_(kind))


def load(path: str | Path, kind: str) -> tuple[np.ndarray, int]:
    """The table and generation :func:`save` wrote to ``path``; :class:`FileError` if it is
    not such a file, or holds the entries of another ``kind`` of search (whose depths and
    bounds mean something else).

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "t.npz"
    >>> tt = new_table(6)
    >>> store(tt, np.uint64(1), np.uint64(2), 9, 3, 0, 0, 7)
    >>> save(path, tt, 3, "othello solver")
    >>> back, gen = load(path, "othello solver")
    >>> int(move(probe(back, np.uint64(1), np.uint64(2)))), gen
    (7, 3)
    >>> load(path, "draughts search")
    Traceback (most recent call last):
    ...
    bitgames.core.files.FileError: ...: the table of an othello solver, not of a draughts search
    """
    what = "transposition table"
    data = load_npz(path, what, {"table": ("u", 2), "generation": ("iu", 0), "kind": ("U", 0)})
    tt, saved = data["table"], str(data["kind"])
    rows = tt.shape[0]
    if tt.dtype != np.uint64 or tt.shape[1] != 3 or rows < 16 or rows & (rows - 1):
        raise FileError(f"{path}: {what}: array 'table' is {tt.dtype} with shape {tt.shape}, "
                        "expected uint64 with dimensions (2^N, 3), N >= 4")
    if saved != kind:
        raise FileError(f"{path}: {what}: the table of {_article(saved)}, not of "
                        f"{_article(kind)}")
    return tt, int(data["generation"]) & 0xFF


def _article(noun: str) -> str:
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


@njit(inline="always")
def _index(tt: np.ndarray, k0: np.uint64, k1: np.uint64) -> int:
    h = k0 * U(0x9E37_79B9_7F4A_7C15) ^ k1 * U(0xC2B2_AE3D_27D4_EB4F)
    h ^= h >> U(29)
    return np.int64(h & U(tt.shape[0] - BUCKET))


@njit
def probe(tt: np.ndarray, k0: np.uint64, k1: np.uint64) -> np.uint64:
    """The data word stored for the position keyed ``(k0, k1)`` (read once and checked
    against the keys), or :data:`MISS`."""
    base = _index(tt, k0, k1)
    for i in range(base, base + BUCKET):
        d = tt[i, 2]
        if tt[i, 0] ^ d == k0 and tt[i, 1] ^ d == k1:
            return d
    return MISS


@njit
def store(tt: np.ndarray, k0: np.uint64, k1: np.uint64, depth: int, gen: int, lower: int,
          upper: int, move: int) -> None:
    """Record ``lower <= score <= upper``, the best ``move`` (a 16-bit code), the ``depth``
    and the search's generation ``gen`` for the position keyed ``(k0, k1)``."""
    base = _index(tt, k0, k1)
    slot = base
    worst = 1 << 30
    for i in range(base, base + BUCKET):
        d = tt[i, 2]
        if tt[i, 0] ^ d == k0 and tt[i, 1] ^ d == k1:
            slot = i
            break
        age = 0 if np.int64(d >> U(56)) == gen else 1000
        keep = np.int64((d >> U(48)) & U(0xFF)) - age
        if keep < worst:
            worst = keep
            slot = i
    data = (U(lower + 32768) | (U(upper + 32768) << U(16)) | (U(move & 0xFFFF) << U(32))
            | (U(depth & 0xFF) << U(48)) | (U(gen & 0xFF) << U(56)))
    tt[slot, 0] = k0 ^ data
    tt[slot, 1] = k1 ^ data
    tt[slot, 2] = data


@njit(inline="always")
def lower(data: np.uint64) -> int:
    """The lower bound stored in a data word."""
    return np.int64(data & U(0xFFFF)) - 32768


@njit(inline="always")
def upper(data: np.uint64) -> int:
    """The upper bound stored in a data word."""
    return np.int64((data >> U(16)) & U(0xFFFF)) - 32768


@njit(inline="always")
def move(data: np.uint64) -> int:
    """The best move stored in a data word (:data:`NO_MOVE` if none)."""
    return np.int64((data >> U(32)) & U(0xFFFF))


@njit(inline="always")
def depth(data: np.uint64) -> int:
    """The depth stored in a data word."""
    return np.int64((data >> U(48)) & U(0xFF))


@njit(inline="always")
def generation(data: np.uint64) -> int:
    """The generation (search number) stored in a data word."""
    return np.int64(data >> U(56))


@njit(inline="always")
def value_to_tt(value: int, ply: int, win: int, inf: int) -> int:
    """``value`` found ``ply`` plies from the root, as stored: a win or loss score (at
    least ``win`` in size, short of the game's ``inf``) becomes relative to the node."""
    if win <= value < inf:
        return value + ply
    if -inf < value <= -win:
        return value - ply
    return value


@njit(inline="always")
def value_from_tt(value: int, ply: int, win: int, inf: int) -> int:
    """A stored value read back ``ply`` plies from the root (the reverse of
    :func:`value_to_tt`)."""
    if win <= value < inf:
        return value - ply
    if -inf < value <= -win:
        return value + ply
    return value
