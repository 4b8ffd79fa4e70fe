"""Rules of Canasta, from ``shared/rules/003_25b072003b534ab4.txt`` lines 48-84 read as
``shared/rules/READINGS-rummy.md`` sections 1, 3.1, 3.2 and 3.8 say.

The text gives Canasta's improper-meld irregularity (48: at most three wild cards in a meld),
the strategy notes (49-54), two-hand Canasta (55: fifteen cards, draw two discard one, two
canastas to go out), three-hand Canasta (56-59) and the national variants (71-84).  The base rules
are the published classic rules (READINGS 3.1, each row cited there): 108 cards (two decks and four
jokers), wild deuces and jokers, eleven cards each in two partnerships, red threes faced and
replaced, black threes stop cards, melds of one rank with at least two naturals and at most three
wild cards, canastas of seven (natural 500, mixed 300), the initial minimum 15/50/90/120 by the
side's score, the frozen pile, going out with a canasta (100, concealed 200), the stock's end,
scoring, game 5000.

Options follow READINGS 3.8's list.  Implemented: the classic four-hand game, two-hand Canasta,
three-hand (cutthroat) Canasta, Cuban Canasta, Samba, Bolivia and Brazilian (each played to its target with
``unit=game``); a value that belongs to a variant not implemented yet (Samba with two or
three players, rummy-games' Cuban black threes ...) is refused with a
:class:`SimkitError` naming the variant, never silently ignored.

Cuban Canasta (``preset=cuban``; 003:84, READINGS 3.7, default = the text where it and
rummy-games differ): 108 cards, 13 each (four hands), one card drawn, two canastas to go out, the
pile always frozen (taken with a natural pair only; a wild top card blocks it as in every
preset), a meld of seven cards at most (``canasta_max``), wild-card melds (``wild_melds``: three to
seven deuces and jokers, one per side; canasta 2000, 3000 holding all four jokers, 4000 of seven
deuces), every three faced when dealt or drawn and replaced (``black_threes=faced``), scored by
colour 100 / 300 / 500 / 1000 for one to four (``red3_table=cuban``: the text's "100; 200 each for
the second and third; 500 for the fourth") and counted minus for a side with no canasta
(``red_threes_minus=no_canasta``), minimum 95 / 125 / 155 (``initial_table=cuban``), no
concealed bonus (``concealed=100``), game 8500.  rummy-games' alternatives: ``game_to=7500`` and
``initial_table=cuban_rg`` (150 from 5000) are options; its black-three rules are refused.
Readings where 003:84 is silent: black threes are replaced like red ones (READINGS 3.7); the 95
row covers every score below 3000, negative ones too; a black three turned up covers the upcard
as a red one does, and one in a taken pile is faced, not replaced; with one meld per rank
(READINGS 3.1) a lay or a pile take that would give a meld an eighth card is refused (so the
naturals of a closed canasta's rank stay in hand); the wild-card meld is the side's only one
(logged as the meld of rank 2), its canasta counts toward going out.

Samba (``preset=samba``; 003:71-81, READINGS 3.4): ``decks=3`` (162 cards, every card three
times, six jokers) is the Samba family: 15 each (four hands), draw two discard one
(``draw=2``), sequences (``sequences``: three to seven naturals of one suit in order, 4 low to
ace high, no wild card, no three or deuce; seven = a samba, closed, ``sequence_canasta`` 1500),
at most two wild cards a group (``max_wild=2``), naturals from the hand may join a canasta but
no wild card and never the pile's top card; the pile is taken only with a natural pair of the
top card (frozen or not) or, unfrozen, by adding the top card alone to a group or sequence of
the side with fewer than seven cards (003:78 "not fewer than seven" read "fewer", READINGS 3.4;
the top card never starts a sequence nor joins hand cards in one); minimum 15/50/90/120 and 150
from 7000 (``initial_table=samba``; ``samba160`` Bicycle's 160), two canastas to go out (a samba
counts), going out 200 and no concealed bonus (``going_out=concealed=200``), red threes 100
each and 1000 for all six (``red3_table=samba``), game 10000.  Readings (the log format:
CANASTA.md, 2026-12-04 12:35 note): one group per rank per side (as the rest of the engine; so
a side never holds two canastas of one rank, and a natural-pair take of a rank whose group has
seven cards or more is not offered, READINGS 3.4 "duplicate melds" is not modelled); sequences
are never combined; at most 12 sequences per side (no 13th is offered); a side's initial meld
is made of groups only (the strategies start sequences after it; the rules allow a sequence in
it and the log checker accepts one).  Samba with two or three players is refused.

Bolivia (``preset=bolivia``; 003:82, READINGS 3.5): Samba plus wild-card melds (``wild_melds``:
three to seven deuces and jokers, one per side as in Cuban, logged as meld 2; seven = a bolivia,
2500, closed: no card is added to it, rummy-games), the sequence canasta (an escalera) 1500, one
of the two canastas to go out an escalera (``escalera_required``), a black three left in a hand
costs 100 beyond its 5 (``black_three_penalty=100``: every black three in any hand when a player
goes out, Bicycle), minimum never above 150 (``initial_table=bolivia``, Samba's table), game
15000.  Wild cards still join natural groups (at most two, READINGS 3.5 [inferred]).

Brazilian Canasta (``preset=brazilian``; 003:83, READINGS 3.6): Bolivia with a wild-card canasta
of 2000, the sequence canasta 1500, and when a player goes out each side loses 1000 per
incomplete wild-card meld or sequence (fewer than seven cards; ``incomplete_penalty=text``, the
text; ``bicycle_seq_lt5``: sequences of fewer than five only), counted in ``pK_canasta_bonus``;
red threes per Bicycle (100 each up to four, five 1000, six 1200; plus with a canasta, minus
without: ``red3_table=brazilian``, ``red_threes_minus=no_canasta``); two canastas of any kind
to go out (Bicycle: no escalera needed; the text is silent, ``escalera_required`` is an
option); a black three left in hand -100 kept from Bolivia ("Bolivia plus", reading); game
10000.  The initial meld (``initial_table=brazilian``, 003:83): below 7000 Samba's rows
15/50/90/120 (no 150 row); from 7000 it must include a canasta, from 8000 a canasta with the
initial meld's cards counting 200 or more, from 9000 a natural canasta.  Readings (the text is
terse): "a canasta in the whole meld of not less than 200" counts all the cards of the initial
meld (every meld of that turn; on a take, the take's lays, the top card included), as every
minimum here does, not the canasta's cards alone; the canasta requirement replaces the count
(7000 and 9000 ask no count; 9000 does not keep 8000's 200: the text names one requirement per
level); "a canasta" is any canasta (a group of seven or more, a wild-card canasta, a samba), "a
natural canasta" a group of seven or more with no wild card (a samba is a sequence canasta, not
counted as one).  The requirement applies on a draw turn, on a pile take for the initial meld
(the top card counts toward the canasta) and to going out concealed; the log's head codes it in
``minimum_0``/``minimum_1`` as -1 (a canasta), -2 (a canasta, 200 in all), -3 (a natural
canasta).  The strategies' initial meld from 7000 is one canasta from the hand (and the pile's
top card on a take): the group of seven needing the fewest wild cards, else seven wild cards,
then the count filled greedily.

Bicycle's other Brazilian additions (READINGS 3.6: "Bicycle/rummy-games [read] add: the pile may
not be taken for the initial meld; ... in going out one may add to the ends of an escalera; ...
always ask partner before going out"; 003:83 is silent on all three), each an option whose
default is the engine's earlier play, all three for the Samba family only (``decks=3``: the
log's head carries them in its Samba part, bits of ``head[13]``, CANASTA.md 2026-12-04 15:35
and 15:55):

* ``initial_pile_take=false``: a side that has not melded may not take the pile (its initial
  meld is laid from the hand on a draw turn); no take is offered before the side's first meld,
  at the stock's end either.
* ``ask_partner=always``: a player (four hands) who would go out asks partner first, every time
  (``may``: as the strategy's ``ask`` lever says); a "no" binds for the turn (CANASTA.md trap
  (a)).  Reading (Bicycle is silent on it): since the answer may be no, a pile take is legal
  only when the taker keeps two cards or more after it (one to discard, one to hold), so no
  take commits a player to going out unasked (the classic one-card restriction's purpose).
* ``escalera_out_ends=true``: in the turn a player goes out he may add cards of his hand to
  the ends of his side's escaleras (sequences of seven, otherwise closed), so a sequence may
  then hold more than seven cards (up to eleven, 4..A; still one sequence canasta, 1500).
  Logged as lays on the sequence's id (16 + k), legal only in a going-out turn.  The going-out
  plan (:func:`~simkit.games.canasta.engine.out_plan`) tries the groups first, and only when
  they do not take the hand out plans the cards that extend an escalera (one after another at
  either end) onto it; the strategies' going out plans no other sequence card (as before).

``preset=brazilian_bicycle``: Brazilian with Bicycle's readings together: the -1000 only for a
sequence of fewer than five (``incomplete_penalty=bicycle_seq_lt5``), no pile take for the
initial meld, always ask partner, escaleras' ends open when going out.

Readings where the sources are silent (each documented in the option's ``doc``):

* A concealed going-out: the player laid no card earlier in the hand and lays his whole hand this
  turn (a pile take that turn allowed); the initial minimum still applies to it.
* The classic "one-card pile" restriction is not applied (READINGS 3.1 does not list it); a pile
  take is refused only when the taker could then neither go out nor keep a card to discard.
* Dealt red threes are faced and replaced before the first turn, seat by seat from the dealer's
  left (READINGS 3.1: "before or at the first turn — distributionally identical").
* Three hands (``players=3``, READINGS 3.3, 003:56-59; preset ``cutthroat``): ``lone_hand``
  (default) makes the deal's first pile taker the lone hand and the other two partners; READINGS
  3.3 (a) leaves open whose the melds made before that take are.  Reading taken (the simplest the
  per-rank meld counts allow, after Bicycle's "combine their melds" [READINGS 3.3]): at the take
  the two partners' melds are merged rank by rank into one partnership meld per rank (a merged
  meld of seven or more is a canasta; one with more than ``max_wild`` wild cards takes no more);
  the lone hand keeps his own.  A player going out before any take becomes the lone hand; then
  nothing is merged and the other two score together (the sum of their melds, canastas and
  hands).  Pile never taken and nobody out: each scores alone (003:59).  Each seat's score is
  its scoring group's total (lone: his own; partners: the partnership's, 003:58) plus its own red
  threes (per player, 003:58), plus when the group melded, else minus; the initial minimum from
  the seat's own score (003:57).  No asking partner with three hands (the texts are silent).
  ``lone_hand=false``: each for himself throughout (003:56 "the four-hand rules may be used").
* ``unit=game``: hands until a side reaches ``game_to``; the higher total wins when both pass it
  (READINGS 3.1 "game"); a tie plays another hand; the deal rotates left.
"""
from __future__ import annotations

