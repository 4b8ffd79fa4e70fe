"""Gin rummy: meld search against brute force, layoffs against a plain reference, the text's
worked scoring example, hand-by-hand replays of the engine against the rules, and open-spiel."""
from __future__ import annotations

import json
import pathlib
import zlib

from tests import gin_bruteforce as BF
from tests import gin_reference as G
import numpy as np
import pytest

from simkit.analysis.simulate import run, sweep
from simkit.core import cards as C
from simkit.core.registry import parse_strategy
from simkit.games import parse_game
from simkit.errors import SimkitError
from simkit.games import gin
from simkit.engines.melds import onedeck as M

ROOT = pathlib.Path(__file__).resolve().parents[1]


# ---- the meld search ---------------------------------------------------------------------------

def test_deadwood_examples_worked_by_hand():
    assert gin.deadwood("As 2s 3s 7d 7h 7c Kd Qd Jd 5c") == 5          # the example
    assert gin.deadwood("As 2s 3s 4s 7d 7h 7c 7s Kd Qd") == 20         # KQ unmatched
    assert gin.deadwood("As 2s 3s 4s 7d 7h 7c 7s Kd Qd 5c") == 15      # 11 cards: throw Kd
    assert gin.deadwood("As 2s 3s 4s 7d 7h 7c 7s Kd Qd 5c", discard=False) == 25
    assert gin.deadwood("Qs Ks As 2c 3d 4h 5s 6c 8d 9h") == 1 + 2 + 3 + 4 + 5 + 6 + 8 + 9 + 20  # no Q-K-A
    assert gin.deadwood("7s 7h 7d 7c 8c 9c 5d 5h 5s 2c") == 2          # 7c in the run, three 7s
    assert gin.deadwood("Ts Js Qs Ks 9s 8s 7s 6s 5s 4s") == 0          # ten in a row
    m = gin.melds("As 2s 3s 7d 7h 7c Kd Qd Jd 5c")
    assert m["deadwood"] == 5 and m["deadwood_cards"] == "5c"
    assert sorted(m["melds"]) == ["7c 7d 7h", "As 2s 3s", "Jd Qd Kd"]


def test_deadwood_bad_hands():
    for bad in ("As 2s 3s", "As As 2s 3s 4s 5s 6s 7s 8s 9s", "As 2s 3s 4s 5s 6s 7s 8s 9s Jo"):
        with pytest.raises(SimkitError):
            gin.deadwood(bad)


def _compare(hands, discard):
    masks = np.array([int(M.gin_mask(h)) for h in hands], np.uint64)
    ref = BF.reference_values(hands, discard)
    got = np.array([M.best_discard(m, M.U0)[0] if discard else M.min_deadwood(m) for m in masks])
    return int((ref != got).sum())


@pytest.mark.parametrize("k,dense", [(10, False), (11, False), (10, True), (11, True)])
def test_min_deadwood_equals_brute_force(k, dense):
    """20,000 hands per case (uniform and meld-dense), zero mismatches."""
    hands = BF.hands_from_rng(np.random.default_rng(100 + k + 7 * dense), 20_000, k, dense)
    assert _compare(hands, discard=(k == 11)) == 0


@pytest.mark.slow
def test_min_deadwood_equals_brute_force_on_a_million_hands():
    rng = np.random.default_rng(2024)
    bad = 0
    for k, dense in [(10, False), (11, False), (10, True), (11, True)]:
        hands = BF.hands_from_rng(rng, 250_000, k, dense)
        bad += _compare(hands, discard=(k == 11))
    assert bad == 0


def _dense_deal(rng):
    lo = int(rng.integers(1, 8))
    ranks = [14 if r == 1 else r for r in range(lo, lo + 6)]
    pool = np.array([s * 16 + r for s in range(4) for r in ranks])
    p = rng.permutation(pool)
    return p[:10], p[10:20]


