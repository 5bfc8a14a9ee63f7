"""Othello boards as SVG pictures (:func:`svg`, also ``Board._repr_svg_`` in notebooks).

Drawn as players know it: a green board, a1 in the top-left corner, columns a-h and rows
1-8 around it, the four dots of the centre, the legal moves of the side to move as small
dots, the last move ringed.

>>> from bitgames.othello.board import Board
>>> board = Board()
>>> board.push("f5")
>>> text = svg(board)
>>> text.count('class="disc black"'), text.count('class="disc white"'), text.count('class="legal"')
(4, 1, 3)
"""

from __future__ import annotations

from collections.abc import Iterable

from bitgames.core.svg import Drawing
from bitgames.othello.board import BLACK, Board, Move
from bitgames.othello.kernels import PASS

FILES = "abcdefgh"
GREEN = "#1f7a3a"


def _name(square: int) -> str:
    return FILES[square % 8] + str(square // 8 + 1)


def _cell(square: int) -> tuple[int, int]:
    return square % 8, square // 8  # column, row (row 0 = rank 1, on top)


def _square(where: Move | str | int) -> int:
    if isinstance(where, Move):
        return where.square
    if isinstance(where, str):
        return Move.from_str(where).square
    return where


def svg(board: Board, lastmove: Move | str | None = None,
        arrows: Iterable[tuple[Move | str, Move | str]] = (),
        marks: Iterable[Move | str] = (), size: int = 400, legal: bool = True,
        coordinates: bool = True) -> str:
    """An SVG picture of ``board``: ``lastmove`` (default: the last move played) ringed,
    ``arrows`` from one square to another, ``marks`` ringed in red, the legal moves
    dotted (``legal``), coordinates around the board (``coordinates``)."""
    d = Drawing(8, size, margin=coordinates)
    d.rect(0, 0, size, size, fill="#f4f4f0")
    for sq in range(64):
        x, y = d.corner(*_cell(sq))
        d.rect(x, y, d.cell, d.cell, cls="square", square=_name(sq), fill=GREEN,
               stroke="#0b3d1c", stroke_width=max(1.0, d.cell * 0.03))
    for col, row in ((2, 2), (6, 2), (2, 6), (6, 6)):  # the dots at c3, g3, c7, g7 corners
        x, y = d.corner(col, row)
        d.circle(x, y, d.cell * 0.07, fill="#0b3d1c")
    if coordinates:
        d.labels(FILES, [str(r) for r in range(1, 9)])
    for sq in range(64):
        bit = 1 << sq
        colour = "black" if board.black & bit else "white" if board.white & bit else None
        if colour is None:
            continue
        x, y = d.centre(*_cell(sq))
        d.circle(x, y, d.cell * 0.42, cls=f"disc {colour}", square=_name(sq),
                 fill="#111" if colour == "black" else "#f8f8f8", stroke="#000",
                 stroke_width=max(1.0, d.cell * 0.02))
    if legal:
        dot = "#111" if board.turn == BLACK else "#f8f8f8"
        for move in board.legal_moves:
            if move.square == PASS:
                continue
            x, y = d.centre(*_cell(move.square))
            d.circle(x, y, d.cell * 0.1, cls="legal", square=_name(move.square), fill=dot,
                     opacity=0.55)
    last = lastmove if lastmove is not None else (board.peek() if board.move_stack else None)
    if last is not None and _square(last) != PASS:
        sq = _square(last)
        x, y = d.centre(*_cell(sq))
        d.circle(x, y, d.cell * 0.12, cls="lastmove", square=_name(sq), fill="#d22")
    for start, end in arrows:
        d.arrow(_cell(_square(start)), _cell(_square(end)))
    for where in marks:
        sq = _square(where)
        d.mark(*_cell(sq), _name(sq))
    return d.render()
