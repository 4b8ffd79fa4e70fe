"""Hearts kernels: deal, pass and play hands (or whole games) from an RNG stream.

Cards use :mod:`simkit.core.cards`' codes; the Cancellation joker, "the zero of clubs" (text line
232), is code 0 inside the kernel (clubs, rank 0), so it follows clubs, loses to every club and
is the lowest club (the pack and stacked decks name it by the core's joker code 64; the move log
writes the kernel's 0).  A hand is a :mod:`simkit.core.hand` hand of two planes, a row of
``Work.hands`` (``uint64[K, 3]`` whatever the number of decks: with one deck the second plane
stays empty; the kernel's joker is a card of the planes, the hand's joker count stays 0): the
cards held at least once (``hs[p, 0]``) and twice (``hs[p, 1]``), changed only by ``add`` and
``remove``; the strategies take the two planes as scalars.  Following suit is
:func:`simkit.engines.tricks.follow_suit` on plane 0, and the Hearts restrictions (the lowest club
leads, no points on the first trick, hearts broken) are intersected here.

The kernel is :func:`run_deals`: the core deal loop (:mod:`simkit.core.deals`) over
:func:`play_deal`, which plays one hand (``unit=hand``) or a whole game of hands (``unit=game``).
A hand's phases are :func:`deal_cards`, :func:`pass_cards`, :func:`play_tricks` (one trick at a
time: :func:`legal_cards`, :func:`shooter_threat`, :func:`choose_play`) and :func:`score_hand`
(the moon).  The rules reach it as the record :class:`Table`, the seats' strategies as
:class:`Seats`, the buffers and per-call settings (a stacked deck, a forced pass direction) as
:class:`Work`.

Each deal takes one key from the chunk's xoshiro stream; the cards (and, with ``passing=random``,
the pass direction) come from a splitmix64 sequence started at the key, the strategies' choices
from a second one started at ``key ^ STRAT_SALT``.  The dealt cards are a partial Fisher-Yates
shuffle of the pack's positions (:func:`simkit.core.rng.shuffle_prefix`), one deck or two alike.

Metric layout (:func:`metrics`): ``unit=hand``: per seat ``pK_points``, ``pK_zero``
(the hand scored 0) and ``pK_moon`` (he shot the moon), then ``moon_rate`` and
``zero_point_rate`` (the share of the deal's players with 0 points).  ``unit=game``: per seat
``pK_win`` (1 for the lowest final total, shared equally on a tie) and ``pK_score`` (final
total), then ``hands_per_game`` and ``moons_per_game``.  The slots come from the name lists
(:data:`SEAT_HAND` and so on) through :func:`simkit.core.records.slots`.

The optional move log (one ``int64`` row per deal, :func:`log_columns`) is a stream of the
house's events (:mod:`simkit.engines.moves`: ``kind << 20 | seat << 16 | aux << 8 | card``, kinds
:data:`KINDS`, cards in the pack's codes: the joker 64), padded with -1: ``DEAL`` per card in
deal order (seat the receiver: card ``j`` goes to seat ``j % players``), one ``PASSING`` (aux the
pass offset, 0: no pass), ``PASS`` per card passed (seat the passer, each seat's cards in turn;
none when nobody passes), ``PLAY`` per card in playing order (seat the player) and after each
trick ``TRICK`` (seat its taker; aux 1, seat 0: held over).  The longest hand fills the row
(:func:`log_width`).  :func:`read_log` gives its sections back.  With ``unit=game`` it is the
game's first hand.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simkit.core import cards as C
from simkit.core import hand as hnd
from simkit.core.deals import deal_loop
from simkit.core.records import record, seat_slot, slots
from simkit.core.registry import Metric
from simkit.core.rng import bounded, shuffle_prefix
from simkit.engines.moves import put_next, split_event
from simkit.engines.tricks import (
    bit,
    cancel_winner,
    follow_suit,
    lowest_code,
    natural_strength,
    popcount,
    random_card,
    seat_of,
    suit_mask,
    trick_winner,
)
from simkit.games.hearts.rules import (
    HOLD_TWO_PAIRS,
    HOLDOVER,
    MOON,
    MOON_BEST,
    MOON_OFF,
    MOON_SUBTRACT,
    PASS_ACROSS,
    PASS_CYCLE,
    PASS_LEFT,
    PASS_NONE,
    PASS_RANDOM,
    PASS_RIGHT,
    PASSING,
)

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
QS = SPADES * 16 + 12
TD = DIAMONDS * 16 + 10
JOKER = 0                       # the kernel's joker: the zero of clubs
PACK_JOKER = C.JOKER            # the joker's code in the pack and in stacked decks
STRAT_SALT = np.uint64(0x6A09E667F3BCC909)
MAX_HANDS = 1000
MOON_ALARM = 5  # the heuristic defends once one player alone has taken this many moon cards
MOON_ALARM_TWO = 1  # ... and with two players as soon as the opponent has taken one
MOON_NEAR = 8       # ... and stops him at any price once he has this many
STOP_PRICE = 3      # the points it takes a trick for, to stop a moon, below MOON_NEAR
NOBODY, SEVERAL = -1, -2  # no seat / more than one seat has taken moon cards

# pass directions inside the kernel; DRAW_DIRECTION: draw it from the card stream (passing=random)
D_NONE, D_LEFT, D_RIGHT, D_ACROSS = 0, 1, 2, 3
DRAW_DIRECTION = -1
NO_DIRECTION = -1               # Work.direction: no forced direction
DIRECTIONS = {"none": D_NONE, "left": D_LEFT, "right": D_RIGHT, "across": D_ACROSS}
FIXED_DIRECTION = {PASS_LEFT: D_LEFT, PASS_RIGHT: D_RIGHT, PASS_ACROSS: D_ACROSS,
                   PASS_NONE: D_NONE}
CYCLE = (D_LEFT, D_RIGHT, D_ACROSS, D_NONE)  # passing=cycle, by hand number (226)
# strategy kinds
K_RANDOM, K_HEURISTIC, K_MOON = 0, 1, 2

# metric names (per seat ``pK_<name>``, then the deal's own) and their slots
SEAT_HAND = ["points", "zero", "moon"]
HAND_TAIL = ["moon_rate", "zero_point_rate"]
SEAT_GAME = ["win", "score"]
GAME_TAIL = ["hands_per_game", "moons_per_game"]
PH, TH, PG, TG = slots(SEAT_HAND), slots(HAND_TAIL), slots(SEAT_GAME), slots(GAME_TAIL)
NPH, NPG = len(SEAT_HAND), len(SEAT_GAME)
DOCS = {"points": "points scored in the hand", "zero": "scored 0 in the hand",
        "moon": "shot the moon", "moon_rate": "someone shot the moon",
        "zero_point_rate": "share of players scoring 0", "win": "share of games won (ties shared)",
        "score": "final total", "hands_per_game": "hands in the game",
        "moons_per_game": "moons shot in the game"}
BINARY = {"zero", "moon", "moon_rate"}
UNITS = {"points": "points per hand (penalty points: fewer is better)",
         "zero": "share of hands (0..1)", "moon": "share of hands (0..1)",
         "moon_rate": "share of hands (0..1)", "zero_point_rate": "share of players per hand",
         "win": "share of games (0..1)", "score": "points per game (fewer is better)",
         "hands_per_game": "hands per game", "moons_per_game": "moons per game"}

_HEARTS_LANE = np.uint64(0xFFFF) << np.uint64(16 * HEARTS)
_CLUBS_LANE = np.uint64(0xFFFF)
_QS_BIT = np.uint64(1) << np.uint64(QS)
_RANKS = np.uint64(0x7FFC)  # a suit's cards, 2 to ace, in its 16-bit lane


# --------------------------------------------------------------------------- tables (Python)

def make_deck(rules) -> np.ndarray:
    """The pack as the kernel's ``uint8`` codes (the joker is code 0), from the deal table of
    line 231."""
    K = rules.players
    one = [s * 16 + r for s in range(4) for r in range(2, 15)]
    if K == 4:
        return np.array(one, np.uint8)
    if K == 2:
        return np.array([c for c in one if (c & 15) in (2, 4, 6, 8, 10, 12, 14)], np.uint8)
    cards = sorted(one * 2)
    c2, d2, s2 = CLUBS * 16 + 2, DIAMONDS * 16 + 2, SPADES * 16 + 2
    remove = {5: [], 6: [c2, d2], 7: [], 8: [c2], 9: [c2, d2, d2, s2, s2], 10: [c2, d2, d2, s2],
              11: [c2, d2, d2, s2, s2]}[K]
    for c in remove:
        cards.remove(c)
    if K in (5, 7, 8):
        cards = [JOKER] + cards
    return np.array(cards, np.uint8)


def pack(rules) -> np.ndarray:
    """The pack in the core's card codes (the joker as :data:`PACK_JOKER`), for stacked decks."""
    d = make_deck(rules).astype(np.int64)
    return np.where(d == JOKER, PACK_JOKER, d)


