"""Gin rummy strategies as data: every kind is a parameter vector for one kernel policy.

* ``random(take, knock)``: takes the discard with probability ``take``, discards a random legal
  card, knocks with probability ``knock`` whenever it may (laying down its best ten).
* ``simple``: takes the upcard or discard when that lowers its deadwood (the card joins a meld
  or replaces a worse one), discards the card that leaves least deadwood (ties: the highest),
  knocks as soon as it may.
* ``threshold(knock, greedy)``: ``simple`` that knocks only at deadwood ``<= knock`` (0: gin
  only).  ``greedy=0`` takes from the pile only a card that joins a meld or lets it knock at
  once (the text's advice, line 43, and open-spiel's simple bot); ``greedy=1`` (``simple``) also
  takes a low card to replace a higher unmatched one.
* ``schedule(early, late)``: the knock threshold moves linearly from ``early`` with a full stock
  to ``late`` when the stock is down to the dead-hand size.
* ``tracker(knock, slack)``: keeps track of the discards and of the cards the opponent took from
  the pile; among discards within ``slack`` of its least deadwood it throws the "deadest" card,
  the one the opponent is least likely to use (text, lines 43-48: few live sets and runs for it
  among the unseen cards, no card the opponent picked up of its rank or next to it in its suit).
* ``careful(knock, picks, guard)``: undercut-aware knocking: once the opponent has taken
  ``picks`` cards from the pile this hand (his melds are filling), it knocks only at deadwood
  ``<= guard`` (text, line 45: "knock at once, except when an undercut is feared").
"""
from __future__ import annotations

import numpy as np

from simkit.core.registry import Param, StrategyKind

KIND, EARLY, LATE, SLACK, TRACK, PICKS, GUARD, P_TAKE, P_KNOCK, GREEDY = range(10)
NPAR = 10
RANDOM, RULE = 0, 1

STRATEGIES = {
    "random": StrategyKind("random", 0, (Param("take", 0.5, (0.0, 1.0), "chance to take the discard"),
                                         Param("knock", 0.5, (0.0, 1.0), "chance to knock when allowed")),
                           "random legal play"),
    "simple": StrategyKind("simple", 1, (), "take to lower deadwood, discard the highest "
                           "unmatched card, knock at once"),
    "threshold": StrategyKind("threshold", 2, (Param("knock", 10, (0, 10), "knock at deadwood <= knock"),
                                               Param("greedy", 1, (0, 1), "1: take any card that lowers deadwood, 0: only melding or knocking cards")),
                              "simple, knocking only at deadwood <= knock (0: gin only)"),
    "schedule": StrategyKind("schedule", 3, (Param("early", 10, (0, 10), "threshold, full stock"),
                                             Param("late", 0, (0, 10), "threshold, last stock card")),
                             "knock threshold moving with the cards left in the stock"),
    "tracker": StrategyKind("tracker", 4, (Param("knock", 10, (0, 10), "knock at deadwood <= knock"),
                                           Param("slack", 2, (0, 20), "deadwood it gives up for a dead discard")),
                            "tracks discards and pickups, discards dead cards first"),
    "careful": StrategyKind("careful", 5, (Param("knock", 10, (0, 10), "knock at deadwood <= knock"),
                                           Param("picks", 2, (1, 20), "opponent's pile takes that signal danger"),
                                           Param("guard", 3, (0, 10), "knock limit once in danger")),
                            "waits when the opponent's pickups suggest an undercut"),
}


def vector(strategy) -> np.ndarray:
    """The kernel's ``float64[NPAR]`` for one strategy."""
    v = strategy.values
    p = np.zeros(NPAR)
    p[KIND] = RULE
    p[EARLY] = p[LATE] = 10
    p[GREEDY] = v.get("greedy", 1)
    k = strategy.kind
    if k == "random":
        p[KIND], p[P_TAKE], p[P_KNOCK] = RANDOM, v["take"], v["knock"]
    elif k in ("threshold", "tracker", "careful"):
        p[EARLY] = p[LATE] = v["knock"]
    elif k == "schedule":
        p[EARLY], p[LATE] = v["early"], v["late"]
    if k == "tracker":
        p[TRACK], p[SLACK] = 1, v["slack"]
    if k == "careful":
        p[PICKS], p[GUARD] = v["picks"], v["guard"]
    return p


def encode(strategies) -> np.ndarray:
    return np.stack([vector(s) for s in strategies])
