"""Gin rummy strategies as data: the seats' kinds and parameters reach the kernel as one
:class:`Seats` record of per-seat arrays (the house's form), read into a scalar :class:`Policy`
per seat once per hand.

* ``random(take, knock)``: takes the discard with probability ``take``, discards a random legal
  card, knocks with probability ``knock`` whenever it may (laying down its best ten).
* ``simple``: takes the upcard or discard when that lowers its deadwood (the card joins a meld
  or replaces a worse one), discards the card that leaves least deadwood (ties: the highest),
  knocks as soon as it may.
* ``threshold(knock, greedy, block)``: knocks only at deadwood ``<= knock`` (0: gin only),
  discards like ``simple``.  ``greedy=0`` (the default) takes from the pile only a card that
  joins a meld or lets it knock at once (the text's advice, line 44, and open-spiel's simple
  bot); ``greedy=1`` (``simple``) also takes a low card to replace a higher unmatched one.
  ``threshold(10)`` is the game's default player: it beats ``threshold(10, greedy=1)`` (that
  is, ``simple``) by +0.90 +- 0.02 points per hand and wins 55.9% +- 0.3% of games to 100
  (``scripts/gin_baseline.py``).
* ``schedule(early, late)``: the knock threshold moves linearly from ``early`` with a full stock
  to ``late`` when the stock is down to the dead-hand size.
* ``tracker(knock, slack)``: keeps track of the discards and of the cards the opponent took from
  the pile; among discards within ``slack`` of its least deadwood it throws the "deadest" card,
  the one the opponent is least likely to use (text, line 47: few live sets and runs for it
  among the unseen cards, no card the opponent picked up of its rank or next to it in its suit).
* ``careful(knock, picks, guard)``: undercut-aware knocking: once the opponent has taken
  ``picks`` cards from the pile this hand (his melds are filling), it knocks only at deadwood
  ``<= guard`` (text, line 46: "knock at once, except when an undercut is feared").

``block`` (``threshold``, ``schedule``, ``tracker``, ``careful``): how the knocker lays down his
cards.  ``block=0``: a minimum-deadwood arrangement (among several, the one leaving the defender
most).  ``block=1``: any arrangement whose deadwood is within the rules' ``knock_limit``, the one
that scores most for the knocker after the defender's best layoffs; keeping a card out of a meld
can block layoffs (line 11 lets the defender lay off only on the melds laid down).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simkit.core.records import seat_arrays
from simkit.core.registry import Param, StrategyKind

RANDOM = 0   # the random kind's StrategyKind code, which the kernel branches on (Seats.kind)


class Seats(NamedTuple):
    """The seats' strategies as the kernel reads them: the house's record of per-seat arrays
    (:func:`simkit.core.records.seat_arrays`; p1's entry first).  ``take``, ``slack``,
    ``guard`` and ``block`` are the kinds' parameters (a seat whose kind lacks one holds the
    default, which its kind never reads); the others are derived by :func:`seats`."""
    kind: np.ndarray     # StrategyKind codes (RANDOM: random legal play)
    early: np.ndarray    # float: knock threshold with a full stock
    late: np.ndarray     # float: knock threshold when the stock is down to dead_stock
    greedy: np.ndarray   # bool: take any pile card that lowers deadwood (else: melding or knocking)
    track: np.ndarray    # bool: discard the deadest card within `slack` of the least deadwood
    slack: np.ndarray
    picks: np.ndarray    # opponent's pile takes after which it knocks only at <= guard (0: never)
    guard: np.ndarray
    take: np.ndarray     # random: chance to take the discard
    chance: np.ndarray   # random: chance to knock when allowed (its parameter ``knock``)
    block: np.ndarray    # lay down the arrangement that scores most after layoffs


class Policy(NamedTuple):
    """One seat's strategy as the per-move helpers read it: scalars (passed by value, no
    reference counts), taken off :class:`Seats` once per hand by ``engine.policy``."""
    kind: int
    early: float
    late: float
    greedy: bool
    track: bool
    slack: int
    picks: int
    guard: int
    take: float
    chance: float
    block: int



BLOCK = Param("block", 0, (0, 1), "1: lay down the arrangement (deadwood within the knock limit) "
              "that scores most after the defender's layoffs, 0: a least-deadwood one")

STRATEGIES = {
    "random": StrategyKind("random", 0, (Param("take", 0.5, (0.0, 1.0), "chance to take the discard"),
                                         Param("knock", 0.5, (0.0, 1.0), "chance to knock when allowed")),
                           "random legal play"),
    "simple": StrategyKind("simple", 1, (), "take to lower deadwood, discard the highest "
                           "unmatched card, knock at once"),
    "threshold": StrategyKind("threshold", 2, (Param("knock", 10, (0, 10), "knock at deadwood <= knock"),
                                               Param("greedy", 0, (0, 1), "0: take from the pile only melding or knocking cards (line 44), 1: any card that lowers deadwood"),
                                               BLOCK),
                              "simple, knocking only at deadwood <= knock (0: gin only)"),
    "schedule": StrategyKind("schedule", 3, (Param("early", 10, (0, 10), "threshold, full stock"),
                                             Param("late", 0, (0, 10), "threshold, last stock card"),
                                             BLOCK),
                             "knock threshold moving with the cards left in the stock"),
    "tracker": StrategyKind("tracker", 4, (Param("knock", 10, (0, 10), "knock at deadwood <= knock"),
                                           Param("slack", 2, (0, 20), "deadwood it gives up for a dead discard"),
                                           BLOCK),
                            "tracks discards and pickups, discards dead cards first"),
    "careful": StrategyKind("careful", 5, (Param("knock", 10, (0, 10), "knock at deadwood <= knock"),
                                           Param("picks", 2, (1, 20), "opponent's pile takes that signal danger"),
                                           Param("guard", 3, (0, 10), "knock limit once in danger"),
                                           BLOCK),
                            "waits when the opponent's pickups suggest an undercut"),
}


def seats(strategies) -> Seats:
    """The kernel's :class:`Seats` for the strategies (p1's first)."""
    early, late, greedy, picks, chance = [], [], [], [], []
    for st in strategies:
        v, k = st.values, st.kind
        e = t = 10
        if k in ("threshold", "tracker", "careful"):
            e = t = v["knock"]
        elif k == "schedule":
            e, t = v["early"], v["late"]
        early.append(e)
        late.append(t)
        greedy.append(v.get("greedy", 1))
        picks.append(v.get("picks", 0))
        chance.append(v["knock"] if k == "random" else 0.0)
    return seat_arrays(Seats, strategies, STRATEGIES, early=np.array(early, np.float64),
                       late=np.array(late, np.float64), greedy=np.array(greedy, np.bool_),
                       track=np.array([st.kind == "tracker" for st in strategies], np.bool_),
                       picks=np.array(picks, np.int64), chance=np.array(chance, np.float64))
