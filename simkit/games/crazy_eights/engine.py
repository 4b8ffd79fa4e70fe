"""Crazy Eights kernels: deal, turn the starter, play matching cards, draw, pass, score.

A hand is a :mod:`simkit.core.hand` hand of two planes, a row of ``Work.hands`` (cards held at
least once / twice: two decks for six or seven players; with one deck the second plane stays
empty), changed only by ``add`` and ``remove``.  The legal cards are one mask expression over
plane 0: the hand's cards of the suit to follow, of the top card's rank, and its eights.  The stock is the shuffled pack's cards after the deal (``Work.stock``, shuffled in place
each deal; a pointer runs down it).

The kernel is :func:`run_deals`, the core deal loop over :func:`play_deal`, which plays one deal
(``unit=deal``) or a game of deals (``unit=game``) with :func:`play_hand`.  Strategies
(:mod:`simkit.games.crazy_eights.strategies`) choose in :func:`choose` (a card or the draw) and
:func:`call_suit` (the suit named with an eight).

Metrics (:func:`metrics`): ``unit=deal``: per seat ``pK_win`` (went out, or the lowest hand of a
blocked deal) and ``pK_points`` (points scored in the deal), then ``plays`` (cards played),
``draws`` (cards drawn from the stock, penalties included), ``blocked`` (the deal ended blocked
or at ``max_plays``), ``passes`` (turns without a card played).  ``unit=game``: ``pK_win``,
``pK_score`` (final total), ``deals``, ``passes`` (the game's).

Move log (:func:`log_columns`, the game's first deal with ``unit=game``): the number of events,
the cards dealt (card ``j`` to seat ``j % players``), then the house's events
(:mod:`simkit.engines.moves`: ``kind << 20 | seat << 16 | aux << 8 | card``, aux the suit: the
one named with an eight, else the card's): kind 1 a play, 2 a draw (the card drawn), 3 a pass
(no card), 4 the starter turned, 5 a starter eight put back (buried, or shuffled in; seat 0 for
these two).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simkit.core import hand as hnd
from simkit.core.bits import lowest_code, nth_code, popcount
from simkit.core.deals import SALT, deal_loop
from simkit.core.jit import NO_REFCOUNT  # the house's reference-count rule (simkit.core.jit)
from simkit.core.records import record, seat_slot, slots
from simkit.core.registry import Metric
from simkit.core.rng import bounded, shuffle_prefix
from simkit.engines.moves import event
from simkit.engines.shedding import random_member
from simkit.games.crazy_eights.rules import BLOCKED, STARTER_EIGHT, TWOS


K_RANDOM, K_BASELINE = 0, 1
DRAW = -1
PASS = -2
EV_PLAY, EV_DRAW, EV_PASS, EV_STARTER, EV_BURY = 1, 2, 3, 4, 5
TW_OFF, TW_STACK, TW_LITERAL = range(len(TWOS))
QS = 3 * 16 + 12
MAX_LOG = 1200
MAX_TURNS = 20_000
MAX_DEALS = 1000
_RANKS = np.uint64(0x0001000100010001)   # << rank: the four cards of a rank
_EIGHTS = _RANKS << np.uint64(8)
_TWOS = _RANKS << np.uint64(2)
_JACKS = _RANKS << np.uint64(11)
_LANE = np.uint64(0xFFFF)

SEAT_DEAL = ["win", "points"]
TAIL_DEAL = ["plays", "draws", "blocked", "passes"]
SEAT_GAME = ["win", "score"]
TAIL_GAME = ["deals", "passes"]
# the metric vector: each seat's two metrics, seat by seat (p1's slots SD, SG), then the tail
# (at NSEAT * K + TD.x, TG.x)
SD, TD, SG, TG = slots(SEAT_DEAL), slots(TAIL_DEAL), slots(SEAT_GAME), slots(TAIL_GAME)
NSEAT = len(SEAT_DEAL)
assert NSEAT == len(SEAT_GAME)
DOCS = {"win": "went out (or held the lowest hand of a blocked deal)",
        "points": "points scored in the deal (the cards left in the other hands)",
        "plays": "cards played in the deal", "draws": "cards drawn from the stock in the deal",
        "blocked": "the deal ended with nobody out (all passed, or max_plays)",
        "score": "final total of the game", "deals": "deals in the game",
        "passes": "turns that ended without a card played (no play and no card to draw, a "
                  "voluntary pass, or draw_one's drawn card kept; penalty skips not counted)"}
UNITS = {"win": "share of deals (0..1)", "points": "points per deal", "plays": "cards per deal",
         "draws": "cards per deal", "blocked": "share of deals (0..1)",
         "score": "points per game", "deals": "deals per game", "passes": "passes per deal"}
GAME_UNITS = {"win": "share of games (0..1)", "passes": "passes per game"}


def card_points() -> np.ndarray:
    """Points of the cards left in a hand (112): 50 per eight, 1 per ace, 10 per picture, face
    value otherwise; ``int64[64]`` by code."""
    pts = np.zeros(64, np.int64)
    for s in range(4):
        for r in range(2, 15):
            pts[s * 16 + r] = 50 if r == 8 else 1 if r == 14 else 10 if r > 10 else r
    return pts


POINTS = card_points()


def make_deck(rules) -> np.ndarray:
    one = [s * 16 + r for s in range(4) for r in range(2, 15)]
    return np.array(sorted(one * rules.n_decks), np.uint8)


class Table(NamedTuple):
    players: int
    hand: int
    bury: bool
    reshuffle: bool       # a starter eight back into the stock at a random place
    max_draws: int
    voluntary: bool
    lowest: bool
    max_plays: int
    may_pass: bool
    block_at: int         # passes in a row (stock empty) that end a deal
    queen: bool
    twos: int
    penalty_ends: bool
    jacks: bool
    draw_one: bool
    game: bool
    target: int


class Seats(NamedTuple):
    kind: np.ndarray       # K_*
    eight_at: np.ndarray   # baseline: play an eight rather than draw at or below this hand size
    call: np.ndarray       # baseline: 0 longest suit, 1 a suit the next player lacks, 2 the eight's


class Work(NamedTuple):
    deck: np.ndarray
    stacked: bool
    stock: np.ndarray      # int64[n]: the pack's cards, shuffled in place each deal
    hands: np.ndarray      # uint64[K, 3]: the seats' hands (core.hand, two planes)
    void: np.ndarray       # int64[K]: bit s: seat drew (could not follow) when suit s was asked
    scores: np.ndarray     # int64[K]: game totals
    pts: np.ndarray        # int64[K]: this deal's points


def table(rules) -> Table:
    return record(Table, players=rules.players, hand=rules.cards_each,
                  bury=rules.starter_eight == "bury",
                  reshuffle=rules.starter_eight == "shuffle", max_draws=rules.max_draws,
                  voluntary=rules.voluntary_draw, lowest=rules.blocked == "lowest",
                  max_plays=rules.max_plays, may_pass=rules.may_pass,
                  block_at=rules.players + rules.extra_passes, queen=rules.queen_spades,
                  twos=TWOS.index(rules.twos), penalty_ends=rules.penalty_ends_turn,
                  jacks=rules.jacks, draw_one=rules.draw_one, game=rules.unit == "game",
                  target=rules.target)


def work(rules, stacked=None) -> Work:
    d = make_deck(rules) if stacked is None else np.asarray(stacked, np.uint8)
    K = rules.players
    return record(Work, deck=d, stacked=stacked is not None, stock=d.astype(np.int64),
                  hands=hnd.hands(K, 2),
                  void=np.zeros(K, np.int64), scores=np.zeros(K, np.int64),
                  pts=np.zeros(K, np.int64))


def metrics(rules) -> list[Metric]:
    game = rules.unit == "game"
    seat, tail = (SEAT_GAME, TAIL_GAME) if game else (SEAT_DEAL, TAIL_DEAL)
    units = dict(UNITS, **GAME_UNITS) if game else UNITS
    binary = {"win", "blocked"}
    out = [Metric(f"p{k + 1}_{n}", binary=n in binary, doc=f"p{k + 1}: " + DOCS[n],
                  unit=units[n]) for k in range(rules.players) for n in seat]
    return out + [Metric(n, binary=n in binary, doc=DOCS[n], unit=units[n]) for n in tail]


def log_columns(rules) -> list[str]:
    return (["events"] + [f"dealt_{j}" for j in range(rules.players * rules.cards_each)]
            + [f"event_{j}" for j in range(MAX_LOG)])


# --------------------------------------------------------------------------- helpers (njit)

@njit(cache=True, nogil=True, inline="always")
def _suit_cards(m, s):
    return m & (_LANE << np.uint64(16 * s))


@njit(cache=True, nogil=True, inline="always")
def legal_cards(h, top, suit):
    """The cards of hand mask ``h`` playable on ``top`` with ``suit`` to follow."""
    return h & ((_LANE << np.uint64(16 * suit)) | (_RANKS << np.uint64(top & 15)) | _EIGHTS)


@njit(cache=True, nogil=True)
def _longest_suit(a, b):
    best, bn = 0, -1
    for s in range(4):
        n = popcount(_suit_cards(a & ~_EIGHTS, s)) + popcount(_suit_cards(b & ~_EIGHTS, s))
        if n > bn:
            best, bn = s, n
    return best


@njit(cache=True, nogil=True, inline="always")
def call_suit(kind, rule, a, b, card, void_next, u):
    """The suit named with an eight: ``(suit, u)``."""
    if kind == K_RANDOM:
        s, u = bounded(u, 4)
        return s, u
    return _call_baseline(rule, a, b, card, void_next), u


@njit(cache=True, nogil=True)
def _call_baseline(rule, a, b, card, void_next):
    if rule == 2:
        return card >> 4
    if rule == 1:
        for s in range(4):
            if (void_next >> s) & 1 and (_suit_cards(a & ~_EIGHTS, s)):
                return s
    return _longest_suit(a, b)


@njit(cache=True, nogil=True, inline="always")
def choose(kind, eight_at, a, b, legal, may_draw, may_pass, void_next, u):
    """A card of ``legal`` to play, :data:`DRAW` (only when ``may_draw``) or :data:`PASS` (only
    when ``may_pass``): ``(choice, u)``."""
    if kind == K_RANDOM:
        n = popcount(legal)
        k, u = bounded(u, n + (1 if may_draw else 0) + (1 if may_pass else 0))
        if k == n and may_draw:
            return DRAW, u
        if k >= n:
            return PASS, u
        return nth_code(legal, k), u
    return _choose_baseline(eight_at, a, b, legal, may_draw, void_next), u


@njit(cache=True, nogil=True)
def _choose_baseline(eight_at, a, b, legal, may_draw, void_next):
    plain = legal & ~_EIGHTS
    if plain == 0:
        if may_draw and popcount(a) + popcount(b) > eight_at:
            return DRAW
        return lowest_code(legal)
    best, bs = -1, -1
    x = plain
    while x:
        c = lowest_code(x)
        x &= x - np.uint64(1)
        s = c >> 4
        sc = 16 * (popcount(_suit_cards(a, s)) + popcount(_suit_cards(b, s))) \
            + 64 * ((void_next >> s) & 1) + POINTS[c]
        if sc > bs:
            best, bs = c, sc
    return best


@njit(cache=True, nogil=True, inline="always")
def _log(log, i, n, kind, seat, suit, code):
    if log.shape[0] > 0 and n < MAX_LOG:
        log[i, 1 + log.shape[1] - 1 - MAX_LOG + n] = event(kind, seat, suit, code)
    return n + 1


# play_hand, its phases and play_deal allocate nothing, so they run without numba's reference
# counting (_nrt=False): the ~12 arrays of the records they take were otherwise increfed and
# decrefed at every call, measured 15% of a random deal's time.
@njit(cache=True, nogil=True, inline="always", **NO_REFCOUNT)
def deal_hand(R, W, i, start, s, log, logging):
    """Deal ``R.hand`` cards each from seat ``start`` (the stock shuffled unless stacked) and
    turn the starter, an eight buried or shuffled back in.  Returns ``(events logged, s)``."""
    K = R.players
    hs, stock, void, pts = W.hands, W.stock, W.void, W.pts
    n = W.deck.shape[0]
    if not W.stacked:
        s = shuffle_prefix(stock, n, s)
    for p in range(K):
        hnd.clear(hs[p])
        pts[p] = 0
        void[p] = 0
    nd = K * R.hand
    q = start
    for j in range(nd):
        c = np.int64(stock[j])
        hnd.add(hs[q], c)
        q += 1
        if q == K:
            q = 0
        if logging:
            log[i, 1 + j] = c
    top_pos = nd
    ev = 0
    # the starter
    top = np.int64(stock[top_pos])
    top_pos += 1
    tries = 0
    while (R.bury or R.reshuffle) and (top & 15) == 8 and tries < n:
        ev = _log(log, i, ev, EV_BURY, 0, top >> 4, top) if logging else ev + 1
        # to the bottom of the stock (bury), or to a uniformly random place in it, the top
        # included (reshuffle; on top it is turned again): rotate the stock's positions
        dest = n - 1
        if R.reshuffle:
            k, s = bounded(s, n - top_pos + 1)
            dest = top_pos - 1 + k
        x = stock[top_pos - 1]
        for q in range(top_pos - 1, dest):
            stock[q] = stock[q + 1]
        stock[dest] = x
        top = np.int64(stock[top_pos - 1])
        tries += 1
    if logging:
        ev = _log(log, i, ev, EV_STARTER, 0, top >> 4, top)
    return ev, s


@njit(cache=True, nogil=True, inline="always", **NO_REFCOUNT)
def draw_penalty(W, p, count, top_pos, log, i, ev, logging):
    """Seat ``p`` draws ``count`` penalty cards while the stock lasts: ``(top_pos, ev)``."""
    stock = W.stock
    n = W.deck.shape[0]
    for _ in range(count):
        if top_pos < n:
            c = np.int64(stock[top_pos])
            top_pos += 1
            hnd.add(W.hands[p], c)
            if logging:
                ev = _log(log, i, ev, EV_DRAW, p, c >> 4, c)
    return top_pos, ev


@njit(cache=True, nogil=True, inline="always")
def pass_two_on(kind, twos, u):
    """A two of ``twos`` that passes a twos penalty on (stacked twos), or -1 to take the
    penalty: ``(card, u)``."""
    if twos == 0:
        return -1, u
    if kind != K_RANDOM:
        return lowest_code(twos), u
    k, u = bounded(u, popcount(twos) + 1)
    if k < popcount(twos):
        return random_member(twos, u)
    return -1, u


@njit(cache=True, nogil=True, inline="always", **NO_REFCOUNT)
def choose_or_draw(R, S, W, p, top, suit, top_pos, u, rand, draw_one):
    """Seat ``p``'s turn: draw while it must (or chooses to) and may, then a card to play on
    ``top`` (``suit`` to follow), or a pass.  Returns ``(card or -1, a, b, top_pos, u)``, ``a``
    and ``b`` the hand's planes after the draws (the cards drawn: ``W.stock`` up to
    ``top_pos``)."""
    stock, void = W.stock, W.void
    n = W.deck.shape[0]
    kind = K_RANDOM if rand else S.kind[p]
    nxt = p + 1 if p + 1 < R.players else 0
    drawn = 0
    a, b = W.hands[p, 0], W.hands[p, 1]   # the hand's planes, kept in registers through the turn
    while True:
        legal = legal_cards(a, top, suit)
        can_draw = top_pos < n and (R.max_draws == 0 or drawn < R.max_draws)
        if draw_one:
            can_draw = can_draw and drawn == 0
        if legal == 0:
            if drawn == 0 and not rand:
                void[p] |= 1 << suit
            if not can_draw or (draw_one and drawn > 0):
                break
            choice = DRAW
        else:
            if draw_one and drawn > 0:
                break  # drew his one card: passes even if it plays (116)
            choice, u = choose(kind, S.eight_at[p], a, b, legal, can_draw and R.voluntary,
                               R.may_pass and not can_draw, void[nxt], u)
            if choice == PASS:
                break
        if choice == DRAW:
            c = np.int64(stock[top_pos])
            top_pos += 1
            a, b = hnd.add2(a, b, c)
            drawn += 1
            continue
        a, b = hnd.remove2(a, b, choice)
        W.hands[p, 0], W.hands[p, 1] = a, b
        return choice, a, b, top_pos, u
    W.hands[p, 0], W.hands[p, 1] = a, b
    return -1, a, b, top_pos, u


# 11 parameters: the deal loop's log row (log, i) and play_hand's three switches
@njit(cache=True, nogil=True, inline="always", **NO_REFCOUNT)
def play_turns(R, S, W, i, start, ev, u, log, logging, special, rand):
    """The turns from seat ``start`` until a seat goes out, the deal blocks or reaches
    ``max_plays``.  Returns ``(winner or -1, blocked, plays, passes, top_pos, ev, u)``
    (``passes``: the turns without a card played)."""
    K = R.players
    twos_rule = R.twos if special else TW_OFF
    queen = special and R.queen
    jacks = special and R.jacks
    draw_one = special and R.draw_one
    hs, stock, void = W.hands, W.stock, W.void
    n = W.deck.shape[0]
    top_pos = K * R.hand + 1           # past the deal and the starter
    top = np.int64(stock[top_pos - 1])
    suit = top >> 4
    p = start
    plays = 0
    npass = 0
    passes = 0          # passes in a row with the stock empty
    run = 0             # twos played in a row
    owe2 = 0            # cards the player to move owes for twos (2 * run)
    owed_q = False      # the next player owes five for a Q♠
    for _turn in range(MAX_TURNS):
        kind = K_RANDOM if rand else S.kind[p]
        nxt = p + 1
        if nxt == K:
            nxt = 0
        # penalties owed by this player
        skip_play = False
        if owed_q:
            owed_q = False
            top_pos, ev = draw_penalty(W, p, 5, top_pos, log, i, ev, logging)
            skip_play = R.penalty_ends
        if owe2 > 0:
            c2 = -1
            if twos_rule == TW_STACK:
                c2, u = pass_two_on(kind, hs[p, 0] & _TWOS, u)
            if c2 >= 0:
                hnd.remove(hs[p], c2)
                plays += 1
                passes = 0
                top, suit = c2, c2 >> 4
                run += 1
                owe2 = 2 * run
                if logging:
                    ev = _log(log, i, ev, EV_PLAY, p, suit, c2)
                if hnd.distinct(hs[p]) == 0:
                    return p, False, plays, npass, top_pos, ev, u
                if R.max_plays and plays >= R.max_plays:
                    return -1, True, plays, npass, top_pos, ev, u
                p = nxt
                continue
            top_pos, ev = draw_penalty(W, p, owe2, top_pos, log, i, ev, logging)
            owe2 = 0
            if twos_rule == TW_STACK:
                run = 0
                skip_play = skip_play or R.penalty_ends
        if skip_play:
            p = nxt
            continue
        top0 = top_pos
        c, a, b, top_pos, u = choose_or_draw(R, S, W, p, top, suit, top_pos, u, rand, draw_one)
        if logging:
            for q in range(top0, top_pos):
                d = np.int64(stock[q])
                ev = _log(log, i, ev, EV_DRAW, p, d >> 4, d)
        if c < 0:
            npass += 1
            if logging:
                ev = _log(log, i, ev, EV_PASS, p, 0, 0)
            if top_pos < n:
                passes = 0
            else:
                passes += 1
                if passes >= R.block_at:
                    return -1, True, plays, npass, top_pos, ev, u
            p = nxt
            continue
        plays += 1
        passes = 0
        top = c
        if not rand:
            void[p] &= ~(1 << (c >> 4))
        if (c & 15) == 8:
            suit, u = call_suit(kind, S.call[p], a, b, c, void[nxt], u)
        else:
            suit = c >> 4
        if logging:
            ev = _log(log, i, ev, EV_PLAY, p, suit, c)
        if a == 0:
            return p, False, plays, npass, top_pos, ev, u
        if R.max_plays and plays >= R.max_plays:
            return -1, True, plays, npass, top_pos, ev, u
        if twos_rule != TW_OFF and (c & 15) == 2:
            run += 1
            owe2 = 2 * run
        else:
            run = 0
        if queen and c == QS:
            owed_q = True
        if jacks and (c & 15) == 11:
            nxt += 1
            if nxt == K:
                nxt = 0
        p = nxt
    return -1, True, plays, npass, top_pos, ev, u


@njit(cache=True, nogil=True, inline="always", **NO_REFCOUNT)
def score_hand(R, W, winner):
    """Line 112: the winner scores the cards left in the other hands, over his own (none); a
    blocked deal with ``blocked=lowest`` goes so to the one lowest hand.  Into ``W.pts``;
    returns the winner (-1)."""
    K = R.players
    hs, pts = W.hands, W.pts
    if winner < 0 and not R.lowest:
        return winner
    for q in range(K):
        pts[q] = hnd.points(hs[q], POINTS)
    if winner < 0:
        low, lo, ties = -1, 1 << 30, 0
        for q in range(K):
            x = pts[q]
            if x < lo:
                low, lo, ties = q, x, 1
            elif x == lo:
                ties += 1
        if ties == 1:
            winner = low
    t = 0
    if winner >= 0:
        mine = pts[winner]
        for q in range(K):
            if q != winner:
                t += pts[q] - mine
    for q in range(K):
        pts[q] = 0
    if winner >= 0:
        pts[winner] = t
    return winner


# 12 parameters: the deal loop's (i, s, u, log, v) and the three switches below
@njit(cache=True, nogil=True, **NO_REFCOUNT)
def play_hand(R, S, W, i, start, s, u, log, logging, special, rand, v):
    """One deal starting with seat ``start``; fills ``W.pts``.  Returns ``(winner or -1,
    blocked, plays, draws, s, u)``.

    ``logging`` (the move log is written), ``special`` (one of the optional rules of lines
    113-116 is on) and ``rand`` (every seat plays ``random``: no void tracking, no strategy
    branch) say what the deal needs.  Passed as the constants ``False, False, True``
    (:func:`play_deal` does so for a random deal without log or optional rules), numba compiles
    a version of this function without the code they switch off, measured about a sixth
    faster."""
    ev, s = deal_hand(R, W, i, start, s, log, logging)
    winner, blocked, plays, npass, top_pos, ev, u = play_turns(R, S, W, i, start, ev, u, log,
                                                               logging, special, rand)
    v[NSEAT * R.players + (TG.passes if R.game else TD.passes)] += npass   # (a game's: its sum)
    if logging:
        log[i, 0] = ev
    # scoring (112): the winner scores the others' cards; a blocked deal (lowest) the differences
    winner = score_hand(R, W, winner)
    # every card drawn after the starter came off the top of the stock
    return winner, blocked, plays, top_pos - (R.players * R.hand + 1), s, u


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def play_deal(R, S, W, i, key, ukey, v, log):
    K = R.players
    logging = log.shape[0] > 0
    special = R.queen or R.jacks or R.draw_one or R.twos != TW_OFF
    rand = True
    for q in range(K):
        rand = rand and S.kind[q] == K_RANDOM
    if logging:
        for q in range(log.shape[1]):
            log[i, q] = -1
    s, u = key, ukey
    n = W.deck.shape[0]
    stock = W.stock
    if not R.game:
        for j in range(n):
            stock[j] = W.deck[j]
        # a random deal without log or optional rules runs play_hand's lean version (constant
        # flags); anything else the general one, shared with the game unit (np.int64(0)): two
        # versions to compile, as many as before (a third, lean for baseline seats, doubled the
        # first compile's time)
        if logging or special or not rand:
            w, bl, plays, draws, s, u = play_hand(R, S, W, i, np.int64(0), s, u, log, logging,
                                                  special, rand, v)
        else:
            w, bl, plays, draws, s, u = play_hand(R, S, W, i, 0, s, u, log, False, False, True, v)
        if w >= 0:
            v[seat_slot(SD.win, NSEAT, w)] = 1.0
        for q in range(K):
            v[seat_slot(SD.points, NSEAT, q)] = W.pts[q]
        v[NSEAT * K + TD.plays] = plays
        v[NSEAT * K + TD.draws] = draws
        v[NSEAT * K + TD.blocked] = 1.0 if bl else 0.0
        return n
    scores = W.scores
    for q in range(K):
        scores[q] = 0
    deals = 0
    for d in range(MAX_DEALS):
        for j in range(n):
            stock[j] = W.deck[j]
        w, bl, plays, draws, s, u = play_hand(R, S, W, i, d % K, s, u, log,
                                              logging and d == 0, special, rand, v)
        deals += 1
        for q in range(K):
            scores[q] += W.pts[q]
        best, bq = -1, -1
        for q in range(K):
            if scores[q] > bq:
                best, bq = q, scores[q]
        if bq >= R.target:
            ties = 0
            for q in range(K):
                if scores[q] == bq:
                    ties += 1
            if ties == 1:
                v[seat_slot(SG.win, NSEAT, best)] = 1.0
                break
    for q in range(K):
        v[seat_slot(SG.score, NSEAT, q)] = scores[q]
    v[NSEAT * K + TG.deals] = deals
    return n * deals


@njit(cache=True, nogil=True)
def run_deals(R, S, W, state, n, acc, rows, log):
    return deal_loop(play_deal, SALT, R, S, W, state, n, acc, rows, log)
