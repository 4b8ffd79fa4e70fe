"""Plots of tidy results (simkit.plots) and the HTML report (simkit.report, ``simkit report``):
figures with the expected lines, bars, cells and labels; one clear SimkitError for bad input; a
self-contained page with provenance, plots and the table; exit status 2 with one line from the
CLI."""
from __future__ import annotations

import base64
import os
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import simkit
from simkit import plots
from simkit.cli import main
from simkit.core import store
from simkit.errors import SimkitError
from simkit.report import build

N = 4000
IMG = '<img src="data:image/png;base64,'
BANKER = ["banker_17", "banker_18", "banker_19", "banker_20", "banker_21", "banker_bust",
          "banker_golden"]


# --- data ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def grid2() -> pd.DataFrame:
    return simkit.sweep("ochko", grid=["banker_stop=15..17", "p1.t=14..17"], n=N, seed=7).table()


@pytest.fixture(scope="module")
def grid1() -> pd.DataFrame:
    return simkit.sweep("ochko(deck=52)", grid=["banker_stop=15..18"], n=N, seed=3).table()


@pytest.fixture(scope="module")
def single() -> pd.DataFrame:
    return simkit.run("ochko(banker_stop=16)", n=N, seed=11, strategies=["p1=stand_at(15)"]).table()


def toy(grid=("a", "b"), method="exact") -> pd.DataFrame:
    """A tidy table of a made-up game (exact values, or simulated ones with intervals)."""
    rows = []
    values = dict(a=[1, 2, 3], b=["x", "y"])
    import itertools
    for combo in itertools.product(*[values[g] for g in grid]):
        point = dict(zip(grid, combo))
        a = point.get("a", 2)
        opts = ",".join(f"{k}={v}" for k, v in point.items())
        for metric, v in [("win", 0.2 + 0.1 * a), ("draw", 0.1), ("score", 1.5 * a - 2.5)]:
            hw = 0.0 if method == "exact" else 0.01
            rows.append(dict(game="toy", rules=f"toy({opts})" if opts else "toy",
                             strategies="p1=greedy(k=2)", **point, metric=metric, mean=v,
                             se=hw / 1.96, ci_low=v - hw, ci_high=v + hw, n=0 if hw == 0 else 1000,
                             seed=0, game_version=3, simkit_version=simkit.__version__,
                             created="2024-01-01T00:00:00+00:00", method=method))
    return pd.DataFrame(rows)


def data_lines(ax):
    """The plotted lines, without reference lines such as the one at 0 or the legend's empty
    "bars: 95% CI" entry."""
    return [line for line in ax.lines if not line.get_label().startswith("_")
            and len(line.get_xdata())]


# --- plots ---------------------------------------------------------------------------------

def test_metric_lines_one_line_per_hue(grid2):
    fig = plots.metric_lines(grid2, "p1_result", "p1.t", hue="banker_stop")
    ax = fig.axes[0]
    assert len(data_lines(ax)) == 3                            # banker_stop 15, 16, 17
    assert [len(line.get_xdata()) for line in data_lines(ax)] == [4, 4, 4]
    assert len(ax.collections) == 3                            # one set of CI bars per line
    assert ax.get_xlabel() == "p1.t" and ax.get_ylabel() == "p1_result"
    assert "ochko" in ax.get_title() and "p1_result" in ax.get_title()
    assert ax.get_legend().get_title().get_text() == "banker_stop"
    assert [t.get_text() for t in ax.get_legend().get_texts()][:3] == ["15", "16", "17"]
    assert ax.get_legend().get_texts()[3].get_text().startswith("bars: 95% CI")
    w, h = fig.get_size_inches()
    assert 5 <= w <= 12 and 3 <= h <= 8


def test_metric_lines_error_bars_are_the_intervals(grid1):
    fig = plots.metric_lines(grid1, "bank_result", "banker_stop")
    ax = fig.axes[0]
    (line,) = data_lines(ax)
    sub = grid1[grid1.metric == "bank_result"].sort_values("banker_stop")
    np.testing.assert_allclose(line.get_ydata(), sub["mean"])
    segs = ax.collections[0].get_segments()
    np.testing.assert_allclose(sorted(s[0][1] for s in segs), sorted(sub["ci_low"]))
    np.testing.assert_allclose(sorted(s[1][1] for s in segs), sorted(sub["ci_high"]))
    assert "ochko(deck=52)" in ax.get_title()                 # the grid option is left out


