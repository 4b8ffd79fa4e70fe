"""Player strategies for Очко, as data: a kind code and a parameter, or a hit table.

* ``stand_at(t)``: draw while the total is below ``t`` (the banker's own rule with ``t=17``).
* ``random(p)``: draw with probability ``p`` whenever a card may be taken.
* ``table(path)``: a policy table by (total, number of cards); the file (CSV or Parquet) has
  columns ``total``, ``cards`` and ``hit`` (the probability of drawing, 0 or 1 for a pure
  policy); pairs it does not list stand.
"""
from __future__ import annotations

import os

import numpy as np
import pandas as pd

from simkit.core.registry import Param, StrategyKind
from simkit.errors import SimkitError
from simkit.games.ochko.engine import ASK, DRAW, STOP, TN, TT

K_STAND_AT, K_RANDOM, K_TABLE = 0, 1, 2
TABLE_TOTALS, TABLE_CARDS = 32, 13  # the policy-file grid: totals 0..31, cards 0..12

STRATEGIES = {
    "stand_at": StrategyKind("stand_at", K_STAND_AT, (Param("t", 17, (2, 22), "draw while below t"),),
                             "draw while the total is below t"),
    "random": StrategyKind("random", K_RANDOM, (Param("p", 0.5, (0.0, 1.0), "chance to draw"),),
                           "draw with probability p whenever allowed"),
    "table": StrategyKind("table", K_TABLE, (Param("path", "", None, "CSV/Parquet: total,cards,hit"),),
                          "hit probability by (total, cards) from a file"),
}


def load_table(path: str) -> np.ndarray:
    """Read a policy file into ``float64[32, 13]`` hit probabilities (unlisted pairs stand)."""
    if not path or not os.path.exists(path):
        raise SimkitError(f"table strategy: policy file {path!r} not found (give path=FILE.csv "
                          f"with columns total,cards,hit)")
    try:
        df = pd.read_parquet(path) if path.endswith(".parquet") else pd.read_csv(path)
        t = df["total"].to_numpy(int)
        c = df["cards"].to_numpy(int)
        h = df["hit"].to_numpy(float)
    except Exception as e:  # noqa: BLE001 - any unreadable file is a user error
        raise SimkitError(f"table strategy: cannot read {path!r} ({type(e).__name__}): it needs "
                          f"columns total,cards,hit") from None
    if (t < 0).any() or (t >= TABLE_TOTALS).any() or (c < 0).any() or (c >= TABLE_CARDS).any() \
            or (h < 0).any() or (h > 1).any() or np.isnan(h).any():
        raise SimkitError(f"table strategy: {path!r} has values out of range (total 0..31, "
                          f"cards 0..12, hit 0..1)")
    table = np.zeros((TABLE_TOTALS, TABLE_CARDS))
    table[t, c] = h
    return table


def hit_probabilities(strategy) -> np.ndarray:
    """``float64[64, 32]``: the chance that ``strategy`` draws at (total, cards held)."""
    v = strategy.values
    if strategy.kind == "stand_at":
        return (np.arange(TT)[:, None] < v["t"]) * np.ones((TT, TN))
    if strategy.kind == "random":
        return np.full((TT, TN), float(v["p"]))
    p = np.zeros((TT, TN))
    p[:TABLE_TOTALS, :TABLE_CARDS] = load_table(v["path"])
    p[:TABLE_TOTALS, TABLE_CARDS:] = p[:TABLE_TOTALS, TABLE_CARDS - 1:TABLE_CARDS]
    return p  # totals of 21 and more always stop (see encode)


def encode(strategies, rules):
    """The players' stop tables ``uint8[K, 64, 32]`` by (total, cards held) (DRAW, STOP, or ASK:
    draw with probability ``hitp``) and ``hitp``.  A total of 21 or more and the ``max_cards``
    cap always stop."""
    t = np.arange(TT)[:, None]
    n = np.arange(TN)[None, :]
    forced = np.broadcast_to((t >= 21) | (n >= rules.max_cards), (TT, TN))
    hitp = np.stack([hit_probabilities(s) for s in strategies])
    ptab = np.where(hitp >= 1.0, DRAW, np.where(hitp <= 0.0, STOP, ASK)).astype(np.uint8)
    ptab[:, forced] = STOP
    return ptab, hitp
