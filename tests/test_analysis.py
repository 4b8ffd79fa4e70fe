"""The analysis layer (issue 11): head-to-head, tournaments, racing, matrix games, match odds.

Checked against what it did not compute: the procedures on synthetic data where the truth is
known (racing's false elimination rate, ratings of constructed strengths), and Очко's exact
analysis (best response, best replies, minimax and the equilibrium value)."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import simkit
from simkit.analysis import common
from simkit.analysis.racing import race
from simkit.analysis.solve import zero_sum_equilibrium
from simkit.analysis.tournament import ELO, rate
from simkit.cli import main


# --- the procedures on synthetic data -------------------------------------------------------

def _synthetic(means, k, size, rng, common_sd=2.0, own_sd=1.0):
    """Per-chunk sums of ``len(means)`` points on common deals: a shared chunk effect (the deals)
    plus each point's own noise, per deal sd ``own_sd``."""
    shared = rng.normal(0, common_sd * math.sqrt(size), k)
    own = rng.normal(0, own_sd * math.sqrt(size), (len(means), k))
    return np.array(means)[:, None] * size + shared + own


@pytest.mark.slow
def test_racing_false_elimination_rate_is_at_most_alpha():
    """Six truly equal points and two clearly worse, 4 looks, alpha 0.05: over 400 seeded races
    the share that ever drops one of the equal points is at most alpha + 3 SE (SE of a
    proportion at alpha, n = 400: 0.011), and the worse points are dropped in every race."""
    alpha, reps, size, total = 0.05, 400, 1000, 256
    means = [0.0] * 6 + [-0.5, -0.6]
    rng = np.random.default_rng(11)
    false, dropped_bad = 0, 0
    for _ in range(reps):
        data = _synthetic(means, total, size, rng)

        def sample(alive, k):
            return np.full(k, float(size)), data[alive, :k]

        alive, hist = race(sample, len(means), common.looks(total), alpha)
        false += any(p not in alive for p in range(6))
        dropped_bad += 6 not in alive and 7 not in alive
    bound = alpha + 3 * math.sqrt(alpha * (1 - alpha) / reps)
    assert false / reps <= bound, (false, reps)
    assert dropped_bad == reps


def test_racing_without_the_correction_would_fail_the_same_check():
    """The check above can fail: testing each look at a plain 5% (no Bonferroni) drops a truly
    equal point in far more than 5% of the races."""
    rng = np.random.default_rng(11)
    size, total, reps, false = 1000, 256, 200, 0
    for _ in range(reps):
        data = _synthetic([0.0] * 6, total, size, rng)

        def sample(alive, k):
            return np.full(k, float(size)), data[alive, :k]

        # alpha scaled up so that the per-test level is 5%: 4 looks x 30 ordered pairs
        alive, _ = race(sample, 6, common.looks(total), alpha=min(0.49, 0.05 * 4 * 30))
        false += len(alive) < 6
    assert false / reps > 0.15


@pytest.mark.parametrize("model", ["bradley-terry", "least-squares"])
def test_ratings_recover_constructed_strengths(model):
    """Four strategies with known strengths (Bradley-Terry 1:2:4:8, or additive 0, 1, 2, 4
    points): ratings from 64 chunks of 2,000 games per pair come out in the true order, every
    true rating within 4 bootstrap SE of its estimate, and the true ratios within theirs."""
    rng = np.random.default_rng(7)
    s, k, size = 4, 64, 2000
    pairs = [(i, j) for i in range(s) for j in range(i + 1, s)]
    if model == "bradley-terry":
        strength = np.array([1.0, 2.0, 4.0, 8.0])
        true = np.log(strength) * ELO
        a = np.array([rng.binomial(size, strength[i] / (strength[i] + strength[j]), k)
                      for i, j in pairs], float)
        b = size - a
    else:
        level = np.array([0.0, 1.0, 2.0, 4.0])
        true = level
        a = np.array([rng.normal(level[i] * size, 30 * math.sqrt(size), k) for i, j in pairs])
        b = np.array([rng.normal(level[j] * size, 30 * math.sqrt(size), k) for i, j in pairs])
    true = true - true.mean()
    ratings, boot = rate(pairs, a, b, np.full(k, float(size)), s, model, reps=150, seed=1)
    se = boot.std(axis=0, ddof=1)
    assert list(np.argsort(ratings)) == [0, 1, 2, 3]
    assert np.all(np.abs(ratings - true) <= 4 * se), (ratings, true, se)
    d_true, d_est = true[3] - true[0], ratings[3] - ratings[0]
    d_se = (boot[:, 3] - boot[:, 0]).std(ddof=1)
    assert abs(d_est - d_true) <= 4 * d_se


