"""Klaberjass strategies, as data: one :class:`engine.Seats` record of per-seat arrays (the kind
codes and the parameters), read by the kernel into a scalar :class:`engine.Seat` per seat.

* ``random(p, d)``: every bidding turn it bids with probability ``p`` (in round two on a uniformly
  random other suit); every optional act (the trump-seven exchange, declaring its runs, declaring
  bella) it takes with probability ``d``; it plays a uniformly random legal card and never says
  "Партия!".
* ``heuristic(t1, t2, declare, claim, margin)``: bids in round one when the hand's strength for the
  upcard's suit reaches ``t1``, in round two on its strongest other suit when that reaches ``t2``.
  Strength (:func:`engine.strength_of`, six cards at the bid): card points with trumps at trump
  value, +10 per trump, + the runs' value (terz 20, fifty 50), +20 for bella; in round one a holder
  of the trump seven counts the upcard in its place.  It always exchanges the trump seven,
  declares everything it holds when ``declare`` is 1, and says "Партия!" in a long game when its
  sure points (score + card points taken this deal + counted combinations) plus ``margin`` reach
  the target and ``claim`` is 1 (``margin`` 0: only sure claims).  Play: it leads the highest-point
  card the opponent cannot beat (judged from the cards it has not seen: its own, the played ones,
  the upcard or exchanged seven and the bottom card are excluded; against an open hand, from that
  hand exactly when ``sight`` is 1), else its cheapest card (plain suits first); second to play it
  wins in suit with its highest-point winner, ruffs with its cheapest trump when void, else
  throws its cheapest card.

A six-card hand's strength averages 46 for the upcard's suit (median 44, 10%-90%: 22-70) and 64
for the best other suit (median 61, 44-86) on random deals, so ``t1``/``t2`` sweep usefully over
roughly 30..100.  The defaults (60, 50) are about the best response to themselves in the short
game (a 3 x 3 grid around them, 400,000 deals each).  ``sight`` is off by default: leading by the
sight of the open hand, as this simple rule does it, *lowers* the sighted player's chance of
winning a game to 501 (p1 open, no bonus: p1 wins 0.549 against sight=1, 0.501 against sight=0,
SE 0.0016, 100,000 games each).
"""
from __future__ import annotations

from simkit.core.records import seat_arrays
from simkit.core.registry import Param, StrategyKind
from simkit.games.klaberjass.engine import K_HEURISTIC, K_RANDOM, Seats

STRATEGIES = {
    "random": StrategyKind("random", K_RANDOM, (
        Param("p", 0.5, (0.0, 1.0), "chance to bid at each bidding turn"),
        Param("d", 0.5, (0.0, 1.0), "chance to take each optional act (exchange, declare)")),
        "random bids with probability p, random legal cards"),
    "heuristic": StrategyKind("heuristic", K_HEURISTIC, (
        Param("t1", 60, (0, 300), "round-one threshold: bid the upcard's suit at this strength"),
        Param("t2", 50, (0, 300), "round-two threshold: bid the best other suit at this strength"),
        Param("declare", 1, (0, 1), "1: declare every combination held; 0: never"),
        Param("claim", 1, (0, 1), "1: say 'Партия!' when sure points + margin reach the target"),
        Param("margin", 0, (0, 300), "claim this many points early (0: only sure claims)"),
        Param("sight", 0, (0, 1), "1: lead by the sight of an open hand; 0: ignore it")),
        "bids by hand strength per round, declares, simple trick-taking play"),
}


def encode(strategies) -> Seats:
    """The kernel's strategies: the house's record of per-seat arrays (:class:`engine.Seats`,
    :func:`simkit.core.records.seat_arrays`; a parameter the seat's kind lacks holds its default,
    which that kind never reads)."""
    return seat_arrays(Seats, strategies, STRATEGIES)
