"""Game strings, rules options, presets, strategy strings (simkit.core.registry / rules) and the
estimate helpers of simkit.core.stats."""
from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.core import stats
from simkit.core.registry import (Strategy, game_string, parse_strategies, parse_strategy, seat_names,
                                  split_call)
from simkit.games import games, get_game, parse_game
from simkit.errors import SimkitError

OCHKO = get_game("ochko")
OPTIONS = [f.name for f in dataclasses.fields(OCHKO.rules)]


# --- the registry --------------------------------------------------------------------------

def test_games_lists_ochko():
    reg = games()
    assert "ochko" in reg
    spec = reg["ochko"]
    assert spec.name == "ochko" and spec.version >= 1
    assert {"stand_at", "random", "table"} <= set(spec.strategies)
    assert {"text1", "text2", "casino_like"} <= set(spec.presets)
    parse_strategy(spec, spec.default_strategy)  # the default strategy is a valid string


def test_unknown_game_lists_the_games():
    with pytest.raises(SimkitError, match=r"unknown game 'poker'.*ochko"):
        get_game("poker")
    with pytest.raises(SimkitError, match=r"unknown game 'Ochko'.*ochko"):
        parse_game("Ochko(deck=52)")


# --- game strings --------------------------------------------------------------------------

def test_parse_game_with_options():
    spec, r = parse_game("ochko(banker_stop=16,deck=52)")
    assert spec is OCHKO
    assert r.banker_stop == 16 and r.deck == 52
    assert r.players == 1 and r.values == "standard"  # the rest are defaults
    assert game_string(spec, r) == "ochko(deck=52,banker_stop=16)"  # declaration order


def test_plain_name_gives_the_defaults():
    spec, r = parse_game("ochko")
    assert r == OCHKO.rules()
    assert r.canonical() == "" and game_string(spec, r) == "ochko"
    assert parse_game("  ochko ( ) ")[1] == r


def test_whitespace_and_types_are_coerced():
    _, r = parse_game(" ochko( banker_stop = 16 , golden_point = off, golden_pays=2, ties = push ) ")
    assert r.banker_stop == 16 and isinstance(r.banker_stop, int)
    assert r.golden_point is False
    assert r.golden_pays == 2.0 and isinstance(r.golden_pays, float)
    assert r.ties == "push"
    for text, value in [("true", True), ("Yes", True), ("1", True), ("on", True), ("false", False),
                        ("NO", False), ("0", False)]:
        assert parse_game(f"ochko(bonus_hands={text})")[1].bonus_hands is value


def test_overrides_add_to_the_game_string_and_a_repeated_option_is_refused():
    _, r = parse_game("ochko(banker_stop=16,deck=52)", ["players=3"])
    assert (r.banker_stop, r.deck, r.players) == (16, 52, 3)
    _, r2 = parse_game("ochko(preset=casino_like)", {"deck": 36})
    assert (r2.deck, r2.ties) == (36, "push")  # -r changes a preset's option
    for text, extra in [("ochko(banker_stop=16,deck=52)", ["banker_stop=15"]),
                        ("ochko(banker_stop=16)", {"banker_stop": 14}),
                        ("ochko", ["banker_stop=15", "banker_stop=16"]),
                        ("ochko(banker_stop=15,banker_stop=16)", [])]:
        with pytest.raises(SimkitError, match=r"'banker_stop' is given twice.*give it once"):
            parse_game(text, extra)
    with pytest.raises(SimkitError, match=r"two presets given \(casino_like .*, text1 .*\)"):
        parse_game("ochko(preset=casino_like)", ["preset=text1"])


