"""Rules of gin rummy, from ``shared/rules/003_25b072003b534ab4.txt`` (``grep -n`` lines).

The text (lines 4-19, a 1992 encyclopedia) is the default, preset ``ru1992``.  What it says:
two players, 52 cards, king high and ace low, pictures 10, aces 1 (line 6); ten cards each dealt
one at a time, the next card face up beside the stock (line 7); the winner of a hand deals the
next (line 8); the non-dealer may take the upcard, else the dealer may, else the non-dealer
draws from the stock (line 9); a player may knock after drawing and before discarding when his
deadwood is at most 10 (line 10); the defender lays off on the knocker's melds unless the
knocker went gin (line 11); the knocker scores the difference (line 12), gin scores 25 plus the
defender's deadwood (line 13), a defender with equal or less deadwood scores the difference plus
25 for the undercut, and gin cannot be undercut (line 14); the first to 100 wins the game and 100
more, and each hand won adds a "box" of 25 (line 15); a shutout doubles the winner's score with
the game bonus, the boxes not doubled without agreement (line 16); with two cards left in the
stock and no knock the hand is a draw, the last discard may not be taken, and the same dealer
deals again (line 17).  Lines 20-33 work a seven-hand game through to 293 against 50.

Readings chosen where the text is silent (each an option):

* ``discard_taken``: whether the card just taken from the discard pile may be thrown straight
  back.  The text does not say; most rule books forbid it, so the default is ``False``.
* ``unit``: what one simulated deal is.  ``hand``: one hand, the dealer's seat fixed, and with
  ``swap`` the same cards played a second time with the strategies' seats exchanged (each
  strategy holds each hand once, as dealer and as non-dealer).  ``match``: a whole game to
  ``target``; with ``swap``, a second game on the same sequence of deals with the seats
  exchanged.  Per-hand quantities are then reported per hand (ratios over the games' hands).
  The first dealer of a game is drawn at random (line 8, "players draw for the first deal").
* ``max_hands``: a game that has not ended after this many hands (two random players rarely
  knock) stops and is counted in ``unfinished``, won by neither.
* ``max_turns``: a hand that has not ended after this many turns is a draw (counted in
  ``dead``).  Only players who take the discard nearly every turn get there (``random(1, 0)``
  against itself never draws from the stock and would play forever); 200 turns is far beyond
  any hand of the other strategies (the stock allows at most 31 draws).
* Oklahoma, big gin and the penalties of lines 34-41 are not modelled: honest simulated players
  never hold a wrong number of cards or knock illegally.
"""
from __future__ import annotations

from dataclasses import dataclass

from simkit.core.rules import Rules, option


@dataclass(frozen=True)
class GinRules(Rules):
    knock_limit: int = option(10, range=(0, 10), doc="most deadwood a player may knock with",
                              source="003:10")
    gin_bonus: int = option(25, range=(0, 100), doc="gin bonus on top of the defender's deadwood",
                            source="003:13")
    undercut_bonus: int = option(25, range=(0, 100), doc="bonus to a defender who undercuts",
                                 source="003:14")
    undercut_on_equal: bool = option(True, doc="equal deadwood is an undercut (text: 'равное или "
                                     "меньшее')", source="003:14")
    dead_stock: int = option(2, range=(0, 10), doc="the hand is a draw when this many stock "
                             "cards are left", source="003:17")
    discard_taken: bool = option(False, doc="the card just taken from the discard pile may be "
                                 "discarded at once (text silent)",
                                 source="not in the text; most rule books forbid it")
    max_turns: int = option(200, range=(10, 1000), doc="a hand still going after this many "
                            "turns is a draw (a safety stop; the move log holds this many)",
                            source="not in the text: players who keep taking the discard never "
                            "run the stock down")
    unit: str = option("hand", choices=("hand", "match"), doc="one simulated deal: a hand or a "
                       "whole game to target", source="simulation setting, not a rule")
    swap: bool = option(True, doc="play each deal twice with the strategies' seats exchanged",
                        source="simulation setting, not a rule")
    target: int = option(100, range=(1, 10000), doc="points that win the game", source="003:15")
    game_bonus: int = option(100, range=(0, 1000), doc="bonus for winning the game",
                             source="003:15")
    box_bonus: int = option(25, range=(0, 100), doc="'box' per hand won, added at the end",
                            source="003:15")
    shutout: bool = option(True, doc="a shutout doubles the winner's points and game bonus",
                           source="003:16")
    shutout_boxes: bool = option(False, doc="a shutout doubles the boxes too (by agreement)",
                                 source="003:16")
    max_hands: int = option(500, range=(1, 100000), doc="a game unfinished after this many "
                            "hands stops, won by neither", source="not in the text: a safety "
                            "stop for players who rarely knock")
