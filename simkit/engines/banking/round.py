"""The banker's round of Очко: a banker against 1-9 players, each on his own stake.

The mechanism the games ``ochko`` (one round a deal) and ``ochko_session`` (a session of rounds
against one bank) share.  Rule text ``shared/rules/000_e1e7c8054592a022.txt`` lines 8-46; the
round's options and their readings are :class:`simkit.engines.banking.rules.OchkoRules`.

A hand is one packed integer (:data:`HAND_BITS`): taking a card adds that card's entry of
:func:`card_info`, and the low 11 bits, (total, cards held), index every table the round needs.
Everything a hand's next step depends on (the strategy's choice, the stop at 21 or above, the card
caps, the banker's threshold) is folded beforehand into *stop tables*, and what a final hand
means (bust, golden point, the banker's total, who wins a showdown) into *category tables*, so
the loop does a draw, an add and a lookup per card.  A round ends in one outcome category per
player and one for the banker (:func:`play_round`, returning them as a code word); the payout
table :func:`weights` gives each player metric (win, bust, payoff per unit staked...) in each
category, and :func:`outcome_table` each seat's metric rows by category, for the core's coded
deal loop (:func:`simkit.core.deals.coded_loop`).  ``bank_result``, the bank's net, mixes the
players and is summed directly.

Metric vector layout: the banker's ten first (slots :data:`B`), then eight per player seat (seat
``k``'s metric ``m`` at ``NB + NP * k + P.m``; ``P.result`` is his payoff per unit staked), then
``banker_five`` with ``banker_five_pictures`` (:func:`width` slots in all).  The records: the rules
as :class:`Tables`, the players' policies as the stop and draw-probability tables a game's
strategy record holds in its fields ``table`` and ``hitp`` (:func:`stop_tables`, from draw
probabilities: :func:`draw_below` for a threshold; :class:`Policies` names the two), the buffers
as :class:`Work`.  The move log is the house's events (:func:`put_cards`).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simkit.core import cards as C
from simkit.core.deals import check_table
from simkit.core.records import record, slots
from simkit.core.rng import draw_index, uniform
from simkit.engines.moves import put_next

# stop-table entries
DRAW, STOP, ASK = 0, 1, 2
# the move log's event kinds (simkit.engines.moves): a card dealt (one to each seat, the banker's
# face up) and a card drawn after the deal; seat 0..K-1 a player, K the banker
E_DEAL, E_DRAW = 1, 2
EVENTS = {E_DEAL: "DEAL", E_DRAW: "DRAW"}
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
BC_IDLE, BC_LE16, BC_17, BC_18, BC_19, BC_20, BC_21, BC_BUST, BC_GOLDEN, BC_FIVE = range(10)
NBC = 10  # BC_FIVE (the banker's five pictures) only with banker_five_pictures: its metric
# banker_five then comes after the players' (metrics), so that the default layout is unchanged
NU = 12   # policies are indexed by the banker's face-up card's points 0..11 (line 40)
BANKER_NAMES = ["banker_idle", "banker_le16", "banker_17", "banker_18", "banker_19", "banker_20",
                "banker_21", "banker_bust", "banker_golden", "bank_result"]
PLAYER_NAMES = ["win", "push", "loss", "bust", "golden", "five", "bonus", "result"]
NB, NP = len(BANKER_NAMES), len(PLAYER_NAMES)
B = slots(BANKER_NAMES)   # B.bank_result, B.banker_17, ...: banker slots of the metric vector
P = slots(PLAYER_NAMES)   # P.result, P.win, ...: a player's slots, offset by NB + NP * seat
B_EV = B.bank_result
CODE_BITS = 4     # a seat's category in the round's code word (10 banker categories, 10 seats)
STRAT_SALT = np.uint64(0xD1B54A32D192ED03)


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
    win, push, loss, bust, golden, five, bonus, ev = P.win, P.push, P.loss, P.bust, P.golden, \
        P.five, P.bonus, P.result
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


class Tables(NamedTuple):
    """The rules of a round as the kernel reads them (built by :func:`tables`)."""
    players: int
    five_pictures: bool        # five pictures win at once (line 31)
    bonus_hands: bool          # 6-7-8 / 7-7-7 pay the bonus (line 31)
    banker_five: bool          # the banker's five pictures win too (line 31)
    card_info: np.ndarray      # int64[80]: what each card adds to a packed hand
    card_value: np.ndarray     # int64[80]: each card's points (the face-up card's policy index)
    player_cat: np.ndarray     # int64[2048]: a final hand's category, -1 while it stands
    showdown: np.ndarray       # int64[32, 34]: player total x banker key -> category
    banker_stop: np.ndarray    # uint8[2048]: the banker stops here
    banker_cat: np.ndarray     # int64[2048]: the banker's final category
    banker_key: np.ndarray     # int64[2048]: his showdown key (total, bust, golden)
    weights: np.ndarray        # float64[7, 8]: each player metric in each category
    outcome: np.ndarray        # float64[K + 1, 10, M]: each seat's metric rows by category


class Policies(NamedTuple):
    """The players' policies by the banker's face-up card's points ``u`` and the player's hand:
    stop tables ``uint8[K, NU, 2048]`` (DRAW, STOP or ASK) and the draw probability where they
    ASK (``float64[K, NU, 2048]``).  :func:`play_round` reads these two fields of the strategy
    record it is given (Очко's seat record, or this record an Очко session builds from its own
    once a session)."""
    table: np.ndarray
    hitp: np.ndarray


class Work(NamedTuple):
    """Per-call settings and buffers: the deck dealt from (the pack, or a stacked deck dealt in
    order when ``stacked``) and the round's per-seat scratch."""
    deck: np.ndarray           # uint8[cards]
    stacked: bool
    first: np.ndarray          # int64[K + 1]: first cards, the banker's last
    ptotal: np.ndarray         # int64[K]
    pcat: np.ndarray           # int64[K]
    pbonus: np.ndarray         # bool[K]
    held: np.ndarray           # int64[K + 1]: cards each hand ended with (for the move log)


