"""Gin rummy kernels: one hand (:func:`play_hand`), a game to 100 (:func:`play_match`) and the
chunk loop (:func:`simulate`).

A hand's cards come from a partial Fisher-Yates shuffle driven by a splitmix64 sequence started
at the hand's key, one bounded draw per card as it is needed, so the k-th card off the deck is
the same whoever plays: both seat orders of a swapped deal, and every grid point, see the same
cards (common random numbers).  Strategies' coin flips use a second sequence (``key ^ SALT``).
Cards are bits of the :mod:`~simkit.games.gin.meldcore` representation.

Seats: seat 0 and seat 1; strategy ``q ^ flip`` sits in seat ``q``.  In ``unit=hand`` seat 1
deals; with ``swap`` the deal is played again with ``flip = 1``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simkit.core.accumulate import add_deal
from simkit.core.bits import popcount
from simkit.core.registry import Metric
from simkit.core.rng import bounded, splitmix, uniform, xoshiro_step
from simkit.games.gin.meldcore import (
    ONES,
    U0,
    U1,
    _low_index,
    best_discard,
    card_value,
    knock_result,
    min_deadwood,
)
from simkit.games.gin.strategies import (
    EARLY,
    GREEDY,
    GUARD,
    KIND,
    LATE,
    P_KNOCK,
    P_TAKE,
    PICKS,
    RANDOM,
    SLACK,
    TRACK,
)

SALT = np.uint64(0x6A09E667F3BCC909)
DECK = np.array([s * 16 + r for s in range(4) for r in range(13)], np.int64)  # bit indices
FULL = np.uint64(sum(1 << int(i) for i in DECK))

# rules vector
(R_LIMIT, R_GIN, R_UNDERCUT, R_EQUAL, R_DEAD, R_TAKEN, R_TARGET, R_GAME, R_BOX, R_SHUTOUT,
 R_SHUTBOX, R_MAXH, R_SWAP, R_UNIT) = range(14)
# hand outcomes
DEAD, KNOCK, UNDERCUT, GIN = 0, 1, 2, 3
# log columns: seat, source (0 stock, 1 pile), card drawn, card discarded (-1 on a knock), knock
LOG_COLS = 5

HAND_METRICS = [
    Metric("p1_points", False, "p1's points minus p2's, per hand"),
    Metric("p1_win", True, "p1 scores the hand"),
    Metric("p2_win", True, "p2 scores the hand"),
    Metric("dead", True, "the hand is a draw (stock down to dead_stock)"),
    Metric("gin", True, "the hand ends in gin"),
    Metric("knock", True, "the hand ends in a knock short of gin"),
    Metric("undercut", True, "the knocker is undercut"),
    Metric("p1_gin", True, "p1 goes gin"),
    Metric("p2_gin", True, "p2 goes gin"),
    Metric("p1_knock", True, "p1 knocks short of gin"),
    Metric("p2_knock", True, "p2 knocks short of gin"),
    Metric("p1_undercut", True, "p1 knocks and is undercut"),
    Metric("p2_undercut", True, "p2 knocks and is undercut"),
    Metric("turns", False, "cards drawn in the hand, both players"),
]
NH = len(HAND_METRICS)
(H_POINTS, H_P1WIN, H_P2WIN, H_DEAD, H_GIN, H_KNOCK, H_UNDER, H_P1GIN, H_P2GIN, H_P1KNOCK,
 H_P2KNOCK, H_P1UNDER, H_P2UNDER, H_TURNS) = range(NH)
MATCH_METRICS = [
    Metric("p1_match_win", True, "p1 wins the game"),
    Metric("p2_match_win", True, "p2 wins the game"),
    Metric("p1_match_net", False, "p1's net result of the game (winner's total minus loser's)"),
    Metric("p1_shutout", True, "p1 wins by a shutout"),
    Metric("p2_shutout", True, "p2 wins by a shutout"),
    Metric("hands", False, "hands per game, draws included"),
    Metric("unfinished", True, "the game reached max_hands"),
    Metric("_hands", False, "hands in the deal (both seat orders): the ratios' denominator"),
]
NM = len(MATCH_METRICS)
M_HANDS_ALL = NM - 1


def metrics(rules) -> list[Metric]:
    swap = rules.swap
    if rules.unit == "hand":
        return [Metric(m.name, m.binary and not swap, m.doc) for m in HAND_METRICS]
    out = [Metric(m.name, m.binary and not swap, m.doc) for m in MATCH_METRICS]
    for m in HAND_METRICS:
        out.append(Metric(m.name, False, m.doc + " (per hand)",
                          ratio=(f"_sum_{m.name}", "_hands", f"_cross_{m.name}")))
    out += [Metric(f"_sum_{m.name}", False) for m in HAND_METRICS]
    out += [Metric(f"_cross_{m.name}", False) for m in HAND_METRICS]
    return out


def encode_rules(rules) -> np.ndarray:
    return np.array([rules.knock_limit, rules.gin_bonus, rules.undercut_bonus,
                     rules.undercut_on_equal, rules.dead_stock, rules.discard_taken, rules.target,
                     rules.game_bonus, rules.box_bonus, rules.shutout, rules.shutout_boxes,
                     rules.max_hands, rules.swap, rules.unit == "match"], np.int64)


@njit(cache=True, nogil=True)
def wants_pile(p, h, top, taken_ok, limit, frac, u):
    """Whether the strategy ``p`` takes the pile's ``top`` card into hand ``h``:
    ``(take, d, card, u)`` where ``(d, card)`` is the best discard after taking it (``d = -1``
    when not computed), which :func:`after_draw` then need not compute again."""
    if p[KIND] == RANDOM:
        x, u = uniform(u)
        return x < p[P_TAKE], np.int64(-1), U0, u
    d, card = best_discard(h | top, U0 if taken_ok else top)
    if p[GREEDY] != 0:
        return d < min_deadwood(h), d, card, u
    # only a card that joins a meld of the best 11-card arrangement, or one that lets it knock
    joins = min_deadwood(h | top) < min_deadwood(h) + card_value(top)
    return joins or d <= min(limit, knock_level(p, frac)), d, card, u


@njit(cache=True, nogil=True)
def next_card(perm, k, s, stacked):
    """The ``k``-th card off the deck, as a bit: one step of a Fisher-Yates shuffle of ``perm``
    driven by the splitmix state ``s`` (or ``perm``'s own order when ``stacked``): ``(bit, s)``."""
    j = k
    if not stacked:
        j, s = bounded(s, 52 - k)
        j += k
    perm[k], perm[j] = perm[j], perm[k]
    return U1 << np.uint64(perm[k]), s


@njit(cache=True, nogil=True)
def danger(b, own, known, gone):
    """How useful card ``b`` could be to the opponent: live sets and runs for it among the
    unseen cards, plus 4 per card he is known to hold of its rank or next to it in its suit."""
    i = _low_index(b)
    r = i % 16
    unseen = FULL & ~own & ~gone
    col = ONES << np.uint64(r)
    live = np.int64(popcount(unseen & col) >= 2)
    near = U0
    for o in (-2, -1, 1, 2):
        if 0 <= r + o <= 12:
            near |= (b << np.uint64(o)) if o > 0 else (b >> np.uint64(-o))
    for a, c in ((-2, -1), (-1, 1), (1, 2)):
        if 0 <= r + a <= 12 and 0 <= r + c <= 12:
            ba = (b << np.uint64(a)) if a > 0 else (b >> np.uint64(-a))
            bc = (b << np.uint64(c)) if c > 0 else (b >> np.uint64(-c))
            live += (unseen & ba) != U0 and (unseen & bc) != U0
    return live + 4 * popcount(known & ((col & ~b) | near))


@njit(cache=True, nogil=True)
def stock_frac(k, dead):
    """The fraction of the playable stock left when ``k`` cards are off the deck."""
    return (52 - k - dead) / (31.0 - dead) if dead < 31 else 0.0


@njit(cache=True, nogil=True)
def knock_level(p, frac):
    """The strategy's knock threshold when a fraction ``frac`` of the playable stock is left."""
    frac = min(max(frac, 0.0), 1.0)
    return p[LATE] + (p[EARLY] - p[LATE]) * frac + 1e-9


@njit(cache=True, nogil=True)
def after_draw(p, h, forbid, pre_d, pre_card, limit, dead, stock, opp_picks, known, gone, u):
    """The strategy's move with 11 cards ``h``: ``(knock, discard bit, u)``.  ``(pre_d,
    pre_card)`` is the best discard when already known (``pre_d = -1``: not known)."""
    dmin, card = (pre_d, pre_card) if pre_d >= 0 else best_discard(h, forbid)
    if p[KIND] == RANDOM:
        x, u = uniform(u)
        if dmin <= limit and x < p[P_KNOCK]:
            return True, card, u
        x = h & ~forbid
        j, u = bounded(u, popcount(x))
        for _ in range(j):
            x &= x - U1
        return False, x & (~x + U1), u
    ok = dmin <= limit and dmin <= knock_level(p, stock_frac(52 - stock, dead))
    if ok and p[PICKS] > 0 and opp_picks >= p[PICKS] and dmin > p[GUARD]:
        ok = False
    if ok:
        return True, card, u
    if p[TRACK] == 0:
        return False, card, u
    best, bd, bv = card, np.int64(1 << 30), np.int64(-1)
    x = h & ~forbid
    while x != U0:
        b = x & (~x + U1)
        x ^= b
        if min_deadwood(h ^ b) <= dmin + p[SLACK]:
            dg = danger(b, h, known, gone)
            v = card_value(b)
            if dg < bd or (dg == bd and v > bv):
                best, bd, bv = b, dg, v
    return False, best, u


@njit(cache=True, nogil=True)
def play_hand(R, P, flip, dealer, key, order, perm, stacked, log):
    """One hand; returns ``(outcome, knocker seat, winner seat, points, cards drawn)``; the
    winner is -1 for a draw and for equal deadwood when that is no undercut (nobody scores).

    ``P[q ^ flip]`` is the strategy in seat ``q``; ``order`` the deck (bit indices) the shuffle
    starts from; with ``stacked`` the cards come in ``order`` (non-dealer first, one at a time,
    then the upcard, then the stock).  A non-empty ``log`` gets one row per turn.
    """
    s = key
    u = key ^ SALT
    for i in range(52):
        perm[i] = order[i]
    hands = np.zeros(2, np.uint64)
    known = np.zeros(2, np.uint64)   # cards each took from the pile and still holds
    picks = np.zeros(2, np.int64)
    nd = 1 - dealer
    for k in range(21):
        b, s = next_card(perm, k, s, stacked)
        if k == 20:
            top = b
        else:
            hands[nd if k % 2 == 0 else dealer] |= b
    k = 21
    gone = U0
    limit, dead, taken_ok = R[R_LIMIT], R[R_DEAD], R[R_TAKEN] != 0
    turns = 0
    nlog = 0
    q = nd
    opening = True     # the upcard: the non-dealer may take it, else the dealer, else stock
    while True:
        frac = stock_frac(k, dead)
        if opening:
            opening = False
            take, pd, pc, u = wants_pile(P[q ^ flip], hands[q], top, taken_ok, limit, frac, u)
            if not take:
                q = dealer
                take, pd, pc, u = wants_pile(P[q ^ flip], hands[q], top, taken_ok, limit, frac, u)
                if not take:
                    q = nd
        else:
            if 52 - k <= dead:
                return DEAD, -1, -1, 0, turns
            take, pd, pc, u = wants_pile(P[q ^ flip], hands[q], top, taken_ok, limit, frac, u)
        turns += 1
        if take:
            drawn = top
            top = U0
            forbid = U0 if taken_ok else drawn
            known[q] |= drawn
            picks[q] += 1
        else:
            drawn, s = next_card(perm, k, s, stacked)
            k += 1
            forbid = U0
            pd = -1
        h = hands[q] | drawn
        knock, d, u = after_draw(P[q ^ flip], h, forbid, pd, pc, limit, dead, 52 - k,
                                 picks[1 - q], known[1 - q], gone, u)
        hands[q] = h ^ d
        known[q] &= ~d
        if nlog < log.shape[0]:
            log[nlog, 0] = q
            log[nlog, 1] = take
            log[nlog, 2] = _low_index(drawn)
            log[nlog, 3] = _low_index(d)
            log[nlog, 4] = knock
            nlog += 1
        if knock:
            dk, dd = knock_result(hands[q], hands[1 - q])
            if dk == 0:
                return GIN, q, q, R[R_GIN] + dd, turns
            if dd < dk or (dd == dk and R[R_EQUAL] != 0):
                return UNDERCUT, q, 1 - q, dk - dd + R[R_UNDERCUT], turns
            return KNOCK, q, (q if dd > dk else -1), dd - dk, turns   # -1: equal, no score
        if top != U0:
            gone |= top
        top = d
        q = 1 - q


@njit(cache=True, nogil=True)
def hand_metrics(v, w, outcome, knocker, winner, points, turns, flip):
    """Add one hand's metrics, weight ``w``, to ``v`` (strategy ``q ^ flip`` sits in seat q)."""
    v[H_TURNS] += w * turns
    if outcome == DEAD:
        v[H_DEAD] += w
        return
    ks = knocker ^ flip                  # the knocker's strategy index (0: p1)
    if winner >= 0:
        ws = winner ^ flip
        v[H_POINTS] += w * (points if ws == 0 else -points)
        v[H_P1WIN + ws] += w
    if outcome == GIN:
        v[H_GIN] += w
        v[H_P1GIN + ks] += w
    else:
        v[H_KNOCK] += w
        v[H_P1KNOCK + ks] += w
        if outcome == UNDERCUT:
            v[H_UNDER] += w
            v[H_P1UNDER + ks] += w


@njit(cache=True, nogil=True)
def match_totals(R, score_w, score_l, wins_w, wins_l):
    """The winner's and loser's game totals (line 15-16): points, game bonus, boxes, shutout."""
    tw = score_w + R[R_GAME]
    bw = R[R_BOX] * wins_w
    shut = R[R_SHUTOUT] != 0 and wins_l == 0
    if shut:
        tw *= 2
        if R[R_SHUTBOX] != 0:
            bw *= 2
    return tw + bw, score_l + R[R_BOX] * wins_l, shut


@njit(cache=True, nogil=True)
def play_match(R, P, flip, key, order, perm, hv, mv, w):
    """One game to ``target``; adds its hand metrics (sums) to ``hv`` and match metrics to ``mv``,
    with weight ``w``.  Returns the number of hands."""
    s = key
    x, s = splitmix(s)
    dealer = np.int64(x & U1)
    score = np.zeros(2, np.int64)
    wins = np.zeros(2, np.int64)
    log = np.zeros((0, LOG_COLS), np.int64)
    nh = 0
    for _ in range(R[R_MAXH]):
        hk, s = splitmix(s)
        o, kn, wn, pts, turns = play_hand(R, P, flip, dealer, hk, order, perm, False, log)
        hand_metrics(hv, 1.0, o, kn, wn, pts, turns, flip)
        nh += 1
        if wn >= 0:
            score[wn] += pts
            wins[wn] += 1
            dealer = wn
            if score[wn] >= R[R_TARGET]:
                tw, tl, shut = match_totals(R, score[wn], score[1 - wn], wins[wn], wins[1 - wn])
                ws = wn ^ flip
                mv[ws] += w
                mv[2] += w * (tw - tl if ws == 0 else tl - tw)
                if shut:
                    mv[3 + ws] += w
                mv[5] += w * nh
                return nh
    mv[5] += w * nh
    mv[6] += w
    return nh


@njit(cache=True, nogil=True)
def simulate(R, P, state, n, acc, rows):
    """Play ``n`` deals (hands or games, per ``R[R_UNIT]``) into ``acc[2, M]``; with a
    non-empty ``rows`` also write each deal's metrics.  ``state``: the chunk's xoshiro state."""
    order = DECK.copy()
    perm = np.zeros(52, np.int64)
    M = acc.shape[1]
    v = np.zeros(M)
    hv = np.zeros(NH)
    log = np.zeros((0, LOG_COLS), np.int64)
    swap = R[R_SWAP] != 0
    nflip = 2 if swap else 1
    w = 0.5 if swap else 1.0
    x0, x1, x2, x3 = state[0], state[1], state[2], state[3]
    for i in range(n):
        key, x0, x1, x2, x3 = xoshiro_step(x0, x1, x2, x3)
        for j in range(M):
            v[j] = 0.0
        if R[R_UNIT] == 0:
            for flip in range(nflip):
                o, kn, wn, pts, turns = play_hand(R, P, flip, 1, key, order, perm, False, log)
                hand_metrics(v, w, o, kn, wn, pts, turns, flip)
        else:
            for j in range(NH):
                hv[j] = 0.0
            hands = 0
            for flip in range(nflip):
                hands += play_match(R, P, flip, key, order, perm, hv, v, w)
            v[M_HANDS_ALL] = hands
            for j in range(NH):
                v[NM + j] = hv[j] / hands
                v[NM + NH + j] = hv[j]
                v[NM + 2 * NH + j] = hv[j] * hands
        add_deal(acc, rows, i, v)
    state[0], state[1], state[2], state[3] = x0, x1, x2, x3
