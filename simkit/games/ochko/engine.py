"""Очко kernels: deal and play rounds from an RNG stream, count outcomes.

A hand is one packed integer (:data:`HAND_BITS`): taking a card adds that card's entry of
:func:`card_info`, and the low 11 bits, (total, cards held), index every table the round needs.
Everything a hand's next step depends on (the strategy's choice, the stop at 21 or above, the card
caps, the banker's threshold) is folded beforehand into *stop tables*, and what a final hand
means (bust, golden point, the banker's total, who wins a showdown) into *category tables*, so
the loop does a draw, an add and a lookup per card.  A round ends in one outcome category per
player and one for the banker; the kernel counts categories, and the metrics (win, bust, payoff
per stake...) are weighted sums of those counts (:func:`weights`), so sums and sums of squares
are exact.  ``bank_ev`` is summed directly since it mixes the players.

Metric vector layout (:func:`metrics`): the banker's ten first, then eight per player seat.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simkit.core import cards as C
from simkit.core.registry import Metric
from simkit.core.rng import draw_index, uniform, xoshiro_step

# stop-table entries
DRAW, STOP, ASK = 0, 1, 2
# a hand packed in an int64: cards held in bits 0-4, total in 5-10, pictures in 11-15, and cards
# outside 6..8 from bit 16; tables are indexed by the low 11 bits, i.e. [total, cards held]
HAND_BITS = dict(cards=0, total=5, pictures=11, not_678=16)
TT, TN = 64, 32
IDX = TT * TN - 1
FIVE_PICTURES = 5 | (5 << 11)      # (hand & FIVE_MASK) == this: five cards, all pictures
FIVE_MASK = 0x1F | (0x1F << 11)
BONUS_SHAPE = 3 | (21 << 5)        # (hand & ~pictures) == this: 6-7-8 or 7-7-7
PICTURE_BITS = 0x1F << 11
# banker keys for the showdown table: his total 0..31, then bust and golden point
BK_BUST, BK_GOLDEN = 32, 33
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


def card_info(values: str) -> np.ndarray:
    """``int64[80]``: what taking each card adds to a packed hand (see :data:`HAND_BITS`)."""
    v = card_values(values)
    info = np.zeros(C.N_CODES, np.int64)
    for c in C.deck(52):
        r = int(c) & 15
        info[c] = 1 | (v[c] << 5) | (int(11 <= r <= 13) << 11) | (int(not 6 <= r <= 8) << 16)
    return info


def _grid():
    """(total, cards) of every table index ``total * 32 + cards``."""
    idx = np.arange(TT * TN)
    return idx >> 5, idx & 31


def banker_tables(rules):
    """The banker's stop table (``uint8[2048]``: stop at ``banker_stop``, at the
    ``banker_max_cards`` cap, or on a golden point), his outcome category and showdown key."""
    t, n = _grid()
    golden = rules.golden_point & (n == 2) & (t == 22)  # two cards make 22 only as two aces
    cap = rules.banker_max_cards
    stop = (t >= rules.banker_stop) | ((cap > 0) & (n >= cap)) | golden
    cat = np.where(golden, BC_GOLDEN, np.where(t > 21, BC_BUST, np.where(t < 17, BC_LE16,
                                                                         BC_17 + t - 17)))
    key = np.where(golden, BK_GOLDEN, np.where(t > 21, BK_BUST, t))
    return stop.astype(np.uint8), cat.astype(np.int64), key.astype(np.int64)


def player_tables(rules):
    """A player's outcome category by final (total, cards), ``-1`` while he stands for the
    showdown, and the showdown table ``[player total 0..31, banker key]``."""
    t, n = _grid()
    cat = np.where(rules.golden_point & (n == 2) & (t == 22), GOLD,
                   np.where(t > 21, BUST, np.where((t == 21) & rules.player_21_wins, WIN, -1)))
    p = np.arange(32)[:, None]
    b = np.arange(34)[None, :]
    tie = PUSH if rules.ties == "push" else LOSS
    show = np.where(b == BK_GOLDEN, LOSS, np.where((b == BK_BUST) | (p > b), WIN,
                                                   np.where(p == b, tie, LOSS)))
    return cat.astype(np.int64), show.astype(np.int64)


@njit(cache=True, nogil=True)
def simulate(tabs, ptab, hitp, w, deck, state, n, acc, rows, stacked=False):
    """Play ``n`` rounds into ``acc[2, M]`` (sums and sums of squares of the metrics); with a
    non-empty ``rows`` also write each round's metrics to ``rows[i]``.  Returns the cards drawn.

    ``tabs`` is :func:`encode`'s tuple of rules tables; ``ptab`` and ``hitp`` (``[K, 2048]``)
    the players' stop tables and draw probabilities.  Each round takes one key from the xoshiro
    ``state`` (``uint64[4]``, advanced in place) and deals from it
    (:func:`simkit.core.rng.draw_index`); with ``stacked`` the cards come in the order of
    ``deck`` instead (one round, for hand-stacked tests).  The round is written out in this
    loop with scalar helpers only, so that nothing in it costs reference counting.
    """
    flags, info, pcat_tab, show, bstop, bcat_tab, bkey_tab = tabs
    K, five, bonus = flags[0], flags[1], flags[2]
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
            h = info[first[k]] if first[k] >= 0 else 0
            while True:
                d = ptab[k, h & IDX]
                if d == ASK:
                    coin, u = uniform(u)
                    d = coin >= hitp[k, h & IDX]
                f = five & ((h & FIVE_MASK) == FIVE_PICTURES)
                if d | f | (pos >= ndeck):
                    break
                j, s, drawn = draw_index(s, drawn, ndeck, stacked)
                h += info[deck[j]]
                pos += 1
            cat = FIVE if f else pcat_tab[h & IDX]
            pcat[k] = cat
            ptotal[k] = (h >> 5) & 63
            pbonus[k] = (h & ~PICTURE_BITS) == BONUS_SHAPE
            standing += cat < 0
        if standing == 0:
            bcat = BC_IDLE
            bkey = 0
        else:
            h = info[first[K]] if first[K] >= 0 else 0
            while not (bstop[h & IDX] | (pos >= ndeck)):
                j, s, drawn = draw_index(s, drawn, ndeck, stacked)
                h += info[deck[j]]
                pos += 1
            bcat = bcat_tab[h & IDX]
            bkey = bkey_tab[h & IDX]
        bhist[bcat] += 1
        bank = 0.0
        for k in range(K):
            cat = pcat[k]
            if cat < 0:
                cat = show[ptotal[k], bkey]
            if bonus and cat == WIN and pbonus[k]:
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


def encode(rules):
    """The rules as the kernel's tables: ``(tabs, weights, deck)``."""
    flags = np.array([rules.players, rules.five_pictures, rules.bonus_hands], np.int64)
    pcat, show = player_tables(rules)
    tabs = (flags, card_info(rules.values), pcat, show) + banker_tables(rules)
    return tabs, weights(rules), C.deck(rules.deck)
