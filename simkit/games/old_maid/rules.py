"""Rules of Old Maid («Ведьма»), from ``shared/rules/002_17c4cc3dde05b547.txt`` lines 111-114.

What the text gives: any number of players and a deck (111-112); one queen is set aside and the
rest dealt; each player discards his pairs ("any two eights, two kings"): pairs by rank (113);
the first player draws a card from a neighbour and discards a pair if it makes one, "and now
they draw from him" (113): the next player draws from the one who just drew; the game goes on
until someone is left with the queen of spades, the witch (114).

Readings chosen where the text is unclear or silent (each an option, the common rule default):

* ``set_aside`` (113-114): line 113 sets the Q♠ aside, line 114 has the Q♠ left as the witch.
  The common reading sets another queen aside (``Qc``, the default) so that the Q♠ can be the
  odd card; ``Qs`` is line 113 read literally.  Pairs go by rank, so three queens stay in play
  either way and whichever of them is left unpaired is the witch: the option changes which
  cards are named in the move log, not the distribution of anything the game reports.
* Seats: ``p1`` sits at the dealer's left, seats go clockwise, the dealer is the last seat.
  ``starter`` (113 names no one): ``left`` (the default: the player at the dealer's left, the
  common start), ``dealer`` or ``random``.
* ``draw_from`` (113: "draws from a neighbour ... and now they draw from him"): ``right`` (the
  default, the common rule: each player draws from his right-hand neighbour, the one who drew
  before him, and the turn goes clockwise) or ``left`` (each draws from his left, the turn goes
  counterclockwise).  A player without cards is out and skipped, as drawer and as neighbour.
* ``extra`` (the text is silent on an uneven deal of 51 cards): ``first`` (the default: cards
  dealt one at a time from the dealer's left, so the first ``51 % players`` seats get one more),
  ``last`` (the dealer and those on his right get them) or ``random`` (the deal starts at a
  random seat).
* The draw is uniformly random among the neighbour's cards: the holder fans them face down and
  the drawer sees nothing, so no choice of his or of the holder's can favour or avoid the queen
  (a "position-aware" drawer would need the holder to place the queen in some way the drawer can
  exploit, which the text does not give; there is none here).
"""
from __future__ import annotations

from dataclasses import dataclass

from simkit.core.rules import Rules, option
from simkit.engines.shedding import EXTRA

QUEENS = ("Qc", "Qd", "Qh", "Qs")
STARTER = ("left", "dealer", "random")
DRAW_FROM = ("right", "left")


@dataclass(frozen=True)
class OldMaidRules(Rules):
    players: int = option(4, range=(2, 8), doc="number of players (the text: any)",
                          source="002:111")
    set_aside: str = option("Qc", choices=QUEENS,
                            doc="the queen set aside (Qs: line 113 literally; Qc: the common "
                                "reading that leaves the Q♠ as the witch of line 114)",
                            source="002:113-114")
    starter: str = option("left", choices=STARTER,
                          doc="who draws first: the dealer's left (p1), the dealer, or random",
                          source="002:113 (silent; the common rule)")
    draw_from: str = option("right", choices=DRAW_FROM,
                            doc="the neighbour each player draws from (right: the turn goes "
                                "clockwise)", source="002:113")
    extra: str = option("first", choices=EXTRA,
                        doc="who gets the extra cards of an uneven deal: the first seats dealt "
                            "to (from the dealer's left), the last ones, or a random block",
                        source="002:113 (silent; dealing from the dealer's left)")
