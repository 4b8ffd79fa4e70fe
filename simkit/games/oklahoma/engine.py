"""Oklahoma kernels: deal 13 from 105 cards, draw or take the whole pile, meld, lay off, discard.

A hand is a count vector ``int64[65]`` (``hand[code]`` copies of each card, ``hand[64]`` the
joker), the input of :mod:`simkit.engines.melds`; a seat's melds on the table are meld rows of
that engine (``Work.melds[seat, k]``).  The stock is the pack shuffled lazily: each card drawn
swaps a uniformly random undrawn card to the front (a Fisher-Yates shuffle done one step per
draw), so a deal's cards depend on its key alone.  A stacked deck is dealt in its order: 13 cards
one at a time from the dealer's left (seat 0 first), the upcard, then the stock from the top.

The kernel is :func:`run_deals`, the core deal loop over :func:`play_deal`, which plays one hand
(``unit=hand``: the last seat deals, seat 0 plays first) or a game of hands to ``target``
(``unit=game``) with :func:`play_hand`.  A turn (:func:`turn`) is the draw (the stock, or the
whole pile when its top card is melded at once), the meld phase, and the discard (the Q♠ only as
the last card).  Strategies choose in :func:`random_turn_*` and :func:`baseline_*`.

Scores (line 87): a seat's melds count plus (:func:`meld_value`) and its cards in hand minus
(:data:`HAND_VALUE`); going out adds ``going_out``.

Metrics (:func:`metrics`): ``unit=hand``: per seat ``pK_points`` (the hand's score), ``pK_out``
(went out), ``pK_qs_stuck`` (held the Q♠ when the hand ended), ``pK_takes`` (pile takes); then
``turns`` and ``stock_out`` (the hand ended with nobody out).  ``unit=game``: ``pK_win``,
``pK_score`` (final total with the game bonus), ``hands``.

Move log (:func:`log_columns`; the game's first hand with ``unit=game``): the dealer, the number
of events, the cards dealt (card ``j`` to seat ``j % players``), the upcard, then events
``kind << 20 | seat << 16 | aux << 8 | card`` (card codes 0..64, the joker 64):

==========  ====================  =====================================================
kind        aux                   card
==========  ====================  =====================================================
1 draw      0                     the card drawn from the stock
2 take      pile size             the pile's top card (the whole pile goes to the hand)
3 meld      the meld's index      the number of cards; its cards follow as kind 4
4 card      the card stood for    the card laid (a wild stands for the aux card)
5 layoff    the meld's index      the meld's new size; the card follows as kind 4
6 swap      the meld's index      the natural card put in the joker's place
7 discard   0                     the card discarded
8 out       0                     0
9 reshuffle cards in new stock    0
10 end      0                     0 (stock exhausted or the safety stop)
==========  ====================  =====================================================
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simkit.core.bits import lowest_code, popcount
from simkit.core.deals import SALT, deal_loop
from simkit.core.jit import NO_REFCOUNT, REFCOUNT  # rule 3 of simkit.core.jit
from simkit.core.records import record, seat_slot, slots
from simkit.core.registry import Metric
from simkit.core.rng import bounded
from simkit.engines import melds as ME
from simkit.engines.melds.stock import draw_stock, reset_stock
from simkit.engines.moves import put_event
from simkit.games.oklahoma.drawn import drawn_arrangement
from simkit.games.oklahoma.rules import NEXT_DEALER, PILE_TAKE, STOCK_END
from simkit.games.oklahoma.strategies import K_RANDOM

JOKER = 64
QS = 3 * 16 + 12
NC = 65
N_PACK = 105
N_HAND = 13
MAXM = 40          # melds a seat can have on the table (105 cards / 3 < 36)
NOPT = 4096        # options a decision may list (the random player's choices)
MAX_LOG = 4000
MAX_HANDS_LOGGED = 1
WK = 8192          # the meld search's work buffer (a pile taken with 20 naturals or more
                   # allocates its own: its table of bounds is larger)
W_ = ME.MELD_W
EV_DRAW, EV_TAKE, EV_MELD, EV_CARD, EV_LAYOFF, EV_SWAP, EV_DISCARD, EV_OUT, EV_RESHUFFLE, \
    EV_END = range(1, 11)
O_MELD, O_LAYOFF, O_SWAP = 0, 1, 2
NHEAD = 2

SEAT_HAND = ["points", "out", "qs_stuck", "takes"]
TAIL_HAND = ["turns", "stock_out"]
SEAT_GAME = ["win", "score"]
TAIL_GAME = ["hands"]
SH = slots(SEAT_HAND)
SG = slots(SEAT_GAME)
NSH, NSG = len(SEAT_HAND), len(SEAT_GAME)
DOCS = {"points": "the hand's score: melds plus, cards in hand minus, going out 100 (line 87-88)",
        "out": "went out", "qs_stuck": "held the Q♠ in hand when the hand ended (-100)",
        "takes": "times it took the discard pile", "turns": "turns played in the hand",
        "stock_out": "the hand ended with nobody out (stock exhausted)",
        "win": "won the game (first past the target, highest total)",
        "score": "final total of the game, the game bonus included", "hands": "hands in the game"}
UNITS = {"points": "points per hand", "out": "share of hands (0..1)",
         "qs_stuck": "share of hands (0..1)", "takes": "takes per hand",
         "turns": "turns per hand", "stock_out": "share of hands (0..1)",
         "win": "share of games (0..1)", "score": "points per game", "hands": "hands per game"}
BINARY = {"out", "qs_stuck", "stock_out", "win"}


def card_values():
    """Line 87's values by code: ``(in hand, melded as itself)``, ``int64[65]`` each.  A melded
    deuce is valued by the card it stands for (:func:`wild_value`)."""
    hand = np.zeros(NC, np.int64)
    meld = np.zeros(NC, np.int64)
    for s in range(4):
        for r in range(2, 15):
            v = 20 if r == 14 else 10 if r >= 8 else 5
            hand[s * 16 + r] = 20 if r == 2 else v
            meld[s * 16 + r] = v
    hand[QS], meld[QS] = 100, 50
    hand[JOKER], meld[JOKER] = 200, 100
    return hand, meld


HAND_VALUE, MELD_VALUE = card_values()


def gain_classes():
    """:func:`worth_bound`'s classes of a natural's meld value plus hand value (what melding it
    gains over holding it): ``GAIN_VALUE`` highest first, ``GAIN_SHIFT[c]`` 8 times the class of
    natural ``c``."""
    gain = HAND_VALUE + MELD_VALUE
    nat = [c for c in range(64) if c & 15 >= 3 and c & 15 <= 14]
    vals = sorted({int(gain[c]) for c in nat}, reverse=True)
    assert len(vals) == 4
    shift = np.zeros(NC, np.int64)
    for c in nat:
        shift[c] = 8 * vals.index(int(gain[c]))
    return np.array(vals, np.int64), shift


GAIN_VALUE, GAIN_SHIFT = gain_classes()


def fit_tables():
    """:func:`fit_mask`'s tables: ``RANK_BITS[r]`` the naturals of rank ``r`` (3..14; a set),
    ``SUIT_RANKS[r]`` rank ``r``'s bit in a suit's 16 (3..14; the end of a run), ``WILD_BITS``
    the four deuces."""
    rank_bits = np.zeros(16, np.int64)
    suit_ranks = np.zeros(16, np.int64)
    for r in range(3, 15):
        suit_ranks[r] = 1 << r
        rank_bits[r] = sum(1 << (s * 16 + r) for s in range(4))
    wild = sum(1 << (s * 16 + 2) for s in range(4))
    return rank_bits, suit_ranks, wild


RANK_BITS, SUIT_RANKS, WILD_BITS = fit_tables()


def make_deck(rules=None) -> np.ndarray:
    one = [s * 16 + r for s in range(4) for r in range(2, 15)]
    return np.array(sorted(one * 2) + [JOKER], np.uint8)


def meld_rules(rules):
    """The meld engine's record for these rules (line 85-86; READINGS-rummy.md 4)."""
    return ME.meld_rules(seq_ranks=ME.ACE_BOTH, min_size=3, max_size=4, set_suits=ME.SET_ANY,
                         wild_ranks=1 << 2, max_wild=4 - rules.min_natural,
                         min_natural=rules.min_natural)


