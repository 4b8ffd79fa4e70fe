"""Punter strategies for «31» with a bank, as data (a kind code and its parameters).

* ``stand_at(t, soft)``: buy a card while the best total is below ``t`` on a hard hand (every
  ace counted 1) and below ``soft`` on a soft one (an ace counted 11: the next card cannot take
  it over 31, line 91 lets the ace fall back to 1).  The defaults are the exact best pair
  against the default banker from a fresh pack (``simkit exact thirty_one_bank``).
* ``count(q, soft)``: the count-aware punter: on a hard hand he buys while the chance that the
  next card takes him over 31 is below ``q``, that chance read from the cards he has not seen
  (the pack less the talia's finished rounds, whose cards were shown at the showdown, line 94,
  and less his own hand).  From a fresh pack this is a threshold (the chance rises with the
  total); deeper in a talia his threshold follows the pack.  Soft hands as ``stand_at``.
* ``random(p)``: buy with probability ``p`` at every chance while the hand is not over 31.
"""
from __future__ import annotations

import numpy as np

from simkit.core.records import seat_arrays
from simkit.core.registry import Param, StrategyKind
from simkit.games.thirty_one_bank.engine import K_COUNT, K_RANDOM, K_STAND, Policies

BEST_T, BEST_SOFT = 25, 28  # the exact best stand_at from a fresh pack (default banker)
BEST_Q = 0.46               # count's exact best q from a fresh pack (default banker)

STRATEGIES = {
    "stand_at": StrategyKind(
        "stand_at", K_STAND,
        (Param("t", BEST_T, (2, 32), "buy while a hard best total is below t"),
         Param("soft", BEST_SOFT, (2, 32), "buy while a soft best total is below soft")),
        "buy while the best total is below a threshold (hard / soft)"),
    "count": StrategyKind(
        "count", K_COUNT,
        (Param("q", BEST_Q, (0.0, 1.0), "buy a hard hand while P(next card busts) < q"),
         Param("soft", BEST_SOFT, (2, 32), "buy while a soft best total is below soft")),
        "count-aware: buy while the unseen cards make a bust less likely than q"),
    "random": StrategyKind("random", K_RANDOM, (Param("p", 0.5, (0.0, 1.0), "chance to buy"),),
                           "buy with probability p at every chance (random legal)"),
}


def encode(strategies) -> Policies:
    """The punters' record (:func:`simkit.core.records.seat_arrays`): their kinds and parameters
    per seat, and what :func:`~simkit.games.thirty_one_bank.engine.run_deals` derives from them
    (whether some punter counts, whether all stand at thresholds, the thresholds packed six bits
    a punter for the fast round)."""
    kinds = [STRATEGIES[s.kind].code for s in strategies]
    hard = soft = 0
    for k, s in enumerate(strategies):
        v = s.values
        hard |= int(np.ceil(v.get("t", 0))) << (6 * k)   # b < t iff b < ceil(t)
        soft |= int(np.ceil(v.get("soft", 0))) << (6 * k)
    return seat_arrays(Policies, strategies, STRATEGIES, counting=K_COUNT in kinds,
                       thresholds=all(c == K_STAND for c in kinds), hard_bits=hard,
                       soft_bits=soft)