def draw_below(t) -> np.ndarray:
    """``float64[NU, TT, TN]``: the draw probabilities (0 or 1) of a player who draws while his
    total is below ``t``, by (banker's face-up card's points, total, cards held); ``t`` is one
    threshold or ``int[NU]``, one per face-up card."""
    total = np.arange(TT)[None, :, None]
    return (total < np.reshape(t, (-1, 1, 1))) * np.ones((NU, TT, TN))


def stop_tables(hitp: np.ndarray, max_cards: int) -> np.ndarray:
    """The players' stop tables ``uint8[K, NU, TT, TN]`` from their draw probabilities ``hitp``
    (same shape): DRAW, STOP, or ASK (draw with probability ``hitp``).  A total of 21 or more and
    the ``max_cards`` cap always stop."""
    t = np.arange(TT)[:, None]
    n = np.arange(TN)[None, :]
    forced = np.broadcast_to((t >= 21) | (n >= max_cards), (TT, TN))
    ptab = np.where(hitp >= 1.0, DRAW, np.where(hitp <= 0.0, STOP, ASK)).astype(np.uint8)
    ptab[:, :, forced] = STOP
    return ptab


def tables(rules) -> Tables:
    pcat, show = player_tables(rules)
    bstop, bcat, bkey = banker_tables(rules)
    out = outcome_table(rules)
    check_table(out, B_EV, CODE_BITS)
    return record(Tables, players=rules.players, five_pictures=rules.five_pictures,
                  bonus_hands=rules.bonus_hands, banker_five=rules.banker_five_pictures,
                  card_info=card_info(rules.values),
                  card_value=card_values(rules.values),
                  player_cat=pcat, showdown=show, banker_stop=bstop, banker_cat=bcat,
                  banker_key=bkey, weights=weights(rules), outcome=out)


def outcome_table(rules) -> np.ndarray:
    """A round's metrics by outcome (:func:`simkit.core.deals.coded_loop`): player ``k``'s
    category sets his eight slots (:func:`weights`), the banker's category its one slot; the
    bank's net mixes the players and is summed directly."""
    K = rules.players
    out = np.zeros((K + 1, max(NPC, NBC), width(rules)))
    w = weights(rules)
    for k in range(K):
        out[k, :NPC, NB + NP * k:NB + NP * (k + 1)] = w
    for c in range(NBC):
        if c != BC_FIVE:
            out[K, c, c] = 1.0
        elif rules.banker_five_pictures:
            out[K, c, NB + NP * K] = 1.0
    return out


def width(rules) -> int:
    """The round's metric vector length: the banker's, each player's, and ``banker_five``."""
    return NB + NP * rules.players + int(rules.banker_five_pictures)


def work(rules, deck=None) -> Work:
    K = rules.players
    stacked = deck is not None
    d = C.deck(rules.deck) if deck is None else np.asarray(deck, np.uint8)
    return record(Work, deck=d.astype(np.uint8), stacked=stacked, first=np.zeros(K + 1, np.int64),
                  ptotal=np.zeros(K, np.int64), pcat=np.zeros(K, np.int64),
                  pbonus=np.zeros(K, np.bool_), held=np.zeros(K + 1, np.int64))


