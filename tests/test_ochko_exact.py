"""Exact analysis of Очко: checked by hand, against an independent exact-rational recursion, and
against the simulator (tolerances in standard errors, n stated)."""
from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

import simkit
from simkit.cli import main
from simkit.games import parse_game
from simkit.errors import SimkitError
from simkit.games.ochko import exact as X
from simkit.games.ochko import engine as E


def rules(text="ochko"):
    return parse_game(text)[1]


@pytest.fixture(autouse=True)
def _drop_banker_memos():
    """``exact._setup`` keeps the banker memo of its last 8 rules alive (about 500 bytes per
    memoised state; a 52-card deck reaches millions of states, over 1 GB): drop them after each
    test so one worker process does not hold several at once."""
    yield
    X._setup.cache_clear()


# --- the banker alone: exact rationals --------------------------------------------------

def test_banker_alone_sums_to_one_and_golden_point_is_1_in_105():
    d = X.banker_distribution("ochko")
    assert sum(d.values()) == 1
    assert d["banker_golden"] == Fraction(1, 105)  # 4/36 * 3/35
    assert d["banker_le16"] == 0                      # he draws to 17 with no card cap


def test_banker_stop_2_stops_on_his_first_card():
    """banker_stop=2: he stands on one card, so the distribution is the first card's value."""
    d = X.banker_distribution("ochko(banker_stop=2)")
    # 36 cards: totals 2,3,4 (J,Q,K), 6..10, 11 (A) all below 17: everything is le16
    assert d["banker_le16"] == 1
    d52 = X.banker_distribution("ochko(banker_stop=11,deck=52)", first="Ah")
    assert d52["banker_le16"] == 1  # an ace alone is 11 >= 11


def test_banker_given_cards_seen_by_hand():
    """First card a ten, banker_stop=12: he draws once, from 35 cards with three tens gone too:
    ten + ace = 21 (4 aces of 32 left), ten + J/Q/K = 12..14 (12 of 32), ten + 6..10 = 16..20."""
    d = X.banker_distribution("ochko(banker_stop=12)", seen="10c 10d 10h", first="10s")
    assert d["banker_21"] == Fraction(4, 32)
    assert d["banker_le16"] == Fraction(12 + 4, 32)  # J Q K (12, 13, 14) and the sixes (16)
    assert d["banker_17"] == d["banker_18"] == d["banker_19"] == Fraction(4, 32)
    assert d["banker_20"] == 0                         # no ten left
    assert sum(d.values()) == 1


@pytest.mark.slow
def test_banker_rational_recursion_matches_the_float_kernel():
    """The exact-rational Python recursion and the numba kernel are separate code."""
    for text in ["ochko", "ochko(banker_stop=15)", "ochko(deck=52,banker_stop=18)",
                 "ochko(values=text1)", "ochko(banker_max_cards=3)", "ochko(golden_point=false)"]:
        r = rules(text)
        s = X._Setup(r)
        keys = X._banker(s.counts.copy(), int(s.counts.sum()), 0, s.T, s.memo)
        frac = X.banker_distribution(r)
        by_cat = np.zeros(E.NBC)
        np.add.at(by_cat, X.BCAT_OF_KEY, keys)
        for name, p in frac.items():
            assert by_cat[E.BANKER_NAMES.index(name)] == pytest.approx(float(p), abs=1e-14), (text, name)


def test_seen_cards_errors():
    with pytest.raises(SimkitError, match="more"):
        X.banker_distribution("ochko", seen="As Ad Ah Ac Ad")
    with pytest.raises(SimkitError, match="not in the 36-card deck"):
        X.banker_distribution("ochko", seen="2c")
    with pytest.raises(SimkitError, match="one player"):
        X.evaluate("ochko(players=2)")


# --- a player against the banker ----------------------------------------------------------

def test_probabilities_add_up():
    for text, strat in [("ochko", "stand_at(17)"), ("ochko(ties=push,bonus_hands=true)", "stand_at(21)"),
                        ("ochko(values=text1,player_21_wins=false)", "random(0.4)"),
                        ("ochko(deck=52,banker_max_cards=4)", "stand_at(16)")]:
        m = X.evaluate(text, strat)
        # float64 sums of ~1e6 path probabilities: rounding alone stays far below 1e-9
        assert m["p1_win"] + m["p1_push"] + m["p1_loss"] == pytest.approx(1, abs=1e-9)
        banker = sum(m[n] for n in E.BANKER_NAMES[:-1])
        assert banker == pytest.approx(1, abs=1e-9)
        assert m["bank_result"] == pytest.approx(-m["p1_result"], abs=1e-15)


def test_player_golden_point_is_1_in_105_when_he_always_takes_a_second_card():
    assert X.evaluate("ochko", "stand_at(12)")["p1_golden"] == pytest.approx(1 / 105, abs=1e-15)


