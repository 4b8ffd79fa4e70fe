"""Seat strategies of an Очко session: a staking rule and a playing rule, as numbers.

The playing rule is ``t``: draw while the total is below ``t`` (the banker's round's
:func:`~simkit.engines.banking.round.draw_below`, Очко's ``stand_at``).  The staking rules:

* ``fixed(stake, t)``: a fixed stake;
* ``fraction(f, t)``: ``f`` times the current bank, rounded half up;
* ``vabank(card, base, t)``: "на все", everything the cap allows when the player's first card is
  worth at least ``card`` points, else ``base``.

All three are one formula in the kernel (:class:`Seats`); every wish is then clipped to the
seat's cap (and to at least 1).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simkit.core.records import record
from simkit.core.registry import Param, StrategyKind
from simkit.engines.banking.round import Policies, draw_below, policies, stop_tables
from simkit.errors import SimkitError

STAKE_FIXED, STAKE_FRACTION, STAKE_VABANK = 0, 1, 2   # kind codes (the kernel reads Seats)
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


NEVER_ALL_IN = 12  # all_in_at of a rule that never goes all in: above any card's points (11)


class Seats(NamedTuple):
    """The seats' staking rules as one formula, and their playing rules as the banker's round's
    policies.  Seat ``k`` asks for everything its cap allows when its first card is worth at
    least ``all_in_at[k]`` points, else for ``base[k]`` plus ``share[k]`` times the current bank
    (rounded half up): ``fixed`` is ``base=stake``, ``fraction`` is ``share=f`` and ``vabank`` is
    ``all_in_at=card, base=base``."""
    base: np.ndarray       # float64[K]: the fixed part of the stake (fixed's stake, vabank's base)
    share: np.ndarray      # float64[K]: the share of the current bank (fraction's f)
    all_in_at: np.ndarray  # int64[K]: first-card points to go all in (vabank's card; else 12)
    play: Policies         # the round's policies (draw while below ``t``, per seat)


def staking(strategies) -> dict[str, np.ndarray]:
    """The :class:`Seats` fields but ``play``, one entry per seat."""
    K = len(strategies)
    base, share, all_in_at = np.zeros(K), np.zeros(K), np.full(K, NEVER_ALL_IN, np.int64)
    for k, s in enumerate(strategies):
        v = s.values
        if s.kind == "fixed":
            base[k] = v["stake"]
        elif s.kind == "fraction":
            share[k] = v["f"]
        elif s.kind == "vabank":
            all_in_at[k], base[k] = v["card"], v["base"]
        else:
            raise SimkitError(f"unknown strategy {s.kind!r} for ochko_session: available "
                              f"strategies are {', '.join(STRATEGIES)}")
    return dict(base=base, share=share, all_in_at=all_in_at)


def playing(strategies, max_cards: int) -> Policies:
    """The seats' playing rules as the round's policies: each draws while below his ``t`` (and
    stops at 21 or at ``max_cards`` cards)."""
    hitp = np.stack([draw_below(s.values["t"]) for s in strategies])
    return policies(stop_tables(hitp, max_cards), hitp)


def seats(strategies, max_cards: int) -> Seats:
    """The kernel's strategy record: the staking rules and the playing rules (:func:`playing`)."""
    return record(Seats, **staking(strategies), play=playing(strategies, max_cards))
