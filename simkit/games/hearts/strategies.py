"""Hearts strategies, as data: a kind code and one number (the moon threshold) per seat
(the kernel's record :class:`~simkit.games.hearts.engine.Seats`).

* ``random``: a uniformly random legal card (and uniformly random cards to pass).
* ``heuristic`` (the default): passes the Q♠ and the A♠/K♠ unless four lower spades guard them,
  then hearts from the jack up, then the top of the shortest minor suit (to make a void), but
  never the Omnibus 10♦ and, with two players, not its top heart from the queen up (the heart it
  will stop the lone opponent's moon with); leads low from its shortest safe suit (a low spade
  to smoke out the queen when it holds no high spade, never the 10♦ low); follows with the
  highest card that ducks the trick, drops the Q♠ on a higher spade, and when it must win takes
  it as last player with its top card, otherwise plays low; when void it dumps the Q♠, then
  A♠/K♠ while the queen is out, then its highest heart, then the top of its shortest suit, the
  10♦ last of all.
  It defends against a moon early: once one player alone has taken moon cards (five of them,
  counting those held over and those in the trick; with two players a single one), it beats him
  when he is winning a trick that costs at most three points (any trick once he has eight),
  leads a heart sure to win (a point taken stops him), feeds him no point card and, forced to,
  its lowest heart.  With two players it also insures itself until it has taken a moon card:
  it takes a trick holding a heart when it can (at most three points), keeps its hearts when
  void, and leads a heart sure to win.  Omnibus (228): it takes the 10♦ when that is safe (as
  last player, or with a card sure to win, the trick worth less than nothing) and leads the 10♦
  when sure to win it.
  Cancellation (229): it pairs a played Q♠ when it can and the trick keeps a winner (not itself:
  its queen is cancelled), giving that winner "a crushing 26"; it reads the trick with equal cards cancelled
  (:func:`simkit.engines.tricks.cancel_winner`): who is winning it, and what it must stay under.
* ``moon(threshold)``: when the hand's high-card points (A 4, K 3, Q 2, J 1, both decks counted)
  reach ``threshold`` it tries to shoot the moon: passes its lowest cards, plays its top card to
  win every trick and discards low non-point cards, until another player takes a point card;
  otherwise, and after that, it plays ``heuristic``.  The pass decision uses the dealt hand, the
  play decision the hand after the pass.
"""
from __future__ import annotations

from simkit.core.records import seat_arrays
from simkit.core.registry import Param, StrategyKind
from simkit.games.hearts.engine import K_HEURISTIC, K_MOON, K_RANDOM, Seats

STRATEGIES = {
    "random": StrategyKind("random", K_RANDOM, (), "uniformly random legal card and pass"),
    "heuristic": StrategyKind("heuristic", K_HEURISTIC, (),
                              "pass high spades and hearts, duck, make voids, dump points, "
                              "stop moons"),
    "moon": StrategyKind("moon", K_MOON,
                         (Param("threshold", 22, (0, 84), "high-card points to try the moon"),),
                         "shoot the moon when the hand is strong enough, else heuristic"),
}


def encode(strategies) -> Seats:
    """The seats' strategies as the kernel's record: kind codes and moon thresholds."""
    return seat_arrays(Seats, strategies, STRATEGIES)
