"""Klaberjass kernels: deal, bid, declare, play and score whole units (a short game, or a long game
to 301/501) from an RNG stream.  Rules: :mod:`simkit.games.klaberjass.rules`.

A hand is a ``uint64`` card mask (:mod:`simkit.core.cards` codes ``suit*16 + rank``, ranks 7..14);
tricks use the shared engine :mod:`simkit.engines.tricks` (legal moves, trick winner, points).

The runner's "deal" is a unit: the kernel is :func:`run_deals`, the core deal loop
(:mod:`simkit.core.deals`) over :func:`play_unit`.  One unit takes one key from the chunk's
xoshiro stream.  Its deals (a short game's redeals, a long game's deals) draw their 20 cards in
turn from one splitmix64 sequence started at the key, with :func:`simkit.core.rng.draw_index` over
a fresh 32-card deck each time; since every deal draws exactly 20 cards, deal ``k`` of unit ``i``
is the same in every configuration (common random numbers for whole games).  The strategies' coin
flips come from a second sequence at ``key ^ STRAT_SALT`` (its first draw is the ``opener=lot``
coin, drawn whatever the option).

Reference counting: a phase takes the arrays it uses out of the records into locals once, at its
top (``hand = W.hand``), instead of writing ``W.hand[k]`` inside its loops; each ``W.x`` inside a
loop costs an atomic incref/decref pair per pass that numba does not prune (measured against the
pre-record kernel in one process, CPU time, best of 40: 0.82-0.84 of its speed with ``W.x[...]``
at the point of use, 0.97-1.00 with locals per phase).

The kernel reads the rules as the named record :class:`GameRules`, the seats' strategies as the
house's record of per-seat arrays :class:`Seats` (read once per unit into a pair of scalar
:class:`Seat` records, which the phases take: ``simkit.core.jit`` rule 2), and its buffers from
:class:`Work`; the records'
types never depend on the values, so sweeping a threshold or a rule never recompiles.  A unit is
played phase by phase: :func:`deal_cards` and :func:`first_six` (the deal), :func:`bidding` (both
rounds; two passes in both make a redeal), :func:`three_more` (the rest of the deal and the trump
seven's exchange), :func:`declarations`, :func:`play_tricks` (with "Партия!" claims),
:func:`count_deal`, :func:`settle_claim` or :func:`score_deal`, :func:`log_tail` and
:func:`unit_result`; :func:`play_unit` is the long game's loop over them.

Metrics (:func:`metrics`) are per unit: in the short game one played deal, in long games sums over
the game's deals (divide by ``deals`` for per-deal rates).  The move log (:func:`log_columns`) is
one ``int64`` row per unit: the number of played deals, then one block of :data:`BLOCK_W` per
played deal (up to the row's width) of the house's events (:mod:`simkit.engines.moves`:
``kind << 20 | seat << 16 | aux << 8 | card``, kinds :data:`KINDS`; :func:`log_head`,
:func:`play_tricks`, :func:`log_tail`), padded with -1.  :func:`deal_columns` reads a block
back as the deal's :data:`DEAL_COLUMNS` (hands, bid, declarations, tricks, points), which
``simkit replay`` and the tests' independent checker read.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simkit.core.deals import deal_loop
from simkit.core.records import record, seat_slot, slots
from simkit.core.play import deal_blocks
from simkit.core.registry import Metric
from simkit.core.rng import bounded, draw_index, uniform
from simkit.engines.moves import put_next, put_value, values
from simkit.engines.tricks import (hand_value, legal_moves, lowest_code, points_table, random_card,
                                   strength_tables, trick_rules, trick_winner)
from simkit.games.klaberjass.rules import NEXT_ALTERNATE, NEXT_WORDS, OPENER_LOT, OPENER_P1, OPENERS

STRAT_SALT = np.uint64(0xA0761D6478BD642F)
CARDS_PER_DEAL = 20          # 6 + 6 + upcard + 3 + 3 + bottom card
TRICKS = 9
LAST_TRICK = 10
LANE = np.uint64(0x7F80)     # ranks 7..14 of one suit lane
ONE = np.uint64(1)
ALL_CARDS = LANE | (LANE << np.uint64(16)) | (LANE << np.uint64(32)) | (LANE << np.uint64(48))
# where the dealing order (lines 34, 50) puts each card of a deal's 20
UPCARD, FIRST_THREE, OTHER_THREE, BOTTOM = 12, 13, 16, 19

PLAIN_ORDER = "A 10 K Q J 9 8 7"        # line 4
TRUMP_ORDER = "J 9 A 10 K Q 8 7"        # line 3
PLAIN_POINTS = "A=11 10=10 K=4 Q=3 J=2"  # line 4
TRUMP_POINTS = "J=20 9=14 A=11 10=10 K=4 Q=3"  # line 3

# strategy kinds (StrategyKind.code)
K_RANDOM, K_HEURISTIC = 0, 1

# metrics: unit-wide ones, then per-seat quantities as p1_q, p2_q
UNIT_NAMES = ["deals", "redeals", "unfinished", "opener_win", "round2_bids", "exchanges",
              "bidder_strength", "bidder_strength9"]
SEAT_NAMES = ["points", "raw", "combos", "bids", "made", "baits", "hanging", "win", "stakes",
              "claims", "claims_lost"]
U = slots(UNIT_NAMES)        # U.deals, U.redeals, ...: unit slots of the metric vector
NU = len(UNIT_NAMES)
Q = slots(SEAT_NAMES, first=NU, step=2)   # p1's slots; seat k's metric q: seat_slot(Q.q, 1, k)
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
METRIC_UNITS = {"bidder_strength": "strength points (summed over bids)",
                "bidder_strength9": "strength points (summed over bids)", "points": "game points",
                "raw": "game points", "combos": "game points", "stakes": "stakes"}

# move log: per unit, the played deals' count, then one block of BLOCK_W house events per played
# deal (kinds KINDS; a kind's code is its index + 1), read back by deal_columns into DEAL_COLUMNS
KINDS = ["DEAL", "REDEALS", "CARD", "UPCARD", "BOTTOM", "TAKE", "NAME", "EXCHANGE", "SEQUENCE",
         "BELLA", "PLAY", "CLAIM", "CARDS", "COMBOS", "CREDIT", "SCORE", "PENDING", "HIGH"]
(E_DEAL, E_REDEALS, E_CARD, E_UPCARD, E_BOTTOM, E_TAKE, E_NAME, E_EXCHANGE, E_SEQUENCE, E_BELLA,
 E_PLAY, E_CLAIM, E_CARDS, E_COMBOS, E_CREDIT, E_SCORE, E_PENDING, E_HIGH) = range(1, 19)
# the most events a deal writes: DEAL, REDEALS (with a HIGH), 20 dealt cards, the bid, the
# exchange, two declarations each, 18 cards played, CLAIM, eight values (each with a HIGH) and
# PENDING (with a HIGH), the block's last event
BLOCK_W = 1 + 2 + CARDS_PER_DEAL + 1 + 1 + 4 + 2 * TRICKS + 1 + 2 * 8 + 2
DEAL_COLUMNS = ["deal", "opener", "bidder", "trump", "round", "upcard", "bottom",
                "exchanged", "hand0_9", "hand1_9", "hand0_6", "hand1_6", "seq0", "seq1", "bella0",
                "bella1", "combos0", "combos1", "cards0", "cards1", "credit0", "credit1",
                "claim", "claim_ok", "tricks", "score0", "score1", "pending", "redeals"] \
    + [f"card{j}" for j in range(2 * TRICKS)] + [f"seat{j}" for j in range(2 * TRICKS)]
L = slots(DEAL_COLUMNS)      # L.bidder, L.card0, ...: a column of a deal as deal_columns reads it
DEAL_W = len(DEAL_COLUMNS)
HEAD_COLUMNS = ["played"]    # deals played in the unit (blocks beyond the row's width: not logged)
H = slots(HEAD_COLUMNS)
NHEAD = len(HEAD_COLUMNS)
LOG_COLUMNS = ["unit"] + DEAL_COLUMNS  # one logged deal, as :func:`deal_rows` gives it
# deal blocks in a long game's log row: games to 501 took at most 13 played deals in 100,000
# random ones (mean 8; a deal credits about 95 points, 18 of the 32 cards being played), so 24
# hold any real game; a unit that plays more logs its first 24 (``played`` says how many it played)
LONG_LOG_DEALS = 24


def metrics(rules) -> list[Metric]:
    short = rules.form == "short"
    always_binary = {"unfinished", "opener_win", "win"}
    count_binary = {"deals", "round2_bids", "exchanges", "bids", "made", "baits", "hanging"}
    per = "short game" if short else f"game to {rules.form}"

    def unit(n):
        if n in always_binary or (short and n in count_binary):  # 0 or 1 in a short game
            return f"share of {per}s (0..1)"
        return METRIC_UNITS.get(n, "count") + f" per {per}"
    out = []
    for n in UNIT_NAMES:
        out.append(Metric(n, binary=n in always_binary or (short and n in count_binary),
                          doc=METRIC_DOCS[n], unit=unit(n)))
    for q in SEAT_NAMES:
        for k in (1, 2):
            out.append(Metric(f"p{k}_{q}", binary=q in always_binary or (short and q in count_binary),
                              doc=f"p{k}: " + METRIC_DOCS[q], unit=unit(q)))
    return out


def log_deals(rules) -> int:
    """Deal blocks in a unit's log row: one in the short game, else up to :data:`LONG_LOG_DEALS`."""
    return 1 if rules.form == "short" else min(rules.max_deals, LONG_LOG_DEALS)


