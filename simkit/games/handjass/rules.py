"""Rules of Handjass (Swiss "Potato Jass", also Butzer, Sackjass, Schläger), from
``shared/rules/000_e1e7c8054592a022.txt`` lines 48-179.

The text is a Russian machine translation of pagat.com's Handjass page (John McLeod,
https://www.pagat.com/jass/handjass.html; an English copy of it is stored as
https://gamesitereviews.biz/guides/202401/handjass-swiss-jass/), which was used to repair the
garbled lines: line 74's "Ниже | 2" is the Under (jack), 2 points; line 91's "Шесть | 0" the trump
six; "удар" is a *stroke* (stick), "картофель"/"ноль" a *potato* (Null, Herdöpfel), "Форханд" /
"Ворханд" Forehand, "блайнд" the blind.  Line numbers are the file's own (``grep -n``).

What the text gives and how it is read:

* Cards (lines 67-92): 36 cards; plain suits A K Q J 10 9 8 7 6 worth 11 4 3 2 10 0 0 0 0; trumps
  J 9 A K Q 10 8 7 6 worth 20 14 11 4 3 10 0 0 0; last trick 5: 157 card points a deal when every
  hand is played.  Play is counter-clockwise (line 93): the seats are numbered in the direction
  of play, so seat ``k + 1`` sits at seat ``k``'s right and plays after him; p1 is the first
  deal's Forehand (the dealer's right) and the last seat its dealer.  Nothing else depends on the
  direction, so no engine switch is needed for it.
* Weis (lines 94-111): runs of 3, 4, 5+ in the plain order A K Q J 10 9 8 7 6 (20, 50, 100),
  four A/K/Q/10 (100), four jacks (200), four 9s-6s nothing.  A run is a maximal run (a run of
  eight is one Weis of 100, not 3 + 5).  No card in two combinations (line 104): where a four of a
  kind and a run share a card, the holder chooses how to split them.  Only the player with the
  best single Weis scores, all of his (line 105); best by points, then cards, then the higher top
  card in plain order, then trump, then the player nearest the dealer's right (lines 106-111).
  Each player declares the best single Weis any split of his hand holds (line 130); the winner
  then shows the split with the most points whose best single Weis still wins the comparison
  (four kings and K-Q-J-10-9-8 of hearts against a six-card run to the jack: the run K-8, 100,
  not the kings and Q-8, 200, whose best is five cards).  Declaring is the strategy's choice
  (lines 130-134): an undeclared Weis neither scores nor competes.
* Stöck (lines 112, 133): trump K and Q in one hand, 20, independent of Weis, declared when the
  second is played.  Both are always played, so it counts when the played hand holds both and
  the strategy declares it, or unannounced when both are shown in the player's scored Weis
  (line 133: "it need not be announced if it was already shown as part of the player's
  Weis").
* Four players (lines 113-144): deal in threes, nine each; the dealer's last card (the bottom card,
  deck position 35) shows trumps and stays in his hand; no trump-six exchange (line 116).  From the
  dealer's right, each plays or drops (line 118); once all but one have dropped the last one wins
  the deal's strokes unplayed (two, line 119), even before his turn.  The two players agreeing on a
  stroke each instead of playing (line 139) is not modelled (they play it out, "in case of doubt").
* Play (lines 121-129): the Forehand (or the next active player) leads; follow suit or trump; on a
  trump lead trumps must be followed except that the trump jack is never forced; no undertrumping
  on a plain lead unless the hand is all trumps, and then any trump.  The trick engine's switches
  ``trump_jack_free``, ``undertrump=False`` and ``trump_instead``.
* Scoring (lines 135-143): card points + Weis won + Stöck + last trick.  Below ``potato`` (26) a
  potato (-1), never a stroke too; the two highest of the rest a stroke each; a lone player at 26+
  both strokes; nobody at 26: all potatoes, no stroke.  A tie for a stroke is settled by drawing a
  card (line 140): a uniformly random order among the tied players.  At ``target`` (7) net strokes
  a player is safe and out (line 142); the last player left loses.
* Forehand rotation (line 144): the Forehand moves one seat in the direction of play each deal,
  over the players still in; the dealer is the player before the Forehand.  When the Forehand
  retires, the next player in turn becomes Forehand (so the same dealer deals again).
* Three players (lines 145-157): four hands of nine in threes; the fourth hand is the blind, its
  top card (position 35) turned for trumps.  In turn from the Forehand each plays, drops or (only
  one of them) plays blind: he discards his hand and takes the blind, whose trump card stays on
  the table until the first trick is over (he cannot play it to the first trick); he cannot drop.
  After the choices the holder of the trump six may exchange it for the trump card (``six_exchange``;
  if the blind was taken, its taker gets the six instead).  Cards of the blind, a discarded hand
  and dropped hands are not played and do not count (line 154).  All but one dropped: two strokes.
* Two players (lines 158-162): four hands; the third is the blind, the fourth the dead hand (the
  stock, whose top card, position 35, shows trumps; the six is exchanged for it).  The non-dealer
  chooses first, then the dealer (no blind if it is taken).  One stroke a deal, to the higher
  player if he has 26+; below 26 a potato; one drops: the other one stroke.
* Variants (lines 163-175), each an option: ``potato=21`` (line 164); ``target`` 5 or 9 (165);
  ``dropping=false`` (171: everyone plays; with three and two players twelve cards each in fours,
  no blind, the dealer's last card shows trumps and stays in his hand, no exchange);
  ``extra_per_potato`` (170: an extra stroke per potato, dealt one at a time down the players who
  scored a stroke, from the highest); ``potato_stake`` (172: a potato pays this many small stakes
  to each other active player, metric ``pK_side``); ``berner`` (173: strokes and potatoes times 4
  for hearts trumps, 3 diamonds, 2 clubs, 1 spades; preset ``berner`` with ``target=27``);
  ``strokes=players_minus_one`` (174: three strokes with four players; strokes left over when
  fewer players score go to the highest); ``bessern`` (166-169, three or two players, instead of
  the blind: with three, three hands of nine, the dealer's last card (position 32) shows trumps,
  no six exchange, and each player's Bessern is the three cards at positions ``12j + 9..11``;
  with two, positions 35 shows trumps (the six may be exchanged for it) and a player's Bessern
  is at ``12j + 6..8``, the other eleven cards out of play; in turn from the Forehand each may
  swap exactly three cards for his Bessern, then the play-or-drop turns as usual);
  ``tie=carry`` (175: when two players tie on points and the strokes would part them, both get
  the lower count and the difference is held over to the next deal in which both play, going to
  the one with more points then (a tie again holds it over again); a stroke still held over when
  one of them retires, or at the end of a unit, is lost (``held_over``); a tie of three or more
  is drawn for as usual).
* ``unit``: ``deal`` (one deal of ``players``; its strokes per seat) or ``game`` (a whole game to
  the loser, ``pK_lose`` the headline).  ``max_deals`` (not in the text) ends a game still running
  as ``unfinished``.
"""
from __future__ import annotations

