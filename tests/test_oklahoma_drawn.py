"""The drawn card's arrangement (simkit/games/oklahoma/drawn.py) against the meld search.

``drawn_arrangement`` answers, without the search, the arrangement of a hand that held no meld
plus one card drawn; the reference is the general search ``ME.arrange`` (which it did not
write), compared on tens of thousands of random such hands: deadwood, the number of melds and
the meld's row (cards, the cards wilds stand for, order) identical.  The hands are built card by
card from a pool of a few suits and a window of ranks (so near-melds are common), a card kept
only while the hand stays meldless (by ``ME.arrange``); then any card is drawn: naturals, deuces
and the joker, a second copy of a card held, aces low and high.  Exact comparisons: no tolerance.
"""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from simkit.engines import melds as ME
from simkit.games.oklahoma import engine as E
from simkit.games.oklahoma.drawn import drawn_arrangement

DECK = np.array([s * 16 + r for s in range(4) for r in range(2, 15)] * 2 + [64], np.int64)


@njit
def _free_hand(h, mr, hv, out):
    """A random meldless hand into ``h`` (zeroed first)."""
    h[:] = 0
    suits = np.random.randint(1, 16)
    lo = 1 if np.random.random() < 0.25 else np.random.randint(2, 13)   # the ace: 1 and 14
    hi = min(14, lo + np.random.randint(2, 12))
    size = np.random.randint(2, 15)
    wild_p = (0.05, 0.3, 0.8)[np.random.randint(0, 3)]
    for _ in range(80):
        if h.sum() >= size:
            break
        c = DECK[np.random.randint(0, DECK.shape[0])]
        r, s = c & 15, c >> 4
        wild = c == 64 or r == 2
        if wild and np.random.random() > wild_p:
            continue
        inside = lo <= r <= hi or (r == 14 and lo == 1)
        if not wild and np.random.random() < 0.9 and (not (suits >> s) & 1 or not inside):
            continue
        if h[c] >= (1 if c == 64 else 2):
            continue
        h[c] += 1
        if ME.arrange(h, mr, hv, out)[1] > 0:
            h[c] -= 1


@njit
def _compare(seed, n, mr, hv):
    """``n`` random free hands plus a card: how many differ, and what the cases covered
    (:data:`COVER`)."""
    np.random.seed(seed)
    h = np.zeros(65, np.int64)
    a1 = np.zeros((20, ME.MELD_W), np.int64)
    a2 = np.zeros((20, ME.MELD_W), np.int64)
    cover = np.zeros(9, np.int64)
    bad = 0
    for _ in range(n):
        _free_hand(h, mr, hv, a1)
        c = DECK[np.random.randint(0, DECK.shape[0])]
        if h[c] >= (1 if c == 64 else 2):
            continue
        h[c] += 1
        a1[:] = -7
        a2[:] = -9
        d1, n1 = ME.arrange(h, mr, hv, a1)
        d2, n2 = drawn_arrangement(h, mr, c, hv, a2)
        same = d1 == d2 and n1 == n2
        for k in range(min(n1, 20)):
            for j in range(ME.MELD_W):
                same = same and a1[k, j] == a2[k, j]
        bad += not same
        w = h[64] + h[2] + h[18] + h[34] + h[50]
        row = a1[0]
        cover[0] += 1
        cover[1] += n1 == 1
        cover[2] += n1 == 1 and row[0] == ME.KIND_RUN
        cover[3] += n1 == 1 and row[0] == ME.KIND_RUN and row[2] & 15 == 1
        cover[4] += n1 == 1 and row[0] == ME.KIND_RUN and row[2 + 2 * row[1]] & 15 == 14
        cover[5] += n1 == 1 and row[1] > 3
        cover[6] += c == 64 or c & 15 == 2
        cover[7] += w >= 2 and n1 == 1
        cover[8] += h[c] == 2 and n1 == 1
    return bad, cover


COVER = ["hands", "one meld", "a run", "an ace-low run", "an ace-high run", "four cards",
         "a wild drawn", "two wilds or more, melded", "a second copy drawn, melded"]


@pytest.mark.parametrize("min_natural,n", [(1, 30000), (2, 8000), (3, 8000)])
def test_drawn_arrangement_is_the_searchs(min_natural, n):
    mr = ME.meld_rules(seq_ranks=ME.ACE_BOTH, min_size=3, max_size=4, set_suits=ME.SET_ANY,
                       wild_ranks=1 << 2, max_wild=4 - min_natural, min_natural=min_natural)
    bad, cover = _compare(20261204 + min_natural, n, mr, E.HAND_VALUE)
    assert bad == 0, f"{bad} of {cover[0]} arrangements differ from ME.arrange"
    # the comparison reached every shape (a share of the hands each)
    need = [0.9, 0.2, 0.05, 0.002, 0.002, 0.01, 0.05, 0.002, 0.002]
    for name, k, q in zip(COVER, cover, need):
        assert k >= q * n, f"only {k} of {cover[0]} hands covered {name}"


def test_all_wild_melds_fall_back():
    """``min_natural`` 0 (all-wild melds) is not handled: (-1, -1), the caller searches."""
    mr = ME.meld_rules(seq_ranks=ME.ACE_BOTH, min_size=3, max_size=4, set_suits=ME.SET_ANY,
                       wild_ranks=1 << 2, max_wild=4, min_natural=0)
    h = ME.counts("5s 9h 2c")
    assert drawn_arrangement(h, mr, 2, E.HAND_VALUE, np.zeros((4, ME.MELD_W), np.int64)) == (-1, -1)


def test_wild_values_order():
    """drawn._top's order of use: the joker above the deuces, the deuces alike (the search's
    order: most valuable first, then by code)."""
    hv = E.HAND_VALUE
    assert hv[64] > hv[2] == hv[18] == hv[34] == hv[50] > 0
