"""Durak kernels: deal, open, play bouts (attack, beat or take, throw-ins one card at a time),
draw, and score whole units (one game, or a match of the form) from an RNG stream.
Rules: :mod:`simkit.games.durak.rules`.

Cards are :mod:`simkit.core.cards` codes ``suit*16 + rank`` (ranks 6..14); a hand is a ``uint64``
mask.  A game's 36 cards come from one partial Fisher-Yates shuffle of the pack from the deal's
splitmix64 sequence (started at the unit's key), so the stock's order is the deal's card stream:
every configuration of a comparison sees the same deals and the same stock.  A redeal or the next
game of a match shuffles again from the same sequence.  Strategies' coin flips use a second
sequence at ``key ^ SALT``.

Dealing order (the shuffled 36, or a stacked deck): p1 3, p2 3, p1 3, p2 3, the trump card (drawn
last), then the stock from its top.

The move log (:func:`log_columns`) is one ``int64`` row per unit: a flat stream of the house's
events (:mod:`simkit.engines.moves`: ``kind << 20 | seat << 16 | aux << 8 | card``, kinds
:data:`KINDS`), padded with -1: per game ``GAME`` (seat the opener), 36 ``DECK`` (the cards in
dealing order), then the bouts (``ATTACK c`` and ``THROW c`` by the attacker, ``BEAT c`` or
``TAKE`` by the defender, ..., ``STOP`` (seat the attacker), then two ``DRAW`` events, the
attacker's and the defender's, each with aux the seat's hand size after the drawing: the two
sizes do not share one aux), and ``END`` (aux 0/1: that seat won, 2: a draw).  A redeal logs
``REDEAL`` before the game's ``DECK`` entries.  ``tests/durak_reference.py`` replays it.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simkit.core.bits import lowest_code, nth_code, popcount
from simkit.core.deals import SALT, deal_loop
from simkit.core.records import record, seat_slot, slots
from simkit.core.registry import Metric
from simkit.core.rng import bounded, shuffle_prefix
from simkit.engines.endgame import I, keep, memo, probe, store
from simkit.engines.moves import put_next

ONE = np.uint64(1)
ZERO = np.uint64(0)
NCARDS = 36
HAND = 6
LANE = np.uint64(0x7FC0)     # ranks 6..14 of one suit lane

K_RANDOM, K_BASELINE = 0, 1

KINDS = ["GAME", "DECK", "REDEAL", "ATTACK", "BEAT", "TAKE", "THROW", "STOP", "DRAW", "END"]
E = slots(KINDS)
E_GAME, E_DECK, E_REDEAL, E_ATTACK, E_BEAT, E_TAKE, E_THROW, E_STOP, E_DRAW, E_END = \
    [i + 1 for i in range(len(KINDS))]

UNIT_NAMES = ["games", "redeals", "draw", "unfinished", "opener_win", "opener_lose", "bouts",
              "trump_rank", "endgames", "opener_edge"]
SEAT_NAMES = ["win", "lose", "first", "games_won", "takes", "cards_left"]
U = slots(UNIT_NAMES)
NU = len(UNIT_NAMES)
Q = slots(SEAT_NAMES, first=NU, step=2)   # p1's slots (p1_q, p2_q side by side)
# by the trump card's rank (6..14) of the unit's first game: per rank the reported ratios
# opener_edge_trumpR, p1_lose_trumpR, p2_lose_trumpR (their own columns stay 0) and their
# sums: trumpR (the rank is R: the denominator, reported: the distribution of the trump rank),
# and hidden _edge_trumpR, _p1_lose_trumpR,
# _p2_lose_trumpR (numerators; each is also its own numerator x denominator, as the
# denominator is 0/1)
TRUMP_RANKS = tuple(range(6, 15))
BY_TRUMP = ["opener_edge", "p1_lose", "p2_lose"]
NT = 2 * len(BY_TRUMP) + 1       # columns per rank
T0 = NU + 2 * len(SEAT_NAMES)    # the first rank's first column
NMET = T0 + NT * len(TRUMP_RANKS)

METRIC_DOCS = {
    "games": "games played in the unit (redeals not counted)",
    "redeals": "deals thrown in because neither hand held a trump (first game only)",
    "draw": "the unit ended drawn (both out of cards at once; in a match: no winner)",
    "unfinished": "a match hit max_games, or a stacked deck ran out, with no result",
    "opener_win": "the first attacker of the unit's first game won the unit",
    "opener_lose": "the first attacker of the unit's first game lost the unit (is the durak)",
    "opener_edge": "the first-move edge: +1 when the first attacker of the unit's first game "
                   "won the unit, -1 when he lost it, 0 for a draw or an unfinished unit (its "
                   "mean is opener_win - opener_lose, with its own standard error)",
    "bouts": "bouts played in the unit",
    "trump_rank": "the rank of the trump card (6..14) of the unit's first game",
    "endgames": "games that reached an empty stock with both players holding cards",
    "win": "won the unit (the other is the durak; in a match: won the match)",
    "lose": "lost the unit: the durak, left holding cards (in a match: lost the match)",
    "first": "attacked first in the unit's first game",
    "games_won": "games won in the unit",
    "takes": "bouts in which this seat took the cards",
    "cards_left": "cards held when the unit's last game ended",
}


def metrics(rules) -> list[Metric]:
    per = "game" if rules.unit == "game" or rules.target == 1 else "match"
    binary = {"draw", "unfinished", "opener_win", "opener_lose", "win", "lose", "first"}
    if per == "game":
        binary |= {"games_won"}

    def unit(n):
        if n in binary:
            return "share of games (0..1)" if per == "game" else f"share of {per}es (0..1)"
        if n == "trump_rank":
            return "rank (6..14)"
        if n == "opener_edge":
            return f"edge per {per} (-1..1; +1 the first attacker won)"
        return f"count per {per}" if per == "game" else f"count per match to {rules.target}"
    out = [Metric(n, binary=n in binary, doc=METRIC_DOCS[n], unit=unit(n),
                  category="its distribution is trumpR (R = 6..14)" if n == "trump_rank" else "")
           for n in UNIT_NAMES]
    for q in SEAT_NAMES:
        for k in (1, 2):
            out.append(Metric(f"p{k}_{q}", binary=q in binary, doc=f"p{k}: " + METRIC_DOCS[q],
                              unit=unit(q)))
    share = "share of games (0..1)" if per == "game" else f"share of {per}es (0..1)"
    for r in TRUMP_RANKS:
        name = {11: "jack", 12: "queen", 13: "king", 14: "ace"}.get(r, str(r))
        out.append(Metric(f"opener_edge_trump{r}", False,
                          f"opener_edge in the units whose first game's trump card is a {name} "
                          f"(rank {r})", ratio=(f"_edge_trump{r}", f"trump{r}",
                                                f"_edge_trump{r}"),
                          unit=f"{unit('opener_edge')} with trump rank {r}"))
        for k in (1, 2):
            out.append(Metric(f"p{k}_lose_trump{r}", False,
                              f"p{k}: lost the unit (the durak), in the units whose first "
                              f"game's trump card is a {name} (rank {r})",
                              ratio=(f"_p{k}_lose_trump{r}", f"trump{r}",
                                     f"_p{k}_lose_trump{r}"),
                              unit=f"{share} with trump rank {r}"))
        out.append(Metric(f"trump{r}", True, f"the trump card of the unit's first game is a "
                                             f"{name} (rank {r})", unit=share))
        out += [Metric(f"_edge_trump{r}", False), Metric(f"_p1_lose_trump{r}", True),
                Metric(f"_p2_lose_trump{r}", True)]
    return out


def log_width(rules) -> int:
    games = 1 if (rules.unit == "game" or rules.target == 1) else min(rules.max_games,
                                                                        3 * rules.target)
    return 40 + 950 * games     # 760 a game before the second DRAW event of each bout (issue 28)


def log_columns(rules) -> list[str]:
    return [f"e{j}" for j in range(log_width(rules))]


# --------------------------------------------------------------------------- records

class GameRules(NamedTuple):
    target: int                # wins that end a match (1: short, super-short)
    match: bool                # unit=match
    super_short: bool          # six cards each, the stock never used
    opener_p1: bool            # p1 opens the first game (no lowest-trump rule, no redeal)
    after_draw_prev: bool      # after a drawn game, the previous opener opens again
    cap_always: bool           # the defender's hand caps the attack always (else: empty stock)
    max_attack: int
    first_cap: int
    max_games: int
    rankmask: np.ndarray       # uint64[16]: the four cards of each rank
    suitmask: np.ndarray       # uint64[4]: the nine cards of each suit


class Seats(NamedTuple):
    """The strategies' record (:func:`simkit.core.records.seat_arrays`): one entry per seat, p1's
    first; a seat whose kind lacks a parameter holds the parameter's default."""
    kind: np.ndarray           # int64: K_RANDOM or K_BASELINE
    trump_stock: np.ndarray    # stock above which it spends no trump (beats, throw-ins)
    max_trump: np.ndarray      # highest trump it spends while the stock is not empty
    throw_max: np.ndarray      # throw-ins per bout at most
    throw_rank: np.ndarray     # highest non-trump rank thrown in while the stock is not empty
    late_trump: np.ndarray     # highest trump rank thrown in once the stock is empty (5: none)
    take_cost: np.ndarray      # takes when the cheapest beat costs more than this + table cards
    attack_low: np.ndarray     # 1: attack with the cheapest card (else a random one)
    beat_low: np.ndarray       # 1: beat with the cheapest beating card (else a random one)
    double: np.ndarray         # stock at or below which it leads a rank it holds twice (-1 off)
    subsets: np.ndarray        # random: 1: throw a uniformly random subset onto a take
    exact: np.ndarray          # play the exact endgame once the stock is empty and the hands
                               # and table hold at most this many cards (0: never)
    memory: np.ndarray         # lead a non-trump up to this rank that no card seen picked up
                               # by the opponent beats, before the cheapest card (0: off)


