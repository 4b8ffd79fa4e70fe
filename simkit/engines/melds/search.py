"""The least-deadwood arrangement of a hand (:func:`arrange`): an exact branch and bound.

Kinds and planes.  The natural cards are *kinds* (card codes) with counts.  The search numbers
the kinds of the hand in *value order* (most valuable in hand first, ``dw``, then by code) and
keeps the hand as thermometer planes over those numbers: bit ``i`` of plane ``j`` is set when the
hand holds kind ``i`` more than ``j`` times (one plane a deck).  A meld's natural cards are planes
of the same form, so taking a meld out of the hand, and checking that the hand holds it, are a
few bit operations, and the first kind left is the lowest set bit.

Melds.  Every meld the whole hand could lay down is listed once before the search, as its set
``S`` of natural cards (a distinct ``S`` once, whatever its kind or where its wilds stand) with
the fewest wild cards ``S`` needs, ``w0(S)``, and its room for more, ``cap(S)``: wild cards are
interchangeable in legality, so how many a meld takes is all that counts while searching; the
wild cards left at the end go into the melds' room (and, where ``min_natural`` is 0, into
all-wild melds).  The wilds used are the ones worth most in hand, so the deadwood is the natural
cards' plus the unused wilds' values.  A meld belongs to its first kind in value order; each
kind's melds are linked in trying order as they are listed.  Where a meld needs two natural
cards, a single card with no card of its rank and no near card of its suit is deadwood before
the listing (:func:`_lonely`, by masks).

The search.  The first kind left is either deadwood (every copy: copies are interchangeable) or
in one of the melds it owns that the hand still holds and the wilds left allow; a kind with no
such meld is deadwood at once (no branch).  A kind's *need* is the fewest wilds of any meld
holding it; a branch whose deadwood so far, plus the wilds it cannot use at best, plus the kinds
left whose need exceeds the wilds left, reaches the best found is cut.  Hands of
:data:`MEMO_MIN` natural cards or more (a discard pile taken into the hand) also keep a table of
lower bounds by position (the planes, the wilds left and the usable room, compared whole): a
position searched once and found no better than the best known then is not searched again from a
worse start.  The search runs on an explicit stack (numba's recursion is slow and does not
survive its on-disk cache).

Tie-break: the first least-deadwood arrangement in this order.  Kinds in value order; for a kind,
its melds by more natural cards first, then fewer wilds, then as listed (by the lowest card's
code: runs before sets; runs by the lowest then the highest natural position, with every natural
inside the span before leaving some out for wilds; sets with more copies of each suit first;
the card alone with wild cards last, a set unless a run has more room), then deadwood.  The
wild cards used are the most valuable in hand (then the lowest code), handed out in meld order;
each meld takes its share of the wilds left over, in meld order, up to its room.  In a row a
set's natural cards come by suit, then its wilds by code naming the suits :func:`set_wild_suits`
gives; a run's cards come by position, its wilds by code at its wild positions, the window the
naturals' span extended upward (downward once the top is reached).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simkit.core.bits import highest_code, lowest_code, popcount
from simkit.core.jit import NO_REFCOUNT, REFCOUNT
from simkit.engines.melds.rules import JOKER, KIND_RUN, KIND_SET, SET_ANY, SET_DISTINCT

# Speed notes.  Every call of an @njit function with array arguments (inlined ones too) costs
# atomic reference-count updates of the arrays (numba's NRT); so the loops below call no helper
# that takes an array, the work lives in one buffer ``wk`` addressed by offsets, and everything
# but the allocating entries (arrange, _arrange_new) compiles without counting (NO_REFCOUNT).

MEMO_MIN = 20          # natural cards from which arrange keeps its table of bounds
MEMO_BITS = 14         # that table's size: 2**MEMO_BITS entries at most (memo_bits)
MAXP = 8               # copies of one card arrange takes (planes)
INF = np.int64(1) << np.int64(60)

# the work buffer: fixed part (offsets into wk)
CODE = 0               # CODE[i]: the code of kind i (value order)
VAL = 64               # VAL[i]: its value in hand
IDX = 128              # IDX[code]: its kind number
ST = 192               # ST[i]: the first meld record kind i owns (-1: none; :func:`_link`)
HOLD = 320             # HOLD[w]: the kinds some meld of w fewest wilds holds (w <= max_wild)
NGT = 384              # NGT[k]: bit mask of the kinds whose need exceeds k (k < 32)
SEQP = 416             # SEQP[j]: the rank position of seq index j
POSI = 432             # POSI[q]: the seq index of rank position q, -1 if runs do not use it
NSEQ = 448
BEST, NBEST, BWL, BCAP, NKIND, NMELD, NODES = 449, 450, 451, 452, 453, 454, 455
CPL = 456              # CPL[j]: plane j of the hand by code
FIXED = 464


@njit(cache=True, nogil=True, inline="always")
def _rank_at(q):
    """The rank of rank position ``q`` (positions 1 and 14: the ace)."""
    return 14 if q == 1 else q


@njit(cache=True, nogil=True, inline="always")
def _info(w0, cap, kind, n):
    """A meld record's word of numbers: fewest wilds, room, kind, natural cards."""
    return w0 | (cap << 8) | (kind << 16) | (n << 24)


@njit(cache=True, nogil=True, inline="always")
def set_limit(R, mode, distinct):
    """The most cards a set may hold; distinct suits (SET_DISTINCT, or the all-different reading
    of one-or-all-different) cap it at four."""
    if mode == SET_DISTINCT or distinct:
        return min(R.max_size, 4)
    return R.max_size


