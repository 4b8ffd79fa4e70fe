"""The scale of the request itself (issue 17): tabulation linear in the grid, n bounded before
any chunk list is built, and --precision that honours -n, grows from what is needed and aims at
the metrics named with -m."""
from __future__ import annotations

import json

import numpy as np
import pytest

import simkit
from simkit.core import runner as R
from simkit.core import store
from simkit.games import get_game
from tests.test_cli import assert_one_error_line, cli


@pytest.mark.slow
def test_a_10000_point_grid_tabulates_and_saves_linearly(tmp_path, monkeypatch):
    """10^4 configurations: each builds its metric list a bounded number of times (it was once
    per configuration per configuration), and the file is written with every row."""
    spec = get_game("ochko")
    orig = spec.metrics
    calls = []

    def counting(rules):
        calls.append(1)
        return orig(rules)

    def fake_map(self, units, fn=None):  # the simulation is not what is measured here
        for u in units:
            cfg = u[0]
            m = len(orig(cfg.rules))
            yield u, (np.ones((2, m)) * u[3], None)

    object.__setattr__(spec, "metrics", counting)
    try:
        monkeypatch.setattr(R.Backend, "map", fake_map)
        out = str(tmp_path / "big.parquet")
        # the whole sweep: planning, running, checkpoints and the final save
        res = simkit.sweep("ochko", ["banker_stop=2..21", "p1.p=0..0.998:0.002"], n=4096,
                           strategies=["p1=random"], out=out)
        configs = len(res.configs)
        assert configs == 20 * 500
        assert len(calls) <= 4 * configs  # was configs**2 for every table()
        calls.clear()
        table = res.table()  # again: the metric lists are built once and reused
        assert len(calls) == 0
        shown = [m for m in orig(res.configs[0].rules) if not m.hidden]
        assert len(store.read_table(out)[0]) == len(table) == configs * len(shown)
    finally:
        object.__setattr__(spec, "metrics", orig)


@pytest.mark.parametrize("argv,pattern", [
    (["run", "ochko", "-n", "1e16"], r"n=1e16 deals per configuration is more than simkit plans for"),
    (["run", "ochko", "-n", "1e16", "--precision", "0.01"], r"more than simkit plans for"),
    (["sweep", "ochko", "--grid", "p1.t=2..22", "--grid", "banker_stop=2..22", "-n", "1e11"],
     r"441 configurations of n=100,000,000,000 deals make .* chunks, more than 2,000,000"),
])
def test_requests_too_large_to_plan_exit_2_at_once(capsys, tmp_path, monkeypatch, argv, pattern):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(R, "plan", lambda *a, **k: pytest.fail("planned chunks of a request "
                                                                 "that cannot run"))
    rc, out, err = cli(capsys, *argv, "-o", "x.parquet")
    assert_one_error_line(rc, out, err, pattern)
    assert not (tmp_path / "x.parquet").exists()


def test_precision_honours_an_explicit_n(capsys):
    rc, out, err = cli(capsys, "run", "ochko", "-n", "1e5", "--precision", "1e-4", "--format", "json")
    assert rc == 0, err
    assert json.loads(out)["n"] == 100_000  # the cap, even when written as the default
    assert "precision 0.0001 not reached within n=100000" in err
    rc, out, err = cli(capsys, "run", "ochko", "--precision", "0.05", "--format", "json")
    assert rc == 0 and json.loads(out)["n"] < 100_000  # no -n: the cap is 1e9, not reached


def test_precision_steps_are_sized_from_what_is_needed(capsys):
    """Gin's mirrored seats give p1_points exactly 0 with se 0: one 4096-deal chunk suffices
    (the fixed batch of eight 2^20-deal chunks played 8.4M deals)."""
    rc, out, err = cli(capsys, "run", "gin", "--precision", "0.5", "-m", "p1_points",
                       "--format", "json")
    assert rc == 0, err
    assert json.loads(out)["n"] == R.MIN_CHUNK


def test_precision_aims_at_the_named_metrics():
    E, n = 0.01, 10**6
    named = simkit.run("ochko", n=n, seed=4, precision=E, metrics=["p1_golden"])
    every = simkit.run("ochko", n=n, seed=4, precision=E)
    assert named.deals() < every.deals()
    half = {k: max(e["mean"] - e["ci_low"], e["ci_high"] - e["mean"])
            for k, e in named.estimates().items()}
    assert half["p1_golden"] <= E < max(half.values())  # only the named one is held to E
    assert all(max(e["mean"] - e["ci_low"], e["ci_high"] - e["mean"]) <= E
               for e in every.estimates().values())