def log_columns(rules, deals: int | None = None) -> list[str]:
    """A unit's move-log row: ``played``, then ``d{j}_e{k}``, the :data:`BLOCK_W` events of each
    played deal ``j`` (``deals`` blocks; default :func:`log_deals`)."""
    D = log_deals(rules) if deals is None else deals
    return HEAD_COLUMNS + [f"d{j}_e{k}" for j in range(D) for k in range(BLOCK_W)]


def deal_columns(block, deal: int = 0) -> list[int]:
    """A deal's block of events as the values of :data:`DEAL_COLUMNS` (``deal`` its index in the
    unit): the hands are masks of the cards dealt, a trick not played is -1 (card and seat), no
    claim or exchange -1.  A block without its last event (``PENDING``) is refused."""
    b = [0] * DEAL_W
    b[L.deal] = deal
    b[L.exchanged] = b[L.claim] = -1
    for j in range(2 * TRICKS):
        b[L.card0 + j] = b[L.seat0 + j] = -1
    seat_values = {E_CARDS: L.cards0, E_COMBOS: L.combos0, E_CREDIT: L.credit0, E_SCORE: L.score0}
    played = 0
    ended = False
    for kind, seat, aux, card, value in values(block, E_HIGH):
        if kind == E_DEAL:
            b[L.opener] = seat
        elif kind == E_REDEALS:
            b[L.redeals] = value
        elif kind == E_CARD:
            b[(L.hand0_6 if aux == 0 else L.hand0_9) + seat] |= 1 << card
        elif kind in (E_UPCARD, E_BOTTOM):
            b[L.upcard if kind == E_UPCARD else L.bottom] = card
        elif kind in (E_TAKE, E_NAME):
            b[L.bidder], b[L.trump], b[L.round] = seat, aux, 1 if kind == E_TAKE else 2
        elif kind == E_EXCHANGE:
            b[L.exchanged] = seat
        elif kind in (E_SEQUENCE, E_BELLA):
            b[(L.seq0 if kind == E_SEQUENCE else L.bella0) + seat] = 1
        elif kind == E_PLAY:
            b[L.card0 + played], b[L.seat0 + played] = card, seat
            played += 1
        elif kind == E_CLAIM:
            b[L.claim], b[L.claim_ok] = seat, aux
        elif kind in seat_values:
            b[seat_values[kind] + seat] = value
        elif kind == E_PENDING:
            b[L.pending] = value
            ended = True
    if not ended:
        raise ValueError("a Klaberjass deal's block of events ends before its PENDING event")
    b[L.hand0_9] |= b[L.hand0_6]    # nine cards: the six, then three more (CARD aux 1)
    b[L.hand1_9] |= b[L.hand1_6]
    b[L.tricks] = played // 2
    return b


