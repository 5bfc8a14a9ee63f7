"""Russian and English draughts for batched learning: many games stepped in one compiled call.

The kernels behind :class:`bitgames.env.VectorGame` for ``"draughts-russian"`` and
``"draughts-english"``. A batch is ``state = (pos, meta, history, mask, moves, count)``,
each array with the game as its first index:

- ``pos[i] = (white, black, kings)``: the bitboards of :mod:`bitgames.draughts.kernels`;
- ``meta[i]``: the side to move (0 White) and the counters of the draw rules, in plies, as
  :class:`bitgames.draughts.board.Board` keeps them (columns :data:`SIDE` ... :data:`ROAD`);
- ``history[i, q]``: the key of the position ``q`` plies after the last man move or
  capture (or the start), for repetitions. No position before such a move can come back
  (the men only go forwards, captured pieces never return, a crowned man stays a king),
  and after it the men stand still: the kings of each side, ``(white & kings) |
  (black & kings) << 32``, tell the positions apart, and the side to move is the parity
  of ``q``;
- ``mask[i, :count[i]]``: the legal action numbers of the side to move (the rest -1), and
  ``moves[j >> 4, i, j & 15]`` the packed move of ``mask[i, j]``: the first 16 moves of
  every game side by side, so that a step touches one cache line of them, not a page
  (with a row of :data:`~bitgames.draughts.kernels.MAX_MOVES` moves per game, 16,384
  games ran at 3.5 M steps/s on one thread instead of 4.6 M).

Actions are those of :class:`bitgames.env.codecs.Draughts`: ``(start * 32 + end) * 4 +
route``, ``route`` the rank of a capture's captured set among the legal captures with the
same start and end (smallest set first), 0 for every other move. A capture of rank 4 or
more has no number: it is left out of the list (and out of the random moves). Two
captures with the same start, end and captured set are one action (the first found is
played). The list holds at most :data:`~bitgames.draughts.kernels.MAX_MOVES` actions, the
move generator's own bound.

:func:`step_batch` plays ``actions[i]`` in every game over all cores (``prange``), one
call of :func:`_step_game` per game with every helper inlined. ``-1`` asks for a
uniformly random action of the list, drawn from the game's own stream
(:func:`bitgames.core.rng.below_at`); another action not in the list loses at once. The
game then ends as :meth:`Board.outcome <bitgames.draughts.board.Board.outcome>` says
with the variant's :class:`~bitgames.draughts.board.DrawRules`: the side to move without
a move loses, a draw rule draws; else it is cut after ``max_plies`` plies. A finished
game restarts at once. The legal moves are generated once per move, into a buffer of the
thread's own (``bufs[numba.get_thread_id()]``), and kept for the next step.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from numba import prange

from bitgames.core.bits import popcount
from bitgames.core.jit import njit, register_warmup
from bitgames.core.rng import below_at
from bitgames.draughts.board import MAIN_ROAD
from bitgames.draughts.geometry import COORDS
from bitgames.draughts.kernels import (
    ENGLISH,
    KEY_MASK,
    M32,
    MAX_MOVES,
    RUSSIAN,
    gen_moves,
    make_move,
    start_position,
)

U = np.uint64
RANDOM = -1
#: columns of ``meta``: side to move, plies played, plies of king moves without capture
#: (the kings-only and no-progress rules), plies without capture or crowning (the 4-7
#: piece endings), plies of 3 kings against a lone king, of the main-road ending
SIDE, PLIES, QUIET, BALANCE, LONE, ROAD = range(6)
#: the start position's men (both variants)
WHITE0, BLACK0 = (U(x) for x in start_position(RUSSIAN)[:2])
ROAD_MASK = U(MAIN_ROAD)
#: a packed move's start and end squares, once shifted down by 32 (start in the low bits)
ENDS = U(1023)
#: row (rank 8 on top) and column of each square, as :class:`bitgames.env.codecs.Draughts`
ROWS = np.array([7 - rank for _, rank in COORDS], np.int64)
COLS = np.array([file for file, _ in COORDS], np.int64)


def new_state(num_envs: int, history: int) -> tuple[np.ndarray, ...]:
    """The arrays of ``num_envs`` games whose repetitions reach back ``history`` plies."""
    n = num_envs
    return (np.zeros((n, 3), np.uint64), np.zeros((n, 6), np.int64),
            np.zeros((n, history + 1), np.uint64), np.full((n, MAX_MOVES), -1, np.int16),
            np.zeros((MAX_MOVES // 16, n, 16), np.uint64), np.zeros(n, np.int64))


def new_buffers() -> np.ndarray:
    """One move buffer (:func:`~bitgames.draughts.kernels.new_buffer` of one ply) per
    thread numba may run."""
    threads = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    return np.zeros((threads, 1, MAX_MOVES, 3), np.uint64)


@njit(nogil=True, inline="always")
def _three_kings_vs_one(w: np.uint64, b: np.uint64, k: np.uint64) -> bool:
    """Three kings or more against a lone king (either side strong)."""
    return ((popcount(b) == 1 and b & k != U(0) and popcount(w & k) >= 3)
            or (popcount(w) == 1 and w & k != U(0) and popcount(b & k) >= 3))


@njit(nogil=True, inline="always")
def _main_road(w: np.uint64, b: np.uint64, k: np.uint64) -> bool:
    """Three pieces, a king among them, against a lone king on the main road a1-h8."""
    return ((popcount(b) == 1 and b & k & ROAD_MASK != U(0) and popcount(w) == 3
             and w & k != U(0))
            or (popcount(w) == 1 and w & k & ROAD_MASK != U(0) and popcount(b) == 3
                and b & k != U(0)))


@njit(nogil=True, inline="always")
def _list(state: Any, buf: np.ndarray, i: int, variant: int) -> int:
    """Write game ``i``'s legal actions and their moves; return its number of legal
    moves (numbered or not)."""
    pos, meta, history, mask, moves, count = state
    zero = np.int64(0)  # not literals: the kernels keep their one signature
    n = gen_moves(pos[i, 0], pos[i, 1], pos[i, 2], meta[i, SIDE], variant, buf, zero,
                  zero + 1)
    kept = 0
    for j in range(n):
        mv = buf[0, j, 0] & KEY_MASK
        cap = mv & M32
        ends = (mv >> U(32)) & ENDS
        route = 0
        keep = True
        if cap != U(0):
            for m in range(n):
                other = buf[0, m, 0]
                if (other >> U(32)) & ENDS == ends:
                    oc = other & M32
                    if oc < cap:
                        route += 1
                    elif oc == cap and m < j:
                        keep = False
            keep = keep and route < 4
        if keep:
            start = np.int64(ends & U(31))
            end = np.int64(ends >> U(5))
            mask[i, kept] = (start * 32 + end) * 4 + route
            moves[kept >> 4, i, kept & 15] = mv
            kept += 1
    for j in range(kept, count[i]):
        mask[i, j] = -1
    count[i] = kept
    return n


@njit(nogil=True, inline="always")
def _restart(state: Any, buf: np.ndarray, i: int, variant: int, first: int) -> None:
    """Game ``i`` at the start position, its counters and history emptied."""
    pos, meta, history, mask, moves, count = state
    pos[i, 0] = WHITE0
    pos[i, 1] = BLACK0
    pos[i, 2] = U(0)
    for c in range(meta.shape[1]):
        meta[i, c] = 0
    meta[i, SIDE] = first
    history[i, 0] = U(0)  # no kings
    _list(state, buf, i, variant)


@njit(nogil=True, inline="always")
def _observe(state: Any, i: int, first: int, turn: np.ndarray, obs: np.ndarray) -> None:
    """Write ``obs[i] = (mover's men, mover's kings, opponent's men, opponent's kings)``
    and ``turn[i]`` (0: the side that starts)."""
    pos, meta, history, mask, moves, count = state
    side = meta[i, SIDE]
    k = pos[i, 2]
    own = pos[i, side]
    opp = pos[i, 1 - side]
    obs[i, 0] = np.uint32(own & ~k)
    obs[i, 1] = np.uint32(own & k)
    obs[i, 2] = np.uint32(opp & ~k)
    obs[i, 3] = np.uint32(opp & k)
    turn[i] = side ^ first


@njit(nogil=True, _nrt=False)
def _step_game(state: Any, rules: Any, rng: np.ndarray, buf: np.ndarray, out: Any, i: int,
               a: int) -> None:
    """:func:`step_batch` for game ``i``: one call per game, everything in it inlined."""
    pos, meta, history, mask, moves, count = state
    variant, first, max_plies, repetition, quiet_limit, lone_limit, road_limit, bal45, bal67 \
        = rules
    turn, played, obs, reward, done, truncated = out
    n = count[i]
    j = -1
    if a == RANDOM:
        j = below_at(rng, i, n)
    else:
        for m in range(n):
            if mask[i, m] == a:
                j = m
                break
    r = 0.0
    finished = True
    cut = False
    if j < 0:
        played[i] = a
        r = -1.0
    else:
        played[i] = mask[i, j]
        mv = moves[j >> 4, i, j & 15]
        w = pos[i, 0]
        b = pos[i, 1]
        k = pos[i, 2]
        king_move = k & (U(1) << ((mv >> U(32)) & U(31))) != U(0)
        capture = mv & M32 != U(0)
        w2, b2, k2, side2 = make_move(w, b, k, meta[i, SIDE], mv)
        pos[i, 0] = w2
        pos[i, 1] = b2
        pos[i, 2] = k2
        plies = meta[i, PLIES] + 1
        quiet = meta[i, QUIET] + 1 if king_move and not capture else 0
        balance = 0 if capture or (mv >> U(42)) & U(1) != U(0) else meta[i, BALANCE] + 1
        lone = 0
        road = 0
        if not capture:
            if _three_kings_vs_one(w2, b2, k2):
                lone = meta[i, LONE] + 1 if _three_kings_vs_one(w, b, k) else 1
            if _main_road(w2, b2, k2):
                road = meta[i, ROAD] + 1 if _main_road(w, b, k) else 1
        meta[i, SIDE] = side2
        meta[i, PLIES] = plies
        meta[i, QUIET] = quiet
        meta[i, BALANCE] = balance
        meta[i, LONE] = lone
        meta[i, ROAD] = road
        key = (w2 & k2) | ((b2 & k2) << U(32))
        seen = 1
        for q in range(quiet - 2, -1, -2):
            if history[i, q] == key:
                seen += 1
        history[i, quiet] = key
        if _list(state, buf, i, variant) == 0:
            r = 1.0  # the side to move has no move: the mover won
        else:
            limit = 0
            if w2 & k2 != U(0) and b2 & k2 != U(0):
                pieces = popcount(w2 | b2)
                if pieces == 4 or pieces == 5:
                    limit = bal45
                elif pieces == 6 or pieces == 7:
                    limit = bal67
            draw = ((repetition > 0 and seen >= repetition)
                    or (quiet_limit > 0 and quiet >= quiet_limit)
                    or (lone_limit > 0 and lone >= lone_limit)
                    or (road_limit > 0 and road >= road_limit)
                    or (limit > 0 and balance >= limit))
            cut = not draw and plies >= max_plies
            finished = draw or cut
    reward[i] = r
    done[i] = finished
    truncated[i] = cut
    if finished:
        _restart(state, buf, i, variant, first)
    _observe(state, i, first, turn, obs)


@njit(nogil=True, parallel=True)
def step_batch(state: Any, rules: Any, rng: np.ndarray, bufs: np.ndarray,
               actions: np.ndarray, out: Any) -> None:
    """One move in every game (``actions[i]``, ``RANDOM``: a random legal one).

    ``rules = (variant, first side, max_plies, repetition, quiet, lone, road, balance 4-5,
    balance 6-7)``: the variant's code, the side that starts (0 White), and the draw
    rules' limits in plies (0: off; the repetition limit counts occurrences); ``out =
    (turn, played, obs, reward, done, truncated)``, written for every game. ``bufs``:
    :func:`new_buffers`."""
    for i in prange(actions.shape[0]):
        _step_game(state, rules, rng, bufs[numba.get_thread_id()], out, i, actions[i])


@njit(nogil=True, _nrt=False)
def _restart_game(state: Any, rules: Any, buf: np.ndarray, turn: np.ndarray,
                  obs: np.ndarray, i: int) -> None:
    """Game ``i`` at the start, observed (a call of its own: inlined straight into the
    ``prange`` loop of :func:`restart_all`, its writes to ``meta`` and ``count`` were
    lost, numba 0.68)."""
    _restart(state, buf, i, rules[0], rules[1])
    _observe(state, i, rules[1], turn, obs)


@njit(nogil=True, parallel=True)
def restart_all(state: Any, rules: Any, bufs: np.ndarray, turn: np.ndarray,
                obs: np.ndarray) -> None:
    """Every game at the start, observed."""
    for i in prange(turn.shape[0]):
        _restart_game(state, rules, bufs[numba.get_thread_id()], turn, obs, i)


@njit(nogil=True, parallel=True)
def planes(obs: np.ndarray, out: np.ndarray) -> None:
    """Expand ``obs[i]`` (four bitboards) into 0/1 planes ``out[i, row, column, 0..3]``
    (rank 8 on row 0, as :class:`bitgames.env.codecs.Draughts`)."""
    for i in prange(obs.shape[0]):
        for plane in range(4):
            bits = obs[i, plane]
            for s in range(32):
                if (bits >> np.uint32(s)) & np.uint32(1):
                    out[i, ROWS[s], COLS[s], plane] = 1


def rules_of(variant: str, max_plies: int) -> tuple[int, ...]:
    """The ``rules`` tuple of :func:`step_batch` for ``variant``'s default
    :class:`~bitgames.draughts.board.DrawRules`."""
    from bitgames.draughts.board import DrawRules

    code = RUSSIAN if variant == "russian" else ENGLISH
    r = DrawRules.russian() if variant == "russian" else DrawRules.english()

    def plies(moves: int | None) -> int:
        return 0 if moves is None else 2 * moves

    quiet = [plies(x) for x in (r.kings_only, r.no_progress) if x is not None]
    return (code, start_position(code)[3], max_plies, r.repetition or 0,
            min(quiet, default=0), plies(r.three_kings_vs_one), plies(r.main_road),
            plies(r.balance_4_5), plies(r.balance_6_7))


def history_length(rules: tuple[int, ...]) -> int:
    """How many plies a game's history must reach back: the quiet plies can grow to the
    no-progress limit or ``max_plies``, whichever ends the game first."""
    max_plies, quiet = rules[2], rules[4]
    return max_plies if quiet == 0 else min(quiet, max_plies)


@register_warmup("draughts", "vector")
def _warm() -> None:
    for variant in ("russian", "english"):
        n = 2
        rules = rules_of(variant, 40)
        state = new_state(n, history_length(rules))
        bufs = new_buffers()
        turn = np.zeros(n, np.int8)
        obs = np.zeros((n, 4), np.uint32)
        restart_all(state, rules, bufs, turn, obs)
        out = (turn, np.zeros(n, np.int64), obs, np.zeros(n, np.float32),
               np.zeros(n, np.bool_), np.zeros(n, np.bool_))
        step_batch(state, rules, np.ones(n, np.uint64), bufs, np.full(n, RANDOM), out)
    planes(obs, np.zeros((n, 8, 8, 5), np.int8))
