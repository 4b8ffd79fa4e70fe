"""The shared shedding engine: turn order, dealing one at a time, hands of one or two decks,
drawing, passing, who is out.

Shedding games (Crazy Eights, Fan-Tan, Old Maid: ``simkit/games/{crazy_eights,fan_tan,old_maid}``)
are "get rid of your cards in turn".  What they share lives here, as small ``@njit`` helpers
inlined into each game's kernel:

* **Seats.**  Seat ``0`` (``p1``) sits at the dealer's left, seats increase clockwise, and the
  dealer is the last seat (``pK``).  A turn ``step`` is ``+1`` (clockwise) or ``-1``;
  :func:`step_seat` moves one seat, :func:`next_active` to the next seat still holding cards
  (the players who are out are skipped).
* **Dealing** one card at a time: the ``j``-th card dealt goes to seat :func:`dealt_to` ``(first,
  j, K, step)``; with ``n`` cards and ``K`` players the first ``n % K`` seats dealt to get one
  card more.  :func:`extra_first` gives the first seat of a deal in which the extra cards go to the
  first seats dealt to (``first``), the last ones (``last``: the dealer and his right-hand
  neighbours) or a random block of seats.
* **Hands** of one deck are a ``uint64`` mask (bit ``code`` of :mod:`simkit.core.cards`); of
  several decks, a :mod:`simkit.core.hand` hand (nested planes: the cards held at least once,
  twice, ...), whose ``add`` / ``remove`` / ``size`` / ``points`` (the points of the cards left
  under a per-code table) Crazy Eights uses.  :func:`random_member` draws a uniformly random card
  of a mask.
* **The stock** is the shuffled pack's positions after the deal, a pointer running down it
  (fan_tan and old_maid read ``deck[perm[top]]``; crazy_eights shuffles the cards themselves).
* **Passing**: consecutive passes are a plain integer in the kernel; a round of passes by every
  player still in with the stock empty is a blocked deal (:func:`blocked`).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simkit.core.bits import nth_code, popcount
from simkit.core.rng import bounded

_ONE = np.uint64(1)

EXTRA = ("first", "last", "random")  # who gets the extra cards of an uneven deal
EXTRA_FIRST, EXTRA_LAST, EXTRA_RANDOM = range(len(EXTRA))


# --------------------------------------------------------------------------- seats

@njit(cache=True, nogil=True, inline="always")
def step_seat(p, step, K):
    """The seat ``step`` (+1 or -1) from ``p`` among ``K`` seats."""
    q = p + step
    if q >= K:
        q -= K
    elif q < 0:
        q += K
    return q


@njit(cache=True, nogil=True, inline="always")
def next_active(p, step, K, size):
    """The first seat after ``p`` (in direction ``step``) whose ``size`` is positive; ``p``
    itself if no other seat has cards."""
    q = step_seat(p, step, K)
    for _ in range(K - 1):
        if size[q] > 0:
            return q
        q = step_seat(q, step, K)
    return p


@njit(cache=True, nogil=True, inline="always")
def active_count(size):
    k = 0
    for p in range(size.shape[0]):
        if size[p] > 0:
            k += 1
    return k


# --------------------------------------------------------------------------- dealing

@njit(cache=True, nogil=True, inline="always")
def dealt_to(first, j, K, step):
    """The seat that receives the ``j``-th card (from 0) of a deal one at a time that starts at
    seat ``first`` and goes round in direction ``step``."""
    return (first + step * (j % K)) % K


@njit(cache=True, nogil=True)
def extra_first(extra, n, K, step, s):
    """The seat dealt to first so that the ``n % K`` extra cards of an uneven deal go where
    ``extra`` (``EXTRA_*``) says: ``first``: to seat 0 onward (the deal starts at the dealer's
    left); ``last``: to the dealer (seat ``K-1``) and his neighbours against ``step``; ``random``:
    a block of seats starting at a random seat.  Returns ``(seat, new s)``."""
    r = n % K
    if extra == EXTRA_FIRST or r == 0:
        return 0, s
    if extra == EXTRA_LAST:
        # the r last seats in dealing order are 0..r-1 from the start: the block ends at K-1
        if step > 0:
            return K - r, s
        return r - 1, s
    v, s = bounded(s, K)
    return v, s


# --------------------------------------------------------------------------- hands

@njit(cache=True, nogil=True, inline="always")
def bit(c):
    return _ONE << np.uint64(c)


@njit(cache=True, nogil=True, inline="always")
def random_member(m, s):
    """A uniformly random card of the non-zero mask ``m``: ``(code, new s)``."""
    k, s = bounded(s, popcount(m))
    return nth_code(m, k), s


# --------------------------------------------------------------------------- passing, the end

@njit(cache=True, nogil=True, inline="always")
def blocked(passes, players_in, stock_left):
    """A deal is blocked when every player still in has passed in a row with the stock empty."""
    return stock_left == 0 and passes >= players_in

