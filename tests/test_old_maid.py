"""Old Maid («Ведьма», 002:111-114): the exact two-player chain, a plain-Python replay of logged
games, and the conventions.

Tolerances: simulated shares and means within 4 standard errors of the exact values (a false
alarm about once in 16,000 checks); seeds fixed, so a failure is reproducible.
"""
import json

import numpy as np
import pytest

import simkit
from simkit.core import play
from simkit.core.registry import resolve_strategies
from simkit.core.rng import stream_state
from simkit.games.old_maid import exact
from tests.shedding_reference import replay_old_maid

Z = 4.0


def _run(game, n, seed=1):
    return simkit.run(game, n=n, seed=seed, progress=False).table().set_index("metric")


def test_deal_distribution_sums_to_one_and_holder_parity():
    for a in (25, 26):
        d = exact.deal_distribution(a)
        assert abs(sum(d.values()) - 1) < 1e-12
        # seat 0 holds the odd queen iff its card count minus its pairs is odd: m + 1 cards
        assert all(0 <= m <= 12 for m, _ in d)


def test_exact_chain_is_a_distribution():
    lose, draws = exact.two_player(26, 0)
    assert abs(lose.sum() - 1) < 1e-12 and abs(draws.sum() - 1) < 1e-12
    # who draws first matters, and drawing first from the bigger hand is a disadvantage here
    lose2, _ = exact.two_player(26, 1)
    assert abs(lose[0] - lose2[0]) > 1e-3


@pytest.mark.parametrize("n", [40_000, pytest.param(2_000_000, marks=pytest.mark.slow)])
@pytest.mark.parametrize("game,cards,drawer", [("old_maid(players=2)", 26, 0),
                                               ("old_maid(players=2,starter=dealer)", 26, 1),
                                               ("old_maid(players=2,extra=last)", 25, 0)])
def test_two_players_match_the_markov_chain(game, cards, drawer, n):
    t = _run(game, n)
    lose, draws = exact.two_player(cards, drawer)
    mean = float((np.arange(len(draws)) * draws).sum())
    for k in range(2):
        m, se = t.loc[f"p{k + 1}_lose", "mean"], t.loc[f"p{k + 1}_lose", "se"]
        assert abs(m - lose[k]) < Z * se, (k, m, lose[k], se)
    m, se = t.loc["draws", "mean"], t.loc["draws", "se"]
    assert abs(m - mean) < Z * se, (m, mean, se)


def test_draw_count_distribution_matches_the_chain():
    spec = simkit.get_game("old_maid")
    rules = spec.rules.build({"players": 2})
    res = simkit.run("old_maid(players=2)", n=40_000, seed=3, rows=True, progress=False)
    d = res.rows["draws"].to_numpy().astype(int)
    _, p = exact.two_player(26, 0)
    for k in range(1, 12):
        share = (d == k).mean()
        se = np.sqrt(p[k] * (1 - p[k]) / len(d))
        assert abs(share - p[k]) < Z * se + 1e-9, (k, share, p[k])
    assert rules.players == 2


@pytest.mark.parametrize("opts", [{}, {"players": 2}, {"players": 7, "draw_from": "left"},
                                  {"players": 5, "starter": "dealer", "extra": "last"},
                                  {"players": 8, "starter": "random", "extra": "random",
                                   "set_aside": "Qs"}])
def test_reference_replays_logged_games(opts):
    spec = simkit.get_game("old_maid")
    rules = spec.rules.build(opts)
    strats = resolve_strategies(spec, rules, None)
    n = 300
    log = np.zeros((n, len(spec.log_columns(rules))), np.int64)
    _, rows, _ = play.run_chunk(spec, rules, strats, stream_state(9, 0), n, rows=True, log=log)
    names = [m.name for m in spec.metrics(rules)]
    for i in range(n):
        ref = replay_old_maid(rules, log[i].tolist())
        assert ref == dict(zip(names, rows[i].tolist())), i


def test_conventions_move_the_loser():
    """Four players: who starts and who gets the extra cards shift the loser's seat."""
    a = _run("old_maid", 40_000)
    b = _run("old_maid(starter=dealer)", 40_000)
    assert abs(sum(a.loc[f"p{k}_lose", "mean"] for k in range(1, 5)) - 1) < 1e-9
    assert a.loc["p1_lose", "mean"] != b.loc["p1_lose", "mean"]


@pytest.mark.parametrize("opts,cards,drawer", [("players=2", 26, 0),
                                               ("players=2,starter=dealer", 26, 1),
                                               ("players=2,extra=last", 25, 0)])
def test_simkit_exact_gives_the_chain(opts, cards, drawer, capsys):
    from simkit.cli import main
    assert main(["exact", f"old_maid({opts})", "--format", "json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    lose, draws = exact.two_player(cards, drawer)
    assert obj["p1_lose"] == pytest.approx(lose[0], abs=1e-12)
    assert obj["p2_lose"] == pytest.approx(lose[1], abs=1e-12)
    assert obj["draws"] == pytest.approx(float((np.arange(len(draws)) * draws).sum()), abs=1e-9)


def test_simkit_exact_random_options_average_their_cases():
    spec = simkit.get_game("old_maid")
    obj, table = exact.analyze(spec.rules.build({"players": 2, "starter": "random"}))
    want = (exact.two_player(26, 0)[0] + exact.two_player(26, 1)[0]) / 2
    assert obj["p1_lose"] == pytest.approx(want[0], abs=1e-12)
    t = table.set_index("metric")["mean"]
    assert t["p1_lose"] + t["p2_lose"] == pytest.approx(1, abs=1e-12)
    assert sum(v for k, v in t.items() if k.startswith("draws_eq_")) == pytest.approx(1, abs=1e-9)


def test_simkit_exact_refuses_more_players(capsys):
    from simkit.cli import main
    assert main(["exact", "old_maid(players=4)"]) == 2
    err = capsys.readouterr().err
    assert "two players" in err and "Traceback" not in err
