"""Piquet kernels: the deal, carte blanche, the exchange, declarations, repique and pique, the
twelve tricks (on :mod:`simkit.engines.tricks`: no trumps, follow suit), and the units (one deal,
a Rubicon partie, a game to a target).  Rules: :mod:`simkit.games.piquet.rules`.

Cards are :mod:`simkit.core.cards` codes ``suit*16 + rank`` (ranks 7..14); a hand is a ``uint64``
mask.  A deal's 32 cards come from one full Fisher-Yates shuffle from the deal's splitmix64
sequence (started at the unit's key), in the order Elder's 12, Younger's 12, the talon from its
top; a partie's next deal shuffles again from the same sequence.  Strategies' coin flips use a
second sequence at ``key ^ SALT``.  A stacked deck is given in that order (``prepare`` reorders
decks given in batches of two or three).

Roles: 0 is Elder, 1 Younger; seat ``eseat`` (0 = p1) is Elder in a deal.

The move log (:func:`log_columns`) is one ``int64`` row per unit, a flat stream of the house's
events (:mod:`simkit.engines.moves`: ``kind << 20 | seat << 16 | aux << 8 | card``, kinds
:data:`KINDS`), padded with -1: per deal ``DEAL`` (seat: Elder's), 32 ``DECK`` (the cards in the
order above), Elder's ``EDISC`` cards, Younger's ``YDISC`` cards (seat the discarder), ``DECL``
(aux: the classes each declares, Elder's bits 0-2, Younger's bits 3-5: point, sequence, set), the
24 ``PLAY`` cards in order (seat the player), and ``END`` (aux 1 when a game to the target
stopped in this deal).  ``tests/piquet_reference.py`` replays it.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simkit.core.bits import highest_code, lowest_code, nth_code, popcount
from simkit.core.deals import SALT, deal_loop
from simkit.core.records import record, seat_slot, slots
from simkit.engines.moves import put_next
from simkit.core.registry import Metric
from simkit.core.rng import bounded, shuffle_prefix
from simkit.engines.endgame import I, keep, memo, probe, store
from simkit.engines.tricks import follow_suit, suit_mask

ONE = np.uint64(1)
ZERO = np.uint64(0)
NCARDS = 32
K_RANDOM, K_BASELINE = 0, 1
KINDS = ["DEAL", "DECK", "EDISC", "YDISC", "DECL", "PLAY", "END"]
E_DEAL, E_DECK, E_EDISC, E_YDISC, E_DECL, E_PLAY, E_END = [i + 1 for i in range(len(KINDS))]
DEAL_WIDTH = 1 + 32 + 5 + 8 + 1 + 24 + 1
DECK = np.array([s * 16 + r for s in range(4) for r in range(7, 15)], np.int64)

_ALL = np.uint64(0)
for _c in DECK:
    _ALL |= np.uint64(1) << np.uint64(_c)
PIP = np.array([0] * 7 + [7, 8, 9, 10, 10, 10, 10, 11, 0], np.int64)   # by rank
SEQ_SCORE = {3: 3, 4: 4, 5: 15, 6: 16, 7: 17, 8: 18}
VOID_POINT_KEY = 5 * 512 + 101      # a point of five worth 50 1/2 (keys are 512 n + 2 pips)
VOID_SEQ_KEY = 2 * (5 * 16 + 13) + 1  # between the K-high quint (186) and the A-high (188)


def _lane_tables():
    """Per 8-bit suit holding (bit j = rank 7 + j): pips, best sequence key, sequence score,
    longest run."""
    pips = np.zeros(256, np.int64)
    skey = np.zeros(256, np.int64)
    sscore = np.zeros(256, np.int64)
    srun = np.zeros(256, np.int64)
    for m in range(256):
        pips[m] = sum(PIP[7 + j] for j in range(8) if m >> j & 1)
        run = 0
        for j in range(9):
            if j < 8 and m >> j & 1:
                run += 1
                continue
            if run >= 3:
                sscore[m] += SEQ_SCORE[run]
                skey[m] = max(skey[m], 2 * (run * 16 + 7 + j - 1))
            srun[m] = max(srun[m], run)
            run = 0
    return pips, skey, sscore, srun


PIPS, SKEY, SSCORE, SRUN = _lane_tables()


def _keep_tables():
    """The baseline's keep tables: ``high[rank * 9 + suit length]`` (A 12, a guarded K 8, else 3,
    a twice-guarded Q 5, else 1, J 2 in a four-card suit, 10 1) and ``runv[holding * 8 + j]``
    (2 per card of the run of 3+ holding rank 7 + j, 1 in a pair)."""
    high = np.zeros(16 * 9, np.int64)
    for n in range(9):
        high[14 * 9 + n] = 12
        high[13 * 9 + n] = 8 if n >= 2 else 3
        high[12 * 9 + n] = 5 if n >= 3 else 1
        high[11 * 9 + n] = 2 if n >= 4 else 0
        high[10 * 9 + n] = 1
    runv = np.zeros(256 * 8, np.int64)
    for m in range(256):
        for j in range(8):
            if not m >> j & 1:
                continue
            lo = hi = j
            while lo > 0 and m >> (lo - 1) & 1:
                lo -= 1
            while hi < 7 and m >> (hi + 1) & 1:
                hi += 1
            run = hi - lo + 1
            runv[m * 8 + j] = 2 * run if run >= 3 else (1 if run == 2 else 0)
    return high, runv


HIGH, RUNV = _keep_tables()


def _rank_masks():
    rm = np.zeros(16, np.uint64)
    for r in range(7, 15):
        for s in range(4):
            rm[r] |= ONE << np.uint64(16 * s + r)
    return rm


RANKMASK = _rank_masks()                             # uint64[16]: the four cards of each rank
PICTURES = RANKMASK[11] | RANKMASK[12] | RANKMASK[13]  # K Q J of every suit

UNIT_NAMES = ["draw", "rubicon", "deals", "elder_wins", "younger_wins", "deal_ties",
              "elder_margin", "carte_blanche", "pique", "repique", "capot",
              "elder_took", "younger_took", "dealt_longest", "dealt_run", "dealt_quatorze"]
SEAT_NAMES = ["win", "points", "elder"]
SHARES = ["carte_blanche", "pique", "repique", "capot"]
NAMES = (UNIT_NAMES + [f"p{k}_{q}" for q in SEAT_NAMES for k in (1, 2)] + ["p1_net"]
         + [f"{b}_share" for b in SHARES] + [f"_{b}_pts" for b in SHARES] + ["_all_pts"]
         + [f"_{b}_x" for b in SHARES])
M = slots("h" + n if n.startswith("_") else n for n in NAMES)
NMET = len(NAMES)

METRIC_DOCS = {
    "draw": "the unit ended level (a tied deal; a partie or game undecided at max_deals)",
    "rubicon": "the partie's loser failed to cross the Rubicon (scored under 100)",
    "deals": "deals played in the unit",
    "elder_wins": "deals in which Elder scored more than Younger",
    "younger_wins": "deals in which Younger scored more than Elder",
    "deal_ties": "deals in which both scored the same",
    "elder_margin": "Elder's points minus Younger's, summed over the unit's deals",
    "carte_blanche": "blanks claimed (either player)",
    "pique": "piques scored (+30, Elder)",
    "repique": "repiques scored (+60, either player)",
    "capot": "capots (all twelve tricks, +40)",
    "elder_took": "cards Elder exchanged, summed over the unit's deals",
    "younger_took": "cards Younger exchanged, summed over the unit's deals",
    "dealt_longest": "the longest suit of Elder's dealt hand (before the exchange), first deal",
    "dealt_run": "the longest run in one suit of Elder's dealt hand, first deal",
    "dealt_quatorze": "Elder's dealt hand holds four of a rank, ten or higher (first deal)",
    "win": "won the unit (a deal: scored more; a partie: the higher total; a game: reached the "
           "target first)",
    "points": "points scored over the unit's deals (before the partie's settlement)",
    "elder": "share of the unit's deals in which this seat was Elder (p1 is Elder first)",
    "net": "p1's result: a deal or game: p1's points minus p2's; a partie: the winner's score "
           "(100 + difference, or 100 + both totals if rubiconed), + for p1, - for p2",
    "carte_blanche_share": "share of all points scored that came from carte blanche (10s)",
    "pique_share": "share of all points scored that came from pique bonuses (30s)",
    "repique_share": "share of all points scored that came from repique bonuses (60s)",
    "capot_share": "share of all points scored that came from capots (40s)",
}


def metrics(rules) -> list[Metric]:
    per = {"deal": "deal", "partie": "partie", "game": "game"}[rules.unit]
    one = rules.unit == "deal"
    binary = {"draw", "rubicon", "p1_win", "p2_win", "dealt_quatorze"}
    if one:
        binary |= {"elder_wins", "younger_wins", "deal_ties", "pique", "repique", "capot",
                   "p1_elder", "p2_elder"}
    out = []
    for n in NAMES:
        base = n[3:] if n[:1] == "p" and n[2:3] == "_" else n
        if n.endswith("_share"):
            b = n[:-6]
            out.append(Metric(n, False, METRIC_DOCS[n], ratio=(f"_{b}_pts", "_all_pts", f"_{b}_x"),
                              unit="share of points (0..1)"))
            continue
        if n.startswith("_"):
            out.append(Metric(n, False, "helper column of the score shares"))
            continue
        doc = METRIC_DOCS[base]
        if n[:3] in ("p1_", "p2_"):
            doc = f"{n[:2]}: " + doc
        if n in binary:
            unit = f"share of {per}s (0..1)"
        elif base in ("points", "net", "elder_margin"):
            unit = f"points per {per}"
        elif base == "elder":
            unit = "share of deals (0..1)"
        elif base.startswith("dealt_"):
            unit = "cards"
        else:
            unit = f"count per {per}"
        out.append(Metric(n, n in binary, doc, unit=unit, net=n == "p1_net"))
    return out


def log_width(rules) -> int:
    return DEAL_WIDTH * (1 if rules.unit == "deal" else max(rules.max_deals, rules.partie_deals)) + 1


def log_columns(rules) -> list[str]:
    return [f"e{j}" for j in range(log_width(rules))]


# --------------------------------------------------------------------------- records

class GameRules(NamedTuple):
    unit: int                  # 0 deal, 1 partie, 2 game
    target: int
    partie_deals: int
    rubicon: int
    max_deals: int
    flat: bool                 # tricks=flat (line 198)
    void_suit: bool            # line 197
    pique_cards: bool
    # No arrays: the tables (RANKMASK, PICTURES, PIPS, SKEY, SSCORE, SRUN, HIGH, RUNV) are module
    # constants, compiled into the kernel.  Every array in a record passed to a function costs an
    # atomic reference count at each call (measured: 44% of a deal's time when the tables and the
    # work buffers rode in R and W through the trick loop's helpers).


class Seats(NamedTuple):
    """The strategies' record (:func:`simkit.core.records.seat_arrays`): one entry per seat, p1's
    first; a seat whose kind lacks a parameter holds the parameter's default (a random seat reads
    none of them).  The fields are :class:`Seat`'s, as arrays."""
    kind: np.ndarray
    take: np.ndarray
    ytake: np.ndarray
    ylow: np.ndarray
    w_high: np.ndarray
    w_point: np.ndarray
    w_seq: np.ndarray
    w_set: np.ndarray
    sink: np.ndarray
    run_long: np.ndarray
    keep_guards: np.ndarray
    exact: np.ndarray
    rubicon_push: np.ndarray
    push_need: np.ndarray
    push_w: np.ndarray
    safe_lead: np.ndarray


