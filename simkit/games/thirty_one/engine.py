"""Thirty-one / Schwimmen kernels: deal, play turns, score, replay all-equal deals, and play whole
games to the last survivor.  Rules and their readings: :mod:`simkit.games.thirty_one.rules`.

Cards are :mod:`simkit.core.cards` codes ``suit*16 + rank``; a hand is three codes in
``W.hand[seat]`` (a fourth slot holds the draw variant's drawn card).  A deal's cards come from a
lazy Fisher-Yates shuffle of the pack driven by the deal's splitmix64 sequence (one bounded draw
per card actually dealt or drawn); strategies' coin flips use the second sequence ``ukey``.  A
stacked deck is dealt in its order (the cards it does not list follow in pack order), every hand
of the unit alike.

Dealing order (both variants): the dealer's (p1's in a single deal) first three; in the table
variant with ``table_source=second_hand`` the next three (his second hand: the table if he keeps,
his hand if he refuses); then three to each other player in turn order (p2, p3, ...); then the
table (``after_deal``, when he keeps) or, in the draw variant, the turned card; then the stock.

The move log (unit=deal only) is one ``int64`` row of the house's events
(:mod:`simkit.engines.moves`: ``kind << 20 | seat << 16 | aux << 8 | card``, kinds
:data:`KINDS`), padded with -1.  Per hand: ``DEAL`` (seat the dealer, aux the replay number), the
cards in the order drawn (``CARD``: seat the dealer, the card), in the table variant the dealer's
``CHOICE`` (aux 1: refused), then one event per turn, seat the player (``KNOCK``, ``PASS``,
``SWAP1``: card the hand card laid, aux the table card taken; ``SWAP3``; draw variant: ``DRAW``,
the card, aux its source: 0 stock, 1 the turned card; ``DISCARD``, the card; a ``RESHUFFLE``, aux
the cards turned into the new stock, before a stock draw that needed one), and ``END`` (aux the
reason, :data:`REASONS`), after the hand's last ``END`` a ``LOST`` (aux the mask of the seats that
lost a life: two events, since the reason and the mask do not share aux).
``tests/thirty_one_reference.py`` replays it.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simkit.core.deals import SALT, deal_loop
from simkit.core.jit import NO_REFCOUNT  # rule 3 of simkit.core.jit
from simkit.core.records import record, seat_slot, slots
from simkit.core.registry import Metric
from simkit.core.rng import bounded, deal_step, uniform
from simkit.engines.moves import put_next

K_RANDOM, K_BASELINE = 0, 1
KINDS = ["DEAL", "CARD", "CHOICE", "KNOCK", "PASS", "SWAP1", "SWAP3", "DRAW", "DISCARD",
         "RESHUFFLE", "END", "LOST"]
(E_DEAL, E_CARD, E_CHOICE, E_KNOCK, E_PASS, E_SWAP1, E_SWAP3, E_DRAW, E_DISCARD, E_RESHUFFLE,
 E_END, E_LOST) = range(1, len(KINDS) + 1)
REASONS = ["knock", "31", "capped", "stock_out", "replay", "unresolved"]
R_KNOCK, R_31, R_CAP, R_STOCK, R_REPLAY, R_UNRESOLVED = range(6)
MAXP = 8

DEAL_NAMES = ["turns", "knocked", "ended_31", "dealt_31", "refused", "replays", "capped",
              "unresolved", "first3", "losers", "first_gain"]
SEAT_NAMES = ["lose", "value", "knock", "31"]
D = slots(DEAL_NAMES)
NDS, NSS = len(DEAL_NAMES), len(SEAT_NAMES)
GAME_NAMES = ["deals", "replays", "unfinished"]
GAME_RATIOS = ["turns", "knocked", "ended_31"]
GAME_SEAT = ["win", "lives"]
NG = len(GAME_NAMES) + len(GAME_RATIOS)
# the metric vector, unit=deal: DEAL_NAMES, then each seat's SEAT_NAMES seat by seat (p1's slots
# DS; "31" is not a name a record can have); unit=game: GAME_NAMES and GAME_RATIOS (G), each
# seat's GAME_SEAT and lose seat by seat (p1's GS), then the hidden sums and the chips (play_unit)
DS = slots(SEAT_NAMES[:-1] + ["held31"], first=NDS)
G = slots(GAME_NAMES + GAME_RATIOS)
GS = slots(GAME_SEAT + ["lose"], first=NG)
RT = slots(GAME_RATIOS)     # a ratio's place among the ratios (its _sum_x and _cross_x)
NGS, NR = len(GS), len(GAME_RATIOS)

DOCS = {"turns": "turns played in the deal (replays included)",
        "knocked": "the deal ended after a knock and the last round",
        "ended_31": "the deal ended on a 31",
        "dealt_31": "a 31 among the hands dealt (the table and p1's first three included), "
                    "first deal of the unit",
        "refused": "the dealer laid his first three as the table (table variant)",
        "replays": "all-equal deals replayed",
        "capped": "the deal reached max_turns and was scored as it stood",
        "unresolved": "max_replays all-equal deals in a row: nobody lost a life",
        "first3": "value of the dealer's first three cards (a uniform dealt hand), first deal",
        "losers": "players who lost a life in the deal",
        "first_gain": "points the first to play gains on his first turn (0: he knocked, or a 31 "
                      "ended the deal at once), first deal",
        "lose": "lost a life in the deal", "value": "hand value when the deal ended",
        "knock": "knocked in the deal", "31": "held 31 when the deal ended",
        "deals": "deals played in the game (replays not counted)",
        "unfinished": "the game reached max_deals with more than one player left",
        "win": "the last player left: wins the pot", "lives": "lives left when the game ended",
        "chips": "net chips of the whole game (lines 19, 53, 55): a chip into the pot for each "
                 "life lost but the last (lives - 1 coins and one more chance), the pot if he "
                 "is the last one left; the seats' sum is 0 unless the game is unfinished",
        "pot": "chips in the pot when the game ended (taken by the winner; lives - 1 for each "
               "player out, the winner's own coins paid included)"}


def metrics(rules) -> list[Metric]:
    K = rules.players
    share, count = "share of deals (0..1)", "count per deal"
    if rules.unit == "deal":
        binary = {"knocked", "ended_31", "dealt_31", "refused", "capped", "unresolved",
                  "lose", "knock", "31"}
        units = {"first3": "points (0..31)", "value": "points (0..31)", "turns": "turns per deal",
                 "first_gain": "points per deal"}
        out = [Metric(n, n in binary, DOCS[n], unit=share if n in binary else units.get(n, count))
               for n in DEAL_NAMES]
        for k in range(K):
            out += [Metric(f"p{k + 1}_{n}", n in binary, f"p{k + 1}: " + DOCS[n],
                           unit=share if n in binary else units.get(n, count))
                    for n in SEAT_NAMES]
        return out
    out = [Metric("deals", False, DOCS["deals"], unit="deals per game"),
           Metric("replays", False, DOCS["replays"] + " in the game", unit="count per game"),
           Metric("unfinished", True, DOCS["unfinished"], unit="share of games (0..1)")]
    for n in GAME_RATIOS:
        out.append(Metric(n, False, DOCS[n] + " (per deal)", ratio=(f"_sum_{n}", "_deals",
                                                                   f"_cross_{n}"),
                          unit="turns per deal" if n == "turns" else "share of deals (0..1)"))
    for k in range(K):
        out += [Metric(f"p{k + 1}_win", True, f"p{k + 1}: " + DOCS["win"],
                       unit="share of games (0..1)"),
                Metric(f"p{k + 1}_lives", False, f"p{k + 1}: " + DOCS["lives"],
                       unit="lives per game"),
                Metric(f"p{k + 1}_lose", False, f"p{k + 1}: lost a life (per deal of the game)",
                       ratio=(f"_sum_p{k + 1}_lose", "_deals", f"_cross_p{k + 1}_lose"),
                       unit="share of deals (0..1)")]
    hidden = ["_deals"] + [f"_sum_{n}" for n in GAME_RATIOS] + \
        [f"_sum_p{k + 1}_lose" for k in range(K)] + [f"_cross_{n}" for n in GAME_RATIOS] + \
        [f"_cross_p{k + 1}_lose" for k in range(K)]
    out += [Metric(h, False) for h in hidden]
    out += [Metric(f"p{k + 1}_chips", False, f"p{k + 1}: " + DOCS["chips"],
                   unit="chips per game") for k in range(K)]
    return out + [Metric("pot", False, DOCS["pot"], unit="chips per game")]


def hand_entries(rules) -> int:
    return 2 + 3 * MAXP + 3 + 3 * rules.max_turns + 2


def log_width(rules) -> int:
    return (rules.max_replays + 1) * hand_entries(rules)


def log_columns(rules):
    """A deal's move-log columns (whole games, ``unit=game``, keep no move log)."""
    if rules.unit != "deal":
        return None
    return [f"e{j}" for j in range(log_width(rules))]