@pytest.mark.parametrize("seed,count", [(1, 40), pytest.param(2, 400, marks=pytest.mark.slow)])
def test_layoffs_equal_the_plain_reference(seed, count):
    rng = np.random.default_rng(seed)
    with_layoffs = 0
    for _ in range(count):
        k, d = _dense_deal(rng)
        got = gin.knock(k, d)
        ref = G.knock(G.from_codes(k), G.from_codes(d))
        assert (got["knocker"], got["defender"]) == ref, (C.format_cards(k), C.format_cards(d))
        with_layoffs += ref[1] < G.min_deadwood(G.from_codes(d))
    assert with_layoffs > count // 4          # the cases do exercise layoffs


def _kdg(knocker, defender, **kw):
    r = gin.knock(knocker, defender, **kw)
    return {k: r[k] for k in ("knocker", "defender", "gin")}


def test_layoff_examples_worked_by_hand():
    # knocker: As 2s 3s | 7c 7d 7h | Jd Qd Kd, deadwood 5c.  Defender lays 4s 5s on the spade
    # run and 7s on the sevens; 2d 3d 4d is his run; 9c 9h Kc Kh = 38 remain.
    r = _kdg("As 2s 3s 7d 7h 7c Kd Qd Jd 5c", "4s 5s 7s 9c 9h 2d 3d 4d Kc Kh")
    assert r == {"knocker": 5, "defender": 38, "gin": False}
    # a gin knocker allows no layoffs: the defender's 4s 5s stay deadwood
    r = _kdg("As 2s 3s 7d 7h 7c Jd Qd Kd 10d", "4s 5s 9c 9h 2d 3d 4d Kc Kh 8c")
    assert r == {"knocker": 0, "defender": 4 + 5 + 18 + 20 + 8, "gin": True}
    # a chain: 9h then 10h extend the knocker's 6h 7h 8h only together with the 9h
    r = _kdg("6h 7h 8h As Ac Ad 2s 2c 2d 3c", "9h 10h Kc Ks Qd Jd 5c 5s 4d 4s")
    assert r == {"knocker": 3, "defender": 10 + 10 + 10 + 10 + 5 + 5 + 4 + 4, "gin": False}
    r = gin.knock("6h 7h 8h As Ac Ad 2s 2c 2d 3c", "10h Kc Ks Qd Jd 5c 5s 4d 4s 3s")
    assert r["defender"] == 10 * 5 + 5 + 4    # 10h alone cannot go on; 3s 4s 5s is his run



def test_a_knocker_may_block_layoffs():
    """The issue's example: laying A-2-3-4 of spades lets the defender lay off 5-6 of spades
    (64 points); laying A-2-3 and keeping the 4 as deadwood blocks them (71)."""
    k, d = "As 2s 3s 4s 7h 7d 7c Ah 2d 3c", "5s 6s Qh Qc Jh Jc 9h 9c 8d 4d"
    plain, block = gin.knock(k, d), gin.knock(k, d, block=True)
    assert (plain["knocker"], plain["defender"], plain["points"]) == (6, 70, 64)
    assert (block["knocker"], block["defender"], block["points"]) == (10, 81, 71)
    assert sorted(block["melds"]) == ["7c 7d 7h", "As 2s 3s"] and "4s" in block["deadwood_cards"]
    assert G.knock_block(G.from_codes(C.parse(k)), G.from_codes(C.parse(d))) == (71, 10)
    # the limit bounds the choice: with knock_limit=6 the 4 cannot be kept out
    assert gin.knock(k, d, block=True, rules="gin(knock_limit=6)")["points"] == 64
    # a gin hand is laid down as gin; a hand over the limit cannot knock
    assert gin.knock("As 2s 3s 7d 7h 7c Jd Qd Kd 10d", "4s 5s 9c 9h 2d 3d 4d Kc Kh 8c",
                     block=True)["outcome"] == "gin"
    with pytest.raises(SimkitError, match="knock limit"):
        gin.knock("As 2s 3s 7d 7h 7c Qd Jd Kc 8c", d, block=True)


def _code(rank, suit):
    return suit * 16 + (14 if rank == 1 else rank)


