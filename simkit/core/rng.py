"""Random streams for numba kernels: reproducible, fast, unbiased.

* Each chunk of deals has its own xoshiro256** stream (state: ``uint64[4]``) seeded from
  ``SeedSequence(seed, spawn_key=(chunk,))`` -- exactly the chunk's child of
  ``SeedSequence(seed).spawn(...)``.  The chunk size depends on ``n`` only, so a seed gives the
  same numbers on one thread, many threads, processes or a cluster.
* Every deal draws one 64-bit *deal key* from its chunk's stream and deals its cards from a
  splitmix64 sequence started at that key.  A deal's cards therefore depend on (seed, chunk, deal)
  only, never on how many cards the strategies took in earlier deals: every grid point and every
  strategy sees the same deals (common random numbers).
* Bounded draws use Lemire's multiply-shift with rejection on the top 32 bits (exactly uniform).
"""
from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

_U32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def stream_state(seed: int, chunk: int) -> np.ndarray:
    """The xoshiro256** state of chunk ``chunk`` of a run seeded with ``seed``."""
    ss = np.random.SeedSequence(int(seed), spawn_key=(int(chunk),))
    st = ss.generate_state(4, np.uint64)
    if not st.any():  # the all-zero state is the one xoshiro cannot leave
        st[0] = 1
    return st


@njit(cache=True, nogil=True, inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, nogil=True)
def xoshiro_next(s):
    """Next 64-bit output of xoshiro256** with state ``s`` (``uint64[4]``, updated in place)."""
    result = _rotl(s[1] * np.uint64(5), 7) * np.uint64(9)
    t = s[1] << np.uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


@njit(cache=True, nogil=True, inline="always")
def splitmix_next(st):
    """Next 64-bit output of splitmix64; ``st`` is a ``uint64[1]`` (updated in place)."""
    st[0] += _GOLDEN
    z = st[0]
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True, inline="always")
def lemire(x64, n):
    """Map the top 32 bits of ``x64`` to ``[0, n)``; returns (value, low word) for rejection."""
    m = (x64 >> _S32) * np.uint64(n)
    return m >> _S32, m & _U32


@njit(cache=True, nogil=True)
def bounded_xoshiro(s, n):
    """Uniform integer in ``[0, n)`` (``1 <= n < 2**32``) from xoshiro stream ``s``."""
    v, low = lemire(xoshiro_next(s), n)
    nn = np.uint64(n)
    if low < nn:
        t = (np.uint64(0x100000000) - nn) % nn
        while low < t:
            v, low = lemire(xoshiro_next(s), n)
    return np.int64(v)


@njit(cache=True, nogil=True, inline="always")
def bounded_deal(st, n):
    """Uniform integer in ``[0, n)`` from a deal's splitmix64 sequence ``st`` (``uint64[1]``)."""
    v, low = lemire(splitmix_next(st), n)
    nn = np.uint64(n)
    if low < nn:
        t = (np.uint64(0x100000000) - nn) % nn
        while low < t:
            v, low = lemire(splitmix_next(st), n)
    return np.int64(v)


@njit(cache=True, nogil=True, inline="always")
def draw_card(deck, pos, st):
    """Draw the card at position ``pos`` of a lazily shuffled deck (one Fisher-Yates step).

    Swaps a uniformly chosen card from ``deck[pos:]`` into ``deck[pos]`` and returns it.  Any
    starting order gives uniformly random deals, but a kernel resets ``deck`` to the same order
    before every deal, so that a deal's cards depend on its key alone (common random numbers).
    """
    j = pos + bounded_deal(st, deck.shape[0] - pos)
    c = deck[j]
    deck[j] = deck[pos]
    deck[pos] = c
    return c


@njit(cache=True, nogil=True)
def uniform01(st):
    """A double in ``[0, 1)`` from a deal's splitmix64 sequence."""
    return np.float64(splitmix_next(st) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, nogil=True)
def xoshiro_bounded_sum(s, n, count):
    """``count`` bounded draws from a xoshiro stream (benchmark ceiling); returns their sum."""
    acc = np.int64(0)
    for _ in range(count):
        acc += bounded_xoshiro(s, n)
    return acc


def next_card(deck, pos, src):
    """The card at position ``pos`` of a deal: drawn from the lazily shuffled ``deck`` when ``src``
    is a deal's splitmix state (``uint64[1]``), or ``deck[pos]`` when ``src`` is an ``int64[1]``
    (a stacked deck, for tests with known outcomes).  Chosen at compile time, so free."""
    if src.dtype == np.uint64:
        return draw_card(deck, pos, src)
    return deck[pos]


@overload(next_card)
def _next_card_impl(deck, pos, src):
    if src.dtype == types.uint64:
        return lambda deck, pos, src: draw_card(deck, pos, src)
    return lambda deck, pos, src: deck[pos]
