"""Stovkahra kernels: deal (shuffled, or gathered and cut), declare, play, say "dost" and score
whole units (a deal, a game to 100, a series to ten brčka).  Rules:
:mod:`simkit.games.stovkahra.rules`.

Hands are ``uint64`` card masks (:mod:`simkit.core.cards` codes, ranks 7..14: Over = Q, Under
= J); tricks use the shared engine :mod:`simkit.engines.tricks` with ``follow``,
``must_trump`` and ``must_beat`` (lines 216-217).  Seats 0..3 are p1..p4 clockwise; side
``k & 1``.

Cards: a unit takes one key; its splitmix sequence shuffles the pack before a game's first deal
(every deal with ``dealing=shuffle``) and draws the cuts.  With ``unit=deal`` a deal's cards
depend on its key alone (common random numbers); in a game the later deals follow from the play
of the earlier ones, as at the table.  Strategies' coin flips come from ``key ^ STRAT_SALT``.

The move log (:func:`log_columns`) is one row per unit: ``HEAD_COLUMNS`` then one block of
:data:`BLOCK_W` per deal (up to :func:`log_deals`) of the house's events
(:mod:`simkit.engines.moves`: ``kind << 20 | seat << 16 | aux << 8 | card``, kinds
:data:`KINDS`; :func:`log_deal`), padded with -1: the game's and deal's numbers, the cut, the
pack as dealt (after the cut, top first), the declared ranks, the cards in playing order, the
claim, the scores and the game's winner.  :func:`deal_columns` reads a block back as the deal's
:data:`DEAL_COLUMNS`, which ``simkit replay`` and ``tests/stovkahra_reference.py`` read.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simkit.core.deals import deal_loop
from simkit.core.records import record, seat_slot, slots
from simkit.core.play import deal_blocks
from simkit.core.registry import Metric
from simkit.core.rng import bounded, shuffle_prefix, uniform
from simkit.engines.moves import put_next, put_value, values
from simkit.engines.tricks import (beats, bit, highest_code, lowest_code, must_beat_moves,
                                   natural_strength, points_table, popcount, random_card,
                                   seat_of, suit_mask, trick_rules)
from simkit.games.stovkahra.rules import (DEAL_ENDS, UNIT_DEAL, UNIT_SERIES, UNITS)

STRAT_SALT = np.uint64(0x8EBC6AF09C88C6E3)
NCARDS, TRICKS, SEATS = 32, 8, 4
ONE = np.uint64(1)
LANE = np.uint64(0x7F80)     # ranks 7..14 of one suit lane
ALL_CARDS = LANE | (LANE << np.uint64(16)) | (LANE << np.uint64(32)) | (LANE << np.uint64(48))
RANK_LANES = np.uint64(1 | (1 << 16) | (1 << 32) | (1 << 48))  # rank 0 of each suit: << rank
DECK = np.array([s * 16 + r for s in range(4) for r in range(7, 15)], np.int64)
CARD_POINTS = "A=6 K=5 Q=4 J=3"      # lines 189-192 and pagat.com (193-201 garbled)
LAST_TRICK = 6                       # line 213
SEVEN_MID, SEVEN_LAST, SEVEN_FIRST = 10, 26, 52  # line 213 (26 includes the last trick's 6)
# combinations (lines 203-211, reconstructed): rank -> points for three / four of it
COMBO3 = {14: 30, 10: 10, 7: 10, 13: 6, 12: 6, 11: 6}
COMBO4 = {14: 40, 10: 20, 7: 20, 13: 12, 12: 12, 11: 12}
# dealing 3-2-3 from the dealer's left (line 215): the seat offset (1 = eldest) of each position
OFFSETS = np.array([1 + p // 3 for p in range(12)] + [1 + (p - 12) // 2 for p in range(12, 20)]
                   + [1 + (p - 20) // 3 for p in range(20, 32)], np.int64) % 4

K_RANDOM, K_BASELINE = 0, 1

UNIT_NAMES = ["deals", "games", "unfinished", "played_out", "card_points", "dost", "dost_wrong"]
SIDE_NAMES = ["win", "brcka", "points", "cards", "combos", "seven_first", "seven_mid",
              "seven_last", "claims", "tricks"]
U = slots(UNIT_NAMES)
NU = len(UNIT_NAMES)
Q = slots(SIDE_NAMES, first=NU, step=4)   # p1's slots (p1_q .. p4_q side by side)

DOCS = {
    "deals": "deals played in the unit", "games": "games finished in the unit",
    "unfinished": "the unit hit max_deals and has no winner",
    "played_out": "deals played to the eighth trick (no dost)",
    "card_points": "card points + last trick of the played-out deals (78 each)",
    "dost": "'dost' said (correctly or not)", "dost_wrong": "'dost' said with under the target",
    "win": "the seat's side won the unit's game (series: the series)",
    "brcka": "brčka of the seat's side: won in the game (game, deal), held at the end (series)",
    "points": "points scored by the seat's side: cards, last trick, bonuses, combinations",
    "cards": "card points + last trick taken by the seat's side",
    "combos": "declared combination points of the seat's side",
    "seven_first": "first tricks the seat's side won with a seven (52)",
    "seven_mid": "middle tricks the seat's side won with a seven (10)",
    "seven_last": "last tricks the seat's side won with a seven (26)",
    "claims": "'dost' said by the seat's side", "tricks": "tricks won by the seat's side",
}
POINT_STEMS = {"card_points", "points", "cards", "combos"}

HEAD_COLUMNS = ["played", "games", "brcka0", "brcka1"]
H = slots(HEAD_COLUMNS)
NHEAD = len(HEAD_COLUMNS)
# a deal's block: the house's events (kinds KINDS, a kind's code its index + 1), read back by
# deal_columns as DEAL_COLUMNS
KINDS = ["GAME", "DEAL", "CUT", "PACK", "DECLARE", "PLAY", "CLAIM", "SCORE", "WIN", "HIGH"]
E_GAME, E_DEAL, E_CUT, E_PACK, E_DECLARE, E_PLAY, E_CLAIM, E_SCORE, E_WIN, E_HIGH = range(1, 11)
# the most events a deal writes: GAME and DEAL (each with a HIGH), CUT, the 32 cards of the pack,
# two declared ranks a seat (eight cards hold at most two threes or fours), the 32 cards played,
# CLAIM, the two scores (each with a HIGH) and WIN
BLOCK_W = 4 + 1 + NCARDS + 2 * SEATS + NCARDS + 1 + 4 + 1
DEAL_COLUMNS = (["game", "deal", "dealer", "cut", "trump", "decl0", "decl1", "decl2", "decl3",
                 "claimer", "claim_ok", "tricks", "score0", "score1", "winner", "brcka", "sub"]
                + [f"pack{j}" for j in range(NCARDS)] + [f"card{j}" for j in range(NCARDS)])
L = slots(DEAL_COLUMNS)       # a column of a deal as deal_columns reads it
DEAL_W = len(DEAL_COLUMNS)
LOG_COLUMNS = ["unit"] + DEAL_COLUMNS


def log_deals(rules) -> int:
    """Deal blocks in a unit's log row (a longer unit logs its first ones; ``played`` says all)."""
    return {"deal": 1, "game": 24, "series": 64}[rules.unit]


