"""The knock-threshold study: at what deadwood should a gin player knock?

Every function runs :func:`simkit.sweep` (same deals for every grid point, seats swapped), so
differences between thresholds carry small error bars, and returns tidy DataFrames.

* :func:`against` -- ``threshold(knock=t)`` for ``t`` in ``knocks`` against one opponent.
* :func:`matrix` -- every threshold against every threshold (``p1.knock`` x ``p2.knock``).
* :func:`best_replies` -- from a matrix table: for each opponent threshold, p1's best threshold,
  its value and the runner-up's, with the paired difference between them.
"""
from __future__ import annotations

import pandas as pd

from simkit.analysis import compare
from simkit.analysis.simulate import sweep

KNOCKS = tuple(range(11))


def against(opponent: str = "simple", rules: str = "gin", n: int = 100_000, seed: int = 1,
            knocks=KNOCKS, workers: int = 1, progress: bool | None = None, **kw):
    """``threshold(knock=t)`` in seat p1 for each ``t`` against ``opponent`` in p2."""
    grid = ["p1.knock=" + ",".join(map(str, knocks))]
    return sweep(rules, grid, n=n, seed=seed, strategies=["p1=threshold(10)", f"p2={opponent}"],
                 workers=workers, progress=progress, **kw)


def matrix(rules: str = "gin", n: int = 20_000, seed: int = 1, knocks=KNOCKS, workers: int = 1,
           progress: bool | None = None, **kw):
    """Every ``threshold(a)`` against every ``threshold(b)`` on the same deals."""
    vals = ",".join(map(str, knocks))
    return sweep(rules, [f"p1.knock={vals}", f"p2.knock={vals}"], n=n, seed=seed,
                 strategies=["p1=threshold(10)", "p2=threshold(10)"], workers=workers,
                 progress=progress, **kw)


def best_replies(result, metric: str = "p1_points") -> pd.DataFrame:
    """For each ``p2.knock``: p1's best ``p1.knock`` by ``metric``, its mean and 95% interval,
    the runner-up, and the paired difference best minus runner-up
    (:func:`simkit.analysis.compare.best_replies`)."""
    return compare.best_replies(result, "p1.knock", "p2.knock", metric)
