"""Random streams for numba kernels: reproducible, fast, unbiased.

* Each chunk of deals has its own xoshiro256** stream (state: ``uint64[4]``) seeded from
  ``SeedSequence(seed, spawn_key=(chunk,))`` -- exactly the chunk's child of
  ``SeedSequence(seed).spawn(...)``.  The chunk size depends on ``n`` only, so a seed gives the
  same numbers on one thread, many threads, processes or a cluster.
* Every deal draws one 64-bit *deal key* from its chunk's stream and deals its cards from a
  splitmix64 sequence started at that key, by rejection against a mask of the positions already
  dealt (:func:`draw_index`; the deck array is never permuted).  Strategies that randomise use a
  second splitmix64 sequence from the same key, so they never shift the cards.  A deal's cards therefore depend on (seed, chunk, deal)
  only, never on how many cards the strategies took in earlier deals: every grid point and every
  strategy sees the same deals (common random numbers).
* Bounded draws use Lemire's multiply-shift with rejection on the top 32 bits (exactly uniform).
"""
from __future__ import annotations

import numpy as np
from numba import njit

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


@njit(cache=True, nogil=True, inline="always")
def xoshiro_step(s0, s1, s2, s3):
    """One xoshiro256** step on a state held in four scalars: ``(output, s0, s1, s2, s3)``."""
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@njit(cache=True, nogil=True)
def xoshiro_next(s):
    """Next 64-bit output of xoshiro256** with state ``s`` (``uint64[4]``, updated in place)."""
    r, s[0], s[1], s[2], s[3] = xoshiro_step(s[0], s[1], s[2], s[3])
    return r


@njit(cache=True, nogil=True, inline="always")
def splitmix(s):
    """One splitmix64 step on a state held in a local variable: returns ``(output, new state)``.

    Kernels keep a deal's state in scalars, never in arrays, so that inlined helpers cost no
    reference counting and the state stays in a register."""
    s = s + _GOLDEN
    z = s
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31)), s


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
def bounded(s, n):
    """Uniform integer in ``[0, n)`` from a deal's splitmix64 state ``s``: ``(value, new s)``."""
    x, s = splitmix(s)
    v, low = lemire(x, n)
    nn = np.uint64(n)
    if low < nn:
        t = (np.uint64(0x100000000) - nn) % nn
        while low < t:
            x, s = splitmix(s)
            v, low = lemire(x, n)
    return np.int64(v), s


@njit(cache=True, nogil=True, inline="always")
def draw_index(s, drawn, n, stacked):
    """The deck position of a deal's next card: ``(position, new s, new drawn)``.

    ``drawn`` is the mask of positions already dealt (decks of at most 64 cards).  A uniformly
    random undrawn position is found by rejection against it, so the deck array is never
    permuted and a deal's cards depend on its key alone.  With ``stacked`` the cards come in
    deck order instead (hand-stacked decks for tests).  Never draw more cards than the deck has.
    """
    if stacked:
        j = np.int64(0)
        while drawn & (np.uint64(1) << np.uint64(j)):
            j += 1
    else:
        j, s = bounded(s, n)
        while drawn & (np.uint64(1) << np.uint64(j)):
            j, s = bounded(s, n)
    return j, s, drawn | (np.uint64(1) << np.uint64(j))


@njit(cache=True, nogil=True, inline="always")
def deal_step(perm, k, n, s, stacked):
    """The house's way to deal: the ``k``-th card off a pack ``perm[:n]`` whose first ``k``
    cards are dealt, ``(card, new s)``.  One step of a Fisher-Yates shuffle from the front: a
    uniformly random undealt card (one :func:`bounded` draw) is swapped to position ``k``, so a
    deal pays only for the cards it deals and its cards depend on its key alone; any pack size,
    repeated cards (multi-deck packs) included.  With ``stacked`` the pack is dealt in its order
    (hand-stacked decks).  :func:`shuffle_prefix` is ``k`` steps at once; a deal of at most 64
    cards with no permutation array may use :func:`draw_index` (rejection against a mask).
    """
    if not stacked:
        j, s = bounded(s, n - k)
        j += k
        t = perm[k]
        perm[k] = perm[j]
        perm[j] = t
    return perm[k], s


@njit(cache=True, nogil=True)
def shuffle_prefix(perm, k, s):
    """Make ``perm[:k]`` a uniformly random ordered draw without replacement from ``perm``: ``k``
    :func:`deal_step` steps.  Returns the new splitmix state.  (Lemire's batched draws, six
    offsets per 64-bit output, measured slower here: their multiplications form one dependent
    chain.)"""
    n = perm.shape[0]
    for p in range(k):
        _, s = deal_step(perm, p, n, s, False)
    return s


@njit(cache=True, nogil=True, inline="always")
def uniform(s):
    """A double in ``[0, 1)`` from a splitmix64 state: ``(value, new s)``."""
    x, s = splitmix(s)
    return np.float64(x >> np.uint64(11)) * (1.0 / 9007199254740992.0), s


@njit(cache=True, nogil=True)
def xoshiro_bounded_sum(s, n, count):
    """``count`` bounded draws in ``[0, n)`` from xoshiro stream ``s`` (state in registers, the
    fastest way to use it): the benchmark's ceiling.  Returns their sum; ``s`` is advanced."""
    s0, s1, s2, s3 = s[0], s[1], s[2], s[3]
    nn = np.uint64(n)
    t = (np.uint64(0x100000000) - nn) % nn
    acc = np.int64(0)
    for _ in range(count):
        while True:
            x, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
            v, low = lemire(x, n)
            if low >= t:
                break
        acc += np.int64(v)
    s[0], s[1], s[2], s[3] = s0, s1, s2, s3
    return acc
