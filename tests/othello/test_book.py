"""Opening book: symmetries, negamax, learning, building, files, NBoard and CLI use."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from bitgames.othello.board import BLACK, Board, parse_square, square_name
from bitgames.othello.book import (
    Book,
    canonical,
    mirror_files,
    mirror_ranks,
    symmetry,
    transpose,
)
from bitgames.othello.nboard import NBoardSession
from bitgames.othello.patterns import _sym as square_image


def slow_symmetry(x: int, k: int) -> int:
    """Symmetry ``k`` square by square, with the pattern module's square map."""
    return sum(1 << square_image(s, k) for s in range(64) if x >> s & 1)


def random_board(rng: random.Random, plies: int) -> Board:
    b = Board()
    for _ in range(plies):
        if b.is_game_over():
            break
        b.push(rng.choice(list(b.legal_moves)) if not b.must_pass() else "pass")
    return b


def test_symmetries_square_by_square() -> None:
    rng = random.Random(1)
    for _ in range(300):
        x = rng.getrandbits(64)
        assert mirror_files(x) == slow_symmetry(x, 1)
        assert mirror_ranks(x) == slow_symmetry(x, 2)
        assert transpose(x) == slow_symmetry(x, 4)
        for k in range(8):
            assert symmetry(x, k) == slow_symmetry(x, k)


def test_canonical_key_is_shared_by_all_images() -> None:
    rng = random.Random(2)
    for _ in range(100):
        p, o = random_board(rng, rng.randrange(1, 40)).bitboards()
        key, k = canonical(p, o)
        assert (symmetry(p, k), symmetry(o, k)) == key
        for j in range(8):
            assert canonical(symmetry(p, j), symmetry(o, j))[0] == key


def by_mobility(board: Board) -> list[tuple[str, int]]:
    """A stand-in search: a move scores -10 x the replies it leaves the opponent."""
    rows = []
    for m in board.legal_moves:
        b = board.copy(stack=False)
        b.push(m)
        rows.append((str(m), -10 * len(b.legal_moves)))
    return sorted(rows, key=lambda r: (-r[1], r[0]))


def test_leaf_and_negamax_by_hand() -> None:
    book = Book()
    start = Board()
    book.insert(start, 0, "f5", 5, depth=3)
    assert book.negamax() == 5  # only the leaf: f5 worth +0.05 for Black
    after = Board.from_transcript("f5")
    book.insert(after, 0, "f4", 30, depth=3)  # White's leaf f4: +0.30 for White
    # f5 now leads into the book, so its stale leaf score no longer counts; all four
    # opening moves are images of f5 and score -0.30 for Black
    assert book.negamax() == -30
    after_entry = book.entry(after)
    assert after_entry is not None and after_entry.value == 30
    assert book.moves(start) == [("c4", -30), ("d3", -30), ("e6", -30), ("f5", -30)]
    book.insert(after, 0, "f4", -40, depth=3)
    assert book.negamax() == 40


def test_moves_follow_the_frame_of_the_board() -> None:
    rng = random.Random(3)
    for _ in range(40):
        b = random_board(rng, rng.randrange(2, 30))
        if b.is_game_over() or b.must_pass():
            continue
        book = Book()
        book.evaluate(b, by_mobility, 1)
        entry = book.entry(b)
        assert entry is not None and entry.leaf_move == by_mobility(b)[0][0]
        assert entry.value == by_mobility(b)[0][1]


def test_contempt_values_book_draws() -> None:
    # Black to move with two book children: one a draw (value 0), one worth -0.5 for Black
    start = Board.from_transcript("f5d6")
    book = Book()
    book.insert(start, 0, None, 0, depth=1)
    draw = Board.from_transcript("f5d6c3")
    worse = Board.from_transcript("f5d6c5")
    book.insert(draw, 0, "d3", 0, depth=1)
    book.insert(worse, 50, "d3", 50, depth=1)  # +0.5 for White to move
    assert start.turn == BLACK
    assert book.choose(start, contempt=100) == ("c3", 100)
    assert book.choose(start, contempt=-100) == ("c5", -50)
    white = Board.from_transcript("f5d6c3")
    assert book.moves(white, contempt=100) == [("d3", 0)]  # a leaf is not a book draw


def test_learn_adds_the_game_and_relinks_leaves() -> None:
    book = Book()
    moves = ["f5", "d6", "c3", "d3", "c4"]
    assert book.learn(moves, by_mobility, 1) == 6
    assert book.learn(moves, by_mobility, 1) == 0
    b = Board()
    for mv in moves:
        e = book.entry(b)
        assert e is not None and e.games == 2
        # the move of the game leads into the book, so the leaf is another move
        assert e.leaf_move != mv
        assert mv in dict(book.moves(b))
        b.push(mv)
    # values are the negamax of the leaves along the line
    final = book.entry(b)
    assert final is not None
    b.pop()
    parent = book.entry(b)
    assert parent is not None and parent.value == max(parent.leaf_value, -final.value)


