"""Rules of an Очко table session, from ``shared/rules/000_e1e7c8054592a022.txt``.

A session: the banker puts up ``bank``, the players stake against it round after round (each
round an ordinary Очко round, :mod:`simkit.engines.banking.round`), and the session ends when
the bank reaches ``stuk_multiple`` times the banker's stake ("стук", after one last round), when
it can no longer cover a stake, or after ``max_rounds`` rounds.  The banker then takes what is left.

The line numbers below are the file's own (``nl``/``cat -n``).  Readings chosen where the text
is unclear (each one an option):

* ``bank``: line 11 "банкир назначает любую сумму банка" (the banker names any bank) and line 40
  "его ставка называется «банк»": the banker's stake, an integer (default 10).
* ``round_cap``: line 11 "ставка не должна превышать ранее определенного банка" (a stake must not
  exceed the bank *as named beforehand*) and line 40 "Сумма ставок всех остальных игроков не
  должна быть больше ставки банка": the players' stakes in a round sum to at most the banker's
  stake, and never to more than the bank holds (``stake``, default).  ``bank``: up to the
  whole current bank in every round (then the стук round is no different from the others).
* ``stuk_multiple`` and ``last_round_cap``: lines 32-34 "стук" comes "когда банк составляет
  сумму в 3 раза больше того, что ставил банкир" and is "заключительный круг игры" (the last
  round), with stakes "иногда сравнимые с полным банком" (sometimes comparable to the whole bank);
  "когда этап «стука» окончен, банкир ... забирает остаток банка".  Read: at the start of a round
  in which the bank holds at least ``stuk_multiple`` x ``bank``, стук is called; that round is the
  last and its stakes may sum to the whole bank (``bank``, default); ``normal``: the last round
  keeps the usual cap; ``none``: no last round, the banker takes the bank at once.
  ``stuk_multiple=0`` switches стук off (then only ruin or ``max_rounds`` end a session).
* ``max_rounds``: not in the text; a cap so that every session ends (default 200).
* Order of stakes: line 40 (one card each, the banker's last and face up, *then* the bets) and
  line 41 (the player on the banker's left first, clockwise): seat order p1, p2, ..., each
  player deciding after seeing his own first card and the banker's.
* ``reserve``: line 42 "ставка 2 игрока может равнять сумме на 2 значения ниже ставки банка"
  (with four players the second may stake up to the bank less 2), "so that the third player can
  also take part": a seat's stake leaves 1 of the cap for every later seat (default on).
* ``short_bank``: line 42 "минимальная ставка каждого из игроков должна равняться 1, даже если
  банк поставил всего 1" (the minimum stake is 1, even when the bank is only 1).  ``sit``
  (default): every stake is a whole number of at least 1 within the cap, and a seat the cap can
  no longer cover sits the round out; ``one``: read as an exception to the cap, every seat
  always stakes at least 1, even beyond what the bank holds.
* Settlement (lines 11, 45): a losing stake (and a bust fine, ``bust_penalty``) feeds the bank, a
  winning one is paid from it at the round's rates (``golden_pays`` ...).  Payouts above 1 per
  stake, or ``short_bank=one``, can take the bank below 0: the banker makes up the difference
  from his own pocket (his ``bank_result`` can fall below ``-bank``).
* A bank that can no longer cover a stake of 1 (below 1 with ``short_bank=sit``, at or below 0
  with ``one``) ends the session: ``bank_broke``.
* A seat that sits a round out is still dealt its hand (with no stake), so that the other seats'
  cards are those of the round's key, the same as in every other configuration (pairing).
* Not modelled: line 34's side bets of the others on the last player's cards, line 44's "the win
  goes to the largest stake if he can cover it", line 14's fines for hidden busts.

Every round option of :class:`~simkit.engines.banking.rules.OchkoRules` (the game ``ochko``'s)
applies to each round.
"""
from __future__ import annotations

from dataclasses import dataclass

from simkit.core.rules import option
from simkit.errors import SimkitError
from simkit.engines.banking.rules import OchkoRules

# option choices and the codes the kernel reads them by (the code is the index in the tuple)
LAST_ROUND_CAPS = ("bank", "normal", "none")
LAST_BANK, LAST_NORMAL, LAST_NONE = range(3)   # the стук round: whole bank / usual cap / none
ROUND_CAPS = ("stake", "bank")
CAP_STAKE, CAP_BANK = range(2)                 # a round's stakes: the banker's stake / the bank
SHORT_BANKS = ("sit", "one")
SHORT_SIT, SHORT_ONE = range(2)                # a seat the cap cannot cover: sits out / stakes 1


@dataclass(frozen=True)
class OchkoSessionRules(OchkoRules):
    bank: int = option(10, range=(1, 1_000_000), doc="the banker's stake: the bank he puts up",
                       source="000:11,40")
    stuk_multiple: float = option(3.0, range=(0.0, 1000.0),
                                  doc="стук when the bank holds this many times the banker's "
                                      "stake (0: never; else above 1)", source="000:32-34")
    max_rounds: int = option(200, range=(1, 1_000_000), doc="most rounds in a session (a cap)",
                             source="none: the text ends a session only by стук or ruin "
                                    "(000:32-34); a cap so that every session ends")
    last_round_cap: str = option("bank", choices=LAST_ROUND_CAPS,
                                 doc="стук round: stakes up to the whole bank / the usual cap / "
                                     "no last round", source="000:33-34")
    round_cap: str = option("stake", choices=ROUND_CAPS,
                            doc="stakes in a round sum to at most the banker's stake (and the "
                                "bank) / the whole bank", source="000:11,40")
    reserve: bool = option(True, doc="each seat leaves 1 of the cap for every later seat",
                           source="000:42")
    short_bank: str = option("sit", choices=SHORT_BANKS,
                             doc="a seat the cap cannot cover sits out / always stakes 1",
                             source="000:42")

    def check(self) -> None:
        super().check()
        if 0.0 < self.stuk_multiple <= 1.0:
            raise SimkitError(f"stuk_multiple={self.stuk_multiple} is out of range: allowed 0 "
                              f"(no стук) or a number above 1 (up to 1000)")
