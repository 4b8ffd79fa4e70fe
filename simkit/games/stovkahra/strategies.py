"""Stovkahra strategies, as data: one :class:`engine.Seats` record of per-seat arrays (the
kernel reads each seat's into a scalar :class:`engine.Seat` once per unit).

* ``random(d)``: a uniformly random legal card; declares each hand's combinations, says "dost"
  (only when it would be right) and takes brčka from the others each with probability ``d``.
* ``baseline(lead_trumps, save_last, save_first, declare, claim, margin, subtract_at)``: what a
  player of the game would recognise.  Leading: trumps (its highest) when it holds at least
  ``lead_trumps`` of them; else the most valuable plain card that is the highest left of its
  suit (judged from the cards played and its own); else its cheapest card.  Following (the rules
  force a higher card whenever it has one, line 217): last to play and able to win, it banks its
  most valuable winner; forced over its partner, its least winner; against the opponents, the
  strongest plain winner, else the lowest trump that wins; unable to win, it smears its most
  valuable card when the partner is winning and throws its cheapest otherwise.
  ``save_last``: never plays the trump seven before the last trick while it has another legal
  card (the 26 for the last trick won with a seven, line 213).  ``save_first``: at the first
  trick, plays the trump seven when it is legal and heads the trick (the 52, line 213, the
  notes' "trump with the seven of trumps").  ``declare``: declares every combination (lines
  203-211; undeclared ones do not count).  ``claim``: says "dost" when its side's points +
  ``margin`` reach the target (``margin`` 0: only when sure; the side's points are public, every
  trick being seen).  ``subtract_at``: after a won game in a series, takes the brčka from the
  others' instead of adding them to its own when the others hold at least this many (default
  never).  A side's game result uses the winning side's first seat's choice (p1 or p2).
"""
from __future__ import annotations

from simkit.core.records import seat_arrays
from simkit.core.registry import Param, StrategyKind
from simkit.games.stovkahra.engine import K_BASELINE, K_RANDOM, Seats

STRATEGIES = {
    "random": StrategyKind("random", K_RANDOM, (
        Param("d", 0.5, (0.0, 1.0), "chance to declare, to say dost when right, to subtract"),),
        "random legal cards, coin-flip declarations and claims"),
    "baseline": StrategyKind("baseline", K_BASELINE, (
        Param("lead_trumps", 3, (0, 9), "lead trumps when holding at least this many (9: never)"),
        Param("save_last", 1, (0, 1), "1: keep the trump seven for the last trick"),
        Param("save_first", 1, (0, 1), "1: trump the first trick with the trump seven"),
        Param("declare", 1, (0, 1), "1: declare every combination; 0: none"),
        Param("claim", 1, (0, 1), "1: say dost when side points + margin reach the target"),
        Param("margin", 0, (-100, 100), "claim this many points early (0: only sure claims)"),
        Param("subtract_at", 100, (1, 100),
              "series: take brčka from the others when they hold at least this many")),
        "trumps from strength, sure winners, smears to the partner, keeps the trump seven"),
}


def encode(strategies) -> Seats:
    """The kernel's strategies: the house's record of per-seat arrays (:class:`engine.Seats`,
    :func:`simkit.core.records.seat_arrays`; a parameter the seat's kind lacks holds its default,
    which that kind never reads)."""
    return seat_arrays(Seats, strategies, STRATEGIES)