def test_an_override_written_as_the_game_string():
    """``-r "GAME(key=value,...)"`` (e.g. ``simkit exact canasta -r "canasta(preset=cuban)"``)
    reads as its options, for every game; another game's name, or an unclosed one, is refused."""
    for name in games():
        spec = get_game(name)
        if not spec.presets:
            continue
        preset = next(iter(spec.presets))
        _, want = parse_game(name, [f"preset={preset}"])
        _, got = parse_game(name, [f"{name}(preset={preset})"])
        assert got == want, name
    _, r = parse_game("ochko", ["ochko(preset=casino_like, deck=36)", "ties=bank"])
    assert (r.deck, r.ties) == (36, "bank")
    with pytest.raises(SimkitError, match=r"'deck' is given twice"):
        parse_game("ochko(deck=52)", ["ochko(deck=36)"])
    with pytest.raises(SimkitError, match=r"-r takes key=value \(or ochko\(key=value,...\)\)"):
        parse_game("ochko", ["gin(deck=36)"])
    with pytest.raises(SimkitError, match=r"'\(' not closed"):
        parse_game("ochko", ["ochko(deck=36"])


def test_presets():
    _, r = parse_game("ochko(preset=casino_like)")
    assert r.deck == 52 and r.ties == "push"
    _, r = parse_game("ochko(preset=text1)")
    assert r.values == "text1"
    _, r = parse_game("ochko", ["preset=casino_like"])  # as -r preset=...
    assert r.deck == 52 and r.ties == "push"
    # explicit options override the preset, wherever they are written
    _, r = parse_game("ochko(preset=casino_like,deck=36)")
    assert r.deck == 36 and r.ties == "push"
    _, r = parse_game("ochko(deck=36,preset=casino_like)")
    assert r.deck == 36 and r.ties == "push"
    _, r = parse_game("ochko(preset=casino_like)", ["ties=bank"])
    assert r.deck == 52 and r.ties == "bank"


def test_canonical_strings_round_trip():
    for text in ["ochko", "ochko(preset=casino_like)", "ochko(preset=text1,players=4)",
                 "ochko(golden_pays=1.5,player_21_wins=false,bust_penalty=0.25,values=text1)",
                 "ochko(banker_stop=2,max_cards=12,banker_max_cards=12,deck=52)"]:
        spec, r = parse_game(text)
        canon = game_string(spec, r)
        assert parse_game(canon)[1] == r
        assert game_string(*parse_game(canon)) == canon


def _option_values():
    out = {}
    for f in dataclasses.fields(OCHKO.rules):
        md, d = f.metadata, f.default
        if md.get("choices"):
            out[f.name] = st.sampled_from(md["choices"])
        elif isinstance(d, bool):
            out[f.name] = st.booleans()
        elif isinstance(d, int):
            lo, hi = md["range"]
            out[f.name] = st.integers(lo, hi)
        elif isinstance(d, float):
            lo, hi = md["range"]
            out[f.name] = st.floats(lo, hi, allow_nan=False)
    return out


@settings(max_examples=150, deadline=None)
@given(st.fixed_dictionaries({}, optional=_option_values()))
def test_random_rules_round_trip_through_game_strings(opts):
    if opts.get("banker_max_cards") == 1:
        with pytest.raises(SimkitError):
            OCHKO.rules.build(opts)
        return
    r = OCHKO.rules.build(opts)
    canon = game_string(OCHKO, r)
    spec, back = parse_game(canon)
    assert back == r
    assert game_string(spec, back) == canon
    # strings of the values also build the same rules (the CLI's -r path)
    assert parse_game("ochko", [f"{k}={v}" for k, v in opts.items()])[1] == r


# --- errors --------------------------------------------------------------------------------

def test_unknown_option_lists_the_options():
    with pytest.raises(SimkitError, match="unknown option 'bankerstop'") as e:
        parse_game("ochko(bankerstop=16)")
    for name in OPTIONS:
        assert name in str(e.value)
    with pytest.raises(SimkitError, match="unknown option 'nope'"):
        parse_game("ochko", ["nope=1"])


def test_unknown_preset_lists_the_presets():
    with pytest.raises(SimkitError, match="unknown preset 'vegas'") as e:
        parse_game("ochko(preset=vegas)")
    for p in OCHKO.presets:
        assert p in str(e.value)