def _blocking_deal(rng):
    """A knocker with a run of 4-6 cards and low cards, a defender holding (some of) the cards
    that extend the run: deals where blocking can pay."""
    s, n = int(rng.integers(4)), int(rng.integers(4, 7))
    a = int(rng.integers(1, 15 - n))
    run = [_code(a + i, s) for i in range(n)]
    ext = [_code(r, s) for r in (a - 2, a - 1, a + n, a + n + 1) if 1 <= r <= 13 and rng.random() < 0.6]
    rest = [int(c) for c in C.deck(52) if c not in run and c not in ext]
    low = [c for c in rest if (c & 15) in (14, 2, 3, 4, 5, 6)]
    pick = [int(c) for c in rng.choice(low, 10 - n, replace=False)]
    others = [c for c in rest if c not in pick]
    return run + pick, ext + [int(c) for c in rng.choice(others, 10 - len(ext), replace=False)]


@pytest.mark.parametrize("seed,count", [(1, 80), pytest.param(2, 1000, marks=pytest.mark.slow)])
def test_blocking_equals_the_brute_force(seed, count):
    """knock(block=True) against every arrangement within the limit (tests/gin_reference.py),
    on deals built to make blocking pay and on meld-dense deals: same points, same deadwood."""
    rng = np.random.default_rng(seed)
    done = gains = 0
    while done < count:
        k, d = _blocking_deal(rng) if done % 2 == 0 else _dense_deal(rng)
        if gin.deadwood(k) > 10:
            continue
        done += 1
        got, plain = gin.knock(k, d, block=True), gin.knock(k, d)
        ref = G.knock_block(G.from_codes(k), G.from_codes(d))
        assert (got["points"], got["knocker"]) == ref, (C.format_cards(k), C.format_cards(d))
        assert got["points"] >= plain["points"]
        gains += got["points"] > plain["points"]
    assert gains >= count // 40               # the cases do exercise blocking

# ---- scoring: the text's worked example (003: lines 20-33) -------------------------------------

EXAMPLE = [(0, 6, 19),      # 1: you knock at 6, he has 19: you score 13
           (1, 0, 24),      # 2: he goes gin, you have 24: he scores 24 + 25 = 49
           (1, 8, 9),       # 3: he knocks at 8, you have 9: he scores 1 (50)
           (0, 10, 27),     # 4: you knock at 10, he has 27: you score 17 (30)
           (1, 4, 4),       # 5: he knocks at 4, you also have 4: 25 for your undercut (55)
           (0, 7, 39),      # 6: you knock at 7, he has 39: 32 (87)
           (0, 0, 6)]       # 7: you go gin, he has 6: 31 (118), game


def test_the_texts_worked_example_scores_exactly():
    running = [gin.score_game(EXAMPLE[:i + 1])["points"] for i in range(len(EXAMPLE))]
    assert [p[0] for p in running] == [13, 13, 13, 30, 55, 87, 118]   # the table's ВЫ column
    assert [p[1] for p in running] == [0, 49, 50, 50, 50, 50, 50]     # and ОН
    g = gin.score_game(EXAMPLE)
    assert g["winner"] == 0 and g["wins"] == [5, 2] and not g["shutout"]
    assert g["totals"][0] - 25 * g["wins"][1] == 293                  # 118 + 75 boxes + 100
    assert g["totals"][1] - 25 * g["wins"][1] == 50
    assert g["net"] == 243


def test_shutout_and_rule_switches():
    hands = [(0, 0, 60), (0, 0, 30)]          # two gins: 85 + 55 = 140, opponent won nothing
    g = gin.score_game(hands)
    assert g["shutout"] and g["totals"] == {0: 2 * (140 + 100) + 50, 1: 0} and g["net"] == 530
    g = gin.score_game(hands, "gin(shutout_boxes=true)")
    assert g["totals"][0] == 2 * (140 + 100) + 100
    g = gin.score_game(hands, "gin(preset=eaai)")
    assert g["totals"] == {0: 140, 1: 0}
    assert gin.score_game([(1, 4, 4)], "gin(preset=gra,target=1)")["winner"] is None  # equal: 0
    assert gin.score_game([(1, 4, 4)], "gin(target=1)")["winner"] == 0                 # undercut
    with pytest.raises(SimkitError):
        gin.score_game([(0, 11, 30)])



