"""Build one self-contained HTML page from simkit results tables.

For each results file or table: its headline (the best configuration of its main metric with
its interval, and the largest difference from it), its provenance, the plots that fit its shape
(each caption says what the bars are), and the full table.
Only the tidy columns are used, so any game's results (simulated or exact) make a report.
"""
from __future__ import annotations

import base64
import datetime as _dt
import html
import math
import os
import tempfile

import numpy as np
import pandas as pd

from simkit._version import __version__
from simkit.errors import SimkitError
from simkit.plots import charts
from simkit.plots._tidy import (check_table, constant, context, fmt_estimate, grid_columns,
                                intervals, is_binary, main_metrics, methods, metric_names, varying)

#: At most this many metrics are drawn as lines (the table always has them all).
MAX_LINE_PANELS = 12
#: At most this many heatmaps per table (expected values first).
MAX_HEATMAPS = 4
#: At most this many slices of a grid of three or more columns are drawn.
MAX_SLICES = 6
#: Rules or strategies strings listed in the provenance before "... and N more".
MAX_LISTED = 12

_READABLE = (".parquet", ".pq", ".csv")


# --- inputs --------------------------------------------------------------------------------

def _items(frames_or_paths):
    """Normalise the input to a list of ``(name, table_or_path)``."""
    if isinstance(frames_or_paths, (str, os.PathLike, pd.DataFrame)) or hasattr(frames_or_paths, "table"):
        frames_or_paths = [frames_or_paths]
    if isinstance(frames_or_paths, dict):
        return [(str(k), v) for k, v in frames_or_paths.items()]
    items = list(frames_or_paths)
    if not items:
        raise SimkitError("nothing to report: give at least one results file or table")
    out = []
    for i, it in enumerate(items, 1):
        if isinstance(it, (str, os.PathLike)):
            out.append((os.path.basename(os.fspath(it)), it))
        elif isinstance(it, tuple) and len(it) == 2 and isinstance(it[0], str):
            out.append(it)
        else:
            out.append((f"table {i}", it))
    return out


def _load(name: str, item) -> tuple[pd.DataFrame, dict, str | None]:
    """``(table, meta, path)`` for a path, a DataFrame or a Result."""
    from simkit.core import store
    if isinstance(item, (str, os.PathLike)):
        path = os.fspath(item)
        if not os.path.exists(path):
            raise SimkitError(f"results file {path!r} not found")
        if os.path.isdir(path):
            raise SimkitError(f"cannot read {path!r}: it is a folder; give the results files in it "
                              f"(.parquet or .csv written by simkit run, sweep or exact -o FILE)")
        if os.path.splitext(path)[1].lower() not in _READABLE:
            raise SimkitError(f"cannot read {path!r}: results files end in .parquet or .csv")
        rows = _read_rows(path)
        if rows is not None:
            return rows[0], rows[1], path
        df, meta = store.read_table(path)
        return check_table(df, f"results file {path!r}"), meta, path
    if isinstance(item, pd.DataFrame):
        if _is_rows(item):
            return item.copy(), {}, None
        return check_table(item.copy(), name), {}, None
    from simkit.analysis.common import Analysis
    if isinstance(item, Analysis):  # drawn by simkit.report.analysis
        return check_table(item.table(), name), item.meta(), None
    if hasattr(item, "table") and callable(item.table):
        df = item.table()
        return check_table(df, name), {"complete": getattr(item, "complete", True)}, None
    raise SimkitError(f"cannot report {type(item).__name__}: give results file paths, tidy "
                      f"DataFrames or Result objects")


def _is_rows(df: pd.DataFrame) -> bool:
    """Per-deal or per-session rows (``--rows FILE``): ``config``, grid columns, ``deal``, then
    one column per metric."""
    return isinstance(df, pd.DataFrame) and "metric" not in df.columns and \
        {"config", "deal"} <= set(df.columns)


def _read_rows(path: str):
    """``(rows, meta)`` when ``path`` is a rows file written by ``--rows``, else None."""
    import json
    try:
        if path.lower().endswith(".csv"):
            head = pd.read_csv(path, nrows=0)
            return (pd.read_csv(path), {}) if _is_rows(head) else None
        import pyarrow.parquet as pq
        meta = json.loads((pq.read_schema(path).metadata or {}).get(b"simkit", b"null"))
        if isinstance(meta, dict) and meta.get("rows_of"):
            df = pq.read_table(path).to_pandas()
            return (df, meta) if _is_rows(df) else None
    except Exception:  # noqa: BLE001 - not a rows file: the results reader says what is wrong
        return None
    return None


def _check_out(out) -> str:
    out = os.fspath(out)
    if os.path.splitext(out)[1].lower() != ".html":
        raise SimkitError(f"cannot write {out!r}: the report file must end in .html")
    if os.path.isdir(out):
        raise SimkitError(f"cannot write {out!r}: it is a folder")
    from simkit.core import store
    return store.check_writable(out)