def kernel_codes(deck) -> np.ndarray:
    """A stacked deck (core codes) as the kernel deals it: the joker becomes code 0."""
    d = np.asarray(deck, np.int64)
    return np.where(d == PACK_JOKER, JOKER, d).astype(np.uint8)


def card_tables(omnibus: bool):
    """``(points, need)``: ``int64[64]`` points per code and ``int64[64]`` 1 for the cards the
    moon needs (hearts, Q♠, and the 10♦ in Omnibus)."""
    pts = np.zeros(64, np.int64)
    need = np.zeros(64, np.int64)
    for r in range(2, 15):
        pts[HEARTS * 16 + r] = 1
        need[HEARTS * 16 + r] = 1
    pts[QS] = 13
    need[QS] = 1
    if omnibus:
        pts[TD] = -10
        need[TD] = 1
    return pts, need


# The card tables are module constants (numba freezes global arrays into the compiled code), so
# that the rules record holds scalars only and costs nothing to pass around: an array in a record
# is reference-counted at every call of a helper it is passed to.  Row ``omnibus`` (0 or 1).
POINTS = np.stack([card_tables(False)[0], card_tables(True)[0]])   # int64[2, 64]
NEED = np.stack([card_tables(False)[1], card_tables(True)[1]])     # int64[2, 64]
STRENGTH = natural_strength()                                      # int64[2, 16]: ace high


class Table(NamedTuple):
    """The rules of a hand (and a game) as the kernel reads them (built by :func:`table`); scalars
    only (the card tables are :data:`POINTS` and :data:`NEED`, by ``omnibus``)."""
    players: int
    hand_size: int
    pass_cards: int
    passing: int                  # a PASS_* code (rules.PASSING)
    direction: int                # the pass direction of a fixed ``passing`` (D_*), else -1
    no_points_first_trick: bool
    hearts_broken: bool           # the rule is on (hearts start unbroken)
    qs_breaks_hearts: bool
    moon: int                     # a MOON_* code (rules.MOON)
    two_decks: bool               # Cancellation: equal cards cancel
    holdover: int                 # a HOLD_* code (rules.HOLDOVER)
    game: bool                    # unit=game: a deal is a whole game to ``target``
    target: int
    omnibus: bool                 # the 10♦ counts -10 and the moon needs it
    scoring: np.uint64            # mask of the cards that score or that the moon needs


