"""What a hand can do with melds now: every legal new meld (:func:`legal_melds`), the new melds a
given card makes with the hand (:func:`melds_with`: a discard pile's top card), the ways one card
goes on a meld on the table (:func:`add_options`), a joker taken back (:func:`joker_swap`) and
whether given cards are one meld (:func:`check_meld`).

Every function reads a hand as a count vector ``int64[65]`` (``cnt[64]`` the jokers) and writes
meld rows (:mod:`simkit.engines.melds.rules`: ``[kind, n, key, actual_0, stands_0, ...]``).  The
enumeration is one generator, :func:`_enum`, that lists each distinct meld once: a set by its rank,
the copies of each suit of its natural cards and the multiset of its wild cards; a run by its suit,
its positions, which of them hold wild cards and the multiset of those wilds (placed in
code order along the run).  Melds of wild cards only exist
only where ``min_natural`` is 0; each is listed once, as a set of the lowest rank sets may
have that is not wild (its rank is a name).

Naming (which card a wild stands for): in a run, the card of its position; in a set (named again
when a card is added to it), the lowest
suit that keeps the set legal (clubs first): any suit goes with ``SET_ANY`` and for free ranks, the
lowest suits no natural card holds with ``SET_DISTINCT``, the naturals' suit when they are all of
one suit with ``SET_ONE_OR_ALL_DIFFERENT`` (else the lowest free suits).  A joker is taken back
only with the very card it stands for (:func:`joker_swap`).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simkit.core.bits import lowest_code, popcount
from simkit.core.jit import NO_REFCOUNT
from simkit.engines.melds.rules import (
    JOKER, KIND_RUN, KIND_SET, MAX_LEN, MELD_W, SET_ANY, SET_DISTINCT,
)

NONE = -1
SCRATCH = 128 + 4 * MAX_LEN     # the listing's scratch (:func:`melds_with_in`)


@njit(cache=True, nogil=True)
def is_wild(c, R):
    """Is card ``c`` wild under ``R`` (the joker always; natural ranks in ``wild_ranks``)?"""
    return c == JOKER or ((R.wild_ranks >> (c & 15)) & 1) == 1


@njit(cache=True, nogil=True)
def pos_code(s, q):
    """The natural card at run position ``q`` (1: the ace low) of suit ``s``."""
    return s * 16 + (14 if q == 1 else q)


@njit(cache=True, nogil=True)
def next_pos(q, mask):
    """The next position after ``q`` among the bits of ``mask`` (-1: none)."""
    for x in range(q + 1, 15):
        if (mask >> x) & 1:
            return x
    return NONE


@njit(cache=True, nogil=True)
def prev_pos(q, mask):
    for x in range(q - 1, 0, -1):
        if (mask >> x) & 1:
            return x
    return NONE


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def _wild_codes(cnt, R, wc):
    """The distinct wild cards the hand holds into ``wc``; returns how many."""
    k = 0
    wr = R.wild_ranks & 0xFFFC          # (ranks 2..15: the codes of wild natural ranks)
    if wr:
        for s in range(4):
            x = wr
            while x:
                c = s * 16 + lowest_code(x)
                x &= x - 1
                if cnt[c] > 0:
                    wc[k] = c
                    k += 1
    if cnt[JOKER] > 0:
        wc[k] = JOKER
        k += 1
    return k


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def set_stands(r, nat, w, R, out):
    """The cards ``w`` wilds stand for in a set of rank ``r`` whose naturals hold ``nat[s]``
    cards of suit ``s`` (the module's naming rule): into ``out``; False if no naming is legal."""
    names = set_names(r, nat[0], nat[1], nat[2], nat[3], w, R)
    if names < 0:
        return False
    for j in range(w):
        out[j] = (names >> (8 * min(j, 3))) & 255
    return True


@njit(cache=True, nogil=True)
def set_names(r, n0, n1, n2, n3, w, R):
    """:func:`set_stands` as a number (-1: no naming is legal): the ``j``-th wild stands for
    byte ``min(j, 3)`` (every naming of more than four wilds names one card)."""
    free = ((R.free_set_ranks >> r) & 1) == 1 or R.set_suits == SET_ANY
    if free:
        return r * 0x01010101
    nat = (n0, n1, n2, n3)
    used = 0
    nn = 0
    for s in range(4):
        nn += nat[s]
        if nat[s] > 0:
            used |= 1 << s
    if R.set_suits == SET_DISTINCT or not (nn > 0 and (used & (used - 1)) == 0):
        # all different suits (the one-or-all-different mode with mixed or no naturals too)
        for s in range(4):
            if nat[s] > 1:
                return -1
        j = 0
        names = 0
        for s in range(4):
            if j < w and not (used >> s) & 1:
                names |= (s * 16 + r) << (8 * j)
                j += 1
        if j < w:
            if R.set_suits != SET_DISTINCT and nn == 0:
                return r * 0x01010101      # all-wild: read as one suit
            return -1
        return names
    # one suit (one-or-all-different, naturals all of one suit)
    s0 = 0
    while not (used >> s0) & 1:
        s0 += 1
    return (s0 * 16 + r) * 0x01010101


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def _emit(out, k, kind, n, key, act, stn, must, exact_n):
    """Write one meld (unless a filter drops it); returns the new count, -1 on overflow."""
    if exact_n > 0 and n != exact_n:
        return k
    if must >= 0:
        found = False
        for j in range(n):
            if act[j] == must:
                found = True
        if not found:
            return k
    if k < 0 or k >= out.shape[0]:
        return -1
    row = out[k]
    for q in range(MELD_W):
        row[q] = -1
    row[0], row[1], row[2] = kind, n, key
    for j in range(n):
        row[3 + 2 * j] = act[j]
        row[4 + 2 * j] = stn[j]
    return k + 1


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def _enum(cnt, R, out, must, exact_n, min_n, sc):
    """Every distinct legal meld of at least ``min_n`` cards within ``cnt`` (containing the
    card ``must`` when it is not -1; of exactly ``exact_n`` cards when that is positive);
    ``sc`` its scratch (``int64[SCRATCH]`` or longer, any contents: every entry it reads it
    wrote first)."""
    wc = sc[0:40]
    nw = _wild_codes(cnt, R, wc)
    wn = sc[40:80]                       # wild multiset counts (sets) / per position (runs)
    act = sc[80:80 + MAX_LEN]
    stn = sc[80 + MAX_LEN:80 + 2 * MAX_LEN]
    nat = sc[80 + 2 * MAX_LEN:84 + 2 * MAX_LEN]
    lim = sc[84 + 2 * MAX_LEN:88 + 2 * MAX_LEN]
    used = sc[88 + 2 * MAX_LEN:128 + 2 * MAX_LEN]
    P = sc[128 + 2 * MAX_LEN:128 + 3 * MAX_LEN]
    dg = sc[128 + 3 * MAX_LEN:128 + 4 * MAX_LEN]   # the wild cards' code indices in a run
    lo_n = max(R.min_size, min_n)
    r_allwild = 2
    while r_allwild < 14 and (not (R.set_ranks >> r_allwild) & 1
                              or (R.wild_ranks >> r_allwild) & 1):
        r_allwild += 1
    # a natural ``must`` is only in sets of its rank and runs of its suit through it: skip the
    # rest (they would emit nothing; the order of what is emitted is unchanged)
    only = must >= 0 and not is_wild(must, R)
    ms = must >> 4 if only else -1       # (its sets hold one of its suit at least)
    k = 0
    if R.sets:
        for r in range(2, 15):
            if not (R.set_ranks >> r) & 1 or (only and r != (must & 15)):
                continue
            wild_rank = ((R.wild_ranks >> r) & 1) == 1
            for s in range(4):
                lim[s] = 0 if wild_rank else min(cnt[s * 16 + r], R.max_size)
            for a0 in range(1 if ms == 0 else 0, lim[0] + 1):
                for a1 in range(1 if ms == 1 else 0, lim[1] + 1):
                    for a2 in range(1 if ms == 2 else 0, lim[2] + 1):
                        for a3 in range(1 if ms == 3 else 0, lim[3] + 1):
                            nat[0], nat[1], nat[2], nat[3] = a0, a1, a2, a3
                            nn = a0 + a1 + a2 + a3
                            if nn > R.max_size or nn < R.min_natural:
                                continue
                            # the wild multiset: an odometer over wn[0..nw-1]
                            for q in range(nw):
                                wn[q] = 0
                            while True:
                                w = 0
                                for q in range(nw):
                                    w += wn[q]
                                n = nn + w
                                # a meld of wild cards only is listed once, as a set of
                                # the lowest rank that sets may have
                                if (w <= R.max_wild and lo_n <= n <= R.max_size
                                        and (nn > 0 or r == r_allwild)):
                                    j = 0
                                    for s in range(4):
                                        for _ in range(nat[s]):
                                            act[j] = s * 16 + r
                                            stn[j] = s * 16 + r
                                            j += 1
                                    for q in range(nw):
                                        for _ in range(wn[q]):
                                            act[j] = wc[q]
                                            j += 1
                                    if set_stands(r, nat, w, R, stn[nn:]):
                                        k = _emit(out, k, KIND_SET, n, r, act, stn, must,
                                                  exact_n)
                                        if k < 0:
                                            return -1
                                # next wild multiset
                                q = 0
                                while q < nw:
                                    if (wn[q] < cnt[wc[q]] and nn + w < R.max_size
                                            and w < R.max_wild):
                                        wn[q] += 1
                                        break
                                    w -= wn[q]
                                    wn[q] = 0
                                    q += 1
                                if q == nw:
                                    break
    if R.runs:
        for s in range(4):
            if only and s != must >> 4:
                continue
            for start in range(1, 15):
                if only and start > (must & 15):
                    break                # (a run goes up from its start: none through must)
                if not (R.seq_ranks >> start) & 1:
                    continue
                q = start
                ln = 0
                through = not only
                while q != NONE and ln < R.max_size:
                    P[ln] = q
                    ln += 1
                    through = through or pos_code(s, q) == must
                    if ln >= lo_n and through:
                        k = _runs_at(cnt, R, out, k, s, P, ln, wc, nw, act, stn, used, dg, must,
                                     exact_n)
                        if k < 0:
                            return -1
                    q = next_pos(q, R.seq_ranks)
    return k


# 15 parameters: _enum's loop state for one suit, passed as scalars and arrays (a record's arrays
# would cost reference counts per call, as search.py's speed notes say)
@njit(cache=True, nogil=True, **NO_REFCOUNT)
def _runs_at(cnt, R, out, k, s, P, ln, wc, nw, act, stn, used, dg, must, exact_n):
    """The runs of suit ``s`` on positions ``P[:ln]``: every choice of wild positions (where the
    natural is missing, and any others within ``max_wild``) and of the wild card at each."""
    if exact_n > 0 and ln != exact_n:
        return k                         # (_emit would drop every one)
    have = 0
    mine = 0                             # the positions of a natural ``must``
    nat_must = must >= 0 and not is_wild(must, R)
    for j in range(ln):
        c = pos_code(s, P[j])
        if cnt[c] > 0 and not is_wild(c, R):
            have |= 1 << j
        if nat_must and c == must:
            mine |= 1 << j
    if nat_must and mine == 0:
        return k
    full = (1 << ln) - 1
    need = full & ~have                  # positions with no natural: a wild each
    nwc = 0                              # the wild cards held: one a wild position
    for t in range(nw):
        nwc += cnt[wc[t]]
    wav = min(R.max_wild, nwc) if R.run_wilds else 0
    if popcount(need) > wav or popcount(have) < max(R.min_natural, 1):
        return k                         # (every choice below fails)
    wild_must = must >= 0 and not nat_must
    # the wild positions: every superset of ``need`` in increasing order (``need`` plus the
    # subsets ``x`` of the other positions, in increasing order)
    free = full & ~need
    x = 0
    while True:
        wm = need | x
        x = (x - free) & free
        last_x = x == 0
        if nat_must and (mine & ~wm) == 0:
            if last_x:
                break
            continue                     # ``must`` nowhere (wilds at its positions): none kept
        w = popcount(wm)
        if (w > wav or (w > 0 and not R.run_wilds) or ln - w < max(R.min_natural, 1)
                or (w > 0 and nw == 0) or (wild_must and w == 0)):
            if last_x:
                break
            continue
        # the wild cards at the wild positions: every multiset once, as the code indices ``dg``
        # non-decreasing in position order, in increasing order of the number whose digit i
        # (base nw) is the i-th wild's index (the next: the lowest digit that can grow grows,
        # the lower ones restart at 0)
        for i in range(w):
            dg[i] = 0
        while True:
            for t in range(nw):
                used[t] = 0
            ok = True
            nat_ace = 0
            i = 0
            for j in range(ln):
                code = pos_code(s, P[j])
                stn[j] = code
                if (wm >> j) & 1:
                    t = dg[i]
                    i += 1
                    used[t] += 1
                    act[j] = wc[t]
                else:
                    act[j] = code
                    if code & 15 == 14:
                        nat_ace += 1
            # ace: positions 1 and 14 are the same card; a run through both needs two aces
            for t in range(nw):
                if used[t] > cnt[wc[t]]:
                    ok = False
            if nat_ace > cnt[s * 16 + 14]:
                ok = False
            if ok:
                k = _emit(out, k, KIND_RUN, ln, s * 16 + P[0], act, stn, must, exact_n)
                if k < 0:
                    return -1
            i = 0
            while i < w and dg[i] >= (dg[i + 1] if i + 1 < w else nw - 1):
                i += 1
            if i == w:
                break
            dg[i] += 1
            for i2 in range(i):
                dg[i2] = 0
        if last_x:
            break
    return k


@njit(cache=True, nogil=True)
def legal_melds(cnt, R, out):
    """Every distinct legal meld the hand ``cnt`` can lay down now, into ``out``; the count, or
    -1 when ``out`` is too short."""
    return _enum(cnt, R, out, NONE, 0, 0, np.zeros(SCRATCH, np.int64))


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def legal_melds_in(cnt, R, out, sc):
    """:func:`legal_melds` with a scratch buffer ``sc`` (``int64[SCRATCH]`` or longer, any
    contents): allocates nothing."""
    return _enum(cnt, R, out, NONE, 0, 0, sc)


@njit(cache=True, nogil=True)
def melds_with(cnt, R, code, min_from_hand, out):
    """The legal new melds of the card ``code`` (not in ``cnt``) and at least ``min_from_hand``
    cards of ``cnt``; the count, or -1 when ``out`` is too short."""
    if _none_with(cnt, R, code, min_from_hand + 1):
        return 0
    return melds_with_in(cnt, R, code, min_from_hand, out, np.zeros(SCRATCH, np.int64))


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def melds_with_in(cnt, R, code, min_from_hand, out, sc):
    """:func:`melds_with` with a scratch buffer ``sc`` (``int64[SCRATCH]`` or longer, any
    contents): allocates nothing (a kernel's hot path)."""
    if _none_with(cnt, R, code, min_from_hand + 1):
        return 0
    cnt[code] += 1              # the card joins the hand for the listing, then leaves it
    k = _enum(cnt, R, out, code, 0, min_from_hand + 1, sc)   # (a copy cost an allocation)
    cnt[code] -= 1
    return k


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def _none_with(cnt, R, code, min_n):
    """True when the natural ``code`` surely makes no meld of ``min_n`` cards or more with the
    hand ``cnt`` (a quick, conservative test for ``min_natural`` >= 1, most pile tops: a set of
    its rank needs ``min_natural`` naturals and enough cards with the wilds; a run a window of
    positions of its suit through it whose held positions are ``min_natural`` or more and whose
    gaps the wilds can fill; suit rules are ignored).  False for a wild ``code``."""
    if code == JOKER or is_wild(code, R) or R.min_natural < 1:
        return False
    W = cnt[JOKER]
    x = R.wild_ranks & 0xFFFF
    while x:
        r0 = lowest_code(x)
        x &= x - 1
        for s0 in range(4):
            if cnt[s0 * 16 + r0] > 0:
                W += cnt[s0 * 16 + r0]
    mw = min(W, R.max_wild)
    lo = R.min_natural
    need = max(R.min_size, min_n)
    r = code & 15
    s = code >> 4
    if R.sets and (R.set_ranks >> r) & 1:
        n = 1 + cnt[r] + cnt[16 + r] + cnt[32 + r] + cnt[48 + r]
        if n >= lo and n + mw >= need:
            return False
    if R.runs:
        wav = mw if R.run_wilds else 0
        lane = 0
        at = 0
        N = 0
        for q in range(1, 15):
            if (R.seq_ranks >> q) & 1:
                c = pos_code(s, q)
                if c == code:
                    at |= 1 << N
                    lane |= 1 << N
                elif cnt[c] > 0 and not is_wild(c, R):
                    lane |= 1 << N
                N += 1
        for j in range(N):
            for L in range(need, min(R.max_size, N - j) + 1):
                win = ((1 << L) - 1) << j
                if win & at:
                    h = 0
                    x = lane & win
                    while x:
                        x &= x - 1
                        h += 1
                    if h >= lo and L - h <= wav:
                        return False
    return True


@njit(cache=True, nogil=True)
def check_meld(cards, n, R, row_out):
    """Are the ``n`` cards ``cards[:n]`` one legal meld?  Writes one naming into ``row_out``."""
    cnt = np.zeros(JOKER + 1, np.int64)
    for j in range(n):
        cnt[cards[j]] += 1
    buf = np.zeros((1, MELD_W), np.int64)
    k = _enum(cnt, R, buf, NONE, n, n, np.zeros(SCRATCH, np.int64))
    if k != 0:
        for q in range(MELD_W):
            row_out[q] = buf[0, q]
        return True
    return False


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def _copy_add(row, dst, j_at, code, stands):
    """``dst`` = ``row`` with (``code``, ``stands``) inserted at position ``j_at``."""
    n = row[1]
    for q in range(MELD_W):
        dst[q] = -1
    dst[0], dst[1], dst[2] = row[0], n + 1, row[2]
    j2 = 0
    for j in range(n + 1):
        if j == j_at:
            dst[3 + 2 * j] = code
            dst[4 + 2 * j] = stands
        else:
            dst[3 + 2 * j] = row[3 + 2 * j2]
            dst[4 + 2 * j] = row[4 + 2 * j2]
            j2 += 1


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def add_options(row, code, R, out):
    """Every way the single card ``code`` goes on the meld ``row`` (written as the new rows):
    a natural of the set's rank or at either end of the run, a wild on the set or at either end
    of the run; within ``max_size``, ``max_wild``, ``run_wilds`` and the set's suit rule."""
    n = row[1]
    if n + 1 > R.max_size or out.shape[0] == 0:
        return 0
    wild = is_wild(code, R)
    w = 0
    for j in range(n):
        if is_wild(row[3 + 2 * j], R):
            w += 1
    if wild and w + 1 > R.max_wild:
        return 0
    k = 0
    if row[0] == KIND_SET:
        # the naturals (old and new) must keep the suit rule; the wilds are named again by it
        r = row[2]
        if not wild and (code & 15) != r:
            return 0
        n0 = n1 = n2 = n3 = 0
        nn = 0
        for j in range(n + 1):
            a = code if j == n else row[3 + 2 * j]
            if not is_wild(a, R):
                s = a >> 4
                if s == 0:
                    n0 += 1
                elif s == 1:
                    n1 += 1
                elif s == 2:
                    n2 += 1
                else:
                    n3 += 1
                nn += 1
        names = set_names(r, n0, n1, n2, n3, n + 1 - nn, R)
        if names < 0:
            return 0
        dst = out[0]
        for q in range(MELD_W):
            dst[q] = -1
        dst[0], dst[1], dst[2] = KIND_SET, n + 1, r
        t = 0
        for j in range(n + 1):
            a = code if j == n else row[3 + 2 * j]
            dst[3 + 2 * j] = a
            if is_wild(a, R):
                dst[4 + 2 * j] = (names >> (8 * min(t, 3))) & 255
                t += 1
            else:
                dst[4 + 2 * j] = a
        return 1
    if wild and not R.run_wilds:
        return 0
    s = row[2] >> 4
    lo = row[2] & 15
    hi = lo
    for _ in range(n - 1):
        hi = next_pos(hi, R.seq_ranks)
    below = prev_pos(lo, R.seq_ranks)
    above = next_pos(hi, R.seq_ranks)
    for end in range(2):
        q = below if end == 0 else above
        if q == NONE:
            continue
        want = pos_code(s, q)
        if not wild and code != want:
            continue
        if k >= out.shape[0]:
            break
        if end == 0:
            _copy_add(row, out[k], 0, code, want)
            out[k, 2] = s * 16 + q
        else:
            _copy_add(row, out[k], n, code, want)
        k += 1
    return k


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def joker_swap(row, code):
    """The position of a joker in ``row`` standing for exactly the natural ``code`` (which may
    take its place; the joker returns to its owner's hand: 003 line 86), -1 if none."""
    for j in range(row[1]):
        if row[3 + 2 * j] == JOKER and row[4 + 2 * j] == code:
            return j
    return NONE
