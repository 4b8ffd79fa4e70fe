"""Очко kernels: deal and play rounds from an RNG stream, count outcomes.

The hot loop keeps each hand in registers and makes one data-dependent branch per card: everything
a hand's next step depends on (the strategy's choice, the stop at 21 or above, the card cap) is
folded beforehand into a *stop table* indexed by (total, cards held).  A round ends in one outcome
category per player and one for the banker; the kernel counts categories, and the metrics (win,
bust, payoff per stake...) are weighted sums of those counts (:func:`weights`), so sums and sums of
squares are exact.  ``bank_ev`` is summed directly since it mixes the players.

Metric vector layout (:func:`metrics`): the banker's ten first, then eight per player seat.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simkit.core import cards as C
from simkit.core.registry import Metric
from simkit.core.rng import next_card, uniform01, xoshiro_next

# rules vector indices
R_PLAYERS, R_GOLD, R_FIVE, R_P21, R_BONUS, R_TIEPUSH = range(6)
# stop-table entries
DRAW, STOP, ASK = 0, 1, 2
TT, TN = 32, 32  # stop-table shape: totals 0..31, cards held 0..31
# player outcome categories and banker outcome categories
GOLD, FIVE, BUST, WIN, PUSH, LOSS, BONUS = range(7)
NPC = 7
BC_IDLE, BC_LE16, BC_17, BC_18, BC_19, BC_20, BC_21, BC_BUST, BC_GOLDEN = range(9)
NBC = 9
BANKER_NAMES = ["banker_idle", "banker_le16", "banker_17", "banker_18", "banker_19", "banker_20",
                "banker_21", "banker_bust", "banker_golden", "bank_ev"]
PLAYER_NAMES = ["win", "push", "loss", "bust", "golden", "five", "bonus", "ev"]
NB, NP = len(BANKER_NAMES), len(PLAYER_NAMES)
B_EV = NB - 1
# scratch columns per seat: first card, final total, outcome category or status, bonus shape
H_FIRST, H_TOTAL, H_STATUS, H_BONUS = range(4)
ST_STAND, ST_DONE = 0, 1
STRAT_SALT = np.uint64(0xD1B54A32D192ED03)


def metrics(rules) -> list[Metric]:
    out = [Metric(n, binary=(n != "bank_ev")) for n in BANKER_NAMES]
    for k in range(rules.players):
        out += [Metric(f"p{k + 1}_{n}", binary=(n != "ev")) for n in PLAYER_NAMES]
    return out


def card_values(values: str) -> np.ndarray:
    """Points of each card code under the ``values`` reading."""
    v = np.zeros(C.N_CODES, np.int64)
    faces = {"standard": (2, 3, 4), "text1": (8, 9, 10)}[values]
    for s in range(4):
        for r in range(2, 11):
            v[s * 16 + r] = r
        v[s * 16 + C.JACK], v[s * 16 + C.QUEEN], v[s * 16 + C.KING] = faces
        v[s * 16 + C.ACE] = 11
    return v


def weights(rules) -> np.ndarray:
    """``float64[7, 8]``: each player metric's value in each outcome category."""
    w = np.zeros((NPC, NP))
    win, push, loss, bust, golden, five, bonus, ev = range(NP)
    for cat, ones, pay in [(GOLD, (win, golden), rules.golden_pays),
                           (FIVE, (win, five), rules.five_pictures_pays),
                           (BUST, (loss, bust), -1.0 - rules.bust_penalty),
                           (WIN, (win,), 1.0), (PUSH, (push,), 0.0), (LOSS, (loss,), -1.0),
                           (BONUS, (win, bonus), rules.bonus_pays)]:
        w[cat, list(ones)] = 1.0
        w[cat, ev] = pay
    return w


def banker_table(rules) -> np.ndarray:
    """The banker's ``uint8[32, 32]`` stop table by (total, cards held): stop at ``banker_stop``
    or at the ``banker_max_cards`` cap."""
    t = np.arange(TT)[:, None]
    n = np.arange(TN)[None, :]
    cap = rules.banker_max_cards
    return ((t >= rules.banker_stop) | ((cap > 0) & (n >= cap))).astype(np.uint8)


def encode_rules(rules):
    rv = np.array([rules.players, rules.golden_point, rules.five_pictures, rules.player_21_wins,
                   rules.bonus_hands, rules.ties == "push"], np.int64)
    return rv, card_values(rules.values), C.deck(rules.deck), weights(rules)


@njit(cache=True, nogil=True, inline="always")
def _take(total, n, aces, pics, rsum, small, c, vals):
    """A hand's running state after taking card ``c`` (scalars, so they stay in registers)."""
    r = np.int64(c & 15)
    return (total + vals[c], n + 1, aces + np.int64(r == 14),
            pics + (np.int64(r >= 11) & np.int64(r <= 13)), rsum + r,
            small & np.int64(r >= 6) & np.int64(r <= 8))


