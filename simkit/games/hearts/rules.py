"""Rules of Hearts («Червы»), from ``shared/rules/002_17c4cc3dde05b547.txt`` lines 210-234.

What the text gives (``grep -n`` line numbers): four players and 52 cards, aces high; the game
ends when someone reaches 100 and the lowest total wins (214); 13 cards each (218); the holder of
the 2♣ leads it, players follow suit, the highest card of the led suit wins, the winner leads
next; on the first trick a player void in clubs may play neither a heart nor the Q♠ (220);
hearts 1 point each, Q♠ 13, and a player who takes all the hearts and the Q♠ "shoots the moon":
0 for him, 26 for each other player (222); three cards passed left, right, across, then no pass,
in a cycle of four hands (226); two players (227), Omnibus (228), Cancellation Hearts for 5-11
players (229-232).

Readings chosen where the text is unclear or silent (each one an option or stated here):

* ``hearts_broken`` (text silent): the common rule that hearts may not be led until a heart has
  been played, unless the leader holds only hearts; on by default.  ``qs_breaks_hearts``: whether
  the Q♠ also breaks hearts (off by default, as in pagat's standard rules; open-spiel has it on).
* First trick (220): a player void in clubs may not play a heart or the Q♠ unless he holds
  nothing else (the usual exception); with ``no_points_first_trick=false`` he may.  The Omnibus
  10♦ is not restricted.
* ``moon`` (222, 228): ``add`` (the text: the shooter gets 0, every other player the points in
  play, 26), ``subtract`` (the shooter gets minus those points, the others 0), ``best`` (228: "the
  shooter decides"; in a game he takes whichever leaves him better placed: a win if either choice
  ends the game in his favour, else the larger lead over the best opponent, ``add`` on a tie; in a
  single hand this is ``add``) or ``off``.  With Omnibus the shooter must also take the 10♦, and
  its -10 still counts for him: ``add`` gives him -10 and the others +26, ``subtract`` gives him
  -36, the text's number (228).
* Passing (226): ``passing=cycle`` uses left, right, across, none by hand number (in
  ``unit=hand`` by the deal's index in its chunk, chunks being multiples of four deals; in
  ``unit=game`` by the hand's number in the game).  Left is the next player clockwise (the next
  to play), right the previous one, across ``players // 2`` places on (with two players every
  direction means the opponent; with an odd count "across" is ``players // 2`` to the left).
  ``random`` draws the direction of each hand uniformly from the four (open-spiel's chance node).
* Two players (227): 3s, 5s, 7s, 9s, jacks and kings removed leaves 28 cards; 13 each are dealt
  and the last two are set aside unseen.  Since the 2♣ may be among them, the lowest club dealt
  leads.  Points are those of the cards in play; the moon needs all the hearts and the Q♠ dealt.
* Cancellation (229-232) with ``players`` 5-11: two decks; the deal table of line 231 (the counts
  force the reading of the garbled removals: 6 players remove one 2♣ and one 2♦; 8 add a joker
  and remove one 2♣; 9 and 11 remove one 2♣, both 2♦ and both 2♠; 10 remove one 2♣, both 2♦ and
  one 2♠).  The joker is the zero of clubs (232) and counts nothing.  The lowest club dealt (the
  joker or the remaining 2♣) leads.  Equal cards in a trick cancel (neither can win) but their
  points count.  ``holdover=two_pairs`` (the text): a trick holding two cancelled pairs is held
  over, its cards going to the winner of the next trick; a trick in which no card of the led suit
  survives is held over too (the text names no winner for it); ``holdover=no_winner`` holds a
  trick over only in that second case.  After a held-over trick its leader leads again.  Cards
  still held over after the last trick go to nobody (their points are lost and there is no moon).
  The moon gives the others the points in play (52 with two decks).
* ``unit``: ``hand`` makes each deal of a run one hand (per-hand metrics: points, zero-point
  hands, moons); ``game`` makes each deal one whole game to ``target`` (game-win rate per seat,
  final scores, hands per game).  A game is the independent unit whose win rate has an honest
  error bar; hands inside it would not be (the pass cycle and the scores tie them together).
  A game stops after 1000 hands if no one has reached the target (never seen in practice).
"""
from __future__ import annotations

from dataclasses import dataclass

from simkit.core.rules import Rules, option
from simkit.errors import SimkitError

# each option's choices, and the codes the kernel compares against (named, in the same order)
PASSING = ("cycle", "left", "right", "across", "none", "random")
PASS_CYCLE, PASS_LEFT, PASS_RIGHT, PASS_ACROSS, PASS_NONE, PASS_RANDOM = range(len(PASSING))
MOON = ("add", "subtract", "best", "off")
MOON_ADD, MOON_SUBTRACT, MOON_BEST, MOON_OFF = range(len(MOON))
HOLDOVER = ("two_pairs", "no_winner")
HOLD_TWO_PAIRS, HOLD_NO_WINNER = range(len(HOLDOVER))
UNIT = ("hand", "game")


@dataclass(frozen=True)
class HeartsRules(Rules):
    players: int = option(4, range=(2, 11),
                          doc="4 (standard), 2 (short deck) or 5-11 (Cancellation, two decks)",
                          source="002:214,227,229-231")
    omnibus: bool = option(False, doc="the 10♦ counts -10 and the moon needs it too",
                           source="002:228")
    passing: str = option("cycle", choices=PASSING,
                          doc="pass direction: cycle left/right/across/none, a fixed one, or random",
                          source="002:226")
    pass_cards: int = option(3, range=(0, 8), doc="cards passed (0: no passing)", source="002:226")
    no_points_first_trick: bool = option(True, doc="no heart or Q♠ on the first trick unless "
                                                   "the hand holds nothing else", source="002:220")
    hearts_broken: bool = option(True, doc="hearts may not be led until one has been played "
                                           "(text silent; the common rule)", source="002:220")
    qs_breaks_hearts: bool = option(False, doc="playing the Q♠ also breaks hearts",
                                    source="002:220")
    moon: str = option("add", choices=MOON,
                       doc="shooting the moon: others +26 (add), shooter -26 (subtract), "
                           "shooter's choice (best), or no moon (off)", source="002:222,228")
    holdover: str = option("two_pairs", choices=HOLDOVER,
                           doc="Cancellation: a trick of two cancelled pairs (or with no winner) "
                               "goes to the next trick's winner", source="002:229")
    unit: str = option("hand", choices=UNIT,
                       doc="what one deal of a run is: one hand, or one game to target",
                       source="002:214")
    target: int = option(100, range=(1, 10_000), doc="the game ends when a total reaches this",
                         source="002:214")

    def check(self) -> None:
        if self.players == 3:
            raise SimkitError("players=3 is not in the text: use 4, 2 (two-player deck) or 5-11 "
                              "(Cancellation)")
        if self.pass_cards * 1 >= self.hand_size:
            raise SimkitError(f"pass_cards={self.pass_cards} is out of range: allowed 0.."
                              f"{self.hand_size - 1} with {self.players} players")

    @property
    def cancellation(self) -> bool:
        return self.players >= 5

    @property
    def hand_size(self) -> int:
        return {2: 13, 4: 13, 5: 21, 6: 17, 7: 15, 8: 13, 9: 11, 10: 10, 11: 9}[self.players]
