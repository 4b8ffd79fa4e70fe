"""The report's section for a strategy analysis (a results file whose meta has ``"analysis"``, or
an ``Analysis`` given to :func:`simkit.report.build`): the headline, the figures of
:mod:`simkit.plots.analysis`, the main table and the secondary frames."""
from __future__ import annotations

import base64
import html
import math
import os

import numpy as np
import pandas as pd

from simkit.plots import analysis as aplots
from simkit.plots.charts import to_png

#: Tables longer than this start folded.
OPEN_ROWS = 200

_NAMES = {"compare": "head-to-head comparison", "tournament": "tournament", "best": "best response",
          "solve": "payoff matrix", "odds": "match odds"}
_FRAME_NAMES = {"history": "Sequential looks", "cross": "Cross table", "replies": "Best replies"}


def _img(alt: str, fig) -> str:
    data = base64.b64encode(to_png(fig)).decode("ascii")
    return f'<figure><img src="data:image/png;base64,{data}" alt="{html.escape(alt)}"></figure>'


def analysis_of(table: pd.DataFrame | None, meta: dict):
    """The ``Analysis`` saved in ``meta["analysis"]``; its main table is ``table`` (as read from
    the file) when given, else the one kept in the meta."""
    from simkit.analysis.common import Analysis, frames_from_json
    obj = meta["analysis"]
    frames = frames_from_json(obj)
    if table is not None:
        frames["table"] = table.reset_index(drop=True)
    return Analysis(kind=str(obj.get("analysis")), game=str(obj.get("game", "")),
                    label=str(obj.get("label", "")), frames=frames,
                    summary=[str(s) for s in obj.get("summary") or []],
                    info=dict(obj.get("info") or {}),
                    complete=bool(obj.get("complete", meta.get("complete", True))),
                    claims=[dict(c) for c in obj.get("claims") or []])


def section(anchor: str, name: str, table: pd.DataFrame, meta: dict, path: str | None) -> str:
    """HTML for one saved analysis: headline, provenance, figures, main table, other frames."""
    an = analysis_of(table, meta)
    kind = _NAMES.get(an.kind, an.kind)
    partial = "" if an.complete else " (partial)"
    parts = [f'<section id="{html.escape(anchor)}" class=analysis>'
             f'<h2>{html.escape(name)}: {html.escape(kind)}{partial}</h2>']
    if not an.complete:
        parts.append("<p class=warn>Partial analysis: it was interrupted, so its numbers cover only "
                     "the chunks every configuration involved had finished.</p>")
    if an.summary:
        lines = "\n".join(html.escape(s, quote=False) for s in an.summary)
        parts.append(f'<pre class=headline style="background:#f6f8fa;padding:.6em;'
                     f'white-space:pre-wrap;font-size:.95em">{lines}</pre>')
    parts.append(_provenance(an, meta, path))
    for fn in aplots.FIGURES.get(an.kind, ()):
        try:
            fig = fn(an)
        except Exception as e:  # noqa: BLE001 - a figure that cannot be drawn: say so, keep the rest
            parts.append(f"<p class=note>No {html.escape(fn.__name__)} plot "
                         f"({html.escape(type(e).__name__)}: {html.escape(str(e))}).</p>")
            continue
        parts.append(_img(f"{fn.__name__.replace('_', ' ')}: {an.label}", fig))
    parts.append(_frame_html(f"Main table ({kind})", an.table()))
    for key, df in an.frames.items():
        if key != "table" and df is not None and len(df):
            parts.append(_frame_html(_FRAME_NAMES.get(key, key), df))
    parts.append("</section>")
    return "\n".join(parts)


def _provenance(an, meta: dict, path: str | None) -> str:
    rows = [("label", f"<code>{html.escape(an.label)}</code>"),
            ("analysis", html.escape(an.kind + (f" ({_NAMES[an.kind]})" if _NAMES.get(an.kind, an.kind)
                                                != an.kind else ""))),
            ("game", f"<code>{html.escape(an.game)}</code>")]
    if path:
        rows.insert(0, ("file", f"<code>{html.escape(os.path.basename(os.fspath(path)))}</code>"))
    for k, v in an.info.items():
        rows.append((k, html.escape(_value(v))))
    if meta.get("simkit_version"):
        rows.append(("simkit version", html.escape(str(meta["simkit_version"]))))
    rows.append(("complete", "yes" if an.complete else "<b>no</b> (interrupted)"))
    return "<table class=prov>" + "".join(f"<tr><th>{html.escape(k)}</th><td>{v}</td></tr>"
                                          for k, v in rows) + "</table>"


def _value(v) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{k}={_value(x)}" for k, x in v.items())
    if isinstance(v, (list, tuple)):
        text = ", ".join(_value(x) for x in v[:30])
        return f"[{text}{', ...' if len(v) > 30 else ''}]"
    return _cell(v)


def _cell(v) -> str:
    if v is None:
        return ""
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, (int, np.integer)):
        return f"{int(v):,}" if abs(int(v)) >= 10_000 else str(int(v))
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if not math.isfinite(f):
            return ""
        if f.is_integer() and abs(f) < 1e15:
            return f"{int(f):,}" if abs(f) >= 10_000 else str(int(f))
        return f"{f:.6g}"
    return str(v)


def _frame_html(title: str, df: pd.DataFrame) -> str:
    df = df.reset_index(drop=True)
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
    numeric = [pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c])
               for c in df.columns]
    body = []
    for row in df.itertuples(index=False):
        cells = "".join(f"<td class=num>{html.escape(_cell(v))}</td>" if num else
                        f"<td>{html.escape(_cell(v))}</td>" for v, num in zip(row, numeric))
        body.append(f"<tr>{cells}</tr>")
    open_ = " open" if len(df) <= OPEN_ROWS else ""
    return (f"<details{open_}><summary>{html.escape(title)} ({len(df):,} rows)</summary>"
            f"<div style=\"overflow-x:auto\"><table class=data><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table></div></details>")
