"""Move features and their strengths learned from game records (Coulom's move "Elo ratings").

Coulom, *Computing "Elo Ratings" of Move Patterns in the Game of Go* (ICGA Journal 30,
2007), models the move a strong player chooses as the winner of a competition among the
legal moves: each move is a team of features, each feature ``i`` has a strength
``gamma_i``, a team's strength is the product of its members', and a move is chosen with
probability its strength over the sum of all the legal moves' strengths
(Bradley-Terry). The strengths are fitted to game records by minorization-maximization
(:func:`fit`, Coulom's MM, with his prior of one virtual win and one virtual loss against a
team of strength 1 for every feature). The tree search (:mod:`bitgames.go.mcts`) starts
each new child from the probability the model gives its move.

The features of a move at the empty point ``p`` for the colour ``c`` to move
(:func:`move_key` packs them into one integer):

``shape``
    the 3x3 neighbourhood (:mod:`bitgames.go.patterns` codes, stones seen from the mover:
    1 its own, 2 the opponent's, 3 off the board) with a flag on each of the four
    neighbours whose block is in atari, one strength for its eight rotations and
    reflections.
``capture``
    0 none; 1 takes a single stone; 2 takes more; 3 takes stones while a block of the
    mover's next to ``p`` is in atari.
``escape``
    0 no block of the mover's next to ``p`` is in atari (or the move captures); 1 the
    move extends such a block out of atari; 2 it extends, but the block is still caught
    (one liberty after the move, or a ladder :func:`bitgames.go.kernels.ladder_dies`
    reads as lost).
``self_atari``
    0 no; 1 the move leaves its stone alone in atari; 2 it leaves a block of two stones
    or more in atari (captures excepted).
``atari``
    0 no; 1 the move puts an opponent block in atari; 2 and the ladder that follows
    captures it.
``distance``
    to the previous move, with Coulom's ``d = |dx| + |dy| + max(|dx|, |dy|)``: 0 no
    previous move (the start, or a pass), 1-5 for ``d`` = 2-6, 6 for 7-8, 7 for 9-12, 8
    beyond.
``distance2``
    the same for the move before the previous one.
``line``
    the distance to the edge, 0 (first line) to 4 (fifth line and inside).
``spatial``
    the largest neighbourhood of the move (:mod:`bitgames.go.spatial`, 12 to 72 points)
    found in the dictionary of patterns seen often in training: its number there (from
    1), or 0 if none.

>>> from bitgames.go import Board
>>> b = Board(size=9)
>>> for m in ("e5", "e6", "d6", "f5"):
...     b.push(m)
>>> fields(key_at(b, "f6"))["atari"], fields(key_at(b, "d5"))["distance"]
(1, 3)
>>> fields(key_at(b, "a1"))["line"], fields(key_at(b, "e4"))["shape"] > 0
(0, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from bitgames.core import jit
from bitgames.core.errors import BitgamesError
from bitgames.core.files import atomic_write
from bitgames.go import kernels as K
from bitgames.go import patterns, spatial
from bitgames.go.board import BLACK, WHITE, Board, Move
from bitgames.go.sgf import SgfError, _sgf_point, game_board, parse_sgf

#: the features after ``shape``: (name, number of values, bit position in a key); the
#: shape code takes the 20 bits from :data:`SHAPE_SHIFT` on
SMALL = (
    ("distance2", 9, 16),
    ("capture", 4, 14),
    ("escape", 3, 12),
    ("self_atari", 3, 10),
    ("atari", 3, 8),
    ("distance", 9, 4),
    ("line", 5, 0),
)
SHAPE_SHIFT = 20
NSHAPES = 1 << 20
#: the spatial pattern (:mod:`bitgames.go.spatial`) takes the bits from here on
SPATIAL_SHIFT = 40
#: the neighbour cells (indices into :data:`bitgames.go.patterns.OFFSETS`) whose atari flag
#: is bit 16, 17, 18, 19 of a shape code
ATARI_CELLS = (1, 3, 4, 6)

_SHIFTS = np.array([shift for _, _, shift in SMALL], np.int64)
_MASKS = np.array([(1 << (n - 1).bit_length()) - 1 for _, n, _ in SMALL], np.int64)
#: where each small feature's strengths start in a strength table (after the shapes)
_OFFSETS = np.array(
    np.cumsum([NSHAPES] + [n for _, n, _ in SMALL[:-1]]), np.int64)
#: where the strengths of the spatial patterns start in a strength table: one entry per
#: shape code, then the small features (a table goes on with one strength for "no
#: pattern", then one for each pattern of its dictionary)
TABLE_SIZE = NSHAPES + sum(n for _, n, _ in SMALL)

#: the shipped strengths (see data/README.md for how they were made)
DEFAULT_PATH = Path(__file__).resolve().parent / "data" / "gammas.npz"


def _distance_class(d: int) -> int:
    if d <= 6:
        return d - 1
    if d <= 8:
        return 6
    if d <= 12:
        return 7
    return 8


_DISTANCE = np.array([0, 0] + [_distance_class(d) for d in range(2, 64)], np.int64)


@jit.njit(nogil=True)
def move_key(g: Any, s: Any, stack: Any, tmp: np.ndarray, p: int, c: int,
             multi: bool, dictionary: np.ndarray) -> int:
    """The features of colour ``c`` playing the legal move ``p`` in state ``s``, packed
    into one integer (the module docstring lists them). ``stack`` is a
    :func:`bitgames.go.kernels.ladder_stack` and ``tmp`` scratch space of one bitmap;
    ``multi`` allows multi-stone suicide (as in :func:`bitgames.go.kernels.is_legal`);
    ``dictionary`` holds the spatial patterns (:func:`load_dictionary`)."""
    nbr, nnbr, diag, ndiag, nbrmask, zob = g
    color, root, nst, stones, libs, bits, empties, epos, meta, hsh = s
    npts = color.shape[0]
    size = np.int64(math.sqrt(npts) + 0.5)
    code = np.int64(K._seen_by(np.int64(K._pat3_code(color, size, p)), c))
    own_atari = False
    taken = 0
    chase = np.int64(-1)
    stones_next = False
    for i in range(nnbr[p]):
        q = nbr[p, i]
        cq = color[q]
        if cq == 0:
            continue
        stones_next = True
        r = root[q]
        n = K.libcount(libs, r)
        if n == 1:  # the cell's atari flag (ATARI_CELLS order)
            if q < p - 1:
                code |= 1 << 16
            elif q == p - 1:
                code |= 1 << 17
            elif q == p + 1:
                code |= 1 << 18
            else:
                code |= 1 << 19
        seen = False
        for j in range(i):
            if color[nbr[p, j]] != 0 and root[nbr[p, j]] == r:
                seen = True
        if seen:
            continue
        if cq == c:
            own_atari |= n == 1
        elif n == 1:
            taken += nst[r]
        elif n == 2:
            chase = np.int64(q)
    capture = 0
    if taken > 0:
        capture = 3 if own_atari else (1 if taken == 1 else 2)
    escape = 0
    self_atari = 0
    if stones_next and taken == 0:  # with no stone next to it, the move has 2+ liberties
        nl, nstones, _ = K._libs_after(nbr, nnbr, nbrmask, color, root, nst, libs, bits,
                                       tmp, p, c)
        if nl <= 1:
            self_atari = 1 if nstones == 1 else 2
        if own_atari:
            escape = 1
            if nl <= 1 or (nl == 2 and K.ladder_dies(g, s, stack, p, c, p, multi)):
                escape = 2
    atari = 0
    if chase >= 0:
        atari = 2 if K.ladder_dies(g, s, stack, p, c, chase, multi) else 1
    row = p // size
    col = p - row * size
    distance = _distance(meta[K.M_LAST], row, col, size)
    distance2 = _distance(meta[K.M_LAST2], row, col, size)
    line = min(min(min(row, col), min(size - 1 - row, size - 1 - col)), 4)
    large = np.int64(spatial.match(color, size, p, c, dictionary))
    return (large << SPATIAL_SHIFT | code << SHAPE_SHIFT | distance2 << 16 | capture << 14
            | escape << 12 | self_atari << 10 | atari << 8 | distance << 4 | line)


@jit.njit(nogil=True, inline="always")
def _distance(last: int, row: int, col: int, size: int) -> int:
    """The distance class of the point (``row``, ``col``) to the move ``last``."""
    if last < 0:
        return 0
    dr = abs(row - last // size)
    dc = abs(col - last % size)
    return _DISTANCE[min(dr + dc + max(dr, dc), 63)]


@jit.njit(nogil=True, inline="always")
def gamma(table: np.ndarray, key: int) -> float:
    """The strength of a move with features ``key`` (:func:`move_key`) in a strength
    ``table`` (:func:`load`), whose spatial patterns are those ``key`` was made with."""
    v = table[(key >> SHAPE_SHIFT) & (NSHAPES - 1)] * table[TABLE_SIZE + (key >> SPATIAL_SHIFT)]
    for k in range(_SHIFTS.shape[0]):
        v *= table[_OFFSETS[k] + ((key >> _SHIFTS[k]) & _MASKS[k])]
    return v


@jit.njit(nogil=True)
def candidate_keys(g: Any, s: Any, stack: Any, tmp: np.ndarray, multi: bool,
                   dictionary: np.ndarray, points: np.ndarray, keys: np.ndarray) -> int:
    """Fill ``points`` and ``keys`` with the moves the tree search considers for the side
    to move (legal, not filling a single-point eye of its own) and their features
    (spatial patterns from ``dictionary``); returns their number."""
    nbr, nnbr, diag, ndiag, nbrmask, zob = g
    color = s[0]
    c = s[8][K.M_TOMOVE]
    n = 0
    for p in range(color.shape[0]):
        if color[p] != 0 or K.is_eye(g, color, p, c) or not K.is_legal(g, s, p, c, multi):
            continue
        points[n] = p
        keys[n] = move_key(g, s, stack, tmp, p, c, multi, dictionary)
        n += 1
    return n


def _scratch(board: Board) -> tuple[Any, np.ndarray]:
    return K.ladder_stack(board._s), np.zeros(board._s[5].shape[1], np.uint64)


def key_at(board: Board, move: str) -> int:
    """The features (:func:`move_key`) of ``move`` for the side to move on ``board``,
    with the shipped spatial patterns."""
    p = board.parse_move(move).point(board.size)
    if not board.is_legal(move):
        raise BitgamesError(f"{move} is not a legal move for the side to move")
    stack, tmp = _scratch(board)
    return int(move_key(board._g, board._s, stack, tmp, np.int64(p), board._s[8][K.M_TOMOVE],
                        board.rules.suicide, load_dictionary()))


def fields(key: int) -> dict[str, int]:
    """A packed key (:func:`move_key`) as its named features.

    >>> f = fields(7 << SPATIAL_SHIFT | 5 << SHAPE_SHIFT | 2 << 8 | 3)
    >>> f["spatial"], f["shape"], f["atari"], f["line"], sum(f.values())
    (7, 5, 2, 3, 17)
    """
    out = {"spatial": key >> SPATIAL_SHIFT, "shape": (key >> SHAPE_SHIFT) & (NSHAPES - 1)}
    for (name, _, shift), mask in zip(SMALL, _MASKS, strict=True):
        out[name] = (key >> shift) & int(mask)
    return out


# --------------------------------------------------------------------------- symmetry


def canonical_shapes() -> np.ndarray:
    """``int64[NSHAPES]``: the smallest code among each shape code's eight rotations and
    reflections (so one strength serves them all); an atari flag turns with its cell.

    >>> canon = canonical_shapes()
    >>> a = patterns.code(["X..", "...", "..."], {"X": 1, ".": 0})
    >>> b = patterns.code(["...", "...", "..X"], {"X": 1, ".": 0})
    >>> bool(canon[a] == canon[b]), bool(canon[a] == a or canon[b] == b)
    (True, True)
    """
    best = np.arange(NSHAPES, dtype=np.int64)
    for image in _images(best.copy()):
        np.minimum(best, image, out=best)
    return best


def _images(codes: np.ndarray) -> Iterator[np.ndarray]:
    """The shape ``codes`` turned and reflected in the eight ways of the square, one
    array per symmetry (the identity included)."""
    flag = {k: 16 + j for j, k in enumerate(ATARI_CELLS)}
    cells = [((codes >> (2 * k)) & 3) | (((codes >> flag[k]) & 1) << 2 if k in flag else 0)
             for k in range(8)]
    index = {off: k for k, off in enumerate(patterns.OFFSETS)}
    for s in range(8):
        image = np.zeros_like(codes)
        for k, (dr, dc) in enumerate(patterns.OFFSETS):
            to = index[spatial.turn(dr, dc, s)]
            image |= (cells[k] & 3) << (2 * to)
            if to in flag:
                image |= (cells[k] >> 2) << flag[to]
        yield image


# --------------------------------------------------------------------------- tables


@dataclass
class Gammas:
    """Fitted strengths: one per canonical shape seen in training (``shapes`` and
    ``shape_gammas``), one per value of each small feature (``small``, in
    :data:`SMALL` order), the dictionary of spatial patterns (``dictionary``,
    :func:`bitgames.go.spatial.build`) with one strength for "no pattern" and one per
    pattern (``pattern_gammas``), and what they were fitted on."""

    shapes: np.ndarray  #: int64: canonical shape codes
    shape_gammas: np.ndarray  #: float64: their strengths
    small: np.ndarray  #: float64[TABLE_SIZE - NSHAPES]
    dictionary: np.ndarray  #: uint64[2, n]: the spatial patterns' hashes and numbers
    pattern_gammas: np.ndarray  #: float64[spatial.patterns(dictionary) + 1]
    source: str = ""

    def table(self) -> np.ndarray:
        """The strength table the kernels read (:func:`gamma`): every shape code gets
        its canonical shape's strength (1 for shapes never seen in training), then the
        small features' and the spatial patterns' strengths."""
        out = np.ones(TABLE_SIZE + len(self.pattern_gammas), np.float64)
        for image in _images(self.shapes):  # the codes of each trained shape's symmetries
            out[image] = self.shape_gammas
        out[NSHAPES:TABLE_SIZE] = self.small
        out[TABLE_SIZE:] = self.pattern_gammas
        return out

    def save(self, path: str | Path) -> None:
        """Write the table to ``path`` (``.npz``) in one step: a Ctrl-C meanwhile waits
        for the file to be written, and a stop by any other cause leaves the previous
        file whole (:func:`bitgames.core.files.atomic_write`)."""
        with atomic_write(path, "strength table") as f:
            np.savez_compressed(f, shapes=self.shapes.astype(np.int32),
                                shape_gammas=self.shape_gammas.astype(np.float32),
                                small=self.small, dictionary=self.dictionary,
                                pattern_gammas=self.pattern_gammas.astype(np.float32),
                                source=np.array(self.source))

    @staticmethod
    def read(path: str | Path) -> Gammas:
        """Read a table :meth:`save` wrote; a table of another feature set (an older
        version of this module) is refused with the reason."""
        with np.load(path) as z:
            if "dictionary" not in z:
                raise BitgamesError(f"{path}: a strength table without spatial patterns "
                                    f"(an older version): fit it again with 'bitgames "
                                    f"go patterns'")
            gammas = Gammas(z["shapes"].astype(np.int64),
                            z["shape_gammas"].astype(np.float64),
                            z["small"].astype(np.float64), z["dictionary"].astype(np.uint64),
                            z["pattern_gammas"].astype(np.float64), str(z["source"]))
        want = TABLE_SIZE - NSHAPES
        if len(gammas.small) != want or (len(gammas.shapes)
                                         and int(gammas.shapes.max()) >= NSHAPES):
            raise BitgamesError(f"{path}: a strength table of another feature set "
                                f"({len(gammas.small)} small-feature strengths, this "
                                f"version has {want}): fit it again with 'bitgames go "
                                f"patterns'")
        npatterns = spatial.patterns(gammas.dictionary)
        if len(gammas.pattern_gammas) != npatterns + 1:
            raise BitgamesError(f"{path}: {len(gammas.pattern_gammas)} pattern strengths "
                                f"for {npatterns} patterns (want one more)")
        return gammas


@cache
def shipped() -> Gammas:
    """The shipped strengths (see data/README.md for how they were made; cached)."""
    return Gammas.read(DEFAULT_PATH)


@cache
def load() -> np.ndarray:
    """The strength table of the shipped strengths (cached, read-only)."""
    table = shipped().table()
    table.flags.writeable = False
    return table


@cache
def load_dictionary() -> np.ndarray:
    """The dictionary of spatial patterns of the shipped strengths (cached, read-only)."""
    dictionary = shipped().dictionary
    dictionary.flags.writeable = False
    return dictionary


#: the default ``scale`` of :func:`playout_weights` (the engine's ``local_weight``)
LOCAL_WEIGHT = 16.0


def playout_weights(table: np.ndarray, scale: float = LOCAL_WEIGHT) -> np.ndarray:
    """The shape weights of the :data:`bitgames.go.kernels.LEARNED` playouts from a
    strength ``table`` (:func:`load`): ``int64[2, 65536]``, row 0 for the points next to
    the last move, row 1 for the diagonal ones, indexed by the 3x3 code seen from the mover
    (no atari flags). A weight is ``scale`` times the shape's strength times the strength
    of its distance to the last move, rounded; the random move weighs 1 for each empty
    point, so ``scale`` sets how often the playouts answer next to the last move.

    >>> w = playout_weights(load())
    >>> w.shape, bool((w >= 0).all())
    ((2, 65536), True)
    >>> hane = patterns.code(["XOX", "...", "???"], {"X": 2, "O": 1, ".": 0, "?": 0})
    >>> bool(w[0, hane] > w[0, 0])  # a hane next to the last move beats an empty point
    True
    """
    distance = _OFFSETS[[name for name, _, _ in SMALL].index("distance")]
    shapes = table[: 1 << 16]
    out = np.empty((2, 1 << 16), np.int64)
    for row, cls in enumerate((1, 2)):  # distance classes of d = 2 (next to it) and d = 3
        out[row] = np.rint(scale * shapes * table[distance + cls]).astype(np.int64)
    out.flags.writeable = False
    return out


@cache
def policy_weights(policy: int, scale: float = LOCAL_WEIGHT) -> np.ndarray:
    """The ``weights`` argument of the playout kernels for ``policy``: the shipped
    strengths' :func:`playout_weights` for :data:`bitgames.go.kernels.LEARNED` and
    :data:`bitgames.go.kernels.LIBERTIES`, :data:`bitgames.go.kernels.NO_WEIGHTS` for the
    others (cached).

    >>> policy_weights(K.PATTERNS) is K.NO_WEIGHTS, policy_weights(K.LEARNED).shape
    (True, (2, 65536))
    """
    return playout_weights(load(), scale) if policy >= K.LEARNED else K.NO_WEIGHTS


# --------------------------------------------------------------------------- training


@dataclass
class Competitions:
    """Training positions: competition ``j`` holds the teams ``start[j]:start[j + 1]``
    (their features as ``keys``, with ``counts`` moves each) and was won by the team at
    ``winner[j]``; the keys' spatial patterns are numbers of ``dictionary``."""

    start: np.ndarray
    keys: np.ndarray
    counts: np.ndarray
    winner: np.ndarray
    dictionary: np.ndarray

    @property
    def positions(self) -> int:
        return len(self.winner)