@pytest.mark.parametrize("text,pattern", [
    ("ochko(banker_stop=30)", r"banker_stop=30 is out of range: allowed an integer in 2\.\.22"),
    ("ochko(banker_stop=1)", r"out of range: allowed an integer in 2\.\.22"),
    ("ochko(players=0)", r"players=0 is out of range: allowed an integer in 1\.\.9"),
    ("ochko(players=10)", r"allowed an integer in 1\.\.9"),
    ("ochko(golden_pays=11)", r"golden_pays=11.0 is out of range: allowed a number in 0\.0\.\.10\.0"),
    ("ochko(golden_pays=-0.5)", r"allowed a number in 0\.0\.\.10\.0"),
    ("ochko(golden_pays=nan)", r"allowed a number in 0\.0\.\.10\.0"),
    ("ochko(golden_pays=inf)", r"allowed a number in 0\.0\.\.10\.0"),
    ("ochko(deck=40)", r"deck=40 is not allowed: choose one of 36, 52"),
    ("ochko(ties=split)", r"choose one of bank, push"),
    ("ochko(values=)", r"choose one of standard, text1"),
    ("ochko(banker_stop=abc)", r"bad value 'abc' for banker_stop: expected an integer in 2\.\.22"),
    ("ochko(banker_stop=16.5)", r"bad value '16.5' for banker_stop: expected an integer"),
    ("ochko(players=True)", r"bad value 'True' for players"),
    ("ochko(golden_point=maybe)", r"bad value 'maybe' for golden_point: expected true or false"),
    ("ochko(golden_pays=lots)", r"bad value 'lots' for golden_pays: expected a number"),
    ("ochko(banker_max_cards=1)", r"banker_max_cards=1 is out of range: allowed 0 \(no cap\) or 2\.\.12"),
    ("ochko(banker_stop)", r"cannot read rules option 'banker_stop': write key=value"),
    ("ochko(banker_stop=16", r"cannot read game"),
    ("ochko banker_stop=16", r"cannot read game"),
    ("", r"cannot read game"),
    ("9ochko", r"cannot read game"),
])
def test_bad_game_strings(text, pattern):
    with pytest.raises(SimkitError, match=pattern):
        parse_game(text)


def test_bad_override_values():
    with pytest.raises(SimkitError, match="banker_stop=99 is out of range"):
        parse_game("ochko", ["banker_stop=99"])
    with pytest.raises(SimkitError, match="cannot read rules option 'deck': write key=value"):
        parse_game("ochko", ["deck"])


def test_simkit_error_is_a_value_error():
    assert issubclass(SimkitError, ValueError)


# --- strategy strings ----------------------------------------------------------------------

def test_strategy_strings_positional_and_keyword():
    a = parse_strategy(OCHKO, "stand_at(16)")
    b = parse_strategy(OCHKO, "stand_at(t=16)")
    c = parse_strategy(OCHKO, " stand_at ( t = 16 ) ")
    assert a == b == c == Strategy("stand_at", (("t", 16),))
    assert str(a) == "stand_at(t=16)"
    assert parse_strategy(OCHKO, str(a)) == a
    assert parse_strategy(OCHKO, "stand_at") == Strategy("stand_at", (("t", 17),))  # default
    assert parse_strategy(OCHKO, "random(0.25)") == parse_strategy(OCHKO, "random(p=0.25)")
    assert parse_strategy(OCHKO, "random").values == {"p": 0.5}
    assert parse_strategy(OCHKO, "random(p=1)").values["p"] == 1.0
    assert isinstance(parse_strategy(OCHKO, "stand_at(t=16.0)").values["t"], int)
    assert a.with_param("t", 15) == parse_strategy(OCHKO, "stand_at(15)")


