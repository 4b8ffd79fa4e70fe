"""Plots of strategy analyses (:mod:`simkit.analysis`): each function takes an ``Analysis`` (or
its ``to_json()`` dict, or a saved results file's meta) and returns a matplotlib ``Figure`` on an
Agg canvas (nothing is shown; Jupyter displays it as a PNG).

* :func:`cross_table` -- a tournament's cross table, score and 95% interval in every cell.
* :func:`ratings` -- a tournament's ratings with 95% bootstrap intervals.
* :func:`racing` -- ``best``: every grid point's estimate per look, where points were dropped, and
  the final estimates.
* :func:`matrix` -- ``solve``: the payoff matrix with both sides' best replies, the pure minimax
  cells and the mixed equilibrium along the margins.
* :func:`best_replies` -- ``solve``: each side's best reply to the other's point, and its margin.
* :func:`differences` -- ``compare``: A's edge or A - B of every metric with its 95% interval.
* :func:`odds` -- ``odds``: the match-win chance by grid point, the best point marked.

Every figure's title carries the analysis's label (game string, strategies, n, seed) and a caption
says what the bars and marks are.
"""
from __future__ import annotations

import math
import textwrap
from types import SimpleNamespace

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.colors import Normalize
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from simkit.errors import SimkitError
from simkit.plots._tidy import decimals_for, fmt_num
from simkit.plots.charts import new_figure

Z95 = 1.959963984540054
KINDS = ("compare", "tournament", "best", "solve", "odds")


# --- what every plot shares -----------------------------------------------------------------

def parts(an, want: str | None = None, what: str = "this plot") -> SimpleNamespace:
    """``an`` (an ``Analysis``, its ``to_json()`` dict, or a results file's meta holding one) as
    ``kind, game, label, frames, summary, info, complete``; ``want`` the kind it must be."""
    if isinstance(an, dict):
        obj = an.get("analysis") if isinstance(an.get("analysis"), dict) else an
        if not isinstance(obj.get("analysis"), str):
            raise SimkitError(f"{what} needs a strategy analysis (an Analysis, its to_json(), or "
                              f"a saved analysis's meta)")
        from simkit.analysis.common import frames_from_json
        a = SimpleNamespace(kind=obj["analysis"], game=obj.get("game", ""),
                            label=str(obj.get("label", "")), frames=frames_from_json(obj),
                            summary=list(obj.get("summary") or []), info=dict(obj.get("info") or {}),
                            complete=bool(obj.get("complete", True)),
                            claims=list(obj.get("claims") or []))
    elif hasattr(an, "kind") and hasattr(an, "frames"):
        a = SimpleNamespace(kind=an.kind, game=getattr(an, "game", ""), label=str(an.label),
                            frames=dict(an.frames), summary=list(getattr(an, "summary", []) or []),
                            info=dict(getattr(an, "info", {}) or {}),
                            complete=bool(getattr(an, "complete", True)),
                            claims=list(getattr(an, "claims", []) or []))
    else:
        raise SimkitError(f"{what} needs a strategy analysis (simkit.compare, tournament, best, "
                          f"solve or odds), not {type(an).__name__}")
    if want is not None and a.kind != want:
        raise SimkitError(f"{what} draws a {want} analysis, not a {a.kind} one")
    return a


def _frame(a, name: str) -> pd.DataFrame:
    df = a.frames.get(name)
    if df is None or len(df) == 0:
        raise SimkitError(f"the {a.kind} analysis has no {name!r} frame to draw")
    return df.reset_index(drop=True)


def _num(s) -> np.ndarray:
    return pd.to_numeric(pd.Series(s), errors="coerce").to_numpy(float)


def _wrap(text: str, width: int) -> str:
    """``text`` on lines of at most ``width`` characters; a label breaks at its `` | ``."""
    if len(text) <= width:
        return text
    if " | " in text:
        lines, cur = [], ""
        for p in text.split(" | "):
            if cur and len(cur) + 3 + len(p) > width:
                lines.append(cur)
                cur = p
            else:
                cur = f"{cur} | {p}" if cur else p
        lines.append(cur)
        return "\n".join(lines)
    return "\n".join(textwrap.wrap(text, width))


def _finish(fig, a, head: str, caption: str) -> None:
    """Title (``head``, then the analysis's label), a caption under the axes, and ``partial`` when
    the analysis was interrupted."""
    w = fig.get_figwidth()
    partial = "" if a.complete else " (partial: interrupted)"
    fig.suptitle(f"{head}{partial}\n{_wrap(a.label, int(w * 72 / (9.5 * 0.56)))}", fontsize=10.5)
    fig.supxlabel(_wrap(caption, int(w * 72 / (9 * 0.55))), fontsize=9, color="0.25")


def _decimals(half, values) -> int:
    half = np.asarray(half, float)
    values = np.asarray(values, float)
    h = half[np.isfinite(half) & (half > 0)]
    v = values[np.isfinite(values)]
    return decimals_for(float(np.median(h)) if h.size else 0.0,
                        float(np.abs(v).max()) if v.size else None)


def _diverging(values, centre: float = 0.0, span: float | None = None):
    v = np.asarray(values, float)
    v = v[np.isfinite(v)]
    a = span if span is not None else (float(np.abs(v - centre).max()) if v.size else 1.0)
    a = a or 1.0
    return Normalize(centre - a, centre + a), colormaps["RdBu"].with_extremes(bad="0.88")