@njit(cache=True, nogil=True, inline="always")
def allwild_size(R):
    """The largest all-wild meld (when ``min_natural`` is 0)."""
    m = 0
    if R.sets:
        m = set_limit(R, R.set_suits, False)
    if R.runs and R.run_wilds:
        m = max(m, min(R.max_size, popcount(R.seq_ranks)))
    return min(m, R.max_wild)


@njit(cache=True, nogil=True)
def arrange(cnt, R, dw, out):
    """``(deadwood, n_melds)``: the least-deadwood arrangement of the hand ``cnt`` (``int64[65]``,
    copies of each code, at most :data:`MAXP` of a card; ``cnt[64]`` jokers) into legal melds under
    ``R``, ``dw[code]`` the value in hand of each card (``dw[64]`` the joker's; values >= 0).  The
    melds are written as full rows into ``out[k, :]`` (rows past ``out.shape[0]`` are not written;
    ``n_melds`` counts them all).  Ties: the module docstring."""
    return arrange_in(cnt, R, dw, out, np.zeros(0, np.int64))


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def arrange_in(cnt, R, dw, out, wk0):
    """:func:`arrange` with a work buffer ``wk0`` (``int64``, any length, any contents; a search
    that needs more than it holds allocates its own, in :func:`_arrange_new`): a kernel that
    arranges many hands passes one buffer and allocates nothing (it may then compile without
    reference counts, ``simkit.core.jit.NO_REFCOUNT``).  Same results as :func:`arrange`."""
    nat = 0
    W = max(cnt[JOKER], 0)
    NP = 1
    held = np.int64(0)           # bit c: a natural card c held
    for c in range(64):
        k = cnt[c]
        if k > 0:
            r = c & 15
            if (R.wild_ranks >> r) & 1:
                W += k
            elif 2 <= r <= 14:
                nat += k
                NP = max(NP, min(k, MAXP))
                held |= np.int64(1) << c
    if R.min_natural > 0 and _no_meld_held(cnt, R, W, held):
        # no meld at all (about half of Oklahoma's calls): every card is deadwood, as the
        # search below would find (every kind deadwood, every wild unused)
        t = np.int64(0)
        for c in range(64):
            k = cnt[c]
            if k > 0:
                r = c & 15
                if (R.wild_ranks >> r) & 1:
                    t += k * dw[c]
                elif 2 <= r <= 14:
                    t += min(k, MAXP) * dw[c]
        if cnt[JOKER] > 0:
            t += cnt[JOKER] * dw[JOKER]
        return t, 0
    capm = 4 * nat + 16
    size, fb, bp, mb, tab, memo = _layout(NP, W, nat, capm)
    if size > wk0.shape[0]:
        return _arrange_new(cnt, held, R, dw, out, NP, W, nat, capm)
    # the search reads nothing of wk0 it has not written but the memo table (its slots are
    # empty at zero; np.empty there gave run-to-run differences)
    if memo:
        for i in range(tab, size):
            wk0[i] = 0
    if not _prepare(wk0, cnt, held, R, dw, NP, W, fb, mb, capm):
        return _arrange_new(cnt, held, R, dw, out, NP, W, nat, capm * 4)
    _search(wk0, R, NP, W, fb, mb, bp, memo, tab)
    return wk0[BEST], _write_all(out, R, wk0, NP, W, mb, bp)


@njit(cache=True, nogil=True, inline="always")
def _layout(NP, W, nat, capm):
    """The work buffer's size and offsets for a hand of ``nat`` natural cards (``NP`` planes),
    ``W`` wild cards and room for ``capm`` meld records: ``(size, fb, bp, mb, tab, memo)``
    (frames, best path, meld records, memo table; ``memo`` the table's :func:`memo_bits`, 0: no
    table)."""
    rec = NP + 3
    F = NP + 6
    fb = FIXED + 3 * W + 2
    bp = fb + F * (nat + 2)
    mb = bp + nat + 1
    memo = memo_bits(nat) if nat >= MEMO_MIN and W < 64 else 0
    tab = mb + rec * capm
    size = tab
    if memo:
        size += (NP + 2) << memo
    return size, fb, bp, mb, tab, memo


