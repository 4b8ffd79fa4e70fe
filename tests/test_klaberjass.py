"""Klaberjass for two against things it did not write: the text's card table, its declaration
examples (lines 68-80), stacked deals worked out by hand, and every logged deal of many random and
heuristic games replayed by an independent plain-Python reading of the text
(``klaberjass_reference.py``): each card dealt once, each move legal, the points adding up, the
bait / hanging bait / long-game accounting.

Hand-worked deals use the heuristic player, which is deterministic; each trace is written out in
the test's comment, trick by trick.
"""
from __future__ import annotations

import numpy as np
import pytest

from tests import klaberjass_reference as ref  # noqa: E402

import simkit  # noqa: E402
from simkit.core import cards as C  # noqa: E402
from simkit.core import play as core_play  # noqa: E402
from simkit.core.registry import parse_strategies  # noqa: E402
from simkit.games import parse_game  # noqa: E402
from simkit.errors import SimkitError  # noqa: E402
from simkit.games.klaberjass import deal_log, engine, play_logged, play_stacked  # noqa: E402

SPEC, BASE = parse_game("klaberjass")


def stack(first6, other6, up, first3, other3, bottom):
    """One deal's 20 cards in dealing order (three at a time, line 34; three more, line 50)."""
    a, b, a3, b3 = first6.split(), other6.split(), first3.split(), other3.split()
    return a[:3] + b[:3] + a[3:] + b[3:] + [up] + a3 + b3 + [bottom]


def play(cards, strategies=(), start=None, log=False, **rules):
    r = BASE.replace(**rules)
    return play_stacked(r, list(strategies), " ".join(cards), start=start, log=log)


def nonzero(res):
    return {k: v for k, v in res.items() if v}


# S1: p1 (first word, bids clubs at once with t1=0) holds 7..A of diamonds and 7s; p2 holds 7..A of
# hearts and As; upcard 7c, bottom 8c, nobody holds a club.  Both have an 8-card run: equal length
# (fifty), equal top (ace), both plain -> the one declared first (p1, line 76) counts 50.
# Play (p1 cannot count a card of his as sure: unseen clubs could ruff): 1. 7d 7h p1 (0);
# 2. 7s As p2 (11); p2 then leads his hearts cheapest first, p1 throws diamonds cheapest first:
# 8h 8d, 9h 9d, Jh Jd (4), Qh Qd (6), Kh Kd (8), 10h 10d (20), Ah Ad (22 + 10 last).
# p1: 0 + 50 = 50, p2: 81 -> bait (line 106): the bidder pays two stakes.
S1 = stack("7d 8d 9d 10d Jd Qd", "7h 8h 9h 10h Jh Qh", "7c", "Kd Ad 7s", "Kh Ah As", "8c")

# S2: p1 holds 7c 9c Ac 10c Kc Qc (+ Ad Kd 7d), the upcard is Jc, bottom 8c; p2 holds 7..A of
# hearts and 7s.  Bid strength of p1 (the seven counts as the upcard): trumps 20+14+11+10+4+3 = 62,
# +60 for six trumps, run 9..A = 50, bella 20: 192.  p1 exchanges 7c for Jc (line 52) and holds
# J 9 A 10 K Q of trumps: run 9-A (fifty, trump) beats p2's 7-A of hearts (equal length and top,
# line 74) -> 50, plus bella 20.  Play: p1 leads sure cards highest first, p2 throws cheapest:
# Jc 7h (20), 9c 7s (14), Ad 8h (11), Ac 9h (11), 10c Jh (12), Kc Qh (7), Qc Kh (7),
# then 7d 10h (10; p2 cannot follow or trump), Kd Ah (15 + 10 last): p1 117 cards, 187 in all.
S2 = stack("7c 9c Ac 10c Kc Qc", "7h 8h 9h 10h Jh Qh", "Jc", "Ad Kd 7d", "Kh Ah 7s", "8c")

