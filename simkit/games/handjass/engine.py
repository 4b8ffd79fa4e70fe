"""Handjass kernels: deal, play or drop, the blind and the trump six, Weis and Stöck, the tricks and
the strokes and potatoes, for one deal or a whole game to the loser.  Rules:
:mod:`simkit.games.handjass.rules` (the readings, with the text's lines).

Cards are :mod:`simkit.core.cards` codes (``suit*16 + rank``, ranks 6..14), a hand a ``uint64``
mask; the tricks use :mod:`simkit.engines.tricks` (``trump_jack_free``, ``undertrump=False`` and
``trump_instead``).  Players are indexed in the direction of play (counter-clockwise): inside a
deal, *position* ``j`` is the ``j``-th player from the Forehand (the dealer is the last), and
``order[j]`` is that player's game seat (``pK`` is seat ``K - 1``).

Dealing (stacked decks use the same positions): the 36 cards of a deal are a partial
Fisher-Yates shuffle of the pack (:func:`simkit.core.rng.shuffle_prefix`) from the unit's card
stream; card ``p`` goes to hand ``(p % 12) // 3`` (four hands of nine in threes: the positions'
hands 0..m-1, then the blind and, with two players, the dead hand), or with ``dropping=false``
and fewer than four players to hand ``(p % 12) // 4`` (twelve each in fours).  The trump card is
position 35 (the dealer's last card with four players, the blind's or the stock's top card with
three or two), or the dealer's last card when everyone gets twelve.  With Bessern
(:func:`bessern_swaps`) the fourth hand's packets (three players) or the third's (two) are the
players' face-down threes, and with three players the dealer's last card (position 32) shows
trumps.

The kernel is :func:`run_deals`, the core deal loop over :func:`play_unit` (one deal, or one game
of deals, :func:`play_deal` each).  The strategies' choices come from the second stream
(``key ^ STRAT_SALT``), as do the card draws that settle tied strokes (line 140).

The move log (:func:`log_columns`) is one row per unit: ``played`` (deals played), then one block
of :data:`BLOCK_W` per deal (up to :data:`GAME_LOG_DEALS` in a game) of the house's events
(:mod:`simkit.engines.moves`: ``kind << 20 | seat << 16 | aux << 8 | card``, kinds :data:`KINDS`;
:func:`log_head`, :func:`play_tricks`, :func:`log_tail`), padded with -1: the deal's number, the
36 cards dealt in deck order with their receivers, the trump card, each position's choice,
Bessern's swaps, the trump six's exchange, the blind taker's forbidden card, Weis and Stöck, each
card played with its player, then the deal's card points, totals, strokes, potatoes and the
scores.  :func:`deal_columns` reads a block back as the deal's :data:`DEAL_COLUMNS`, which
``simkit replay`` and ``tests/handjass_reference.py`` read.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simkit.core import cards as C
from simkit.core.bits import trailing_zeros  # numba's, or plain Python under NUMBA_DISABLE_JIT
from simkit.core.deals import deal_loop
from simkit.core.jit import NO_REFCOUNT  # rule 3 of simkit.core.jit
from simkit.core.records import record, seat_slot, slots
from simkit.core.play import deal_blocks
from simkit.core.registry import Metric
from simkit.core.rng import bounded, shuffle_prefix, uniform
from simkit.engines.moves import put_next, put_value, values
from simkit.engines.tricks import (beats, hand_value, lowest_code, points_table, random_card,
                                   strength_tables, suit_mask, trick_rules)

STRAT_SALT = np.uint64(0x8BB84B93962EACC9)
NCARDS = 36
LAST_TRICK = 5
ONE = np.uint64(1)
LANE = np.uint64(0x7FC0)       # ranks 6..14 of a suit lane
ALL36 = LANE | (LANE << np.uint64(16)) | (LANE << np.uint64(32)) | (LANE << np.uint64(48))
JACK, QUEEN, KING, SIX = 11, 12, 13, 6
LOST = 2 + 6      # Work.pend's row of strokes lost (2 rows of a deal's new pairs, 6 of pairs waiting)

PLAIN_ORDER = "A K Q J 10 9 8 7 6"      # line 68-79
TRUMP_ORDER = "J 9 A K Q 10 8 7 6"      # line 80-91
PLAIN_POINTS = "A=11 K=4 Q=3 J=2 10=10"
TRUMP_POINTS = "J=20 9=14 A=11 K=4 Q=3 10=10"
# Berner Handjass (line 173): multipliers by trump suit, core suit order clubs, diamonds, hearts,
# spades (clubs/roses 2, diamonds/shields 3, hearts/bells 4, spades/acorns 1)
BERNER = np.array([2, 3, 4, 1], np.int64)

def _tables():
    return strength_tables(PLAIN_ORDER, TRUMP_ORDER), points_table(PLAIN_POINTS, TRUMP_POINTS)


# the card tables are module constants (numba freezes global arrays into the compiled code), so
# the kernel's helpers read them without reference counting; the rules record carries copies
STRENGTH, POINTS = _tables()

def _above():
    """``uint64[2, 16]``: the ranks (as a lane mask) stronger than each rank, plain and trump."""
    out = np.zeros((2, 16), np.uint64)
    for row in range(2):
        for r in range(16):
            for r2 in range(16):
                if STRENGTH[row, r2] > STRENGTH[row, r] > 0:
                    out[row, r] |= np.uint64(1 << r2)
    return out


ABOVE = _above()
TRICK_RULES = trick_rules(follow=True, must_trump=False, undertrump=False, trump_jack_free=True,
                          trump_instead=True)

# choices at the play-or-drop turn
DROP, PLAY, BLIND, NOT_ASKED = 0, 1, 2, -1
# strategy kinds
K_RANDOM, K_BASELINE = 0, 1

# --------------------------------------------------------------------------- metrics
DEAL_SEAT = ["strokes", "stroked", "potato", "points", "cards", "weis", "stock", "weis_held",
             "play", "blind", "side"]
DEAL_TAIL = ["active", "unplayed", "all_potato", "card_total", "exchanges", "held_over"]
GAME_SEAT = ["lose", "strokes", "potatoes", "plays", "side"]
GAME_TAIL = ["deals", "unfinished", "held_over"]
# the metric vector: per seat metric its seats side by side (p1's slot QD.q * P, P players),
# then the tail
QD, TD, QG, TG = slots(DEAL_SEAT), slots(DEAL_TAIL), slots(GAME_SEAT), slots(GAME_TAIL)
NDS, NGS = len(DEAL_SEAT), len(GAME_SEAT)
DOCS = {
    "strokes": "net strokes (strokes minus potatoes, Berner multipliers included)",
    "stroked": "scored at least one stroke in the deal", "potato": "scored a potato in the deal",
    "points": "card points + Weis + Stöck + last trick (0 when not playing)",
    "cards": "card points taken in tricks (last trick included)",
    "weis": "Weis points credited", "stock": "Stöck points credited",
    "weis_held": "value of the best single Weis in the hand as dealt (0, 20, 50, 100, 200)",
    "play": "played the deal (own hand or blind)", "blind": "played the blind",
    "side": "net small stakes from potato payments (potato_stake)",
    "active": "players who played the deal", "unplayed": "all but one dropped: strokes unplayed",
    "all_potato": "nobody reached the potato threshold", "card_total":
    "card points taken in tricks by all players (157 when every hand is played)",
    "exchanges": "trump sixes exchanged for the trump card",
    "held_over": "strokes held over on a tie (tie=carry); in a game, those never settled",
    "lose": "lost the game (the last player left)", "potatoes": "potatoes scored in the game",
    "plays": "deals played (not dropped) in the game", "deals": "deals in the game",
    "unfinished": "the game hit max_deals and has no loser",
}
UNITS = {"strokes": "strokes", "points": "card points", "cards": "card points",
         "weis": "card points", "stock": "card points", "weis_held": "Weis points",
         "side": "small stakes", "active": "players", "card_total": "card points",
         "exchanges": "count", "held_over": "strokes", "potatoes": "count", "plays": "deals", "deals": "deals"}
DEAL_BINARY = {"stroked", "potato", "play", "blind", "unplayed", "all_potato", "exchanges"}
GAME_BINARY = {"lose", "unfinished"}


def metrics(rules) -> list[Metric]:
    P = rules.players
    game = rules.unit == "game"
    seat, tail = (GAME_SEAT, GAME_TAIL) if game else (DEAL_SEAT, DEAL_TAIL)
    binary = GAME_BINARY if game else DEAL_BINARY
    per = "game" if game else "deal"

    def unit(n):
        if n in binary:
            return f"share of {per}s (0..1)"
        return UNITS.get(n, "count") + f" per {per}"
    out = []
    for q in seat:
        for k in range(P):
            out.append(Metric(f"p{k + 1}_{q}", binary=q in binary, doc=f"p{k + 1}: " + DOCS[q],
                              unit=unit(q)))
    for q in tail:
        out.append(Metric(q, binary=q in binary, doc=DOCS[q], unit=unit(q)))
    return out


# --------------------------------------------------------------------------- move log
DEAL_COLUMNS = (["deal", "m", "trump", "tcard", "blindpos", "exch", "table"]
                + [f"{c}{j}" for c in ("ord", "choice", "bess", "decl", "wkey", "weis", "stock", "cards",
                                       "total", "strk", "pot", "score") for j in range(4)]
                + [f"dealt{p}" for p in range(NCARDS)] + [f"play{t}" for t in range(NCARDS)])
L = slots(DEAL_COLUMNS)       # a column of a deal as deal_columns reads it
DEAL_W = len(DEAL_COLUMNS)
HEAD_COLUMNS = ["played"]
H = slots(HEAD_COLUMNS)
NHEAD = len(HEAD_COLUMNS)
LOG_COLUMNS = ["unit"] + DEAL_COLUMNS
GAME_LOG_DEALS = 60   # a game's log row holds its first 60 deals (``played`` says how many)
# a deal's block: the house's events (kinds KINDS, a kind's code its index + 1; seat the game
# seat that acts, or a dealt card's receiver: 4 the blind (three players) or the first face-down
# hand (two), 5 the second), read back by deal_columns as DEAL_COLUMNS.  A value wider than 16
# bits follows a HIGH event (moves.put_value); a negative one follows a MINUS event.
KINDS = ["START", "DEAL", "TRUMP", "CHOICE", "BESSERN", "EXCHANGE", "TABLE", "WEIS", "CREDIT",
         "STOCK", "PLAY", "CARDS", "TOTAL", "STROKES", "POTATO", "SCORE", "HIGH", "MINUS"]
(E_START, E_DEAL, E_TRUMP, E_CHOICE, E_BESSERN, E_EXCHANGE, E_TABLE, E_WEIS, E_CREDIT, E_STOCK,
 E_PLAY, E_CARDS, E_TOTAL, E_STROKES, E_POTATO, E_SCORE, E_HIGH, E_MINUS) = range(1, 19)
# the most events a deal writes: START (the deal's number, with a HIGH), the 36 cards dealt, the
# trump card, four choices, three Bessern cards for each of three players, the exchange, the
# table card, four declared Weis keys (each with a HIGH: a key is value << 12 | ...), the best
# declarer's credited Weis, the one trump K-Q holder's Stöck, the 36 cards played, four card
# points, totals, strokes (each with a MINUS) and potatoes, four scores (MINUS and HIGH each)
BLOCK_W = 2 + NCARDS + 1 + 4 + 9 + 1 + 1 + 8 + 1 + 1 + NCARDS + 4 + 4 + 8 + 4 + 12


def log_deals(rules) -> int:
    return GAME_LOG_DEALS if rules.unit == "game" else 1


def log_columns(rules, deals: int | None = None) -> list[str]:
    """``played``, then ``d{j}_e{k}``: the :data:`BLOCK_W` events of each logged deal."""
    D = log_deals(rules) if deals is None else deals
    return HEAD_COLUMNS + [f"d{j}_e{k}" for j in range(D) for k in range(BLOCK_W)]


def deal_columns(block) -> list[int]:
    """A deal's block of events as the values of :data:`DEAL_COLUMNS` (``m``: the choices;
    ``trump``: the trump card's suit; ``blindpos``: the position that took the blind; a
    position's ``decl``: it declared a Weis key; absent values 0, absent positions, cards and
    the exchange -1, choices ``NOT_ASKED``).  A block without its 36 cards dealt or a score for
    each position is refused (the deal's events did not all fit)."""
    b = [0] * DEAL_W
    b[L.blindpos] = b[L.exch] = b[L.table] = -1
    for j in range(4):
        b[L.ord0 + j], b[L.choice0 + j], b[L.bess0 + j] = -1, NOT_ASKED, -1
    for q in range(NCARDS):
        b[L.play0 + q] = -1
    col = {E_WEIS: L.wkey0, E_CREDIT: L.weis0, E_STOCK: L.stock0, E_CARDS: L.cards0,
           E_TOTAL: L.total0, E_STROKES: L.strk0, E_POTATO: L.pot0}
    pos = {}                  # game seat -> position in the deal
    later = []                # (column of position 0, game seat, value), placed once pos is known
    m = ndealt = nplay = nscore = 0
    neg = False
    for kind, seat, aux, card, value in values(block, E_HIGH):
        if kind == E_MINUS:
            neg = True
            continue
        if neg:
            value, neg = -value, False
        if kind == E_START:
            b[L.deal] = value
        elif kind == E_DEAL:
            b[L.dealt0 + ndealt] = card
            ndealt += 1
        elif kind == E_TRUMP:
            b[L.tcard], b[L.trump] = card, card >> 4
        elif kind == E_CHOICE:
            b[L.ord0 + m], b[L.choice0 + m] = seat, aux - 1
            if aux - 1 == BLIND:
                b[L.blindpos] = m
            pos[seat] = m
            m += 1
        elif kind == E_BESSERN:
            later.append((L.bess0, seat, 1 << card))
        elif kind == E_EXCHANGE:
            later.append((L.exch, seat, None))
        elif kind == E_TABLE:
            b[L.table] = card
        elif kind == E_PLAY:
            b[L.play0 + nplay] = aux * 64 + card
            nplay += 1
        elif kind == E_SCORE:
            b[L.score0 + seat] = value
            nscore += 1
        elif kind in col:
            later.append((col[kind], seat, value))
    if ndealt != NCARDS or m < 2 or nscore < m:
        raise ValueError("a Handjass deal's block of events lacks its cards dealt or its scores")
    b[L.m] = m
    for c, seat, value in later:
        j = pos[seat]
        if c == L.exch:
            b[c] = j
        elif c == L.bess0:
            b[c + j] = (b[c + j] if b[c + j] >= 0 else 0) | value
        else:
            b[c + j] = value
            if c == L.wkey0:
                b[L.decl0 + j] = 1
    return b


def deal_rows(log) -> np.ndarray:
    """The deals of a log (``int64[n, width]``, one row per unit) as rows of
    :data:`LOG_COLUMNS` (the first column the unit's row; :func:`deal_columns`)."""
    rows = [[int(r[0])] + deal_columns(r[1:].tolist())
            for r in deal_blocks(log, NHEAD, BLOCK_W, H.played)]
    return np.array(rows, np.int64).reshape(-1, len(LOG_COLUMNS))


# --------------------------------------------------------------------------- tables and records

def tables():
    """``(strength int64[2, 16], points int64[2, 16])`` from lines 68-92."""
    return _tables()


def hand_layout(twelve: bool) -> np.ndarray:
    """``int64[36]``: the hand (0..3) each deck position goes to (threes, or fours of twelve)."""
    p = np.arange(NCARDS)
    return ((p % 12) // 4 if twelve else (p % 12) // 3).astype(np.int64)


class GameRules(NamedTuple):
    players: int
    game: bool
    target: int
    potato: int
    dropping: bool
    blind: bool
    six_exchange: bool
    minus_one: bool
    extra: bool
    berner: bool
    bessern: bool
    stake: int
    carry: bool
    max_deals: int
    # No arrays: the card tables (STRENGTH, POINTS, TRICK_RULES, LAYOUT9, LAYOUT12) are module
    # constants.  Every array a record carries costs an atomic reference count each time the
    # record is passed to a function (measured: a quarter of a deal's time when the rules, the
    # seats and 28 work arrays were passed to the deal's helpers and every card's choice).


class Seats(NamedTuple):
    """The strategies' record (:func:`simkit.core.records.seat_arrays`): one entry per seat
    played, p1's first; a seat whose kind lacks a parameter holds its default (the kernel reads a
    parameter only for the kinds that have it)."""
    kind: np.ndarray           # int64: K_RANDOM / K_BASELINE
    p: np.ndarray              # random: chance to play
    b: np.ndarray              # random: chance to play the blind when offered
    d: np.ndarray              # random: chance to take each optional act
    play: np.ndarray           # baseline: strength to play (the Forehand's)
    step: np.ndarray           # baseline: added per later turn to decide
    blind: np.ndarray          # baseline: below this (and below play) take the blind
    weis: np.ndarray           # baseline: declare Weis when the best is worth this
    besser: np.ndarray         # baseline: below this strength swap three for the Bessern
    dropped: np.ndarray        # baseline: added to the threshold per player who dropped before
    behind: np.ndarray         # baseline: added per net stroke the best other player leads by
    keep_jack: np.ndarray      # baseline: 1 keeps the trump jack for the last trick (line 164)
    play_more: np.ndarray      # baseline: added to play with four players (no blind to take)


class Seat(NamedTuple):
    """One seat's values off :class:`Seats`, as scalars (no reference counts: :mod:`simkit.core.jit`,
    rule 2): the deal's helpers take a tuple of four, by game seat, built by :func:`seat_of`
    once per chunk (a seat beyond the table's players is all zeros and never read)."""
    kind: int
    p: float
    b: float
    d: float
    play: int
    step: int
    blindt: int
    weis: int
    besser: int
    dropped: int
    behind: int
    keep_jack: int
    play_more: int


# the rows of ``Work.t`` (int64[4] each, by position unless said): game seat of each position;
# by game seat 1 while still in the game, and net strokes; the choice; best declared Weis key
# (0 none); the hand's Weis total; credited Weis and Stöck; card points taken; total; net strokes
# of the deal; potatoes of the deal (times the multiplier); potato payments of the deal; active
# positions in play order; the positions at 26+, best first, and their tie-breaking
# draws (line 140); Weis total and best key of the hand a position holds (at the deal: of each
# dealt hand, the blind's too); best Weis key of each position's dealt hand; the three cards a
# position swapped for its Bessern (-1)
ROWS = ["order", "ingame", "score", "choice", "keys", "wtot", "weisp", "stock", "won", "total",
        "strk", "pot", "side", "act", "rank", "tie", "held", "hkey", "dkey", "bess"]
T = slots(ROWS)


class Work(NamedTuple):
    """The kernel's buffers: few arrays (see :class:`GameRules`); the rows of ``t`` are also
    attributes by name in Python (``W.act``, ``W.total``: views of ``t``)."""
    deck: np.ndarray           # int64[36] the pack
    stack: np.ndarray          # int64[k * 36] stacked deals (empty: random)
    stacked: bool
    perm: np.ndarray           # int64[36]
    cards: np.ndarray          # int64[36] the deal's cards in deck order
    hands: np.ndarray          # uint64[4] by position: the cards not yet played
    dealt: np.ndarray          # uint64[4] by hand: as dealt (hand 3: blind or dead hand)
    t: np.ndarray              # int64[len(ROWS), 4]: the rows ROWS
    pend: np.ndarray           # int64[9, 3] held-over strokes: (position or seat a, b, strokes)


for _r, _name in enumerate(ROWS):
    setattr(Work, _name, property(lambda self, r=_r: self.t[r]))


LAYOUT9 = hand_layout(False)
LAYOUT12 = hand_layout(True)


def game_rules(rules) -> GameRules:
    return record(GameRules, players=rules.players, game=rules.unit == "game",
                  target=rules.target, potato=rules.potato, dropping=rules.dropping,
                  blind=rules.blind, six_exchange=rules.six_exchange,
                  minus_one=rules.strokes == "players_minus_one", extra=rules.extra_per_potato,
                  berner=rules.berner, bessern=rules.bessern, stake=rules.potato_stake, carry=rules.tie == "carry", max_deals=rules.max_deals)


def work(stack=None) -> Work:
    st = np.zeros(0, np.int64) if stack is None else np.asarray(stack, np.int64)
    return record(Work, deck=C.deck(36).astype(np.int64), stack=st, stacked=stack is not None,
                  perm=np.zeros(NCARDS, np.int64), cards=np.zeros(NCARDS, np.int64),
                  hands=np.zeros(4, np.uint64), dealt=np.zeros(4, np.uint64),
                  t=np.zeros((len(ROWS), 4), np.int64), pend=np.zeros((LOST + 1, 3), np.int64))


# --------------------------------------------------------------------------- Weis and Stöck

@njit(cache=True, nogil=True, inline="always")
def run_value(length):
    if length >= 5:
        return 100
    if length == 4:
        return 50
    if length == 3:
        return 20
    return 0


@njit(cache=True, nogil=True)
def runs_of(hand, trump):
    """``(total, best key, cards)`` of the maximal runs of three or more in ``hand`` (plain
    order: the ranks' bits, suit lanes apart).  Key: ``value << 12 | cards << 8 | top rank << 4
    | trump`` (lines 106-109); ``cards``: the mask of the runs' cards."""
    h = np.uint64(hand)
    starts = h & (h >> ONE) & (h >> np.uint64(2))   # bits where three in a row begin
    total = 0
    best = 0
    cards = np.uint64(0)
    while starts:
        b = np.int64(trailing_zeros(starts))
        t = h >> np.uint64(b)
        n = np.int64(trailing_zeros(~t))            # the run's length from b
        top = b + n - 1
        v = run_value(n)
        total += v
        key = (v << 12) | (n << 8) | ((top & 15) << 4) | (1 if (b >> 4) == trump else 0)
        if key > best:
            best = key
        past = (ONE << np.uint64(top + 1)) - ONE
        cards |= past & ~((ONE << np.uint64(b)) - ONE)
        starts &= ~past                             # past this run
    return total, best, cards


@njit(cache=True, nogil=True, inline="always")
def quad_value(r):
    if r == JACK:
        return 200
    if r == 14 or r == 13 or r == 12 or r == 10:
        return 100
    return 0


QUAD_RANKS = np.uint64((1 << 14) | (1 << 13) | (1 << 12) | (1 << 11) | (1 << 10))


@njit(cache=True, nogil=True)
def weis_split(hand, trump, need, stock):
    """A hand's Weis (lines 95-111): runs and fours of a kind, no card in two of them (line
    104), over every split (each choice of its fours of a kind, the maximal runs of the rest).
    Returns ``(total, key, shows, top_total, top_key)``: the split its holder shows when his
    best single Weis must reach key ``need`` to win the comparison: the most points among the
    splits whose best key is at least ``need``, then the better best key, then one holding all
    the cards of mask ``stock`` (``shows``); and over every split the most points and the best
    key (the strongest single Weis the hand can declare)."""
    h = np.uint64(hand)
    inter = h & (h >> np.uint64(16)) & (h >> np.uint64(32)) & (h >> np.uint64(48)) & QUAD_RANKS
    st = np.uint64(stock)
    tot, key, cards = runs_of(h, trump)
    top_total, top_key = tot, key
    best_total, best_key, shows = -1, -1, False
    if key >= need:
        best_total, best_key, shows = tot, key, (cards & st) == st
    # every choice of the fours of a kind to count (sub runs over the subsets of inter's bits)
    sub = inter
    while sub:
        total = 0
        key = 0
        quads = np.uint64(0)
        x = sub
        while x:
            r = np.int64(trailing_zeros(x))
            x &= x - ONE
            v = quad_value(r)
            total += v
            k = (v << 12) | (4 << 8) | (r << 4)
            if k > key:
                key = k
            quads |= (ONE << np.uint64(r)) * np.uint64(0x0001000100010001)
        t2, k2, cards = runs_of(h & ~quads, trump)
        total += t2
        if k2 > key:
            key = k2
        sh = ((cards | quads) & st) == st
        top_total = max(top_total, total)
        top_key = max(top_key, key)
        if key >= need and (total > best_total or (total == best_total and (
                key > best_key or (key == best_key and sh and not shows)))):
            best_total, best_key, shows = total, key, sh
        sub = (sub - ONE) & inter
    if best_total < 0:
        return 0, 0, False, top_total, top_key
    return best_total, best_key, shows, top_total, top_key


@njit(cache=True, nogil=True)
def weis_of(hand, trump):
    """``(total, best key)`` of a hand's Weis: the most points of any split (the hand's value),
    and the best single Weis it can declare (the split that shows it may score fewer)."""
    _, _, _, total, key = weis_split(hand, trump, 0, 0)
    return total, key


@njit(cache=True, nogil=True)
def has_stock(hand, trump):
    m = (ONE << np.uint64(trump * 16 + KING)) | (ONE << np.uint64(trump * 16 + QUEEN))
    return (np.uint64(hand) & m) == m


@njit(cache=True, nogil=True)
def hand_strength(hand, trump, weis_total):
    """The baseline's measure of a hand: card points (trumps at trump value) + 10 per trump +
    its Weis total + 20 for Stöck."""
    v = weis_total + hand_value(hand, trump, POINTS, 10)
    if has_stock(hand, trump):
        v += 20
    return v


@njit(cache=True, nogil=True)
def decide(kind, p, b, play, step, blindt, strength, turn, blind_open, u):
    """Play, drop or play blind at the ``turn``-th decision of the deal (one seat's parameters)."""
    if kind == K_RANDOM:
        if blind_open:
            x, u = uniform(u)
            if x < b:
                return BLIND, u
        x, u = uniform(u)
        return (PLAY if x < p else DROP), u
    if strength >= play + step * turn:
        return PLAY, u
    if blind_open and strength < blindt:
        return BLIND, u
    return DROP, u


@njit(cache=True, nogil=True, inline="always")
def optional(kind, d, u):
    """An optional act (the six's exchange, declaring Stöck): the baseline always takes it."""
    if kind == K_RANDOM:
        x, u = uniform(u)
        return x < d, u
    return True, u


@njit(cache=True, nogil=True, inline="always")
def declare_weis(kind, d, weis, key, u):
    if kind == K_RANDOM:
        x, u = uniform(u)
        return x < d, u
    return (key >> 12) >= weis, u


@njit(cache=True, nogil=True)
def card_cost(c, trump):
    """What throwing ``c`` costs: trumps above every plain card, then points, then strength."""
    it = 1 if (c >> 4) == trump else 0
    return it * 1000 + POINTS[it, c & 15] * 16 + STRENGTH[it, c & 15]


@njit(cache=True, nogil=True, inline="always")
def outstanding_stronger(c, others, trump):
    """Whether a card of ``others`` of ``c``'s suit is stronger than ``c``."""
    s = c >> 4
    row = 1 if s == trump else 0
    lane = (np.uint64(others) >> np.uint64(16 * s)) & np.uint64(0xFFFF)
    return (lane & ABOVE[row, c & 15]) != 0


@njit(cache=True, nogil=True)
def choose_card(hand, legal, nt, k, trump, played, wc, tp, keep_jack):
    """The baseline's card (the module docstring of :mod:`..strategies`); ``wc`` is the card
    winning the trick so far and ``tp`` the trick's points (when ``nt > 0``).  ``keep_jack``:
    the trump jack, which nothing beats and no rule forces out, is held for the last trick
    (line 164) while another card may be played."""
    if keep_jack:
        jb = ONE << np.uint64(trump * 16 + JACK)
        if (legal & jb) != 0 and legal != jb:
            legal &= ~jb
    if (legal & (legal - ONE)) == 0:
        return lowest_code(legal)      # one legal card: every rule below plays it
    points = POINTS
    strength = STRENGTH
    others = ALL36 & ~played & ~np.uint64(hand)
    tl = suit_mask(trump)
    if nt == 0:
        # lead the top trump while the others may hold trumps: draw them
        mt = legal & tl
        if mt != 0 and (others & tl) != 0:
            x = mt
            top, ts = -1, -1
            while x:
                c = lowest_code(x)
                x &= x - ONE
                if strength[1, c & 15] > ts:
                    top, ts = c, strength[1, c & 15]
            if not outstanding_stronger(top, others, trump):
                return top
        # a plain card nobody can beat in suit, the most points first
        best, bp = -1, -1
        x = legal & ~tl
        while x:
            c = lowest_code(x)
            x &= x - ONE
            if not outstanding_stronger(c, others, trump):
                p = points[0, c & 15] * 16 + strength[0, c & 15]
                if p > bp:
                    best, bp = c, p
        if best >= 0:
            return best
    else:
        last = nt == k - 1
        # winners: keep plain points (the most), else ruff with the cheapest sure trump
        best, bk = -1, -1
        x = np.uint64(legal)
        while x:
            c = lowest_code(x)
            x &= x - ONE
            cs = c >> 4
            ws = wc >> 4
            if cs == ws:
                row = 1 if cs == trump else 0
                wins = strength[row, c & 15] > strength[row, wc & 15]
            else:
                wins = cs == trump
            if not wins:
                continue
            it = 1 if cs == trump else 0
            if not last and outstanding_stronger(c, others, trump):
                continue
            if it == 0:
                key = 10000 + points[0, c & 15] * 16 + strength[0, c & 15]
            else:
                if tp + points[1, c & 15] < 10 and not (last and tp > 0 and points[1, c & 15] == 0):
                    continue
                key = 5000 - points[1, c & 15] * 16 - strength[1, c & 15]
            if key > bk:
                best, bk = c, key
        if best >= 0:
            return best
    return cheapest(legal, trump)


@njit(cache=True, nogil=True, inline="always")
def legal_cards(hand, led, wc, trump):
    """The cards of ``hand`` that may be played to a trick led in suit ``led`` whose winning
    card so far is ``wc``: :func:`simkit.engines.tricks.legal_moves` under :data:`TRICK_RULES`
    (follow or trump, the trump jack never forced, no undertrumping but by a hand of nothing but
    trumps) from two scalars instead of the trick (the tests check them equal)."""
    h = np.uint64(hand)
    F = h & suit_mask(led)
    T = h & suit_mask(trump)
    trumped = (wc >> 4) == trump
    if F != 0:
        if led == trump:
            if F == (ONE << np.uint64(trump * 16 + JACK)):
                return h
            return F
        if trumped:
            T &= ABOVE[1, wc & 15] << np.uint64(16 * trump)
        return F | T
    if T == h or not trumped or T == 0:
        return h
    lower = T & ~(ABOVE[1, wc & 15] << np.uint64(16 * trump))
    rest = h & ~lower
    if lower != 0 and rest != 0:
        return rest
    return h


def _cheap():
    """``int64[2, 512, 2]``: by row (plain, trump) and a suit's holding (bit j: rank 6 + j),
    the cost (:func:`card_cost` of a card of that row) and the rank of its cheapest card."""
    out = np.zeros((2, 512, 2), np.int64)
    cost = getattr(card_cost, "py_func", card_cost)  # plain Python (also under NUMBA_DISABLE_JIT)
    for row in range(2):
        for m in range(1, 512):
            # a card of suit 0 is a trump when trump = 0 (row 1), plain when trump = 1 (row 0)
            costs = [(cost(6 + j, 1 - row), 6 + j) for j in range(9) if m >> j & 1]
            out[row, m] = min(costs)
    return out


CHEAP = _cheap()


@njit(cache=True, nogil=True)
def cheapest(m, trump):
    """The card of mask ``m`` that costs least to throw (:func:`card_cost`; ties: the lower
    code), a suit at a time from :data:`CHEAP`."""
    best, bk = -1, 1 << 40
    x = np.uint64(m)
    for s in range(4):
        h = np.int64((x >> np.uint64(16 * s + 6)) & np.uint64(0x1FF))
        if h:
            row = 1 if s == trump else 0
            key = CHEAP[row, h, 0]
            if key < bk:
                best, bk = 16 * s + CHEAP[row, h, 1], key
    return best


# --------------------------------------------------------------------------- one deal

@njit(cache=True, nogil=True)
def bessern_swaps(S, W, m, trump, u):
    """Bessern (lines 166-169): in turn from the Forehand each may swap exactly three cards for
    his three face-down cards (positions ``12j + 9..11`` with three players, ``12j + 6..8`` with
    two).  The baseline swaps when its strength is below ``besser``, its three cheapest cards;
    random with probability ``d``, three random cards.  Returns ``u``."""
    hands = W.hands
    cards = W.cards
    t = W.t
    off = 9 if m == 3 else 6
    for j in range(m):
        sg = S[t[T.order, j]]
        if sg.kind == K_RANDOM:
            x, u = uniform(u)
            yes = x < sg.d
        else:
            yes = hand_strength(hands[j], trump, t[T.held, j]) < sg.besser
        if not yes:
            continue
        rest = hands[j]
        out = np.uint64(0)
        for _ in range(3):
            if sg.kind == K_RANDOM:
                c, u = random_card(rest, u)
            else:
                c = cheapest(rest, trump)
            out |= ONE << np.uint64(c)
            rest &= ~(ONE << np.uint64(c))
        for q in range(3):
            rest |= ONE << np.uint64(cards[12 * j + off + q])
        hands[j] = rest
        t[T.bess, j] = np.int64(out)
        t[T.held, j], t[T.hkey, j] = weis_of(rest, trump)
    return u


@njit(cache=True, nogil=True)
def deal_cards(deck, st, stacked, perm, cards, s, dealno):
    """The deal's 36 cards into ``cards`` (a stacked deal from ``st``, or a shuffle of
    ``deck``): ``(ok, s)``."""
    if stacked:
        if (dealno + 1) * NCARDS > st.shape[0]:
            return False, s
        for p in range(NCARDS):
            cards[p] = st[dealno * NCARDS + p]
        return True, s
    for p in range(NCARDS):
        perm[p] = p
    s = shuffle_prefix(perm, NCARDS - 1, s)
    for p in range(NCARDS):
        cards[p] = deck[perm[p]]
    return True, s


@njit(cache=True, nogil=True)
def score_strokes(R, W, k, m, mult, u):
    """Strokes and potatoes of the ``k`` active positions ``W.act`` (lines 137-141, 161, 170,
    174) into ``W.strk`` / ``W.pot``, times ``mult``; ties settled by a random draw."""
    t = W.t
    act, total, strk = t[T.act], t[T.total], t[T.strk]
    pot, rank, tie = t[T.pot], t[T.rank], t[T.tie]
    W.pend[0, 2] = 0
    W.pend[1, 2] = 0
    nok = 0
    for a in range(k):
        j = act[a]
        if total[j] >= R.potato:
            x, u = bounded(u, 1 << 20)
            key = total[j] * (1 << 20) + x
            # insertion into rank[] by key, highest first
            q = nok
            while q > 0 and (total[rank[q - 1]] * (1 << 20) + tie[q - 1]) < key:
                rank[q] = rank[q - 1]
                tie[q] = tie[q - 1]
                q -= 1
            rank[q] = j
            tie[q] = x
            nok += 1
        else:
            pot[j] = mult
            strk[j] = -mult
    if nok == 0:
        return 0, u
    S = 1 if m == 2 else (m - 1 if R.minus_one else 2)
    rec = nok if nok < S else S
    for q in range(rec):
        strk[rank[q]] = mult
    strk[rank[0]] += mult * (S - rec)
    if R.extra:
        e = k - nok
        q = 0
        while e > 0:
            strk[rank[q]] += mult
            e -= 1
            q = q + 1 if q + 1 < rec else 0
    if R.carry:
        # two tied players the strokes would part: both the lower count, the rest held over
        np_ = 0
        for q in range(nok - 1):
            a, b = rank[q], rank[q + 1]
            if total[a] != total[b] or strk[a] == strk[b]:
                continue
            if (q > 0 and total[rank[q - 1]] == total[a]) or \
                    (q + 2 < nok and total[rank[q + 2]] == total[a]):
                continue                      # three or more tied: drawn for (line 140)
            W.pend[np_, 0] = a
            W.pend[np_, 1] = b
            W.pend[np_, 2] = strk[a] - strk[b]
            strk[a] = strk[b]
            np_ += 1
    return nok, u


class Deal(NamedTuple):
    """What the phases of a played deal share (built by :func:`play_deal`; scalars only)."""
    m: int                     # players in the deal
    k: int                     # active positions, ``W.act[:k]``
    trump: int
    tcard: int                 # the card that shows trumps
    ntr: int                   # tricks: 9, or 12 when everyone gets twelve
    blindpos: int              # the position playing the blind (-1)
    table: int                 # the card the blind's taker may not play to the first trick (-1)
    exch: int                  # the position that exchanged the trump six (-1)
    lone: int                  # the one player left when all others dropped (-1)


@njit(cache=True, nogil=True, inline="always")
def sort_hands(R, S, W, m, twelve, bessern, u):
    """The dealt hands (``W.cards`` by :func:`hand_layout`), the trump card, each hand's Weis and
    the Bessern swaps; resets the deal's rows.  Returns ``(trump, tcard, u)``."""
    cards, hands, dealt = W.cards, W.hands, W.dealt
    t = W.t
    held, hkey, dkey = t[T.held], t[T.hkey], t[T.dkey]
    layout = LAYOUT12 if twelve else LAYOUT9
    for j in range(4):
        dealt[j] = np.uint64(0)
        t[T.choice, j] = NOT_ASKED
        for r in (T.keys, T.wtot, T.weisp, T.stock, T.won, T.total, T.strk, T.pot, T.side):
            t[r, j] = 0
    for p in range(NCARDS):
        dealt[layout[p]] |= ONE << np.uint64(cards[p])
    tcard = cards[NCARDS - 1] if not twelve else cards[12 * 2 + 4 * (m - 1) + 3]
    if bessern and m == 3:
        tcard = cards[32]                       # the dealer's last card (line 167)
    trump = tcard >> 4
    for j in range(m):
        hands[j] = dealt[j]
    nh = 4 if (m < 4 and not twelve and R.dropping) else m   # hands anyone may hold
    for j in range(nh):
        held[j], hkey[j] = weis_of(dealt[j], trump)           # each dealt hand's Weis
        dkey[j] = hkey[j]
    for j in range(4):
        t[T.bess, j] = -1
    if bessern:
        u = bessern_swaps(S, W, m, trump, u)
    return trump, tcard, u


@njit(cache=True, nogil=True, inline="always")
def ask_players(R, S, W, m, trump, blind_ok, u):
    """Play, drop or play blind, in turn from the Forehand (lines 118-119, 147-152, 160): fills
    ``W.choice`` and the active positions ``W.act``.  Returns ``(blindpos, lone, k, u)``."""
    hands, dealt = W.hands, W.dealt
    t = W.t
    order, choice, act = t[T.order], t[T.choice], t[T.act]
    held, hkey, score = t[T.held], t[T.hkey], t[T.score]
    blindpos = -1
    drops = 0
    lone = -1
    for j in range(m):
        if not R.dropping:
            choice[j] = PLAY
            continue
        sg = S[order[j]]
        st = 0
        if sg.kind != K_RANDOM:
            st = hand_strength(hands[j], trump, held[j])
        if sg.kind != K_RANDOM and (sg.dropped != 0 or sg.behind != 0):
            # playing to the table and the score: the drops before him, the best other's lead
            lead = -1000
            for q in range(m):
                if q != j:
                    lead = max(lead, score[order[q]] - score[order[j]])
            st -= sg.dropped * drops + sg.behind * max(lead, 0)
        c, u = decide(sg.kind, sg.p, sg.b, sg.play + (sg.play_more if m == 4 else 0), sg.step,
                      sg.blindt, st, j, blind_ok and blindpos < 0, u)
        choice[j] = c
        if c == BLIND:
            blindpos = j
            bh = 3 if m == 3 else 2
            hands[j] = dealt[bh]
            held[j] = held[bh]          # its Weis, position j now holds the blind
            hkey[j] = hkey[bh]
        elif c == DROP:
            drops += 1
            if drops == m - 1:
                break
    if drops == m - 1:
        for j in range(m):
            if choice[j] != DROP:
                lone = j
    k = 0
    for j in range(m):
        if choice[j] == PLAY or choice[j] == BLIND:
            act[k] = j
            k += 1
    return blindpos, lone, k, u


@njit(cache=True, nogil=True, inline="always")
def exchange_six(S, W, m, k, trump, tcard, blindpos, table, u):
    """The trump six for the trump card (lines 116, 153, 160): the first active holder may
    exchange it (the blind's taker with three players gets the six).  Returns
    ``(exch, table, u)``."""
    hands = W.hands
    t = W.t
    six = trump * 16 + SIX
    if tcard == six:
        return -1, table, u
    sbit = ONE << np.uint64(six)
    tbit = ONE << np.uint64(tcard)
    exch = -1
    for a in range(k):
        j = t[T.act, a]
        if (hands[j] & sbit) != 0 and not (m == 3 and j == blindpos):
            sg = S[t[T.order, j]]
            yes, u = optional(sg.kind, sg.d, u)
            if yes:
                exch = j
                hands[j] = (hands[j] & ~sbit) | tbit
                t[T.held, j], t[T.hkey, j] = weis_of(hands[j], trump)
                if blindpos >= 0 and m == 3:   # the blind's taker gets the six
                    hands[blindpos] = (hands[blindpos] & ~tbit) | sbit
                    t[T.held, blindpos], t[T.hkey, blindpos] = weis_of(hands[blindpos], trump)
                    table = six
            break
    return exch, table, u


@njit(cache=True, nogil=True, inline="always")
def declare_melds(S, W, k, trump, u):
    """Weis and Stöck (lines 94-112, 130-134): who declares, and the Weis the best declarer
    shows.  Returns ``u``."""
    hands = W.hands
    t = W.t
    act, order, keys, held, hkey = t[T.act], t[T.order], t[T.keys], t[T.held], t[T.hkey]
    wtot, weisp, stock = t[T.wtot], t[T.weisp], t[T.stock]
    bestk, bestj = 0, -1
    for a in range(k):
        j = act[a]
        sg = S[order[j]]
        key = hkey[j]
        wtot[j] = held[j]
        if key > 0:
            yes, u = declare_weis(sg.kind, sg.d, sg.weis, key, u)
            if yes:
                keys[j] = key
                if key > bestk:
                    bestk, bestj = key, j
        if has_stock(hands[j], trump):
            yes, u = optional(sg.kind, sg.d, u)
            if yes:
                stock[j] = 20
    if bestj >= 0:
        # the winner shows the split with the most points whose best Weis still beats
        # every other declared one (an earlier position wins a tie, lines 110-111); its
        # Stöck counts unannounced when the split shows trump K and Q (line 133)
        need = 0
        for a in range(k):
            j = act[a]
            if j != bestj and keys[j] > 0:
                need = max(need, keys[j] + (1 if j < bestj else 0))
        kq = (ONE << np.uint64(trump * 16 + KING)) | (ONE << np.uint64(trump * 16 + QUEEN))
        weisp[bestj], _, shows, _, _ = weis_split(hands[bestj], trump, need, kq)
        if shows:
            stock[bestj] = 20
    return u


@njit(cache=True, nogil=True, inline="always")
def play_tricks(S, W, D, u, log, i, lp):
    """The tricks (lines 121-129) into ``W.won``; each card a ``PLAY`` event (seat: the player,
    aux: his position) at ``lp`` of the log's row ``i`` when ``lp >= 0``.  Returns ``(u, lp)``."""
    hands = W.hands
    t = W.t
    act, order, won = t[T.act], t[T.order], t[T.won]
    k, trump, blindpos, table = D.k, D.trump, D.blindpos, D.table
    points = POINTS
    strength = STRENGTH
    rnd = 0                   # the positions playing at random (bits)
    keepj = 0                 # the positions keeping the trump jack for the last trick
    for a in range(k):
        j = act[a]
        if S[order[j]].kind == K_RANDOM:
            rnd |= 1 << j
        elif S[order[j]].keep_jack:
            keepj |= 1 << j
    played = np.uint64(0)
    ntr = D.ntr
    lead = 0
    for tr in range(ntr):
        wi = 0
        tp = 0
        led = 0
        wc = 0                # the card winning the trick so far
        tm = np.uint64(0)     # the trick's cards
        for q in range(k):
            a = lead + q
            if a >= k:
                a -= k
            j = act[a]
            h = hands[j]
            if tr == 0 and j == blindpos and table >= 0:
                h &= ~(ONE << np.uint64(table))
            legal = h
            if q > 0 and h != 0:
                legal = legal_cards(h, led, wc, trump)
            if (rnd >> j) & 1:
                c, u = random_card(legal, u)
            else:
                c = choose_card(hands[j], legal, q, k, trump, played, wc, tp,
                                (keepj >> j) & 1)
            if q == 0:
                led = c >> 4
                wc = c
            elif beats(c, wc, trump, strength):
                wi = q
                wc = c
            tp += points[1 if (c >> 4) == trump else 0, c & 15]
            hands[j] &= ~(ONE << np.uint64(c))
            tm |= ONE << np.uint64(c)
            if lp >= 0:
                lp = put_next(log, i, lp, E_PLAY, order[j], j, c)
        wa = lead + wi
        if wa >= k:
            wa -= k
        played |= tm
        if tr == ntr - 1:
            tp += LAST_TRICK
        won[act[wa]] += tp
        lead = wa
    return u, lp


@njit(cache=True, nogil=True, inline="always")
def pay_potatoes(R, W, k):
    """The small stakes (``potato_stake``): each active player under the potato threshold pays
    every other active player (into ``W.side``)."""
    t = W.t
    act, total, side = t[T.act], t[T.total], t[T.side]
    for a in range(k):
        j = act[a]
        if total[j] < R.potato:
            side[j] -= R.stake * (k - 1)
            for b in range(k):
                if b != a:
                    side[act[b]] += R.stake


@njit(cache=True, nogil=True, inline="always")
def deal_metrics(R, W, D, v):
    """The deal's metric vector ``v`` (``unit=deal``)."""
    t = W.t
    order, choice, act, won, total = t[T.order], t[T.choice], t[T.act], t[T.won], t[T.total]
    strk, pot, side, dkey = t[T.strk], t[T.pot], t[T.side], t[T.dkey]
    P = R.players
    m, k, lone = D.m, D.k, D.lone
    cardsum = 0
    for j in range(m):
        cardsum += won[j]
    for j in range(m):
        g = order[j]
        v[seat_slot(QD.strokes * P, 1, g)] = strk[j]
        v[seat_slot(QD.stroked * P, 1, g)] = 1 if strk[j] > 0 else 0
        v[seat_slot(QD.potato * P, 1, g)] = 1 if pot[j] > 0 else 0
        v[seat_slot(QD.points * P, 1, g)] = total[j]
        v[seat_slot(QD.cards * P, 1, g)] = won[j]
        v[seat_slot(QD.weis * P, 1, g)] = t[T.weisp, j]
        v[seat_slot(QD.stock * P, 1, g)] = t[T.stock, j]
        v[seat_slot(QD.weis_held * P, 1, g)] = dkey[j] >> 12
        v[seat_slot(QD.play * P, 1, g)] = 1 if (choice[j] == PLAY or choice[j] == BLIND) else 0
        v[seat_slot(QD.blind * P, 1, g)] = 1 if choice[j] == BLIND else 0
        v[seat_slot(QD.side * P, 1, g)] = side[j]
    b0 = NDS * P
    v[b0 + TD.active] = k if lone < 0 else 0
    v[b0 + TD.unplayed] = 1 if lone >= 0 else 0
    v[b0 + TD.all_potato] = 1 if (lone < 0 and nok_all(total, act, k, R.potato)) else 0
    v[b0 + TD.card_total] = cardsum
    v[b0 + TD.exchanges] = 1 if D.exch >= 0 else 0
    if lone < 0:
        v[b0 + TD.held_over] = W.pend[0, 2] + W.pend[1, 2]


@njit(cache=True, nogil=True, inline="always")
def put_signed(log, i, lp, kind, seat, x):
    """A value event (:func:`simkit.engines.moves.put_value`) of ``|x|``, after a ``MINUS``
    event when ``x < 0``; returns the next position."""
    if x < 0:
        lp = put_next(log, i, lp, E_MINUS, seat, 0, 0)
        x = -x
    return put_value(log, i, lp, kind, seat, x, E_HIGH)


@njit(cache=True, nogil=True)
def log_head(W, D, dealno, log, i, lp):
    """The deal's events before its tricks, from position ``lp`` of row ``i``: ``START``
    (seat: the dealer; the deal's number), a ``DEAL`` per card in deck order (seat: the
    receiver), ``TRUMP`` (the card), each position's ``CHOICE`` (aux: the choice + 1, 0 not
    asked), each card swapped away for the Bessern (``BESSERN``), the trump six's ``EXCHANGE``,
    the card the blind's taker may not play first (``TABLE``), each declared Weis key (``WEIS``),
    the Weis and the Stöck credited (``CREDIT``, ``STOCK``).  Returns the next position."""
    t = W.t
    order = t[T.order]
    m = D.m
    lp = put_value(log, i, lp, E_START, order[m - 1], dealno, E_HIGH)
    layout = LAYOUT12 if D.ntr == 12 else LAYOUT9
    for p in range(NCARDS):
        h = layout[p]
        lp = put_next(log, i, lp, E_DEAL, order[h] if h < m else 4 + h - m, 0, W.cards[p])
    lp = put_next(log, i, lp, E_TRUMP, order[m - 1], 0, D.tcard)
    for j in range(m):
        lp = put_next(log, i, lp, E_CHOICE, order[j], t[T.choice, j] + 1, 0)
    for j in range(m):
        x = t[T.bess, j]
        if x >= 0:
            for c in range(64):
                if (x >> c) & 1:
                    lp = put_next(log, i, lp, E_BESSERN, order[j], 0, c)
    if D.exch >= 0:
        lp = put_next(log, i, lp, E_EXCHANGE, order[D.exch], 0, D.trump * 16 + SIX)
    if D.table >= 0:
        lp = put_next(log, i, lp, E_TABLE, order[D.blindpos], 0, D.table)
    for j in range(m):
        if t[T.keys, j] > 0:
            lp = put_value(log, i, lp, E_WEIS, order[j], t[T.keys, j], E_HIGH)
        if t[T.weisp, j] != 0:
            lp = put_value(log, i, lp, E_CREDIT, order[j], t[T.weisp, j], E_HIGH)
        if t[T.stock, j] != 0:
            lp = put_value(log, i, lp, E_STOCK, order[j], t[T.stock, j], E_HIGH)
    return lp


@njit(cache=True, nogil=True)
def log_tail(W, m, log, i, lp):
    """The deal's results after its tricks: each position's card points (``CARDS``), total
    (``TOTAL``), net strokes (``STROKES``) and potatoes (``POTATO``), where not 0.  Returns the
    next position."""
    t = W.t
    order = t[T.order]
    for j in range(m):
        g = order[j]
        if t[T.won, j] != 0:
            lp = put_value(log, i, lp, E_CARDS, g, t[T.won, j], E_HIGH)
        if t[T.total, j] != 0:
            lp = put_value(log, i, lp, E_TOTAL, g, t[T.total, j], E_HIGH)
        if t[T.strk, j] != 0:
            lp = put_signed(log, i, lp, E_STROKES, g, t[T.strk, j])
        if t[T.pot, j] != 0:
            lp = put_value(log, i, lp, E_POTATO, g, t[T.pot, j], E_HIGH)
    return lp


@njit(cache=True, nogil=True)
def log_scores(log, i, lp, score, n, end):
    """The scores of the game seats ``0..n-1`` (``SCORE``), then -1 up to position ``end``."""
    for g in range(n):
        lp = put_signed(log, i, lp, E_SCORE, g, score[g])
    for q in range(lp, end):
        log[i, q] = -1


# 11 parameters: the three records, the players this deal (m) and its number, and what the
# unit carries from the deal loop: its two streams, metric vector and log row and the block's
# first column (-1: not logged).
# The deal allocates nothing, so it runs without numba's reference counting (_nrt=False, as
# Crazy Eights' deal): its inlined phases take the work record, whose arrays were otherwise
# counted in and out at each (measured: a tenth of a deal's time).
@njit(cache=True, nogil=True, **NO_REFCOUNT)
def play_deal(R, S, W, m, dealno, s, u, v, log, i, col):
    """One deal among the ``m`` players ``W.order[0..m-1]`` (Forehand first).  Fills the deal's
    per-position results (``W.strk``, ``W.pot``, ...); with ``unit=deal`` also the metric vector
    ``v``; logs the deal's events from column ``col`` (:func:`log_head`, :func:`play_tricks`,
    :func:`log_tail`) when ``col >= 0``.  Returns ``(ok, active count, s, u, lp)`` (``ok``
    false: a stacked deck ran out; ``lp`` the log's next position)."""
    ok, s = deal_cards(W.deck, W.stack, W.stacked, W.perm, W.cards, s, dealno)
    if not ok:
        return False, 0, s, u, -1
    t = W.t
    twelve = (not R.dropping) and m < 4
    bessern = R.bessern and m < 4 and not twelve
    trump, tcard, u = sort_hands(R, S, W, m, twelve, bessern, u)
    mult = BERNER[trump] if R.berner else 1
    blind_ok = R.blind and m < 4 and not twelve and not bessern
    blindpos, lone, k, u = ask_players(R, S, W, m, trump, blind_ok, u)
    table = tcard if (blindpos >= 0 and m == 3) else -1
    exch = -1
    if lone < 0 and R.six_exchange and m < 4 and not twelve and not (bessern and m == 3):
        exch, table, u = exchange_six(S, W, m, k, trump, tcard, blindpos, table, u)
    D = Deal(m, k, trump, tcard, 12 if twelve else 9, blindpos, table, exch, lone)
    if lone < 0:
        u = declare_melds(S, W, k, trump, u)
    lp = log_head(W, D, dealno, log, i, col) if col >= 0 else -1
    if lone < 0:
        u, lp = play_tricks(S, W, D, u, log, i, lp)
        for a in range(k):
            j = t[T.act, a]
            t[T.total, j] = t[T.won, j] + t[T.weisp, j] + t[T.stock, j]
        nok, u = score_strokes(R, W, k, m, mult, u)
        if R.stake > 0:
            pay_potatoes(R, W, k)
    else:
        W.pend[0, 2] = 0
        W.pend[1, 2] = 0
        t[T.strk, lone] = mult * (1 if m == 2 else (m - 1 if R.minus_one else 2))
    if not R.game:
        deal_metrics(R, W, D, v)
    if col >= 0:
        lp = log_tail(W, m, log, i, lp)
    return True, (k if lone < 0 else 1), s, u, lp


@njit(cache=True, nogil=True)
def nok_all(total, act, k, potato):
    """Whether every active player is under the potato threshold."""
    for a in range(k):
        if total[act[a]] >= potato:
            return False
    return True


# --------------------------------------------------------------------------- units

@njit(cache=True, nogil=True)
def settle_held(W, m, k, held, score, ingame):
    """Line 175: strokes held over (game seats in ``W.pend[2:2 + held]``) go to the one of the
    two with more points in a deal both play; then this deal's new held-over pairs (positions
    in ``W.pend[0:2]``) join them, added to the pair's strokes if it already waits (both would
    be settled in the same deal, to the same player): so at most one entry per pair of seats,
    six with four players.  A pair with a retired player is dropped, its strokes lost (counted
    in ``W.pend[LOST, 2]``).  Returns the new count."""
    pend = W.pend
    t = W.t
    order = t[T.order]
    choice = t[T.choice]
    total = t[T.total]
    played = k > 1                      # the deal was played (not won unplayed)
    q = 0
    while q < held:
        a, b, amt = pend[2 + q, 0], pend[2 + q, 1], pend[2 + q, 2]
        ja, jb = -1, -1
        for j in range(m):
            if order[j] == a and (choice[j] == PLAY or choice[j] == BLIND):
                ja = j
            if order[j] == b and (choice[j] == PLAY or choice[j] == BLIND):
                jb = j
        win = -1
        if played and ja >= 0 and jb >= 0 and total[ja] != total[jb]:
            win = a if total[ja] > total[jb] else b
            score[win] += amt
        if win >= 0 or not ingame[a] or not ingame[b]:
            if win < 0:
                pend[LOST, 2] += amt        # lost with a retired player
            for r in range(q, held - 1):
                for c in range(3):
                    pend[2 + r, c] = pend[3 + r, c]
            held -= 1
        else:
            q += 1
    for n in range(2):
        if pend[n, 2] > 0:
            a, b = order[pend[n, 0]], order[pend[n, 1]]
            q = 0
            while q < held and not ((pend[2 + q, 0] == a and pend[2 + q, 1] == b) or
                                    (pend[2 + q, 0] == b and pend[2 + q, 1] == a)):
                q += 1
            if q == held:
                pend[2 + q, 0] = a
                pend[2 + q, 1] = b
                pend[2 + q, 2] = 0
                held += 1
            pend[2 + q, 2] += pend[n, 2]
    return held


@njit(cache=True, nogil=True)
def play_unit(R, S, W, i, key, ukey, v, log):
    """One unit: a deal of ``players`` (p1 Forehand, the last seat dealer), or a whole game to
    the loser (lines 142-144, 157, 162).  Returns the cards dealt."""
    s = key
    u = ukey
    P = R.players
    t = W.t
    order = t[T.order]
    ingame = t[T.ingame]
    score = t[T.score]
    strk = t[T.strk]
    pot = t[T.pot]
    choice = t[T.choice]
    side = t[T.side]
    nblocks = (log.shape[1] - NHEAD) // BLOCK_W if log.shape[0] > 0 else 0
    if not R.game:
        for j in range(4):
            order[j] = j
        col = NHEAD if nblocks > 0 else -1
        ok, _, s, u, lp = play_deal(R, S, W, P, 0, s, u, v, log, i, col)
        if col >= 0:
            log[i, H.played] = 1 if ok else 0
            if ok:
                log_scores(log, i, lp, strk, P, col + BLOCK_W)
        return NCARDS
    for g in range(4):
        ingame[g] = 1 if g < P else 0
        score[g] = 0
    fore = 0
    left = P
    deals = 0
    loser = -1
    plays = np.zeros(4, np.int64)
    held = 0                      # game-level held-over strokes in W.pend[2:8], lost in [LOST, 2]
    W.pend[LOST, 2] = 0
    pots = np.zeros(4, np.int64)
    sides = np.zeros(4, np.int64)
    while deals < R.max_deals:
        m = 0
        g = fore
        for q in range(P):
            if ingame[g]:
                order[m] = g
                m += 1
            g = g + 1 if g + 1 < P else 0
        col = NHEAD + deals * BLOCK_W if deals < nblocks else -1
        ok, k, s, u, lp = play_deal(R, S, W, m, deals, s, u, v, log, i, col)
        if not ok:
            break
        deals += 1
        for j in range(m):
            g = order[j]
            score[g] += strk[j]
            if pot[j] > 0:
                pots[g] += 1
            if choice[j] == PLAY or choice[j] == BLIND:
                plays[g] += 1
            sides[g] += side[j]
        if R.carry:
            held = settle_held(W, m, k, held, score, ingame)
        for j in range(m):
            if score[order[j]] >= R.target:
                ingame[order[j]] = 0
                left -= 1
        if col >= 0:
            log_scores(log, i, lp, score, P, col + BLOCK_W)
        if left <= 1:
            for g in range(P):
                if ingame[g]:
                    loser = g
            break
        # the next Forehand: the next player still in, after this deal's Forehand (line 144)
        g = fore + 1 if fore + 1 < P else 0
        while not ingame[g]:
            g = g + 1 if g + 1 < P else 0
        fore = g
    if log.shape[0] > 0:
        log[i, H.played] = deals
    for g in range(P):
        v[seat_slot(QG.lose * P, 1, g)] = 1 if g == loser else 0
        v[seat_slot(QG.strokes * P, 1, g)] = score[g]
        v[seat_slot(QG.potatoes * P, 1, g)] = pots[g]
        v[seat_slot(QG.plays * P, 1, g)] = plays[g]
        v[seat_slot(QG.side * P, 1, g)] = sides[g]
    b0 = NGS * P
    v[b0 + TG.deals] = deals
    v[b0 + TG.unfinished] = 1 if loser < 0 else 0
    v[b0 + TG.held_over] = W.pend[LOST, 2]
    for q in range(held):
        v[b0 + TG.held_over] += W.pend[2 + q, 2]
    return NCARDS * deals


@njit(cache=True, nogil=True)
def seat_of(S, k):
    """Game seat ``k``'s :class:`Seat` off the strategies' record ``S`` (:class:`Seats`); zeros
    for a seat beyond the players."""
    if k >= S.kind.shape[0]:
        return Seat(0, 0.0, 0.0, 0.0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    return Seat(S.kind[k], S.p[k], S.b[k], S.d[k], S.play[k], S.step[k], S.blind[k], S.weis[k],
                S.besser[k], S.dropped[k], S.behind[k], S.keep_jack[k], S.play_more[k])


@njit(cache=True, nogil=True)
def run_deals(R, S, W, state, n, acc, rows, log):
    """``n`` units on the core deal loop (:mod:`simkit.core.deals`); the seats' values are read
    off ``S`` once, into the four scalar :class:`Seat` records the deal reads."""
    return deal_loop(play_unit, STRAT_SALT, R,
                     (seat_of(S, 0), seat_of(S, 1), seat_of(S, 2), seat_of(S, 3)), W, state, n,
                     acc, rows, log)


def pack(rules) -> np.ndarray:
    return C.deck(36).astype(np.int64)