def test_score_game_stops_at_the_target():
    """The first to reach the target wins (line 15); a hand after that is refused."""
    g = gin.score_game([(1, 0, 90)])                   # player 1's gin: 25 + 90 = 115
    assert g["winner"] == 1 and g["points"] == [0, 115] and g["wins"] == [0, 1]
    assert g["shutout"] and g["net"] == 2 * (115 + 100) + 25
    for later in ([(1, 0, 90), (0, 0, 100)], [(1, 0, 90), None]):
        with pytest.raises(SimkitError, match="hand 2 comes after the game ended"):
            gin.score_game(later)
    # the worked example ends exactly at its seventh hand: an eighth is refused
    with pytest.raises(SimkitError, match="hand 8"):
        gin.score_game(EXAMPLE + [(1, 5, 20)])
    assert gin.score_game([(0, 0, 80)], "gin(target=200)")["winner"] is None

# ---- the engine, replayed hand by hand against the rules ---------------------------------------

def _dw(cards) -> int:
    r, s = BF.split(sorted(cards))
    return int(BF.deadwood(r, s))


def _replay(rules, deck, strategies, res, log):
    """Check one logged hand against the rules (plain Python, reference deadwood)."""
    nd, dealer = 0, 1
    hands = [set(), set()]
    for i in range(20):
        hands[nd if i % 2 == 0 else dealer].add(int(deck[i]))
    top = int(deck[20])
    stock = [int(c) for c in deck[21:]]
    gone = set()
    rows = list(log.itertuples())
    assert len(rows) == res["turns"]
    expect = None
    for t, row in enumerate(rows):
        q = int(row.seat)
        drawn = int(C.parse(row.drawn)[0])
        disc = int(C.parse(row.discarded)[0])
        if t == 0:
            assert q == nd or (q == dealer and row.source == "pile")
        elif t == 1 and rows[0].seat == dealer:
            assert q == nd
        else:
            assert q == 1 - int(rows[t - 1].seat)
        if t > 0:
            assert len(stock) > rules.dead_stock          # else the hand was already dead
        if row.source == "pile":
            assert drawn == top
            top = None
        else:
            assert drawn == stock.pop(0)
            if top is not None:
                gone.add(top)
        assert drawn not in hands[q] and drawn not in hands[1 - q]
        before = set(hands[q])
        strat = strategies[q]
        if strat == "simple" and row.source == "pile":      # it took: the card lowered deadwood
            assert min(_dw((before | {drawn}) - {c}) for c in before) < _dw(before)
        hands[q].add(drawn)
        assert disc in hands[q]
        if row.source == "pile" and not rules.discard_taken:
            assert disc != drawn
        if strat == "simple":
            after = _dw(hands[q] - {disc})
            best = min(_dw(hands[q] - {c}) for c in hands[q]
                       if rules.discard_taken or row.source != "pile" or c != drawn)
            assert after == best                          # a least-deadwood discard
        hands[q].discard(disc)
        if row.knock:
            assert t == len(rows) - 1
            dk, dd = G.knock(G.from_codes(hands[q]), G.from_codes(hands[1 - q]))
            assert dk <= rules.knock_limit
            if dk == 0:
                expect = ("gin", q, q, rules.gin_bonus + dd)
            elif dd < dk or (dd == dk and rules.undercut_on_equal):
                expect = ("undercut", q, 1 - q, dk - dd + rules.undercut_bonus)
            else:
                expect = ("knock", q, q if dd > dk else -1, dd - dk)
        else:
            top = disc
    if expect is None:
        assert res["outcome"] == "dead" and len(stock) <= rules.dead_stock
    else:
        assert (res["outcome"], res["knocker"], res["winner"], res["points"]) == expect
    return res["outcome"]


@pytest.mark.parametrize("game,strats", [
    ("gin", ["p1=simple", "p2=simple"]),
    ("gin(preset=gra)", ["p1=simple", "p2=tracker(8,3)"]),
    ("gin(knock_limit=5,dead_stock=6)", ["p1=careful(10,1,2)", "p2=schedule(10,0)"]),
    ("gin", ["p1=random(0.5,0.3)", "p2=threshold(0)"]),
    ("gin(discard_taken=true,undercut_on_equal=false)", ["p1=random(0.8,1)", "p2=random(0.2,1)"]),
])
@pytest.mark.parametrize("hands", [10, pytest.param(60, marks=pytest.mark.slow)])
def test_hands_replay_legally_and_score_by_the_rules(game, strats, hands):
    rules = parse_game(game)[1]
    rng = np.random.default_rng(zlib.crc32((game + strats[0]).encode()))
    full = C.deck(52)
    outcomes = set()
    names = [s.split("=")[1].split("(")[0] for s in strats]
    for i in range(hands):
        deck = rng.permutation(full)
        res, log = gin.hand_log(rules, strats, cards=deck)
        outcomes.add(_replay(rules, deck, names, res, log))
    assert outcomes <= {"dead", "knock", "undercut", "gin"}


