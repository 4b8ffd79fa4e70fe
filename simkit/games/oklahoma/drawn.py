"""The arrangement of a meldless hand plus the one card drawn, without the full search.

A hand ``H`` that holds no meld (``Work.free``), given one more card ``c``: every meld of
``H + c`` holds more copies of ``c`` than ``H`` does (for a wild card: more wild cards, wild
cards being interchangeable in legality), else it would be a meld of ``H``.  So an arrangement
of ``H + c`` holds at most one meld, and the least-deadwood arrangement is the one meld ``S``
(its natural cards; it takes every wild card its room allows, the search's leftover rule) that
removes most value from the hand, or none.  :func:`drawn_arrangement` lists the candidates the
way the search does (:mod:`simkit.engines.melds.search`: by their lowest card's code, runs as
``_runs_of``, sets as ``_sets_of``, the card alone with two wilds as a set) and keeps the best,
ties broken by the search's order: the owner (the meld's first kind in value order), more
natural cards, fewer wilds needed, then as listed; its row is written as ``_write_all`` writes
it.  Oklahoma's meld rules only (ace low or high, three or four cards, sets of any suits,
deuces and the joker wild, ``min_natural`` >= 1); tests/test_oklahoma_drawn.py compares it
with ``ME.arrange`` on many random free hands.  :func:`_runs_at` repeats ``_runs_of``'s listing
loop on purpose (the order of listing is the tie-break to match); a change of the search's
order must change it too (the test then fails).

Measured (the drawn hands of 150 baseline hands, warm): ~155 ns a call, the search 480 ns
(inlining the two listers: ~118 ns, but Oklahoma's cold compile 173 s CPU against 167 s).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simkit.core.bits import highest_code, lowest_code, popcount
from simkit.core.jit import NO_REFCOUNT
from simkit.engines.melds.rules import JOKER, KIND_RUN, KIND_SET

NSEQ = 14      # rank positions of Oklahoma's runs: seq index j is position j + 1 (0: ace low)
RUNMAX = 4


@njit(cache=True, nogil=True, inline="always")
def _code_at(s, j):
    """The natural card of suit ``s`` at seq index ``j`` (0 and 13: the ace)."""
    return s * 16 + (14 if j == 0 else j + 1)


@njit(cache=True, nogil=True, inline="always")
def _lane(hand, s):
    """Bit ``j``: ``hand`` holds the natural of suit ``s`` at seq index ``j`` (the ace at 0
    and 13; index 1, the deuce's, never: deuces are wild)."""
    m = np.int64(0)
    for q in range(3, 15):
        if hand[s * 16 + q] > 0:
            m |= np.int64(1) << (q - 1)
    return m | ((m >> 13) & 1)


@njit(cache=True, nogil=True, inline="always")
def _top(nj, d0, d1, d2, d3, k, dw):
    """The value of the first ``k`` wild cards in the search's order of use (most valuable in
    hand first, then by code: the jokers, then the deuces by suit; ``dw`` the values in hand,
    the joker's above the deuces', tests/test_oklahoma_drawn.py)."""
    t = np.int64(0)
    for u in range(5):
        a = (nj, d0, d1, d2, d3)[u]
        x = min(a, k)
        t += x * dw[(JOKER, 2, 18, 34, 50)[u]]
        k -= x
    return t


@njit(cache=True, nogil=True, inline="always")
def _key(ov, oc, n, w0, c0, typ, sub):
    """The search's trying order of a one-meld arrangement, packed (smaller: tried first): the
    owner (value ``ov`` descending, code ``oc``), more naturals, fewer wilds needed, the lowest
    card's code ``c0``, runs (``typ`` 0) before sets (1), then ``sub`` (the listing's order)."""
    k = ((1023 - ov) << 6) | oc
    k = (k << 4) | (8 - n)
    k = (k << 3) | w0
    k = (k << 6) | c0
    k = (k << 2) | typ
    return (k << 22) | sub


# 11 parameters: the hand's wild counts as scalars (no array of them to allocate or count)
@njit(cache=True, nogil=True, **NO_REFCOUNT)
def _runs_at(hand, mr, x, c, W, nj, d0, d1, d2, d3, dw):
    """The best run listed under the natural ``x`` (its lowest code: ``_runs_of``'s listing)
    that holds ``c`` (-1: any), ``(gain, key, pay, n)``, gain -1 when none.  The gain is the
    value the meld takes out of the hand, its naturals' and the wilds' it takes."""
    bg, bk, bp, bn = np.int64(-1), np.int64(0), np.int64(0), 0
    r, s = x & 15, x >> 4
    if r == 14:                      # the ace owns no run shorter than the whole suit
        return bg, bk, bp, bn
    mw = min(W, mr.max_wild)
    pi = r - 1
    lane = _lane(hand, s)
    jlo = max(0, pi - RUNMAX + 1)
    jhi = min(NSEQ - 1, pi + RUNMAX - 1)
    win = ((np.int64(1) << (jhi + 1)) - 1) & ~((np.int64(1) << jlo) - 1)
    A = lane & win & ~((np.int64(2) << pi) - 1)
    if jlo == 0 and lane & 1:
        A |= 1
    if A == 0:
        return bg, bk, bp, bn
    cbits = np.int64(0)              # c's seq indices (the ace: both)
    if c >= 0:
        rc = c & 15
        if c >> 4 != s:
            return bg, bk, bp, bn
        cbits = (np.int64(1) << (rc - 1)) | (np.int64(1) if rc == 14 else np.int64(0))
    los = (A & ((np.int64(1) << pi) - 1)) | (np.int64(1) << pi)
    while los:
        lo = lowest_code(los)
        los &= los - 1
        his = A & ~((np.int64(2) << pi) - 1) & ((np.int64(1) << (lo + RUNMAX)) - 1)
        his |= np.int64(1) << pi
        while his:
            hi = highest_code(his)
            his &= ~(np.int64(1) << hi)
            inner = ((np.int64(1) << hi) - 1) & ~((np.int64(2) << lo) - 1)
            inner &= ~(np.int64(1) << pi)
            ai = A & inner
            u = popcount(inner) - popcount(ai)
            if u > mw:
                continue
            base = (np.int64(1) << lo) | (np.int64(1) << hi) | (np.int64(1) << pi) | ai
            xs = np.int64(0)
            while True:
                nx = popcount(xs)
                P = base & ~xs
                if u + nx <= mw and (c < 0 or P & cbits):
                    n = popcount(P)
                    w0 = max(u + nx, mr.min_size - n)
                    w1 = min(mr.max_wild, RUNMAX - n)
                    if n >= 2 and w0 <= mw and w0 <= w1 and n >= mr.min_natural:
                        g = _top(nj, d0, d1, d2, d3, min(W, w1), dw)
                        ov, oc = np.int64(-1), 0
                        q = P
                        while q:
                            cc = _code_at(s, lowest_code(q))
                            q &= q - 1
                            v = dw[cc]
                            g += v
                            if v > ov or (v == ov and cc < oc):
                                ov, oc = v, cc
                        k = _key(ov, oc, n, w0, x, 0, (lo << 18) | ((15 - hi) << 14) | xs)
                        if g > bg or (g == bg and k < bk):
                            bg, bk, bp, bn = g, k, s | (P << 2), n
                xs = (xs - ai) & ai
                if xs == 0:
                    break
    return bg, bk, bp, bn


# 11 parameters: as _runs_at, the wild counts come as scalars (no array)
@njit(cache=True, nogil=True, **NO_REFCOUNT)
def _sets_at(hand, mr, x, c, W, nj, d0, d1, d2, d3, dw):
    """The best set listed under the natural ``x`` (``_sets_of``'s listing for any suits,
    then ``x`` alone with wild cards) that holds ``c`` (-1: any): as :func:`_runs_at`."""
    bg, bk, bp, bn = np.int64(-1), np.int64(0), np.int64(0), 0
    r, s = x & 15, x >> 4
    if c >= 0 and (c & 15 != r or c >> 4 < s):
        return bg, bk, bp, bn
    mw = min(W, mr.max_wild)
    a0, a1, a2, a3 = hand[r], hand[16 + r], hand[32 + r], hand[48 + r]
    own = (a0, a1, a2, a3)[s] - 1
    n1 = a1 if s < 1 else 0
    n2 = a2 if s < 2 else 0
    n3 = a3 if s < 3 else 0
    for k1 in range(n1, -1, -1):
        for k2 in range(n2, -1, -1):
            for k3 in range(n3, -1, -1):
                for k0 in range(own, -1, -1):
                    n = 1 + k0 + k1 + k2 + k3
                    if n < 1 or n > mr.max_size or n < mr.min_natural:
                        continue
                    w0 = max(0, mr.min_size - n)
                    w1 = min(mr.max_wild, mr.max_size - n)
                    if w0 > mw or w0 > w1:
                        continue
                    if s == 1:
                        ks = (0, k0 + 1, k2, k3)
                    elif s == 2:
                        ks = (0, 0, k0 + 1, k3)
                    elif s == 3:
                        ks = (0, 0, 0, k0 + 1)
                    else:
                        ks = (k0 + 1, k1, k2, k3)
                    if c >= 0 and ks[c >> 4] == 0:
                        continue
                    g = _top(nj, d0, d1, d2, d3, min(W, w1), dw)
                    ov, oc = np.int64(-1), 0
                    pay = np.int64(r)
                    for t in range(4):
                        pay |= np.int64(ks[t]) << (4 + 6 * t)
                        v = dw[t * 16 + r]
                        g += ks[t] * v
                        if ks[t] > 0 and v > ov:
                            ov, oc = v, t * 16 + r
                    sub = 0
                    for t in range(1, 4):
                        sub = sub * 8 + (7 - ks[t] if t > s else 0)
                    sub = sub * 8 + 7 - ks[s]
                    k = _key(ov, oc, n, w0, x, 1 if n > 1 else 2, sub)
                    if g > bg or (g == bg and k < bk):
                        bg, bk, bp, bn = g, k, pay, n
    return bg, bk, bp, bn


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def drawn_arrangement(hand, mr, c, dw, out):
    """``(deadwood, n_melds)`` of ``hand`` (``ME.arrange_in``'s result, the meld written into
    ``out[0]``), when ``hand`` less one copy of ``c`` (the card drawn, natural or wild) holds no
    meld: module docstring.  ``(-1, -1)`` when these rules are not the ones handled here (all-wild
    melds: ``min_natural`` 0)."""
    if mr.min_natural < 1:
        return np.int64(-1), -1
    nj, d0, d1, d2, d3 = hand[JOKER], hand[2], hand[18], hand[34], hand[50]
    W = nj + d0 + d1 + d2 + d3
    mw = min(W, mr.max_wild)
    tot = np.int64(0)
    for x in range(JOKER + 1):
        tot += hand[x] * dw[x]
    bg, bk, bp, bn, bkind = np.int64(-1), np.int64(0), np.int64(0), 0, 0
    if c == JOKER or c & 15 == 2:
        # a wild drawn: any meld (each holds every wild card); the anchors that have a partner
        # (a run's higher natural within reach, a set's mate) or wilds enough to meld alone
        lanes = (_lane(hand, 0), _lane(hand, 1), _lane(hand, 2), _lane(hand, 3))
        for x in range(64):
            r = x & 15
            if hand[x] == 0 or r < 3:
                continue
            s = x >> 4
            lane = lanes[s]
            pi = r - 1
            reach = (lane >> (pi + 1)) & 7
            if r < 14 and (reach or (pi <= 3 and lane & 1)):
                g, kk, pay, n = _runs_at(hand, mr, x, -1, W, nj, d0, d1, d2, d3, dw)
                if g > bg or (g == bg and g >= 0 and kk < bk):
                    bg, bk, bp, bn, bkind = g, kk, pay, n, KIND_RUN
            mates = hand[x] > 1
            for t in range(s + 1, 4):
                mates = mates or hand[t * 16 + r] > 0
            if mates or mw >= 2:
                g, kk, pay, n = _sets_at(hand, mr, x, -1, W, nj, d0, d1, d2, d3, dw)
                if g > bg or (g == bg and g >= 0 and kk < bk):
                    bg, bk, bp, bn, bkind = g, kk, pay, n, KIND_SET
    else:
        # a natural drawn: the melds that hold it, listed under its suit's naturals up to three
        # positions below it (runs) and its rank's in suits up to its own (sets)
        r, s = c & 15, c >> 4
        lane = _lane(hand, s)
        for j in range(2, 13):
            if not (lane >> j) & 1:
                continue
            if not (j <= r - 1 <= j + 3 or (r == 14 and j <= 3)):
                continue
            g, kk, pay, n = _runs_at(hand, mr, s * 16 + j + 1, c, W, nj, d0, d1, d2, d3, dw)
            if g > bg or (g == bg and g >= 0 and kk < bk):
                bg, bk, bp, bn, bkind = g, kk, pay, n, KIND_RUN
        for t in range(s + 1):
            if hand[t * 16 + r] > 0:
                g, kk, pay, n = _sets_at(hand, mr, t * 16 + r, c, W, nj, d0, d1, d2, d3, dw)
                if g > bg or (g == bg and g >= 0 and kk < bk):
                    bg, bk, bp, bn, bkind = g, kk, pay, n, KIND_SET
    if bg < 0:
        return tot, 0
    w = min(W, min(mr.max_wild, mr.max_size - bn))
    _write_row(out, bkind, bp, bn, w, nj, d0, d1, d2, d3)
    return tot - bg, 1


# 10 parameters: the meld found and the hand's wild counts, as scalars
@njit(cache=True, nogil=True, **NO_REFCOUNT)
def _write_row(out, kind, pay, n, w, nj, d0, d1, d2, d3):
    """The meld's row into ``out[0]`` as the search's ``_write_all`` writes it: its ``w`` wild
    cards the first in order of use (the jokers, then deuces by suit), in the row by code; a
    set's naturals by suit, then its wilds standing for clubs (sets of any suits); a run's cards
    by position, the window its naturals' span extended upward (downward at the top)."""
    for j in range(out.shape[1]):
        out[0, j] = -1
    # the wilds used, by code: deuces by suit, then jokers
    uj = min(nj, w)
    left = w - uj
    wc = np.int64(0)             # 7 bits a wild card, in row order
    nw = 0
    for u in range(4):
        for _ in range(min((d0, d1, d2, d3)[u], left)):
            wc |= np.int64(u * 16 + 2) << (7 * nw)
            nw += 1
            left -= 1
    for _ in range(uj):
        wc |= np.int64(JOKER) << (7 * nw)
        nw += 1
    m = 0
    if kind == KIND_SET:
        r = pay & 15
        for s in range(4):
            for _ in range((pay >> (4 + 6 * s)) & 63):
                out[0, 3 + 2 * m] = s * 16 + r
                out[0, 4 + 2 * m] = s * 16 + r
                m += 1
        for j in range(w):
            out[0, 3 + 2 * m] = (wc >> (7 * j)) & 127
            out[0, 4 + 2 * m] = r
            m += 1
        out[0, 2] = r
    else:
        s = pay & 3
        P = pay >> 2
        L = n + w
        hi = min(NSEQ - 1, lowest_code(P) + L - 1)
        lo = hi - L + 1
        j2 = 0
        for j in range(lo, hi + 1):
            cc = s * 16 + (14 if j == 0 else j + 1)
            if (P >> j) & 1:
                out[0, 3 + 2 * m] = cc
            else:
                out[0, 3 + 2 * m] = (wc >> (7 * j2)) & 127
                j2 += 1
            out[0, 4 + 2 * m] = cc
            m += 1
        out[0, 2] = s * 16 + lo + 1
    out[0, 0] = kind
    out[0, 1] = m