class Seat(NamedTuple):
    """One seat's values off :class:`Seats`, as scalars: what the per-move helpers are given
    (:mod:`simkit.core.jit`, rule 2), built by :func:`seat_of` once per chunk, and what
    :func:`posture` adjusts before each deal of a partie."""
    kind: int
    take: int                  # Elder: cards exchanged (1..5)
    ytake: int                 # Younger: cards exchanged at most (0..8)
    ylow: int                  # Younger exchanges only cards whose keep value is below this
    w_high: int                # keep weights: high cards and guards,
    w_point: int               # the length of the card's suit,
    w_seq: int                 # the run the card is in,
    w_set: int                 # the cards of its rank held (tens and higher)
    sink: int                  # declare a class only if it scores at least this
    run_long: bool             # lead winners from the longest suit, then its lowest card
    keep_guards: bool          # discard from unguarded suits without winners
    exact: int                 # exact play for the last this many tricks (0: never)
    # playing to the score (unit=partie only; 0: off, the play of version 2); see posture()
    rubicon_push: int          # the last this many deals of a partie: chase when behind
    push_need: int             # ... by more than this many points per deal left
    push_w: int                # chasing: added to w_seq and w_set (quints, quatorzes, repique)
    safe_lead: int             # the last rubicon_push deals, leading by this much: keep guards


