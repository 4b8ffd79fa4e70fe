"""Fan-Tan kernels: deal the pack, ante, play sevens and build the rows, pay per pass, settle.

A hand is a ``uint64`` mask of card codes.  The layout is, per suit, the lowest and highest
rank on the table in the A-low order (A = 1 ... K = 13; 0: the row is not open).  The playable
cards are a mask: each unopened suit's seven, each open row's next card down and next up.
Dealing, seats and the pool come from :mod:`simkit.engines.shedding`.

The kernel is :func:`run_deals`, the core deal loop over :func:`play_deal`.  Metrics: per seat
``pK_chips`` (net chips: antes, passes, line 129's penalties and cards left paid, the pool
taken) and ``pK_win`` (first out), then ``pool`` (the chips the winner takes), ``passes`` and
``winner_seat`` (1..K), then per seat ``pK_passes`` (his passes in the game; they sum to
``passes``).

Move log (:func:`log_columns`): the first seat dealt to, the deal's step (+1 or -1), the 52 cards
in the order dealt (card ``j`` to seat ``(first + step * j) mod K``), then each turn as one of the
house's events (:mod:`simkit.engines.moves`: ``kind << 20 | seat << 16 | aux << 8 | card``):
``PLAY`` (kind :data:`EV_PLAY`, the seat and its card) or ``PASS`` (:data:`EV_PASS`, no card),
``-1`` after the last.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simkit.core.bits import lowest_code, popcount
from simkit.core.deals import SALT, deal_loop
from simkit.core.records import record, seat_slot, slots
from simkit.core.registry import Metric
from simkit.core.rng import bounded, shuffle_prefix
from simkit.engines.moves import event
from simkit.engines.shedding import bit, dealt_to, random_member

K_RANDOM, K_SEQUENCE, K_EXTEND, K_ENDS, K_BLOCK = range(5)
EV_PLAY, EV_PASS = 1, 2     # the turns' event kinds
MAX_LOG = 1200
MAX_TURNS = 100_000  # never reached in practice; then the fewest cards left wins

SEAT = ["chips", "win"]
TAIL = ["pool", "passes", "winner_seat"]
# the metric vector: each seat's SEAT metrics, seat by seat (p1's first slots PS), then the TAIL
# (at NS * K + TS.x), then each seat's passes
PS, TS = slots(SEAT), slots(TAIL)
NS, NT = len(SEAT), len(TAIL)
DOCS = {"chips": "net chips: the pool if he wins, less his ante, passes (and their penalties) "
                 "and cards left paid",
        "win": "first out of cards (takes the pool)",
        "pool": "chips in the pool when the winner takes it",
        "passes": "passes in the game (a chip each)",
        "winner_seat": "the winner's seat number (1..players)",
        "seat_passes": "passes he made in the game (a chip each; the seats' sum is passes)"}
UNITS = {"chips": "chips per game", "win": "share of games (0..1)", "pool": "chips per game",
         "passes": "passes per game", "winner_seat": "seat number (1..players)"}
CATEGORY = {"winner_seat": "its distribution is pK_win"}  # a label per game, not averaged


def code_of(r, s):
    """The core code of rank ``r`` in the A-low order (1 = ace) of suit ``s``."""
    return s * 16 + (14 if r == 1 else r)


def low_rank(c):
    r = c & 15
    return 1 if r == 14 else r


def make_deck(rules=None) -> np.ndarray:
    return np.array([s * 16 + r for s in range(4) for r in range(2, 15)], np.uint8)


class Table(NamedTuple):
    players: int
    first: int
    step: int
    ante_even: int
    must_play: bool
    penalty: bool      # a pass when able pays line 129's penalties


class Work(NamedTuple):
    deck: np.ndarray
    stacked: bool
    perm: np.ndarray
    hand: np.ndarray   # uint64[K]
    lo: np.ndarray     # int64[4]: lowest rank on the row (A-low), 0: not open
    hi: np.ndarray     # int64[4]
    chips: np.ndarray  # int64[K]


def table(rules) -> Table:
    K = rules.players
    first, step = (0, 1) if rules.deal_from == "left" else (K - 2, -1)
    return record(Table, players=K, first=first, step=step, ante_even=rules.ante_even,
                  must_play=rules.must_play, penalty=rules.pass_penalty)


def work(rules, stacked=None) -> Work:
    d = make_deck() if stacked is None else np.asarray(stacked, np.uint8)
    K = rules.players
    return record(Work, deck=d, stacked=stacked is not None, perm=np.arange(52),
                  hand=np.zeros(K, np.uint64), lo=np.zeros(4, np.int64),
                  hi=np.zeros(4, np.int64), chips=np.zeros(K, np.int64))


def metrics(rules) -> list[Metric]:
    out = [Metric(f"p{k + 1}_{n}", binary=n == "win", doc=f"p{k + 1}: " + DOCS[n],
                  unit=UNITS[n]) for k in range(rules.players) for n in SEAT]
    out += [Metric(n, binary=False, doc=DOCS[n], unit=UNITS[n], category=CATEGORY.get(n, ""))
            for n in TAIL]
    return out + [Metric(f"p{k + 1}_passes", binary=False, doc=f"p{k + 1}: " +
                         DOCS["seat_passes"], unit=UNITS["passes"]) for k in range(rules.players)]


def log_columns(rules) -> list[str]:
    return (["first_dealt", "deal_step"] + [f"dealt_{j}" for j in range(52)]
            + [f"turn_{j}" for j in range(MAX_LOG)])


# --------------------------------------------------------------------------- njit helpers

@njit(cache=True, nogil=True, inline="always")
def _code(r, s):
    if r == 1:
        return s * 16 + 14
    return s * 16 + r


@njit(cache=True, nogil=True, inline="always")
def _low(c):
    r = c & 15
    if r == 14:
        return 1
    return r


@njit(cache=True, nogil=True)
def playable(lo, hi):
    """The mask of cards that may be played on the layout."""
    m = np.uint64(0)
    for s in range(4):
        if lo[s] == 0:
            m |= bit(s * 16 + 7)
        else:
            if lo[s] > 1:
                m |= bit(_code(lo[s] - 1, s))
            if hi[s] < 13:
                m |= bit(_code(hi[s] + 1, s))
    return m


@njit(cache=True, nogil=True)
def _opens(c):
    """The cards that playing ``c`` makes playable: a seven its 6 and 8, a lower card the next
    one down, a higher card the next one up (a mask)."""
    r, s = _low(c), c >> 4
    if r == 7:
        return bit(_code(6, s)) | bit(_code(8, s))
    if r < 7:
        return bit(_code(r - 1, s)) if r > 1 else np.uint64(0)
    return bit(_code(r + 1, s)) if r < 13 else np.uint64(0)


@njit(cache=True, nogil=True)
def _beyond(c, h):
    """Own cards of ``c``'s suit further along its direction (both ways for a seven)."""
    r, s = _low(c), c >> 4
    n = 0
    for q in range(1, 14):
        if (h & bit(_code(q, s))) and ((r <= 7 and q < r) or (r >= 7 and q > r)):
            n += 1
    return n