def test_metric_lines_exact_values_have_no_bars_and_categories_work():
    fig = plots.metric_lines(toy(), "score", "b", hue="a")
    ax = fig.axes[0]
    assert len(data_lines(ax)) == 3 and not ax.collections          # exact: no error bars
    assert [t.get_text() for t in ax.get_xticklabels()] == ["x", "y"]
    assert "exact" in ax.get_title()


def test_metric_lines_into_given_axes(grid2):
    fig = plots.new_figure(8, 4)
    ax1, ax2 = fig.subplots(1, 2)
    out = plots.metric_lines(grid2, "p1_win", "banker_stop", hue="p1.t", ax=ax2)
    assert out is fig and len(data_lines(ax2)) == 4 and not ax1.lines


def test_heatmap_cells_annotations_and_colours(grid2):
    fig = plots.heatmap(grid2, "p1_result", "banker_stop", "p1.t")
    ax = fig.axes[0]
    (im,) = ax.images
    assert im.get_array().shape == (4, 3)                     # p1.t rows, banker_stop columns
    sub = grid2[grid2.metric == "p1_result"]
    cell = sub[(sub.banker_stop == 16) & (sub["p1.t"] == 17)].iloc[0]
    assert im.get_array()[3, 1] == pytest.approx(cell["mean"])
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == 12 and all("±" in t for t in texts)
    norm = im.norm
    assert norm.vmin == pytest.approx(-norm.vmax)              # diverging, centred at 0
    assert im.get_cmap().name.startswith("RdBu")
    assert ax.get_xlabel() == "banker_stop" and ax.get_ylabel() == "p1.t"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["15", "16", "17"]
    assert fig.axes[1].get_ylabel() == "p1_result\n(± in the cells: 95% CI half-width)"  # colour bar
    assert "ochko" in ax.get_title()


def test_heatmap_proportions_and_exact_values():
    fig = plots.heatmap(toy(), "win", "a", "b")
    ax = fig.axes[0]
    assert ax.images[0].get_array().shape == (2, 3)
    assert len(ax.texts) == 6 and not any("±" in t.get_text() for t in ax.texts)
    assert ax.images[0].norm.vmin >= 0                         # unsigned: not centred at 0
    assert not plots.heatmap(toy(), "win", "a", "b", annotate=False).axes[0].texts


def test_distribution_bars(single):
    fig = plots.distribution(single, BANKER)
    ax = fig.axes[0]
    assert len(ax.patches) == len(BANKER)
    assert [t.get_text() for t in ax.get_xticklabels()] == BANKER
    assert ax.get_ylabel() == "probability"
    heights = [p.get_height() for p in ax.patches]
    want = single.set_index("metric").loc[BANKER, "mean"]
    np.testing.assert_allclose(heights, want)
    assert len(ax.collections) == 1                            # the CI bars
    assert "ochko(banker_stop=16)" in ax.get_title() and "stand_at(t=15)" in ax.get_title()
    # every proportion metric when none are named
    n_binary = sum(plots.is_binary(single, m) for m in single.metric.unique())
    assert len(plots.distribution(single).axes[0].patches) == n_binary == 16


def test_compare_distributions_groups(grid1):
    fig = plots.compare_distributions(grid1, BANKER[:6], by="banker_stop")
    ax = fig.axes[0]
    assert len(ax.patches) == 6 * 4
    assert [t.get_text() for t in ax.get_legend().get_texts()] == BANKER[:6] + ["error bars: 95% CI"]
    assert [t.get_text() for t in ax.get_xticklabels()] == [f"banker_stop={v}" for v in (15, 16, 17, 18)]
    assert ax.get_xlabel() == "banker_stop"


def test_histogram():
    rng = np.random.default_rng(1)
    values = pd.Series(rng.integers(-5, 6, 500), name="bank result")
    fig = plots.histogram(values)
    ax = fig.axes[0]
    assert len(ax.patches) == 11                               # one bar per whole number
    assert sum(p.get_height() for p in ax.patches) == 500
    assert ax.get_xlabel() == "bank result" and ax.get_ylabel() == "count"
    assert ax.get_legend().get_texts()[0].get_text().startswith("mean ")
    fig = plots.histogram(pd.DataFrame({"x": rng.normal(size=300)}), column="x", bins=20, density=True)
    assert len(fig.axes[0].patches) == 20 and fig.axes[0].get_ylabel() == "share"