def _replay(texts: Iterable[str], visit: Callable[[Board, int], bool],
            on_game: Callable[[], None] | None, min_moves: int) -> None:
    """Call ``visit(board, point)`` before every move (passes excepted) of every game in
    ``texts`` (SGF, any board size, handicap stones included), the board with the mover
    to move. A game is cut at its first move our rules reject or for which ``visit``
    returns False; games of fewer than ``min_moves`` moves are skipped."""
    for text in texts:
        try:
            game = parse_sgf(text)
            board = game_board(game, move_number=0)
        except (SgfError, BitgamesError, ValueError):
            continue
        moves = [(k, v[0]) for node in [game.root, *game.nodes] for k, v in node.items()
                 if k in ("B", "W") and v]
        if len(moves) >= min_moves:
            for prop, value in moves:
                color = WHITE if prop == "W" else BLACK
                try:
                    move = Move.from_point(_sgf_point(value, board.size), board.size)
                except SgfError:
                    break
                if not board.is_legal(move, color):
                    break
                if not move.is_pass:
                    board.turn = color
                    if not visit(board, move.point(board.size)):
                        break
                board.push(move, color)
        if on_game is not None:
            on_game()


def harvest(texts: Iterable[str], min_count: int,
            on_game: Callable[[], None] | None = None, min_moves: int = 20) -> np.ndarray:
    """The dictionary of spatial patterns (:func:`bitgames.go.spatial.build`): the
    neighbourhoods of at least ``min_count`` of the moves played in ``texts``."""
    played: list[np.ndarray] = []

    def visit(board: Board, point: int) -> bool:
        out = np.empty((8, len(spatial.ENDS)), np.uint64)
        spatial.hashes_at(board._s[0], board.size, point, board._s[8][K.M_TOMOVE], out)
        played.append(out)
        return True

    _replay(texts, visit, on_game, min_moves)
    return spatial.build(np.array(played, np.uint64), min_count)