# P: a deal both pass (upcard 8h): p1 7c 8c 7d 8d 7s 8s (strength 0 in hearts, 20 in any other
# suit), p2 7h 9c 9d 9s Qd Jh (hearts: 7h 0+10, Jh 20+10, Qd 3 = 43 < 55; clubs 14+10+3+2 = 29,
# diamonds 14+10+3+10+2 = 39, spades 29, all < 65): redeal, the first word goes to p2 (line 48).
P = stack("7c 8c 7d 8d 7s 8s", "7h 9c 9d 9s Qd Jh", "8h", "Ac Kc Qc", "Ah Kh Qh", "Ad")


# --------------------------------------------------------------------------- the text's tables

def test_card_values_and_orders_are_the_texts():
    strength, points = engine.tables()
    # line 3 (trump) and line 4 (plain), strongest first
    assert sorted(range(7, 15), key=lambda r: -strength[1, r]) == [11, 9, 14, 10, 13, 12, 8, 7]
    assert sorted(range(7, 15), key=lambda r: -strength[0, r]) == [14, 10, 13, 12, 11, 9, 8, 7]
    for r in range(7, 15):
        assert points[1, r] == ref.TRUMP_POINTS[r] and points[0, r] == ref.PLAIN_POINTS[r]
    deck = sum(points[1, r] for r in range(7, 15)) + 3 * sum(points[0, r] for r in range(7, 15))
    assert deck == 152 and deck + engine.LAST_TRICK == 162


# --------------------------------------------------------------------------- declarations

def mask(text):
    return np.uint64(C.mask(C.parse(text)))


def engine_counts(h0, h1, trump, first=0, split=False):
    """Engine: counted run points of both hands (both declaring)."""
    k0, v0 = engine.sequences(mask(h0), trump, split)
    k1, v1 = engine.sequences(mask(h1), trump, split)
    w = engine.compare_sequences(k0, k1, first)
    return [v0 if w == 0 else 0, v1 if w == 1 else 0]


def reference_counts(h0, h1, trump, first=0, split=False):
    hands = [{ref.from_code(c) for c in C.parse(h)} for h in (h0, h1)]
    return ref.combos(hands, [1, 1], [0, 0], trump, first, split)


HEARTS, SPADES, CLUBS = 2, 3, 0
DECLARATION_CASES = [
    # (line, hand 0, hand 1, trump, first, expected points)
    ("70: a fifty beats a terz, even a higher one", "7d 8d 9d 10d", "Qs Ks As", HEARTS, 0, [50, 0]),
    ("72: equal length, the higher top card", "8d 9d 10d", "9s 10s Js", HEARTS, 0, [0, 20]),
    ("72: the order is A K Q J 10 9 8 7 (line 78)", "Jd Qd Kd", "8s 9s 10s Js", HEARTS, 0, [0, 50]),
    ("74: equal length and top, the trump one", "8d 9d 10d", "8h 9h 10h", HEARTS, 0, [0, 20]),
    ("74: ... whoever declared first", "8d 9d 10d", "8h 9h 10h", HEARTS, 1, [0, 20]),
    ("76: both plain and equal, the one declared first", "8d 9d 10d", "8s 9s 10s", HEARTS, 0,
     [20, 0]),
    ("76: ... the other way round", "8d 9d 10d", "8s 9s 10s", HEARTS, 1, [0, 20]),
    ("80: two lower terzes lose to one higher terz", "7d 8d 9d 8s 9s 10s", "10h Jh Qh", CLUBS, 0,
     [0, 20]),
    ("80: the winner counts all his runs", "10h Jh Qh 7d 8d 9d", "8s 9s 10s", CLUBS, 1, [40, 0]),
    ("no run at all", "7d 9d Jd", "8s 10s Qs", CLUBS, 0, [0, 0]),
    ("one side only", "7d 9d Jd", "Qs Ks As", CLUBS, 0, [0, 20]),
]


