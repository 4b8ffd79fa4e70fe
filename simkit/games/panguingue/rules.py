"""Rules of Panguingue ("Pan"), from ``shared/rules/003_25b072003b534ab4.txt`` lines 89-104,
read as ``shared/rules/READINGS-rummy.md`` section 5 says (5.2: the default rule set; 5.3: the
garbled points and their options).

What the text gives (file lines): a descendant of conquian, the number of players lost (89);
Spanish packs of 40 cards (A, 2-7, J, Q, K), the seven followed by the jack, aces low; at least
eight packs shuffled together (90); the pack split into a head and a foot (91); ten cards each,
dealt in fives, play to the right, the rest of the head the stock and its top card turned up to
start the discard pile (92); each player in turn from the eldest stays or goes out "on top",
paying a forfeit placed on the foot (93); a turn draws the top stock card or the top discard and
discards one; a drawn card never stays in the hand: it is melded at once (94); melds are sets of
three of a rank or ropes of three in suit sequence; new melds hold exactly three cards; a player
adds to his own melds only (95); any three aces or any three kings make a set and take any later
card of the rank; other sets are three of one suit (then only that card is added) or of different
suits; a rope extends to K at the top or A at the bottom (96); conditions are paid at once by
every active player (97): valle (3, 5, 7) sets of different suits 1 chip, of one suit 4 in
spades and 2 otherwise; A-2-3 and K-Q-J ropes of a suit 2 in spades and 1 otherwise (98); splits
and borrows where each part stays a legal meld, conditions made by them pay, every card added to
a condition pays it again (99); the first player with exactly eleven cards melded wins; a player
with all ten melded draws and discards until a drawn card melds; a discard that fits the next
player's melds must be taken and melded by him on any other player's demand (100); the winner
collects his conditions again, one chip from each active player and the forfeits (101).
Lines 102-104 (misdeals, illegal melds) are not simulated.

Readings (each an option where the text allows two; defaults READINGS-rummy.md 5.2-5.3):

* ``discard_take`` (94 is garbled): ``meld_any`` (the default: the top discard is taken only to
  meld it at once, laid off on an own meld or in a new meld with two hand cards, and a stock card
  is melded at once or discarded) or ``layoff_only`` (the top discard only to add to an own meld).
* ``conditions`` (98): ``text`` (the three rows of the text) or ``published`` (the fourth row of
  the published tables: a one-suit set of a non-valle rank 2, 4, 6, J, Q pays 2 in spades, 1
  otherwise; sets of aces and kings take any suits and never pay).
* ``mixed_add`` (96 silent): a card added to a set of different suits may be of ``any`` suit (the
  default) or only of a ``new_suit``.
* ``rope_extended_pays`` (99 silent): a rope that is not a condition and is extended into A-2-3 or
  J-Q-K becomes one and pays (default no).
* ``again`` (101): the winner collects ``collected`` (everything his conditions took, additions
  included: the default) or ``base`` (each condition meld's value once) again from each active
  player.
* ``winner_per_player`` (101: 1; published 2), ``forfeit`` (93: amount not given; 2 after
  denexa).
* ``stock_end`` (silent): a player who must draw from an empty stock and cannot take the discard
  ends the deal with no winner: ``refund`` (the default: the forfeits go back to those who paid
  them, conditions stand) or ``void`` (every payment of the deal is returned).  The cards of
  those who went on top go under the foot (93) and are out of play; the stock is the rest of the
  pack.
* If every player before the last went on top, the last one stays and wins the forfeits without
  play (the text does not say; a deal needs someone to play it).
* Split and borrow (99): a meld of six cards or more may be split in two, and a card of a meld
  of four or more borrowed into a new three-card meld, where every part stays a legal meld (a
  set of three or more: aces and kings any suits, others one suit or three suits or more; a
  rope of three or more).  "Conditions made by a split or borrow pay" is read: a part continues
  the condition of the meld it came from while its cards still make it (the part kept first);
  any other part whose cards make a condition (a rope from the ace or to the king, a valle or
  published set) is made then and pays, like a new meld [inferred].  The baseline's ``borrow``
  parameter uses them; ``random`` does not (its move sets hold new three-card melds and
  additions only).
* ``unit=session`` plays ``deals`` deals with the chips carried (summed); the winner of a deal
  is eldest in the next (``next_eldest=winner``, pokerwiner), after a deal with no winner, or
  with ``rotate``, the next seat to the right.  Seats keep their places: the deal's order starts
  from the eldest (who also decides first whether to go on top).
* ``max_turns``: a safety stop (the deal ends as with an empty stock), not a rule.
"""
from __future__ import annotations