def sgf_positions(texts: Iterable[str], dictionary: np.ndarray,
                  on_game: Callable[[], None] | None = None,
                  min_moves: int = 20) -> Competitions:
    """The competitions of every move (passes excepted) of every game in ``texts``, with
    the spatial patterns of ``dictionary``; a game is cut at its first move our rules
    reject or that fills one of the mover's eyes (rare in strong play), and games of
    fewer than ``min_moves`` moves are skipped."""
    starts = [0]
    keys: list[np.ndarray] = []
    counts: list[np.ndarray] = []
    winners: list[int] = []
    scratch: dict[int, tuple[Any, np.ndarray, np.ndarray, np.ndarray]] = {}  # by board size

    def visit(board: Board, point: int) -> bool:
        if board.size not in scratch:
            scratch[board.size] = (*_scratch(board), np.empty(board.points, np.int64),
                                   np.empty(board.points, np.int64))
        stack, tmp, points, ckeys = scratch[board.size]
        n = candidate_keys(board._g, board._s, stack, tmp, board.rules.suicide, dictionary,
                           points, ckeys)
        hit = np.flatnonzero(points[:n] == point)
        if len(hit) == 0:
            return False
        teams, inverse, cnt = np.unique(ckeys[:n], return_inverse=True, return_counts=True)
        keys.append(teams)
        counts.append(cnt.astype(np.int32))
        winners.append(starts[-1] + int(inverse[hit[0]]))
        starts.append(starts[-1] + len(teams))
        return True

    _replay(texts, visit, on_game, min_moves)
    return Competitions(np.array(starts, np.int64),
                        np.concatenate(keys) if keys else np.zeros(0, np.int64),
                        np.concatenate(counts) if counts else np.zeros(0, np.int32),
                        np.array(winners, np.int64), dictionary)


