"""Othello evaluation patterns and how their base-3 indices are gathered from bitboards.

A *pattern* is an ordered list of squares (its canonical form, drawn at the a1 corner or
on the lower half); its *instances* are the images of that list under the eight board
symmetries, with duplicates (same square set) removed. Every instance of a pattern reads
its squares as a base-3 number in the canonical order — digit 0 empty, 1 a disc of the
side to move, 2 an opponent disc, first square most significant — and all instances of
a pattern share one weight table. So a position and its mirror image get the same
evaluation by construction.

Patterns (Logistello/NTest style; ``docs/REFERENCES.md``):

========  ========  =========  =======================================================
name      squares   instances  squares of the canonical instance
========  ========  =========  =======================================================
hv1       8         4          a1..h1 (the edge row)
hv2       8         4          a2..h2
hv3       8         4          a3..h3
hv4       8         4          a4..h4
d8        8         2          a1 b2 .. h8
d7        7         4          b1 c2 .. h7
d6        6         4          c1 d2 .. h6
d5        5         4          d1 e2 .. h5
d4        4         4          e1 f2 g3 h4
c3x3      9         4          a1 b1 c1 a2 b2 c2 a3 b3 c3
c2x5      10        8          a1 b1 c1 d1 e1 a2 b2 c2 d2 e2
e2x       10        4          a1 b1 c1 d1 e1 f1 g1 h1 b2 g2 (edge + 2 X-squares)
========  ========  =========  =======================================================

That is 50 pattern instances. How each instance's index is computed (method numbers
as in :data:`METHOD_NAMES`):

1. **one multiply** (the seed's folded gather + base-3 conversion): ``((x & mask) * M) >>
   s & (2**w - 1)`` is directly the base-3 number of the instance's discs; the index is
   ``f(p) + 2 f(o)``. It works when the sum of the powers of three fits between two
   squares of the line: every 5-long diagonal (7 or 9 bits apart, 3^0+..+3^4 = 121 < 128)
   and the two 6-long diagonals in the a1-h8 direction (9 bits apart, 364 < 512). The
   d6 and d5 instances computed this way read their squares in ascending order, as the
   multiply produces them; the pattern is symmetric under reversal of the
   line, so all instances still agree.
2. **magic gather + table**: ``((x & mask) * M) >> (64 - n)`` gathers the instance's n
   bits in ascending square order (columns, other diagonals), then a small table (2^n
   entries) maps the gathered bits to base-3 digits in the canonical order:
   ``T[g(p)] + 2 T[g(o)]``. The table does the base-2 to base-3 conversion and the
   reordering of a symmetric image at once; instances that gather alike share a table
   (all tables together take 16 kB, see :data:`B3`).
3. **shift gather + table**: runs of adjacent squares on one row are shifted into place
   and OR-ed (rows: one shift; 3x3 corners: three; 2x5 corners along a row: two;
   edge + 2X: three), then the per-instance table as in 2. Instances where no single
   magic exists and more than 3 row runs would be needed (2x5 corners along a column)
   use a magic multiply for the part that allows it (see :func:`_plan`).

Every method is checked against a plain square-by-square computation in
``tests/othello/test_eval.py``. Scalar features (mobility of both sides, potential
mobility of both sides, parity, a constant) are one-hot "patterns" too, so training
treats every weight alike.

>>> [p.name for p in PATTERNS][:4]
['hv1', 'hv2', 'hv3', 'hv4']
>>> N_INSTANCES
50
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MASK64 = (1 << 64) - 1
METHOD_NAMES = {1: "one multiply (base 3 directly)", 2: "magic gather + table",
                3: "shift gather + table"}
MAX_TERMS = 3  # gather terms per instance (shift runs or magic multiplies)


def sq(name: str) -> int:
    """Square index of ``"a1"`` .. ``"h8"``."""
    return "abcdefgh".index(name[0]) + 8 * (int(name[1]) - 1)


def _squares(names: str) -> tuple[int, ...]:
    return tuple(sq(n) for n in names.split())


@dataclass(frozen=True)
class Pattern:
    """A pattern: a name and its canonical ordered squares."""

    name: str
    squares: tuple[int, ...]

    @property
    def size(self) -> int:
        return 3 ** len(self.squares)


PATTERNS: tuple[Pattern, ...] = (
    Pattern("hv1", _squares("a1 b1 c1 d1 e1 f1 g1 h1")),
    Pattern("hv2", _squares("a2 b2 c2 d2 e2 f2 g2 h2")),
    Pattern("hv3", _squares("a3 b3 c3 d3 e3 f3 g3 h3")),
    Pattern("hv4", _squares("a4 b4 c4 d4 e4 f4 g4 h4")),
    Pattern("d8", _squares("a1 b2 c3 d4 e5 f6 g7 h8")),
    Pattern("d7", _squares("b1 c2 d3 e4 f5 g6 h7")),
    Pattern("d6", _squares("h6 g5 f4 e3 d2 c1")),
    Pattern("d5", _squares("h5 g4 f3 e2 d1")),
    Pattern("d4", _squares("e1 f2 g3 h4")),
    Pattern("c3x3", _squares("a1 b1 c1 a2 b2 c2 a3 b3 c3")),
    Pattern("c2x5", _squares("a1 b1 c1 d1 e1 a2 b2 c2 d2 e2")),
    Pattern("e2x", _squares("a1 b1 c1 d1 e1 f1 g1 h1 b2 g2")),
)

#: Scalar features, each a one-hot table: (name, number of values).
SCALARS: tuple[tuple[str, int], ...] = (
    ("mobility_p", 33), ("mobility_o", 33), ("potential_p", 49), ("potential_o", 49),
    ("parity", 2), ("bias", 1),
)


def _sym(s: int, k: int) -> int:
    """Image of square ``s`` under symmetry ``k`` (0-7) of the board."""
    f, r = s % 8, s // 8
    if k & 1:
        f = 7 - f
    if k & 2:
        r = 7 - r
    if k & 4:
        f, r = r, f
    return 8 * r + f


def _instances(pattern: Pattern) -> list[tuple[int, ...]]:
    seen: set[frozenset[int]] = set()
    out = []
    for k in range(8):
        img = tuple(_sym(s, k) for s in pattern.squares)
        key = frozenset(img)
        if key not in seen:
            seen.add(key)
            out.append(img)
    return out


Term = tuple[int, int, int, int]


def _apply_terms(x: int, terms: list[Term]) -> int:
    g = 0
    for m, k, s, t in terms:
        g |= ((((x & m) * k) & MASK64) >> s) << t
    return g


def _gather_map(bits: list[int], terms: list[Term]) -> list[int] | None:
    """Gathered bit position of each square, if the terms gather exactly (else None).

    Exact means: every square lands on its own bit below 2^10, and for every subset of
    the squares the gathered word is the OR of their bits (no carries, no garbage).
    """
    pos = []
    for b in bits:
        g = _apply_terms(1 << b, terms)
        if g == 0 or g & (g - 1) or g >= 1 << 10:
            return None
        pos.append(g.bit_length() - 1)
    if len(set(pos)) != len(pos):
        return None
    for sub in range(1 << len(bits)):
        x = sum(1 << bits[j] for j in range(len(bits)) if sub >> j & 1)
        want = sum(1 << pos[j] for j in range(len(bits)) if sub >> j & 1)
        if _apply_terms(x, terms) != want:
            return None
    return pos


def _magic_candidates(bits: list[int], out0: int, n_total: int) -> list[list[Term]]:
    """Single-multiply gathers to try for ``bits``."""
    mask = sum(1 << b for b in bits)
    cands: list[list[Term]] = []
    top = 64 - len(bits)
    magic = 0
    ok = True
    for j, b in enumerate(bits):  # ascending order into the top bits, then shifted to out0
        e = top + j - b
        if e < 0:
            ok = False
            break
        magic |= 1 << e
    if ok:
        cands.append([(mask, magic & MASK64, top, out0)])
    cands.append([(mask, 0x0101_0101_0101_0101, 56, out0)])  # by file into the top byte
    low = min(b % 8 for b in bits)
    if all(b % 8 == low for b in bits):  # a column: by rank
        cands.append([(mask, (0x0102_0408_1020_4080 >> low), 56, out0)])
    return cands


def _run_terms(bits: list[int]) -> list[Term]:
    """Shift terms for runs of consecutive bits (ascending order into 0..n-1)."""
    terms = []
    j = 0
    while j < len(bits):
        k = j
        while k + 1 < len(bits) and bits[k + 1] == bits[k] + 1:
            k += 1
        mask = sum(1 << bits[i] for i in range(j, k + 1))
        shift = bits[j] - j
        if shift >= 0:
            terms.append((mask, 1, shift, 0))
        else:
            terms.append((mask, 1, 0, -shift))
        j = k + 1
    return terms


def _plan(inst: tuple[int, ...]) -> tuple[int, list[Term], list[int]]:
    """Choose method 2 or 3 for an instance: (method, gather terms, gathered positions)."""
    bits = sorted(inst)
    n = len(bits)
    runs = _run_terms(bits)
    if len(runs) == 1:
        pos = _gather_map(bits, runs)
        assert pos is not None
        return 3, runs, pos
    for cand in _magic_candidates(bits, 0, n):
        pos = _gather_map(bits, cand)
        if pos is not None:
            return 2, cand, pos
    if len(runs) <= MAX_TERMS:
        pos = _gather_map(bits, runs)
        assert pos is not None
        return 3, runs, pos
    files = sorted({b % 8 for b in bits})
    for f in files:  # two magic multiplies: one file, then the rest
        part1 = [b for b in bits if b % 8 == f]
        part2 = [b for b in bits if b % 8 != f]
        for a in _magic_candidates(part1, 0, n):
            for b in _magic_candidates(part2, len(part1), n):
                pos = _gather_map(bits, a + b)
                if pos is not None:
                    return 2, a + b, pos
    raise AssertionError(f"no gather plan for {inst}")


def _one_multiply(inst: tuple[int, ...]) -> tuple[int, int, int, int, int] | None:
    """(pre-shift, mask, multiplier, shift, field mask) giving the base-3 index at once.

    ``((((x >> pre) & mask) * mult) >> shift) & field`` is the instance's base-3 number
    with the squares in ascending order (lowest square most significant). Works for evenly
    spaced squares (step ``d``) when the powers of three fit in ``d`` bits, so that no
    carry crosses from one copy of the powers into the next (seed 000).
    """
    bits = sorted(inst)
    n = len(bits)
    d = bits[1] - bits[0]
    if any(bits[i + 1] - bits[i] != d for i in range(n - 1)):
        return None
    if sum(3**i for i in range(n)) >= 1 << d:
        return None
    pre = bits[0]
    rel = [b - pre for b in bits]
    field = rel[-1]
    if field + d > 64:
        return None
    mult = 0
    for j in range(n):  # the square rel[j] meets 3^(n-1-j) exactly at the field
        mult += 3 ** (n - 1 - j) << (field - rel[j])
    mask = sum(1 << b for b in rel)
    fmask = (1 << d) - 1
    for g in range(1 << n):  # exhaustive check
        x = sum(1 << bits[j] for j in range(n) if g >> j & 1)
        want = sum(3 ** (n - 1 - j) for j in range(n) if g >> j & 1)
        got = (((((x >> pre) & mask) * mult) & MASK64) >> field) & fmask
        if got != want:
            return None
    return pre, mask, mult & MASK64, field, fmask


def _share(tables: list[np.ndarray]) -> dict[str, np.ndarray]:
    """Concatenate the distinct base-3 tables: ``{"b3": all, "b3_base": start per instance}``.

    Instances whose gathered bits map to the same digits (every row and column gathered in
    canonical order, say) share one table, so all of them fit in 16 kB (L1 cache).
    """
    start: dict[bytes, int] = {}
    parts: list[np.ndarray] = []
    base = []
    size = 0
    for table in tables:
        key = table.tobytes()
        if key not in start:
            start[key] = size
            parts.append(table)
            size += len(table)
        base.append(start[key])
    return {"b3": np.concatenate(parts), "b3_base": np.array(base, dtype=np.int64)}


def _build() -> dict[str, np.ndarray]:
    inst_pattern, inst_method = [], []
    term_list: list[list[Term]] = []
    tables: list[np.ndarray] = []
    inst_squares: list[tuple[int, ...]] = []
    one_mul: list[tuple[int, int, int, int, int]] = []
    offsets = [0]
    for pi, pattern in enumerate(PATTERNS):
        offsets.append(offsets[-1] + pattern.size)
        for inst in _instances(pattern):
            om = _one_multiply(inst) if pattern.name in ("d5", "d6") else None
            n = len(inst)
            if om is not None:
                # digits come out in ascending square order: reorder the instance to match
                ordered = tuple(sorted(inst))
                # the canonical order must be this instance's order up to the line's
                # reversal symmetry (a line read backwards is still a symmetric image)
                inst = ordered
                inst_method.append(1)
                one_mul.append(om)
                term_list.append([])
            else:
                method, t, pos = _plan(inst)
                inst_method.append(method)
                one_mul.append((0, 0, 0, 0, 0))
                term_list.append(t)
            bits = sorted(inst)
            table = np.zeros(0, dtype=np.int16)
            if om is None:
                table = np.zeros(1 << (max(pos) + 1), dtype=np.int16)
                for g in range(1 << n):
                    gathered = sum(1 << pos[j] for j in range(n) if g >> j & 1)
                    table[gathered] = sum(3 ** (n - 1 - inst.index(bits[j]))
                                          for j in range(n) if g >> j & 1)
            tables.append(table)
            inst_pattern.append(pi)
            inst_squares.append(inst)
    n_inst = len(inst_pattern)
    terms = np.zeros((n_inst, MAX_TERMS, 4), dtype=np.uint64)
    for i, t in enumerate(term_list):
        assert len(t) <= MAX_TERMS
        for j, term in enumerate(t):
            terms[i, j] = term
    squares = np.full((n_inst, 10), -1, dtype=np.int64)
    for i, inst in enumerate(inst_squares):
        squares[i, : len(inst)] = inst
    scalar_offsets = []
    total = offsets[-1]
    for _, size in SCALARS:
        scalar_offsets.append(total)
        total += size
    return {
        "inst_pattern": np.array(inst_pattern, dtype=np.int64),
        "inst_method": np.array(inst_method, dtype=np.int64),
        "inst_offset": np.array([offsets[p] for p in inst_pattern], dtype=np.int64),
        "terms": terms,
        **_share(tables),
        "one_mul": np.array(one_mul, dtype=np.uint64),
        "squares": squares,
        "pattern_offsets": np.array(offsets, dtype=np.int64),
        "scalar_offsets": np.array(scalar_offsets, dtype=np.int64),
        "n_weights": np.array([total], dtype=np.int64),
    }


_T = _build()
INST_PATTERN: np.ndarray = _T["inst_pattern"]
INST_METHOD: np.ndarray = _T["inst_method"]
#: Offset of each instance's pattern table in one stage's weight vector.
INST_OFFSET: np.ndarray = _T["inst_offset"]
#: Gather terms per instance: ``((x & mask) * mult >> rshift) << lshift``, OR-ed together.
TERMS: np.ndarray = _T["terms"]
#: Base-2 to base-3 tables (gathered bits -> canonical base-3 value), ``int16``, shared by
#: the instances that gather alike; instance ``i`` reads ``B3[B3_BASE[i] + gathered]``.
B3: np.ndarray = _T["b3"]
B3_BASE: np.ndarray = _T["b3_base"]
#: Method 1 constants per instance: (pre-shift, mask, multiplier, shift, field mask).
ONE_MUL: np.ndarray = _T["one_mul"]
#: Squares of each instance in canonical digit order (most significant first), -1 padded.
INST_SQUARES: np.ndarray = _T["squares"]
PATTERN_OFFSETS: np.ndarray = _T["pattern_offsets"]
SCALAR_OFFSETS: np.ndarray = _T["scalar_offsets"]
#: Number of weights in one stage.
N_WEIGHTS = int(_T["n_weights"][0])
N_INSTANCES = len(INST_PATTERN)
#: Number of features per position (pattern instances + scalar features).
N_FEATURES = N_INSTANCES + len(SCALARS)


def _pack() -> np.ndarray:
    """Map every weight index to a canonical one shared by the pattern's self-symmetries.

    A pattern whose square set is mapped onto itself by a board symmetry (a line by its
    reversal, the 3x3 corner by the diagonal through the corner, edge + 2X by the mirror)
    sees the same configuration under two indices; training ties those weights so that
    the evaluation is exactly symmetric.
    """
    pack = np.arange(N_WEIGHTS, dtype=np.int64)
    for k, pattern in enumerate(PATTERNS):
        squares = list(pattern.squares)
        n = len(squares)
        idx = np.arange(3**n, dtype=np.int64)
        digits = np.stack([(idx // 3 ** (n - 1 - j)) % 3 for j in range(n)])
        best = idx.copy()
        for sym in range(8):
            img = [_sym(s, sym) for s in squares]
            if set(img) != set(squares):
                continue
            perm = [squares.index(t) for t in img]  # digit j moves to position perm[j]
            new = np.zeros_like(idx)
            for j in range(n):
                new += digits[j] * 3 ** (n - 1 - perm[j])
            best = np.minimum(best, new)
        off = int(PATTERN_OFFSETS[k])
        pack[off:off + 3**n] = off + best
    return pack


#: Canonical weight index of each weight index (see :func:`_pack`).
PACK = _pack()


def index_reference(p: int, o: int, instance: int) -> int:
    """The base-3 index of one instance, square by square (slow; for tests).

    >>> index_reference(0, 1, 0)  # a1 holds an opponent disc: most significant digit 2
    4374
    """
    v = 0
    for s in INST_SQUARES[instance]:
        if s < 0:
            break
        v = 3 * v + (1 if p >> int(s) & 1 else 2 if o >> int(s) & 1 else 0)
    return v


def describe() -> list[dict[str, object]]:
    """One row per instance: pattern, squares and index method (for docs and tests)."""
    names = "abcdefgh"
    rows = []
    for i in range(N_INSTANCES):
        squares = [f"{names[s % 8]}{s // 8 + 1}" for s in INST_SQUARES[i] if s >= 0]
        rows.append({"pattern": PATTERNS[INST_PATTERN[i]].name, "squares": " ".join(squares),
                     "method": METHOD_NAMES[int(INST_METHOD[i])]})
    return rows


GENERATED_MODULE = "eval_gen.py"


def _term_expr(x: str, m: int, k: int, rs: int, ls: int) -> str:
    e = f"({x} & U({m:#x}))"
    if k != 1:
        e = f"({e} * U({k:#x}))"
    if rs:
        e = f"({e} >> U({rs}))"
    if ls:
        e = f"({e} << U({ls}))"
    return e


def _gather_expr(i: int, x: str) -> str:
    if INST_METHOD[i] == 1:
        pre, m, k, s, f = (int(v) for v in ONE_MUL[i])
        inner = f"({x} >> U({pre}))" if pre else x
        return f"np.int64(((({inner} & U({m:#x})) * U({k:#x})) >> U({s})) & U({f:#x}))"
    terms = [tuple(int(v) for v in TERMS[i, t]) for t in range(MAX_TERMS) if TERMS[i, t, 0]]
    g = " | ".join(_term_expr(x, *t) for t in terms)
    if len(terms) > 1:
        g = f"({g})"
    return f"np.int64(b3[{int(B3_BASE[i])} + {g}])"


def generate_kernel_source() -> str:
    """Source of ``eval_gen.py``: the pattern sum as straight-line code, constants inlined.

    The same gathers as the table-driven :func:`bitgames.othello.eval.instance_index`, but
    written out per instance so that the compiler sees every mask, multiplier and shift as a
    constant. ``tests/othello/test_eval.py`` checks that the file is up to date.
    """
    lines = [
        '"""Generated by ``bitgames.othello.patterns.generate_kernel_source()``: do not edit.',
        "",
        "The sum of the pattern weights of a position, one line per pattern instance (see",
        ":mod:`bitgames.othello.patterns` for the method used by each instance).",
        '"""',
        "",
        "# ruff: noqa: E501",
        "",
        "from __future__ import annotations",
        "",
        "import numpy as np",
        "",
        "from bitgames.core.jit import njit",
        "",
        "U = np.uint64",
        "",
        "",
        "@njit",
        "def pattern_sum(p: np.uint64, o: np.uint64, w: np.ndarray, s: int, b3: np.ndarray"
        ") -> int:",
        '    """Sum over the 50 instances of ``w[s, offset + base-3 index]``."""',
        "    t = np.int64(0)",
    ]
    for i, row in enumerate(describe()):
        off = int(INST_OFFSET[i])
        lines.append(f"    # {i}: {row['pattern']} {row['squares']} ({row['method']})")
        lines.append(f"    t += w[s, {off} + {_gather_expr(i, 'p')}"
                     f" + 2 * {_gather_expr(i, 'o')}]")
    lines.append("    return t")
    return "\n".join(lines) + "\n"