def test_same_seed_same_numbers_and_duplicate_symmetry():
    a = run("gin", n=2000, seed=5, progress=False).table()
    b = run("gin", n=2000, seed=5, progress=False).table()
    assert a["mean"].tolist() == b["mean"].tolist()
    # equal strategies on swapped seats: every deal's net points cancel exactly
    r = run("gin", n=500, seed=5, rows=True, progress=False)
    assert (r.rows["p1_points"] == 0).all()


def test_strategies_differ_and_sweep_over_knock():
    res = sweep("gin", grid=["p1.knock=0,5,10"], n=4000, seed=2, strategies=["p2=threshold(10)"],
                progress=False)
    w = res.wide().set_index("p1.knock")
    assert w.loc[0, "p1_gin"] > w.loc[10, "p1_gin"]           # gin-only waits for gin
    assert w.loc[10, "p1_points"] == 0                        # p1 plays as p2: exactly even
    e0, e10 = res.estimates(0)["p1_points"], res.estimates(2)["p1_points"]
    assert abs(e0["mean"] - e10["mean"]) > 4 * np.hypot(e0["se"], e10["se"])   # they differ



def test_the_default_player_beats_the_greedy_one():
    """threshold(10) takes from the pile only to meld or knock (line 44); it beats
    threshold(10, greedy=1), i.e. simple, by more than 4 standard errors (measured with
    scripts/gin_baseline.py: +0.90 +- 0.02 points per hand, n = 200,000 deals)."""
    spec = parse_game("gin")[0]
    assert parse_strategy(spec, spec.default_strategy).values == dict(knock=10, greedy=0, block=0)
    e = run("gin", n=6000, seed=8, strategies=["p2=simple"], progress=False).estimates()["p1_points"]
    assert e["mean"] > 4 * e["se"] and 0.5 < e["mean"] < 1.3, e


def test_blocking_never_costs_the_knocker_a_point():
    """Same deals, p1 with and without block: the hands are the same up to the knock, so p1's
    points per deal never drop and sometimes rise."""
    res = sweep("gin", grid=["p1.block=0,1"], n=3000, seed=4, strategies=["p2=simple"],
                rows=True, progress=False)
    r = res.rows
    c0, c1 = list(dict.fromkeys(r["config"]))
    d = r[r["config"] == c1]["p1_points"].to_numpy() - r[r["config"] == c0]["p1_points"].to_numpy()
    assert (d >= 0).all() and (d > 0).sum() >= 5


def test_players_who_always_take_the_discard_end_at_max_turns():
    e = run("gin(max_turns=50)", n=20, seed=1, progress=False,
            strategies=["p1=random(1,0)", "p2=random(1,0)"]).estimates()
    assert e["dead"]["mean"] == 1 and e["turns"]["mean"] == 50


def test_stacked_decks_are_checked():
    for bad, what in (("As As 2s", "appears 2 times"), ("As 2s Jo", "not in the 52-card pack")):
        with pytest.raises(SimkitError, match=what):
            gin.play_stacked("gin", None, bad)
        with pytest.raises(SimkitError, match=what):
            gin.hand_log("gin", None, cards=bad)
    with pytest.raises(SimkitError, match="single hands"):
        gin.play_stacked("gin(unit=match)", None, "As 2s 3s")
    m = gin.play_stacked("gin(swap=false)", ["p1=simple", "p2=simple"], C.deck(52))
    res, log = gin.hand_log("gin", ["p1=simple", "p2=simple"], cards=C.deck(52))
    assert m["turns"] == res["turns"] == len(log)
    assert m["p1_points"] == (res["points"] if res["winner"] == 0 else -res["points"]
                              if res["winner"] == 1 else 0)


