"""A compiled brute force of gin's minimum deadwood, for checks on a million hands.

Independent of :mod:`simkit.games.gin.melds` (no suit tables, no set options): it lists every
meld of the hand (every rank's subsets of three or four, every suit's runs of three or more
consecutive ranks, ace low) as masks over the hand's positions, then searches every collection
of disjoint melds depth first for the most melded value.  Cards are ``(rank 1..13, suit)``."""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _melds(ranks, suits, out):
    n = ranks.shape[0]
    m = 0
    for r in range(1, 14):                      # sets
        idx = 0
        cnt = 0
        for i in range(n):
            if ranks[i] == r:
                idx |= 1 << i
                cnt += 1
        if cnt >= 3:
            sub = idx
            while sub:
                c = 0
                x = sub
                while x:
                    x &= x - 1
                    c += 1
                if c >= 3:
                    out[m] = sub
                    m += 1
                sub = (sub - 1) & idx
    for s in range(4):                          # runs
        for a in range(1, 12):
            mask = 0
            for r in range(a, 14):
                pos = -1
                for i in range(n):
                    if ranks[i] == r and suits[i] == s:
                        pos = i
                if pos < 0:
                    break
                mask |= 1 << pos
                if r - a >= 2:
                    out[m] = mask
                    m += 1
    return m


@njit(cache=True)
def _search(melds, vals, k):
    """Most melded value over collections of disjoint melds (depth first, explicit stack: numba's
    cache cannot reload recursive functions)."""
    size = 8 * k + 8
    st_start = np.zeros(size, np.int64)
    st_used = np.zeros(size, np.int64)
    st_val = np.zeros(size, np.int64)
    top = 1
    best = 0
    while top > 0:
        top -= 1
        start, used, val = st_start[top], st_used[top], st_val[top]
        if val > best:
            best = val
        for j in range(start, k):
            if melds[j] & used == 0:
                st_start[top] = j + 1
                st_used[top] = used | melds[j]
                st_val[top] = val + vals[j]
                top += 1
    return best


@njit(cache=True)
def deadwood(ranks, suits):
    n = ranks.shape[0]
    out = np.zeros(512, np.int64)
    k = _melds(ranks, suits, out)
    vals = np.zeros(k, np.int64)
    for j in range(k):
        for i in range(n):
            if out[j] >> i & 1:
                vals[j] += min(ranks[i], 10)
    total = 0
    for i in range(n):
        total += min(ranks[i], 10)
    return total - _search(out[:k], vals, k)


@njit(cache=True)
def after_discard(ranks, suits):
    n = ranks.shape[0]
    best = 1 << 30
    r = np.zeros(n - 1, np.int64)
    s = np.zeros(n - 1, np.int64)
    for d in range(n):
        j = 0
        for i in range(n):
            if i != d:
                r[j] = ranks[i]
                s[j] = suits[i]
                j += 1
        v = deadwood(r, s)
        if v < best:
            best = v
    return best


def split(codes):
    """simkit codes -> (ranks with the ace low, suits) arrays."""
    codes = np.asarray(codes, np.int64)
    r = codes & 15
    return np.where(r == 14, 1, r), codes >> 4


def hands_from_rng(rng, n: int, k: int, dense: bool = False) -> np.ndarray:
    """``n`` random ``k``-card hands as simkit codes; ``dense`` draws from six consecutive ranks
    of all four suits (24 cards), so that melds and ties between them are common."""
    out = np.zeros((n, k), np.int64)
    full = np.array([s * 16 + r for s in range(4) for r in range(2, 15)], np.int64)
    for i in range(n):
        if dense:
            lo = rng.integers(1, 9)
            ranks = [14 if r == 1 else r for r in range(lo, lo + 6)]
            pool = np.array([s * 16 + r for s in range(4) for r in ranks], np.int64)
        else:
            pool = full
        out[i] = rng.choice(pool, k, replace=False)
    return out


@njit(cache=True)
def reference_values(hands, discard):
    """The brute-force deadwood of each row of ``hands`` (simkit codes; after the best discard
    when ``discard``)."""
    n, k = hands.shape
    out = np.zeros(n, np.int64)
    r = np.zeros(k, np.int64)
    s = np.zeros(k, np.int64)
    for i in range(n):
        for j in range(k):
            c = hands[i, j]
            r[j] = 1 if c & 15 == 14 else c & 15
            s[j] = c >> 4
        out[i] = after_discard(r, s) if discard else deadwood(r, s)
    return out
