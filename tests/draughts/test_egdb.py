"""Endgame tables: the index against published position counts, every value against the
values of its successors, known results of the endgame books, and their use in search."""

from __future__ import annotations

import json
import random
from itertools import product
from math import comb
from pathlib import Path

import numpy as np
import pytest

from bitgames.cli import main
from bitgames.core.engine import Limit
from bitgames.draughts import egdb
from bitgames.draughts.board import Board
from bitgames.draughts.search import Engine


def configurations(wm: int, wk: int, bm: int, bk: int) -> int:
    """Placements of the pieces, counted by formula: rank 1 (4 squares) takes White men but
    not Black, rank 8 (4) the reverse, the other 24 both; kings go anywhere still free."""
    total = 0
    for i in range(wm + 1):  # White men on rank 1
        for j in range(bm + 1):  # Black men on rank 8
            middle = comb(24, wm - i) * comb(24 - (wm - i), bm - j)
            total += comb(4, i) * comb(4, j) * middle
    free = 32 - wm - bm
    return total * comb(free, wk) * comb(free - wk, bk)


def cumulative(pieces: int) -> int:
    return sum(configurations(*c) for c in product(range(pieces + 1), repeat=4)
               if 1 <= sum(c) <= pieces)


def test_the_count_formula_gives_the_published_totals() -> None:
    # docs/REFERENCES.md, draughts: Schaeffer's table of configurations with at most N pieces
    # (men barred from their promotion rank), which Russian and English share
    assert cumulative(2) == 7_092
    assert cumulative(4) == 7_361_090
    assert cumulative(5) == 156_049_322


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, egdb.Tables]:
    folder = tmp_path_factory.mktemp("egdb")
    out = {}
    for variant in ("russian", "english"):
        egdb.build(folder, variant, 3, scheduler="serial")
        out[variant] = egdb.Tables(folder, variant)
    out["folder"] = folder  # type: ignore[assignment]
    # the Kings-only slices of four pieces, for the endgame books' results below
    for name in ("0301", "0103"):
        egdb.solve_slice(folder, "russian", name, 4)
    out["russian-kings"] = egdb.Tables(folder, "russian")
    return out


def test_the_index_covers_exactly_the_positions(tables: dict[str, egdb.Tables]) -> None:
    """Every placement the formula counts is one index of its slice, and no other index is
    a position: the positions in the tables plus those where a side has no piece (not
    tabled: that side has lost) add up to the published count of up to 3 pieces."""
    table = tables["russian"]
    in_tables = 0
    for spec in table.slices:
        offset, size = table.layout.where(spec)
        codes = (table.packed[np.arange(offset, offset + size) >> 2]
                 >> (2 * (np.arange(offset, offset + size) & 3)).astype(np.uint8)) & 3
        valid = int(np.count_nonzero(codes != 3))  # 3: INVALID
        assert valid == configurations(*spec.counts), spec
        in_tables += valid
    one_sided = sum(configurations(*c) for c in product(range(4), repeat=4)
                    if 1 <= sum(c) <= 3 and (c[0] + c[1] == 0 or c[2] + c[3] == 0))
    published_up_to_3 = 7_361_090 - 7_092_774  # cumulative to 4 less the 4-piece count
    assert in_tables + one_sided == published_up_to_3


def _expected(board: Board, table: egdb.Tables) -> str:
    """A position's value from its successors' values in the tables."""
    moves = list(board.legal_moves)
    if not moves:
        return "loss"
    results = []
    for move in moves:
        child = board.copy()
        child.push(move)
        w, b, _k, side = child.bitboards()
        if (w if side == 0 else b) == 0:
            return "win"  # the opponent has no piece left
        results.append(table.probe(child))
    assert "unknown" not in results
    if "loss" in results:
        return "win"
    return "loss" if all(r == "win" for r in results) else "draw"


@pytest.mark.parametrize("variant", ["russian", "english"])
def test_every_value_agrees_with_its_successors(variant: str,
                                                tables: dict[str, egdb.Tables]) -> None:
    table = tables[variant]
    rng = random.Random(7)
    checked = {"win": 0, "loss": 0, "draw": 0}
    for spec in table.slices:
        offset, size = table.layout.where(spec)
        for idx in rng.sample(range(size), min(size, 150)):
            w, b, k, ok = egdb._decode(idx, *spec.counts, table.layout.table)
            if not ok:
                continue
            for side in (0, 1):
                fen = _fen(int(w), int(b), int(k), side, variant)
                board = Board(fen, variant=variant)
                value = table.probe(board)
                assert value == _expected(board, table), (fen, value)
                checked[value] += 1
    assert min(checked.values()) > 50, checked  # all three values are met


