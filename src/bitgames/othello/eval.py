"""Othello evaluation functions: the pattern evaluation and the classic evaluation.

**Pattern evaluation** (Logistello / NTest / Edax style, patterns in
:mod:`bitgames.othello.patterns`): the sum, over 50 pattern instances, of a weight looked
up by the instance's base-3 index, plus one-hot weights for the mobility of both sides,
the potential mobility of both sides, the parity of the empties and a constant. The
weights depend on the game stage (:func:`stage`: one set per 4 empties, 16 sets) and are
stored as ``int32`` centi-discs in an array ``W[stage, weight]`` that is passed to the
kernels as an argument (never a module global). Scores are from the side to move, in
centi-discs (100 = one disc).

**Classic evaluation** (seed 002, "Lap Fung the Tortoise"): a weighted sum of the disc
difference, the mobility difference, the potential-mobility difference, corners and
X-squares by quadrant (squared counts), with wipe-out avoidance. Hand-set weights per
stage (:func:`classic_weights`); it is the simple engine level and the match baseline.

>>> from bitgames.othello.kernels import start_position
>>> p, o = start_position()
>>> W = Weights.zeros()
>>> int(evaluate(p, o, W.table, GATHER, B3))
0
>>> int(classic_eval(p, o, classic_weights()))
0
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import NamedTuple

import numpy as np

from bitgames.core.bits import popcount
from bitgames.core.files import FileError, atomic_write, load_npz
from bitgames.core.jit import njit, register_warmup
from bitgames.othello import patterns as P
from bitgames.othello.eval_gen import pattern_sum
from bitgames.othello.kernels import legal_moves

U = np.uint64
N_STAGES = 16
MAX_EVAL = 6300  # static evaluations stay strictly inside exact scores (6400 = 64 discs)
WIPEOUT = 6400

_NOT_A = U(0xFEFE_FEFE_FEFE_FEFE)
_NOT_H = U(0x7F7F_7F7F_7F7F_7F7F)
_ZERO = U(0)


def _gather_table() -> np.ndarray:
    """One row per instance: method, weight offset, base-3 table start, then constants.

    Method 1: columns 3-7 = pre-shift, mask, multiplier, shift, field mask.
    Methods 2/3: columns 3-14 = three gather terms (mask, multiplier, rshift, lshift).
    """
    g = np.zeros((P.N_INSTANCES, 15), dtype=np.uint64)
    for i in range(P.N_INSTANCES):
        g[i, 0] = P.INST_METHOD[i]
        g[i, 1] = P.INST_OFFSET[i]
        g[i, 2] = P.B3_BASE[i]
        if P.INST_METHOD[i] == 1:
            g[i, 3:8] = P.ONE_MUL[i]
        else:
            g[i, 3:15] = P.TERMS[i].ravel()
    return g


#: Per-instance gather constants (see :func:`_gather_table`); ~6 kB.
GATHER = _gather_table()
#: Shared base-2 -> base-3 tables, ``int16`` (16 kB): see :data:`patterns.B3`.
B3 = P.B3
SCALAR_OFFSETS = P.SCALAR_OFFSETS


@njit
def stage(empties: int) -> int:
    """Weight set used at ``empties`` empty squares: one per 4 empties (0..15)."""
    s = empties >> 2
    return s if s < N_STAGES else N_STAGES - 1


@njit
def potential_mobility(p: np.uint64, o: np.uint64) -> int:
    """Empty squares next to an opponent disc (where ``p`` might later play)."""
    n = (
        ((o << U(1)) & _NOT_A)
        | ((o >> U(1)) & _NOT_H)
        | (o << U(8))
        | (o >> U(8))
        | ((o << U(9)) & _NOT_A)
        | ((o >> U(9)) & _NOT_H)
        | ((o << U(7)) & _NOT_H)
        | ((o >> U(7)) & _NOT_A)
    )
    return popcount(n & ~(p | o))


@njit
def _gathered(x: np.uint64, gather: np.ndarray, i: int) -> int:
    g = _ZERO
    for t in range(3):
        c = 3 + 4 * t
        m = gather[i, c]
        g |= (((x & m) * gather[i, c + 1]) >> gather[i, c + 2]) << gather[i, c + 3]
    return np.int64(g)


@njit
def instance_index(p: np.uint64, o: np.uint64, gather: np.ndarray, b3: np.ndarray, i: int) -> int:
    """Base-3 index of pattern instance ``i`` (digit 1 = side to move, 2 = opponent)."""
    if gather[i, 0] == U(1):
        pre = gather[i, 3]
        m = gather[i, 4]
        k = gather[i, 5]
        s = gather[i, 6]
        f = gather[i, 7]
        a = ((((p >> pre) & m) * k) >> s) & f
        b = ((((o >> pre) & m) * k) >> s) & f
        return np.int64(a + b + b)
    base = np.int64(gather[i, 2])
    return np.int64(b3[base + _gathered(p, gather, i)]) + 2 * np.int64(
        b3[base + _gathered(o, gather, i)])


@njit
def features(p: np.uint64, o: np.uint64, gather: np.ndarray, b3: np.ndarray,
             out: np.ndarray) -> None:
    """Fill ``out[:N_FEATURES]`` with the weight indices (within a stage) used for (p, o)."""
    n = gather.shape[0]
    for i in range(n):
        out[i] = np.int64(gather[i, 1]) + instance_index(p, o, gather, b3, i)
    mp = popcount(legal_moves(p, o))
    mo = popcount(legal_moves(o, p))
    pp = potential_mobility(p, o)
    po = potential_mobility(o, p)
    empties = 64 - popcount(p | o)
    off = SCALAR_OFFSETS
    out[n] = off[0] + (mp if mp < 32 else 32)
    out[n + 1] = off[1] + (mo if mo < 32 else 32)
    out[n + 2] = off[2] + (pp if pp < 48 else 48)
    out[n + 3] = off[3] + (po if po < 48 else 48)
    out[n + 4] = off[4] + (empties & 1)
    out[n + 5] = off[5]


@njit
def evaluate(p: np.uint64, o: np.uint64, w: np.ndarray, gather: np.ndarray, b3: np.ndarray) -> int:
    """Pattern evaluation of (p, o) for the side to move, in centi-discs.

    ``w`` is ``int32[N_STAGES, N_WEIGHTS]`` (or ``int16``). Positions with no disc of one
    side score the wipe-out; others are clamped to +-:data:`MAX_EVAL`.
    """
    return evaluate_mobility(p, o, popcount(legal_moves(p, o)), popcount(legal_moves(o, p)),
                             w, b3)


@njit(inline="always")
def evaluate_mobility(p: np.uint64, o: np.uint64, mp: int, mo: int, w: np.ndarray,
                      b3: np.ndarray) -> int:
    """:func:`evaluate` given the numbers of legal moves of both sides (``mp`` for ``p``).

    The search has generated the moves already; this saves generating them twice. Inlined
    into its callers: no call, so no reference counting of the arrays, per leaf.
    """
    if p == _ZERO:
        return -WIPEOUT
    if o == _ZERO:
        return WIPEOUT
    empties = 64 - popcount(p | o)
    s = stage(empties)
    total = pattern_sum(p, o, w, s, b3)  # straight-line code, same indices as features()
    pp = potential_mobility(p, o)
    po = potential_mobility(o, p)
    off = SCALAR_OFFSETS
    total += w[s, off[0] + (mp if mp < 32 else 32)]
    total += w[s, off[1] + (mo if mo < 32 else 32)]
    total += w[s, off[2] + (pp if pp < 48 else 48)]
    total += w[s, off[3] + (po if po < 48 else 48)]
    total += w[s, off[4] + (empties & 1)]
    total += w[s, off[5]]
    if total > MAX_EVAL:
        return MAX_EVAL
    if total < -MAX_EVAL:
        return -MAX_EVAL
    return total


@njit
def batch_features(ps: np.ndarray, os_: np.ndarray, gather: np.ndarray,
                   b3: np.ndarray) -> np.ndarray:
    """Feature indices of many positions: ``int32[n, N_FEATURES]`` (for training)."""
    n = ps.shape[0]
    nf = gather.shape[0] + 6
    out = np.zeros((n, nf), dtype=np.int32)
    row = np.zeros(nf, dtype=np.int64)
    for k in range(n):
        features(ps[k], os_[k], gather, b3, row)
        for j in range(nf):
            out[k, j] = row[j]
    return out


# -- classic evaluation (seed 002) ----------------------------------------------------------

_CORNER = np.array([0x1, 0x80, 0x0100_0000_0000_0000, 0x8000_0000_0000_0000], dtype=np.uint64)
_XSQ = np.array([0x200, 0x4000, 0x2_0000_0000_0000, 0x40_0000_0000_0000], dtype=np.uint64)
_QUADRANT = np.array(
    [0x0000_0000_0F0F_0F0F, 0x0000_0000_F0F0_F0F0, 0x0F0F_0F0F_0000_0000,
     0xF0F0_F0F0_0000_0000], dtype=np.uint64)

#: Columns of the classic weights: discs, mobility, potential mobility, corners, X-squares.
CLASSIC_TERMS = ("discs", "mobility", "potential_mobility", "corners", "x_squares")


def classic_weights() -> np.ndarray:
    """Hand-set classic weights, ``int64[N_STAGES, 5]`` in centi-discs per unit.

    Discs count little (even negatively) early and fully at the end; mobility and
    potential mobility matter most in the midgame; corners are worth a lot and X-squares
    next to an empty corner cost a lot, less so as the game ends.
    """
    w = np.zeros((N_STAGES, 5), dtype=np.int64)
    for s in range(N_STAGES):
        e = 4 * s + 2  # empties at the middle of the stage
        late = max(0.0, (20 - e) / 20)  # 1 at the end, 0 from 20 empties up
        w[s, 0] = round(-10 + 110 * late)
        w[s, 1] = round(60 * (1 - late) + 10)
        w[s, 2] = round(25 * (1 - late))
        w[s, 3] = round(500 * (1 - late) + 100)
        w[s, 4] = round(-250 * (1 - late) - 30)
    return w


@njit
def classic_eval(p: np.uint64, o: np.uint64, w: np.ndarray) -> int:
    """Classic evaluation (seed 002) of (p, o) for the side to move, in centi-discs."""
    return classic_mobility(p, o, popcount(legal_moves(p, o)), popcount(legal_moves(o, p)), w)


@njit(inline="always")
def classic_mobility(p: np.uint64, o: np.uint64, mp: int, mo: int, w: np.ndarray) -> int:
    """:func:`classic_eval` given the numbers of legal moves of both sides."""
    np_ = popcount(p)
    no = popcount(o)
    if np_ == 0:
        return -WIPEOUT
    if no == 0:
        return WIPEOUT
    s = stage(64 - np_ - no)
    total = w[s, 0] * (np_ - no)
    total += w[s, 1] * (mp - mo)
    total += w[s, 2] * (potential_mobility(p, o) - potential_mobility(o, p))
    empty = ~(p | o)
    cp = 0
    co = 0
    xp = 0
    xo = 0
    for q in range(4):
        quad = _QUADRANT[q]
        a = popcount(p & quad & _CORNER[q])
        b = popcount(o & quad & _CORNER[q])
        cp += a * a
        co += b * b
        if empty & _CORNER[q]:
            a = popcount(p & _XSQ[q])
            b = popcount(o & _XSQ[q])
            xp += a * a
            xo += b * b
    total += w[s, 3] * (cp - co) + w[s, 4] * (xp - xo)
    if total > MAX_EVAL:
        return MAX_EVAL
    if total < -MAX_EVAL:
        return -MAX_EVAL
    return total


# -- weights files --------------------------------------------------------------------------

WEIGHTS_MAGIC = "bitgames-othello-weights-1"


@dataclass
class Weights:
    """Pattern weights for every stage: ``table`` is ``int32[N_STAGES, N_WEIGHTS]``.

    Stored compactly (``.npz``): per stage, the indices and ``int16`` values of the nonzero
    weights. ``meta`` records how they were made.
    """

    table: np.ndarray
    meta: dict[str, str]

    @classmethod
    def zeros(cls) -> Weights:
        return cls(np.zeros((N_STAGES, P.N_WEIGHTS), dtype=np.int32), {})

    def save(self, path: str | Path) -> None:
        """Write the weights to ``path`` (``.npz``) atomically: a crash or a full disk
        leaves the old file whole (:func:`bitgames.core.files.atomic_write`)."""
        arrays: dict[str, np.ndarray] = {"magic": np.array(WEIGHTS_MAGIC),
                                         "n_weights": np.array(P.N_WEIGHTS)}
        for s in range(N_STAGES):
            idx = np.flatnonzero(self.table[s]).astype(np.int32)
            arrays[f"idx{s}"] = idx
            arrays[f"val{s}"] = np.clip(self.table[s, idx], -32768, 32767).astype(np.int16)
        for k, v in self.meta.items():
            arrays[f"meta_{k}"] = np.array(str(v))
        with atomic_write(path, "Othello weights") as f:
            np.savez_compressed(f, **arrays)  # type: ignore[arg-type]

    def kernel_table(self) -> np.ndarray:
        """The table as the search kernels read it: ``int16`` centi-discs, half the cache
        footprint of ``int32`` (values clipped to the int16 range)."""
        return np.clip(self.table, -32767, 32767).astype(np.int16)

    @classmethod
    def load(cls, source: str | Path | bytes) -> Weights:
        """Read a weights file (path or bytes); a
        :class:`~bitgames.core.files.FileError` naming the file and what is wrong if it
        is not one (empty, truncated, another kind of file, pickled data, arrays missing,
        of the wrong kind or out of range).

        >>> Weights.load(b"PK")
        Traceback (most recent call last):
        ...
        bitgames.core.files.FileError: <bytes>: Othello weights: not an .npz archive (no \
zip directory: a truncated or different file)
        """
        what = "Othello weights"
        spec: dict[str, tuple[str, int | None]] = {"magic": ("U", 0), "n_weights": ("iu", 0)}
        for s in range(N_STAGES):
            spec[f"idx{s}"] = ("iu", 1)
            spec[f"val{s}"] = ("iu", 1)
        data = load_npz(source, what, spec, prefix="meta_")
        name = "<bytes>" if isinstance(source, bytes) else str(source)
        if str(data["magic"]) != WEIGHTS_MAGIC or int(data["n_weights"]) != P.N_WEIGHTS:
            raise FileError(f"{name}: {what}: not a weights file of this pattern set "
                            f"({data['magic']}, {int(data['n_weights'])} weights)")
        table = np.zeros((N_STAGES, P.N_WEIGHTS), dtype=np.int32)
        for s in range(N_STAGES):
            idx, val = data[f"idx{s}"], data[f"val{s}"]
            if idx.shape != val.shape or (idx.size and not (
                    0 <= idx.min() and idx.max() < P.N_WEIGHTS)):
                raise FileError(f"{name}: {what}: stage {s}: indices out of range or not "
                                "one per value")
            table[s, idx] = val
        meta = {k[5:]: str(v) for k, v in data.items() if k.startswith("meta_")}
        return cls(table, meta)


class Evaluation(NamedTuple):
    """The tables of the static evaluations, as the search kernels take them."""

    #: pattern weights by stage (int16 centi-discs, :meth:`Weights.kernel_table`)
    weights: np.ndarray
    #: the pattern gather table and the base-3 index table of the pattern evaluation
    gather: np.ndarray
    b3: np.ndarray
    #: the weights of the classic evaluation
    classic: np.ndarray


SHIPPED_WEIGHTS = "weights.npz"


def default_weights() -> Weights | None:
    """The weights shipped in ``bitgames/othello/data`` (None if absent)."""
    ref = resources.files("bitgames.othello") / "data" / SHIPPED_WEIGHTS
    if not ref.is_file():
        return None
    return Weights.load(ref.read_bytes())


@register_warmup("othello", "engine")
def _warm() -> None:
    from bitgames.othello.kernels import start_position

    p, o = start_position()
    w = np.zeros((N_STAGES, P.N_WEIGHTS), dtype=np.int16)  # the engine's weights are int16
    evaluate(p, o, w, GATHER, B3)
    classic_eval(p, o, classic_weights())


@register_warmup("othello", "train")
def _warm_train() -> None:
    from bitgames.othello.kernels import start_position

    p, o = start_position()
    batch_features(np.array([p], dtype=np.uint64), np.array([o], dtype=np.uint64), GATHER, B3)