class Table(NamedTuple):
    players: int
    layoff_take: bool     # pile_take=layoff
    final_discard: bool
    reshuffle: bool
    going_out: int
    target: int
    game_bonus: int
    rotate: bool          # next_dealer=rotate
    game: bool
    max_turns: int
    max_hands: int
    mr: tuple             # the meld engine's rules record


class Seats(NamedTuple):
    kind: np.ndarray
    pile_min: np.ndarray
    pile_gain: np.ndarray
    hold: np.ndarray
    qs: np.ndarray
    joker: np.ndarray
    keep: np.ndarray
    feed: np.ndarray


class Work(NamedTuple):
    deck: np.ndarray      # int64[105]: the pack (or the stacked deck) in order
    stacked: bool
    stk: np.ndarray       # int64[105]: the stock, drawn from st[0] on
    pile: np.ndarray      # int64[105]
    hand: np.ndarray      # int64[K, 65]
    melds: np.ndarray     # int64[K, MAXM, W]
    nmeld: np.ndarray     # int64[K]
    arr: np.ndarray       # int64[MAXM, W]: scratch for arrangements
    arr2: np.ndarray      # int64[MAXM, W]
    opts: np.ndarray      # int64[NOPT, W]: options of a decision
    okind: np.ndarray     # int64[NOPT]: O_*
    oarg: np.ndarray      # int64[NOPT]: the meld index of a layoff or swap
    ocard: np.ndarray     # int64[NOPT]: the card of a layoff or swap
    tmp: np.ndarray       # int64[65]
    seen: np.ndarray      # int64[K]: bit r: the seat discarded a card of rank r this hand
    scores: np.ndarray    # int64[K]: game totals
    pts: np.ndarray       # int64[K]: this hand's points
    takes: np.ndarray     # int64[K]
    st: np.ndarray        # int64[6]: stock top, stock size, pile size, reshuffled, log pos, turns
    rs: np.ndarray        # uint64[2]: the card stream and the strategy stream
    wk: np.ndarray        # int64[WK]: the meld search's work buffer (ME.arrange_in)
    chand: np.ndarray     # int64[65]: a hand whose arrangement is kept (-1: none) ...
    carr: np.ndarray      # int64[MAXM, W]: ... its melds
    cst: np.ndarray       # int64[2]: ... its deadwood and number of melds
    free: np.ndarray      # int64[K]: 1 when the seat's hand surely holds no meld
    okey: np.ndarray      # int64[NOPT]: baseline_take's scratch: an option's group ...
    oval: np.ndarray      # int64[NOPT]: ... the worth of the hand it leaves ...
    oknown: np.ndarray    # int64[NOPT]: ... bit 0: visited, bit 2: its group's worth known
    oub: np.ndarray       # int64[NOPT]: ... its bound (worth_bound of that hand plus its gain) ...
    ogain: np.ndarray     # int64[NOPT]: ... and what it adds to the melds on the table


def table(rules) -> Table:
    return record(Table, players=rules.players, layoff_take=rules.pile_take == PILE_TAKE[1],
                  final_discard=rules.final_discard, reshuffle=rules.stock_end == STOCK_END[1],
                  going_out=rules.going_out, target=rules.target, game_bonus=rules.game_bonus,
                  rotate=rules.next_dealer == NEXT_DEALER[1], game=rules.unit == "game",
                  max_turns=rules.max_turns, max_hands=rules.max_hands, mr=meld_rules(rules))


def work(rules, stacked=None) -> Work:
    d = make_deck(rules) if stacked is None else np.asarray(stacked, np.int64)
    d = d.astype(np.int64)
    K = rules.players
    return record(Work, deck=d, stacked=stacked is not None, stk=np.zeros(N_PACK, np.int64),
                  pile=np.zeros(N_PACK, np.int64), hand=np.zeros((K, NC), np.int64),
                  melds=np.zeros((K, MAXM, W_), np.int64), nmeld=np.zeros(K, np.int64),
                  arr=np.zeros((MAXM, W_), np.int64), arr2=np.zeros((MAXM, W_), np.int64),
                  opts=np.zeros((NOPT, W_), np.int64), okind=np.zeros(NOPT, np.int64),
                  oarg=np.zeros(NOPT, np.int64), ocard=np.zeros(NOPT, np.int64),
                  tmp=np.zeros(NC, np.int64), seen=np.zeros(K, np.int64),
                  scores=np.zeros(K, np.int64), pts=np.zeros(K, np.int64),
                  takes=np.zeros(K, np.int64), st=np.zeros(6, np.int64),
                  rs=np.zeros(2, np.uint64), wk=np.zeros(WK, np.int64),
                  chand=np.full(NC, -1, np.int64), carr=np.zeros((MAXM, W_), np.int64),
                  cst=np.zeros(2, np.int64), free=np.zeros(K, np.int64),
                  okey=np.zeros(NOPT, np.int64), oval=np.zeros(NOPT, np.int64),
                  oknown=np.zeros(NOPT, np.int64), oub=np.zeros(NOPT, np.int64),
                  ogain=np.zeros(NOPT, np.int64))


def metrics(rules) -> list[Metric]:
    game = rules.unit == "game"
    seat, tail = (SEAT_GAME, TAIL_GAME) if game else (SEAT_HAND, TAIL_HAND)
    out = [Metric(f"p{k + 1}_{n}", binary=n in BINARY, doc=f"p{k + 1}: " + DOCS[n], unit=UNITS[n])
           for k in range(rules.players) for n in seat]
    return out + [Metric(n, binary=n in BINARY, doc=DOCS[n], unit=UNITS[n]) for n in tail]


def log_columns(rules) -> list[str]:
    return (["dealer", "events"] + [f"dealt_{j}" for j in range(rules.players * N_HAND)]
            + ["upcard"] + [f"event_{j}" for j in range(MAX_LOG)])


# --------------------------------------------------------------------------- values, log

@njit(cache=True, nogil=True, **NO_REFCOUNT)
def wild_value(stands, low):
    """A melded deuce's value by the card it stands for (line 87: as K..8 10, as lower cards 5;
    an ace 10 when high, 5 when low)."""
    r = stands & 15
    if r == 14:
        return 5 if low else 10
    return 10 if r >= 8 else 5


