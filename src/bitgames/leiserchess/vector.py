"""Leiserchess for batched learning: many games stepped in one compiled call.

The kernels behind :class:`bitgames.env.VectorGame` for ``"leiserchess"``. Every game of a
batch is the bitboards of :mod:`bitgames.leiserchess.kernels` (``w, b, k, o0, o1``) and the
side to move (``turn``), with what the rules need besides:

* ``pos[i] = (now, before)``: the position, and the one before the last move (all zero at
  a game's start), for Ko rule (b) and for the observation;
* ``plies[i]``: the plies played, for ``max_plies``;
* ``quiet[i]``: the plies since a Pawn was last zapped, as
  :attr:`bitgames.leiserchess.board.Board.no_pawn_zap_plies` (the default ``"rules"``
  draw: 100 of them);
* ``hist[i, q]`` and ``keys[i, q]``: the position after ``q`` quiet plies and a hash of it.
  A zap removes a piece for good, so no position before the last Pawn zap can come
  back: these 101 positions are the only ones a threefold repetition can count. The
  hash filters the comparisons; an equal hash is checked on the bitboards;
* ``moves[i, :nmoves[i]]``: the legal moves of the position (move codes, as
  :mod:`bitgames.env.codecs`), made once per position: the next step draws from them or
  looks the action up in them, and they are the compact mask.

:func:`step_batch` plays one move in every game on all cores (``prange``), one call of
:func:`_step_game` per game with everything in it inlined. ``-1`` (``RANDOM``) asks for a
uniformly random legal move (:func:`bitgames.core.rng.below_at` on the game's stream);
any other action must be one of the legal moves, else the mover loses at once.

**Legal moves.** A generated move is illegal when it changes nothing (Ko rule (a)) or
restores the position before the opponent's move (Ko rule (b)), as
:func:`~bitgames.leiserchess.kernels.legal_moves` finds by making every move.
:func:`_legal_into` makes only the moves that can do either. The move phase keeps every
piece, and the laser only removes some. So a move whose laser zaps anything leaves fewer
pieces than there are now, and no more than before the opponent's move: it is legal.
Without a zap, the board after the move is the move phase alone. It equals the
present board only for the King's null move and for a swap of two identical Pawns. It
can equal the board before only when the move touches exactly the squares where the two
boards differ. Only these candidates are made.

At most :data:`MAX_MOVES` (96) moves are legal: 7 Pawns and a King, with 8 steps and 3
rotations each and the King's null move (pieces are never added).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import prange

from bitgames.core import jit
from bitgames.core.bits import ctz
from bitgames.core.jit import njit, register_warmup
from bitgames.core.rng import below_at
from bitgames.leiserchess import kernels as K

U = np.uint64
ONE = U(1)
ZERO = U(0)
RANDOM = -1
MAX_MOVES = K.MAX_MOVES
#: the no-Pawn-zap plies after which the default draw rule ends a game (Board: 100)
QUIET_LIMIT = 100

#: the board kernels compiled again to be inlined (not cached on their own: only their
#: callers' compiled code is)
make_move = jit.njit(nogil=True, inline="always", _nrt=False, cache=False)(K.make_move.py_func)
trace = jit.njit(nogil=True, inline="always", _nrt=False, cache=False)(K.trace.py_func)


def start() -> np.ndarray:
    """The start position's ``(w, b, k, o0, o1)`` (Tangerine to move)."""
    from bitgames.leiserchess.notation import START_FEN, parse_fen

    return np.array(parse_fen(START_FEN)[:5], dtype=np.uint64)


def new_state(n: int) -> tuple[np.ndarray, ...]:
    """The state arrays of ``n`` games: ``(pos, plies, quiet, keys, hist, moves,
    nmoves)`` (see the module docstring; :func:`restart_all` fills them)."""
    return (np.zeros((n, 2, 5), np.uint64), np.zeros(n, np.int64), np.zeros(n, np.int64),
            np.zeros((n, QUIET_LIMIT + 1), np.uint64),
            np.zeros((n, QUIET_LIMIT + 1, 5), np.uint64),
            np.zeros((n, MAX_MOVES), np.int16), np.zeros(n, np.int64))


