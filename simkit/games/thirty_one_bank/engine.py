"""Kernels of the banker game «31»: deal and play rounds (or whole talias) from an RNG stream.

One *deal* of the game is one unit of the rules' ``unit``: a round from a fresh pack, or a talia
(round after round through one pack until it is spent, lines 95-96).  The pack is a permutation
``Work.perm`` dealt from the front by a lazy Fisher-Yates shuffle: the card at position ``p`` is
a uniform draw from positions ``p..n-1`` (:func:`draw`), so the ``p``-th card of a unit depends on
the unit's key alone, whatever the strategies did (paired comparisons).  A pack spent mid-round
is refilled with the spent cards of the talia's earlier rounds (line 96) by rotating them behind
the cards on the table.

A hand is one packed integer of ``Work.hand`` (:data:`HAND`): its hard total (every ace 1), its
aces and its cards; its value is :func:`best` (aces raised to 11 while the total stays within
31); its status is ``Work.status``.  Seats
``0..K-1`` are the punters, seat ``K`` the banker.  A fresh-pack round of at most 64 cards is
dealt by rejection against a mask of the positions dealt (as Очко deals), a talia by the lazy
Fisher-Yates shuffle.

Two kernels play a round.  :func:`play_unit` plays every rule, unit and strategy and writes
the metric vector; :func:`round_coded`, the fast path, plays a round from one fresh pack where
every punter stands at a threshold (the default) and names its outcome by codes
(:func:`coded_table`, :func:`simkit.core.deals.coded_loop`).  They deal the same cards and
make the same decisions, and the tests hold their rows equal.

Metric vector layout (:func:`metrics`): the shared metrics (slots :data:`M`), then six per punter
(punter ``k``'s metric ``q`` at ``seat_slot(Q.q, NQ, k)``, :data:`Q` p1's slots).  In a talia
every metric is the sum over its rounds (``rounds`` counts them).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simkit.core import cards as C
from simkit.core.deals import check_table, coded_loop, deal_loop
from simkit.core.jit import NO_REFCOUNT
from simkit.core.records import record, seat_slot, slots
from simkit.core.registry import Metric
from simkit.core.rng import deal_step, draw_index, uniform
from simkit.engines.moves import put_next
from simkit.games.thirty_one_bank.rules import BOTH31, SHORT, UNITS

SALT = np.uint64(0x3C6EF372FE94F82B)
NV = 10             # value classes: ace (1), 2..9, ten-valued (10, J, Q, K)
MAXH = 32           # most cards a hand can hold (a hand of 31 or less has at most 13 cards)
K_STAND, K_RANDOM, K_COUNT = 0, 1, 2
IN, BUST, PAID = 0, 1, 2
# a hand packed in an int64 (taking a card adds the card's Tables.info entry): the hard total
# (every ace 1) in bits 0-7, the aces from bit ACES, the cards held from bit CARDS
HAND = dict(hard=0, aces=8, cards=16)
HARD, ACES, CARDS = 0xFF, 8, 16
# the move log's event kinds (simkit.engines.moves): a card of the deal, a card bought or drawn
# after it (seat: the punter 0..K-1 or the banker K; aux: the talia's round), the spent cards
# shuffled in (aux: the round)
E_DEAL, E_DRAW, E_RESHUFFLE = 1, 2, 3
EVENTS = {E_DEAL: "DEAL", E_DRAW: "DRAW", E_RESHUFFLE: "RESHUFFLE"}

SHARED = [("bank_result", False, "the banker's net over all punters", "tokens"),
          ("banker_dealt31", True, "the banker is dealt 31 and collects at once", "share"),
          ("banker_bust", True, "the banker draws over 31 and pays every punter still in",
           "share"),
          ("banker_idle", True, "no punter is left in when the banker's turn comes (he draws "
                                "nothing)", "share"),
          ("banker_total", False, "the banker's final best total (32: over 31)", "points"),
          ("rounds", False, "rounds played (1 a deal with unit=round)", "rounds"),
          ("reshuffles", True, "the pack ran out mid-round and the spent cards were shuffled in",
           "share")]
SEAT = [("result", False, "the punter's net", "tokens"),
        ("win", True, "the punter is paid (dealt 31, higher than the banker, or banker over 31)",
         "share"),
        ("push", True, "neither pays (equal totals, or both dealt 31 with both31=push)", "share"),
        ("loss", True, "the punter pays (over 31, lower, or the banker dealt 31)", "share"),
        ("bust", True, "the punter draws over 31", "share"),
        ("dealt31", True, "the punter is dealt 31 and paid at once", "share")]
M = slots(n for n, _, _, _ in SHARED)
NM, NQ = len(SHARED), len(SEAT)
Q = slots((n for n, _, _, _ in SEAT), first=NM)   # p1's; punter k's: seat_slot(Q.q, NQ, k)
# A fresh-pack round's outcome, part by part (:func:`coded_table`, :func:`round_coded`): each
# punter's, and the banker's (his best total 0..31 when he stood, ``B_BUST`` over 31,
# ``B_IDLE + total`` when no punter was left in, ``B_DEALT31``)
(PAID31, PUSH31, LOST31, P_BUST, WIN_BUST, WIN, PUSH, LOSS) = range(8)
NPC = 8
B_BUST, B_IDLE, B_DEALT31 = 32, 33, 65
NBC = 66
CODE_BITS = 7               # a part's code in the round's code word (coded_loop)
CODE_MASK = (1 << CODE_BITS) - 1


def metrics(rules) -> list[Metric]:
    round_unit = rules.unit == "round"
    per = "per round" if round_unit else "per talia"

    def unit(u, binary):
        if binary:
            return "share of rounds (0..1)" if round_unit else "rounds per talia"
        return {"tokens": f"tokens {per}", "points": f"points {per}" if round_unit else
                "sum of the rounds' totals per talia", "rounds": "rounds per deal"}[u]
    out = [Metric(n, b and round_unit, d, unit=unit(u, b)) for n, b, d, u in SHARED]
    for k in range(rules.punters):
        out += [Metric(f"p{k + 1}_{n}", b and round_unit, f"p{k + 1}: {d}", unit=unit(u, b))
                for n, b, d, u in SEAT]
    return out


def pack(rules) -> np.ndarray:
    return C.deck(52, rules.decks)


def log_columns(rules) -> list[str]:
    """A deal's move log: the house's events (:mod:`simkit.engines.moves`), one for every card
    dealt, in order (``DEAL`` for the three rounds of the deal, ``DRAW`` after; seat: punter
    0..K-1, the banker K; aux: the talia's round) and ``RESHUFFLE`` (aux: the round) where the
    spent cards are shuffled in; -1 after the last.  Room for twice the pack and four more: a
    talia deals each card once, and again only after its one reshuffle."""
    return [f"e{j}" for j in range(2 * pack(rules).shape[0] + 4)]


def card_values() -> np.ndarray:
    """``int64[80]``: each card's points with an ace as 1 (pictures 10, line 91)."""
    v = np.zeros(C.N_CODES, np.int64)
    for s in range(4):
        for r in range(2, 11):
            v[s * 16 + r] = r
        v[s * 16 + C.JACK] = v[s * 16 + C.QUEEN] = v[s * 16 + C.KING] = 10
        v[s * 16 + C.ACE] = 1
    return v


def card_info() -> np.ndarray:
    """``int64[80]``: what taking each card adds to a packed hand: its points (ace 1), an ace,
    a card (:data:`HAND`)."""
    v = card_values()
    return v | ((v == 1).astype(np.int64) << ACES) | ((v > 0).astype(np.int64) << CARDS)


@njit(cache=True, nogil=True, inline="always")
def best(hard, aces):
    """A hand's value: its hard total with aces raised to 11 while it stays within 31."""
    b = hard
    if aces > 0 and b + 10 <= 31:
        b += 10
        if aces > 1 and b + 10 <= 31:
            b += 10
    return b


@njit(cache=True, nogil=True, inline="always")
def hand_best(hv):
    """The value of a packed hand (:data:`HAND`)."""
    return best(hv & HARD, (hv >> ACES) & HARD)


@njit(cache=True, nogil=True, inline="always")
def banker_draws(hv, stand, soft):
    """Line 94's banker draws on: his best total below ``stand``, or below ``soft`` when the
    hand is soft (an ace counted 11)."""
    b = hand_best(hv)
    return b < (soft if b > (hv & HARD) else stand)


class Stakes(NamedTuple):
    """The round's rules, scalars only (what :func:`round_coded` is given for the rules: the
    rules record's arrays cost reference counts every round, measured)."""
    punters: int
    banker_stand: int
    banker_soft: int           # on a soft hand (banker_soft, or banker_stand when 0)
    stake31: float
    both31_push: bool
    bust_pays: float
    banker_bust_pays: float
    showdown_pays: float


class Tables(NamedTuple):
    """The rules as the kernel reads them."""
    stakes: Stakes
    talia: bool
    min_cards: int
    reshuffle: bool
    value: np.ndarray          # int64[80]: points, ace 1
    info: np.ndarray           # int64[80]: what taking each card adds to a packed hand
    outcome: np.ndarray        # float64[K + 1, NBC, M]: each part's metric rows (coded_loop)


class Policies(NamedTuple):
    """The punters' strategies, the house's record of per-seat arrays
    (:func:`simkit.core.records.seat_arrays`): each punter's kind (stand_at / random / count),
    stand_at's and count's thresholds (buy while a hard best total is below ``t``, a soft one
    below ``soft``), count's bust chance ``q``, random's chance ``p``; then fields derived from
    them (scalars: :func:`round_coded` reads no array of this record)."""
    kind: np.ndarray           # int64[K]
    t: np.ndarray              # int64[K]
    soft: np.ndarray           # int64[K]
    q: np.ndarray              # float64[K]
    p: np.ndarray              # float64[K]
    counting: bool             # some punter counts (the round then keeps the cards of a hand)
    thresholds: bool           # every punter plays stand_at
    hard_bits: int             # stand_at's t of punter k in bits 6k..6k+5 (round_coded reads
    soft_bits: int             # scalars only), and its soft threshold


class Thresholds(NamedTuple):
    """What :func:`round_coded` reads of the strategies: the packed thresholds
    (:class:`Policies`' ``hard_bits``, ``soft_bits``), a record of scalars built once a run by
    :func:`run_coded`.  Given the strategy record itself, whose five arrays numba counts every
    round, the default round ran at 0.88 of main's (bench_commits, 3 interleaved rounds of 1e6,
    0.87-0.91); given this record, at 1.23 of main's (1.15-1.30), whose strategy record held one
    array."""
    hard: int
    soft: int


class Work(NamedTuple):
    deck: np.ndarray           # uint8[n]: the pack (or the stacked deck) in order
    deck_info: np.ndarray      # int64[n]: what each card of ``deck`` adds to a packed hand
    stacked: bool
    standard: bool             # the deck is one full pack in pack() order, not stacked
    perm: np.ndarray           # uint8[n]: the pack as it is being dealt
    tmp: np.ndarray            # uint8[n]: scratch for a reshuffle
    hand: np.ndarray           # int64[K + 1]: each seat's packed hand (:data:`HAND`)
    status: np.ndarray         # int64[K + 1]: IN, BUST or PAID
    held: np.ndarray           # int64[K + 1, MAXH]: the cards of each hand (when counting)
    classes: np.ndarray        # int64[2, 10]: by value class (ace first), the talia's spent
    # cards (row 0) and the pack dealt from (row 1)
    delta: np.ndarray          # float64[K]: the round's payments to each punter


def tables(rules) -> Tables:
    outcome = coded_table(rules)
    check_table(outcome, M.bank_result, CODE_BITS)
    stakes = record(Stakes, punters=rules.punters, banker_stand=rules.banker_stand,
                    banker_soft=rules.banker_soft or rules.banker_stand,
                    stake31=rules.stake31, both31_push=rules.both31 == "push",
                    bust_pays=rules.bust_pays, banker_bust_pays=rules.banker_bust_pays,
                    showdown_pays=rules.showdown_pays)
    return record(Tables, stakes=stakes, talia=rules.unit == "talia", min_cards=rules.min_cards,
                  reshuffle=rules.short_pack == "reshuffle", value=card_values(),
                  info=card_info(), outcome=outcome)


def coded_table(rules) -> np.ndarray:
    """A fresh-pack round's metrics by outcome (:func:`simkit.core.deals.coded_loop`): each
    part's metric rows, ``float64[K + 1, NBC, M]``: punter ``k``'s outcome sets his six slots,
    the banker's code the shared ones but the bank's net, which mixes the punters and is summed
    directly."""
    K = rules.punters
    pay = np.zeros(NPC)
    pay[[PAID31, LOST31, P_BUST, WIN_BUST, WIN, LOSS]] = (
        rules.stake31, -rules.stake31, -rules.bust_pays, rules.banker_bust_pays,
        rules.showdown_pays, -rules.showdown_pays)
    seat = {PAID31: ("win", "dealt31"), PUSH31: ("push", "dealt31"), LOST31: ("loss",),
            P_BUST: ("bust", "loss"), WIN_BUST: ("win",), WIN: ("win",), PUSH: ("push",),
            LOSS: ("loss",)}
    out = np.zeros((K + 1, NBC, NM + NQ * K))
    for k in range(K):
        for c, names in seat.items():
            out[k, c, seat_slot(Q.result, NQ, k)] = pay[c]
            for m in names:
                out[k, c, seat_slot(getattr(Q, m), NQ, k)] = 1.0
    b = out[K]
    b[:, M.rounds] = 1.0
    for t in range(32):
        b[t, M.banker_total] = b[B_IDLE + t, M.banker_total] = t
        b[B_IDLE + t, M.banker_idle] = 1.0
    b[B_BUST, M.banker_total], b[B_BUST, M.banker_bust] = 32.0, 1.0
    b[B_DEALT31, M.banker_total], b[B_DEALT31, M.banker_dealt31] = 31.0, 1.0
    return out


def work(rules, deck=None, pack_cards=None) -> Work:
    """Buffers; ``deck``: a stacked deck dealt in order; ``pack_cards``: another pack to shuffle
    (a depleted one, for the exact check)."""
    K = rules.punters
    stacked = deck is not None
    d = np.asarray(deck if stacked else (pack(rules) if pack_cards is None else pack_cards),
                   np.uint8)
    standard = not stacked and pack_cards is None and rules.decks == 1
    return record(Work, deck=d, deck_info=card_info()[d], stacked=stacked, standard=standard,
                  perm=d.copy(), tmp=d.copy(), hand=np.zeros(K + 1, np.int64),
                  status=np.zeros(K + 1, np.int64), held=np.zeros((K + 1, MAXH), np.int64),
                  classes=np.stack([np.zeros(NV, np.int64), by_class(d)]), delta=np.zeros(K))


def by_class(cards) -> np.ndarray:
    """``int64[10]``: how many of ``cards`` are in each value class (ace, 2..9, ten-valued)."""
    v = card_values()
    out = np.zeros(NV, np.int64)
    for c in cards:
        out[v[c] - 1] += 1
    return out


# --------------------------------------------------------------------------- the round

# Speed (issue 13), each step measured (a round went from 390 to about 140 ns):
# * numba counts references on every array a variable or an inlined helper's argument takes, and
#   inside the round's loops those atomic counts were most of the time (56% of a round in
#   NRT_incref/decref: the record ``W`` passed to the draw helper counted all its arrays per
#   card).  So the unit's arrays are taken out of the records once (play_unit), and the round's
#   cards are dealt at one place in one loop
#   (the deal, each punter's buying, the banker's drawing) instead of three.
# * numba's refprune drops the per-deal counts only if nothing in the deal can raise: no ``%`` by
#   a variable (a ZeroDivisionError path) and no call that returns an error status (the bust
#   chance is computed in the loop, not by a jitted helper).
# * A hand is one packed integer; the pack's cards come with what they add to a hand
#   (``Work.deck_info``).
# * Session 9: the fresh-pack round of stand_at punters (the default) is :func:`round_coded` on
#   the core's coded loop, 1.5-1.6x faster than this function on the deal loop (10 -> 15-16M
#   rounds a second, one punter, same process).  Two things made it, and only together:
#   - counting outcome codes instead of zeroing and summing a 13-slot vector a round
#     (alone, with the records passed as they are: no faster, 10.0M against 10.1M);
#   - the inlined per-round function given the rules' scalars (:class:`Stakes`), not the
#     rules record: given the records as they are it made 12.2M, given the scalars 14-15.5M,
#     and given the records with their arrays' reference counting switched off (a scratch
#     intrinsic that nulls each array's meminfo) 14.8M, so the cost is numba's atomic
#     reference counts on the rules record's arrays every round.  (The strategy and work
#     records cost nothing measurable there; Очко's deal loop gained nothing from the same
#     switch.)  ``K`` a literal for one punter adds about 15% (a scratch test: 13.9M
#     against 12.1M).
# * Issue 28: the unit split at its phases (play_unit, play_round, dealt_31s, buys, settle), the
#   round's arrays passed to them as arguments.  With numba's counting those inlined phases'
#   array arguments were counted at every card: a talia took 6.6x as long (bench_commits, 7
#   rounds); so play_plain and play_logged compile without counting (NO_REFCOUNT).  Then a
#   talia is 0.92x main's one function (bench_commits, 5 rounds of 5e5 talias: 556k against
#   626k a second); the default round (round_coded) is untouched (x1.003, 7 rounds).
#   Session 17 found the cause (bench_commits, 5 interleaved rounds of 5e5 talias, medians of
#   the per-round ratios): not the split but the call.  132aaa6's one function, changed only
#   so that play_plain is a function of its own called once a unit (as today) instead of
#   inlined into the deal loop, is 0.918 of itself with NO_REFCOUNT and 0.876 with counting;
#   0.91-0.96 and 0.80-0.90 round by round (what the call costs was not taken apart: numba
#   passes the records R, S, W as their flattened fields, every unit, a likely part).  The split itself costs nothing measurable: with the
#   strategy record's arrays (issue 28's seat_arrays, buys() given the punter's scalars) a
#   talia runs at 0.958 and 0.960 of 132aaa6 in two runs (0.91-1.04) and at 1.031 of the
#   par[K, 5] code (1.008-1.218).  Inlined into the counted deal loop the phases'
#   array arguments are counted (the 6.6x above), so the call stays until the deal loop can
#   take a unit without counting.
# Tried in session 8, not kept (the default round, one punter; A/B against this code in one
# process, CPU time, 11-15 interleaved repetitions; the same numbers unless said):
# * the round written straight (the deal, each punter, the banker), its decisions and settlement
#   read from tables by packed hand: 1.01-1.07x slower (1.2-1.3x faster with 3-7 punters);
# * that, one punter's hand in scalars and the deal's cards drawn first: 1.07x faster, not worth
#   a second copy of the round's rules;
# * the deal's cards drawn ahead inside this loop: 1.27x slower; its six positions from six
#   splitmix outputs at once, one by one only on a repeat: 1.17x slower;
# * the deal loop's metric sums in blocks of 16 deals: 0.99x;
# * a partial Fisher-Yates shuffle, two draws from each 64-bit output (other numbers): 1.2x slower.
# Ablations of the straight round: with cards from the key's bits instead of the generator it
# took 0.60 of its time, without adding its metric vector to the sums 0.84.

@njit(cache=True, nogil=True, inline="always")
def play_unit(R, S, W, i, key, ukey, v, log, logged):
    """A round from a fresh pack, or a whole talia (lines 95-96); adds its metrics into ``v``
    and returns the cards dealt.

    The pack: ``masked`` (a round from a fresh pack of at most 64 cards) deals a uniform undealt
    position of ``deck`` by rejection against the mask ``dmask`` of positions dealt
    (:func:`simkit.core.rng.draw_index`; the pack is never permuted).  Otherwise ``perm[:p]`` is
    dealt, the round's cards are ``perm[rs:p]`` and ``perm[:rs]`` the talia's spent cards, and
    the next card is a uniform draw from ``perm[p:]`` swapped to ``p``; a spent pack is refilled
    from the spent cards (line 96) when ``reshuffle``.

    The records' arrays are taken off them here, once a unit, and reach the phases of a round
    as arguments (:mod:`simkit.core.jit`, rule 2): :func:`play_round` deals and plays the
    round's cards (the deal's 31s by :func:`dealt_31s`, each punter's buy by :func:`buys`, the
    pack's next card in its loop), :func:`settle` pays.  A hand is packed (:data:`HAND`)."""
    s_kind, s_t, s_soft, s_q, s_p = S.kind, S.t, S.soft, S.q, S.p
    value, info, perm, deck, tmp = R.value, R.info, W.perm, W.deck, W.tmp
    deck_info = W.deck_info
    hand, status, held, cls, delta = W.hand, W.status, W.held, W.classes, W.delta
    stacked = W.stacked
    T = R.stakes
    n = deck.shape[0]
    masked = not R.talia and n <= 64
    talia = R.talia
    reshuffle = R.reshuffle
    counting = S.counting
    if not masked:
        for x in range(n):
            perm[x] = deck[x]
    if talia:
        for vc in range(NV):
            cls[0, vc] = 0
    if logged:
        for x in range(log.shape[1]):
            log[i, x] = -1
    p, s, u, q = 0, key, ukey, 0
    rounds = 0
    cards = 0
    while True:
        rc, p, rs, s, u, q, resh, dealt31, left = play_round(
            T, s_kind, s_t, s_soft, s_q, s_p, counting, value, info, deck, deck_info, perm, tmp,
            hand, status, held, cls, delta, v, log, masked, stacked, reshuffle, logged, i, rounds,
            p, s, u, q)
        cards += rc
        settle(T, hand, status, delta, v, dealt31, left, resh)
        if talia:                         # the round's cards are seen and spent
            for y in range(rs, p):
                cls[0, value[perm[y]] - 1] += 1
        rounds += 1
        if not talia or resh or n - p < R.min_cards:
            break
    v[M.rounds] = rounds
    return cards


# 30 parameters: the round's arrays are arguments (the strategies' five per-seat arrays among
# them, ``s_*``), taken off the records once a unit
# (core/jit.py rule 2; the notes above play_unit: read off the records in the round's helpers,
# their counts were most of a round's time), and the pack's
# state (p, s, u, q) comes in and goes back as scalars; T is the scalar rules (Stakes)
@njit(cache=True, nogil=True, inline="always")
def play_round(T, s_kind, s_t, s_soft, s_q, s_p, counting, value, info, deck, deck_info, perm,
               tmp, hand, status, held, cls, delta, v, log, masked, stacked, reshuffle, logged,
               i, rounds, p, s, u, q):
    """One round's cards, from the pack position ``p`` (generator states ``s`` for the pack and
    ``u`` for the random punters, log cursor ``q``); returns ``(cards, p, rs, s, u, q,
    reshuffled, dealt31, left)``: ``rs`` where the round's cards start in ``perm``, whether the
    banker was dealt 31, how many punters were left in for him.

    A round is one loop over its cards: ``t`` counts the turns of the deal (one card at a time
    to p1..pK and the banker, three times, line 90); after them ``x`` is the seat whose turn it
    is, each punter buying while he wants (line 93), then the banker drawing (line 94).  A pack
    that gives no card (``stop``) makes the seat on turn stand."""
    K = T.punters
    n = deck.shape[0]
    ndeal = 3 * (K + 1)
    rs = p
    dmask = np.uint64(0)
    for x in range(K + 1):
        hand[x] = 0
        status[x] = IN
    for x in range(K):
        delta[x] = 0.0
    resh = False
    dealt31 = False                       # the banker is dealt 31 (line 92)
    left = 0                              # punters still in when the banker's turn comes
    cards = 0
    t = 0
    x = 0
    stop = False
    while True:
        if t < ndeal:                     # the deal
            to = x
            x = 0 if x == K else x + 1
            t += 1
        else:
            if t == ndeal:                # the deal is done: the 31s (line 92)
                t += 1
                dealt31 = dealt_31s(T, hand, status, delta, v)
                if dealt31:
                    break
            hv = hand[x]
            h = hv & HARD
            if x < K:                     # punter x buys (line 93)
                yes = False
                if status[x] == IN and not stop and h <= 31 and hv >> CARDS < MAXH:
                    yes, u = buys(x, hv, s_kind[x], s_t[x], s_soft[x], s_q[x], s_p[x],
                                  counting, cls, held, value, u)
                if not yes:
                    if status[x] == IN:
                        if h > 31:                            # pays 2 at once
                            status[x] = BUST
                            delta[x] = -T.bust_pays
                            v[seat_slot(Q.bust, NQ, x)] += 1.0
                            v[seat_slot(Q.loss, NQ, x)] += 1.0
                        else:
                            left += 1
                    x += 1
                    stop = False
                    continue
            elif left == 0 or stop or not banker_draws(hv, T.banker_stand, T.banker_soft) \
                    or h > 31:
                break                     # the banker draws only while some punter is in
            to = x
        c = -1                            # the next card of the pack, to seat `to`, and what it
        ci = 0                            # adds to a hand
        if masked:
            if p < n:
                j, s, dmask = draw_index(s, dmask, n, stacked)
                c = np.int64(deck[j])
                ci = deck_info[j]
                p += 1
        else:
            if p >= n and reshuffle and rs > 0:
                m = n - rs                # the cards on the table go to the front
                for y in range(m):
                    tmp[y] = perm[rs + y]
                for y in range(rs):
                    tmp[m + y] = perm[y]
                for y in range(n):
                    perm[y] = tmp[y]
                p, rs, resh = m, 0, True
                for vc in range(NV):
                    cls[0, vc] = 0
                if logged:
                    q = put_next(log, i, q, E_RESHUFFLE, 0, rounds, 0)
            if p < n:
                c, s = deal_step(perm, p, n, s, stacked)
                c = np.int64(c)
                ci = info[c]
                p += 1
        if ci == 0:
            stop = t > ndeal              # in the deal the seat just gets no card
            continue
        cards += 1
        if counting:
            held[to, hand[to] >> CARDS] = c
        hand[to] += ci
        if logged:
            q = put_next(log, i, q, E_DEAL if t <= ndeal else E_DRAW, to, rounds, c)
    return cards, p, rs, s, u, q, resh, dealt31, left


@njit(cache=True, nogil=True, inline="always")
def dealt_31s(T, hand, status, delta, v):
    """The deal is done (line 92): whether the banker holds 31 (he then collects, in
    :func:`settle`); if not, each punter dealt 31 is paid at once."""
    K = T.punters
    if hand[K] >> CARDS == 3 and hand_best(hand[K]) == 31:
        return True
    for k in range(K):
        if hand[k] >> CARDS == 3 and hand_best(hand[k]) == 31:
            status[k] = PAID
            delta[k] = T.stake31
            v[seat_slot(Q.dealt31, NQ, k)] += 1.0
            v[seat_slot(Q.win, NQ, k)] += 1.0
    return False


# 12 parameters: a punter's strategy comes as his five scalars (core/jit.py rule 2: a per-move
# helper gets no record), beside the arrays the count reads and the random punters' state
@njit(cache=True, nogil=True, inline="always")
def buys(x, hv, kd, t, soft, q, chance, counting, cls, held, value, u):
    """Whether punter ``x``, in with the packed hand ``hv`` (hard total within 31), buys a card
    (line 93) by his strategy (his fields of :class:`Policies`: kind ``kd``, ``t``, ``soft``,
    ``q``, ``chance``: random's ``p``), and the random punters' generator
    state ``u`` after.  A counting punter's bust chance is computed from the cards he has not
    seen (the talia's spent ones ``cls[0]`` and his own ``held[x]`` off the pack's ``cls[1]``),
    here and not by a helper that could raise (the comment above :func:`play_unit`)."""
    h = hv & HARD
    b = hand_best(hv)
    if kd == K_RANDOM:
        coin, u = uniform(u)
        return coin < chance, u
    if b != h:                                    # soft: an ace counted 11
        return b < soft, u
    if counting and kd == K_COUNT:
        need = 32 - h
        num = 0
        den = 0
        for vc in range(NV):
            w = cls[1, vc] - cls[0, vc]
            for y in range(hv >> CARDS):
                w -= value[held[x, y]] - 1 == vc
            den += w
            num += w if vc + 1 >= need else 0
        pbust = 0.0 if need > 10 else (num / den if den > 0 else 1.0)
        return b < 31 and pbust < q, u
    return b < t, u


@njit(cache=True, nogil=True, inline="always")
def settle(T, hand, status, delta, v, dealt31, left, resh):
    """The round's settlement: the banker dealt 31 collects (line 92), else each punter still in
    against the banker's total (line 94); the payments into the punters' and the bank's nets."""
    K = T.punters
    if dealt31:                           # line 92: the banker collects
        v[M.banker_dealt31] += 1.0
        v[M.banker_total] += 31.0
        for k in range(K):
            if hand[k] >> CARDS == 3 and hand_best(hand[k]) == 31:
                v[seat_slot(Q.dealt31, NQ, k)] += 1.0
                if T.both31_push:
                    v[seat_slot(Q.push, NQ, k)] += 1.0
                else:
                    delta[k] = T.stake31
                    v[seat_slot(Q.win, NQ, k)] += 1.0
            else:
                delta[k] = -T.stake31
                v[seat_slot(Q.loss, NQ, k)] += 1.0
    else:
        h = hand[K] & HARD
        bt = hand_best(hand[K])
        if left == 0:
            v[M.banker_idle] += 1.0
            v[M.banker_total] += bt
        else:                             # line 94
            if h > 31:
                v[M.banker_bust] += 1.0
                v[M.banker_total] += 32.0
            else:
                v[M.banker_total] += bt
            for k in range(K):
                if status[k] != IN:
                    continue
                pt = hand_best(hand[k])
                if h > 31:
                    delta[k] = T.banker_bust_pays
                    v[seat_slot(Q.win, NQ, k)] += 1.0
                elif pt > bt:
                    delta[k] = T.showdown_pays
                    v[seat_slot(Q.win, NQ, k)] += 1.0
                elif pt < bt:
                    delta[k] = -T.showdown_pays
                    v[seat_slot(Q.loss, NQ, k)] += 1.0
                else:
                    v[seat_slot(Q.push, NQ, k)] += 1.0
    bank = 0.0
    for k in range(K):
        v[seat_slot(Q.result, NQ, k)] += delta[k]
        bank -= delta[k]
    v[M.bank_result] += bank
    if resh:
        v[M.reshuffles] += 1.0


# A unit allocates nothing, so it runs without numba's reference counting (core/jit.py rule 3):
# its phases are inlined functions given the round's arrays, and each such argument was counted
# in and out at every card (measured: a talia took 6.6x as long with the counts, bench_commits).
@njit(cache=True, nogil=True, **NO_REFCOUNT)
def play_plain(R, S, W, i, key, ukey, v, log):
    return play_unit(R, S, W, i, key, ukey, v, log, False)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def play_logged(R, S, W, i, key, ukey, v, log):
    return play_unit(R, S, W, i, key, ukey, v, log, True)


INFO52 = card_info()[C.deck(52, 1)]    # pack()'s cards in order, a constant of round_coded


@njit(cache=True, nogil=True, inline="always")
def round_coded(T, S, hand, key, K):
    """A round from one fresh pack where every punter plays ``stand_at``, as :func:`play_unit`
    plays it (the same cards in the same order, the same decisions), written straight and
    ending in outcome codes (:func:`coded_table`) for :func:`simkit.core.deals.coded_loop`:
    ``(cards, code word, the bank's net)``.  It reads the scalar rules ``T`` (:class:`Stakes`),
    the thresholds of the strategies ``S`` (:class:`Thresholds`), the hands' buffer ``hand`` and the constant
    :data:`INFO52` only.  ``K`` is a literal for one punter (the loops then unroll).
    ``tests/test_thirty_one_bank.py`` holds it equal to :func:`play_unit`, row by row, on
    random rounds of many rules."""
    s = key
    dmask = np.uint64(0)
    for x in range(K + 1):
        hand[x] = 0
    for r in range(3):                    # one card at a time to p1..pK and the banker (l. 90)
        for x in range(K + 1):
            j, s, dmask = draw_index(s, dmask, 52, False)
            hand[x] += INFO52[j]
    p = 3 * (K + 1)
    bank = 0.0
    word = 0
    if hand_best(hand[K]) == 31:          # the banker collects (line 92)
        word = B_DEALT31 << (CODE_BITS * K)
        for k in range(K):
            if hand_best(hand[k]) != 31:
                word |= LOST31 << (CODE_BITS * k)
                bank += T.stake31
            elif T.both31_push:
                word |= PUSH31 << (CODE_BITS * k)
            else:
                bank -= T.stake31         # PAID31 is code 0
        return p, word, bank
    left = 0
    for k in range(K):                    # each punter buys (line 93)
        hv = hand[k]
        if hand_best(hv) == 31:           # paid at once
            bank -= T.stake31
            continue
        t = (S.hard >> (6 * k)) & 63
        soft = (S.soft >> (6 * k)) & 63
        while p < 52 and hv >> CARDS < MAXH:
            h = hv & HARD
            if h > 31:
                break
            b = hand_best(hv)
            if not b < (soft if b != h else t):
                break
            j, s, dmask = draw_index(s, dmask, 52, False)
            hv += INFO52[j]
            p += 1
        hand[k] = hv
        if hv & HARD > 31:                # pays at once
            word |= P_BUST << (CODE_BITS * k)
            bank += T.bust_pays
        else:
            word |= CODE_MASK << (CODE_BITS * k)      # still in
            left += 1
    hv = hand[K]
    if left == 0:
        return p, word | ((B_IDLE + hand_best(hv)) << (CODE_BITS * K)), bank
    while p < 52 and banker_draws(hv, T.banker_stand, T.banker_soft) and hv & HARD <= 31:  # 94
        j, s, dmask = draw_index(s, dmask, 52, False)
        hv += INFO52[j]
        p += 1
    bt = hand_best(hv)
    bust = hv & HARD > 31
    word |= (B_BUST if bust else bt) << (CODE_BITS * K)
    for k in range(K):
        if (word >> (CODE_BITS * k)) & CODE_MASK == CODE_MASK:
            pt = hand_best(hand[k])
            if bust:
                c, pay = WIN_BUST, T.banker_bust_pays
            elif pt > bt:
                c, pay = WIN, T.showdown_pays
            elif pt == bt:
                c, pay = PUSH, 0.0
            else:
                c, pay = LOSS, -T.showdown_pays
            word ^= (CODE_MASK ^ c) << (CODE_BITS * k)
            bank -= pay
    return p, word, bank


@njit(cache=True, nogil=True, inline="always")
def play_coded1(T, S, hand, i, key, ukey, log):
    return round_coded(T, S, hand, key, 1)


@njit(cache=True, nogil=True, inline="always")
def play_coded(T, S, hand, i, key, ukey, log):
    return round_coded(T, S, hand, key, T.punters)


@njit(cache=True, nogil=True)
def coded(R, S, W):
    """Whether :func:`run_deals` plays a run without a log by :func:`round_coded`: rounds from
    one fresh pack, every punter at a threshold."""
    return not R.talia and W.standard and S.thresholds


@njit(cache=True, nogil=True)
def run_deals(R, S, W, state, n, acc, rows, log):
    """``n`` units (rounds or talias): a run without a log that :func:`coded` admits by
    :func:`run_coded` (the default, and what the benchmark times); a logged run, a talia, a
    stacked deck, more packs and the other strategies by :func:`run_general`."""
    if log.shape[0] == 0 and coded(R, S, W):
        return run_coded(R, S, W, state, n, acc, rows, log)
    return run_general(R, S, W, state, n, acc, rows, log)


@njit(cache=True, nogil=True)
def run_coded(R, S, W, state, n, acc, rows, log):
    """``n`` rounds by :func:`round_coded` on :func:`simkit.core.deals.coded_loop` (only where
    :func:`coded` holds).  The per-round function is given the scalar rules ``R.stakes`` for
    the rules record, the scalar :class:`Thresholds` for the strategy record and the hands'
    buffer for the work record."""
    th = Thresholds(S.hard_bits, S.soft_bits)
    if R.stakes.punters == 1:
        return coded_loop(play_coded1, SALT, R.stakes, th, W.hand, state, n, acc, rows, log,
                          R.outcome, M.bank_result, CODE_BITS)
    return coded_loop(play_coded, SALT, R.stakes, th, W.hand, state, n, acc, rows, log,
                      R.outcome, M.bank_result, CODE_BITS)


@njit(cache=True, nogil=True)
def run_general(R, S, W, state, n, acc, rows, log):
    """``n`` units by :func:`play_unit` on the core deal loop, whatever the rules (the reference
    :func:`run_coded` is tested against)."""
    if log.shape[0] > 0:
        return deal_loop(play_logged, SALT, R, S, W, state, n, acc, rows, log)
    return deal_loop(play_plain, SALT, R, S, W, state, n, acc, rows, log)


__all__ = ["BOTH31", "SHORT", "UNITS"]
