"""Rules of Durak for two (подкидной), from ``shared/rules/001_4b506a693298ed3d.txt``.

Line numbers are the file's own (``grep -n``); the text, lines 120-197, is the authority.

What the text gives and how it is read:

* Cards (lines 120-140): 36 cards, ranks 6 < 7 < 8 < 9 < 10 < J (В) < Q (Д) < K (К) < A (Т).
* Deal (lines 168-170): three cards at a time, six each; one more card is turned up and fixes the
  trump suit; it lies under the stock and is drawn last.  The "ordering of the game" of line 168
  is read as the turned card's suit being trump (line 170 says so).  Dealing order used for
  stacked decks and for the deal's card stream: the first attacker-to-be's seat p1 three, p2 three,
  p1 three, p2 three, the trump card, then the stock from its top (the trump card is drawn last).
* First attack (line 174): the holder of the lowest trump.  Neither hand holding a trump is a
  redeal, in the first game of a match only; later games are opened by the previous game's winner.
  ``after_draw`` (the text is silent on a drawn game): ``lowest_trump`` (default: as in a first
  game, but without a redeal; if neither holds a trump the previous game's opener opens again) or
  ``previous`` (the previous game's opener opens again).  ``opener``: ``lowest_trump`` (default,
  line 174) or ``p1`` (p1 always opens, as the peer ``durakgame`` does).
* A bout (lines 176-180): attack with any card; each attacking card is beaten by a higher card of
  its suit or by a trump, a trump only by a higher trump.  The attacker may throw in cards of any
  rank already on the table (attacking or beating).  Throw-ins and beats go one card at a time:
  an attacking card, the defender beats it or takes, the attacker throws in one more or stops.
* The cap (line 178): "at most 6 cards (even if the attacker holds more) or fewer, as many as the
  defender held before the attack began, provided there are no more cards in the stock".
  ``hand_cap``: ``always`` (default, the common rule: never more attacking cards than the
  defender held at the bout's start) or ``empty_stock`` (the literal reading: that limit applies
  only when the stock is empty; in super-short the unused stock counts as not empty).  With two
  players and a stock in use the two readings agree (a defender facing a non-empty stock has
  refilled to six); they differ in super-short.  ``first_bout_cap`` (not in the text; the common
  "first discard: five cards" rule, and the peer durakgame's): attacking cards allowed in each
  bout until the game's first discard, i.e. the first beaten bout (default 6: no such rule).
* Taking (lines 180, 184): a defender who cannot or will not beat takes every card on the table;
  before he does, the attacker may throw in more cards up to the cap (a strategy choice).
* Discard (line 180): a beaten bout goes out of play; the defender attacks next.  After a take
  the same attacker attacks again.
* Drawing (line 182): each refills to six from the stock, the attacker first; near the end the
  attacker takes as many as he can even if that loses him the game, the defender what is left.
* End (lines 188-192): the stock is empty and one or both players have no cards; the one out of
  cards wins a point; both out at once is a draw (no points).  It is checked after each bout's
  drawing; an attacker who runs out in the middle of a bout plays it to its end.  A defender who
  beats with his last card when no stock is left has reached the aim of line 162 and the end of
  line 190: the bout ends beaten and nothing more is thrown onto his empty hand (with
  ``hand_cap=empty_stock`` in super-short the cap alone would allow it).
* Forms (lines 146-156), ``form``: ``short`` (one game with the stock; a draw returns the
  stakes), ``super_short`` (six cards each, the stock never used: the game ends when a hand is
  empty), ``long3`` / ``long5`` / ``long7`` (games with the stock until 3, 5 or 7 wins; drawn games
  score nothing).  ``unit``: ``game`` (default: the runner's deal is one game, always a "first
  game", with its redeal rule) or ``match`` (the runner's deal is a whole match of the form; for
  short and super-short the match is one game).  ``max_games`` caps a long match (not in the
  text; a match that hits it is ``unfinished``).
* Lines 194-197 (wrong beats): the engine generates only legal moves.
"""
from __future__ import annotations

from dataclasses import dataclass

from simkit.core.rules import Rules, option

FORMS = ("short", "super_short", "long3", "long5", "long7")
UNITS = ("game", "match")
OPENERS = ("lowest_trump", "p1")
AFTER_DRAWS = ("lowest_trump", "previous")
HAND_CAPS = ("always", "empty_stock")


@dataclass(frozen=True)
class DurakRules(Rules):
    form: str = option("short", choices=FORMS,
                       doc="short: one game; super_short: 6 cards each, no stock; long3/5/7: "
                           "games until 3, 5 or 7 wins", source="001:146-156")
    unit: str = option("game", choices=UNITS,
                       doc="the runner's deal: one game, or a whole match of the form",
                       source="001:144,146-156")
    opener: str = option("lowest_trump", choices=OPENERS,
                         doc="first attack of a match: lowest trump (redeal if none), or p1",
                         source="001:174")
    after_draw: str = option("lowest_trump", choices=AFTER_DRAWS,
                             doc="who opens the game after a drawn one (the text is silent)",
                             source="001:174 (silent on draws)")
    hand_cap: str = option("always", choices=HAND_CAPS,
                           doc="attack capped by the defender's hand at bout start: always, or "
                               "only with an empty stock (literal)", source="001:178")
    max_attack: int = option(6, range=(1, 6), doc="attacking cards allowed in a bout",
                             source="001:178")
    first_bout_cap: int = option(6, range=(1, 6),
                                 doc="attacking cards allowed until the game's first discard (peers: 5)",
                                 source="not in the text: a peer's rule (durakgame)")
    max_games: int = option(100, range=(1, 10_000),
                            doc="a long match still running after this many games ends unfinished",
                            source="not in the text: a cap so that every match ends")

    @property
    def target(self) -> int:
        """Wins that end a match (1 for short and super-short)."""
        return {"long3": 3, "long5": 5, "long7": 7}.get(self.form, 1)