def wild_tables():
    """:func:`meld_value`'s tables by code: ``DEUCE[a]`` 1 for a deuce (not the joker),
    ``WILD_UP[s]`` and ``WILD_LOW[s]`` what a deuce standing for ``s`` adds to its
    :data:`MELD_VALUE` (:func:`wild_value`, the ace high and low)."""
    deuce = np.zeros(NC, np.int64)
    up = np.zeros(NC, np.int64)
    low = np.zeros(NC, np.int64)
    wv = getattr(wild_value, "py_func", wild_value)      # plain Python (NUMBA_DISABLE_JIT: itself)
    for c in range(64):
        deuce[c] = 1 if (c & 15) == 2 else 0
        up[c] = wv(c, False) - MELD_VALUE[2]
        low[c] = wv(c, True) - MELD_VALUE[2]
    return deuce, up, low


DEUCE, WILD_UP, WILD_LOW = wild_tables()


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def meld_value(row):
    """The plus value of a meld on the table (line 87): its cards' :data:`MELD_VALUE`, a deuce's
    by the card it stands for (:func:`wild_value`: the first card of a run from the low ace
    stands for that ace), without a branch a card (tests/test_oklahoma.py checks it against
    :func:`wild_value` card by card)."""
    t = 0
    for j in range(row[1]):
        a = row[3 + 2 * j]
        t += MELD_VALUE[a] + DEUCE[a] * WILD_UP[row[4 + 2 * j]]
    if row[0] == ME.KIND_RUN and (row[2] & 15) == 1:
        t += DEUCE[row[3]] * (WILD_LOW[row[4]] - WILD_UP[row[4]])
    return t


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def in_hand(hand):
    t = 0
    for c in range(NC):
        t += hand[c] * HAND_VALUE[c]
    return t


@njit(cache=True, nogil=True, inline="always")
def size(hand):
    t = 0
    for c in range(NC):
        t += hand[c]
    return t


@njit(cache=True, nogil=True, inline="always")
def leaves_ok(R, n):
    """May a meld phase leave ``n`` cards?  Without ``final_discard`` not one: the turn must end
    with a discard that does not empty the hand."""
    return R.final_discard or n != 1


@njit(cache=True, nogil=True, inline="always")
def is_wild(c):
    return c == JOKER or (c & 15) == 2


# --------------------------------------------------------------------------- stock and pile

# The turn compiles without reference counts (play_hand: NO_REFCOUNT); so do the meld engine's
# calls, which allocate nothing given the work buffer ``W.wk`` (a search too big for it
# allocates in a function of its own that counts).

@njit(cache=True, nogil=True, **NO_REFCOUNT)
def arrange_in(hand, R, arr, wk):
    return ME.arrange_in(hand, R.mr, HAND_VALUE, arr, wk)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def melds_with(hand, mr, code, min_from_hand, out, wk):
    return ME.melds_with_in(hand, mr, code, min_from_hand, out, wk)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def add_options(row, code, mr, out):
    return ME.add_options(row, code, mr, out)


@njit(cache=True, nogil=True)
def reshuffle(W, log, i):
    """The pile but its top card becomes the stock (drawn lazily at random as before)."""
    m = W.st[2] - 1
    for j in range(m):
        W.stk[j] = W.pile[j]
    W.pile[0] = W.pile[m]
    W.st[0], W.st[1], W.st[2], W.st[3] = 0, m, 1, 1
    put_event(log, i, W.st, 4, EV_RESHUFFLE, 0, m, 0)


# --------------------------------------------------------------------------- laying cards

@njit(cache=True, nogil=True, inline="always")
def lay_meld(W, p, row, skip, log, i):
    """Seat ``p`` lays the meld ``row``: its cards leave the hand, except one copy of ``skip``
    (the pile's top card, which does not come from the hand; -1: none)."""
    k = W.nmeld[p]
    put_event(log, i, W.st, 4, EV_MELD, p, k, row[1])
    for j in range(row[1]):
        a = row[3 + 2 * j]
        if a == skip:
            skip = -1
        else:
            W.hand[p, a] -= 1
        put_event(log, i, W.st, 4, EV_CARD, p, row[4 + 2 * j], a)
    for q in range(W_):
        W.melds[p, k, q] = row[q]
    W.nmeld[p] = k + 1


@njit(cache=True, nogil=True, inline="always")
def lay_off(W, p, m, row, card, from_hand, log, i):
    """Seat ``p`` adds ``card`` to its meld ``m``, which becomes ``row``."""
    if from_hand:
        W.hand[p, card] -= 1
    put_event(log, i, W.st, 4, EV_LAYOFF, p, m, row[1])
    # the new card is first when a run grew downwards (its key moved), else last
    j = 0 if row[0] == ME.KIND_RUN and row[2] != W.melds[p, m, 2] else row[1] - 1
    put_event(log, i, W.st, 4, EV_CARD, p, row[4 + 2 * j], card)
    for q in range(W_):
        W.melds[p, m, q] = row[q]


@njit(cache=True, nogil=True, inline="always")
def swap_joker(W, p, m, card, log, i):
    """Seat ``p`` puts the natural ``card`` in place of the joker of its meld ``m`` (line 86)."""
    j = ME.joker_swap(W.melds[p, m], card)
    W.melds[p, m, 3 + 2 * j] = card
    W.melds[p, m, 4 + 2 * j] = card
    W.hand[p, card] -= 1
    W.hand[p, JOKER] += 1
    put_event(log, i, W.st, 4, EV_SWAP, p, m, card)


@njit(cache=True, nogil=True, inline="always")
def may_fit(row, c):
    """A quick necessary condition for ``c`` to go on the meld ``row`` (a wild may go anywhere;
    a natural on a set of its rank or next to either end of a run of its suit)."""
    if is_wild(c):
        return True
    r = c & 15
    if row[0] != ME.KIND_RUN:
        return r == row[2]
    if c >> 4 != row[2] >> 4:
        return False
    lo = row[2] & 15
    hi = lo + row[1] - 1
    if r == 14:
        return lo == 2 or hi == 13
    return r == lo - 1 or r == hi + 1


@njit(cache=True, nogil=True, inline="always")
def list_layoffs(R, W, p, card, k):
    """Append to the options every way ``card`` goes on one of seat ``p``'s melds."""
    for m in range(W.nmeld[p]):
        if W.melds[p, m, 1] >= R.mr.max_size or k >= NOPT or not may_fit(W.melds[p, m], card):
            continue
        n = add_options(W.melds[p, m], card, R.mr, W.opts[k:])
        for q in range(n):
            W.okind[k + q], W.oarg[k + q], W.ocard[k + q] = O_LAYOFF, m, card
        k += n
    return k


@njit(cache=True, nogil=True, inline="always")
def pile_options(R, W, p):
    """The legal ways to take the pile: new melds of its top card with >= 2 hand cards (and with
    ``layoff_take``, the top card laid off on an own meld).  Returns the count."""
    if W.nmeld[p] >= MAXM:
        return 0
    top = W.pile[W.st[2] - 1]
    hand = W.hand[p]
    k = 0
    # a natural top card that may_meld rules out of every meld of the hand with it makes no new
    # meld (most pile tops): no call of the listing
    hand[top] += 1
    mm = is_wild(top) or may_meld(hand, top, wilds_for(hand, R.mr.max_wild))
    hand[top] -= 1
    if mm:
        k = melds_with(hand, R.mr, top, 2, W.opts, W.wk)
        if k < 0:
            k = NOPT
    for q in range(k):
        W.okind[q] = O_MELD
    if R.layoff_take:
        k = list_layoffs(R, W, p, top, k)
    if not R.final_discard:
        # a take that leaves one card would leave a discard that goes out: not allowed
        n, pile = size(W.hand[p]), W.st[2]
        kept = 0
        for q in range(k):
            used = W.opts[q, 1] - 1 if W.okind[q] == O_MELD else 0
            if n - used + pile - 1 != 1:
                if kept != q:
                    for x in range(W_):
                        W.opts[kept, x] = W.opts[q, x]
                    W.okind[kept], W.oarg[kept] = W.okind[q], W.oarg[q]
                kept += 1
        k = kept
    return k