def test_zero_sum_equilibrium_of_known_games():
    """Matching pennies: value 0, both mix 1/2; a game with a saddle point: its value, pure."""
    v, x, y = zero_sum_equilibrium(np.array([[1.0, -1.0], [-1.0, 1.0]]))
    assert v == pytest.approx(0, abs=1e-9) and x == pytest.approx([0.5, 0.5]) \
        and y == pytest.approx([0.5, 0.5])
    v, x, y = zero_sum_equilibrium(np.array([[3.0, 5.0], [1.0, 4.0]]))
    assert v == pytest.approx(3.0) and x == pytest.approx([1, 0]) and y == pytest.approx([1, 0])
    # rock-paper-scissors scaled: value 0, uniform
    v, x, y = zero_sum_equilibrium(np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], float) * 2)
    assert v == pytest.approx(0, abs=1e-9) and x == pytest.approx([1 / 3] * 3, abs=1e-6)


# --- on the games ---------------------------------------------------------------------------

def test_compare_is_antisymmetric_and_consistent():
    """Swapping A and B plays the same seatings: every difference changes sign exactly, A - B
    (``diff``) is a_mean - b_mean, and the reported number is A - B or A's edge, half of it."""
    ab = simkit.compare("gin", "simple", "threshold(8)", n=4096, seed=3, progress=False).table()
    ba = simkit.compare("gin", "threshold(8)", "simple", n=4096, seed=3, progress=False).table()
    seat = ab[ab.kind == "seat"].set_index("metric")
    tas = ba[ba.kind == "seat"].set_index("metric").loc[seat.index]
    assert np.allclose(seat["mean"], -tas["mean"], rtol=0, atol=1e-12)
    assert np.allclose(seat["diff"], seat["a_mean"] - seat["b_mean"], atol=1e-12)
    half = np.where(seat["quantity"] == "A's edge", 0.5, 1.0)
    assert np.allclose(seat["mean"], half * seat["diff"], atol=1e-12)
    assert set(seat.index) >= {"points", "win", "gin", "knock"}


def test_compare_until_resolved_stops_early_on_a_clear_difference():
    """Очко stand_at(16) against stand_at(19): resolved at the first look (32 chunks of 4,096
    of a 1e6 cap) with A better; equal play (the same strategy as its own field, two names)
    cannot be resolved and runs to the cap."""
    an = simkit.compare("ochko", "stand_at(16)", "stand_at(19)", n=1e6, seed=1,
                        until_resolved=True, progress=False)
    assert an.info["status"] == "resolved"
    row = an.table().set_index("metric").loc["result"]
    assert row["mean"] > 0 and row["n"] < 1e6
    same = simkit.compare("ochko", "stand_at(17)", "upcard_stand(17,17,11)", n=2e5, seed=1,
                          until_resolved=True, progress=False)
    assert same.info["status"] == "cap reached"
    assert same.table().set_index("metric").loc["result", "mean"] == 0.0