def deal_rows(log) -> np.ndarray:
    """The played deals of a log (``int64[n, width]``, one row per unit) as ``int64[k,
    len(LOG_COLUMNS)]`` rows (:func:`deal_columns`), unit by unit (each row's first column is its
    unit)."""
    out = []
    for r in deal_blocks(log, NHEAD, BLOCK_W, H.played):
        j = out[-1][1 + L.deal] + 1 if out and out[-1][0] == r[0] else 0   # the deal in its unit
        out.append([int(r[0])] + deal_columns(r[1:].tolist(), j))
    return np.array(out, np.int64).reshape(-1, len(LOG_COLUMNS))


def tables():
    """``(strength int64[2, 16], points int64[2, 16])`` from the text's table (lines 3-4)."""
    return (strength_tables(PLAIN_ORDER, TRUMP_ORDER), points_table(PLAIN_POINTS, TRUMP_POINTS))


# --------------------------------------------------------------------------- records

class GameRules(NamedTuple):
    """The rules as the kernel reads them (built by :func:`game_rules`)."""
    target: int                # points that end a long game; 0: the short game
    opener: int                # first word in a unit's first deal: OPENER_P1 / _P2 / _LOT
    next_word: int             # first word in later deals: NEXT_LOSER / NEXT_ALTERNATE
    exchange: bool             # the trump seven may be exchanged for the upcard (line 52)
    split_runs: bool           # long_runs=split: a run of 5+ counts fifties and a terz
    open_seat: int             # the open-hand proposer's seat, or OPEN_NONE (-1)
    open_bonus: int            # his starting points (0 without an open hand)
    max_deals: int
    max_redeals: int
    strength: np.ndarray       # int64[2, 16]: rank strength, plain and trump (lines 3-4)
    points: np.ndarray         # int64[2, 16]: card points, plain and trump (lines 3-4)
    tricks: np.ndarray         # int64[8]: the trick rules of simkit.engines.tricks