def _fen(w: int, b: int, k: int, side: int, variant: str) -> str:
    """The FEN of bitboards (the tables' own index is checked against Board through it)."""
    names = [_square_name(s, variant) for s in range(32)]

    def pieces(bits: int) -> str:
        return ",".join(("K" if k >> s & 1 else "") + names[s] for s in range(32)
                        if bits >> s & 1)

    return f"{'W' if side == 0 else 'B'}:W{pieces(w)}:B{pieces(b)}"


def _square_name(s: int, variant: str) -> str:
    from bitgames.draughts import geometry as g

    return g.NAMES[s] if variant == "russian" else str(g.numeric_square(s))


def test_the_endgame_books_results(tables: dict[str, egdb.Tables]) -> None:
    russian, english = tables["russian-kings"], tables["english"]
    assert russian.probe(Board("W:WKc1:BKh8")) == "draw"  # one king each
    # ... but a king in the corner a1 can only step onto the long diagonal, and is taken
    assert russian.probe(Board("W:WKa1:BKh8")) == "loss"
    assert russian.probe(Board("W:WKc1,Ke1:BKh8")) == "draw"  # two kings do not win
    # three kings against one: a draw while the lone king holds the main road a1-h8
    # (Petrov's triangle needs it off that road), a win once the three hold it
    assert russian.probe(Board("W:WKa3,Kc1,Kh2:BKd4")) == "draw"
    assert russian.probe(Board("B:WKa3,Kc1,Kh2:BKd4")) == "draw"
    assert russian.probe(Board("W:WKa1,Kc1,Ke1:BKh4")) == "win"
    # English checkers: two kings beat one, one king draws against one
    assert english.probe(Board("W:WK1,K3:BK32")) == "win"
    assert english.probe(Board("W:WK1:BK32")) == "draw"


def test_the_engine_plays_into_proven_wins(tables: dict[str, egdb.Tables]) -> None:
    """From four-piece positions whose best capture or move reaches a position the tables
    lose for the opponent, the engine with the tables reports the proven win at once."""
    table = tables["russian"]
    engine = Engine("russian", egdb=table)
    rng = random.Random(3)
    found = 0
    for _ in range(400):
        squares = rng.sample(range(32), 4)
        kings = rng.sample(squares, 2)
        w = (1 << squares[0]) | (1 << squares[1])
        b = (1 << squares[2]) | (1 << squares[3])
        k = (1 << kings[0]) | (1 << kings[1])
        try:
            board = Board(_fen(w, b, k, 0, "russian"))
        except ValueError:
            continue  # a man on its promotion rank
        children = []
        for move in board.legal_moves:
            child = board.copy()
            child.push(move)
            children.append(table.probe(child))  # "unknown" with four pieces left
        if "loss" not in children:
            continue
        result = engine.search(board, Limit(depth=2))
        assert result.score is not None and result.score.is_win, board.fen()
        found += 1
    assert found >= 5


def test_build_and_probe_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["draughts", "egdb", "build", "--pieces", "2", "--variant", "english", "--dir",
            str(tmp_path), "--scheduler", "serial", "--json"]
    assert main(argv) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["slice"] for r in lines[:-1]] == ["0101", "0110", "1001", "1010"]
    assert lines[-1]["solved"] == 4 and lines[-1]["slices"] == 4
    assert main(argv) == 0  # resumed: nothing left to do
    assert json.loads(capsys.readouterr().out)["solved"] == 0
    assert main(["draughts", "egdb", "probe", "W:WK1:BK32", "--dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip().endswith(": draw")
    (tmp_path / "english-1010.npz").write_bytes(b"not a table")
    assert main(["draughts", "egdb", "probe", "W:WK1:BK32", "--dir", str(tmp_path)]) == 2
    assert "english-1010.npz: endgame table: not an .npz archive" in capsys.readouterr().err


def test_hub_plays_by_the_tables(tables: dict[str, egdb.Tables]) -> None:
    """Hub's ``set-param name=egdb``: the engine then reports the win the tables prove
    (``200.00``, below a forced win's ``300.00 - plies``) where the search alone sees
    none."""
    import re

    from bitgames.core.protocol import SessionHarness
    from bitgames.draughts.hub import HubSession, Numbering

    board = Board("W:WKa1,c3:Bd4,Kh8")  # c3:e5 leaves king and man against a king
    pos = Numbering("standard", "russian").position(board)
    hub = SessionHarness(HubSession)
    hub.converse([("hub", [re.compile("id .*"), *[re.compile("param .*")] * 5, "wait"]),
                  (f"pos pos={pos}", []), ("level depth=2", [])])
    hub.send("go think")
    plain = hub.expect(re.compile("done .*"), skip=lambda line: line.startswith("info"))
    assert plain.startswith("done move=")
    hub.converse([(f"set-param name=egdb value={tables['folder']}", []),
                  ("set-param name=egdb value=/no/such/folder",
                   ['error message="no folder \'/no/such/folder\'"'])])
    hub.send("go think")
    infos = []
    while not (line := hub.next_line()).startswith("done"):
        infos.append(line)
    assert " score=200.00 " in infos[-1]
