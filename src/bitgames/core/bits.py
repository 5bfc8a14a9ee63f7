"""Bit helpers for ``uint64`` bitboards, usable in kernels and in plain Python.

``popcount``, ``ctz`` (count trailing zeros) and ``clz`` (count leading zeros) are plain
Python functions; inside numba kernels an ``@overload`` replaces each by a single LLVM
intrinsic (``popcnt``/``tzcnt``/``lzcnt``). So the same names work in jitted code, in the
interpreter, and under ``NUMBA_DISABLE_JIT=1``. All three return an ``int`` (``int64`` in
kernels); ``ctz(0)`` and ``clz(0)`` are 64.

>>> popcount(0xFF00), ctz(0xFF00), clz(0xFF00)
(8, 8, 48)
>>> ctz(0), clz(0)
(64, 64)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic, overload

U = np.uint64
MASK64 = 0xFFFF_FFFF_FFFF_FFFF


def popcount(x: int | np.uint64) -> int:
    """Number of set bits of a 64-bit word."""
    return (int(x) & MASK64).bit_count()


def ctz(x: int | np.uint64) -> int:
    """Index of the lowest set bit (64 when ``x`` is 0)."""
    v = int(x) & MASK64
    return (v & -v).bit_length() - 1 if v else 64


def clz(x: int | np.uint64) -> int:
    """Number of zero bits above the highest set bit (64 when ``x`` is 0)."""
    return 64 - (int(x) & MASK64).bit_length()


def iter_bits(x: int) -> Iterator[int]:
    """Indices of the set bits of ``x``, lowest first (plain Python only).

    >>> list(iter_bits(0b1010_0001))
    [0, 5, 7]
    """
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


_NOT_POISON = ir.Constant(ir.IntType(1), 0)  # ctz(0) and clz(0) are defined (64)

# LLVM intrinsic behind each helper: builder -> value -> count (an i64).
_EMITTERS: dict[Callable[..., int], Callable[[Any, Any], Any]] = {
    popcount: lambda builder, v: builder.ctpop(v),
    ctz: lambda builder, v: builder.cttz(v, _NOT_POISON),
    clz: lambda builder, v: builder.ctlz(v, _NOT_POISON),
}


def _register(python_fn: Callable[..., int], emit: Callable[[Any, Any], Any]) -> None:
    """Make ``python_fn`` compile to one LLVM intrinsic inside kernels."""

    @intrinsic
    def _native(typingctx, x):  # type: ignore[no-untyped-def]
        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            return emit(builder, args[0])

        return types.int64(types.uint64), codegen

    @overload(python_fn)
    def _impl(x):  # type: ignore[no-untyped-def]
        if x != types.uint64:
            raise TypeError(f"{python_fn.__name__} takes uint64 in kernels, got {x}")
        return lambda x: _native(x)


for _fn, _emit in _EMITTERS.items():
    _register(_fn, _emit)
