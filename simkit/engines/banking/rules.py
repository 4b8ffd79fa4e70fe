"""Rules of an Очко (21) round, from ``shared/rules/000_e1e7c8054592a022.txt``: the options of the
banker's round (:mod:`simkit.engines.banking.round`), which the games ``ochko`` and
``ochko_session`` both play.

Two texts describe the game (line numbers as ``grep -n`` gives them): lines 8-35 (the "Russian"
variant, banker draws to 16 and stops at 17, golden point, five pictures, 6-7-8 / 7-7-7, "стук")
and lines 36-46 (36 or 54 cards, J=2 Q=3 K=4 A=11, one card each then bets, at most five cards,
the first to 21 wins, golden point).

Readings chosen where the texts are unclear (each one an option):

* ``values``: line 38 gives J=2, Q=3, K=4, A=11 (``standard``, the common Soviet reading).  Lines
  21-29 list "8 - валет; 9 - дама; 10 - король; 11 - туз", a garbled table kept as the alternative
  ``text1`` (J=8, Q=9, K=10).  An ace is always 11 (no soft ace in either text).
* ``deck``: 36 (lines 20, 37).  Line 37's 54-card deck is read as the 52-card pack, since jokers
  have no value in the texts; 2-5 then count their face value.
* ``banker_stop``: line 17 "may take cards while the total is 16, must stop at 17 or more", so
  the banker draws while below 17.  ``banker_max_cards``: no cap (0), since only the players'
  5-card limit is written (line 43).
* ``player_21_wins``: line 44 "the first to reach 21 ... takes the win from the bank at once", and
  line 11.  When off, a 21 stands and meets the banker like any other total.
* ``golden_point``: two aces as the first two cards win at once (lines 30, 44); paid
  ``golden_pays`` (line 30: "takes the amount of the stake", i.e. even money).  The banker's own
  golden point beats every standing player.
* ``five_pictures``: five picture cards (J, Q, K) "cannot lose, whatever the total" (line 31): a
  player who holds them wins at once, paid ``five_pictures_pays``.
* ``banker_five_pictures``: line 31 says a five-picture hand "cannot lose" without limiting it to
  the players.  Off by default (the common reading: a player's privilege, as the golden point's
  payout is); on, the banker stops on five pictures and beats every player still standing, as
  his golden point does (metric ``banker_five``).
* ``bonus_hands``: 6-7-8 and 7-7-7 (21 in three cards) pay ``bonus_pays`` "only if agreed
  beforehand" (line 31), so off by default.
* ``ties``: "по глазам" ties go to the bank (line 13); ``push`` returns the stake.
* ``bust_penalty``: line 45 fines a bust but names no amount (line 14 fines only a hidden bust,
  which honest simulated players never do); default 0, in stakes.
* Deal order (line 40): one card to each player, the banker's card last and face up; then each
  player in turn draws, then the banker.  The banker draws only if some player still stands.
  If the deck runs out mid-round the one who wanted a card stands (line 46 reshuffles discards
  between rounds; within one round there are none).
"""
from __future__ import annotations

from dataclasses import dataclass

from simkit.core.rules import Rules, option
from simkit.errors import SimkitError


@dataclass(frozen=True)
class OchkoRules(Rules):
    players: int = option(1, range=(1, 9), doc="players drawing in turn before the banker",
                          source="000:2-3,37")
    deck: int = option(36, choices=(36, 52), doc="36 (6..A) or 52 (2..A) cards", source="000:20,37")
    values: str = option("standard", choices=("standard", "text1"),
                         doc="standard: J=2 Q=3 K=4 A=11; text1: J=8 Q=9 K=10 A=11",
                         source="000:38 / 000:21-29")
    banker_stop: int = option(17, range=(2, 22), doc="the banker draws while his total is below this",
                              source="000:17")
    max_cards: int = option(5, range=(2, 12), doc="most cards a player may hold", source="000:43")
    banker_max_cards: int = option(0, range=(0, 12), doc="most cards the banker may hold (0: no cap)",
                                   source="none: only the players' cap is written (000:43)")
    player_21_wins: bool = option(True, doc="a player reaching 21 wins at once",
                                  source="000:11,44")
    golden_point: bool = option(True, doc="two aces as the first two cards win at once",
                                source="000:30,44")
    golden_pays: float = option(1.0, range=(0.0, 10.0), doc="payout of a golden point, in stakes",
                                source="000:30")
    five_pictures: bool = option(True, doc="five picture cards win at once, whatever the total",
                                 source="000:31")
    five_pictures_pays: float = option(1.0, range=(0.0, 10.0), doc="payout of five pictures",
                                       source="000:31 names no amount: even money")
    banker_five_pictures: bool = option(False, doc="the banker's five pictures are unlosable too: "
                                                   "he stops and beats every standing player",
                                        source="000:31 (not limited to players)")
    bonus_hands: bool = option(False, doc="6-7-8 and 7-7-7 pay bonus_pays (by prior agreement)",
                               source="000:31")
    bonus_pays: float = option(2.0, range=(0.0, 10.0), doc="payout of a bonus hand, in stakes",
                               source="000:31 names no amount")
    ties: str = option("bank", choices=("bank", "push"), doc="who takes an equal total",
                       source="000:13")
    bust_penalty: float = option(0.0, range=(0.0, 10.0), doc="fine for a bust on top of the stake",
                                 source="000:45")

    def check(self) -> None:
        if self.banker_max_cards == 1:
            raise SimkitError("banker_max_cards=1 is out of range: allowed 0 (no cap) or 2..12")