@njit(nogil=True, inline="always")
def _key(w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64) -> np.uint64:
    """A hash of a board, to filter the comparisons of positions."""
    x = (w * U(0x9E3779B97F4A7C15) + b * U(0xBF58476D1CE4E5B9) + k * U(0x94D049BB133111EB)
         + o0 * U(0xD6E8FEB86659FD93) + o1 * U(0xA0761D6478BD642F))
    return x ^ (x >> U(29))


@njit(nogil=True, inline="always")
def _changes(w: np.uint64, b: np.uint64, k: np.uint64, o0: np.uint64, o1: np.uint64,
             pw: np.uint64, pb: np.uint64, pk: np.uint64, p0: np.uint64, p1: np.uint64,
             side: int, mv: int) -> bool:
    """Whether ``mv`` obeys the Ko rule: makes neither the present board nor the one
    before (``pw ...``)."""
    nw, nb, nk, n0, n1, zapped, res = make_move(w, b, k, o0, o1, side, mv)
    return not (K.same_board(nw, nb, nk, n0, n1, w, b, k, o0, o1)
                or K.same_board(nw, nb, nk, n0, n1, pw, pb, pk, p0, p1))


@njit(nogil=True, inline="always")
def _legal_into(pos: np.ndarray, moves: np.ndarray, i: int, side: int) -> int:
    """Write game ``i``'s legal moves into ``moves[i]`` in the order of
    :func:`~bitgames.leiserchess.kernels.gen_moves`; return their number."""
    w, b, k, o0, o1 = pos[i, 0, 0], pos[i, 0, 1], pos[i, 0, 2], pos[i, 0, 3], pos[i, 0, 4]
    pw, pb, pk, p0, p1 = pos[i, 1, 0], pos[i, 1, 1], pos[i, 1, 2], pos[i, 1, 3], pos[i, 1, 4]
    # the squares a move must touch to restore the board before (all of them at a start)
    diff = (w ^ pw) | (b ^ pb) | (k ^ pk) | (o0 ^ p0) | (o1 ^ p1)
    own = w if side == K.WHITE else b
    enemy_king = k & (b if side == K.WHITE else w)
    enemy_path = ZERO
    if enemy_king != ZERO:
        enemy_path = trace(w | b, k, o0, o1, ctz(enemy_king))[0]
    movers = own & ~(enemy_path & own & ~k)  # pinned Pawns stay
    n = 0
    while movers != ZERO:
        sq = ctz(movers)
        movers &= movers - ONE
        from_bit = ONE << U(sq)
        # the steps and swaps to make: with an identical piece (a square of every
        # bitboard that has this one's bit, of none that has not), or onto the other
        # square where the boards differ
        suspects = ~ZERO
        for bb in (w, b, k, o0, o1):
            suspects &= bb if bb & from_bit != ZERO else ~bb
        other = diff & ~from_bit
        if diff & from_bit != ZERO and other & (other - ONE) == ZERO:
            suspects |= other
        tos = K.NEIGHBOURS[sq]
        while tos != ZERO:
            to = ctz(tos)
            tos &= tos - ONE
            mv = sq | (to << 6)
            if ((suspects >> U(to)) & ONE == ZERO
                    or _changes(w, b, k, o0, o1, pw, pb, pk, p0, p1, side, mv)):
                moves[i, n] = mv
                n += 1
        for rot in range(1, 4):
            mv = sq | (sq << 6) | (rot << 12)
            if from_bit != diff or _changes(w, b, k, o0, o1, pw, pb, pk, p0, p1, side, mv):
                moves[i, n] = mv
                n += 1
        if k & from_bit != ZERO:
            mv = sq | (sq << 6)
            if _changes(w, b, k, o0, o1, pw, pb, pk, p0, p1, side, mv):
                moves[i, n] = mv
                n += 1
    return n


