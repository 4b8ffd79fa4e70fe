"""Answers that say what they know (issue 29, its first section): a headline names a winner only
when the paired difference excludes zero at the stated confidence, and otherwise says it is not
resolved, with the margin, its standard error and the points that cannot be told apart; every
claim carries ``resolved`` in the JSON and the saved analysis.

The cases are constructed so that the answer is known whatever the numbers: a strategy against
itself under another name (never resolved: the same play on every deal), clearly different
thresholds (resolved at a few thousand deals), a matrix whose saddle point is known, and
synthetic round robins whose ratings must contradict a head-to-head result."""
from __future__ import annotations

import numpy as np
import pytest

import simkit
from simkit.analysis import common, verdict
from simkit.games import parse_game
from simkit.report.analysis import analysis_of


# --- the rule itself --------------------------------------------------------------------------

def test_leader_is_resolved_only_when_every_rival_is_excluded():
    """Three points, the leader 1.0 ahead of the second: with se 0.1 resolved; with se 1.0 not,
    and both rivals within reach are listed; exact ties are not a winner either."""
    names, means = ["a", "b", "c"], [3.0, 2.0, 0.0]

    def diff(se):
        return lambda i, j: (means[i] - means[j], se, None, "paired")

    c = verdict.leader(names, means, diff(0.1))
    assert c["resolved"] and c["winner"] == "a" and c["runner_up"] == "b" and c["tied"] == ["a"]
    assert c["margin"] == pytest.approx(1.0) and "resolved at 95% confidence" in c["text"]
    c = verdict.leader(names, means, diff(1.0))
    assert not c["resolved"] and c["tied"] == ["a", "b"] and c["se"] == 1.0
    assert c["winner"] is None and c["leader"] == "a"
    assert "not resolved at 95% confidence" in c["text"] and "a, b" in c["text"]
    low = verdict.leader(names, means, diff(0.1), larger=False)
    assert low["winner"] == "c" and low["margin"] == pytest.approx(2.0)
    tie = verdict.leader(["x", "y"], [1.0, 1.0], lambda i, j: (0.0, 0.0, None, "exact"))
    assert not tie["resolved"] and "exactly equal" in tie["text"]


# --- compare ----------------------------------------------------------------------------------

def test_compare_claims_a_winner_only_when_resolved(tmp_path):
    """Очко stand_at(16) against stand_at(19) is settled at 2**15 deals; stand_at(17) against
    itself under another name (upcard_stand(17,17,11) plays the same on every deal) never is:
    no winner, the margin 0 and its standard error said, ``resolved`` false in the JSON and in
    the saved analysis."""
    clear = simkit.compare("ochko", "stand_at(16)", "stand_at(19)", n=2 ** 15, seed=1,
                           progress=False)
    c = clear.claims[0]
    assert c["resolved"] is True and c["winner"] == "A=stand_at(t=16)"
    assert clear.info["resolved"] is True and "resolved at 95% confidence" in clear.summary[-1]
    assert clear.table().set_index("metric").loc["result", "resolved"]
    same = simkit.compare("ochko", "stand_at(17)", "upcard_stand(17,17,11)", n=2 ** 15, seed=1,
                          progress=False)
    c = same.claims[0]
    assert c["resolved"] is False and c["winner"] is None and c["margin"] == 0.0
    assert "not resolved" in same.summary[-1] and "se 0" in same.summary[-1]
    assert "cannot be told apart" in same.summary[-1]
    assert same.to_json()["claims"][0]["resolved"] is False
    f = tmp_path / "same.parquet"
    same.save(str(f))
    from simkit.core import store
    df, meta = store.read_table(str(f))
    assert analysis_of(df, meta).claims[0]["resolved"] is False


def test_compare_reports_the_edge_in_a_two_player_zero_sum_game():
    """Gin's points are zero-sum between the two players: A's edge is A's own points per hand
    (B's are their negative), half of A - B; the headline says so in words.  The rows with a
    difference come before the shared outcomes that have none (NaN)."""
    an = simkit.compare("gin", "threshold(10)", "simple", n=4096, seed=2, progress=False)
    t = an.table()
    pts = t.set_index("metric").loc["points"]
    assert pts["quantity"] == "A's edge" and pts["even"] == 0.0
    assert pts["mean"] == pytest.approx(pts["a_mean"])
    assert pts["b_mean"] == pytest.approx(-pts["a_mean"])
    assert pts["diff"] == pytest.approx(2 * pts["mean"])
    assert an.claims[0]["se"] == pytest.approx(pts["se"])  # the headline's error is the edge's
    line = an.summary[1]
    assert f"A's edge {pts['mean']:+.6g} points per hand" in line and "twice it" in line
    assert t["metric"].iloc[0] == "points"
    finite = np.isfinite(t["mean"].to_numpy(float))
    assert finite.any() and not finite[np.argmin(finite):].any()  # every NaN row after the rest
    win = t.set_index("metric").loc["win"]  # not constant-sum (dead hands): A - B
    assert win["quantity"] == "A - B"
    assert win["mean"] == pytest.approx(win["a_mean"] - win["b_mean"])


