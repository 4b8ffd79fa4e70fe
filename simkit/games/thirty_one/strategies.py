"""Thirty-one strategies, as data: per-seat parameter arrays (a sweep never recompiles).

* ``random``: every decision uniform over the legal moves.  The dealer keeps or refuses his first
  three with probability 1/2; a table turn is one of 11 moves (knock, or pass after a knock; one
  of 9 single exchanges; exchange all three), a draw turn one of 9 (knock; stock or turned card
  times the card to discard), the knock left out after someone knocked.
* ``baseline``: what a player of the game does.  First, a 31 one move away is always taken (a
  single exchange, else exchanging all three; in the draw variant the turned card), never
  knocked away.  Knock when the hand is worth at least the threshold: ``knock_first`` on one's
  first turn (knocking at once after the deal), ``knock`` + ``per_round`` x (rounds since one's
  second turn) from then on, plus ``per_seat`` x one's place in the turn order (0: the first to
  play) and ``per_life`` x the lives already lost (whole games).  Otherwise take the exchange
  that raises the hand most, on ties the one whose second suit is best ("keep a suit"); exchange
  all three when the table is worth at least the best single exchange + ``swap_all``.  Line 67's
  hint ("do not let a player take too strong a hand"): an exchange that would leave the table
  worth at least ``feed`` is passed over for the best one that does not (the next player could
  take the table whole; exchanging all three leaves one's old hand there).  After a knock: the
  best of keeping, one exchange or all three.  The dealer refuses his first three when they are
  worth less than ``refuse``.  In the draw variant: knock as above (never on a 31, which is laid
  down after the draw, nor when the turned card makes 31); take the turned card when it raises
  the hand, else the stock's top; discard for the best three (``swap_all``, ``feed`` and
  ``refuse`` have no use there).

  The thresholds depend on the players at the table (``na``, fewer as players go out in a
  whole game): ``knock``, ``knock_first``, ``swap_all`` and ``feed`` are for a table of four,
  and ``knock_more``, ``first_more``, ``swap_more``, ``feed_more`` x (na - 4) are added.  The
  defaults of version 4 (knock 24 + 0.5 a player: 23 at two, 25 at six; knock_first 25 - 1 a
  player: 27 at two, 23 at six; swap_all 7; feed 27; refuse 17) come from rounds of
  one-parameter paired sweeps at 2, 3, 4 and 6 players (100,000 deals each, seeds 1-7).  The
  version 3 defaults (knock 25, knock_first 28, swap_all 0, refuse 20, no feed) lost a life in
  more deals at every table size: ``swap_all=5`` alone lost 2.8, 2.9, 2.2 and 1.6 points fewer
  at 2, 3, 4 and 6 players (SE 0.05-0.06, seed 1).  Against the final field (seed 7) no single
  step of any of these parameters does better by 3 SE at three and four players; at two, knock
  22 (``knock_more=1``) loses a life in 0.03 points fewer deals (SE 0.007); at six, the feed
  hint costs 0.12 points (``feed=40``, SE 0.02; there the next player is one rival of five),
  ``swap_all=6`` gains 0.04 and knock 24 0.03: the defaults are tuned at two to four players.
"""
from __future__ import annotations


from simkit.core.records import seat_arrays
from simkit.core.registry import Param, StrategyKind
from simkit.games.thirty_one.engine import K_BASELINE, K_RANDOM, Seats

PARAMS = (
    Param("knock", 24.0, (0.0, 32.0), "knock with a hand worth at least this, four at the table "
                                      "(32: never)"),
    Param("knock_first", 25.0, (0.0, 32.0), "... on one's first turn, right after the deal"),
    Param("per_round", 0.0, (-10.0, 10.0),
          "added to the threshold per round after one's second turn"),
    Param("per_seat", 0.0, (-10.0, 10.0), "added per place after the first to play"),
    Param("per_life", 0.0, (-10.0, 10.0), "added per life already lost (unit=game)"),
    Param("swap_all", 7.0, (-31.0, 31.0), "swap all three when the table is worth at least the "
                                           "best single exchange + this"),
    Param("refuse", 17.0, (0.0, 32.0), "the dealer refuses a first three worth less than this"),
    Param("knock_more", 0.5, (-10.0, 10.0), "added to knock per player at the table beyond four "
                                             "(subtracted per player fewer)"),
    Param("first_more", -1.0, (-10.0, 10.0), "added to knock_first per player beyond four"),
    Param("swap_more", 0.0, (-10.0, 10.0), "added to swap_all per player beyond four"),
    Param("feed", 27.0, (0.0, 40.0), "pass over exchanges that leave a table worth at least "
                                     "this (line 67; 32 or more: never)"),
    Param("feed_more", 0.0, (-10.0, 10.0), "added to feed per player beyond four"),
)

STRATEGIES = {
    "random": StrategyKind("random", K_RANDOM, (), "uniformly random legal moves"),
    "baseline": StrategyKind("baseline", K_BASELINE, PARAMS,
                             "best exchange keeping a suit, knock at a threshold"),
}


def encode(strategies) -> Seats:
    """The house's strategy record (:func:`~simkit.core.records.seat_arrays`): a random seat
    carries the parameters' defaults."""
    return seat_arrays(Seats, strategies, STRATEGIES)
