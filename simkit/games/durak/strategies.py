"""Durak strategies, as data: one :class:`engine.Seats` record of per-seat arrays
(:func:`simkit.core.records.seat_arrays`).

* ``random``: every decision uniform over its legal options: the attacking card; beat with any
  beating card or take (each option equally likely); throw in any matching card or stop.  With
  ``subsets=1``, the throw-ins onto a take are a uniformly random subset of the matching cards
  (of at most the room left), as the peer ``durakgame``'s ``MrRandom`` chooses them.
* ``baseline``: what a club player does.  Attack with the cheapest card (the lowest non-trump
  rank, a trump only when nothing else is left; ``attack_low``) and, once the stock is at or below
  ``double`` cards, with the lowest rank held twice first ("double attacks near the end").  Beat
  with the cheapest card that beats (``beat_low``).  Trumps are spent (beats, throw-ins) only while
  the stock holds at most ``trump_stock`` cards, and then no trump above ``max_trump``; with an
  empty stock anything goes.  Take rather than beat while the stock is not empty when the cheapest
  beat costs more than ``take_cost`` + the cards on the table (cost: rank - 6, +9 for a trump).
  Throw in the cheapest matching card, at most ``throw_max`` per bout, non-trumps up to rank
  ``throw_rank`` while the stock is not empty (no trump then), any non-trump and trumps up to rank
  ``late_trump`` once it is empty.  The defaults throw in everything they may (``throw_rank=14``,
  ``late_trump=14``), measured against the baseline field (100,000 paired games, seed 1, the
  loser share of p1): ``throw_rank`` 11 (the default until version 6) loses 2.3 points more
  (SE 0.17), 12 1.0, 13 1.8; holding trumps back once the stock is empty loses more
  (``late_trump`` 11: +3.7, SE 0.07; 8: +5.4; 5, no trump: +5.9).  Then, one parameter at a
  time (100,000 paired games, seed 3), ``trump_stock`` 8 (was 12: -1.7 points, SE 0.14),
  ``max_trump`` 13 (was 12) and ``take_cost`` 14 (was 12) together lose 2.2 points less (SE
  0.14); against that field no single step of any parameter beats the default by 1 SE (seed 4:
  ``trump_stock`` 6/10 +0.45/+0.67, ``take_cost`` 12 +0.28, ``double`` -1 +1.4).  ``exact`` N > 0:
  once the stock is empty and the two hands (and the table) hold at most N cards, play the exact
  endgame (:func:`simkit.games.durak.engine.solve`: minimax with memoisation over the two known
  hands); above N the baseline plays.  ``memory`` R > 0 (card memory): the cards the opponent
  was seen to pick up on a take and has not played since are known; attack first with the lowest
  non-trump of rank at most R that none of those known cards could beat in its suit (else as
  above).  The solver's cost grows fast with the cards in play
  (measured, one core, a fresh table per position: 1 ms at 6 cards, 2.4 ms at 8, 40 ms at 10,
  over 20 s at 12), so the ``exact`` kind solves from 8 cards down.

Each heuristic has an "off" value at the end of its range (the ablation of the notebook):
``attack_low=0`` (random attack), ``beat_low=0`` (random beat), ``trump_stock=24`` with
``max_trump=14`` (spend trumps freely), ``take_cost=17`` (never take by choice), ``double=-1``;
throwing in everything (``throw_max=6``, ``throw_rank=14``, ``late_trump=14``) is the default.
"""
from __future__ import annotations

from simkit.core.records import seat_arrays
from simkit.core.registry import Param, StrategyKind
from simkit.games.durak.engine import K_BASELINE, K_RANDOM, Seats

EXACT_CARDS = 8   # the exact kind's default: cards in play (hands and table) it solves

BASE_PARAMS = (
    Param("trump_stock", 8, (0, 24), "spend no trump while the stock holds more cards than this"),
    Param("max_trump", 13, (6, 14), "highest trump rank spent while the stock is not empty"),
    Param("throw_max", 6, (0, 6), "throw-ins per bout at most"),
    Param("throw_rank", 14, (6, 14), "highest non-trump rank thrown in while the stock lasts"),
    Param("late_trump", 14, (5, 14), "highest trump rank thrown in once the stock is empty "
                                     "(5: none, 14: any)"),
    Param("take_cost", 14, (0, 17), "take when the cheapest beat costs more than this + table"),
    Param("attack_low", 1, (0, 1), "1: attack with the cheapest card; 0: a random card"),
    Param("beat_low", 1, (0, 1), "1: beat with the cheapest beating card; 0: a random one"),
    Param("double", 0, (-1, 24), "lead a rank held twice once the stock is at most this (-1 off)"),
    Param("exact", 0, (0, 16), "exact endgame once the stock is empty and at most this many "
                               "cards are in play (0: never)"),
    Param("memory", 0, (0, 14), "lead a non-trump up to this rank that no card seen picked up "
                                "by the opponent beats (0: off)"),
)

STRATEGIES = {
    "random": StrategyKind("random", K_RANDOM, (
        Param("subsets", 0, (0, 1), "1: onto a take, throw a uniformly random subset (the "
                                    "peer durakgame's bots); 0: one uniform choice at a time"),),
        "uniformly random legal moves (take and stop included)"),
    "baseline": StrategyKind("baseline", K_BASELINE, BASE_PARAMS,
                             "cheapest attack and beat, cheap throw-ins, saves trumps early"),
    "exact": StrategyKind("exact", K_BASELINE, tuple(
        Param(p.name, EXACT_CARDS if p.name == "exact" else p.default, p.range, p.doc) for p in BASE_PARAMS),
        "the baseline until the stock is empty, then the exact endgame"),
}


def encode(strategies) -> Seats:
    """The kernel's strategies (a random seat holds the baseline's defaults, which it never
    reads, and ``subsets``; a baseline or exact seat ``subsets=0``)."""
    return seat_arrays(Seats, strategies, STRATEGIES)
