"""The Klaberjass bidding study's helpers (``simkit/analysis/studies/klaberjass_bidding.py``):
bins with Wilson intervals, crossings of a curve, bids read from per-deal rows, differences from
the best grid point (paired on the same deals when the run has 8 chunks or more)."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import simkit
from simkit.core.stats import wilson
from simkit.analysis.studies import klaberjass_bidding as study


def test_binned_rate_counts_and_wilson_intervals():
    df = pd.DataFrame({"s": [5, 15, 15, 15, 25, 99, 200], "e": [1, 0, 1, 1, 0, 1, 0],
                       "g": ["a"] * 7})
    t = study.binned_rate(df, "s", "e", [0, 10, 20, np.inf], by="g")
    assert list(t["bin"]) == ["0-10", "10-20", "20+"]
    assert list(t["n"]) == [1, 3, 3]
    assert t["mean"].tolist() == pytest.approx([1.0, 2 / 3, 1 / 3])
    lo, hi = wilson(2, 3)
    assert (t.loc[1, "ci_low"], t.loc[1, "ci_high"]) == pytest.approx((lo, hi))
    assert t.loc[2, "s"] == 25                      # an open bin: half a bin above its edge
    assert study.binned_rate(df, "s", "e", [0, 10, 20, np.inf], min_n=2)["n"].tolist() == [3, 3]


def test_binned_mean_normal_interval():
    df = pd.DataFrame({"s": [1.0, 2.0, 3.0, 4.0], "v": [1.0, 3.0, -1.0, -3.0]})
    t = study.binned_mean(df, "s", "v", [0, 10])
    se = np.std([1, 3, -1, -3], ddof=1) / 2
    assert t.loc[0, "mean"] == 0.0 and t.loc[0, "se"] == pytest.approx(se)


def test_crossing_inside_below_above_and_decreasing():
    t = pd.DataFrame({"x": [0, 10, 20], "mean": [0.3, 0.5, 0.7], "ci_low": [0.25, 0.45, 0.65],
                      "ci_high": [0.35, 0.55, 0.75]})
    c = study.crossing(t, "x", 0.4)
    assert c["status"] == "inside" and c["x"] == pytest.approx(5.0)
    assert c["low"] == pytest.approx(2.5) and c["high"] == pytest.approx(7.5)
    assert study.crossing(t, "x", 0.2)["status"] == "below"
    assert study.crossing(t, "x", 0.9)["status"] == "above"
    assert math.isnan(study.crossing(t, "x", 0.9)["x"])
    down = t.assign(mean=1 - t["mean"], ci_low=1 - t["ci_high"], ci_high=1 - t["ci_low"])
    c = study.crossing(down, "x", 0.6, increasing=False)
    assert c["status"] == "inside" and c["x"] == pytest.approx(5.0)
    assert (c["low"], c["high"]) == pytest.approx((2.5, 7.5))


def test_bids_pick_the_bidders_columns():
    rows = simkit.run("klaberjass", n=3000, seed=4, rows=True, progress=False).rows
    b = study.bids(rows)
    played = (rows["p1_bids"] + rows["p2_bids"]) > 0
    assert len(b) == int(played.sum())
    assert b["bait"].sum() == rows["p1_baits"].sum() + rows["p2_baits"].sum()
    assert (b["strength"] == rows.loc[played, "bidder_strength"].to_numpy()).all()
    assert set(b["round"]) <= {1, 2}
    assert (b["made"] + b["bait"] + b["tie"] == 1).all()


def test_versus_best_pairs_and_falls_back():
    big = study.thresholds("t1", [40, 60, 200], n=40_000, seed=3, openers=["lot"], progress=False)
    t = study.versus_best(big, "p1.t1", "p1_stakes", where={"opener": "lot"})
    assert t["best"].sum() == 1 and (t.loc[t["best"], "diff"] == 0).all()
    assert set(t.loc[~t["best"], "diff_by"]) == {"paired"}
    assert (t["diff"] <= 0).all()
    never = t[t["p1.t1"] == 200].iloc[0]            # never taking in round one loses for sure
    assert never["diff_high"] < 0 and not never["tied"]
    small = study.thresholds("t1", [40, 60], n=3000, seed=3, openers=None, progress=False)
    d = study.difference(small, "p1_stakes", 0, 1)
    assert d["by"] == "unpaired" and d["ci_low"] < d["mean"] < d["ci_high"]
    assert study.flat_range(t, "p1.t1")[0] in (40, 60)