class Seat(NamedTuple):
    """One seat's values off :class:`Seats`, as scalars: what the per-move helpers are given
    (:mod:`simkit.core.jit`, rule 2: a record of scalars costs no reference counts), built by
    :func:`seat_of` once per chunk."""
    kind: int
    trump_stock: int
    max_trump: int
    throw_max: int
    throw_rank: int
    late_trump: int
    take_cost: int
    attack_low: bool
    beat_low: bool
    double: int
    subsets: bool
    exact: int
    memory: int


class Work(NamedTuple):
    deck: np.ndarray           # int64[36] pack, or a stacked deck (36 cards a deal)
    stacked: bool
    perm: np.ndarray           # int64[36]
    order: np.ndarray          # int64[36]: the game's cards in dealing order
    hand: np.ndarray           # uint64[2]
    known: np.ndarray          # uint64[2]: cards of each hand the other seat has seen it pick up
    memo_key: np.ndarray       # uint64[size, 3], int64[size]: the exact solver's table
    memo_val: np.ndarray       # (simkit.engines.endgame; size 1 when no seat plays exact)


MEMO = 1 << 18


def game_rules(rules) -> GameRules:
    rm = np.zeros(16, np.uint64)
    for r in range(6, 15):
        for s in range(4):
            rm[r] |= np.uint64(1) << np.uint64(16 * s + r)
    sm = np.array([LANE << np.uint64(16 * s) for s in range(4)], np.uint64)
    return record(GameRules, target=rules.target, match=rules.unit == "match",
                  super_short=rules.form == "super_short", opener_p1=rules.opener == "p1",
                  after_draw_prev=rules.after_draw == "previous",
                  cap_always=rules.hand_cap == "always", max_attack=rules.max_attack,
                  first_cap=min(rules.first_bout_cap, rules.max_attack),
                  max_games=rules.max_games, rankmask=rm, suitmask=sm)


