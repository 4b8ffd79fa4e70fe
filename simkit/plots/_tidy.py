"""Reading simkit's tidy result tables: which columns are grid columns, which metrics are
proportions, how wide an interval is, how to print an estimate, and what to call a table.

Only the tidy columns are relied on (``game``, ``rules``, ``strategies``, grid columns, ``metric``,
``mean``, ``se``, ``ci_low``, ``ci_high``, ``n``, ``seed``, ...), so every game's results work.
"""
from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from simkit.core.store import STANDARD_COLUMNS  # the columns that are not grid columns
from simkit.errors import SimkitError

VALUE_COLUMNS = ("mean", "se", "ci_low", "ci_high")


def check_table(df, what: str = "table") -> pd.DataFrame:
    """``df`` as a tidy results table, or a SimkitError saying what is missing."""
    if not isinstance(df, pd.DataFrame):
        raise SimkitError(f"expected a simkit results table (a pandas DataFrame), not "
                          f"{type(df).__name__}")
    for col in ("metric", "mean"):
        if col not in df.columns:
            raise SimkitError(f"the {what} is not a simkit results table (no {col!r} column)")
    if df.empty:
        raise SimkitError(f"the {what} has no rows")
    for col in ("mean", "se", "sd", "ci_low", "ci_high", "n"):
        if col in df.columns and not pd.api.types.is_numeric_dtype(df[col]):
            if pd.to_numeric(df[col], errors="coerce").notna().sum() < df[col].notna().sum():
                bad = df[col][pd.to_numeric(df[col], errors="coerce").isna() & df[col].notna()]
                raise SimkitError(f"the {what} has a {col!r} column that is not numbers "
                                  f"(e.g. {str(bad.iloc[0])[:40]!r})")
            df = df.assign(**{col: pd.to_numeric(df[col])})
    return df


def grid_columns(df: pd.DataFrame) -> list[str]:
    """Every column that is not one of the standard tidy columns, in table order."""
    return [c for c in df.columns if c not in STANDARD_COLUMNS]


def varying(df: pd.DataFrame, cols) -> list[str]:
    """The columns of ``cols`` that take more than one value in ``df``."""
    return [c for c in cols if c in df.columns and df[c].nunique(dropna=False) > 1]


def methods(df: pd.DataFrame) -> pd.Series:
    """Per row: ``"exact"`` or ``"simulation"`` (a missing ``method`` means simulation)."""
    if "method" not in df.columns:
        return pd.Series("simulation", index=df.index)
    return df["method"].astype(object).where(df["method"].notna(), "simulation").astype(str)


def metric_names(df: pd.DataFrame) -> list[str]:
    return list(dict.fromkeys(df["metric"].astype(str)))


def check_metrics(df: pd.DataFrame, metrics) -> list[str]:
    """``metrics`` (a name or a list of names), each known to ``df``; else one clear error."""
    if isinstance(metrics, str):
        metrics = [metrics]
    metrics = list(metrics or [])
    if not metrics:
        raise SimkitError("no metrics given")
    known = metric_names(df)
    for m in metrics:
        if m not in known:
            raise SimkitError(f"unknown metric {m!r}: the table has metrics {', '.join(known)}")
    return metrics


def check_column(df: pd.DataFrame, col, role: str = "column") -> str:
    if not isinstance(col, str) or col not in df.columns or col in ("metric",) + VALUE_COLUMNS:
        grid = grid_columns(df)
        avail = f"the grid columns are {', '.join(grid)}" if grid else "the table has no grid columns"
        raise SimkitError(f"unknown {role} {col!r}: {avail}")
    return col


