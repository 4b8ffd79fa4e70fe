"""Oklahoma strategies as data: a kind code and a few numbers per seat (the kernel's record
:class:`~simkit.games.oklahoma.engine.Seats`).

* ``random``: a uniformly random legal move at each decision: the stock or (when legal) the
  pile, then one of the pile's legal melds; then, until it stops, a uniformly random choice among
  every new meld it can lay down, every single-card layoff on its own melds, every joker it can
  take back, and stopping; then a uniformly random legal discard (one of the physical cards
  held, the Q♠ only when it is the last card).
* ``baseline``: a rummy player's play.  It takes the pile when that is legal, the pile holds at
  least ``pile_min`` cards, and its hand after the take is worth at least ``pile_gain`` more
  than before (worth = its least-deadwood arrangement's melded values minus the in-hand values
  of the rest, line 87).  It lays down its least-deadwood arrangement at once (``hold=0``) or
  only when that lets it go out (``hold=1``, the rummy player's "go out in one turn" that gives
  the others nothing to read; the Q♠ is melded at once anyway with ``qs=1``, since it costs 100
  in hand and earns 50 melded), lays off natural cards on its own melds (a wild only when that
  empties its hand), takes the joker back when it holds the card the joker stands for
  (``joker=1``; line 86), and discards the card that is worth least to keep: its in-hand value
  less ``keep`` for each card it connects with (a card of its rank, or of its suit one or two
  ranks away), never a wild while another card will do, and with ``feed`` > 0 it pays
  ``feed`` points per card in the pile to throw a card the next player is not known to be safe
  against (a rank the next player has not discarded this hand), since a discard that fits the
  next player's hand hands him the whole pile (line 85).
"""
from __future__ import annotations


from simkit.core.records import seat_arrays
from simkit.core.registry import Param, StrategyKind

K_RANDOM, K_BASELINE = 0, 1

PARAMS = (
    Param("pile_min", 1, (1, 60), "take the pile only when it holds at least this many cards"),
    Param("pile_gain", 0, (-100, 200), "take the pile only when the hand's worth rises by at "
                                       "least this much"),
    Param("hold", 0, (0, 1), "1: keep melds in hand until they let it go out; 0: meld at once"),
    Param("qs", 1, (0, 1), "1: meld the Q♠ as soon as it can, even when holding"),
    Param("joker", 1, (0, 1), "1: take the joker back when holding the card it stands for"),
    Param("keep", 4, (0, 30), "points a discard candidate is spared for each card it connects "
                              "with"),
    Param("feed", 0, (0, 20), "points per pile card paid to throw a card the next player is not "
                              "known to be safe against"),
)

STRATEGIES = {
    "random": StrategyKind("random", K_RANDOM, (), "uniformly random legal moves"),
    "baseline": StrategyKind("baseline", K_BASELINE, PARAMS,
                             "melds at once, takes the pile when it pays, discards the least "
                             "useful card, keeps the Q♠ out of its hand"),
}


def encode(strategies, seats_cls):
    """The house's strategy record (:func:`~simkit.core.records.seat_arrays`), p1's first."""
    return seat_arrays(seats_cls, strategies, STRATEGIES)
