"""Board pictures: every game's SVG parsed back and checked against the board it draws."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

import pytest

from bitgames.core.bits import iter_bits

SVG = "{http://www.w3.org/2000/svg}"


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)  # well-formed XML, or this raises
    assert root.tag == f"{SVG}svg"
    return root


def classes(root: ET.Element) -> Counter[str]:
    return Counter(e.get("class") for e in root.iter() if e.get("class"))


def squares(root: ET.Element, cls: str) -> list[str]:
    return sorted(e.get("data-square", "") for e in root.iter() if e.get("class") == cls)


def texts(root: ET.Element, cls: str) -> list[str]:
    return [e.text or "" for e in root.iter() if e.get("class") == cls]


def centre(e: ET.Element) -> tuple[float, float]:
    if e.tag == f"{SVG}circle":
        return float(e.get("cx", 0)), float(e.get("cy", 0))
    if e.tag == f"{SVG}polygon":
        pts = [tuple(map(float, p.split(","))) for p in e.get("points", "").split()]
        return sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
    return (float(e.get("x", 0)) + float(e.get("width", 0)) / 2,
            float(e.get("y", 0)) + float(e.get("height", 0)) / 2)


def square_centres(root: ET.Element) -> dict[str, tuple[float, float]]:
    return {e.get("data-square", ""): centre(e) for e in root.iter()
            if e.get("class") == "square"}


def random_boards(new: Any, plies: int, count: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        board = new()
        for _ in range(rng.randrange(plies)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
        out.append(board)
    return out


def test_othello() -> None:
    from bitgames.othello import Board, svg

    board = Board()
    board.push("f5")
    root = parse(svg(board, arrows=[("d3", "d6")], marks=["a1"]))
    assert squares(root, "disc black") == ["d5", "e4", "e5", "f5"]
    assert squares(root, "disc white") == ["d4"]
    assert squares(root, "legal") == sorted(str(m) for m in board.legal_moves)
    assert squares(root, "lastmove") == ["f5"] and squares(root, "mark") == ["a1"]
    assert sorted(set(texts(root, "coord"))) == sorted("abcdefgh12345678")
    cells = square_centres(root)
    assert cells["a1"][1] < cells["a8"][1]  # row 1 on top, as Othello boards are drawn
    assert classes(root)["arrow"] == 2  # its shaft and its head
    for b in random_boards(Board, 60, 20, seed=1):
        black, white = b.disc_count()
        c = classes(parse(b._repr_svg_()))
        assert (c["disc black"], c["disc white"]) == (black, white)
        assert c["legal"] == sum(1 for m in b.legal_moves if not m.is_pass())


@pytest.mark.parametrize("variant", ["russian", "english"])
def test_draughts(variant: str) -> None:
    from bitgames.draughts import Board, svg

    for b in random_boards(lambda: Board(variant=variant), 80, 20, seed=2):
        w, bl, k, _ = b.bitboards()
        c = classes(parse(svg(b)))
        assert c["piece white man"] + c["piece white king"] == bin(w).count("1")
        assert c["piece black man"] + c["piece black king"] == bin(bl).count("1")
        assert c["crown"] == c["piece white king"] + c["piece black king"] == bin(k).count("1")
    board = Board(variant=variant)
    root = parse(svg(board))
    cells = square_centres(root)
    assert len(cells) == 32 and cells["a1"][1] > cells["a7"][1]  # White at the bottom
    if variant == "english":  # checkers numbers its squares 1 (b8, top left) to 32 (g1)
        numbers = [e for e in root.iter() if e.get("class") == "number"]
        assert sorted(int(e.text or 0) for e in numbers) == list(range(1, 33))
        first = min(numbers, key=lambda e: (float(e.get("y", 0)), float(e.get("x", 0))))
        assert first.text == "1" and texts(root, "coord") == []
    else:
        assert sorted(set(texts(root, "coord"))) == sorted("abcdefgh12345678")
    move = next(iter(board.legal_moves))
    board.push(move)
    root = parse(svg(board))
    from bitgames.draughts import geometry as g

    assert squares(root, "lastmove") == sorted({g.NAMES[move.start], g.NAMES[move.end]})


def test_draughts_capture_shows_the_captured_piece() -> None:
    from bitgames.draughts import Board, svg

    board = Board("W:Wc3:Bd4,h8")
    board.push("c3:e5")
    assert squares(parse(svg(board)), "captured") == ["d4"]


def test_go() -> None:
    from bitgames.go import Board, svg

    board = Board(size=9)
    for vertex in ("C3", "G7", "E5", "D4"):
        board.push(vertex)
    root = parse(svg(board))
    assert squares(root, "stone black") == ["C3", "E5"]
    assert squares(root, "stone white") == ["D4", "G7"]
    assert squares(root, "lastmove") == ["D4"]
    assert sorted(set(texts(root, "coord"))) == sorted([*"ABCDEFGHJ", *map(str, range(1, 10))])
    # the star points of 9x9 are the 3-3 points and the centre: where stones on C3, C7,
    # G3, G7 and E5 stand
    stones = Board(size=9)
    for vertex in ("C3", "C7", "G3", "G7", "E5"):
        stones.push(vertex)
        stones.push("pass")
    drawn = parse(svg(stones))
    stars = sorted(centre(e) for e in drawn.iter() if e.get("class") == "star")
    at = sorted(centre(e) for e in drawn.iter() if e.get("class") == "stone black")
    assert stars == at
    assert classes(parse(svg(Board(size=19))))["star"] == 9
    shade = [1.0] * 40 + [0.0] + [-1.0] * 40
    c = classes(parse(svg(Board(size=9), ownership=shade)))
    assert c["owner"] == 80
    with pytest.raises(ValueError, match="81 values"):
        svg(Board(size=9), ownership=[0.0])
    for b in random_boards(lambda: Board(size=9), 60, 10, seed=3):
        from bitgames.go.board import BLACK, WHITE

        c = classes(parse(b._repr_svg_()))
        assert (c["stone black"], c["stone white"]) == (len(b.stones(BLACK)),
                                                        len(b.stones(WHITE)))


def test_leiserchess() -> None:
    from bitgames.leiserchess import Board, svg
    from bitgames.leiserchess.notation import square_name

    board = Board()
    root = parse(svg(board))
    assert squares(root, "laser") == sorted(square_name(s) for s in
                                             iter_bits(board.laser_path(board.turn)))
    assert sorted(set(texts(root, "coord"))) == sorted("abcdefgh01234567")
    cells = square_centres(root)
    elements = {(e.get("class"), e.get("data-square")): e for e in root.iter()}
    # an NW Pawn's opaque body is the lower-right half of its square (the rules)
    pawn = elements[("piece lavender pawn", "a3")]
    assert board.piece_at("a3").symbol() == "nw"
    (px, py), (cx, cy) = centre(pawn), cells["a3"]
    assert px > cx and py > cy
    # a King's pointer shows where it faces: Tangerine's King on h0 faces north (up)
    assert board.piece_at("h0").symbol() == "NN"
    tip = centre(elements[("facing", "h0")])
    assert tip[1] < cells["h0"][1]
    for b in random_boards(Board, 40, 15, seed=4):
        c = classes(parse(svg(b)))
        w, bl, k, _, _ = b.bitboards()
        assert c["piece tangerine king"] + c["piece tangerine pawn"] == bin(w).count("1")
        assert c["piece lavender king"] + c["piece lavender pawn"] == bin(bl).count("1")
        assert c["piece tangerine king"] + c["piece lavender king"] == bin(k).count("1")
        if not b.is_game_over():
            assert c["laser"] == bin(b.laser_path(b.turn)).count("1")
    board.push("h0g1")  # the King steps: its squares are the last move's
    assert squares(parse(svg(board)), "lastmove") == ["g1", "h0"]


def test_a_board_too_small_to_draw_is_refused() -> None:
    from bitgames.othello import Board, svg

    with pytest.raises(ValueError, match="at least 128 pixels"):
        svg(Board(), size=50)