class Seats(NamedTuple):
    """The seats' strategies (:func:`simkit.core.records.seat_arrays`): kind codes (K_*) and
    moon thresholds, ``int64[K]`` each (a seat not playing ``moon`` holds the default, never
    read: the threshold is read only for ``K_MOON``)."""
    kind: np.ndarray
    threshold: np.ndarray


class Work(NamedTuple):
    """Per-call settings and the hand's buffers."""
    deck: np.ndarray              # uint8: the pack, or a stacked deck dealt in order
    stacked: bool
    direction: int                # a forced pass direction (D_*), or NO_DIRECTION
    hands: np.ndarray             # uint64[K, 3]: the seats' hands (core.hand, two planes)
    perm: np.ndarray              # int64[len(deck)]: deal positions
    trick: np.ndarray             # int64[K]: the trick's cards in playing order
    raw: np.ndarray               # int64[K]: points taken in the hand
    needc: np.ndarray             # int64[K]: moon cards taken in the hand
    passbuf: np.ndarray           # int64[K, max(pass_cards, 1)]
    shooting: np.ndarray          # bool[K]: a moon strategy tries the moon this hand
    hand_pts: np.ndarray          # int64[K]: the hand's scores
    totals: np.ndarray            # int64[K]: the game's scores before this hand


def table(rules) -> Table:
    pts, need = card_tables(rules.omnibus)
    scoring = 0
    for c in range(64):
        if pts[c] != 0 or need[c] != 0:
            scoring |= 1 << c
    passing = PASSING.index(rules.passing)
    return record(Table, players=rules.players, hand_size=rules.hand_size,
                  pass_cards=rules.pass_cards, passing=passing,
                  direction=FIXED_DIRECTION.get(passing, -1),
                  no_points_first_trick=rules.no_points_first_trick,
                  hearts_broken=rules.hearts_broken, qs_breaks_hearts=rules.qs_breaks_hearts,
                  moon=MOON.index(rules.moon), two_decks=rules.cancellation,
                  holdover=HOLDOVER.index(rules.holdover), game=rules.unit == "game",
                  target=rules.target, omnibus=rules.omnibus, scoring=np.uint64(scoring))


def work(rules, deck=None, direction=NO_DIRECTION) -> Work:
    """Buffers for ``rules``; ``deck``: a stacked deck in kernel codes (else the pack)."""
    K = rules.players
    d = make_deck(rules) if deck is None else np.asarray(deck, np.uint8)
    z = np.zeros(K, np.int64)
    return record(Work, deck=d, stacked=deck is not None, direction=direction,
                  hands=hnd.hands(K, 2),
                  perm=np.zeros(d.shape[0], np.int64), trick=z.copy(), raw=z.copy(),
                  needc=z.copy(), passbuf=np.zeros((K, max(rules.pass_cards, 1)), np.int64),
                  shooting=np.zeros(K, np.bool_), hand_pts=z.copy(), totals=z.copy())


def metrics(rules) -> list[Metric]:
    seat, tail = (SEAT_GAME, GAME_TAIL) if rules.unit == "game" else (SEAT_HAND, HAND_TAIL)
    out = [Metric(f"p{k + 1}_{n}", binary=n in BINARY, doc=f"p{k + 1}: " + DOCS[n],
                  unit=UNITS[n]) for k in range(rules.players) for n in seat]
    return out + [Metric(n, binary=n in BINARY, doc=DOCS[n], unit=UNITS[n]) for n in tail]


KINDS = ["DEAL", "PASSING", "PASS", "PLAY", "TRICK"]
E_DEAL, E_PASSING, E_PASS, E_PLAY, E_TRICK = [k + 1 for k in range(len(KINDS))]


def log_width(rules) -> int:
    """Events of the longest hand: the deal, the passing, every pass, every play and trick."""
    K, H = rules.players, rules.hand_size
    return K * H + 1 + K * rules.pass_cards + K * H + H


def log_columns(rules) -> list[str]:
    """A move-log row's columns: one event each (the module docstring)."""
    return [f"e{j}" for j in range(log_width(rules))]


def read_log(rules, row) -> dict:
    """A logged hand's sections from its events (the module docstring): ``pass_offset``,
    ``dealt`` (the cards in deal order), ``passed`` (each seat's cards, ``[]`` without a pass),
    ``plays`` (``(seat, card)`` in playing order) and ``winners`` (each trick's taker, -1 held
    over); cards in the pack's codes (the joker 64)."""
    out = dict(pass_offset=0, dealt=[], passed=[[] for _ in range(rules.players)], plays=[],
               winners=[])
    for e in row:
        if e < 0:
            break
        kind, seat, aux, card = split_event(e)
        if kind == E_DEAL:
            out["dealt"].append(card)
        elif kind == E_PASSING:
            out["pass_offset"] = aux
        elif kind == E_PASS:
            out["passed"][seat].append(card)
        elif kind == E_PLAY:
            out["plays"].append((seat, card))
        elif kind == E_TRICK:
            out["winners"].append(-1 if aux else seat)
    return out