def intervals(sub: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(mean, lower error, upper error)`` arrays; errors are 0 where there is no interval."""
    mean = sub["mean"].to_numpy(float)
    lo = sub["ci_low"].to_numpy(float) if "ci_low" in sub.columns else mean
    hi = sub["ci_high"].to_numpy(float) if "ci_high" in sub.columns else mean
    exact = (methods(sub) == "exact").to_numpy()
    el = np.where(np.isfinite(lo) & ~exact, np.maximum(mean - lo, 0.0), 0.0)
    eh = np.where(np.isfinite(hi) & ~exact, np.maximum(hi - mean, 0.0), 0.0)
    el = np.where(np.isfinite(mean), el, 0.0)
    eh = np.where(np.isfinite(mean), eh, 0.0)
    return mean, el, eh

VALUE_ENDINGS = ("_result", "_ev")  # a stake's net per unit (Очко, «31» with a bank; _ev: old files)


def is_binary(df: pd.DataFrame, metric: str) -> bool:
    """Whether ``metric`` looks like a proportion (a 0/1 per-deal quantity).

    Its means all lie in [0, 1], and where it was simulated its standard error is the binomial
    one, sqrt(p(1-p)/(n-1)); where no row was simulated (exact analyses), names ending in
    ``_result`` (``_ev`` in older files) are taken as expected values.
    """
    sub = df[df["metric"] == metric]
    m = sub["mean"].to_numpy(float)
    m = m[np.isfinite(m)]
    if m.size == 0 or (m < -1e-12).any() or (m > 1 + 1e-12).any():
        return False
    if {"se", "n"} <= set(sub.columns):
        se = sub["se"].to_numpy(float)
        n = pd.to_numeric(sub["n"], errors="coerce").to_numpy(float)
        p = sub["mean"].to_numpy(float)
        ok = np.isfinite(se) & (se > 0) & np.isfinite(n) & (n > 1) & np.isfinite(p)
        if ok.any():
            binom = np.sqrt(p[ok] * (1 - p[ok]) / (n[ok] - 1))
            return bool(np.allclose(se[ok], binom, rtol=1e-6, atol=1e-12))
    return not metric.endswith(VALUE_ENDINGS)


def constant(df: pd.DataFrame, metric: str) -> bool:
    """Whether ``metric`` has the same mean (to rounding) in every row."""
    m = df.loc[df["metric"] == metric, "mean"].to_numpy(float)
    m = m[np.isfinite(m)]
    return m.size == 0 or float(m.max() - m.min()) <= 1e-12 * max(1.0, float(np.abs(m).max()))


def main_metrics(df: pd.DataFrame, keys=(), limit: int | None = None) -> list[str]:
    """Metrics in order of interest: expected values (``*_result``, ``*_ev``) first, then the other
    non-proportions, then the proportions; within each, those that vary most across the
    configurations (relative to their intervals) first.  Metrics constant everywhere go last."""
    names = metric_names(df)
    keys = [k for k in keys if k in df.columns]

    def score(m):
        sub = df[df["metric"] == m]
        mean, el, eh = intervals(sub)
        spread = float(np.nanmax(mean) - np.nanmin(mean)) if np.isfinite(mean).any() else 0.0
        if spread <= 1e-12 * max(1.0, float(np.nanmax(np.abs(mean))) if np.isfinite(mean).any() else 1.0):
            spread = 0.0
        width = float(np.nanmean(el + eh)) if len(el) else 0.0
        if not keys:
            return abs(float(np.nanmean(mean))) if np.isfinite(mean).any() else 0.0
        return spread / width if width > 0 else (math.inf if spread > 0 else 0.0)

    def rank(m):
        tier = 0 if m.endswith(VALUE_ENDINGS) else (2 if is_binary(df, m) else 1)
        s = score(m)
        constant = s == 0.0
        return (constant, tier, -s)

    order = sorted(names, key=lambda m: (rank(m), names.index(m)))
    return order[:limit] if limit else order


# --- numbers -------------------------------------------------------------------------------

def decimals_for(half_width: float, mean: float | None = None) -> int:
    """Decimals that show ``half_width`` with two significant digits (plus one, to keep the
    mean's last digit meaningful); exact values get six significant digits."""
    if half_width is None or not math.isfinite(half_width) or half_width <= 0:
        if mean is None or not math.isfinite(mean) or mean == 0:
            return 4
        return max(0, min(12, 5 - int(math.floor(math.log10(abs(mean))))))
    return max(0, min(12, 2 - int(math.floor(math.log10(half_width)))))


def fmt_num(v: float, dec: int) -> str:
    if v is None or not isinstance(v, (int, float, np.floating, np.integer)) or not math.isfinite(v):
        return "nan"
    s = f"{v:.{dec}f}"
    return "0" + s[2:] if s.startswith("-0") and float(s) == 0 else s


def fmt_estimate(mean, ci_low=None, ci_high=None, exact: bool = False) -> dict[str, str]:
    """``{"mean": "0.1545", "pm": "0.0137", "ci": "[0.1408, 0.1682]"}``; ``pm`` and ``ci`` are
    empty for exact values or values without an interval."""
    mean = float(mean) if mean is not None else math.nan
    lo = float(ci_low) if ci_low is not None else math.nan
    hi = float(ci_high) if ci_high is not None else math.nan
    has_ci = not exact and math.isfinite(lo) and math.isfinite(hi) and hi > lo
    hw = max(mean - lo, hi - mean) if has_ci and math.isfinite(mean) else (hi - lo) / 2 if has_ci else 0.0
    dec = decimals_for(hw if has_ci else 0.0, mean)
    out = dict(mean=fmt_num(mean, dec), pm="", ci="")
    if has_ci:
        out["pm"] = fmt_num(hw, dec)
        out["ci"] = f"[{fmt_num(lo, dec)}, {fmt_num(hi, dec)}]"
    return out


# --- names ---------------------------------------------------------------------------------

def _drop_options(rules: str, keys) -> str:
    """``ochko(deck=52,banker_stop=16)`` without the options named in ``keys``."""
    m = re.fullmatch(r"([^()]*)\((.*)\)", rules.strip())
    if not m:
        return rules
    name, inner = m.groups()
    parts = [p for p in _split_top(inner) if p.split("=", 1)[0].strip() not in keys]
    return f"{name}({','.join(parts)})" if parts else name


def _split_top(s: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    if cur:
        out.append(cur)
    return out


def _star_params(strategies: str, keys) -> str:
    """``p1=stand_at(t=16)`` with grid parameters (``p1.t``) shown as ``t=*``."""
    seats = {}
    for k in keys:
        if "." in k:
            seat, param = k.split(".", 1)
            seats.setdefault(seat, set()).add(param)
    if not seats:
        return strategies
    toks = []
    for tok in strategies.split(" "):
        seat = tok.split("=", 1)[0]
        for param in seats.get(seat, ()):
            tok = re.sub(rf"(?<=[(,]){re.escape(param)}=[^,)]*", f"{param}=*", tok)
        toks.append(tok)
    return " ".join(toks)


def context(df: pd.DataFrame, keys=None) -> str:
    """A short title for a table: the game string and strategies shared by its rows, the options
    that the grid ``keys`` vary left out (``ochko(deck=52) · p1=stand_at(t=*)``)."""
    keys = list(grid_columns(df) if keys is None else keys)
    parts = []
    if "rules" in df.columns:
        rules = {_drop_options(str(r), keys) for r in df["rules"].dropna().unique()}
        if len(rules) == 1:
            parts.append(rules.pop())
    if not parts and "game" in df.columns:
        games = df["game"].dropna().astype(str).unique()
        parts.append(", ".join(games))
    if "strategies" in df.columns:
        strats = {_star_params(str(s), keys) for s in df["strategies"].dropna().unique()}
        if len(strats) == 1:
            s = strats.pop()
            if s:
                parts.append(s)
    m = methods(df).unique()
    if len(m) == 1 and m[0] == "exact":
        parts.append("exact")
    return " · ".join(parts)
