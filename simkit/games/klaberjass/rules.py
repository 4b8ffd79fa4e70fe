"""Rules of Klaberjass for two (Клабор / Деберц), from ``shared/rules/001_4b506a693298ed3d.txt``.

Line numbers are the file's own (``grep -n``); the text, lines 1-119, is the authority.

What the text gives and how it is read:

* Cards and values (lines 3-4): 32 cards 7..A.  Trump order J 9 A 10 K Q 8 7 worth
  20 14 11 10 4 3 0 0; plain order A 10 K Q J 9 8 7 worth 11 10 4 3 2 0 0 0.  The deck holds
  62 + 3 x 30 = 152 card points, 162 with the last trick's 10 (line 66).  Only 18 cards are
  played in a deal (nine each, lines 34, 50), so the points of one deal are the played cards'
  points plus 10, not 162 (the engine's tests check exactly that).
* Deal (lines 34, 50): three cards at a time, six each, one card turned up; after the bidding three
  more each (nine in hand), the bottom card of the stock is shown and the stock is not used again.
  Deck order used for stacked decks: first word's three, the other's three, first's three,
  other's three, upcard, first's three, other's three, bottom card (20 cards per deal; a redeal
  takes the next 20).
* Bidding (lines 46-48): round one on the upcard's suit ("играю"/"пас"), first word first; round
  two, each in turn may name any *other* suit; two passes in round two: redeal, and the first word
  passes to the other player.  A redeal is part of the same unit, also in the short game (line 12).
  ``max_redeals`` (not in the text) caps the redeals in a row so that a unit always ends; a unit
  that hits it is ``unfinished`` and scores nothing.
* First word (line 46): to the loser of the previous deal; in the first deal "by lot".  ``opener``
  fixes who has the first word in a unit's first deal: ``p1`` (default, so that p1 - p2 with the
  same strategy on both seats is the first-bidder advantage), ``p2``, or ``lot`` (a fair coin
  from the unit's key).  ``next_word`` (long games): ``loser`` (default): the loser of the deal is
  the bidder if he did not outscore the defender, else the defender; ``alternate``.
* Trump seven (line 52): when the upcard's suit is trump, the holder of the trump seven may
  exchange it for the upcard (a strategy choice); ``exchange=false`` forbids it.  The seven goes
  face up where the upcard was.
* Combinations (lines 58-82): terz (3 in a row) 20, fifty (4 in a row) 50, bella (trump K Q) 20.
  Sequence order A K Q J 10 9 8 7 in every suit (line 78).  ``long_runs``: the text names runs
  of 3 and 4 only; ``fifty`` (default): a run of 5 or more is one fifty; ``split``: a run of L >= 5
  counts floor(L/4) fifties and a terz if L mod 4 = 3.  Comparison (lines 68-80), read as the
  usual "only the best sequence scores": each player's best combination is the longest (fifty
  over terz), then the higher top card, then trump; fully equal non-trump bests go to the one who
  declared first, read as the player with the first move (line 88: he declares first).  The
  player with the better best scores *all* his declared terzes and fifties, the other none (line
  80's two terzes under one higher terz).  Bella is not compared: declared, it always counts.
  Declaring is a strategy choice and undeclared combinations do not count (line 82).
* Play (lines 88-98): the first word leads; follow suit, else trump, else any card; on a trump lead
  a higher trump when able (``overtrump``, default true).  With two players nobody can be asked to
  beat a trump on a plain lead: any trump beats it.
* Scoring (lines 44, 104-108): card points + last trick + counted combinations.  The bidder must
  score more than the defender.  Long games: fewer -> "байд", all the bidder's points go to the
  defender; equal -> "висячий байд": the defender keeps his points and the bidder's are held and
  go to whoever wins the next played deal (the bidder if he makes that deal, else the defender);
  one left hanging when the game ends is lost.  Short game: fewer -> the bidder pays two stakes,
  equal -> one stake; a made bid is read as winning one stake (line 28: the aim is more points).
* ``form``: ``short`` (one deal plus any redeals), ``301`` or ``501`` (lines 14-16).  After every
  deal the defender's points are counted first (line 108): if the defender reaches the target he
  wins, even when the bidder also does.  ``max_deals`` (not in the text) ends a game that has not
  finished as ``unfinished``.
* Open hand (lines 18-22): ``open_hand`` names the proposer, who plays every deal with his cards
  shown and starts with ``open_bonus`` points (150, 155 or 160 in the text; presets ``open150``,
  ``open155``, ``open160`` with ``form=501``).  What the other side does with the sight of them is
  up to its strategy (the heuristic uses it when leading).
* "Партия!" (line 110), long games: a player who has the lead and at least one trick in the deal
  may stop the game; it is counted as his score before the deal + his card points taken so far in
  the deal + his counted combinations (bella if declared); at least the target wins the game, less
  loses it.  Whether to claim is a strategy choice.
* Not modelled: the revoke penalty (lines 114-116), since the simulated players only make legal
  moves; stakes and "дави" beyond one stake per short game.
"""
from __future__ import annotations