def _colour_map(values):
    """A diverging map centred on 0 for signed values, else viridis."""
    v = np.asarray(values, float)
    v = v[np.isfinite(v)]
    if v.size and v.min() < 0 < v.max():
        return _diverging(v)
    lo, hi = (float(v.min()), float(v.max())) if v.size else (0.0, 1.0)
    return Normalize(lo, hi if hi > lo else lo + 1e-12), colormaps["viridis"].with_extremes(bad="0.88")


def _ink(cmap, norm, v) -> str:
    r, g, b = cmap(norm(v))[:3]
    return "black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5 else "white"


def _ticks(ax, axis: str, labels, limit: int = 8) -> None:
    labels = [str(v) for v in labels]
    pos = range(len(labels))
    if axis == "x":
        long = max(map(len, labels), default=0) > limit or len(labels) > 12
        ax.set_xticks(pos, labels, rotation=30 if long else 0, ha="right" if long else "center")
    else:
        ax.set_yticks(pos, labels)


def _point_names(df: pd.DataFrame, keys) -> list[str]:
    if len(keys) == 1:
        return [str(v) for v in df[keys[0]]]
    return [", ".join(f"{k}={r[k]}" for k in keys) for _, r in df.iterrows()]


def _grid_x(df: pd.DataFrame, keys):
    """x positions of grid points: the values of a single numeric key, else 0, 1, 2, ...
    (``labels`` then names them)."""
    if len(keys) == 1:
        x = _num(df[keys[0]])
        if np.isfinite(x).all():
            return x, None
    return np.arange(len(df), dtype=float), _point_names(df, keys)


def _int_ticks(ax, xs) -> None:
    xs = sorted(set(float(v) for v in xs if math.isfinite(v)))
    if 1 < len(xs) <= 25 and all(v.is_integer() for v in xs):
        ax.set_xticks(xs, [str(int(v)) for v in xs])


def _unsettled(a, k: int) -> str:
    """`` (not resolved)`` when the analysis's claim ``k`` is kept and not resolved."""
    claims = getattr(a, "claims", None) or []
    return " (not resolved)" if len(claims) > k and not claims[k].get("resolved") else ""


def _resolved(a, default: bool) -> bool:
    """Whether the analysis's first headline claim is resolved (``default`` for an analysis
    saved before claims were kept)."""
    return bool(a.claims[0].get("resolved")) if getattr(a, "claims", None) else default


# --- tournament -----------------------------------------------------------------------------

def _order(a) -> list[str]:
    t = a.frames.get("table")
    if t is not None and "strategy" in t.columns:
        t = t.sort_values("rank") if "rank" in t.columns else t
        return [str(s) for s in t["strategy"]]
    c = _frame(a, "cross")
    return list(dict.fromkeys(c["row"].astype(str).tolist() + c["col"].astype(str).tolist()))


def _tournament_words(a):
    info = a.info
    model = info.get("model") or str(a.frames["table"]["model"].iloc[0])
    metric = info.get("metric", "metric")
    larger = info.get("larger", True)
    if model == "bradley-terry":
        return model, metric, "row's chance of beating the column (draws set aside)", \
            "P(row beats column)"
    what = (f"row's {metric} minus the column's" if larger else
            f"column's {metric} minus the row's (lower {metric} is better)")
    return model, metric, f"row's advantage: {what}", f"row's advantage in {metric}"


def cross_table(an) -> Figure:
    """The tournament's cross table as a heatmap: in each cell the row strategy's score against
    the column strategy and its 95% bootstrap interval; strategies in rating order."""
    a = parts(an, "tournament", "cross_table")
    cross = _frame(a, "cross")
    order = _order(a)
    s = len(order)
    grid, lo, hi = (np.full((s, s), np.nan) for _ in range(3))
    pos = {name: i for i, name in enumerate(order)}
    for r in cross.itertuples():
        i, j = pos.get(str(r.row)), pos.get(str(r.col))
        if i is None or j is None:
            continue
        grid[i, j], lo[i, j], hi[i, j] = (float(x) if x is not None else math.nan
                                          for x in (r.score, r.ci_low, r.ci_high))
    model, metric, what, bar = _tournament_words(a)
    bt = model == "bradley-terry"
    norm, cmap = _diverging(grid, 0.5, 0.5) if bt else _diverging(grid)
    longest = max(map(len, order))
    fig = new_figure(min(16.0, max(6.5, 1.55 * s + 0.07 * longest + 3.0)),
                     min(12.0, max(4.8, 0.95 * s + 0.05 * longest + 2.8)))
    ax = fig.add_subplot()
    im = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, norm=norm, aspect="auto",
                   interpolation="nearest")
    half = np.maximum(grid - lo, hi - grid)
    dec = _decimals(half, grid)
    size = 9 if s <= 4 else 8 if s <= 7 else 6.5
    for (i, j), v in np.ndenumerate(grid):
        if i == j:
            ax.text(j, i, "—", ha="center", va="center", color="0.5", fontsize=size)
            continue
        if not np.isfinite(v):
            continue
        text = fmt_num(v, dec)
        if np.isfinite(lo[i, j]) and np.isfinite(hi[i, j]):
            text += f"\n[{fmt_num(lo[i, j], dec)}, {fmt_num(hi[i, j], dec)}]"
        ax.text(j, i, text, ha="center", va="center", fontsize=size, color=_ink(cmap, norm, v))
    _ticks(ax, "x", order)
    _ticks(ax, "y", order)
    ax.set_xlabel("column strategy")
    ax.set_ylabel("row strategy")
    cb = fig.colorbar(im, ax=ax, shrink=0.9)
    cb.set_label(bar)
    reps = a.info.get("reps")
    _finish(fig, a, f"Tournament cross table: {what}",
            f"Cells: the {what}; in brackets its 95% CI (bootstrap over chunks"
            + (f", {reps} resamples" if reps else "") + "). Rows and columns in rating order, "
            f"best first; {'Bradley-Terry' if bt else 'least-squares'} ratings.")
    return fig