def log_columns(rules) -> list[str]:
    """``HEAD_COLUMNS``, then ``d{j}_e{k}``: the :data:`BLOCK_W` events of each logged deal."""
    return HEAD_COLUMNS + [f"d{j}_e{k}" for j in range(log_deals(rules)) for k in range(BLOCK_W)]


def deal_columns(block) -> list[int]:
    """A deal's block of events as the values of :data:`DEAL_COLUMNS` (trump: the suit of the
    pack's last card; tricks: the cards played over four; absent cut, claim, winner -1).  A block
    without a ``SCORE`` for each side is refused (the deal's events did not all fit)."""
    b = [0] * DEAL_W
    b[L.cut] = b[L.claimer] = b[L.claim_ok] = b[L.winner] = -1
    for j in range(NCARDS):
        b[L.card0 + j] = -1
    npack = nplay = nscore = 0
    for kind, seat, aux, card, value in values(block, E_HIGH):
        if kind == E_GAME:
            b[L.game] = value
        elif kind == E_DEAL:
            b[L.dealer], b[L.deal] = seat, value
        elif kind == E_CUT:
            b[L.cut] = aux
        elif kind == E_PACK:
            b[L.pack0 + npack] = card
            npack += 1
        elif kind == E_DECLARE:
            b[L.decl0 + seat] |= 1 << aux
        elif kind == E_PLAY:
            b[L.card0 + nplay] = card
            nplay += 1
        elif kind == E_CLAIM:
            b[L.claimer], b[L.claim_ok] = seat, aux
        elif kind == E_SCORE:
            b[L.score0 + seat] = value
            nscore += 1
        elif kind == E_WIN:
            b[L.winner], b[L.brcka], b[L.sub] = seat, aux, card
    if nscore != 2 or npack != NCARDS:
        raise ValueError("a Stovkahra deal's block of events lacks its pack or its scores")
    b[L.trump] = b[L.pack0 + NCARDS - 1] >> 4
    b[L.tricks] = nplay // SEATS
    return b


