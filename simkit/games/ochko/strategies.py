"""Player strategies for Очко, as data: a kind code and a parameter, or a hit table.

* ``stand_at(t)``: draw while the total is below ``t`` (the banker's own rule with ``t=17``).
* ``random(p)``: draw with probability ``p`` whenever a card may be taken.
* ``upcard_stand(t, t_strong, strong)``: sees the banker's face-up card (line 40: the banker's
  card is dealt last and turned at once): draw while below ``t_strong`` when that card is worth
  ``strong`` points or more, else while below ``t``.  The defaults (14, 18, 10) are the best of
  ``simkit sweep ochko -s p1=upcard_stand --grid p1.t=12..15 --grid p1.t_strong=16..19 --grid
  p1.strong=9,10,11 -n 4e6 --seed 3`` (p1_result -0.1165 against stand_at(17)'s -0.1641 and the
  basic table's -0.1221, n = 4e6, SE 0.0005).
* ``table(path)``: a policy table by (total, number of cards); the file (CSV or Parquet) has
  columns ``total``, ``cards`` and ``hit`` (the probability of drawing, 0 or 1 for a pure
  policy), and optionally ``banker`` (the face-up card's points; rows without it, or files
  without the column, hold for every face-up card); pairs it does not list stand.  The default
  ``path=basic`` is the bundled ``policies/basic.csv``: the exact composition-dependent best
  play against the default banker (``exact.best_play(upcard=False)``), hitting wherever that
  play hits at least half the time it reaches the (total, cards); it is written by
  ``scripts/make_ochko_basic_table.py``.
"""
from __future__ import annotations

import functools
import os
from typing import NamedTuple

import numpy as np
import pandas as pd

from simkit.core.records import seat_arrays
from simkit.core.registry import Param, StrategyKind
from simkit.errors import SimkitError
from simkit.engines.banking.round import NU, TN, TT, draw_below, stop_tables

K_STAND_AT, K_RANDOM, K_TABLE, K_UPCARD = 0, 1, 2, 3
BUNDLED = {"basic": os.path.join(os.path.dirname(os.path.abspath(__file__)), "policies",
                                 "basic.csv")}
TABLE_TOTALS, TABLE_CARDS = 32, 13  # the policy-file grid: totals 0..31, cards 0..12

STRATEGIES = {
    "stand_at": StrategyKind("stand_at", K_STAND_AT, (Param("t", 17, (2, 22), "draw while below t"),),
                             "draw while the total is below t"),
    "random": StrategyKind("random", K_RANDOM, (Param("p", 0.5, (0.0, 1.0), "chance to draw"),),
                           "draw with probability p whenever allowed"),
    "table": StrategyKind("table", K_TABLE, (Param("path", "basic", None,
                                                   "CSV/Parquet: total,cards,hit[,banker]; "
                                                   "basic: the bundled best-play table",
                                                   file=lambda v: BUNDLED.get(v, v)),),
                          "hit probability by (total, cards) from a file"),
    "upcard_stand": StrategyKind(
        "upcard_stand", K_UPCARD,
        (Param("t", 14, (2, 22), "draw while below t against a weak face-up card"),
         Param("t_strong", 18, (2, 22), "draw while below t_strong against a strong one"),
         Param("strong", 10, (0, 11), "a face-up card worth this many points or more is strong")),
        "stand_at with a threshold by the banker's face-up card"),
}


def load_table(path: str) -> np.ndarray:
    """Read a policy file into ``float64[NU, 32, 13]`` hit probabilities by the banker's face-up
    card's points, total and cards held (unlisted pairs stand).  The result is read-only and
    cached by the file's path, size and modification time (every chunk and stacked deal prepares
    its strategies; reading the file each time cost 5 ms)."""
    path = BUNDLED.get(path, path)
    if not path or not os.path.exists(path):
        raise SimkitError(f"table strategy: policy file {path!r} not found (give path=FILE.csv "
                          f"with columns total,cards,hit, or path=basic)")
    st = os.stat(path)
    return _read_table(path, st.st_mtime_ns, st.st_size)


@functools.lru_cache(maxsize=64)
def _read_table(path: str, mtime_ns: int, size: int) -> np.ndarray:
    try:
        df = pd.read_parquet(path) if path.endswith(".parquet") else pd.read_csv(path)
        t = df["total"].to_numpy(int)
        c = df["cards"].to_numpy(int)
        h = df["hit"].to_numpy(float)
        b = df["banker"].to_numpy(float) if "banker" in df.columns else np.full(len(df), np.nan)
    except Exception as e:  # noqa: BLE001 - any unreadable file is a user error
        raise SimkitError(f"table strategy: cannot read {path!r} ({type(e).__name__}): it needs "
                          f"columns total,cards,hit") from None
    listed = b[~np.isnan(b)]
    if (t < 0).any() or (t >= TABLE_TOTALS).any() or (c < 0).any() or (c >= TABLE_CARDS).any() \
            or (h < 0).any() or (h > 1).any() or np.isnan(h).any() \
            or (listed < 0).any() or (listed >= NU).any() or (listed != np.round(listed)).any():
        raise SimkitError(f"table strategy: {path!r} has values out of range (total 0..31, "
                          f"cards 0..12, hit 0..1, banker 0..11)")
    table = np.zeros((NU, TABLE_TOTALS, TABLE_CARDS))
    every = np.isnan(b)
    table[:, t[every], c[every]] = h[every]
    for u in np.unique(listed).astype(int):  # rows for one face-up card override the others
        sel = b == u
        table[u, t[sel], c[sel]] = h[sel]
    table.setflags(write=False)
    return table