@pytest.mark.parametrize("case", DECLARATION_CASES, ids=[c[0] for c in DECLARATION_CASES])
def test_declaration_comparison_examples_from_the_text(case):
    _, h0, h1, trump, first, want = case
    assert engine_counts(h0, h1, trump, first) == want
    assert reference_counts(h0, h1, trump, first) == want


def test_long_runs_reading():
    eight = "7d 8d 9d 10d Jd Qd Kd Ad"
    assert engine_counts(eight, "", HEARTS) == [50, 0]                  # one fifty (default)
    assert engine_counts(eight, "", HEARTS, split=True) == [100, 0]     # two fifties
    seven = "7d 8d 9d 10d Jd Qd Kd"
    assert engine_counts(seven, "", HEARTS, split=True) == [70, 0]      # a fifty and a terz
    assert reference_counts(seven, "", HEARTS, split=True) == [70, 0]
    # a five-run is a fifty: equal to a four-run with the same top, which the trump one beats
    assert engine_counts("9d 10d Jd Qd Kd", "10h Jh Qh Kh", HEARTS) == [0, 50]


def test_bella_counts_also_inside_a_run():
    # S2's p1 holds 9-A of trumps with K Q: fifty + bella (line 82)
    assert play(S2)["p1_combos"] == 70
    # not declaring (the heuristic with declare=0) counts nothing (line 82)
    res = play(S2, ["p1=heuristic(declare=0)"])
    assert res["p1_combos"] == 0 and res["p1_raw"] == 117


# --------------------------------------------------------------------------- hand-worked deals

def test_s1_bait_in_the_short_game():
    res = play(S1, ["p1=heuristic(t1=0)"])
    assert nonzero(res) == {
        "deals": 1, "bidder_strength": 65, "bidder_strength9": 80,
        "p1_raw": 50, "p2_raw": 81, "p1_combos": 50, "p1_bids": 1, "p1_baits": 1, "p2_win": 1,
        "p2_points": 131, "p1_stakes": -2, "p2_stakes": 2}


def test_s1_trick_by_trick():
    _, log = play(S1, ["p1=heuristic(t1=0)"], log=True)
    row = log.iloc[0]
    got = [(C.format_card(row[f"card{j}"]), int(row[f"seat{j}"])) for j in range(18)]
    tricks = [("7d", 0, "7h", 1), ("7s", 0, "As", 1), ("8h", 1, "8d", 0), ("9h", 1, "9d", 0),
              ("Jh", 1, "Jd", 0), ("Qh", 1, "Qd", 0), ("Kh", 1, "Kd", 0), ("Th", 1, "Td", 0),
              ("Ah", 1, "Ad", 0)]
    assert got == [x for a, sa, b, sb in tricks for x in ((a, sa), (b, sb))]


def test_s1_split_runs_make_the_bid():
    # long_runs=split: p1's eight diamonds are two fifties: 100 > 81, the bid is made
    res = play(S1, ["p1=heuristic(t1=0)"], long_runs="split")
    assert (res["p1_raw"], res["p2_raw"], res["p1_made"], res["p1_stakes"]) == (100, 81, 1, 1)


def test_s1_only_declared_runs_count():
    # p1 keeps quiet: p2's equal run is the only one declared, and counts (line 82)
    res = play(S1, ["p1=heuristic(t1=0,declare=0)"])
    assert (res["p1_raw"], res["p2_raw"], res["p2_combos"], res["p2_points"]) == (0, 131, 50, 131)


def test_s2_made_bid_with_exchange_and_bella():
    res = play(S2)
    assert nonzero(res) == {
        "deals": 1, "opener_win": 1, "exchanges": 1, "bidder_strength": 192,
        "bidder_strength9": 207, "p1_points": 187, "p1_raw": 187, "p1_combos": 70, "p1_bids": 1,
        "p1_made": 1, "p1_win": 1, "p1_stakes": 1, "p2_stakes": -1}
    _, log = play(S2, log=True)
    assert C.format_card(log["upcard"][0]) == "Jc" and log["exchanged"][0] == 0
    assert C.format_cards([log[f"card{j}"][0] for j in range(0, 18, 2)]) == \
        "Jc 9c Ad Ac Tc Kc Qc 7d Kd"


