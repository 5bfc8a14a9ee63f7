"""Board geometry of 8x8 draughts: the bit numbering, squares, directions and diagonals.

Only the 32 dark squares are used (a1 is dark). Each dark square is one bit of a 32-bit
bitboard held in a ``uint64``. The numbering is the *diagonal* one of the seed article: a1 is
bit 0, a step up-left (towards a8) adds 1 and a step up-right (towards h8) adds 7 modulo 32::

    8 |  . 31  .  5  . 11  . 17
    7 | 24  . 30  .  4  . 10  .
    6 |  . 23  . 29  .  3  .  9
    5 | 16  . 22  . 28  .  2  .
    4 |  . 15  . 21  . 27  .  1
    3 |  8  . 14  . 20  . 26  .
    2 |  .  7  . 13  . 19  . 25
    1 |  0  .  6  . 12  . 18  .
        a  b  c  d  e  f  g  h

so a man's step up-left is ``x << 1``, down-right ``x >> 1``, and the two other directions are
32-bit rotations by 7 and 25 (each behind a mask of the squares that have a neighbour that
way). The numbering was chosen by measurement against the row numbering; see
``docs/PERFORMANCE.md`` (Draughts) and ``benchmarks/draughts_numbering.py``.

>>> square_index("a1"), square_index("h8"), square_name(21)
(0, 17, 'd4')
>>> numeric_square(square_index("b8")), numeric_square(square_index("g1"))
(1, 32)
"""

from __future__ import annotations

from bitgames.core.errors import BitgamesError

M32 = 0xFFFF_FFFF
FILES = "abcdefgh"

#: Directions: 0 up-left, 1 up-right, 2 down-left, 3 down-right ("up" = towards rank 8).
DIRS: tuple[tuple[int, int], ...] = ((-1, 1), (1, 1), (-1, -1), (1, -1))
#: Bit-index delta of one step in each direction (mod 32).
DELTA: tuple[int, ...] = (1, 7, 25, 31)
OPPOSITE: tuple[int, ...] = (3, 2, 1, 0)


def index_of(file: int, rank: int) -> int:
    """Bit index of the dark square at ``file``, ``rank`` (both 0-based)."""
    if not (0 <= file < 8 and 0 <= rank < 8) or (file + rank) % 2:
        raise BitgamesError(f"({file}, {rank}) is not a dark square of the 8x8 board")
    u, v = (file + rank) // 2, (rank - file) // 2
    return (7 * u + v) % 32


#: file, rank of each bit index.
COORDS: list[tuple[int, int]] = [(0, 0)] * 32
for _f in range(8):
    for _r in range(8):
        if (_f + _r) % 2 == 0:
            COORDS[index_of(_f, _r)] = (_f, _r)
NAMES: list[str] = [f"{FILES[f]}{r + 1}" for f, r in COORDS]
_BY_NAME = {n: i for i, n in enumerate(NAMES)}


def square_index(name: str) -> int:
    """Bit index of an algebraic square name such as ``"c3"``."""
    try:
        return _BY_NAME[name.strip().lower()]
    except KeyError:
        raise BitgamesError(f"{name!r} is not a dark square (a1, c1, ..., h8)") from None


def square_name(index: int) -> str:
    """Algebraic name of a bit index."""
    return NAMES[index]


def numeric_square(index: int) -> int:
    """Standard numeric square (1 = b8, 4 = h8, 29 = a1, 32 = g1) of a bit index.

    English checkers notation and Hub positions use this numbering.
    """
    f, r = COORDS[index]
    return (7 - r) * 4 + f // 2 + 1


def from_numeric(n: int) -> int:
    """Bit index of a standard numeric square 1..32."""
    if not 1 <= n <= 32:
        raise BitgamesError(f"square number {n} is outside 1..32")
    row, k = divmod(n - 1, 4)
    rank = 7 - row
    file = 2 * k + (1 if rank % 2 else 0)
    return index_of(file, rank)


def neighbour(index: int, d: int) -> int:
    """Bit index one step from ``index`` in direction ``d``, or -1 off the board."""
    f, r = COORDS[index]
    df, dr = DIRS[d]
    f, r = f + df, r + dr
    return index_of(f, r) if 0 <= f < 8 and 0 <= r < 8 else -1


def ray(index: int, d: int) -> list[int]:
    """Squares from ``index`` (exclusive) to the board edge in direction ``d``."""
    out = []
    s = neighbour(index, d)
    while s >= 0:
        out.append(s)
        s = neighbour(s, d)
    return out


def line_squares(index: int, p: int) -> list[int]:
    """The whole diagonal through ``index``: ``p`` = 0 the a8-h1 way, 1 the a1-h8 way."""
    d_up, d_down = (0, 3) if p == 0 else (1, 2)
    return sorted([index, *ray(index, d_up), *ray(index, d_down)])


def lines() -> list[list[int]]:
    """The 15 diagonals (8 of the a8-h1 kind, then 7 of the a1-h8 kind)."""
    out: list[list[int]] = []
    for p in (0, 1):
        seen: set[tuple[int, ...]] = set()
        for s in range(32):
            sq = tuple(line_squares(s, p))
            if sq not in seen:
                seen.add(sq)
                out.append(list(sq))
    return out


def mask_of(squares: list[int]) -> int:
    """Bitboard of a list of bit indices."""
    m = 0
    for s in squares:
        m |= 1 << s
    return m


#: Squares having a neighbour in direction d.
CAN: list[int] = [mask_of([s for s in range(32) if neighbour(s, d) >= 0]) for d in range(4)]
RANK: list[int] = [mask_of([s for s in range(32) if COORDS[s][1] == r]) for r in range(8)]