class Work(NamedTuple):
    deck: np.ndarray           # int64[32] pack, or stacked deals (32 cards each, canonical order)
    stacked: bool
    perm: np.ndarray           # int64[32]
    order: np.ndarray          # int64[32]: the deal's cards
    vals: np.ndarray           # int64[64]: keep values by card code
    memo_key: np.ndarray       # uint64[size, 2], int64[size]: the exact solver's table
    memo_val: np.ndarray       # (simkit.engines.endgame; size 1 when no seat plays exact)


MEMO = 1 << 20


def game_rules(rules) -> GameRules:
    return record(GameRules, unit=["deal", "partie", "game"].index(rules.unit),
                  target=rules.target, partie_deals=rules.partie_deals, rubicon=rules.rubicon,
                  max_deals=rules.max_deals, flat=rules.tricks == "flat",
                  void_suit=rules.void_suit, pique_cards=rules.pique_cards)


def work(deck, stacked=False, exact=False) -> Work:
    keys, values = memo(MEMO if exact else 1, 2)
    return record(Work, deck=np.asarray(deck, np.int64), stacked=bool(stacked),
                  perm=np.zeros(NCARDS, np.int64), order=np.zeros(NCARDS, np.int64),
                  vals=np.zeros(64, np.int64), memo_key=keys, memo_val=values)


# --------------------------------------------------------------------------- card helpers

@njit(cache=True, nogil=True, inline="always")
def bit(c):
    return ONE << np.uint64(c)


@njit(cache=True, nogil=True, inline="always")
def lane(h, s):
    """Suit ``s`` of ``h`` as 8 bits (bit j: rank 7 + j)."""
    return np.int64((h >> np.uint64(16 * s + 7)) & np.uint64(0xFF))


@njit(cache=True, nogil=True, inline="always")
def random_of(m, u):
    k, u = bounded(u, popcount(m))
    return nth_code(m, k), u


# --------------------------------------------------------------------------- declarations

@njit(cache=True, nogil=True)
def declarations(void_suit, h):
    """``(point key, point score, sequence key, sequence score, set key, set score)`` of hand
    ``h`` (line 157; keys compare within a class, 0: nothing)."""
    pk = 0
    pn = 0
    qk = 0
    qs = 0
    void = False
    for s in range(4):
        m = lane(h, s)
        n = popcount(np.uint64(m))
        if n == 0:
            void = True
            continue
        k = 512 * n + 2 * PIPS[m]
        if k > pk:
            pk = k
            pn = n
        if SKEY[m] > qk:
            qk = SKEY[m]
        qs += SSCORE[m]
    if void and void_suit:
        if VOID_POINT_KEY > pk:
            pk = VOID_POINT_KEY
            pn = 5
        if VOID_SEQ_KEY > qk:
            qk = VOID_SEQ_KEY
        qs += 10
    tk = 0
    ts = 0
    for r in range(10, 15):
        c = popcount(h & RANKMASK[r])
        if c == 4:
            ts += 14
            tk = max(tk, 100 + r)
        elif c == 3:
            ts += 3
            tk = max(tk, r)
    return pk, pn, qk, qs, tk, ts


@njit(cache=True, nogil=True)
def declare_mask(st, pn, qs, ts, u):
    """The classes a seat declares (bits: point, sequence, set)."""
    if st.kind == K_RANDOM:
        k, u = bounded(u, 8)
        held = (1 if pn > 0 else 0) | (2 if qs > 0 else 0) | (4 if ts > 0 else 0)
        return k & held, u
    m = 0
    if pn > 0 and pn >= st.sink:
        m |= 1
    if qs > 0 and qs >= st.sink:
        m |= 2
    if ts > 0 and ts >= st.sink:
        m |= 4
    return m, u


# --------------------------------------------------------------------------- the exchange

@njit(cache=True, nogil=True)
def keep_values(st, h, vals):
    """The baseline's value of keeping each card of ``h`` (into ``vals`` by code)."""
    for s in range(4):
        m = lane(h, s)
        if m == 0:
            continue
        n = popcount(np.uint64(m))
        base = st.w_point * n
        x = m
        while x:
            j = lowest_code(np.uint64(x))
            x &= x - 1
            r = 7 + j
            hv = HIGH[r * 9 + n]
            rv = RUNV[m * 8 + j]
            sv = 0
            if r >= 10:
                k = popcount(h & RANKMASK[r])
                if k >= 2:
                    sv = k * k
            vals[16 * s + r] = st.w_high * hv + base + st.w_seq * rv + st.w_set * sv


@njit(cache=True, nogil=True)
def lowest_valued(h, vals, k, below):
    """The ``k`` cards of ``h`` of least value (all below ``below``; ties: the lower code)."""
    out = ZERO
    for _ in range(k):
        best = -1
        bv = below
        x = h & ~out
        while x:
            c = lowest_code(x)
            x &= x - ONE
            if vals[c] < bv:
                bv = vals[c]
                best = c
        if best < 0:
            break
        out |= bit(best)
    return out


@njit(cache=True, nogil=True)
def random_subset(h, k, u):
    out = ZERO
    for _ in range(k):
        c, u = random_of(h & ~out, u)
        out |= bit(c)
    return out, u


@njit(cache=True, nogil=True)
def choose_discard(st, h, elder, avail, u, vals):
    """The cards a seat exchanges out: Elder 1..min(5, avail), Younger 0..avail (line 155)."""
    if st.kind == K_RANDOM:
        if elder:
            k, u = bounded(u, min(5, avail))
            k += 1
        else:
            k, u = bounded(u, avail + 1)
        return random_subset(h, k, u)
    keep_values(st, h, vals)
    if elder:
        return lowest_valued(h, vals, min(st.take, avail), 1 << 40), u
    return lowest_valued(h, vals, min(st.ytake, avail), st.ylow), u


# --------------------------------------------------------------------------- trick play

# 14 parameters: inlined into play_one twice, it takes that deal's locals as they are (the seat,
# hand, role, talon position, coin-flip stream, buffers, move log and the player's seat for its
# events) rather than a record
@njit(cache=True, nogil=True, inline="always")
def exchange(st, h, elder, avail, top, u, vals, order, log, i, lp, logging, event, seat):
    """One player's exchange (line 155): his discard (logged as ``event`` by ``seat``), then as
    many cards from the talon, which starts at ``order[top]``.  ``(hand, discard, taken, u, lp)``."""
    d, u = choose_discard(st, h, elder, avail, u, vals)
    k = popcount(d)
    if logging:
        x = d
        while x:
            lp = put_next(log, i, lp, event, seat, 0, lowest_code(x))
            x &= x - ONE
    h &= ~d
    for j in range(k):
        h |= bit(order[top + j])
    return h, d, k, u, lp