def test_hand_log_is_the_runners_first_deal_and_the_playthrough():
    from simkit.core import play
    strats = ["p1=simple", "p2=threshold(0)"]
    for seed in (1, 2, 3):
        res, log = gin.hand_log("gin", strats, seed=seed)
        row = run("gin(swap=false)", n=1, seed=seed, rows=True, progress=False,
                  strategies=strats).rows.iloc[0]
        assert row["turns"] == res["turns"] == len(log)
        signed = {0: res["points"], 1: -res["points"], -1: 0}[res["winner"]]
        assert row["p1_points"] == signed
    spec, rules = parse_game("gin")
    pt = play.playthrough(spec, rules, None, seed=1)
    # the playthrough drops the row's trailing -1 padding (room for max_turns turns)
    assert len(pt["log"]) == len(pt["log_columns"]) <= len(gin.engine.log_columns(rules))
    assert pt["log_columns"] == gin.engine.log_columns(rules)[:len(pt["log"])]
    w = gin.engine.hand_width(rules.max_turns)
    log = pt["log"] + [-1] * (2 * w - len(pt["log"]))
    turns = [gin.replay.hand_events(log[h * w:(h + 1) * w])[0]["turns"] for h in (0, 1)]
    assert pt["metrics"]["turns"] == sum(turns) / 2


def test_hand_log_seats_the_dealer_and_the_flip():
    """Dealer 0 with (a, b) is dealer 1 with (b, a), seats relabelled; flip=1 swaps a and b."""
    deck = np.random.default_rng(5).permutation(C.deck(52))
    a, b = "p1=simple", "p2=threshold(3)"
    r1, l1 = gin.hand_log("gin", [a, b], cards=deck, dealer=0)
    r2, l2 = gin.hand_log("gin", ["p1=threshold(3)", "p2=simple"], cards=deck, dealer=1)
    r3, l3 = gin.hand_log("gin", ["p1=threshold(3)", "p2=simple"], cards=deck, dealer=0, flip=1)
    assert r1 == r3 and l1.equals(l3)
    assert r1["points"] == r2["points"] and r1["outcome"] == r2["outcome"]
    assert (l1["seat"] == 1 - l2["seat"]).all() and (l1["drawn"] == l2["drawn"]).all()

def test_match_unit_ratios_agree_with_the_hand_unit():
    """Per-hand rates inside games (ratios over the games' hands) against single hands: same
    strategies on both seats, so the hands are alike whoever deals.  Tolerance 4.5 combined SE."""
    m = run("gin(unit=match)", n=1500, seed=3, progress=False).estimates()
    h = run("gin", n=20_000, seed=4, progress=False).estimates()
    for k in ("gin", "undercut", "turns", "p1_win"):
        z = (m[k]["mean"] - h[k]["mean"]) / np.hypot(m[k]["se"], h[k]["se"])
        assert abs(z) < 4.5, (k, m[k], h[k])
    assert abs(m["p1_match_win"]["mean"] + m["p2_match_win"]["mean"] + m["unfinished"]["mean"] - 1) < 1e-12
    assert m["hands"]["mean"] > 3