class Seats(NamedTuple):
    """The seats' strategies (:mod:`simkit.games.klaberjass.strategies`): the house's record of
    per-seat arrays (:func:`simkit.core.records.seat_arrays`), p1's entry first."""
    kind: np.ndarray           # K_RANDOM or K_HEURISTIC
    p: np.ndarray
    d: np.ndarray
    t1: np.ndarray
    t2: np.ndarray
    declare: np.ndarray        # int 0/1
    claim: np.ndarray          # int 0/1
    margin: np.ndarray
    sight: np.ndarray          # int 0/1


class Seat(NamedTuple):
    """One seat's strategy as the decisions read it: scalars (passed by value, no reference
    counts), read off :class:`Seats` once per unit by :func:`seat`; the kernel holds a pair."""
    kind: int                  # K_RANDOM or K_HEURISTIC
    p: float                   # random: chance to bid at each bidding turn
    d: float                   # random: chance to take each optional act
    t1: int                    # heuristic: round-one threshold
    t2: int                    # heuristic: round-two threshold
    declare: bool              # heuristic: declare every combination held
    claim: bool                # heuristic: say "Партия!" when sure points + margin reach the target
    margin: int
    sight: bool                # heuristic: lead by the sight of an open hand


class Work(NamedTuple):
    """The deck, the units' starting scores and the deal's buffers (built by :func:`work`)."""
    deck: np.ndarray           # int64[32], or a stacked deck: the cards in dealing order
    stacked: bool
    start: np.ndarray          # int64[3]: scores p1, p2 and a hanging bait at a unit's start
    cards: np.ndarray          # int64[20]: the deal's cards in dealing order
    h6: np.ndarray             # uint64[2]: the hands at the bid
    h9: np.ndarray             # uint64[2]: nine cards each, before the exchange
    hx: np.ndarray             # uint64[2]: after the exchange (the hands played)
    hand: np.ndarray           # uint64[2]: the cards not yet played
    trick: np.ndarray          # int64[2]
    won: np.ndarray            # int64[2]: card points taken (last trick included)
    combos: np.ndarray         # int64[2]: counted combinations
    keys: np.ndarray           # int64[2]: best run key (sequences)
    runs: np.ndarray           # int64[2]: the runs' value
    seq: np.ndarray            # int64[2]: runs declared (0/1)
    bel: np.ndarray            # int64[2]: bella declared (0/1)
    raw: np.ndarray            # int64[2]: card points + combinations
    cred: np.ndarray           # int64[2]: points credited by the deal
    score: np.ndarray          # int64[2]: a long game's scores


def game_rules(rules) -> GameRules:
    strength, points = tables()
    open_seat = rules.open_seat
    return record(GameRules, target=rules.target, opener=OPENERS.index(rules.opener),
                  next_word=NEXT_WORDS.index(rules.next_word), exchange=rules.exchange,
                  split_runs=rules.long_runs == "split", open_seat=open_seat,
                  open_bonus=rules.open_bonus if open_seat >= 0 else 0,
                  max_deals=rules.max_deals, max_redeals=rules.max_redeals, strength=strength,
                  points=points,
                  tricks=trick_rules(follow=True, must_trump=True,
                                     overtrump_on_trump_lead=rules.overtrump))


def work(deck, stacked=False, start=None) -> Work:
    s = np.zeros(3, np.int64)
    if start is not None:
        s[:len(start)] = start
    two = lambda t: np.zeros(2, t)  # noqa: E731
    return record(Work, deck=np.asarray(deck, np.int64), stacked=bool(stacked), start=s,
                  cards=np.zeros(CARDS_PER_DEAL, np.int64), h6=two(np.uint64), h9=two(np.uint64),
                  hx=two(np.uint64), hand=two(np.uint64), trick=two(np.int64),
                  won=two(np.int64), combos=two(np.int64), keys=two(np.int64),
                  runs=two(np.int64), seq=two(np.int64), bel=two(np.int64), raw=two(np.int64),
                  cred=two(np.int64), score=two(np.int64))


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
    v = hand_value(hand, trump, points, 10)
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
def decide_round1(st, hand6, upcard, exchange, points, split, u):
    """Bid on the upcard's suit?  ``(bool, u)``."""
    if st.kind == K_RANDOM:
        x, u = uniform(u)
        return x < st.p, u
    v = bid_strength(hand6, upcard >> 4, upcard, exchange, points, split)
    return v >= st.t1, u


@njit(cache=True, nogil=True)
def decide_round2(st, hand6, upcard, points, split, u):
    """Name a suit other than the upcard's, or ``-1`` to pass.  ``(suit, u)``."""
    up = upcard >> 4
    if st.kind == K_RANDOM:
        x, u = uniform(u)
        if x >= st.p:
            return -1, u
        j, u = bounded(u, 3)
        return (up + 1 + j) % 4, u
    best, bv = -1, -1
    for s in range(4):
        if s == up:
            continue
        v = strength_of(hand6, s, points, split)
        if v > bv:
            best, bv = s, v
    if bv >= st.t2:
        return best, u
    return -1, u