# --------------------------------------------------------------------------- records

class GameRules(NamedTuple):
    players: int
    draw: bool                 # the 52-card draw-and-discard variant
    trips: bool                # three of a kind is 30
    second_hand: bool          # table_source=second_hand
    swap_knocks: bool          # swap_all=knock
    last_round: bool           # draw variant: a last round after a knock
    reshuffle: bool            # draw variant: an empty stock is refilled from the discards
    max_turns: int
    max_replays: int
    lives: int
    game: bool                 # unit=game
    max_deals: int
    point: np.ndarray          # int64[80]: a card's points


class Seats(NamedTuple):
    kind: np.ndarray           # int64[K]
    knock: np.ndarray          # float64[K]: knock at or above this (from one's second turn)
    knock_first: np.ndarray    # float64[K]: ... on one's first turn
    per_round: np.ndarray      # float64[K]: added to the threshold per round played
    per_seat: np.ndarray       # float64[K]: added per place after the first to play
    per_life: np.ndarray       # float64[K]: added per life already lost
    swap_all: np.ndarray       # float64[K]: swap all three when the table beats the best single
    refuse: np.ndarray         # float64[K]: the dealer refuses a first three worth less
    knock_more: np.ndarray     # float64[K]: added to knock per player beyond four (fewer: less)
    first_more: np.ndarray     # float64[K]: added to knock_first per player beyond four
    swap_more: np.ndarray      # float64[K]: added to swap_all per player beyond four
    feed: np.ndarray           # float64[K]: avoid leaving a table worth at least this (line 67)
    feed_more: np.ndarray      # float64[K]: added to feed per player beyond four