def work(deck, stacked=False, exact=False) -> Work:
    keys, values = memo(MEMO if exact else 1, 3)
    return record(Work, deck=np.asarray(deck, np.int64), stacked=bool(stacked),
                  perm=np.zeros(NCARDS, np.int64), order=np.zeros(NCARDS, np.int64),
                  hand=np.zeros(2, np.uint64), known=np.zeros(2, np.uint64),
                  memo_key=keys, memo_val=values)


# --------------------------------------------------------------------------- card helpers

@njit(cache=True, nogil=True, inline="always")
def bit(c):
    return ONE << np.uint64(c)


@njit(cache=True, nogil=True, inline="always")
def cost(c, trump):
    """A card's cost to the baseline: rank - 6, plus 9 for a trump (0..17)."""
    return (c & 15) - 6 + (9 if (c >> 4) == trump else 0)


@njit(cache=True, nogil=True)
def cheapest(m, trump, R):
    """The cheapest card of the non-empty mask ``m``: the lowest non-trump rank, else the lowest
    trump."""
    tl = R.suitmask[trump]
    nt = m & ~tl
    if nt:
        for r in range(6, 15):
            x = nt & R.rankmask[r]
            if x:
                return lowest_code(x)
    return lowest_code(m & tl)


@njit(cache=True, nogil=True)
def beaters(c, hand, trump, R):
    """The cards of ``hand`` that beat ``c`` (lines 176-177)."""
    s = c >> 4
    higher = ~((bit(c) << ONE) - ONE)
    out = hand & R.suitmask[s] & higher
    if s != trump:
        out |= hand & R.suitmask[trump]
    return out


@njit(cache=True, nogil=True)
def random_of(m, u):
    k, u = bounded(u, popcount(m))
    return nth_code(m, k), u


# --------------------------------------------------------------------------- strategies