def ratings(an) -> Figure:
    """The tournament's ratings, best at the top, with 95% bootstrap intervals."""
    a = parts(an, "tournament", "ratings")
    t = _frame(a, "table")
    t = t.sort_values("rank") if "rank" in t.columns else t.sort_values("mean", ascending=False)
    model, metric, _, _ = _tournament_words(a)
    bt = model == "bradley-terry"
    mean, lo, hi = _num(t["mean"]), _num(t["ci_low"]), _num(t["ci_high"])
    own = f"mean_{metric}"
    names = []
    for k, r in enumerate(t.itertuples(index=False)):
        rank = getattr(r, "rank", k + 1)
        extra = f"\n{metric} {float(t[own].iloc[k]):.4g}" if own in t.columns else ""
        names.append(f"{rank}. {r.strategy}{extra}")
    s = len(t)
    fig = new_figure(8.0, max(3.4, 0.62 * s + 2.4))
    ax = fig.add_subplot()
    y = np.arange(s)[::-1].astype(float)
    el, eh = np.nan_to_num(np.maximum(mean - lo, 0)), np.nan_to_num(np.maximum(hi - mean, 0))
    ax.errorbar(mean, y, xerr=[el, eh], fmt="o", color=colormaps["tab10"](0), ecolor="0.25",
                elinewidth=1.4, capsize=4, markersize=7, label="rating; bars: 95% CI (bootstrap)")
    dec = 1 if bt else _decimals(np.maximum(el, eh), mean)
    for xv, yv, l, h in zip(mean, y, lo, hi):
        ax.annotate(f"{fmt_num(xv, dec)} [{fmt_num(l, dec)}, {fmt_num(h, dec)}]", (h, yv),
                    xytext=(6, 0), textcoords="offset points", va="center", fontsize=8)
    ax.set_yticks(y, names)
    ax.axvline(0, color="0.5", linewidth=0.8, zorder=0)
    xl = ax.get_xlim()
    ax.set_xlim(xl[0], xl[1] + 0.25 * (xl[1] - xl[0]))  # room for the value labels
    ax.set_ylim(-0.7, s - 0.3)
    ax.set_xlabel("Elo rating (Bradley-Terry; +200 = a 76% chance of beating)" if bt else
                  f"rating: {metric} advantage per seat (least squares, mean 0; higher is better)")
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    flags = a.info.get("contradictions") or []
    _finish(fig, a, f"Tournament ratings ({model}, by {metric})",
            "Dots: ratings (higher is better); bars: 95% CI from a seeded bootstrap over chunks, "
            "the same resampled deals for every pair."
            + ("".join(f" Contradicted head to head: {f['rated']} is rated above {f['loses_to']}, "
                       f"who beats it (resolved at 95%)." for f in flags)))
    return fig


# --- best (racing) --------------------------------------------------------------------------

def racing(an) -> Figure:
    """``best``: left, the race in one look: a lane per grid point from the first look to the
    last deals it was played, ending in a cross where it was dropped or running to the end for
    a survivor (the leader starred), with its estimate and 95% half-width there; right, the final
    estimates with 95% intervals, the best point starred."""
    a = parts(an, "best", "racing")
    t = _frame(a, "table")
    hist = _frame(a, "history")
    keys = list(a.info.get("keys") or [c for c in hist.columns if c not in (
        "look", "chunks", "deals", "point", "mean", "se", "alive")])
    metric = a.info.get("metric") or str(t["metric"].iloc[0])
    names = _point_names(t, keys)
    m = len(t)
    surv = t["survivor"].astype(bool).to_numpy() if "survivor" in t.columns else np.ones(m, bool)
    best = t["best"].astype(bool).to_numpy() if "best" in t.columns else np.zeros(m, bool)
    fig = new_figure(13.0, 5.4)
    ax, ax2 = fig.subplots(1, 2, width_ratios=[1.25, 1])
    cmap = colormaps["viridis"]
    tab = colormaps["tab10"]
    order = [p for p in range(m) if best[p]] + [p for p in range(m) if surv[p] and not best[p]]
    colours = [cmap(0.05 + 0.85 * p / max(m - 1, 1)) for p in range(m)]
    for q, p in enumerate(order):
        colours[p] = tab([0, 1, 2, 4, 5, 6, 8, 9][q % 8])
    hist = hist.assign(_deals=_num(hist["deals"]), _mean=_num(hist["mean"]), _se=_num(hist["se"]),
                       _alive=hist["alive"].astype(bool), _point=_num(hist["point"]).astype(int))
    deals = sorted(hist["_deals"].unique())
    _race_lanes(ax, hist, names, surv, best, deals, colours, metric, resolved=_resolved(a, surv.sum() == 1))
    ax.set_title("the race: how long each point stayed in", fontsize=10)

    x, labels = _grid_x(t, keys)
    mean, lo, hi = _num(t["mean"]), _num(t["ci_low"]), _num(t["ci_high"])
    el, eh = np.nan_to_num(np.maximum(mean - lo, 0)), np.nan_to_num(np.maximum(hi - mean, 0))
    ax2.plot(x, mean, color="0.7", linewidth=1, zorder=1)
    for mask, style in ((~surv, dict(fmt="o", color="0.55", mfc="white", label="dropped")),
                        (surv, dict(fmt="o", color=colormaps["tab10"](0), label="survivor"))):
        if mask.any():
            ax2.errorbar(x[mask], mean[mask], yerr=[el[mask], eh[mask]], capsize=3, markersize=6,
                         elinewidth=1.2, zorder=3, **style)
    if best.any():
        ax2.plot(x[best], mean[best], marker="*", markersize=17, color="gold",
                 markeredgecolor="black", linestyle="none", zorder=4,
                 label=("best: " if _resolved(a, surv.sum() == 1) else
                        "leader, not resolved (the survivors cannot be told apart): ")
                 + ", ".join(f"{k}={t.loc[best, k].iloc[0]}" for k in keys))
    if labels is not None:
        _ticks(ax2, "x", labels)
    else:
        _int_ticks(ax2, x)
    ax2.set_xlabel(" x ".join(keys) if len(keys) > 1 else keys[0] if keys else "grid point")
    ax2.set_ylabel(metric)
    ax2.grid(True, alpha=0.3)
    ax2.legend(fontsize=8, title="bars: 95% CI", title_fontsize=8, loc="best")
    ax2.set_title("final estimates (each point's deals)", fontsize=10)
    info = a.info
    used, full = info.get("deals"), info.get("full_sweep_deals")
    saving = f" The race played {int(used):,} deals; a full sweep at the survivors' precision " \
             f"would play {int(full):,}." if used and full else ""
    _finish(fig, a, f"Best response by racing: {metric} over {' x '.join(keys)}",
            f"Bars: 95% CI (±1.96 se; at a look the race itself drops a point only when another "
            f"beats it at the Bonferroni level alpha={info.get('alpha', 0.05)} over "
            f"{info.get('looks', '?')} looks and every pair). X: where a point was dropped; "
            f"star: the best point; filled: survivors.{saving}")
    return fig