def deal_rows(log) -> np.ndarray:
    """Log rows (one per unit) as one row per logged deal (:data:`LOG_COLUMNS`,
    :func:`deal_columns`)."""
    rows = [[int(r[0])] + deal_columns(r[1:].tolist())
            for r in deal_blocks(log, NHEAD, BLOCK_W, H.played)]
    return np.array(rows, np.int64).reshape(-1, len(LOG_COLUMNS))


def metrics(rules) -> list[Metric]:
    per = {"deal": "deal", "game": "game", "series": "series"}[rules.unit]
    once = rules.unit == "deal"
    binary = {"win", "unfinished"} | ({"played_out", "dost", "dost_wrong", "seven_first",
                                        "seven_last", "claims"} if once else set())

    def unit(n):
        if n in binary:
            return f"share of {per}s (0..1)"
        if n == "brcka":
            return f"brčka per {per}"
        return ("game points" if n in POINT_STEMS else "count") + f" per {per}"
    out = [Metric(n, binary=n in binary, doc=DOCS[n], unit=unit(n)) for n in UNIT_NAMES]
    for q in SIDE_NAMES:
        for k in range(1, 5):
            out.append(Metric(f"p{k}_{q}", binary=q in binary,
                              doc=f"p{k} (side p{(k - 1) % 2 + 1}/p{(k - 1) % 2 + 3}): " + DOCS[q],
                              unit=unit(q)))
    return out


# --------------------------------------------------------------------------- records

class GameRules(NamedTuple):
    unit: int
    shuffle: bool              # dealing=shuffle
    sides: bool                # gather=sides
    min_cut: int
    rotate: bool
    target: int
    double_under: int
    sevens: bool
    deal_first: bool           # deal_end=first
    series_target: int
    max_deals: int
    strength: np.ndarray       # int64[2, 16]
    points: np.ndarray         # int64[2, 16]
    tricks: np.ndarray         # int64[8]
    offsets: np.ndarray        # int64[32]: seat offset from the dealer of each dealt position
    combo3: np.ndarray         # int64[16]
    combo4: np.ndarray         # int64[16]


class Seats(NamedTuple):
    """The seats' strategies (:mod:`simkit.games.stovkahra.strategies`): the house's record of
    per-seat arrays (:func:`simkit.core.records.seat_arrays`), p1's entry first."""
    kind: np.ndarray           # K_RANDOM or K_BASELINE
    d: np.ndarray
    lead_trumps: np.ndarray
    save_last: np.ndarray      # int 0/1
    save_first: np.ndarray     # int 0/1
    declare: np.ndarray        # int 0/1
    claim: np.ndarray          # int 0/1
    margin: np.ndarray
    subtract_at: np.ndarray


class Seat(NamedTuple):
    """One seat's strategy as the decisions read it: scalars (passed by value, no reference
    counts), read off :class:`Seats` once per unit by :func:`seat`."""
    kind: int
    d: float                   # random: chance of each optional act
    lead_trumps: int           # baseline: lead trumps holding at least this many
    save_last: bool            # keep the trump seven for the last trick
    save_first: bool           # trump the first trick with the trump seven when it wins so far
    declare: bool
    claim: bool
    margin: int                # say dost at side points + margin >= target
    subtract_at: int           # take brčka from the others when they hold at least this many


