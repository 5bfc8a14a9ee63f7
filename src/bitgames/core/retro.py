"""Retrograde analysis: win/loss/draw values of every state of a finite game graph.

Game-independent. A game describes its graph through three things:

* ``values`` (``uint8[n]``): :data:`WIN` / :data:`LOSS` for states decided without looking
  further (for example the side to move can zap the enemy King, or every move loses at
  once), :data:`INVALID` for indices that are not positions (never touched), and
  :data:`UNKNOWN` for the rest;
* ``counts`` (``uint8`` or larger ``[n]``): for each :data:`UNKNOWN` state, the number of
  its moves that lead to states of this graph, plus one for every move that leaves the
  graph into a known draw (those are never decremented, so the state cannot become a
  loss); moves that leave the graph into a state good for the opponent are not counted;
* ``predecessors(s, ctx, out) -> k``: a numba function that writes into ``out`` the ``k``
  states with a move into ``s`` -- one entry per move, so a state with two moves into
  ``s`` appears twice. It must enumerate exactly the moves ``counts`` counted.

Values are from the side to move's point of view. :func:`solve` propagates from the
decided states with a FIFO queue: a predecessor of a lost state is won; a state all of
whose counted moves lead to won states is lost; what is left is a draw (cycles, such
as repetitions, never resolve). ``depth`` gets, for every decided state, the number of
propagation steps from a seed state (0 for the seeds).

For small explicit graphs, :func:`solve_graph` takes successor lists in CSR form.

>>> import numpy as np
>>> # 0 -> 1 -> 2 (no moves: lost); 3 <-> 4 (a cycle: drawn); 5 -> 2 or 3
>>> indptr = np.array([0, 1, 2, 2, 3, 4, 6]); succ = np.array([1, 2, 4, 3, 2, 3])
>>> [NAMES[v] for v in solve_graph(indptr, succ)[0]]
['loss', 'win', 'loss', 'draw', 'draw', 'win']
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bitgames.core.jit import njit

UNKNOWN = 0
WIN = 1
LOSS = 2
DRAW = 3
INVALID = 4
NAMES = ("unknown", "win", "loss", "draw", "invalid")


# Not cached: numba cannot cache a function that takes another function as an argument
# (each process would add a new cache entry), and compiling it takes a second or two.
@njit(cache=False)
def solve(values: np.ndarray, counts: np.ndarray, depth: np.ndarray, predecessors: Any,
          ctx: Any, max_preds: int, progress: np.ndarray) -> int:
    """Resolve ``values`` in place (see the module docstring); return the number of
    states decided by propagation. ``depth`` is an ``int16``/``int32`` array of the same
    length, or of length 0 to skip distances. ``progress`` (``int64``, 2 entries, or 0
    to skip) receives the states taken from the queue and the states queued so far, for
    another thread to follow: the work is done when the two meet."""
    n = values.shape[0]
    queue = np.empty(n, dtype=np.uint32)  # n < 2**32 states
    head = 0
    tail = 0
    use_depth = depth.shape[0] == n
    for s in range(n):
        v = values[s]
        if v == WIN or v == LOSS:
            queue[tail] = np.uint32(s)
            tail += 1
            if use_depth:
                depth[s] = 0
    seeds = tail
    out = np.empty(max_preds, dtype=np.int64)
    track = progress.shape[0] >= 2
    while head < tail:
        if track and (head & 65535) == 0:
            progress[0] = head
            progress[1] = tail
        s = np.int64(queue[head])
        head += 1
        vs = values[s]
        k = predecessors(s, ctx, out)
        for i in range(k):
            p = out[i]
            if values[p] != UNKNOWN:
                continue
            if vs == LOSS:
                values[p] = WIN
            else:
                counts[p] -= 1
                if counts[p] != 0:
                    continue
                values[p] = LOSS
            if use_depth:
                depth[p] = depth[s] + 1
            queue[tail] = np.uint32(p)
            tail += 1
    if track:
        progress[0] = head
        progress[1] = tail
    for s in range(n):
        if values[s] == UNKNOWN:
            values[s] = DRAW
    return tail - seeds


@njit
def _csr_predecessors(s: int, ctx: Any, out: np.ndarray) -> int:
    rev_ptr, rev = ctx
    k = 0
    for j in range(rev_ptr[s], rev_ptr[s + 1]):
        out[k] = rev[j]
        k += 1
    return k


def solve_graph(indptr: np.ndarray, succ: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Values and depths of an explicit graph: the moves of state ``s`` lead to
    ``succ[indptr[s]:indptr[s + 1]]``; a state without moves is lost (normal play).

    Returns ``(values, depth)``.
    """
    indptr = np.asarray(indptr, dtype=np.int64)
    succ = np.asarray(succ, dtype=np.int64)
    n = indptr.shape[0] - 1
    outdeg = np.diff(indptr)
    values = np.where(outdeg == 0, LOSS, UNKNOWN).astype(np.uint8)
    counts = outdeg.astype(np.int32)
    src = np.repeat(np.arange(n, dtype=np.int64), outdeg)
    order = np.argsort(succ, kind="stable")
    rev = src[order]
    rev_ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(succ, minlength=n), out=rev_ptr[1:])
    indeg = np.diff(rev_ptr)
    depth = np.zeros(n, dtype=np.int32)
    max_preds = max(int(indeg.max(initial=0)), 1)
    solve(values, counts, depth, _csr_predecessors, (rev_ptr, rev), max_preds,
          np.zeros(0, dtype=np.int64))
    return values, depth
