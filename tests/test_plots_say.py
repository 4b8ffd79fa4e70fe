"""Every plot says what its bars are, overlaid histograms are told apart, and a report opens with
its headline and puts the same grid column on the x axis for an exact grid and a sweep (issue 17)."""
from __future__ import annotations

import re

import numpy as np
import pytest

import simkit
from simkit import plots
from simkit.report import _build
from simkit.report import build


@pytest.fixture(scope="module")
def big():
    """A sweep whose intervals are narrow next to the spread of its means (as at large n)."""
    return simkit.sweep("ochko", grid=["banker_stop=12..20"], n=100_000, seed=2,
                        progress=False).table()


def legend(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


def test_every_chart_says_what_its_bars_are(big):
    ax = plots.metric_lines(big, "bank_result", "banker_stop").axes[0]
    assert legend(ax)[-1].startswith("bars: 95% CI")
    one = big[big.banker_stop == 17]
    assert legend(plots.distribution(one, ["banker_17", "banker_bust"]).axes[0]) == ["error bars: 95% CI"]
    assert legend(plots.compare_distributions(big, ["banker_17", "banker_bust"], by="banker_stop").axes[0])[-1] \
        == "error bars: 95% CI"
    two = simkit.sweep("ochko", grid=["banker_stop=16,17", "p1.t=15,16"], n=2000, seed=1,
                       progress=False).table()
    fig = plots.heatmap(two, "p1_result", "banker_stop", "p1.t")
    assert "95% CI half-width" in fig.axes[1].get_ylabel()


def test_bars_note_says_when_bars_hide_under_markers():
    assert plots.charts.bars_note([0.001], [0.001], [0.0, 1.0]).endswith("(narrower than the markers)")
    assert plots.charts.bars_note([0.2], [0.2], [0.0, 1.0]) == "bars: 95% CI"
    assert plots.charts.bars_note([0.0], [0.0], [0.0, 1.0]) == "exact values: no bars"


def test_overlaid_histograms_have_their_own_colour_and_labels():
    rng = np.random.default_rng(1)
    fig = plots.histogram(rng.normal(size=400), label="banker_stop=17")
    plots.histogram(rng.normal(1.0, size=400), ax=fig.axes[0], label="banker_stop=16")
    ax = fig.axes[0]
    texts = legend(ax)
    assert len(texts) == len(set(texts)) == 4
    assert [t.split(":")[0] for t in texts] == ["banker_stop=17"] * 2 + ["banker_stop=16"] * 2
    assert all("(95% CI)" in t for t in texts if "mean" in t)
    means = [line for line in ax.lines if line.get_linestyle() == "--"]
    assert len(means) == 2 and means[0].get_color() != means[1].get_color()
    bars = [c for c in ax.containers]
    assert bars[0].patches[0].get_facecolor()[:3] != bars[1].patches[0].get_facecolor()[:3]


@pytest.mark.slow
def test_report_opens_with_its_headline_and_says_what_bars_are(big, tmp_path):
    page = open(build(big, tmp_path / "r.html"), encoding="utf-8").read()
    body = page[page.index("<section"):]
    head = body.index("Headline:")
    assert head < body.index("<table class=prov>") < body.index("<img")
    m = re.search(r"Headline: <b>(\w+)</b> is highest at <b>banker_stop=(\d+)</b>: ([-0-9.]+) ± ", body)
    assert m, body[head:head + 300]
    metric, stop = m.group(1), int(m.group(2))
    sub = big[big.metric == metric]
    assert int(sub.loc[sub["mean"].idxmax(), "banker_stop"]) == stop
    assert "Error bars and ± values are 95% confidence intervals." in body
    tight = big.assign(ci_low=big["mean"] - 1e-7, ci_high=big["mean"] + 1e-7)
    page = open(build(tight, tmp_path / "t.html"), encoding="utf-8").read()
    assert "Most are narrower than the markers at n = 100,000" in page


def test_exact_grid_and_sweep_put_the_same_column_on_x():
    sweep = simkit.sweep("ochko", grid=["p1.t=14..18", "banker_stop=15..16"], n=2000, seed=1,
                         progress=False).table()
    exact = sweep.assign(method="exact", se=0.0, ci_low=sweep["mean"], ci_high=sweep["mean"])
    exact = exact[["banker_stop", "p1.t"] + [c for c in exact.columns if c not in ("banker_stop", "p1.t")]]
    for df in (sweep, exact):
        keys, _ = _build._config_keys(df.copy())
        figs, _ = _build._figures(df, keys)
        heat = [f for alt, f in figs if alt.startswith("heatmap")][0]
        assert heat.axes[0].get_xlabel() == "banker_stop" and heat.axes[0].get_ylabel() == "p1.t"


def test_panel_caption_names_the_order_the_panels_follow(big):
    note = _build._subset_note(["bank_result"], ["bank_result", "p1_win"], [])
    assert "expected values, then other means, then proportions" in note
