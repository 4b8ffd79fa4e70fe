"""Gin rummy melds: the exact minimum deadwood of a hand, its melds, and the defender's layoffs.

The single-deck, no-wild fast path of :mod:`simkit.engines.melds` (moved here from
``simkit/games/gin/meldcore.py``; gin imports it from here).  Under ``melds.GIN`` the general
engine's least deadwood equals :func:`min_deadwood` (``tests/test_melds.py`` checks it).

Rules (``003_25b072003b534ab4.txt``, grep -n lines): line 6, king always high and ace always
low (so ``A-2-3`` is a run and ``Q-K-A`` is not), pictures count 10, aces 1, other cards their
pips; line 9, melds are sets (three or four of a rank) and runs (three or more in sequence in
one suit); line 10, deadwood is every card in no meld; line 11, the defender may lay off on the
knocker's melds unless the knocker went gin.

Representation.  Inside this module a hand is a ``uint64`` with one 16-bit lane per suit and
bit ``r - 1`` of a lane for rank ``r`` (ace ``r = 1`` .. king ``r = 13``); :func:`gin_mask`
converts simkit card codes.  A lane's 13 bits index two tables built once at import:
``RUNDW[m]``, the least deadwood of the suit's cards ``m`` using runs only, and ``RUNLEN[m]``,
the length of the run that starts at the lowest card of ``m`` in an optimal split (0: that card
is deadwood).  Any meld arrangement is some sets plus runs within each suit, and the sets can
only come from ranks held three or four times (at most three ranks in 11 cards), so
:func:`min_deadwood` tries every choice of sets (none, the four, or one of the four threes for
a rank held four times; none or the three otherwise) and adds the four lanes' ``RUNDW`` of
what is left: exact, and a few nanoseconds when the hand has no set candidates.

Layoffs (:func:`defender_deadwood`): the defender's cards that can go on the knocker's melds are
the fourth card of each knocker set of three and the cards that extend a knocker run through a
chain of the defender's cards.  Laying off can break one of the defender's own melds, so every
subset of those candidates is tried (a run layoff counts only if it stays connected to the run)
together with the defender's best melds of what is left: the defender's melds and layoffs are
chosen together to minimise his deadwood.  The knocker lays down a minimum-deadwood
arrangement; when several set choices tie, he picks the one that leaves the defender the most
deadwood (:func:`knock_result`).

Blocking (:func:`knock_block`): a knocker may lay down any arrangement whose deadwood is within
the knock limit, and keeping a card out of a meld can block layoffs (A-2-3-4 of spades laid as
A-2-3 with the 4 kept as deadwood takes the defender's 5-6 of spades off the table).  Every
arrangement is a choice of sets (as above) and, in each suit, a set of run cards whose maximal
blocks of consecutive ranks are three long or more (``RUNOK``; how a block is cut into runs
changes no layoff); :func:`knock_block` tries each one within the limit and keeps the one that
scores most for the knocker after the defender's best layoffs.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simkit.core import cards as C
from simkit.core.bits import lowest_code, popcount
from simkit.errors import SimkitError

LANE = np.uint64(0x1FFF)
ONES = np.uint64(0x0001000100010001)  # bit 0 of every lane
U0 = np.uint64(0)
U1 = np.uint64(1)
S16 = np.uint64(16)
S32 = np.uint64(32)
S48 = np.uint64(48)
VALUES = np.array([0] + [min(r, 10) for r in range(1, 14)], np.int64)  # by rank 1..13


def _run_tables():
    dw = np.zeros(1 << 13, np.int64)
    first = np.zeros(1 << 13, np.int64)
    for m in range(1, 1 << 13):
        low = (m & -m).bit_length() - 1           # rank low+1 is the lowest card
        best = VALUES[low + 1] + dw[m & (m - 1)]  # the lowest card as deadwood
        choice = 0
        k = low
        run = 0
        while k < 13 and m >> k & 1:
            run |= 1 << k
            if k - low >= 2 and dw[m & ~run] < best:
                best, choice = dw[m & ~run], k - low + 1
            k += 1
        dw[m], first[m] = best, choice
    return dw, first


RUNDW, RUNLEN = _run_tables()


def _lane_tables():
    """``RUNOK[m]``: the 13-bit lane mask ``m`` is a union of runs (every block of consecutive
    ranks at least three long); ``LANEVAL[m]``: the deadwood value of the lane's cards ``m``."""
    ok = np.zeros(1 << 13, np.bool_)
    val = np.zeros(1 << 13, np.int64)
    for m in range(1 << 13):
        val[m] = sum(VALUES[r + 1] for r in range(13) if m >> r & 1)
        blocks, run = [], 0
        for r in range(14):
            if r < 13 and m >> r & 1:
                run += 1
            elif run:
                blocks.append(run)
                run = 0
        ok[m] = all(b >= 3 for b in blocks)
    return ok, val