@pytest.mark.parametrize("game,stem,word", [
    ("durak", "lose", "lower"), ("hearts", "points", "lower"),
    ("hearts(unit=game)", "score", "lower"), ("hearts(unit=game)", "win", "higher"),
    ("gin", "points", "higher"), ("gin", "knock", ""), ("ochko", "loss", "lower"),
    ("old_maid", "lose", "lower")])
def test_metrics_where_lower_is_better_are_marked(game, stem, word):
    spec, r = parse_game(game)
    assert common.better(spec, r, stem) == word


# --- best -------------------------------------------------------------------------------------

def test_best_names_a_point_only_when_the_race_settles_it(capsys):
    """Очко stand_at 12 against 16: the race drops 12, so 16 is the resolved best.  A grid over a
    parameter that changes nothing (upcard_stand(17,17,s) stands at 17 whatever s) cannot be
    resolved: no winner, every point listed as not told apart, ``resolved`` false in the JSON."""
    from simkit.cli import main
    clear = simkit.best("ochko", ["p1.t=12,16"], n=2e4, seed=3, progress=False)
    c = clear.claims[0]
    assert c["resolved"] is True and c["winner"] == "p1.t=16" and c["runner_up"] == "p1.t=12"
    assert clear.summary[0].startswith("best p1.t: p1.t=16, ahead of p1.t=12 by")
    assert main(["best", "ochko", "--grid", "p1.strong=9..11", "-s", "p1=upcard_stand(17,17,11)",
                 "-n", "2e4", "--format", "json"]) == 0
    import json
    obj = json.loads(capsys.readouterr().out)
    c = obj["claims"][0]
    assert c["resolved"] is False and c["winner"] is None and c["margin"] == 0.0
    assert sorted(c["tied"]) == ["p1.strong=10", "p1.strong=11", "p1.strong=9"]
    assert "not resolved" in obj["summary"][0] and "cannot be told apart" in obj["summary"][0]


# --- solve ------------------------------------------------------------------------------------

def test_solve_claims_a_pure_minimax_only_when_resolved():
    """The issue's case at a small size: banker stops 16 and 17 against stand_at 15 and 16.  The
    exact guarantees differ by 0.00063 (16 is the minimax), a fifth of the paired standard error
    at 2e4 deals: the simulation must not name a stop, and says both cannot be told apart.
    Stops 14 and 20 differ by 0.23 in guarantee: resolved, 14.  Two column points that play
    the same (upcard_stand(17,17,s) whatever s) are never told apart: neither their pure
    minimax nor the column's best replies are resolved."""
    ex = simkit.solve("ochko", "banker_stop=16,17", "p1.t=15,16", exact=True)
    assert ex.claims[0]["winner"] == "banker_stop=16" and ex.claims[0]["by"] == "exact"
    sim = simkit.solve("ochko", "banker_stop=16,17", "p1.t=15,16", n=2e4, seed=6, progress=False)
    row = sim.claims[0]
    assert row["claim"] == "row's pure minimax banker_stop" and row["resolved"] is False
    assert row["winner"] is None and sorted(row["tied"]) == ["banker_stop=16", "banker_stop=17"]
    assert row["se"] > 3 * abs(ex.info["minimax"] - ex.table().query(
        "banker_stop == 17")["mean"].min())
    assert "not resolved at 95% confidence" in sim.summary[1]
    assert "cannot be told apart" in sim.summary[1]
    assert sim.to_json()["claims"][0]["resolved"] is False and sim.info["resolved"][0] is False
    from simkit.plots import analysis as aplots
    fig = aplots.matrix(sim.to_json())  # the figure says it too, also from the saved form
    legend = [t.get_text() for ax in fig.axes if ax.get_legend()
              for t in ax.get_legend().get_texts()]
    assert "row's pure minimax (not resolved)" in legend
    far = simkit.solve("ochko", "banker_stop=14,20", "p1.t=15,16", n=2e4, seed=6, progress=False)
    assert far.claims[0]["resolved"] is True and far.claims[0]["winner"] == "banker_stop=14"
    same = simkit.solve("ochko", "banker_stop=15,17", "p1.strong=10,11", n=2e4, seed=6,
                        strategies=["p1=upcard_stand(17,17,11)"], progress=False)
    col = same.claims[1]
    assert col["resolved"] is False and col["margin"] == 0.0 and col["se"] == 0.0
    r = same["replies"]
    assert not r[r.side == "col"]["resolved"].any()
    assert (r[r.side == "col"]["tied"] == "p1.strong=10, p1.strong=11").all()