@njit(cache=True, nogil=True)
def can_spend(st, c, trump, stock):
    """The baseline spends trump ``c`` (a beat or a throw-in) at this stock size."""
    if (c >> 4) != trump or stock == 0:
        return True
    return stock <= st.trump_stock and (c & 15) <= st.max_trump


@njit(cache=True, nogil=True)
def choose_attack(st, hand, trump, stock, known, R, u):
    """The first card of a bout (any card, lines 176).  ``known``: the cards the opponent has
    been seen to pick up and still holds."""
    if st.kind == K_RANDOM or not st.attack_low:
        return random_of(hand, u)
    tl = R.suitmask[trump]
    if st.double >= 0 and stock <= st.double:
        for r in range(6, 15):
            x = hand & R.rankmask[r] & ~tl
            if popcount(x) >= 2:
                return lowest_code(x), u
    if st.memory > 0 and known != ZERO:
        for r in range(6, st.memory + 1):
            x = hand & R.rankmask[r] & ~tl
            while x:
                c = lowest_code(x)
                x &= ~bit(c)
                above = R.suitmask[c >> 4] & ~((bit(c) << ONE) - ONE)
                if known & above == ZERO:
                    return c, u
    return cheapest(hand, trump, R), u


@njit(cache=True, nogil=True)
def choose_beat(st, cands, c, trump, stock, ntable, R, u):
    """A card of ``cands`` (non-empty) beating ``c``, or -1: take."""
    if st.kind == K_RANDOM:
        k, u = bounded(u, popcount(cands) + 1)
        if k == popcount(cands):
            return -1, u
        return nth_code(cands, k), u
    if st.beat_low:
        b = cheapest(cands, trump, R)
    else:
        b, u = random_of(cands, u)
    if stock > 0:
        if not can_spend(st, b, trump, stock):
            return -1, u
        if cost(b, trump) > st.take_cost + ntable:
            return -1, u
    return b, u


@njit(cache=True, nogil=True)
def choose_throw(st, cands, trump, stock, thrown, R, u):
    """A card of ``cands`` (non-empty) to throw in, or -1: stop."""
    if st.kind == K_RANDOM:
        k, u = bounded(u, popcount(cands) + 1)
        if k == popcount(cands):
            return -1, u
        return nth_code(cands, k), u
    if thrown >= st.throw_max:
        return -1, u
    c = cheapest(cands, trump, R)
    if (c >> 4) == trump and (stock > 0 or (c & 15) > st.late_trump):
        return -1, u
    if stock > 0 and (c & 15) > st.throw_rank:
        return -1, u
    return c, u


# --------------------------------------------------------------------------- the exact endgame

_LOW6 = np.uint64(63)


@njit(cache=True, nogil=True)
def table_ranks(table, R):
    m = ZERO
    for r in range(6, 15):
        if table & R.rankmask[r]:
            m |= R.rankmask[r]
    return m


@njit(cache=True, nogil=True)
def solve(R, W, a, d, trump, phase, table, open_c, natt, cap):
    """The exact value, for the bout's attacker, of a position with an empty stock (+1 he wins,
    0 a draw, -1 he is the durak) under minimax: both hands are known (card memory: every card
    not in one's hand, the discard or the table is in the other's).  ``phase``: 0 a bout to
    start (attacker ``a`` to attack), 1 the defender to answer ``open_c``, 2 the attacker to throw
    in or stop after a beat, 3 the attacker to throw in or stop before the defender takes
    ``table``.  ``natt`` attacking cards so far, ``cap`` the bout's limit.  Memoised in
    ``W.memo_*`` (:mod:`simkit.engines.endgame`, keys of three words)."""
    if phase == 0:
        if a == ZERO and d == ZERO:
            return 0
        if a == ZERO:
            return 1
        if d == ZERO:
            return -1
        cap = min(R.max_attack, popcount(d))
    x = np.uint64(phase + 4 * natt + 32 * cap + 256 * (open_c + 1))
    k0 = a | (x & _LOW6) | (((x >> np.uint64(6)) & _LOW6) << np.uint64(16)) | \
        (((x >> np.uint64(12)) & _LOW6) << np.uint64(32))
    k1 = d | np.uint64(trump)
    k2 = table
    slot, found = probe(W.memo_key, W.memo_val, k0, k1, k2)
    if found:
        return W.memo_val[slot]
    if phase == 0:
        best = -2
        y = a
        while y:
            c = lowest_code(y)
            y &= y - ONE
            val = solve(R, W, a & ~bit(c), d, I(trump), I(1), bit(c), I(c), I(1), I(cap))
            if val > best:
                best = val
                if best == 1:
                    break
    elif phase == 1:
        best = solve(R, W, a, d, I(trump), I(3), table, I(-1), I(natt), I(cap))      # take
        y = beaters(open_c, d, trump, R)
        while y and best > -1:
            b = lowest_code(y)
            y &= y - ONE
            val = solve(R, W, a, d & ~bit(b), I(trump), I(2), table | bit(b), I(-1), I(natt), I(cap))
            if val < best:
                best = val
    elif phase == 2:
        best = -solve(R, W, d, a, I(trump), I(0), ZERO, I(-1), I(0), I(0))           # stop: beaten
        if natt < cap:
            y = a & table_ranks(table, R)
            while y and best < 1:
                t = lowest_code(y)
                y &= y - ONE
                val = solve(R, W, a & ~bit(t), d, I(trump), I(1), table | bit(t), I(t), I(natt + 1), I(cap))
                if val > best:
                    best = val
    else:
        best = solve(R, W, a, d | table, I(trump), I(0), ZERO, I(-1), I(0), I(0))    # stop: he takes
        if natt < cap:
            y = a & table_ranks(table, R)
            while y and best < 1:
                t = lowest_code(y)
                y &= y - ONE
                val = solve(R, W, a & ~bit(t), d, I(trump), I(3), table | bit(t), I(-1), I(natt + 1), I(cap))
                if val > best:
                    best = val
    return store(W.memo_key, W.memo_val, slot, k0, k1, k2, best)


