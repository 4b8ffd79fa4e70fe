"""Klaberjass kernels: deal, bid, declare, play and score whole units (a short game, or a long game
to 301/501) from an RNG stream.  Rules: :mod:`simkit.games.klaberjass.rules`.

A hand is a ``uint64`` card mask (:mod:`simkit.core.cards` codes ``suit*16 + rank``, ranks 7..14);
tricks use the shared engine :mod:`simkit.engines.tricks` (legal moves, trick winner, points).

One unit takes one key from the chunk's xoshiro stream.  Its deals (a short game's redeals, a long
game's deals) draw their 20 cards in turn from one splitmix64 sequence started at the key, with
:func:`simkit.core.rng.draw_index` over a fresh 32-card deck each time; since every deal draws
exactly 20 cards, deal ``k`` of unit ``i`` is the same in every configuration (common random
numbers for whole games).  The strategies' coin flips come from a second sequence at
``key ^ STRAT_SALT`` (its first draw is the ``opener=lot`` coin, drawn whatever the option).

Strategy parameters reach the kernel as ``float64[2, NP]`` rows (:data:`PARAMS`), so sweeping a
threshold never recompiles.

Metrics (:func:`metrics`) are per unit: in the short game one played deal, in long games sums over
the game's deals (divide by ``deals`` for per-deal rates).  With ``log`` non-empty the kernel also
writes one row per played deal (:data:`LOG_COLUMNS`) for the tests' independent checker.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simkit.core.accumulate import add_deal
from simkit.core.registry import Metric
from simkit.core.rng import bounded, draw_index, uniform, xoshiro_step
from simkit.engines.tricks import (legal_moves, lowest_code, points_table, random_card,
                                   strength_tables, trick_rules, trick_winner)

STRAT_SALT = np.uint64(0xA0761D6478BD642F)
CARDS_PER_DEAL = 20          # 6 + 6 + upcard + 3 + 3 + bottom card
TRICKS = 9
LAST_TRICK = 10
LANE = np.uint64(0x7F80)     # ranks 7..14 of one suit lane
ONE = np.uint64(1)

PLAIN_ORDER = "A 10 K Q J 9 8 7"        # line 4
TRUMP_ORDER = "J 9 A 10 K Q 8 7"        # line 3
PLAIN_POINTS = "A=11 10=10 K=4 Q=3 J=2"  # line 4
TRUMP_POINTS = "J=20 9=14 A=11 10=10 K=4 Q=3"  # line 3

# strategy parameter vector (one row per seat)
K_RANDOM, K_HEURISTIC = 0, 1
PARAMS = ("kind", "p", "d", "t1", "t2", "declare", "claim", "margin", "sight")
P_KIND, P_P, P_D, P_T1, P_T2, P_DECLARE, P_CLAIM, P_MARGIN, P_SIGHT = range(len(PARAMS))
NPAR = len(PARAMS)

# rules flags
F_TARGET, F_OPENER, F_NEXT, F_EXCHANGE, F_SPLIT, F_OPEN_SEAT, F_OPEN_BONUS, F_MAX_DEALS, \
    F_MAX_REDEALS = range(9)
NFLAGS = 9

# metrics: unit-wide ones, then per-seat quantities as p1_q, p2_q
UNIT_NAMES = ["deals", "redeals", "unfinished", "opener_win", "round2_bids", "exchanges",
              "bidder_strength", "bidder_strength9"]
SEAT_NAMES = ["points", "raw", "combos", "bids", "made", "baits", "hanging", "win", "stakes",
              "claims", "claims_lost"]
(M_DEALS, M_REDEALS, M_UNFINISHED, M_OPENER_WIN, M_ROUND2, M_EXCHANGES, M_STRENGTH,
 M_STRENGTH9) = range(len(UNIT_NAMES))
NU = len(UNIT_NAMES)
(Q_POINTS, Q_RAW, Q_COMBOS, Q_BIDS, Q_MADE, Q_BAITS, Q_HANGING, Q_WIN, Q_STAKES, Q_CLAIMS,
 Q_CLAIMS_LOST) = range(len(SEAT_NAMES))
NMET = NU + 2 * len(SEAT_NAMES)

METRIC_DOCS = {
    "deals": "deals played in the unit (redeals not counted)",
    "redeals": "deals thrown in after two passes in both rounds",
    "unfinished": "the unit hit max_redeals or max_deals and has no winner",
    "opener_win": "the player with the first word in the unit's first deal won the unit",
    "round2_bids": "bids made in the second round (another suit than the upcard's)",
    "exchanges": "trump sevens exchanged for the upcard",
    "bidder_strength": "bidder's six-card strength for his trump (the heuristic's bid measure)",
    "bidder_strength9": "the same measure on the bidder's nine cards after any exchange",
    "points": "points credited after bait (and hanging bait taken)",
    "raw": "card points + last trick + counted combinations, before bait",
    "combos": "counted combination points (terz, fifty, bella)",
    "bids": "deals this seat bid", "made": "bids that outscored the defender",
    "baits": "bids that scored less (байд)", "hanging": "bids that tied (висячий байд)",
    "win": "won the unit (short game: the party; long: the game)",
    "stakes": "stakes won: short +1 made / -1 tie / -2 bait (bidder; the defender the opposite), "
              "long +1 / -1 per game",
    "claims": "'Партия!' claims made", "claims_lost": "claims that fell short (the claim loses)",
}

# move log: one row per played deal
LOG_COLUMNS = ["unit", "deal", "opener", "bidder", "trump", "round", "upcard", "bottom",
               "exchanged", "hand0_9", "hand1_9", "hand0_6", "hand1_6", "seq0", "seq1", "bella0",
               "bella1", "combos0", "combos1", "cards0", "cards1", "credit0", "credit1",
               "claim", "claim_ok", "tricks", "score0", "score1", "pending", "redeals"] \
    + [f"card{j}" for j in range(2 * TRICKS)] + [f"seat{j}" for j in range(2 * TRICKS)]
LOGW = len(LOG_COLUMNS)
L_CARD0 = LOG_COLUMNS.index("card0")
L_SEAT0 = LOG_COLUMNS.index("seat0")


def metrics(rules) -> list[Metric]:
    short = rules.form == "short"
    always_binary = {"unfinished", "opener_win", "win"}
    count_binary = {"deals", "round2_bids", "exchanges", "bids", "made", "baits", "hanging"}
    out = []
    for n in UNIT_NAMES:
        out.append(Metric(n, binary=n in always_binary or (short and n in count_binary),
                          doc=METRIC_DOCS[n]))
    for q in SEAT_NAMES:
        for k in (1, 2):
            out.append(Metric(f"p{k}_{q}", binary=q in always_binary or (short and q in count_binary),
                              doc=METRIC_DOCS[q]))
    return out


def tables():
    """``(strength int64[2, 16], points int64[2, 16])`` from the text's table (lines 3-4)."""
    return (strength_tables(PLAIN_ORDER, TRUMP_ORDER), points_table(PLAIN_POINTS, TRUMP_POINTS))