def test_parse_strategies_by_seat():
    _, r = parse_game("ochko(players=3)")
    assert seat_names(3) == ["p1", "p2", "p3"]
    got = parse_strategies(OCHKO, r, ["p2=stand_at(15)", "p3 = random(p=0.1)"])
    default = parse_strategy(OCHKO, OCHKO.default_strategy)
    assert got == (default, parse_strategy(OCHKO, "stand_at(15)"), parse_strategy(OCHKO, "random(0.1)"))
    assert parse_strategies(OCHKO, r, None) == (default,) * 3
    assert parse_strategies(OCHKO, r, {"p1": "stand_at(t=14)"})[0].values == {"t": 14}
    # a seat given twice is refused (the last one used to win silently)
    with pytest.raises(SimkitError, match=r"seat p1 is given two strategies"):
        parse_strategies(OCHKO, r, ["p1=stand_at(14)", "p1=stand_at(13)"])
    with pytest.raises(SimkitError, match=r"parameter 't' of strategy stand_at is given twice"):
        parse_strategy(OCHKO, "stand_at(14,t=13)")


@pytest.mark.parametrize("text,pattern,listed", [
    ("hit_me(3)", r"unknown strategy 'hit_me' for ochko: available strategies are", ["stand_at", "random", "table"]),
    ("stand_at(x=3)", r"unknown parameter 'x' of strategy stand_at: its parameters are t", []),
    ("stand_at(16,17)", r"too many values for stand_at: its parameters are t", []),
    ("stand_at(30)", r"stand_at\.t=30 is out of range: allowed an integer in 2\.\.22", []),
    ("stand_at(abc)", r"bad value 'abc' for stand_at\.t: expected an integer in 2\.\.22", []),
    ("random(p=2)", r"random\.p=2\.0 is out of range: allowed a number in 0\.0\.\.1\.0", []),
    ("random(p=-0.1)", r"out of range", []),
    ("stand_at(16", r"cannot read strategy", []),
])
def test_bad_strategy_strings(text, pattern, listed):
    with pytest.raises(SimkitError, match=pattern) as e:
        parse_strategy(OCHKO, text)
    for name in listed:
        assert name in str(e.value)


def test_bad_seats():
    _, r = parse_game("ochko(players=2)")
    with pytest.raises(SimkitError, match=r"unknown seat 'p3': this game has seats p1, p2"):
        parse_strategies(OCHKO, r, ["p3=stand_at(16)"])
    with pytest.raises(SimkitError, match=r"unknown seat 'banker'"):
        parse_strategies(OCHKO, r, {"banker": "stand_at(16)"})
    with pytest.raises(SimkitError, match=r"write SEAT=NAME\(params\), seats are p1, p2"):
        parse_strategies(OCHKO, r, ["stand_at(t=16)"])


def test_split_call():
    assert split_call("ochko(a=1, b=2)", "game") == ("ochko", ["a=1", "b=2"])
    assert split_call("stand_at", "strategy") == ("stand_at", [])
    assert split_call("f(,x,)", "strategy") == ("f", ["x"])
    for text, why in [("ochko(banker_stop=16))", r"a '\)' too many"),
                      ("ochko((banker_stop=16)", r"a '\(' not closed"),
                      ("ochko(banker_stop=16", r"1 '\(' not closed")]:
        with pytest.raises(SimkitError, match=why + r".*write (ochko|NAME)"):
            split_call(text, "game")


# --- stats helpers -------------------------------------------------------------------------

def test_mean_se():
    xs = np.array([0.0, 1.0, 1.0, 0.0, 3.5, -2.0])
    m, se = stats.mean_se(len(xs), xs.sum(), (xs ** 2).sum())
    assert m == pytest.approx(xs.mean())
    assert se == pytest.approx(xs.std(ddof=1) / math.sqrt(len(xs)))
    m, se = stats.mean_se(4, 2.0, 2.0)  # 0,1,1,0
    assert m == 0.5 and se == pytest.approx(math.sqrt(1 / 12))
    assert stats.mean_se(1, 3.0, 9.0)[0] == 3.0 and math.isnan(stats.mean_se(1, 3.0, 9.0)[1])
    assert all(math.isnan(v) for v in stats.mean_se(0, 0.0, 0.0))
    assert stats.mean_se(5, 5.0, 5.0) == (1.0, 0.0)  # constant: no negative variance from rounding


