"""Listing melds: what a hand can lay down (:func:`legal_melds`), what a card taken from the pile
makes with it (:func:`melds_with`), where one card can be added (:func:`add_options`), which
joker a natural card frees (:func:`joker_swap`) and whether given cards are one meld
(:func:`check_meld`).  Rows and wild naming as in :mod:`simkit.engines.melds`.

Distinct melds.  Two melds are the same when their kind, key, size and cards position by position
are: a run's wild cards take its wild positions in ascending code order and a set's wilds follow
its natural cards in ascending code order, so a meld is its kind, key, the multiset of its cards
and (runs) the positions of its wilds.  All-wild melds (``min_natural`` 0) are listed once a
multiset of wild cards, in :func:`simkit.engines.melds.search.arrange`'s form (a set of the
lowest rank sets may have, else a run of clubs from the lowest position).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simkit.core.bits import highest_code, lowest_code, popcount
from simkit.engines.melds.rules import JOKER, KIND_RUN, KIND_SET, SET_ANY, SET_DISTINCT
from simkit.engines.melds.search import allwild_size, set_limit, set_wild_suits


@njit(cache=True, nogil=True, inline="always")
def _rank_at(q):
    return 14 if q == 1 else q


@njit(cache=True, nogil=True, inline="always")
def _is_wild(R, c):
    return c == JOKER or (0 <= c < 64 and (R.wild_ranks >> (c & 15)) & 1 == 1)


@njit(cache=True, nogil=True, inline="always")
def _is_natural(R, c):
    return 0 <= c < 64 and 2 <= (c & 15) <= 14 and (R.wild_ranks >> (c & 15)) & 1 == 0


@njit(cache=True, nogil=True)
def _seq(R, seqp):
    """``seqp[j]``: the rank position of seq index ``j``; returns how many there are."""
    n = 0
    for q in range(1, 15):
        if (R.seq_ranks >> q) & 1:
            seqp[n] = q
            n += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def _seq_index(seqp, N, q):
    """The seq index of rank position ``q``, -1 if runs do not use it."""
    for t in range(N):
        if seqp[t] == q:
            return t
    return -1


@njit(cache=True, nogil=True)
def _wild_types(cnt, R, wt, wn):
    """The distinct wild codes of the hand ascending (``wt``) and their counts (``wn``)."""
    T = 0
    for c in range(65):
        if cnt[c] > 0 and _is_wild(R, c):
            wt[T] = c
            wn[T] = cnt[c]
            T += 1
    return T


@njit(cache=True, nogil=True)
def _first_combo(mv, wn, T, w):
    """The first vector ``mv`` (``0 <= mv[i] <= wn[i]``, sum ``w``), filling the last types first
    (so the first vector ascends lexicographically); False if there is none."""
    left = w
    for i in range(T - 1, -1, -1):
        mv[i] = min(wn[i], left)
        left -= mv[i]
    return left == 0


@njit(cache=True, nogil=True)
def _next_combo(mv, wn, T):
    """The next vector of the same sum in ascending lexicographic order; False after the last."""
    # find the rightmost i that can grow while something to its right can shrink
    carry = 0
    for i in range(T - 1, -1, -1):
        if carry > 0 and mv[i] < wn[i]:
            mv[i] += 1
            left = carry - 1
            for j in range(T - 1, i, -1):
                mv[j] = min(wn[j], left)
                left -= mv[j]
            return True
        carry += mv[i]
        mv[i] = 0
    return False


@njit(cache=True, nogil=True)
def _emit_wilds(mv, wt, T, codes):
    """The wild codes of vector ``mv`` ascending into ``codes``; returns how many."""
    n = 0
    for i in range(T):
        for _ in range(mv[i]):
            codes[n] = wt[i]
            n += 1
    return n


@njit(cache=True, nogil=True)
def _clear(out, k):
    for j in range(out.shape[1]):
        out[k, j] = -1


@njit(cache=True, nogil=True)
def _enum(cnt, R, must, min_n, out):
    """Every distinct legal meld of ``cnt`` with ``min_n`` cards at least that holds card ``must``
    (-1: any) into ``out``; their count, or -1 when ``out`` is too small."""
    seqp = np.empty(16, np.int64)
    N = _seq(R, seqp)
    wt = np.empty(65, np.int64)
    wn = np.empty(65, np.int64)
    T = _wild_types(cnt, R, wt, wn)
    W = 0
    for i in range(T):
        W += wn[i]
    mv = np.empty(T + 1, np.int64)
    codes = np.empty(64, np.int64)
    wmust = -1                     # the wild type ``must`` is, if it is wild
    for i in range(T):
        if wt[i] == must:
            wmust = i
    mnat = must if _is_natural(R, must) else -1
    if must >= 0 and mnat < 0 and wmust < 0:
        return 0
    rows = out.shape[0]
    k = 0
    mw = min(R.max_wild, W)
    runmax = min(R.max_size, N)
    # ---- runs
    if R.runs:
        for s in range(4):
            if mnat >= 0 and (mnat >> 4) != s:
                continue
            for lo in range(N):
                for L in range(R.min_size, runmax + 1):
                    hi = lo + L - 1
                    if hi >= N:
                        break
                    avail = np.int64(0)        # window bits (from lo) a natural may fill
                    pos_must = np.int64(0)     # window bits where ``must`` would sit
                    for j in range(L):
                        rk = _rank_at(seqp[lo + j])
                        c = s * 16 + rk
                        if (R.wild_ranks >> rk) & 1 == 0 and cnt[c] > 0:
                            avail |= np.int64(1) << j
                        if c == mnat:
                            pos_must |= np.int64(1) << j
                    if mnat >= 0 and pos_must == 0:
                        continue
                    full = (np.int64(1) << L) - 1
                    forced = full & ~avail
                    if popcount(forced) > mw or (forced and not R.run_wilds):
                        continue
                    both_aces = L >= 2 and seqp[lo] == 1 and seqp[hi] == 14
                    ace_c = s * 16 + 14
                    # wild positions: forced plus any subset of the available ones
                    x = np.int64(0)
                    while True:
                        wp = forced | x
                        nw = popcount(wp)
                        nn = L - nw
                        ok = nw <= mw and (nw == 0 or R.run_wilds) and nn >= max(R.min_natural, 1)
                        ok = ok and L >= min_n
                        if ok and mnat >= 0 and (pos_must & ~wp) == 0:
                            ok = False
                        if ok and both_aces and not (wp & 1) and not ((wp >> (L - 1)) & 1):
                            ok = cnt[ace_c] >= 2
                        if ok and _first_combo(mv, wn, T, nw):
                            while True:
                                if wmust < 0 or mv[wmust] > 0:
                                    if k >= rows:
                                        return -1
                                    _emit_wilds(mv, wt, T, codes)
                                    _clear(out, k)
                                    out[k, 0] = KIND_RUN
                                    out[k, 1] = L
                                    out[k, 2] = s * 16 + seqp[lo]
                                    a = 0
                                    for j in range(L):
                                        c = s * 16 + _rank_at(seqp[lo + j])
                                        out[k, 4 + 2 * j] = c
                                        if (wp >> j) & 1:
                                            out[k, 3 + 2 * j] = codes[a]
                                            a += 1
                                        else:
                                            out[k, 3 + 2 * j] = c
                                    k += 1
                                if not _next_combo(mv, wn, T):
                                    break
                        x = (x - avail) & avail
                        if x == 0:
                            break
    # ---- sets
    if R.sets:
        for r in range(2, 15):
            if not (R.set_ranks >> r) & 1 or (R.wild_ranks >> r) & 1:
                continue
            if mnat >= 0 and (mnat & 15) != r:
                continue
            n0 = max(cnt[r], 0)
            n1 = max(cnt[16 + r], 0)
            n2 = max(cnt[32 + r], 0)
            n3 = max(cnt[48 + r], 0)
            if n0 + n1 + n2 + n3 == 0:
                continue
            free = (R.free_set_ranks >> r) & 1
            mode = SET_ANY if free else R.set_suits
            for k0 in range(n0, -1, -1):
                for k1 in range(n1, -1, -1):
                    for k2 in range(n2, -1, -1):
                        for k3 in range(n3, -1, -1):
                            nn = k0 + k1 + k2 + k3
                            if nn < max(R.min_natural, 1):
                                continue
                            if mnat >= 0 and (k0, k1, k2, k3)[mnat >> 4] == 0:
                                continue
                            suits = (k0 > 0) + (k1 > 0) + (k2 > 0) + (k3 > 0)
                            distinct = k0 <= 1 and k1 <= 1 and k2 <= 1 and k3 <= 1
                            if mode == SET_DISTINCT and not distinct:
                                continue
                            if mode != SET_ANY and mode != SET_DISTINCT and not (suits == 1 or distinct):
                                continue
                            one_suit = suits == 1
                            kinds = k0 | (k1 << 6) | (k2 << 12) | (k3 << 18)
                            for w in range(0, mw + 1):
                                n = nn + w
                                if n < R.min_size or n < min_n:
                                    continue
                                if mode == SET_ANY:
                                    lim = set_limit(R, mode, False)
                                elif mode == SET_DISTINCT:
                                    lim = set_limit(R, mode, True)
                                else:            # one suit: any size; all different: four
                                    lim = set_limit(R, mode, not one_suit)
                                if n > lim:
                                    continue
                                if not _first_combo(mv, wn, T, w):
                                    continue
                                names = set_wild_suits(kinds, nn, w, mode)
                                while True:
                                    if wmust < 0 or mv[wmust] > 0:
                                        if k >= rows:
                                            return -1
                                        _emit_wilds(mv, wt, T, codes)
                                        _set_row(out, k, r, kinds, nn, w, names, codes)
                                        k += 1
                                    if not _next_combo(mv, wn, T):
                                        break
    # ---- all-wild melds
    if R.min_natural == 0:
        big = allwild_size(R)
        for w in range(R.min_size, min(big, W) + 1):
            if w < min_n or not _first_combo(mv, wn, T, w):
                continue
            while True:
                if wmust < 0 or mv[wmust] > 0:
                    if k >= rows:
                        return -1
                    _emit_wilds(mv, wt, T, codes)
                    _allwild_row(out, k, R, seqp, w, codes)
                    k += 1
                if not _next_combo(mv, wn, T):
                    break
    return k


@njit(cache=True, nogil=True)
def _set_row(out, k, r, kinds, nn, w, names, codes):
    """Row ``k``: a set of rank ``r``, its natural cards by suit (six bits of copies a suit in
    ``kinds``), then the wilds ``codes[:w]`` naming the suits in ``names``."""
    _clear(out, k)
    n = 0
    for s in range(4):
        for _ in range((kinds >> (6 * s)) & 63):
            out[k, 3 + 2 * n] = s * 16 + r
            out[k, 4 + 2 * n] = s * 16 + r
            n += 1
    for j in range(w):
        out[k, 3 + 2 * n] = codes[j]
        out[k, 4 + 2 * n] = ((names >> (2 * j)) & 3) * 16 + r
        n += 1
    out[k, 0] = KIND_SET
    out[k, 1] = n
    out[k, 2] = r
    _ = nn


@njit(cache=True, nogil=True)
def _allwild_row(out, k, R, seqp, w, codes):
    """Row ``k``: the all-wild meld of the wilds ``codes[:w]`` in arrange's form."""
    if R.sets:
        rs = R.set_ranks & ~R.wild_ranks
        r = lowest_code(rs) if rs else 3
        _set_row(out, k, r, 0, 0, w, set_wild_suits(0, 0, w, R.set_suits), codes)
        return
    _clear(out, k)
    for j in range(w):
        out[k, 3 + 2 * j] = codes[j]
        out[k, 4 + 2 * j] = _rank_at(seqp[j])
    out[k, 0] = KIND_RUN
    out[k, 1] = w
    out[k, 2] = seqp[0]


