"""MoGo's 3x3 shape patterns, compiled to a lookup table over the eight neighbours.

The playout policy :data:`bitgames.go.kernels.PATTERNS` and the tree priors of
:mod:`bitgames.go.mcts` ask whether an empty point has a "good shape" around it: one of
the hand-made patterns of Gelly, Wang, Munos and Teytaud, *Modification of UCT with
Patterns in Monte-Carlo Go* (INRIA report 6062, 2006) - hane, cuts and a few edge shapes -
matched in any rotation or reflection and with either colour playing.

A neighbourhood is coded in 16 bits, two per neighbour in the order of :data:`OFFSETS`
(rows top to bottom, columns left to right, the centre left out), each 0 empty, 1 black,
2 white or 3 off the board. :func:`table` gives one byte per code, 1 where a pattern
matches.

Pattern notation (the centre is the move): ``X``/``O`` a stone of either colour and the
other, ``.`` empty, ``x`` anything but ``O``, ``o`` anything but ``X`` (off the board
included), ``?`` anything, a space off the board.

>>> t = table()
>>> hane = code(["XOX", "...", "???"], {"X": 1, "O": 2, ".": 0, "?": 0})
>>> bool(t[hane]), bool(t[0])
(True, False)
"""

from __future__ import annotations

import numpy as np

#: (row, column) offsets of the eight neighbours, in code order (2 bits each)
OFFSETS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))

EMPTY, BLACK, WHITE, EDGE = 0, 1, 2, 3

#: the patterns of the MoGo report (rows top to bottom, the move in the centre)
MOGO = {
    "hane, enclosing": ["XOX", "...", "???"],
    "hane, non-cutting": ["XO.", "...", "?.?"],
    "hane, magari": ["XO?", "X..", "?.?"],
    "cut 1, unprotected": ["XO?", "O.x", "?x?"],
    "cut 1, peeped": ["XO?", "O.X", "???"],
    "cut 2": ["?X?", "O.O", "ooo"],
    "edge, chase": ["X.?", "O.?", "   "],
    "edge, block the cut": ["OX?", "X.O", "   "],
    "edge, block the connection": ["?X?", "x.O", "   "],
    "edge, sagari": ["?XO", "x.x", "   "],
    "edge, cut": ["?OX", "X.O", "   "],
}

_ALLOWED = {
    "X": (BLACK,),
    "O": (WHITE,),
    ".": (EMPTY,),
    "x": (EMPTY, BLACK, EDGE),
    "o": (EMPTY, WHITE, EDGE),
    "?": (EMPTY, BLACK, WHITE, EDGE),
    " ": (EDGE,),
}


def code(rows: list[str], values: dict[str, int]) -> int:
    """The code of a concrete 3x3 neighbourhood written as three rows, each character
    mapped to a value (0-3) by ``values``; the centre is ignored."""
    c = 0
    for k, (dr, dc) in enumerate(OFFSETS):
        c |= values[rows[1 + dr][1 + dc]] << (2 * k)
    return c


def _variants(rows: list[str]) -> list[np.ndarray]:
    """The pattern in its eight orientations, each with both colour assignments."""
    grid = np.array([list(r) for r in rows])
    swapped = np.vectorize({"X": "O", "O": "X", "x": "o", "o": "x"}.get)(grid, grid)
    out = []
    for g in (grid, swapped):
        for k in range(4):
            r = np.rot90(g, k)
            out.append(r)
            out.append(np.fliplr(r))
    return out


def table() -> np.ndarray:
    """``uint8[65536]``: 1 for the neighbourhood codes that match a :data:`MOGO` pattern.

    Each orientation of a pattern is expanded into the codes it matches (the product of
    the values each cell allows), so building the table costs a few milliseconds.
    """
    hit = np.zeros(1 << 16, np.uint8)
    for rows in MOGO.values():
        for g in _variants(rows):
            codes = np.zeros(1, np.int64)
            for k, (dr, dc) in enumerate(OFFSETS):
                values = np.array(_ALLOWED[g[1 + dr, 1 + dc]], np.int64) << (2 * k)
                codes = (codes[:, None] | values[None, :]).ravel()
            hit[codes] = 1
    return hit
