"""simkit.core.bits against plain Python on the same masks: the k-th set bit, counts, ends."""
from __future__ import annotations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st
from numba import njit

from simkit.core import bits


@njit(cache=True)
def _all_selects(m, out):
    for k in range(bits.popcount(m)):
        out[k] = bits.nth_code(m, k)
    return bits.popcount(m)


def check(m: int) -> None:
    want = [i for i in range(64) if m >> i & 1]
    out = np.full(64, -1, np.int64)
    assert _all_selects(np.uint64(m), out) == len(want)
    assert list(out[:len(want)]) == want
    if want:
        assert bits.lowest_code(np.uint64(m)) == want[0]
        assert bits.highest_code(np.uint64(m)) == want[-1]


def test_edge_masks():
    for m in [0, 1, 1 << 63, (1 << 64) - 1, 0xFF, 0xFF << 56, 0x8000000000000001,
              0x0101010101010101, 0x8080808080808080, 0xFFFF << 16]:
        check(m)


def test_every_byte_pattern_in_every_byte():
    for byte in range(8):
        for b in range(256):
            check(b << (8 * byte) | 1 << (8 * ((byte + 3) % 8)))


@settings(max_examples=400, deadline=None)  # test_edge_masks walks the edges exhaustively
@given(st.integers(0, (1 << 64) - 1), st.integers(0, (1 << 64) - 1))
def test_random_and_sparse_masks(a, b):
    check(a)
    check(a & b)             # sparser masks: hands of a few cards
    check(a & b & (a >> 7))


@njit(cache=True)
def _intrinsics(m):
    return bits._ctpop(m), bits.trailing_zeros(m), bits.leading_zeros(m)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, (1 << 64) - 1))
@example(0)
def test_plain_python_intrinsics(m):
    """The plain-Python bodies used under NUMBA_DISABLE_JIT=1 equal numba's intrinsics (the
    zero mask included: 64 trailing and 64 leading zeros)."""
    x = np.uint64(m)
    assert (bits.py_ctpop(x), bits.py_trailing_zeros(x), bits.py_leading_zeros(x)) == \
        tuple(int(v) for v in _intrinsics(x))