@njit(cache=True, nogil=True)
def decide_optional(st, u):
    """Declare (runs, bella)?  The heuristic's ``declare`` flag, or a coin ``d``
    for the random player.  ``(bool, u)``."""
    if st.kind == K_RANDOM:
        x, u = uniform(u)
        return x < st.d, u
    return st.declare, u


@njit(cache=True, nogil=True)
def decide_exchange(st, u):
    """Exchange the trump seven for the upcard?  The heuristic always does (the upcard is a
    higher trump); the random player with probability ``d``.  ``(bool, u)``."""
    if st.kind == K_RANDOM:
        x, u = uniform(u)
        return x < st.d, u
    return True, u


@njit(cache=True, nogil=True)
def order_key(c, trump, points, strength):
    it = 1 if (c >> 4) == trump else 0
    return points[it, c & 15] * 16 + strength[it, c & 15]


@njit(cache=True, nogil=True)
def choose_lead(st, hand, possible, trump, points, strength, u):
    """The card to lead.  Heuristic: the highest-point card that ``possible`` (the cards the
    opponent may hold) cannot beat, else the cheapest card, plain suits first."""
    if st.kind == K_RANDOM:
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
def choose_follow(st, legal, led, trump, points, strength, u):
    """The card to play second.  Heuristic: win in suit with the highest-point winner, ruff with
    the cheapest trump, else throw the cheapest card (plain suits first)."""
    if st.kind == K_RANDOM:
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
def decide_claim(st, sure, target):
    """Say "Партия!"?  The heuristic claims when ``sure + margin`` reaches the target."""
    if st.kind == K_RANDOM or not st.claim:
        return False
    return sure + st.margin >= target


# --------------------------------------------------------------------------- the deal's phases

@njit(cache=True, nogil=True)
def opening_word(opener, coin):
    """The seat with the first word in a unit's first deal (line 46)."""
    if opener == OPENER_LOT:
        return 0 if coin < 0.5 else 1
    return 0 if opener == OPENER_P1 else 1


@njit(cache=True, nogil=True)
def deal_cards(W, s, ptr):
    """A deal's 20 cards into ``W.cards``: the next 20 of a stacked deck from position ``ptr``
    (none left: ``ok`` false), else 20 draws from the stream ``s`` over a fresh 32-card deck.
    ``(ok, s, ptr)``."""
    cards = W.cards
    deck = W.deck
    if W.stacked:
        if ptr + CARDS_PER_DEAL > deck.shape[0]:
            return False, s, ptr
        for j in range(CARDS_PER_DEAL):
            cards[j] = deck[ptr + j]
        return True, s, ptr + CARDS_PER_DEAL
    drawn = np.uint64(0)
    n = deck.shape[0]
    for j in range(CARDS_PER_DEAL):
        jj, s, drawn = draw_index(s, drawn, n, False)
        cards[j] = deck[jj]
    return True, s, ptr


@njit(cache=True, nogil=True)
def first_six(W, first):
    """Six cards each, three at a time (line 34), into ``W.h6``."""
    h6 = W.h6
    cards = W.cards
    other = 1 - first
    h6[first] = np.uint64(0)
    h6[other] = np.uint64(0)
    for j in range(3):
        h6[first] |= ONE << np.uint64(cards[j])
        h6[other] |= ONE << np.uint64(cards[3 + j])
        h6[first] |= ONE << np.uint64(cards[6 + j])
        h6[other] |= ONE << np.uint64(cards[9 + j])


@njit(cache=True, nogil=True)
def bidding(R, P, W, first, up, u):
    """Both bidding rounds (lines 46-48), the first word first: ``(bidder, trump, round, u)``,
    ``bidder`` -1 when both pass twice (a redeal)."""
    h6 = W.h6
    points = R.points
    for t in range(2):
        k = first if t == 0 else 1 - first
        yes, u = decide_round1(P[k], h6[k], up, R.exchange, points, R.split_runs, u)
        if yes:
            return k, up >> 4, 1, u
    for t in range(2):
        k = first if t == 0 else 1 - first
        suit, u = decide_round2(P[k], h6[k], up, points, R.split_runs, u)
        if suit >= 0:
            return k, suit, 2, u
    return -1, -1, 0, u