@njit(cache=True, nogil=True)
def choose(kind, h, legal, may_pass, u):
    """A card of ``legal`` (or -1: pass, only when ``may_pass``): ``(choice, u)``."""
    if kind == K_RANDOM:
        n = popcount(legal)
        k, u = bounded(u, n + (1 if may_pass else 0))
        if k == n:
            return -1, u
        c, u = random_member(legal, u)
        return c, u
    best, bs = -1, -(1 << 30)
    x = legal
    while x:
        c = lowest_code(x)
        x &= x - np.uint64(1)
        rest = h & ~bit(c)
        op = _opens(c)
        if kind == K_SEQUENCE:      # (a) a card that opens my own next plays
            sc = popcount(op & rest)
        elif kind == K_EXTEND:      # (b) towards my cards of the suit, not a direction's last
            sc = _beyond(c, rest)
        elif kind == K_ENDS:        # (c) near the K or the A: opens the fewest plays
            sc = abs(_low(c) - 7)
        else:                       # block: open as little as possible to the others
            sc = -4 * popcount(op & ~rest) + popcount(op & rest)
        if sc > bs:
            best, bs = c, sc
    if kind == K_BLOCK and may_pass and bs < 0 and popcount(h) > 1:
        return -1, u                # every play would open a card to the others: pay instead
    return best, u


