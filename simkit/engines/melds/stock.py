"""The stock of a multi-deck rummy (Oklahoma, Panguingue): a pack drawn lazily at random, or a
stacked deck dealt in its order.

The stock ``stk[st[0]:st[1]]`` holds the undrawn cards; each draw is the house's dealing step
(:func:`simkit.core.rng.deal_step`, from the deal's card stream ``rs[0]``).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simkit.core.rng import deal_step


@njit(cache=True, nogil=True, inline="always")
def draw_stock(stk, st, rs, stacked):
    """The next stock card (-1: the stock is empty); ``st[0]`` the stock's top, ``st[1]`` its
    end, ``rs[0]`` the card stream; a ``stacked`` stock is drawn in its order."""
    top, n = st[0], st[1]
    if top >= n:
        return -1
    c, rs[0] = deal_step(stk, top, n, rs[0], stacked)
    st[0] = top + 1
    return c


@njit(cache=True, nogil=True, inline="always")
def reset_stock(stk, st, deck):
    """Put the whole pack ``deck`` back as the stock, undrawn (``st[0]``, ``st[1]`` = 0, its size);
    the next :func:`draw_stock` calls deal it (a fresh random order, or a stacked deck's order)."""
    n = deck.shape[0]
    for j in range(n):
        stk[j] = deck[j]
    st[0], st[1] = 0, n


def stacked_deck(pack, stacked) -> np.ndarray:
    """A stacked deck: the ``stacked`` cards in order, then the pack's other cards in the pack's
    order (``stacked`` was checked against the pack)."""
    rest = list(pack)
    for c in stacked:
        rest.remove(int(c))
    return np.array(list(stacked) + rest, np.int64)