# --------------------------------------------------------------------------- small helpers (njit)

@njit(cache=True, nogil=True, inline="always")
def _suit_len(a, b, suit):
    return popcount(a & suit_mask(suit)) + popcount(b & suit_mask(suit))


@njit(cache=True, nogil=True, inline="always")
def _top(m):
    """The highest-ranked card of mask ``m`` (ties: the lowest suit); ``-1`` if empty."""
    best, br = -1, -1
    x = np.uint64(m)
    while x:
        c = lowest_code(x)
        x &= x - np.uint64(1)
        if (c & 15) > br:
            best, br = c, c & 15
    return best


@njit(cache=True, nogil=True, inline="always")
def _bottom(m):
    """The lowest-ranked card of mask ``m`` (ties: the lowest suit); ``-1`` if empty."""
    best, br = -1, 99
    x = np.uint64(m)
    while x:
        c = lowest_code(x)
        x &= x - np.uint64(1)
        if (c & 15) < br:
            best, br = c, c & 15
    return best


@njit(cache=True, nogil=True, inline="always")
def _hcp(a, b):
    """High-card points of a hand (A 4, K 3, Q 2, J 1), both copies counted."""
    t = 0
    for m in (a, b):
        x = np.uint64(m)
        while x:
            c = lowest_code(x)
            x &= x - np.uint64(1)
            r = c & 15
            if r > 10:
                t += r - 10
    return t


@njit(cache=True, nogil=True)
def pass_offset(d, K):
    """Seats between passer and receiver for direction ``d``."""
    if d == D_LEFT:
        return 1
    if d == D_RIGHT:
        return K - 1
    if d == D_ACROSS:
        return K // 2
    return 0


# --------------------------------------------------------------------------- strategies (njit)

class Seen(NamedTuple):
    """What a seat sees when it plays to a trick (scalars only, built in :func:`play_tricks`)."""
    n: int              # cards already in the trick
    led: int            # the led suit (when n > 0)
    wcard: int          # the card winning the trick so far (-1: none; pairs cancelled)
    last: bool          # the seat plays the trick's last card
    first: bool         # the hand's first trick
    points: int         # points in the trick so far, held-over ones included
    tmask: np.uint64    # the cards in the trick
    gone: np.uint64     # cards played in the hand so far (both decks: played at least once)
    qs_out: bool        # the Q♠ has been played
    viable: bool        # the seat's own moon attempt is still on
    stop: bool          # the trick's winner may be shooting the moon: beat him, feed him nothing
    near: bool          # ... and he is near it: stop him even at the price of the Q♠
    insure: bool        # two players: the seat has no moon card yet and the opponent may moon
    pair_qs: bool       # Cancellation: the seat's Q♠ pairs a played one, the trick keeps a winner
    omnibus: bool
    two_decks: bool


@njit(cache=True, nogil=True)
def choose_pass(kind, thr, a, b, omnibus, two, u):
    """One card to pass from the hand ``(a, b)``: ``(code, u)``.  ``two``: two players (the pass
    goes to the only opponent)."""
    hand = a | b
    stopper = _top(hand & _HEARTS_LANE) if two else -1  # kept: a heart to stop his moon
    if kind == K_RANDOM:
        return random_card(a, u)  # a holds every distinct card; a double is passed like a single
    if kind == K_MOON and _hcp(a, b) >= thr:
        return _bottom(hand), u
    low_spades = popcount(hand & suit_mask(SPADES) & np.uint64(0xFFF << 48))  # below the queen
    best, bs = -1, -1e9
    x = hand
    while x:
        c = lowest_code(x)
        x &= x - np.uint64(1)
        s, r = c >> 4, c & 15
        if s == SPADES and r >= 12:
            sc = (110.0 if r == 12 else 90.0 + r) if low_spades < 4 else r - 20.0
        elif s == HEARTS:
            sc = 60.0 + r if r >= 11 else r - 20.0
            if c == stopper and r >= 12:
                sc = -50.0
        elif s == SPADES:
            sc = r - 30.0
        elif omnibus and c == TD:
            sc = -100.0             # keep the 10♦: it is worth -10 to whoever takes it
        else:
            sc = 20.0 + r - 4.0 * _suit_len(a, b, s)
        if sc > bs:
            best, bs = c, sc
    return best, u


@njit(cache=True, nogil=True, inline="always")
def _higher(m, rank):
    """The cards of mask ``m`` ranked above ``rank``."""
    out = np.uint64(0)
    x = np.uint64(m)
    while x:
        c = lowest_code(x)
        x &= x - np.uint64(1)
        if (c & 15) > rank:
            out |= np.uint64(1) << np.uint64(c)
    return out


@njit(cache=True, nogil=True, inline="always")
def _sure(c, hand, v):
    """Whether card ``c`` beats every card of its suit still out (not played, not in ``hand``);
    one deck only (with two decks a played card's twin may still be out)."""
    if v.two_decks:
        return False
    out = (_RANKS << np.uint64(16 * (c >> 4))) & ~v.gone & ~hand
    return _higher(out, c & 15) == 0


@njit(cache=True, nogil=True, inline="always")
def _lowest_winner(m, wcard):
    """The lowest card of ``m`` that beats ``wcard`` in its suit (``-1``: none)."""
    return _bottom(_higher(m, wcard & 15)) if wcard >= 0 else _bottom(m)


