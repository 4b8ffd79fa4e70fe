"""Rules of Fan-Tan («Фан-тан», "Sevens"), from ``shared/rules/003_25b072003b534ab4.txt`` lines
121-134.

What the text gives (line numbers of the file): three to eight players, best four or five (122);
one 52-card deck, ranks K high down to A low in each suit (123); all the cards dealt one at a
time "from right to left", some players getting one more card (124); before the deal a pool of
antes, one chip from each player with more cards and two from those with fewer (125); the player
at the dealer's left plays first, a seven or a pass, and in turn each plays or passes, paying one
chip into the pool per pass (126); a seven may always be played, the sevens form a row, and on a
seven the 8 and the 6 of its suit, on one side the 8s up to the kings, on the other the 6s down
to the aces (127); the first out of cards wins; every other player pays a chip per card left
into the pool, and the winner takes it all (128); a pass with a playable card is penalised
(129): three chips, and five to each holder of the 8 or 6 if the card held back was a seven.

Readings chosen where the text is unclear or silent (each an option; the common rule default):

* Seats: ``p1`` sits at the dealer's left and plays first, the turn goes clockwise, the dealer
  is the last seat.
* ``deal_from`` (124, "one at a time from right to left"): ``left`` (the default, the common
  deal: from the dealer's left clockwise, so the extra cards of an uneven deal go to ``p1``,
  ``p2``...) or ``right`` (the text read literally: from the dealer's right counterclockwise,
  so they go to the seats on the dealer's right, ``pK-1``, ``pK-2``...).
* ``ante_even`` (125 is silent when every hand is the same size, four players): each antes this
  many chips (1, the default).
* ``must_play`` (129): a player who can play must (the default: the penalty of 129 makes a pass
  when able a loss, so it is not played); with ``false`` he may pass at a chip's cost, and the
  ``block`` strategy does so rather than open a row to others.
* ``pass_penalty`` (129, with ``must_play=false`` only): a pass while able costs the text's
  penalty on top of the pass's own chip (126), as if always found out at once: three chips into
  the pool, and if he held back a seven (the seven of a row not yet open), five chips to each
  other holder of that suit's 6 or 8, for each such seven.  "Each holder" is read per player:
  one who holds both the 6 and the 8 gets five, not ten; the passer pays himself nothing.  The
  holders are those of the moment, which are those of the deal, since neither card can be
  played before its seven.  Off by default: the text makes a pass when able an offence, not a
  move (so ``must_play`` is on by default and 129 never applies); ``must_play=false`` is a
  variant the text does not describe, where the pass costs its chip as any pass, and the
  penalty is the option to charge.  Chips are conserved either way: the three go to the pool
  the winner takes, the fives from one player to another.
"""
from __future__ import annotations

from dataclasses import dataclass

from simkit.core.rules import Rules, option
from simkit.errors import SimkitError

DEAL_FROM = ("left", "right")


@dataclass(frozen=True)
class FanTanRules(Rules):
    players: int = option(4, range=(3, 8), doc="number of players (best four or five)",
                          source="003:122")
    deal_from: str = option("left", choices=DEAL_FROM,
                            doc="where the one-at-a-time deal starts: the dealer's left (extra "
                                "cards to p1...) or his right, counterclockwise (the text)",
                            source="003:124")
    ante_even: int = option(1, range=(0, 2), doc="each player's ante when all hands are equal",
                            source="003:125 (silent)")
    must_play: bool = option(True, doc="a player who can play must (a pass when able is "
                                       "penalised)", source="003:126,129")
    pass_penalty: bool = option(False, doc="with must_play=false, a pass when able also pays 3 "
                                           "chips to the pool and, holding back a seven, 5 to "
                                           "each other holder of its suit's 6 or 8",
                                source="003:129")

    def check(self) -> None:
        if self.pass_penalty and self.must_play:
            raise SimkitError("pass_penalty needs must_play=false (a player who must play "
                              "never passes while able)")