class Work(NamedTuple):
    deck: np.ndarray           # int64[n]: the pack, or the stacked order
    stacked: bool
    perm: np.ndarray           # int64[n]: the lazy shuffle
    hand: np.ndarray           # int64[8, 4]
    table: np.ndarray          # int64[3]
    pile: np.ndarray           # int64[n]: the discard pile, its top last
    lives: np.ndarray          # int64[8]
    alive: np.ndarray          # int64[8]
    order: np.ndarray          # int64[8]: seats in turn order, the dealer last
    swapped: np.ndarray        # int64[8]
    val: np.ndarray            # int64[8]
    lost: np.ndarray           # int64[8]
    knock: np.ndarray          # int64[8]
    first: np.ndarray          # int64[3]


def points() -> np.ndarray:
    p = np.zeros(80, np.int64)
    for s in range(4):
        for r in range(2, 15):
            p[s * 16 + r] = 11 if r == 14 else (10 if r >= 10 else r)
    return p


def game_rules(rules) -> GameRules:
    return record(GameRules, players=rules.players, draw=rules.variant == "draw",
                  trips=rules.trips, second_hand=rules.table_source == "second_hand",
                  swap_knocks=rules.swap_all == "knock", last_round=rules.last_round,
                  reshuffle=rules.stock_out == "reshuffle", max_turns=rules.max_turns,
                  max_replays=rules.max_replays, lives=rules.lives, game=rules.unit == "game",
                  max_deals=rules.max_deals, point=points())


def work(deck, stacked=False) -> Work:
    n = len(deck)
    z = lambda: np.zeros(MAXP, np.int64)  # noqa: E731
    return record(Work, deck=np.asarray(deck, np.int64), stacked=bool(stacked),
                  perm=np.zeros(n, np.int64), hand=np.zeros((MAXP, 4), np.int64),
                  table=np.zeros(3, np.int64), pile=np.zeros(n, np.int64), lives=z(), alive=z(),
                  order=z(), swapped=z(), val=z(), lost=z(), knock=z(),
                  first=np.zeros(3, np.int64))


# --------------------------------------------------------------------------- hand values

@njit(cache=True, nogil=True)
def score3(P, trips, a, b, c):
    """``value * 64 + second``: the hand's value (the best one-suit sum, or 30 for three of a
    kind) and, as the baseline's tie-break ("keep a suit"), the second-best suit's sum."""
    va, vb, vc = P[a], P[b], P[c]
    sa, sb, sc = a >> 4, b >> 4, c >> 4
    if sa == sb and sb == sc:
        best, second = va + vb + vc, 0
    elif sa == sb:
        best, second = max(va + vb, vc), min(va + vb, vc)
    elif sa == sc:
        best, second = max(va + vc, vb), min(va + vc, vb)
    elif sb == sc:
        best, second = max(vb + vc, va), min(vb + vc, va)
    else:
        best = max(va, max(vb, vc))
        second = va + vb + vc - best - min(va, min(vb, vc))
    if trips and (a & 15) == (b & 15) and (b & 15) == (c & 15):
        best, second = 30, 0
    return best * 64 + second