def test_cli_sweep_json(capsys):
    from simkit.cli import main
    rc = main(["sweep", "gin", "--grid", "p1.knock=0..2", "-s", "p2=simple", "-n", "300",
               "--format", "json", "--seed", "1"])
    assert rc == 0
    objs = json.loads(capsys.readouterr().out)
    assert [o["grid"]["p1.knock"] for o in objs] == [0, 1, 2]
    assert {"p1_points", "p1_win", "gin", "undercut"} <= set(objs[0]["metrics"])
    assert main(["run", "gin", "-s", "p1=threshold(11)"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "threshold.knock=11 is out of range" in err


# ---- open-spiel -------------------------------------------------------------------------------

def _openspiel():
    pytest.importorskip("pyspiel")
    from simkit.peers import openspiel_gin
    return openspiel_gin


def test_deadwood_equals_openspiel():
    OS = _openspiel()
    rng = np.random.default_rng(9)
    for k, dense in [(10, False), (10, True), (11, False), (11, True)]:
        for h in BF.hands_from_rng(rng, 300, k, dense):
            if k == 10:
                assert gin.deadwood(h) == OS.min_deadwood(h)
            else:
                assert gin.deadwood(h, discard=False) == OS.min_deadwood_raw(h)
                assert gin.deadwood(h) == OS.min_deadwood_after_discard(h)


@pytest.mark.slow
def test_simple_play_matches_openspiels_simple_bot():
    """Under ``gra`` with open-spiel's take rule (``greedy=0``), hand length (cards drawn) and
    gin rate agree with open-spiel's simple bot within 4 combined standard errors
    (open-spiel: 1500 hands; simkit: 20,000 deals of two hands)."""
    OS = _openspiel()
    theirs = OS.simple_bot_stats(1500, seed=11)
    ours = run("gin(preset=gra)", n=20_000, seed=11, progress=False,
               strategies=["p1=threshold(10,0)", "p2=threshold(10,0)"]).estimates()
    for (mean, se), b in (((theirs["draws_mean"], theirs["draws_se"]), "turns"),
                          ((theirs["gin_rate"], theirs["gin_rate_se"]), "gin")):
        z = (ours[b]["mean"] - mean) / np.hypot(ours[b]["se"], se)
        assert abs(z) < 4, (b, mean, se, ours[b])


def test_best_replies_read_the_matrix():
    from simkit.analysis.studies import gin_knock as study
    res = study.matrix(n=600, seed=1, knocks=(0, 10), progress=False)
    br = study.best_replies(res).set_index("p2.knock")
    for b in (0, 10):
        means = {a: res.estimates(i)["p1_points"]["mean"] for i, pt in enumerate(res.points)
                 for a in [pt["p1.knock"]] if pt["p2.knock"] == b}
        assert br.loc[b, "best_p1.knock"] == max(means, key=means.get)
        assert br.loc[b, "margin"] == pytest.approx(abs(means[0] - means[10]))


def test_ratio_estimate_against_a_jackknife():
    """The delta-method SE of sum(x)/sum(d) agrees with a delete-one jackknife within 5%."""
    from simkit.core.stats import ratio_estimate
    rng = np.random.default_rng(0)
    d = rng.integers(3, 15, 4000).astype(float)
    x = d * rng.normal(1.5, 2.0, 4000) + rng.normal(0, 3, 4000)
    e = ratio_estimate(len(x), x.sum(), (x * x).sum(), d.sum(), (d * d).sum(), (x * d).sum())
    assert e["mean"] == pytest.approx(x.sum() / d.sum())
    jk = (x.sum() - x) / (d.sum() - d)
    se_jk = np.sqrt((len(x) - 1) / len(x) * ((jk - jk.mean()) ** 2).sum())
    assert e["se"] == pytest.approx(se_jk, rel=0.05)


def test_the_move_log_holds_the_longest_hand():
    """A hand stops at ``max_turns``: its block of events holds ``HAND``, both events of every
    turn, ``END`` and ``SCORE``.  Gin-only players with ``max_turns=10`` reach the cap; every
    block is read back whole (its turns are the metric's, it ends with ``END`` or ``SCORE``)."""
    from simkit.core import play
    from simkit.engines.moves import split_event
    spec, rules = parse_game("gin(max_turns=10)")
    w = gin.engine.hand_width(10)
    capped = 0
    for seed in range(1, 21):
        pt = play.playthrough(spec, rules, ["p1=threshold(0)", "p2=threshold(0)"], seed=seed)
        log = pt["log"] + [-1] * (2 * w - len(pt["log"]))
        turns = 0
        for h in (0, 1):
            block = log[h * w:(h + 1) * w]
            head, _ = gin.replay.hand_events(block)
            kinds = [split_event(e)[0] for e in block if e >= 0]
            assert kinds[0] == gin.engine.E_HAND and gin.engine.E_END in kinds[-2:]
            assert len(kinds) == 1 + 2 * head["turns"] + 1 + (head["winner"] >= 0)
            turns += head["turns"]
            capped += head["turns"] == 10
        assert pt["metrics"]["turns"] == turns / 2
    assert capped > 0
