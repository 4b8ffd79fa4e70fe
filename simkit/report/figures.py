"""One figure of a results file without a page: what ``simkit plot FILE -o fig.png`` writes
(issue 29).

The figures are the report's own, in the report's order (:func:`simkit.report.build` draws the same
ones): for a run or a sweep the panels or heatmaps of its metrics with the game's objective first,
for a saved analysis the figures of :mod:`simkit.plots.analysis`, for a rows file (``--rows``) the
histograms of its columns.
"""
from __future__ import annotations

import os
import tempfile

from simkit.errors import SimkitError
from simkit.report import _build as B

#: the file types ``save`` writes, by extension
FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}


def figures(item) -> list[tuple[str, object]]:
    """``[(title, Figure)]``: every figure the report draws for one results file (a path), a
    tidy table, a :class:`~simkit.analysis.simulate.Result` or an analysis."""
    (name, it), *rest = B._items(item)
    if rest:
        raise SimkitError("plot draws one results file at a time")
    df, meta, _ = B._load(name, it)
    if B._is_rows(df):
        return B.row_figures(df, meta)[0]
    if isinstance(meta.get("analysis"), dict):
        from simkit.plots import analysis as aplots
        from simkit.report.analysis import analysis_of
        an = analysis_of(df, meta)
        return [(fn.__name__.replace("_", " "), fn(an)) for fn in aplots.FIGURES.get(an.kind, ())]
    out = []
    parts = B._split(df)
    for label, part in parts:
        part = part.reset_index(drop=True)
        keys, note = B._config_keys(part)
        head = B._objective_headline(part, keys, meta, len(parts) == 1, synthetic=bool(note))
        figs, _ = B._figures(part, keys, first=head.get("metric") if head else None)
        out += [(f"{label}: {alt}" if label else alt, fig) for alt, fig in figs]
    return out


def save(item, out: str, which: int = 1) -> str:
    """Write figure number ``which`` (from 1) of ``item`` to ``out`` (.png, .svg or .pdf),
    atomically; returns its title."""
    ext = os.path.splitext(str(out))[1].lower()
    if ext not in FORMATS:
        raise SimkitError(f"cannot write a figure to {out!r}: give a file ending in "
                          f"{', '.join(FORMATS)}")
    figs = figures(item)
    if not figs:
        raise SimkitError("nothing to plot: every metric of this table is the same in every "
                          "configuration (simkit report shows its table)")
    if not 1 <= which <= len(figs):
        raise SimkitError(f"--figure {which}: this file has {len(figs)} figure"
                          f"{'' if len(figs) == 1 else 's'} (1..{len(figs)}; --list names them)")
    title, fig = figs[which - 1]
    folder = os.path.dirname(os.path.abspath(out))
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=".simkit-", suffix=ext, dir=folder)
        os.close(fd)
        fig.savefig(tmp, format=FORMATS[ext], dpi=150, facecolor="white", bbox_inches="tight")
        os.replace(tmp, out)
    except OSError as e:
        raise SimkitError(f"cannot write {out!r}: {e.strerror or e}") from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
    return title
