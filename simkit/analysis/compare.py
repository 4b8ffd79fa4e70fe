"""Paired comparisons of a sweep's grid points, for every game: one place, used by the studies.

A sweep plays every grid point on the same deals, so a difference between two points is best
measured on those deals: :meth:`Result.paired` (batch means over chunks).  With fewer than 8
chunks batch means are not available and :func:`difference` falls back to the two independent
standard errors (wider than the truth, since the deals are shared) and says so.

* :func:`difference` -- one grid point minus another, ``{mean, se, ci_low, ci_high, by}``.
* :func:`versus_best` -- every grid point (matching ``where``) against the best one.
* :func:`best_replies` -- for each value of one grid column, the best value of another, its
  runner-up and the paired margin between them (best responses in a strategy matrix).
"""
from __future__ import annotations

import math

import pandas as pd

from simkit.core.stats import Z95


def _matches(point: dict, where: dict | None) -> bool:
    return all(str(point.get(k)) == str(v) for k, v in (where or {}).items())


def difference(result, metric: str, i: int, j: int) -> dict:
    """``metric`` of grid point ``i`` minus grid point ``j``: ``{mean, se, ci_low, ci_high, by}``,
    paired on the same deals when the run has at least 8 chunks (``by="paired"``), else from the
    two independent standard errors (``by="unpaired"``)."""
    d = dict(result.paired(metric, i, j), by="paired")
    if not math.isfinite(d["se"]):
        a, b = result.estimates(i)[metric], result.estimates(j)[metric]
        d = {"mean": a["mean"] - b["mean"], "se": math.sqrt(a["se"] ** 2 + b["se"] ** 2),
             "by": "unpaired"}
    d["mean"] = float(d["mean"])
    d["ci_low"], d["ci_high"] = d["mean"] - Z95 * d["se"], d["mean"] + Z95 * d["se"]
    return d


def versus_best(result, key, metric: str, where: dict | None = None,
                larger: bool = True) -> pd.DataFrame:
    """One row per grid point matching ``where`` (``key``: the grid column, or a list of them,
    that tell the rows apart): ``metric``'s mean and 95% interval and its difference from the
    best point (``diff`` = this - best, ``diff_low``/``diff_high``, ``diff_by``).  ``best`` marks
    the best point, ``tied`` the points whose difference from it is not significant."""
    keys = [key] if isinstance(key, str) else list(key)
    idx = [i for i, pt in enumerate(result.points) if _matches(pt, where)]
    if not idx:
        raise ValueError(f"no grid points match {where}")
    est = {i: result.estimates(i)[metric] for i in idx}
    sign = 1.0 if larger else -1.0
    b = max(idx, key=lambda i: sign * est[i]["mean"])
    rows = []
    for i in idx:
        e = est[i]
        d = ({"mean": 0.0, "se": 0.0, "ci_low": 0.0, "ci_high": 0.0, "by": "-"} if i == b
             else difference(result, metric, i, b))
        lo, hi = d["ci_low"], d["ci_high"]
        rows.append({**{k: result.points[i][k] for k in keys}, "mean": e["mean"],
                     "ci_low": e["ci_low"], "ci_high": e["ci_high"], "diff": d["mean"],
                     "diff_low": lo, "diff_high": hi, "diff_by": d["by"], "best": i == b,
                     "tied": bool(i == b or not math.isfinite(d["se"]) or lo <= 0 <= hi)})
    return pd.DataFrame(rows).sort_values(keys).reset_index(drop=True)


def best_replies(result, reply: str, to: str, metric: str, larger: bool = True) -> pd.DataFrame:
    """For each value of grid column ``to``: the value of grid column ``reply`` with the best
    ``metric``, its mean and 95% interval, the runner-up, and the margin best minus runner-up
    (paired; ``margin_se_by`` says how its standard error was obtained)."""
    sign = 1.0 if larger else -1.0
    by_col: dict = {}
    for i, pt in enumerate(result.points):
        by_col.setdefault(pt[to], []).append(i)
    rows = []
    for b in sorted(by_col):
        cands = sorted(by_col[b], key=lambda i: -sign * result.estimates(i)[metric]["mean"])
        i1, i2 = cands[0], cands[1]
        e1, e2 = result.estimates(i1)[metric], result.estimates(i2)[metric]
        d = difference(result, metric, i1, i2)
        rows.append({to: b, f"best_{reply}": result.points[i1][reply], "mean": e1["mean"],
                     "ci_low": e1["ci_low"], "ci_high": e1["ci_high"],
                     "runner_up": result.points[i2][reply], "runner_up_mean": e2["mean"],
                     "margin": sign * d["mean"], "margin_se": d["se"], "margin_se_by": d["by"]})
    return pd.DataFrame(rows)

