"""Go boards as SVG pictures (:func:`svg`, also ``Board._repr_svg_`` in notebooks).

The lines and star points of the board, columns A-T without I and rows counted from the
bottom (as GTP writes them), the stones, the last move marked on its stone, and optionally
who owns each point (shaded squares, as the engine's playouts judge it).

>>> from bitgames.go.board import Board
>>> board = Board(size=9)
>>> board.push("E5"); board.push("C3")
>>> text = svg(board)
>>> text.count('class="stone black"'), text.count('class="stone white"')
(1, 1)
>>> text.count('class="star"'), text.count('class="point"')
(5, 81)
>>> 'class="lastmove" data-square="C3"' in text
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bitgames.core.svg import Drawing
from bitgames.go.board import BLACK, Board, Move

WOOD = "#dcb35c"
COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def star_points(size: int) -> list[tuple[int, int]]:
    """The star points (column, row from the bottom, 0-based) of a board.

    >>> star_points(9)
    [(2, 2), (2, 6), (6, 2), (6, 6), (4, 4)]
    >>> len(star_points(19)), star_points(5)
    (9, [])
    """
    if size < 7:
        return []
    edge = 2 if size < 13 else 3
    far = size - 1 - edge
    points = [(edge, edge), (edge, far), (far, edge), (far, far)]
    if size % 2:
        mid = size // 2
        if size >= 19:
            points += [(edge, mid), (far, mid), (mid, edge), (mid, far)]
        points.append((mid, mid))
    return points


def _cell(board: Board, point: int) -> tuple[int, int]:
    return point % board.size, board.size - 1 - point // board.size


def _point(board: Board, where: Move | str | int) -> int:
    if isinstance(where, int):
        return where
    move = where if isinstance(where, Move) else Move.from_gtp(where)
    return move.point(board.size)


def svg(board: Board, lastmove: Move | str | None = None,
        arrows: Iterable[tuple[Move | str, Move | str]] = (),
        marks: Iterable[Move | str] = (), size: int = 400,
        ownership: Sequence[float] | None = None, coordinates: bool = True) -> str:
    """An SVG picture of ``board``: ``lastmove`` (default: the last move played) marked,
    ``arrows`` between points, ``marks`` ringed in red, ``ownership`` (one value per point
    number, +1 Black's to -1 White's) shaded, coordinates around the board."""
    n = board.size
    d = Drawing(n, size, margin=coordinates)
    d.rect(0, 0, size, size, fill=WOOD)
    if coordinates:
        d.labels(COLUMNS[:n], [str(r) for r in range(n, 0, -1)], fill="#3a2a0a")
    (x0, y0), (x1, y1) = d.centre(0, 0), d.centre(n - 1, n - 1)
    width = max(1.0, d.cell * 0.03)
    for i in range(n):
        x, y = d.centre(i, i)
        d.line(x, y0, x, y1, cls="grid", stroke="#000", stroke_width=width)
        d.line(x0, y, x1, y, cls="grid", stroke="#000", stroke_width=width)
    for col, row in star_points(n):
        x, y = d.centre(col, n - 1 - row)
        d.circle(x, y, d.cell * 0.09, cls="star", fill="#000")
    for point in range(n * n):  # a target for clicks and styles on every point
        x, y = d.centre(*_cell(board, point))
        d.rect(x - d.cell / 2, y - d.cell / 2, d.cell, d.cell, cls="point",
               square=board.vertex(point), fill="transparent")
    if ownership is not None:
        if len(ownership) != n * n:
            raise ValueError(f"ownership needs {n * n} values (one per point), "
                             f"got {len(ownership)}")
        for point, value in enumerate(ownership):
            if abs(value) < 0.2:
                continue
            x, y = d.centre(*_cell(board, point))
            half = d.cell * 0.2
            d.rect(x - half, y - half, 2 * half, 2 * half, cls="owner",
                   square=board.vertex(point), fill="#000" if value > 0 else "#fff",
                   opacity=round(min(1.0, abs(value)) * 0.6, 2))
    for colour, name in ((BLACK, "black"), (not BLACK, "white")):
        for point in board.stones(colour):
            x, y = d.centre(*_cell(board, point))
            d.circle(x, y, d.cell * 0.47, cls=f"stone {name}", square=board.vertex(point),
                     fill="#111" if name == "black" else "#fafafa", stroke="#000",
                     stroke_width=width)
    last = lastmove if lastmove is not None else (board.peek() if board.move_stack else None)
    if last is not None:
        point = _point(board, last)
        if point >= 0:
            x, y = d.centre(*_cell(board, point))
            on_black = board.color_at(point) == BLACK
            d.circle(x, y, d.cell * 0.22, cls="lastmove", square=board.vertex(point),
                     fill="none", stroke="#fff" if on_black else "#000",
                     stroke_width=d.cell * 0.06)
    for start, end in arrows:
        d.arrow(_cell(board, _point(board, start)), _cell(board, _point(board, end)))
    for where in marks:
        point = _point(board, where)
        d.mark(*_cell(board, point), board.vertex(point))
    return d.render()