from dataclasses import dataclass

from simkit.core.rules import Rules, option
from simkit.errors import SimkitError

UNITS = ("deal", "game")
STROKES = ("two", "players_minus_one")
TIES = ("draw", "carry")


@dataclass(frozen=True)
class HandjassRules(Rules):
    players: int = option(4, range=(2, 4), doc="players at the start (a game goes on with fewer "
                          "as players retire)", source="000:66,113,145,158")
    unit: str = option("deal", choices=UNITS, doc="deal: one deal; game: a whole game to the "
                       "loser", source="000:63,142")
    target: int = option(7, range=(1, 100), doc="net strokes that make a player safe (7; 5 or 9 "
                         "in the variants, 27 in Berner Handjass)", source="000:63,142,165,173")
    potato: int = option(26, range=(0, 158), doc="points below which a player scores a potato "
                         "(26; 21 in the original version)", source="000:63,138,164")
    dropping: bool = option(True, doc="players may drop out of a deal (false: everyone plays, "
                            "twelve cards each with three or two players)", source="000:117-119,171")
    blind: bool = option(True, doc="with three or two players one may play the blind",
                         source="000:146-152,159-160")
    six_exchange: bool = option(True, doc="with three or two players the trump six may be "
                                "exchanged for the trump card", source="000:116,153,160")
    strokes: str = option("two", choices=STROKES, doc="strokes a deal: two (one with two players), "
                          "or one fewer than the players", source="000:137,161,174")
    extra_per_potato: bool = option(False, doc="an extra stroke for each potato, to the players "
                                    "who score strokes", source="000:170")
    berner: bool = option(False, doc="Berner Handjass: strokes and potatoes times 4/3/2/1 for "
                          "hearts/diamonds/clubs/spades trumps", source="000:173")
    bessern: bool = option(False, doc="with three or two players, Bessern instead of the blind: "
                           "each may swap three cards for three dealt face down", source="000:166-169")
    tie: str = option("draw", choices=TIES, doc="a tie for a stroke: a card drawn decides (draw), "
                      "or the stroke is held over to the next deal both play (carry)",
                      source="000:140,175")
    potato_stake: int = option(0, range=(0, 100), doc="small stakes a potato pays each other "
                               "active player (the pK_side metric)", source="000:172")
    max_deals: int = option(2000, range=(1, 100_000), doc="a game still running after this many "
                            "deals ends unfinished (not in the text)",
                            source="not in the text: a cap so that every game ends")

    def check(self) -> None:
        if self.bessern and not self.dropping:
            raise SimkitError("bessern needs dropping=true (with no dropping there is no "
                              "Bessern, line 171)")