@njit(cache=True, nogil=True)
def three_more(R, P, W, first, trump, up, u):
    """Three more cards each (line 50), into ``W.h9`` and ``W.hand``, then the trump seven's
    exchange (line 52); ``W.hx`` the hands to be played.  ``(the card on the table's mask, the
    exchanging seat or -1, u)``."""
    h6 = W.h6
    h9 = W.h9
    hand = W.hand
    hx = W.hx
    cards = W.cards
    other = 1 - first
    h9[first] = h6[first]
    h9[other] = h6[other]
    for j in range(3):
        h9[first] |= ONE << np.uint64(cards[FIRST_THREE + j])
        h9[other] |= ONE << np.uint64(cards[OTHER_THREE + j])
    hand[0] = h9[0]
    hand[1] = h9[1]
    table = ONE << np.uint64(up)
    exchanged = -1
    if R.exchange and trump == (up >> 4):
        seven = ONE << np.uint64(trump * 16 + 7)
        for k in range(2):
            if hand[k] & seven:
                yes, u = decide_exchange(P[k], u)
                if yes:
                    hand[k] = (hand[k] & ~seven) | table
                    table = seven
                    exchanged = k
    hx[0] = hand[0]
    hx[1] = hand[1]
    return table, exchanged, u


@njit(cache=True, nogil=True)
def declarations(R, P, W, first, trump, u):
    """Runs and bella (lines 58-82): what each seat declares (``W.seq``, ``W.bel``) and what
    counts (``W.combos``); zeroes the card points ``W.won``.  Returns ``u``."""
    hand = W.hand
    keys = W.keys
    runs = W.runs
    seq = W.seq
    bel = W.bel
    combos = W.combos
    won = W.won
    for k in range(2):
        key, value = sequences(hand[k], trump, R.split_runs)
        keys[k] = key
        runs[k] = value
        seq[k] = 0
        bel[k] = 0
        if key > 0:
            yes, u = decide_optional(P[k], u)
            seq[k] = 1 if yes else 0
        if has_bella(hand[k], trump):
            yes, u = decide_optional(P[k], u)
            bel[k] = 1 if yes else 0
    best = compare_sequences(keys[0] * seq[0], keys[1] * seq[1], first)
    for k in range(2):
        combos[k] = (runs[k] if best == k else 0) + 20 * bel[k]
        won[k] = 0
    return u


# 11 parameters: the three records, the deal's state as play_unit holds it in locals (the first
# word, trump, the table's cards, the bottom card), the random stream, and the log row and
# position the tricks' cards go to (lp -1: none)
@njit(cache=True, nogil=True)
def play_tricks(R, P, W, first, trump, table, bottom, u, log, i, lp):
    """The nine tricks (lines 86-98), card points into ``W.won``; in a long game the leader may
    say "Партия!" before any trick but the first (line 110).  The cards go to ``log[i]`` as
    ``PLAY`` events from position ``lp`` (none when -1).  ``(claimer or -1, claim_ok, tricks
    played, u, lp)``."""
    hand = W.hand
    won = W.won
    trick = W.trick
    points = R.points
    strength = R.strength
    tricks = R.tricks
    score = W.score
    combos = W.combos
    leader = first
    played = np.uint64(0)
    unseen = ALL_CARDS & ~table & ~(ONE << np.uint64(bottom))
    for t in range(TRICKS):
        if R.target > 0 and t > 0:
            sure = score[leader] + won[leader] + combos[leader]
            if decide_claim(P[leader], sure, R.target):
                return leader, 1 if sure >= R.target else 0, t, u, lp
        f = 1 - leader
        if R.open_seat == f and P[leader].sight:
            possible = hand[f]
        else:
            possible = unseen & ~hand[leader] & ~played
        c1, u = choose_lead(P[leader], hand[leader], possible, trump, points, strength, u)
        trick[0] = c1
        legal = legal_moves(hand[f], trick, 1, trump, tricks, strength)
        c2, u = choose_follow(P[f], legal, c1, trump, points, strength, u)
        trick[1] = c2
        if lp >= 0:
            lp = put_next(log, i, lp, E_PLAY, leader, 0, c1)
            lp = put_next(log, i, lp, E_PLAY, f, 0, c2)
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
    return -1, 0, TRICKS, u, lp


@njit(cache=True, nogil=True)
def count_deal(R, W, v, bidder, trump, up, bround, exchanged):
    """A played deal's unit metrics: the deal, the bid, the exchange, the bidder's strength."""
    v[U.deals] += 1
    v[seat_slot(Q.bids, 1, bidder)] += 1
    v[U.round2_bids] += bround == 2
    v[U.exchanges] += exchanged >= 0
    points = R.points
    v[U.bidder_strength] += bid_strength(W.h6[bidder], trump, up, R.exchange, points, R.split_runs)
    v[U.bidder_strength9] += strength_of(W.hx[bidder], trump, points, R.split_runs)


@njit(cache=True, nogil=True)
def settle_claim(W, v, claimer, claim_ok):
    """"Партия!" (line 110): the game ends on the claim; returns the winner.  Nothing is
    credited (``W.cred`` stays 0); the combinations are counted."""
    v[seat_slot(Q.claims, 1, claimer)] += 1
    if claim_ok:
        winner = claimer
    else:
        winner = 1 - claimer
        v[seat_slot(Q.claims_lost, 1, claimer)] += 1
    for k in range(2):
        v[seat_slot(Q.combos, 1, k)] += W.combos[k]
    return winner