# 11 parameters: solve's position (its ten, the records and the bout's state) and the
# baseline's choice
@njit(cache=True, nogil=True)
def exact_move(R, W, a, d, trump, phase, table, open_c, natt, cap, pref):
    """An optimal move at a decision of :func:`solve`'s ``phase`` (a card, or -1 for take /
    stop), ``pref`` (the baseline's choice) when it is optimal too, else the lowest optimal card
    (take / stop first)."""
    if phase == 0:
        best = -2
        move = -1
        pv = -2
        y = a
        while y:
            c = lowest_code(y)
            y &= y - ONE
            val = solve(R, W, a & ~bit(c), d, I(trump), I(1), bit(c), I(c), I(1), I(cap))
            if c == pref:
                pv = val
            if val > best:
                best = val
                move = c
        return keep(pref, pv, best, move)
    if phase == 1:
        best = solve(R, W, a, d, I(trump), I(3), table, I(-1), I(natt), I(cap))
        move = -1
        pv = best if pref < 0 else 2
        y = beaters(open_c, d, trump, R)
        while y:
            b = lowest_code(y)
            y &= y - ONE
            val = solve(R, W, a, d & ~bit(b), I(trump), I(2), table | bit(b), I(-1), I(natt), I(cap))
            if b == pref:
                pv = val
            if val < best:
                best = val
                move = b
        return keep(pref, pv, best, move)
    if phase == 2:
        best = -solve(R, W, d, a, I(trump), I(0), ZERO, I(-1), I(0), I(0))
    else:
        best = solve(R, W, a, d | table, I(trump), I(0), ZERO, I(-1), I(0), I(0))
    move = -1
    pv = best if pref < 0 else -2
    if natt < cap:
        y = a & table_ranks(table, R)
        while y:
            t = lowest_code(y)
            y &= y - ONE
            if phase == 2:
                val = solve(R, W, a & ~bit(t), d, I(trump), I(1), table | bit(t), I(t), I(natt + 1), I(cap))
            else:
                val = solve(R, W, a & ~bit(t), d, I(trump), I(3), table | bit(t), I(-1), I(natt + 1), I(cap))
            if t == pref:
                pv = val
            if val > best:
                best = val
                move = t
    return keep(pref, pv, best, move)


@njit(cache=True, nogil=True)
def position_value(R, W, a, d, trump):
    """:func:`solve` at a bout's start: the attacker (hand ``a``) against ``d``, stock empty."""
    return solve(R, W, np.uint64(a), np.uint64(d), I(trump), I(0), ZERO, I(-1), I(0), I(0))


@njit(cache=True, nogil=True)
def play_position(R, S, W, h0, h1, att, trump, ukey, log):
    """Play a position with an empty stock to its end (p1 holds ``h0``, p2 ``h1``, ``att``
    attacks): the result as :func:`play_game` (0/1 that seat won, 2 a draw)."""
    W.hand[0] = np.uint64(h0)
    W.hand[1] = np.uint64(h1)
    v = np.zeros(NMET)
    res, u, lp = play_bouts(R, (seat_of(S, 0), seat_of(S, 1)), W, att, trump, 0, False, v, log, 0, 0, ukey)
    return res