@njit(cache=True, nogil=True, inline="always")
def value3(P, trips, a, b, c):
    return score3(P, trips, a, b, c) >> 6


@njit(cache=True, nogil=True, inline="always")
def draw_card(W, pos, s):
    """The next card of the lazy shuffle: ``(card, pos + 1, s)``."""
    c, s = deal_step(W.perm, pos, W.perm.shape[0], s, W.stacked)
    return c, pos + 1, s


# --------------------------------------------------------------------------- strategies

@njit(cache=True, nogil=True, inline="always")
def threshold(S, k, rnd, place, lost, na):
    """The baseline's knock threshold for seat ``k`` in round ``rnd`` (0: its first turn) at
    ``place`` in the turn order, having lost ``lost`` lives, ``na`` players at the table."""
    if rnd == 0:
        if S.knock_first[k] >= 32.0:  # 32: never, at any table
            return 99.0
        base = S.knock_first[k] + S.first_more[k] * (na - 4)
    else:
        if S.knock[k] >= 32.0:
            return 99.0
        base = S.knock[k] + S.knock_more[k] * (na - 4) + S.per_round[k] * (rnd - 1)
    return base + S.per_seat[k] * place + S.per_life[k] * lost


# 11 parameters: only the arrays and scalars it reads (a record would count its arrays' references)
@njit(cache=True, nogil=True)
def choose_table(P, trips, rand, margin, feed, H, k, t, knocked, thr, u):
    """A table-variant turn of seat ``k`` (not barred from exchanging; hands ``H``, table
    ``t``): ``(action, i, j, u)``, action 0 knock or pass, 1 exchange hand card ``i`` with table
    card ``j``, 2 exchange all.  ``feed`` (line 67, "do not let a player take too strong a
    hand"): an exchange that leaves the table worth at least this is passed over while another
    is open (the next player could take the table whole).  (Only the arrays it reads are
    passed: every array argument of a call costs a reference count in and out.)"""
    if rand:
        r, u = bounded(u, 11)
        if r == 0:
            return 0, 0, 0, u
        if r == 10:
            return 2, 0, 0, u
        return 1, (r - 1) // 3, (r - 1) % 3, u
    h0, h1, h2 = H[k, 0], H[k, 1], H[k, 2]
    v = value3(P, trips, h0, h1, h2)
    best, bi, bj = -1, 0, 0
    safe, si, sj = -1, 0, 0
    for i in range(3):
        hi = h0 if i == 0 else (h1 if i == 1 else h2)
        for j in range(3):
            x = score3(P, trips, t[j] if i == 0 else h0, t[j] if i == 1 else h1,
                       t[j] if i == 2 else h2)
            if x > best:
                best, bi, bj = x, i, j
            if x > safe and value3(P, trips, hi if j == 0 else t[0], hi if j == 1 else t[1],
                                   hi if j == 2 else t[2]) < feed:
                safe, si, sj = x, i, j
    b1 = best >> 6
    vt = value3(P, trips, t[0], t[1], t[2])
    if b1 == 31:                      # a 31 one move away ends the deal won (line 39): take it
        return 1, bi, bj, u           # before any knock or margin
    if vt == 31:
        return 2, 0, 0, u
    if not knocked and v >= thr:
        return 0, 0, 0, u
    if knocked:                       # the last round: the best of keep, one, all
        if v >= b1 and v >= vt:
            return 0, 0, 0, u
        if vt > b1:
            return 2, 0, 0, u
        return 1, bi, bj, u
    if vt >= b1 + margin and (v < feed or safe < 0):
        return 2, 0, 0, u
    if safe >= 0:
        return 1, si, sj, u
    return 1, bi, bj, u


@njit(cache=True, nogil=True)
def best_discard(P, trips, h):
    """The slot (0..3) of a four-card hand to discard for the best three left (the drawn card,
    slot 3, first on ties)."""
    best, bd = -1, 3
    for d in range(3, -1, -1):
        a = h[1] if d == 0 else h[0]
        b = h[2] if d <= 1 else h[1]
        c = h[3] if d <= 2 else h[2]
        x = score3(P, trips, a, b, c)
        if x > best:
            best, bd = x, d
    return bd, best >> 6


