"""Training the pattern evaluation from self-play (``bitgames othello train``).

The recipe of seed 002 (§7.2), with pattern features:

1. **Games** (parallel, resumable): each game starts with a random number of random moves
   (variety), then both sides search ``play_depth`` plies with the classic evaluation, or
   with the pattern weights in the file ``play_weights`` if one is given, until
   ``solve_empties`` remain; that position is solved exactly and the game follows the
   solver's principal variation to the end. Every position is recorded; those on the
   solved line get their exact score (100 x disc difference, side to move). Games are
   generated in chunks, one file per chunk in ``OUT/games``; a restarted run skips the
   chunks already on disk.
2. **Exact labels further from the end** (parallel, resumable): every other recorded
   position with at most ``exact_empties`` empties is solved exactly too (one file per
   chunk in ``OUT/exact``), so the stages up to ``exact_empties`` are fitted on true scores
   rather than on searches of a partly fitted evaluation.
3. **Stages, from the end towards the opening**: the weights of a stage (4 empties) are
   fitted by ridge least squares (``scipy.sparse.linalg.lsqr`` with damping ``damp``) on
   the labelled positions of its own empties and of ``window`` empties either side (a
   stage has ~175,000 weights for ~40,000 positions: neighbouring positions share the
   data, as Logistello's and Edax's trainers do). Only positions labelled by then take
   part: the earlier stages', and exactly solved ones. Given several dampings, each stage
   takes the one that errs least on the validation games (id % 10 == :data:`VALIDATION`)
   when fitted without them. Positions beyond the exact labels are first labelled by a
   search of ``label_depth`` plies whose leaves fall in the stages already fitted ("backed
   up"), stage by stage.
4. **Tournament games** (``wthor``: WTHOR files, optional) join the self-play games, one
   chunk per file (``OUT/games/wthor*.npz``, game ids after the self-play ones). The
   position at the file's theoretical depth (24 empties in every published file) is
   labelled by the game's theoretical score, the result of perfect play from there; with
   ``wthor_labels="theory"`` (chosen when fitting) so is every earlier position of the game
   (its ``outcome``: the result of the game had it been played perfectly from that depth
   on; noisy, but centred on real play, as Logistello's labels were), otherwise they are
   labelled by backed-up searches. Later positions get exact and backed-up labels as above;
   the held-out error "vs exact" counts exact labels only; ``outcome_below`` keeps the
   outcomes to positions with fewer empties (the others are searched). **Logistello's games**
   (``logbook``: its ``logbook.gam``, :mod:`bitgames.othello.logbook`) join the same way,
   :data:`LOGBOOK_CHUNK` games a chunk: their positions with at most 18 empties are labelled
   by the game's result (exact there), the earlier ones carry it as their ``outcome``.
5. A tenth of the games (game id % 10 == 0) is held out; the mean absolute error in discs
   on them is reported per stage (against the label, and against exact scores where
   known), and written with the weights (``OUT/weights.npz``, ``OUT/report.json``; the
   labels of every position, in :meth:`Trainer.load` order, in ``OUT/labels.npz``).

scipy is needed only here (``pip install bitgames[train]``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from bitgames.core import smp
from bitgames.core.errors import BitgamesError
from bitgames.core.files import atomic_write, load_npz
from bitgames.core.progress import bar, note

if TYPE_CHECKING:
    from bitgames.othello.board import Board
    from bitgames.othello.wthor import WthorBase

NO_LABEL = -32768
#: Games with id % 10 == 0 are held out (never fitted); those with id % 10 == VALIDATION
#: choose the damping of each stage (then they are fitted like the others).
VALIDATION = 5
#: the id of the first tournament game (:meth:`Trainer.import_wthor`), after any self-play
WTHOR_IDS = 100_000_000
#: the id of the first of Logistello's games (:meth:`Trainer.import_logbook`)
LOGBOOK_IDS = 200_000_000
#: Logistello's games per game chunk
LOGBOOK_CHUNK = 5000

#: the arrays of a game chunk and of its exact labels (checked when read back: a chunk
#: damaged by a kill or a full disk is named, not loaded)
_CHUNK = {"p": ("u", 1), "o": ("u", 1), "label": ("i", 1), "game": ("iu", 1)}
_EXACT = {"label": ("i", 1), "max_empties": ("iu", 0)}


@dataclass
class TrainConfig:
    """Every parameter of a training run (written to the weights' metadata)."""

    games: int = 2000
    seed: int = 1
    chunk: int = 25
    random_min: int = 6
    random_max: int = 36
    play_depth: int = 2
    play_weights: str = ""
    solve_empties: int = 16
    exact_empties: int = 17
    label_depth: int = 4
    window: int = 2
    damp: tuple[float, ...] = (3.0,)
    workers: int = 0
    scheduler: str = "processes"
    wthor: tuple[str, ...] = ()
    wthor_labels: str = "theory"
    logbook: tuple[str, ...] = ()
    outcome_below: int = 64
    consistency: float = 0.0
    consistency_from: int = 0


def empties_of(ps: np.ndarray, os_: np.ndarray) -> np.ndarray:
    """Number of empty squares of each position (vectorised)."""
    bits = np.unpackbits((ps | os_).astype("<u8").view(np.uint8).reshape(-1, 8), axis=1)
    return 64 - bits.sum(axis=1).astype(np.int64)


def _random_move(rng: np.random.Generator, moves: int) -> int:
    squares = [s for s in range(64) if moves >> s & 1]
    return int(squares[int(rng.integers(len(squares)))])


def _record(ps: list[int], os_: list[int], labels: list[int], games: list[int], p: Any, o: Any,
            label: int, game: int) -> None:
    ps.append(int(p))
    os_.append(int(o))
    labels.append(int(label))
    games.append(game)


def play_games(first_id: int, count: int, seed: int, cfg: dict[str, Any]
               ) -> dict[str, np.ndarray]:
    """Generate ``count`` games (ids ``first_id``..); the positions and their labels."""
    from bitgames.othello import eval as ev
    from bitgames.othello.kernels import legal_moves, make_move, start_position
    from bitgames.othello.search import Engine, search_root
    from bitgames.othello.solver import Solver

    U = np.uint64
    rng = np.random.default_rng([seed, first_id])
    engine = Engine(level=cfg["play_depth"],
                    evaluation="pattern" if cfg["play_weights"] else "classic",
                    weights=cfg["play_weights"] or None, table_bits=16)
    solver = Solver(table_bits=20)
    ps: list[int] = []
    os_: list[int] = []
    labels: list[int] = []
    game_ids: list[int] = []
    pv = np.zeros(130, dtype=np.int64)
    spv = np.zeros(66, dtype=np.int64)
    for g in range(first_id, first_id + count):
        p, o = start_position()
        n_random = int(rng.integers(cfg["random_min"], cfg["random_max"] + 1))
        ply = 0
        while True:
            moves = int(legal_moves(p, o))
            empties = 64 - bin(int(p) | int(o)).count("1")
            if moves == 0:
                if int(legal_moves(o, p)) == 0:
                    break
                p, o = o, p
                continue
            if empties <= cfg["solve_empties"] and ply >= n_random:
                stats = np.zeros(4, dtype=np.int64)
                score, length = solver.run(p, o, -127, 127, pv, stats)
                sign = 1
                q, r = p, o
                _record(ps, os_, labels, game_ids, q, r, 100 * score, g)
                for k in range(length):
                    q, r = make_move(U(q), U(r), int(pv[k]))
                    sign = -sign
                    _record(ps, os_, labels, game_ids, q, r, sign * 100 * score, g)
                break
            _record(ps, os_, labels, game_ids, p, o, NO_LABEL, g)
            if ply < n_random:
                sq = _random_move(rng, moves)
            else:
                engine._prepare(None)  # a fresh generation and control slots
                _, length = search_root(p, o, np.int64(-30000), np.int64(30000),
                                        np.int64(cfg["play_depth"]), engine.table,
                                        engine.killers, engine.hist, engine.ctl, engine.weights,
                                        ev.GATHER, ev.B3, engine.classic, spv,
                                        smp.busy_table(1))
                sq = int(spv[0])
            p, o = make_move(U(p), U(o), sq)
            p, o = U(p), U(o)
            ply += 1
    return {"p": np.array(ps, dtype=np.uint64), "o": np.array(os_, dtype=np.uint64),
            "label": np.array(labels, dtype=np.int32), "game": np.array(game_ids, dtype=np.int32)}


def scored_chunk(games: Iterable[tuple[int, Iterable[Board]]], first_id: int, depth: int,
                 exact: bool) -> dict[str, np.ndarray]:
    """The positions of played games with a known result as a game chunk (ids from
    ``first_id``). ``games`` gives each game's result (Black's disc difference) and its
    positions (:class:`~bitgames.othello.board.Board`). Positions with ``depth`` empties (with
    at most ``depth`` if ``exact``) are labelled by the result for their side to move; the
    earlier ones carry it as their ``outcome``
    (:class:`~bitgames.core.errors.IllegalMoveError` naming the game, from 1, for a move that
    is not legal)."""
    from bitgames.core.board import BLACK
    from bitgames.core.errors import IllegalMoveError

    ps: list[int] = []
    os_: list[int] = []
    labels: list[int] = []
    game_ids: list[int] = []
    outcomes: list[int] = []
    for number, (black, positions) in enumerate(games):
        try:
            for board in positions:
                score = 100 * (black if board.turn == BLACK else -black)
                empties = board.empties()
                labelled = empties <= depth if exact else empties == depth
                p, o = board.bitboards()
                _record(ps, os_, labels, game_ids, p, o, score if labelled else NO_LABEL,
                        first_id + number)
                outcomes.append(score if empties > depth else NO_LABEL)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"game {number + 1}: {exc}") from None
    return {"p": np.array(ps, dtype=np.uint64), "o": np.array(os_, dtype=np.uint64),
            "label": np.array(labels, dtype=np.int32), "game": np.array(game_ids, dtype=np.int32),
            "outcome": np.array(outcomes, dtype=np.int32)}