def _feature_columns(keys: np.ndarray, shape_index: np.ndarray) -> np.ndarray:
    """``int32[n, 9]``: each key's features as indices into the fitted strength vector
    (shapes first, by ``shape_index`` of their canonical code, then the small features,
    then the spatial patterns)."""
    nshape = int(shape_index.max()) + 1
    out = np.empty((len(keys), 2 + len(SMALL)), np.int32)
    out[:, 0] = shape_index[(keys >> SHAPE_SHIFT) & (NSHAPES - 1)]
    base = nshape
    for k, (_, n, _) in enumerate(SMALL):
        out[:, 1 + k] = base + ((keys >> _SHIFTS[k]) & _MASKS[k])
        base += n
    out[:, -1] = base + (keys >> SPATIAL_SHIFT)
    return out


@jit.njit(nogil=True)
def _team_strengths(cols: np.ndarray, gam: np.ndarray, out: np.ndarray) -> None:
    for t in range(cols.shape[0]):
        v = 1.0
        for k in range(cols.shape[1]):
            v *= gam[cols[t, k]]
        out[t] = v


@jit.njit(nogil=True)
def _mm_step(start: np.ndarray, cols: np.ndarray, counts: np.ndarray, gam: np.ndarray,
             wins: np.ndarray, column: int, lo: int, hi: int, strength: np.ndarray,
             denom: np.ndarray) -> None:
    """One MM update of the strengths ``lo:hi`` (the features of one column): ``gamma_i
    = W_i / sum_j C_ij / E_j`` with the prior's virtual win and loss against strength 1."""
    _team_strengths(cols, gam, strength)
    denom[lo:hi] = 0.0
    for j in range(start.shape[0] - 1):
        e = 0.0
        for t in range(start[j], start[j + 1]):
            e += counts[t] * strength[t]
        for t in range(start[j], start[j + 1]):
            i = cols[t, column]
            denom[i] += counts[t] * strength[t] / gam[i] / e
    for i in range(lo, hi):
        gam[i] = (wins[i] + 1.0) / (denom[i] + 2.0 / (gam[i] + 1.0))