def _race_lanes(ax, hist, names, surv, best, deals, colours, metric, resolved) -> None:
    """The left panel of :func:`racing`: grid points down (in grid order), deals per point across
    (log scale), each point's lane to where it left the race."""
    m = len(names)
    for p in range(m):
        h = hist[hist["_point"] == p].sort_values("look")
        if h.empty:
            continue
        gone = h[~h["_alive"]]
        end = gone.iloc[0] if len(gone) else h.iloc[-1]
        x_end, mean, half = float(end["_deals"]), float(end["_mean"]), Z95 * float(end["_se"])
        y = m - 1 - p
        ax.plot([deals[0], x_end], [y, y], color=colours[p] if surv[p] else "0.6",
                linewidth=5 if surv[p] else 2.5, solid_capstyle="butt", zorder=2)
        mark = dict(marker="*", markersize=16, color="gold", markeredgecolor="black") if best[p] \
            else dict(marker="o", markersize=8, color=colours[p]) if surv[p] \
            else dict(marker="X", markersize=10, color="crimson", markeredgecolor="white")
        ax.plot([x_end], [y], linestyle="none", zorder=4, **mark)
        if np.isfinite(mean):
            ax.annotate(f"{fmt_num(mean, 4)} ±{fmt_num(half, 4)}" if np.isfinite(half) and half > 0
                        else fmt_num(mean, 4), (x_end, y), xytext=(9, 0),
                        textcoords="offset points", va="center", fontsize=9, color="0.15")
    ax.set_xscale("log", base=2)
    if deals:
        ax.set_xticks(deals, [f"{int(d):,}" for d in deals], rotation=30 if len(deals) > 4 else 0)
        ax.minorticks_off()
        ax.set_xlim(deals[0] / 1.4, deals[-1] * 3.2)
    ax.set_yticks(range(m), [names[m - 1 - k] for k in range(m)])
    ax.set_ylim(-0.7, m - 0.3)
    ax.set_xlabel("deals per point when it left the race (or at the end)")
    ax.grid(True, axis="x", alpha=0.3)
    handles = [Line2D([], [], color="crimson", marker="X", linestyle="none", markersize=9,
                      label="dropped: another point beat it at that look"),
               Line2D([], [], color=colours[int(np.argmax(surv))] if surv.any() else "0.5",
                      linewidth=5, label="survivor: still in at the end"),
               Line2D([], [], color="gold", marker="*", markeredgecolor="black", linestyle="none",
                      markersize=13, label="best" if resolved else "leader (not resolved)"),
               Line2D([], [], linestyle="none", label=f"numbers: {metric} ±95% half-width there")]
    ax.legend(handles=handles, fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.2),
              ncols=2, frameon=False)


# --- solve ----------------------------------------------------------------------------------

def _cells(a):
    """``(rk, ck, rvals, cvals, mean, se, col_br, row_br)`` of a solve analysis, as matrices."""
    t = _frame(a, "table")
    rk, ck = a.info.get("row"), a.info.get("col")
    if rk not in t.columns or ck not in t.columns:
        raise SimkitError("the solve analysis's table has no row and column grid columns")
    rvals = list(a.info.get("row_values") or pd.unique(t[rk]))
    cvals = list(a.info.get("col_values") or pd.unique(t[ck]))
    ri = {float(v): i for i, v in enumerate(rvals)}
    ci = {float(v): j for j, v in enumerate(cvals)}
    shape = (len(rvals), len(cvals))
    mean, se = np.full(shape, np.nan), np.zeros(shape)
    cbr, rbr = np.zeros(shape, bool), np.zeros(shape, bool)
    for _, r in t.iterrows():
        i, j = ri.get(float(r[rk])), ci.get(float(r[ck]))
        if i is None or j is None:
            continue
        mean[i, j] = float(r["mean"])
        se[i, j] = float(r["se"]) if r.get("se") is not None and np.isfinite(float(r["se"])) else 0.0
        cbr[i, j] = bool(r.get("col_best_reply", False))
        rbr[i, j] = bool(r.get("row_best_reply", False))
    return rk, ck, rvals, cvals, mean, se, cbr, rbr