class Work(NamedTuple):
    deck: np.ndarray           # int64[32]: the sorted pack, or a stacked first deal
    stacked: bool
    cuts: np.ndarray           # int64[k]: fixed cuts of the later deals (tests); k = 0: drawn
    perm: np.ndarray           # int64[32]
    pack: np.ndarray           # int64[32]: the deal's pack, top first (after the cut)
    nextp: np.ndarray          # int64[32]: the gathered pack
    hands: np.ndarray          # uint64[4]
    played: np.ndarray         # int64[32]: cards in playing order
    twin: np.ndarray           # int64[8]: the seat that won each trick
    trick: np.ndarray          # int64[4]
    score: np.ndarray          # int64[2]: the game's scores
    brcka: np.ndarray          # int64[2]
    decl: np.ndarray           # int64[4]: declared ranks (bit r) per seat
    reach: np.ndarray          # int64[2]: event number when each side reached the target


def game_rules(rules) -> GameRules:
    c3 = np.zeros(16, np.int64)
    c4 = np.zeros(16, np.int64)
    for r, p in COMBO3.items():
        c3[r] = p
    for r, p in COMBO4.items():
        c4[r] = p
    return record(GameRules, unit=UNITS.index(rules.unit), shuffle=rules.dealing == "shuffle",
                  sides=rules.gather == "sides", min_cut=rules.min_cut, rotate=rules.rotate,
                  target=rules.target, double_under=rules.double_under,
                  sevens=rules.seven_bonuses, deal_first=rules.deal_end == DEAL_ENDS[0],
                  series_target=rules.series_target, max_deals=rules.max_deals,
                  strength=natural_strength(), points=points_table(CARD_POINTS),
                  tricks=trick_rules(follow=True, must_trump=True, must_beat=True),
                  offsets=OFFSETS, combo3=c3, combo4=c4)


def work(deck, stacked=False, cuts=None) -> Work:
    z = lambda k, t=np.int64: np.zeros(k, t)  # noqa: E731
    return record(Work, deck=np.asarray(deck, np.int64), stacked=bool(stacked),
                  cuts=np.asarray([] if cuts is None else cuts, np.int64), perm=z(NCARDS),
                  pack=z(NCARDS), nextp=z(NCARDS), hands=z(4, np.uint64), played=z(NCARDS),
                  twin=z(TRICKS), trick=z(4), score=z(2), brcka=z(2), decl=z(4), reach=z(2))


@njit(cache=True, nogil=True, inline="always")
def add_side(v, q, side, x):
    """Add ``x`` to side metric ``q`` (a :data:`Q` slot) under both of the side's seats."""
    v[seat_slot(q, 1, side)] += x
    v[seat_slot(q, 1, side + 2)] += x


# --------------------------------------------------------------------------- combinations

@njit(cache=True, nogil=True)
def combos_held(hand, combo3, combo4):
    """``(rank mask, points)`` of the combinations in ``hand`` (lines 203-211)."""
    m = np.int64(0)
    pts = np.int64(0)
    h = np.uint64(hand)
    for r in (14, 13, 12, 11, 10, 7):
        k = popcount(h & (RANK_LANES << np.uint64(r)))
        if k >= 3:
            m |= np.int64(1) << r
            pts += combo4[r] if k == 4 else combo3[r]
    return m, pts


# --------------------------------------------------------------------------- strategies

@njit(cache=True, nogil=True)
def coin(st, u):
    x, u = uniform(u)
    return x < st.d, u


@njit(cache=True, nogil=True)
def decide_declare(st, u):
    if st.kind == K_RANDOM:
        return coin(st, u)
    return st.declare, u


@njit(cache=True, nogil=True)
def decide_claim(st, total, target, u):
    """Say dost with side points ``total``?  Random: a coin, only when it would be right."""
    if st.kind == K_RANDOM:
        if total < target:
            return False, u
        return coin(st, u)
    return st.claim and total + st.margin >= target, u


