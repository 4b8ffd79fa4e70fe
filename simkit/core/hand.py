"""Hands that may hold several copies of a card (several decks) and identical jokers.

A hand of one deck is a ``uint64`` mask (bit ``code``, :mod:`simkit.core.cards`).  A hand of up to
``P`` copies of each card is ``P`` such masks, *planes*, and a joker count:

* **Layout.**  A hand is a 1-D ``uint64[P + 1]`` array ``h``: ``h[j]`` (``0 <= j < P``) has bit
  ``c`` set when card ``c`` is held *more than* ``j`` times, and ``h[P]`` is the number of jokers
  (the one joker code :data:`JOKER` = 64, which has no bit in a mask).  So the planes are nested
  (``h[j + 1]`` is a subset of ``h[j]``), ``h[0]`` is the mask of the distinct natural cards held,
  and a card's count is the number of planes holding its bit.  A game keeps its ``K`` seats' hands
  as the rows of one ``uint64[K, P + 1]`` work array (:func:`hands`) and hands a row, ``H[p]``, to
  these functions (numba's refcount pruning drops the row view's reference counts when the
  function is inlined: measured, no incref/decref in the loop).  Kernels may read the planes
  directly (``H[p, 0]`` is the distinct mask, ``H[p, 1]`` the cards held twice or more); only the
  functions here write them, so the planes stay nested.
* **Why planes.**  A scratch benchmark of the issue (#25) found them at parity with a plain mask
  for one deck and about twice as fast as an ``int64[65]`` count vector for 2-3 decks: adding and
  removing are a few branch-free mask operations, and the hand's legal cards are mask
  expressions over ``h[0]`` as with one deck.  :func:`to_counts` gives the count vector where a
  search wants it (the meld engine).
* **Two planes in registers.**  :func:`add2` / :func:`remove2` are :func:`add` / :func:`remove`
  of a two-plane hand whose planes a kernel holds in local variables ``(a, b)`` through an inner
  loop (Crazy Eights' draws and play: measured about 3% faster there than reading and writing
  the row at each card); the kernel stores them back into the row after.
* **Copies beyond ``P``.**  :func:`add` refuses a card already held ``P`` times: it returns
  ``False`` and leaves the hand unchanged (jokers are never refused).  :func:`remove` refuses a
  card not held the same way.  Kernels that know the move is legal ignore the result; tests and
  Python callers check it.

Every function is ``@njit(cache=True, nogil=True)`` and runs as plain Python under
``NUMBA_DISABLE_JIT=1`` (the bit intrinsics come from :mod:`simkit.core.bits`).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simkit.core.bits import lowest_code, nth_code, popcount
from simkit.core.cards import JOKER

_ONE = np.uint64(1)
_LANE = np.uint64(0xFFFF)
N_COUNTS = JOKER + 1   # length of a count vector (:func:`to_counts`): codes 0..63 and the joker


def hands(K: int, P: int) -> np.ndarray:
    """``K`` empty hands of ``P`` planes (up to ``P`` copies of a card): ``uint64[K, P + 1]``."""
    if P < 1:
        raise ValueError("a hand has at least one plane")
    return np.zeros((K, P + 1), np.uint64)


@njit(cache=True, nogil=True, inline="always")
def clear(h):
    """Empty the hand."""
    for j in range(h.shape[0]):
        h[j] = np.uint64(0)


@njit(cache=True, nogil=True, inline="always")
def add2(a, b, c):
    """:func:`add` on the planes ``(a, b)`` of a two-plane hand, natural cards only: the new
    ``(a, b)`` (unchanged when ``c`` is held twice already)."""
    a, b, x = np.uint64(a), np.uint64(b), _ONE << np.uint64(c)
    return a | x, b | (a & x)


@njit(cache=True, nogil=True, inline="always")
def remove2(a, b, c):
    """:func:`remove` on the planes ``(a, b)`` of a two-plane hand, natural cards only: the new
    ``(a, b)`` (unchanged when ``c`` is not held)."""
    a, b, x = np.uint64(a), np.uint64(b), _ONE << np.uint64(c)
    two = b & x
    return a ^ ((a & x) ^ two), b ^ two


@njit(cache=True, nogil=True, inline="always")
def add(h, c):
    """Add one copy of card ``c`` (a natural card 0..63, or :data:`JOKER`).  Returns ``False``
    (the hand unchanged) if it already holds ``c`` in every plane (``P`` copies).  Branch-free
    over the planes: the bit goes into the first plane without it."""
    P = h.shape[0] - 1
    if c == JOKER:
        h[P] += _ONE
        return True
    b = _ONE << np.uint64(c)
    if P == 2:                  # two decks, the common case, unrolled (measured in Hearts)
        full = h[1] & b
        h[0], h[1] = add2(h[0], h[1], c)
        return full == 0
    for j in range(P):
        w = h[j] & b
        h[j] |= b
        b = w
    return b == 0


@njit(cache=True, nogil=True, inline="always")
def remove(h, c):
    """Remove one copy of card ``c``.  Returns ``False`` (the hand unchanged) if it holds none.
    Branch-free over the planes: the bit leaves the highest plane that has it."""
    P = h.shape[0] - 1
    if c == JOKER:
        if h[P] == 0:
            return False
        h[P] -= _ONE
        return True
    b = _ONE << np.uint64(c)
    if P == 2:
        held = h[0] & b
        h[0], h[1] = remove2(h[0], h[1], c)
        return held != 0
    for j in range(P - 1, -1, -1):
        x = h[j] & b
        h[j] ^= x
        b ^= x
    return b == 0


@njit(cache=True, nogil=True, inline="always")
def count(h, c):
    """The number of copies of card ``c`` held (jokers for :data:`JOKER`)."""
    P = h.shape[0] - 1
    if c == JOKER:
        return np.int64(h[P])
    n = 0
    for j in range(P):
        n += np.int64((h[j] >> np.uint64(c)) & _ONE)
    return n


@njit(cache=True, nogil=True, inline="always")
def size(h):
    """The number of cards held, every copy and every joker counted."""
    P = h.shape[0] - 1
    n = np.int64(h[P])
    for j in range(P):
        n += popcount(h[j])
    return n


@njit(cache=True, nogil=True, inline="always")
def size_in(h, m):
    """The number of natural cards held among the mask ``m`` (e.g. a suit's lane), copies
    counted."""
    n = 0
    for j in range(h.shape[0] - 1):
        n += popcount(h[j] & np.uint64(m))
    return n


@njit(cache=True, nogil=True, inline="always")
def distinct(h):
    """The mask of the natural cards held at least once (plane 0)."""
    return h[0]


@njit(cache=True, nogil=True, inline="always")
def jokers(h):
    """The number of jokers held."""
    return np.int64(h[h.shape[0] - 1])


@njit(cache=True, nogil=True, inline="always")
def kth(h, k):
    """The ``k``-th physical card (``0 <= k < size(h)``) in the canonical order: plane 0's cards
    by code (every card's first copy), then plane 1's (second copies), ..., then the jokers.
    Each physical card has exactly one ``k``, so ``kth(h, bounded(size(h)))`` is a uniformly
    random card of the hand, each copy as likely as any other card."""
    P = h.shape[0] - 1
    for j in range(P):
        n = popcount(h[j])
        if k < n:
            return nth_code(h[j], k)
        k -= n
    return np.int64(JOKER)


@njit(cache=True, nogil=True, inline="always")
def _spread(x):
    """Bits ``0..15`` of ``x`` moved to bits ``0, 4, ..., 60`` (one per nibble)."""
    x = (x | (x << np.uint64(24))) & np.uint64(0x000000FF000000FF)
    x = (x | (x << np.uint64(12))) & np.uint64(0x000F000F000F000F)
    x = (x | (x << np.uint64(6))) & np.uint64(0x0303030303030303)
    return (x | (x << np.uint64(3))) & np.uint64(0x1111111111111111)


@njit(cache=True, nogil=True, inline="always")
def suit_ranks(h, s):
    """The counts of suit ``s``'s ranks, packed: nibble ``r`` (bits ``4r .. 4r+3``) holds the
    copies of rank ``r`` (the card ``16 s + r``) held, for ``r`` in ``0..15``; up to 15 planes
    fit.  ``(suit_ranks(h, s) >> 4 * r) & 15`` is one count; meld searches read runs off it."""
    shift = np.uint64(16 * s)
    out = np.uint64(0)
    for j in range(h.shape[0] - 1):
        out += _spread((h[j] >> shift) & _LANE)
    return out


@njit(cache=True, nogil=True)
def to_counts(h, out):
    """Fill ``out`` (``int64[65]``) with the hand's count vector: ``out[c]`` the copies of card
    ``c``, ``out[64]`` the jokers (the meld engine's input)."""
    for c in range(N_COUNTS):
        out[c] = 0
    P = h.shape[0] - 1
    for j in range(P):
        x = h[j]
        while x:
            out[lowest_code(x)] += 1
            x &= x - _ONE
    out[JOKER] = np.int64(h[P])


@njit(cache=True, nogil=True)
def to_codes(h, out):
    """Write the hand's cards into ``out`` in ascending code order (a card's copies together,
    the jokers last); returns their number.  ``out`` holds at least ``size(h)`` entries."""
    n = 0
    x = h[0]
    while x:
        c = lowest_code(x)
        x &= x - _ONE
        for _ in range(count(h, c)):
            out[n] = c
            n += 1
    for _ in range(jokers(h)):
        out[n] = JOKER
        n += 1
    return n


@njit(cache=True, nogil=True)
def from_codes(h, codes):
    """Make ``h`` the hand of the cards ``codes`` (any order, copies repeated).  Returns
    ``False`` if a card came more than ``P`` times (its extra copies are not added)."""
    clear(h)
    ok = True
    for i in range(codes.shape[0]):
        ok = add(h, codes[i]) and ok
    return ok


@njit(cache=True, nogil=True)
def points(h, table):
    """The sum of ``table[c]`` over the cards held, copies counted; ``table[64]`` is read for
    jokers only when the hand holds one (a table of 64 entries does for hands without)."""
    P = h.shape[0] - 1
    t = 0
    for j in range(P):
        x = h[j]
        while x:
            t += table[lowest_code(x)]
            x &= x - _ONE
    if h[P]:
        t += table[JOKER] * np.int64(h[P])
    return t
