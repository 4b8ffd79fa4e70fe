"""Fan-Tan (003:121-134): a plain-Python replay of logged games, the exact chance that a seat is
dealt a seven or the 7♦, and the text's hints against random, paired.

Tolerances: within 4 standard errors (seeds fixed).
"""
from math import comb

import numpy as np
import pytest

import simkit
from simkit.core import play
from simkit.core.registry import resolve_strategies
from simkit.core.rng import stream_state
from tests.shedding_reference import replay_fan_tan

Z = 4.0


def _logged(opts, strategies, n, seed=9):
    spec = simkit.get_game("fan_tan")
    rules = spec.rules.build(opts)
    strats = resolve_strategies(spec, rules, strategies)
    log = np.zeros((n, len(spec.log_columns(rules))), np.int64)
    _, rows, _ = play.run_chunk(spec, rules, strats, stream_state(seed, 0), n, rows=True, log=log)
    return rules, log, rows, [m.name for m in spec.metrics(rules)]


@pytest.mark.parametrize("opts,strategies", [
    ({}, None), ({"players": 3}, ["p1=random", "p2=extend", "p3=ends"]),
    ({"players": 5, "deal_from": "right"}, ["p1=block", "p2=random"]),
    ({"players": 8, "must_play": False}, ["p1=random", "p2=block", "p3=block"]),
    ({"players": 6, "ante_even": 2}, ["p4=random"])])
def test_reference_replays_logged_games(opts, strategies):
    rules, log, rows, names = _logged(opts, strategies, 200)
    checked = 0
    for i in range(len(log)):
        ref = replay_fan_tan(rules, log[i].tolist())
        if ref is not None:
            assert ref == dict(zip(names, rows[i].tolist())), i
            checked += 1
    assert checked >= 150


def seven_odds(cards):
    """P(a hand of ``cards`` of the 52 holds at least one seven), P(it holds the 7♦)."""
    return 1 - comb(48, cards) / comb(52, cards), cards / 52


@pytest.mark.parametrize("players,deal_from", [(4, "left"), (5, "left"), (5, "right"),
                                               (7, "right")])
def test_seven_holdings_match_the_exact_odds(players, deal_from):
    n = 6000
    rules, log, _, _ = _logged({"players": players, "deal_from": deal_from}, None, n, seed=4)
    first, step = int(log[0, 0]), int(log[0, 1])
    dealt = log[:, 2:54]
    seat = (first + step * np.arange(52)) % players
    d7 = 1 * 16 + 7
    for k in range(players):
        mine = dealt[:, seat == k]
        has7 = ((mine & 15) == 7).any(axis=1).mean()
        has7d = (mine == d7).any(axis=1).mean()
        p7, pd = seven_odds(int((seat == k).sum()))
        for got, p in ((has7, p7), (has7d, pd)):
            assert abs(got - p) < Z * np.sqrt(p * (1 - p) / n), (k, got, p)


def test_chips_sum_to_zero_and_extra_cards_pay_less():
    res = simkit.run("fan_tan(players=5)", n=4000, seed=2, rows=True, progress=False)
    r = res.rows
    assert np.allclose(r[[f"p{k}_chips" for k in range(1, 6)]].sum(axis=1), 0)
    assert (r[[f"p{k}_win" for k in range(1, 6)]].sum(axis=1) == 1).all()


@pytest.mark.parametrize("n", [8192, pytest.param(200_000, marks=pytest.mark.slow)])
@pytest.mark.parametrize("hint", ["sequence", "extend", "ends", "block"])
def test_hints_against_random(hint, n):
    """Each hint, paired against random on the same deals over every seat (simkit compare);
    the quick tier checks that the comparison runs and the estimate is finite, the slow tier
    that ``sequence`` and ``extend`` win chips from random."""
    from simkit.analysis.headtohead import compare
    t = compare("fan_tan", hint, "random", n=n, seed=3, progress=False).table()
    row = t[(t.kind == "seat") & (t.metric == "chips")].iloc[0]
    assert np.isfinite(row["mean"]) and row["se"] > 0
    if n > 10_000 and hint in ("sequence", "extend"):
        assert row["mean"] > Z * row["se"], row.to_dict()