@njit(cache=True, nogil=True)
def decide_subtract(st, others, u):
    if others <= 0:
        return False, u
    if st.kind == K_RANDOM:
        return coin(st, u)
    return others >= st.subtract_at, u


@njit(cache=True, nogil=True)
def pick(m, trump, strength, points, mode):
    """The card of non-empty mask ``m`` minimising (``mode`` 0) or maximising (1) its key:
    points * 16 + strength, trumps above everything (mode 0: cheapest; 1: most points),
    or (mode 2) the strongest by strength, trumps first; (mode 3) the weakest."""
    best, bk = -1, 0
    x = np.uint64(m)
    while x:
        c = lowest_code(x)
        x &= x - ONE
        it = 1 if (c >> 4) == trump else 0
        if mode <= 1:
            k = points[it, c & 15] * 16 + strength[it, c & 15] + it * 4096
        else:
            k = strength[it, c & 15] + it * 64
        if best < 0 or ((mode == 1 or mode == 2) and k > bk) or ((mode == 0 or mode == 3)
                                                                 and k < bk):
            best, bk = c, k
    return best


# 12 parameters: inlined into the deal's trick loop, it takes that loop's locals as they are (the
# seat's strategy record, hand, legal cards, the trick so far, trump, cards gone) and the two
# tables as arrays, not the rules record (see the docstring: a call per card cost a tenth)
@njit(cache=True, nogil=True, inline="always")
def choose_card(st, hand, legal, nt, wc, ours, trump, gone, t, strength, points, u):
    """A seat's card.  Random: uniform over ``legal``.  Baseline: see the strategies module.
    Inlined into the deal (measured: a call per card, with its two tables, cost about a tenth of
    the baseline's deals per second; inlining adds about 4 s to the kernel's compilation)."""
    if st.kind == K_RANDOM:
        return random_card(legal, u)
    t7 = bit(trump * 16 + 7)
    cand = legal
    if st.save_last and t < TRICKS - 1 and (legal & ~t7) != 0:
        cand = legal & ~t7
    T = suit_mask(trump)
    if nt == 0:
        trumps = hand & T
        if popcount(trumps) >= st.lead_trumps and (cand & T) != 0:
            return pick(cand & T, trump, strength, points, 2), u
        unseen = ALL_CARDS & ~gone & ~hand
        sure = np.uint64(0)
        for s in range(4):
            if s == trump:
                continue
            lane = suit_mask(s)
            mine = cand & lane
            if mine == 0:
                continue
            x = unseen & lane
            if x == 0:
                sure |= mine
            else:  # ranks rise with codes (natural order): the cards above the top unseen one
                top = highest_code(x)
                sure |= mine & ~((ONE << np.uint64(top + 1)) - ONE)
        if sure:
            return pick(sure, trump, strength, points, 1), u
        return pick(cand, trump, strength, points, 0), u
    if st.save_first and t == 0 and (legal & t7) != 0 and beats(trump * 16 + 7, wc, trump,
                                                                strength):
        return trump * 16 + 7, u
    win = np.uint64(0)
    x = cand
    while x:
        c = lowest_code(x)
        x &= x - ONE
        if beats(c, wc, trump, strength):
            win |= ONE << np.uint64(c)
    if win:
        # last to play: bank the most points; forced over the partner: the least; against the
        # opponents: the strongest plain winner, else the lowest trump that wins
        if nt == SEATS - 1:
            return pick(win, trump, strength, points, 1), u
        if ours:
            return pick(win, trump, strength, points, 3), u
        if (win & ~T) != 0:
            return pick(win & ~T, trump, strength, points, 2), u
        return pick(win, trump, strength, points, 3), u
    if ours:
        return pick(cand, trump, strength, points, 1), u         # smear points to the partner
    return pick(cand, trump, strength, points, 0), u


# --------------------------------------------------------------------------- the deal

@njit(cache=True, nogil=True)
def shuffle_pack(W, s):
    """A uniformly random pack into ``W.pack`` (a Fisher-Yates shuffle of ``W.deck``, so the
    cards depend on the stream ``s`` alone)."""
    perm = W.perm
    pack = W.pack
    deck = W.deck
    for j in range(NCARDS):
        perm[j] = deck[j]
    s = shuffle_prefix(perm, NCARDS, s)
    for j in range(NCARDS):
        pack[j] = perm[j]
    return s


