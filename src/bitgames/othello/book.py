"""Opening book: positions (one entry per symmetry class) with negamax scores.

Each book position holds its **value** (centi-discs for the side to move), a **leaf** — the
best move that does not lead to another book position, with its score from a search at
the book depth — the search **depth**, and the number of **games** learned through it.
Moves that lead to book positions are not stored: they are found by looking up the
children, as Egaroucid's book does, so the book never holds a stale link. The value of a
position is the negamax of its leaf and its book children, kept up to date by
:meth:`Book.negamax` after every change.

Positions are stored under a canonical form: the least of the eight images of the board
under the symmetries of the square (mirrors and the diagonal flip), so the four opening
moves share one entry. A draw in the book (a child whose value is exactly 0) counts as
``contempt`` centi-discs for Black (NBoard's ``set contempt``), negated for White.

The book is built by search (:meth:`Book.build`: expand every move within ``width``
centi-discs of the best, down to ``plies``; resumable, it saves as it goes) and grows by
learning games (:meth:`Book.learn`, NBoard's ``learn``). Files are NumPy ``.npz`` archives;
they also hold the move scores of every position searched (:meth:`Book.searched`), so that
a resumed or extended build searches no position twice (files without them still load).

>>> from bitgames.othello.board import Board
>>> book = Book()
>>> book.insert(Board(), value=0, leaf="f5", leaf_value=0, depth=1)
>>> book.moves(Board())
[('f5', 0)]
>>> after = Board()
>>> after.push("d3")  # a symmetric image of f5 ...
>>> book.insert(after, value=-20, leaf="c3", leaf_value=-20, depth=1)
>>> book.moves(Board())  # ... so all four opening moves now lead into the book
[('c4', 20), ('d3', 20), ('e6', 20), ('f5', 20)]
>>> len(book)
2
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bitgames.core.files import FileError, atomic_write, file_lock, load_npz
from bitgames.othello.board import BLACK, Board, parse_square, square_name

MASK = (1 << 64) - 1
NO_LEAF = -(10**6)  #: leaf value of a position whose every move leads into the book
FORMAT = 1  #: version number written into book files


def mirror_files(x: int) -> int:
    """Swap files a..h <-> h..a (reverse the bits of every rank byte)."""
    k1, k2, k4 = 0x5555_5555_5555_5555, 0x3333_3333_3333_3333, 0x0F0F_0F0F_0F0F_0F0F
    x = ((x >> 1) & k1) | ((x & k1) << 1)
    x = ((x >> 2) & k2) | ((x & k2) << 2)
    return ((x >> 4) & k4) | ((x & k4) << 4)


def mirror_ranks(x: int) -> int:
    """Swap ranks 1..8 <-> 8..1 (reverse the byte order)."""
    return int.from_bytes(x.to_bytes(8, "little"), "big")


def transpose(x: int) -> int:
    """Flip about the a1-h8 diagonal: square (file f, rank r) goes to (file r, rank f)."""
    t = 0x0F0F_0F0F_0000_0000 & (x ^ (x << 28))
    x ^= t ^ (t >> 28)
    t = 0x3333_0000_3333_0000 & (x ^ (x << 14))
    x ^= t ^ (t >> 14)
    t = 0x5500_5500_5500_5500 & (x ^ (x << 7))
    x ^= t ^ (t >> 7)
    return x & MASK


def symmetry(x: int, k: int) -> int:
    """Image of bitboard ``x`` under symmetry ``k`` (0-7).

    Bit 0 of ``k`` mirrors the files, bit 1 the ranks, bit 2 then flips the diagonal.

    >>> square_name(symmetry(1 << parse_square("f5"), 7).bit_length() - 1)
    'd3'
    """
    if k & 1:
        x = mirror_files(x)
    if k & 2:
        x = mirror_ranks(x)
    if k & 4:
        x = transpose(x)
    return x


#: SQUARE_MAP[k][s]: image of square s under symmetry k; INVERSE[k] undoes it.
SQUARE_MAP = [[symmetry(1 << s, k).bit_length() - 1 for s in range(64)] for k in range(8)]
INVERSE = [[SQUARE_MAP[k].index(s) for s in range(64)] for k in range(8)]


def canonical(p: int, o: int) -> tuple[tuple[int, int], int]:
    """The canonical key of position ``(p, o)`` and the symmetry that produces it."""
    best = (p, o)
    best_k = 0
    for k in range(1, 8):
        img = (symmetry(p, k), symmetry(o, k))
        if img < best:
            best, best_k = img, k
    return best, best_k


@dataclass
class BookEntry:
    """One book position, in the frame of the board it was looked up from."""

    value: int
    leaf_move: str | None
    leaf_value: int
    depth: int
    games: int


@dataclass
class BookMove:
    """A book move: its score (centi-discs, side to move), games through it, search depth."""

    move: str
    score: int
    games: int
    depth: int


def _child(board: Board, move: str) -> Board:
    b = board.copy(stack=False)
    b.push(move)
    if b.must_pass() and not b.is_game_over():
        b.push("pass")  # book positions always have a move to play
    return b


def _sign(board: Board, child: Board) -> int:
    """+1 when ``child`` has the same side to move as ``board`` (a pass followed), else -1."""
    return 1 if child.turn == board.turn else -1


class Book:
    """An opening book. See the module documentation.

    >>> book = Book()
    >>> len(book), book.entry(Board()) is None
    (0, True)
    """

    def __init__(self) -> None:
        # key -> [value, leaf square (canonical frame) or -1, leaf value, depth, games]
        self.table: dict[tuple[int, int], list[int]] = {}
        # key -> (depth, [(square in the canonical frame, score), ...] best first)
        self.scores: dict[tuple[int, int], tuple[int, list[tuple[int, int]]]] = {}

    def __len__(self) -> int:
        return len(self.table)

    # -- lookups ----------------------------------------------------------------------------

    def _row(self, board: Board) -> tuple[list[int] | None, int]:
        p, o = board.bitboards()
        key, k = canonical(p, o)
        return self.table.get(key), k

    def entry(self, board: Board) -> BookEntry | None:
        """The book entry of ``board``, or None."""
        row, k = self._row(board)
        if row is None:
            return None
        leaf = square_name(INVERSE[k][row[1]]) if row[1] >= 0 else None
        return BookEntry(row[0], leaf, row[2], row[3], row[4])

    def __contains__(self, board: object) -> bool:
        return isinstance(board, Board) and self._row(board)[0] is not None

    def lines(self, board: Board, contempt: int = 0) -> list[BookMove]:
        """Book moves of ``board``, best first (see :meth:`moves`), with games and depth."""
        if board.is_game_over() or board.must_pass():
            return []
        row, k = self._row(board)
        out: dict[str, BookMove] = {}
        for mv in board.legal_moves:
            child = _child(board, str(mv))
            crow, _ = self._row(child)
            if crow is None:
                continue
            score = _sign(board, child) * crow[0]
            if score == 0:
                score = contempt if board.turn == BLACK else -contempt
            out[str(mv)] = BookMove(str(mv), score, crow[4], crow[3])
        if row is not None and row[1] >= 0:
            leaf = square_name(INVERSE[k][row[1]])
            out.setdefault(leaf, BookMove(leaf, row[2], 0, row[3]))
        return sorted(out.values(), key=lambda m: (-m.score, m.move))

    def moves(self, board: Board, contempt: int = 0) -> list[tuple[str, int]]:
        """Book moves of ``board`` with their scores (centi-discs, side to move), best first.

        A move is a book move when it leads to a book position, or when it is the
        position's leaf. Book draws count ``contempt`` for Black.
        """
        return [(m.move, m.score) for m in self.lines(board, contempt)]

    def choose(self, board: Board, randomness: int = 0, contempt: int = 0,
               rng: random.Random | None = None) -> tuple[str, int] | None:
        """A book move and its score, or None when ``board`` is out of the book.

        With ``randomness`` > 0 the move is drawn among those within that many
        centi-discs of the best (for variety in matches).
        """
        moves = self.moves(board, contempt)
        if not moves:
            return None
        best = moves[0][1]
        near = [m for m in moves if m[1] >= best - randomness]
        return (rng or random).choice(near) if randomness > 0 else moves[0]

    # -- changes ----------------------------------------------------------------------------

    def insert(self, board: Board, value: int, leaf: str | None, leaf_value: int, depth: int,
               games: int = 0) -> None:
        """Store ``board`` (any frame) with its value and leaf."""
        p, o = board.bitboards()
        key, k = canonical(p, o)
        leaf_sq = SQUARE_MAP[k][parse_square(leaf)] if leaf is not None else -1
        self.table[key] = [int(value), leaf_sq, int(leaf_value), int(depth), int(games)]

    def evaluate(self, board: Board, search: Callable[[Board], list[tuple[str, int]]],
                 depth: int) -> list[tuple[str, int]]:
        """(Re)compute the leaf of ``board``: the best move not leading into the book.

        ``search(board)`` returns every legal move with its score, best first (for
        example an engine's multi-move search at the book depth); those scores are returned.
        """
        old = self._row(board)[0]
        games = old[4] if old is not None else 0
        scores = self.searched(board, search, depth)
        leaf: tuple[str, int] | None = None
        for mv, score in scores:
            if _child(board, mv) not in self:
                leaf = (mv, score)
                break
        if leaf is None:
            self.insert(board, scores[0][1] if scores else 0, None, NO_LEAF, depth, games)
        else:
            self.insert(board, leaf[1], leaf[0], leaf[1], depth, games)
        return scores

    def searched(self, board: Board, search: Callable[[Board], list[tuple[str, int]]],
                 depth: int) -> list[tuple[str, int]]:
        """``search(board)``, done once per position and depth: the move scores are kept
        with the book (and in its file), so a resumed or extended :meth:`build` and a
        leaf that :meth:`learn` must choose again do not search the position again.

        >>> calls = []
        >>> def search(b):
        ...     calls.append(b)
        ...     return [("f6", 30), ("f4", 20), ("d6", 10)]
        >>> book = Book()
        >>> book.searched(Board.from_transcript("f5"), search, 4)
        [('f6', 30), ('f4', 20), ('d6', 10)]
        >>> book.searched(Board.from_transcript("d3"), search, 4)  # an image of f5
        [('c3', 30), ('e3', 20), ('c5', 10)]
        >>> len(calls)
        1
        """
        key, k = canonical(*board.bitboards())
        known = self.scores.get(key)
        if known is not None and known[0] == depth:
            back = INVERSE[k]
            return [(square_name(back[sq]), score) for sq, score in known[1]]
        scores = search(board)
        self.keep_scores(board, depth, scores)
        return scores

    def has_scores(self, board: Board, depth: int) -> bool:
        """Whether the move scores of ``board`` at ``depth`` are kept (see :meth:`searched`)."""
        known = self.scores.get(canonical(*board.bitboards())[0])
        return known is not None and known[0] == depth

    def keep_scores(self, board: Board, depth: int, scores: list[tuple[str, int]]) -> None:
        """Keep the move scores of a search of ``board`` at ``depth`` (done elsewhere, e.g.
        in parallel: :func:`search_boards`) for :meth:`searched`; a pass is not kept."""
        key, k = canonical(*board.bitboards())
        if all(mv != "pass" for mv, _ in scores):
            self.scores[key] = (depth, [(SQUARE_MAP[k][parse_square(mv)], int(score))
                                        for mv, score in scores])

    def negamax(self, board: Board | None = None) -> int:
        """Recompute the values below ``board`` (default: the start position); return its value."""
        memo: dict[tuple[int, int], int] = {}

        def visit(b: Board) -> int:
            p, o = b.bitboards()
            key, k = canonical(p, o)
            if key in memo:
                return memo[key]
            row = self.table[key]
            leaf = square_name(INVERSE[k][row[1]]) if row[1] >= 0 else None
            best = NO_LEAF
            for mv in b.legal_moves:
                child = _child(b, str(mv))
                if child in self:  # never a finished game: those are not stored
                    best = max(best, _sign(b, child) * visit(child))
                elif str(mv) == leaf:  # a leaf counts only while it leads out of the book
                    best = max(best, row[2])
            if best > NO_LEAF:
                row[0] = best
            memo[key] = row[0]
            return row[0]

        start = board if board is not None else Board()
        return visit(start) if start in self else 0

    def learn(self, moves: Iterable[str], search: Callable[[Board], list[tuple[str, int]]],
              depth: int, max_plies: int = 30, start: Board | None = None) -> int:
        """Add the positions of a game (its first ``max_plies`` plies); return how many are new.

        Every position along the game enters the book (leaves searched with ``search``);
        a parent whose leaf move now leads into the book gets a new leaf; then values are
        propagated back to the start.
        """
        board = (start or Board()).copy(stack=False)
        path = [board]
        for mv in moves:
            if len(path) > max_plies or board.is_game_over():
                break
            if mv == "pass":  # forced passes are played by _child, as soon as they arise
                continue
            board = _child(board, mv)
            path.append(board)
        added = 0
        for b in path:
            if b.is_game_over():
                continue
            if b not in self:
                self.evaluate(b, search, depth)
                added += 1
            row = self._row(b)[0]
            assert row is not None
            row[4] += 1
        for b in path[:-1]:  # leaves that now lead into the book must be chosen again
            e = self.entry(b)
            if e is not None and e.leaf_move is not None and _child(b, e.leaf_move) in self:
                self.evaluate(b, search, depth)
        if path[0] in self:  # every later position of the game lies below the first
            self.negamax(path[0])
        return added

    def build(self, search: Callable[[Board], list[tuple[str, int]]], depth: int, plies: int,
              width: int, max_positions: int | None = None,
              on_position: Callable[[int, int], None] | None = None,
              save_to: str | Path | None = None, save_every: int = 100,
              stop: Callable[[], bool] | None = None, save_seconds: float = 10.0,
              on_frontier: Callable[[int, int, int], None] | None = None) -> int:
        """Expand the book from the start position; return the number of positions added.

        Breadth first, every move within ``width`` centi-discs of a position's best move
        is followed, down to ``plies`` plies. A position searched before at ``depth``
        (its scores are kept, see :meth:`searched`) is not searched again, so an
        interrupted build resumes where it stopped; with ``save_to`` the book is saved
        every ``save_every`` new positions or ``save_seconds`` seconds, whichever comes
        first, and at the end, so a ``kill -9`` loses at most that much work (the save is
        atomic: the file is always a whole book). ``stop()`` is asked before each
        new position: once it is true the build ends there (Ctrl-C), saving every
        position finished so far. ``on_frontier(ply, done, of)`` follows the work: it is
        called before each of the ``of`` positions of a ply, ``done`` of them finished.
        """
        added = 0
        saved_at = time.monotonic()
        frontier = [Board()]
        seen: set[tuple[int, int]] = set()
        stopped = False
        for ply in range(plies + 1):
            nxt: list[Board] = []
            for done, b in enumerate(frontier):
                if on_frontier is not None:
                    on_frontier(ply, done, len(frontier))
                key = canonical(*b.bitboards())[0]
                if key in seen or b.is_game_over():
                    continue
                seen.add(key)
                if b not in self:
                    if max_positions is not None and added >= max_positions:
                        continue
                    if stop is not None and stop():
                        stopped = True
                        break
                    self.evaluate(b, search, depth)
                    added += 1
                    if on_position is not None:
                        on_position(added, ply)
                    if save_to is not None and (added % save_every == 0 or
                                                time.monotonic() - saved_at >= save_seconds):
                        self.negamax()  # a checkpoint is a consistent book
                        self.save(save_to)
                        saved_at = time.monotonic()
                if ply == plies:
                    continue
                scores = self.searched(b, search, depth)  # kept by evaluate: no new search
                best = scores[0][1]
                nxt.extend(_child(b, mv) for mv, s in scores if s >= best - width)
            if stopped:
                break
            frontier = nxt
        self.negamax()
        if save_to is not None:
            self.save(save_to)
        return added

    def add_positions(self, positions: Iterable[tuple[Board, int]],
                      search: Callable[[Board], list[tuple[str, int]]], depth: int) -> int:
        """Add positions played in real games, each with the number of games through it
        (:func:`common_positions`); return how many were new.

        Each new position is evaluated as in :meth:`build` (searched at ``depth``, unless
        its scores are kept: search them beforehand, in parallel, and :meth:`keep_scores`),
        every given position gets its count of games, the given positions whose leaf now
        leads into the book choose it again, and the values are propagated back to the
        start.

        >>> book = Book()
        >>> def search(b):
        ...     return [(str(m), 0) for m in b.legal_moves]
        >>> book.add_positions([(Board(), 9), (Board.from_transcript("f5"), 9)], search, 2)
        2
        >>> book.entry(Board()).games, book.entry(Board()).leaf_move is None
        (9, True)
        """
        positions = list(positions)
        added = 0
        for board, games in positions:
            if board.is_game_over():
                continue
            if board not in self:
                self.evaluate(board, search, depth)
                added += 1
            row = self._row(board)[0]
            assert row is not None
            row[4] = max(row[4], int(games))
        for board, _ in positions:
            e = self.entry(board)
            if e is not None and e.leaf_move is not None and _child(board, e.leaf_move) in self:
                self.evaluate(board, search, depth)
        self.negamax()
        return added

    # -- files ------------------------------------------------------------------------------

    def save(self, path: str | Path) -> None:
        """Write the book to ``path`` (``.npz``) atomically and under the file's lock: a
        crash, ``kill -9`` or a full disk leaves the old book whole, and two processes
        never write it at once (:mod:`bitgames.core.files`)."""
        keys = list(self.table)
        rows = np.array([self.table[k] for k in keys], dtype=np.int64).reshape(-1, 5)
        scored = list(self.scores)
        moves = [m for k in scored for m in self.scores[k][1]]
        arrays = {
            "format": np.array([FORMAT]),
            "p": np.array([k[0] for k in keys], dtype=np.uint64),
            "o": np.array([k[1] for k in keys], dtype=np.uint64),
            "value": rows[:, 0].astype(np.int32),
            "leaf": rows[:, 1].astype(np.int8),
            "leaf_value": rows[:, 2].astype(np.int32),
            "depth": rows[:, 3].astype(np.int8),
            "games": rows[:, 4].astype(np.int32),
            "scored_p": np.array([k[0] for k in scored], dtype=np.uint64),
            "scored_o": np.array([k[1] for k in scored], dtype=np.uint64),
            "scored_depth": np.array([self.scores[k][0] for k in scored], dtype=np.int8),
            "scored_count": np.array([len(self.scores[k][1]) for k in scored], dtype=np.int8),
            "scored_square": np.array([m[0] for m in moves], dtype=np.int8),
            "scored_value": np.array([m[1] for m in moves], dtype=np.int32),
        }
        with file_lock(path, what=_WHAT), atomic_write(path, _WHAT) as f:
            np.savez_compressed(f, **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: str | Path) -> Book:
        """Read a book written by :meth:`save`; a :class:`~bitgames.core.files.FileError`
        naming the file and what is wrong when it is no such book (empty, truncated,
        another kind of file, pickled data, arrays missing or of the wrong kind or
        length)."""
        data = load_npz(path, _WHAT, {n: (kind, 1) for n, kind in _COLUMNS.items()},
                        optional={n: (kind, 1) for n, kind in _SCORED.items()})
        if data["format"].tolist() != [FORMAT]:
            raise FileError(f"{path}: {_WHAT}: format {data['format'].tolist()}, "
                            f"expected [{FORMAT}]")
        cols = [data[n] for n in _COLUMNS if n != "format"]
        scored = [data[n].tolist() if n in data else [] for n in _SCORED]
        lengths = {len(c) for c in cols}
        if len(lengths) > 1 or len({len(c) for c in scored[:4]}) > 1 or (
                sum(scored[3]) != len(scored[4]) or len(scored[4]) != len(scored[5])):
            raise FileError(f"{path}: {_WHAT}: its arrays disagree in length (a damaged "
                            "file)")
        book = cls()
        for p, o, v, leaf, lv, d, g in zip(*(c.tolist() for c in cols), strict=True):
            book.table[(p, o)] = [v, leaf, lv, d, g]
        squares, values = scored[4], scored[5]
        at = 0
        for p, o, d, n in zip(*scored[:4], strict=True):
            book.scores[(p, o)] = (d, list(zip(squares[at:at + n], values[at:at + n],
                                               strict=True)))
            at += n
        return book


_WHAT = "Othello opening book"
#: the arrays of a book file and their dtype kinds
_COLUMNS = {"format": "iu", "p": "u", "o": "u", "value": "i", "leaf": "i",
            "leaf_value": "i", "depth": "i", "games": "i"}
#: the searched scores (optional: older books have none)
_SCORED = {"scored_p": "u", "scored_o": "u", "scored_depth": "i", "scored_count": "i",
           "scored_square": "i", "scored_value": "i"}


def shipped_book_path() -> Path:
    """The book shipped with the package."""
    return Path(__file__).parent / "data" / "book.npz"


def user_book_path() -> Path:
    """Where learned games are kept: in :func:`bitgames.core.jit.data_root`
    (``$BITGAMES_DATA_DIR`` or ``~/.local/share/bitgames``)."""
    from bitgames.core.jit import data_root

    return data_root() / "othello-book.npz"


def open_book(path: str | Path | None = None) -> tuple[Book, Path]:
    """The book to play from and the file that learning writes to.

    With ``path``: that file (an empty book if it does not exist yet). Without: the
    user's book if there is one, else the shipped book; learning then writes the user's
    book (the package's own file is never written).
    """
    if path is not None:
        path = Path(path)
        return (Book.load(path) if path.exists() else Book()), path
    user = user_book_path()
    for candidate in (user, shipped_book_path()):
        if candidate.exists():
            return Book.load(candidate), user
    return Book(), user


def common_positions(games: Iterable[Iterable[Board]], plies: int, min_games: int
                     ) -> list[tuple[Board, int]]:
    """The positions of the first ``plies`` plies of ``games`` (each the positions of one
    game, in order: :meth:`~bitgames.othello.wthor.WthorGame.positions`) that at least
    ``min_games`` games reached, up to symmetry, with how many did; in the order of the
    ply where each was first seen, so parents come before their children.

    >>> games = [[Board(), Board.from_transcript(t)] for t in ("f5", "d3", "f5")]
    >>> games.append([Board()])
    >>> [(b.transcript(), n) for b, n in common_positions(games, 1, 2)]
    [('', 4), ('f5', 3)]
    """
    counts: dict[tuple[int, int], int] = {}
    first: dict[tuple[int, int], tuple[int, Board]] = {}
    for positions in games:
        seen: set[tuple[int, int]] = set()
        for ply, board in enumerate(positions):
            if ply > plies:
                break
            key = canonical(*board.bitboards())[0]
            if key in seen:
                continue
            seen.add(key)
            counts[key] = counts.get(key, 0) + 1
            first.setdefault(key, (ply, board))
    kept = sorted((key for key, n in counts.items() if n >= min_games),
                  key=lambda key: (first[key][0], -counts[key]))
    return [(first[key][1], counts[key]) for key in kept]


def search_boards(fens: list[str], depth: int, evaluation: str = "pattern",
                  weights: str | None = None) -> list[list[tuple[str, int]]]:
    """The move scores (best first) of each position (given by FEN) at ``depth``, by a new
    engine: a task for the task runner (:mod:`bitgames.core.parallel`), so the searches of
    a book build run on many processes or machines."""
    from bitgames.othello.search import Engine

    engine = Engine(level=max(1, min(depth, 20)), evaluation=evaluation, weights=weights,
                    table_bits=20)
    search = engine_search(engine, depth)
    return [search(Board(fen)) for fen in fens]


def engine_search(engine: Any, depth: int) -> Callable[[Board], list[tuple[str, int]]]:
    """Adapt an :class:`~bitgames.othello.search.Engine` to the book's ``search`` callable."""

    from bitgames.core.engine import Limit
    from bitgames.othello.search import centi_discs

    def search(board: Board) -> list[tuple[str, int]]:
        moves = list(board.legal_moves)
        if len(moves) == 1:
            r = engine.search(board, Limit(depth=depth))
            return [(str(r.move), 0 if r.score is None else centi_discs(r.score))]
        r = engine.search(board, Limit(depth=depth), multi=len(moves))
        return [(str(m), centi_discs(s)) for m, s in r.multipv]

    return search