# --- tournament -------------------------------------------------------------------------------

def test_tournament_cross_table_caption_matches_its_sign():
    """Hearts, random against heuristic: random takes far more penalty points.  Each cell is the
    row's advantage, the column's points per hand minus the row's, and the caption says so: the
    cell (random, heuristic) is heuristic's points minus random's, negative."""
    an = simkit.tournament("hearts", ["random", "heuristic"], n=1000, seed=2, progress=False)
    own = an.table().set_index("strategy")["mean_points"]
    assert own["random"] > own["heuristic"] + 5
    cell = an["cross"].set_index(["row", "col"])["score"]
    assert cell[("random", "heuristic")] == pytest.approx(own["heuristic"] - own["random"])
    assert cell[("random", "heuristic")] < 0 < cell[("heuristic", "random")]
    head = an.summary[0]
    assert "the column strategy's points per seat minus its own" in head
    assert "a positive cell favours the row" in head and "minus the column" not in head
    assert an.info["contradictions"] == [] and (an.table()["contradicts"] == "").all()


@pytest.mark.parametrize("model", ["least-squares", "bradley-terry"])
def test_ratings_that_contradict_a_resolved_head_to_head_are_flagged(model):
    """A cycle with one lopsided pair: A beats B by far, B beats C and C beats A narrowly (but
    resolved over 64 chunks of 4,000 deals).  Any fit over all pairs rates A above C and C above
    B, against both narrow head-to-head results: both are flagged, and only they."""
    from simkit.analysis.tournament import contradictions, cross_table, rate
    rng = np.random.default_rng(3)
    k, size = 64, 4000
    pairs = [(0, 1), (0, 2), (1, 2)]
    if model == "least-squares":
        adv = {(0, 1): 10.0, (0, 2): -1.0, (1, 2): 1.0}
        a = np.array([rng.normal(adv[p] * size, 20 * np.sqrt(size), k) for p in pairs])
        b = np.zeros_like(a)
    else:
        win = {(0, 1): 0.9, (0, 2): 0.4, (1, 2): 0.6}
        a = np.array([rng.binomial(size, win[p], k) for p in pairs], float)
        b = size - a
    cnt = np.full(k, float(size))
    ratings, _ = rate(pairs, a, b, cnt, 3, model, reps=100, seed=1)
    assert ratings[0] > ratings[2] > ratings[1]
    w = common.bootstrap_weights(k, 200, 1)
    flags = contradictions(["A", "B", "C"], ratings, cross_table(pairs, a, b, cnt, w, model,
                                                                 ["A", "B", "C"]), model)
    assert sorted((f["rated"], f["loses_to"]) for f in flags) == [("A", "C"), ("C", "B")]
    assert all("contradiction:" in f["text"] and "beats it head to head" in f["text"]
               for f in flags)


# --- sweep and report headlines ---------------------------------------------------------------