from dataclasses import dataclass

from simkit.core.rules import Rules, option
from simkit.errors import SimkitError

STOCK_END = ("continue", "end")
RED3_MINUS = ("no_meld", "no_canasta")
UNIT = ("hand", "game")
INITIAL = ("classic", "samba", "bolivia", "brazilian", "cuban", "cuban_rg", "samba160")
RED3_TABLE = ("classic", "samba", "cuban", "brazilian")
INCOMPLETE = ("none", "text", "bicycle_seq_lt5")
BLACK3 = ("stop", "faced", "rummy_games")
ASK = ("may", "always")


@dataclass(frozen=True)
class CanastaRules(Rules):
    players: int = option(4, choices=(2, 3, 4), doc="players: 4 in two partnerships (partners "
                          "opposite), 2 each for himself; 3: see lone_hand",
                          source="READINGS-rummy.md 3.1 (players), 003:55 (two), 003:56-59 (three)")
    decks: int = option(2, choices=(2, 3), doc="52-card decks with two jokers each: 2 = 108 cards "
                        "(classic); 3 = 162, the Samba family (003:72): four hands of 15, "
                        "sequences, and Samba's pile rules (003:75, 78: the pile taken only with "
                        "a natural pair or, unfrozen, by adding its top card alone to a group or "
                        "sequence of fewer than seven; no wild card on a canasta)",
                        source="003:61, 003:72, 003:75, 003:78, 003:84; READINGS 3.1 pack, 3.4")
    hand_size: int = option(11, choices=(11, 13, 15), doc="cards dealt to each player (11 "
                            "four-hand, 15 two-hand, 13 three-hand; 13 with four players = "
                            "Cuban)",
                            source="READINGS 3.1 deal; 003:55, 003:56, 003:84")
    draw: int = option(1, range=(1, 2), doc="cards drawn from the stock per turn (one discarded)",
                       source="003:55, 003:57, 003:68; READINGS 3.8 draw_count")
    canastas_to_out: int = option(1, range=(1, 2), doc="canastas a side needs to go out",
                                  source="READINGS 3.1 going out; 003:55, 003:58, 003:79")
    lone_hand: bool = option(True, doc="three players: the first to take the pile becomes the "
                             "lone hand for the deal, the other two partners (their melds "
                             "merged at that take), each seat credited with its group's total "
                             "and its own red threes; a player going out before any take "
                             "becomes the lone hand; no take and nobody out: each alone "
                             "(false: each for himself, 003:56)",
                             source="003:57-59; READINGS 3.3 (reading (a): see the module doc)")
    max_wild: int = option(3, choices=(2, 3), doc="most wild cards in one meld (2: Samba, "
                           "003:75)", source="003:48, 003:63, 003:75")
    wild_le_natural: bool = option(False, doc="a meld may hold no more wild cards than naturals "
                                   "(pagat/modern reading; the default: at least two naturals and "
                                   "at most max_wild wilds)", source="READINGS 3.1 melds")
    sequences: bool = option(False, doc="sequences may be melded (Samba and kin, decks=3 only): "
                             "three to seven naturals of one suit in order, 4 low to ace high, "
                             "no wild card; seven = a samba, closed, a canasta for going out; "
                             "never combined (reading, READINGS 3.4 'duplicate melds')",
                             source="003:74, 003:76, 003:79; READINGS 3.4, 3.8")
    sequence_canasta: int = option(1500, range=(0, 10000), doc="bonus of a samba (a sequence "
                                   "of seven; Bolivia's escalera)", source="003:81, 003:82")
    wild_melds: bool = option(False, doc="melds of wild cards only: three to seven deuces and "
                              "jokers, one per side, its own canasta at seven (Cuban; Bolivia: "
                              "with decks=3 a bolivia of seven is closed; Brazilian 2000)",
                              source="003:84 (003:82-83); READINGS 3.7, 3.8")
    wild_canasta: int = option(2000, range=(0, 10000), doc="bonus of a wild-card canasta "
                               "(wild_melds; Bolivia's bolivia 2500)", source="003:84, 003:82")
    wild_canasta_jokers: int = option(3000, range=(0, 10000), doc="bonus of a wild-card "
                                      "canasta holding all four jokers (wild_melds)",
                                      source="003:84")
    wild_canasta_deuces: int = option(4000, range=(0, 10000), doc="bonus of a wild-card "
                                      "canasta of seven deuces (wild_melds)", source="003:84")
    canasta_max: int = option(0, choices=(0, 7), doc="most cards in a meld (0: no limit; 7: "
                              "Cuban, a canasta takes no more cards; one meld per rank, so a "
                              "lay or pile take that would pass seven is refused)",
                              source="003:84; READINGS 3.7")
    black_threes: str = option("stop", choices=BLACK3, doc="black threes: stop cards (classic); "
                               "faced = Cuban, every three faced when drawn and replaced like "
                               "a red three (the upcard covered), scored by colour with "
                               "red3_table; rummy_games = its Cuban black-three rules (not "
                               "implemented)", source="READINGS 3.1 black threes; 003:84; "
                               "READINGS 3.7")
    pile_always_frozen: bool = option(False, doc="the pile is always frozen: taken only with a "
                                      "natural pair (Cuban; a wild top card blocks the pile "
                                      "in every preset, READINGS 3.1 taking the pile)",
                                      source="003:84; READINGS 3.8")
    initial_table: str = option("classic", choices=INITIAL, doc="the initial-meld minimum table: "
                                "classic 15/50/90/120 by the side's score (< 0 / < 1500 / "
                                "< 3000 / more); cuban 95 (below 3000, negative scores too) / "
                                "125 (3000-4995) / 155 (5000 up), 003:84; cuban_rg "
                                "rummy-games' 95/125/150 (READINGS 3.7); samba classic's rows, "
                                "120 up to 6995, 150 from 7000 (003:77); samba160: 160 from 7000 "
                                "(Bicycle, READINGS 3.4); bolivia = samba (never above 150, 003:82); brazilian: "
                                "samba's rows below 7000 (no 150), then a canasta in the "
                                "initial meld, from 8000 a canasta and 200 over the meld's "
                                "cards, from 9000 a natural canasta (003:83; readings in the "
                                "module doc)", source="READINGS 3.1 initial meld; "
                                "003:50, 003:77, 003:82, 003:83, 003:84")
    red3_table: str = option("classic", choices=RED3_TABLE, doc="three scores: classic 100 "
                             "each, 800 for all four to one side; cuban per colour 100 / 300 "
                             "/ 500 / 1000 for one to four (003:84: 100, +200, +200, +500); "
                             "samba 100 each, 1000 for all six to one side (003:81); brazilian "
                             "100 each up to four, five 1000, six 1200 (Bicycle, READINGS 3.6)",
                             source="READINGS 3.1 red threes, 3.6; 003:81, 003:84")
    red_threes_minus: str = option("no_meld", choices=RED3_MINUS, doc="red threes count minus "
                                   "when the side made no meld (classic) or has no canasta "
                                   "(Brazilian/Cuban tables)", source="READINGS 3.1 red threes")
    black_three_penalty: int = option(0, choices=(0, 100), doc="points a black three left in "
                                      "a hand costs beyond its value when a player goes out "
                                      "(Bolivia 100: every black three in any hand, READINGS "
                                      "3.5 after Bicycle)", source="003:82; READINGS 3.5")
    incomplete_penalty: str = option("none", choices=INCOMPLETE, doc="Brazilian: when a player "
                                     "goes out, each side loses 1000 per incomplete meld: "
                                     "text = every wild-card meld and sequence of fewer than "
                                     "seven cards; bicycle_seq_lt5 = every sequence of fewer "
                                     "than five (Bicycle/rummy-games); counted in "
                                     "pK_canasta_bonus", source="003:83; READINGS 3.6")
    escalera_required: bool = option(False, doc="one of the canastas needed to go out must be "
                                     "a sequence canasta (an escalera; Bolivia)",
                                     source="003:82; READINGS 3.5")
    initial_pile_take: bool = option(True, doc="a side may take the pile for its initial "
                                     "meld (false: Bicycle's Brazilian, the initial meld from "
                                     "the hand on a draw turn; Samba family only)",
                                     source="READINGS 3.6 (Bicycle: 'the pile may not be taken "
                                     "for the initial meld'); 003:83 silent")
    ask_partner: str = option("may", choices=ASK, doc="four hands: may = a player asks partner "
                              "'may I go out?' when his strategy chooses to; always = before "
                              "every going out (Bicycle's Brazilian; Samba family only); a no "
                              "binds for the turn; with always a pile take must leave the "
                              "taker two cards (reading: no take commits him to going out "
                              "unasked)", source="READINGS 3.1 going out; READINGS 3.6 "
                              "(Bicycle: 'always ask partner before going out'); 003:83 silent")
    escalera_out_ends: bool = option(False, doc="in the turn he goes out a player may add "
                                     "hand cards to the ends of his side's escaleras (closed "
                                     "at seven otherwise; Bicycle's Brazilian; Samba family "
                                     "only)", source="READINGS 3.6 (Bicycle: 'in going out one "
                                     "may add to the ends of an escalera'); 003:83 silent")
    going_out: int = option(100, range=(0, 1000), doc="bonus for going out",
                            source="READINGS 3.1 going out; 003:81")
    concealed: int = option(200, range=(0, 1000), doc="bonus for going out concealed (laying the "
                            "whole hand in one turn with no earlier lay in the hand; Cuban: no concealed "
                            "bonus, so 100 as going out)",
                            source="READINGS 3.1 going out; 003:80; READINGS 3.7 (Cuban)")
    natural_canasta: int = option(500, range=(0, 5000), doc="bonus of a natural canasta",
                                  source="READINGS 3.1 canasta")
    mixed_canasta: int = option(300, range=(0, 5000), doc="bonus of a mixed canasta",
                                source="READINGS 3.1 canasta")
    stock_end: str = option("continue", choices=STOCK_END, doc="an empty stock: play goes on "
                            "while each player takes the discard he can add to his side's meld "
                            "(obligatory; Hoyle), or the hand ends at once (so play ends with "
                            "the discard of the player who drew the last card: three-hand, "
                            "003:59)", source="READINGS 3.1 stock exhausted; 003:59")
    game_to: int = option(5000, range=(500, 100000), doc="points that end a game (unit=game)",
                          source="READINGS 3.1 game; 003:58, 003:77, 003:82-84")
    unit: str = option("hand", choices=UNIT, doc="one simulated deal: a hand, or a whole game to "
                       "game_to", source="simulation setting, not a rule")
    max_turns: int = option(600, range=(20, 5000), doc="a hand still going after this many turns "
                            "ends as it stands (a safety stop)", source="not a rule")
    max_hands: int = option(100, range=(1, 10000), doc="a game unfinished after this many hands "
                            "stops, won by the higher total", source="not a rule")

    def check(self) -> None:
        missing = []
        if self.decks == 3 and self.players != 4:
            missing.append(f"decks=3 with {self.players} players (the Samba family is built for four hands)")
        if self.sequences and self.decks != 3:
            missing.append("sequences without decks=3 (the Samba family plays 162 cards, 003:72)")
        if self.decks == 3 and not self.sequences:
            missing.append("decks=3 without sequences (Samba melds sequences, 003:74)")
        if self.escalera_required and not self.sequences:
            missing.append("escalera_required without sequences (Bolivia, 003:82)")
        if self.black_three_penalty and self.decks != 3:
            missing.append("black_three_penalty outside the Samba family (Bolivia, 003:82)")
        if self.max_wild == 2 and self.decks != 3:
            missing.append("max_wild=2 outside the Samba family (003:75)")
        if self.initial_table == "brazilian" and self.decks != 3:
            missing.append("initial_table=brazilian with 108 cards (Brazilian is of the Samba "
                           "family, 003:83)")
        if self.incomplete_penalty != "none" and not self.sequences:
            missing.append("incomplete_penalty without sequences (Brazilian, 003:83)")
        if not self.initial_pile_take and self.decks != 3:
            missing.append("initial_pile_take=false outside the Samba family (Bicycle's "
                           "Brazilian, READINGS 3.6)")
        if self.ask_partner == "always" and (self.decks != 3 or self.players != 4):
            missing.append("ask_partner=always outside four-hand Samba, Bolivia or Brazilian "
                           "(Bicycle's Brazilian, READINGS 3.6; no partner with two or three "
                           "hands)")
        if self.escalera_out_ends and not self.sequences:
            missing.append("escalera_out_ends without sequences (Bicycle's Brazilian, "
                           "READINGS 3.6)")
        if self.black_threes == "rummy_games":
            missing.append("black_threes=rummy_games (its Cuban black threes: not discardable "
                           "in the first round, set aside from a taken pile, 5 each or 100 "
                           "for four; READINGS 3.7)")
        if missing:
            raise SimkitError("canasta: not implemented yet: " + "; ".join(missing)
                              + " (built: classic four-hand, two-hand, three-hand, Cuban, and "
                              "four-hand Samba, Bolivia and Brazilian)")
        if self.decks == 3 and self.hand_size != 15:
            raise SimkitError(f"canasta: Samba deals 15 cards each, not {self.hand_size} "
                              "(003:72): use preset=samba")
        if self.players == 4 and self.hand_size == 15 and self.decks == 2:
            raise SimkitError("canasta: four players are dealt 11 cards (13 in Cuban Canasta, "
                              "003:84), not 15")
        if self.players == 2 and self.hand_size != 15:
            raise SimkitError(f"canasta: two players are dealt 15 cards, not {self.hand_size} "
                              "(003:55): use preset=two_hand (15 cards, draw two, two "
                              "canastas to go out) or set hand_size=15")
        if self.players == 3 and self.hand_size != 13:
            raise SimkitError(f"canasta: three players are dealt 13 cards, not {self.hand_size} "
                              "(003:56): use preset=cutthroat (13 cards, draw two, two "
                              "canastas to go out, 7500) or set hand_size=13")