def test_no_exchange_when_the_rules_forbid_it():
    # without the exchange p1 keeps 7c; Jc stays on the table
    _, log = play(S2, exchange=False, log=True)
    assert log["exchanged"][0] == -1


def test_redeal_after_two_passes_moves_the_first_word():
    # deal 1 (P) is passed out; deal 2 is S2 dealt with p2 as the first word: p2 plays S2's p1 part
    res, log = play(P + S2, log=True)
    assert res["redeals"] == 1 and res["deals"] == 1
    assert log["opener"][0] == 1 and log["bidder"][0] == 1 and log["redeals"][0] == 1
    assert (res["p2_points"], res["p2_win"], res["opener_win"]) == (187, 1, 0)


def test_passing_until_the_stack_runs_out_is_unfinished():
    res = play(P + P, ["p1=heuristic(t1=300,t2=300)", "p2=heuristic(t1=300,t2=300)"])
    assert res["redeals"] == 2 and res["unfinished"] == 1 and res["p1_win"] == res["p2_win"] == 0


def test_max_redeals_ends_a_unit():
    r = BASE.replace(max_redeals=3)
    never = ["p1=heuristic(t1=300,t2=300)", "p2=heuristic(t1=300,t2=300)"]
    rows, log = play_logged(r, never, n=50, seed=3)
    assert (rows["redeals"] == 3).all() and (rows["unfinished"] == 1).all() and len(log) == 0


# --------------------------------------------------------------------------- long-game accounting

def test_long_game_score_reaches_the_target():
    # S2 gives p1 187: from 120 he reaches 307 >= 301 and wins; the claim never comes earlier
    # (sure points at trick k: 120 + 70 + points taken, at most 282 before the last trick)
    res = play(S2, start=(120, 0), form="301")
    assert res["p1_win"] == 1 and res["p1_points"] == 187 and res["p1_claims"] == 0
    # from 113 he ends on 300 and nobody has won; the stack has no second deal: unfinished
    res = play(S2, start=(113, 0), form="301")
    assert res["unfinished"] == 1 and res["p1_win"] == 0


def test_defender_is_counted_first():
    # S1 with split runs: the bidder p1 makes 100, the defender p2 81 (line 108's example: both
    # over the target, the defender wins)
    kw = dict(form="301", long_runs="split")
    s = ["p1=heuristic(t1=0,claim=0)", "p2=heuristic(claim=0)"]
    assert play(S1, s, start=(205, 220), **kw)["p2_win"] == 1      # 305 and 301: p2
    assert play(S1, s, start=(205, 219), **kw)["p1_win"] == 1      # 305 and 300: p1
    assert play(S1, s, start=(200, 219), **kw)["unfinished"] == 1  # 300 and 300


def test_bait_in_a_long_game_moves_the_bidders_points():
    res, log = play(S1, ["p1=heuristic(t1=0)"], start=(0, 0), form="501", log=True)
    assert (log["credit0"][0], log["credit1"][0]) == (0, 131)
    assert (log["score0"][0], log["score1"][0]) == (0, 131)


def test_hanging_bait_goes_to_the_next_deals_winner():
    # 40 points hang from an earlier tie (line 106).  S2: p1 wins the deal and takes them;
    # S1: the defender p2 wins it (bait) and takes them
    res, log = play(S2, start=(0, 0, 40), form="501", log=True)
    assert (log["credit0"][0], log["credit1"][0], log["pending"][0]) == (227, 0, 0)
    res, log = play(S1, ["p1=heuristic(t1=0)"], start=(0, 0, 40), form="501", log=True)
    assert (log["credit0"][0], log["credit1"][0], log["pending"][0]) == (0, 171, 0)
    assert ref.settle([50, 81], 0, "501", 40)[0] == [0, 171]


