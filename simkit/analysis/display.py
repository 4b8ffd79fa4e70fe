"""How results show themselves: in Jupyter as rich tables (``_repr_html_``), at a Python prompt as
a short text table (``__repr__``), for a run's :class:`~simkit.analysis.simulate.Result` and an
:class:`~simkit.analysis.common.Analysis` alike (issue 29).

The header says what was played (the rules string, the strategies, n, the seed, whether the run
finished); a one-configuration run shows each metric's mean, standard error and 95% interval, a
sweep one row per grid point with the means, an analysis its headline lines and its main table.
Long tables are cut to :data:`MAX_ROWS` rows with a line saying how many were left out.
"""
from __future__ import annotations

import html

import pandas as pd

#: rows shown before a table is cut (the whole table is ``.table()``)
MAX_ROWS = 60

_STATS = ["mean", "se", "ci_low", "ci_high"]
#: columns the header already tells (the label carries the game, n and seed): left out of the
#: shown table when every row has the same value
_PROVENANCE = {"game", "rules", "n", "seed", "configs", "mode", "game_version", "simkit_version",
               "created", "field"}


def _fmt(x) -> str:
    return f"{x:.4g}" if isinstance(x, float) else str(x)


def _cut(df: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    return df.head(MAX_ROWS), max(0, len(df) - MAX_ROWS)


def result_view(res) -> tuple[list[str], pd.DataFrame]:
    """The header lines and the table a :class:`Result` shows."""
    t = res.table()
    n = [res.deals(i) for i in range(len(res.configs))]
    state = "finished" if res.complete else "NOT finished (resume it with resume=True)"
    if len(res.configs) == 1:
        head = [t["rules"].iloc[0] if len(t) else res.spec.name,
                f"strategies: {res.strategies_string(0)}",
                f"n = {n[0]:,} deals · seed {res.seed} · {state}"]
        return head, t[["metric"] + _STATS + ["unit"]].reset_index(drop=True)
    grid = sorted({k for p in res.points for k in p}, key=str)
    head = [f"{res.spec.name}: a sweep of {len(res.configs)} configurations over "
            f"{', '.join(map(str, grid)) or 'strategies'}",
            f"n = {min(n):,}..{max(n):,} deals each · seed {res.seed} · {state} · means; "
            f"standard errors in .table()"]
    wide = t.pivot_table(index=grid or ["strategies"], columns="metric", values="mean",
                         sort=False).reset_index() if len(t) else t
    wide.columns.name = None
    return head, wide


def analysis_view(an) -> tuple[list[str], pd.DataFrame]:
    """The header lines and the table an :class:`Analysis` shows."""
    state = "" if an.complete else " · NOT finished"
    head = [f"{an.kind}: {an.label}{state}"] + [str(s) for s in an.summary]
    t = an.table()
    same = [c for c in t.columns if c in _PROVENANCE and t[c].nunique(dropna=False) <= 1]
    return head, t.drop(columns=same)


def text(view: tuple[list[str], pd.DataFrame]) -> str:
    head, df = view
    shown, left = _cut(df)
    body = shown.to_string(index=False, float_format=_fmt) if len(shown) else "(no rows)"
    tail = [f"... {left:,} more rows in .table()"] if left else []
    return "\n".join(head + [body] + tail)


def html_of(view: tuple[list[str], pd.DataFrame]) -> str:
    head, df = view
    shown, left = _cut(df)
    lines = "".join(f"<div>{html.escape(h)}</div>" for h in head[1:])
    table = shown.to_html(index=False, float_format=_fmt, border=0, escape=True)
    tail = f"<div><i>... {left:,} more rows in .table()</i></div>" if left else ""
    return (f"<div class='simkit'><div><b>{html.escape(head[0])}</b></div>{lines}"
            f"<div style='overflow-x:auto'>{table}</div>{tail}</div>")