PRESETS = {"classic": {},
           "two_hand": {"players": 2, "hand_size": 15, "draw": 2, "canastas_to_out": 2},
           "cutthroat": {"players": 3, "hand_size": 13, "draw": 2, "canastas_to_out": 2,
                         "stock_end": "end", "game_to": 7500},
           "cuban": {"hand_size": 13, "canastas_to_out": 2, "pile_always_frozen": True,
                     "wild_melds": True, "canasta_max": 7, "black_threes": "faced",
                     "red3_table": "cuban", "red_threes_minus": "no_canasta",
                     "initial_table": "cuban", "game_to": 8500, "concealed": 100},
           "samba": {"decks": 3, "hand_size": 15, "draw": 2, "canastas_to_out": 2,
                     "max_wild": 2, "sequences": True, "initial_table": "samba",
                     "red3_table": "samba", "going_out": 200, "concealed": 200,
                     "game_to": 10000},
           "bolivia": {"decks": 3, "hand_size": 15, "draw": 2, "canastas_to_out": 2,
                       "max_wild": 2, "sequences": True, "initial_table": "bolivia",
                       "red3_table": "samba", "going_out": 200, "concealed": 200,
                       "wild_melds": True, "wild_canasta": 2500, "wild_canasta_jokers": 2500,
                       "wild_canasta_deuces": 2500, "escalera_required": True,
                       "black_three_penalty": 100, "game_to": 15000},
           "brazilian": {"decks": 3, "hand_size": 15, "draw": 2, "canastas_to_out": 2,
                         "max_wild": 2, "sequences": True, "initial_table": "brazilian",
                         "red3_table": "brazilian", "red_threes_minus": "no_canasta",
                         "going_out": 200, "concealed": 200, "wild_melds": True,
                         "wild_canasta": 2000, "wild_canasta_jokers": 2000,
                         "wild_canasta_deuces": 2000, "incomplete_penalty": "text",
                         "black_three_penalty": 100, "game_to": 10000},
           "game": {"unit": "game"}}