def test_compare_precision_stops_when_the_interval_is_narrow_enough():
    """--precision 0.005 on Очко's ev difference: it stops at a look whose 95% half-width (at
    its per-look level) is within 0.005, before the 1e6 cap; 0.0001 is not reached by the cap."""
    an = simkit.compare("ochko", "stand_at(15)", "stand_at(16)", n=1e6, seed=2, precision=0.005,
                        progress=False)
    h = an["history"].iloc[-1]
    assert an.info["status"] == "precision reached" and h["bound"] <= 0.005
    assert h["deals"] < 1e6
    tight = simkit.compare("ochko", "stand_at(15)", "stand_at(16)", n=2e5, seed=2,
                           precision=0.0001, progress=False)
    assert tight.info["status"] == "cap reached" and tight["history"].iloc[-1]["bound"] > 0.0001


@pytest.mark.slow
def test_analyses_are_bit_identical_on_every_backend():
    """Serial, threads and (for the race, whose looks depend on what finished) processes."""
    runs = {}
    for be, w in (("serial", 1), ("threads", 2)):
        kw = dict(n=3000, seed=9, progress=False, backend=be, workers=w)
        runs[be] = (simkit.compare("hearts", "heuristic", "random", **kw).table(),
                    simkit.tournament("gin", ["simple", "threshold(6)", "random"], **kw).table())
    for x, y in zip(runs["serial"], runs["threads"]):
        pd.testing.assert_frame_equal(x, y)
    races = [simkit.best("ochko", ["p1.t=13..17"], n=3e5, seed=9, progress=False, backend=be,
                         workers=w).table() for be, w in (("serial", 1), ("processes", 2))]
    pd.testing.assert_frame_equal(*races)


@pytest.fixture(scope="module")
def exact_matrix():
    return simkit.solve("ochko", "banker_stop=15..18", "p1.t=14..18", exact=True)


@pytest.mark.slow
def test_solve_by_simulation_agrees_with_the_exact_matrix(exact_matrix):
    """Очко, banker_stop 15..18 x stand_at 14..18, 4e5 common deals a cell: every cell within
    4 SE of the exact value; the equilibrium value within 4 bootstrap SE; each best reply the
    exact one or worse than it, in exact terms, by at most 4 paired SE of its margin; the
    minimax stop's exact guarantee within 4 SE of the exact minimax."""
    sim = simkit.solve("ochko", "banker_stop=15..18", "p1.t=14..18", n=4e5, seed=2,
                       workers=2, progress=False)
    ex = exact_matrix
    t, e = sim.table(), ex.table()
    assert (t[["banker_stop", "p1.t"]].values == e[["banker_stop", "p1.t"]].values).all()
    assert np.all(np.abs(t["mean"] - e["mean"]) <= 4 * t["se"])
    assert abs(sim.info["value"] - ex.info["value"]) <= 4 * sim.info["value_se"]
    exact = e.set_index(["banker_stop", "p1.t"])["mean"]
    rows, cols = ex.info["row_values"], ex.info["col_values"]
    reps = sim["replies"].set_index(["side", "to"])
    for b, sim_t, ex_t in zip(rows, sim.info["col_best_reply"], ex.info["col_best_reply"]):
        se = reps.loc[("col", f"banker_stop={b}"), "margin_se"]
        # the player's loss (row payoff) at his simulated reply is at most 4 SE above the best
        assert exact[(b, sim_t)] - exact[(b, ex_t)] <= 4 * se
    for c, sim_b, ex_b in zip(cols, sim.info["row_best_reply"], ex.info["row_best_reply"]):
        se = reps.loc[("row", f"p1.t={c}"), "margin_se"]
        assert exact[(ex_b, c)] - exact[(sim_b, c)] <= 4 * se
    b = sim.info["minimax_row"]
    guarantee = min(exact[(b, c)] for c in cols)
    assert ex.info["minimax"] - guarantee <= 4 * sim.info["minimax_se"]
    assert ex.info["minimax"] == pytest.approx(min(exact[(ex.info["minimax_row"], c)] for c in cols))