def fit(data: Competitions, sweeps: int = 20,
        on_sweep: Callable[[Gammas], None] | None = None) -> Gammas:
    """Fit the strengths to ``data`` by Coulom's MM, ``sweeps`` passes over the nine
    features; ``on_sweep`` gets the strengths after each pass."""
    canon = canonical_shapes()
    ckeys = canon[(data.keys >> SHAPE_SHIFT) & (NSHAPES - 1)]
    shapes = np.unique(ckeys)
    shape_index = np.zeros(NSHAPES, np.int64)
    shape_index[shapes] = np.arange(len(shapes))
    keys = ((data.keys >> SPATIAL_SHIFT) << SPATIAL_SHIFT | ckeys << SHAPE_SHIFT
            | (data.keys & ((1 << SHAPE_SHIFT) - 1)))
    cols = _feature_columns(keys, shape_index)
    nsmall = sum(n for _, n, _ in SMALL)
    nfeat = len(shapes) + nsmall + spatial.patterns(data.dictionary) + 1
    wins = np.zeros(nfeat, np.float64)
    np.add.at(wins, cols[data.winner].ravel(), 1.0)
    gam = np.ones(nfeat, np.float64)
    bounds = [0, len(shapes)]
    for _, n, _ in SMALL:
        bounds.append(bounds[-1] + n)
    bounds.append(nfeat)
    strength = np.empty(len(keys), np.float64)
    denom = np.zeros(nfeat, np.float64)

    def gammas() -> Gammas:
        small_end = len(shapes) + nsmall
        return Gammas(shapes, gam[:len(shapes)].copy(), gam[len(shapes):small_end].copy(),
                      data.dictionary, gam[small_end:].copy())

    for _ in range(sweeps):
        for column in range(cols.shape[1]):
            _mm_step(data.start, cols, data.counts, gam, wins, column, bounds[column],
                     bounds[column + 1], strength, denom)
        if on_sweep is not None:
            on_sweep(gammas())
    return gammas()


