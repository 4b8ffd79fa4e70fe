"""Charts of tidy simkit results: each function takes a tidy DataFrame and returns a matplotlib
``Figure`` (drawn with Agg, never shown on a screen), or draws into the ``ax`` it is given.

Error bars are the table's 95% intervals (``ci_low``..``ci_high``); exact values (``method`` =
``"exact"``, or intervals of width 0) get none.  Every chart says so: a legend entry "bars: 95%
CI" (":func:`bars_note`", which also says when the bars are narrower than the markers), and the
heatmap's colour bar names its ± as the 95% half-width.
"""
from __future__ import annotations

import io

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import Normalize
from matplotlib.figure import Figure

from simkit.errors import SimkitError
from simkit.plots._tidy import (VALUE_ENDINGS, check_column, check_metrics, check_table, context, fmt_estimate,
                                fmt_num, decimals_for, grid_columns, intervals, is_binary)

_CONFIG_COLUMNS = ("rules", "strategies", "seed", "method", "game")


MIN_POINTS = 9.0  # no text of a simkit figure is smaller, at the figure's own size (issue 29)


class SimkitFigure(Figure):
    """A matplotlib Figure that Jupyter shows as a PNG even when pyplot was never imported, and
    whose every text (titles, labels, ticks, legends, cell annotations) is drawn at
    :data:`MIN_POINTS` or larger, whichever chart made it: the layout engine then makes room."""

    def _repr_png_(self) -> bytes:
        return to_png(self, dpi=100)

    def draw(self, renderer):
        readable(self)
        return super().draw(renderer)


def readable(fig: Figure, points: float = MIN_POINTS) -> Figure:
    """Raise every text of ``fig`` smaller than ``points`` to ``points``."""
    from matplotlib.text import Text
    for t in fig.findobj(Text):
        if t.get_fontsize() < points:
            t.set_fontsize(points)
    return fig