@njit(cache=True, nogil=True)
def score_deal(R, W, v, bidder, pending):
    """Scoring (lines 44, 104-108): raw points, bait and hanging bait into ``W.cred``; in a long
    game the scores, the defender counted first.  ``(winner or -1, pending, the deal's loser)``."""
    raw = W.raw
    won = W.won
    combos = W.combos
    cred = W.cred
    score = W.score
    d = 1 - bidder
    for k in range(2):
        raw[k] = won[k] + combos[k]
        v[seat_slot(Q.raw, 1, k)] += raw[k]
        v[seat_slot(Q.combos, 1, k)] += combos[k]
    hanging = 0
    rb, rd = raw[bidder], raw[d]
    if rb > rd:
        cred[bidder] = rb
        cred[d] = rd
        v[seat_slot(Q.made, 1, bidder)] += 1
        dealwin = bidder
    elif rb < rd:
        cred[d] = rd + rb
        v[seat_slot(Q.baits, 1, bidder)] += 1
        dealwin = d
    else:
        cred[d] = rd
        hanging = rb
        v[seat_slot(Q.hanging, 1, bidder)] += 1
        dealwin = d
    winner = -1
    if R.target > 0:
        cred[dealwin] += pending
        pending = hanging
        score[0] += cred[0]
        score[1] += cred[1]
        if score[d] >= R.target:
            winner = d
        elif score[bidder] >= R.target:
            winner = bidder
    else:
        winner = dealwin
        if rb > rd:
            v[seat_slot(Q.stakes, 1, bidder)] += 1
            v[seat_slot(Q.stakes, 1, d)] -= 1
        else:
            lose = 2 if rb < rd else 1
            v[seat_slot(Q.stakes, 1, bidder)] -= lose
            v[seat_slot(Q.stakes, 1, d)] += lose
    for k in range(2):
        v[seat_slot(Q.points, 1, k)] += cred[k]
    return winner, pending, (d if dealwin == bidder else bidder)


