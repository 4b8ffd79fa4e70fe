"""The one deal loop every game kernel runs: keys, streams, accumulation, rows and the move log.

A game's kernel is "play one deal": an ``@njit`` function

    play(R, S, W, i, key, ukey, v, log) -> cards dealt

that plays deal ``i`` of a chunk whose cards come from ``key`` and whose strategies' coin flips
come from ``ukey`` (the deal's *strategy stream*, ``key ^ salt``), writes the deal's metric vector
into ``v`` (zeroed before the call) and, when ``log`` has rows, the deal's moves into ``log[i]``.
``R`` and ``S`` are the game's rules and strategy records (:mod:`simkit.core.records`), ``W`` its
work buffers and per-call settings (a stacked deck, say).  The game binds its ``play`` to the
loop in a two-line kernel, which is what the runner calls::

    @njit(cache=True, nogil=True)
    def run_deals(R, S, W, state, n, acc, rows, log):
        return deal_loop(play_deal, SALT, R, S, W, state, n, acc, rows, log)

``deal_loop`` is inlined (``inline="always"``) so that ``play`` is a static callee of the game's
own cached kernel: passing a jitted function as a run-time argument would make numba refuse to
cache the kernel (measured: "uses dynamic globals"), and every process would compile it again.

Each deal takes one key from the chunk's xoshiro256** state, so a deal's cards do not depend on
what the strategies did in earlier deals: every configuration of a sweep sees the same deals.

A game whose deal ends in one of a few outcomes per *part* (a seat, the banker) may run
:func:`coded_loop` instead: its ``play`` names each part's outcome by a code and the loop counts
the codes, so a deal costs a few increments instead of zeroing and summing a whole metric vector
(the sums come from the counts once a chunk; measured on «31» with a bank: the vector's upkeep
was a fifth of a round).  Both loops give the same rows and, for values a float sums exactly
(whole and half tokens), the same sums.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simkit.core.accumulate import add_deal
from simkit.core.rng import xoshiro_step

SALT = np.uint64(0x6A09E667F3BCC909)  # the strategy stream of a new game: key ^ SALT


@njit(cache=True, nogil=True, inline="always")
def deal_loop(play, salt, R, S, W, state, n, acc, rows, log):
    """Play ``n`` deals with ``play`` into ``acc[2, M]`` (and ``rows[n, M]``, ``log[n, :]`` when
    they have rows); advances ``state`` (``uint64[4]``) in place; returns the cards dealt."""
    v = np.zeros(acc.shape[1])
    x0, x1, x2, x3 = state[0], state[1], state[2], state[3]
    cards = 0
    for i in range(n):
        key, x0, x1, x2, x3 = xoshiro_step(x0, x1, x2, x3)
        for q in range(v.shape[0]):
            v[q] = 0.0
        cards += play(R, S, W, i, key, key ^ salt, v, log)
        add_deal(acc, rows, i, v)
    state[0], state[1], state[2], state[3] = x0, x1, x2, x3
    return cards


# 13 parameters: deal_loop's ten and the coded table's three; inlined into each kernel, where a
# record of them would only add a tuple to build per call
@njit(cache=True, nogil=True, inline="always")
def coded_loop(play, salt, R, S, W, state, n, acc, rows, log, table, dslot, bits):
    """:func:`deal_loop` for a deal whose metric vector is a sum of table rows.

    ``play(R, S, W, i, key, ukey, log) -> (cards, word, direct)`` names each part's outcome:
    part ``p``'s code is ``(word >> (bits * p)) & (2**bits - 1)`` and its metric vector
    ``table[p, code]``; ``direct`` is the value of slot ``dslot``, a metric no part holds alone
    (a net that mixes the seats, say; ``dslot`` -1: none).  A deal's metric vector is the sum
    of its parts' rows and its direct value, so a slot must take values from one part only
    (:func:`check_table`): then the sums of squares come from the counts too.  ``table``:
    ``float64[P, C, M]``, ``P * bits <= 63`` and ``C <= 2**bits`` (a game's constant ``bits``).

    ``play`` returns scalars only.  It can be given other records than the game's own: «31»
    with a bank gives it a record of the rules' scalars, since the rules record's arrays cost
    numba's atomic reference counts on every deal (measured, thirty_one_bank/engine.py)."""
    P, C, M = table.shape
    mask = (1 << bits) - 1
    hist = np.zeros((P, C), np.int64)
    dsum = 0.0
    dsq = 0.0
    x0, x1, x2, x3 = state[0], state[1], state[2], state[3]
    cards = 0
    for i in range(n):
        key, x0, x1, x2, x3 = xoshiro_step(x0, x1, x2, x3)
        c, word, d = play(R, S, W, i, key, key ^ salt, log)
        cards += c
        for p in range(P):
            hist[p, (word >> (bits * p)) & mask] += 1
        dsum += d
        dsq += d * d
        if rows.shape[0] > 0:
            coded_row(rows[i], table, word, d, dslot, bits)
    state[0], state[1], state[2], state[3] = x0, x1, x2, x3
    for p in range(P):
        for c in range(C):
            h = hist[p, c]
            if h > 0:
                for q in range(M):
                    t = table[p, c, q]
                    acc[0, q] += h * t
                    acc[1, q] += h * (t * t)
    if dslot >= 0:
        acc[0, dslot] += dsum
        acc[1, dslot] += dsq
    return cards


@njit(cache=True, nogil=True, inline="always")
def coded_row(v, table, word, d, dslot, bits):
    """A coded deal's metric vector into ``v`` (:func:`coded_loop`'s ``table``, the deal's
    code ``word`` and direct value ``d``)."""
    mask = (1 << bits) - 1
    for q in range(v.shape[0]):
        v[q] = 0.0
    for p in range(table.shape[0]):
        code = (word >> (bits * p)) & mask
        for q in range(v.shape[0]):
            v[q] += table[p, code, q]
    if dslot >= 0:
        v[dslot] += d


def check_table(table: np.ndarray, dslot: int, bits: int) -> None:
    """Raise unless every metric slot of a :func:`coded_loop` table takes values from one part
    at most, the direct slot from none, and the table fits the code word."""
    P, C, _ = table.shape
    owners = (table != 0).any(axis=1)            # [P, M]: part p can set slot q
    bad = np.flatnonzero(owners.sum(axis=0) > 1).tolist()
    if bad or (dslot >= 0 and owners[:, dslot].any()) or P * bits > 63 or C > 1 << bits:
        raise ValueError(f"coded_loop table [{P}, {C}, M]: slots {bad} have more than one "
                         f"owner, the direct slot {dslot} is in the table, or it does not fit "
                         f"{bits}-bit codes in a 63-bit word")
