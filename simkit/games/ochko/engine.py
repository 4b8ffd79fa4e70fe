"""Очко kernels: deal and play rounds from an RNG stream, accumulate metrics.

Layout of the metric vector (see :func:`metrics`): the banker's ten metrics first, then eight per
player seat.  The kernels only fill arrays; :func:`run_chunk` is the Python entry the runner calls.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simkit.core import cards as C
from simkit.core.registry import Metric
from simkit.core.rng import next_card, uniform01, xoshiro_next

# rules vector indices
R_PLAYERS, R_STOP, R_MAXC, R_BMAXC, R_P21, R_GOLD, R_FIVE, R_BONUS, R_TIEPUSH = range(9)
# payout vector indices
PAY_GOLD, PAY_FIVE, PAY_BONUS, PAY_BUST = range(4)
# strategy kinds
K_STAND_AT, K_RANDOM, K_TABLE = 0, 1, 2
# banker metrics
B_IDLE, B_LE16, B_17, B_18, B_19, B_20, B_21, B_BUST, B_GOLDEN, B_EV = range(10)
NB = 10
# per-player metrics (offset NB + 8 * seat)
P_WIN, P_PUSH, P_LOSS, P_BUST, P_GOLDEN, P_FIVE, P_BONUS, P_EV = range(8)
NP = 8
BANKER_NAMES = ["banker_idle", "banker_le16", "banker_17", "banker_18", "banker_19", "banker_20",
                "banker_21", "banker_bust", "banker_golden", "bank_ev"]
PLAYER_NAMES = ["win", "push", "loss", "bust", "golden", "five", "bonus", "ev"]
# scratch columns per seat: first card, final total, status, bonus-hand flag
H_FIRST, H_TOTAL, H_STATUS, H_SMALL = range(4)
ST_PLAY, ST_STAND, ST_BUST, ST_21, ST_GOLDEN, ST_FIVE = range(6)
TABLE_TOTALS, TABLE_CARDS = 32, 13
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


def encode_rules(rules):
    rv = np.array([rules.players, rules.banker_stop, rules.max_cards, rules.banker_max_cards,
                   rules.player_21_wins, rules.golden_point, rules.five_pictures,
                   rules.bonus_hands, rules.ties == "push"], np.int64)
    pay = np.array([rules.golden_pays, rules.five_pictures_pays, rules.bonus_pays,
                    rules.bust_penalty], np.float64)
    return rv, pay, card_values(rules.values), C.deck(rules.deck)


@njit(cache=True, nogil=True, inline="always")
def _add(acc, rows, i, m, v):
    acc[0, m] += v
    acc[1, m] += v * v
    if rows.shape[0] > 0:
        rows[i, m] = v


@njit(cache=True, nogil=True, inline="always")
def _take(total, n, aces, pics, rsum, small, c, vals):
    """A hand's running state after taking card ``c`` (all scalars, so they stay in registers)."""
    r = np.int64(c & 15)
    return (total + vals[c], n + 1, aces + np.int64(r == 14),
            pics + (np.int64(r >= 11) & np.int64(r <= 13)), rsum + r,
            small & np.int64(r >= 6) & np.int64(r <= 8))


@njit(cache=True, nogil=True, inline="always")
def _wants_card(kinds, params, tables, k, total, ncards, ss):
    kind = kinds[k]
    if kind == K_STAND_AT:
        return total < params[k, 0]
    if kind == K_RANDOM:
        return uniform01(ss) < params[k, 0]
    p = tables[k, min(total, TABLE_TOTALS - 1), min(ncards, TABLE_CARDS - 1)]
    if p >= 1.0:
        return True
    if p <= 0.0:
        return False
    return uniform01(ss) < p


