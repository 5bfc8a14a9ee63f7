"""A slow, independent model of the 2016 rules for differential tests.

Written from the rules text (reference §3), not from the kernels: the board is a dict
``(file, rank) -> (colour, kind, orientation_letters)`` and the laser is walked with
explicit geometry (which sides of each pawn are mirrored), not with lookup tables.
"""

from __future__ import annotations

Board = dict[tuple[int, int], tuple[int, str, str]]

STEP = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
CW_KING = ["NN", "EE", "SS", "WW"]
CW_PAWN = ["NW", "NE", "SE", "SW"]


def parse(fen: str) -> tuple[Board, int]:
    ranks, side = fen.split()
    board: Board = {}
    for i, row in enumerate(ranks.split("/")):
        r = 7 - i
        f = 0
        j = 0
        while j < len(row):
            if row[j].isdigit():
                f += int(row[j])
                j += 1
                continue
            code = row[j : j + 2]
            colour = 0 if code.isupper() else 1
            up = code.upper()
            kind = "K" if up in CW_KING else "P"
            board[(f, r)] = (colour, kind, up)
            f += 1
            j += 2
    return board, 0 if side == "W" else 1


def fen_of(board: Board, side: int) -> str:
    rows = []
    for r in range(7, -1, -1):
        row = ""
        run = 0
        for f in range(8):
            p = board.get((f, r))
            if p is None:
                run += 1
                continue
            if run:
                row += str(run)
                run = 0
            row += p[2] if p[0] == 0 else p[2].lower()
        if run:
            row += str(run)
        rows.append(row)
    return "/".join(rows) + (" W" if side == 0 else " B")


def beam(board: Board, colour: int) -> tuple[list[tuple[int, int]], tuple[int, int] | None]:
    """Squares crossed by ``colour``'s laser and the piece square hit on an opaque side
    (or a King), or None if the beam leaves the board."""
    ksq = next(s for s, p in board.items() if p[0] == colour and p[1] == "K")
    travel = board[ksq][2][0]  # NN -> N
    f, r = ksq
    path = [ksq]
    for _ in range(1000):
        df, dr = STEP[travel]
        f, r = f + df, r + dr
        if not (0 <= f < 8 and 0 <= r < 8):
            return path, None
        path.append((f, r))
        p = board.get((f, r))
        if p is None:
            continue
        if p[1] == "K":
            return path, (f, r)
        # The beam enters through the side it comes from; a pawn's mirrored sides are
        # the two letters of its orientation (NW: north and west sides are mirrored).
        entry = OPPOSITE[travel]
        mirrored = set(p[2])
        if entry not in mirrored:
            return path, (f, r)
        # reflect: leave through the other mirrored side
        (other,) = mirrored - {entry}
        travel = other
    raise AssertionError("beam did not terminate")


def moves(board: Board, side: int) -> list[str]:
    """Pseudo-legal moves in notation (pinned pawns excluded, Ko ignored)."""
    path, _ = beam(board, 1 - side)
    pinned = {s for s in path if s in board and board[s][0] == side and board[s][1] == "P"}
    out = []
    for (f, r), p in board.items():
        if p[0] != side or (f, r) in pinned:
            continue
        name = "abcdefgh"[f] + str(r)
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                if (df or dr) and 0 <= f + df < 8 and 0 <= r + dr < 8:
                    out.append(name + "abcdefgh"[f + df] + str(r + dr))
        out += [name + "R", name + "U", name + "L"]
        if p[1] == "K":
            out.append(name + name)
    return out


def play(board: Board, side: int, move: str) -> tuple[Board, int, str | None]:
    """Make a move and fire: returns (new board, pawns zapped, loser colour name or None)."""
    nb = dict(board)
    fr = ("abcdefgh".index(move[0]), int(move[1]))
    if len(move) == 3:
        colour, kind, o = nb[fr]
        cycle = CW_KING if kind == "K" else CW_PAWN
        turns = {"R": 1, "U": 2, "L": 3}[move[2]]
        nb[fr] = (colour, kind, cycle[(cycle.index(o) + turns) % 4])
    else:
        to = ("abcdefgh".index(move[2]), int(move[3]))
        if to != fr:
            a, b = nb.get(fr), nb.get(to)
            nb.pop(fr, None)
            nb.pop(to, None)
            if a is not None:
                nb[to] = a
            if b is not None:
                nb[fr] = b
    zapped = 0
    while True:
        _, hit = beam(nb, side)
        if hit is None:
            return nb, zapped, None
        victim = nb.pop(hit)
        if victim[1] == "K":
            return nb, zapped, "white" if victim[0] == 0 else "black"
        zapped += 1
