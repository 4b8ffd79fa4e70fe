"""Rules of Stovkahra (Brčko), the last living Trappola game, from
``shared/rules/000_e1e7c8054592a022.txt`` lines 180-222.

Line numbers are the file's own (``grep -n``).  The file is a Russian translation of John
McLeod's page http://www.pagat.com/trappola/stovkahra.html (itself after Tomáš Svoboda's
research, The Playing-Card, Sept./Oct. 1997); its card table (lines 189-201) is garbled.  The
table is reconstructed from that page and from David Parlett's description in The Penguin Book of
Card Games ("Ace King Over (svršek) Under (spodek) 10 9 8 7 / 6 5 4 3 0 0 0 0"), both found with
the search tool: ranks A K O U 10 9 8 7, worth A 6, K 5, O 4, U 3, the rest 0 (lines 189-192
keep A 6, K 5, 4 and "spodek" 3, lines 195-196 nine and eight 0; the ten's and the seven's rows
are noise).  Cards use :mod:`simkit.core.cards` codes: Over = Q (12), Under = J (11), the German
suits acorns/leaves/hearts/bells map to c/s/h/d.  Four suits of 18 points
are 72 card points, 78 with the last trick's 6 (line 213): every played-out deal shares 78.

What the text gives and how it is read:

* Players (line 188): four, in fixed partnerships facing each other, clockwise.  Seats p1..p4 in
  playing order: p1 and p3 are one side, p2 and p4 the other.  Side results are reported under
  every seat name (``p1_win`` is "p1's side won", equal to ``p3_win``), so per-seat metrics stay
  ``pK_``.
* Combinations (lines 203-211): three or four of a rank other than nines and eights, declared
  before the first lead, eldest first; only declared ones count (a strategy's choice).  Points:
  four aces 40, three aces 30, three tens or three sevens 10, four kings, overs or unders 12,
  three of them 6 are legible in the text (its "дамы" are the kings: a German pack has no
  queens, and the kings are the only rank left to fit "three or four of a kind except nines and
  eights"); line 207's "20 очков" lost its words and is read as four tens or four sevens, the
  four of the ranks whose three count 10 (every other four counts double its three).  The search
  tool found the card table in pagat.com's copies but not this table, so the 20 is a reading.
  A four is one combination (not also a three).
* Bonuses (lines 212-213): the last trick 6; a trick other than the first or the last won *with*
  a seven (the seven is the trick's winning card) 10; the last trick won with a seven 26 in all
  (the 6 included); the first trick won with a seven 52.  ``seven_bonuses=false`` drops the
  three seven bonuses (the last trick keeps its 6): the notebook's measure of their value.
* Dealing (line 215): the pack is shuffled only before a game's first deal; for later deals
  the cards are "gathered together" and cut by the player at the dealer's right; the bottom card
  after the cut is shown and fixes trumps; the dealer deals 3, 2, 3 to each player from his left,
  so the bottom card (the trump card) is the dealer's last.  The text does not say how the tricks
  are gathered; ``gather`` models it (the pack's top first):
    - ``sides`` (default): each side stacks its tricks face down as it wins them, each trick's four
      cards in the order played; the dealer's side's pile is put on the other's; a pile's last
      trick is on its top.  Cards left in the hands after a "dost" go under both piles, seat
      p1..p4, each hand in ascending card code.
    - ``played``: one pile of all the tricks in the order played (the last on top).
  The cut moves the top ``k`` cards to the bottom, ``k`` uniform in ``min_cut..32-min_cut``.
  ``dealing=shuffle`` shuffles before every deal instead (the common modern habit, and what a
  simulator assumes by default); ``dealing=gathered`` is the text's rule.  With ``unit=deal`` every
  deal is a game's first deal: shuffled, so ``dealing`` makes no difference there.
* The dealer (not in the text; pagat.com and gamerules.com: it passes to the left): p4 deals the
  first deal of a game, so p1 leads first; then the deal passes to the left (the eldest becomes
  the dealer).  ``rotate=false`` keeps p4 dealing (to measure seat edges by deal).
* The three face-up cards of the eldest (line 215) are public; the strategies here do not use
  them (nor the shown trump card beyond its suit).
* Play (lines 216-217): the eldest leads; follow suit; a player who cannot must trump; within
  those constraints everyone must beat the highest card so far when able (the engine's
  ``must_beat``); highest trump, else highest of the suit led, wins; the winner leads.  Trumps are
  the suit of the turned bottom card (line 215), never bid.
* Game (lines 218-219): the first side to ``target`` (100) or more wins one brčko, two if the
  losers have under ``double_under`` (50).  A player who has just declared or just won a trick may
  say "dost" instead of leading: play stops, points are counted; right, his side wins (1 or 2 as
  above); wrong, the others win two.  Whether and when to say it is a strategy; a winner of the
  last trick may still say it.  When no one says dost and a side has reached the target by the
  end of a deal, ``deal_end`` decides: ``first`` (default, after the note of line 222: "the
  team that first reached 100") the side that reached it first in the order the points were
  scored (declarations in turn, then trick by trick), ``higher`` the side with more points (a
  tie: the first).  The eldest's three face-up cards compensate, says line 215, the advantage of
  the side that plays first; measured here, the dealer's side (which holds the turned trump) is
  the stronger one (notebook ``stovkahra``).
* Series (line 220): the winners either add their brčka to their own or take them from the
  others' (never below 0); the first side to ``series_target`` (10) brčka wins.  The choice is a
  strategy (``subtract_at``).
* ``unit``: ``deal`` (one deal, a game's first, from 0-0; metrics per deal), ``game`` (deals until
  a side wins the game) or ``series`` (games until ``series_target`` brčka).  ``max_deals`` caps a
  unit (not in the text; an uncapped game always ends but a cap keeps the kernel's loop bounded).
* Not modelled: the signalling custom of the note after line 222 (table talk), misdeals.
"""
from __future__ import annotations