@pytest.mark.parametrize("call, match", [
    (lambda d: plots.metric_lines(d, "nope_result", "p1.t"), "unknown metric 'nope_result'"),
    (lambda d: plots.metric_lines(d, "p1_result", "p2.t"), "unknown x column 'p2.t'"),
    (lambda d: plots.metric_lines(d, "p1_result", "p1.t", hue="zz"), "unknown hue column 'zz'"),
    (lambda d: plots.metric_lines(d, "p1_result", "p1.t"), "one row per 'p1.t'.*'banker_stop' varies"),
    (lambda d: plots.heatmap(d, "nope", "p1.t", "banker_stop"), "unknown metric 'nope'"),
    (lambda d: plots.heatmap(d, "p1_result", "p1.t", "deck"), "unknown y column 'deck'"),
    (lambda d: plots.heatmap(d, "p1_result", "p1.t", "p1.t"), "two different columns"),
    (lambda d: plots.heatmap(d, "p1_result", "mean", "p1.t"), "unknown x column 'mean'"),
    (lambda d: plots.distribution(d, ["banker_17", "banker_99"]), "unknown metric 'banker_99'"),
    (lambda d: plots.distribution(d, BANKER), "one configuration"),
    (lambda d: plots.compare_distributions(d, BANKER, by="nope"), "unknown by column 'nope'"),
    (lambda d: plots.compare_distributions(d, ["x"], by="p1.t"), "unknown metric 'x'"),
    (lambda d: plots.histogram(d, column="nope"), "unknown column 'nope'"),
    (lambda d: plots.histogram([]), "no finite values"),
    (lambda d: plots.histogram(["a", "b"]), "needs numbers"),
    (lambda d: plots.metric_lines(d.iloc[0:0], "p1_result", "p1.t"), "no rows"),
    (lambda d: plots.metric_lines(d[["game"]], "p1_result", "p1.t"), "no 'metric' column"),
])
def test_plot_errors(grid2, call, match):
    with pytest.raises(SimkitError, match=match) as e:
        call(grid2)
    assert "\n" not in str(e.value)


@pytest.mark.slow
def test_figures_are_png_on_agg_without_pyplot(grid2):
    fig = plots.heatmap(grid2, "bank_result", "banker_stop", "p1.t")
    assert type(fig.canvas).__name__ == "FigureCanvasAgg"
    png = plots.to_png(fig)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and fig._repr_png_()[:4] == b"\x89PNG"  # Jupyter shows it
    code = ("import sys, simkit.plots, simkit.report; "
            "assert 'matplotlib.pyplot' not in sys.modules, 'pyplot imported'")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, DISPLAY=":99"))
    assert done.returncode == 0, done.stderr


def test_metric_classes_and_order(grid2):
    assert plots.is_binary(grid2, "banker_bust") and plots.is_binary(grid2, "p1_win")
    assert not plots.is_binary(grid2, "p1_result") and not plots.is_binary(grid2, "bank_result")
    order = plots.main_metrics(grid2, ["banker_stop", "p1.t"])
    assert set(order[:2]) == {"p1_result", "bank_result"}
    assert set(order) == set(grid2.metric)
    assert plots.grid_columns(grid2) == ["banker_stop", "p1.t"]
    assert plots.grid_columns(toy(method="exact")) == ["a", "b"]  # method is not a grid column


def test_fmt_estimate():
    assert plots.fmt_estimate(0.15450, 0.140807, 0.168193) == dict(
        mean="0.1545", pm="0.0137", ci="[0.1408, 0.1682]")
    assert plots.fmt_estimate(-0.0652382207, -0.0652382207, -0.0652382207, exact=True) == dict(
        mean="-0.0652382", pm="", ci="")


# --- report --------------------------------------------------------------------------------

def images(page: str) -> list[bytes]:
    return [base64.b64decode(b) for b in re.findall(r'data:image/png;base64,([A-Za-z0-9+/=]+)"', page)]


def self_contained(page: str) -> None:
    assert IMG in page
    assert all(png[:4] == b"\x89PNG" for png in images(page))
    for bad in ('src="http', "src='http", "<link", "<script", "url(http", "@import"):
        assert bad not in page