# --------------------------------------------------------------------------- one hand

@njit(cache=True, nogil=True)
def score_hand(val, order, lost, na, draw, reason, knocker, layer):
    """Set ``lost`` for the seats in play; returns True when every hand is equal (a replay).
    In the draw variant a deal ended by a laid-down 31 is never replayed: line 65 decides it
    before line 53's all-equal rule (the layer wins; anyone else holding 31 loses a life)."""
    vmin, vmax, nbest = 99, -1, 0
    for q in range(na):
        x = val[order[q]]
        vmin = min(vmin, x)
        if x > vmax:
            vmax, nbest = x, 1
        elif x == vmax:
            nbest += 1
    for q in range(MAXP):
        lost[q] = 0
    laid31 = draw and reason == R_31
    if vmin == vmax and not laid31:
        return True
    for q in range(na):
        k = order[q]
        x = val[k]
        lose = x == vmin
        if draw:
            if laid31 and x == 31:
                lose = k != layer
            if reason == R_KNOCK and k == knocker and (x < vmax or nbest >= 2):
                lose = True
        lost[k] = np.int64(lose)
    return False


@njit(cache=True, nogil=True)
def deal_hands(R, S, W, na, s, u, log, i, lp, replay):
    """Deal a hand (the module docstring's order; the table variant's dealer keeps or refuses
    his first three).  Returns ``(s, u, lp, pos, refused, dealt31, first3)``: ``pos`` the cards
    dealt."""
    P, trips = R.point, R.trips
    lg = log.shape[0] > 0     # (each logging call costs, even untaken: guarded at the call)
    dealer = W.order[na - 1]
    if lg:
        lp = put_next(log, i, lp, E_DEAL, dealer, replay, 0)
    W.perm[:] = W.deck
    pos = 0
    for q in range(MAXP):
        W.swapped[q] = 0
        W.knock[q] = 0
    refused = False
    for j in range(3):
        c, pos, s = draw_card(W, pos, s)
        W.first[j] = c
        if lg:
            lp = put_next(log, i, lp, E_CARD, dealer, 0, c)
    first3 = value3(P, trips, W.first[0], W.first[1], W.first[2])
    dealt31 = first3 == 31
    h = W.hand[dealer]
    if R.draw:
        for j in range(3):
            h[j] = W.first[j]
    else:
        if S.kind[dealer] == K_RANDOM:
            x, u = uniform(u)
            refused = x < 0.5
        else:
            refused = first3 < S.refuse[dealer]
        if refused or R.second_hand:
            for j in range(3):
                c, pos, s = draw_card(W, pos, s)
                if lg:
                    lp = put_next(log, i, lp, E_CARD, dealer, 0, c)
                if refused:
                    W.table[j] = W.first[j]
                    h[j] = c
                else:
                    W.table[j] = c
                    h[j] = W.first[j]
            x = h if refused else W.table     # the second three cards
            dealt31 |= value3(P, trips, x[0], x[1], x[2]) == 31
        else:
            for j in range(3):
                h[j] = W.first[j]
    for q in range(na - 1):
        hk = W.hand[W.order[q]]
        for j in range(3):
            c, pos, s = draw_card(W, pos, s)
            hk[j] = c
            if lg:
                lp = put_next(log, i, lp, E_CARD, dealer, 0, c)
        dealt31 |= value3(P, trips, hk[0], hk[1], hk[2]) == 31
    if R.draw:
        c, pos, s = draw_card(W, pos, s)
        W.pile[0] = c
        if lg:
            lp = put_next(log, i, lp, E_CARD, dealer, 0, c)
    else:
        if not refused and not R.second_hand:
            for j in range(3):
                c, pos, s = draw_card(W, pos, s)
                W.table[j] = c
                if lg:
                    lp = put_next(log, i, lp, E_CARD, dealer, 0, c)
            dealt31 |= value3(P, trips, W.table[0], W.table[1], W.table[2]) == 31
        if lg:
            lp = put_next(log, i, lp, E_CHOICE, dealer, np.int64(refused), 0)
    return s, u, lp, pos, refused, dealt31, first3


