"""Seat strategies of an Очко session: a staking rule and a playing rule, as numbers.

The playing rule is ``t``: draw while the total is below ``t`` (the banker's round's
:func:`~simkit.engines.banking.round.draw_below`, Очко's ``stand_at``).  The staking rules:

* ``fixed(stake, t)``: a fixed stake;
* ``fraction(f, t)``: ``f`` times the current bank, rounded half up;
* ``vabank(card, base, t)``: "на все", everything the cap allows when the player's first card is
  worth at least ``card`` points, else ``base``.

The kernel reads them from :class:`Seats`; every wish is then clipped to the seat's cap (and to
at least 1).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simkit.core.records import seat_arrays
from simkit.core.registry import Param, StrategyKind
from simkit.engines.banking.round import NU, draw_below, stop_tables
from simkit.errors import SimkitError

STAKE_FIXED, STAKE_FRACTION, STAKE_VABANK = 0, 1, 2   # kind codes (Seats.kind)
_T = Param("t", 17, (2, 22), "draw while the total is below t")
STRATEGIES = {
    "fixed": StrategyKind("fixed", STAKE_FIXED,
                          (Param("stake", 1, (1, 1_000_000), "the stake"), _T),
                          "stake a fixed amount; draw while below t"),
    "fraction": StrategyKind("fraction", STAKE_FRACTION,
                             (Param("f", 0.1, (0.0, 1.0), "share of the current bank"), _T),
                             "stake f x the current bank (rounded, at least 1); draw while "
                             "below t"),
    "vabank": StrategyKind("vabank", STAKE_VABANK,
                           (Param("card", 11, (2, 11), "first-card points to go all in"),
                            Param("base", 1, (1, 1_000_000), "the stake otherwise"), _T),
                           "на все: stake all the cap allows when the first card is worth at least "
                           "card points, else base; draw while below t"),
}


class Seats(NamedTuple):
    """The seats' strategies, the house's record of per-seat arrays
    (:func:`simkit.core.records.seat_arrays`): each seat's staking rule (its kind, ``fixed``'s
    ``stake``, ``fraction``'s ``f``, ``vabank``'s ``card`` and ``base``; a seat whose kind lacks
    a parameter holds its default) and its playing rule ``t``, then the playing rules as the
    banker's round's policies (:class:`simkit.engines.banking.round.Policies`' fields: the stop
    tables ``uint8[K, NU, 2048]`` and the draw probabilities ``float64[K, NU, 2048]``)."""
    kind: np.ndarray           # int64[K]: STAKE_FIXED, STAKE_FRACTION or STAKE_VABANK
    stake: np.ndarray          # int64[K]: fixed's stake
    f: np.ndarray              # float64[K]: fraction's share of the current bank
    card: np.ndarray           # int64[K]: vabank's first-card points to go all in
    base: np.ndarray           # int64[K]: vabank's stake otherwise
    t: np.ndarray              # int64[K]: draw while the total is below t
    table: np.ndarray          # uint8[K, NU, 2048]
    hitp: np.ndarray           # float64[K, NU, 2048]


def playing(strategies, max_cards: int):
    """The seats' playing rules as the round's policy tables ``(table, hitp)``, each
    ``[K, NU, 2048]``: each draws while below his ``t`` (and stops at 21 or at ``max_cards``
    cards)."""
    hitp = np.stack([draw_below(s.values["t"]) for s in strategies])
    K = len(strategies)
    return stop_tables(hitp, max_cards).reshape(K, NU, -1), hitp.reshape(K, NU, -1)


def seats(strategies, max_cards: int) -> Seats:
    """The kernel's strategy record: the staking rules and the playing rules (:func:`playing`)."""
    for s in strategies:
        if s.kind not in STRATEGIES:
            raise SimkitError(f"unknown strategy {s.kind!r} for ochko_session: available "
                              f"strategies are {', '.join(STRATEGIES)}")
    table, hitp = playing(strategies, max_cards)
    return seat_arrays(Seats, strategies, STRATEGIES, table=table, hitp=hitp)