def assert_rows_in(page: str, df: pd.DataFrame, metrics) -> None:
    for m in metrics:
        for _, row in df[df.metric == m].iterrows():
            est = plots.fmt_estimate(row["mean"], row["ci_low"], row["ci_high"])
            assert f">{est['mean']}<" in page and est["ci"] in page, (m, est)


def no_temp_files(folder) -> None:
    assert [f for f in os.listdir(folder) if f.endswith(".tmp") or f.startswith(".simkit")] == []


def test_report_two_grid_columns_from_parquet(grid2, tmp_path):
    path = tmp_path / "stops.parquet"
    store.write_table(str(path), grid2, {"request": {"game": "ochko"}})
    out = build([str(path)], tmp_path / "report.html", title="Banker stops & players")
    page = open(out, encoding="utf-8").read()
    self_contained(page)
    assert "<title>Banker stops &amp; players</title>" in page
    assert len(images(page)) >= 3                              # heatmaps and lines
    assert 'alt="heatmap of ' in page
    for rules in grid2.rules.unique():
        assert f"<code>{rules}</code>" in page
    assert "p1=stand_at(t=14)" in page and "<th>seed</th><td>7</td>" in page
    assert "4,000" in page and simkit.__version__ in page and "simulation" in page
    assert "<code>banker_stop</code>: 15, 16, 17; <code>p1.t</code>: 14..17" in page
    assert_rows_in(page, grid2, ["p1_result", "banker_bust"])
    assert page.count("<tr") >= len(grid2)                      # the full table
    assert sorted(os.listdir(tmp_path)) == ["report.html", "stops.parquet"]


@pytest.mark.slow
def test_report_one_grid_column_and_no_grid(grid1, single, tmp_path):
    out = tmp_path / "sub" / "r.html"
    build({"stops": grid1, "one run": single}, out)
    page = out.read_text(encoding="utf-8")
    self_contained(page)
    assert 'alt="' in page and "metrics by banker_stop" in page     # the lines
    assert 'alt="banker_*"' in page and 'alt="p1_*"' in page    # the bars of one configuration
    assert "ochko(deck=52,banker_stop=15)" in page and "ochko(banker_stop=16)" in page
    assert "<th>seed</th><td>3</td>" in page and "<th>seed</th><td>11</td>" in page
    assert_rows_in(page, grid1, ["bank_result"])
    assert_rows_in(page, single, list(single.metric))
    assert "simkit report: ochko" in page and "created " in page
    no_temp_files(out.parent)


@pytest.mark.slow
def test_report_any_game_exact_and_mixed(tmp_path):
    out = build([toy(), toy(("a",)), toy(()), toy(("b",), method="simulation")], tmp_path / "t.html")
    page = open(out, encoding="utf-8").read()
    self_contained(page)
    assert page.count("<section") == 4
    assert "exact" in page and "toy(a=1,b=x)" in page and "p1=greedy(k=2)" in page
    assert "Not drawn, as they are the same in every configuration: draw" in page
    assert ">-1.00000<" in page                                  # score at a=1, exact: 6 digits


def test_report_several_runs_without_grid(single, tmp_path):
    other = simkit.run("ochko(banker_stop=16)", n=N, seed=12, strategies=["p1=stand_at(15)"]).table()
    out = build(pd.concat([single, other], ignore_index=True), tmp_path / "two.html")
    page = open(out, encoding="utf-8").read()
    self_contained(page)
    assert "told apart by seed" in page and "seed=12" in page


@pytest.mark.slow
def test_report_of_per_deal_rows(tmp_path):
    res = simkit.sweep("ochko", grid=["banker_stop=16,17"], n=2000, seed=4, rows=True)
    path = tmp_path / "rows.parquet"
    store.write_table(str(path), res.rows, {"rows_of": "ochko"})
    out = build([str(path), res.rows.drop(columns="banker_stop")], tmp_path / "rows.html")
    page = open(out, encoding="utf-8").read()
    self_contained(page)
    assert 'alt="histogram of bank_result"' in page and "Summary of the rows" in page
    assert "4,000 (one per deal or session)" in page and "simkit report: ochko" in page
    assert "<code>banker_stop</code>: 16, 17" in page