from dataclasses import dataclass

from simkit.core.rules import Rules, option

DISCARD_TAKE = ("meld_any", "layoff_only")
CONDITIONS = ("text", "published")
MIXED_ADD = ("any", "new_suit")
AGAIN = ("collected", "base")
STOCK_END = ("refund", "void")
PACKS = (5, 6, 8, 11)
UNIT = ("deal", "session")
NEXT_ELDEST = ("winner", "rotate")


@dataclass(frozen=True)
class PanguingueRules(Rules):
    players: int = option(6, range=(2, 10), doc="number of players, each for himself",
                          source="003:89 (number lost); READINGS-rummy.md 5.2 (pokerwiner: six "
                                 "to eight best)")
    packs: int = option(8, choices=PACKS, doc="Spanish 40-card packs shuffled together",
                        source="003:90; READINGS-rummy.md 5.2 (5, 6 or 11 in some places)")
    spades_removed: bool = option(False, doc="one set of spades (ten cards) taken out of the pack",
                                  source="READINGS-rummy.md 5.2 (Wikipedia)")
    forfeit: int = option(2, range=(0, 10), doc="chips a player pays to go on top (drop out), "
                          "taken by the winner", source="003:93, 101 (amount not given: denexa 2)")
    winner_per_player: int = option(1, range=(0, 10), doc="chips the winner takes from each "
                                    "active player", source="003:101 (published: 2)")
    discard_take: str = option("meld_any", choices=DISCARD_TAKE,
                               doc="the top discard is taken to meld it at once in a new meld or "
                                   "on an own meld, or only to add it to an own meld",
                               source="003:94 (garbled); READINGS-rummy.md 5.3")
    conditions: str = option("text", choices=CONDITIONS,
                             doc="the conditions table: the text's three rows, or the published "
                                 "four (one-suit sets of 2, 4, 6, J, Q pay 2 in spades, 1 else)",
                             source="003:97-98; READINGS-rummy.md 5.3 (pokerrule-online)")
    mixed_add: str = option("any", choices=MIXED_ADD,
                            doc="a card added to a set of different suits: any suit, or only a "
                                "suit the set lacks", source="003:96 (silent); READINGS-rummy.md 5.2")
    rope_extended_pays: bool = option(False, doc="a rope extended into A-2-3 or J-Q-K becomes a "
                                      "condition and pays", source="003:99 (silent); "
                                      "READINGS-rummy.md 5.2")
    again: str = option("collected", choices=AGAIN,
                        doc="what the winner collects again for his conditions: everything they "
                            "took, or each condition's value once", source="003:101; "
                            "READINGS-rummy.md 5.2")
    stock_end: str = option("refund", choices=STOCK_END,
                            doc="a deal whose stock runs out has no winner: the forfeits are "
                                "returned, or every payment is", source="003 silent; "
                                "READINGS-rummy.md 5.2")
    unit: str = option("deal", choices=UNIT, doc="one simulated unit: a deal, or a session of "
                       "'deals' deals with the chips carried", source="simulation setting, not "
                       "a rule")
    deals: int = option(10, range=(1, 1000), doc="deals in a session (unit=session)",
                        source="simulation setting, not a rule")
    next_eldest: str = option("winner", choices=NEXT_ELDEST,
                              doc="who is eldest in a session's next deal: the last winner, or "
                                  "the next seat", source="READINGS-rummy.md 5.2 (pokerwiner: "
                                  "the winner becomes eldest)")
    max_turns: int = option(2000, range=(20, 20000), doc="a deal still going after this many "
                            "turns ends as with an empty stock (a safety stop)",
                            source="not in the text")