@njit(nogil=True, inline="always")
def _restart(state: Any, begin: np.ndarray, turn: np.ndarray, i: int) -> None:
    """Game ``i`` at the start position ``begin``, its history emptied."""
    pos, plies, quiet, keys, hist, moves, nmoves = state
    for j in range(5):
        pos[i, 0, j] = begin[j]
        pos[i, 1, j] = ZERO
        hist[i, 0, j] = begin[j]
    keys[i, 0] = _key(begin[0], begin[1], begin[2], begin[3], begin[4])
    plies[i] = 0
    quiet[i] = 0
    turn[i] = K.WHITE


@njit(nogil=True, inline="always")
def _observe(state: Any, turn: np.ndarray, obs: np.ndarray, mask: np.ndarray, i: int) -> None:
    """Work out game ``i``'s legal moves; write its observation and mask."""
    pos, plies, quiet, keys, hist, moves, nmoves = state
    n = _legal_into(pos, moves, i, np.int64(turn[i]))
    nmoves[i] = n
    for j in range(5):
        obs[i, 0, j] = pos[i, 0, j]
        obs[i, 1, j] = pos[i, 1, j]
    for j in range(n):
        mask[i, j] = moves[i, j]
    for j in range(n, MAX_MOVES):
        mask[i, j] = -1


@njit(nogil=True, _nrt=False)
def _step_game(state: Any, begin: np.ndarray, rng: np.ndarray, max_plies: int, out: Any,
               i: int, a: int) -> None:
    """:func:`step_batch` for game ``i``: one call per game, everything in it inlined."""
    pos, plies, quiet, keys, hist, moves, nmoves = state
    turn, played, obs, mask, reward, done, truncated = out
    side = np.int64(turn[i])
    n = nmoves[i]
    legal = False
    if a == RANDOM:
        a = np.int64(moves[i, below_at(rng, i, n)])
        legal = True
    else:
        for j in range(n):
            if moves[i, j] == a:
                legal = True
                break
    played[i] = a
    finished = not legal
    cut = False
    r = -1.0 if not legal else 0.0
    if legal:
        w, b, k, o0, o1 = pos[i, 0, 0], pos[i, 0, 1], pos[i, 0, 2], pos[i, 0, 3], pos[i, 0, 4]
        nw, nb, nk, n0, n1, zapped, res = make_move(w, b, k, o0, o1, side, a)
        pos[i, 1, 0], pos[i, 1, 1], pos[i, 1, 2], pos[i, 1, 3], pos[i, 1, 4] = w, b, k, o0, o1
        pos[i, 0, 0], pos[i, 0, 1], pos[i, 0, 2], pos[i, 0, 3], pos[i, 0, 4] = nw, nb, nk, n0, n1
        plies[i] += 1
        turn[i] = 1 - side
        if res != K.NONE:
            finished = True
            mine = K.WHITE_KING_ZAPPED if side == K.WHITE else K.BLACK_KING_ZAPPED
            r = -1.0 if res == mine else 1.0
        else:
            q = 0 if zapped > 0 else quiet[i] + 1
            quiet[i] = q
            key = _key(nw, nb, nk, n0, n1)
            keys[i, q] = key
            hist[i, q, 0], hist[i, q, 1], hist[i, q, 2] = nw, nb, nk
            hist[i, q, 3], hist[i, q, 4] = n0, n1
            seen = 1  # the same side moves every second ply
            for j in range(q - 2, -1, -2):
                if keys[i, j] == key and K.same_board(
                        hist[i, j, 0], hist[i, j, 1], hist[i, j, 2], hist[i, j, 3],
                        hist[i, j, 4], nw, nb, nk, n0, n1):
                    seen += 1
            if seen >= 3 or q >= QUIET_LIMIT:
                finished = True
            elif plies[i] >= max_plies:
                finished = True
                cut = True
    reward[i] = r
    done[i] = finished
    truncated[i] = cut
    if finished:
        _restart(state, begin, turn, i)
    _observe(state, turn, obs, mask, i)