def wthor_chunk(base: WthorBase, first_id: int, name: str) -> dict[str, np.ndarray]:
    """The positions of the games of a WTHOR file (``base``, read from ``name``) as a game
    chunk (:func:`scored_chunk`): the position at the file's theoretical depth labelled by
    the game's theoretical score, the earlier ones carrying it as their ``outcome``
    (:class:`~bitgames.othello.wthor.WthorError` naming the game for a move that is not
    legal)."""
    from bitgames.core.errors import IllegalMoveError
    from bitgames.othello.wthor import WthorError

    games = [(2 * game.theoretical - 64, game.positions()) for game in base.games]
    try:
        return scored_chunk(games, first_id, base.depth, exact=False)
    except IllegalMoveError as exc:
        raise WthorError(f"{name}: {exc}") from None


def logbook_chunk(moves: list[list[str]], scores: list[int], first_id: int
                  ) -> dict[str, np.ndarray]:
    """Logistello's games (their moves and Black's final scores) as a game chunk
    (:func:`scored_chunk`): positions with at most
    :data:`~bitgames.othello.logbook.EXACT_EMPTIES` empties labelled by the game's result,
    the earlier ones carrying it as their ``outcome``."""
    from bitgames.othello.board import positions_of
    from bitgames.othello.logbook import EXACT_EMPTIES

    games = [(score, positions_of(game)) for game, score in zip(moves, scores, strict=True)]
    return scored_chunk(games, first_id, EXACT_EMPTIES, exact=True)


