"""Othello for batched learning: many games stepped in one compiled call.

The kernels behind :class:`bitgames.env.VectorGame` for ``"othello"``: every game of a
batch is two bitboards (the mover's discs, the opponent's) and a colour, stepped by
:func:`step_batch` over all cores (``prange``). Actions are squares 0-63 (a1 = 0) or 64 =
pass, as in :mod:`bitgames.env.codecs`; ``-1`` asks the kernel for a uniformly random legal
move, drawn from the game's own random stream (:func:`bitgames.core.rng.below_at`).

Observations are written into the caller's arrays as bitboards, the cheapest form to
write: ``obs[i] = (mover's discs, opponent's discs)`` and ``mask[i]`` the legal squares of
the mover (0: only a pass); :func:`planes` expands them to 0/1 planes when an agent needs
them. A finished game is reported (``done[i]``, ``reward[i]`` for the side that made the
last move: +1, 0 or -1 by the final disc count) and restarted at once.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from bitgames.core.bits import ctz, popcount
from bitgames.core.jit import njit, register_warmup
from bitgames.core.rng import below_at
from bitgames.othello.kernels import BLACK_START, WHITE_START, final_score, flips, legal_moves

U = np.uint64
PASS = 64
RANDOM = -1


@njit(inline="always")
def _nth_bit(bits: np.uint64, n: int) -> int:
    """The square of the ``n``-th set bit (from 0) of ``bits``."""
    for _ in range(n):
        bits &= bits - U(1)
    return ctz(bits)


def start() -> np.ndarray:
    """The start position as ``(mover's discs, opponent's discs)``: Black moves first."""
    return np.array([BLACK_START, WHITE_START], dtype=np.uint64)


def start_mask() -> int:
    """Black's legal squares at the start."""
    return int(legal_moves(U(BLACK_START), U(WHITE_START)))


@njit(nogil=True, parallel=True)
def step_batch(discs: np.ndarray, turn: np.ndarray, rng: np.ndarray, actions: np.ndarray,
               played: np.ndarray, obs: np.ndarray, mask: np.ndarray, reward: np.ndarray,
               done: np.ndarray) -> None:
    """One move in every game: ``actions[i]`` (``RANDOM``: a random legal move), recorded in
    ``played[i]``; an illegal action loses the game at once (reward -1)."""
    for i in prange(discs.shape[0]):
        p = discs[i, 0]
        o = discs[i, 1]
        moves = legal_moves(p, o)
        a = actions[i]
        if a == RANDOM:
            if moves == U(0):
                a = PASS
            else:
                a = _nth_bit(moves, below_at(rng, i, popcount(moves)))
        played[i] = a
        legal = (a == PASS and moves == U(0)) or (0 <= a < 64 and (moves >> U(a)) & U(1))
        finished = False
        r = 0.0
        if not legal:
            finished = True
            r = -1.0
        else:
            if a != PASS:
                f = flips(p, o, a)
                p ^= f | (U(1) << U(a))
                o ^= f
            p, o = o, p  # the opponent moves next
            turn[i] ^= 1
            nxt = legal_moves(p, o)
            if nxt == U(0) and legal_moves(o, p) == U(0):
                finished = True
                s = final_score(p, o)  # for the side to move now: the opponent of the mover
                r = 1.0 if s < 0 else (-1.0 if s > 0 else 0.0)
        if finished:
            p = U(BLACK_START)
            o = U(WHITE_START)
            turn[i] = 0
        discs[i, 0] = p
        discs[i, 1] = o
        obs[i, 0] = p
        obs[i, 1] = o
        mask[i] = legal_moves(p, o)
        reward[i] = r
        done[i] = finished


@njit(nogil=True, parallel=True)
def planes(obs: np.ndarray, out: np.ndarray) -> None:
    """Expand bitboard observations ``obs[i] = (mover, opponent)`` into 0/1 planes
    ``out[i, row, column, 0 or 1]`` (row = rank - 1)."""
    for i in prange(obs.shape[0]):
        for side in range(2):
            bits = obs[i, side]
            for sq in range(64):
                out[i, sq >> 3, sq & 7, side] = (bits >> U(sq)) & U(1)


@register_warmup("othello", "vector")
def _warm() -> None:
    n = 2
    discs = np.empty((n, 2), dtype=np.uint64)
    discs[:, 0], discs[:, 1] = BLACK_START, WHITE_START
    step_batch(discs, np.zeros(n, np.int8), np.ones(n, np.uint64), np.full(n, RANDOM),
               np.zeros(n, np.int64), np.zeros((n, 2), np.uint64), np.zeros(n, np.uint64),
               np.zeros(n, np.float32), np.zeros(n, np.bool_))
    planes(np.zeros((n, 2), np.uint64), np.zeros((n, 8, 8, 2), np.int8))
