"""Every table says what its numbers are counted in, and shares read as shares (issue 29): a unit
per metric in the tidy table, JSON and CSV; a 0/1 metric (Wilson interval) is a share; a share's
interval stays inside [0, 1] whatever interval it has."""
from __future__ import annotations

import pytest

import simkit
from simkit.core import stats
from simkit.games import GAMES, parse_game


@pytest.mark.parametrize("game", GAMES)
def test_every_metric_has_a_unit_and_every_share_stays_in_0_1(game):
    spec, rules = parse_game(game)
    shown = [m for m in spec.metrics(rules) if not m.hidden]
    assert all(m.unit for m in shown), [m.name for m in shown if not m.unit]
    counted = [m.name for m in shown if m.binary and not m.unit.startswith("share of")]
    assert not counted, f"{game}: 0/1 metrics (Wilson intervals) not in shares: {counted}"
    t = simkit.run(game, n=300, seed=2, progress=False).table()
    assert dict(zip(t["metric"], t["unit"])) == {m.name: m.unit for m in shown}
    share = t[t["unit"].str.startswith("share")]
    assert ((share["ci_low"] >= 0) & (share["ci_high"] <= 1)).all(), share
    assert ((share["mean"] >= 0) & (share["mean"] <= 1)).all(), share


def test_a_share_near_0_keeps_its_interval_inside(monkeypatch):
    """gin's shares are means of two mirrored hands (0, 1/2 or 1), with normal intervals: a rare
    one's interval would reach below 0 without the clip."""
    res = simkit.run("gin", n=60, seed=1, progress=False)
    t = res.table().set_index("metric")
    raw = {m: stats.estimate(*_sums(res, m), binary=False) for m in ("dead", "p1_undercut")}
    for m, e in raw.items():
        assert t.loc[m, "ci_low"] == max(0.0, e["ci_low"]) and t.loc[m, "ci_high"] <= 1
    assert min(e["ci_low"] for e in raw.values()) < 0   # the case the clip is for


def _sums(res, metric):
    cnt, acc = res.aggs[0].total()
    j = [m.name for m in res.metric_specs[0]].index(metric)
    return cnt, acc[0, j], acc[1, j]


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_json_and_csv_carry_the_unit(fmt, capsys):
    import io
    import json

    import pandas as pd

    from simkit.cli import main
    assert main(["run", "old_maid", "-n", "200", "--format", fmt]) == 0
    out = capsys.readouterr().out
    units = (pd.read_csv(io.StringIO(out)).set_index("metric")["unit"].to_dict() if fmt == "csv"
             else {k: v["unit"] for k, v in json.loads(out)["metrics"].items()})
    assert units["p1_lose"] == "share of games (0..1)" and units["draws"] == "draws per game"


@pytest.mark.parametrize("game", GAMES)
def test_no_label_is_averaged(game):
    """A label per deal (a seat number, a card's rank) is a ``category``: no table averages it,
    and no metric a table shows is counted in a label (issue 29: Fan-Tan's ``winner_seat`` and
    Durak's ``trump_rank`` were means)."""
    spec, rules = parse_game(game)
    for m in spec.metrics(rules):
        if not m.hidden:
            assert "(mean)" not in m.unit and not m.unit.startswith(("seat number", "rank")), m
        if m.category:
            assert m.hidden and "distribution" in m.category, m


@pytest.mark.parametrize("game, label, shares", [
    ("fan_tan", "winner_seat", {k: f"p{k}_win" for k in range(1, 5)}),
    ("durak", "trump_rank", {r: f"trump{r}" for r in range(6, 15)})])
def test_a_label_is_reported_as_its_distribution(game, label, shares):
    """The metrics the label's ``category`` names are its distribution: their means are the
    shares of the label's values in the per-deal rows (which keep the label), summing to 1."""
    res = simkit.run(game, n=2000, seed=5, rows=True, progress=False)
    t = res.table().set_index("metric")
    assert label not in t.index
    counts = res.rows[label].value_counts(normalize=True)
    for value, name in shares.items():
        assert t.loc[name, "mean"] == pytest.approx(counts.get(value, 0.0), abs=1e-12)
    assert sum(t.loc[n, "mean"] for n in shares.values()) == pytest.approx(1.0, abs=1e-12)
