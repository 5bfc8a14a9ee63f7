"""Draughts boards as SVG pictures (:func:`svg`, also ``Board._repr_svg_`` in notebooks).

White at the bottom, a1 a dark square. Russian boards are labelled with their algebraic
coordinates (a-h, 1-8), English ones with the numbers 1-32 of their dark squares (1 top
left, as checkers players number them). Kings wear a crown ring; the last move shows its
start and end squares, the squares a capture jumped, and its path.

>>> from bitgames.draughts.board import Board
>>> text = svg(Board(variant="english"))
>>> text.count('class="piece white man"'), text.count('class="piece black man"')
(12, 12)
>>> text.count('class="number"')
32
"""

from __future__ import annotations

from collections.abc import Iterable

from bitgames.core.bits import iter_bits
from bitgames.core.svg import Drawing
from bitgames.draughts import geometry as g
from bitgames.draughts.board import Board, Move

LIGHT, DARK = "#f0d9b5", "#8a5a3b"


def _cell(square: int) -> tuple[int, int]:
    file, rank = g.COORDS[square]
    return file, 7 - rank  # column, row (row 0 on top: rank 8)


def _name(square: int) -> str:
    return g.NAMES[square]


def _square(board: Board, where: Move | str | int) -> int:
    if isinstance(where, int):
        return where
    if isinstance(where, Move):
        return where.end
    if where.isdigit():
        return g.from_numeric(int(where))
    return g.square_index(where)


def svg(board: Board, lastmove: Move | str | None = None,
        arrows: Iterable[tuple[str | int, str | int]] = (),
        marks: Iterable[str | int] = (), size: int = 400,
        coordinates: bool = True) -> str:
    """An SVG picture of ``board``: ``lastmove`` (default: the last move played) shown by
    its squares, ``arrows`` between squares (names, numbers 1-32 in English, or bit
    indices), ``marks`` ringed in red, coordinates or square numbers (``coordinates``)."""
    d = Drawing(8, size, margin=coordinates)
    d.rect(0, 0, size, size, fill="#f4f4f0")
    dark = {_cell(sq): sq for sq in range(32)}
    for col in range(8):
        for row in range(8):
            x, y = d.corner(col, row)
            sq = dark.get((col, row))
            d.rect(x, y, d.cell, d.cell, cls="square" if sq is not None else None,
                   square=_name(sq) if sq is not None else None,
                   fill=DARK if sq is not None else LIGHT)
    english = board.variant == "english"
    if coordinates and not english:
        d.labels("abcdefgh", [str(r) for r in range(8, 0, -1)])
    if english:  # the square numbers in a corner of each dark square
        for sq in range(32):
            x, y = d.corner(*_cell(sq))
            d.text(x + d.cell * 0.16, y + d.cell * 0.16, str(g.numeric_square(sq)),
                   cls="number", fill="#f0d9b5", font_size=round(d.cell * 0.2, 1))
    last = lastmove if lastmove is not None else (board.peek() if board.move_stack else None)
    if isinstance(last, str):
        last = Move.from_str(last, board.variant)
    if last is not None:
        for sq in (last.start, last.end):
            x, y = d.corner(*_cell(sq))
            d.rect(x, y, d.cell, d.cell, cls="lastmove", square=_name(sq), fill="#cdd26a",
                   opacity=0.55)
        for sq in iter_bits(last.captured):
            x, y = d.centre(*_cell(sq))
            d.circle(x, y, d.cell * 0.12, cls="captured", square=_name(sq), fill="#d22",
                     opacity=0.7)
    w, b, k, _side = board.bitboards()
    for sq in range(32):
        bit = 1 << sq
        if not (w | b) & bit:
            continue
        colour = "white" if w & bit else "black"
        kind = "king" if k & bit else "man"
        x, y = d.centre(*_cell(sq))
        fill, edge = ("#fafafa", "#333") if colour == "white" else ("#222", "#000")
        d.circle(x, y, d.cell * 0.38, cls=f"piece {colour} {kind}", square=_name(sq),
                 fill=fill, stroke=edge, stroke_width=max(1.0, d.cell * 0.03))
        if kind == "king":
            d.circle(x, y, d.cell * 0.2, cls="crown", square=_name(sq), fill="none",
                     stroke="#d4a017", stroke_width=d.cell * 0.07)
    for start, end in arrows:
        d.arrow(_cell(_square(board, start)), _cell(_square(board, end)))
    for where in marks:
        sq = _square(board, where)
        d.mark(*_cell(sq), _name(sq))
    return d.render()