def test_stand_at_2_never_draws():
    """A player who stands on his first card never busts and never holds a golden point; he
    wins only when the banker busts (ties and lower totals go to the bank)."""
    m = X.evaluate("ochko", "stand_at(2)")
    assert m["p1_bust"] == 0 and m["p1_golden"] == 0 and m["banker_idle"] == 0
    assert m["p1_win"] == pytest.approx(m["banker_bust"], abs=1e-15)


@pytest.mark.parametrize("text,strat", [
    ("ochko", "stand_at(17)"),
    ("ochko(banker_stop=16)", "stand_at(15)"),
    ("ochko(deck=52,ties=push,bonus_hands=true,bust_penalty=0.5)", "stand_at(19)"),
    ("ochko(values=text1,banker_max_cards=4,player_21_wins=false)", "random(0.6)"),
])
def test_simulator_agrees_with_exact_values(text, strat):
    """n = 400,000 rounds per configuration; every metric within 4.5 standard errors of the
    exact value (about 1 in 150,000 per metric by chance, so ~1e-4 for the whole test; fixed
    seed, so it is deterministic)."""
    exact = X.evaluate(text, strat)
    est = simkit.run(text, n=400_000, seed=20261130, strategies=[f"p1={strat}"]).estimates()
    for name, e in est.items():
        if e["se"] == 0 or np.isnan(e["se"]):
            assert e["mean"] == pytest.approx(exact[name], abs=1e-12), name
        else:
            z = (e["mean"] - exact[name]) / e["se"]
            assert abs(z) < 4.5, f"{name}: simulated {e['mean']:.6f}, exact {exact[name]:.6f}, z={z:.2f}"


# --- best play ------------------------------------------------------------------------------

def test_best_threshold_is_the_best_of_the_grid():
    t, m = X.best_threshold("ochko", range(10, 20))
    g = X.grid("ochko", range(10, 20), [17])
    assert g.loc[g["p1_result"].idxmax(), "p1.t"] == t
    assert g["p1_result"].max() == pytest.approx(m["p1_result"], abs=1e-15)


def test_best_play_beats_every_threshold_and_sight_of_the_upcard_helps():
    _, m = X.best_threshold("ochko")
    blind = X.best_play("ochko", upcard=False)
    seen = X.best_play("ochko", upcard=True)
    assert blind["p1_result"] >= m["p1_result"] - 1e-12
    assert seen["p1_result"] >= blind["p1_result"] - 1e-12
    # the value equals the outcome probabilities it reports, weighted by the payoffs
    assert seen["categories"]["win"] + seen["categories"]["golden"] + seen["categories"]["five"] \
        == pytest.approx(seen["p1_win"], abs=1e-12)
    pol = seen["policy"]
    assert pol.loc[(pol.total <= 10), "hit_share"].min() == 1.0  # never stand on 10 or less
    assert pol.loc[(pol.total == 20), "hit_share"].max() == 0.0  # never hit 20


def test_bank_best_threshold_against_best_replies():
    g = X.grid("ochko", range(12, 22), [16, 17])
    b, edge = X.bank_best_threshold(g)
    best = g[g.best_reply]
    assert len(best) == 2 and edge == best["bank_result"].max() and b in (16, 17)


# --- the command -----------------------------------------------------------------------------

def test_cli_exact_json(capsys):
    assert main(["exact", "ochko", "-s", "p1=stand_at(16)", "--format", "json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert set(obj["banker"]) == {"17", "18", "19", "20", "21", "bust", "golden"}
    assert obj["banker_exact"]["golden"] == "1/105"
    assert obj["p1_result"] == pytest.approx(X.evaluate("ochko", "stand_at(16)")["p1_result"])
    assert "p1_win" in obj and "rational" in obj["method"]["banker"]


def test_cli_exact_grid_and_errors(capsys, tmp_path):
    out = tmp_path / "g.parquet"
    assert main(["exact", "ochko", "--grid", "banker_stop=16..17", "--grid", "p1.t=14..16",
                 "-o", str(out), "--format", "json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert len(obj["grid"]) == 6 and obj["bank_best"]["banker_stop"] in (16, 17)
    df, meta = simkit.core.store.read_table(str(out))
    assert set(df["method"]) == {"exact"} and (df["se"] == 0).all()
    for argv in (["exact", "ochko", "-r", "players=3"], ["exact", "ochko", "--grid", "deck=36,52"],
                 ["exact", "ochko", "--grid", "p1.t=1..30"], ["exact", "nogame"],
                 ["exact", "ochko", "--grid", "banker_stop=16..17", "-s", "p1=stand_at(16)"]):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("simkit: error:")