def test_hanging_bait_settlement_by_hand():
    # equal points: the defender keeps his, the bidder's hang (line 106); short game: one stake
    assert ref.settle([70, 70], 0, "501", 0) == ([0, 70], 70, 1, [-1, 1])
    assert ref.settle([70, 70], 1, "short", 0) == ([70, 0], 0, 0, [1, -1])
    # a hanging bait meets a tie again: the new deal's winner (the defender) takes the old one
    assert ref.settle([60, 60], 0, "501", 70) == ([0, 130], 60, 1, [-1, 1])


def test_partiya_claim():
    # from 200: at trick 3 p1 has 20 + 14 points and 70 in combinations: 304 >= 301, he claims
    res, log = play(S2, start=(200, 0), form="301", log=True)
    assert res["p1_claims"] == 1 and res["p1_win"] == 1 and res["p1_claims_lost"] == 0
    assert log["tricks"][0] == 2 and log["claim"][0] == 0 and log["claim_ok"][0] == 1
    # claiming 20 points early (margin=20) at trick 2 (200 + 20 + 70 = 290 < 301) loses the game
    res, log = play(S2, ["p1=heuristic(margin=20)"], start=(200, 0), form="301", log=True)
    assert res["p1_claims_lost"] == 1 and res["p2_win"] == 1 and log["tricks"][0] == 1
    # no claims: the deal is played out and p1 wins on the count (387)
    res = play(S2, ["p1=heuristic(claim=0)"], start=(200, 0), form="301")
    assert res["p1_claims"] == 0 and res["p1_win"] == 1 and res["p1_points"] == 187


def test_open_hand_bonus_starts_the_score():
    _, log = play(S2, form="501", open_hand="p2", open_bonus=155, log=True)
    assert (log["score0"][0], log["score1"][0]) == (187, 155)
    with pytest.raises(SimkitError, match="open_hand needs a long game"):
        BASE.replace(open_hand="p1")
    assert parse_game("klaberjass(preset=open160)")[1].open_bonus == 160


# --------------------------------------------------------------------------- every move, many deals

LOG_CASES = [
    ("short, random", dict(), ["p1=random", "p2=random(p=0.2,d=0.8)"], 20000),
    ("short, heuristic", dict(), [], 10000),
    ("short, mixed, no overtrump, split", dict(overtrump=False, long_runs="split"),
     ["p1=random(p=0.7)", "p2=heuristic(t1=40,t2=50)"], 6000),
    ("301, random", dict(form="301"), ["p1=random", "p2=random"], 800),
    ("501 open, heuristic", dict(form="501", open_hand="p1", open_bonus=150),
     ["p1=heuristic(margin=15)", "p2=heuristic(t1=45,sight=1)"], 600),
    ("301 alternate, lot", dict(form="301", next_word="alternate", opener="lot"),
     ["p1=heuristic", "p2=random"], 800),
]


def replay(rules, strategies, n, seed):
    rows, log = play_logged(rules, parse_strategies(SPEC, rules, strategies), n=n, seed=seed)
    seen = dict(deals=0, ties=0, baits=0, exchanges=0, claims=0, round2=0, redeals=0)
    by_unit = {i: [] for i in range(n)}
    for d in log.to_dict("records"):
        by_unit[d["unit"]].append(d)
    for i, unit_row in enumerate(rows.to_dict("records")):
        deals = by_unit[i]
        ref.check_unit(deals, unit_row, rules)
        for d in deals:
            seen["deals"] += 1
            raw = [d["cards0"] + d["combos0"], d["cards1"] + d["combos1"]]
            seen["ties"] += d["claim"] < 0 and raw[0] == raw[1]
            seen["baits"] += d["claim"] < 0 and raw[d["bidder"]] < raw[1 - d["bidder"]]
            seen["exchanges"] += d["exchanged"] >= 0
            seen["claims"] += d["claim"] >= 0
            seen["round2"] += d["round"] == 2
    seen["redeals"] = int(rows["redeals"].sum())
    return rows, seen