@njit(cache=True, nogil=True)
def n_subsets(m, r):
    """Subsets of at most ``r`` of ``m`` cards."""
    total = 0
    c = 1
    for k in range(min(m, r) + 1):
        total += c
        c = c * (m - k) // (k + 1)
    return total


@njit(cache=True, nogil=True)
def subset_throw(cands, last, room, u):
    """The next card of a uniformly random subset of at most ``room`` of ``cands``, thrown
    lowest code first (``last``: the card thrown before in this take, -1 none; the cards below it
    were left out), or -1: stop.  One card at a time, this throws exactly the peer durakgame's
    uniformly random choice among all such subsets at once."""
    if last >= 0:
        cands &= ~((bit(last) << ONE) - ONE)
    m = popcount(cands)
    if m == 0 or room <= 0:
        return -1, u
    k, u = bounded(u, n_subsets(m, room))
    if k == 0:
        return -1, u                  # the empty rest
    k -= 1
    for j in range(m):               # the rest's lowest card is the j-th with N(m-j-1, room-1)
        w = n_subsets(m - j - 1, room - 1)
        if k < w:
            return nth_code(cands, j), u
        k -= w
    return -1, u


# --------------------------------------------------------------------------- the game

@njit(cache=True, nogil=True)
def deal(W, s, ptr):
    """A game's 36 cards into ``W.order``: ``(ok, s, ptr)``."""
    order = W.order
    deck = W.deck
    if W.stacked:
        if ptr + NCARDS > deck.shape[0]:
            return False, s, ptr
        for j in range(NCARDS):
            order[j] = deck[ptr + j]
        return True, s, ptr + NCARDS
    perm = W.perm
    for j in range(NCARDS):
        perm[j] = j
    s = shuffle_prefix(perm, NCARDS, s)
    for j in range(NCARDS):
        order[j] = deck[perm[j]]
    return True, s, ptr


@njit(cache=True, nogil=True)
def lowest_trump_seat(hand, trump, R):
    """The seat holding the lowest trump, or -1 (line 174)."""
    tl = R.suitmask[trump]
    a = hand[0] & tl
    b = hand[1] & tl
    if a == 0 and b == 0:
        return -1
    if b == 0:
        return 0
    if a == 0:
        return 1
    return 0 if lowest_code(a) < lowest_code(b) else 1


@njit(cache=True, nogil=True)
def draw(hand, order, att, stock, sp):
    """Drawing up to six from the stock (``order[13:]``, then the trump card), the attacker
    first (line 182), ``sp`` of the ``stock`` cards drawn before: returns the cards drawn
    after."""
    for who in (att, 1 - att):
        n = popcount(hand[who])
        while n < HAND and sp < stock:
            cc = order[13 + sp] if sp < NCARDS - 13 else order[12]
            hand[who] |= bit(cc)
            sp += 1
            n += 1
    return sp