@njit(cache=True, nogil=True, inline="always")
def table_turn(R, S, W, k, na, knocked, thr, u):
    """A table-variant turn of seat ``k``: knock, pass, or exchange one card or all three with
    the table (once all three are exchanged the seat only knocks or passes, ``swap_all``).
    Returns ``(knock, log kind, log aux, log card, u)``."""
    hk = W.hand[k]
    if W.swapped[k]:
        knock = not knocked and R.swap_knocks
        return knock, (E_KNOCK if knock else E_PASS), 0, 0, u
    act, a, b, u = choose_table(R.point, R.trips, S.kind[k] == K_RANDOM,
                                S.swap_all[k] + S.swap_more[k] * (na - 4),
                                S.feed[k] + S.feed_more[k] * (na - 4), W.hand, k,
                                W.table, knocked, thr, u)
    if act == 0:
        return not knocked, (E_PASS if knocked else E_KNOCK), 0, 0, u
    if act == 1:
        c = hk[a]
        got = W.table[b]
        hk[a] = W.table[b]
        W.table[b] = c
        return False, E_SWAP1, got, c, u
    for j in range(3):
        c = hk[j]
        hk[j] = W.table[j]
        W.table[j] = c
    W.swapped[k] = 1
    return False, E_SWAP3, 0, 0, u


@njit(cache=True, nogil=True, inline="always")
def draw_choice(R, S, W, k, thr, knocked, nd, u):
    """A draw-variant turn's choice for seat ``k``: ``(knock, source, discard slot, u)``,
    source 0 the stock, 1 the discard pile's top; the baseline picks its discard after the
    draw (:func:`best_discard`)."""
    hk = W.hand[k]
    src = 0
    disc = 0
    knock = False
    if S.kind[k] == K_RANDOM:
        r, u = bounded(u, 8 if knocked else 9)
        knock = r == 8
        src = r // 4
        disc = r % 4
    else:
        v = W.val[k]
        hk[3] = W.pile[nd - 1]
        top = best_discard(R.point, R.trips, hk)[1]
        # a 31 is laid down after a draw; nor is a 31 the turned card makes knocked away
        if not knocked and v >= thr and v < 31 and top != 31:
            knock = True
        else:
            src = top > v
    return knock, src, disc, u


@njit(cache=True, nogil=True, inline="always")
def draw_discard(R, S, W, k, src, disc, pos, nd, s):
    """Seat ``k`` draws from the stock (``src`` 0) or the pile and discards (slot ``disc``, or
    the baseline's :func:`best_discard`).  Returns ``(drawn, discarded, pos, nd, s)``."""
    hk = W.hand[k]
    if src == 0:
        c, pos, s = draw_card(W, pos, s)
    else:
        nd -= 1
        c = W.pile[nd]
    hk[3] = c
    if S.kind[k] != K_RANDOM:
        disc = best_discard(R.point, R.trips, hk)[0]
    d = hk[disc]
    hk[disc] = hk[3]
    W.pile[nd] = d
    return c, d, pos, nd + 1, s


@njit(cache=True, nogil=True)
def refill_stock(W, nd):
    """The discard pile but its top card becomes the stock (``reshuffle``): ``(pos, nd)``."""
    n = W.perm.shape[0]
    for j in range(nd - 1):
        W.perm[n - nd + 1 + j] = W.pile[j]
    W.pile[0] = W.pile[nd - 1]
    return n - nd + 1, 1