@njit(cache=True, nogil=True)
def legal_melds(cnt, R, out):
    """Every distinct legal meld the hand ``cnt`` (``int64[65]``) can lay down now, as rows into
    ``out``; their count, or -1 when there are more than ``out.shape[0]`` (the rows written are
    then the first ``out.shape[0]``)."""
    return _enum(cnt, R, -1, 0, out)


@njit(cache=True, nogil=True)
def melds_with(cnt, R, code, min_from_hand, out):
    """The legal new melds made of the card ``code`` (not in ``cnt``) and ``min_from_hand`` cards
    of ``cnt`` at least (Oklahoma's pile take: the top discard and two hand cards), as rows into
    ``out``; their count, or -1 when ``out`` is too small.  ``cnt`` is used as scratch (the card
    is counted in for the call) and is as it was on return."""
    if code < 0 or code > JOKER:
        return 0
    cnt[code] += 1
    k = _enum(cnt, R, code, min_from_hand + 1, out)
    cnt[code] -= 1
    return k


@njit(cache=True, nogil=True)
def joker_swap(row, code):
    """The card position ``j`` (its actual code at ``row[3 + 2 * j]``) of a joker in ``row`` that
    stands for exactly ``code``, so that the natural card ``code`` can take its place; -1 if
    none."""
    for j in range(min(row[1], (row.shape[0] - 3) // 2)):
        if row[3 + 2 * j] == JOKER and row[4 + 2 * j] == code:
            return j
    return -1


@njit(cache=True, nogil=True)
def _sorted_wilds(R, cards, n, dst):
    """The wild cards of ``cards[:n]`` into ``dst``, ascending by code; returns how many."""
    w = 0
    for i in range(n):
        c = cards[i]
        if _is_wild(R, c):
            b = w - 1
            while b >= 0 and dst[b] > c:
                dst[b + 1] = dst[b]
                b -= 1
            dst[b + 1] = c
            w += 1
    return w


@njit(cache=True, nogil=True)
def _set_ok(R, mode, kinds, m):
    """May a set of ``m`` cards whose natural cards are ``kinds`` (six bits of copies a suit)
    be laid under suit rule ``mode``?"""
    distinct = True
    suits = 0
    for s in range(4):
        ks = (kinds >> (6 * s)) & 63
        distinct = distinct and ks <= 1
        suits += ks > 0
    if mode == SET_ANY:
        return m <= set_limit(R, mode, False)
    if mode == SET_DISTINCT:
        return distinct and m <= set_limit(R, mode, True)
    return (suits <= 1 and m <= set_limit(R, mode, False)) or (
        distinct and m <= set_limit(R, mode, True))


@njit(cache=True, nogil=True)
def check_meld(cards, n, R, row_out):
    """Is the multiset ``cards[:n]`` one legal meld under ``R`` (any naming of its wilds)?  If so,
    writes one naming into ``row_out``: a set if the cards can be one, else a run (the ace low
    before the ace high); wilds named as in arrange's rows."""
    for j in range(row_out.shape[0]):
        row_out[j] = -1
    if n < R.min_size or n > R.max_size or n > 64:
        return False
    codes = np.empty(n, np.int64)
    nn = 0
    w = 0
    for i in range(n):
        c = cards[i]
        if _is_wild(R, c):
            w += 1
        elif not _is_natural(R, c):
            return False
        else:
            nn += 1
    _sorted_wilds(R, cards, n, codes)
    if w > R.max_wild or nn < R.min_natural:
        return False
    seqp = np.empty(16, np.int64)
    N = _seq(R, seqp)
    if nn == 0:
        if n > allwild_size(R):
            return False
        out2 = row_out.reshape((1, row_out.shape[0]))
        _allwild_row(out2, 0, R, seqp, w, codes)
        return True
    r0 = -1
    s0 = -1
    same_rank = True
    same_suit = True
    kinds = np.int64(0)
    for i in range(n):
        c = cards[i]
        if _is_wild(R, c):
            continue
        if r0 < 0:
            r0 = c & 15
            s0 = c >> 4
        same_rank = same_rank and (c & 15) == r0
        same_suit = same_suit and (c >> 4) == s0
        kinds += np.int64(1) << (6 * (c >> 4))
    if R.sets and same_rank and (R.set_ranks >> r0) & 1:
        mode = SET_ANY if (R.free_set_ranks >> r0) & 1 else R.set_suits
        if _set_ok(R, mode, kinds, n):
            out2 = row_out.reshape((1, row_out.shape[0]))
            _set_row(out2, 0, r0, kinds, nn, w, set_wild_suits(kinds, nn, w, mode), codes)
            return True
    if R.runs and same_suit and (w == 0 or R.run_wilds) and n <= N:
        for side in range(2):          # the ace low, then high
            P = np.int64(0)
            ok = True
            for i in range(n):
                c = cards[i]
                if _is_wild(R, c):
                    continue
                rk = c & 15
                q = rk
                if rk == 14:        # an ace: low first on side 0, high first on side 1
                    q = 1 if side == 0 else 14
                j = _seq_index(seqp, N, q)
                if rk == 14 and (j < 0 or (P >> j) & 1):
                    j = _seq_index(seqp, N, 15 - q)
                if j < 0 or (P >> j) & 1:
                    ok = False
                    break
                P |= np.int64(1) << j
            if not ok:
                continue
            lo = lowest_code(P)
            hi = highest_code(P)
            if hi - lo + 1 > n:
                continue
            hi2 = min(N - 1, lo + n - 1)
            lo2 = hi2 - n + 1
            row_out[0] = KIND_RUN
            row_out[1] = n
            row_out[2] = s0 * 16 + seqp[lo2]
            a = 0
            for j in range(lo2, hi2 + 1):
                c = s0 * 16 + _rank_at(seqp[j])
                row_out[4 + 2 * (j - lo2)] = c
                if (P >> j) & 1:
                    row_out[3 + 2 * (j - lo2)] = c
                else:
                    row_out[3 + 2 * (j - lo2)] = codes[a]
                    a += 1
            return True
    return False


@njit(cache=True, nogil=True)
def add_options(row, code, R, out):
    """Every way the single card ``code`` can be added to the meld ``row``, each written into
    ``out`` as the new meld row: a natural card where it fits (a set of its rank, either end of a
    run of its suit), a wild card in a set or at either end of a run; within ``max_size``,
    ``max_wild`` and the set's suit rule (a set's wilds are named again for its new natural
    cards).  Returns how many, or -1 when ``out`` is too small."""
    kind = row[0]
    n = row[1]
    if n < 1 or 3 + 2 * n > row.shape[0] or n + 1 > R.max_size:
        return 0                      # not a meld row, or full
    if out.shape[0] == 0:
        return -1
    wild = _is_wild(R, code)
    if not wild and not _is_natural(R, code):
        return 0
    w = 0
    for j in range(n):
        if _is_wild(R, row[3 + 2 * j]):
            w += 1
    if wild and (w + 1 > R.max_wild):
        return 0
    cards = np.empty(n + 1, np.int64)
    for j in range(n):
        cards[j] = row[3 + 2 * j]
    cards[n] = code
    if kind == KIND_SET:
        if not wild and (code & 15) != row[2]:
            return 0
        tmp = np.empty(out.shape[1], np.int64)
        # a set stays a set: check it as one
        r = row[2]
        kinds = np.int64(0)
        nn = 0
        for j in range(n + 1):
            c = cards[j]
            if not _is_wild(R, c):
                kinds += np.int64(1) << (6 * (c >> 4))
                nn += 1
        mode = SET_ANY if (R.free_set_ranks >> r) & 1 else R.set_suits
        if not _set_ok(R, mode, kinds, n + 1):
            return 0
        ww = _sorted_wilds(R, cards, n + 1, tmp)
        _set_row(out, 0, r, kinds, nn, ww, set_wild_suits(kinds, nn, ww, mode), tmp)
        return 1
    # a run: at either end
    if wild and not R.run_wilds:
        return 0
    seqp = np.empty(16, np.int64)
    N = _seq(R, seqp)
    s = row[2] >> 4
    lo = -1
    for t in range(N):
        if seqp[t] == (row[2] & 15):
            lo = t
    if lo < 0:
        return 0
    hi = lo + n - 1
    k = 0
    for end in range(2):
        j = lo - 1 if end == 0 else hi + 1
        if j < 0 or j >= N:
            continue
        target = s * 16 + _rank_at(seqp[j])
        if not wild and code != target:
            continue
        if k >= out.shape[0]:
            return -1
        _clear(out, k)
        out[k, 0] = KIND_RUN
        out[k, 1] = n + 1
        nlo = lo if end == 1 else j
        out[k, 2] = s * 16 + seqp[nlo]
        off = 1 if end == 0 else 0
        for t in range(n):
            out[k, 3 + 2 * (t + off)] = row[3 + 2 * t]
            out[k, 4 + 2 * (t + off)] = row[4 + 2 * t]
        p = 0 if end == 0 else n
        out[k, 3 + 2 * p] = code
        out[k, 4 + 2 * p] = target
        k += 1
    return k
