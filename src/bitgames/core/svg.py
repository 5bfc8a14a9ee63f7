"""Board pictures as SVG: the drawing helpers every game's ``svg()`` shares.

Each game draws its own board (``bitgames.<game>.svg(board, ...)``, shown by notebooks
through ``Board._repr_svg_``) on a :class:`Drawing`: a square grid of ``cells`` x ``cells``
cells of ``cell`` pixels inside a margin for the coordinates. Every element that stands for
something on the board carries a ``class`` (``disc black``, ``legal``, ``lastmove``, ...) and
the ``data-square`` of its square, so that tests, style sheets and the web page can find it.

>>> d = Drawing(cells=2, size=100)
>>> d.rect(*d.corner(0, 0), d.cell, d.cell, cls="square", fill="#eee", square="a1")
>>> d.render().startswith('<svg xmlns="http://www.w3.org/2000/svg"')
True

:func:`raster` turns such a picture into an RGB array (for learning environments'
``render_mode="rgb_array"``), drawing its shapes without the text.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from xml.sax.saxutils import escape, quoteattr

import numpy as np

#: the colour of arrows and marks given by callers
ARROW = "#15781b"
MARK = "#d22"


class Drawing:
    """An SVG picture of a ``cells`` x ``cells`` board ``size`` pixels wide, with a margin
    of half a cell (for the coordinates) when ``margin``."""

    def __init__(self, cells: int, size: int = 400, margin: bool = True) -> None:
        if size < 16 * cells:
            raise ValueError(f"a board of {cells} x {cells} needs at least {16 * cells} "
                             f"pixels, got {size}")
        self.size = size
        self.cells = cells
        self.cell = size / (cells + (1 if margin else 0))
        self.margin = self.cell / 2 if margin else 0.0
        self._items: list[str] = []

    def corner(self, col: int, row: int) -> tuple[float, float]:
        """The top-left pixel of the cell in column ``col`` and row ``row`` (row 0 on top)."""
        return self.margin + col * self.cell, self.margin + row * self.cell

    def centre(self, col: int, row: int) -> tuple[float, float]:
        """The centre pixel of a cell."""
        x, y = self.corner(col, row)
        return x + self.cell / 2, y + self.cell / 2

    def _element(self, tag: str, attrs: dict[str, object], text: str | None = None) -> None:
        parts = []
        for key, value in attrs.items():
            if value is None:
                continue
            if isinstance(value, float):
                value = f"{value:.2f}".rstrip("0").rstrip(".")
            parts.append(f"{key.rstrip('_').replace('_', '-')}={quoteattr(str(value))}")
        head = f"<{tag} {' '.join(parts)}"
        self._items.append(f"{head}/>" if text is None else f"{head}>{escape(text)}</{tag}>")

    def rect(self, x: float, y: float, w: float, h: float, cls: str | None = None,
             square: str | None = None, **attrs: object) -> None:
        self._element("rect", {"x": x, "y": y, "width": w, "height": h, "class": cls,
                               "data-square": square, **attrs})

    def circle(self, cx: float, cy: float, r: float, cls: str | None = None,
               square: str | None = None, **attrs: object) -> None:
        self._element("circle", {"cx": cx, "cy": cy, "r": r, "class": cls,
                                 "data-square": square, **attrs})

    def line(self, x1: float, y1: float, x2: float, y2: float, cls: str | None = None,
             **attrs: object) -> None:
        self._element("line", {"x1": x1, "y1": y1, "x2": x2, "y2": y2, "class": cls,
                               **attrs})

    def polygon(self, points: Iterable[tuple[float, float]], cls: str | None = None,
                square: str | None = None, **attrs: object) -> None:
        text = " ".join(f"{x:.2f},{y:.2f}" for x, y in points)
        self._element("polygon", {"points": text, "class": cls, "data-square": square,
                                  **attrs})

    def text(self, x: float, y: float, text: str, cls: str | None = None,
             **attrs: object) -> None:
        attrs.setdefault("font_size", round(self.cell * 0.32, 1))
        attrs.setdefault("font_family", "sans-serif")
        attrs.setdefault("text_anchor", "middle")
        attrs.setdefault("dominant_baseline", "central")
        self._element("text", {"x": x, "y": y, "class": cls, **attrs}, text)

    def labels(self, columns: Iterable[str], rows: Iterable[str], fill: str = "#333") -> None:
        """Coordinates in the margin: ``columns`` left to right above and below the board,
        ``rows`` top to bottom on its left and right."""
        if not self.margin:
            return
        far = self.margin + self.cells * self.cell + self.margin / 2
        for i, name in enumerate(columns):
            x, _ = self.centre(i, 0)
            self.text(x, self.margin / 2, name, cls="coord", fill=fill)
            self.text(x, far, name, cls="coord", fill=fill)
        for i, name in enumerate(rows):
            _, y = self.centre(0, i)
            self.text(self.margin / 2, y, name, cls="coord", fill=fill)
            self.text(far, y, name, cls="coord", fill=fill)

    def arrow(self, start: tuple[int, int], end: tuple[int, int], color: str = ARROW) -> None:
        """An arrow from the centre of cell ``start`` (column, row) to that of ``end``."""
        (x1, y1), (x2, y2) = self.centre(*start), self.centre(*end)
        angle = math.atan2(y2 - y1, x2 - x1)
        head = self.cell * 0.3
        tip_x, tip_y = x2 - math.cos(angle) * head * 0.2, y2 - math.sin(angle) * head * 0.2
        self.line(x1, y1, tip_x - math.cos(angle) * head * 0.8,
                  tip_y - math.sin(angle) * head * 0.8, cls="arrow", stroke=color,
                  stroke_width=self.cell * 0.12, stroke_linecap="round", opacity=0.8)
        left = (tip_x - head * math.cos(angle - 0.5), tip_y - head * math.sin(angle - 0.5))
        right = (tip_x - head * math.cos(angle + 0.5), tip_y - head * math.sin(angle + 0.5))
        self.polygon([(tip_x, tip_y), left, right], cls="arrow", fill=color, opacity=0.8)

    def mark(self, col: int, row: int, square: str, color: str = MARK) -> None:
        """A ring around a cell, for a square a caller wants to point at."""
        x, y = self.centre(col, row)
        self.circle(x, y, self.cell * 0.42, cls="mark", square=square, fill="none",
                    stroke=color, stroke_width=self.cell * 0.07)

    def render(self) -> str:
        """The SVG document."""
        size = f"{self.size:d}"
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
                f'viewBox="0 0 {size} {size}">' + "".join(self._items) + "</svg>")


# -- pictures as arrays ---------------------------------------------------------------------

_NAMED = {"black": "#000000", "white": "#ffffff"}


def _colour(value: str | None) -> np.ndarray | None:
    """``#rgb`` / ``#rrggbb`` / black / white as RGB floats; None for none/transparent."""
    if value is None or value in ("none", "transparent"):
        return None
    text = _NAMED.get(value, value).lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    if len(text) != 6:
        raise ValueError(f"cannot draw the colour {value!r}")
    return np.array([int(text[i: i + 2], 16) for i in (0, 2, 4)], dtype=np.float64)


