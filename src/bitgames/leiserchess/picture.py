"""Leiserchess boards as SVG pictures (:func:`svg`, also ``Board._repr_svg_`` in notebooks).

Rank 7 on top, files a-h, ranks 0-7 around the board. A King is a disc with a pointer the
way it faces (where its laser fires); a Pawn is the triangle of its opaque body with its
mirror, the hypotenuse, facing the diagonal its orientation names (an NW Pawn fills the
lower-right half). Tangerine (uppercase in the FEN) is orange, Lavender purple. The squares
the laser of the side to move crosses are shaded red, the last move's squares yellow.

>>> from bitgames.leiserchess.board import Board
>>> text = svg(Board())
>>> text.count('class="piece tangerine king"'), text.count('class="piece lavender pawn"')
(1, 7)
>>> text.count('class="laser"')  # Tangerine's beam from h0 up the h-file to h4
5
"""

from __future__ import annotations

from collections.abc import Iterable

from bitgames.core.bits import iter_bits
from bitgames.core.svg import Drawing
from bitgames.leiserchess.board import WHITE, Board, Move
from bitgames.leiserchess.notation import parse_square, square_name

COLOURS = {True: ("#f28c28", "#8a4a00"), False: ("#a27fd6", "#4b2a80")}  # fill, edge
_LIGHT, _DARK = "#eeeed2", "#b9c2a8"
#: unit vectors of the King's facings N, E, S, W (y down)
_FACING = ((0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0))
#: corners (x, y in 0..1, y down) of each Pawn orientation's body: NW, NE, SE, SW
#: (the right angle in the middle, so the first and last corners end the mirror)
_BODY = (((1, 0), (1, 1), (0, 1)), ((0, 0), (0, 1), (1, 1)),
         ((1, 0), (0, 0), (0, 1)), ((0, 0), (1, 0), (1, 1)))


def _cell(square: int) -> tuple[int, int]:
    return square & 7, 7 - (square >> 3)


def _square(where: Move | str | int) -> int:
    if isinstance(where, int):
        return where
    if isinstance(where, Move):
        return where.to_square
    return parse_square(where)


def svg(board: Board, lastmove: Move | str | None = None,
        arrows: Iterable[tuple[str | int, str | int]] = (),
        marks: Iterable[str | int] = (), size: int = 400, lasers: bool = True,
        coordinates: bool = True) -> str:
    """An SVG picture of ``board``: ``lastmove`` (default: the last move played) shown by
    its squares, the laser path of the side to move (``lasers``), ``arrows`` between
    squares, ``marks`` ringed in red, coordinates around the board."""
    d = Drawing(8, size, margin=coordinates)
    d.rect(0, 0, size, size, fill="#f4f4f0")
    for sq in range(64):
        x, y = d.corner(*_cell(sq))
        light = (sq & 7) + (sq >> 3) & 1
        d.rect(x, y, d.cell, d.cell, cls="square", square=square_name(sq),
               fill=_LIGHT if light else _DARK)
    if coordinates:
        d.labels("abcdefgh", [str(r) for r in range(7, -1, -1)])
    last = lastmove if lastmove is not None else (board.peek() if board.move_stack else None)
    if isinstance(last, str):
        last = Move.from_str(last)
    if last is not None:
        for sq in {last.from_square, last.to_square}:
            x, y = d.corner(*_cell(sq))
            d.rect(x, y, d.cell, d.cell, cls="lastmove", square=square_name(sq),
                   fill="#e8e15a", opacity=0.6)
    if lasers and not board.is_game_over():
        for sq in iter_bits(board.laser_path(board.turn)):
            x, y = d.corner(*_cell(sq))
            d.rect(x, y, d.cell, d.cell, cls="laser", square=square_name(sq), fill="#e02020",
                   opacity=0.3)
    for sq in range(64):
        piece = board.piece_at(sq)
        if piece is None:
            continue
        side = "tangerine" if piece.color == WHITE else "lavender"
        fill, edge = COLOURS[piece.color == WHITE]
        name = square_name(sq)
        x, y = d.corner(*_cell(sq))
        inset = d.cell * 0.12
        span = d.cell - 2 * inset
        if piece.king:
            cx, cy = d.centre(*_cell(sq))
            d.circle(cx, cy, span / 2, cls=f"piece {side} king", square=name, fill=fill,
                     stroke=edge, stroke_width=d.cell * 0.05)
            ux, uy = _FACING[piece.orientation]
            tip = (cx + ux * span * 0.45, cy + uy * span * 0.45)
            left = (cx - uy * span * 0.2, cy + ux * span * 0.2)
            right = (cx + uy * span * 0.2, cy - ux * span * 0.2)
            d.polygon([tip, left, right], cls="facing", square=name, fill=edge)
            continue
        corners = [(x + inset + cx * span, y + inset + cy * span)
                   for cx, cy in _BODY[piece.orientation]]
        d.polygon(corners, cls=f"piece {side} pawn", square=name, fill=fill, stroke=edge,
                  stroke_width=d.cell * 0.04)
        # the mirror: the hypotenuse, from the first corner to the last
        (mx1, my1), (mx2, my2) = corners[0], corners[2]
        d.line(mx1, my1, mx2, my2, cls="mirror", stroke="#cfe8ff",
               stroke_width=d.cell * 0.08, stroke_linecap="round")
    for start, end in arrows:
        d.arrow(_cell(_square(start)), _cell(_square(end)))
    for where in marks:
        sq = _square(where)
        d.mark(*_cell(sq), square_name(sq))
    return d.render()