@pytest.mark.slow
def test_report_replaces_atomically(grid1, tmp_path):
    out = tmp_path / "r.html"
    out.write_text("old")
    os.chmod(out, 0o640)
    build(grid1, out)
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert (os.stat(out).st_mode & 0o777) == 0o640
    no_temp_files(tmp_path)


@pytest.mark.parametrize("make, match", [
    (lambda p: [str(p / "missing.parquet")], "not found"),
    (lambda p: [str(p / "foreign.parquet")], "not a simkit results file"),
    (lambda p: [str(p / "corrupt.parquet")], "cannot read results file"),
    (lambda p: [str(p / "notes.txt")], "end in .parquet or .csv"),
    (lambda p: [pd.DataFrame({"x": [1]})], "no 'metric' column"),
    (lambda p: [], "nothing to report"),
    (lambda p: [42], "cannot report int"),
])
def test_report_errors(tmp_path, make, match):
    pd.DataFrame({"a": [1, 2]}).to_parquet(tmp_path / "foreign.parquet")
    (tmp_path / "corrupt.parquet").write_bytes(b"PAR1 not really")
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(SimkitError, match=match):
        build(make(tmp_path), tmp_path / "r.html")
    assert not (tmp_path / "r.html").exists()


def test_report_output_must_be_html(grid1, tmp_path):
    with pytest.raises(SimkitError, match="must end in .html"):
        build(grid1, tmp_path / "r.txt")
    (tmp_path / "dir.html").mkdir()
    with pytest.raises(SimkitError, match="folder"):
        build(grid1, tmp_path / "dir.html")


# --- the command line ----------------------------------------------------------------------

def cli(capsys, *argv):
    rc = main(list(argv))
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


@pytest.mark.slow
def test_cli_report(grid1, single, tmp_path, capsys):
    a, b = tmp_path / "a.parquet", tmp_path / "b.csv"
    store.write_table(str(a), grid1)
    store.write_table(str(b), single)
    out = tmp_path / "report.html"
    rc, stdout, err = cli(capsys, "report", str(a), str(b), "-o", str(out), "--title", "Two files")
    assert rc == 0, err
    assert out.exists() and str(out) in stdout
    page = out.read_text(encoding="utf-8")
    self_contained(page)
    assert "Two files" in page and "a.parquet" in page and "b.csv" in page
    assert "ochko(banker_stop=16)" in page and "<th>seed</th><td>11</td>" in page


@pytest.mark.parametrize("args, match", [
    (["{d}/missing.parquet", "-o", "{d}/r.html"], "not found"),
    (["{d}/foreign.parquet", "-o", "{d}/r.html"], "not a simkit results file"),
    (["{d}/good.parquet", "-o", "{d}/r.txt"], "must end in .html"),
    (["-o", "{d}/r.html"], "Missing argument"),
    (["{d}/good.parquet"], "Missing option"),
])
def test_cli_report_errors(grid1, tmp_path, capsys, args, match):
    pd.DataFrame({"a": [1]}).to_parquet(tmp_path / "foreign.parquet")
    store.write_table(str(tmp_path / "good.parquet"), grid1)
    rc, out, err = cli(capsys, "report", *[a.format(d=tmp_path) for a in args])
    assert rc == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("simkit: error: ") and match in lines[0], err
    assert "Traceback" not in err
    assert not (tmp_path / "r.html").exists() and not (tmp_path / "r.txt").exists()


def test_report_wide_tables_scroll_inside_the_page(grid2, tmp_path):
    """Issue 29: a table wider than the page scrolls sideways in its own box instead of being
    cut at the page edge (the page is at most 1200 px wide; a grid of several columns is not)."""
    import re
    path = tmp_path / "stops.parquet"
    store.write_table(str(path), grid2, {"request": {"game": "ochko"}})
    page = open(build([str(path)], tmp_path / "r.html"), encoding="utf-8").read()
    css = page[page.index("<style>"):page.index("</style>")]
    assert "max-width:1200px" in css
    for cls in set(re.findall(r"<table class=(\w+)>", page)):
        rule = re.search(rf"table\.{cls}[,{{][^}}]*}}", css) or re.search(
            rf"table(?:\.\w+,)*table\.{cls}\{{[^}}]*}}", css)
        assert rule and "overflow-x:auto" in rule.group(0) and "display:block" in rule.group(0), cls
