"""``simkit report``: one self-contained HTML page of plots and tables from results files.

``build(["stops.parquet", table], "report.html", title="Banker stops")`` writes a page with, for
each results file or table, its provenance (game, versions, rules, strategies, seeds, n, method),
the plots that fit its shape (bars for one configuration, lines for one grid column, heatmaps and
lines for two or more) and the full table with 95% intervals.  Plots are embedded as base64 PNG,
so the page needs no other file and no network; the file is written atomically.
"""
from simkit.report._build import build  # noqa: F401

__all__ = ["build"]