@njit(cache=True, nogil=True)
def choose_play(kind, legal, a, b, v, u):
    """The card to play from ``legal`` (the hand is ``(a, b)``, the trick as seen ``v``):
    ``(code, u)``."""
    if kind == K_RANDOM:
        return random_card(legal, u)
    if popcount(legal) == 1:
        return lowest_code(legal), u
    if v.viable:
        if v.n == 0 or (legal & suit_mask(v.led)) != 0:
            return _top(legal), u          # try to win every trick
        safe = legal & ~_HEARTS_LANE & ~_QS_BIT
        return _bottom(safe if safe else legal), u
    if v.n == 0:
        return _lead(legal, a, b, v), u
    if (legal & suit_mask(v.led)) != 0:
        return _follow(legal, a, b, v), u
    return _discard(legal, a, b, v), u


@njit(cache=True, nogil=True, inline="always")
def _lead(legal, a, b, v):
    """The heuristic's lead: while someone may be shooting the moon, a heart sure to win (a point
    taken stops him); in Omnibus the 10♦ when sure to win; else a low spade to smoke out the
    queen when it holds no high spade, else the lowest card of its shortest safe suit."""
    hand = a | b
    td = bit(TD)
    if v.stop or v.insure:
        hts = legal & _HEARTS_LANE
        if hts and _sure(_top(hts), hand, v):
            return _top(hts)
    if v.omnibus and (legal & td) != 0 and _sure(TD, hand, v):
        return TD
    sp = legal & suit_mask(SPADES)
    high_sp = hand & (np.uint64(0x7 << 12) << np.uint64(48))  # Q, K, A of spades
    if sp != 0 and not v.qs_out and high_sp == 0:
        return _bottom(sp)
    best, bl = -1, 99
    for s in range(4):
        m = legal & suit_mask(s)
        if v.omnibus:
            m &= ~td                # the 10♦ led low is the 10♦ given away
        if m == 0 or s == HEARTS:
            continue
        if s == SPADES and high_sp != 0 and not v.qs_out:
            continue
        ln = _suit_len(a, b, s)
        if ln < bl:
            best, bl = _bottom(m), ln
    if best >= 0:
        return best
    return _bottom(legal)


@njit(cache=True, nogil=True, inline="always")
def _follow(legal, a, b, v):
    """The heuristic following suit: pair a played Q♠ (Cancellation); beat a possible shooter;
    take the Omnibus 10♦ when that is safe; else duck under the winner (dropping the Q♠ under a
    higher spade, and never handing over the 10♦), and when it must win, win with its top card
    as last player and play low otherwise."""
    hand = a | b
    td = bit(TD)
    wr = v.wcard & 15 if v.wcard >= 0 else 0
    if v.pair_qs:
        return QS
    moon_cards = (v.tmask & (_HEARTS_LANE | _QS_BIT)) != 0
    if v.near or ((v.stop or (v.insure and moon_cards)) and v.points <= STOP_PRICE):
        win = _higher(legal, wr) if v.wcard >= 0 else legal
        if win:
            return _bottom(win) if v.last else _top(win)
    if v.omnibus and ((v.tmask & td) != 0 or (legal & td) != 0):
        # the 10♦ is in the trick, or ours: take the trick when it is worth taking for sure
        win = _higher(legal, wr) if v.wcard >= 0 else legal
        if win and (v.tmask & _QS_BIT) == 0:
            c = _bottom(win)
            if (v.tmask & td) == 0:
                c = TD if (win & td) != 0 else -1   # ours: only the 10♦ itself takes it
            if c >= 0 and v.points + POINTS[1, c] < 0 and (v.last or _sure(c, hand, v)):
                return c
    if v.first:
        return _top(legal & ~_QS_BIT if legal & ~_QS_BIT else legal)
    if v.led == SPADES and (legal & _QS_BIT) != 0 and wr > 12:
        return QS
    below = legal & ~_higher(legal, wr - 1)
    if v.omnibus and (below & ~td) != 0:
        below &= ~td
    if below:
        return _top(below)
    nq = legal & ~_QS_BIT
    if nq == 0:
        nq = legal
    if v.last:
        return _top(nq)
    return _bottom(nq)


@njit(cache=True, nogil=True, inline="always")
def _discard(legal, a, b, v):
    """The heuristic void in the led suit: pair a played Q♠ (Cancellation); feed a possible
    shooter no point card; else dump the Q♠, then A♠/K♠ while the queen is out, then its highest
    heart, then the top of its shortest suit; the Omnibus 10♦ last of all."""
    if v.pair_qs:
        return QS
    keep = legal & ~bit(TD) if v.omnibus else legal
    if keep == 0:
        keep = legal
    hts = keep & _HEARTS_LANE
    if v.stop:
        safe = keep & ~_HEARTS_LANE & ~_QS_BIT
        if safe:
            return _top(safe)
        if hts:
            return _bottom(hts)     # the high hearts are the stoppers
    if keep & _QS_BIT:
        return QS
    if v.insure:                # keep the hearts, to take one: a lone opponent fed them moons
        if (keep & ~_HEARTS_LANE) != 0:
            keep &= ~_HEARTS_LANE
        elif hts:
            return _bottom(hts)
    high_sp = keep & (np.uint64(0x6 << 12) << np.uint64(48))  # K, A of spades
    if high_sp != 0 and not v.qs_out:
        return _top(high_sp)
    hts = keep & _HEARTS_LANE
    if hts:
        return _top(hts)
    best, bl = -1, 99
    for s in range(4):
        m = keep & suit_mask(s)
        if m == 0:
            continue
        ln = _suit_len(a, b, s)
        if ln < bl:
            best, bl = _top(m), ln
    return best


