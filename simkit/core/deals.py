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