def _write_atomic(path: str, text: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".simkit-report-", suffix=".tmp", dir=folder)
    except OSError as e:
        raise SimkitError(f"cannot write {path!r}: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        old = os.umask(0)
        os.umask(old)
        os.chmod(tmp, os.stat(path).st_mode & 0o777 if os.path.exists(path) else 0o666 & ~old)
        os.replace(tmp, path)
    except OSError as e:
        raise SimkitError(f"cannot write {path!r}: {e.strerror or e}") from None
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


# --- the page ------------------------------------------------------------------------------

def build(frames_or_paths, out, title: str | None = None) -> str:
    """Write one self-contained HTML report of ``frames_or_paths`` to ``out`` (``.html``).

    ``frames_or_paths``: a results file path (``.parquet`` or ``.csv``), a tidy DataFrame, a
    :class:`~simkit.analysis.simulate.Result`, a ``{name: table}`` dict, or a list of these.
    Plots are embedded as base64 PNG; the page needs no other file and no network.  The file is
    written atomically.  Returns ``out``.  Bad input raises :class:`~simkit.errors.SimkitError`.
    """
    out = _check_out(out)
    from simkit.core import store
    items = list(_items(frames_or_paths))
    given = {os.path.abspath(store.chunks_name(os.fspath(i))) for _, i in items
             if isinstance(i, (str, os.PathLike))}
    # FILE.chunks.parquet beside its FILE.parquet (both in a glob): resume data, not a table
    loaded = [(name, *_load(name, item)) for name, item in items
              if not (isinstance(item, (str, os.PathLike)) and os.path.abspath(item) in given)]
    created = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    if title is None:
        games = list(dict.fromkeys(
            [g for _, df, _, _ in loaded if "game" in df.columns for g in df["game"].astype(str).unique()]
            + [str(meta["rows_of"]) for _, _, meta, _ in loaded if meta.get("rows_of")]))
        title = "simkit report: " + ", ".join(games) if games else "simkit report"
    body = []
    for i, (name, df, meta, path) in enumerate(loaded, 1):
        body.append(f'<div id="s{i}">')
        if _is_rows(df):
            body.append(_rows_section(f"s{i}-1", name, df, meta, path))
            body.append("</div>")
            continue
        if isinstance(meta.get("analysis"), dict):  # a saved strategy analysis
            from simkit.report.analysis import section
            body.append(section(f"s{i}-1", name, df, meta, path))
            body.append("</div>")
            continue
        parts = _split(df)
        for j, (label, part) in enumerate(parts, 1):
            head = name if len(parts) == 1 else f"{name}: {label}"
            body.append(_section(f"s{i}-{j}", head, part, meta, path, whole=len(parts) == 1))
        body.append("</div>")
    toc = "".join(f'<li><a href="#s{i}">{html.escape(name)}</a></li>'
                  for i, (name, *_rest) in enumerate(loaded, 1))
    page = _PAGE.format(title=html.escape(title), created=html.escape(created),
                        version=html.escape(__version__), count=len(loaded),
                        plural="" if len(loaded) == 1 else "s",
                        toc=f"<ol class=toc>{toc}</ol>" if len(loaded) > 1 else "",
                        css=_CSS, body="\n".join(body))
    _write_atomic(out, page)
    return out


def _split(df: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """A table that mixes games or grids (tables concatenated) as one part per game and set of
    grid columns in use, each drawn on its own."""
    grid = grid_columns(df)
    used = df[grid].notna() if grid else pd.DataFrame(index=df.index)
    label = used.apply(lambda r: ", ".join(c for c in grid if r[c]) or "no grid", axis=1) \
        if grid else pd.Series("no grid", index=df.index)
    game = df["game"].astype(str) if "game" in df.columns else pd.Series("", index=df.index)
    key = game + " | " + label
    keys = list(dict.fromkeys(key))
    if len(keys) == 1:
        return [("", df)]
    out = []
    for k in keys:
        part = df[key == k]
        g, lab = k.split(" | ", 1)
        part = part.drop(columns=[c for c in grid if part[c].isna().all()])
        text = ", ".join(x for x in (g, f"grid {lab}" if lab != "no grid" else "no grid") if x)
        out.append((text, part))
    return out


def _section(anchor: str, name: str, df: pd.DataFrame, meta: dict, path: str | None,
             whole: bool = True) -> str:
    df = df.reset_index(drop=True)
    keys, note = _config_keys(df)
    partial = " <span class=warn>(partial: the run did not finish)</span>" \
        if meta.get("complete") is False else ""
    head = _objective_headline(df, keys, meta, whole, synthetic=bool(note))
    parts = [f'<section id="{html.escape(anchor)}"><h2>{html.escape(name)}{partial}</h2>',
             _headline_html(df, keys, head) if head else _headline(df, keys),
             _provenance(df, meta, path, keys)]
    try:
        figs, caption = _figures(df, keys, first=head.get("metric") if head else None)
    except Exception as e:  # noqa: BLE001 - a shape the plots cannot draw: say so, keep the table
        figs, caption = [], f"No plots for this table ({type(e).__name__}: {e})."
    if figs:
        caption = " ".join(x for x in (_bars_caption(df), caption) if x)
    if note:
        parts.append(f'<p class=note>{html.escape(note)}</p>')
    if caption:
        parts.append(f'<p class=note>{html.escape(caption)}</p>')
    for alt, fig in figs:
        data = base64.b64encode(charts.to_png(fig)).decode("ascii")
        parts.append(f'<figure><img src="data:image/png;base64,{data}" alt="{html.escape(alt)}">'
                     f'</figure>')
    parts.append(_table_html(df, keys))
    parts.append("</section>")
    return "\n".join(parts)


def _objective_headline(df: pd.DataFrame, keys: list[str], meta: dict, whole: bool,
                        synthetic: bool) -> dict | None:
    """The headline of :mod:`simkit.analysis.headline` for a table of one game's grid: the one a
    sweep saved with its file (paired on its deals) when this section is the whole file, else
    computed from the table (unpaired, or exact); None when the game's objective cannot be read
    from the table (another kind of table, or runs told apart by more than a grid)."""
    from simkit.analysis.headline import headline
    if synthetic or not keys:
        return None
    saved = meta.get("headline") if whole else None
    if isinstance(saved, dict) and saved.get("lines"):
        return saved
    try:
        return headline(df, keys=keys)
    except (KeyError, ValueError, IndexError):  # a table simkit did not write: the plain headline
        return None


def _headline_html(df: pd.DataFrame, keys: list[str], head: dict) -> str:
    """The section's opening line from the game's objective: the best point by it, or the
    equilibrium of a grid over both sides' choices, each claim said resolved or not."""
    lines = [str(x) for x in head.get("lines") or []]
    if head.get("kind") != "best" or not head.get("claims"):
        first = lines[0].removeprefix("headline: ") if lines else ""
        rest = "".join(f"<br>{html.escape(x)}" for x in lines[1:])
        return f"<p class=headline>Headline: {html.escape(first)}{rest}</p>"
    c = head["claims"][0]
    m, sign = str(head["metric"]), float(head.get("sign") or 1.0)
    larger = bool(head.get("larger", True))
    sub = df[df["metric"] == m]
    at = sub[[", ".join(f"{k}={r[k]}" for k in keys) == c["leader"] for _, r in sub.iterrows()]]
    est = ""
    if len(at):
        r = at.iloc[0]
        lo, hi = r.get("ci_low"), r.get("ci_high")
        if sign < 0:
            lo, hi = (None if hi is None else -hi), (None if lo is None else -lo)
        e = fmt_estimate(sign * float(r["mean"]), lo, hi,
                         exact=bool(methods(at).iloc[0] == "exact"))
        est = e["mean"] + (f" ± {e['pm']} (95% CI {e['ci']})" if e["pm"] else " (exact)")
    label = m if sign > 0 else f"-{m}"
    what = f" {html.escape(label)} is {html.escape(str(head['what']))}." if head.get("what") else ""
    n = len(df.drop_duplicates(keys))
    gap = c.get("margin")
    se = "" if c.get("by") == "exact" else f" (se {_g(c.get('se'))}" + (
        ", unpaired" if c.get("by") == "unpaired" else "") + ")"
    if c.get("resolved"):
        text = (f"<b>{html.escape(label)}</b> is {'highest' if larger else 'lowest'} at "
                f"<b>{html.escape(c['leader'])}</b>: {html.escape(est)}; "
                + ("" if c.get("by") == "exact" else
                   f"resolved at {c['confidence']:.0%} confidence: ")
                + f"ahead of {html.escape(str(c['runner_up']))} by {_g(gap)}{se}.{what}")
    else:
        text = (f"<b>{html.escape(label)}</b>: not resolved at {c['confidence']:.0%} confidence: "
                f"<b>{html.escape(c['leader'])}</b> ({html.escape(est)}) leads "
                f"{html.escape(str(c['runner_up']))} by {_g(gap)}{se}; cannot be told apart: "
                f"{html.escape(', '.join(c['tied']))}.{what}")
    return f"<p class=headline>Headline: {text} Over {n:,} configurations.</p>"


def _g(v) -> str:
    from simkit.analysis.verdict import num
    try:
        return num(float(v))
    except (TypeError, ValueError):
        return "nan"


def _headline(df: pd.DataFrame, keys: list[str]) -> str:
    """The section's opening line when the game's objective is not to be had: the main metric's
    best configuration with its 95% interval, said resolved only when its difference from every
    other configuration (unpaired, or exact) excludes 0; or the main metric's estimate (one
    configuration)."""
    ranked = main_metrics(df, keys)
    if not ranked:
        return ""
    m = ranked[0]
    sub = df[df["metric"] == m].reset_index(drop=True)
    sub = sub[np.isfinite(sub["mean"].to_numpy(float))]
    if sub.empty:
        return ""
    exact = methods(sub) == "exact"

    def est(i):
        r = sub.loc[i]
        e = fmt_estimate(r["mean"], r.get("ci_low"), r.get("ci_high"), exact=bool(exact.loc[i]))
        return e["mean"] + (f" ± {e['pm']} (95% CI {e['ci']})" if e["pm"] else " (exact)")

    def where(i):
        return ", ".join(f"{k}={sub.loc[i, k]}" for k in keys)
    order = sub["mean"].astype(float).sort_values(ascending=False, kind="stable").index
    best = order[0]
    if not keys or len(sub) == 1:
        text = f"<b>{html.escape(m)}</b> = {html.escape(est(best))}"
    else:
        from simkit.analysis.headline import best_point
        ex = exact.to_numpy(bool)
        se = sub["se"].to_numpy(float) if "se" in sub.columns else np.full(len(sub), np.nan)
        c = best_point([where(i) for i in sub.index], sub["mean"].to_numpy(float),
                       np.where(ex, 0.0, se), larger=True, claim=m, exact=ex)
        worst = order[-1]
        if c["resolved"]:
            text = (f"<b>{html.escape(m)}</b> is highest at <b>{html.escape(where(best))}</b>: "
                    f"{html.escape(est(best))}; ahead of {html.escape(c['runner_up'])} by "
                    f"{_g(c['margin'])}" + ("" if c["by"] == "exact" else
                                            f" (se {_g(c['se'])}, {c['by']}), resolved at 95% "
                                            f"confidence") + "; lowest "
                    f"{html.escape(where(worst))}: {html.escape(est(worst))}.")
        else:
            text = (f"<b>{html.escape(m)}</b>: not resolved at 95% confidence: "
                    f"<b>{html.escape(where(best))}</b> ({html.escape(est(best))}) leads "
                    f"{html.escape(c['runner_up'])} by {_g(c['margin'])} (se {_g(c['se'])}, "
                    f"{c['by']}); cannot be told apart: {html.escape(', '.join(c['tied']))}.")
        text += f" Over {len(sub):,} configurations."
    return f"<p class=headline>Headline: {text}</p>"


def _bars_caption(df: pd.DataFrame) -> str:
    """What the plots' bars are, and whether they hide under the markers at this n."""
    if (methods(df) == "exact").all():
        return "Exact values: no error bars."
    narrow = []
    for m in metric_names(df):
        mean, el, eh = intervals(df[df["metric"] == m])
        span = float(np.nanmax(mean) - np.nanmin(mean)) if np.isfinite(mean).any() else 0.0
        if (el + eh).any() and span > 0 and float(np.max(el + eh)) < 0.015 * span:
            narrow.append(m)
    text = "Error bars and ± values are 95% confidence intervals."
    if narrow:
        n = pd.to_numeric(df["n"], errors="coerce").max() if "n" in df.columns else float("nan")
        at = f" at n = {int(n):,}" if np.isfinite(n) else ""
        text += (f" Most are narrower than the markers{at} (for {', '.join(narrow[:6])}"
                 + (" and more" if len(narrow) > 6 else "") + "); the table has every interval.")
    return text


def _config_keys(df: pd.DataFrame) -> tuple[list[str], str]:
    """The columns that tell configurations apart: the varying grid columns, or (for tables
    without a grid that hold several runs) a ``configuration`` column made from the others."""
    keys = varying(df, grid_columns(df))
    if not df.duplicated(keys + ["metric"]).any():
        return keys, ""
    cfg = df[[c for c in ("rules", "strategies", "seed", "n", "game_version", "created")
              if c in df.columns]].astype(str).assign(method=methods(df))
    pool = [c for c in ("rules", "strategies", "method", "seed", "n", "game_version", "created")
            if c in cfg.columns and cfg[c].nunique() > 1]
    cand = []
    for c in pool:  # the fewest columns, in this order, that tell the runs apart
        cand.append(c)
        if not pd.concat([df[keys + ["metric"]], cfg[cand]], axis=1).duplicated().any():
            break
    name = "configuration"
    while name in df.columns:
        name = "_" + name
    if cand:
        df[name] = cfg[cand].apply(lambda r: " · ".join(
            v if c in ("rules", "strategies") else f"{c}={v}" for c, v in r.items()), axis=1)
    else:
        df[name] = "run"
    same = " with the same grid values" if keys else ""
    keys = keys + [name]
    if df.duplicated(keys + ["metric"]).any():
        df[name] = df[name] + " #" + (df.groupby(keys + ["metric"], sort=False).cumcount() + 1).astype(str)
    return keys, (f"The table holds several runs{same}; they are told apart by "
                  f"{', '.join(cand) if cand else 'their order'} (column {name!r}).")


# --- provenance ----------------------------------------------------------------------------

def _listing(values, limit: int = MAX_LISTED) -> str:
    vals = [str(v) for v in values]
    shown = ", ".join(f"<code>{html.escape(v)}</code>" for v in vals[:limit])
    return shown + (f" and {len(vals) - limit} more" if len(vals) > limit else "")


def _uniq(df: pd.DataFrame, col: str) -> list:
    if col not in df.columns:
        return []
    return list(dict.fromkeys(v for v in df[col].tolist() if not (isinstance(v, float) and math.isnan(v))))


def _provenance(df: pd.DataFrame, meta: dict, path: str | None, keys: list[str]) -> str:
    rows = []

    def add(label, value_html):
        if value_html:
            rows.append(f"<tr><th>{html.escape(label)}</th><td>{value_html}</td></tr>")

    if path:
        add("file", f"<code>{html.escape(os.path.basename(os.fspath(path)))}</code>")
    add("game", _listing(_uniq(df, "game")))
    add("game version", _listing(_uniq(df, "game_version")))
    meth = list(dict.fromkeys(methods(df)))
    add("method", html.escape(", ".join(meth)))
    request = meta.get("request") if isinstance(meta.get("request"), dict) else {}
    if request.get("game"):
        add("request", f"<code>{html.escape(str(request['game']))}</code>")
    rules = _uniq(df, "rules")
    add("rules" if len(rules) == 1 else f"rules ({len(rules)})", _listing(rules))
    strats = _uniq(df, "strategies")
    add("strategies" if len(strats) == 1 else f"strategies ({len(strats)})", _listing(strats))
    grid = grid_columns(df)
    if grid:
        add("grid", "; ".join(f"<code>{html.escape(c)}</code>: {html.escape(_values_text(df[c]))}"
                              for c in grid if not c.startswith("_")))
    sim = df[methods(df) != "exact"]  # seeds and deal counts mean nothing for exact rows
    add("seed" if len(_uniq(sim, "seed")) <= 1 else "seeds", html.escape(", ".join(map(str, _uniq(sim, "seed")))))
    if "n" in sim.columns:
        ns = pd.to_numeric(sim["n"], errors="coerce").dropna()
        if len(ns):
            lo, hi = int(ns.min()), int(ns.max())
            add("n (deals per configuration)",
                f"{lo:,}" if lo == hi else f"{lo:,} .. {hi:,}")
    if request.get("precision"):
        add("precision target", html.escape(f"±{request['precision']}"))
    n_cfg = len(df.drop_duplicates(keys)) if keys else 1
    add("configurations", f"{n_cfg:,}")
    add("metrics", html.escape(", ".join(metric_names(df))))
    add("simkit version", html.escape(", ".join(map(str, _uniq(df, "simkit_version")))))
    add("created", html.escape(", ".join(map(str, _uniq(df, "created")[:3]))))
    warn = ""
    if meta.get("complete") is False:
        warn = ('<p class=warn>This file is partial (<code>complete: false</code>): the run was '
                'interrupted, killed or lost its cluster before its last chunk, and the numbers '
                'cover the chunks that finished (continue it with <code>--resume</code>).</p>')
    return warn + "<table class=prov>" + "".join(rows) + "</table>"


def _values_text(s: pd.Series) -> str:
    vals = list(dict.fromkeys(s.dropna().tolist()))
    try:
        vals = sorted(vals)
    except TypeError:
        pass
    if len(vals) > 3 and all(isinstance(v, (int, np.integer)) for v in vals) and \
            vals == list(range(vals[0], vals[-1] + 1)):
        return f"{vals[0]}..{vals[-1]}"
    text = ", ".join(map(str, vals[:20]))
    return text + (f" and {len(vals) - 20} more" if len(vals) > 20 else "")


# --- plots ---------------------------------------------------------------------------------

def _numeric(s: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(s) and not pd.api.types.is_bool_dtype(s)


def _distinct(df: pd.DataFrame, keys: list[str], ranked: list[str]):
    """``(metrics worth drawing, notes)``: ``ranked`` without the metrics that are constant over
    the grid and those that mirror one already kept (``b = ±a + c`` in every configuration, such
    as ``bank_result = -p1_result`` or ``p1_loss = 1 - p1_win``)."""
    wide = df.pivot_table(index=keys, columns="metric", values="mean", sort=False, dropna=False) \
        if keys else None
    kept, const, mirrors = [], [], []
    for m in ranked:
        if constant(df, m):
            const.append(m)
            continue
        mirror = None
        if wide is not None and m in wide.columns:
            v = wide[m].to_numpy(float)
            for k in kept:
                w = wide[k].to_numpy(float)
                ok = np.isfinite(v) & np.isfinite(w)
                if ok.sum() < 2:
                    continue
                for sign in (1.0, -1.0):
                    d = v[ok] - sign * w[ok]
                    if np.allclose(d, d[0], rtol=0, atol=1e-9 * max(1.0, float(np.abs(v[ok]).max()))):
                        mirror = (k, sign)
                        break
                if mirror:
                    break
        if mirror:
            mirrors.append(f"{m} ({'mirrors' if mirror[1] < 0 else 'moves with'} {mirror[0]})")
        else:
            kept.append(m)
    notes = []
    if mirrors:
        notes.append("Not drawn, as they follow a drawn metric exactly: " + ", ".join(mirrors) + ".")
    if const:
        notes.append("Not drawn, as they are the same in every configuration: " + ", ".join(const) + ".")
    return kept, notes


def _figures(df: pd.DataFrame, keys: list[str], first: str | None = None):
    """``([(alt text, Figure)], caption)`` for the table's shape; the metric ``first`` (the
    game's objective) leads the panels and heatmaps."""
    ranked = main_metrics(df, keys)
    if first in ranked:
        ranked = [first] + [m for m in ranked if m != first]
    if not keys:
        return _bar_figures(df, None), ""
    if len(keys) == 1:
        (k,) = keys
        if not _numeric(df[k]):
            return _bar_figures(df, k), ""
        useful, notes = _distinct(df, keys, ranked)
        chosen = useful[:MAX_LINE_PANELS]
        figs = [(f"{len(chosen)} metrics by {k}", _panels(df, chosen, k, None))] if chosen else []
        return figs, _subset_note(chosen, useful, notes, first)
    # two or more grid columns: numbers first, rules options before strategy parameters
    # (``p1.t``), then in grid order, so an exact grid and a sweep over the same columns put
    # the same one on the x axis
    order = sorted(keys, key=lambda c: (not _numeric(df[c]), "." in c, keys.index(c)))
    x, y, rest = order[0], order[1], order[2:]
    useful, notes = _distinct(df, keys, ranked)
    heat = useful[:MAX_HEATMAPS]
    figs = []
    if not rest:
        for m in heat:
            figs.append((f"heatmap of {m}", charts.heatmap(df, m, x, y)))
        lines = useful[:6]
        if lines:
            figs.append((f"{len(lines)} metrics by {x} and {y}", _panels(df, lines, x, y)))
        return figs, _subset_note(list(dict.fromkeys(heat + lines)), useful, notes, first)
    slices = df[rest].drop_duplicates().head(MAX_SLICES)
    for m in heat[:2]:
        for _, vals in slices.iterrows():
            mask = np.logical_and.reduce([df[c] == vals[c] for c in rest])
            label = ", ".join(f"{c}={vals[c]}" for c in rest)
            fig = charts.heatmap(df[mask], m, x, y)
            ctx = context(df[mask], [x, y])
            fig.axes[0].set_title(f"{m} by {x} and {y} at {label}" + (f"\n{ctx}" if ctx else ""),
                                  fontsize=11)
            figs.append((f"heatmap of {m} at {label}", fig))
    n_slices = len(df[rest].drop_duplicates())
    cap = (f"The grid has {len(keys)} columns: heatmaps over {x} and {y} for "
           f"{min(n_slices, MAX_SLICES)} of {n_slices} values of {', '.join(rest)}; "
           f"the table below has every configuration.")
    return figs, cap


def _subset_note(shown: list[str], useful: list[str], notes=(), first: str | None = None) -> str:
    out = list(notes)
    if len(shown) < len(useful):
        lead = f"the game's objective {first}, then " if first in shown else ""
        out.insert(0, f"Plots show {len(shown)} of {len(useful)} varying metrics, in this order: "
                      f"{lead}expected values, then other means, then proportions, each group by "
                      f"how much it varies across the grid relative to its intervals.")
    if out:
        out.append("The table below has every metric.")
    return " ".join(out)


def _panels(df, metrics, x, hue):
    cols = 1 if len(metrics) == 1 else 2 if len(metrics) <= 4 else 3
    rows = math.ceil(len(metrics) / cols)
    fig = charts.new_figure(5.0 * cols + (1.0 if hue else 0.0), 3.5 * rows + 0.6)
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    for i, (m, ax) in enumerate(zip(metrics, axes)):
        charts.metric_lines(df, m, x, hue=hue, ax=ax)
        ax.set_title(m, fontsize=10)
        if hue and i > 0 and ax.get_legend():
            ax.get_legend().remove()
    for ax in axes[len(metrics):]:
        ax.set_visible(False)
    ctx = context(df, [x] + ([hue] if hue else []))
    fig.suptitle(f"by {x}" + (f" and {hue}" if hue else "") + (f" · {ctx}" if ctx else ""), fontsize=12)
    return fig


def _groups(df: pd.DataFrame, metrics: list[str]) -> list[tuple[str, list[str]]]:
    """Proportion metrics grouped by the word before their first ``_`` (``banker_*``,
    ``p1_*``) when there are many; lone ones go together."""
    if len(metrics) <= 10:
        return [("proportions", metrics)] if metrics else []
    by: dict[str, list[str]] = {}
    for m in metrics:
        by.setdefault(m.split("_", 1)[0] if "_" in m else m, []).append(m)
    groups, lone = [], []
    for prefix, ms in by.items():
        (groups.append((f"{prefix}_*", ms)) if len(ms) > 1 else lone.extend(ms))
    if lone:
        groups.append(("other proportions", lone))
    return groups


def _bar_figures(df: pd.DataFrame, by: str | None):
    names = metric_names(df)
    binary = [m for m in names if is_binary(df, m)]
    other = [m for m in names if m not in binary]
    figs = []
    for label, ms in _groups(df, binary) + ([("expected values and other means", other)] if other else []):
        fig = charts.distribution(df, ms) if by is None else charts.compare_distributions(df, ms, by=by)
        ax = fig.axes[0]
        ax.set_title(f"{label}\n{context(df, [by] if by else [])}", fontsize=11)
        figs.append((label, fig))
    return figs


# --- per-deal or per-session rows ----------------------------------------------------------

#: At most this many columns of a rows file get a histogram.
MAX_HISTOGRAMS = 6


def _rows_layout(df: pd.DataFrame) -> tuple[list[str], list[str]]:
    """A rows table's grid columns and metric columns."""
    cols = list(df.columns)
    grid = cols[cols.index("config") + 1:cols.index("deal")] if cols.index("config") < cols.index("deal") else []
    return grid, [c for c in cols if c not in ("config", "deal", *grid) and _numeric(df[c])]


def row_figures(df: pd.DataFrame, meta: dict):
    """``([(alt text, histogram)], where)``: the rows of the first configuration, one histogram
    per varying column (counts and amounts first, 0/1 indicators after), at most
    :data:`MAX_HISTOGRAMS`; ``where`` names that configuration when there are several."""
    grid, metrics = _rows_layout(df)
    game = meta.get("rows_of")
    configs = list(dict.fromkeys(df["config"].tolist()))
    first = df[df["config"] == configs[0]]
    varied = [c for c in metrics if first[c].nunique() > 1]
    varied.sort(key=lambda c: set(first[c].dropna().unique()) <= {0, 1})
    where = "" if len(configs) == 1 else " of configuration " + str(configs[0]) + (
        " (" + ", ".join(f"{c}={first[c].iloc[0]}" for c in grid) + ")" if grid else "")
    return [(f"histogram of {c}",
             charts.histogram(first[c], label=c, title=f"{c}: {len(first):,} rows{where}"
                              + (f" · {game}" if game else "")))
            for c in varied[:MAX_HISTOGRAMS]], where


def _rows_section(anchor: str, name: str, df: pd.DataFrame, meta: dict, path: str | None) -> str:
    grid, metrics = _rows_layout(df)
    game = meta.get("rows_of")
    configs = list(dict.fromkeys(df["config"].tolist()))
    rows = []
    if path:
        rows.append(("file", f"<code>{html.escape(os.path.basename(os.fspath(path)))}</code>"))
    if game:
        rows.append(("game", f"<code>{html.escape(str(game))}</code>"))
    rows.append(("rows", f"{len(df):,} (one per deal or session)"))
    rows.append(("configurations", f"{len(configs):,}"))
    if grid:
        rows.append(("grid", "; ".join(f"<code>{html.escape(c)}</code>: {html.escape(_values_text(df[c]))}"
                                       for c in grid)))
    rows.append(("columns", html.escape(", ".join(metrics))))
    parts = [f'<section id="{html.escape(anchor)}"><h2>{html.escape(name)}</h2>',
             "<table class=prov>" + "".join(f"<tr><th>{html.escape(k)}</th><td>{v}</td></tr>"
                                            for k, v in rows) + "</table>"]
    figs, where = row_figures(df, meta)
    if len(configs) > 1:
        parts.append(f"<p class=note>Histograms show the rows{html.escape(where)}; the summary "
                     f"table covers every configuration.</p>")
    for alt, fig in figs:
        data = base64.b64encode(charts.to_png(fig)).decode("ascii")
        parts.append(f'<figure><img src="data:image/png;base64,{data}" alt="{html.escape(alt)}">'
                     f'</figure>')
    head = "".join(f"<th>{html.escape(c)}</th>" for c in ["config", *grid]) + \
        "<th>column</th><th class=num>mean</th><th class=num>± (95%)</th><th class=num>sd</th>" \
        "<th class=num>min</th><th class=num>max</th><th class=num>rows</th>"
    body = []
    for cfg in configs:
        sub = df[df["config"] == cfg]
        lead = "".join(f"<td>{html.escape(str(v))}</td>" for v in [cfg, *[sub[c].iloc[0] for c in grid]])
        for k, c in enumerate(metrics):
            v = sub[c].to_numpy(float)
            v = v[np.isfinite(v)]
            if not v.size:
                continue
            sd = float(v.std(ddof=1)) if v.size > 1 else 0.0
            hw = 1.959963984540054 * sd / math.sqrt(v.size)
            est = fmt_estimate(float(v.mean()), v.mean() - hw, v.mean() + hw, exact=hw == 0)
            cls = " class=first" if k == 0 and body else ""
            body.append(f"<tr{cls}>{lead}<td>{html.escape(c)}</td><td class=num>{est['mean']}</td>"
                        f"<td class=num>{'±' + est['pm'] if est['pm'] else ''}</td>"
                        f"<td class=num>{sd:.4g}</td><td class=num>{v.min():.6g}</td>"
                        f"<td class=num>{v.max():.6g}</td><td class=num>{v.size:,}</td></tr>")
    parts.append(f"<details open><summary>Summary of the rows</summary><table class=data><thead><tr>"
                 f"{head}</tr></thead><tbody>{''.join(body)}</tbody></table></details></section>")
    return "\n".join(parts)


# --- the table -----------------------------------------------------------------------------

def _table_html(df: pd.DataFrame, keys: list[str]) -> str:
    show = list(keys)
    if show:  # one block of rows per configuration, configurations in order of appearance
        order = pd.DataFrame({c: pd.factorize(df[c].astype(str))[0] for c in show}, index=df.index)
        df = df.loc[order.sort_values(show, kind="stable").index]
    meth = methods(df)
    mixed = meth.nunique() > 1
    head = "".join(f"<th>{html.escape(c)}</th>" for c in show)
    head += "<th>metric</th><th class=num>mean</th><th class=num>± (95%)</th>" \
            "<th class=num>95% interval</th><th class=num>se</th><th class=num>n</th>"
    head += "<th>method</th>" if mixed else ""
    lines = []
    se = df["se"] if "se" in df.columns else pd.Series(np.nan, index=df.index)
    lo = df["ci_low"] if "ci_low" in df.columns else pd.Series(np.nan, index=df.index)
    hi = df["ci_high"] if "ci_high" in df.columns else pd.Series(np.nan, index=df.index)
    n = df["n"] if "n" in df.columns else pd.Series(np.nan, index=df.index)
    prev = None
    for i in range(len(df)):
        row = df.iloc[i]
        cfg = tuple(row[c] for c in show)
        cls = ' class=first' if prev is not None and cfg != prev else ""
        prev = cfg
        exact = meth.iloc[i] == "exact"
        est = fmt_estimate(row["mean"], lo.iloc[i], hi.iloc[i], exact=exact)
        cells = "".join(f"<td>{html.escape(str(row[c]))}</td>" for c in show)
        sev = se.iloc[i]
        se_txt = "" if exact or not _finite(sev) else f"{float(sev):.3g}"
        nv = n.iloc[i]
        n_txt = f"{int(nv):,}" if _finite(nv) and not (exact and float(nv) == 0) else ""
        cells += (f"<td>{html.escape(str(row['metric']))}</td>"
                  f"<td class=num title=\"{float(row['mean'])!r}\">{est['mean']}</td>"
                  f"<td class=num>{'±' + est['pm'] if est['pm'] else ('exact' if exact else '')}</td>"
                  f"<td class=num>{est['ci']}</td><td class=num>{se_txt}</td><td class=num>{n_txt}</td>")
        cells += f"<td>{html.escape(meth.iloc[i])}</td>" if mixed else ""
        lines.append(f"<tr{cls}>{cells}</tr>")
    open_ = " open" if len(df) <= 200 else ""
    return (f"<details{open_}><summary>Full table ({len(df):,} rows)</summary>"
            f"<table class=data><thead><tr>{head}</tr></thead><tbody>{''.join(lines)}</tbody>"
            f"</table></details>")


def _finite(v) -> bool:
    try:
        return math.isfinite(float(v))
    except (TypeError, ValueError):
        return False


_CSS = """
body{font-family:-apple-system,"Segoe UI",Roboto,"DejaVu Sans",Arial,sans-serif;margin:2em auto;
max-width:1200px;padding:0 1em;color:#222;line-height:1.4}
h1{margin-bottom:.2em}h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:2em}
.meta{color:#666}.note{color:#555;font-style:italic}.headline{font-size:1.1em}.warn{background:#fff3cd;padding:.5em;border:1px solid #e0c060}
table{border-collapse:collapse;font-size:.9em;margin:.6em 0}
table.data,table.prov{display:block;max-width:100%;overflow-x:auto}
.prov th{text-align:left;padding:.15em 1em .15em 0;color:#555;vertical-align:top;white-space:nowrap}
.prov td{padding:.15em 0}
.data th,.data td{padding:.2em .6em;border-bottom:1px solid #eee}
.data thead th{border-bottom:2px solid #bbb;text-align:left;position:sticky;top:0;background:#fff}
.data tr.first td{border-top:1px solid #aaa}
.num{text-align:right;font-variant-numeric:tabular-nums;font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace}
figure{margin:1em 0}img{max-width:100%;height:auto;border:1px solid #eee}
code{background:#f5f5f5;padding:0 .2em}summary{cursor:pointer;font-weight:bold;margin:.8em 0}
"""

_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><style>{css}</style></head>
<body>
<header><h1>{title}</h1>
<p class=meta>created {created} · simkit {version} · {count} results table{plural}</p>{toc}</header>
{body}
</body></html>
"""