# --------------------------------------------------------------------------- one hand (njit)
#
# Cost model (measured with NUMBA_DEBUG_NRT): every array handed to a helper that has branches
# costs an atomic incref/decref pair per call, and a record handed over costs one per array in
# it.  So the phases below take the few arrays they use as plain arguments (the rules record
# holds scalars only and is free to pass), and the per-card helpers take scalars where they can.

@njit(cache=True, nogil=True, inline="always")
def put(log, li, lp, kind, seat, aux, c):
    """Log an event at position ``lp`` of row ``li`` (``-1``: a hand not logged) with the
    kernel's card ``c`` in the pack's code (the joker 64): the next position."""
    if li < 0:
        return lp
    return put_next(log, li, lp, kind, seat, aux, PACK_JOKER if c == JOKER else c)


@njit(cache=True, nogil=True, inline="always")
def deal_cards(deck, perm, stacked, hs, K, H, s, log, li):
    """Empty the hands ``hs`` and deal ``K * H`` cards, card ``j`` to seat ``j % K`` (a shuffled
    prefix of the pack, or a stacked deck in order).  Returns the card stream ``s`` (the
    ``DEAL`` events are the row's first ``K * H``)."""
    for p in range(K):
        hnd.clear(hs[p])
    for j in range(deck.shape[0]):
        perm[j] = j
    if not stacked:
        s = shuffle_prefix(perm, K * H, s)
    seat = 0
    for j in range(K * H):
        c = np.int64(deck[perm[j]])
        hnd.add(hs[seat], c)
        put(log, li, j, E_DEAL, seat, 0, c)
        seat = seat + 1 if seat + 1 < K else 0
    return s


@njit(cache=True, nogil=True, inline="always")
def points_in_play(R, hs):
    """``(positive points, moon cards)`` dealt: the moon needs them all, and gives the others
    the points."""
    om = np.int64(R.omnibus)
    pos_total = 0
    need_total = 0
    for p in range(R.players):
        for j in range(2):
            x = hs[p, j] & R.scoring
            while x:
                c = lowest_code(x)
                x &= x - np.uint64(1)
                if POINTS[om, c] > 0:
                    pos_total += POINTS[om, c]
                need_total += NEED[om, c]
    return pos_total, need_total


@njit(cache=True, nogil=True, inline="always")
def pass_cards(R, kind, threshold, hs, passbuf, off, u, log, li, lp):
    """Each seat passes ``pass_cards`` cards ``off`` seats on (none when ``off`` is 0).  Returns
    the strategy stream ``u`` and the log's position ``lp``."""
    K = R.players
    npass = R.pass_cards
    if off != 0 and npass > 0:
        for p in range(K):
            for q in range(npass):
                c, u = choose_pass(kind[p], threshold[p], hs[p, 0], hs[p, 1], R.omnibus, K == 2,
                                   u)
                hnd.remove(hs[p], c)
                passbuf[p, q] = c
                lp = put(log, li, lp, E_PASS, p, 0, c)
        for p in range(K):
            for q in range(npass):
                hnd.add(hs[seat_of(p, off, K)], passbuf[p, q])
    return u, lp


@njit(cache=True, nogil=True, inline="always")
def first_lead(hs, K):
    """``(card, seat)``: the lowest club dealt leads (the 2♣, or the joker); ``-1`` if none."""
    lead_card = -1
    leader = 0
    for p in range(K):
        cl = hnd.distinct(hs[p]) & _CLUBS_LANE
        if cl:
            c = lowest_code(cl)
            if lead_card < 0 or c < lead_card:
                lead_card, leader = c, p
    return lead_card, leader


@njit(cache=True, nogil=True, inline="always")
def legal_cards(hand, led, t, i, lead_card, broken, no_points_first_trick):
    """The cards of ``hand`` that may be played as the ``i``-th card of trick ``t``: the lowest
    club leads the first trick, players follow suit, no points on the first trick and no heart
    led before hearts are broken (each unless the hand holds nothing else)."""
    if t == 0 and i == 0 and lead_card >= 0:
        return bit(lead_card)
    legal = follow_suit(hand, led) if i > 0 else np.uint64(hand)
    if t == 0 and no_points_first_trick:
        clean = legal & ~_HEARTS_LANE & ~_QS_BIT
        if clean:
            legal = clean
    if i == 0 and not broken:
        nh = legal & ~_HEARTS_LANE
        if nh:
            legal = nh
    return legal


@njit(cache=True, nogil=True, inline="always")
def shooter_threat(p, ws, collector, collected, pend_need, trick_need, alarm):
    """Whether seat ``ws`` (``-1``: nobody, as when leading: then the sole collector) may be
    shooting the moon as seen by seat ``p``: he alone has taken moon cards (:data:`NOBODY`: none
    has yet), and with those held over and those in the trick he would hold ``alarm`` of them.
    ``collected``: the collector's moon cards (0 for NOBODY)."""
    if ws < 0:
        return collector >= 0 and collector != p and collected + pend_need >= alarm
    if ws == p or not (collector == NOBODY or collector == ws):
        return False
    return collected + pend_need + trick_need >= alarm