@njit(cache=True, nogil=True, inline="always")
def take_pile(W, p, o, log, i):
    """Seat ``p`` takes the pile with option ``o``: the top card is melded at once, the rest of
    the pile goes to the hand."""
    n = W.st[2]
    top = W.pile[n - 1]
    put_event(log, i, W.st, 4, EV_TAKE, p, n, top)
    if W.okind[o] == O_MELD:
        lay_meld(W, p, W.opts[o], top, log, i)
    else:
        lay_off(W, p, W.oarg[o], W.opts[o], top, False, log, i)
    for j in range(n - 1):
        W.hand[p, W.pile[j]] += 1
    W.st[2] = 0
    W.takes[p] += 1


# --------------------------------------------------------------------------- the baseline

@njit(cache=True, nogil=True, **NO_REFCOUNT)
def worth(hand, R, arr, wk):
    """A hand's worth to the baseline: its least-deadwood arrangement's melded values minus the
    in-hand values of the rest; ``(worth, melds, deadwood)`` (``wk``: the search's buffer)."""
    dw, nm = ME.arrange_in(hand, R.mr, HAND_VALUE, arr, wk)
    v = 0
    for k in range(nm):
        v += meld_value(arr[k])
    return v - dw, nm, dw


@njit(cache=True, nogil=True, inline="always")
def _near(hand, s, q):
    """Does ``hand`` hold the natural of suit ``s`` at rank position ``q`` (1 and 14: the ace;
    the deuce's position 2 holds no natural, deuces being wild)?"""
    if q == 1:
        q = 14
    return 3 <= q <= 14 and hand[s * 16 + q] > 0


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def may_meld(hand, c, w):
    """A necessary condition for the natural ``c`` of ``hand`` to be in some legal meld of
    ``hand`` (Oklahoma's melds, ``w`` the wild cards a meld may use, at most: the hand's wilds
    capped by ``max_wild``): two wilds meld with any natural; else a set of its rank, or a
    three-card window of its suit (every longer run holds one) with at most ``w`` gaps."""
    if w >= 2:
        return True
    r, s = c & 15, c >> 4
    same = hand[c] - 1
    for x in range(4):
        if x != s:
            same += hand[x * 16 + r]
    if same >= 2 - w:
        return True
    x = r
    while True:              # the ace: high, then low
        a1, a2 = _near(hand, s, x - 2), _near(hand, s, x - 1)
        b1, b2 = _near(hand, s, x + 1), _near(hand, s, x + 2)
        if w == 1 and (a1 or a2 or b1 or b2):
            return True
        if (a1 and a2) or (a2 and b1) or (b1 and b2):
            return True
        if x != 14:
            return False
        x = 1


@njit(cache=True, nogil=True, inline="always")
def _suit_lane(hand, s):
    """Bit ``q``: ``hand`` holds the natural of suit ``s`` at rank position ``q`` (3..14, and
    bit 1 too for the ace: :func:`_near`'s positions as a mask)."""
    m = np.int64(0)
    for q in range(3, 15):
        if hand[s * 16 + q] > 0:
            m |= np.int64(1) << q
    return m | ((m >> 13) & 2)


@njit(cache=True, nogil=True, inline="always")
def _run_ok(m, w):
    """:func:`may_meld`'s run test for every position of a suit at once (``m`` its
    :func:`_suit_lane`, ``w`` 0 or 1): bit ``x`` set when position ``x`` has a three-card window
    with at most ``w`` gaps (the ace, position 14, also by its low position 1)."""
    a1, a2, b1, b2 = m << 2, m << 1, m >> 1, m >> 2
    ok = (a1 & a2) | (a2 & b1) | (b1 & b2)
    if w == 1:
        ok |= a1 | a2 | b1 | b2
    return ok | ((ok & 2) << 13)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def _fill(packed, m):
    """The sum of the ``m`` highest :data:`GAIN_VALUE` of the naturals counted in ``packed``
    (:func:`worth_bound`: 8 bits a class, the highest class lowest)."""
    t = 0
    for j in range(4):
        if m <= 0:
            break
        n = min((packed >> (8 * j)) & 255, m)
        t += n * GAIN_VALUE[j]
        m -= n
    return t


@njit(cache=True, nogil=True, inline="always")
def _gapped(m):
    """Bit ``q``: position ``q`` of a suit whose :func:`_suit_lane` is ``m`` is one of three
    naturals in four positions whose missing one is inside (``x . x+2 x+3`` or ``x x+1 . x+3``:
    what a four-card run with one wild and three naturals none of which three naturals in a row
    hold looks like); the ace by either position."""
    a = m & ~(m >> 1) & (m >> 2) & (m >> 3)
    b = m & (m >> 1) & ~(m >> 2) & (m >> 3)
    t = a | (a << 2) | (a << 3) | b | (b << 1) | (b << 3)
    return t | ((t & 2) << 13)


@njit(cache=True, nogil=True, inline="always")
def _masks(hand):
    """``hand`` as :func:`worth_bound` reads it: its naturals as masks of card codes, held once
    or more (``l1``) and twice (``l2``: two decks, no more), their :data:`MELD_VALUE` summed,
    its wild cards and its jokers."""
    l1, l2, v = np.int64(0), np.int64(0), 0
    for s in range(4):
        for r in range(3, 15):
            c = s * 16 + r
            k = hand[c]
            v += k * MELD_VALUE[c]
            l1 |= np.int64(k > 0) << c
            l2 |= np.int64(k > 1) << c
    nj = hand[JOKER]
    return l1, l2, v, nj + hand[2] + hand[18] + hand[34] + hand[50], nj