@njit(cache=True, nogil=True, inline="always")
def highest(m):
    return np.int64(highest_code(m)) if m else -1


@njit(cache=True, nogil=True)
def winners(h, unknown):
    """The cards of ``h`` higher than every card of ``unknown`` in their suit."""
    out = ZERO
    for s in range(4):
        m = h & suit_mask(s)
        if m == ZERO:
            continue
        o = unknown & suit_mask(s)
        if o == ZERO:
            out |= m
        else:
            top = highest(o)
            y = m
            while y:
                c = lowest_code(y)
                y &= y - ONE
                if c > top:
                    out |= bit(c)
    return out


@njit(cache=True, nogil=True)
def longest_suit(h, among):
    """The suit of ``h`` with most cards among the suits of mask ``among`` (-1 if none)."""
    best = -1
    bn = 0
    for s in range(4):
        if among & suit_mask(s):
            n = popcount(h & suit_mask(s))
            if n > bn:
                bn = n
                best = s
    return best


@njit(cache=True, nogil=True, inline="always")
def guarded(h, s):
    """Suit ``s`` of ``h`` holds a guarded honour (K with one more, Q with two more)."""
    m = lane(h, s)
    n = popcount(np.uint64(m))
    return ((m >> 6) & 1 and n >= 2) or ((m >> 5) & 1 and n >= 3)


@njit(cache=True, nogil=True)
def choose_lead(st, h, unknown, u):
    if st.kind == K_RANDOM:
        return random_of(h, u)
    w = winners(h, unknown)
    if st.run_long:
        if w:
            s = longest_suit(h, w)
            return highest(w & suit_mask(s)), u
        s = longest_suit(h, h)
        return lowest_code(h & suit_mask(s)), u
    if w:
        return highest(w), u
    best = -1
    for s in range(4):
        x = h & suit_mask(s)
        if x:
            c = lowest_code(x)
            if best < 0 or (c & 15) < (best & 15):
                best = c
    return best, u


@njit(cache=True, nogil=True)
def choose_follow(st, h, led, unknown, u):
    legal = follow_suit(h, led >> 4)
    if st.kind == K_RANDOM:
        return random_of(legal, u)
    f = h & suit_mask(led >> 4)
    if f:
        x = f
        while x:                       # the cheapest card that wins, else the lowest
            c = lowest_code(x)
            x &= x - ONE
            if c > led:
                return c, u
        return lowest_code(f), u
    w = winners(h, unknown)
    best = -1
    bscore = 1 << 30
    for s in range(4):
        x = h & suit_mask(s)
        if x == ZERO:
            continue
        c = lowest_code(x)
        score = c & 15
        if st.keep_guards and ((x & w) or guarded(h, s)):
            score += 100
        if score < bscore:
            bscore = score
            best = c
    return best, u


# --------------------------------------------------------------------------- the exact endgame

_FF = np.uint64(0xFF)


@njit(cache=True, nogil=True, inline="always")
def squeeze(h):
    """The 32 card bits of a piquet hand."""
    return ((h >> np.uint64(7)) & _FF) | (((h >> np.uint64(23)) & _FF) << np.uint64(8)) | \
        (((h >> np.uint64(39)) & _FF) << np.uint64(16)) | (((h >> np.uint64(55)) & _FF) << np.uint64(24))


@njit(cache=True, nogil=True)
def trick_score(R, leader, winner, last, te, pq):
    """Elder's and Younger's points for one trick and the pique state after it: ``(dE, dY, pq)``.
    ``te``: Elder's tricks after this one; ``pq``: Elder's deal score while pique is still live,
    else -1.  With ``last``, the end bonuses (cards, capot; flat: 10 for last) are added."""
    d0 = 0
    d1 = 0
    if not R.flat:
        if leader == 0:
            d0 += 1
            if pq >= 0 and pq + d0 >= 30:
                d0 += 30
                pq = -1
        else:
            d1 += 1
            pq = -1
        if winner != leader:
            if winner == 0:
                d0 += 1
            else:
                d1 += 1
                pq = -1
        if last:
            if winner == 0:
                d0 += 1
            else:
                d1 += 1
                pq = -1
    else:
        if winner == 0:
            d0 += 1
        else:
            d1 += 1
            pq = -1
    if pq >= 0 and pq + d0 >= 30:
        d0 += 30
        pq = -1
    if pq >= 0:
        pq += d0
    if last:
        b0 = 0
        b1 = 0
        if te == 12:
            b0 = 40
        elif te == 0:
            b1 = 40
        elif R.flat:
            if winner == 0:
                b0 = 10
            else:
                b1 = 10
        elif te > 6:
            b0 = 10
        elif te < 6:
            b1 = 10
        d0 += b0
        d1 += b1
        if R.pique_cards and pq >= 0 and b0 > 0 and pq + b0 >= 30:
            d0 += 30
        pq = -1
    return d0, d1, pq


@njit(cache=True, nogil=True, inline="always")
def settle(R, he, hy, leader, te, pq, cl, cf):
    """One trick (leader ``cl``, follower ``cf``): ``(he, hy, winner, te, last, points, pq)``
    after it, ``points`` Elder's minus Younger's for the trick (and the end bonuses)."""
    winner = 1 - leader if ((cf >> 4) == (cl >> 4) and cf > cl) else leader
    if leader == 0:
        he2 = he & ~bit(cl)
        hy2 = hy & ~bit(cf)
    else:
        hy2 = hy & ~bit(cl)
        he2 = he & ~bit(cf)
    te2 = te + (1 if winner == 0 else 0)
    last = he2 == ZERO
    d0, d1, pq2 = trick_score(R, leader, winner, last, te2, pq)
    return he2, hy2, winner, te2, last, d0 - d1, pq2


@njit(cache=True, nogil=True)
def after_trick(R, W, he, hy, leader, te, pq, cl, cf):
    """The value (Elder's points minus Younger's, from this trick on) once leader played ``cl``
    and the follower ``cf``."""
    he2, hy2, winner, te2, last, d, pq2 = settle(R, he, hy, leader, te, pq, cl, cf)
    if last:
        return d
    return d + solve(R, W, he2, hy2, I(winner), I(te2), I(pq2))


