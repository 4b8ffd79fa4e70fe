"""Bit tricks on ``uint64`` card masks, for numba kernels: count, lowest, highest, k-th set bit.

Every game keeps hands as masks (bit ``code`` set per card held), and choosing "a uniformly random
card of this mask" is ``nth_code(m, k)`` for a random ``k``: it sits in the innermost loop of
every random-play simulation.  So these are branch-free:

* :func:`popcount` is LLVM's ``ctpop`` (one ``popcnt`` instruction where the CPU has it, LLVM's
  own bit-parallel sequence where it has not);
* :func:`nth_code` is a broadword *select* (Vigna, "Broadword implementation of rank/select
  queries", 2008): per-byte counts, their prefix sums by one multiplication, the byte holding the
  k-th bit found by a bytewise comparison, and a 256x8 table for the bit inside that byte.  A
  loop clearing ``k`` low bits would end at a data-dependent count, a branch the CPU mispredicts
  about once per call.
"""
from __future__ import annotations

import numpy as np
from numba import config, njit
from numba.core import types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic

_ONE = np.uint64(1)
_L8 = np.uint64(0x0101010101010101)
_H8 = np.uint64(0x8080808080808080)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_BYTE = np.uint64(0xFF)


def _select_in_byte() -> np.ndarray:
    """``uint8[256 * 8]``: entry ``b * 8 + k`` is the position of the ``k``-th set bit of ``b``."""
    t = np.zeros(256 * 8, np.uint8)
    for b in range(256):
        ones = [i for i in range(8) if b >> i & 1]
        t[b * 8: b * 8 + len(ones)] = ones
    return t


SELECT_IN_BYTE = _select_in_byte()


@intrinsic
def _ctpop(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


def py_ctpop(x):
    """Plain-Python ``_ctpop`` / ``trailing_zeros`` / ``leading_zeros`` of a ``uint64``: what the
    kernels call under NUMBA_DISABLE_JIT=1, where numba's intrinsics have no Python body."""
    return np.uint64(int(x).bit_count())


def py_trailing_zeros(x):
    x = int(x)
    return np.uint64((x & -x).bit_length() - 1 if x else 64)


def py_leading_zeros(x):
    return np.uint64(64 - int(x).bit_length())


if config.DISABLE_JIT:
    _ctpop, trailing_zeros, leading_zeros = py_ctpop, py_trailing_zeros, py_leading_zeros


@njit(cache=True, nogil=True, inline="always")
def popcount(m):
    """Number of set bits of a ``uint64``."""
    return np.int64(_ctpop(np.uint64(m)))


@njit(cache=True, nogil=True, inline="always")
def lowest_code(m):
    """The lowest set bit's index (card code) of a non-zero mask."""
    return np.int64(trailing_zeros(np.uint64(m)))


@njit(cache=True, nogil=True, inline="always")
def highest_code(m):
    """The highest set bit's index (card code) of a non-zero mask."""
    return np.int64(63 - leading_zeros(np.uint64(m)))


@njit(cache=True, nogil=True, inline="always")
def nth_code(m, k):
    """The code of the ``k``-th set bit (from 0, lowest first) of ``m``; ``0 <= k < popcount(m)``."""
    m = np.uint64(m)
    s = m - ((m >> _ONE) & _M1)
    s = (s & _M2) + ((s >> np.uint64(2)) & _M2)
    s = (s + (s >> np.uint64(4))) & _M4
    p = s * _L8                        # byte i: set bits in bytes 0..i (at most 64 < 128)
    kk = np.uint64(k)
    # byte i's top bit is set where p_i > k (no borrow crosses bytes: p_i | 0x80 >= 128 > k + 1)
    over = ((p | _H8) - (kk + _ONE) * _L8) & _H8
    shift = trailing_zeros(over) & np.uint64(0x38)    # 8 * (the first such byte)
    before = ((p << np.uint64(8)) >> shift) & _BYTE   # set bits below that byte
    byte = (m >> shift) & _BYTE
    return np.int64(shift) + np.int64(SELECT_IN_BYTE[byte * np.uint64(8) + kk - before])