def test_racing_keeps_the_exact_best_response(exact_matrix):
    """Against banker_stop=17 the exact best stand_at in 14..18 survives the race, and every
    dropped point is worse than it in exact terms."""
    an = simkit.best("ochko(banker_stop=17)", ["p1.t=14..18"], n=2e6, seed=4, workers=2,
                     progress=False)
    exact = exact_matrix.table().query("banker_stop == 17").set_index("p1.t")["mean"]
    best_t = int(exact.idxmin())  # the row payoff is the bank's: the player's best minimises it
    t = an.table().set_index("p1.t")
    assert t.loc[best_t, "survivor"]
    assert all(exact[p] > exact[best_t] for p in t.index[~t["survivor"]])
    assert an.info["deals"] < an.info["full_sweep_deals"]


def test_match_odds_are_the_match_unit_runs():
    """odds plays the game's match unit: its numbers are those of run('gin(unit=match)')."""
    an = simkit.odds("gin", ["p1.knock=6,10"], strategies=["p2=simple"], n=300, seed=5,
                     progress=False)
    t = an.table().set_index("p1.knock")
    for k in (6, 10):
        r = simkit.run("gin(unit=match)", n=300, seed=5, progress=False,
                       strategies=[f"p1=threshold(knock={k})", "p2=simple"])
        assert t.loc[k, "mean"] == r.estimates(0)["p1_match_win"]["mean"]
    assert an.info["metric"] == "p1_match_win"


def test_tournament_on_a_one_seat_game_rates_by_the_mean():
    """Очко has one seat: least-squares ratings are the strategies' centred mean ev."""
    an = simkit.tournament("ochko", ["stand_at(15)", "stand_at(17)", "stand_at(20)"], n=2e4,
                           seed=1, progress=False)
    t = an.table()
    assert np.allclose(t["mean"], t["mean_result"] - t["mean_result"].mean(), atol=1e-12)
    assert list(t["strategy"])[0] == "stand_at(t=15)"


@pytest.mark.parametrize("argv,phrase", [
    (["best", "gin", "--grid", "p1.nope=1..3"], "has parameters"),
    (["tournament", "gin", "-s", "simple"], "at least two strategies"),
    (["solve", "hearts", "--row", "p1.threshold=1..2", "--col", "p2.threshold=1..2"], "sides"),
    (["solve", "ochko(players=2)", "--row", "banker_stop=15..16", "--col", "p1.t=14..15"], "sides"),
    (["solve", "ochko", "--row", "p1.t=14..15", "--col", "p1.t=15..16"], "grid"),
    (["compare", "gin", "simple", "simple"], "two different strategies"),
    (["compare", "gin", "simple", "nosuch"], "unknown strategy"),
    (["compare", "gin", "simple", "random", "-m", "nosuch"], "unknown metric"),
    (["compare", "gin", "simple", "random", "-m", "turns"], "shared outcome"),
    (["tournament", "ochko", "-s", "random", "-s", "stand_at(15)", "--model", "bradley-terry"],
     "one seat"),
    (["odds", "ochko", "--grid", "p1.t=14..16"], "no match unit"),
    (["best", "ochko", "--grid", "banker_stop=15..17"], "which metric"),
    (["compare", "ochko", "random", "stand_at(15)", "--precision", "\u0661"], "ASCII"),
    (["best", "ochko", "--grid", "p1.t=14..16", "--alpha", "nan"], "finite"),
    (["solve", "gin", "--row", "p1.knock=5..6", "--col", "p2.knock=5..6", "--exact"],
     "no exact analysis"),
])
def test_bad_analysis_input_is_one_line_and_exit_2(capsys, argv, phrase):
    assert main(argv + ["-n", "2048"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("simkit: error:") and phrase in err[0], err


def test_analysis_files_are_results_files(tmp_path):
    """-o keeps an analysis as a results file that the store reads back with its frames."""
    from simkit.core import store
    out = tmp_path / "t.parquet"
    assert main(["tournament", "gin", "-s", "simple", "-s", "random", "-n", "2048",
                 "-o", str(out)]) == 0
    df, meta = store.read_table(str(out))
    frames = common.frames_from_json(meta["analysis"])
    assert meta["analysis"]["analysis"] == "tournament" and set(frames) == {"table", "cross"}
    pd.testing.assert_frame_equal(df.reset_index(drop=True), frames["table"], check_dtype=False)
