"""The Monte Carlo runner (simkit.core.runner) through simkit.run / simkit.sweep: chunk plans,
reproducibility across backends, paired sweeps, precision mode, per-deal rows."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simkit
from simkit.analysis.simulate import _widest
from simkit.core import runner as R
from simkit.errors import SimkitError

NUM = ["mean", "se", "ci_low", "ci_high", "n"]


def numbers(res) -> pd.DataFrame:
    """The table without its creation time (the only column allowed to differ between runs)."""
    return res.table().drop(columns=["created"])


# --- chunk plan ----------------------------------------------------------------------------

def test_chunk_size_examples():
    assert R.chunk_size(1) == R.MIN_CHUNK == 4096
    assert R.chunk_size(4096 * 64) == 4096
    assert R.chunk_size(4096 * 64 + 1) == 8192
    assert R.chunk_size(10**6) == 16384
    assert R.chunk_size(10**9) == R.MAX_CHUNK == 2**20
    assert R.chunk_size(10**12) == 2**20


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 10**11))
def test_plan_covers_n_exactly(n):
    size = R.chunk_size(n)
    assert size & (size - 1) == 0 and R.MIN_CHUNK <= size <= R.MAX_CHUNK
    p = R.plan(n)
    assert p == R.plan(n, size)
    assert [c for c, _ in p] == list(range(len(p)))
    assert sum(cnt for _, cnt in p) == n
    assert all(cnt == size for _, cnt in p[:-1])
    assert 0 < p[-1][1] <= size
    # about 64 chunks unless the size is clamped
    if R.MIN_CHUNK < size < R.MAX_CHUNK:
        assert 32 < len(p) <= 64


def test_chunk_size_is_monotone_in_n():
    sizes = [R.chunk_size(n) for n in range(1, 3 * 10**7, 99_991)]
    assert sizes == sorted(sizes)


def test_chunks_depend_on_n_only_not_on_workers_or_seed():
    n = 50_000
    runs = [simkit.run("ochko", n=n, seed=s, workers=w) for s, w in [(0, 1), (0, 2), (5, 1)]]
    for r in runs:
        assert {c: cnt for c, (cnt, _) in r.aggs[0].chunks.items()} == dict(R.plan(n))
        assert r.deals() == n


# --- reproducibility and backends ----------------------------------------------------------

BACKEND_N = 200_000
GRID = ["banker_stop=16,17"]
STRATS = ["p1=stand_at(16)"]


@pytest.fixture(scope="module")
def serial_result():
    return simkit.sweep("ochko", GRID, n=BACKEND_N, seed=11, strategies=STRATS, workers=1)


def test_same_seed_same_table(serial_result):
    again = simkit.sweep("ochko", GRID, n=BACKEND_N, seed=11, strategies=STRATS)
    pd.testing.assert_frame_equal(numbers(again), numbers(serial_result))
    assert (serial_result.table()["n"] == BACKEND_N).all()


def test_different_seeds_differ(serial_result):
    other = simkit.sweep("ochko", GRID, n=BACKEND_N, seed=12, strategies=STRATS)
    a, b = serial_result.table(), other.table()
    assert not np.array_equal(a["mean"].to_numpy(), b["mean"].to_numpy())
    for m in ["bank_result", "p1_win", "banker_bust"]:  # but agree statistically
        x, y = a[a.metric == m], b[b.metric == m]
        z = (x["mean"].to_numpy() - y["mean"].to_numpy()) / np.hypot(x["se"].to_numpy(), y["se"].to_numpy())
        assert (np.abs(z) < 5).all()


def _assert_bit_identical(res, ref):
    a, b = res.table(), ref.table()
    assert a["metric"].tolist() == b["metric"].tolist()
    for col in ["mean", "se"]:
        assert np.array_equal(a[col].to_numpy(), b[col].to_numpy()), col  # bit-identical, no tolerance
    pd.testing.assert_frame_equal(numbers(res), numbers(ref))


def test_threads_backend_bit_identical(serial_result):
    res = simkit.sweep("ochko", GRID, n=BACKEND_N, seed=11, strategies=STRATS, workers=2)
    _assert_bit_identical(res, serial_result)
    res = simkit.sweep("ochko", GRID, n=BACKEND_N, seed=11, strategies=STRATS, workers=2,
                       backend="threads")
    _assert_bit_identical(res, serial_result)


def test_processes_backend_bit_identical(serial_result):
    res = simkit.sweep("ochko", GRID, n=BACKEND_N, seed=11, strategies=STRATS, workers=2,
                       backend="processes")
    _assert_bit_identical(res, serial_result)


@pytest.mark.slow
def test_dask_backend_bit_identical(serial_result):
    pytest.importorskip("distributed")
    res = simkit.sweep("ochko", GRID, n=BACKEND_N, seed=11, strategies=STRATS, workers=2,
                       backend="dask")
    _assert_bit_identical(res, serial_result)


@pytest.mark.slow
def test_existing_dask_cluster_by_address(serial_result):
    """--scheduler ADDRESS: connect to a cluster someone else started (here an in-process one)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        res = simkit.sweep("ochko", GRID, n=BACKEND_N, seed=11, strategies=STRATS,
                           scheduler=cluster.scheduler_address)
    _assert_bit_identical(res, serial_result)
    with pytest.raises(SimkitError, match="cannot reach the Dask scheduler"):
        simkit.run("ochko", n=1000, scheduler="tcp://127.0.0.1:9")


