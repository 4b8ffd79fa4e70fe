"""Exact numbers in the results-table shape: what a game's ``GameSpec.exact`` hook returns as its
table (``simkit exact GAME`` prints it, ``-o`` writes it, ``simkit report`` reads it)."""
from __future__ import annotations

import re

import pandas as pd

from simkit._version import __version__
from simkit.core.registry import game_string
from simkit.errors import SimkitError

_SEAT = re.compile(r"p\d+")


def check_request(spec, strategies=(), grid_axes=()) -> None:
    """Refuse in one line what ``spec``'s exact analysis cannot honour: a ``--grid`` axis or a
    ``-s`` seat (``"p2=..."``) that ``spec.exact_takes`` does not name.  An exact answer that
    ignored them would answer another question than the one asked."""
    takes = spec.exact_takes
    seats = [t for t in takes if _SEAT.fullmatch(t)]
    axes = [t for t in takes if t not in seats]
    bad = [k for k, _ in grid_axes or () if k not in axes]
    if bad:
        what = f"--grid on {', '.join(axes)} only" if axes else "no --grid"
        raise SimkitError(f"{spec.name}'s exact analysis takes {what}, not {', '.join(bad)}")
    bad = [s.split("=", 1)[0].strip() for s in strategies or ()]
    bad = [s for s in bad if s not in seats]
    if bad:
        what = f"a strategy for {', '.join(seats)} only" if seats else "no strategy (-s)"
        raise SimkitError(f"{spec.name}'s exact analysis takes {what}, not {', '.join(bad)}")


def tidy(spec, rules, rows: dict[str, float] | pd.DataFrame, strategies: str, method: str,
         grid_cols=()) -> pd.DataFrame:
    """Exact values as a results table with the simulation's columns (``se`` 0, the CI the
    value, ``n`` 0): one row per metric (and grid point, ``grid_cols`` naming the grid's
    columns of a wide ``rows`` frame)."""
    if isinstance(rows, dict):
        rows = pd.DataFrame([rows])
    metrics = [c for c in rows.columns if c not in grid_cols and c != "best_reply"
               and pd.api.types.is_numeric_dtype(rows[c])]
    long = rows.melt(id_vars=list(grid_cols), value_vars=metrics, var_name="metric",
                     value_name="mean")
    return with_provenance(spec, rules, long, strategies, method)


def with_provenance(spec, rules, long: pd.DataFrame, strategies: str, method: str) -> pd.DataFrame:
    """A long table of exact values (``metric``, ``mean`` and any grid columns) with the
    results table's other columns: game, rules, strategies, se 0, the CI the value, provenance."""
    long = long.copy()
    long["mean"] = long["mean"].astype(float)
    long.insert(0, "strategies", strategies)
    long.insert(0, "rules", game_string(spec, rules))
    long.insert(0, "game", spec.name)
    return long.assign(se=0.0, ci_low=long["mean"], ci_high=long["mean"], n=0, seed=0,
                       game_version=spec.version, simkit_version=__version__,
                       created=pd.Timestamp.now(tz="UTC").isoformat(timespec="seconds"),
                       method=method)
