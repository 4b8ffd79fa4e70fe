"""Old Maid kernels: deal 51 cards, discard pairs, draw from a neighbour until one card is left.

A hand is a ``uint64`` mask of card codes (:mod:`simkit.core.cards`).  After the deal's pairs are
discarded a hand holds at most one card of each rank, so "does the drawn card make a pair" is
"does the hand hold a card of its rank".  Turn order, dealing and the random draw come from
:mod:`simkit.engines.shedding`.

The kernel is :func:`run_deals`, the core deal loop over :func:`play_deal`.  Metrics: per seat
``pK_lose`` (left holding the odd queen), then ``draws`` (cards drawn in the game).

Move log (:func:`log_columns`): the seat dealt to first, the seat that draws first, the 51 cards in
the order dealt (card ``j`` to seat ``(first + j) % K``), then each draw as one of the house's
events (:mod:`simkit.engines.moves`: ``kind << 20 | seat << 16 | aux << 8 | card``; kind
:data:`EV_DRAW`, seat the drawer, aux the seat drawn from, the card drawn; at most
:data:`MAX_LOG` draws; ``-1`` after the last).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simkit.core.deals import SALT, deal_loop
from simkit.core.records import record, slots
from simkit.core.registry import Metric
from simkit.core.rng import bounded, shuffle_prefix
from simkit.engines.moves import event
from simkit.engines.shedding import (EXTRA, active_count, bit, dealt_to, extra_first,
                                     next_active, random_member)
from simkit.games.old_maid.rules import DRAW_FROM, QUEENS, STARTER

N_CARDS = 51
MAX_LOG = 1000
EV_DRAW = 1                 # the one event kind
ST_LEFT, ST_DEALER, ST_RANDOM = range(len(STARTER))
_LANE = np.uint64(0x0001000100010001)  # bit 0 of each suit's lane: << rank gives the rank's cards

SEAT = ["lose"]
TAIL = ["draws"]
T = slots(TAIL)


def make_deck(rules) -> np.ndarray:
    """The 51 cards in play (core codes): the 52-card deck less the queen set aside."""
    aside = QUEENS.index(rules.set_aside) * 16 + 12
    return np.array([s * 16 + r for s in range(4) for r in range(2, 15) if s * 16 + r != aside],
                    np.uint8)


class Table(NamedTuple):
    players: int
    starter: int        # ST_*
    draw_step: int      # -1: draw from the right-hand neighbour (the previous seat); +1: left
    extra: int          # EXTRA_*


class Work(NamedTuple):
    deck: np.ndarray    # uint8[51]
    stacked: bool
    perm: np.ndarray    # int64[51]
    hand: np.ndarray    # uint64[K]
    size: np.ndarray    # int64[K]


def table(rules) -> Table:
    return record(Table, players=rules.players, starter=STARTER.index(rules.starter),
                  draw_step=-1 if rules.draw_from == "right" else 1,
                  extra=EXTRA.index(rules.extra))


def work(rules, stacked=None) -> Work:
    d = make_deck(rules) if stacked is None else np.asarray(stacked, np.uint8)
    K = rules.players
    return record(Work, deck=d, stacked=stacked is not None, perm=np.arange(d.shape[0]),
                  hand=np.zeros(K, np.uint64), size=np.zeros(K, np.int64))


def metrics(rules) -> list[Metric]:
    out = [Metric(f"p{k + 1}_lose", doc=f"p{k + 1}: left holding the odd queen (loses)",
                  unit="share of games (0..1)") for k in range(rules.players)]
    return out + [Metric("draws", binary=False, doc="cards drawn from neighbours in the game",
                         unit="draws per game")]


def log_columns(rules) -> list[str]:
    return (["first_dealt", "first_drawer"] + [f"dealt_{j}" for j in range(N_CARDS)]
            + [f"draw_{j}" for j in range(MAX_LOG)])


@njit(cache=True, nogil=True, inline="always")
def _receive(hand, size, p, c):
    """Seat ``p`` receives card ``c``: a pair with a card of its rank is discarded."""
    same = (_LANE << np.uint64(c & 15)) & hand[p]
    if same:
        hand[p] &= ~same
        size[p] -= 1
    else:
        hand[p] |= bit(c)
        size[p] += 1


@njit(cache=True, nogil=True)
def play_deal(R, S, W, i, key, ukey, v, log):
    K = R.players
    hand, size, perm, deck = W.hand, W.size, W.perm, W.deck
    n = deck.shape[0]
    s = key
    if not W.stacked:
        for j in range(n):
            perm[j] = j
        s = shuffle_prefix(perm, n, s)
    for p in range(K):
        hand[p] = np.uint64(0)
        size[p] = 0
    first, s = extra_first(R.extra, n, K, 1, s)
    logging = log.shape[0] > 0
    if logging:
        for q in range(log.shape[1]):
            log[i, q] = -1
        log[i, 0] = first
    for j in range(n):
        c = np.int64(deck[perm[j]])
        _receive(hand, size, dealt_to(first, j, K, 1), c)
        if logging:
            log[i, 2 + j] = c
    if R.starter == ST_LEFT:
        t = 0
    elif R.starter == ST_DEALER:
        t = K - 1
    else:
        t, s = bounded(s, K)
    turn = -R.draw_step
    if size[t] == 0:
        t = next_active(t, turn, K, size)
    if logging:
        log[i, 1] = t
    draws = 0
    while active_count(size) > 1:
        victim = next_active(t, R.draw_step, K, size)
        c, s = random_member(hand[victim], s)
        hand[victim] &= ~bit(c)
        size[victim] -= 1
        _receive(hand, size, t, c)
        if logging and draws < log.shape[1] - 2 - n:
            log[i, 2 + n + draws] = event(EV_DRAW, t, victim, c)
        draws += 1
        t = next_active(t, turn, K, size)
    for p in range(K):
        if size[p] > 0:
            v[p] = 1.0
    v[K + T.draws] = draws
    return n


@njit(cache=True, nogil=True)
def run_deals(R, S, W, state, n, acc, rows, log):
    return deal_loop(play_deal, SALT, R, S, W, state, n, acc, rows, log)
