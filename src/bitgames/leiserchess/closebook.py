"""Closebook: exact values of every position with both Kings and at most one Pawn.

Solved by retrograde analysis (:mod:`bitgames.core.retro`) over our own move generator.
A *state* is a position seen from the side to move (a Lavender-to-move position is turned
180 degrees with the colours swapped, which the rules do not notice) plus its Ko state:
which swap would undo the opponent's last move (0 none, 1 the two Kings, 2 the Pawn and
the King of the other colour). Pieces are coded ``square * 4 + orientation`` (256 codes).

* Kings table: ``(ko * 256 + mover_king) * 256 + other_king``, ko 0..1 (131 072 states).
* Pawn table: ``(((ko * 2 + owner) * 256 + pawn) * 256 + mover_king) * 256 + other_king``,
  ko 0..2, owner 0 = the side to move's Pawn (100 663 296 states).

Values are stored two bits per state: 0 draw, 1 win, 2 loss (for the side to move), 3 not
a position (pieces on one square, or the side that just moved still has its beam on a
piece, which cannot arise). Cycles (repetitions) are draws; the 50-move rule is not
modelled. The pawn table takes a few minutes to build (``bitgames leiserchess closebook
build``); ``--kings-only`` takes a second.

>>> book = build(kings_only=True)
>>> from bitgames.leiserchess.board import Board
>>> book.probe(Board("7ww/8/8/8/8/8/7WW/8 W"))  # h1R zaps the Lavender King
'win'
>>> book.probe(Board("ss7/8/8/8/8/8/8/WW7 W")) is None  # Lavender's beam is on h0: unreachable
True
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bitgames.core import retro
from bitgames.core.bits import ctz, popcount
from bitgames.core.engine import StopSignal
from bitgames.core.files import FileError, atomic_write, file_lock, load_npz
from bitgames.core.jit import njit, register_warmup
from bitgames.leiserchess.kernels import (
    BLACK_KING_ZAPPED,
    MAX_MOVES,
    NEIGHBOURS,
    WHITE_KING_ZAPPED,
    gen_moves,
    laser_path,
    make_move,
    same_board,
    trace,
)

U = np.uint64
ONE = U(1)
ZERO = U(0)

N_KINGS = 2 * 256 * 256
N_PAWN = 3 * 2 * 256 * 256 * 256
MAX_PREDS = 80

CODE_DRAW = 0
CODE_WIN = 1
CODE_LOSS = 2
CODE_INVALID = 3
RESULT_NAMES = ("draw", "win", "loss")
#: File format version (2: code 3 marks states that are not positions).
VERSION = 2


@njit(inline="always")
def _rot(code: int) -> int:
    """Code of a piece after turning the board 180 degrees."""
    return (63 - (code >> 2)) * 4 + ((code + 2) & 3)


@njit
def board_of(has_pawn: int, owner: int, p: int, a: int, b: int) -> Any:
    """Bitboards with the side to move as Tangerine: mover King ``a``, other King ``b``,
    Pawn ``p`` owned by the mover (``owner`` 0) or the other side (1)."""
    abit = ONE << U(a >> 2)
    bbit = ONE << U(b >> 2)
    w = abit
    bl = bbit
    k = abit | bbit
    o0 = ZERO
    o1 = ZERO
    if a & 1:
        o0 |= abit
    if a & 2:
        o1 |= abit
    if b & 1:
        o0 |= bbit
    if b & 2:
        o1 |= bbit
    if has_pawn:
        pbit = ONE << U(p >> 2)
        if owner == 0:
            w |= pbit
        else:
            bl |= pbit
        if p & 1:
            o0 |= pbit
        if p & 2:
            o1 |= pbit
    return w, bl, k, o0, o1


@njit(inline="always")
def _code_at(o0: np.uint64, o1: np.uint64, sq: int) -> int:
    s = U(sq)
    return sq * 4 + (np.int64((o0 >> s) & ONE) | (np.int64((o1 >> s) & ONE) << 1))


@njit
def state_index(w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64,
                side: int, ko: int) -> Any:
    """``(has_pawn, index)`` of a position with both Kings and at most one Pawn, or
    ``(-1, -1)`` for any other position."""
    if (k & w) == ZERO or (k & b) == ZERO or popcount(w | b) > 3:
        return -1, -1
    wk = _code_at(o0, o1, ctz(k & w))
    bk = _code_at(o0, o1, ctz(k & b))
    pawns = (w | b) & ~k
    if side == 0:
        a = wk
        bb = bk
    else:
        a = _rot(bk)
        bb = _rot(wk)
    if pawns == ZERO:
        return 0, (ko * 256 + a) * 256 + bb
    psq = ctz(pawns)
    pc = _code_at(o0, o1, psq)
    white_pawn = (w & pawns) != ZERO
    if side == 0:
        owner = 0 if white_pawn else 1
    else:
        owner = 1 if white_pawn else 0
        pc = _rot(pc)
    return 1, (((ko * 2 + owner) * 256 + pc) * 256 + a) * 256 + bb


@njit
def child_ko(w: np.uint64, b: np.uint64, k: np.uint64, mv: int) -> int:
    """Ko state created by move ``mv`` on this board (if nothing is zapped): 1 for a swap
    of the two Kings, 2 for a swap of a Pawn with the King of the other colour, else 0."""
    fr = mv & 63
    to = (mv >> 6) & 63
    if fr == to:
        return 0
    fbit = ONE << U(fr)
    tbit = ONE << U(to)
    occ = w | b
    if (occ & tbit) == ZERO:
        return 0
    if ((w & fbit) != ZERO) == ((w & tbit) != ZERO):
        return 0
    if (k & fbit) != ZERO and (k & tbit) != ZERO:
        return 1
    return 2


@njit
def _decode(i: int, has_pawn: int) -> Any:
    bb = i & 255
    a = (i >> 8) & 255
    if has_pawn == 0:
        return i >> 16, 0, 0, a, bb
    p = (i >> 16) & 255
    rest = i >> 24
    return rest >> 1, rest & 1, p, a, bb


@njit
def _valid_squares(has_pawn: int, p: int, a: int, b: int) -> bool:
    if (a >> 2) == (b >> 2):
        return False
    if has_pawn and ((p >> 2) == (a >> 2) or (p >> 2) == (b >> 2)):
        return False
    return True


@njit(nogil=True)
def init_table(values: np.ndarray, counts: np.ndarray, has_pawn: int,
               kings_values: np.ndarray, halt: np.ndarray, track: np.ndarray) -> None:
    """Seed values and move counts for :func:`bitgames.core.retro.solve` (forward pass).

    ``kings_values`` (the solved Kings table) gives the value of a move that zaps the Pawn.
    Returns early, the table unfinished, once ``halt[0]`` is set (read every 4,096 states);
    ``track[TRACK_SCANNED]`` follows the states done (see :data:`TRACK_SCANNED`).
    """
    n = values.shape[0]
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    for i in range(n):
        if (i & 4095) == 0:
            track[TRACK_SCANNED] = i
            if halt[0]:
                return
        ko, owner, p, a, bk = _decode(i, has_pawn)
        if not _valid_squares(has_pawn, p, a, bk):
            values[i] = retro.INVALID
            continue
        w, b, k, o0, o1 = board_of(has_pawn, owner, p, a, bk)
        # the side that just moved must have its beam off the board
        path, stop, kind = trace(w | b, k, o0, o1, bk >> 2)
        if kind != 0:
            values[i] = retro.INVALID
            continue
        enemy_path = laser_path(w, b, k, o0, o1, 1)
        nm = gen_moves(w, b, k, o0, o1, 0, enemy_path, moves)
        count = 0
        win = False
        for j in range(nm):
            mv = moves[j]
            cko = child_ko(w, b, k, mv)
            if ko != 0 and cko == ko:
                continue
            nw, nb, nk, n0, n1, zapped, res = make_move(w, b, k, o0, o1, 0, mv)
            if res == BLACK_KING_ZAPPED:
                win = True
                break
            if res == WHITE_KING_ZAPPED:
                continue
            if zapped == 0 and same_board(nw, nb, nk, n0, n1, w, b, k, o0, o1):
                continue
            if zapped > 0:
                hp, ci = state_index(nw, nb, nk, n0, n1, 1, 0)
                v = kings_values[ci]
                if v == retro.LOSS:
                    win = True
                    break
                if v == retro.DRAW or v == retro.UNKNOWN:
                    count += 1  # a drawn exit: never decremented
                continue
            count += 1
        if win:
            values[i] = retro.WIN
        elif count == 0:
            values[i] = retro.LOSS
        else:
            values[i] = retro.UNKNOWN
            counts[i] = count


@njit
def _predecessors(s: int, has_pawn: int, out: np.ndarray) -> int:
    ko_s, owner, p, a, bk = _decode(s, has_pawn)
    w, b, k, o0, o1 = board_of(has_pawn, owner, p, a, bk)
    # the previous mover (Lavender in this frame) fired after its move: beam off the board
    path, stop, kind = trace(w | b, k, o0, o1, bk >> 2)
    if kind != 0:
        return 0
    n_ko = 3 if has_pawn else 2
    n = 0
    movers = b
    while movers:
        sq = ctz(movers)
        movers &= movers - ONE
        sbit = ONE << U(sq)
        is_pawn = (k & sbit) == ZERO
        # (i) rotations: the piece was turned by r quarter turns to reach its orientation
        if ko_s == 0:
            for r in range(1, 4):
                code = _code_at(o0, o1, sq)
                ori = ((code & 3) - r) & 3
                q0 = (o0 & ~sbit) | (sbit if ori & 1 else ZERO)
                q1 = (o1 & ~sbit) | (sbit if ori & 2 else ZERO)
                if is_pawn and (laser_path(w, b, k, q0, q1, 0) & sbit) != ZERO:
                    continue
                hp, pi = state_index(w, b, k, q0, q1, 1, 0)
                for kp in range(n_ko):
                    out[n] = pi + (kp << 25 if has_pawn else kp << 16)
                    n += 1
        # (ii) steps from an empty neighbour, (iii) swaps with an occupied neighbour
        tos = NEIGHBOURS[sq]
        while tos:
            t = ctz(tos)
            tos &= tos - ONE
            tbit = ONE << U(t)
            occupied = ((w | b) & tbit) != ZERO
            if not occupied and ko_s != 0:
                continue
            # previous board: the piece stood on t, whatever is on t now stood on sq
            pw, pb, pk, q0, q1 = w, b, k, o0, o1
            both = sbit | tbit
            if ((pw & sbit) != ZERO) != ((pw & tbit) != ZERO):
                pw ^= both
            if ((pb & sbit) != ZERO) != ((pb & tbit) != ZERO):
                pb ^= both
            if ((pk & sbit) != ZERO) != ((pk & tbit) != ZERO):
                pk ^= both
            if ((q0 & sbit) != ZERO) != ((q0 & tbit) != ZERO):
                q0 ^= both
            if ((q1 & sbit) != ZERO) != ((q1 & tbit) != ZERO):
                q1 ^= both
            mv = t | (sq << 6)
            cko = child_ko(pw, pb, pk, mv)
            if cko != ko_s:
                continue
            if is_pawn and (laser_path(pw, pb, pk, q0, q1, 0) & tbit) != ZERO:
                continue
            hp, pi = state_index(pw, pb, pk, q0, q1, 1, 0)
            for kp in range(n_ko):
                if kp != 0 and kp == cko:
                    continue
                out[n] = pi + (kp << 25 if has_pawn else kp << 16)
                n += 1
    return n


@njit
def pawn_predecessors(s: int, ctx: np.ndarray, out: np.ndarray) -> int:
    """States of the Pawn table with a move into state ``s`` (one entry per move).

    ``ctx`` is the stop flag: once ``ctx[0]`` is set there are none, so that
    :func:`bitgames.core.retro.solve` empties its queue at once (the values are then
    unfinished)."""
    if ctx[0]:
        return 0
    return _predecessors(s, 1, out)


@njit
def kings_predecessors(s: int, ctx: np.ndarray, out: np.ndarray) -> int:
    """States of the Kings table with a move into state ``s`` (``ctx``: as for
    :func:`pawn_predecessors`)."""
    if ctx[0]:
        return 0
    return _predecessors(s, 0, out)


@njit
def pack(values: np.ndarray) -> np.ndarray:
    """Two bits per state: 0 draw, 1 win, 2 loss, 3 not a position."""
    n = values.shape[0]
    out = np.zeros((n + 3) // 4, dtype=np.uint8)
    for i in range(n):
        v = values[i]
        if v == retro.WIN:
            c = CODE_WIN
        elif v == retro.LOSS:
            c = CODE_LOSS
        elif v == retro.INVALID:
            c = CODE_INVALID
        else:
            c = CODE_DRAW
        out[i >> 2] |= np.uint8(c << ((i & 3) * 2))
    return out


@njit
def probe_code(packed_kings: np.ndarray, packed_pawn: np.ndarray, w: np.uint64,
               b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64, side: int,
               ko: int) -> int:
    """Stored code (0 draw, 1 win, 2 loss for the side to move, 3 not a reachable
    position), or -1 when the position is not covered (or its table is not loaded)."""
    hp, i = state_index(w, b, k, o0, o1, side, ko)
    if hp < 0:
        return -1
    table = packed_pawn if hp == 1 else packed_kings
    if table.shape[0] == 0:
        return -1
    if hp == 0 and ko > 1:
        return -1
    return np.int64((table[i >> 2] >> np.uint8((i & 3) * 2)) & np.uint8(3))


@njit
def ko_between(pw: np.uint64, pb: np.uint64, pk: np.uint64, p0: np.uint64, p1: np.uint64,
               w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64,
               o1: np.uint64) -> int:
    """Ko state of a position reached from the previous board by one move: 1 or 2 when
    that move swapped two pieces of different colours (Kings, or a Pawn and a King)
    without zapping anything, else 0."""
    if popcount(pw | pb) != popcount(w | b):
        return 0
    diff = (pw ^ w) | (pb ^ b) | (pk ^ k) | (p0 ^ o0) | (p1 ^ o1)
    if popcount(diff) != 2:
        return 0
    s1 = ctz(diff)
    s2 = ctz(diff & (diff - ONE))
    occ = pw | pb
    b1 = ONE << U(s1)
    b2 = ONE << U(s2)
    if (occ & b1) == ZERO or (occ & b2) == ZERO:
        return 0
    if ((pw & b1) != ZERO) == ((pw & b2) != ZERO):
        return 0
    # the two squares must have exchanged their contents
    if ((w & b1) != ZERO) != ((pw & b2) != ZERO):
        return 0
    if (pk & b1) != ZERO and (pk & b2) != ZERO:
        return 1
    return 2


@dataclass
class Closebook:
    """The two packed tables (the Pawn table may be empty: then only Kings-only
    positions are answered)."""

    kings: np.ndarray
    pawn: np.ndarray

    def probe(self, board: Any) -> str | None:
        """``'win'``, ``'loss'`` or ``'draw'`` for the side to move, or None when the
        position is not covered."""
        bb = tuple(U(x) for x in board.bitboards())
        ko = 0
        if len(board._boards) >= 2:
            prev = tuple(U(x) for x in board._boards[-2][0])
            ko = int(ko_between(*prev, *bb))
        code = int(probe_code(self.kings, self.pawn, *bb, board.side, ko))
        return None if code < 0 or code == CODE_INVALID else RESULT_NAMES[code]

    def save(self, path: str | Path) -> None:
        """Write the tables to ``path`` atomically and under the file's lock: a ``kill -9``
        or a full disk during the write leaves the old file (or none) in place, never
        a truncated one (:mod:`bitgames.core.files`)."""
        with file_lock(path, what=_WHAT), atomic_write(path, _WHAT) as f:
            np.savez_compressed(f, version=np.array([VERSION]), kings=self.kings,
                                pawn=self.pawn)

    @classmethod
    def load(cls, path: str | Path) -> Closebook:
        """Read the tables written by :meth:`save`; a
        :class:`~bitgames.core.files.FileError` naming the file and what is wrong
        (missing, empty, truncated, another kind of file, pickled data, another version,
        a table of the wrong size: the probe indexes them without checks).
        """
        p = Path(path)
        if not p.exists():
            raise FileError(
                f"{p}: {_WHAT}: no such file (no closebook built yet: build it with "
                "'bitgames leiserchess closebook build')")
        data = load_npz(p, _WHAT, {"version": ("iu", 1), "kings": ("u", 1),
                                   "pawn": ("u", 1)})
        if data["version"].tolist() != [VERSION]:
            raise FileError(f"{p}: {_WHAT}: version {data['version'].tolist()}, expected "
                            f"[{VERSION}]; rebuild it")
        kings, pawn = data["kings"], data["pawn"]
        for name, table, states, may_be_empty in (("kings", kings, N_KINGS, False),
                                                  ("pawn", pawn, N_PAWN, True)):
            size = (states + 3) // 4
            if table.dtype != np.uint8 or not (table.shape[0] == size
                                               or (may_be_empty and table.shape[0] == 0)):
                raise FileError(f"{p}: {_WHAT}: the {name} table holds {table.shape[0]} "
                                f"{table.dtype} values, expected {size} uint8")
        return cls(kings, pawn)


_WHAT = "Leiserchess closebook"


def default_path() -> Path:
    from bitgames.core.jit import cache_root

    return cache_root() / "leiserchess-closebook-v2.npz"


# retro.solve run without the GIL (numba-to-numba calls never take it), so that Ctrl-C
# is handled by the main thread while the work goes on in another (see core.engine.run_in_worker)
@njit(cache=False, nogil=True)
def _retro_solve(values: np.ndarray, counts: np.ndarray, predecessors: Any,
                 ctx: np.ndarray, progress: np.ndarray) -> int:
    return retro.solve(values, counts, np.zeros(0, dtype=np.int32), predecessors, ctx,
                       MAX_PREDS, progress)


def _no_stop(stop: np.ndarray | None) -> np.ndarray:
    return np.zeros(1, dtype=np.int64) if stop is None else stop


# Slots of the ``track`` array that follows a table's solve (:func:`new_track`): the states
# the forward pass has scanned, the states of the table, then the states the retrograde
# pass has taken from its queue and has queued (it is done when the last two meet).
TRACK_SCANNED, TRACK_STATES, TRACK_HEAD, TRACK_QUEUED = 0, 1, 2, 3


def new_track() -> np.ndarray:
    """An array for :func:`solve_kings` / :func:`solve_pawn` to report their progress in
    (slots :data:`TRACK_SCANNED` ... :data:`TRACK_QUEUED`), read by another thread."""
    return np.zeros(4, dtype=np.int64)


def _solve_table(values: np.ndarray, has_pawn: int, kings_values: np.ndarray,
                 predecessors: Any, log: Any, stop: np.ndarray | None,
                 track: np.ndarray | None) -> np.ndarray:
    stop = _no_stop(stop)
    track = new_track() if track is None else track
    t = time.perf_counter()
    counts = np.zeros(values.shape[0], dtype=np.uint8)
    track[TRACK_STATES] = values.shape[0]
    init_table(values, counts, has_pawn, kings_values, stop, track)
    if stop[0]:
        return values
    track[TRACK_SCANNED] = values.shape[0]
    if log:
        log(f"forward pass done in {time.perf_counter() - t:.1f} s")
    _retro_solve(values, counts, predecessors, stop, track[TRACK_HEAD:])
    if log:
        log(f"retrograde pass done in {time.perf_counter() - t:.1f} s")
    return values


def solve_kings(stop: np.ndarray | None = None, track: np.ndarray | None = None
                ) -> np.ndarray:
    """Solve the Kings-only table; return its ``retro`` values (one byte per state).

    ``stop`` (a :class:`~bitgames.core.engine.StopSignal`'s ``flag``) ends the work
    within a moment when set; the values are then unfinished. ``track`` (see
    :func:`new_track`) follows the work."""
    values = np.zeros(N_KINGS, dtype=np.uint8)
    return _solve_table(values, 0, values, kings_predecessors, None, stop, track)


def solve_pawn(kings_values: np.ndarray, log: Any = None,
               stop: np.ndarray | None = None, track: np.ndarray | None = None
               ) -> np.ndarray:
    """Solve the one-Pawn table (minutes); return its values (``stop`` and ``track``: as
    for :func:`solve_kings`)."""
    values = np.zeros(N_PAWN, dtype=np.uint8)
    return _solve_table(values, 1, kings_values, pawn_predecessors, log, stop, track)


def build(kings_only: bool = False, log: Any = None) -> Closebook:
    """Build the closebook (the Pawn table only unless ``kings_only``)."""
    kv = solve_kings()
    pawn = np.zeros(0, dtype=np.uint8)
    if not kings_only:
        pawn = pack(solve_pawn(kv, log))
    return Closebook(pack(kv), pawn)


def summary(values: np.ndarray) -> dict[str, int]:
    counts = np.bincount(values, minlength=5)
    return {retro.NAMES[i]: int(counts[i]) for i in (1, 2, 3, 4)}


def build_cli(args: argparse.Namespace) -> int:
    from bitgames.core.cli import INTERRUPTED, emit
    from bitgames.core.engine import run_stoppable
    from bitgames.core.progress import bar
    from bitgames.core.progress import note as log

    out = Path(args.out) if args.out else default_path()
    start = time.perf_counter()
    stop = StopSignal()
    record: dict[str, Any] = {}

    def solve_with_bar(name: str, job: Any) -> tuple[np.ndarray, bool]:
        track = new_track()
        with bar(None, f"{name}: forward pass", "state") as shown:
            retrograde = [False]

            def tick() -> None:
                if track[TRACK_QUEUED] == 0:  # still scanning the states
                    shown.total = int(track[TRACK_STATES]) or None
                    shown.update(int(track[TRACK_SCANNED]) - shown.n)
                    return
                if not retrograde[0]:
                    retrograde[0] = True
                    shown.set_description(f"{name}: retrograde pass")
                    shown.reset()
                shown.total = int(track[TRACK_QUEUED])  # grows as states are decided
                shown.update(int(track[TRACK_HEAD]) - shown.n)

            return run_stoppable(lambda: job(track), stop.set, tick)

    log("solving the Kings-only table...")
    kv, stopped = solve_with_bar("Kings", lambda track: solve_kings(stop.flag, track))
    pawn = np.zeros(0, dtype=np.uint8)
    if not stopped:
        record["kings"] = summary(kv)
    if not args.kings_only and not stopped:
        log("solving the one-Pawn table (about 10^8 states; a few minutes)...")
        pv, stopped = solve_with_bar("one Pawn",
                                     lambda track: solve_pawn(kv, log, stop.flag, track))
        if not stopped:
            record["pawn"] = summary(pv)
            pawn = pack(pv)
        del pv
    # finished work is saved when stopped later, unless a table is there already
    if "kings" in record and not (stopped and out.exists()):
        Closebook(pack(kv), pawn).save(out)
        record["path"] = str(out)
    record["seconds"] = round(time.perf_counter() - start, 1)
    if stopped:
        record["stopped"] = True
        saved = "the Kings-only table saved" if "path" in record else "nothing saved"
        emit(record, args.json, f"stopped: {saved}\n"
             + "\n".join(f"{k}: {v}" for k, v in record.items() if k != "stopped"))
        return INTERRUPTED
    emit(record, args.json, "\n".join(f"{k}: {v}" for k, v in record.items()))
    return 0


def probe_cli(args: argparse.Namespace) -> int:
    from bitgames.core.cli import emit
    from bitgames.leiserchess.board import Board

    book = Closebook.load(args.book or default_path())
    board = Board(args.fen)
    result = book.probe(board)
    emit({"fen": board.fen(), "result": result}, args.json,
         f"{board.fen()}: {result or 'not in the closebook'}")
    return 0


@register_warmup("leiserchess", "engine")
def _warm() -> None:
    z = U(0)
    probe_code(np.zeros(0, dtype=np.uint8), np.zeros(0, dtype=np.uint8), U(128), U(1 << 56),
               U(128 | (1 << 56)), z, z, 0, 0)
    ko_between(z, z, z, z, z, z, z, z, z, z)
