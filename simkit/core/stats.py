"""Estimates from streaming aggregates: means, standard errors, 95% intervals, paired differences.

Aggregates are ``(count, sum, sum of squares)`` per metric, so a billion deals cost no memory.
Binary metrics (proportions) get Wilson score intervals; the others a normal interval.  Paired
differences between configurations that saw the same deals use batch means over the chunks.
"""
from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


def mean_se(count: float, s: float, ss: float) -> tuple[float, float]:
    """Sample mean and its standard error from n, sum and sum of squares."""
    if count <= 0:
        return math.nan, math.nan
    m = s / count
    if count < 2:
        return m, math.nan
    var = max(ss - s * s / count, 0.0) / (count - 1)
    return m, math.sqrt(var / count)


def wilson(successes: float, count: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion."""
    if count <= 0:
        return math.nan, math.nan
    p = successes / count
    denom = 1 + z * z / count
    centre = (p + z * z / (2 * count)) / denom
    half = z * math.sqrt(p * (1 - p) / count + z * z / (4 * count * count)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= count else min(1.0, centre + half)
    return lo, hi


def estimate(count: float, s: float, ss: float, binary: bool) -> dict[str, float]:
    """``{mean, se, ci_low, ci_high}`` for one metric."""
    m, se = mean_se(count, s, ss)
    if binary:
        lo, hi = wilson(s, count)
    elif math.isnan(se):
        lo = hi = math.nan
    else:
        lo, hi = m - Z95 * se, m + Z95 * se
    return dict(mean=m, se=se, ci_low=lo, ci_high=hi)


def clip01(x: float) -> float:
    """``x`` inside [0, 1] (NaN stays NaN): the bounds of a share's normal interval."""
    return x if math.isnan(x) else min(1.0, max(0.0, x))


def ratio_estimate(count: float, x: float, xx: float, d: float, dd: float, xd: float) -> dict[str, float]:
    """``sum(x) / sum(d)`` over ``count`` deals with its delta-method standard error and a normal
    95% interval, from the sums ``x, d`` and the sums of ``x*x``, ``d*d`` and ``x*d``."""
    if count < 2 or d <= 0:
        return dict(mean=math.nan, se=math.nan, ci_low=math.nan, ci_high=math.nan)
    r = x / d
    mx, md = x / count, d / count
    vx = (xx - count * mx * mx) / (count - 1)
    vd = (dd - count * md * md) / (count - 1)
    cxd = (xd - count * mx * md) / (count - 1)
    var = max(vx - 2 * r * cxd + r * r * vd, 0.0) / (count * md * md)
    se = math.sqrt(var)
    return dict(mean=r, se=se, ci_low=r - Z95 * se, ci_high=r + Z95 * se)


def half_width(e: dict[str, float]) -> float:
    return max(e["mean"] - e["ci_low"], e["ci_high"] - e["mean"])


def paired_difference(counts: np.ndarray, sums_a: np.ndarray, sums_b: np.ndarray) -> dict[str, float]:
    """Mean of ``a - b`` over deals both configurations saw, by batch means over chunks.

    ``counts[k]`` deals in chunk ``k`` with metric sums ``sums_a[k]`` and ``sums_b[k]``.  The
    standard error is that of the chunk means' weighted mean; it needs at least 8 chunks
    (``nan`` below that) and is accurate when chunks are large.
    """
    counts = np.asarray(counts, float)
    d = (np.asarray(sums_a, float) - np.asarray(sums_b, float))
    n = counts.sum()
    mean = d.sum() / n if n else math.nan
    k = len(counts)
    if k < 8:
        se = math.nan
    else:
        w = counts / n
        dm = d / counts
        se = math.sqrt(k / (k - 1) * np.sum(w * w * (dm - mean) ** 2))
    lo, hi = (mean - Z95 * se, mean + Z95 * se) if not math.isnan(se) else (math.nan, math.nan)
    return dict(mean=mean, se=se, ci_low=lo, ci_high=hi)