@njit(cache=True, nogil=True)
def cut_pack(R, W, s, deal):
    """The gathered pack ``W.nextp`` cut into ``W.pack``: the top ``k`` cards go under.  Returns
    ``(k, s)``; ``k`` is ``W.cuts[deal - 1]`` when the test fixed it."""
    if W.cuts.shape[0] >= deal and deal > 0:
        k = W.cuts[deal - 1]
    else:
        j, s = bounded(s, NCARDS - 2 * R.min_cut + 1)
        k = R.min_cut + j
    pack = W.pack
    nextp = W.nextp
    for j in range(NCARDS):
        jj = j + k
        pack[j] = nextp[jj - NCARDS if jj >= NCARDS else jj]
    return k, s


@njit(cache=True, nogil=True)
def gather(R, W, dealer, ntr):
    """The tricks (and the hands left after a dost) picked up into ``W.nextp``, top first."""
    nextp = W.nextp
    played = W.played
    twin = W.twin
    hands = W.hands
    p = 0
    for pile in range(2 if R.sides else 1):
        side = (dealer + pile) & 1
        for t in range(ntr - 1, -1, -1):
            if R.sides and (twin[t] & 1) != side:
                continue
            for i in range(SEATS):
                nextp[p] = played[4 * t + i]
                p += 1
    for k in range(SEATS):
        x = hands[k]
        while x:
            c = lowest_code(x)
            x &= x - ONE
            nextp[p] = c
            p += 1


@njit(cache=True, nogil=True)
def play_deal(R, P, W, dealer, u, v, log, i, col):
    """One deal from ``W.pack``: declarations, tricks and dost.  Metrics into ``v``.
    Returns ``(claimer or -1, tricks played, event, u)``; ``event`` counts scoring moments."""
    pack = W.pack
    hands = W.hands
    played = W.played
    twin = W.twin
    trick = W.trick
    decl = W.decl
    strength = R.strength
    points = R.points
    offsets = R.offsets
    combo3 = R.combo3
    combo4 = R.combo4
    score = W.score
    reach = W.reach
    target = R.target
    sevens = R.sevens
    for k in range(SEATS):
        hands[k] = np.uint64(0)
        decl[k] = 0
    for p in range(NCARDS):
        k = (dealer + offsets[p]) & 3
        hands[k] |= ONE << np.uint64(pack[p])
    trump = pack[NCARDS - 1] >> 4
    event = 0
    # ---- combinations, eldest first (lines 203-211); a declarer may say dost (line 219)
    for j in range(1, SEATS + 1):
        k = (dealer + j) & 3
        m, pts = combos_held(hands[k], combo3, combo4)
        if m:
            yes, u = decide_declare(P[k], u)
            if yes:
                decl[k] = m
                add_side(v, Q.combos, k & 1, pts)
                add_side(v, Q.points, k & 1, pts)
                event += 1
                score[k & 1] += pts
                if score[k & 1] >= target and reach[k & 1] < 0:
                    reach[k & 1] = event
                yes, u = decide_claim(P[k], score[k & 1], target, u)
                if yes:
                    return k, 0, event, u
    # ---- the tricks (lines 216-217)
    leader = (dealer + 1) & 3
    gone = np.uint64(0)
    w = 0
    ws = leader
    for t in range(TRICKS):
        for j in range(SEATS):
            k = seat_of(leader, j, SEATS)
            h = hands[k]
            if j == 0:
                legal = h
            else:
                legal = must_beat_moves(h, trick[0] >> 4, trick[w], trump, strength)
            st = P[k]
            if st.kind == K_RANDOM:
                c, u = random_card(legal, u)
            else:
                c, u = choose_card(st, h, legal, j, trick[w], ((ws ^ k) & 1) == 0, trump, gone,
                                   t, strength, points, u)
            trick[j] = c
            if j == 0 or beats(c, trick[w], trump, strength):
                w = j
                ws = k
            played[4 * t + j] = c
            hands[k] = h & ~(ONE << np.uint64(c))
        side = ws & 1
        pts = 0
        for j in range(SEATS):
            c = trick[j]
            pts += points[1 if (c >> 4) == trump else 0, c & 15]
            gone |= ONE << np.uint64(c)
        cards = pts + (LAST_TRICK if t == TRICKS - 1 else 0)
        bonus = cards
        if sevens and (trick[w] & 15) == 7:
            if t == 0:
                bonus += SEVEN_FIRST
                add_side(v, Q.seven_first, side, 1)
            elif t == TRICKS - 1:
                bonus += SEVEN_LAST - LAST_TRICK
                add_side(v, Q.seven_last, side, 1)
            else:
                bonus += SEVEN_MID
                add_side(v, Q.seven_mid, side, 1)
        add_side(v, Q.cards, side, cards)
        add_side(v, Q.points, side, bonus)
        add_side(v, Q.tricks, side, 1)
        twin[t] = ws
        event += 1
        score[side] += bonus
        if score[side] >= target and reach[side] < 0:
            reach[side] = event
        if t == TRICKS - 1:
            v[U.played_out] += 1
            v[U.card_points] += 72 + LAST_TRICK
        yes, u = decide_claim(P[ws], score[side], target, u)
        if yes:
            return ws, t + 1, event, u
        leader = ws
    return -1, TRICKS, event, u