@njit(cache=True, nogil=True)
def follow_value(R, W, he, hy, leader, te, pq, cl):
    """The value once the leader played ``cl``, the follower choosing best."""
    return exact_follow(R, W, he, hy, leader, te, pq, cl, -1, True)


@njit(cache=True, nogil=True)
def distinct(h, o):
    """One card of ``h`` for each run of its cards not separated by a card of ``o`` in the
    same suit (the lowest of the run): cards of such a run win and lose the same tricks, so the
    solver tries one of them."""
    out = ZERO
    for s in range(4):
        x = (h | o) & suit_mask(s)
        prev_mine = False
        while x:
            c = lowest_code(x)
            x &= x - ONE
            mine = (h & bit(c)) != ZERO
            if mine and not prev_mine:
                out |= bit(c)
            prev_mine = mine
    return out


@njit(cache=True, nogil=True)
def solve(R, W, he, hy, leader, te, pq):
    """The exact value of a position at a trick's start, both hands known (Elder ``he``, Younger
    ``hy``, ``leader`` 0/1 to lead, ``te`` Elder's tricks so far, ``pq`` Elder's deal score while
    pique is live else -1): Elder's points minus Younger's from here to the deal's end, Elder
    maximising, Younger minimising.  Memoised in ``W.memo_*`` (:mod:`simkit.engines.endgame`,
    keys of two words)."""
    if he == ZERO:
        return 0
    k0 = squeeze(he) | (squeeze(hy) << np.uint64(32))
    k1 = np.uint64(leader + 2 * te + 64 * (pq + 1)) | np.uint64(1 << 20)
    slot, found = probe(W.memo_key, W.memo_val, k0, k1, ZERO)
    if found:
        return W.memo_val[slot]
    lh = he if leader == 0 else hy
    fh = hy if leader == 0 else he
    best = -(1 << 30) if leader == 0 else 1 << 30
    x = distinct(lh, fh)
    while x:
        cl = lowest_code(x)
        x &= x - ONE
        inner = 1 << 30 if leader == 0 else -(1 << 30)
        y = distinct(follow_suit(fh, cl >> 4), lh)
        while y:
            cf = lowest_code(y)
            y &= y - ONE
            he2, hy2, winner, te2, last, v, pq2 = settle(R, he, hy, leader, te, pq, cl, cf)
            if not last:
                v += solve(R, W, he2, hy2, I(winner), I(te2), I(pq2))
            if leader == 0:
                if v < inner:
                    inner = v
            elif v > inner:
                inner = v
        if leader == 0:
            if inner > best:
                best = inner
        elif inner < best:
            best = inner
    return store(W.memo_key, W.memo_val, slot, k0, k1, ZERO, best)


@njit(cache=True, nogil=True)
def exact_lead(R, W, he, hy, leader, te, pq, pref):
    """An optimal lead: ``pref`` when it is optimal, else the lowest optimal card."""
    lh = he if leader == 0 else hy
    best = -(1 << 30) if leader == 0 else 1 << 30
    move = -1
    pv = 0
    x = lh
    while x:
        cl = lowest_code(x)
        x &= x - ONE
        v = follow_value(R, W, he, hy, I(leader), I(te), I(pq), I(cl))
        if cl == pref:
            pv = v
        if (leader == 0 and v > best) or (leader == 1 and v < best):
            best = v
            move = cl
    return keep(pref, pv, best, move)


@njit(cache=True, nogil=True)
def exact_follow(R, W, he, hy, leader, te, pq, cl, pref, value=False):
    """An optimal reply to ``cl``: ``pref`` when optimal, else the lowest optimal card (with
    ``value``: the position's value after the best reply instead)."""
    fh = hy if leader == 0 else he
    best = 1 << 30 if leader == 0 else -(1 << 30)
    move = -1
    pv = 0
    x = follow_suit(fh, cl >> 4)
    while x:
        cf = lowest_code(x)
        x &= x - ONE
        v = after_trick(R, W, he, hy, I(leader), I(te), I(pq), I(cl), I(cf))
        if cf == pref:
            pv = v
        if (leader == 0 and v < best) or (leader == 1 and v > best):
            best = v
            move = cf
    if value:
        return best
    return keep(pref, pv, best, move)


@njit(cache=True, nogil=True)
def position_value(R, W, he, hy, leader, te, pq):
    """:func:`solve` from Python (tests, bench)."""
    return solve(R, W, np.uint64(he), np.uint64(hy), I(leader), I(te), I(pq))


# --------------------------------------------------------------------------- the partie score

@njit(cache=True, nogil=True)
def posture(st, own, opp, left, elder, rubicon):
    """The seat record a baseline seat plays one deal of a Rubicon partie with, given its
    partie state: ``own`` and ``opp`` its and its opponent's running totals, ``left`` the deals
    left (this one included), ``elder`` whether it is Elder in this deal (lines 177-185: the
    winner scores 100 + the difference, or 100 + both totals when the loser stays under the
    Rubicon, so near the partie's end a deficit costs about 200 points at two thresholds: the
    opponent's total, and the Rubicon while under it).

    Within the last ``rubicon_push`` deals: a seat that needs more than ``push_need`` points per
    deal left (the points to overtake, or to reach the Rubicon if that is nearer while under it)
    chases: ``push_w`` is added to its sequence and set weights, so the exchange keeps the
    makings of quints, quatorzes and a repique over high cards; a seat leading by at least
    ``safe_lead`` (> 0) plays safe: it keeps guarded honours and winners when discarding
    (``keep_guards``), which lowers the risk of being capoted and of being caught.  With
    ``rubicon_push = 0`` the seat is returned unchanged.  ``elder`` is passed for the reading
    of the role (the same levers serve both roles here).  Only a partie gets a posture: a deal
    has no score before it, and a game to the target (line 179) has no deals left and no
    Rubicon.  No setting measured beats the baseline (:mod:`simkit.games.piquet.strategies`)."""
    if st.kind != K_BASELINE or st.rubicon_push == 0 or left > st.rubicon_push:
        return st
    if own > opp:
        if st.safe_lead > 0 and own - opp >= st.safe_lead and not st.keep_guards:
            return Seat(st.kind, st.take, st.ytake, st.ylow, st.w_high, st.w_point, st.w_seq,
                        st.w_set, st.sink, st.run_long, True, st.exact, st.rubicon_push,
                        st.push_need, st.push_w, st.safe_lead)
        return st
    need = opp - own + 1
    if own < rubicon and rubicon - own < need:
        need = rubicon - own
    if need > st.push_need * left and st.push_w > 0:
        return Seat(st.kind, st.take, st.ytake, st.ylow, st.w_high, st.w_point,
                    st.w_seq + st.push_w, st.w_set + st.push_w, st.sink, st.run_long,
                    st.keep_guards, st.exact, st.rubicon_push, st.push_need, st.push_w,
                    st.safe_lead)
    return st