@njit(nogil=True, parallel=True)
def step_batch(state: Any, begin: np.ndarray, rng: np.ndarray, max_plies: int,
               actions: np.ndarray, out: Any) -> None:
    """One move in every game (``actions[i]``; ``RANDOM``: a random legal one).

    ``state`` is :func:`new_state`'s tuple, ``begin`` the start position (:func:`start`);
    ``out = (turn, played, obs, mask, reward, done, truncated)`` is written for every
    game: ``obs[i] = (now, before)`` as ``pos``, ``mask[i]`` the legal moves then ``-1``.
    An illegal action loses at once (reward -1); a finished game (a King zapped: reward
    +1 or -1 for the mover; a draw; ``max_plies`` reached: truncated) restarts."""
    for i in prange(actions.shape[0]):
        _step_game(state, begin, rng, max_plies, out, i, actions[i])


@njit(nogil=True, _nrt=False)
def _restart_game(state: Any, begin: np.ndarray, turn: np.ndarray, obs: np.ndarray,
                  mask: np.ndarray, i: int) -> None:
    """:func:`restart_all` for game ``i``. A function of its own: inlined into the
    ``prange`` loop, the arrays it unpacks from ``state`` lose some of their writes
    (numba 0.68)."""
    _restart(state, begin, turn, i)
    _observe(state, turn, obs, mask, i)


@njit(nogil=True, parallel=True)
def restart_all(state: Any, begin: np.ndarray, turn: np.ndarray, obs: np.ndarray,
                mask: np.ndarray) -> None:
    """Every game at the start, observed."""
    for i in prange(turn.shape[0]):
        _restart_game(state, begin, turn, obs, mask, i)


@njit(nogil=True, parallel=True)
def planes(obs: np.ndarray, turn: np.ndarray, out: np.ndarray) -> None:
    """Expand ``obs[i] = (now, before)`` into the planes of
    :class:`bitgames.env.codecs.Leiserchess` (``out`` zeroed): for each position, the
    mover's King in 4 facings, its Pawns in 4 orientations, then the opponent's; plane 32
    ones when Tangerine moves (``turn[i] == 0``)."""
    for i in prange(obs.shape[0]):
        mover_white = turn[i] == K.WHITE
        for when in range(2):
            w, b, k = obs[i, when, 0], obs[i, when, 1], obs[i, when, 2]
            o0, o1 = obs[i, when, 3], obs[i, when, 4]
            bits = w | b
            while bits != ZERO:
                sq = ctz(bits)
                bits &= bits - ONE
                white = (w >> U(sq)) & ONE != ZERO
                plane = 16 * when + (0 if white == mover_white else 8)
                plane += (0 if (k >> U(sq)) & ONE != ZERO else 4) + K.orientation(o0, o1, sq)
                out[i, 7 - (sq >> 3), sq & 7, plane] = 1
        for r in range(8):
            for c in range(8):
                out[i, r, c, 32] = 1 if mover_white else 0


@register_warmup("leiserchess", "vector")
def _warm() -> None:
    n = 2
    state = new_state(n)
    begin = start()
    turn = np.zeros(n, np.int8)
    obs = np.zeros((n, 2, 5), np.uint64)
    mask = np.zeros((n, MAX_MOVES), np.int16)
    restart_all(state, begin, turn, obs, mask)
    out = (turn, np.zeros(n, np.int64), obs, mask, np.zeros(n, np.float32),
           np.zeros(n, np.bool_), np.zeros(n, np.bool_))
    step_batch(state, begin, np.ones(n, np.uint64), 400, np.full(n, RANDOM, np.int64), out)
    planes(obs, turn, np.zeros((n, 8, 8, 33), np.int8))