@pytest.mark.slow
@pytest.mark.parametrize("case", LOG_CASES, ids=[c[0] for c in LOG_CASES])
def test_every_logged_deal_replays_by_the_text(case):
    _, kw, strategies, n = case
    rules = BASE.replace(**kw)
    _, seen = replay(rules, strategies, n, seed=11)
    assert seen["deals"] >= n
    assert seen["baits"] > 0 and seen["exchanges"] > 0 and seen["round2"] > 0
    if "random" in case[0] and rules.form == "short":
        assert seen["ties"] > 0 and seen["redeals"] > 0


def test_claims_come_up_in_long_games():
    rules = BASE.replace(form="301")
    _, seen = replay(rules, [], 200, seed=5)
    assert seen["claims"] > 20


# --------------------------------------------------------------------------- runner, reproducibility

def test_same_seed_same_numbers_on_any_backend():
    a = simkit.run("klaberjass", n=20_000, seed=7, progress=False).table()
    b = simkit.run("klaberjass", n=20_000, seed=7, workers=2, progress=False).table()
    c = simkit.run("klaberjass", n=20_000, seed=8, progress=False).table()
    pd_cols = ["metric", "mean"]
    assert a[pd_cols].equals(b[pd_cols])
    assert not a[pd_cols].equals(c[pd_cols])


def test_rows_carry_the_bidders_strength():
    rows, _ = play_logged(BASE, None, n=2000, seed=1)
    bid = rows[rows["deals"] == 1]
    # the heuristic (t1=60, t2=50) bids only at its thresholds
    assert bid["bidder_strength"].min() >= 50
    assert bid[bid["round2_bids"] == 0]["bidder_strength"].min() >= 60
    baited = bid["p1_baits"] + bid["p2_baits"]
    # stronger hands are baited less often
    hi = baited[bid["bidder_strength"] >= bid["bidder_strength"].median()].mean()
    lo = baited[bid["bidder_strength"] < bid["bidder_strength"].median()].mean()
    assert hi < lo


def test_metrics_are_consistent():
    res = simkit.run("klaberjass(form=301)", n=2000, seed=2, progress=False).table()
    m = dict(zip(res["metric"], res["mean"]))
    assert m["p1_win"] + m["p2_win"] + m["unfinished"] == pytest.approx(1.0)
    assert m["p1_stakes"] == pytest.approx(-m["p2_stakes"])
    assert m["opener_win"] == pytest.approx(m["p1_win"])   # opener=p1


def test_bad_input_is_one_line():
    with pytest.raises(SimkitError, match="form"):
        parse_game("klaberjass(form=1001)")
    with pytest.raises(SimkitError, match="t1"):
        parse_strategies(SPEC, BASE, ["p1=heuristic(t1=-5)"])
    with pytest.raises(SimkitError, match="7c appears 2 times"):
        play_stacked(BASE, [], "7c 7c " + " ".join(S2[2:]))


def test_stacked_decks_are_checked_deal_by_deal():
    # every deal of a stacked unit comes from a fresh pack: P + S2 repeats cards across deals
    # (fine), not within one; a card outside 7..A is refused in any deal
    assert play(P + S2)["redeals"] == 1
    with pytest.raises(SimkitError, match="6c is not in the 32-card pack"):
        play_stacked(BASE, [], " ".join(["6c"] + S2[1:]))
    with pytest.raises(SimkitError, match="Ad appears 2 times"):
        play_stacked(BASE, [], " ".join(P + S2[:19] + ["Ad"]))
    with pytest.raises(SimkitError, match="2h is not in the 32-card pack"):
        play_stacked(BASE, [], " ".join(P + ["2h"] + S2[1:]))
    # the core entry point checks the first deal the same way
    with pytest.raises(SimkitError, match="appears 2 times"):
        core_play.play_stacked(SPEC, BASE, None, " ".join(S2[:19] + [S2[0]]))