RUNOK, LANEVAL = _lane_tables()


@njit(cache=True, nogil=True)
def lanes_dw(x):
    """Deadwood of ``x`` using runs only (the sum of the four lanes' ``RUNDW``)."""
    return (RUNDW[x & LANE] + RUNDW[(x >> S16) & LANE] + RUNDW[(x >> S32) & LANE]
            + RUNDW[(x >> S48) & LANE])


@njit(cache=True, nogil=True)
def set_candidates(h):
    """The ranks held three or four times, as a 13-bit mask."""
    a = h & LANE
    b = (h >> S16) & LANE
    c = (h >> S32) & LANE
    d = (h >> S48) & LANE
    return (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)


@njit(cache=True, nogil=True)
def set_option(h, x, o):
    """Option ``o`` for the rank with bit ``x`` (lane 0): 0 no set, 1 every card of the rank,
    2..5 the rank without the card of suit ``o - 2`` (only when four are held)."""
    if o == 0:
        return U0
    full = h & (ONES * x)
    if o == 1:
        return full
    return full & ~(x << np.uint64(16 * (o - 2)))


@njit(cache=True, nogil=True)
def n_options(h, x):
    if x == U0:
        return 1
    f = h & (ONES * x)
    return 6 if f == ONES * x else 2


@njit(cache=True, nogil=True)
def _candidate_bits(h):
    """The (up to three) ranks held three or four times, each as a lane-0 bit (0 if absent)."""
    t = set_candidates(h)
    x1 = t & (~t + U1)
    t ^= x1
    x2 = t & (~t + U1)
    t ^= x2
    return x1, x2, t & (~t + U1)


@njit(cache=True, nogil=True)
def n_set_choices(h):
    """How many ways there are to choose the sets of ``h`` (1 when it holds no set)."""
    x1, x2, x3 = _candidate_bits(h)
    return n_options(h, x1) * n_options(h, x2) * n_options(h, x3)


