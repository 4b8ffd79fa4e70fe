"""Panguingue strategies as data: a kind code and a few numbers per seat (the kernel's record
:class:`~simkit.games.panguingue.engine.Seats`).

* ``random``: a uniformly random legal move at each decision: stay or go on top; each other
  player demands a forced take with probability one half; the stock or (when legal) the top
  discard; one of the ways to meld the card drawn (with the stock card's "discard it"); then,
  until it stops, one of every new three-card meld from hand, every addition of a hand card to an
  own meld, every borrow (a card of an own meld that stays legal, with two hand cards; with the
  card drawn and one, when melding it) and every split (line 99: each part legal), and
  stopping; then a uniformly random card of the hand to discard.
* ``baseline``: a Pan player's play.  It goes on top when its hand's quality (each card counts
  its connections, at most two: another copy, a card of its rank in another suit, a neighbour or
  the card two away in its suit) is below ``top`` plus ``top_seat`` times its seat's distance
  from the eldest over the table's size (late seats play after the others and go on top more
  often).  It always takes the top discard when it melds, melds a drawn card whenever it can,
  and melds from hand at once, conditions first (the chips are paid now), the meld or addition
  that pays most, then one that uses most hand cards.  It discards the card least worth keeping:
  connections (``pair`` for a copy of the same card, 2 for each other suit of its rank or
  neighbour, 1 for a card two away), ``valle`` more for a 3, 5 or 7 (the condition cards), and
  ``feed`` more when the next active player could add it to his melds (he takes it, line 100).
  It demands the forced take of the next player when that player's hand holds at least one and
  at most ``demand`` cards (0: never) and the addition pays him no condition (line 100: the rule
  is there to break the pairs a player waits on).  With ``borrow`` 1 it also uses line 99's
  split and borrow: a card borrowed from its own meld of four or more (the meld stays legal
  and its condition unchanged) into a new meld with two hand cards or with the card drawn and
  one, ranked among the other melds by chips, then hand cards used (after a new meld from hand,
  before an addition); and it splits a meld whenever that makes a condition (which pays).
  ``borrow=1`` is the default: against ``borrow=0`` at six
  players (one seat changed, the others unchanged, paired on the same deals, 20,000 deals a seat
  over the six seats) it gains 0.80 chips a deal (SE 0.014) in a field of ``borrow=0`` and
  ``borrow=0`` loses 0.74 (SE 0.013) in a field of ``borrow=1``.
  The go-on-top defaults (``top=14``, ``top_seat=0``: the same threshold at every seat) were
  measured: the earlier ``top=12, top_seat=2`` loses 0.046, 0.072, 0.065, 0.030, 0.033 chips a
  deal at p1-p5 (SE 0.008-0.011; equal at p6) in a field of the new default, and no step of
  ``top`` (13, 15, 16) or ``top_seat`` (+-2) beats the new one at p1, p3 or p6 (the best,
  ``top=15`` at p6, +0.007 SE 0.012; six players, paired, 100,000 deals, seed 2027).
"""
from __future__ import annotations


from simkit.core.records import seat_arrays
from simkit.core.registry import Param, StrategyKind

K_RANDOM, K_BASELINE = 0, 1

PARAMS = (
    Param("top", 14, (0, 30), "go on top when the hand's quality (0..20) is below this "
                             "(at the eldest's seat)"),
    Param("top_seat", 0, (-20, 20), "added to the go-on-top threshold at the last seat "
                                    "(in proportion for the seats between)"),
    Param("demand", 10, (0, 10), "demand the next player's forced take when his hand holds at "
                                 "most this many cards (0: never)"),
    Param("pair", 3, (0, 20), "keep value of a second copy of the same card"),
    Param("valle", 1, (0, 20), "keep value added to a 3, 5 or 7"),
    Param("feed", 4, (0, 30), "keep value added to a card the next player could add to his "
                              "melds"),
    Param("borrow", 1, (0, 1), "split and borrow (line 99): 1 borrows a card from an own meld "
                               "to complete a new meld, and splits a meld when that makes a "
                               "condition; 0 never"),
)

STRATEGIES = {
    "random": StrategyKind("random", K_RANDOM, (), "uniformly random legal moves (borrows and "
                                                     "splits included)"),
    "baseline": StrategyKind("baseline", K_BASELINE, PARAMS,
                             "goes on top with a weak hand, melds at once (conditions first), "
                             "keeps valle cards, breaks the least useful pair, demands forced "
                             "takes"),
}


def encode(strategies, seats_cls):
    """The house's strategy record (:func:`~simkit.core.records.seat_arrays`), p1's first."""
    return seat_arrays(seats_cls, strategies, STRATEGIES)