# 12 parameters: the three records, the game's state (attacker, trump, stock, first bout), the
# unit's metric row, the move log's row and cursor and the coin-flip stream
@njit(cache=True, nogil=True)
def play_bouts(R, S, W, att, trump, stock, first_bout, v, log, i, lp, u):
    """Bouts from the hands in ``W.hand`` (attacker ``att``, ``stock`` cards of ``W.order`` left to
    draw) to the game's end: ``(result, u, lp)``, result as :func:`play_game`."""
    hand = W.hand
    known = W.known
    known[0] = ZERO
    known[1] = ZERO
    sp = 0                                 # cards drawn from the stock
    endgame_seen = False
    while True:
        # ---- end (lines 188-192)
        left = stock - sp
        if left == 0:
            if hand[0] == ZERO and hand[1] == ZERO:
                result = 2
                break
            if hand[0] == ZERO:
                result = 0
                break
            if hand[1] == ZERO:
                result = 1
                break
            if not endgame_seen:
                endgame_seen = True
                if not R.super_short:
                    v[U.endgames] += 1
        dfd = 1 - att
        sa = S[att]
        sd = S[dfd]
        v[U.bouts] += 1
        # ---- the cap (line 178)
        cap = R.first_cap if first_bout else R.max_attack
        stock_empty = left == 0 and not R.super_short
        if R.cap_always or stock_empty:
            nd = popcount(hand[dfd])
            if nd < cap:
                cap = nd
        # ---- the bout (lines 176-184)
        c, u = choose_attack(sa, hand[att], trump, left, known[dfd], R, u)
        if sa.exact > 0 and left == 0 and not R.super_short and \
                popcount(hand[0] | hand[1]) <= sa.exact:
            c = exact_move(R, W, hand[att], hand[dfd], trump, 0, ZERO, -1, 0, cap, c)
        hand[att] &= ~bit(c)
        known[att] &= ~bit(c)
        table = bit(c)
        ranks = R.rankmask[c & 15]
        natt = 1
        lp = put_next(log, i, lp, E_ATTACK, att, 0, c)
        taken = False
        while True:
            cands = beaters(c, hand[dfd], trump, R)
            b = -1
            if cands:
                b, u = choose_beat(sd, cands, c, trump, left, popcount(table), R, u)
                if sd.exact > 0 and left == 0 and not R.super_short and \
                        popcount(hand[0] | hand[1] | table) <= sd.exact:
                    b = exact_move(R, W, hand[att], hand[dfd], trump, 1, table, c, natt, cap, b)
            if b < 0:
                taken = True
                lp = put_next(log, i, lp, E_TAKE, dfd, 0, 0)
                break
            hand[dfd] &= ~bit(b)
            known[dfd] &= ~bit(b)
            table |= bit(b)
            ranks |= R.rankmask[b & 15]
            lp = put_next(log, i, lp, E_BEAT, dfd, 0, b)
            t = -1
            # a defender who beat with his last card when no stock is left has won: the bout
            # ends beaten, nothing more is thrown (lines 162, 190)
            if natt < cap and not (left == 0 and hand[dfd] == ZERO):
                th = hand[att] & ranks
                if th:
                    t, u = choose_throw(sa, th, trump, left, natt - 1, R, u)
                    if sa.exact > 0 and left == 0 and not R.super_short and \
                            popcount(hand[0] | hand[1] | table) <= sa.exact:
                        t = exact_move(R, W, hand[att], hand[dfd], trump, 2, table, -1, natt,
                                       cap, t)
            if t < 0:
                break
            hand[att] &= ~bit(t)
            known[att] &= ~bit(t)
            table |= bit(t)
            natt += 1
            c = t
            lp = put_next(log, i, lp, E_THROW, att, 0, t)
        if taken:
            # the attacker may throw in more before the defender takes (line 184)
            last = -1
            while natt < cap:
                th = hand[att] & ranks
                if th == ZERO:
                    break
                if sa.subsets:
                    t, u = subset_throw(th, last, cap - natt, u)
                else:
                    t, u = choose_throw(sa, th, trump, left, natt - 1, R, u)
                last = t
                if sa.exact > 0 and left == 0 and not R.super_short and \
                        popcount(hand[0] | hand[1] | table) <= sa.exact:
                    t = exact_move(R, W, hand[att], hand[dfd], trump, 3, table, -1, natt, cap, t)
                if t < 0:
                    break
                hand[att] &= ~bit(t)
                known[att] &= ~bit(t)
                table |= bit(t)
                ranks |= R.rankmask[t & 15]
                natt += 1
                lp = put_next(log, i, lp, E_THROW, att, 0, t)
            hand[dfd] |= table
            known[dfd] |= table
            v[seat_slot(Q.takes, 1, dfd)] += 1
        else:
            first_bout = False               # the game's first discard
        lp = put_next(log, i, lp, E_STOP, att, 0, 0)
        sp = draw(hand, W.order, att, stock, sp)     # drawing, the attacker first (line 182)
        lp = put_next(log, i, lp, E_DRAW, att, popcount(hand[att]), 0)
        lp = put_next(log, i, lp, E_DRAW, dfd, popcount(hand[dfd]), 0)
        if not taken:
            att = dfd
    return result, u, lp


# 13 parameters: the three records, the match's state (first game, previous opener and
# winner), the deal and coin-flip streams, the stacked deck's pointer, the unit's metric row and
# the move log's row and cursor: scalars that play_unit carries from game to game
@njit(cache=True, nogil=True)
def play_game(R, S, W, first_game, prev_opener, prev_winner, s, u, ptr, v, log, i, lp):
    """One game.  Returns ``(result, opener, s, u, ptr, lp)``; result 0/1: that seat won (the
    other is the durak), 2: a draw, 3: no cards left in a stacked deck (unfinished)."""
    order = W.order
    hand = W.hand
    # ---- deal, trump, first attacker (lines 168-174); no trump in the first game: redeal
    while True:
        ok, s, ptr = deal(W, s, ptr)
        if not ok:
            return 3, -1, s, u, ptr, lp
        hand[0] = ZERO
        hand[1] = ZERO
        for j in range(3):
            hand[0] |= bit(order[j]) | bit(order[6 + j])
            hand[1] |= bit(order[3 + j]) | bit(order[9 + j])
        trump = order[12] >> 4
        low = lowest_trump_seat(hand, trump, R)
        if first_game:
            if R.opener_p1:
                opener = 0
                break
            if low >= 0:
                opener = low
                break
            v[U.redeals] += 1
            lp = put_next(log, i, lp, E_REDEAL, 0, 0, 0)
            continue
        if prev_winner >= 0:
            opener = prev_winner
        elif R.after_draw_prev or low < 0:
            opener = prev_opener
        else:
            opener = low
        break
    lp = put_next(log, i, lp, E_GAME, opener, 0, 0)
    for j in range(NCARDS):
        lp = put_next(log, i, lp, E_DECK, 0, 0, order[j])
    if first_game:
        v[U.trump_rank] = order[12] & 15
    result, u, lp = play_bouts(R, S, W, opener, trump, 0 if R.super_short else NCARDS - 12,
                               True, v, log, i, lp, u)
    v[seat_slot(Q.cards_left, 1, 0)] = popcount(hand[0])
    v[seat_slot(Q.cards_left, 1, 1)] = popcount(hand[1])
    return result, opener, s, u, ptr, lp


