"""Fan-Tan strategies, as data: one kind code per seat.  A player who can play must (unless
``must_play=false``), so a strategy is which legal card it plays (lines 131-134):

* ``random``: a uniformly random legal card (and, with ``must_play=false``, the pass as one more
  choice).
* ``sequence`` (hint a, 132: "first of all a card of a sequence, to prepare the next plays"):
  the card that makes the most of its own cards playable next (a seven its own 6 and 8).
* ``extend`` (hint b, 133: "build towards the other cards of the suit in your hand rather than
  play the last card of a direction"): the card with the most own cards of its suit further
  along its direction.  The default: the strongest of the five in every seat and table size
  measured (p1 plays each kind, the others ``extend``, 100,000 paired deals, seed 1: ``sequence``
  loses 1.35 chips a game more (SE 0.02) at four players, 2.54 at three, 0.91 at six; ``block``
  1.14, ``ends`` 1.58 at four).  ``sequence`` was the default until version 2.
* ``ends`` (hint c, 134: "a card near the king or the ace, to open the fewest plays to the
  opponents"): the card farthest from the seven.
* ``block``: holds back sevens and the 6s and 8s others need: the card that opens the fewest
  cards it does not hold itself (a seven opens two), then the most of its own; with
  ``must_play=false`` it pays a chip rather than open a card to the others, as long as someone
  else has played in the last round (so that no game stalls in passes; random likewise).
Ties go to the lowest card code (clubs first, then rank).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simkit.core.records import seat_arrays
from simkit.core.registry import StrategyKind
from simkit.games.fan_tan.engine import K_BLOCK, K_ENDS, K_EXTEND, K_RANDOM, K_SEQUENCE

STRATEGIES = {
    "random": StrategyKind("random", K_RANDOM, (), "uniformly random legal card"),
    "sequence": StrategyKind("sequence", K_SEQUENCE, (), "hint a: open your own next plays"),
    "extend": StrategyKind("extend", K_EXTEND, (), "hint b: build towards your own cards"),
    "ends": StrategyKind("ends", K_ENDS, (), "hint c: cards near the K or A first"),
    "block": StrategyKind("block", K_BLOCK, (), "hold back sevens and the 6s/8s others need"),
}


class Seats(NamedTuple):
    kind: np.ndarray


def encode(strategies) -> Seats:
    """The house's strategy record (:func:`~simkit.core.records.seat_arrays`)."""
    return seat_arrays(Seats, strategies, STRATEGIES)