def _headline_text(page: str) -> str:
    import html
    import re
    m = re.search(r"<p class=headline>(.*?)</p>", page, re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", m.group(1).replace("<br>", "\n")))


def test_sweep_headline_claims_a_best_point_only_when_resolved(capsys, tmp_path):
    """Очко stand_at 12 against 16: 16 is better (exactly, by 0.029), resolved at 2e4 paired
    deals.  A grid over a parameter that changes nothing is never resolved: the table output,
    the JSON, the saved file and the report all say so, with the margin and its error."""
    import json

    from simkit.cli import main
    from simkit.core import store
    from simkit.report import build
    h = simkit.sweep("ochko", grid=["p1.t=12,16"], n=2e4, seed=1, progress=False).headline()
    c = h["claims"][0]
    assert h["metric"] == "p1_result" and c["resolved"] is True and c["winner"] == "p1.t=16"
    assert c["by"] == "paired"
    args = ["sweep", "ochko", "--grid", "p1.strong=9..11", "-s", "p1=upcard_stand(17,17,11)",
            "-n", "2e4"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "best p1.strong by p1_result: not resolved at 95% confidence" in out
    assert "cannot be told apart: p1.strong=9, p1.strong=10, p1.strong=11" in out
    assert main(args + ["--format", "json"]) == 0
    objs = json.loads(capsys.readouterr().out)
    assert all(o["headline"]["claims"][0]["resolved"] is False for o in objs)
    f = tmp_path / "same.parquet"
    assert main(args + ["-o", str(f)]) == 0
    capsys.readouterr()
    meta = store.read_table(str(f))[1]
    assert meta["headline"]["claims"][0]["resolved"] is False
    assert meta["headline"]["claims"][0]["by"] == "paired"
    text = _headline_text(open(build(str(f), tmp_path / "r.html"), encoding="utf-8").read())
    assert "p1_result: not resolved at 95% confidence" in text and "is highest" not in text


def test_report_headlines_the_objective_and_draws_it_first(tmp_path):
    """A gin knock sweep headlines p1_points, the game's objective for p1 (not the metric that
    varies most, p1_knock), and its panels start with it."""
    from simkit.report import _build, build
    t = simkit.sweep("gin", grid=["p1.knock=0,5,10"], strategies=["p2=simple"], n=600, seed=1,
                     progress=False).table()
    text = _headline_text(open(build(t, tmp_path / "g.html"), encoding="utf-8").read())
    assert text.startswith("Headline: p1_points") and "p1's objective points" in text
    keys, _ = _build._config_keys(t.copy())
    figs, note = _build._figures(t, keys, first="p1_points")
    assert figs[0][1].axes[0].get_title() == "p1_points"
    assert "the game's objective p1_points" in note


def test_a_grid_over_both_sides_headlines_the_equilibrium(tmp_path):
    """Очко banker_stop x p1.t: the house's choice against the player's.  The headline is the
    matrix game's (each side's pure minimax, the mixed equilibrium), not the largest p1_result: from
    the exact grid the bank's minimax stop is 16, exactly; from 2e4 simulated deals 16 and 17
    are not told apart (their guarantees differ by a fifth of a standard error).  Gin over both
    seats' knock thresholds is a game of two players: an equilibrium too."""
    from simkit.analysis.headline import headline
    from simkit.report import build
    ex = simkit.solve("ochko", "banker_stop=16,17", "p1.t=15,16", exact=True)
    exact = ex.table().rename(columns={"mean": "m"}).assign(metric="p1_result", mean=lambda d: -d["m"],
                                                              se=0.0, method="exact")
    exact = exact[["game", "rules", "banker_stop", "p1.t", "metric", "mean", "se", "method"]]
    h = headline(exact)
    assert h["kind"] == "equilibrium" and h["claims"][0]["winner"] == "banker_stop=16"
    assert h["claims"][0]["by"] == "exact"
    res = simkit.sweep("ochko", grid=["banker_stop=16,17", "p1.t=15,16"], n=2e4, seed=6,
                       progress=False)
    h = res.headline()
    assert h["kind"] == "equilibrium" and h["claims"][0]["resolved"] is False
    assert h["claims"][0]["tied"] == ["banker_stop=16", "banker_stop=17"]
    text = _headline_text(open(build(res.table(), tmp_path / "e.html"), encoding="utf-8").read())
    assert "equilibrium" in text and "row's pure minimax banker_stop: not resolved" in text
    assert "is highest" not in text
    gin = simkit.sweep("gin", grid=["p1.knock=0,10", "p2.knock=0,10"], n=400, seed=1,
                       progress=False).headline()
    assert gin["kind"] == "equilibrium" and gin["metric"] == "p1_points"
    assert [c["claim"] for c in gin["claims"]] == ["row's pure minimax p1.knock",
                                                    "column's pure minimax p2.knock",
                                                    "mixed equilibrium"]


def test_a_table_with_an_unplayed_configuration_has_no_headline():
    """An interrupted sweep saves a table where some configuration has no hands yet (its mean is
    NaN): no best point and no equilibrium is claimed from it (the matrix game's LP refused the
    NaN with a traceback on CI before)."""
    from simkit.analysis.headline import headline
    ex = simkit.solve("ochko", "banker_stop=16,17", "p1.t=15,16", exact=True)
    t = ex.table().rename(columns={"mean": "m"}).assign(metric="p1_result", mean=lambda d: -d["m"],
                                                          se=0.0, method="exact")
    t = t[["game", "rules", "banker_stop", "p1.t", "metric", "mean", "se", "method"]]
    assert headline(t)["kind"] == "equilibrium"
    t.loc[(t["banker_stop"] == 16) & (t["p1.t"] == 16), "mean"] = np.nan
    assert headline(t) is None
    one = t[t["banker_stop"] == 16]
    assert headline(one) is None
    assert headline(one.dropna()) is None  # one configuration left: nothing varies