@jit.njit(nogil=True)
def _score(start: np.ndarray, strength: np.ndarray, counts: np.ndarray,
           winner: np.ndarray) -> tuple[float, float]:
    """(mean log-probability of the moves played, share of them the model ranks first,
    ties shared)."""
    loglik = 0.0
    top = 0.0
    for j in range(start.shape[0] - 1):
        e = 0.0
        best = 0.0
        for t in range(start[j], start[j + 1]):
            e += counts[t] * strength[t]
            best = max(best, strength[t])
        w = strength[winner[j]]
        loglik += math.log(w / e)
        if w >= best:
            ties = 0
            for t in range(start[j], start[j + 1]):
                if strength[t] >= best:
                    ties += counts[t]
            top += 1.0 / ties
    n = max(start.shape[0] - 1, 1)
    return loglik / n, top / n


def evaluate(gammas: Gammas, data: Competitions) -> tuple[float, float]:
    """How well ``gammas`` predict the moves of ``data``: the mean log-probability of the
    moves played and the share of them the model ranks first. ``data`` must have been
    made with the spatial patterns of ``gammas``."""
    if not np.array_equal(gammas.dictionary, data.dictionary):
        raise BitgamesError("these positions were made with another dictionary of spatial "
                            "patterns than the strengths'")
    strength = _strengths(gammas.table(), data.keys)
    return _score(data.start, strength, data.counts, data.winner)


@jit.njit(nogil=True)
def _strengths(table: np.ndarray, keys: np.ndarray) -> np.ndarray:
    out = np.empty(keys.shape[0], np.float64)
    for i in range(keys.shape[0]):
        out[i] = gamma(table, keys[i])
    return out


def read_games(paths: Iterable[str | Path]) -> list[str]:
    """The SGF texts of ``paths`` (files, or folders searched for ``*.sgf``), sorted by
    path so a run is repeatable."""
    files: list[Path] = []
    for p in map(Path, paths):
        files.extend(sorted(p.rglob("*.sgf")) if p.is_dir() else [p])
    return [f.read_text(encoding="utf-8", errors="replace") for f in files]

