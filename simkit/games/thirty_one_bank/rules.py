"""Rules of the banker game «31» (Thirty-one with a bank), ``shared/rules/002_17c4cc3dde05b547.txt``
lines 84-98 (line numbers as ``nl`` gives them; the text is machine-translated and garbled in
places).

A banker deals three cards to each punter and to himself (line 90) from one pack of 52 cards, or
two or three such packs "if the players are many".  An ace counts 1 or 11 at its holder's
choice, pictures 10, other cards their number; a hand is the sum of all its cards (line 91), so
a hand's value is its best total not above 31 (its *hard* total, every ace 1, when all are
over).  Readings chosen where the text is unclear (each one an option, the common reading the
default):

* ``stake31``: line 92 "получает с него условленную при начале игры сумму" (a punter dealt 31
  receives "the sum agreed at the start of the game"), and a banker dealt 31 collects "согласно
  условию" (by the agreement).  No amount is written; default 2, the two tokens every other
  settlement pays (lines 93-94).
* ``both31``: line 92 "все понтеры платят ему ... за исключением тех, которые сами имеют на руках
  31" (when the banker is dealt 31 everyone pays him except punters holding 31 themselves).
  ``punter`` (default, the literal reading): the first sentence still pays such a punter, the
  exception only excuses him from paying; ``push``: the two 31s cancel.
* A banker dealt 31 ends the round at once: nobody draws (line 93 "если у банкомета и у понтеров
  не насчитывается сразу..." starts the drawing only when no 31 was dealt).  A punter dealt 31 is
  paid and out of the round (line 94 "за исключением тех, которые сразу получили тридцать одно и
  которым уже заплачено").
* Drawing (line 93): "желающие прикупают по одной карте до нескольких раз" -- punters who wish
  buy one card at a time, as often as they like (no cap is written), in seat order p1, p2, ...;
  the garbled "могут переменить их несколько" is read as changing their total, not exchanging
  cards, since line 91 sums *all* the cards of a hand.  Over 31 pays ``bust_pays`` (two tokens)
  to the banker at once, whatever the banker does later.
* The banker (line 94) "берет одну или несколько карт" when not content: how far he draws is not
  written, so it is the option ``banker_stand`` (he draws while his best total is below it; the
  line-97 remark says he "cannot stay with small points").  ``banker_soft`` is his threshold on a
  soft hand (an ace counted 11, which the next card cannot take over 31, line 91): a banker who hits
  soft 27 is ``banker_stand=27,banker_soft=28``; 0 (default) is ``banker_stand``. He draws only if
  some punter is still in.  Over 31 he "платит всем" (pays everyone still in) ``banker_bust_pays``
  (no amount written: the two tokens of line 94's showdown); when he stands, lower punters pay him
  ``showdown_pays`` (2), higher ones receive it, equal ones neither (line 94).
* ``unit``: ``round`` (default; every round from a fresh pack, the setting of the exact
  analysis) or ``talia`` (lines 95-96: "когда банкомет раздаст все свои карты, что называется
  талия" -- the banker deals on through the pack round after round until it is spent; a new
  pack for every talia).  In a talia the pack's composition carries from round to round, and the
  cards of finished rounds are seen by everyone (line 94: the punters "открывают свои карты").
* ``min_cards``: a further round of a talia starts only while at least this many cards are left
  (default 1: "deals all his cards", line 95).
* ``short_pack``: line 96 "если только не заметит банкомет, что у него недостает карт, в тогда он
  раскладывает оставшиеся карты, кладет их с другими и мешает" (if the banker runs short of
  cards he lays out the cards left, puts them with the others and shuffles).  ``reshuffle``
  (default): when the pack runs out mid-round the spent cards of the talia's earlier rounds are
  shuffled in and dealing goes on; the talia ends with that round.  ``stand``: no reshuffle,
  whoever wants a card stands.  (With nothing spent to shuffle in, whoever wants a card stands.)
* Line 95's bank passing ("банк переходит к понтеру, сидящему направо", or stays with one player
  by agreement): the seats here are places relative to the bank (p1 draws first) and every talia
  starts from a new pack, so who holds the bank next changes no number of a round or a talia;
  it is not an option.
* Deal order (line 90, "по 3 карты"): one card at a time, p1..pK then the banker, three times;
  then each punter's draws in seat order, then the banker's.
"""
from __future__ import annotations

from dataclasses import dataclass

from simkit.core.rules import Rules, option

UNITS = ("round", "talia")
BOTH31 = ("punter", "push")
SHORT = ("reshuffle", "stand")
MAX_PUNTERS = 7


@dataclass(frozen=True)
class ThirtyOneBankRules(Rules):
    punters: int = option(1, range=(1, MAX_PUNTERS), doc="punters against the banker",
                          source="002:89 (any number; capped at 7 for one pack's sake)")
    decks: int = option(1, range=(1, 3), doc="52-card packs shuffled together", source="002:90")
    unit: str = option("round", choices=UNITS,
                       doc="round: a fresh pack each round; talia: deal through the pack",
                       source="002:95-96")
    banker_stand: int = option(27, range=(2, 32),
                               doc="the banker draws while his best total is below this",
                               source="002:94 names no threshold (002:97: not with small points)")
    banker_soft: int = option(0, range=(0, 32),
                              doc="the banker draws on a soft hand (an ace counted 11) while its "
                                  "best total is below this (0: banker_stand, as on a hard hand)",
                              source="002:94 names no threshold; 002:91 (the ace 1 or 11)")
    stake31: float = option(2.0, range=(0.0, 100.0), doc="the agreed sum a dealt 31 is paid",
                            source="002:92 (no amount written: the 2 of 002:93-94)")
    both31: str = option("punter", choices=BOTH31,
                         doc="banker and punter both dealt 31: the punter is paid / a push",
                         source="002:92")
    bust_pays: float = option(2.0, range=(0.0, 100.0), doc="a punter over 31 pays the banker",
                              source="002:93")
    banker_bust_pays: float = option(2.0, range=(0.0, 100.0),
                                     doc="a banker over 31 pays every punter still in",
                                     source="002:94 (no amount written: the showdown's 2)")
    showdown_pays: float = option(2.0, range=(0.0, 100.0),
                                  doc="paid by the lower of banker and punter when he stands",
                                  source="002:94")
    min_cards: int = option(1, range=(1, 156),
                            doc="a talia's next round starts while this many cards are left",
                            source="002:95 (deal all the cards)")
    short_pack: str = option("reshuffle", choices=SHORT,
                             doc="pack spent mid-round: reshuffle the spent cards in / stand",
                             source="002:96")
