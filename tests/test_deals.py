"""The core deal loops on a toy game: coded_loop's counted sums, sums of squares and rows equal
deal_loop's round-by-round ones for the same deals.

The toy deal draws two dice from its key: seat 0 scores the first, seat 1 the second (each a
one-hot of six slots and its pips), and a direct slot holds their difference, which mixes the
two.  The vector version writes all of it into ``v``; the coded one names the two dice by codes.
"""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from simkit.core.deals import check_table, coded_loop, deal_loop

BITS = 3
from simkit.core.rng import bounded, stream_state

M = 15                      # 6 + 1 slots a seat, then the difference


@njit
def dice(key):
    a, s = bounded(key, 6)
    b, s = bounded(s, 6)
    return a, b


@njit
def play_vector(R, S, W, i, key, ukey, v, log):
    a, b = dice(key)
    v[a] = 1.0
    v[6] = a + 1.0
    v[7 + b] = 1.0
    v[13] = b + 1.0
    v[14] = (a - b) * 0.5
    return 2


@njit
def play_coded(R, S, W, i, key, ukey, log):
    a, b = dice(key)
    return 2, a | (b << BITS), (a - b) * 0.5


@njit
def run_vector(state, n, acc, rows):
    return deal_loop(play_vector, np.uint64(7), 0, 0, 0, state, n, acc, rows,
                     np.zeros((0, 1), np.int64))


@njit
def run_coded(state, n, acc, rows, table):
    return coded_loop(play_coded, np.uint64(7), 0, 0, 0, state, n, acc, rows,
                      np.zeros((0, 1), np.int64), table, 14, BITS)


def table() -> np.ndarray:
    t = np.zeros((2, 6, M))
    for c in range(6):
        t[0, c, c], t[0, c, 6] = 1.0, c + 1.0
        t[1, c, 7 + c], t[1, c, 13] = 1.0, c + 1.0
    return t


@pytest.mark.parametrize("with_rows", [False, True])
def test_coded_loop_equals_deal_loop(with_rows):
    n = 5000
    out = []
    for run in (run_vector, lambda s, n, a, r: run_coded(s, n, a, r, table())):
        state, acc = stream_state(2, 0), np.zeros((2, M))
        rows = np.zeros((n if with_rows else 0, M))
        out.append((run(state, n, acc, rows), state, acc, rows))
    (c1, s1, a1, r1), (c2, s2, a2, r2) = out
    assert c1 == c2 == 2 * n and (s1 == s2).all()
    assert np.array_equal(a1, a2)                   # halves and whole pips: exact either way
    assert np.array_equal(r1, r2)
    assert a1[0, :6].sum() == n and a1[1, 14] > 0   # the direct slot's squares are summed


def test_check_table():
    check_table(table(), 14, BITS)
    with pytest.raises(ValueError, match="owner"):
        check_table(table(), 6, BITS)               # the direct slot is seat 0's pips
    t = table()
    t[1, 2, 0] = 1.0                                # seat 1 writing seat 0's slot
    with pytest.raises(ValueError, match="owner"):
        check_table(t, 14, BITS)
    with pytest.raises(ValueError, match="fit"):
        check_table(np.zeros((22, 6, M)), -1, BITS)  # 22 parts: 66 bits
    with pytest.raises(ValueError, match="fit"):
        check_table(np.zeros((2, 9, M)), -1, BITS)   # nine codes in three bits
