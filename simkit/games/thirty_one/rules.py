"""Rules of Thirty-one / Schwimmen, from ``shared/rules/002_17c4cc3dde05b547.txt`` lines 1-82.

Line numbers are the file's own (``grep -n``).  The text is machine-translated from French; where
it is garbled or silent the reading is an option, the common Schwimmen rule the default.

The 36-card game (lines 17-55), ``variant=table`` (the default):

* Cards and stakes (lines 17-19, 53): 36 cards (6..A), 3 coins a player and one extra chance:
  ``lives=4``, a player is out after his fourth loss; the last one left wins (line 55).
* The deal (lines 23-29): player 1 (p1) looks at the first three cards of the pack; he keeps
  them, or lays them face up as the table and takes the next three.  Then three to each other
  player in turn (p2, p3, ...).  p1 is read as the dealer ("then the player deals", line 28); the
  player next to him (p2) plays first (line 29).  In a whole game (``unit=game``) the deal passes
  to the next surviving player on the left, and the text's "player 1" is always the dealer.
* Where the table comes from when p1 keeps his first three is the text's gap;
  ``table_source``: ``second_hand`` (default, the common Schwimmen rule: the dealer deals a second
  hand, cards 4-6 of the pack, which becomes his hand if he refuses and the table if he keeps)
  or ``after_deal`` (when he keeps, the three cards after everyone's hand are turned up; cards
  4-6 then go to p2).  The two readings deal the same law of hands; they differ in which pack
  positions a stacked deck's cards go to, and so in the paired deals of a comparison.
* A turn (lines 31-39): knock (keep one's cards: the signal of the last round, everyone else
  plays once more and the knocker no more; line 33), exchange one card with the table, or
  exchange all three.  After a knock the others may exchange or keep their cards (pass).
  A player who exchanged all three "may no longer exchange and must pass" (line 38);
  ``swap_all``: ``knock`` (default, literal: his next turn is line 33's pass, the knock, unless
  someone knocked already) or ``hold`` (he keeps his cards on each later turn without knocking).
* 31 (line 39): a player holding 31 ends the deal at once, right after the deal too (p1's choice
  made, any hand at 31 ends it) and after any exchange.
* Hand value (lines 41-50, 74-82): the best sum of the cards of one suit, A 11, K Q J 10, number
  cards their face value; three of a kind 30 (line 50, 80; ``trips=false`` drops that rule).
* End (lines 51-55): the lowest hand loses a life, all who tie for it; if every hand is equal
  the deal is replayed (a fresh deal from the same dealer), at most ``max_replays`` times (not
  in the text: a bound so that every deal ends; past it the deal is ``unresolved`` and nobody
  loses).  A deal still running after ``max_turns`` turns is scored as it stands (``capped``;
  not in the text, which has no end without a knock or 31).

The 52-card variant (lines 59-82), ``variant=draw`` (preset ``draw52``: ``deck=52``):

* Three cards each (p1 first, then p2...), the stock face down, its top card turned up beside it
  (line 62).  In turn, starting left of the dealer, a player takes the turned card (the top of
  the discard pile) or the top of the stock and discards one card face up (line 63).
* Lives per player are an option (line 60): ``lives``.
* 31 (line 64-65): a player holding 31 after his draw and discard lays it down and wins at once;
  the others show: the lowest hand loses a life, and so does anyone else who held 31 (he could
  not lay it down, not being on turn).  A 31 in the last round after a knock ends the deal the
  same way (the knock's rules below then do not apply).  This rule comes before line 53's replay
  of an all-equal deal: when every hand is 31 the layer still wins and every other player, each
  holding a 31 he could not lay down, loses a life.
* Knock (lines 68-72, garbled: "the one who named the card on the table" reads as the knocker):
  instead of drawing, a player knocks; ``last_round`` (default true, as line 33 and the common
  rule: everyone else plays once more; false: the hands are shown at once, the literal "the game
  ends because a player announced").  Then the best hand wins the deal; the lowest loses a life;
  a knocker who shares the best hand with another player loses a life; a knocker without the
  best hand loses a life; a tie for the best among the others costs nobody a life.  Nobody loses
  more than one life a deal.  Every hand equal: replayed, as in the 36-card game (line 53).
* ``stock_out`` (the text is silent): ``reshuffle`` (default, the common rule: the discard pile
  but its top card is shuffled into a new stock) or ``end`` (the deal is scored as it stands).

``deck`` and ``variant`` are independent (a 52-card table game, a 36-card draw game).  Players
2..8: the issue's range; 8 players use 27 of the 36 cards in the table game, and the draw
game's stock still holds 27 of 52 cards.
"""
from __future__ import annotations

from dataclasses import dataclass

from simkit.core.rules import Rules, option

VARIANTS = ("table", "draw")
UNITS = ("deal", "game")
TABLE_SOURCES = ("second_hand", "after_deal")
SWAP_ALL = ("knock", "hold")
STOCK_OUT = ("reshuffle", "end")


@dataclass(frozen=True)
class ThirtyOneRules(Rules):
    players: int = option(4, range=(2, 8), doc="players at the table (p1 deals)",
                          source="002:20 (any number; 2..8 chosen)")
    variant: str = option("table", choices=VARIANTS,
                          doc="table: exchange with three open cards (36-card game); draw: take "
                              "the turned card or the stock's top and discard (52-card variant)",
                          source="002:31-39 / 002:61-63")
    deck: int = option(36, choices=(36, 52), doc="36 (6..A) or 52 (2..A) cards",
                       source="002:18 / 002:59")
    unit: str = option("deal", choices=UNITS,
                       doc="the runner's deal: one deal, or a whole game to the last survivor",
                       source="002:53-55")
    lives: int = option(4, range=(1, 10), doc="losses that put a player out (3 coins + 1 chance)",
                        source="002:19,53 / 002:60")
    table_source: str = option("second_hand", choices=TABLE_SOURCES,
                               doc="the table when p1 keeps his first three: the dealer's second "
                                   "hand (cards 4-6), or three cards turned after the deal",
                               source="002:23-28 (a gap: common Schwimmen rule)")
    swap_all: str = option("knock", choices=SWAP_ALL,
                           doc="after exchanging all three a player must pass: knock (line 33's "
                               "pass) or hold without knocking", source="002:37-38")
    trips: bool = option(True, doc="three of a kind is worth 30", source="002:50,80")
    last_round: bool = option(True, doc="draw variant: after a knock everyone else plays once "
                                        "more (false: hands shown at once)",
                              source="002:68 (garbled) / 002:33")
    stock_out: str = option("reshuffle", choices=STOCK_OUT,
                            doc="draw variant, empty stock: reshuffle the discards but the top, "
                                "or end the deal as it stands", source="silent: common rule")
    max_turns: int = option(200, range=(4, 2000),
                            doc="a deal still running after this many turns is scored as it stands",
                            source="not in the text: a bound so that every deal ends")
    max_replays: int = option(5, range=(0, 50),
                              doc="replays of an all-equal deal before it counts as unresolved",
                              source="002:52 (replayed); the bound is not in the text")
    max_deals: int = option(1000, range=(1, 100_000),
                            doc="unit=game: a game still running after this many deals is "
                                "unfinished", source="not in the text: a bound so that games end")
