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
from simkit.games.ochko.engine import K_RANDOM, K_STAND_AT, K_TABLE, TABLE_CARDS, TABLE_TOTALS

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


def table_from_function(hit) -> np.ndarray:
    """A policy table from a Python ``hit(total, cards) -> probability``."""
    return np.array([[float(hit(t, c)) for c in range(TABLE_CARDS)] for t in range(TABLE_TOTALS)])


def encode(strategies):
    K = len(strategies)
    kinds = np.zeros(K, np.int64)
    params = np.zeros((K, 1), np.float64)
    tables = np.zeros((K, TABLE_TOTALS, TABLE_CARDS), np.float64)
    for k, s in enumerate(strategies):
        kind = STRATEGIES[s.kind]
        kinds[k] = kind.code
        v = s.values
        if s.kind == "stand_at":
            params[k, 0] = v["t"]
        elif s.kind == "random":
            params[k, 0] = v["p"]
        else:
            tables[k] = load_table(v["path"])
    return kinds, params, tables
