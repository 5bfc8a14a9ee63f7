"""A deliberately simple Othello rules implementation, independent of the kernels.

Boards are lists of 64 cells (0 empty, 1 side to move, 2 opponent); squares a1=0 .. h8=63.
Used only by the tests as an oracle.
"""

from __future__ import annotations

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def from_bits(p: int, o: int) -> list[int]:
    return [1 if p >> i & 1 else 2 if o >> i & 1 else 0 for i in range(64)]


def flipped(cells: list[int], sq: int, me: int = 1) -> list[int]:
    """Squares flipped when ``me`` plays on ``sq`` (empty list if illegal)."""
    if cells[sq] != 0:
        return []
    other = 3 - me
    row, col = divmod(sq, 8)
    result: list[int] = []
    for dr, dc in DIRECTIONS:
        run = []
        r, c = row + dr, col + dc
        while 0 <= r < 8 and 0 <= c < 8 and cells[8 * r + c] == other:
            run.append(8 * r + c)
            r, c = r + dr, c + dc
        if run and 0 <= r < 8 and 0 <= c < 8 and cells[8 * r + c] == me:
            result.extend(run)
    return sorted(result)


def moves(cells: list[int], me: int = 1) -> list[int]:
    return [sq for sq in range(64) if flipped(cells, sq, me)]


def play(cells: list[int], sq: int) -> list[int]:
    """Play for side 1 and return the board seen from the next player (colours swapped)."""
    new = cells[:]
    for s in flipped(cells, sq):
        new[s] = 1
    new[sq] = 1
    return [0 if v == 0 else 3 - v for v in new]


def final(cells: list[int]) -> int:
    mine, theirs = cells.count(1), cells.count(2)
    empty = 64 - mine - theirs
    if mine > theirs:
        return mine - theirs + empty
    if mine < theirs:
        return mine - theirs - empty
    return 0


def minimax(cells: list[int]) -> int:
    """Exact final score for side 1 by full minimax (small endgames only)."""
    ms = moves(cells)
    if not ms:
        if not moves(cells, 2):
            return final(cells)
        return -minimax([0 if v == 0 else 3 - v for v in cells])
    return max(-minimax(play(cells, m)) for m in ms)