from dataclasses import dataclass

from simkit.core.rules import Rules, option
from simkit.errors import SimkitError

UNITS = ("deal", "game", "series")
UNIT_DEAL, UNIT_GAME, UNIT_SERIES = range(len(UNITS))
DEALINGS = ("gathered", "shuffle")
GATHERS = ("sides", "played")
DEAL_ENDS = ("first", "higher")


@dataclass(frozen=True)
class StovkahraRules(Rules):
    unit: str = option("deal", choices=UNITS,
                       doc="deal (one, a game's first), game (to the target), series (to ten brčka)",
                       source="000:218-220")
    dealing: str = option("gathered", choices=DEALINGS,
                          doc="gathered: later deals of a game only cut the gathered tricks; "
                              "shuffle: every deal shuffled", source="000:215")
    gather: str = option("sides", choices=GATHERS,
                         doc="how the tricks are gathered: each side's pile (dealer's side on top) "
                             "or one pile in playing order", source="000:215 (not said: a reading)")
    min_cut: int = option(4, range=(1, 16),
                          doc="the cut leaves at least this many cards in each part",
                          source="000:215 (the cut; its depth not said)")
    rotate: bool = option(True, doc="the deal passes to the left after every deal",
                          source="not in the text: pagat.com and gamerules.com")
    target: int = option(100, range=(1, 1000), doc="points that win a game",
                         source="000:202,219")
    double_under: int = option(50, range=(0, 1000),
                               doc="the winners get two brčka when the losers have fewer points",
                               source="000:219")
    seven_bonuses: bool = option(True, doc="the 52 / 10 / 26 bonuses for tricks won with a seven",
                                 source="000:213")
    deal_end: str = option("first", choices=DEAL_ENDS,
                           doc="no dost said: the side first to the target, or the higher",
                           source="000:219,222")
    series_target: int = option(10, range=(1, 100), doc="brčka that win a series",
                                source="000:220")
    max_deals: int = option(400, range=(1, 100_000),
                            doc="a unit still running after this many deals ends unfinished",
                            source="not in the text: a cap so that every unit ends")

    def check(self) -> None:
        if self.double_under > self.target:
            raise SimkitError(f"double_under={self.double_under} exceeds target={self.target}: "
                              f"the losers of a game have fewer points than the target")
