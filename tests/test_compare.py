"""simkit.analysis.compare: paired differences, versus-best tables and best replies.

Checked against hand computations from the same Result (per-chunk sums), on Очко sweeps: the
paired difference of two grid points equals the batch-means difference of their chunk means,
and best_replies picks each column's argmax.
"""
import math

import numpy as np
import pytest

import simkit
from simkit.analysis import compare


@pytest.fixture(scope="module")
def grid():
    return simkit.sweep("ochko", grid=["banker_stop=16,17", "p1.t=14,15,16,17"], n=16 * 4096,
                        seed=4, progress=False)


def test_difference_is_the_batch_means_difference(grid):
    i, j = 0, 3
    d = compare.difference(grid, "p1_result", i, j)
    assert d["by"] == "paired"
    ci = [grid.aggs[i].chunks[c] for c in sorted(grid.aggs[i].chunks)]
    cj = [grid.aggs[j].chunks[c] for c in sorted(grid.aggs[j].chunks)]
    names = [m.name for m in grid.metric_specs[i]]
    q = names.index("p1_result")
    per_chunk = np.array([a[1][0, q] / a[0] - b[1][0, q] / b[0] for a, b in zip(ci, cj)])
    w = np.array([a[0] for a in ci], float)
    assert d["mean"] == pytest.approx(grid.estimates(i)["p1_result"]["mean"]
                                      - grid.estimates(j)["p1_result"]["mean"], abs=1e-12)
    se = math.sqrt(np.average((per_chunk - np.average(per_chunk, weights=w)) ** 2, weights=w)
                   / (len(w) - 1))
    assert d["se"] == pytest.approx(se, rel=1e-9)  # 16 equal chunks: the same formula
    assert d["ci_low"] < d["mean"] < d["ci_high"]


def test_unpaired_fallback_below_eight_chunks():
    r = simkit.sweep("ochko", grid=["p1.t=15,17"], n=3 * 4096, seed=1, progress=False)
    d = compare.difference(r, "p1_result", 0, 1)
    a, b = r.estimates(0)["p1_result"], r.estimates(1)["p1_result"]
    assert d["by"] == "unpaired"
    assert d["se"] == pytest.approx(math.hypot(a["se"], b["se"]))


def test_versus_best_and_best_replies(grid):
    vb = compare.versus_best(grid, "p1.t", "p1_result", where={"banker_stop": 17})
    best = vb[vb["best"]]
    assert len(best) == 1 and best["diff"].iloc[0] == 0.0
    assert (vb["diff"] <= 0).all()
    br = compare.best_replies(grid, "p1.t", "banker_stop", "p1_result")
    assert list(br["banker_stop"]) == [16, 17]
    for _, row in br.iterrows():
        sub = [(grid.estimates(i)["p1_result"]["mean"], pt["p1.t"]) for i, pt in enumerate(grid.points)
               if pt["banker_stop"] == row["banker_stop"]]
        assert row["best_p1.t"] == max(sub)[1]
        assert row["margin"] >= 0