def test_wilson_against_hand_computed_value():
    # 8 successes of 10, z = 1.96: p = 0.8, z^2 = 3.8416, denom = 1 + 3.8416/10 = 1.38416,
    # centre = (0.8 + 3.8416/20) / 1.38416 = 0.99208 / 1.38416 = 0.7167379...,
    # half = 1.96 * sqrt(0.8*0.2/10 + 3.8416/400) / 1.38416 = 1.96 * sqrt(0.025604) / 1.38416
    #      = 1.96 * 0.1600125 / 1.38416 = 0.2265811...,
    # so (0.4901568, 0.9433191) -- the textbook (0.4902, 0.9433) for 8/10.
    lo, hi = stats.wilson(8, 10, z=1.96)
    assert lo == pytest.approx(0.4901568, abs=1e-6)
    assert hi == pytest.approx(0.9433191, abs=1e-6)
    lo95, hi95 = stats.wilson(8, 10)  # default z is the exact 95% quantile
    assert lo95 == pytest.approx(lo, abs=1e-4) and hi95 == pytest.approx(hi, abs=1e-4)
    assert stats.Z95 == pytest.approx(1.959963984540054)


def test_wilson_edges():
    lo, hi = stats.wilson(0, 100)
    assert lo == 0.0 and 0 < hi < 0.05
    lo, hi = stats.wilson(100, 100)
    assert hi == 1.0 and 0.95 < lo < 1
    assert all(math.isnan(v) for v in stats.wilson(0, 0))


def test_estimate_binary_and_continuous():
    e = stats.estimate(10, 8.0, 8.0, binary=True)
    assert e["mean"] == 0.8
    assert (e["ci_low"], e["ci_high"]) == stats.wilson(8, 10)
    e = stats.estimate(4, 2.0, 2.0, binary=False)
    assert e["ci_low"] == pytest.approx(0.5 - stats.Z95 * math.sqrt(1 / 12))
    assert stats.half_width(e) == pytest.approx(stats.Z95 * math.sqrt(1 / 12))
    e = stats.estimate(1, 1.0, 1.0, binary=False)
    assert math.isnan(e["ci_low"]) and math.isnan(e["ci_high"])


def test_paired_difference():
    counts = np.array([10, 10, 10, 10, 10, 10, 10, 10])
    a = np.array([5, 6, 4, 5, 7, 3, 5, 5], float)
    b = np.array([4, 5, 4, 3, 6, 3, 4, 3], float)
    d = stats.paired_difference(counts, a, b)
    dm = (a - b) / counts  # chunk means of the difference
    assert d["mean"] == pytest.approx((a - b).sum() / counts.sum())
    # equal chunk sizes: se is the standard error of the chunk means' mean
    assert d["se"] == pytest.approx(dm.std(ddof=1) / math.sqrt(len(dm)))
    assert d["ci_low"] == pytest.approx(d["mean"] - stats.Z95 * d["se"])
    assert d["ci_high"] == pytest.approx(d["mean"] + stats.Z95 * d["se"])
    # fewer than 8 chunks: a mean but no standard error
    few = stats.paired_difference(counts[:7], a[:7], b[:7])
    assert few["mean"] == pytest.approx((a[:7] - b[:7]).sum() / 70)
    assert math.isnan(few["se"]) and math.isnan(few["ci_low"])
    # the same deals on both sides: zero difference, zero error
    same = stats.paired_difference(counts, a, a)
    assert same["mean"] == 0 and same["se"] == 0
    # unequal chunk sizes weight by deals
    w = stats.paired_difference([100, 1] + [10] * 6, [50, 1] + [5] * 6, [0, 0] + [5] * 6)
    assert w["mean"] == pytest.approx(51 / 161)
