"""Rules of Crazy Eights («Восьмерки»), from ``shared/rules/003_25b072003b534ab4.txt`` lines
105-120.

What the text gives (line numbers of the file): two to seven players (107); one 52-card deck for
five players or fewer, two shuffled together above (108); seven cards each for two players, five
otherwise, dealt one at a time, the rest the stock, its top card turned as the starter (109);
play clockwise from the dealer's left, a card matching the top card's suit or rank; a player who
cannot play draws from the stock until he can; with the stock empty he passes; a player may draw
even holding a playable card (110); eights are wild and their player names the suit to follow
(111); the deal ends when a player goes out, and he scores the cards left in the other hands:
50 per eight, 1 per ace, 10 per picture, face value otherwise; a deal may be a game, and two
players usually play a game to 100 (112); optional rules (113-117): the Q♠ makes the next
player draw five, a two makes him draw two (consecutive twos 4, 6, 8), a jack skips the next
player, a player who cannot play draws one card only and passes.

Readings chosen where the text is unclear or silent (each an option; the common rule default):

* Seats: ``p1`` sits at the dealer's left and plays first; the dealer is the last seat.
* ``starter_eight`` (109 says only "the top card is turned as the starter", nothing of an
  eight): ``bury`` (the default, the common rule: it goes to the bottom of the stock and the
  next card is turned), ``shuffle`` (it goes back into the stock at a uniformly random place,
  the top included, and the top card is turned again: open-spiel's redraw, which returns the
  eight to the undealt cards and draws the starter from all of them; preset ``openspiel``) or
  ``stands`` (it is a plain card of its suit to match; no suit is named).
* ``blocked``: the text's gap (110 says only that a player unable to play passes with the stock
  empty): a deal in which every player has passed in a row with the stock empty ends; with
  ``lowest`` (the default, the common rule) the player whose hand counts fewest points scores
  the differences between each other hand and his (nobody scores on a tie for lowest); with
  ``nobody`` the deal scores nothing.  ``max_plays`` (0: none; open-spiel's 100) ends a deal
  after that many cards played, scored the same way.  ``may_pass`` and ``extra_passes`` exist
  for the open-spiel preset (its players may pass at will once they may not draw, and a deal
  ends after ``players + 1`` passes in a row); the text's reading is off / 0.
* ``max_draws`` (110: "draws until he can"; 0, the default, is no limit): a cap on the cards
  drawn in one turn, after which a player who still cannot play passes (open-spiel's 5).
  ``voluntary_draw`` (110, last sentence): a player may draw holding a playable card (on by
  default); strategies decide whether to.
* ``twos`` (114): ``off`` (the default: the optional rules are off), ``stack`` (the common
  reading of "consecutive twos": the player facing a two may play a two and pass on the draw,
  now 4, then 6, 8; otherwise he draws the total) or ``literal`` (each next player draws 2 times
  the number of twos played in a row, then plays, and a two played then extends the run).
  ``queen_spades`` (113): the next player draws five.  ``penalty_ends_turn`` (113-114 are silent):
  a player who draws for a Q♠ or for twos (``stack``) misses his turn (the default, common) or
  then plays.  ``jacks`` (115): a jack skips the next player.  ``draw_one`` (116): a player who
  cannot play draws one card only and passes (even if it is playable, as the text says).
* ``unit`` (112): ``deal`` (each deal of a run is a game, the default) or ``game`` (a game of
  deals to ``target``, 100 for two players as the text has it; the dealer moves one seat left
  each deal, the first to reach the target at a deal's end wins, the higher total on a tie).
"""
from __future__ import annotations

from dataclasses import dataclass

from simkit.core.rules import Rules, option
from simkit.errors import SimkitError

STARTER_EIGHT = ("bury", "stands", "shuffle")
BLOCKED = ("lowest", "nobody")
TWOS = ("off", "stack", "literal")
UNIT = ("deal", "game")


@dataclass(frozen=True)
class CrazyEightsRules(Rules):
    players: int = option(2, range=(2, 7), doc="number of players (best for two, line 107)",
                          source="003:107")
    decks: int = option(0, range=(0, 2), doc="decks shuffled together (0: one for up to five "
                                              "players, two above)", source="003:108")
    hand_size: int = option(0, range=(0, 10), doc="cards dealt to each (0: seven for two "
                                                  "players, five otherwise)", source="003:109")
    starter_eight: str = option("bury", choices=STARTER_EIGHT,
                                doc="an eight turned as starter: buried and another turned, "
                                    "shuffled back into the stock and another turned, or it "
                                    "stands as a plain card", source="003:109 (silent)")
    max_draws: int = option(0, range=(0, 104), doc="cards one may draw in a turn (0: until able)",
                            source="003:110")
    voluntary_draw: bool = option(True, doc="a player may draw holding a playable card",
                                  source="003:110")
    may_pass: bool = option(False, doc="a player who may not draw (stock empty, max_draws "
                                       "drawn) may pass holding a playable card",
                            source="003:110 (he passes when he cannot play; open-spiel lets him "
                                   "pass at will then)")
    extra_passes: int = option(0, range=(0, 10), doc="passes beyond one by every player that a "
                                                     "blocked deal takes (open-spiel: 1)",
                               source="none in the text: open-spiel ends at players + 1 passes")
    blocked: str = option("lowest", choices=BLOCKED,
                          doc="a deal where all pass with the stock empty: the lowest hand "
                              "scores the differences, or nobody scores", source="003:110 (gap)")
    max_plays: int = option(0, range=(0, 10_000), doc="end the deal after this many cards "
                                                      "played, scored as blocked (0: never)",
                            source="none in the text: open-spiel's max_turns")
    queen_spades: bool = option(False, doc="the Q♠ makes the next player draw five",
                                source="003:113")
    twos: str = option("off", choices=TWOS,
                       doc="a two makes the next draw two: off, stack (pass it on with a two: "
                           "4, 6, 8) or literal (draw 2 x twos in a row, then play)",
                       source="003:114")
    penalty_ends_turn: bool = option(True, doc="a player who draws for a Q♠ or stacked twos "
                                               "misses his turn", source="003:113-114 (silent)")
    jacks: bool = option(False, doc="a jack skips the next player", source="003:115")
    draw_one: bool = option(False, doc="a player who cannot play draws one card and passes",
                            source="003:116")
    unit: str = option("deal", choices=UNIT, doc="what one deal of a run is: a deal, or a game "
                                                 "of deals to target", source="003:112")
    target: int = option(100, range=(1, 100_000), doc="a game ends when a score reaches this",
                         source="003:112")

    def check(self) -> None:
        if self.n_decks * 52 < self.players * self.cards_each + 10:
            raise SimkitError(f"decks={self.decks} is too few for {self.players} players: use "
                              f"decks=2 or decks=0")

    @property
    def n_decks(self) -> int:
        return self.decks or (1 if self.players <= 5 else 2)

    @property
    def cards_each(self) -> int:
        return self.hand_size or (7 if self.players == 2 else 5)