@njit(cache=True, nogil=True)
def play_unit(R, S, W, i, key, ukey, v, log):
    """One unit: a game, or a match of the form.  Returns the cards dealt."""
    s = key
    u = ukey
    ptr = 0
    lp = 0
    wins0 = 0
    wins1 = 0
    games = 0
    prev_opener = -1
    prev_winner = -1
    opener0 = -1
    final = -1               # 0/1 the unit's winner, 2 a draw, 3 unfinished
    while True:
        res, op, s, u, ptr, lp = play_game(R, S, W, games == 0, prev_opener, prev_winner, s, u,
                                           ptr, v, log, i, lp)
        if res == 3:
            final = 3
            break
        games += 1
        lp = put_next(log, i, lp, E_END, 0, res, 0)
        if games == 1:
            opener0 = op
            v[seat_slot(Q.first, 1, op)] = 1
        prev_opener = op
        if res == 2:
            prev_winner = -1
        else:
            prev_winner = res
            if res == 0:
                wins0 += 1
            else:
                wins1 += 1
        if not R.match or R.target == 1:
            final = res
            break
        if wins0 >= R.target:
            final = 0
            break
        if wins1 >= R.target:
            final = 1
            break
        if games >= R.max_games:
            final = 3
            break
    if log.shape[0] > 0:
        for j in range(lp, log.shape[1]):   # the row's unused room
            log[i, j] = -1
    v[U.games] = games
    v[seat_slot(Q.games_won, 1, 0)] = wins0
    v[seat_slot(Q.games_won, 1, 1)] = wins1
    if final == 2:
        v[U.draw] = 1
    elif final == 3:
        v[U.unfinished] = 1
    elif final >= 0:
        v[seat_slot(Q.win, 1, final)] = 1
        v[seat_slot(Q.lose, 1, 1 - final)] = 1
        if final == opener0:
            v[U.opener_win] = 1
            v[U.opener_edge] = 1
        else:
            v[U.opener_lose] = 1
            v[U.opener_edge] = -1
    r = int(v[U.trump_rank])
    if r >= TRUMP_RANKS[0]:   # by the first game's trump rank (T0: the layout above)
        c = T0 + NT * (r - TRUMP_RANKS[0]) + 3
        v[c] = 1
        v[c + 1] = v[U.opener_edge]
        v[c + 2] = v[seat_slot(Q.lose, 1, 0)]
        v[c + 3] = v[seat_slot(Q.lose, 1, 1)]
    return games * NCARDS


@njit(cache=True, nogil=True)
def seat_of(S, k):
    """Seat ``k``'s :class:`Seat` off the strategies' record ``S`` (:class:`Seats`); ``exact``
    0 for a random seat (the record gives it a default of the baseline's kinds, which the play
    would otherwise read)."""
    return Seat(S.kind[k], S.trump_stock[k], S.max_trump[k], S.throw_max[k], S.throw_rank[k],
                S.late_trump[k], S.take_cost[k], S.attack_low[k] != 0, S.beat_low[k] != 0,
                S.double[k], S.subsets[k] != 0,
                S.exact[k] if S.kind[k] == K_BASELINE else 0, S.memory[k])


@njit(cache=True, nogil=True)
def run_deals(R, S, W, state, n, acc, rows, log):
    """``n`` units on the core deal loop (see :mod:`simkit.core.deals`); the seats' values are
    read off ``S`` once, into the pair of scalar :class:`Seat` records the bouts read."""
    return deal_loop(play_unit, SALT, R, (seat_of(S, 0), seat_of(S, 1)), W, state, n, acc,
                     rows, log)