def test_build_resumes_and_saves(tmp_path: Path) -> None:
    path = tmp_path / "b.npz"
    book = Book()
    added = book.build(by_mobility, 1, plies=3, width=0, save_to=path, save_every=2)
    assert added == len(book) > 3
    loaded = Book.load(path)
    assert loaded.table == book.table
    assert Book.load(path).build(by_mobility, 1, plies=3, width=0) == 0  # resumed: nothing new
    wider = Book.load(path)
    assert wider.build(by_mobility, 1, plies=3, width=1000) > 0
    with pytest.raises(ValueError, match="Othello opening book: "):
        Book.load(tmp_path / "missing.npz")


def test_stopped_build_saves_every_finished_position(tmp_path: Path) -> None:
    path = tmp_path / "stopped.npz"
    whole = Book()
    whole.build(by_mobility, 1, plies=3, width=1000)
    searched: list[int] = []
    book = Book()
    added = book.build(by_mobility, 1, plies=3, width=1000, save_to=path, save_every=100,
                       on_position=lambda n, ply: searched.append(n),
                       stop=lambda: len(searched) >= 5)  # Ctrl-C after the fifth position
    assert added == 5 and len(Book.load(path)) == 5  # all five saved, not one lost
    resumed = Book.load(path)
    assert resumed.build(by_mobility, 1, plies=3, width=1000) == len(whole) - 5 > 0
    assert resumed.table == whole.table


class Interrupted(Exception):
    pass


def counting(limit: int | None = None
             ) -> tuple[list[Board], Callable[[Board], list[tuple[str, int]]]]:
    """``by_mobility`` recording the positions it searches; raises after ``limit`` calls."""
    calls: list[Board] = []

    def search(board: Board) -> list[tuple[str, int]]:
        if limit is not None and len(calls) >= limit:
            raise Interrupted
        calls.append(board.copy(stack=False))
        return by_mobility(board)

    return calls, search