@njit(cache=True, nogil=True, inline="always")
def play_round(rv, vals, ptab, hitp, btab, w, deck, st, ss, hands, hist, bhist, bank_acc, rows, i):
    """Play one round and count its outcome; returns the number of cards drawn.

    ``st`` is the card source (:func:`simkit.core.rng.next_card`): a deal's ``uint64[1]`` draws
    from the lazily shuffled ``deck``, an ``int64[1]`` takes ``deck`` in order (a stacked deck).
    ``hands`` is scratch ``int64[players + 1, 4]``, the banker last.  Outcomes go to ``hist``
    (``int64[K, 7]``), ``bhist`` (``int64[9]``) and ``bank_acc`` (sum and square of bank_ev);
    with a non-empty ``rows`` the round's metrics are also written to ``rows[i]``.
    """
    K = rv[R_PLAYERS]
    gold, five, p21 = rv[R_GOLD], rv[R_FIVE], rv[R_P21]
    ndeck = deck.shape[0]
    pos = 0
    for k in range(K + 1):  # one card each, the banker's last (line 40)
        hands[k, H_FIRST] = next_card(deck, pos, st) if pos < ndeck else -1
        pos += pos < ndeck
    standing = 0
    for k in range(K):
        total, n, aces, pics, rsum, small = 0, 0, 0, 0, 0, 1
        if hands[k, H_FIRST] >= 0:
            total, n, aces, pics, rsum, small = _take(0, 0, 0, 0, 0, 1, hands[k, H_FIRST], vals)
        while True:
            t = min(total, TT - 1)
            d = ptab[k, t, min(n, TN - 1)]
            if d == ASK:
                d = uniform01(ss) >= hitp[k, t, min(n, TN - 1)]
            g = gold & (n == 2) & (aces == 2)
            f = five & (n == 5) & (pics == 5)
            if d | g | f | (pos >= ndeck):
                break
            total, n, aces, pics, rsum, small = _take(total, n, aces, pics, rsum, small,
                                                      next_card(deck, pos, st), vals)
            pos += 1
        if g:
            cat = GOLD
        elif f:
            cat = FIVE
        elif total > 21:
            cat = BUST
        elif total == 21 and p21:
            cat = WIN
        else:
            cat = -1
            standing += 1
        hands[k, H_STATUS] = cat
        hands[k, H_TOTAL] = total
        hands[k, H_BONUS] = (n == 3) & (small == 1) & (rsum == 21)
    bgold = False
    bt = 0
    if standing == 0:
        bcat = BC_IDLE
    else:
        total, n, aces, pics, rsum, small = 0, 0, 0, 0, 0, 1
        if hands[K, H_FIRST] >= 0:
            total, n, aces, pics, rsum, small = _take(0, 0, 0, 0, 0, 1, hands[K, H_FIRST], vals)
        while True:
            bgold = gold & (n == 2) & (aces == 2)
            if bgold | btab[min(total, TT - 1), min(n, TN - 1)] | (pos >= ndeck):
                break
            total, n, aces, pics, rsum, small = _take(total, n, aces, pics, rsum, small,
                                                      next_card(deck, pos, st), vals)
            pos += 1
        bt = total
        if bgold:
            bcat = BC_GOLDEN
        elif bt > 21:
            bcat = BC_BUST
        elif bt < 17:
            bcat = BC_LE16
        else:
            bcat = BC_17 + bt - 17
    bhist[bcat] += 1
    bank = 0.0
    for k in range(K):
        cat = hands[k, H_STATUS]
        if cat < 0:
            total = hands[k, H_TOTAL]
            if bgold:
                cat = LOSS
            elif bt > 21 or total > bt:
                cat = WIN
            elif total == bt and rv[R_TIEPUSH]:
                cat = PUSH
            else:
                cat = LOSS
        if cat == WIN and rv[R_BONUS] and hands[k, H_BONUS]:
            cat = BONUS
        hist[k, cat] += 1
        bank -= w[cat, NP - 1]
        if rows.shape[0] > 0:
            for m in range(NP):
                rows[i, NB + NP * k + m] = w[cat, m]
    bank_acc[0] += bank
    bank_acc[1] += bank * bank
    if rows.shape[0] > 0:
        rows[i, bcat] = 1.0
        rows[i, B_EV] = bank
    return pos


@njit(cache=True, nogil=True)
def to_acc(hist, bhist, bank_acc, w, acc):
    """Turn outcome counts into the metrics' sums and sums of squares (``acc[2, M]``)."""
    for c in range(NBC):
        acc[0, c] += bhist[c]
        acc[1, c] += bhist[c]
    acc[0, B_EV] += bank_acc[0]
    acc[1, B_EV] += bank_acc[1]
    for k in range(hist.shape[0]):
        for c in range(NPC):
            for m in range(NP):
                acc[0, NB + NP * k + m] += hist[k, c] * w[c, m]
                acc[1, NB + NP * k + m] += hist[k, c] * w[c, m] * w[c, m]


@njit(cache=True, nogil=True)
def simulate(rv, vals, ptab, hitp, btab, w, deck, state, n, acc, rows):
    """Play ``n`` rounds from xoshiro ``state`` (one deal key per round) into ``acc[2, M]``.
    Returns the number of cards drawn."""
    K = rv[R_PLAYERS]
    st = np.empty(1, np.uint64)
    ss = np.empty(1, np.uint64)
    hands = np.zeros((K + 1, 4), np.int64)
    hist = np.zeros((K, NPC), np.int64)
    bhist = np.zeros(NBC, np.int64)
    bank_acc = np.zeros(2)
    fresh = deck.copy()
    cards = 0
    for i in range(n):
        deck[:] = fresh  # every deal starts from the same order: its cards depend on its key only
        key = xoshiro_next(state)
        st[0] = key
        ss[0] = key ^ STRAT_SALT
        cards += play_round(rv, vals, ptab, hitp, btab, w, deck, st, ss, hands, hist, bhist,
                            bank_acc, rows, i)
    to_acc(hist, bhist, bank_acc, w, acc)
    return cards