# The turns allocate nothing, so they run without numba's reference counting (_nrt=False, as
# Crazy Eights' deal: rule 3 of simkit.core.jit): their per-turn helpers take the records, whose
# ~28 arrays were otherwise counted in and out each turn (measured: half the speed).
@njit(cache=True, nogil=True, **NO_REFCOUNT)
def play_turns(R, S, W, na, s, u, log, i, lp, pos):
    """The turns of a dealt hand (``pos`` cards dealt) until a knock and the last round, a 31,
    a spent stock or ``max_turns``.  Returns ``(s, u, lp, pos, turns, reason, knocker, layer,
    gain)``, ``gain`` what the first to play gained on his turn."""
    P, trips = R.point, R.trips
    lg = log.shape[0] > 0
    for q in range(na):
        k = W.order[q]
        hk = W.hand[k]
        W.val[k] = value3(P, trips, hk[0], hk[1], hk[2])
    reason = -1
    layer = -1
    if not R.draw:                    # 31 right after the deal ends it at once (line 39)
        for q in range(na):
            if W.val[W.order[q]] == 31:
                reason, layer = R_31, W.order[q]
                break
    n = W.perm.shape[0]
    nd = 1 if R.draw else 0           # the discard pile (the turned card)
    v0 = W.val[W.order[0]]
    gain = 0
    turns = 0
    t = 0
    knocker = -1
    remaining = 0
    while reason < 0:
        if turns >= R.max_turns:
            reason = R_CAP
            break
        place = t % na
        rnd = t // na
        k = W.order[place]
        t += 1
        hk = W.hand[k]
        thr = threshold(S, k, rnd, place, R.lives - W.lives[k], na)
        if not R.draw:
            knock, kind, aux, card, u = table_turn(R, S, W, k, na, knocker >= 0, thr, u)
            if lg:
                lp = put_next(log, i, lp, kind, k, aux, card)
        else:
            knock, src, disc, u = draw_choice(R, S, W, k, thr, knocker >= 0, nd, u)
            if knock:
                if lg:
                    lp = put_next(log, i, lp, E_KNOCK, k, 0, 0)
            else:
                if src == 0 and pos == n:   # the stock is spent
                    if not R.reshuffle or nd < 2:
                        reason = R_STOCK
                        break
                    if lg:
                        lp = put_next(log, i, lp, E_RESHUFFLE, 0, nd - 1, 0)
                    pos, nd = refill_stock(W, nd)
                c, d, pos, nd, s = draw_discard(R, S, W, k, src, disc, pos, nd, s)
                if lg:
                    lp = put_next(log, i, lp, E_DRAW, k, src, c)
                    lp = put_next(log, i, lp, E_DISCARD, k, 0, d)
        turns += 1
        W.val[k] = value3(P, trips, hk[0], hk[1], hk[2])
        if t == 1:
            gain = W.val[k] - v0
        if not knock and W.val[k] == 31:    # a 31 made by an exchange or a draw
            reason, layer = R_31, k
            break
        if knock:
            knocker = k
            W.knock[k] = 1
            remaining = na - 1
            if R.draw and not R.last_round:
                remaining = 0
        elif knocker >= 0:
            remaining -= 1
        if knocker >= 0 and remaining == 0:
            reason = R_KNOCK
            break
    return s, u, lp, pos, turns, reason, knocker, layer, gain


@njit(cache=True, nogil=True)
def play_hand(R, S, W, na, s, u, log, i, lp, replay):
    """One hand among the ``na`` seats of ``W.order`` (the dealer last).  Returns ``(s, u, lp,
    cards, turns, reason, refused, dealt31, first3, gain)``; values in ``W.val``, losers
    ``W.lost``."""
    s, u, lp, pos, refused, dealt31, first3 = deal_hands(R, S, W, na, s, u, log, i, lp, replay)
    s, u, lp, pos, turns, reason, knocker, layer, gain = play_turns(R, S, W, na, s, u, log, i,
                                                                    lp, pos)
    P, trips = R.point, R.trips
    for q in range(na):
        hk = W.hand[W.order[q]]
        W.val[W.order[q]] = value3(P, trips, hk[0], hk[1], hk[2])
    if score_hand(W.val, W.order, W.lost, na, R.draw, reason, knocker, layer):
        reason = R_REPLAY
    return s, u, lp, pos, turns, reason, refused, dealt31, first3, gain


@njit(cache=True, nogil=True)
def play_deal(R, S, W, na, s, u, log, i, lp):
    """A deal with its replays: ``(s, u, lp, cards, turns, reason, refused, dealt31, first3,
    replays, first_gain)``; an unresolved deal leaves ``W.lost`` all zero."""
    lg = log.shape[0] > 0
    cards = 0
    turns = 0
    replays = 0
    dealt31 = False
    first3 = 0
    gain = 0
    while True:
        s, u, lp, c, tn, reason, refused, d31, f3, g = play_hand(R, S, W, na, s, u, log, i, lp,
                                                                replays)
        if replays == 0:
            dealt31, first3, gain = d31, f3, g
        cards += c
        turns += tn
        if reason != R_REPLAY:
            break
        if replays >= R.max_replays:
            reason = R_UNRESOLVED
            break
        if lg:
            lp = put_next(log, i, lp, E_END, 0, R_REPLAY, 0)
        replays += 1
    mask = 0
    for q in range(MAXP):
        mask |= W.lost[q] << q
    if lg:
        lp = put_next(log, i, lp, E_END, 0, reason, 0)
        lp = put_next(log, i, lp, E_LOST, 0, mask, 0)
    return s, u, lp, cards, turns, reason, refused, dealt31, first3, replays, gain


