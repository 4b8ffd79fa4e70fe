"""The stock of a multi-deck rummy (Oklahoma, Panguingue): a pack drawn lazily at random, or a
stacked deck dealt in its order.

The stock ``stk[st[0]:st[1]]`` holds the undrawn cards; each draw swaps a uniformly random undrawn
card to the front (a Fisher-Yates shuffle done one step per draw, from the deal's card stream
``rs[0]``), so a deal's cards depend on its key alone and a deal pays only for the cards it draws.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simkit.core.rng import bounded


@njit(cache=True, nogil=True, inline="always")
def draw_stock(stk, st, rs, stacked):
    """The next stock card (-1: the stock is empty); ``st[0]`` the stock's top, ``st[1]`` its
    end, ``rs[0]`` the card stream; a ``stacked`` stock is drawn in its order."""
    top, n = st[0], st[1]
    if top >= n:
        return -1
    if not stacked:
        j, rs[0] = bounded(rs[0], n - top)
        j += top
        t = stk[top]
        stk[top] = stk[j]
        stk[j] = t
    st[0] = top + 1
    return stk[top]


def stacked_deck(pack, stacked) -> np.ndarray:
    """A stacked deck: the ``stacked`` cards in order, then the pack's other cards in the pack's
    order (``stacked`` was checked against the pack)."""
    rest = list(pack)
    for c in stacked:
        rest.remove(int(c))
    return np.array(list(stacked) + rest, np.int64)