# --------------------------------------------------------------------------- one deal

@njit(cache=True, nogil=True)
def repique(c0, c1):
    """Who scores a repique (0 Elder, 1 Younger, -1 nobody) from the class scores by role in
    the order blank, point, sequence, set (lines 164-167): the first to reach 30 from
    combinations while the other has scored nothing (``c0``, ``c1``: arrays or 4-tuples)."""
    r0 = 0
    r1 = 0
    for k in range(4):
        r0 += c0[k]
        if r0 >= 30 and r1 == 0:
            return 0
        r1 += c1[k]
        if r1 >= 30 and r0 == 0:
            return 1
    return -1


@njit(cache=True, nogil=True)
def partie_score(t0, t1, rubicon):
    """The Rubicon settlement for p1 of totals ``t0`` (p1) and ``t1`` (p2), unequal (lines
    181-184): ``(score, rubiconed)``; the winner scores 100 + the difference if the loser reached
    ``rubicon``, else 100 + both totals; the score is negative when p2 wins."""
    lo = min(t0, t1)
    hi = max(t0, t1)
    if lo >= rubicon:
        sc = 100 + hi - lo
        rub = False
    else:
        sc = 100 + hi + lo
        rub = True
    return (sc if t0 > t1 else -sc), rub


@njit(cache=True, nogil=True, inline="always")
def score(unit, target, eseat, role, pts, d0, d1, t0, t1):
    """Add ``pts`` to ``role``'s deal score (``d0`` Elder's, ``d1`` Younger's) and to its seat's
    total (``t0`` p1's, ``t1`` p2's): ``(game over, d0, d1, t0, t1)``; the game is over when a
    game to the target is reached (line 179).  Scores are scalars, not arrays: see
    :class:`GameRules`."""
    if role == 0:
        d0 += pts
    else:
        d1 += pts
    if (eseat if role == 0 else 1 - eseat) == 0:
        t0 += pts
        t = t0
    else:
        t1 += pts
        t = t1
    return unit == 2 and t >= target, d0, d1, t0, t1


# 11 parameters: the scores are scalars, not arrays (see score), so they go in and come out
@njit(cache=True, nogil=True, inline="always")
def credit(unit, target, eseat, role, pts, pq, counts, d0, d1, t0, t1):
    """Score ``pts`` for ``role`` in the play, then the pique (+30, lines 161-163): Younger
    scoring ends Elder's chance; Elder reaching 30 while it lasts (and ``counts``: these points
    count toward it) scores it.  Returns ``(game over, pique state, pique scored, d0, d1, t0,
    t1)``."""
    over, d0, d1, t0, t1 = score(unit, target, eseat, role, pts, d0, d1, t0, t1)
    if over:
        return True, pq, False, d0, d1, t0, t1
    if role == 1:
        return False, -1, False, d0, d1, t0, t1
    if counts and pq >= 0 and d0 >= 30:
        over, d0, d1, t0, t1 = score(unit, target, eseat, 0, 30, d0, d1, t0, t1)
        return over, -1, True, d0, d1, t0, t1
    return False, pq, False, d0, d1, t0, t1


@njit(cache=True, nogil=True)
def deal_cards(deck, stacked, perm, order, s, ptr):
    """The next deal's 32 cards into ``order``: ``(ok, s, ptr)``."""
    if stacked:
        if ptr + NCARDS > deck.shape[0]:
            return False, s, ptr
        for j in range(NCARDS):
            order[j] = deck[ptr + j]
        return True, s, ptr + NCARDS
    for j in range(NCARDS):
        perm[j] = j
    s = shuffle_prefix(perm, NCARDS - 1, s)
    for j in range(NCARDS):
        order[j] = deck[perm[j]]
    return True, s, ptr


@njit(cache=True, nogil=True, inline="always")
def dealt_hands(order):
    """Elder's and Younger's dealt hands: the first 12 cards of ``order``, the next 12."""
    he = ZERO
    hy = ZERO
    for j in range(12):
        he |= bit(order[j])
        hy |= bit(order[12 + j])
    return he, hy


@njit(cache=True, nogil=True, inline="always")
def dealt_shape(he, v):
    """The first deal's counts of Elder's dealt hand (before the exchange): its longest suit, its
    longest run in one suit, whether it holds four of a rank ten or higher."""
    longest = 0
    run = 0
    for s in range(4):
        m = lane(he, s)
        longest = max(longest, popcount(np.uint64(m)))
        run = max(run, SRUN[m])
    v[M.dealt_longest] = longest
    v[M.dealt_run] = run
    for r in range(10, 15):
        if popcount(he & RANKMASK[r]) == 4:
            v[M.dealt_quatorze] = 1


@njit(cache=True, nogil=True, inline="always")
def class_scores(void_suit, se, sy, he, hy, u):
    """The declarations after the exchange (line 157) and who scores each class (lines
    159-167): ``(a1, a2, a3, b1, b2, b3, declared, u)``, Elder's (``a``) and Younger's (``b``)
    scores for point, sequence and set (0 where the other's is better or the class is not
    declared), ``declared`` the logged classes (Elder's bits 0-2, Younger's 3-5)."""
    pk0, pn0, qk0, qs0, tk0, ts0 = declarations(void_suit, he)
    pk1, pn1, qk1, qs1, tk1, ts1 = declarations(void_suit, hy)
    m0, u = declare_mask(se, pn0, qs0, ts0, u)
    m1, u = declare_mask(sy, pn1, qs1, ts1, u)
    if not m0 & 1:
        pk0 = 0
    if not m1 & 1:
        pk1 = 0
    if not m0 & 2:
        qk0 = 0
    if not m1 & 2:
        qk1 = 0
    if not m0 & 4:
        tk0 = 0
    if not m1 & 4:
        tk1 = 0
    a1 = pn0 if pk0 > pk1 else 0
    b1 = pn1 if pk1 > pk0 else 0
    a2 = qs0 if qk0 > qk1 else 0
    b2 = qs1 if qk1 > qk0 else 0
    a3 = ts0 if tk0 > tk1 else 0
    b3 = ts1 if tk1 > tk0 else 0
    return a1, a2, a3, b1, b2, b3, m0 | (m1 << 3), u