# 11 parameters: the phase is given the arrays it reads, not the records (the cost model above),
# and the move log's row and position
@njit(cache=True, nogil=True, inline="always")
def play_tricks(R, kind, shooting, hs, trick, raw, needc, u, log, li, lp):
    """Play the hand's tricks: each seat's points and moon cards taken go to ``raw`` and
    ``needc``.  Returns the strategy stream ``u`` and the log's position ``lp``."""
    K = R.players
    om = np.int64(R.omnibus)  # the row of POINTS and NEED
    hold_two_pairs = R.holdover == HOLD_TWO_PAIRS
    alarm = MOON_ALARM_TWO if K == 2 else MOON_ALARM
    for p in range(K):
        raw[p] = 0
        needc[p] = 0
    lead_card, leader = first_lead(hs, K)
    broken = not R.hearts_broken
    qs_out = False
    gone = np.uint64(0)     # cards played so far
    pend_pts = 0
    pend_need = 0
    collector = NOBODY  # the only seat that has taken moon cards (or NOBODY, SEVERAL)
    for t in range(R.hand_size):
        tp = 0      # the trick's points and moon cards
        tn = 0
        tmask = np.uint64(0)
        nqs = 0
        for i in range(K):
            p = seat_of(leader, i, K)
            legal = legal_cards(hs[p, 0], trick[0] >> 4, t, i, lead_card, broken,
                                R.no_points_first_trick)
            if kind[p] == K_RANDOM:
                c, u = random_card(legal, u)
            else:
                # read the trick: the card winning it so far (pairs cancelled), and its seat
                w = -1
                if i > 0:
                    w = cancel_winner(trick, i, -1, STRENGTH)[0] if R.two_decks else \
                        trick_winner(trick, i, -1, STRENGTH)
                ws = seat_of(leader, w, K) if w >= 0 else -1
                threat = ws if i > 0 else -1
                held = needc[collector] if collector >= 0 else 0
                stop = (i == 0 or w >= 0) and shooter_threat(p, threat, collector, held,
                                                             pend_need, tn, alarm)
                near = stop and held + pend_need + tn >= MOON_NEAR
                insure = K == 2 and needc[p] == 0 and collector != p
                pair_qs = False
                if R.two_decks and nqs == 1 and (legal & _QS_BIT) != 0:
                    trick[i] = QS       # would the trick still have a winner, and not us?
                    w2, pairs = cancel_winner(trick, i + 1, -1, STRENGTH)
                    pair_qs = w2 >= 0 and not (hold_two_pairs and pairs >= 2)
                viable = shooting[p] and (collector == NOBODY or collector == p)
                v = Seen(i, trick[0] >> 4, trick[w] if w >= 0 else -1, i == K - 1, t == 0,
                         tp + pend_pts, tmask, gone, qs_out, viable, stop, near, insure,
                         pair_qs, R.omnibus, R.two_decks)
                c, u = choose_play(kind[p], legal, hs[p, 0], hs[p, 1], v, u)
            hnd.remove(hs[p], c)
            trick[i] = c
            tp += POINTS[om, c]
            tn += NEED[om, c]
            b = np.uint64(1) << np.uint64(c)
            tmask |= b
            gone |= b
            lp = put(log, li, lp, E_PLAY, p, 0, c)
            if (c >> 4) == HEARTS:
                broken = True
            if c == QS:
                qs_out = True
                nqs += 1
                if R.qs_breaks_hearts:
                    broken = True
        # the card that takes the trick; -1: held over (Cancellation: no card of the led suit
        # survives its pairs, or two pairs with holdover=two_pairs), its points and moon cards
        # going to the next trick's taker
        if R.two_decks:
            w, pairs = cancel_winner(trick, K, -1, STRENGTH)
            if hold_two_pairs and pairs >= 2:
                w = -1
        else:
            w = trick_winner(trick, K, -1, STRENGTH)
        if w < 0:
            pend_pts += tp
            pend_need += tn
        else:
            leader = seat_of(leader, w, K)
            raw[leader] += tp + pend_pts
            needc[leader] += tn + pend_need
            if tn + pend_need > 0 and collector != leader:
                collector = leader if collector == NOBODY else SEVERAL
            pend_pts = 0
            pend_need = 0
        lp = put(log, li, lp, E_TRICK, leader if w >= 0 else 0, 0 if w >= 0 else 1, 0)
    return u, lp


@njit(cache=True, nogil=True, inline="always")
def score_hand(R, raw, needc, totals, hand_pts, pos_total, need_total):
    """The hand's scores into ``hand_pts``, the moon applied (222, 228); returns the shooter
    (``-1``: none).  ``totals``: the game's scores before the hand (for ``moon=best``)."""
    K = R.players
    shooter = -1
    if R.moon != MOON_OFF and need_total > 0:
        for p in range(K):
            if needc[p] == need_total:
                shooter = p
    for p in range(K):
        hand_pts[p] = raw[p]
    if shooter >= 0:
        sub = R.moon == MOON_SUBTRACT
        if R.moon == MOON_BEST and R.game:
            sub = _prefer_subtract(totals, raw, shooter, pos_total, K, R.target)
        for p in range(K):
            if p == shooter:
                hand_pts[p] = raw[p] - (2 * pos_total if sub else pos_total)
            elif not sub:
                hand_pts[p] = raw[p] + pos_total
    return shooter


@njit(cache=True, nogil=True)
def _option_value(totals, add, shooter, K, target):
    """How good a moon choice leaves the shooter: game over and won / lost, else his lead."""
    best_other = 1 << 40
    top = -(1 << 40)
    mine = totals[shooter] + add[shooter]
    for p in range(K):
        v = totals[p] + add[p]
        top = max(top, v)
        if p != shooter:
            best_other = min(best_other, v)
    if top >= target:
        if mine < best_other:
            return 1e12
        if mine == best_other:
            return 1e11
        return -1e12
    return float(best_other - mine)


