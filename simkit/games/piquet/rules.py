"""Rules of Piquet (the English club game), from ``shared/rules/002_17c4cc3dde05b547.txt``.

Lines 144-198 of that file are a (machine) translation into Russian of David Parlett's "Rules of
Piquet" (davidparlett.co.uk/histocs/piqrules.html, the Portland Club / "Cavendish" rules).  Where
the translation is garbled the English original is the reference; the variants of lines 196-198
are also in Parlett's *Penguin Book of Card Games* ("Variations" of Piquet).  Line numbers are the
file's own (``grep -n``).

What the text gives and how it is read:

* Cards (line 147): 32, A K Q J 10 9 8 7 in each suit.  Pictures (for the blank) are K Q J.
* Deal (line 151): the dealer is Younger, the other Elder; twelve each in twos or threes, the eight
  left are the talon, laid as five (Elder's) and three.  ``deal_batch`` only says how a *stacked*
  deck is read (a shuffled deal is the same whatever the batches): ``12`` (default) Elder's twelve,
  Younger's twelve, then the talon from its top; ``2`` / ``3`` the cards alternate in batches of two
  or three, Elder first, then the talon.
* Carte blanche (line 153): a hand without K Q J scores 10, claimed (always, by both strategies)
  before the exchange, so it counts first for repique.
* Exchange (line 155): Elder discards 1 to 5 and draws as many from the top of the talon (he may
  look at the rest of his five: information only); Younger then discards 0 up to all that is left
  (at least three) and draws from the top of what is left.  The cards left are information only
  (no strategy here reads them).
* Declarations (line 157): point (cards of the longest suit, then its pips A 11, K Q J 10, numbers
  face value; scores one per card), sequence (tierce 3, quart 4, quint 15, sixieme 16, septieme 17,
  huitieme 18; longer beats shorter, then the higher top card), set (trio 3, quatorze 14, of tens or
  higher; any quatorze beats any trio, then the higher rank).  In each class the better hand scores
  everything it declares in that class (the point: one suit), equal cancels.  Not declaring a
  class ("sinking", line 157) is a strategy choice; a sunk class counts as not held.
* Scoring order (lines 159-167): Elder's blank and Younger's, then Elder's good combinations, 1 for
  leading, then Younger's.  Repique (+60): 30 from combinations alone counted in the order blank,
  point, sequence, set, before the other scores anything (examples 1 and 2, lines 166-167).  Pique
  (+30, Elder only): Elder reaches 30 with combinations and trick points before Younger scores
  anything, without a repique.  ``pique_cards``: whether the bonus for cards (or capot) counts
  toward pique (default no: it is scored after the play; the text is silent).
* Tricks (lines 169-173): follow suit, else any card; highest of the led suit wins; no trumps.
  1 for leading a trick, 1 for winning a trick led by the opponent, 1 more for the last (lines
  187-190 give the equivalent count; both are checked in ``tests/piquet_reference.py``).
* Cards and capot (line 175): 10 for most tricks (7 to 11), 40 (instead) for all twelve, nothing
  for 6-6.
* Game (lines 177-185), ``unit``: ``deal`` (the runner's deal is one deal, p1 Elder), ``partie``
  (Rubicon piquet: exactly ``partie_deals`` = 6 deals, the deal alternating, p1 Elder first; the
  winner scores 100 + the difference when the loser reached ``rubicon`` = 100, else 100 + both
  totals, lines 181-184, examples line 183; a tie plays two more deals, again while tied, up to ``max_deals``) or ``game`` (first to
  ``target`` = 100 points, play stopping the moment it is reached, line 179; deals alternate).
* Variants (lines 193-198, Penguin "Variations"): ``void_suit`` (line 197: a void suit after the
  exchange counts as a point of five worth 50 1/2, scoring 5, and a sequence ranking between the
  ace-high and the king-high quint, scoring 10; one void counts in each class); ``tricks=flat``
  (line 198: 1 a trick and 10 for the last trick instead of the 10 for cards; capot's 40 replaces
  that 10, as it replaces the cards; no point for leading).  Carte rouge (line 196: "10, 40 or
  50"), auction and contract piquet (lines 196-197, rules not given) are not built.
"""
from __future__ import annotations

from dataclasses import dataclass

from simkit.core.rules import Rules, option
from simkit.errors import SimkitError

UNITS = ("deal", "partie", "game")
TRICKS = ("classic", "flat")


@dataclass(frozen=True)
class PiquetRules(Rules):
    unit: str = option("deal", choices=UNITS,
                       doc="the runner's deal: one deal (p1 Elder), a Rubicon partie, or a game "
                           "to the target", source="002:146,177-185")
    target: int = option(100, range=(10, 1000), doc="unit=game: the score that ends the game",
                         source="002:146,179")
    partie_deals: int = option(6, range=(2, 20), doc="unit=partie: deals in a partie (even)",
                               source="002:146,180")
    rubicon: int = option(100, range=(0, 1000),
                          doc="unit=partie: a loser below this is rubiconed (the winner's bonus "
                              "stays 100)", source="002:181-184")
    max_deals: int = option(20, range=(1, 200),
                            doc="a partie still tied, or a game unfinished, after this many deals "
                                "ends drawn", source="002:185 (a cap so that every unit ends)")
    tricks: str = option("classic", choices=TRICKS,
                         doc="classic: 1 a lead, 1 a capture, 1 for last, 10 for cards; flat: 1 a "
                             "trick, 10 for last", source="002:171-175,198")
    void_suit: bool = option(False, doc="a void suit counts as a point of 5 (50.5) and a quint "
                                        "between A- and K-high (scores 5 and 10)",
                             source="002:197")
    pique_cards: bool = option(False, doc="the bonus for cards or capot counts toward pique",
                               source="002:161-163 (silent)")
    deal_batch: int = option(12, range=(2, 12),
                             doc="how a stacked deck is read: batches of 2 or 3 alternating, or "
                                 "12 (Elder's hand, Younger's, talon)", source="002:151")

    def check(self) -> None:
        if self.deal_batch not in (2, 3, 12):
            raise SimkitError(f"deal_batch={self.deal_batch} is not allowed: choose 2, 3 or 12")
        if self.partie_deals % 2:
            raise SimkitError(f"partie_deals={self.partie_deals} must be even (the deal "
                              f"alternates)")