@njit(cache=True, nogil=True)
def set_choice(h, i):
    """The cards of choice ``i`` (``0 <= i < n_set_choices(h)``) of sets in ``h``, a mask."""
    x1, x2, x3 = _candidate_bits(h)
    n1, n2 = n_options(h, x1), n_options(h, x2)
    return (set_option(h, x1, i % n1) | set_option(h, x2, (i // n1) % n2)
            | set_option(h, x3, i // (n1 * n2)))


@njit(cache=True, nogil=True)
def min_deadwood(h):
    """The least deadwood of the cards ``h`` (any number of cards), over every meld arrangement."""
    if set_candidates(h) == U0:
        return lanes_dw(h)
    best = np.int64(1 << 30)
    for i in range(n_set_choices(h)):
        best = min(best, lanes_dw(h & ~set_choice(h, i)))
    return best


@njit(cache=True, nogil=True)
def card_value(b):
    """Deadwood value of the single card with bit ``b``."""
    return VALUES[_low_index(b) % 16 + 1]


@njit(cache=True, nogil=True)
def discard_order(b):
    """Preference among discards that leave equal deadwood: the card worth most, then the
    higher rank (a king before a ten, which more runs can use), then the higher suit."""
    i = _low_index(b)
    return VALUES[i % 16 + 1] * 64 + (i % 16) * 4 + i // 16


@njit(cache=True, nogil=True)
def best_discard(h, forbid):
    """``(deadwood, card bit)``: the discard from ``h`` leaving the least deadwood, ties broken
    by :func:`discard_order`.  ``forbid`` is a bit that may not be discarded."""
    best = np.int64(1 << 30)
    card = U0
    bkey = np.int64(-1)
    x = h & ~forbid
    while x != U0:
        b = x & (~x + U1)
        x ^= b
        v = min_deadwood(h ^ b)
        if v < best or (v == best and discard_order(b) > bkey):
            best, card, bkey = v, b, discard_order(b)
    return best, card


@njit(cache=True, nogil=True)
def run_cards(x):
    """The cards of ``x`` that the optimal run split of each lane puts in runs."""
    out = U0
    for lane in range(4):
        sh = np.uint64(16 * lane)
        m = np.int64((x >> sh) & LANE)
        while m:
            low = m & -m
            k = RUNLEN[m]
            if k == 0:
                m ^= low
            else:
                run = (low << k) - low
                out |= np.uint64(run) << sh
                m &= ~run
    return out


@njit(cache=True, nogil=True)
def connected(base, extra):
    """The cards of ``base | extra`` joined to ``base`` through runs of consecutive ranks."""
    x = base | extra
    y = base
    while True:
        z = x & (y | (y << U1) | (y >> U1))
        if z == y:
            return y
        y = z


@njit(cache=True, nogil=True)
def layoff_deadwood(sets, runs, d):
    """The defender's least deadwood (cards ``d``) when he may lay off on the knocker's
    ``sets`` and ``runs`` (bit masks of the knocker's set cards and run cards)."""
    cand_set = U0
    t = sets
    while t != U0:                       # each set of exactly three: its fourth card
        b = t & (~t + U1)
        col = ONES * (np.uint64(1) << np.uint64(np.int64(_low_index(b)) % 16))
        s = sets & col
        t &= ~col
        if popcount(s) == 3:
            cand_set |= col & ~s & d
    cand_run = connected(runs, d) & ~runs & d
    cand = cand_set | cand_run
    best = min_deadwood(d)
    if cand == U0:
        return best
    # every subset of the candidates (few of them): iterate submasks of cand
    sub = cand
    while True:
        ok = (sub & ~cand_set & ~connected(runs, sub)) == U0
        if ok:
            v = min_deadwood(d & ~sub)
            if v < best:
                best = v
        if sub == U0:
            break
        sub = (sub - U1) & cand
    return best


@njit(cache=True, nogil=True, inline="always")
def _low_index(b):
    return lowest_code(b)


@njit(cache=True, nogil=True)
def knock_result(k, d):
    """``(knocker deadwood, defender deadwood after layoffs, sets, runs)`` for a knocker holding
    ``k`` and a defender holding ``d`` (10 cards each); ``sets`` and ``runs`` are the cards the
    knocker lays down in sets and in runs.  A gin knocker allows no layoffs; otherwise the
    knocker picks, among his minimum-deadwood set choices, the one leaving the defender most."""
    dk = min_deadwood(k)
    worst = np.int64(-1)
    best_sets, best_runs = U0, U0
    for i in range(n_set_choices(k)):
        sets = set_choice(k, i)
        rest = k & ~sets
        if lanes_dw(rest) == dk:
            runs = run_cards(rest)
            if dk == 0:
                return dk, min_deadwood(d), sets, runs
            dd = layoff_deadwood(sets, runs, d)
            if dd > worst:
                worst, best_sets, best_runs = dd, sets, runs
    return dk, worst, best_sets, best_runs


@njit(cache=True, nogil=True)
def knock_points(dk, dd, gin_bonus, undercut_bonus, undercut_on_equal):
    """The knocker's points for a knock at ``dk`` against ``dd`` after layoffs (lines 12-14),
    negative when the defender undercuts (and scores them)."""
    if dk == 0:
        return gin_bonus + dd
    if dd < dk or (dd == dk and undercut_on_equal):
        return -(dk - dd + undercut_bonus)
    return dd - dk


@njit(cache=True, nogil=True)
def _lane_runs(m, budget, out):
    """The run-card choices of lane mask ``m`` whose leftover deadwood is within ``budget``, into
    ``out`` (pairs run cards, leftover value); returns how many."""
    n = 0
    sub = m
    while True:
        if RUNOK[sub] and LANEVAL[m & ~sub] <= budget:
            out[n, 0] = sub
            out[n, 1] = LANEVAL[m & ~sub]
            n += 1
        if sub == 0:
            return n
        sub = (sub - 1) & m


@njit(cache=True, nogil=True)
def knock_block(k, d, limit, gin_bonus, undercut_bonus, undercut_on_equal):
    """The knocker's best lay-down when he may block layoffs: among every arrangement of ``k``
    with deadwood ``<= limit``, the one whose :func:`knock_points` after the defender's best
    layoffs is highest (ties: the least deadwood, then the first found, which is a
    least-deadwood choice before any other).  Returns ``(dk, dd, sets, runs)`` like
    :func:`knock_result`; gin allows no layoffs, so a gin hand is laid down as gin."""
    dmin = min_deadwood(k)
    if dmin == 0 or dmin > limit:
        return knock_result(k, d)
    most = 0
    for ln in range(4):
        most = max(most, popcount((k >> np.uint64(16 * ln)) & LANE))
    lanes = np.empty((4, 1 << most, 2), np.int64)  # a lane's run choices: at most its submasks
    cnt = np.zeros(4, np.int64)
    best_pts = np.int64(-(1 << 40))
    best_dk, best_dd, best_sets, best_runs = np.int64(0), np.int64(0), U0, U0
    for i in range(n_set_choices(k)):
        sets = set_choice(k, i)
        rest = k & ~sets
        for ln in range(4):
            cnt[ln] = _lane_runs(np.int64((rest >> np.uint64(16 * ln)) & LANE), limit, lanes[ln])
        for a in range(cnt[0]):
            va = lanes[0, a, 1]
            for b in range(cnt[1]):
                vb = va + lanes[1, b, 1]
                if vb > limit:
                    continue
                for c in range(cnt[2]):
                    vc = vb + lanes[2, c, 1]
                    if vc > limit:
                        continue
                    for e in range(cnt[3]):
                        dk = vc + lanes[3, e, 1]
                        if dk > limit:
                            continue
                        runs = (np.uint64(lanes[0, a, 0]) | (np.uint64(lanes[1, b, 0]) << S16)
                                | (np.uint64(lanes[2, c, 0]) << S32)
                                | (np.uint64(lanes[3, e, 0]) << S48))
                        dd = layoff_deadwood(sets, runs, d)
                        pts = knock_points(dk, dd, gin_bonus, undercut_bonus, undercut_on_equal)
                        if pts > best_pts or (pts == best_pts and dk < best_dk):
                            best_pts, best_dk, best_dd = pts, dk, dd
                            best_sets, best_runs = sets, runs
    return best_dk, best_dd, best_sets, best_runs


# ---- Python side: card codes in, readable melds out -------------------------------------------

def gin_bit(code: int) -> int:
    """The bit of simkit card ``code`` in this module's representation (ace low)."""
    r, s = int(code) & 15, int(code) >> 4
    if s > 3 or not 2 <= r <= 14:
        raise SimkitError(f"{C.format_card(code)} is not a card of the 52-card gin deck")
    return 1 << (s * 16 + (0 if r == 14 else r - 1))


def gin_mask(cards) -> np.uint64:
    """Hand mask from card codes or a string such as ``"As 2s 3s 7d"``; duplicates are an error."""
    codes = C.parse(cards) if isinstance(cards, str) else np.asarray(cards, np.int64).ravel()
    m = 0
    for c in codes:
        b = gin_bit(c)
        if m & b:
            raise SimkitError(f"card {C.format_card(c)} appears twice in the hand")
        m |= b
    return np.uint64(m)


def bit_code(bit_index: int) -> int:
    """The simkit card code of bit ``bit_index`` of a gin mask."""
    s, r = divmod(int(bit_index), 16)
    return s * 16 + (14 if r == 0 else r + 1)


def mask_codes(m) -> list[int]:
    m = int(m)
    return [bit_code(i) for i in range(64) if m >> i & 1]


def _hand(hand, sizes=(10, 11)) -> np.uint64:
    m = gin_mask(hand)
    n = bin(int(m)).count("1")
    if sizes and n not in sizes:
        raise SimkitError(f"a gin hand has {' or '.join(map(str, sizes))} cards, not {n}")
    return m


def deadwood(hand, discard: bool | None = None) -> int:
    """The least deadwood of a gin hand, e.g. ``deadwood("As 2s 3s 7d 7h 7c Kd Qd Jd 5c") == 5``.

    A 10-card hand counts all its cards.  An 11-card hand (just after a draw) counts, by default,
    the best 10 after one discard (what decides whether the player may knock); ``discard=False``
    counts all 11.
    """
    m = _hand(hand)
    if discard is None:
        discard = bin(int(m)).count("1") == 11
    if discard:
        return int(best_discard(m, U0)[0])
    return int(min_deadwood(m))


def meld_lists(sets, runs) -> list[list[int]]:
    """The melds (lists of bit indices) of the set cards ``sets`` (by rank) and the run cards
    ``runs`` (each block of consecutive ranks in a suit as one run)."""
    sets, runs = int(sets), int(runs)
    out = [[i for i in range(64) if sets >> i & 1 and i % 16 == r] for r in range(13)]
    out = [meld for meld in out if meld]
    for lane in range(4):
        cur: list[int] = []
        for i in range(16 * lane, 16 * lane + 14):
            if i < 16 * lane + 13 and runs >> i & 1:
                cur.append(i)
            elif cur:
                out.append(cur)
                cur = []
    return out


def _arrangement(m: int) -> tuple[list[list[int]], int]:
    """Melds (as lists of bits) of one minimum-deadwood arrangement of mask ``m``."""
    m = np.uint64(m)
    target = int(min_deadwood(m))
    for c in range(n_set_choices(m)):
        sets = int(set_choice(m, c))
        rest = int(m) & ~sets
        if int(lanes_dw(np.uint64(rest))) == target:
            return meld_lists(sets, run_cards(np.uint64(rest))), target
    raise AssertionError("no arrangement reaches the minimum")  # pragma: no cover


def melds(hand, style: str = "ascii") -> dict:
    """One minimum-deadwood arrangement: ``{"melds": ["As 2s 3s", ...], "deadwood_cards": "5c",
    "deadwood": 5}``; an 11-card hand first discards (``"discard"``) as :func:`deadwood` does."""
    m = int(_hand(hand))
    out = {}
    if bin(m).count("1") == 11:
        _, b = best_discard(np.uint64(m), U0)
        out["discard"] = C.format_card(mask_codes(b)[0], style)
        m &= ~int(b)
    ms, dw = _arrangement(m)
    used = sum(1 << i for meld in ms for i in meld)
    out["melds"] = [C.format_cards([bit_code(i) for i in meld], style) for meld in ms]
    out["deadwood_cards"] = C.format_cards(mask_codes(m & ~used), style)
    out["deadwood"] = dw
    return out
