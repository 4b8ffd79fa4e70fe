"""The Klaberjass bidding study (``notebooks/klaberjass_bidding.ipynb``): helpers that turn sweeps and
per-deal rows into tidy tables with 95% intervals.

* :func:`thresholds` -- ``heuristic`` in seat p1 with one bidding threshold (``t1`` or ``t2``)
  swept, against ``opponent`` in p2, optionally for several ``opener`` values; one
  :func:`simkit.sweep`, so every grid point sees the same deals.
* :func:`versus_best` -- from such a sweep: each grid point's value, the best point, and every
  point's difference from the best on the same deals (batch means over chunks; an unpaired
  difference when there are fewer than 8 chunks), with its 95% interval.
* :func:`difference` -- one grid point minus another, paired when the API can pair them.
* :func:`flat_range` -- the grid values not significantly worse than the best, or within a
  tolerance of it (how flat the optimum is).
* :func:`bids` -- per-deal rows (``run(..., rows=True)``) reduced to one row per played bid: the
  bidder, his strength, the round, and whether he was baited, tied or made it.
* :func:`binned_rate` / :func:`binned_mean` -- a 0/1 column's rate (Wilson interval) or a
  column's mean (normal interval) per bin of another column, as a tidy table for
  :mod:`simkit.plots`.
* :func:`crossing` -- where a monotone curve of estimates crosses a level (the break-even
  bonus), with the interval given by where the curve's 95% band crosses it.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from simkit.analysis import compare
from simkit.analysis.compare import difference  # noqa: F401  (the study's API)
from simkit.analysis.simulate import sweep
from simkit.core.stats import Z95, wilson


def thresholds(param: str, values, rules: str = "klaberjass", n: int = 100_000, seed: int = 1,
               openers=("p1", "p2", "lot"), opponent: str = "heuristic", extra=None,
               progress: bool | None = None, **kw):
    """``heuristic`` in p1 with ``param`` (``"t1"`` or ``"t2"``) swept over ``values`` against
    ``opponent`` in p2; with ``openers``, also over the ``opener`` rule (who has the first word in
    a unit's first deal).  ``extra``: more grid axes (``{"form": ["301", "501"]}``)."""
    grid = {f"p1.{param}": list(values)}
    grid.update(extra or {})
    if openers:
        grid["opener"] = list(openers)
    return sweep(rules, grid, n=n, seed=seed, strategies=["p1=heuristic", f"p2={opponent}"],
                 progress=progress, **kw)


def versus_best(result, key, metric: str = "p1_stakes", where: dict | None = None,
                larger: bool = True) -> pd.DataFrame:
    """:func:`simkit.analysis.compare.versus_best` with this study's default metric."""
    return compare.versus_best(result, key, metric, where, larger)


def flat_range(table: pd.DataFrame, key: str, tol: float | None = None) -> tuple:
    """``(lowest, highest)`` value of ``key`` among the points of a :func:`versus_best` table that
    are tied with the best (``tol=None``) or within ``tol`` of it (``diff >= -tol``)."""
    keep = table["tied"] if tol is None else table["diff"] >= -tol
    vals = table.loc[keep, key]
    return vals.min(), vals.max()


def bids(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per played bid from a short game's per-deal rows: ``bidder`` (p1/p2),
    ``strength`` (six cards, the heuristic's bid measure), ``strength9`` (nine cards),
    ``round`` (1: the upcard's suit, 2: another suit), ``bait``, ``tie``, ``made`` (0/1) and
    ``stakes`` (the bidder's stakes).  Units without a bid (unfinished) are left out."""
    p1 = rows["p1_bids"] > 0
    p2 = rows["p2_bids"] > 0
    r = rows[p1 | p2]
    p1 = p1[p1 | p2]

    def pick(q):
        return np.where(p1, r[f"p1_{q}"], r[f"p2_{q}"])

    return pd.DataFrame({"bidder": np.where(p1, "p1", "p2"),
                         "strength": r["bidder_strength"].to_numpy(),
                         "strength9": r["bidder_strength9"].to_numpy(),
                         "round": np.where(r["round2_bids"] > 0, 2, 1),
                         "bait": pick("baits"), "tie": pick("hanging"), "made": pick("made"),
                         "stakes": pick("stakes")})


def _bins(df: pd.DataFrame, x: str, edges, by):
    edges = np.asarray(edges, float)
    k = np.searchsorted(edges, df[x].to_numpy(float), side="right") - 1
    keep = (k >= 0) & (k < len(edges) - 1)
    d = df[keep].assign(_bin=k[keep])
    keys = ([by] if by else []) + ["_bin"]
    return edges, d.groupby(keys, sort=True)


def _bin_row(edges, key, by, x, metric, n, mean, lo, hi, se):
    b = key[-1] if isinstance(key, tuple) else key
    a, c = edges[b], edges[b + 1]
    mid = (a + c) / 2 if math.isfinite(c) else a + (a - edges[b - 1]) / 2 if b > 0 else a
    row = {x: mid, "bin": f"{a:g}-{c:g}" if math.isfinite(c) else f"{a:g}+", "metric": metric,
           "mean": mean, "se": se, "ci_low": lo, "ci_high": hi, "n": n}
    if by:
        row = {by: key[0], **row}
    return row


def binned_rate(df: pd.DataFrame, x: str, event: str, edges, by: str | None = None,
                min_n: int = 1) -> pd.DataFrame:
    """The rate of 0/1 column ``event`` per bin of ``x`` (bins ``[edges[k], edges[k+1])``; make the
    last edge ``inf`` for an open top bin), per value of ``by``, with Wilson 95% intervals.  Tidy:
    columns ``[by,] x`` (the bin's middle; an open top bin is placed half the previous bin's
    width above its lower edge), ``bin``,
    ``metric`` (= ``event``), ``mean``, ``se``, ``ci_low``, ``ci_high``, ``n``.  Bins with fewer
    than ``min_n`` rows are left out."""
    edges, groups = _bins(df, x, edges, by)
    out = []
    for key, g in groups:
        n = len(g)
        if n < min_n:
            continue
        s = float(g[event].sum())
        p = s / n
        lo, hi = wilson(s, n)
        out.append(_bin_row(edges, key, by, x, event, n, p, lo, hi,
                            math.sqrt(p * (1 - p) / (n - 1)) if n > 1 else math.nan))
    return pd.DataFrame(out)


def binned_mean(df: pd.DataFrame, x: str, value: str, edges, by: str | None = None,
                min_n: int = 2) -> pd.DataFrame:
    """:func:`binned_rate` for a numeric column: the mean of ``value`` per bin with a normal 95%
    interval."""
    edges, groups = _bins(df, x, edges, by)
    out = []
    for key, g in groups:
        n = len(g)
        if n < max(min_n, 2):
            continue
        m = float(g[value].mean())
        se = float(g[value].std(ddof=1)) / math.sqrt(n)
        out.append(_bin_row(edges, key, by, x, value, n, m, m - Z95 * se, m + Z95 * se, se))
    return pd.DataFrame(out)


def _first_cross(xs, ys, level):
    """x where the piecewise-linear curve first reaches ``level`` from below (nan if never)."""
    for k in range(len(xs)):
        if ys[k] >= level:
            if k == 0:
                return xs[0]
            x0, x1, y0, y1 = xs[k - 1], xs[k], ys[k - 1], ys[k]
            return x0 + (level - y0) * (x1 - x0) / (y1 - y0) if y1 != y0 else x1
    return math.nan


def crossing(table: pd.DataFrame, x: str, level: float = 0.5, increasing: bool = True) -> dict:
    """Where a monotone curve of estimates (columns ``x``, ``mean``, ``ci_low``, ``ci_high``, one
    row per ``x``) first reaches ``level`` (from below when ``increasing``, from above when not),
    by linear interpolation between grid points.

    Returns ``{x, low, high, status}``: ``x`` from the means; ``low``/``high`` where the two
    edges of the pointwise 95% band reach the level (an approximate interval; nan where that
    edge never reaches it inside the grid).  ``status``: ``"inside"`` when the means cross inside
    the grid, ``"below"`` when the curve is already past ``level`` at the smallest ``x`` (the
    crossing lies at or below it; ``x`` is then the smallest ``x``), ``"above"`` when the means
    never reach ``level`` (``x`` is nan).
    """
    t = table.sort_values(x)
    xs = t[x].to_numpy(float)
    m, lo, hi = (t[c].to_numpy(float) for c in ("mean", "ci_low", "ci_high"))
    if not increasing:
        m, lo, hi, level = -m, -hi, -lo, -level
    at = _first_cross(xs, m, level)
    status = "above" if math.isnan(at) else "below" if m[0] >= level else "inside"
    return {"x": at, "low": _first_cross(xs, hi, level), "high": _first_cross(xs, lo, level),
            "status": status}