# Brazilian read as Bicycle/rummy-games do (READINGS 3.6): the penalty only for a sequence of
# fewer than five, no pile take for the initial meld, always ask partner before going out
PRESETS["brazilian_bicycle"] = {**PRESETS["brazilian"], "incomplete_penalty": "bicycle_seq_lt5",
                                "initial_pile_take": False, "ask_partner": "always",
                                "escalera_out_ends": True}
PRESET_DOCS = {"classic": "four-hand partnership Canasta (the default; READINGS 3.1)",
               "two_hand": "two players, 15 cards, draw two discard one, two canastas to go out "
                           "(003:55)",
               "cutthroat": "three players, 13 cards, draw two discard one, the first to take "
                            "the pile the lone hand against the other two, two canastas to go "
                            "out, the stock's end ends play, game 7500 (003:56-59)",
               "cuban": "Cuban Canasta (003:84): 13 cards, draw one, two canastas to go out, "
                        "the pile always frozen, canastas of seven at most, wild-card melds "
                        "(2000 / 3000 all four jokers / 4000 seven deuces), every three faced "
                        "and scored by colour (100/300/500/1000) against a side without a "
                        "canasta, minimum 95/125/155, no concealed bonus, game 8500",
               "samba": "Samba (003:71-81): 162 cards, 15 each, draw two discard one, "
                        "sequences (a samba of seven 1500), two wild cards a group at most, "
                        "the pile taken with a natural pair or by adding its top card to a "
                        "meld of fewer than seven, two canastas to go out, going out 200, no "
                        "concealed bonus, red threes 100 each or 1000 all six, minimum "
                        "15/50/90/120/150, game 10000",
               "bolivia": "Bolivia (003:82): Samba with wild-card melds (three to seven; "
                          "a bolivia of seven 2500, closed), a sequence canasta (escalera) "
                          "1500 and one needed among the two to go out, a black three left "
                          "in hand -100, minimum never above 150, game 15000",
               "brazilian": "Brazilian Canasta (003:83): Bolivia with a "
                            "wild-card canasta 2000, no escalera needed to go out, -1000 per "
                            "incomplete wild-card meld or sequence when a player goes out, red "
                            "threes 100 each, five 1000, six 1200, plus with a canasta, minus "
                            "without (Bicycle), a canasta in the initial meld from 7000 "
                            "(8000: and 200 in all; 9000: a natural one), game 10000",
               "brazilian_bicycle": "Brazilian Canasta with Bicycle's readings (READINGS "
                                    "3.6): -1000 only per sequence of fewer than five, the "
                                    "pile not taken for the initial meld, partner always "
                                    "asked before going out, an escalera's ends open to the "
                                    "cards of a player going out",
               "game": "classic, each simulated unit a game to 5000"}