@njit(cache=True, nogil=True)
def set_order(alive, order, K, dealer):
    """Turn order of the surviving seats from the dealer's left, the dealer last; their count."""
    na = 0
    for q in range(1, K + 1):
        k = (dealer + q) % K
        if alive[k]:
            order[na] = k
            na += 1
    return na


@njit(cache=True, nogil=True)
def play_unit(R, S, W, i, key, ukey, v, log):
    K = R.players
    s, u = key, ukey
    if log.shape[0] > 0:
        log[i, :] = -1
    for k in range(K):
        W.lives[k] = R.lives
        W.alive[k] = 1
    if not R.game:
        na = set_order(W.alive, W.order, K, 0)
        s, u, lp, cards, turns, reason, refused, d31, f3, rep, g = play_deal(R, S, W, na, s, u,
                                                                             log, i, 0)
        v[D.turns] = turns
        v[D.knocked] = reason == R_KNOCK
        v[D.ended_31] = reason == R_31
        v[D.dealt_31] = d31
        v[D.refused] = refused
        v[D.replays] = rep
        v[D.capped] = reason == R_CAP
        v[D.unresolved] = reason == R_UNRESOLVED
        v[D.first3] = f3
        v[D.first_gain] = g
        for k in range(K):
            v[seat_slot(DS.lose, NSS, k)] = W.lost[k]
            v[seat_slot(DS.value, NSS, k)] = W.val[k]
            v[seat_slot(DS.knock, NSS, k)] = W.knock[k]
            v[seat_slot(DS.held31, NSS, k)] = W.val[k] == 31
            v[D.losers] += W.lost[k]
        return cards
    # the hidden sums after the seats' slots: _deals, the ratios' _sum_x, each seat's
    # _sum_pK_lose, the ratios' _cross_x, each seat's _cross_pK_lose; then pK_chips, pot
    base = NG + NGS * K
    sums = base + 1
    lose_sums = sums + NR
    cross = lose_sums + K
    lose_cross = cross + NR
    chips = lose_cross + K
    dealer = 0
    deals = 0
    cards = 0
    left = K
    while left > 1 and deals < R.max_deals:
        na = set_order(W.alive, W.order, K, dealer)
        s, u, lp, c, turns, reason, refused, d31, f3, rep, g = play_deal(R, S, W, na, s, u,
                                                                         log, i, 0)
        cards += c
        deals += 1
        v[G.replays] += rep
        v[sums + RT.turns] += turns
        v[sums + RT.knocked] += np.float64(reason == R_KNOCK)
        v[sums + RT.ended_31] += np.float64(reason == R_31)
        for k in range(K):
            if W.alive[k] and W.lost[k]:
                v[seat_slot(lose_sums, 1, k)] += 1
                W.lives[k] -= 1
                if W.lives[k] <= 0:
                    W.alive[k] = 0
                    left -= 1
        for q in range(1, K + 1):      # the deal passes to the next survivor on the left
            if W.alive[(dealer + q) % K]:
                dealer = (dealer + q) % K
                break
    v[G.deals] = deals
    v[G.unfinished] = left > 1
    v[base] = deals
    for j in range(NR):
        v[G.turns + j] = v[sums + j] / deals
        v[cross + j] = v[sums + j] * deals
    for k in range(K):
        v[seat_slot(GS.win, NGS, k)] = np.float64(left == 1 and W.alive[k] == 1)
        v[seat_slot(GS.lives, NGS, k)] = W.lives[k]
        v[seat_slot(GS.lose, NGS, k)] = v[seat_slot(lose_sums, 1, k)] / deals
        v[seat_slot(lose_cross, 1, k)] = v[seat_slot(lose_sums, 1, k)] * deals
    # chips (lines 19, 53, 55): a coin for each life lost but the last, the pot to the winner
    pot = 0
    for k in range(K):
        paid = min(R.lives - W.lives[k], R.lives - 1)
        v[seat_slot(chips, 1, k)] = -paid
        pot += paid
    v[chips + K] = pot           # pot, after the seats' chips
    if left == 1:
        for k in range(K):
            if W.alive[k]:
                v[seat_slot(chips, 1, k)] += pot
    return cards


@njit(cache=True, nogil=True)
def run_deals(R, S, W, state, n, acc, rows, log):
    return deal_loop(play_unit, SALT, R, S, W, state, n, acc, rows, log)