@njit(cache=True, nogil=True, inline="always")
def memo_bits(nat):
    """The memo table's size (``2**bits`` entries) for a hand of ``nat`` natural cards: 2**8 up
    to 27 naturals, then doubling every four to 2**MEMO_BITS from 48.  The size changes how
    much is cut, never the result; a search's nodes grow with the hand, and clearing 2**14
    entries cost more than the whole search of Oklahoma's 20-40-natural hands (about 130
    nodes, as many with 2**8 entries as with 2**14)."""
    return min(MEMO_BITS, max(8, nat // 4 + 2))


@njit(cache=True, nogil=True, **REFCOUNT)
def _arrange_new(cnt, held, R, dw, out, NP, W, nat, capm):
    """:func:`arrange_in`'s search in a buffer of its own (zeroed), from ``capm`` meld records
    on, four times more until the hand's melds fit."""
    while True:
        size, fb, bp, mb, tab, memo = _layout(NP, W, nat, capm)
        wk = np.zeros(size, np.int64)
        if _prepare(wk, cnt, held, R, dw, NP, W, fb, mb, capm):
            break
        capm *= 4
    _search(wk, R, NP, W, fb, mb, bp, memo, tab)
    return wk[BEST], _write_all(out, R, wk, NP, W, mb, bp)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def _no_meld(cnt, R, W):
    """True when the hand surely holds no legal meld (a quick, conservative test for
    ``min_natural`` >= 1: a set needs a rank with ``min_natural`` naturals and enough cards with
    the wilds; a run a window of ``min_size..max_size`` positions of one suit whose held positions
    are ``min_natural`` or more and whose gaps the wilds can fill; suit rules are ignored)."""
    held = np.int64(0)
    for c in range(64):
        r = c & 15
        if cnt[c] > 0 and 2 <= r <= 14 and not (R.wild_ranks >> r) & 1:
            held |= np.int64(1) << c
    return _no_meld_held(cnt, R, W, held)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def _no_meld_held(cnt, R, W, held):
    """:func:`_no_meld` with ``held`` the mask of the natural cards held (bit ``code``)."""
    mw = min(W, R.max_wild)
    lo = max(R.min_natural, 1)
    if R.sets:
        for r in range(2, 15):
            if not (R.set_ranks >> r) & 1 or (R.wild_ranks >> r) & 1:
                continue
            n = cnt[r] + cnt[16 + r] + cnt[32 + r] + cnt[48 + r]
            if n >= lo and n + mw >= R.min_size:
                return False
    if R.runs:
        wav = mw if R.run_wilds else 0
        seq = np.int64(R.seq_ranks)
        low = lowest_code(seq) if seq else 0
        x = seq >> low
        contiguous = (x & (x + 1)) == 0     # positions low..high, all of them (not Spanish)
        least = max(lo, R.min_size - wav)   # the fewest held positions a window passes with
        for s in range(4):
            m = (held >> (16 * s)) & 0xFFFF
            pos = m | (((m >> 14) & 1) << 1)     # bit q: position q held (1 and 14: the ace)
            if contiguous:
                lane = (pos & seq) >> low
                N = popcount(seq)
            else:
                lane = np.int64(0)
                N = 0
                for q in range(1, 15):
                    if (seq >> q) & 1:
                        lane |= ((pos >> q) & 1) << N
                        N += 1
            if popcount(lane) < least:          # no window can pass: it needs this many
                continue
            for j in range(N):
                for L in range(R.min_size, min(R.max_size, N - j) + 1):
                    h = popcount(lane & (((np.int64(1) << L) - 1) << j))
                    if h >= lo and L - h <= wav:
                        return False
    return True


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def _prepare(wk, cnt, held, R, dw, NP, W, fb, mb, capm):
    """Fill ``wk`` for the search: the fixed part; the wild cards in order of use
    (``wk[FIXED + W + 1:]``), the values of the unused (``wk[FIXED + k]``: of the wilds from the
    k-th on) and how many all-wild melds hold (``wk[FIXED + 2 * W + 1 + k]``); the kinds in value
    order; every meld (records at ``mb``, linked by owner in trying order); the needs; and frame 0 at
    ``fb``: the hand less the kinds no meld holds, their value its deadwood so far.  False when
    the meld buffers (``capm`` records) are too small."""
    _positions(wk, R)
    held, dead0 = _lonely(cnt, R, W, held, dw)
    K = _kinds(wk, cnt, held, dw, NP, fb)
    _wilds(wk, cnt, R, dw, W)
    for i in range(K):
        wk[ST + i] = -1
    for w in range(R.max_wild + 1):
        wk[HOLD + w] = 0
    m = _list_melds(wk, R, NP, W, mb, capm)
    if m < 0:
        return False
    wk[NMELD] = m
    _needs(wk, K, NP, W, fb, dead0, R.max_wild)
    return True


@njit(cache=True, nogil=True, inline="always")
def _lonely(cnt, R, W, held, dw):
    """``(held, dead)``: the natural cards ``held`` (bit ``code``) less those no meld can hold,
    and those cards' value (they are deadwood, as the search would find: frame 0 drops the kinds
    no meld holds; the search's order of the other kinds is the same).  Only where a meld with a
    natural card needs a second one (``1 + wilds < min_size``, the wilds at most one): a card
    alone (one copy) with no other card of its rank and, for runs over contiguous positions, no
    natural card of its suit within ``wilds + 1`` positions is in no meld.  Otherwise, or for
    other rules, ``held`` unchanged (the search drops such kinds itself)."""
    mw = min(W, R.max_wild)
    if R.min_natural == 0 or 1 + mw >= R.min_size or mw > 1:
        return held, np.int64(0)
    col = np.int64(0x0001000100010001)
    a = held & 0xFFFF
    b = (held >> 16) & 0xFFFF
    c = (held >> 32) & 0xFFFF
    d = (held >> 48) & 0xFFFF
    two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)   # ranks in two suits
    mates = held & (two * col)
    if R.runs:
        seq = np.int64(R.seq_ranks)
        low = lowest_code(seq)
        x = seq >> low
        if x & (x + 1):                  # positions not contiguous (Spanish): no test
            return held, np.int64(0)
        lanes = ((np.int64(1) << popcount(seq)) - 1) * col
        pos = held | (((held >> 14) & col) << 1)     # bit q: position q (1 and 14: the ace)
        lane = (pos >> low) & lanes
        near = (lane << 1) | (lane >> 1)
        if mw == 1:
            near |= (lane << 2) | (lane >> 2)
        near = (near & lanes) << low
        mates |= held & (near | (((near >> 1) & col) << 14))
    dead = np.int64(0)
    t = held & ~mates
    while t:
        c = lowest_code(t)
        t &= t - 1
        if cnt[c] == 1:                  # two copies may be a set, or a run's two aces
            held &= ~(np.int64(1) << c)
            dead += dw[c]
    return held, dead


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def _positions(wk, R):
    """The rank positions runs use: ``wk[SEQP + j]`` the position of seq index ``j``,
    ``wk[POSI + q]`` the seq index of position ``q`` (-1: unused), ``wk[NSEQ]`` how many."""
    N = 0
    for q in range(16):
        wk[POSI + q] = -1
    for q in range(1, 15):
        if (R.seq_ranks >> q) & 1:
            wk[SEQP + N] = q
            wk[POSI + q] = N
            N += 1
    wk[NSEQ] = N


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def _kinds(wk, cnt, held, dw, NP, fb):
    """The natural kinds (``held``: bit ``code``) in value order (``wk[CODE + i]``,
    ``wk[VAL + i]``, ``wk[IDX + code]``),
    the hand's code planes (``wk[CPL + j]``) and its kind planes into frame 0 (``wk[fb + j]``);
    returns how many kinds."""
    K = 0
    for j in range(NP):
        wk[CPL + j] = 0
        wk[fb + j] = 0
    t = held
    while t:
        c = lowest_code(t)
        t &= t - 1
        k = cnt[c]
        v = dw[c]
        i = K
        while i > 0 and wk[VAL + i - 1] < v:      # codes ascend, so ties keep code order
            wk[VAL + i] = wk[VAL + i - 1]
            wk[CODE + i] = wk[CODE + i - 1]
            i -= 1
        wk[VAL + i] = v
        wk[CODE + i] = c
        K += 1
        for j in range(min(k, NP)):
            wk[CPL + j] |= np.int64(1) << c
    wk[NKIND] = K
    for i in range(K):
        c = wk[CODE + i]
        wk[IDX + c] = i
        for j in range(min(cnt[c], NP)):
            wk[fb + j] |= np.int64(1) << i
    return K


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def _wilds(wk, cnt, R, dw, W):
    """The wild cards in order of use, most valuable in hand first, then by code
    (``wk[FIXED + W + 1:]``), the values of the unused (``wk[FIXED + k]``: of the wilds from the
    k-th on) and how many all-wild melds hold (``wk[FIXED + 2 * W + 1 + k]``)."""
    WC = FIXED
    WCODE = FIXED + W + 1
    ALLW = FIXED + 2 * W + 1
    nw = 0
    wr = R.wild_ranks
    while wr:
        r = lowest_code(wr)
        wr &= wr - 1
        for s in range(4):
            for _ in range(cnt[s * 16 + r]):
                wk[WCODE + nw] = s * 16 + r
                nw += 1
    for _ in range(cnt[JOKER]):
        wk[WCODE + nw] = JOKER
        nw += 1
    for a in range(1, W):
        c = wk[WCODE + a]
        b = a - 1
        while b >= 0 and (dw[wk[WCODE + b]] < dw[c]
                          or (dw[wk[WCODE + b]] == dw[c] and wk[WCODE + b] > c)):
            wk[WCODE + b + 1] = wk[WCODE + b]
            b -= 1
        wk[WCODE + b + 1] = c
    wk[WC + W] = 0
    for k in range(W - 1, -1, -1):
        wk[WC + k] = wk[WC + k + 1] + dw[wk[WCODE + k]]
    for k in range(W + 1):
        wk[ALLW + k] = 0
    if R.min_natural == 0:
        big = allwild_size(R)
        if big >= R.min_size:
            for k in range(1, W + 1):
                b = wk[ALLW + k - 1]
                for sz in range(R.min_size, min(big, k) + 1):
                    b = max(b, sz + wk[ALLW + k - sz])
                wk[ALLW + k] = b


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def _list_melds(wk, R, NP, W, tb, capm):
    """Every meld the hand could lay down, listed by its lowest card's code (records at ``tb``,
    planes by kind number): the runs each card owns (:func:`_runs_of`), its sets
    (:func:`_sets_of`), then the card alone with wild cards.  Returns how many (-1: more than
    ``capm``)."""
    rec = NP + 3
    N = wk[NSEQ]
    p0 = wk[CPL]
    p1 = wk[CPL + 1] if NP > 1 else 0
    # lanes: the natural cards by seq index, 16 bits a suit
    col = np.int64(0x0001000100010001)
    l0 = np.int64(0)
    l1 = np.int64(0)
    for j in range(N):
        rk = _rank_at(wk[SEQP + j])
        l0 |= ((p0 >> rk) & col) << j
        l1 |= ((p1 >> rk) & col) << j
    runmax = min(R.max_size, N)
    mw = min(W, R.max_wild)
    m = 0
    t = p0
    while t:
        c = lowest_code(t)
        t &= t - 1
        r = c & 15
        s = c >> 4
        first_pi = -1
        if R.runs:
            m, first_pi = _runs_of(wk, R, NP, tb, capm, m, c, l0, l1, mw)
            if m < 0:
                return -1
        setok = R.sets and (R.set_ranks >> r) & 1
        mode = SET_ANY if (R.free_set_ranks >> r) & 1 else R.set_suits
        if setok:
            m = _sets_of(wk, R, NP, tb, capm, m, c, mw, mode)
            if m < 0:
                return -1
        # the card alone with wild cards: a set unless a run has more room
        w0 = R.min_size - 1
        if w0 <= mw and R.min_natural <= 1:
            cap_set = -1
            cap_run = -1
            if setok:
                w1 = min(R.max_wild, set_limit(R, mode, False) - 1)
                if w1 >= w0:
                    cap_set = w1 - w0
            if R.runs and R.run_wilds and first_pi >= 0 and N >= R.min_size:
                w1 = min(R.max_wild, runmax - 1)
                if w1 >= w0:
                    cap_run = w1 - w0
            if cap_set >= 0 or cap_run >= 0:
                if m >= capm:
                    return -1
                b = tb + m * rec
                for j in range(NP):
                    wk[b + j] = 0
                wk[b] = np.int64(1) << wk[IDX + c]
                if cap_set >= cap_run:
                    wk[b + NP] = _info(w0, cap_set, KIND_SET, 1)
                    wk[b + NP + 1] = r | (np.int64(1) << (4 + 6 * s))
                else:
                    wk[b + NP] = _info(w0, cap_run, KIND_RUN, 1)
                    wk[b + NP + 1] = s | (np.int64(1) << (2 + first_pi))
                _link(wk, NP, tb, m)
                m += 1
    return m


@njit(cache=True, nogil=True, inline="always")
def _runs_of(wk, R, NP, tb, capm, m, c, l0, l1, mw):
    """The runs card ``c`` owns (its other natural cards are higher kinds of its suit, the ace
    low among them), as records from ``tb + m * rec``; ``l0``, ``l1`` are the hand's lanes,
    ``mw`` the most wilds a meld may take.  Returns the records listed so far (-1: more than
    ``capm``) and ``c``'s first rank position (-1: runs do not use its rank)."""
    rec = NP + 3
    N = wk[NSEQ]
    ace_lo = N > 0 and wk[SEQP] == 1
    ace_hi = N > 0 and wk[SEQP + N - 1] == 14
    runmax = min(R.max_size, N)
    r = c & 15
    s = c >> 4
    first_pi = -1
    lane0 = (l0 >> (16 * s)) & 0xFFFF
    lane1 = (l1 >> (16 * s)) & 0xFFFF
    for side in range(2):
        if side == 0:
            if r != 14 or wk[POSI + 1] < 0:
                continue
            pi = wk[POSI + 1]
        else:
            if wk[POSI + r] < 0:
                continue
            pi = wk[POSI + r]
        if first_pi < 0:
            first_pi = pi
        wav = mw if R.run_wilds else 0
        jlo = max(0, pi - runmax + 1)
        jhi = min(N - 1, pi + runmax - 1)
        win = ((np.int64(1) << (jhi + 1)) - 1) & ~((np.int64(1) << jlo) - 1)
        # the other natural cards of a run c owns: higher kinds of its suit (the ace
        # low among them); for the ace itself only a second ace at the other end
        if r == 14:
            A = np.int64(0)
            if pi == 0 and ace_hi and (lane1 >> (N - 1)) & 1:
                A = np.int64(1) << (N - 1)
            elif pi == N - 1 and ace_lo and lane1 & 1:
                A = np.int64(1)
            A &= win
        else:
            A = lane0 & win & ~((np.int64(2) << pi) - 1)
            if ace_lo and jlo == 0 and lane0 & 1:
                A |= 1
        if A == 0:
            continue
        two_aces = ace_lo and ace_hi and r != 14
        los = (A & ((np.int64(1) << pi) - 1)) | (np.int64(1) << pi)
        while los:
            lo = lowest_code(los)
            los &= los - 1
            his = A & ~((np.int64(2) << pi) - 1) & ((np.int64(1) << (lo + runmax)) - 1)
            his |= np.int64(1) << pi
            while his:
                hi = highest_code(his)
                his &= ~(np.int64(1) << hi)
                inner = ((np.int64(1) << hi) - 1) & ~((np.int64(2) << lo) - 1)
                inner &= ~(np.int64(1) << pi)
                ai = A & inner
                u = popcount(inner) - popcount(ai)
                if u > wav:
                    continue
                base = (np.int64(1) << lo) | (np.int64(1) << hi) | (np.int64(1) << pi) | ai
                x = np.int64(0)
                while True:
                    nx = popcount(x)
                    if u + nx <= wav:
                        P = base & ~x
                        n = popcount(P)
                        w0 = max(u + nx, R.min_size - n)
                        w1 = min(R.max_wild, runmax - n) if R.run_wilds else 0
                        ok = n >= 2 and w0 <= wav and w0 <= w1 and n >= R.min_natural
                        if ok and two_aces and (P & 1) and (P >> (N - 1)) & 1:
                            ok = (lane1 >> (N - 1)) & 1 == 1
                        if ok:
                            if m >= capm:
                                return -1, first_pi
                            b = tb + m * rec
                            km = np.int64(0)
                            twice = np.int64(0)
                            q = P
                            while q:
                                j = lowest_code(q)
                                q &= q - 1
                                kb = np.int64(1) << wk[IDX + s * 16 + _rank_at(wk[SEQP + j])]
                                if km & kb:
                                    twice |= kb
                                km |= kb
                            for j in range(NP):
                                wk[b + j] = 0
                            wk[b] = km
                            if NP > 1:
                                wk[b + 1] = twice
                            wk[b + NP] = _info(w0, w1 - w0, KIND_RUN, n)
                            wk[b + NP + 1] = s | (P << 2)
                            _link(wk, NP, tb, m)
                            m += 1
                    x = (x - ai) & ai    # the next naturals left out for wilds, 0 first
                    if x == 0:
                        break
    return m, first_pi


@njit(cache=True, nogil=True, inline="always")
def _sets_of(wk, R, NP, tb, capm, m, c, mw, mode):
    """The sets card ``c`` owns (copies of it and cards of its rank in higher suits, by the
    suit rule ``mode``), as records from ``tb + m * rec``; returns the records listed so far
    (-1: more than ``capm``)."""
    rec = NP + 3
    r = c & 15
    s = c >> 4
    col = np.int64(0x0001000100010001)
    p0 = wk[CPL]
    p1 = wk[CPL + 1] if NP > 1 else 0
    mates = ((p0 >> r) & col) & ~((np.int64(2) << (16 * s)) - 1)
    mates |= (p1 >> c) & 1
    if not mates:
        return m
    cs0 = 0
    cs1 = 0
    cs2 = 0
    cs3 = 0
    for j in range(NP):
        pj = wk[CPL + j]
        cs0 += (pj >> r) & 1
        cs1 += (pj >> (16 + r)) & 1
        cs2 += (pj >> (32 + r)) & 1
        cs3 += (pj >> (48 + r)) & 1
    own = (cs0, cs1, cs2, cs3)[s] - 1
    n1 = cs1 if s < 1 else 0
    n2 = cs2 if s < 2 else 0
    n3 = cs3 if s < 3 else 0
    for phase in range(2):
        # SET_ANY: any choice (phase 0); SET_DISTINCT: one of each other suit (phase 1);
        # one or all different: copies of the card (phase 0) or distinct suits (phase 1)
        if (phase == 0 and mode == SET_DISTINCT) or (phase == 1 and mode == SET_ANY):
            continue
        if phase == 0:
            c0 = own
            c1 = n1 if mode == SET_ANY else 0
            c2 = n2 if mode == SET_ANY else 0
            c3 = n3 if mode == SET_ANY else 0
        else:
            c0 = 0
            c1 = min(n1, 1)
            c2 = min(n2, 1)
            c3 = min(n3, 1)
        lim_n = set_limit(R, mode, phase == 1)
        for k1 in range(c1, -1, -1):
            for k2 in range(c2, -1, -1):
                for k3 in range(c3, -1, -1):
                    for k0 in range(c0, -1, -1):
                        n = 1 + k0 + k1 + k2 + k3
                        if n < 2 or n > lim_n:
                            continue
                        w0 = max(0, R.min_size - n)
                        w1 = min(R.max_wild, lim_n - n)
                        if w0 > mw or w0 > w1 or n < R.min_natural:
                            continue
                        if m >= capm:
                            return -1
                        b = tb + m * rec
                        # copies by suit (k1..k3 are 0 for suits up to s)
                        if s == 1:
                            ks = (0, k0 + 1, k2, k3)
                        elif s == 2:
                            ks = (0, 0, k0 + 1, k3)
                        elif s == 3:
                            ks = (0, 0, 0, k0 + 1)
                        else:
                            ks = (k0 + 1, k1, k2, k3)
                        pay = r
                        for u in range(4):
                            pay |= ks[u] << (4 + 6 * u)
                        for j in range(NP):
                            v = np.int64(0)
                            for u in range(4):
                                if ks[u] > j:
                                    v |= np.int64(1) << wk[IDX + 16 * u + r]
                            wk[b + j] = v
                        wk[b + NP] = _info(w0, w1 - w0, KIND_SET, n)
                        wk[b + NP + 1] = pay
                        _link(wk, NP, tb, m)
                        m += 1
    return m


@njit(cache=True, nogil=True, inline="always")
def _link(wk, NP, tb, i):
    """Meld record ``i`` (at ``tb``) linked into its owner's list (the first kind in value order:
    the list starts at ``wk[ST + owner]``, a record's next at its word ``NP + 2``, -1 ends it) in
    trying order: more natural cards, then fewer wilds, then as listed; its kinds added to
    ``wk[HOLD + w]``, ``w`` its fewest wilds."""
    rec = NP + 3
    b = tb + i * rec
    km = wk[b]
    info = wk[b + NP]
    w0 = info & 255
    key = (((info >> 24) & 255) << 8) - w0
    wk[HOLD + w0] |= km
    o = lowest_code(km)
    prev = -1
    cur = wk[ST + o]
    while cur >= 0:                 # after the owner's records of a key as high or higher
        ci = wk[tb + cur * rec + NP]
        if (((ci >> 24) & 255) << 8) - (ci & 255) < key:
            break
        prev = cur
        cur = wk[tb + cur * rec + NP + 2]
    wk[b + NP + 2] = cur
    if prev < 0:
        wk[ST + o] = i
    else:
        wk[tb + prev * rec + NP + 2] = i


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def _needs(wk, K, NP, W, fb, dead0, maxw):
    """The needs' masks (``wk[NGT + k]``: the kinds whose need, the fewest wilds of a meld
    holding them, exceeds ``k``, for ``k`` below the wilds ``W`` and ``maxw``; from
    ``wk[HOLD + w]``: :func:`_link`); the kinds no meld holds are deadwood now (frame 0 at
    ``fb``: the hand less them, their value and ``dead0`` its deadwood so far); the search's
    best reset."""
    allk = (np.int64(1) << K) - 1
    acc = np.int64(0)
    for k in range(maxw + 1):
        acc |= wk[HOLD + k]
        if k < W and k < 32:
            wk[NGT + k] = allk & ~acc
    cur0 = dead0
    t = allk & ~acc
    while t:
        i = lowest_code(t)
        t &= t - 1
        bit = np.int64(1) << i
        for j in range(NP):
            if wk[fb + j] & bit:
                cur0 += wk[VAL + i]
                wk[fb + j] &= ~bit
    wk[fb + NP] = cur0
    wk[fb + NP + 1] = W
    wk[fb + NP + 2] = 0
    wk[BEST] = INF
    wk[NBEST] = 0
    wk[NODES] = 0


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def _search(wk, R, NP, W, fb, mb, bp, memo, tab):
    """The branch and bound (module docstring) from the hand in frame 0 at ``wk[fb:]`` (the memo
    table of ``2**memo`` entries at ``wk[tab:]`` when ``memo``).  A frame is the hand's planes,
    the deadwood so far, the wilds left, the room, the next meld to try (-2: none left, -1:
    deadwood tried, -3: a leaf or a cut), the kind it branches on and the meld of its child."""
    F = NP + 6
    rec = NP + 3
    nmw = min(W, R.max_wild)
    d = 0
    expand = True            # entering frame d (else: back in frame d, to try its next child)
    while True:
        f = fb + d * F
        if expand:
            wk[NODES] += 1
            wk[f + NP + 3] = -3
            cur = wk[f + NP]
            wl = wk[f + NP + 1]
            cap = wk[f + NP + 2]
            while True:
                p0 = wk[f]
                if p0 == 0:                    # a leaf
                    _leaf(wk, R, NP, W, fb, bp, d, cur, wl, cap)
                    break
                if _bound(wk, NP, W, f, cur, wl, nmw) >= wk[BEST]:
                    break
                c = lowest_code(p0)
                mi = wk[ST + c]
                while mi >= 0:
                    b = mb + mi * rec
                    if (wk[b + NP] & 255) <= wl:
                        ok = True
                        for j in range(NP):
                            if wk[b + j] & ~wk[f + j]:
                                ok = False
                                break
                        if ok:
                            break
                    mi = wk[b + NP + 2]
                if mi >= 0:                    # a branch: kind c in a meld, or deadwood
                    cut = False
                    if memo:
                        slot, same = _memo_slot(wk, NP, f, wl, cap, tab, memo)
                        cut = same and cur + wk[slot + NP + 1] >= wk[BEST]
                    if not cut:
                        wk[f + NP + 3] = mi
                        wk[f + NP + 4] = c
                    break
                # no meld: kind c is deadwood, every copy
                bit = np.int64(1) << c
                for j in range(NP):
                    if wk[f + j] & bit:
                        cur += wk[VAL + c]
                        wk[f + j] &= ~bit
                wk[f + NP] = cur
        # the next child of frame d: its next meld the hand holds and the wilds allow, then
        # deadwood
        mi = wk[f + NP + 3]
        if mi >= 0 or mi == -2:
            g = f + F
            c = wk[f + NP + 4]
            wl = wk[f + NP + 1]
            while mi >= 0:
                b = mb + mi * rec
                info = wk[b + NP]
                cm = mi
                mi = wk[b + NP + 2]
                if (info & 255) > wl:
                    continue
                ok = True
                for j in range(NP):
                    if wk[b + j] & ~wk[f + j]:
                        ok = False
                        break
                if not ok:
                    continue
                for j in range(NP):         # the hand less the meld (thermometer planes)
                    v = wk[f + j] & ~wk[b]
                    for k in range(1, NP - j):
                        v |= wk[b + k - 1] & ~wk[b + k] & wk[f + j + k]
                    wk[g + j] = v
                wk[g + NP] = wk[f + NP]
                wk[g + NP + 1] = wl - (info & 255)
                wk[g + NP + 2] = wk[f + NP + 2] + ((info >> 8) & 255)
                wk[f + NP + 3] = mi if mi >= 0 else -2
                wk[f + NP + 5] = cm
                d += 1
                expand = True
                break
            if expand:
                continue
            bit = np.int64(1) << c
            k = 0
            for j in range(NP):
                k += (wk[f + j] >> c) & 1
                wk[g + j] = wk[f + j] & ~bit
            wk[g + NP] = wk[f + NP] + k * wk[VAL + c]
            wk[g + NP + 1] = wl
            wk[g + NP + 2] = wk[f + NP + 2]
            wk[f + NP + 3] = -1
            d += 1
            expand = True
            continue
        # frame d is done
        if memo and mi == -1:
            _memo_store(wk, NP, f, tab, memo)
        if d == 0:
            return
        d -= 1
        expand = False



@njit(cache=True, nogil=True, inline="always")
def _leaf(wk, R, NP, W, fb, bp, d, cur, wl, cap):
    """A leaf of the search (frame ``d``, no natural card left; ``cur`` its deadwood, ``wl`` the
    wilds left, ``cap`` the melds' room): its deadwood with the wilds left placed at best; a new
    best is kept with the melds of its path (``wk[bp:]``)."""
    WC = FIXED
    ALLW = FIXED + 2 * W + 1
    F = NP + 6
    extra = min(wl, cap)
    if R.min_natural == 0:
        for a in range(min(wl, cap) + 1):
            extra = max(extra, a + wk[ALLW + wl - a])
    tot = cur + wk[WC + W - wl + extra]
    if tot < wk[BEST]:
        wk[BEST] = tot
        wk[BWL] = wl
        wk[BCAP] = cap
        nb = 0
        for dd in range(d):
            if wk[fb + dd * F + NP + 3] != -1:     # that frame's child a meld (-1: deadwood)
                wk[bp + nb] = wk[fb + dd * F + NP + 5]
                nb += 1
        wk[NBEST] = nb


@njit(cache=True, nogil=True, inline="always")
def _bound(wk, NP, W, f, cur, wl, nmw):
    """A lower bound of the deadwood below the frame at ``f``: its deadwood so far, the wilds'
    values at best unused, and the kinds left whose need exceeds the wilds left."""
    lb = cur + wk[FIXED + W]
    if wl < nmw:
        g = wk[NGT + wl]
        for j in range(NP):
            q = wk[f + j] & g
            while q:
                lb += wk[VAL + lowest_code(q)]
                q &= q - 1
    return lb


@njit(cache=True, nogil=True, inline="always")
def _memo_slot(wk, NP, f, wl, cap, tab, bits):
    """The memo table's slot (at ``tab``) of the position in the frame at ``f`` (its planes, the
    wilds left ``wl`` and the usable room; a table of ``2**bits`` entries), and whether the slot
    holds that position."""
    tmask = (np.int64(1) << bits) - 1
    h = np.uint64(wl * 64 + min(cap, wl)) * np.uint64(0x9E3779B97F4A7C15)
    for j in range(NP):
        h = (h ^ np.uint64(wk[f + j])) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
    slot = tab + (np.int64(h >> np.uint64(20)) & tmask) * (NP + 2)
    same = wk[slot + NP] == wl * 64 + min(cap, wl) + 1
    for j in range(NP):
        same = same and wk[slot + j] == wk[f + j]
    return slot, same


@njit(cache=True, nogil=True, inline="always")
def _memo_store(wk, NP, f, tab, bits):
    """Keep the bound the finished frame at ``f`` proved (the best less its deadwood so far) in
    its memo slot, the larger if the slot held the position already."""
    wl = wk[f + NP + 1]
    cap = wk[f + NP + 2]
    slot, same = _memo_slot(wk, NP, f, wl, cap, tab, bits)
    v = wk[BEST] - wk[f + NP]
    if same:
        v = max(v, wk[slot + NP + 1])
    for j in range(NP):
        wk[slot + j] = wk[f + j]
    wk[slot + NP] = wl * 64 + min(cap, wl) + 1
    wk[slot + NP + 1] = v

@njit(cache=True, nogil=True, **NO_REFCOUNT)
def _write_all(out, R, wk, NP, W, mb, bp):
    """Write the best arrangement's melds as rows into ``out``; returns how many there are.  A
    meld's wild cards are the next of the wilds in order of use, sorted by code in its row; the
    wilds left over fill the melds' room in meld order, then all-wild melds."""
    WCODE = FIXED + W + 1
    ALLW = FIXED + 2 * W + 1
    rec = NP + 3
    nb = wk[NBEST]
    wl = wk[BWL]
    cap = wk[BCAP]
    extra = min(wl, cap)
    aw = 0
    if R.min_natural == 0:
        for a in range(min(wl, cap) + 1):
            if a + wk[ALLW + wl - a] > extra + aw:
                extra = a
                aw = wk[ALLW + wl - a]
    N = wk[NSEQ]
    rows = out.shape[0]
    nxt = 0
    k = 0
    total = nb
    big = allwild_size(R)
    left = aw
    while left > 0:
        sz = min(big, left)
        if left - sz != 0 and left - sz < R.min_size:
            sz = left - R.min_size
        left -= sz
        total += 1
    for i in range(total):
        if i < nb:
            b = mb + wk[bp + i] * rec
            info = wk[b + NP]
            pay = wk[b + NP + 1]
            kind = (info >> 16) & 255
            nn = (info >> 24) & 255
            e = min((info >> 8) & 255, extra)
            extra -= e
            w = (info & 255) + e
        else:
            sz = min(big, aw)
            if aw - sz != 0 and aw - sz < R.min_size:
                sz = aw - R.min_size
            aw -= sz
            w = sz
            nn = 0
            if R.sets:
                rs = R.set_ranks & ~R.wild_ranks
                kind = KIND_SET
                pay = lowest_code(rs) if rs else 3
            else:
                kind = KIND_RUN
                pay = 0
        if k >= rows:
            nxt += w
            k += 1
            continue
        # this meld's wilds, sorted by code
        for a in range(nxt + 1, nxt + w):
            c = wk[WCODE + a]
            bb = a - 1
            while bb >= nxt and wk[WCODE + bb] > c:
                wk[WCODE + bb + 1] = wk[WCODE + bb]
                bb -= 1
            wk[WCODE + bb + 1] = c
        for j in range(out.shape[1]):
            out[k, j] = -1
        n = 0
        if kind == KIND_SET:
            r = pay & 15
            for s in range(4):
                for _ in range((pay >> (4 + 6 * s)) & 63):
                    out[k, 3 + 2 * n] = s * 16 + r
                    out[k, 4 + 2 * n] = s * 16 + r
                    n += 1
            mode = SET_ANY if (R.free_set_ranks >> r) & 1 else R.set_suits
            names = set_wild_suits(pay >> 4, nn, w, mode)
            for j in range(w):
                out[k, 3 + 2 * n] = wk[WCODE + nxt + j]
                out[k, 4 + 2 * n] = ((names >> (2 * j)) & 3) * 16 + r
                n += 1
            out[k, 2] = r
        else:
            s = pay & 3
            P = pay >> 2
            lo = lowest_code(P) if P else 0
            L = nn + w
            hi = min(N - 1, lo + L - 1)
            lo = hi - L + 1
            j2 = 0
            for j in range(lo, hi + 1):
                c = s * 16 + _rank_at(wk[SEQP + j])
                if (P >> j) & 1:
                    out[k, 3 + 2 * n] = c
                else:
                    out[k, 3 + 2 * n] = wk[WCODE + nxt + j2]
                    j2 += 1
                out[k, 4 + 2 * n] = c
                n += 1
            out[k, 2] = s * 16 + wk[SEQP + lo]
        out[k, 0] = kind
        out[k, 1] = n
        nxt += w
        k += 1
    return k


@njit(cache=True, nogil=True, inline="always")
def set_wild_suits(kinds, nn, w, mode):
    """The suits the ``w`` wild cards of a set name, two bits each; ``kinds`` holds the set's
    natural cards a suit (six bits each), ``nn`` of them: each wild names the lowest suit that
    keeps the set legal.  SET_ANY: clubs.  SET_DISTINCT: the lowest suits the naturals lack.  One
    suit or all different: the lowest suits the naturals lack while the set can be all different
    (naturals of distinct suits, four cards at most), else the naturals' suit."""
    out = np.int64(0)
    if mode == SET_ANY:
        return out
    distinct = True
    one = 0
    taken = 0
    for s in range(4):
        k = (kinds >> (6 * s)) & 63
        if k > 1:
            distinct = False
        if k > 0:
            one = s
            taken |= 1 << s
    if mode != SET_DISTINCT and (not distinct or nn + w > 4):
        for j in range(w):
            out |= np.int64(one) << (2 * j)
        return out
    j = 0
    for s in range(4):
        if j < w and not (taken >> s) & 1:
            out |= np.int64(s) << (2 * j)
            j += 1
    return out