@njit(cache=True, nogil=True, inline="always")
def play_round(rv, pay, vals, kinds, params, tables, deck, st, ss, hands, acc, rows, i):
    """Play one round; add its metrics to ``acc`` (and ``rows[i]``); return the cards drawn.

    ``hands`` is scratch ``int64[players + 1, 4]`` (the banker last).  ``st`` is the card source
    (see :func:`simkit.core.rng.next_card`): a deal's ``uint64[1]`` state draws from the lazily
    shuffled ``deck``; an ``int64[1]`` takes the cards in the order of ``deck`` (stacked).
    """
    K = rv[R_PLAYERS]
    ndeck = deck.shape[0]
    pos = 0
    for k in range(K + 1):  # one card each, the banker's last
        if pos < ndeck:
            hands[k, H_FIRST] = next_card(deck, pos, st)
            pos += 1
        else:
            hands[k, H_FIRST] = -1
    gold, five, p21, maxc = rv[R_GOLD], rv[R_FIVE], rv[R_P21], rv[R_MAXC]
    standing = 0
    for k in range(K):
        total, n, aces, pics, rsum, small = 0, 0, 0, 0, 0, 1
        if hands[k, H_FIRST] >= 0:
            total, n, aces, pics, rsum, small = _take(total, n, aces, pics, rsum, small,
                                                      hands[k, H_FIRST], vals)
        while True:
            if n == 2 and gold and aces == 2:
                status = ST_GOLDEN
                break
            if five and n == 5 and pics == 5:
                status = ST_FIVE
                break
            if total > 21:
                status = ST_BUST
                break
            if total == 21:
                status = ST_21 if p21 else ST_STAND
                break
            if n >= maxc or pos >= ndeck or not _wants_card(kinds, params, tables, k, total, n, ss):
                status = ST_STAND
                break
            total, n, aces, pics, rsum, small = _take(total, n, aces, pics, rsum, small,
                                                      next_card(deck, pos, st), vals)
            pos += 1
        hands[k, H_STATUS] = status
        hands[k, H_TOTAL] = total
        hands[k, H_SMALL] = n == 3 and small and rsum == 21
        if status == ST_STAND:
            standing += 1
    bank = 0.0
    bgold = False
    bt = 0
    if standing == 0:
        _add(acc, rows, i, B_IDLE, 1.0)
    else:
        stop, bmax = rv[R_STOP], rv[R_BMAXC]
        total, n, aces, pics, rsum, small = 0, 0, 0, 0, 0, 1
        if hands[K, H_FIRST] >= 0:
            total, n, aces, pics, rsum, small = _take(total, n, aces, pics, rsum, small,
                                                      hands[K, H_FIRST], vals)
        while True:
            if n == 2 and gold and aces == 2:
                bgold = True
                break
            if total >= stop or pos >= ndeck or (bmax > 0 and n >= bmax):
                break
            total, n, aces, pics, rsum, small = _take(total, n, aces, pics, rsum, small,
                                                      next_card(deck, pos, st), vals)
            pos += 1
        bt = total
        if bgold:
            _add(acc, rows, i, B_GOLDEN, 1.0)
        elif bt > 21:
            _add(acc, rows, i, B_BUST, 1.0)
        elif bt < 17:
            _add(acc, rows, i, B_LE16, 1.0)
        else:
            _add(acc, rows, i, B_17 + bt - 17, 1.0)
    for k in range(K):
        o = NB + NP * k
        s = hands[k, H_STATUS]
        total = hands[k, H_TOTAL]
        if s == ST_GOLDEN:
            win, res, flag = 1, pay[PAY_GOLD], P_GOLDEN
        elif s == ST_FIVE:
            win, res, flag = 1, pay[PAY_FIVE], P_FIVE
        elif s == ST_BUST:
            win, res, flag = -1, -1.0 - pay[PAY_BUST], P_BUST
        elif s == ST_21:
            win, res, flag = 1, 1.0, -1
        elif bgold:
            win, res, flag = -1, -1.0, -1
        elif bt > 21 or total > bt:
            win, res, flag = 1, 1.0, -1
        elif total == bt and rv[R_TIEPUSH]:
            win, res, flag = 0, 0.0, -1
        else:
            win, res, flag = -1, -1.0, -1
        if win == 1 and rv[R_BONUS] and hands[k, H_SMALL]:
            res = pay[PAY_BONUS]
            _add(acc, rows, i, o + P_BONUS, 1.0)
        if flag >= 0:
            _add(acc, rows, i, o + flag, 1.0)
        _add(acc, rows, i, o + (P_WIN if win == 1 else P_PUSH if win == 0 else P_LOSS), 1.0)
        _add(acc, rows, i, o + P_EV, res)
        bank -= res
    _add(acc, rows, i, B_EV, bank)
    return pos


@njit(cache=True, nogil=True)
def simulate(rv, pay, vals, kinds, params, tables, deck, state, n, acc, rows):
    """Play ``n`` rounds from xoshiro ``state``: one deal key per round, cards from its splitmix."""
    st = np.empty(1, np.uint64)
    ss = np.empty(1, np.uint64)
    hands = np.zeros((rv[R_PLAYERS] + 1, 4), np.int64)
    for i in range(n):
        key = xoshiro_next(state)
        st[0] = key
        ss[0] = key ^ STRAT_SALT
        play_round(rv, pay, vals, kinds, params, tables, deck, st, ss, hands, acc, rows, i)


@njit(cache=True, nogil=True)
def count_cards(rv, pay, vals, kinds, params, tables, deck, state, n):
    """Total cards drawn in ``n`` rounds (the benchmark's cards-per-round)."""
    st = np.empty(1, np.uint64)
    ss = np.empty(1, np.uint64)
    hands = np.zeros((rv[R_PLAYERS] + 1, 4), np.int64)
    acc = np.zeros((2, NB + NP * rv[R_PLAYERS]))
    rows = np.zeros((0, NB + NP * rv[R_PLAYERS]))
    total = 0
    for i in range(n):
        key = xoshiro_next(state)
        st[0] = key
        ss[0] = key ^ STRAT_SALT
        total += play_round(rv, pay, vals, kinds, params, tables, deck, st, ss, hands, acc, rows, i)
    return total