from dataclasses import dataclass

from simkit.core.rules import Rules, option
from simkit.errors import SimkitError

FORMS = ("short", "301", "501")
# each option's choices and, where the kernel reads it, its code there (the choice's index)
OPENERS = ("p1", "p2", "lot")
OPENER_P1, OPENER_P2, OPENER_LOT = range(len(OPENERS))
NEXT_WORDS = ("loser", "alternate")
NEXT_LOSER, NEXT_ALTERNATE = range(len(NEXT_WORDS))
LONG_RUNS = ("fifty", "split")
OPEN_HANDS = ("none", "p1", "p2")
OPEN_NONE = -1               # the kernel's open seat: -1 for none, else the proposer's seat 0 / 1


@dataclass(frozen=True)
class KlaberjassRules(Rules):
    form: str = option("short", choices=FORMS,
                       doc="short: one deal (plus redeals); 301/501: deals until a target",
                       source="001:10-16,28")
    opener: str = option("p1", choices=OPENERS,
                         doc="first word in a unit's first deal: p1, p2 or a coin (lot)",
                         source="001:46")
    next_word: str = option("loser", choices=NEXT_WORDS,
                            doc="first word in later deals: loser of the previous deal, or alternate",
                            source="001:46")
    exchange: bool = option(True, doc="the trump seven may be exchanged for the upcard",
                            source="001:52")
    overtrump: bool = option(True, doc="on a trump lead, play a higher trump when able",
                             source="001:98")
    long_runs: str = option("fifty", choices=LONG_RUNS,
                            doc="a run of 5+: one fifty, or split into fifties and a terz",
                            source="001:60-64")
    open_hand: str = option("none", choices=OPEN_HANDS,
                            doc="the proposer who plays with open cards (long games)",
                            source="001:18-22")
    open_bonus: int = option(150, range=(0, 1000),
                             doc="points the open-hand proposer starts with (150/155/160 in the text)",
                             source="001:18-22")
    max_deals: int = option(200, range=(1, 100_000), doc="a long game still running after this "
                            "many deals ends unfinished (not in the text)",
                            source="not in the text: a cap so that every long game ends")
    max_redeals: int = option(50, range=(1, 100_000), doc="redeals in a row after which a unit "
                              "ends unfinished (not in the text)", source="001:48")

    def check(self) -> None:
        if self.open_hand != "none" and self.form == "short":
            raise SimkitError("open_hand needs a long game: set form=301 or form=501 "
                              "(the text names form 501)")

    @property
    def target(self) -> int:
        """Points that end a long game (0 for the short game)."""
        return 0 if self.form == "short" else int(self.form)

    @property
    def open_seat(self) -> int:
        """The open-hand proposer's seat (0 for p1, 1 for p2), or :data:`OPEN_NONE`."""
        return OPEN_HANDS.index(self.open_hand) - 1