@njit(cache=True, nogil=True, inline="always")
def take_trick(h0, h1, lr, cl, cf):
    """The trick's cards out of the hands by role (``lr`` led ``cl``, the other followed ``cf``)
    and its winner (line 169: the higher card of the suit led): ``(h0, h1, winner)``."""
    if lr == 0:
        h0 &= ~bit(cl)
        h1 &= ~bit(cf)
    else:
        h1 &= ~bit(cl)
        h0 &= ~bit(cf)
    w = 1 - lr if ((cf >> 4) == (cl >> 4) and cf > cl) else lr
    return h0, h1, w


@njit(cache=True, nogil=True, inline="always")
def trick_points(flat, lr, w, last):
    """The winner's points for a trick won (lines 171-173: 1 for winning the other's lead, 1
    more for the last trick; the lead's point is scored when led; flat: 1 a trick, line 198)."""
    if flat:
        return 1
    pts = 0
    if w != lr:
        pts += 1
    if last:
        pts += 1
    return pts


@njit(cache=True, nogil=True, inline="always")
def card_bonus(te, flat, leader):
    """The bonus after the twelfth trick (line 175; flat: 10 for last, line 198): ``(points,
    role)``, 40 for a capot (all twelve tricks), else 10 for the cards (more tricks), else 0."""
    if te == 12 or te == 0:
        return 40, (0 if te == 12 else 1)
    if flat:
        return 10, leader
    if te != 6:
        return 10, (0 if te > 6 else 1)
    return 0, 0


@njit(cache=True, nogil=True, inline="always")
def count_combinations(v, cb0, cb1, rep):
    """The deal's counts of blanks claimed (``cb0`` Elder, ``cb1`` Younger) and a repique
    (``rep`` >= 0: scored)."""
    v[M.carte_blanche] += (1 if cb0 else 0) + (1 if cb1 else 0)
    v[M.h_carte_blanche_pts] += (10 if cb0 else 0) + (10 if cb1 else 0)
    if rep >= 0:
        v[M.repique] += 1
        v[M.h_repique_pts] += 60


@njit(cache=True, nogil=True, inline="always")
def count_pique(v, pk):
    if pk:
        v[M.pique] += 1
        v[M.h_pique_pts] += 30


# 14 parameters: the three records, the deal's cards and keep-value buffer (W's, kept out of the
# trick loop's helpers: see GameRules), Elder's seat, first deal, the coin-flip stream, the
# unit's metric row, the move log's row and cursor, and the totals (scalars: see score)
@njit(cache=True, nogil=True)
def play_one(R, S, W, order, vals, eseat, first, u, v, log, i, lp, t0, t1):
    """One deal from ``order`` with seat ``eseat`` Elder, the unit's totals so far ``t0`` (p1)
    and ``t1`` (p2): ``(stopped, u, lp, d0, d1, t0, t1)``, the deal's scores by role and the
    totals after it; per-deal counts go to ``v``.  ``stopped``: a game to the target ended in
    this deal.  ``R`` and ``W`` are used only by the exact endgame."""
    unit = R.unit
    target = R.target
    flat = R.flat
    logging = log.shape[0] > 0
    d0 = 0
    d1 = 0
    he, hy = dealt_hands(order)
    if logging:
        lp = put_next(log, i, lp, E_DEAL, eseat, 0, 0)
        for j in range(NCARDS):
            lp = put_next(log, i, lp, E_DECK, 0, 0, order[j])
    if first:
        dealt_shape(he, v)
    se = S[eseat]
    sy = S[1 - eseat]
    # ---- carte blanche (line 153): claimed before the exchange
    cb0 = (he & PICTURES) == ZERO
    cb1 = (hy & PICTURES) == ZERO
    # ---- the exchange (line 155)
    he, de, ke, u, lp = exchange(se, he, True, 5, 24, u, vals, order, log, i, lp, logging,
                                 E_EDISC, eseat)
    hy, dy, ky, u, lp = exchange(sy, hy, False, 8 - ke, 24 + ke, u, vals, order, log, i, lp,
                                 logging, E_YDISC, 1 - eseat)
    v[M.elder_took] += ke
    v[M.younger_took] += ky
    # ---- declarations (line 157); class scores by role, in the order blank, point, sequence,
    # set (lines 159-167)
    a1, a2, a3, b1, b2, b3, declared, u = class_scores(R.void_suit, se, sy, he, hy, u)
    if logging:
        lp = put_next(log, i, lp, E_DECL, 0, declared, 0)
    a0 = 10 if cb0 else 0
    b0 = 10 if cb1 else 0
    rep = repique((a0, a1, a2, a3), (b0, b1, b2, b3))
    r1 = b0 + b1 + b2 + b3
    count_combinations(v, cb0, cb1, rep)
    pq = -1 if (rep >= 0 or r1 > 0) else 0
    # ---- scoring in time order: the blanks, Elder's combinations, ...
    if a0:
        stop, d0, d1, t0, t1 = score(unit, target, eseat, 0, a0, d0, d1, t0, t1)
        if stop:
            return True, u, lp, d0, d1, t0, t1
    if b0:
        stop, d0, d1, t0, t1 = score(unit, target, eseat, 1, b0, d0, d1, t0, t1)
        if stop:
            return True, u, lp, d0, d1, t0, t1
    e_c = a1 + a2 + a3 + (60 if rep == 0 else 0)
    if e_c:
        stop, d0, d1, t0, t1 = score(unit, target, eseat, 0, e_c, d0, d1, t0, t1)
        if stop:
            return True, u, lp, d0, d1, t0, t1
    y_c = b1 + b2 + b3 + (60 if rep == 1 else 0)
    if pq == 0:
        pq = d0
    # ---- the tricks (lines 169-175); hands by role h0 (Elder), h1 (Younger)
    h0 = he
    h1 = hy
    gone = ZERO
    leader = 0
    te = 0
    for t in range(12):
        left = 12 - t
        lr = leader
        ls = se if lr == 0 else sy
        fs = sy if lr == 0 else se
        pq0 = d0 if pq >= 0 else -1
        hl = h0 if lr == 0 else h1
        hf = h1 if lr == 0 else h0
        dl = de if lr == 0 else dy
        df = dy if lr == 0 else de
        cl, u = choose_lead(ls, hl, ~gone & ~hl & ~dl & _ALL, u)
        if ls.exact >= left:
            cl = exact_lead(R, W, h0, h1, I(lr), I(te), I(pq0), I(cl))
        if logging:
            lp = put_next(log, i, lp, E_PLAY, eseat ^ lr, 0, cl)
        if not flat:
            stop, pq, pk, d0, d1, t0, t1 = credit(unit, target, eseat, lr, 1, pq, True,
                                                   d0, d1, t0, t1)
            count_pique(v, pk)
            if stop:
                return True, u, lp, d0, d1, t0, t1
        if t == 0 and y_c:
            stop, d0, d1, t0, t1 = score(unit, target, eseat, 1, y_c, d0, d1, t0, t1)
            if stop:
                return True, u, lp, d0, d1, t0, t1
        cf, u = choose_follow(fs, hf, cl, ~gone & ~hf & ~df & _ALL & ~bit(cl), u)
        if fs.exact >= left:
            cf = exact_follow(R, W, h0, h1, I(lr), I(te), I(pq0), I(cl), I(cf))
        if logging:
            lp = put_next(log, i, lp, E_PLAY, eseat ^ lr ^ 1, 0, cf)
        h0, h1, w = take_trick(h0, h1, lr, cl, cf)
        gone |= bit(cl) | bit(cf)
        if w == 0:
            te += 1
        pts = trick_points(flat, lr, w, t == 11)
        if pts:
            stop, pq, pk, d0, d1, t0, t1 = credit(unit, target, eseat, w, pts, pq, True,
                                                   d0, d1, t0, t1)
            count_pique(v, pk)
            if stop:
                return True, u, lp, d0, d1, t0, t1
        leader = w
    # ---- cards and capot (line 175; flat: 10 for last, line 198)
    b, bw = card_bonus(te, flat, leader)
    if b == 40:
        v[M.capot] += 1
        v[M.h_capot_pts] += 40
    if b:
        stop, pq, pk, d0, d1, t0, t1 = credit(unit, target, eseat, bw, b, pq, R.pique_cards,
                                               d0, d1, t0, t1)
        count_pique(v, pk)
        if stop:
            return True, u, lp, d0, d1, t0, t1
    return False, u, lp, d0, d1, t0, t1