def test_build_searches_each_position_once_even_across_an_interruption(tmp_path: Path) -> None:
    whole, search = counting()
    full = Book()
    full.build(search, 1, plies=5, width=10, save_to=tmp_path / "full.npz")
    keys = [canonical(*b.bitboards())[0] for b in whole]
    assert len(keys) == len(set(keys)) == len(full.scores)  # one search per position
    assert len(whole) == len(full) > 30  # every book position, once
    again, search = counting()
    assert Book.load(tmp_path / "full.npz").build(search, 1, plies=5, width=10) == 0
    assert again == []  # finished: resuming searches nothing
    # stopped in the middle (the last checkpoint a few positions back), then resumed
    path = tmp_path / "part.npz"
    first, search = counting(limit=len(whole) // 2)
    with pytest.raises(Interrupted):
        Book().build(search, 1, plies=5, width=10, save_to=path, save_every=4)
    part = Book.load(path)
    saved = set(part.scores)
    assert 0 < len(saved) < len(whole)
    second, search = counting()
    part.build(search, 1, plies=5, width=10, save_to=path)
    assert part.table == full.table and Book.load(path).table == full.table
    assert not {canonical(*b.bitboards())[0] for b in second} & saved  # none twice
    assert len(second) <= len(whole) - len(saved)
    # a new depth searches again
    deeper, search = counting()
    Book.load(tmp_path / "full.npz").build(search, 2, plies=2, width=10)
    assert len(deeper) > 0


def test_nboard_plays_hints_and_learns_from_the_book(tmp_path: Path) -> None:
    from bitgames.othello.search import Engine

    engine = Engine(level=2, evaluation="classic", table_bits=12)
    book = Book()
    book.learn(["f5", "d6", "c3"], by_mobility, 1)
    path = tmp_path / "learned.npz"
    expected = book.choose(Board.from_transcript("f5"))
    assert expected is not None
    expected_hints = [m for m, _ in book.moves(Board.from_transcript("f5"))][:3]
    lines = ["nboard 2", "set depth 2", "move f5", "go", "hint 3", "move d6", "move c3",
             "move d3", "learn", "go", "quit"]
    out, err = io.StringIO(), io.StringIO()
    NBoardSession(engine, out, err, book=book, book_path=str(path)).run(lines)
    got = out.getvalue().splitlines()
    replies = [x for x in got if x.startswith("=== ")]
    assert replies[0] == f"=== {expected[0].upper()}/{expected[1] / 100:.2f}/0.00"
    hints = [x.split() for x in got if x.startswith("book ")]
    assert [h[1].lower() for h in hints] == expected_hints
    assert all(h[4].isdigit() for h in hints)  # NBoard: the depth starts with an integer
    assert "learned" in got
    assert Board.from_transcript("f5d6c3d3") in Book.load(path)
    # after learning, the position after d3 is in the book: `go` answers from it at once
    assert len(replies) == 2 and replies[1].endswith("/0.00")
    assert not any(x.startswith("nodestats") for x in got)  # no search was needed


def test_cli_build_show_learn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bitgames.cli import main

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(["othello", "book", *argv])
        got = capsys.readouterr()
        return code, got.out, got.err

    path = tmp_path / "cli.npz"
    code, out, _ = run("build", str(path), "--plies", "2", "--depth", "2", "--json")
    records = [json.loads(line) for line in out.splitlines()]
    last = records[-1]
    assert code == 0 and last["positions"] == last["added"] > 0 and path.exists()
    assert sorted({r["ply"] for r in records[:-1]}) == [0, 1, 2]
    code, out, _ = run("show", "--book", str(path), "--moves", "f5", "--json")
    record = json.loads(out)
    assert code == 0 and record["in_book"] and record["moves"]
    assert {m["move"] for m in record["moves"]} <= {"d6", "f6", "f4"}
    code, out, _ = run("learn", "f5d6c3d3c4f4", "--book", str(path), "--depth", "1", "--json")
    assert code == 0 and json.loads(out)["added"] > 0
    code, _, err = run("show", "--book", str(tmp_path / "x.npz"))
    assert code == 2 and "no opening book at" in err
    (tmp_path / "junk.npz").write_text("not a book")
    code, _, err = run("show", "--book", str(tmp_path / "junk.npz"))
    assert code == 2 and ": Othello opening book: " in err
    code, _, err = run("build", str(path), "--depth", "0")
    assert code == 2 and "argument --depth: must be 1..60, got 0" in err


def test_shipped_book_is_consistent() -> None:
    from bitgames.othello.book import shipped_book_path

    book = Book.load(shipped_book_path())
    assert len(book) > 1000
    values = {key: row[0] for key, row in book.table.items()}
    book.negamax()
    assert {key: row[0] for key, row in book.table.items()} == values  # already negamaxed
    start = book.moves(Board())
    assert [m for m, _ in start] == ["c4", "d3", "e6", "f5"]  # symmetric: one value
    assert len({v for _, v in start}) == 1
    after = Board.from_transcript("f5")
    assert {m for m, _ in book.moves(after)} <= {str(m) for m in after.legal_moves}


def _image(move: str, k: int) -> str:
    """Square ``move`` under symmetry ``k``, by the coordinates of
    :func:`~bitgames.othello.patterns._sym` (independent of the book's bitboard symmetries)."""
    return square_name(square_image(parse_square(move), k))


def test_book_from_wthor_games_counts_and_resumes(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``book wthor`` keeps the positions reached by at least --min-games games, each with
    its count of games, here checked against counts of the games' first moves up to
    symmetry (no transpositions in three plies); a second run searches nothing again."""
    from bitgames.cli import main
    from bitgames.othello.wthor import load_base

    sample = Path(__file__).parent / "wthor_2023_sample.wtb"
    games = [g.moves for g in load_base(sample).games]
    classes: dict[tuple[str, ...], int] = {}
    for moves in games:
        for n in range(4):
            key = min(tuple(_image(m, k) for m in moves[:n]) for k in range(8))
            classes[key] = classes.get(key, 0) + 1
    kept = {key: n for key, n in classes.items() if n >= 2}
    assert len(kept) == 5  # the start, f5 and f5d6 (6 games), f5d6c3 (4), f5d6c5 (2)
    out = tmp_path / "wthor.npz"
    argv = ["othello", "book", "wthor", str(out), "--wthor", str(sample), "--min-games", "2",
            "--plies", "3", "--depth", "2", "--scheduler", "serial", "--json", "--eval",
            "classic"]
    assert main(argv) == 0
    first = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    book = Book.load(out)
    assert first[0]["positions"] == len(kept)
    for key, n in kept.items():
        entry = book.entry(Board.from_transcript("".join(key)))
        assert entry is not None and entry.games == n, key
    assert len(book) == first[-1]["positions"] == len(kept)
    assert main(argv) == 0
    again = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert again[0]["to_search"] == 0 and again[-1]["added"] == 0
