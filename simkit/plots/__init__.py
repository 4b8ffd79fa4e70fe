"""Plots of tidy simkit results, shared by notebooks and ``simkit report``.

Every function takes a tidy results table (``Result.table()``, ``store.read_table(path)[0]``, or
any DataFrame with the tidy columns) and returns a matplotlib ``Figure`` drawn on an Agg canvas:
nothing opens a window and nothing goes through pyplot's global state (in Jupyter, the returned
figure displays as a PNG).  Pass ``ax=`` to draw into an existing axes instead.

* :func:`metric_lines` -- a metric against one grid column, a line per value of another.
* :func:`heatmap` -- a metric over two grid columns, annotated with the 95% half-width.
* :func:`distribution` / :func:`compare_distributions` -- bars of several metrics (e.g. the
  banker's totals) for one configuration / per value of a column.
* :func:`histogram` -- per-deal or per-session values.

Unknown metrics or columns raise :class:`simkit.errors.SimkitError` with one clear message.
"""
from simkit.plots._tidy import (fmt_estimate, grid_columns, is_binary, main_metrics,  # noqa: F401
                                STANDARD_COLUMNS)
from simkit.plots.charts import (compare_distributions, distribution, heatmap, histogram,  # noqa: F401
                                 metric_lines, new_figure, to_png)

__all__ = ["metric_lines", "heatmap", "distribution", "compare_distributions", "histogram",
           "new_figure", "to_png", "grid_columns", "is_binary", "main_metrics", "fmt_estimate"]