# 10 parameters: the deal's state that play_unit holds as locals, for a logged deal only
@njit(cache=True, nogil=True)
def log_head(W, log, i, lp, first, nredeals, bidder, trump, bround, exchanged):
    """A played deal's events up to its tricks from position ``lp``: ``DEAL`` (seat: the first
    word), ``REDEALS`` (the deals thrown in before it, when any), the 20 cards in dealing order
    (``CARD``: seat the receiver, aux 0 for the first six, 1 for the three more; ``UPCARD``,
    ``BOTTOM``), the bid (``TAKE`` in round one, ``NAME`` in round two; aux the trump suit), the
    trump seven's ``EXCHANGE`` and the declarations (``SEQUENCE``, ``BELLA``).  Returns ``lp``."""
    cards = W.cards
    lp = put_next(log, i, lp, E_DEAL, first, 0, 0)
    if nredeals > 0:
        lp = put_value(log, i, lp, E_REDEALS, 0, nredeals, E_HIGH)
    for j in range(CARDS_PER_DEAL):
        if j == UPCARD:
            lp = put_next(log, i, lp, E_UPCARD, 0, 0, cards[j])
        elif j == BOTTOM:
            lp = put_next(log, i, lp, E_BOTTOM, 0, 0, cards[j])
        else:
            mine = (j // 3) % 2 == 0 if j < UPCARD else j < OTHER_THREE
            lp = put_next(log, i, lp, E_CARD, first if mine else 1 - first,
                          0 if j < UPCARD else 1, cards[j])
    lp = put_next(log, i, lp, E_TAKE if bround == 1 else E_NAME, bidder, trump, 0)
    if exchanged >= 0:
        lp = put_next(log, i, lp, E_EXCHANGE, exchanged, 0, trump * 16 + 7)
    for k in range(2):
        if W.seq[k]:
            lp = put_next(log, i, lp, E_SEQUENCE, k, 0, 0)
        if W.bel[k]:
            lp = put_next(log, i, lp, E_BELLA, k, 0, 0)
    return lp


@njit(cache=True, nogil=True)
def log_tail(W, log, i, lp, claimer, claim_ok, pending):
    """A played deal's events after its tricks: ``CLAIM`` (aux: enough points), each seat's
    card points, counted combinations, credit and score (``CARDS``, ``COMBOS``, ``CREDIT``,
    ``SCORE``) and the hanging points carried (``PENDING``, the block's last event)."""
    if claimer >= 0:
        lp = put_next(log, i, lp, E_CLAIM, claimer, claim_ok, 0)
    for k in range(2):
        lp = put_value(log, i, lp, E_CARDS, k, W.won[k], E_HIGH)
        lp = put_value(log, i, lp, E_COMBOS, k, W.combos[k], E_HIGH)
        lp = put_value(log, i, lp, E_CREDIT, k, W.cred[k], E_HIGH)
        lp = put_value(log, i, lp, E_SCORE, k, W.score[k], E_HIGH)
    put_value(log, i, lp, E_PENDING, 0, pending, E_HIGH)


@njit(cache=True, nogil=True)
def unit_result(R, v, winner, opener0):
    """The unit's winner (or ``unfinished``), the first bidder's win and a long game's stakes."""
    if winner < 0:
        v[U.unfinished] = 1
        return
    v[seat_slot(Q.win, 1, winner)] = 1
    v[U.opener_win] = 1 if winner == opener0 else 0
    if R.target > 0:
        v[seat_slot(Q.stakes, 1, winner)] += 1
        v[seat_slot(Q.stakes, 1, 1 - winner)] -= 1


# --------------------------------------------------------------------------- the kernel

@njit(cache=True, nogil=True)
def seat(S, k):
    """Seat ``k``'s strategy off the :class:`Seats` record as a scalar :class:`Seat`."""
    return Seat(S.kind[k], S.p[k], S.d[k], S.t1[k], S.t2[k], S.declare[k] != 0,
                S.claim[k] != 0, S.margin[k], S.sight[k] != 0)


@njit(cache=True, nogil=True)
def play_unit(R, S, W, i, key, ukey, v, log):
    """One unit: deals (and redeals) until the short game's one played deal, or a long game's
    winner, ``max_deals`` or ``max_redeals``.  Writes the unit's metrics into ``v`` and, when
    ``log`` has rows, its deals into ``log[i]``; returns the cards dealt (20 per deal).  The
    seats' strategies are read off ``S`` once, into the pair ``P`` of scalar :class:`Seat`
    records that the phases take (``P[k]``: seat ``k``'s)."""
    P = (seat(S, 0), seat(S, 1))
    score = W.score
    cred = W.cred
    dealt = W.cards
    s = key
    coin, u = uniform(ukey)
    first = opening_word(R.opener, coin)
    opener0 = first
    score[0] = W.start[0]
    score[1] = W.start[1]
    pending = W.start[2]
    if R.open_seat >= 0:
        score[R.open_seat] += R.open_bonus
    nblocks = (log.shape[1] - NHEAD) // BLOCK_W if log.shape[0] > 0 else 0
    winner = -1
    redeals_row = 0
    deals = 0
    ptr = 0
    cards = 0
    while True:
        # ---- deal (lines 34, 50) and bidding (lines 46-48); two passes twice: redeal
        ok, s, ptr = deal_cards(W, s, ptr)
        if not ok:
            break
        cards += CARDS_PER_DEAL
        first_six(W, first)
        up = dealt[UPCARD]
        bottom = dealt[BOTTOM]
        bidder, trump, bround, u = bidding(R, P, W, first, up, u)
        if bidder < 0:
            v[U.redeals] += 1
            redeals_row += 1
            first = 1 - first
            if redeals_row >= R.max_redeals:
                break
            continue
        nredeals = redeals_row
        redeals_row = 0
        # ---- the rest of the deal, the trump seven, declarations, play
        table, exchanged, u = three_more(R, P, W, first, trump, up, u)
        u = declarations(R, P, W, first, trump, u)
        lp = -1
        if deals < nblocks:
            lp = log_head(W, log, i, NHEAD + deals * BLOCK_W, first, nredeals, bidder, trump,
                          bround, exchanged)
        claimer, claim_ok, ntr, u, lp = play_tricks(R, P, W, first, trump, table, bottom, u,
                                                    log, i, lp)
        deals += 1
        count_deal(R, W, v, bidder, trump, up, bround, exchanged)
        cred[0] = 0
        cred[1] = 0
        # ---- "Партия!" or scoring
        if claimer >= 0:
            winner = settle_claim(W, v, claimer, claim_ok)
            loser = bidder
        else:
            winner, pending, loser = score_deal(R, W, v, bidder, pending)
        if lp >= 0:
            log_tail(W, log, i, lp, claimer, claim_ok, pending)
        # ---- the long game goes on: the first word to the loser, or in turn (line 46)
        if winner >= 0 or R.target == 0 or deals >= R.max_deals:
            break
        first = 1 - first if R.next_word == NEXT_ALTERNATE else loser
    if log.shape[0] > 0:
        log[i, H.played] = deals
    unit_result(R, v, winner, opener0)
    return cards


@njit(cache=True, nogil=True)
def run_deals(R, S, W, state, n, acc, rows, log):
    """``n`` units on the core deal loop (see :mod:`simkit.core.deals`)."""
    return deal_loop(play_unit, STRAT_SALT, R, S, W, state, n, acc, rows, log)