@njit(cache=True, nogil=True)
def settle(R, W, v, claimer):
    """The game's result after a deal: ``(winner side or -1, brčka, claim_ok)`` (lines 218-220)."""
    score = W.score
    T = R.target
    if claimer >= 0:
        side = claimer & 1
        v[U.dost] += 1
        add_side(v, Q.claims, side, 1)
        if score[side] >= T:
            return side, 2 if score[1 - side] < R.double_under else 1, 1
        v[U.dost_wrong] += 1
        return 1 - side, 2, 0
    r0 = score[0] >= T
    r1 = score[1] >= T
    if not (r0 or r1):
        return -1, 0, -1
    if r0 and r1:
        if R.deal_first or score[0] == score[1]:
            w = 0 if W.reach[0] < W.reach[1] else 1
        else:
            w = 0 if score[0] > score[1] else 1
    else:
        w = 0 if r0 else 1
    return w, 2 if score[1 - w] < R.double_under else 1, -1


# 14 parameters: the deal's values that play_unit holds as locals (the rest are read off W);
# called only for a logged deal
@njit(cache=True, nogil=True)
def log_deal(W, log, i, lp, game, deal, dealer, cut, claimer, ok, ntr, winner, brk, sub):
    """A played deal's events from position ``lp``: ``GAME`` (the game's number in the unit),
    ``DEAL`` (seat: the dealer; the deal's number in its game), ``CUT`` (aux: the cards cut;
    none for a shuffled pack), the pack top first (``PACK``: seat the receiver), the declared
    ranks (``DECLARE``: aux the rank), the cards played (``PLAY``: seat the player), ``CLAIM``
    (aux: good), each side's ``SCORE`` and ``WIN`` (seat: the winning side; aux the brčka, card
    1 when taken from the others)."""
    lp = put_value(log, i, lp, E_GAME, 0, game, E_HIGH)
    lp = put_value(log, i, lp, E_DEAL, dealer, deal, E_HIGH)
    if cut >= 0:
        lp = put_next(log, i, lp, E_CUT, 0, cut, 0)
    for j in range(NCARDS):
        lp = put_next(log, i, lp, E_PACK, (dealer + OFFSETS[j]) & 3, 0, W.pack[j])
    for k in range(SEATS):
        for r in range(16):
            if W.decl[k] >> r & 1:
                lp = put_next(log, i, lp, E_DECLARE, k, r, 0)
    leader = (dealer + 1) & 3
    for t in range(ntr):
        for j in range(SEATS):
            lp = put_next(log, i, lp, E_PLAY, seat_of(leader, j, SEATS), 0, W.played[4 * t + j])
        leader = W.twin[t]
    if claimer >= 0:
        lp = put_next(log, i, lp, E_CLAIM, claimer, ok, 0)
    for sd in range(2):
        lp = put_value(log, i, lp, E_SCORE, sd, W.score[sd], E_HIGH)
    if winner >= 0:
        put_next(log, i, lp, E_WIN, winner, brk, sub)