@njit(cache=True, nogil=True, inline="always")
def _counted(c1, c2, c3, x):
    """Saturating counters of masks: ``x`` added to "at least 1, 2, 3"."""
    return c1 | x, c2 | (c1 & x), c3 | (c2 & x)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def worth_bound(hand, max_wild):
    """An upper bound of :func:`worth` (exact, cheap): a card melded counts at most its
    :data:`MELD_VALUE` (a deuce at most 10, :func:`wild_value`), one in hand minus its
    :data:`HAND_VALUE` (below any meld value).  A natural that :func:`may_meld` rules out of
    every meld with no wild (``w`` 0: "needy") is melded only in a meld with a wild card, one it
    rules out with one wild only in a meld with two or more (may_meld's test done on masks of
    the suits: :func:`_run_ok`).  Melds have 3-4 cards (line 85): a meld with two wilds or more
    holds at most two naturals; one with one wild at most two needy ones, or three when it is a
    run whose wild is inside (a set of three naturals, or a run with three in a row, makes them
    not needy), each of them :func:`_gapped`.  The hand's ``nw`` wilds make at most ``a`` melds
    of one and ``b`` of two or more, ``a + 2b <= nw``: the bound counts melded the highest
    valued of the needy naturals the best such split can hold, the others in hand (their
    :data:`GAIN_VALUE`, meld plus hand value, taken off).  The hand is masks (:func:`_masks`; the
    options of a pile decision change the base hand's, :func:`option_bounds`), the ranks held
    twice or three times or more saturating counts of them (:func:`_counted`), and only the
    needy naturals are walked card by card (:func:`_bound`).  tests/test_oklahoma.py checks it
    against the search and against the rule spelled out card by card."""
    l1, l2, v, nw, nj = _masks(hand)
    return _bound(l1, l2, v, nw, nj, max_wild)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def _bound(l1, l2, v, nw, nj, max_wild):
    """:func:`worth_bound` of the hand whose :func:`_masks` are ``l1, l2, v, nw, nj``."""
    t = nj * MELD_VALUE[JOKER] + 10 * (nw - nj) + v
    w = min(nw, max_wild)
    c1, c2, c3 = np.int64(0), np.int64(0), np.int64(0)      # ranks held 1, 2, 3 times or more
    for s in range(4):
        c1, c2, c3 = _counted(c1, c2, c3, (l1 >> (16 * s)) & 0xFFFF)
        c1, c2, c3 = _counted(c1, c2, c3, (l2 >> (16 * s)) & 0xFFFF)
    n1, m1, n2, m2 = np.int64(0), 0, np.int64(0), 0    # needing one wild / two: by class, count
    m3 = 0                                             # ... of the first, _gapped ones
    for s in range(4):
        lane = (l1 >> (16 * s)) & 0xFFFF
        m = lane | ((lane >> 13) & 2)
        needy = lane & ~_run_ok(m, 0) & ~c3
        if needy == 0:
            continue
        ok1 = (_run_ok(m, 1) | c2) if w >= 1 else np.int64(0)
        gap = _gapped(m) if w >= 1 else np.int64(0)
        while needy:
            r = lowest_code(needy)
            needy &= needy - 1
            c = s * 16 + r
            k = ((l1 >> c) & 1) + ((l2 >> c) & 1)
            if (ok1 >> r) & 1:
                n1 += k << GAIN_SHIFT[c]
                m1 += k
                m3 += k * ((gap >> r) & 1)
            elif w >= 2:
                n2 += k << GAIN_SHIFT[c]
                m2 += k
            else:
                t -= k * (MELD_VALUE[c] + HAND_VALUE[c])
    if m1 + m2 == 0:
        return t
    t -= _fill(n1, m1) + _fill(n2, m2)
    if m2 == 0:            # melds of one wild each hold the most
        return t + _fill(n1, 2 * nw + min(nw, m3 // 3))
    best = 0
    for b in range(nw // 2 + 1 if max_wild >= 2 else 1):
        a = nw - 2 * b
        cap = 2 * (a + b) + min(a, m3 // 3)
        for i in range(min(2 * b, m2, cap) + 1):
            best = max(best, _fill(n2, i) + _fill(n1, cap - i))
    return t + best


@njit(cache=True, nogil=True, inline="always")
def keep_arrangement(W, hand, arr, dw, nm):
    """Keep ``hand``'s arrangement (``arr[:nm]``, deadwood ``dw``) for :func:`arrangement`."""
    for c in range(NC):
        W.chand[c] = hand[c]
    for k in range(min(nm, MAXM)):
        for q in range(W_):
            W.carr[k, q] = arr[k, q]
    W.cst[0], W.cst[1] = dw, nm


@njit(cache=True, nogil=True, inline="always")
def arrangement(R, W, hand):
    """``ME.arrange`` of ``hand`` into ``W.arr``: the kept one when it is of this very hand (the
    pile option the take chose is the hand after the take), else searched."""
    same = True
    for c in range(NC):
        if W.chand[c] != hand[c]:
            same = False
            break
    if not same:
        return arrange_in(hand, R, W.arr, W.wk)
    nm = W.cst[1]
    for k in range(min(nm, MAXM)):
        for q in range(W_):
            W.arr[k, q] = W.carr[k, q]
    return W.cst[0], nm


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def sort_key(key):
    """``key``'s 7-bit digits (codes + 1, at most 8) in ascending order: the same key for the
    same multiset of cards (a selection sort on the packed digits: no array allocated; up to
    three digits, an option's most, three compare-and-swaps: absent digits are zeros, which sort
    first and pack to nothing)."""
    if key < (1 << 21):
        a, b, c = key >> 14, (key >> 7) & 127, key & 127
        if a > b:
            a, b = b, a
        if b > c:
            b, c = c, b
        if a > b:
            a, b = b, a
        return (a << 14) | (b << 7) | c
    out = np.int64(0)
    while key > 0:
        lo = np.int64(128)
        t = key
        while t > 0:
            lo = min(lo, t & 127)
            t >>= 7
        rest = np.int64(0)         # key less one digit ``lo``, the others in their order
        sh = 0
        gone = False
        t = key
        while t > 0:
            x = t & 127
            t >>= 7
            if x == lo and not gone:
                gone = True
            else:
                rest |= x << sh
                sh += 7
        key = rest
        out = out * 128 + lo
    return out


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def option_base(W, p, tmp):
    """Seat ``p``'s hand with the pile but its top card, into ``tmp``: the hand every option
    leaves but for the cards its meld takes from it (:func:`option_cards`)."""
    n = W.st[2]
    for c in range(NC):
        tmp[c] = W.hand[p, c]
    for j in range(n - 1):
        tmp[W.pile[j]] += 1


@njit(cache=True, nogil=True, inline="always")
def option_cards(W, o, tmp, d):
    """Adds ``d`` (-1: takes away, 1: puts back) of each hand card option ``o``'s meld takes
    (its row but the pile's top card; a layoff takes none) to ``tmp``."""
    if W.okind[o] != O_MELD:
        return
    row = W.opts[o]
    skip = W.pile[W.st[2] - 1]
    for j in range(row[1]):
        a = row[3 + 2 * j]
        if a == skip:
            skip = -1
        else:
            tmp[a] += d


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def option_hand(W, p, o, tmp):
    """The hand that taking the pile with option ``o`` leaves seat ``p``, into ``tmp``."""
    option_base(W, p, tmp)
    option_cards(W, o, tmp, -1)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def option_key(W, p, o):
    """The sorted codes option ``o`` takes from seat ``p``'s hand, packed (7 bits a code; more
    than 8 codes: ``-1 - o``, a key of its own; a deuce as the deuce of clubs), and its gain on
    the table.  Options of one key leave hands of the same worth: the same hand, or one whose
    deuces differ in suit only (a wild deuce's suit plays no part in a meld's legality or value,
    nor in its value in hand: tests/test_oklahoma.py checks the search agrees)."""
    row = W.opts[o]
    key = np.int64(0)
    if W.okind[o] != O_MELD:
        return key, meld_value(row) - meld_value(W.melds[p, W.oarg[o]])
    skip = W.pile[W.st[2] - 1]
    nk = 0
    for j in range(row[1]):
        a = row[3 + 2 * j]
        if a == skip:
            skip = -1
        else:
            nk += 1
            if a != JOKER and (a & 15) == 2:
                a = 2
            key = key * 128 + a + 1 if nk <= 8 else -1 - o
    return (sort_key(key) if key >= 0 else key), meld_value(row)


@njit(cache=True, nogil=True, inline="always")
def _masks_less(W, o, base):
    """``base`` (:func:`_masks` of the options' base hand, :func:`option_base`) less the hand
    cards option ``o``'s meld takes (:func:`option_cards`): the masks of the hand it leaves."""
    l1, l2, v, nw, nj = base
    if W.okind[o] != O_MELD:
        return l1, l2, v, nw, nj
    row = W.opts[o]
    skip = W.pile[W.st[2] - 1]
    for j in range(row[1]):
        a = row[3 + 2 * j]
        if a == skip:
            skip = -1
        elif a == JOKER:
            nw -= 1
            nj -= 1
        elif (a & 15) == 2:
            nw -= 1
        else:
            v -= MELD_VALUE[a]
            if (l2 >> a) & 1:
                l2 &= ~(np.int64(1) << a)
            else:
                l1 &= ~(np.int64(1) << a)
    return l1, l2, v, nw, nj


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def option_bounds(R, W, p, k):
    """Every option's group (``W.okey``: the first option of its key, :func:`option_key`), gain and
    bound (:func:`worth_bound` of the hand it leaves plus its gain; one bound a group: the base
    hand's :func:`_masks` less the option's cards, :func:`_masks_less`) into
    ``W.okey``, ``W.ogain``, ``W.oub``; ``W.oknown`` cleared; ``W.tmp`` the options' base hand
    (:func:`option_base`), which baseline_take keeps.  (``W.oval`` holds a group's key here,
    its hand's worth once baseline_take searched it.)"""
    reps, gains, ubs, raw = W.okey, W.ogain, W.oub, W.oval
    option_base(W, p, W.tmp)
    base = _masks(W.tmp)
    for o in range(k):
        key, gain = option_key(W, p, o)
        raw[o], gains[o], W.oknown[o] = key, gain, 0
        q = 0
        while q < o and (reps[q] != q or raw[q] != key):
            q += 1
        reps[o] = q
        if q < o:
            ubs[o] = ubs[q] - gains[q] + gain
        else:
            l1, l2, v, nw, nj = _masks_less(W, o, base)
            ubs[o] = _bound(l1, l2, v, nw, nj, R.mr.max_wild) + gain


@njit(cache=True, nogil=True, inline="always")
def baseline_take(R, S, W, p, k, forced):
    """The option to take the pile with (-1: draw from the stock instead; ``forced``: the
    stock is empty, so the best option is taken whatever it is worth): the first option of the
    highest worth (the hand it leaves plus its gain), when that is at least the hand's worth
    plus ``pile_gain``.  Options are searched in the order of their bounds, highest first; the
    hand's own worth only when the decision needs more than its bounds (``-in_hand`` below,
    :func:`worth_bound` above)."""
    n = W.st[2]
    if n < S.pile_min[p] and not forced:
        return -1
    hand = W.hand[p]
    pg = S.pile_gain[p]
    option_bounds(R, W, p, k)
    # no allocation; ``known``: bit 0 the option was visited, bit 2 (on a group's first
    # option) the group's worth is in ``vals``
    reps, vals, known, ubs, gains = W.okey, W.oval, W.oknown, W.oub, W.ogain
    # the floor the best option must reach: within [lo, hi] until the hand's worth is searched
    exact = forced or W.free[p] != 0     # a meldless hand's worth is -in_hand: no search
    lo = -(1 << 40) if forced else -in_hand(hand) + pg
    hi = lo if exact else worth_bound(hand, R.mr.max_wild) + pg
    floor = lo
    best, bo = -(1 << 40), -1
    while True:
        # the unvisited option of the highest bound (ties: the first); none of the others can
        # be the one returned when it is below the best so far, or equal and later, or
        # (unforced) below the floor
        o = -1
        for q in range(k):
            if (known[q] & 1) == 0 and (o < 0 or ubs[q] > ubs[o]):
                o = q
        if o < 0 or ubs[o] < best or (ubs[o] == best and o > bo):
            break
        if not exact and ubs[o] < hi:
            floor = worth(hand, R, W.arr, W.wk)[0] + pg
            exact = True
        if ubs[o] < floor:
            break
        known[o] |= 1
        r = reps[o]
        if (known[r] & 4) == 0:
            option_cards(W, o, W.tmp, -1)        # W.tmp: the hand option o leaves
            v, nm, dw = worth(W.tmp, R, W.arr2, W.wk)
            if v + gains[o] > best or (v + gains[o] == best and o < bo):
                keep_arrangement(W, W.tmp, W.arr2, dw, nm)
            option_cards(W, o, W.tmp, 1)
            vals[r] = v
            known[r] |= 4
        g = vals[r] + gains[o]
        if g > best or (g == best and o < bo):
            best, bo = g, o
    if forced or best >= hi:
        return bo
    if best < floor:
        return -1
    if not exact:
        floor = worth(hand, R, W.arr, W.wk)[0] + pg
    return bo if best >= floor else -1


@njit(cache=True, nogil=True, inline="always")
def has_qs(row):
    for j in range(row[1]):
        if row[3 + 2 * j] == QS:
            return True
    return False


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def wilds_for(hand, max_wild):
    """The wild cards a meld of ``hand`` may use, at most (:func:`may_meld`'s ``w``)."""
    w = hand[JOKER]
    for s in range(4):
        w += hand[s * 16 + 2]
    return min(w, max_wild)


@njit(cache=True, nogil=True, inline="always")
def baseline_melds(R, S, W, p, drawn, log, i):
    """Take the joker back, lay down the least-deadwood arrangement (or hold it), lay off.
    ``drawn``: the card drawn from the stock this turn (-1: the pile was taken).  Returns the
    number of cards left in hand."""
    hand = W.hand[p]
    if S.joker[p]:
        for m in range(W.nmeld[p]):
            row = W.melds[p, m]
            for j in range(row[1]):
                c = row[4 + 2 * j]
                if row[3 + 2 * j] == JOKER and hand[c] > 0:
                    swap_joker(W, p, m, c, log, i)
                    drawn = -1            # a joker came back to the hand: it may meld anew
                    break
    # a hand that held no meld (W.free) and drew one card: every meld of it holds that card,
    # so when may_meld rules a natural out of every meld there is none, and the arrangement is
    # every card in hand (what the search would find, without searching); else it holds one
    # meld at most, which drawn_arrangement finds without the search (drawn.py)
    if (drawn >= 0 and W.free[p] and not is_wild(drawn)
            and not may_meld(hand, drawn, wilds_for(hand, R.mr.max_wild))):
        dw, nm = in_hand(hand), 0
    elif drawn >= 0 and W.free[p] and R.mr.min_natural >= 1:
        dw, nm = drawn_arrangement(hand, R.mr, drawn, HAND_VALUE, W.arr)
    else:
        dw, nm = arrangement(R, W, hand)
    n = size(hand)             # kept up to date below: every card laid leaves the hand
    melded = 0
    for k in range(nm):
        melded += W.arr[k, 1]
    lay_all = S.hold[p] == 0 or n - melded <= 1
    laid = 0
    for k in range(nm):
        if W.nmeld[p] >= MAXM:
            break
        if not leaves_ok(R, n - W.arr[k, 1]):
            continue
        if lay_all or (S.qs[p] and has_qs(W.arr[k])):
            lay_meld(W, p, W.arr[k], -1, log, i)
            n -= W.arr[k, 1]
            laid += 1
    # every meld of a least-deadwood arrangement laid: the cards left hold no meld (one more
    # would lower the deadwood, every card's value being positive), nor do they after layoffs
    # and the discard, until this seat's next turn
    W.free[p] = 1 if laid == nm else 0
    # lay off natural cards; a wild only when that empties the hand (no meld on the table:
    # nothing to lay off on)
    if W.nmeld[p] > 0:
        n = lay_offs(R, W, p, n, log, i)
    return n


@njit(cache=True, nogil=True, inline="always")
def fit_mask(R, W, p):
    """The naturals :func:`may_fit` puts on one of seat ``p``'s melds not full: bit ``c`` for
    card ``c`` (< 64); and whether there is such a meld at all (the wilds then fit)."""
    f = 0
    some = False
    for m in range(W.nmeld[p]):
        row = W.melds[p, m]
        if row[1] >= R.mr.max_size:
            continue
        some = True
        if row[0] != ME.KIND_RUN:
            f |= RANK_BITS[row[2] & 15] if row[2] < 16 else 0
        else:
            s, lo = row[2] >> 4, row[2] & 15
            hi = lo + row[1] - 1
            f |= SUIT_RANKS[lo - 1 if lo >= 1 else 0] << (16 * s)
            f |= SUIT_RANKS[hi + 1 if hi <= 14 else 0] << (16 * s)
            if lo == 2 or hi == 13:
                f |= 1 << (16 * s + 14)
    return f, some


@njit(cache=True, nogil=True, inline="always")
def held_planes(hand):
    """The cards ``c`` < 64 that ``hand`` holds at least once and at least twice, as masks (the
    pack holds two of each natural, so the two planes count every copy)."""
    one = np.int64(0)
    two = np.int64(0)
    for c in range(64):
        one |= np.int64(hand[c] > 0) << c
        two |= np.int64(hand[c] > 1) << c
    return one, two


@njit(cache=True, nogil=True, inline="always")
def lay_offs(R, W, p, n, log, i):
    """Lay off the hand's cards one at a time, each the lowest code that goes on a meld (a wild
    only when at most two cards are left), until none does; returns the cards left.  Only the
    cards of :func:`fit_mask` are tried (those ``may_fit`` lets through, in code order)."""
    hand = W.hand[p]
    while leaves_ok(R, n - 1):
        f, some = fit_mask(R, W, p)
        if not some:
            break
        if n <= 2:
            f |= WILD_BITS
        c = -1
        while f != 0:
            b = lowest_code(f)
            f &= f - 1
            if hand[b] > 0 and list_layoffs(R, W, p, b, 0) > 0:
                c = b
                break
        if c < 0 and n <= 2 and hand[JOKER] > 0 and list_layoffs(R, W, p, JOKER, 0) > 0:
            c = JOKER
        if c < 0:
            break
        lay_off(W, p, W.oarg[0], W.opts[0], c, True, log, i)
        n -= 1
    return n


def connection_table():
    """:func:`connections`' cards by code: ``int64[65, 8]``, the codes a card could meld with
    (its rank in the other suits; its suit one or two ranks away, the ace next to the three as
    well as the king), padded with code 63 (no card: never held)."""
    t = np.full((NC, 8), 63, np.int64)
    for c in range(64):
        r, s = c & 15, c >> 4
        near = [x * 16 + r for x in range(4) if x != s]
        for d in (-2, -1, 1, 2):
            q = 14 if r + d == 1 else r + d
            if 3 <= q <= 14:
                near.append(s * 16 + q)
        if r == 14:
            near.append(s * 16 + 3)
        t[c, :len(near)] = near
    return t


CONNECT = connection_table()
NEAR = np.array([sum(1 << int(x) for x in set(row) if x != 63) for row in CONNECT]
                ).astype(np.uint64).view(np.int64)   # CONNECT's codes as a mask by card


@njit(cache=True, nogil=True, inline="always")
def connections(one, two, c):
    """Cards of a hand that ``c`` could meld with (:data:`CONNECT`; the joker: none), from the
    hand's :func:`held_planes` ``one`` and ``two`` (:data:`NEAR`: two popcounts, no loop)."""
    if c == JOKER:
        return 0
    m = NEAR[c]
    return popcount(m & one) + popcount(m & two) + ((two >> c) & 1)


@njit(cache=True, nogil=True, inline="always")
def discardable(hand, c, n, final_discard):
    """May a card ``c`` of a hand of ``n`` cards be discarded (line 87: the Q♠ only when the
    player holds nothing else)?"""
    if hand[c] == 0 or (n == 1 and not final_discard):
        return False
    if c == QS:
        return hand[QS] == n
    return True


@njit(cache=True, nogil=True, inline="always")
def baseline_discard(R, S, W, p, n):
    """The card to discard from seat ``p``'s hand of ``n`` cards: the last of the lowest
    score among the natural cards, a wild card only when no natural may go."""
    hand = W.hand[p]
    nxt = (p + 1) % R.players
    pile = W.st[2]
    best, bc = -(1 << 40), -1         # the naturals' ...
    bestw, bw = -(1 << 40), -1        # ... and the wilds'
    f, two = held_planes(hand)        # the cards held in code order, the joker last
    one = f
    c = -1
    while c < JOKER:
        if f != 0:
            c = lowest_code(f)
            f &= f - 1
        else:
            c = JOKER
        if not discardable(hand, c, n, R.final_discard):
            continue
        sc = HAND_VALUE[c] - S.keep[p] * connections(one, two, c)
        if S.feed[p] and not (W.seen[nxt] >> (c & 15)) & 1:
            sc -= S.feed[p] * (pile + 1)
        if is_wild(c):
            if sc >= bestw:
                bestw, bw = sc, c
        elif sc >= best:
            best, bc = sc, c
    return bc if bc >= 0 else bw


# --------------------------------------------------------------------------- the random player

@njit(cache=True, nogil=True, **NO_REFCOUNT)
def random_option(W, k):
    j, W.rs[1] = bounded(W.rs[1], k)
    return j


@njit(cache=True, nogil=True, **REFCOUNT)
def random_melds(R, W, p, log, i):
    """Until it stops: a uniformly random choice among every new meld, layoff, joker swap and
    stopping."""
    hand = W.hand[p]
    for _ in range(200):
        k = ME.legal_melds(hand, R.mr, W.opts)
        if k < 0:
            k = NOPT
        for q in range(k):
            W.okind[q] = O_MELD
        for c in range(NC):
            if hand[c] > 0 and k < NOPT:
                k = list_layoffs(R, W, p, c, k)
        for m in range(W.nmeld[p]):
            row = W.melds[p, m]
            for j in range(row[1]):
                c = row[4 + 2 * j]
                if row[3 + 2 * j] == JOKER and hand[c] > 0 and k < NOPT:
                    W.okind[k], W.oarg[k], W.ocard[k] = O_SWAP, m, c
                    k += 1
        if W.nmeld[p] >= MAXM:
            k = 0
        o = random_option(W, k + 1)
        if o == k:
            return
        n = size(hand)
        after = n - W.opts[o, 1] if W.okind[o] == O_MELD else n - 1 if W.okind[o] == O_LAYOFF else n
        if not leaves_ok(R, after):
            return                     # an action that would leave one card counts as stopping
        if W.okind[o] == O_MELD:
            lay_meld(W, p, W.opts[o], -1, log, i)
        elif W.okind[o] == O_LAYOFF:
            lay_off(W, p, W.oarg[o], W.opts[o], W.ocard[o], True, log, i)
        else:
            swap_joker(W, p, W.oarg[o], W.ocard[o], log, i)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def random_discard(R, W, p):
    """A uniformly random legal physical card."""
    hand = W.hand[p]
    n = size(hand)
    tot = 0
    for c in range(NC):
        if discardable(hand, c, n, R.final_discard):
            tot += hand[c]
    if tot == 0:
        return -1
    j = random_option(W, tot)
    for c in range(NC):
        if discardable(hand, c, n, R.final_discard):
            if j < hand[c]:
                return c
            j -= hand[c]
    return -1


# --------------------------------------------------------------------------- a turn, a hand

@njit(cache=True, nogil=True, inline="always")
def turn(R, S, W, p, log, i):
    """Seat ``p`` plays a turn.  Returns 1 when it went out, -1 when the hand ends with nobody
    out (an empty stock and no pile take), 0 otherwise."""
    rand = S.kind[p] == K_RANDOM
    k = pile_options(R, W, p) if W.st[2] > 0 else 0
    stock_empty = W.st[0] >= W.st[1]
    o = -1
    c = -1
    if k > 0:
        if rand:
            if stock_empty or random_option(W, 2) == 1:
                o = random_option(W, k)
        else:
            o = baseline_take(R, S, W, p, k, stock_empty)
    if o >= 0:
        take_pile(W, p, o, log, i)
    else:
        if stock_empty and R.reshuffle and not W.st[3] and W.st[2] > 1:
            reshuffle(W, log, i)
        c = draw_stock(W.stk, W.st, W.rs, W.stacked)
        if c < 0:
            put_event(log, i, W.st, 4, EV_END, p, 0, 0)
            return -1
        W.hand[p, c] += 1
        put_event(log, i, W.st, 4, EV_DRAW, p, 0, c)
    if rand:
        random_melds(R, W, p, log, i)
        n = size(W.hand[p])
    else:
        n = baseline_melds(R, S, W, p, c, log, i)
    if n == 0:
        put_event(log, i, W.st, 4, EV_OUT, p, 0, 0)
        return 1
    d = random_discard(R, W, p) if rand else baseline_discard(R, S, W, p, n)
    if d >= 0:
        W.hand[p, d] -= 1
        W.pile[W.st[2]] = d
        W.st[2] += 1
        W.seen[p] |= 1 << (d & 15)
        put_event(log, i, W.st, 4, EV_DISCARD, p, 0, d)
        if n == 1:
            put_event(log, i, W.st, 4, EV_OUT, p, 0, 0)
            return 1
    return 0


@njit(cache=True, nogil=True, inline="always")
def holds_no_meld(hand, max_wild):
    """True when ``hand`` surely holds no meld (:data:`Work.free` for a dealt hand): at most one
    wild card, so a meld (three cards or more) holds two naturals or more, each of which
    :func:`may_meld` then lets through; it rules out every natural held (its test on the suits'
    masks, as :func:`worth_bound`: :func:`_run_ok` for runs, a rank's count for sets).  Exact
    when it says none: tests/test_oklahoma.py compares it with the search."""
    w = hand[JOKER] + hand[2] + hand[18] + hand[34] + hand[50]
    if w > 1:
        return False
    w = min(w, max_wild)
    held = np.int64(0)
    for s in range(4):
        lane = _suit_lane(hand, s)
        if lane & _run_ok(lane, w) & 0x7ff8:        # a natural held (3..14) with a window
            return False
        held |= lane
    for r in range(3, 15):
        if (held >> r) & 1 and hand[r] + hand[16 + r] + hand[32 + r] + hand[48 + r] >= 3 - w:
            return False
    return True


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def deal(R, W, dealer, log, i, logging):
    K = R.players
    reset_stock(W.stk, W.st, W.deck)
    W.st[2], W.st[3] = 0, 0
    for p in range(K):
        for c in range(NC):
            W.hand[p, c] = 0
        W.nmeld[p] = 0
        W.seen[p] = 0
        W.takes[p] = 0
        W.pts[p] = 0
    for j in range(N_HAND * K):
        c = draw_stock(W.stk, W.st, W.rs, W.stacked)
        W.hand[(dealer + 1 + j) % K, c] += 1
        if logging:
            log[i, NHEAD + j] = c
    # a dealt hand that holds no meld is free: its first turn's drawn card then needs no search
    # of the whole hand (baseline_melds), nor its worth one (baseline_take)
    for p in range(K):
        W.free[p] = 1 if holds_no_meld(W.hand[p], R.mr.max_wild) else 0
    up = draw_stock(W.stk, W.st, W.rs, W.stacked)
    W.pile[0] = up
    W.st[2] = 1
    if logging:
        log[i, 0] = dealer
        log[i, NHEAD + N_HAND * K] = up
        W.st[4] = NHEAD + N_HAND * K + 1


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def play_hand(R, S, W, dealer, log, i, logging):
    """One hand from ``dealer``'s deal; fills ``W.pts``.  Returns ``(seat out or -1, turns)``."""
    K = R.players
    deal(R, W, dealer, log, i, logging)
    lg = log if logging else log[:0]
    p = (dealer + 1) % K
    out = -1
    t = 0
    while t < R.max_turns:
        t += 1
        r = turn(R, S, W, p, lg, i)
        if r == 1:
            out = p
            break
        if r < 0:
            break
        p = (p + 1) % K
    if out < 0 and t >= R.max_turns:
        put_event(lg, i, W.st, 4, EV_END, p, 0, 0)
    for q in range(K):
        v = -in_hand(W.hand[q])
        for m in range(W.nmeld[q]):
            v += meld_value(W.melds[q, m])
        if q == out:
            v += R.going_out
        W.pts[q] = v
    if logging:
        log[i, 1] = W.st[4] - (NHEAD + N_HAND * K + 1)
    return out, t


@njit(cache=True, nogil=True)
def play_deal(R, S, W, i, key, ukey, v, log):
    K = R.players
    logging = log.shape[0] > 0
    if logging:
        for q in range(log.shape[1]):
            log[i, q] = -1
    W.rs[0], W.rs[1] = key, ukey
    n = W.deck.shape[0]
    if not R.game:
        out, t = play_hand(R, S, W, K - 1, log, i, logging)
        NS = NSH
        for q in range(K):
            v[seat_slot(SH.points, NS, q)] = W.pts[q]
            v[seat_slot(SH.out, NS, q)] = 1.0 if q == out else 0.0
            v[seat_slot(SH.qs_stuck, NS, q)] = 1.0 if W.hand[q, QS] > 0 else 0.0
            v[seat_slot(SH.takes, NS, q)] = W.takes[q]
        v[NS * K] = t
        v[NS * K + 1] = 1.0 if out < 0 else 0.0
        return n
    NS = NSG
    scores = W.scores
    for q in range(K):
        scores[q] = 0
    dealer = K - 1
    hands = 0
    winner = -1
    for h in range(R.max_hands):
        out, t = play_hand(R, S, W, dealer, log, i, logging and h == 0)
        hands += 1
        for q in range(K):
            scores[q] += W.pts[q]
        best, bq, ties = -1, -(1 << 40), 0
        for q in range(K):
            if scores[q] > bq:
                best, bq, ties = q, scores[q], 1
            elif scores[q] == bq:
                ties += 1
        if (bq >= R.target or h == R.max_hands - 1) and ties == 1:
            winner = best
            break
        dealer = out if (out >= 0 and not R.rotate) else (dealer + 1) % K
    if winner >= 0:
        scores[winner] += R.game_bonus
        v[seat_slot(SG.win, NS, winner)] = 1.0
    for q in range(K):
        v[seat_slot(SG.score, NS, q)] = scores[q]
    v[NS * K] = hands
    return n * hands


@njit(cache=True, nogil=True)
def run_deals(R, S, W, state, n, acc, rows, log):
    return deal_loop(play_deal, SALT, R, S, W, state, n, acc, rows, log)