@njit(cache=True, nogil=True)
def _prefer_subtract(totals, raw, shooter, pos_total, K, target):
    a = np.zeros(K, np.int64)
    sb = np.zeros(K, np.int64)
    for p in range(K):
        a[p] = raw[p] + pos_total
        sb[p] = raw[p]
    a[shooter] = raw[shooter] - pos_total
    sb[shooter] = raw[shooter] - 2 * pos_total
    return _option_value(totals, sb, shooter, K, target) > _option_value(totals, a, shooter, K,
                                                                         target)


@njit(cache=True, nogil=True, inline="always")
def play_hand(R, S, W, s, u, pdir, log, li):
    """Deal, pass, play and score one hand; its scores go to ``W.hand_pts``.  Returns
    ``(s, u, shooter or -1)``.  ``li`` is the log row to write (``-1``: none); ``pdir`` is the
    pass direction (:data:`DRAW_DIRECTION`: draw it from the card stream)."""
    K = R.players
    hs = W.hands
    s = deal_cards(W.deck, W.perm, W.stacked, hs, K, R.hand_size, s, log, li)
    if pdir == DRAW_DIRECTION:
        pdir, s = bounded(s, 4)
    off = pass_offset(pdir, K)
    pos_total, need_total = points_in_play(R, hs)
    lp = put(log, li, K * R.hand_size, E_PASSING, 0, off, 0)
    u, lp = pass_cards(R, S.kind, S.threshold, hs, W.passbuf, off, u, log, li, lp)
    for p in range(K):        # who tries the moon, from the hand after the pass
        W.shooting[p] = S.kind[p] == K_MOON and _hcp(hs[p, 0], hs[p, 1]) >= S.threshold[p]
    u, lp = play_tricks(R, S.kind, W.shooting, hs, W.trick, W.raw, W.needc, u, log, li, lp)
    if li >= 0:
        for j in range(lp, log.shape[1]):   # the row's unused room (no pass this hand)
            log[li, j] = -1
    return s, u, score_hand(R, W.raw, W.needc, W.totals, W.hand_pts, pos_total, need_total)


@njit(cache=True, nogil=True, inline="always")
def hand_direction(R, forced, idx):
    """The pass direction of hand ``idx`` (its number in the game, or the deal's index in its
    chunk with ``unit=hand``): ``forced`` (unless NO_DIRECTION), by the cycle, drawn, or the
    fixed one."""
    if forced != NO_DIRECTION:
        return forced
    if R.passing == PASS_CYCLE:
        return CYCLE[idx % 4]
    if R.passing == PASS_RANDOM:
        return DRAW_DIRECTION
    return R.direction


@njit(cache=True, nogil=True, inline="always")
def hand_metrics(K, hand_pts, shooter, v):
    zeros = 0
    for p in range(K):
        v[seat_slot(PH.points, NPH, p)] = hand_pts[p]
        z = hand_pts[p] == 0
        v[seat_slot(PH.zero, NPH, p)] = z
        zeros += z
        v[seat_slot(PH.moon, NPH, p)] = shooter == p
    v[NPH * K + TH.moon_rate] = shooter >= 0
    v[NPH * K + TH.zero_point_rate] = zeros / K


@njit(cache=True, nogil=True, inline="always")
def game_metrics(K, totals, hands, moons, v):
    low = totals[0]
    for p in range(K):
        low = min(low, totals[p])
    nlow = 0
    for p in range(K):
        nlow += totals[p] == low
    for p in range(K):
        v[seat_slot(PG.win, NPG, p)] = (1.0 / nlow) if totals[p] == low else 0.0
        v[seat_slot(PG.score, NPG, p)] = totals[p]
    v[NPG * K + TG.hands_per_game] = hands
    v[NPG * K + TG.moons_per_game] = moons


@njit(cache=True, nogil=True, inline="always")
def play_deal(R, S, W, i, key, ukey, v, log):
    """Deal ``i``: one hand, or with ``unit=game`` hands until a total reaches the target (the
    game's scores in ``W.totals``).  Writes its metrics into ``v``; returns the cards dealt."""
    K = R.players
    s = key
    u = ukey
    totals = W.totals
    for p in range(K):
        totals[p] = 0
    hands = 0
    moons = 0
    li = i if log.shape[0] > 0 else -1
    shooter = -1
    while True:
        pdir = hand_direction(R, W.direction, hands if R.game else i)
        s, u, shooter = play_hand(R, S, W, s, u, pdir, log, li)
        li = -1
        hands += 1
        moons += shooter >= 0
        if not R.game:
            break
        top = 0
        for p in range(K):
            totals[p] += W.hand_pts[p]
            top = max(top, totals[p])
        if top >= R.target or hands >= MAX_HANDS:
            break
    if R.game:
        game_metrics(K, totals, hands, moons, v)
    else:
        hand_metrics(K, W.hand_pts, shooter, v)
    return K * R.hand_size * hands


@njit(cache=True, nogil=True)
def run_deals(R, S, W, state, n, acc, rows, log):
    """``n`` deals (hands or games) on the core deal loop (see :mod:`simkit.core.deals`)."""
    return deal_loop(play_deal, STRAT_SALT, R, S, W, state, n, acc, rows, log)