def new_figure(width: float = 7.0, height: float = 4.5) -> Figure:
    """A Figure on an Agg canvas, outside pyplot (nothing to close, nothing shown)."""
    fig = SimkitFigure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def to_png(fig: Figure, dpi: int = 110) -> bytes:
    """The figure as PNG bytes."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, facecolor="white")
    return buf.getvalue()


def _axes(ax, width, height):
    if ax is not None:
        return ax.figure, ax, False
    fig = new_figure(width, height)
    return fig, fig.add_subplot(), True


def _ordered(values: pd.Series) -> list:
    """Distinct values, sorted when they can be (numbers numerically), else in table order."""
    uniq = list(pd.unique(values.dropna()))
    try:
        return sorted(uniq)
    except TypeError:
        return uniq


def _one_per(sub: pd.DataFrame, keys: list[str], what: str, hint: str) -> None:
    """One row per ``keys`` (per metric), or an error naming the columns that also vary."""
    if not sub.duplicated(keys).any():
        return
    def within(cols):  # columns that take several values among rows with the same keys
        cols = [c for c in cols if c in sub.columns and c not in keys]
        if not cols:
            return []
        counts = sub.groupby(keys, dropna=False)[cols].nunique(dropna=False) if keys else \
            sub[cols].nunique(dropna=False).to_frame().T
        return [c for c in cols if (counts[c] > 1).any()]
    vary = within(grid_columns(sub)) or within(_CONFIG_COLUMNS)
    cols = f"; {', '.join(repr(c) for c in vary)} {'varies' if len(vary) == 1 else 'vary'} as well" \
        if vary else ""
    raise SimkitError(f"{what} needs one row per {' and '.join(map(repr, keys)) or 'metric'}, "
                      f"but the table has several{cols}: {hint}")


def _rows(df: pd.DataFrame, metric: str, cols) -> pd.DataFrame:
    """The rows of ``metric`` with a value in every column of ``cols`` (rows of a concatenated
    table that lack one belong to another grid)."""
    sub = df[df["metric"] == metric]
    sub = sub[sub[list(cols)].notna().all(axis=1)]
    if sub.empty:
        raise SimkitError(f"metric {metric!r} has no rows with values in {', '.join(map(repr, cols))}")
    return sub


def _label(col: str, v) -> str:
    return f"{col}={v}"


def _palette(n: int, ordered: bool):
    if not ordered and n <= 10:
        cmap = colormaps["tab10"]
        return [cmap(i) for i in range(n)]
    cmap = colormaps["viridis"]
    return [cmap(0.05 + 0.85 * i / max(n - 1, 1)) for i in range(n)]


def _positions(values: pd.Series):
    """x positions and tick labels: numbers stay numbers, anything else becomes categories."""
    if pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values):
        return None
    return {v: i for i, v in enumerate(_ordered(values))}


BARS = "bars: 95% CI"


def bars_note(el, eh, values) -> str:
    """What a chart's error bars are, and whether they hide under the markers (the widest
    interval under 1.5% of the plotted range, as at large n)."""
    el, eh = np.asarray(el, float), np.asarray(eh, float)
    if not (el + eh).any():
        return "exact values: no bars"
    v = np.asarray(values, float)
    v = v[np.isfinite(v)]
    span = float(v.max() - v.min()) if v.size else 0.0
    widest = float(np.max(el + eh))
    if span > 0 and widest < 0.015 * span:
        return BARS + " (narrower than the markers)"
    return BARS


def _bars_legend(ax, note: str, **kw) -> None:
    """Add ``note`` to the axes' legend (an empty artist on the axes, so that a later
    ``ax.legend()`` keeps it)."""
    (mark,) = ax.plot([], [], linestyle="none", marker="|", color="0.2", markersize=9, label=note)
    handles, labels = ax.get_legend_handles_labels()
    i = handles.index(mark)
    ax.legend(handles[:i] + handles[i + 1:] + [mark], labels[:i] + labels[i + 1:] + [note], **kw)


def _title(ax, head: str, df: pd.DataFrame, keys, own: bool) -> None:
    ctx = context(df, keys) if own else ""
    ax.set_title(f"{head}\n{ctx}" if ctx else head, fontsize=11)


def metric_lines(df: pd.DataFrame, metric: str, x: str, hue: str | None = None, ax=None) -> Figure:
    """The mean of ``metric`` against grid column ``x``, one line per value of ``hue``, with 95%
    interval bars (none for exact values)."""
    df = check_table(df)
    (metric,) = check_metrics(df, [metric])
    x = check_column(df, x, "x column")
    if hue is not None:
        hue = check_column(df, hue, "hue column")
        if hue == x:
            raise SimkitError(f"hue and x are both {x!r}: choose two different columns")
    keys = [x] + ([hue] if hue else [])
    sub = _rows(df, metric, keys)
    _one_per(sub, keys, "metric_lines", "pass hue= or filter the table first")
    fig, ax, own = _axes(ax, 7.0, 4.5)
    pos = _positions(sub[x])
    groups = [(None, sub)] if hue is None else [(v, sub[sub[hue] == v]) for v in _ordered(sub[hue])]
    colors = _palette(len(groups), hue is not None and pd.api.types.is_numeric_dtype(sub[hue])
                      and len(groups) > 2)
    all_el, all_eh = [], []
    for (val, g), color in zip(groups, colors):
        g = g.sort_values(x) if pos is None else g.assign(_p=g[x].map(pos)).sort_values("_p")
        xs = g[x].to_numpy(float) if pos is None else g[x].map(pos).to_numpy(float)
        mean, el, eh = intervals(g)
        all_el.append(el)
        all_eh.append(eh)
        label = metric if hue is None else str(val)
        (line,) = ax.plot(xs, mean, marker="o", markersize=4, linewidth=1.6, color=color, label=label)
        if (el + eh).any():
            ax.errorbar(xs, mean, yerr=[el, eh], fmt="none", ecolor=line.get_color(),
                        elinewidth=1.1, alpha=0.8)
    if pos is not None:
        ax.set_xticks(range(len(pos)), [str(v) for v in pos], rotation=30 if len(pos) > 6 else 0)
    else:
        xv = _ordered(sub[x])
        if len(xv) <= 25 and all(float(v).is_integer() for v in xv):
            ax.set_xticks(xv)
    lo, hi = np.nanmin(sub["mean"].to_numpy(float)), np.nanmax(sub["mean"].to_numpy(float))
    if lo < 0 < hi:
        ax.axhline(0, color="0.5", linewidth=0.8, zorder=0)
    ax.set_xlabel(x)
    ax.set_ylabel(metric)
    ax.grid(True, alpha=0.3)
    note = bars_note(np.concatenate(all_el), np.concatenate(all_eh), sub["mean"])
    _bars_legend(ax, note, title=hue, fontsize=8, title_fontsize=9,
                 ncols=1 if len(groups) <= 8 else 2, loc="best")
    _title(ax, f"{metric} by {x}" + (f" and {hue}" if hue else ""), sub, keys, own)
    return fig


def heatmap(df: pd.DataFrame, metric: str, x: str, y: str, ax=None, annotate: bool = True) -> Figure:
    """``metric`` over two grid columns (``x`` across, ``y`` up): cells are the mean, annotated
    with the 95% half-width when simulated; signed metrics get a diverging map centred at 0."""
    df = check_table(df)
    (metric,) = check_metrics(df, [metric])
    x = check_column(df, x, "x column")
    y = check_column(df, y, "y column")
    if x == y:
        raise SimkitError(f"x and y are both {x!r}: a heatmap needs two different columns")
    sub = _rows(df, metric, [x, y])
    _one_per(sub, [x, y], "heatmap", "filter the table to one value of the other columns first")
    xs, ys = _ordered(sub[x]), _ordered(sub[y])
    grid = np.full((len(ys), len(xs)), np.nan)
    half = np.zeros_like(grid)
    mean, el, eh = intervals(sub)
    cols = pd.Index(xs).get_indexer(sub[x])
    rows = pd.Index(ys).get_indexer(sub[y])
    grid[rows, cols] = mean
    half[rows, cols] = np.maximum(el, eh)
    fig, ax, own = _axes(ax, min(14.0, max(5.5, 0.95 * len(xs) + 3.0)),
                         min(11.0, max(3.8, 0.62 * len(ys) + 2.2)))
    finite = grid[np.isfinite(grid)]
    signed = metric.endswith(VALUE_ENDINGS) or (finite.size and finite.min() < 0)
    if signed:
        a = float(np.abs(finite).max()) if finite.size else 1.0
        norm, cmap = Normalize(-a or -1.0, a or 1.0), colormaps["RdBu"].with_extremes(bad="0.9")
    else:
        lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        norm, cmap = Normalize(lo, hi if hi > lo else lo + 1e-12), colormaps["viridis"].with_extremes(bad="0.9")
    im = ax.imshow(np.ma.masked_invalid(grid), origin="lower", aspect="auto", cmap=cmap, norm=norm,
                   interpolation="nearest")
    ax.set_xticks(range(len(xs)), [str(v) for v in xs], rotation=30 if len(xs) > 10 else 0)
    ax.set_yticks(range(len(ys)), [str(v) for v in ys])
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    cb = ax.figure.colorbar(im, ax=ax, shrink=0.9)
    cb.set_label(metric + ("\n(± in the cells: 95% CI half-width)" if (half > 0).any() else ""))
    if annotate and grid.size <= 400:
        hw = half[np.isfinite(grid)]
        dec = decimals_for(float(np.median(hw[hw > 0])) if (hw > 0).any() else 0.0,
                           float(np.nanmax(np.abs(finite))) if finite.size else None)
        size = 9 if grid.size <= 30 else 8 if grid.size <= 80 else 6.5
        for (r, c), v in np.ndenumerate(grid):
            if not np.isfinite(v):
                continue
            text = fmt_num(v, dec) + (f"\n±{fmt_num(half[r, c], dec)}" if half[r, c] > 0 else "")
            rgb = cmap(norm(v))[:3]
            lum = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
            ax.text(c, r, text, ha="center", va="center", fontsize=size,
                    color="black" if lum > 0.5 else "white")
    _title(ax, f"{metric} by {x} and {y}", sub, [x, y], own)
    return fig


def _bar_setup(df, metrics):
    df = check_table(df)
    if metrics is None:
        metrics = [m for m in dict.fromkeys(df["metric"]) if is_binary(df, m)]
        if not metrics:
            raise SimkitError("the table has no proportion metrics; name the metrics to show")
    metrics = check_metrics(df, metrics)
    return df, metrics, df[df["metric"].isin(metrics)]


def _ylabel(df, metrics) -> str:
    return "probability" if all(is_binary(df, m) for m in metrics) else "mean"


def _n_text(sub: pd.DataFrame) -> str:
    if "n" not in sub.columns or sub["n"].isna().all():
        return ""
    ns = pd.to_numeric(sub["n"], errors="coerce").dropna().unique()
    if len(ns) == 1:
        return f"n = {int(ns[0]):,}"
    return f"n = {int(ns.min()):,}..{int(ns.max()):,}"


def distribution(df: pd.DataFrame, metrics=None, ax=None) -> Figure:
    """A bar chart of several metrics of one configuration (e.g. ``banker_17`` .. ``banker_bust``)
    with 95% interval bars; ``metrics=None`` shows every proportion metric."""
    df, metrics, sub = _bar_setup(df, metrics)
    _one_per(sub, ["metric"], "distribution", "filter the table to one configuration, or use "
             "compare_distributions(df, metrics, by=COLUMN)")
    sub = sub.set_index("metric").loc[metrics].reset_index()
    fig, ax, own = _axes(ax, max(5.0, min(14.0, 0.6 * len(metrics) + 2.5)), 4.3)
    mean, el, eh = intervals(sub)
    kw = dict(yerr=[el, eh], capsize=3, error_kw=dict(elinewidth=1, ecolor="0.2")) if (el + eh).any() else {}
    ax.bar(range(len(metrics)), mean, color=colormaps["tab10"](0), width=0.7, **kw)
    _bar_axes(ax, df, metrics, sub)
    if kw:
        _bars_legend(ax, "error bars: 95% CI", fontsize=8, loc="best")
    n = _n_text(sub)
    _title(ax, ", ".join(metrics) if len(metrics) <= 3 else f"{len(metrics)} metrics" + (f" ({n})" if n else ""),
           sub, None, own)
    return fig


def _bar_axes(ax, df, metrics, sub):
    ax.set_xticks(range(len(metrics)), metrics, rotation=35 if max(map(len, metrics)) > 6 else 0,
                  ha="right" if max(map(len, metrics)) > 6 else "center")
    ax.set_xlabel("metric")
    ax.set_ylabel(_ylabel(df, metrics))
    if (sub["mean"].to_numpy(float) < 0).any():
        ax.axhline(0, color="0.4", linewidth=0.8)
    ax.grid(True, axis="y", alpha=0.3)


def compare_distributions(df: pd.DataFrame, metrics=None, by: str = None, ax=None) -> Figure:
    """:func:`distribution` for several configurations: one group of bars (one bar per metric)
    for each value of column ``by``."""
    df, metrics, sub = _bar_setup(df, metrics)
    by = check_column(df, by, "by column")
    sub = sub[sub[by].notna()]
    if sub.empty:
        raise SimkitError(f"column {by!r} has no values for metrics {', '.join(metrics)}")
    _one_per(sub, ["metric", by], "compare_distributions",
             "filter the table to one value of the other columns first")
    groups = _ordered(sub[by])
    k = len(metrics)
    fig, ax, own = _axes(ax, max(6.0, min(16.0, 0.32 * k * len(groups) + 0.5 * len(groups) + 3.0)), 4.6)
    width = 0.8 / k
    colors = _palette(k, False) if k <= 10 else _palette(k, True)
    any_err = False
    for j, (m, color) in enumerate(zip(metrics, colors)):
        g = sub[sub["metric"] == m].set_index(by)
        g = g.loc[[v for v in groups if v in g.index]]
        xs = np.array([groups.index(v) for v in g.index], float) - 0.4 + width * (j + 0.5)
        mean, el, eh = intervals(g.reset_index())
        kw = dict(yerr=[el, eh], capsize=2, error_kw=dict(elinewidth=0.9, ecolor="0.2")) if (el + eh).any() else {}
        any_err |= bool(kw)
        ax.bar(xs, mean, width=width * 0.92, color=color, label=m, **kw)
    labels = [_label(by, v) if len(str(v)) <= 12 else str(v) for v in groups]
    long = max(map(len, labels)) > 16 or len(groups) > 6
    ax.set_xticks(range(len(groups)), labels, rotation=20 if long else 0, ha="right" if long else "center")
    ax.set_xlabel(by)
    ax.set_ylabel(_ylabel(df, metrics))
    if (sub["mean"].to_numpy(float) < 0).any():
        ax.axhline(0, color="0.4", linewidth=0.8)
    ax.grid(True, axis="y", alpha=0.3)
    legend = dict(title="metric", fontsize=8, title_fontsize=9, ncols=1 if k <= 8 else 2,
                  loc="upper left", bbox_to_anchor=(1.0, 1.0))
    _bars_legend(ax, "error bars: 95% CI", **legend) if any_err else ax.legend(**legend)
    _title(ax, f"{len(metrics)} metrics by {by}" if k > 3 else f"{', '.join(metrics)} by {by}",
           sub, [by], own)
    return fig


def histogram(values, bins=None, ax=None, *, column: str | None = None, label: str | None = None,
              title: str | None = None, density: bool = False) -> Figure:
    """A histogram of per-deal or per-session values (e.g. a session's bank result), with the
    mean and its 95% interval.  ``values``: an array, a Series, or a DataFrame with ``column``.
    Whole-number data with a small range gets one bar per value.  Drawn into an ``ax`` that
    holds histograms already, it takes the next colour, and its bars and mean line are labelled
    ``label`` in the legend (give each one a ``label`` to tell them apart)."""
    if isinstance(values, pd.DataFrame):
        if column is None or column not in values.columns:
            raise SimkitError(f"unknown column {column!r}: the rows have columns "
                              f"{', '.join(map(str, values.columns))}")
        values = values[column]
    name = label or (str(values.name) if isinstance(values, pd.Series) and values.name is not None
                     else column or "value")
    try:
        arr = np.asarray(values, dtype=float).ravel()
    except (TypeError, ValueError):
        raise SimkitError(f"histogram needs numbers; {name!r} holds something else") from None
    arr = arr[np.isfinite(arr)]
    if arr.size == 0:
        raise SimkitError(f"histogram of {name!r}: no finite values")
    fig, ax, own = _axes(ax, 7.0, 4.3)
    k = len([c for c in ax.containers if getattr(c, "_simkit_hist", False)])  # histograms already here
    color = colormaps["tab10"](k % 10)
    lo, hi = float(arr.min()), float(arr.max())
    whole = np.all(arr == np.round(arr))
    if bins is None:
        bins = np.arange(lo - 0.5, hi + 1.5) if whole and hi - lo <= 100 else "auto"
    _, _, patches = ax.hist(arr, bins=bins, density=density, color=color,
                            alpha=0.85 if k == 0 else 0.55, edgecolor="white", linewidth=0.5,
                            label=f"{name}: {arr.size:,} rows" if label else None)
    patches._simkit_hist = True
    m = float(arr.mean())
    hw = 1.959963984540054 * float(arr.std(ddof=1)) / np.sqrt(arr.size) if arr.size > 1 else 0.0
    est = fmt_estimate(m, m - hw, m + hw, exact=hw == 0)
    ax.axvline(m, color=color, linewidth=1.4, linestyle="--",
               label=(f"{name}: " if label else "") + f"mean {est['mean']}"
               + (f" ± {est['pm']} (95% CI)" if est["pm"] else ""))
    ax.legend(fontsize=8)
    if k == 0:
        ax.set_xlabel(name)
    elif ax.get_xlabel() != name:
        ax.set_xlabel("value")
    ax.set_ylabel("share" if density else "count")
    ax.grid(True, axis="y", alpha=0.3)
    if title or k == 0:
        ax.set_title(title or f"{name}: {arr.size:,} rows", fontsize=11)
    return fig