def solve_positions(ps: np.ndarray, os_: np.ndarray, table_bits: int = 20) -> np.ndarray:
    """Exact scores (centi-discs, side to move) of positions, by the endgame solver."""
    from bitgames.othello.solver import Solver

    solver = Solver(table_bits=table_bits)
    pv = np.zeros(130, dtype=np.int64)
    stats = np.zeros(4, dtype=np.int64)
    out = np.zeros(len(ps), dtype=np.int32)
    for i in range(len(ps)):
        score, _ = solver.run(int(ps[i]), int(os_[i]), -127, 127, pv, stats)
        out[i] = 100 * score
    return out


def solve_chunk(path: str, exact_path: str, max_empties: int) -> np.ndarray:
    """Labels of a game chunk, with every unlabelled position of at most ``max_empties``
    empties solved exactly (the others keep their label or :data:`NO_LABEL`). Labels
    already solved in ``exact_path`` (if it exists) are kept."""
    d = load_npz(path, "game chunk", _CHUNK)
    done = Path(exact_path)
    labels = (load_npz(done, "exact labels", _EXACT)["label"] if done.exists()
              else d["label"]).astype(np.int32)
    todo = np.flatnonzero((labels == NO_LABEL) & (empties_of(d["p"], d["o"]) <= max_empties))
    labels[todo] = solve_positions(d["p"][todo], d["o"][todo])
    return labels