def hit_probabilities(strategy) -> np.ndarray:
    """``float64[NU, 64, 32]``: the chance that ``strategy`` draws at (banker's face-up card's
    points, total, cards held); read-only, cached (a table strategy by its file's state)."""
    return _hit_probabilities(strategy, _file_state(strategy))


def _file_state(strategy):
    """A table strategy's file as (modification time, size): what its cached tables depend on."""
    if strategy.kind != "table":
        return None
    path = BUNDLED.get(strategy.values["path"], strategy.values["path"])
    st = os.stat(path) if path and os.path.exists(path) else None
    return (st.st_mtime_ns, st.st_size) if st else None


@functools.lru_cache(maxsize=256)
def _hit_probabilities(strategy, file_state) -> np.ndarray:
    p = _hit_probabilities_of(strategy)
    p.setflags(write=False)
    return p


def _hit_probabilities_of(strategy) -> np.ndarray:
    v = strategy.values
    if strategy.kind == "stand_at":
        return draw_below(v["t"])
    if strategy.kind == "upcard_stand":
        return draw_below(np.where(np.arange(NU) >= v["strong"], v["t_strong"], v["t"]))
    if strategy.kind == "random":
        return np.full((NU, TT, TN), float(v["p"]))
    p = np.zeros((NU, TT, TN))
    p[:, :TABLE_TOTALS, :TABLE_CARDS] = load_table(v["path"])
    p[:, :TABLE_TOTALS, TABLE_CARDS:] = p[:, :TABLE_TOTALS, TABLE_CARDS - 1:TABLE_CARDS]
    return p  # totals of 21 and more always stop (see encode)


def sees_upcard(hitp: np.ndarray) -> bool:
    """Whether a policy (``[..., NU, 64, 32]``) depends on the banker's face-up card."""
    return bool((hitp != hitp[..., :1, :, :]).any())


class Seats(NamedTuple):
    """The players' strategies, the house's record of per-seat arrays
    (:func:`simkit.core.records.seat_arrays`): each seat's kind and parameters (``path``, a file
    name, stays out: its table is in ``table``/``hitp``), then the seats' policies as the
    banker's round reads them (:class:`simkit.engines.banking.round.Policies`' fields): the stop
    tables ``uint8[K, NU, 2048]`` by (banker's face-up card's points, hand) and the draw
    probabilities where they ASK, ``float64[K, NU, 2048]``."""
    kind: np.ndarray           # int64[K]
    t: np.ndarray              # int64[K]: stand_at's t, upcard_stand's t against a weak card
    p: np.ndarray              # float64[K]: random's chance to draw
    t_strong: np.ndarray       # int64[K]: upcard_stand's t against a strong face-up card
    strong: np.ndarray         # int64[K]: upcard_stand's strong face-up card's points
    table: np.ndarray          # uint8[K, NU, 2048]
    hitp: np.ndarray           # float64[K, NU, 2048]


def encode(strategies, rules) -> Seats:
    """The kernel's strategy record (:class:`Seats`), the tables by :func:`policy_tables`."""
    strategies = tuple(strategies)
    ptab, hitp = policy_tables(strategies, rules)
    K = len(strategies)
    return seat_arrays(Seats, strategies, STRATEGIES, table=ptab.reshape(K, NU, -1),
                       hitp=hitp.reshape(K, NU, -1))


def policy_tables(strategies, rules):
    """The players' stop tables ``uint8[K, NU, 64, 32]`` by (banker's face-up card's points,
    total, cards held) (DRAW, STOP, or ASK: draw with probability ``hitp``) and ``hitp``.  A
    total of 21 or more and the ``max_cards`` cap always stop.  Cached (every chunk and stacked
    deal prepares its strategies); the caller gets its own copies."""
    strategies = tuple(strategies)
    ptab, hitp = _encode(strategies, rules.max_cards, tuple(_file_state(s) for s in strategies))
    return ptab.copy(), hitp.copy()


@functools.lru_cache(maxsize=128)
def _encode(strategies, max_cards, file_states):
    hitp = np.stack([hit_probabilities(s) for s in strategies])
    return stop_tables(hitp, max_cards), hitp
