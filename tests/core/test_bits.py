"""Bit helpers: intrinsics inside kernels agree with the Python definitions."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from bitgames.core.bits import clz, ctz, iter_bits, popcount
from bitgames.core.jit import njit

U = np.uint64


@njit
def _all(x: np.uint64) -> tuple[int, int, int]:
    return popcount(x), ctz(x), clz(x)


def test_kernels_match_python() -> None:
    rng = random.Random(1)
    values = [0, 1, 2**63, 2**64 - 1] + [rng.getrandbits(rng.randrange(1, 65)) for _ in range(2000)]
    for v in values:
        want = (bin(v).count("1"), (v & -v).bit_length() - 1 if v else 64, 64 - v.bit_length())
        assert _all(U(v)) == want
        assert (popcount(v), ctz(v), clz(v)) == want
    assert list(iter_bits(0x8000_0000_0000_0001)) == [0, 63]


def test_same_names_without_jit(run_without_jit: Callable[..., str]) -> None:
    code = (
        "import numpy as np\n"
        "from bitgames.core.jit import njit\n"
        "from bitgames.core.bits import popcount, ctz, clz\n"
        "f = njit(lambda x: (popcount(x), ctz(x), clz(x)))\n"
        "print(*f(np.uint64(0xF0)))\n"
    )
    assert run_without_jit(code, timeout=120).split() == ["4", "4", "56"]
