"""Очко kernels: deal and play rounds from an RNG stream, count outcomes.

The hot loop keeps each hand in registers: everything a hand's next step depends on (the
strategy's choice, the stop at 21 or above, the card cap) is folded beforehand into a *stop
table* indexed by (total, cards held).  A round ends in one outcome
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
from simkit.core.rng import draw_index, uniform, xoshiro_step

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
def _take(total, n, aces, pics, rsum, small, c, value):
    """A hand's running state after taking card ``c`` worth ``value`` (scalars only)."""
    r = np.int64(c & 15)
    return (total + value, n + 1, aces + np.int64(r == 14),
            pics + (np.int64(r >= 11) & np.int64(r <= 13)), rsum + r,
            small & np.int64(r >= 6) & np.int64(r <= 8))


@njit(cache=True, nogil=True)
def simulate(rv, vals, ptab, hitp, btab, w, deck, state, n, acc, rows, stacked=False):
    """Play ``n`` rounds into ``acc[2, M]`` (sums and sums of squares of the metrics); with a
    non-empty ``rows`` also write each round's metrics to ``rows[i]``.  Returns the cards drawn.

    Each round takes one key from the xoshiro ``state`` (``uint64[4]``, advanced in place) and
    deals from it (:func:`simkit.core.rng.draw_index`); with ``stacked`` the cards come in the
    order of ``deck`` instead (one round, for hand-stacked tests).  The round is written out in
    this loop, with scalar helpers only, so that nothing in it costs reference counting.
    """
    K = rv[R_PLAYERS]
    gold, five, p21, tiepush, bonus = rv[R_GOLD], rv[R_FIVE], rv[R_P21], rv[R_TIEPUSH], rv[R_BONUS]
    ndeck = deck.shape[0]
    first = np.zeros(K + 1, np.int64)
    ptotal = np.zeros(K, np.int64)
    pcat = np.zeros(K, np.int64)
    pbonus = np.zeros(K, np.bool_)
    hist = np.zeros((K, NPC), np.int64)
    bhist = np.zeros(NBC, np.int64)
    bank_sum = 0.0
    bank_sq = 0.0
    write_rows = rows.shape[0] > 0
    x0, x1, x2, x3 = state[0], state[1], state[2], state[3]
    cards = 0
    for i in range(n):
        key, x0, x1, x2, x3 = xoshiro_step(x0, x1, x2, x3)
        s = key                   # the deal's cards
        u = key ^ STRAT_SALT      # the strategies' own coin flips
        drawn = np.uint64(0)
        pos = 0
        for k in range(K + 1):    # one card each, the banker's last (line 40)
            if pos < ndeck:
                j, s, drawn = draw_index(s, drawn, ndeck, stacked)
                first[k] = deck[j]
                pos += 1
            else:
                first[k] = -1
        standing = 0
        for k in range(K):
            total, m, aces, pics, rsum, small = 0, 0, 0, 0, 0, 1
            c = first[k]
            if c >= 0:
                total, m, aces, pics, rsum, small = _take(0, 0, 0, 0, 0, 1, c, vals[c])
            while True:
                t = min(total, TT - 1)
                d = ptab[k, t, min(m, TN - 1)]
                if d == ASK:
                    coin, u = uniform(u)
                    d = coin >= hitp[k, t, min(m, TN - 1)]
                g = gold & (m == 2) & (aces == 2)
                f = five & (m == 5) & (pics == 5)
                if d | g | f | (pos >= ndeck):
                    break
                j, s, drawn = draw_index(s, drawn, ndeck, stacked)
                c = deck[j]
                total, m, aces, pics, rsum, small = _take(total, m, aces, pics, rsum, small, c,
                                                          vals[c])
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
            pcat[k] = cat
            ptotal[k] = total
            pbonus[k] = (m == 3) & (small == 1) & (rsum == 21)
        bgold = False
        bt = 0
        if standing == 0:
            bcat = BC_IDLE
        else:
            total, m, aces, pics, rsum, small = 0, 0, 0, 0, 0, 1
            c = first[K]
            if c >= 0:
                total, m, aces, pics, rsum, small = _take(0, 0, 0, 0, 0, 1, c, vals[c])
            while True:
                bgold = gold & (m == 2) & (aces == 2)
                if bgold | btab[min(total, TT - 1), min(m, TN - 1)] | (pos >= ndeck):
                    break
                j, s, drawn = draw_index(s, drawn, ndeck, stacked)
                c = deck[j]
                total, m, aces, pics, rsum, small = _take(total, m, aces, pics, rsum, small, c,
                                                          vals[c])
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
            cat = pcat[k]
            if cat < 0:
                if bgold:
                    cat = LOSS
                elif bt > 21 or ptotal[k] > bt:
                    cat = WIN
                elif ptotal[k] == bt and tiepush:
                    cat = PUSH
                else:
                    cat = LOSS
            if cat == WIN and bonus and pbonus[k]:
                cat = BONUS
            hist[k, cat] += 1
            bank -= w[cat, NP - 1]
            if write_rows:
                for q in range(NP):
                    rows[i, NB + NP * k + q] = w[cat, q]
        bank_sum += bank
        bank_sq += bank * bank
        if write_rows:
            rows[i, bcat] = 1.0
            rows[i, B_EV] = bank
        cards += pos
    state[0], state[1], state[2], state[3] = x0, x1, x2, x3
    for c in range(NBC):
        acc[0, c] += bhist[c]
        acc[1, c] += bhist[c]
    acc[0, B_EV] += bank_sum
    acc[1, B_EV] += bank_sq
    for k in range(K):
        for c in range(NPC):
            for q in range(NP):
                acc[0, NB + NP * k + q] += hist[k, c] * w[c, q]
                acc[1, NB + NP * k + q] += hist[k, c] * w[c, q] * w[c, q]
    return cards