def test_backend_errors():
    with pytest.raises(SimkitError, match="--workers must be at least 1"):
        simkit.run("ochko", n=1000, workers=0)
    with pytest.raises(SimkitError, match="unknown backend 'gpu'"):
        simkit.run("ochko", n=1000, backend="gpu")
    with pytest.raises(SimkitError, match="run takes no grid"):
        simkit.run("ochko", grid=["banker_stop=16,17"], n=1000)


# --- paired sweeps -------------------------------------------------------------------------

METRIC_COLS = ["metric", "mean", "se", "ci_low", "ci_high", "n"]


def test_identical_grid_points_give_identical_rows():
    res = simkit.sweep("ochko", ["p1.t=16,16"], n=30_000, seed=3)
    t = res.table()
    a = t[t.index < len(t) // 2].reset_index(drop=True)
    b = t[t.index >= len(t) // 2].reset_index(drop=True)
    assert (a["p1.t"] == 16).all() and (b["p1.t"] == 16).all()
    pd.testing.assert_frame_equal(a, b)


def test_a_sweep_point_equals_a_plain_run():
    n, seed = 30_000, 4
    sw = simkit.sweep("ochko", ["banker_stop=15..17"], n=n, seed=seed)
    t = sw.table()
    assert sorted(set(t["banker_stop"])) == [15, 16, 17]
    point = t[t.banker_stop == 16].drop(columns=["banker_stop"]).reset_index(drop=True)
    plain = simkit.run("ochko(banker_stop=16)", n=n, seed=seed).table()
    pd.testing.assert_frame_equal(point.drop(columns=["created"]), plain.drop(columns=["created"]))
    # a strategy parameter axis, crossed with a rules axis
    sw2 = simkit.sweep("ochko", ["banker_stop=16,17", "p1.t=15..16"], n=n, seed=seed)
    t2 = sw2.table()
    assert len(sw2.configs) == 4
    row = t2[(t2.banker_stop == 17) & (t2["p1.t"] == 15)]
    plain2 = simkit.run("ochko", n=n, seed=seed, strategies=["p1=stand_at(15)"]).table()
    assert row["strategies"].iloc[0] == plain2["strategies"].iloc[0] == "p1=stand_at(t=15)"
    for col in METRIC_COLS:
        assert row[col].tolist() == plain2[col].tolist(), col


def test_rules_overrides_are_the_same_configuration():
    n = 20_000
    a = simkit.run("ochko(deck=52)", n=n, seed=1).table()
    b = simkit.run("ochko", rules=["deck=52"], n=n, seed=1).table()
    c = simkit.run("ochko(preset=casino_like)", rules={"ties": "bank"}, n=n, seed=1).table()
    for t in (b, c):
        pd.testing.assert_frame_equal(t.drop(columns=["created"]), a.drop(columns=["created"]))


def test_every_grid_point_sees_the_same_deals():
    # p1 always draws to 21 or a bust (stand_at(22)); p1 acts before the banker, so p1's hand is
    # made of the deal's first cards and must not depend on how the banker plays, which is the
    # only difference between the two grid points (banker_stop=2 never draws, 22 draws a lot).
    n = 40_000  # 10 chunks of 4096: enough for the batch-means standard error of `paired`
    res = simkit.sweep("ochko", ["banker_stop=2,22"], n=n, seed=1,
                       strategies=["p1=stand_at(22)"], rows=True)
    rows = res.rows
    a = rows[rows.config == 0].reset_index(drop=True)
    b = rows[rows.config == 1].reset_index(drop=True)
    for m in ["p1_bust", "p1_golden", "p1_five"]:
        mismatched = np.flatnonzero(a[m].to_numpy() != b[m].to_numpy())
        assert mismatched.size == 0, f"{m} differs in {mismatched.size} of {n} deals, first {mismatched[:5]}"
    # and then the paired difference of a quantity both points share is exactly zero
    d = res.paired("p1_bust", 0, 1)
    assert d["mean"] == 0 and d["se"] == 0


def test_paired_difference_of_a_sweep():
    res = simkit.sweep("ochko", ["p1.t=15,17"], n=60_000, seed=2)
    d = res.paired("p1_result", 0, 1)
    e0, e1 = res.estimates(0)["p1_result"], res.estimates(1)["p1_result"]
    assert d["mean"] == pytest.approx(e0["mean"] - e1["mean"], abs=1e-12)
    assert d["se"] > 0 and d["ci_low"] < d["mean"] < d["ci_high"]
    with pytest.raises(SimkitError, match="unknown metric"):
        res.paired("p9_result", 0, 1)


# --- precision mode ------------------------------------------------------------------------

def _widest_over(res, chunks):
    """The widest 95% half-width had only ``chunks`` been played."""
    aggs = []
    for a in res.aggs:
        b = R.Aggregates(a.n_metrics)
        for c in chunks:
            b.add(c, *a.chunks[c])
        aggs.append(b)
    sub = simkit.analysis.simulate.Result(res.spec, res.configs, res.points, aggs, res.seed, res.n)
    return _widest(sub)


@pytest.mark.parametrize("E", [0.02, 0.005])
def test_precision_stops_once_half_widths_are_small_enough(E):
    n = 10**6
    res = simkit.run("ochko", n=n, seed=2, precision=E)
    played = sorted(res.aggs[0].chunks)
    assert played == list(range(len(played)))  # a prefix of the (growing) plan
    grow = R.plan(n, grow=True)
    assert [res.aggs[0].chunks[c][0] for c in played] == [cnt for _, cnt in grow[:len(played)]]
    assert res.deals() < n
    assert res.complete
    for e in res.estimates().values():
        assert max(e["mean"] - e["ci_low"], e["ci_high"] - e["mean"]) <= E
    assert _widest(res) <= E
    # steps are sized from what is needed: 60% of the deals played would not have reached E
    starts = np.cumsum([cnt for _, cnt in grow[:len(played)]])
    short = [c for c in played if starts[c] <= 0.6 * res.deals()]
    assert _widest_over(res, short) > E
    # the steps depend on the numbers, not the workers: the same chunks and numbers on threads
    par = simkit.run("ochko", n=n, seed=2, precision=E, workers=2)
    assert sorted(par.aggs[0].chunks) == played
    _assert_bit_identical(par, res)
    # the first chunks (4096 deals) are those of a fixed-n run with 4096-deal chunks
    small = simkit.run("ochko", n=R.GROW * R.MIN_CHUNK, seed=2)
    for c in played[:R.GROW]:
        assert np.array_equal(res.aggs[0].chunks[c][1], small.aggs[0].chunks[c][1])


def test_growing_plan_covers_n():
    for n in (1, 4096, 5000, 10**6, 10**9 + 7):
        p = R.plan(n, grow=True)
        assert [c for c, _ in p] == list(range(len(p))) and sum(k for _, k in p) == n
        sizes = [k for _, k in p]
        assert all(k == R.MIN_CHUNK for k in sizes[:R.GROW][:-1])  # small chunks first
        assert sizes[:-1] == sorted(sizes[:-1]) and max(sizes) <= R.chunk_size(n)
    assert len(R.plan(10**9, grow=True)) < len(R.plan(10**9)) + 40


def test_precision_is_capped_by_n():
    with pytest.warns(UserWarning, match="precision 0.0001 not reached within n=20000"):
        res = simkit.run("ochko", n=20_000, seed=2, precision=1e-4)
    assert res.deals() == 20_000 and _widest(res) > 1e-4


def test_precision_must_be_positive():
    for bad in (0, -0.1, float("nan")):
        with pytest.raises(SimkitError, match="--precision must be positive"):
            simkit.run("ochko", n=1000, precision=bad)


# --- per-deal rows -------------------------------------------------------------------------

def test_rows_sum_to_the_aggregate_means():
    n = 30_000
    res = simkit.sweep("ochko", ["banker_stop=16,17"], n=n, seed=6, rows=True, workers=2)
    rows = res.rows
    assert len(rows) == 2 * n
    names = [m.name for m in res.metric_specs[0]]
    for i in range(2):
        sub = rows[rows.config == i]
        assert sub["deal"].tolist() == list(range(n))
        assert (sub["banker_stop"] == [16, 17][i]).all()
        cnt, acc = res.aggs[i].total()
        assert cnt == n
        for j, m in enumerate(names):
            col = sub[m].to_numpy()
            assert col.sum() == pytest.approx(acc[0, j], abs=1e-9)
            assert (col ** 2).sum() == pytest.approx(acc[1, j], abs=1e-9)
            assert col.mean() == pytest.approx(res.estimates(i)[m]["mean"], abs=1e-12)
    # binary metrics are 0/1 per deal; the outcome columns partition each deal
    sub = rows[rows.config == 0]
    assert set(np.unique(sub["p1_win"])) <= {0.0, 1.0}
    assert ((sub["p1_win"] + sub["p1_push"] + sub["p1_loss"]) == 1).all()
    assert (sub["bank_result"] == -sub["p1_result"]).all()
    # the rows are the same whichever backend ran them
    again = simkit.sweep("ochko", ["banker_stop=16,17"], n=n, seed=6, rows=True)
    pd.testing.assert_frame_equal(again.rows, rows)


def test_rows_are_limited():
    with pytest.raises(SimkitError, match="per-deal rows"):
        simkit.run("ochko", n=2_000_000, rows=True)
    assert simkit.run("ochko", n=5000).rows is None


def test_seed_and_n_validation():
    with pytest.raises(SimkitError, match="non-negative"):
        simkit.run("ochko", n=1000, seed=-1)
    for bad in (0, -3, 1.5, "abc", "nan", "inf", "1e400"):
        with pytest.raises(SimkitError, match="bad number of deals"):
            simkit.run("ochko", n=bad)
    r = simkit.run("ochko", n="5_000", seed=0)
    assert r.deals() == 5000
    assert math.isfinite(r.estimates()["bank_result"]["mean"])