def _segment_distance(xs: np.ndarray, ys: np.ndarray, a: tuple[float, float],
                      b: tuple[float, float]) -> np.ndarray:
    (x1, y1), (x2, y2) = a, b
    dx, dy = x2 - x1, y2 - y1
    length = dx * dx + dy * dy
    t = np.clip(((xs - x1) * dx + (ys - y1) * dy) / length, 0, 1) if length else 0.0
    return np.asarray(np.hypot(xs - (x1 + t * dx), ys - (y1 + t * dy)))


def _inside_polygon(xs: np.ndarray, ys: np.ndarray, points: list[tuple[float, float]]
                    ) -> np.ndarray:
    inside = np.zeros(xs.shape, dtype=bool)
    for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1], strict=True):
        crosses = (y1 > ys) != (y2 > ys)
        with np.errstate(divide="ignore", invalid="ignore"):
            at = x1 + (ys - y1) * (x2 - x1) / (y2 - y1)
        inside ^= crosses & (xs < at)
    return inside


def raster(svg: str) -> np.ndarray:
    """An SVG picture made by :class:`Drawing` as an RGB array (height x width x 3,
    ``uint8``): rectangles, circles, lines and polygons with their fill, stroke and
    opacity, in order; text is left out.

    >>> d = Drawing(cells=2, size=40, margin=False)
    >>> d.rect(0, 0, 40, 40, fill="#ffffff")
    >>> d.circle(10, 10, 6, fill="#000")
    >>> image = raster(d.render())
    >>> image.shape, image[10, 10].tolist(), image[30, 30].tolist()
    ((40, 40, 3), [0, 0, 0], [255, 255, 255])
    """
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    width, height = round(float(root.get("width", 0))), round(float(root.get("height", 0)))
    image = np.full((height, width, 3), 255.0)
    for element in root:
        tag = element.tag.rsplit("}", 1)[-1]
        get = element.get
        if tag == "text":
            continue
        if tag == "polygon":
            pts = [(float(x), float(y)) for x, y in
                   (pair.split(",") for pair in (get("points") or "").split())]
            box = (min(p[0] for p in pts), min(p[1] for p in pts),
                   max(p[0] for p in pts), max(p[1] for p in pts))
        elif tag == "rect":
            x, y = float(get("x", 0)), float(get("y", 0))
            w, h = float(get("width", 0)), float(get("height", 0))
            box = (x, y, x + w, y + h)
        elif tag == "circle":
            cx, cy, r = float(get("cx", 0)), float(get("cy", 0)), float(get("r", 0))
            box = (cx - r, cy - r, cx + r, cy + r)
        elif tag == "line":
            a = (float(get("x1", 0)), float(get("y1", 0)))
            b = (float(get("x2", 0)), float(get("y2", 0)))
            box = (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))
        else:
            continue
        stroke = _colour(get("stroke"))
        half = float(get("stroke-width", 1)) / 2 if stroke is not None else 0.0
        x0, y0 = max(int(box[0] - half - 1), 0), max(int(box[1] - half - 1), 0)
        x1, y1 = min(int(box[2] + half + 2), width), min(int(box[3] + half + 2), height)
        if x0 >= x1 or y0 >= y1:
            continue
        ys, xs = np.mgrid[y0:y1, x0:x1] + 0.5
        fill = _colour(get("fill", "#000")) if tag != "line" else None
        alpha = float(get("opacity", 1)) * float(get("fill-opacity", 1))
        filled = stroked = None
        if tag == "rect":
            filled = (xs >= box[0]) & (xs < box[2]) & (ys >= box[1]) & (ys < box[3])
            if stroke is not None:
                outer = ((xs >= box[0] - half) & (xs < box[2] + half)
                         & (ys >= box[1] - half) & (ys < box[3] + half))
                inner = ((xs >= box[0] + half) & (xs < box[2] - half)
                         & (ys >= box[1] + half) & (ys < box[3] - half))
                stroked = outer & ~inner
        elif tag == "circle":
            distance = np.hypot(xs - cx, ys - cy)
            filled = distance <= r
            if stroke is not None:
                stroked = np.abs(distance - r) <= half
        elif tag == "line":
            stroked = _segment_distance(xs, ys, a, b) <= max(half, 0.5)
        else:
            filled = _inside_polygon(xs, ys, pts)
            if stroke is not None:
                stroked = np.zeros(xs.shape, dtype=bool)
                for p, q in zip(pts, pts[1:] + pts[:1], strict=True):
                    stroked |= _segment_distance(xs, ys, p, q) <= half
        view = image[y0:y1, x0:x1]
        for mask, colour in ((filled, fill), (stroked, stroke)):
            if mask is not None and colour is not None:
                view[mask] = (1 - alpha) * view[mask] + alpha * colour
    return np.clip(np.round(image), 0, 255).astype(np.uint8)
