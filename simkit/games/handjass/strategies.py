"""Handjass strategies, as data: one :class:`engine.Seats` record of per-seat arrays
(:func:`simkit.core.records.seat_arrays`), by game seat.

* ``random(p, b, d)``: at its turn to play or drop it takes the blind (when offered) with
  probability ``b``, else plays with probability ``p``; each optional act (the trump six's
  exchange, declaring Weis, declaring Stöck, swapping three random cards for the Bessern) it takes
  with probability ``d`` (Stöck shown in its scored Weis counts all the same, line 133); it plays
  a uniformly random legal card.
* ``baseline(play, step, blind, weis)``: the hand's strength (:func:`engine.hand_strength`: card
  points with trumps at trump value, +10 per trump, + its Weis, +20 for Stöck; a nine-card hand
  averages about 72) decides: it plays when the strength reaches ``play + step * turn`` (turn 0
  for the Forehand, 1 for the next player...; + ``play_more`` at a table of four), else it takes the blind when offered and the
  strength is below ``blind``, else drops.  It declares its Weis when the best one is worth at
  least ``weis`` (0: always; 201: never), always exchanges the trump six and declares Stöck;
  with Bessern it swaps its three cheapest cards (plain before trumps, fewest points) when its
  strength is below ``besser``.  Playing to the table and the score (default 0: neither):
  ``dropped`` is added to the threshold per player who dropped before his turn (negative: play
  lighter as the field thins), ``behind`` per net stroke by which the best other player still in
  leads him in a whole game (negative: take more risks when behind).
  Play, as a Jass player would: lead the top trump while others may hold trumps (draw trumps
  from strength), else a plain card nobody can beat in its suit (the most points first), else
  its cheapest card; following, win with its highest-point plain card that nobody can beat (any
  winner when last to play), ruff or overtrump with its cheapest sure trump when the trick is
  worth 10 or more (the trump jack takes such tricks), else throw its cheapest card (plain
  before trumps, fewest points).  With ``keep_jack=1`` (the default since version 4) the trump
  jack, which nothing beats and no rule forces out, is kept for the last trick while another
  card may be played (line 164: the holder of the jack can always make the last trick); it
  gains 0.031-0.043 strokes a deal over ``keep_jack=0`` at four, three and two players (SE
  0.0013-0.0016, 40,000 paired deals, seeds 2 and 4).  ``play_more`` is added to ``play`` at a
  table of four, where there is no blind to take: with the jack kept the Forehand's best
  threshold is about 59 there (59 gains 0.0077 strokes over 55, SE 0.0011, 40,000 deals, seed
  3) and 55 at two and three players (59 loses 0.005 and 0.01), so ``play=55``,
  ``play_more=4``.
"""
from __future__ import annotations

from simkit.core.records import seat_arrays
from simkit.core.registry import Param, StrategyKind
from simkit.games.handjass.engine import K_BASELINE, K_RANDOM, Seats

STRATEGIES = {
    "random": StrategyKind("random", K_RANDOM, (
        Param("p", 0.5, (0.0, 1.0), "chance to play at the play-or-drop turn"),
        Param("b", 0.2, (0.0, 1.0), "chance to take the blind when offered"),
        Param("d", 0.5, (0.0, 1.0), "chance to take each optional act (exchange, declare)")),
        "random play-or-drop, random legal cards"),
    "baseline": StrategyKind("baseline", K_BASELINE, (
        Param("play", 55, (0, 400), "strength at which the Forehand plays"),
        Param("step", 0, (-100, 100), "added to the threshold per later turn to decide"),
        Param("blind", 55, (0, 400), "below this strength (and not playing) take the blind"),
        Param("weis", 0, (0, 201), "declare Weis when the best single one is worth this"),
        Param("besser", 55, (0, 400), "Bessern: below this strength swap the three cheapest"),
        Param("dropped", 0, (-1000, 1000),
              "added to the threshold per player who dropped before"),
        Param("behind", 0, (-1000, 1000), "added to the threshold per net stroke the best other "
              "player leads by (unit=game)"),
        Param("keep_jack", 1, (0, 1), "1: hold the trump jack for the last trick (line 164)"),
        Param("play_more", 4, (-100, 100), "added to play at a table of four (no blind to take)")),
        "plays by hand strength and turn, draws trumps, wins with sure cards"),
}


def encode(strategies) -> Seats:
    """The kernel's strategies (a seat whose kind lacks a parameter holds its default, which the
    kernel does not read)."""
    return seat_arrays(Seats, strategies, STRATEGIES)