# --------------------------------------------------------------------------- the unit

@njit(cache=True, nogil=True)
def play_unit(R, S, W, i, key, ukey, v, log):
    """One unit: a deal, a partie or a game.  Returns the cards dealt."""
    s = key
    u = ukey
    ptr = 0
    lp = 0
    deck = W.deck
    stacked = W.stacked
    perm = W.perm
    order = W.order
    vals = W.vals
    t0 = 0
    t1 = 0
    deals = 0
    elder_deals0 = 0
    stopped = False
    unfinished = False
    if R.unit == 0:
        limit = 1
    elif R.unit == 1:
        limit = R.partie_deals
    else:
        limit = R.max_deals
    while True:
        ok, s, ptr = deal_cards(deck, stacked, perm, order, s, ptr)
        if not ok:
            unfinished = True
            break
        eseat = deals % 2
        if eseat == 0:
            elder_deals0 += 1
        S2 = S
        if R.unit == 1:                # the partie state reaches the decisions (posture)
            left = limit - deals
            S2 = (posture(S[0], t0, t1, left, eseat == 0, R.rubicon),
                  posture(S[1], t1, t0, left, eseat == 1, R.rubicon))
        stopped, u, lp, d0, d1, t0, t1 = play_one(R, S2, W, order, vals, eseat, deals == 0, u,
                                                  v, log, i, lp, t0, t1)
        if log.shape[0] > 0:
            lp = put_next(log, i, lp, E_END, 0, 1 if stopped else 0, 0)
        deals += 1
        if d0 > d1:
            v[M.elder_wins] += 1
        elif d1 > d0:
            v[M.younger_wins] += 1
        else:
            v[M.deal_ties] += 1
        v[M.elder_margin] += d0 - d1
        v[M.h_all_pts] += d0 + d1
        if stopped:
            break
        if deals >= limit:
            if R.unit == 1 and t0 == t1 and deals + 2 <= R.max_deals:
                limit += 2
                continue
            break
    if log.shape[0] > 0:
        for j in range(lp, log.shape[1]):
            log[i, j] = -1
    v[M.deals] = deals
    v[M.p1_points] = t0
    v[M.p2_points] = t1
    v[M.p1_elder] = elder_deals0 / max(deals, 1)
    v[M.p2_elder] = 1.0 - v[M.p1_elder] if deals else 0.0
    if R.unit == 2 and not stopped:
        unfinished = True
    if unfinished or t0 == t1:
        v[M.draw] = 1
        if R.unit != 1:
            v[M.p1_net] = t0 - t1
    else:
        w = 0 if t0 > t1 else 1
        v[seat_slot(M.p1_win, 1, w)] = 1
        if R.unit == 1:
            sc, rub = partie_score(t0, t1, R.rubicon)
            v[M.p1_net] = sc
            if rub:
                v[M.rubicon] = 1
        else:
            v[M.p1_net] = t0 - t1
    a = v[M.h_all_pts]
    for k in range(4):
        p = v[M.h_carte_blanche_pts + k]
        v[M.h_carte_blanche_x + k] = p * a
        v[M.carte_blanche_share + k] = p / a if a > 0 else 0.0
    return deals * NCARDS


@njit(cache=True, nogil=True)
def seat_of(S, k):
    """Seat ``k``'s :class:`Seat` off the strategies' record ``S`` (:class:`Seats`); ``exact``
    0 for a random seat (the record gives it a default of the baseline's kinds, which the play
    would otherwise read)."""
    return Seat(S.kind[k], S.take[k], S.ytake[k], S.ylow[k], S.w_high[k], S.w_point[k],
                S.w_seq[k], S.w_set[k], S.sink[k], S.run_long[k] != 0, S.keep_guards[k] != 0,
                S.exact[k] if S.kind[k] == K_BASELINE else 0, S.rubicon_push[k], S.push_need[k],
                S.push_w[k], S.safe_lead[k])


@njit(cache=True, nogil=True)
def run_deals(R, S, W, state, n, acc, rows, log):
    """``n`` units on the core deal loop (see :mod:`simkit.core.deals`); the seats' values are
    read off ``S`` once, into the pair of scalar :class:`Seat` records the deals read."""
    return deal_loop(play_unit, SALT, R, (seat_of(S, 0), seat_of(S, 1)), W, state, n, acc,
                     rows, log)