def _index(values, v):
    for i, x in enumerate(values):
        if v is not None and float(x) == float(v):
            return i
    return None


def matrix(an) -> Figure:
    """``solve``: the row side's payoff over both grids (cells: mean ± 95% half-width); ▶ marks
    the column's best reply to each row, ▼ the row's best reply to each column; a gold frame the
    row's pure minimax cell, a dashed one the column's; the mixed equilibrium's weights along the
    top (column side) and the right (row side)."""
    a = parts(an, "solve", "matrix")
    rk, ck, rvals, cvals, mean, se, cbr, rbr = _cells(a)
    info = a.info
    m, k = mean.shape
    rmix = np.asarray(info.get("row_mix") or np.zeros(m), float)
    cmix = np.asarray(info.get("col_mix") or np.zeros(k), float)
    rlab = info.get("row_metric", "row payoff")
    exact = info.get("method") == "exact" or not (se > 0).any()
    fig = new_figure(min(17.0, max(7.5, 0.95 * k + 4.2)), min(13.0, max(5.5, 0.6 * m + 3.6)))
    gs = fig.add_gridspec(2, 2, width_ratios=[k, max(1.6, 0.22 * k)],
                          height_ratios=[max(1.3, 0.2 * m), m])
    ax = fig.add_subplot(gs[1, 0])
    ax_top = fig.add_subplot(gs[0, 0], sharex=ax)
    ax_right = fig.add_subplot(gs[1, 1], sharey=ax)
    ax_key = fig.add_subplot(gs[0, 1])
    norm, cmap = _colour_map(mean)
    im = ax.imshow(np.ma.masked_invalid(mean), cmap=cmap, norm=norm, aspect="auto",
                   interpolation="nearest")
    half = Z95 * se
    dec = _decimals(half, mean)
    size = 8.5 if m * k <= 30 else 7.5 if m * k <= 80 else 6
    for (i, j), v in np.ndenumerate(mean):
        if not np.isfinite(v):
            continue
        text = fmt_num(v, dec) + ("" if exact or half[i, j] <= 0 else f"\n±{fmt_num(half[i, j], dec)}")
        ax.text(j, i + 0.06, text, ha="center", va="center", fontsize=size,
                color=_ink(cmap, norm, v))
    ms = 7 if m * k <= 80 else 5
    ci, cj = np.nonzero(cbr)
    ax.plot(cj + 0.36, ci - 0.3, linestyle="none", marker=">", markersize=ms, color="black",
            markeredgecolor="white", markeredgewidth=0.6, zorder=4)
    ri, rj = np.nonzero(rbr)
    ax.plot(rj - 0.36, ri - 0.3, linestyle="none", marker="v", markersize=ms, color="black",
            markeredgecolor="white", markeredgewidth=0.6, zorder=4)
    i_star = _index(rvals, info.get("minimax_row"))
    j_br = _index(cvals, info.get("minimax_reply"))
    if i_star is not None and j_br is not None:
        ax.add_patch(Rectangle((j_br - 0.5, i_star - 0.5), 1, 1, fill=False, edgecolor="gold",
                               linewidth=3.2, zorder=5))
    j_star = _index(cvals, info.get("col_minimax"))
    if j_star is not None and info.get("row_best_reply"):
        i_br = _index(rvals, info["row_best_reply"][j_star])
        if i_br is not None:
            ax.add_patch(Rectangle((j_star - 0.44, i_br - 0.44), 0.88, 0.88, fill=False,
                                   edgecolor="black", linewidth=1.6, linestyle="--", zorder=5))
    _ticks(ax, "x", cvals)
    _ticks(ax, "y", rvals)
    ax.set_xlabel(f"{ck} (column side)")
    ax.set_ylabel(f"{rk} (row side)")
    # the mixed equilibrium along the margins
    c0 = colormaps["tab10"]
    ax_top.bar(range(k), cmix, color=c0(1), width=0.7)
    for j, p in enumerate(cmix):
        if p > 5e-4:
            ax_top.text(j, p + 0.04, f"{p:.2f}", ha="center", va="bottom", fontsize=7.5)
    ax_top.set_ylim(0, 1.3)
    ax_top.set_yticks([0, 0.5, 1])
    ax_top.set_ylabel("column's\nmix", fontsize=8)
    ax_top.tick_params(labelbottom=False, labelsize=7)
    ax_top.grid(True, axis="y", alpha=0.3)
    ax_right.barh(range(m), rmix, color=c0(2), height=0.7)
    for i, p in enumerate(rmix):
        if p > 5e-4:
            ax_right.text(p + 0.04, i, f"{p:.2f}", ha="left", va="center", fontsize=7.5)
    ax_right.set_xlim(0, 1.45)
    ax_right.set_xticks([0, 0.5, 1])
    ax_right.set_xlabel("row's mix", fontsize=8)
    ax_right.tick_params(labelleft=False, labelsize=7)
    ax_right.grid(True, axis="x", alpha=0.3)
    # key: colour bar and what the marks are
    ax_key.axis("off")
    cax = ax_key.inset_axes([0.05, 0.66, 0.9, 0.1])
    cb = fig.colorbar(im, cax=cax, orientation="horizontal")
    cb.set_label(f"row payoff {rlab}", fontsize=7.5)
    cb.ax.xaxis.set_label_position("top")
    cb.ax.tick_params(labelsize=6.5)
    handles = [Line2D([], [], linestyle="none", marker=">", color="black", label="column's best reply"),
               Line2D([], [], linestyle="none", marker="v", color="black", label="row's best reply"),
               Patch(fill=False, edgecolor="gold", linewidth=2.5,
                     label="row's pure minimax" + _unsettled(a, 0)),
               Patch(fill=False, edgecolor="black", linestyle="--",
                     label="column's pure minimax" + _unsettled(a, 1))]
    ax_key.legend(handles=handles, loc="upper center", fontsize=7, frameon=False,
                  bbox_to_anchor=(0.5, 0.5))
    value, vse = info.get("value"), info.get("value_se") or 0.0
    vtext = "" if value is None else f"Mixed equilibrium value {value:.5g}" + (
        f" ± {Z95 * vse:.2g} (95%, bootstrap)" if vse and not exact else "")
    mm = info.get("minimax")
    mtext = "" if mm is None or i_star is None else \
        f"; row's pure minimax{_unsettled(a, 0)} {rk}={rvals[i_star]} against " \
        f"{ck}={info.get('minimax_reply')}: {mm:.5g}"
    _finish(fig, a, f"Payoff matrix: {rk} x {ck}, row payoff {rlab}",
            ("Cells: the row's payoff (exact). " if exact else
             "Cells: the row's payoff ± its 95% CI half-width (1.96 se). ")
            + "Right-pointing mark: the column side's best reply to that row; down-pointing: the "
              "row side's best reply to that column (both in a cell: a pure equilibrium). "
              "Margins: the mixed equilibrium's weights. " + vtext + mtext + ".")
    return fig