def encode(rules):
    """The rules as the kernel's arguments: ``(strength, points, trick rules, flags)``."""
    strength, points = tables()
    tr = trick_rules(follow=True, must_trump=True, overtrump_on_trump_lead=rules.overtrump)
    open_seat = {"none": -1, "p1": 0, "p2": 1}[rules.open_hand]
    flags = np.zeros(NFLAGS, np.int64)
    flags[F_TARGET] = rules.target
    flags[F_OPENER] = {"p1": 0, "p2": 1, "lot": 2}[rules.opener]
    flags[F_NEXT] = rules.next_word == "alternate"
    flags[F_EXCHANGE] = rules.exchange
    flags[F_SPLIT] = rules.long_runs == "split"
    flags[F_OPEN_SEAT] = open_seat
    flags[F_OPEN_BONUS] = rules.open_bonus if open_seat >= 0 else 0
    flags[F_MAX_DEALS] = rules.max_deals
    flags[F_MAX_REDEALS] = rules.max_redeals
    return strength, points, tr, flags


# --------------------------------------------------------------------------- combinations

@njit(cache=True, nogil=True)
def run_value(length, split):
    """Points of one run of ``length`` cards in a row (0 below 3)."""
    if length < 3:
        return 0
    if length == 3:
        return 20
    if split and length >= 5:
        return (length // 4) * 50 + (20 if length % 4 == 3 else 0)
    return 50


@njit(cache=True, nogil=True)
def sequences(hand, trump, split):
    """``(best key, total value)`` of the runs in ``hand``: key = class*1024 + top*2 + trump
    (class 3 for a terz, 4 for a fifty or longer; 0 when there is no run)."""
    best = 0
    total = 0
    for s in range(4):
        lane = (np.uint64(hand) >> np.uint64(16 * s)) & LANE
        r = 7
        while r <= 14:
            if lane & (ONE << np.uint64(r)):
                start = r
                while r + 1 <= 14 and (lane & (ONE << np.uint64(r + 1))):
                    r += 1
                length = r - start + 1
                if length >= 3:
                    total += run_value(length, split)
                    key = min(length, 4) * 1024 + r * 2 + (1 if s == trump else 0)
                    if key > best:
                        best = key
            r += 1
    return best, total


@njit(cache=True, nogil=True)
def has_bella(hand, trump):
    m = (ONE << np.uint64(trump * 16 + 12)) | (ONE << np.uint64(trump * 16 + 13))
    return (np.uint64(hand) & m) == m


@njit(cache=True, nogil=True)
def compare_sequences(key0, key1, first):
    """Which player's declared runs count (lines 68-80): ``0``, ``1`` or ``-1`` for neither.
    Keys as :func:`sequences` (0 = nothing declared); fully equal keys go to ``first``."""
    if key0 == 0 and key1 == 0:
        return -1
    if key0 > key1:
        return 0
    if key1 > key0:
        return 1
    return first


@njit(cache=True, nogil=True)
def strength_of(hand, trump, points, split):
    """A hand's strength for ``trump``: card points (trumps at trump value) + 10 per trump + the
    runs' value + 20 for bella.  The heuristic bids on it; rows report it."""
    v = 0
    x = np.uint64(hand)
    while x:
        c = lowest_code(x)
        x &= x - ONE
        if (c >> 4) == trump:
            v += points[1, c & 15] + 10
        else:
            v += points[0, c & 15]
    _, runs = sequences(hand, trump, split)
    v += runs
    if has_bella(hand, trump):
        v += 20
    return v


@njit(cache=True, nogil=True)
def bid_strength(hand6, trump, upcard, exchange, points, split):
    """Strength at the bid: in round one (trump = the upcard's suit) a holder of the trump seven
    counts the upcard in its place when the exchange is allowed."""
    h = np.uint64(hand6)
    if exchange and trump == (upcard >> 4):
        seven = ONE << np.uint64(trump * 16 + 7)
        if h & seven:
            h = (h & ~seven) | (ONE << np.uint64(upcard))
    return strength_of(h, trump, points, split)


# --------------------------------------------------------------------------- strategies

@njit(cache=True, nogil=True)
def decide_round1(P, k, hand6, upcard, flags, points, u):
    """Bid on the upcard's suit?  ``(bool, u)``."""
    if P[k, P_KIND] == K_RANDOM:
        x, u = uniform(u)
        return x < P[k, P_P], u
    v = bid_strength(hand6, upcard >> 4, upcard, flags[F_EXCHANGE], points, flags[F_SPLIT])
    return v >= P[k, P_T1], u


@njit(cache=True, nogil=True)
def decide_round2(P, k, hand6, upcard, flags, points, u):
    """Name a suit other than the upcard's, or ``-1`` to pass.  ``(suit, u)``."""
    up = upcard >> 4
    if P[k, P_KIND] == K_RANDOM:
        x, u = uniform(u)
        if x >= P[k, P_P]:
            return -1, u
        j, u = bounded(u, 3)
        return (up + 1 + j) % 4, u
    best, bv = -1, -1
    for s in range(4):
        if s == up:
            continue
        v = strength_of(hand6, s, points, flags[F_SPLIT])
        if v > bv:
            best, bv = s, v
    if bv >= P[k, P_T2]:
        return best, u
    return -1, u


@njit(cache=True, nogil=True)
def decide_optional(P, k, u):
    """Declare (runs, bella)?  The heuristic's ``declare`` flag, or a coin ``d``
    for the random player.  ``(bool, u)``."""
    if P[k, P_KIND] == K_RANDOM:
        x, u = uniform(u)
        return x < P[k, P_D], u
    return P[k, P_DECLARE] != 0, u


@njit(cache=True, nogil=True)
def decide_exchange(P, k, u):
    """Exchange the trump seven for the upcard?  The heuristic always does (the upcard is a
    higher trump); the random player with probability ``d``.  ``(bool, u)``."""
    if P[k, P_KIND] == K_RANDOM:
        x, u = uniform(u)
        return x < P[k, P_D], u
    return True, u


@njit(cache=True, nogil=True)
def order_key(c, trump, points, strength):
    it = 1 if (c >> 4) == trump else 0
    return points[it, c & 15] * 16 + strength[it, c & 15]


@njit(cache=True, nogil=True)
def choose_lead(P, k, hand, possible, trump, points, strength, u):
    """The card to lead.  Heuristic: the highest-point card that ``possible`` (the cards the
    opponent may hold) cannot beat, else the cheapest card, plain suits first."""
    if P[k, P_KIND] == K_RANDOM:
        return random_card(hand, u)
    best, bk = -1, -1
    cheap, ck = -1, 1 << 30
    tl = np.uint64(0xFFFF) << np.uint64(16 * trump)
    x = np.uint64(hand)
    while x:
        c = lowest_code(x)
        x &= x - ONE
        s = c >> 4
        it = 1 if s == trump else 0
        lane = np.uint64(0xFFFF) << np.uint64(16 * s)
        opp = possible & lane
        sure = True
        y = opp
        while y:
            o = lowest_code(y)
            y &= y - ONE
            if strength[it, o & 15] > strength[it, c & 15]:
                sure = False
                break
        if sure and it == 0 and opp == 0 and (possible & tl) != 0:
            sure = False
        key = order_key(c, trump, points, strength)
        if sure and key > bk:
            best, bk = c, key
        k2 = it * 10000 + key
        if k2 < ck:
            cheap, ck = c, k2
    if best >= 0:
        return best, u
    return cheap, u


@njit(cache=True, nogil=True)
def choose_follow(P, k, legal, led, trump, points, strength, u):
    """The card to play second.  Heuristic: win in suit with the highest-point winner, ruff with
    the cheapest trump, else throw the cheapest card (plain suits first)."""
    if P[k, P_KIND] == K_RANDOM:
        return random_card(legal, u)
    ls = led >> 4
    lt = 1 if ls == trump else 0
    win, wk = -1, -1
    ruff, rk = -1, 1 << 30
    cheap, ck = -1, 1 << 30
    x = np.uint64(legal)
    while x:
        c = lowest_code(x)
        x &= x - ONE
        s = c >> 4
        it = 1 if s == trump else 0
        key = order_key(c, trump, points, strength)
        if s == ls:
            if strength[lt, c & 15] > strength[lt, led & 15] and key > wk:
                win, wk = c, key
        elif it == 1:
            if key < rk:
                ruff, rk = c, key
        k2 = it * 10000 + key
        if k2 < ck:
            cheap, ck = c, k2
    if win >= 0:
        return win, u
    if ruff >= 0:
        return ruff, u
    return cheap, u


@njit(cache=True, nogil=True)
def decide_claim(P, k, sure, target):
    """Say "Партия!"?  The heuristic claims when ``sure + margin`` reaches the target."""
    if P[k, P_KIND] == K_RANDOM or P[k, P_CLAIM] == 0:
        return False
    return sure + P[k, P_MARGIN] >= target


# --------------------------------------------------------------------------- the kernel

@njit(cache=True, nogil=True)
def simulate(strength, points, tr, flags, P, init, deck, state, n, acc, rows, log, stacked=False):
    """Play ``n`` units into ``acc[2, NMET]`` (sums and sums of squares); with a non-empty ``rows``
    also write each unit's metrics to ``rows[i]``, with a non-empty ``log`` one row per played deal
    (up to its length).  Returns the number of played deals (the log rows wanted).

    ``init`` (``int64[3]``): scores p1, p2 and a hanging bait at the start of each unit (tests;
    the open-hand bonus is added to it).  ``deck``: the 32 cards, or with ``stacked`` the cards in
    dealing order, 20 per deal (a unit that runs out of them ends unfinished).
    """
    target = flags[F_TARGET]
    long_game = target > 0
    split = flags[F_SPLIT]
    open_seat = flags[F_OPEN_SEAT]
    nlogmax = log.shape[0]
    nlog = 0
    ndeck = deck.shape[0]
    ptr = 0
    ALL = LANE | (LANE << np.uint64(16)) | (LANE << np.uint64(32)) | (LANE << np.uint64(48))
    cards = np.zeros(CARDS_PER_DEAL, np.int64)
    hand = np.zeros(2, np.uint64)
    h6 = np.zeros(2, np.uint64)
    h9 = np.zeros(2, np.uint64)
    hx = np.zeros(2, np.uint64)
    score = np.zeros(2, np.int64)
    won = np.zeros(2, np.int64)
    combos = np.zeros(2, np.int64)
    raw = np.zeros(2, np.int64)
    cred = np.zeros(2, np.int64)
    seq = np.zeros(2, np.int64)
    bel = np.zeros(2, np.int64)
    keys = np.zeros(2, np.int64)
    runs = np.zeros(2, np.int64)
    trick = np.zeros(2, np.int64)
    v = np.zeros(NMET)
    x0, x1, x2, x3 = state[0], state[1], state[2], state[3]
    for i in range(n):
        key, x0, x1, x2, x3 = xoshiro_step(x0, x1, x2, x3)
        s = key
        u = key ^ STRAT_SALT
        coin, u = uniform(u)
        if flags[F_OPENER] == 2:
            first = 0 if coin < 0.5 else 1
        else:
            first = flags[F_OPENER]
        opener0 = first
        for q in range(NMET):
            v[q] = 0.0
        score[0] = init[0]
        score[1] = init[1]
        pending = init[2]
        if open_seat >= 0:
            score[open_seat] += flags[F_OPEN_BONUS]
        winner = -1
        redeals_row = 0
        deals = 0
        while True:
            # ---- deal (lines 34, 50)
            if stacked:
                if ptr + CARDS_PER_DEAL > ndeck:
                    break
                for j in range(CARDS_PER_DEAL):
                    cards[j] = deck[ptr + j]
                ptr += CARDS_PER_DEAL
            else:
                drawn = np.uint64(0)
                for j in range(CARDS_PER_DEAL):
                    jj, s, drawn = draw_index(s, drawn, ndeck, False)
                    cards[j] = deck[jj]
            other = 1 - first
            h6[first] = np.uint64(0)
            h6[other] = np.uint64(0)
            for j in range(3):
                h6[first] |= ONE << np.uint64(cards[j])
                h6[other] |= ONE << np.uint64(cards[3 + j])
                h6[first] |= ONE << np.uint64(cards[6 + j])
                h6[other] |= ONE << np.uint64(cards[9 + j])
            up = cards[12]
            bottom = cards[19]
            # ---- bidding (lines 46-48)
            bidder = -1
            trump = -1
            bround = 0
            for t in range(2):
                k = first if t == 0 else other
                yes, u = decide_round1(P, k, h6[k], up, flags, points, u)
                if yes:
                    bidder, trump, bround = k, up >> 4, 1
                    break
            if bidder < 0:
                for t in range(2):
                    k = first if t == 0 else other
                    suit, u = decide_round2(P, k, h6[k], up, flags, points, u)
                    if suit >= 0:
                        bidder, trump, bround = k, suit, 2
                        break
            if bidder < 0:
                v[M_REDEALS] += 1
                redeals_row += 1
                first = other
                if redeals_row >= flags[F_MAX_REDEALS]:
                    break
                continue
            nredeals = redeals_row
            redeals_row = 0
            # ---- three more cards each, the trump seven (lines 50-52)
            h9[first] = h6[first]
            h9[other] = h6[other]
            for j in range(3):
                h9[first] |= ONE << np.uint64(cards[13 + j])
                h9[other] |= ONE << np.uint64(cards[16 + j])
            hand[0] = h9[0]
            hand[1] = h9[1]
            table = ONE << np.uint64(up)
            exchanged = -1
            if flags[F_EXCHANGE] and trump == (up >> 4):
                seven = ONE << np.uint64(trump * 16 + 7)
                for k in range(2):
                    if hand[k] & seven:
                        yes, u = decide_exchange(P, k, u)
                        if yes:
                            hand[k] = (hand[k] & ~seven) | table
                            table = seven
                            exchanged = k
            hx[0] = hand[0]
            hx[1] = hand[1]
            # ---- declarations (lines 58-82)
            for k in range(2):
                keys[k], runs[k] = sequences(hand[k], trump, split)
                seq[k] = 0
                bel[k] = 0
                if keys[k] > 0:
                    yes, u = decide_optional(P, k, u)
                    seq[k] = 1 if yes else 0
                if has_bella(hand[k], trump):
                    yes, u = decide_optional(P, k, u)
                    bel[k] = 1 if yes else 0
            best = compare_sequences(keys[0] * seq[0], keys[1] * seq[1], first)
            for k in range(2):
                combos[k] = (runs[k] if best == k else 0) + 20 * bel[k]
                won[k] = 0
            # ---- play (lines 86-98)
            leader = first
            played = np.uint64(0)
            claimer = -1
            claim_ok = 0
            loser = bidder
            ntr = 0
            for t in range(TRICKS):
                if long_game and t > 0:
                    sure = score[leader] + won[leader] + combos[leader]
                    if decide_claim(P, leader, sure, target):
                        claimer = leader
                        claim_ok = 1 if sure >= target else 0
                        break
                f = 1 - leader
                if open_seat == f and P[leader, P_SIGHT] != 0:
                    possible = hand[f]
                else:
                    possible = ALL & ~hand[leader] & ~played & ~table & ~(ONE << np.uint64(bottom))
                c1, u = choose_lead(P, leader, hand[leader], possible, trump, points, strength, u)
                trick[0] = c1
                legal = legal_moves(hand[f], trick, 1, trump, tr, strength)
                c2, u = choose_follow(P, f, legal, c1, trump, points, strength, u)
                trick[1] = c2
                if nlog < nlogmax:
                    log[nlog, L_CARD0 + 2 * t] = c1
                    log[nlog, L_SEAT0 + 2 * t] = leader
                    log[nlog, L_CARD0 + 2 * t + 1] = c2
                    log[nlog, L_SEAT0 + 2 * t + 1] = f
                w = leader if trick_winner(trick, 2, trump, strength) == 0 else f
                it1 = 1 if (c1 >> 4) == trump else 0
                it2 = 1 if (c2 >> 4) == trump else 0
                won[w] += points[it1, c1 & 15] + points[it2, c2 & 15]
                if t == TRICKS - 1:
                    won[w] += LAST_TRICK
                hand[leader] &= ~(ONE << np.uint64(c1))
                hand[f] &= ~(ONE << np.uint64(c2))
                played |= (ONE << np.uint64(c1)) | (ONE << np.uint64(c2))
                leader = w
                ntr += 1
            deals += 1
            v[M_DEALS] += 1
            v[NU + 2 * Q_BIDS + bidder] += 1
            v[M_ROUND2] += bround == 2
            v[M_EXCHANGES] += exchanged >= 0
            v[M_STRENGTH] += bid_strength(h6[bidder], trump, up, flags[F_EXCHANGE], points, split)
            v[M_STRENGTH9] += strength_of(hx[bidder], trump, points, split)
            cred[0] = 0
            cred[1] = 0
            if claimer >= 0:
                # ---- "Партия!" (line 110): the game ends on the claim
                v[NU + 2 * Q_CLAIMS + claimer] += 1
                if claim_ok:
                    winner = claimer
                else:
                    winner = 1 - claimer
                    v[NU + 2 * Q_CLAIMS_LOST + claimer] += 1
                for k in range(2):
                    v[NU + 2 * Q_COMBOS + k] += combos[k]
            else:
                # ---- scoring (lines 44, 104-108)
                d = 1 - bidder
                for k in range(2):
                    raw[k] = won[k] + combos[k]
                    v[NU + 2 * Q_RAW + k] += raw[k]
                    v[NU + 2 * Q_COMBOS + k] += combos[k]
                hanging = 0
                if raw[bidder] > raw[d]:
                    cred[bidder] = raw[bidder]
                    cred[d] = raw[d]
                    v[NU + 2 * Q_MADE + bidder] += 1
                    dealwin = bidder
                elif raw[bidder] < raw[d]:
                    cred[d] = raw[d] + raw[bidder]
                    v[NU + 2 * Q_BAITS + bidder] += 1
                    dealwin = d
                else:
                    cred[d] = raw[d]
                    hanging = raw[bidder]
                    v[NU + 2 * Q_HANGING + bidder] += 1
                    dealwin = d
                if long_game:
                    cred[dealwin] += pending
                    pending = hanging
                    score[0] += cred[0]
                    score[1] += cred[1]
                    if score[d] >= target:
                        winner = d
                    elif score[bidder] >= target:
                        winner = bidder
                else:
                    winner = dealwin
                    if raw[bidder] > raw[d]:
                        v[NU + 2 * Q_STAKES + bidder] += 1
                        v[NU + 2 * Q_STAKES + d] -= 1
                    else:
                        lose = 2 if raw[bidder] < raw[d] else 1
                        v[NU + 2 * Q_STAKES + bidder] -= lose
                        v[NU + 2 * Q_STAKES + d] += lose
                for k in range(2):
                    v[NU + 2 * Q_POINTS + k] += cred[k]
                loser = d if dealwin == bidder else bidder
            if nlog < nlogmax:
                r = log[nlog]
                r[0] = i
                r[1] = deals - 1
                r[2] = first
                r[3] = bidder
                r[4] = trump
                r[5] = bround
                r[6] = up
                r[7] = bottom
                r[8] = exchanged
                r[9] = np.int64(h9[0])
                r[10] = np.int64(h9[1])
                r[11] = np.int64(h6[0])
                r[12] = np.int64(h6[1])
                r[13] = seq[0]
                r[14] = seq[1]
                r[15] = bel[0]
                r[16] = bel[1]
                r[17] = combos[0]
                r[18] = combos[1]
                r[19] = won[0]
                r[20] = won[1]
                r[21] = cred[0]
                r[22] = cred[1]
                r[23] = claimer
                r[24] = claim_ok
                r[25] = ntr
                r[26] = score[0]
                r[27] = score[1]
                r[28] = pending
                r[29] = nredeals
                for j in range(2 * ntr, 2 * TRICKS):
                    r[L_CARD0 + j] = -1
                    r[L_SEAT0 + j] = -1
            nlog += 1
            if winner >= 0 or not long_game:
                break
            if deals >= flags[F_MAX_DEALS]:
                break
            if flags[F_NEXT] == 1:
                first = 1 - first
            else:
                first = loser
        # ---- the unit's result
        if winner < 0:
            v[M_UNFINISHED] = 1
        else:
            v[NU + 2 * Q_WIN + winner] = 1
            v[M_OPENER_WIN] = 1 if winner == opener0 else 0
            if long_game:
                v[NU + 2 * Q_STAKES + winner] += 1
                v[NU + 2 * Q_STAKES + 1 - winner] -= 1
        add_deal(acc, rows, i, v)
    state[0], state[1], state[2], state[3] = x0, x1, x2, x3
    return nlog
