"""Crazy Eights strategies, as data: a kind code and two numbers per seat (the kernel's record
:class:`~simkit.games.crazy_eights.engine.Seats`).

* ``random``: a uniformly random legal action: one of the playable cards, or the draw when the
  rules let the player draw (``voluntary_draw``, the stock not empty, ``max_draws`` not reached);
  a uniformly random suit with an eight; facing stacked twos, a random two or the draw.
* ``baseline``: the text's hints (118-120), with its eights kept only while the hand is long.  It
  keeps its eights "for a special purpose" and does not play one "merely to avoid drawing" (118):
  when an eight is its only playable card it draws instead, while it holds more than ``eight_at``
  cards and may draw.  Read literally (``eight_at=1``: an eight only to go out) the hint loses:
  against ``eight_at=1`` in the two-player game, ``eight_at=5`` wins 0.701 of deals (SE 0.0014,
  100,000 deals, seed 2; 0.673 at 60, 0.682 at 3 and 7), so the baseline's default is 5 and
  the literal reading is the strategy ``keep_eights`` (the same player with ``eight_at=1``).  Otherwise it plays a
  non-eight, preferring a suit an opponent "could not cover without drawing" (the next player
  drew when that suit was asked, 120), then its longest suit (120), then the card worth most
  points (to be caught with fewer).  With an eight it names a suit by ``call``: 0 the suit it
  holds most of, 1 a suit the next player could not follow (if it holds one), else the longest,
  2 the eight's own suit; the default is 1 (line 120's hint applied to the call, since version 4:
  against the baseline field it gains 0.31 points a deal over 0 (SE 0.020, 200,000 paired
  deals, seed 1, two players; 0.11, SE 0.020, at four players), 2 loses 4.7).  Facing twos it
  passes them on when it can (``twos=stack``).
"""
from __future__ import annotations


from simkit.core.records import seat_arrays
from simkit.core.registry import Param, StrategyKind
from simkit.games.crazy_eights.engine import K_BASELINE, K_RANDOM, Seats

def _params(eight_at):
    return (Param("eight_at", eight_at, (0, 60), "play an eight rather than draw at or below "
                                                 "this many cards held"),
            Param("call", 1, (0, 2), "suit named with an eight: 0 longest, 1 one the next "
                                     "player lacks, 2 the eight's own"))


STRATEGIES = {
    "random": StrategyKind("random", K_RANDOM, (), "uniformly random legal card or draw"),
    "baseline": StrategyKind("baseline", K_BASELINE, _params(5),
                             "the text's hints: keep eights while the hand is long, lead where "
                             "opponents are void or from length"),
    "keep_eights": StrategyKind("keep_eights", K_BASELINE, _params(1),
                                "the text's hints read literally: an eight only to go out "
                                "rather than draw (baseline with eight_at=1)"),
}


def encode(strategies) -> Seats:
    """The house's strategy record (:func:`~simkit.core.records.seat_arrays`)."""
    return seat_arrays(Seats, strategies, STRATEGIES)
