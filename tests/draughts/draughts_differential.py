"""Helpers shared by the differential tests against pydraughts (an independent program)."""

from __future__ import annotations

import random

from bitgames.draughts import geometry as g
from bitgames.draughts.board import Board

MoveKey = tuple[int, int, frozenset[int]]


def random_fen(rng: random.Random, variant: str) -> str:
    """A random position: 2-16 pieces, some kings, no man on its promotion rank."""
    n = rng.randint(2, 16)
    squares = rng.sample(range(32), n)
    king_rate = rng.choice([0.0, 0.2, 0.5, 1.0])
    parts: dict[str, list[str]] = {"W": [], "B": []}
    for i, sq in enumerate(squares):
        colour = "W" if i % 2 == 0 else "B"
        rank = g.COORDS[sq][1]
        king = rng.random() < king_rate or (colour == "W" and rank == 7) or (
            colour == "B" and rank == 0)
        name = str(g.numeric_square(sq)) if variant == "english" else g.square_name(sq)
        parts[colour].append(("K" if king else "") + name)
    side = rng.choice("WB")
    return f"{side}:W{','.join(parts['W'])}:B{','.join(parts['B'])}"


def playout_fens(rng: random.Random, variant: str, games: int) -> list[str]:
    """Positions met in random games from the start (realistic material and structure)."""
    out = []
    for _ in range(games):
        board = Board(variant=variant)
        for _ in range(rng.randint(4, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        out.append(board.fen())
    return out


def pydraughts_square(n: int, variant: str) -> int:
    """Bit index of pydraughts' internal square number."""
    if variant == "english":
        return g.from_numeric(n)
    rank, k = divmod(n - 1, 4)  # pydraughts' Russian numbering: a1 = 1, c1 = 2, ..., h8 = 32
    return g.index_of(2 * k + rank % 2, rank)


def pydraughts_moves(fen: str, variant: str) -> set[MoveKey]:
    import draughts

    board = draughts.Board(variant, fen=fen)
    out = set()
    for m in board.legal_moves():
        steps = [pydraughts_square(s, variant) for s in m.steps_move]
        caps = frozenset(pydraughts_square(s, variant) for s in m.captures)
        out.add((steps[0], steps[-1], caps))
    return out


def our_moves(fen: str, variant: str) -> set[MoveKey]:
    board = Board(fen, variant=variant)
    return {(m.start, m.end, frozenset(i for i in range(32) if m.captured >> i & 1))
            for m in board.legal_moves}
