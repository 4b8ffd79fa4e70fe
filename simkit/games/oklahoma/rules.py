"""Rules of Oklahoma (Q♠ rummy, also Arlington), from ``shared/rules/003_25b072003b534ab4.txt``
lines 85-88, read as ``shared/rules/READINGS-rummy.md`` section 4 says.

What the text gives (file lines): two 52-card decks and one joker, 105 cards; 13 cards each; two
to five players, each for himself; as in canasta a player may take the top discard only to meld
it, and then takes the whole pile; melds are sequences and sets as in ordinary rummy, the ace high
or low in a sequence; a player may add cards to his own melds, never beyond four cards (85).  The
joker and all deuces are wild; a player melding one names the natural card it stands for; he may
later take the joker back by putting that natural card in its place (the joker returns to his
hand); melded deuces stay (86).  The Q♠ may not be discarded unless it is the player's only card;
when play ends each player's melds count plus and his cards in hand minus: any ace 20; Q♠ melded
50, in hand 100; K..8 10; 7..3 5; the joker melded 100, unmelded 200; deuces melded as K..8 10, as
7..3 5, in hand 20 (87).  Going out earns 100; game is 1000, the winner gets 200 more (88).

Readings where the text is silent or unclear (each an option; the default the common published
rule, READINGS-rummy.md section 4):

* ``pile_take`` (85, "take the top discard only to meld it"): ``new_meld`` (the default, pagat and
  the wikia page: the top card and at least two cards from hand form a new meld at once) or
  ``layoff`` (laying the top card off on one's own meld also counts).
* Melds hold three or four cards (85, "never beyond four"; wikia: "a meld cannot hold five or
  more cards"); sets may repeat a card (two decks); a sequence is one suit, the ace high
  (Q-K-A) or low (A-2-3) but not round the corner (K-A-2).
* ``min_natural`` (86 is silent): a meld holds at least this many natural cards (1, the default;
  0 allows all-wild melds).  A deuce is always wild (it may stand for a 2).
* The value of a melded deuce that stands for an ace is not in line 87: 10 when the ace is high
  (in a set of aces or at the top of a sequence), 5 when it is low (A-2-3); one standing for a
  deuce counts 5 (a "lower card").
* Going out (88): a player whose hand is empty after melding, or after his discard, goes out
  (``final_discard``, the default; ``false``: he must meld every card, no final discard).
* ``stock_end`` (the text is silent): ``end`` (the default): a player who must draw from an empty
  stock and cannot take the pile ends the hand, scored as it stands; ``reshuffle``: the pile but
  its top card is shuffled into a new stock (once; the second time the hand ends).
* ``next_dealer`` (``unit=game``; pokerwiner's book copy): ``winner`` (the player who went out
  deals the next hand, the default) or ``rotate``.  Play goes to the dealer's left: the seat after
  the dealer plays first; in ``unit=hand`` the last seat deals.
* ``max_turns``: a safety stop (the hand ends as it stands), not a rule.
"""
from __future__ import annotations

from dataclasses import dataclass

from simkit.core.rules import Rules, option

PILE_TAKE = ("new_meld", "layoff")
STOCK_END = ("end", "reshuffle")
NEXT_DEALER = ("winner", "rotate")
UNIT = ("hand", "game")


@dataclass(frozen=True)
class OklahomaRules(Rules):
    players: int = option(2, range=(2, 5), doc="number of players, each for himself",
                          source="003:85")
    pile_take: str = option("new_meld", choices=PILE_TAKE,
                            doc="what taking the pile needs: the top card in a new meld with at "
                                "least two hand cards, or also laid off on one's own meld",
                            source="003:85; READINGS-rummy.md 4 (pagat, wikia)")
    min_natural: int = option(1, range=(0, 3), doc="natural cards a meld must hold (0: all-wild "
                              "melds allowed)", source="003:86 (silent); READINGS-rummy.md 4")
    final_discard: bool = option(True, doc="a player may go out by discarding his last card "
                                 "(false: only by melding it)", source="003:88; "
                                 "READINGS-rummy.md 4")
    stock_end: str = option("end", choices=STOCK_END,
                            doc="an empty stock ends the hand as it stands, or the pile is "
                                "reshuffled into a new stock once",
                            source="003 silent; READINGS-rummy.md 4")
    going_out: int = option(100, range=(0, 1000), doc="bonus for going out", source="003:88")
    target: int = option(1000, range=(50, 100000), doc="points that end the game (unit=game)",
                         source="003:88")
    game_bonus: int = option(200, range=(0, 10000), doc="bonus to the game's winner",
                             source="003:88")
    next_dealer: str = option("winner", choices=NEXT_DEALER,
                              doc="who deals the next hand of a game: the one who went out, or "
                                  "the next seat", source="003 silent; pokerwiner (book copy)")
    unit: str = option("hand", choices=UNIT, doc="one simulated deal: a hand, or a whole game to "
                       "target", source="simulation setting, not a rule")
    max_turns: int = option(400, range=(20, 5000), doc="a hand still going after this many turns "
                            "ends as it stands (a safety stop)", source="not in the text")
    max_hands: int = option(200, range=(1, 10000), doc="a game unfinished after this many hands "
                            "stops, won by the highest total", source="not in the text")