def test_playthrough_is_the_full_move_log():
    # one seeded unit's log row (core's playthrough) holds every played deal of a long game,
    # the same deals play_logged shows, and they replay by the text
    for rules in (BASE, BASE.replace(form="501")):
        got = core_play.playthrough(SPEC, rules, None, seed=4)
        assert got["log_columns"] == engine.log_columns(rules)
        deals = deal_log(np.array([got["log"]]))
        rows, log = play_logged(rules, None, n=1, seed=4)
        assert deals.equals(log) and len(deals) == got["metrics"]["deals"] >= 1
        assert rows.iloc[0].to_dict() == got["metrics"]
        ref.check_unit(deals.to_dict("records"), got["metrics"], rules)


def test_play_logged_widens_a_short_log_row(monkeypatch):
    # a long game with more played deals than the log row has blocks is played again, wider
    rules = BASE.replace(form="501")
    want = play_logged(rules, ["p1=random", "p2=random"], n=40, seed=2)
    monkeypatch.setattr(engine, "LONG_LOG_DEALS", 2)
    assert len(engine.log_columns(rules)) == 1 + 2 * engine.BLOCK_W
    got = play_logged(rules, ["p1=random", "p2=random"], n=40, seed=2)
    assert (want[1]["deal"] >= 2).any()
    assert got[0].equals(want[0]) and got[1].equals(want[1])


# --------------------------------------------------------------------------- slow statistics

@pytest.mark.slow
def test_many_more_deals_replay_by_the_text():
    for seed, (_, kw, strategies, n) in enumerate(LOG_CASES):
        replay(BASE.replace(**kw), strategies, 5 * n, seed=100 + seed)


@pytest.mark.slow
def test_heuristic_beats_random():
    res = simkit.run("klaberjass", n=200_000, seed=3, strategies=["p2=random"],
                     progress=False).table()
    m = dict(zip(res["metric"], res["mean"]))
    assert m["p1_stakes"] > 0.3
    res = simkit.run("klaberjass(form=301)", n=20_000, seed=3, strategies=["p2=random"],
                     progress=False).table()
    m = dict(zip(res["metric"], res["mean"]))
    assert m["p1_win"] > 0.8


def test_a_deal_block_holds_the_longest_deal():
    """Every played deal's events fit its block of ``BLOCK_W`` (a deal that overran it would lose
    its last event, ``PENDING``, to the next deal's head): random players in long games, who
    exchange, declare and claim at random, over many deals; the fullest block is reported."""
    from simkit.core.rng import stream_state
    from simkit.engines.moves import split_event
    from simkit.games.klaberjass import prepare
    rules = parse_game("klaberjass(preset=long501,long_runs=split)")[1]
    strategies = parse_strategies(SPEC, rules, ["p1=random(d=0.9)", "p2=random(d=0.9)"])
    R, S, W = prepare(rules, strategies)
    n, D = 400, engine.log_deals(rules)
    log = np.full((n, len(engine.log_columns(rules))), -1, np.int64)
    engine.run_deals(R, S, W, stream_state(3, 0), n, np.zeros((2, engine.NMET)),
                     np.zeros((n, engine.NMET)), log)
    fullest, blocks = 0, 0
    for i in range(n):
        for j in range(min(int(log[i, 0]), D)):
            b = log[i, engine.NHEAD + j * engine.BLOCK_W:engine.NHEAD + (j + 1) * engine.BLOCK_W]
            used = [e for e in b if e >= 0]
            assert split_event(used[-1])[0] == engine.E_PENDING
            fullest, blocks = max(fullest, len(used)), blocks + 1
    assert blocks > 2000 and 50 <= fullest <= engine.BLOCK_W