def label_positions(ps: np.ndarray, os_: np.ndarray, weights: Any, depth: int
                    ) -> np.ndarray:
    """Backed-up labels: a ``depth``-ply search with ``weights``
    (:class:`~bitgames.othello.eval.Weights` or the path of a weights file)."""
    from bitgames.othello import eval as ev
    from bitgames.othello.search import Engine, search_root

    engine = Engine(level=1, evaluation="pattern", weights=weights, table_bits=18)
    pv = np.zeros(66, dtype=np.int64)
    out = np.zeros(len(ps), dtype=np.int32)
    for i in range(len(ps)):
        engine._prepare(None)
        s, _ = search_root(np.uint64(ps[i]), np.uint64(os_[i]), np.int64(-30000),
                           np.int64(30000), np.int64(depth), engine.table, engine.killers,
                           engine.hist, engine.ctl, engine.weights, ev.GATHER, ev.B3,
                           engine.classic, pv, smp.busy_table(1))
        out[i] = s
    return out


def successors(ps: np.ndarray, os_: np.ndarray, games: np.ndarray, empties: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
    """For each recorded position, whether the next record is its successor in the same
    game (one disc more) and the sign ``s`` with ``value(x) = s * value(next)``: -1 when
    the opponent is to move next, +1 when the opponent had to pass.

    The mover's discs survive the move: they are the next record's opponent discs, or
    its own after a pass.

    >>> from bitgames.othello.board import positions_of
    >>> boards = list(positions_of(["f5", "d6", "c3"]))
    >>> ps = np.array([b.bitboards()[0] for b in boards], dtype=np.uint64)
    >>> os_ = np.array([b.bitboards()[1] for b in boards], dtype=np.uint64)
    >>> ok, sign = successors(ps, os_, np.zeros(3, np.int32), empties_of(ps, os_))
    >>> ok.tolist(), sign[:2].tolist()
    ([True, True, False], [-1, -1])
    """
    ok = np.zeros(len(ps), dtype=bool)
    sign = np.zeros(len(ps), dtype=np.int8)
    mover = ps[:-1]
    same = (games[1:] == games[:-1]) & (empties[1:] == empties[:-1] - 1)
    opponent_next = (os_[1:] & mover) == mover
    passed = (ps[1:] & mover) == mover
    ok[:-1] = same & (opponent_next | passed)
    sign[:-1] = np.where(opponent_next, -1, 1)
    return ok, sign


def fit_stage(feats: np.ndarray, y: np.ndarray, damp: float,
              pairs: tuple[np.ndarray, np.ndarray, np.ndarray, float] | None = None
              ) -> np.ndarray:
    """Regularised least squares: canonical weight (discs) per canonical column used.

    Minimises ``|A x - y|^2 + damp^2 |x|^2`` (``A``: one row of ones per position, one
    column per pattern configuration). The columns are scaled to unit norm first (with the
    damping as extra rows ``damp * D``): Jacobi preconditioning, for configurations seen
    between once and a million times. The minimiser is the same; on 380,000 WTHOR
    positions ``lsqr`` took 365 iterations instead of 492.

    ``pairs`` = ``(fa, fb, sign, c)`` adds ``c^2 |A_a x - sign A_b x|^2``: consistency
    between positions and their successors in play (``sign`` from :func:`successors`),
    so that a position's value agrees with the value one move later.
    """
    from scipy.sparse import csr_matrix

    from bitgames.othello import patterns as P

    pack = P.PACK.astype(np.int32)
    canon = pack[feats]  # tie self-symmetric configurations
    n, k = canon.shape
    index = canon.ravel()
    values = np.ones(n * k)
    indptr = np.arange(0, n * k + 1, k)
    if pairs is not None and len(pairs[0]):
        fa, fb, sign, c = pairs
        m = len(fa)
        index = np.concatenate([index, np.hstack([pack[fa], pack[fb]]).ravel()])
        signs = np.repeat(-c * sign[:, None], k, axis=1)
        values = np.concatenate([values, np.hstack([np.full(fa.shape, c), signs]).ravel()])
        indptr = np.concatenate([indptr, n * k + 2 * k * np.arange(1, m + 1)])
        y = np.concatenate([y, np.zeros(m)])
    used = np.zeros(P.N_WEIGHTS, dtype=bool)
    used[index] = True
    cols = np.flatnonzero(used)
    column = np.cumsum(used, dtype=np.int32) - 1  # a used configuration's column
    a = csr_matrix((values, column[index], indptr), shape=(len(indptr) - 1, len(cols)))
    full = np.zeros(P.N_WEIGHTS)
    full[cols] = ridge(a, y, damp)
    return full[P.PACK]  # expand to every (tied) index


def ridge(a: Any, y: np.ndarray, damp: float) -> np.ndarray:
    """The ``x`` minimising ``|a x - y|^2 + damp^2 |x|^2`` for a sparse ``a``, by ``lsqr``
    on columns scaled to unit norm (see :func:`fit_stage`)."""
    from scipy.sparse import diags, vstack
    from scipy.sparse.linalg import lsqr

    a.sum_duplicates()
    scale = 1.0 / np.sqrt(np.asarray(a.multiply(a).sum(axis=0)).ravel() + damp * damp)
    d = diags(scale)
    system = vstack([a @ d, damp * d]).tocsr()
    z = lsqr(system, np.concatenate([y, np.zeros(a.shape[1])]), atol=1e-6, btol=1e-6,
             iter_lim=2000)[0]
    return np.asarray(z * scale)


class Trainer:
    """One training run in a directory: games, labels, fitted stages, report."""

    def __init__(self, out: str | Path, cfg: TrainConfig,
                 log: Callable[[str], None] | None = None) -> None:
        self.out = Path(out)
        self.cfg = cfg
        self.log = log or note
        (self.out / "games").mkdir(parents=True, exist_ok=True)

    def generate(self) -> None:
        from bitgames.core.parallel import default_workers, run_tasks

        n_chunks = (self.cfg.games + self.cfg.chunk - 1) // self.cfg.chunk
        todo = []
        for c in range(n_chunks):
            if not (self.out / "games" / f"chunk{c:05d}.npz").exists():
                count = min(self.cfg.chunk, self.cfg.games - c * self.cfg.chunk)
                todo.append((c, count))
        done = n_chunks - len(todo)
        self.log(f"games: {done}/{n_chunks} chunks on disk, {len(todo)} to play")
        cfgd = asdict(self.cfg)
        tasks = [(c * self.cfg.chunk, count, self.cfg.seed, cfgd) for c, count in todo]
        start = time.perf_counter()
        workers = self.cfg.workers or default_workers()
        played = self.cfg.games - sum(count for _, count in todo)
        with bar(self.cfg.games, "self-play", "game", initial=played) as shown:
            for i, result in run_tasks(play_games, tasks, self.cfg.scheduler, workers):
                c = todo[i][0]
                with atomic_write(self.out / "games" / f"chunk{c:05d}.npz", "games") as f:
                    np.savez_compressed(f, **result)
                done += 1
                shown.update(todo[i][1])
                if shown.disable:  # no bar drawn: a line per chunk
                    rate = (done - (n_chunks - len(todo))) / (time.perf_counter() - start)
                    self.log(f"games: chunk {done}/{n_chunks} "
                             f"({rate * self.cfg.chunk:.1f} games/s)")

    def import_wthor(self) -> None:
        """One game chunk per WTHOR file of ``cfg.wthor`` (:func:`wthor_chunk`), game ids
        from :data:`WTHOR_IDS` on in the order of the files; files already imported are
        skipped."""
        from bitgames.othello.wthor import load_base

        first = WTHOR_IDS
        with bar(len(self.cfg.wthor), "WTHOR files", "file") as shown:
            for path in self.cfg.wthor:
                base = load_base(path)
                out = self.out / "games" / f"wthor-{Path(path).stem}.npz"
                if not out.exists():
                    chunk: dict[str, Any] = wthor_chunk(base, first, path)
                    with atomic_write(out, "games") as f:
                        np.savez_compressed(f, **chunk)
                first += len(base.games)
                shown.update(1)
        self.log(f"WTHOR: {first - WTHOR_IDS} games from {len(self.cfg.wthor)} files")

    def import_logbook(self) -> None:
        """Logistello's games of ``cfg.logbook`` (:func:`logbook_chunk`), :data:`LOGBOOK_CHUNK`
        games a chunk, game ids from :data:`LOGBOOK_IDS` on in the order of the files;
        chunks already on disk are skipped."""
        from bitgames.core.parallel import default_workers, run_tasks
        from bitgames.othello.logbook import load_logbook

        first = LOGBOOK_IDS
        tasks, names = [], []
        for path in self.cfg.logbook:
            games = load_logbook(path)
            stem = Path(path).name.split(".")[0]
            for k in range(0, len(games), LOGBOOK_CHUNK):
                out = self.out / "games" / f"logbook-{stem}-{k // LOGBOOK_CHUNK:03d}.npz"
                part = games[k: k + LOGBOOK_CHUNK]
                if not out.exists():
                    tasks.append(([g.moves for g in part], [g.black_score for g in part],
                                  first + k))
                    names.append(out)
            first += len(games)
        workers = self.cfg.workers or default_workers()
        with bar(len(tasks), "logbook chunks", "chunk") as shown:
            for i, chunk in run_tasks(logbook_chunk, tasks, self.cfg.scheduler, workers):
                with atomic_write(names[i], "games") as f:
                    np.savez_compressed(f, **chunk)
                shown.update(1)
        self.log(f"logbook: {first - LOGBOOK_IDS} games from {len(self.cfg.logbook)} files")

    def _chunks(self) -> list[Path]:
        return sorted((self.out / "games").glob("*.npz"))

    def solve(self) -> None:
        """Exact labels for every recorded position with at most ``exact_empties`` empties.

        One file per game chunk in ``OUT/exact`` (the chunk's labels and the empties they
        were solved up to); a restarted run skips the chunks already solved that far.
        """
        from bitgames.core.parallel import default_workers, run_tasks

        if self.cfg.exact_empties <= self.cfg.solve_empties and not self.cfg.wthor:
            return  # self-play (and logbook) games are labelled that far already
        (self.out / "exact").mkdir(exist_ok=True)
        chunks = self._chunks()
        todo = [c for c in chunks if self._exact_upto(c) < self.cfg.exact_empties]
        self.log(f"exact labels up to {self.cfg.exact_empties} empties: "
                 f"{len(chunks) - len(todo)}/{len(chunks)} chunks solved, {len(todo)} to solve")
        tasks = [(str(c), str(self.out / "exact" / c.name), self.cfg.exact_empties)
                 for c in todo]
        start = time.perf_counter()
        workers = self.cfg.workers or default_workers()
        with bar(len(chunks), "exact labels", "chunk",
                 initial=len(chunks) - len(todo)) as shown:
            for n, (i, labels) in enumerate(run_tasks(solve_chunk, tasks, self.cfg.scheduler,
                                                      workers), 1):
                with atomic_write(self.out / "exact" / todo[i].name, "exact labels") as f:
                    np.savez_compressed(f, label=labels, max_empties=self.cfg.exact_empties)
                shown.update(1)
                if shown.disable:
                    self.log(f"exact labels: chunk {n}/{len(todo)} "
                             f"({(time.perf_counter() - start) / n:.1f} s/chunk)")

    def _exact_upto(self, chunk: Path) -> int:
        path = self.out / "exact" / chunk.name
        return int(load_npz(path, "exact labels", _EXACT)["max_empties"]) if path.exists() else -1

    def load(self) -> dict[str, np.ndarray]:
        """Every recorded position: ``p``, ``o``, ``label`` (exact or :data:`NO_LABEL`),
        ``game``, ``empties`` and ``outcome`` (a tournament game's theoretical score before
        its theoretical depth, else :data:`NO_LABEL`); exact labels from :meth:`solve` up to
        ``exact_empties``."""
        chunks = self._chunks()
        if not chunks:
            raise BitgamesError(f"no games in {self.out / 'games'}")
        keys = ("p", "o", "label", "game")
        parts: dict[str, list[np.ndarray]] = {k: [] for k in (*keys, "empties", "outcome")}
        for c in chunks:
            d = load_npz(c, "game chunk", _CHUNK, optional={"outcome": ("i", 1)})
            for k in keys:
                parts[k].append(d[k])
            parts["outcome"].append(d["outcome"] if "outcome" in d
                                    else np.full(len(d["p"]), NO_LABEL, dtype=np.int32))
            empties = empties_of(d["p"], d["o"])
            parts["empties"].append(empties)
            if self._exact_upto(c) >= 0:
                exact = load_npz(self.out / "exact" / c.name, "exact labels", _EXACT)["label"]
                use = (empties <= self.cfg.exact_empties) & (exact != NO_LABEL)
                parts["label"][-1] = np.where(use, exact, d["label"])
        return {k: np.concatenate(v) for k, v in parts.items()}

    def fit(self) -> dict[str, Any]:
        from bitgames.core.parallel import default_workers, run_tasks
        from bitgames.othello import eval as ev

        data = self.load()
        ps, os_, games = data["p"], data["o"], data["game"]
        labels = data["label"].astype(np.int64)
        empties = data["empties"]
        if self.cfg.wthor_labels == "theory":
            use = (labels == NO_LABEL) & (empties < self.cfg.outcome_below)
            labels = np.where(use, data["outcome"], labels)
        stages = np.minimum(empties // 4, ev.N_STAGES - 1)
        held = games % 10 == 0
        vgames = games % 10 == VALIDATION
        feats = ev.batch_features(ps, os_, ev.GATHER, ev.B3)
        if self.cfg.consistency > 0:
            follows, sign = successors(ps, os_, games, empties)
        weights = ev.Weights.zeros()
        report: dict[str, Any] = {"config": asdict(self.cfg), "positions": int(len(ps)),
                                  "games": int(len(np.unique(games))), "stages": []}
        wpath = self.out / "weights.npz"
        workers = self.cfg.workers or default_workers()
        for s in range(ev.N_STAGES):
            rows = stages == s
            need = rows & (labels == NO_LABEL)
            if need.any():
                weights.meta = {}
                weights.save(wpath)
                idx = np.flatnonzero(need)
                parts = np.array_split(idx, max(1, min(len(idx) // 200, 4 * workers)))
                tasks = [(ps[part], os_[part], str(wpath), self.cfg.label_depth)
                         for part in parts if len(part)]
                t0 = time.perf_counter()
                for i, vals in run_tasks(label_positions, tasks, self.cfg.scheduler, workers):
                    labels[parts[i]] = vals
                self.log(f"stage {s}: labelled {len(idx)} positions by {self.cfg.label_depth}-ply"
                         f" search in {time.perf_counter() - t0:.1f} s")
            exact = rows & (data["label"] != NO_LABEL)
            lo = 4 * s - self.cfg.window
            hi = 4 * s + 3 + self.cfg.window if s < ev.N_STAGES - 1 else 64
            train = ((empties >= lo) & (empties <= hi) & (labels != NO_LABEL)) & ~held
            test = rows & held
            if train.sum() == 0:
                self.log(f"stage {s}: no positions")
                continue
            t0 = time.perf_counter()
            damp, tried = self._choose_damp(feats, labels, train & ~vgames, rows & vgames)
            pairs = None
            if self.cfg.consistency > 0:
                first = np.flatnonzero(train[:-1] & train[1:] & follows[:-1]
                                       & (empties[1:] >= self.cfg.consistency_from))
                pairs = (feats[first], feats[first + 1], sign[first].astype(np.float64),
                         self.cfg.consistency)
            w = fit_stage(feats[train], labels[train] / 100.0, damp, pairs)
            seconds = time.perf_counter() - t0
            weights.table[s] = np.clip(np.round(w * 100), -32000, 32000).astype(np.int32)
            pred = weights.table[s][feats[test]].sum(axis=1) / 100.0 if test.any() else None
            mae = float(np.abs(pred - labels[test] / 100.0).mean()) if pred is not None else None
            ex = exact & held
            pred_ex = weights.table[s][feats[ex]].sum(axis=1) / 100.0 if ex.any() else None
            mae_exact = (float(np.abs(pred_ex - data["label"][ex] / 100.0).mean())
                         if pred_ex is not None else None)
            row = {"stage": s, "empties": f"{4 * s}-{4 * s + 3}",
                   "fitted_on_empties": f"{max(lo, 0)}-{hi}", "train": int(train.sum()),
                   "damp": damp, "validation_mae_by_damp": tried,
                   "held_out": int(test.sum()), "mae_discs": mae,
                   "exact_held_out": int(ex.sum()), "mae_vs_exact_discs": mae_exact,
                   "fit_seconds": round(seconds, 1)}
            report["stages"].append(row)
            self.log(f"stage {s} ({row['empties']} empties): {row['train']} train, damp {damp}, "
                     f"fitted in {seconds:.0f} s, "
                     f"held-out MAE {_fmt(mae)} discs (vs exact {_fmt(mae_exact)}, "
                     f"{row['exact_held_out']} positions)")
        weights.meta = {"config": json.dumps(asdict(self.cfg)),
                        "positions": str(len(ps)), "games": str(report["games"])}
        weights.save(wpath)
        with atomic_write(self.out / "report.json", "training report") as f:
            f.write(json.dumps(report, indent=1).encode())
        with atomic_write(self.out / "labels.npz", "labels") as f:
            np.savez_compressed(f, label=labels.astype(np.int32))
        return report

    def _choose_damp(self, feats: np.ndarray, labels: np.ndarray, fit_rows: np.ndarray,
                     val: np.ndarray) -> tuple[float, dict[str, float]]:
        """The damping of ``cfg.damp`` whose fit on ``fit_rows`` errs least on the
        validation positions ``val`` (against their labels); and the error of each."""
        if len(self.cfg.damp) == 1 or not val.any() or not fit_rows.any():
            return self.cfg.damp[0], {}
        tried: dict[str, float] = {}
        for d in self.cfg.damp:
            w = fit_stage(feats[fit_rows], labels[fit_rows] / 100.0, d)
            tried[str(d)] = float(np.abs(w[feats[val]].sum(axis=1) - labels[val] / 100.0).mean())
        return float(min(self.cfg.damp, key=lambda d: tried[str(d)])), tried


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


#: the stages whose weights were fitted on backed-up search labels (20 empties and more
#: with the default ``exact_empties`` 17 and ``window`` 2): where a side-to-move bias builds up
RECENTER_FIRST_STAGE = 5


def recenter(weights: Any, ps: np.ndarray, os_: np.ndarray, depths: tuple[int, ...] = (3, 4),
             rounds: int = 3, first_stage: int = RECENTER_FIRST_STAGE,
             scheduler: str = "processes", workers: int = 0,
             log: Callable[[str], None] | None = None) -> list[list[float]]:
    """Shift the constant weight of each stage from ``first_stage`` on so that, over the
    positions ``ps``/``os_`` of the stage, the mean static evaluation equals the mean of
    searches of ``depths`` plies (an odd and an even depth: their leaves have either side
    to move, so a bias towards the side to move cancels). ``weights``
    (:class:`~bitgames.othello.eval.Weights`) is changed in place. Stages are done from
    the end towards the opening (a stage's searches reach the stages before it), ``rounds``
    times, as a shift changes the searches of the stages after it. Returns the shift of
    each stage in each round, in discs (what was subtracted from its constant).

    Why: a stage labelled by even-depth searches into the stages fitted before it learns
    their side-to-move bias plus the bias of its own minimax, so the bias grows towards
    the opening (about 4 discs at 50 empties in the shipped weights of session 3), and
    successive iterations of a search alternate between optimism and pessimism.
    """
    from bitgames.core.parallel import default_workers, run_tasks
    from bitgames.othello import eval as ev
    from bitgames.othello import patterns as P

    say = log or note
    bias = int(P.SCALAR_OFFSETS[-1])
    stages = np.minimum(empties_of(ps, os_) // 4, ev.N_STAGES - 1)
    workers = workers or default_workers()
    shifts: list[list[float]] = []
    for r in range(rounds):
        row = []
        for s in range(first_stage, ev.N_STAGES):
            rows = np.flatnonzero(stages == s)
            if rows.size == 0:
                continue
            static = np.array([ev.evaluate(ps[i], os_[i], weights.table, ev.GATHER, ev.B3)
                               for i in rows], dtype=np.float64)
            # parts of a fixed size: each part's searches share a table, so the values,
            # and the shifts, do not depend on the number of workers
            parts = np.array_split(rows, max(1, rows.size // 100))
            tasks = [(ps[part], os_[part], weights, d) for d in depths for part in parts]
            searched = np.zeros(rows.size)
            for i, vals in run_tasks(label_positions, tasks, scheduler, workers):
                part = parts[i % len(parts)]
                searched[np.searchsorted(rows, part)] += vals / len(depths)
            shift = int(round(float((static - searched).mean())))
            weights.table[s, bias] -= shift
            row.append(shift / 100)
            say(f"round {r + 1}, stage {s} ({4 * s}-{4 * s + 3} empties, "
                f"{rows.size} positions): constant {-shift / 100:+.2f} discs")
        shifts.append(row)
    return shifts


def stage_sample(boards: Iterable[Any], per_stage: int, seed: int
                 ) -> tuple[np.ndarray, np.ndarray]:
    """At most ``per_stage`` of ``boards`` (side to move with a move) per stage, drawn at
    random by ``seed``: their bitboards ``ps``, ``os_`` (side to move, opponent)."""
    from bitgames.othello import eval as ev

    by_stage: dict[int, list[tuple[int, int]]] = {}
    for board in boards:
        by_stage.setdefault(min(board.empties() // 4, ev.N_STAGES - 1), []).append(
            board.bitboards())
    rng = np.random.default_rng(seed)
    chosen = [pos for s in sorted(by_stage) for pos in
              (by_stage[s][i] for i in rng.permutation(len(by_stage[s]))[:per_stage])]
    return (np.array([p for p, _ in chosen], dtype=np.uint64),
            np.array([o for _, o in chosen], dtype=np.uint64))
