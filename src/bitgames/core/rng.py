"""A splitmix64 random number generator usable inside numba kernels and in plain Python.

The generator state is one ``uint64`` kept in a NumPy array (``np.zeros(1, np.uint64)``),
so kernels can advance it in place; a batch of independent streams is a ``uint64`` array
with one state per item, each seeded with :func:`stream_seed` ``(seed, index)``. The
results therefore depend only on the seed and the item index, never on thread scheduling.

SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
OOPSLA 2014; the constants are those of Vigna's public-domain ``splitmix64.c``) is a
counter-based generator: the ``k``-th output of the stream starting at state ``s`` is
``mix64(s + k * GAMMA)``, which :func:`random_at` computes directly.

:func:`next_u64` and :func:`mix64` are plain Python functions (exact integer arithmetic,
no overflow warnings); inside numba kernels an ``@overload`` replaces each by wrapping
``uint64`` arithmetic, so kernels that use them also run with ``NUMBA_DISABLE_JIT=1``.

>>> state = new_state(0)
>>> hex(next_u64(state))
'0xe220a8397b1dcdaf'
>>> [below(new_state(7), 6) for _ in range(3)] == [below(new_state(7), 6)] * 3
True
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from bitgames.core import jit  # sets numba's cache directory before any compile

U = np.uint64
MASK64 = 0xFFFF_FFFF_FFFF_FFFF
GAMMA = 0x9E37_79B9_7F4A_7C15
_M1 = 0xBF58_476D_1CE4_E5B9
_M2 = 0x94D0_49BB_1331_11EB


def _mix_int(z: int) -> int:
    z = ((z ^ (z >> 30)) * _M1) & MASK64
    z = ((z ^ (z >> 27)) * _M2) & MASK64
    return z ^ (z >> 31)


def mix64(z: int | np.uint64) -> np.uint64:
    """The splitmix64 output function (a bijection of 64-bit words).

    >>> hex(mix64(GAMMA))
    '0xe220a8397b1dcdaf'
    """
    return U(_mix_int(int(z) & MASK64))


def next_u64(state: np.ndarray) -> np.uint64:
    """Advance ``state[0]`` by one step and return the next 64-bit output."""
    return next_at(state, 0)


def next_at(states: np.ndarray, i: int) -> np.uint64:
    """Advance stream ``i`` of a batch of states (``states[i]``) and return its next
    output: the same as :func:`next_u64` of that state, without making a view of it."""
    s = (int(states[i]) + GAMMA) & MASK64
    states[i] = s
    return U(_mix_int(s))


def random_at(seed: int | np.uint64, k: int) -> np.uint64:
    """The ``k``-th output (from 1) of the stream that starts at state ``seed``, in O(1).

    >>> st = new_state(42)
    >>> outs = [next_u64(st) for _ in range(3)]
    >>> outs == [random_at(42, k) for k in (1, 2, 3)]
    True
    """
    return U(_mix_int((int(seed) + k * GAMMA) & MASK64))


def stream_seed(seed: int | np.uint64, index: int) -> np.uint64:
    """A well-separated starting state for item ``index`` of a batch seeded by ``seed``.

    Usable in kernels (``seed`` a ``uint64``, ``index`` an ``int64``).
    """
    return U(_mix_int((_mix_int(int(seed) & MASK64) + (int(index) + 1) * _M2) & MASK64))


def new_state(seed: int) -> np.ndarray:
    """A one-element ``uint64`` state array starting at ``seed``."""
    return np.array([int(seed) & MASK64], dtype=np.uint64)


@jit.njit
def below(state: np.ndarray, n: int) -> int:
    """A uniform integer in ``[0, n)`` for ``1 <= n < 2**32``, without modulo bias.

    Lemire's multiply-shift method on the high 32 bits of the next output, with the
    rejection step that makes it exactly uniform ("Fast random integer generation in an
    interval", ACM TOMACS 2019).
    """
    return below_at(state, 0, n)


@jit.njit(inline="always")
def below_at(states: np.ndarray, i: int, n: int) -> int:
    """:func:`below` drawn from stream ``i`` of a batch of states (``states[i]``)."""
    x = next_at(states, i) >> U(32)
    m = x * U(n)
    low = m & U(0xFFFFFFFF)
    if low < U(n):
        t = (U(0x100000000) - U(n)) % U(n)
        while low < t:
            x = next_at(states, i) >> U(32)
            m = x * U(n)
            low = m & U(0xFFFFFFFF)
    return np.int64(m >> U(32))


@jit.njit
def uniform(state: np.ndarray) -> float:
    """A float in ``[0, 1)`` with 53 random bits."""
    return (next_u64(state) >> U(11)) * (1.0 / 9007199254740992.0)


def _check_u64(x: types.Type) -> None:
    if x != types.uint64:
        raise TypeError(f"mix64 takes uint64 in kernels, got {x}")


@overload(mix64)
def _mix64_impl(z):  # type: ignore[no-untyped-def]
    _check_u64(z)

    def impl(z):  # type: ignore[no-untyped-def]
        z = (z ^ (z >> U(30))) * U(_M1)
        z = (z ^ (z >> U(27))) * U(_M2)
        return z ^ (z >> U(31))

    return impl


@overload(stream_seed)
def _stream_seed_impl(seed, index):  # type: ignore[no-untyped-def]
    _check_u64(seed)

    def impl(seed, index):  # type: ignore[no-untyped-def]
        return mix64(mix64(seed) + U(index + 1) * U(_M2))

    return impl


@overload(next_at)
def _next_at_impl(states, i):  # type: ignore[no-untyped-def]
    def impl(states, i):  # type: ignore[no-untyped-def]
        s = states[i] + U(GAMMA)
        states[i] = s
        return mix64(s)

    return impl


@overload(next_u64)
def _next_u64_impl(state):  # type: ignore[no-untyped-def]
    def impl(state):  # type: ignore[no-untyped-def]
        return next_at(state, 0)

    return impl