def _reply_value(text):
    """``"p1.t=16"`` -> 16."""
    if text is None or (isinstance(text, float) and math.isnan(text)):
        return None
    v = str(text).split("=", 1)[-1]
    try:
        f = float(v)
    except ValueError:
        return v
    return int(f) if f.is_integer() else f


def best_replies(an) -> Figure:
    """``solve``: left, the column side's best reply as a function of the row's point and the
    row side's best reply as a function of the column's (where the curves meet: a pure
    equilibrium); a hollow mark is a reply not resolved from its runner-up (shown faint) at 95%.
    Right, each reply's margin over the runner-up with its 95% interval."""
    a = parts(an, "solve", "best_replies")
    info = a.info
    rk, ck = info["row"], info["col"]
    rvals, cvals = list(info["row_values"]), list(info["col_values"])
    cbr, rbr = list(info["col_best_reply"]), list(info["row_best_reply"])
    rep = a.frames.get("replies")
    rep = rep.reset_index(drop=True) if rep is not None and len(rep) else pd.DataFrame(
        columns=["side", "to", "best", "runner_up", "margin", "margin_se"])
    exact = info.get("method") == "exact"

    def side(name, n):
        s = rep[rep["side"] == name].reset_index(drop=True)
        marg = _num(s["margin"]) if len(s) else np.full(n, np.nan)
        mse = _num(s["margin_se"]) if len(s) else np.full(n, np.nan)
        runner = [_reply_value(v) for v in s["runner_up"]] if len(s) else [None] * n
        resolved = np.where(np.isfinite(mse) & (mse > 0), marg > Z95 * mse, marg > 0)
        return s, marg, mse, runner, resolved

    cs, cmarg, cmse, crun, cres = side("col", len(rvals))
    rs, rmarg, rmse, rrun, rres = side("row", len(cvals))
    fig = new_figure(13.0, 5.6)
    ax, ax2 = fig.subplots(1, 2, width_ratios=[1, 1.1])
    blue, orange = colormaps["tab10"](0), colormaps["tab10"](1)
    rx, cy = _num(rvals), _num(cvals)
    ax.plot(rx, _num(cbr), color=blue, linewidth=1.8, zorder=2,
            label=f"column's best reply ({ck}) to each {rk}")
    ax.plot(_num(rbr), cy, color=orange, linewidth=1.8, linestyle="--", zorder=2,
            label=f"row's best reply ({rk}) to each {ck}")
    for xs, ys, res, colour, mk in ((rx, _num(cbr), cres, blue, ">"),
                                    (_num(rbr), cy, rres, orange, "v")):
        res = np.resize(np.asarray(res, bool), len(xs))
        ax.plot(xs[res], ys[res], linestyle="none", marker=mk, markersize=8, color=colour, zorder=3)
        ax.plot(xs[~res], ys[~res], linestyle="none", marker=mk, markersize=8, color=colour,
                markerfacecolor="white", zorder=3)
    # the runner-up of each unresolved reply, faint
    for i, ok in enumerate(cres):
        if not ok and i < len(crun) and crun[i] is not None:
            ax.plot(rx[i], float(crun[i]), marker=">", markersize=6, color=blue, alpha=0.3,
                    linestyle="none", zorder=2)
    for j, ok in enumerate(rres):
        if not ok and j < len(rrun) and rrun[j] is not None:
            ax.plot(float(rrun[j]), cy[j], marker="v", markersize=6, color=orange, alpha=0.3,
                    linestyle="none", zorder=2)
    mr, mc = info.get("minimax_row"), info.get("minimax_reply")
    if mr is not None and mc is not None:
        ax.plot([float(mr)], [float(mc)], marker="s", markersize=16, markerfacecolor="none",
                markeredgecolor="gold", markeredgewidth=2.5, linestyle="none", zorder=4,
                label=f"row's pure minimax ({rk}={mr}, {ck}={mc})")
    ax.plot([], [], linestyle="none", marker="o", color="0.4", markerfacecolor="white",
            label="hollow: not resolved from the runner-up (faint) at 95%")
    _int_ticks(ax, rx)
    ys = sorted(set(float(v) for v in cy))
    if 1 < len(ys) <= 25 and all(v.is_integer() for v in ys):
        ax.set_yticks(ys, [str(int(v)) for v in ys])
    ax.set_xlim(min(rx.min(), np.nanmin(_num(rbr))) - 0.6, max(rx.max(), np.nanmax(_num(rbr))) + 0.6)
    ax.set_ylim(min(cy.min(), np.nanmin(_num(cbr))) - 0.6, max(cy.max(), np.nanmax(_num(cbr))) + 1.6)
    ax.set_xlabel(f"{rk} (row side)")
    ax.set_ylabel(f"{ck} (column side)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7.5, loc="upper left")
    ax.set_title("best replies", fontsize=10)
    # margins over the runner-up
    labels, vals, errs, colours = [], [], [], []
    for s, marg, mse, colour, who in ((cs, cmarg, cmse, blue, "column"),
                                      (rs, rmarg, rmse, orange, "row")):
        for q in range(len(s)):
            labels.append(f"{who}'s reply to {s['to'].iloc[q]}: {s['best'].iloc[q]}")
            vals.append(marg[q])
            errs.append(Z95 * mse[q] if np.isfinite(mse[q]) else 0.0)
            colours.append(colour)
    y = np.arange(len(vals))[::-1].astype(float)
    if len(vals):
        ax2.barh(y, vals, color=colours, alpha=0.55, height=0.65)
        if any(e > 0 for e in errs):
            ax2.errorbar(vals, y, xerr=errs, fmt="none", ecolor="0.15", elinewidth=1.1, capsize=3)
        ax2.set_yticks(y, labels, fontsize=7 if len(vals) > 14 else 8)
    ax2.axvline(0, color="0.4", linewidth=0.8)
    ax2.set_xlabel("margin of the best reply over the runner-up (that side's payoff)")
    ax2.grid(True, axis="x", alpha=0.3)
    ax2.legend(handles=[Patch(color=blue, alpha=0.55, label="column's replies"),
                        Patch(color=orange, alpha=0.55, label="row's replies")]
               + ([] if exact else [Line2D([], [], color="0.15", marker="|", linestyle="none",
                                           markersize=10, label="bars: 95% CI (paired, 1.96 se)")]),
               fontsize=7.5, loc="best")
    ax2.set_title("how clearly each best reply beats the runner-up", fontsize=10)
    _finish(fig, a, f"Best replies: {rk} x {ck}",
            ("Exact payoffs: margins have no sampling error. " if exact else
             "Bars: 95% CI of the paired margin best minus runner-up (1.96 se over chunks); a "
             "reply is resolved when its CI excludes 0. ")
            + "Where the two curves meet, each side's point is a best reply to the other's: a pure "
              "equilibrium.")
    return fig


# --- compare --------------------------------------------------------------------------------

def differences(an) -> Figure:
    """``compare``: every metric's comparison (A's edge where two players share a zero- or
    constant-sum metric, else A - B; each on its own scale), with its 95% interval and the zero
    line; the target metric first, the metrics where lower is better marked."""
    a = parts(an, "compare", "differences")
    t = _frame(a, "table")
    t = t.assign(_m=_num(t["mean"]), _lo=_num(t["ci_low"]), _hi=_num(t["ci_high"]))
    t = t[np.isfinite(t["_m"])]
    if t.empty:
        raise SimkitError("the compare analysis has no metric with an A - B difference")
    target = a.info.get("target")
    shared = t["kind"].astype(str).eq("shared") if "kind" in t.columns else pd.Series(False, index=t.index)
    if (~shared).any():  # the strategies' own (seat) metrics; shared outcomes stay in the table
        t = t[~shared]
    same = (t["_m"].abs() <= 1e-15) & (t["_lo"].abs() <= 1e-15) & (t["_hi"].abs() <= 1e-15)
    identical = [str(m) for m in t.loc[same, "metric"]]
    if (~same).any():
        t = t[~same]
    t = t.assign(_o=[0 if m == target else 1 for m in t["metric"]])
    t = t.sort_values("_o", kind="stable")
    a_name, b_name = a.info.get("a", "A"), a.info.get("b", "B")
    n = len(t)
    fig = new_figure(8.5, min(16.0, 0.82 * n + 2.9))
    key, *axes = fig.subplots(n + 1, 1, squeeze=False, height_ratios=[0.3] + [1] * n)[:, 0]
    edges = False
    for ax, (_, r) in zip(axes, t.iterrows()):
        m, lo, hi = r["_m"], r["_lo"], r["_hi"]
        lower = str(r.get("better", "")) == "lower"
        sig = np.isfinite(lo) and np.isfinite(hi) and (lo > 0 or hi < 0)
        colour = (colormaps["tab10"](0) if (m > 0) != lower else colormaps["tab10"](3)) if sig \
            else "0.45"
        el = m - lo if np.isfinite(lo) else 0.0
        eh = hi - m if np.isfinite(hi) else 0.0
        ax.errorbar([m], [0], xerr=[[el], [eh]], fmt="o", color=colour, ecolor=colour,
                    capsize=4, markersize=6, elinewidth=1.6)
        ax.axvline(0, color="0.3", linewidth=0.9)
        span = max(abs(lo) if np.isfinite(lo) else abs(m), abs(hi) if np.isfinite(hi) else abs(m),
                   abs(m)) or 1.0
        ax.set_xlim(-1.15 * span, 1.15 * span)
        dec = _decimals([max(el, eh)], [m])
        ax.text(1.01, 0.5, f"{fmt_num(m, dec)}\n[{fmt_num(lo, dec)}, {fmt_num(hi, dec)}]",
                transform=ax.transAxes, ha="left", va="center", fontsize=8,
                fontweight="bold" if r["metric"] == target else "normal")
        am, bm = float(r["a_mean"]), float(r["b_mean"])
        edge = str(r.get("quantity", "")) == "A's edge"
        edges |= edge
        name = str(r["metric"]) + (" (shared)" if str(r.get("kind")) == "shared" else "") + \
            (" *" if r["metric"] == target else "") + (", lower is better" if lower else "")
        ax.set_yticks([0], [f"{name}\n{'edge' if edge else 'A - B'}: A {am:.4g} · B {bm:.4g}"],
                      fontsize=8)
        ax.set_ylim(-1, 1)
        ax.tick_params(axis="x", labelsize=7)
        ax.grid(True, axis="x", alpha=0.3)
    key.axis("off")
    key.legend(handles=[Line2D([], [], color="0.3", marker="o",
                               label=("A's edge or A - B" if edges else "A - B")
                               + "; bars: 95% CI"),
                        Line2D([], [], color=colormaps["tab10"](0), marker="o", linestyle="none",
                               label="A better (CI excludes 0)"),
                        Line2D([], [], color=colormaps["tab10"](3), marker="o", linestyle="none",
                               label="B better (CI excludes 0)")],
               fontsize=7.5, loc="center", ncols=3, frameon=False)
    axes[-1].set_xlabel(("A's edge or " if edges else "") + "A - B per deal, on the same deals "
                        "(each metric on its own scale)")
    mode = a.info.get("mode", "")
    status = a.info.get("status", "")
    _finish(fig, a, f"A={a_name} against B={b_name}" + (f" ({mode})" if mode else ""),
            "Dots: " + ("A's edge (two players, a zero- or constant-sum metric: A's value minus "
                        "the even share, half of A - B) or " if edges else "")
            + "A minus B, paired on common deals; bars: 95% CI (t, batch means over chunks); "
            "the line at 0 is no difference; better is higher unless marked lower. * the metric "
            "the comparison targets" + (f" ({status})" if status else "") + "."
            + (f" The same for A and B on every deal: {', '.join(identical)}." if identical else ""))
    return fig


# --- odds -----------------------------------------------------------------------------------

def odds(an) -> Figure:
    """``odds``: the grid seat's match-win chance at each grid point with 95% intervals; the best
    point starred, those not distinguishable from it (paired) ringed."""
    a = parts(an, "odds", "odds")
    t = _frame(a, "table")
    keys = list(a.info.get("keys") or [c for c in t.columns if "." in c])
    metric = a.info.get("metric") or str(t["metric"].iloc[0])
    x, labels = _grid_x(t, keys)
    mean, lo, hi = _num(t["mean"]), _num(t["ci_low"]), _num(t["ci_high"])
    el, eh = np.nan_to_num(np.maximum(mean - lo, 0)), np.nan_to_num(np.maximum(hi - mean, 0))
    best = t["best"].astype(bool).to_numpy() if "best" in t.columns else np.zeros(len(t), bool)
    tied = t["tied"].astype(bool).to_numpy() if "tied" in t.columns else np.zeros(len(t), bool)
    fig = new_figure(7.5, 4.8)
    ax = fig.add_subplot()
    ax.errorbar(x, mean, yerr=[el, eh], fmt="o-", color=colormaps["tab10"](0), capsize=3,
                markersize=5, linewidth=1.5, elinewidth=1.1, label=f"{metric}; bars: 95% CI")
    ring = tied & ~best
    if ring.any():
        ax.plot(x[ring], mean[ring], linestyle="none", marker="o", markersize=12,
                markerfacecolor="none", markeredgecolor="0.3", markeredgewidth=1.3,
                label="not distinguishable from the best (paired 95% CI of the difference covers 0)")
    if best.any():
        ax.plot(x[best], mean[best], linestyle="none", marker="*", markersize=18, color="gold",
                markeredgecolor="black", zorder=4,
                label=("best: " if _resolved(a, not ring.any()) else
                       "leader, not resolved (not told apart from the ringed points): ")
                + ", ".join(f"{k}={t.loc[best, k].iloc[0]}" for k in keys))
    if labels is not None:
        _ticks(ax, "x", labels)
    else:
        _int_ticks(ax, x)
    ax.set_xlabel(" x ".join(keys) if keys else "grid point")
    ax.set_ylabel(f"{metric} (chance of winning the match)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7.5, loc="best")
    nm = t["n"].iloc[0] if "n" in t.columns else None
    _finish(fig, a, f"Match odds: {metric} by {' x '.join(keys)}",
            "Dots: the chance of winning a whole match at each grid point"
            + (f" ({int(nm):,} matches each, on common deals)" if nm is not None else "")
            + "; bars: 95% CI.")
    return fig


#: The figures the report draws for each kind of analysis.
FIGURES = {"compare": (differences,), "tournament": (ratings, cross_table), "best": (racing,),
           "solve": (matrix, best_replies), "odds": (odds,)}