@njit(cache=True, nogil=True)
def pass_penalty(hand, p, lo, chips):
    """Line 129: seat ``p`` passed holding a playable card.  He pays three chips into the pool
    (returned), and for each seven he holds back (its row not open) five to every other holder
    of that suit's 6 or 8."""
    chips[p] -= 3
    for s in range(4):
        if lo[s] == 0 and (hand[p] & bit(s * 16 + 7)):
            six_eight = bit(s * 16 + 6) | bit(s * 16 + 8)
            for q in range(hand.shape[0]):
                if q != p and (hand[q] & six_eight):
                    chips[p] -= 5
                    chips[q] += 5
    return 3


@njit(cache=True, nogil=True)
def play_deal(R, S, W, i, key, ukey, v, log):
    K = R.players
    hand, lo, hi, chips, perm, deck = W.hand, W.lo, W.hi, W.chips, W.perm, W.deck
    s, u = key, ukey
    for j in range(52):
        perm[j] = j
    if not W.stacked:
        s = shuffle_prefix(perm, 52, s)
    logging = log.shape[0] > 0
    if logging:
        for q in range(log.shape[1]):
            log[i, q] = -1
        log[i, 0] = R.first
        log[i, 1] = R.step
    for p in range(K):
        hand[p] = np.uint64(0)
        chips[p] = 0
    for q in range(4):
        lo[q] = 0
        hi[q] = 0
    for j in range(52):
        c = np.int64(deck[perm[j]])
        hand[dealt_to(R.first, j, K, R.step)] |= bit(c)
        if logging:
            log[i, 2 + j] = c
    # the antes (125)
    most = 0
    for p in range(K):
        most = max(most, popcount(hand[p]))
    even = 52 % K == 0
    pool = 0
    for p in range(K):
        a = R.ante_even if even else (1 if popcount(hand[p]) == most else 2)
        chips[p] -= a
        pool += a
    p = 0
    passes = 0
    since = 0          # turns since the last card played
    winner = -1
    for t in range(MAX_TURNS):
        h = hand[p]
        legal = h & playable(lo, hi)
        c = -1
        if legal:
            # a voluntary pass (must_play=false) only while someone else played in the last
            # round, so that the game cannot stall in passes
            c, u = choose(S.kind[p], h, legal, not R.must_play and since < K - 1, u)
        if c < 0:
            chips[p] -= 1
            pool += 1
            if legal and R.penalty:
                pool += pass_penalty(hand, p, lo, chips)
            passes += 1
            v[seat_slot(NS * K + NT, 1, p)] += 1    # pK_passes, after the tail
            since += 1
            if logging and t < MAX_LOG:
                log[i, 54 + t] = event(EV_PASS, p, 0, 0)
        else:
            hand[p] &= ~bit(c)
            since = 0
            r, st = _low(c), c >> 4
            if r == 7:
                lo[st] = 7
                hi[st] = 7
            elif r < 7:
                lo[st] = r
            else:
                hi[st] = r
            if logging and t < MAX_LOG:
                log[i, 54 + t] = event(EV_PLAY, p, 0, c)
            if hand[p] == 0:
                winner = p
                break
        p = p + 1 if p + 1 < K else 0
    if winner < 0:
        winner = 0
        for q in range(K):
            if popcount(hand[q]) < popcount(hand[winner]):
                winner = q
    # the end (128): the others pay a chip per card left, the winner takes the pool
    for q in range(K):
        if q != winner:
            left = popcount(hand[q])
            chips[q] -= left
            pool += left
    chips[winner] += pool
    for q in range(K):
        v[seat_slot(PS.chips, NS, q)] = chips[q]
    v[seat_slot(PS.win, NS, winner)] = 1.0
    v[NS * K + TS.pool] = pool
    v[NS * K + TS.passes] = passes
    v[NS * K + TS.winner_seat] = winner + 1
    return 52


@njit(cache=True, nogil=True)
def run_deals(R, S, W, state, n, acc, rows, log):
    return deal_loop(play_deal, SALT, R, S, W, state, n, acc, rows, log)