@njit(cache=True, nogil=True, inline="always")
def play_round(R, S, W, i, key, ukey, log):
    """One round: deal, each player draws by his policy, the banker draws to his stop, settle.
    Returns the cards drawn, the outcome categories as a code word (player ``k``'s at bits
    ``CODE_BITS * k``, the banker's after them: :func:`outcome_table`) and the bank's net.

    The round is written out with scalar helpers only, so that nothing in it costs reference
    counting; the cards come from ``key`` by :func:`simkit.core.rng.draw_index` (or in deck
    order for a stacked deck), the ASK coin flips from ``ukey``."""
    K = R.players
    ndeck = W.deck.shape[0]
    s = key                   # the deal's cards
    u = ukey                  # the strategies' own coin flips
    drawn = np.uint64(0)
    pos = 0
    for k in range(K + 1):    # one card each, the banker's last (line 40)
        if pos < ndeck:
            j, s, drawn = draw_index(s, drawn, ndeck, W.stacked)
            W.first[k] = W.deck[j]
            pos += 1
        else:
            W.first[k] = -1
    up = R.card_value[W.first[K]] if W.first[K] >= 0 else 0   # the banker's face-up card
    standing = 0
    for k in range(K):        # each player in turn draws (line 40)
        h = R.card_info[W.first[k]] if W.first[k] >= 0 else 0
        while True:
            d = S.table[k, up, h & IDX]
            if d == ASK:
                coin, u = uniform(u)
                d = coin >= S.hitp[k, up, h & IDX]
            f = R.five_pictures & ((h & FIVE_MASK) == FIVE_PICTURES)
            if d | f | (pos >= ndeck):
                break
            j, s, drawn = draw_index(s, drawn, ndeck, W.stacked)
            h += R.card_info[W.deck[j]]
            pos += 1
        W.held[k] = h & 31
        cat = FIVE if f else R.player_cat[h & IDX]
        W.pcat[k] = cat
        W.ptotal[k] = (h >> 5) & 63
        W.pbonus[k] = (h & ~PICTURE_BITS) == BONUS_SHAPE
        standing += cat < 0
    if standing == 0:         # the banker draws only if some player still stands
        bcat = BC_IDLE
        bkey = 0
    else:
        h = R.card_info[W.first[K]] if W.first[K] >= 0 else 0
        while True:
            five = R.banker_five & ((h & FIVE_MASK) == FIVE_PICTURES)
            if five | R.banker_stop[h & IDX] | (pos >= ndeck):
                break
            j, s, drawn = draw_index(s, drawn, ndeck, W.stacked)
            h += R.card_info[W.deck[j]]
            pos += 1
        if five:              # unlosable (line 31): beats every standing player, as golden does
            bcat = BC_FIVE
            bkey = BK_GOLDEN
        else:
            bcat = R.banker_cat[h & IDX]
            bkey = R.banker_key[h & IDX]
    bank = 0.0
    word = bcat << (CODE_BITS * K)
    for k in range(K):        # settle each player against the banker
        cat = W.pcat[k]
        if cat < 0:
            cat = R.showdown[W.ptotal[k], bkey]
        if R.bonus_hands and cat == WIN and W.pbonus[k]:
            cat = BONUS
        bank -= R.weights[cat, P.result]
        word |= cat << (CODE_BITS * k)
    return pos, word, bank


@njit(cache=True, nogil=True)
def put_cards(log, i, lp, deck, stacked, key, held, ncards):
    """A round's cards as the house's events (:mod:`simkit.engines.moves`) into row ``i`` of
    ``log`` from position ``lp`` (returned after them): who received each card, in the order
    dealt, ``DEAL`` (one card to each player, then the banker's, face up: seat 0..K-1, the banker
    K) then ``DRAW`` (each player's draws in turn, then the banker's), the card in each.  Dealt
    again from the round's ``key``, the cards each player ended with (``held[:K]``) and the
    round's ``ncards``, so that the round pays nothing for the log (storing the banker's count
    in the round measured 2.4x slower)."""
    K = held.shape[0] - 1
    held[K] = ncards - min(K + 1, ncards)
    for k in range(K):
        held[K] -= held[k] - 1
    s = key
    drawn = np.uint64(0)
    ndeck = deck.shape[0]
    pos = 0
    for who in range(K + 1):              # one card each, the banker's last
        if pos < ndeck:
            j, s, drawn = draw_index(s, drawn, ndeck, stacked)
            lp = put_next(log, i, lp, E_DEAL, who, 0, np.int64(deck[j]))
            pos += 1
    for who in range(K + 1):              # then each player's draws, then the banker's
        for _ in range(held[who] - 1 if who < K else held[K]):
            j, s, drawn = draw_index(s, drawn, ndeck, stacked)
            lp = put_next(log, i, lp, E_DRAW, who, 0, np.int64(deck[j]))
    return lp


@njit(cache=True, nogil=True)
def write_log(log, i, deck, stacked, key, held, ncards):
    """The move log of round ``i``: its cards' events (:func:`put_cards`), -1 after them."""
    for q in range(log.shape[1]):
        log[i, q] = -1
    put_cards(log, i, 0, deck, stacked, key, held, ncards)