@njit(cache=True, nogil=True)
def seat(S, k):
    """Seat ``k``'s strategy off the :class:`Seats` record as a scalar :class:`Seat`."""
    return Seat(S.kind[k], S.d[k], S.lead_trumps[k], S.save_last[k] != 0, S.save_first[k] != 0,
                S.declare[k] != 0, S.claim[k] != 0, S.margin[k], S.subtract_at[k])


@njit(cache=True, nogil=True)
def play_unit(R, S, W, i, key, ukey, v, log):
    """One unit (a deal, a game or a series); returns the cards dealt.  The seats' strategies
    are read off ``S`` once, into the four scalar :class:`Seat` records ``P`` that the deal and
    the decisions take (``P[k]``: seat ``k``'s; ``simkit.core.jit`` rule 2)."""
    P = (seat(S, 0), seat(S, 1), seat(S, 2), seat(S, 3))
    s = key
    u = ukey
    score = W.score
    brcka = W.brcka
    brcka[0] = 0
    brcka[1] = 0
    nblocks = (log.shape[1] - NHEAD) // BLOCK_W if log.shape[0] > 0 else 0
    dealer = 3
    deals = 0
    games = 0
    winner = -1
    done = False
    while not done:
        score[0] = 0
        score[1] = 0
        W.reach[0] = -1
        W.reach[1] = -1
        gdeal = 0
        gidx = games
        winner = -1
        while True:
            cut = -1
            if deals == 0 and W.stacked:
                for j in range(NCARDS):
                    W.pack[j] = W.deck[j]
            elif gdeal == 0 or R.shuffle:
                s = shuffle_pack(W, s)
            else:
                cut, s = cut_pack(R, W, s, deals)
            col = NHEAD + deals * BLOCK_W if deals < nblocks else -1
            claimer, ntr, event, u = play_deal(R, P, W, dealer, u, v, log, i, col)
            deals += 1
            gdeal += 1
            winner, brk, ok = settle(R, W, v, claimer)
            sub = 0
            if winner >= 0:
                games += 1
                if R.unit == UNIT_SERIES:
                    yes, u = decide_subtract(P[winner], brcka[1 - winner], u)
                    if yes:
                        sub = 1
                        brcka[1 - winner] = max(0, brcka[1 - winner] - brk)
                    else:
                        brcka[winner] += brk
                else:
                    brcka[winner] += brk
            if col >= 0:
                log_deal(W, log, i, col, gidx, gdeal - 1, dealer,
                         cut, claimer, ok, ntr, winner, brk, sub)
            gather(R, W, dealer, ntr)
            if R.rotate:
                dealer = (dealer + 1) & 3
            if winner >= 0 or R.unit == UNIT_DEAL or deals >= R.max_deals:
                break
        if R.unit != UNIT_SERIES:
            done = True
        elif brcka[0] >= R.series_target or brcka[1] >= R.series_target:
            winner = 0 if brcka[0] >= R.series_target else 1
            done = True
        elif deals >= R.max_deals:
            winner = -1
            done = True
    v[U.deals] = deals
    v[U.games] = games
    if R.unit == UNIT_DEAL:
        if winner >= 0:
            add_side(v, Q.win, winner, 1)
            add_side(v, Q.brcka, winner, brcka[winner])
    elif winner < 0:
        v[U.unfinished] = 1
    else:
        add_side(v, Q.win, winner, 1)
        for sd in range(2):
            add_side(v, Q.brcka, sd, brcka[sd])
    if log.shape[0] > 0:
        log[i, H.played] = deals
        log[i, H.games] = games
        log[i, H.brcka0] = brcka[0]
        log[i, H.brcka1] = brcka[1]
    return deals * NCARDS


@njit(cache=True, nogil=True)
def run_deals(R, S, W, state, n, acc, rows, log):
    """``n`` units on the core deal loop (:mod:`simkit.core.deals`)."""
    return deal_loop(play_unit, STRAT_SALT, R, S, W, state, n, acc, rows, log)
