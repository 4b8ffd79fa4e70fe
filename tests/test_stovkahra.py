"""Stovkahra against things it did not write: the 78 card points of every played-out deal, the
exact chances of an eight-card hand (``exact.py``, fractions) against the kernel's deals, stacked
deals worked by hand from the text (the 52 for the first trick won with the trump seven, the
combinations, "dost" right, wrong and missed), and every logged deal of many games and series
replayed by an independent plain-Python reading of the text (``stovkahra_reference.py``: the
gathering and cut of the next deal's pack, the legality of every card under must-beat, the
bonuses, the scores and the brčka).

Hand-worked deals use the baseline player, which is deterministic (each trace is in a comment).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import simkit
from simkit.core import cards as C
from simkit.errors import SimkitError
from simkit.games import stovkahra as G
from simkit.games.stovkahra import engine, exact
from tests import stovkahra_reference as ref

SPEC = simkit.get_game("stovkahra")


def rules(**kw):
    return SPEC.rules.build(kw)


def pack(hands, dealer=3):
    """The pack (top first) that deals ``hands`` (p1..p4, eight cards each, in the order each
    receives them) 3-2-3 from the dealer's left; the dealer's last card is the trump card."""
    it = [h.split() for h in hands]
    return " ".join(it[(dealer + int(engine.OFFSETS[p])) % 4].pop(0) for p in range(32))


def heads(log):
    return [dict(zip(engine.HEAD_COLUMNS, log[i, :len(engine.HEAD_COLUMNS)].tolist()))
            for i in range(len(log))]


def replay(r, strategies, n, seed):
    rows, log = G.play_logged(r, strategies, n=n, seed=seed, raw=True)
    return ref.replay_log(G.deal_log(log), rows, r, heads(log)), rows


# ---------------------------------------------------------------- the text's tables

def test_card_table_reconstructed_from_pagat():
    """A 6, K 5, O 4, U 3, the rest 0 (lines 189-196 and pagat.com; 193-201 are garbled): 18 a suit,
    72 in the pack, 78 with the last trick (line 213)."""
    R = engine.game_rules(rules())
    assert [int(R.points[0, r]) for r in (14, 13, 12, 11, 10, 9, 8, 7)] == [6, 5, 4, 3, 0, 0, 0, 0]
    assert (R.points[0] == R.points[1]).all()
    assert sum(int(R.points[0, c & 15]) for c in engine.DECK) + engine.LAST_TRICK == 78
    order = sorted(range(7, 15), key=lambda r: -R.strength[0, r])
    assert order == [14, 13, 12, 11, 10, 9, 8, 7]


@pytest.mark.parametrize("hand,points", [
    ("Ac Ad Ah As 7c 8c 9c 9d", 40), ("Ac Ad Ah 7c 8c 9c 9d 9h", 30),
    ("10c 10d 10h 10s 7c 7d 7h 7s", 40), ("10c 10d 10h 7c 7d 7h 9d 9h", 20),
    ("Kc Kd Kh Ks Qc Qd Qh 8s", 18), ("Jc Jd Jh 9c 9d 9h 8c 8d", 6),
    ("9c 9d 9h 9s 8c 8d 8h 8s", 0)])
def test_combination_points(hand, points):
    """Lines 203-211 (reconstructed): four aces 40, three 30; four tens or sevens 20, three 10;
    four kings, overs or unders 12, three 6; no nines or eights."""
    R = engine.game_rules(rules())
    assert engine.combos_held(C.mask(C.parse(hand)), R.combo3, R.combo4)[1] == points
    assert exact.hand_points({c & 15: sum(1 for d in C.parse(hand) if d & 15 == c & 15)
                              for c in C.parse(hand)}) == points


# ---------------------------------------------------------------- stacked deals by hand

# A: trumps hearts (p4 deals, his last card 10h).  p1 holds As Ks Qs and clubs, p2 7h 8h and
# diamonds, p3 10s 9s Ac Kc Qc 8d 7d 9h, p4 8s 7s Js Ah Kh Qh Jh 10h.  Trick 1: p1 leads As (his
# most valuable sure card); p2, void, must trump and beat (lines 216-217): with save_first he
# plays 7h; p3 must follow, 9s; p4 follows and smears Js to his winning partner: p2 wins the first
# trick with a seven, 52 + 9 card points (line 213).  Without save_first p2 keeps the seven and
# ruffs with 8h: no bonus.
DEAL_A = pack(["As Ks Qs Jc 10c 9c 8c 7c", "7h 8h Ad Kd Qd Jd 10d 9d",
               "10s 9s Ac Kc Qc 8d 7d 9h", "8s 7s Js Ah Kh Qh Jh 10h"])
# B: p1 holds four aces and three tens (40 + 10); no one else holds a combination; trumps spades.
DEAL_B = pack(["Ac Ad Ah As 10c 10d 10h 7c", "Kc Kd Qc Qd Jc Jd 9c 9d",
               "Kh Qh Jh 9h 8c 8d 7d 10s", "Ks Qs Js 9s 8h 8s 7h 7s"])


def test_first_trick_won_with_the_trump_seven_is_52():
    res, lg = G.play_stacked(rules(), None, DEAL_A, log=True)
    assert [C.format_card(c) for c in lg.loc[0, ["card0", "card1", "card2", "card3"]]] == \
        ["As", "7h", "9s", "Js"]
    assert res["p2_seven_first"] == res["p4_seven_first"] == 1
    kept, lg2 = G.play_stacked(rules(), ["p2=baseline(save_first=0)"], DEAL_A, log=True)
    assert C.format_card(lg2.loc[0, "card1"]) == "8h"
    assert kept["p2_seven_first"] == 0
    # the same cards without the seven bonuses: the first trick is worth its 9 card points
    off, lg3 = G.play_stacked(rules(seven_bonuses=False), None, DEAL_A, log=True)
    assert off["p2_seven_first"] == 0 and off["p2_cards"] == res["p2_cards"]
    assert off["p2_points"] == res["p2_points"] - 52 - 10 * res["p2_seven_mid"] \
        - 20 * res["p2_seven_last"]


def test_only_declared_combinations_count():
    res = G.play_stacked(rules(), None, DEAL_B)
    assert res["p1_combos"] == res["p3_combos"] == 50 and res["p2_combos"] == 0
    none = G.play_stacked(rules(), ["p1=baseline(declare=0)"], DEAL_B)
    assert none["p1_combos"] == 0
    assert none["p1_points"] == none["p1_cards"] + 10 * none["p1_seven_mid"] \
        + 52 * none["p1_seven_first"] + 20 * none["p1_seven_last"]


def test_dost_right_wrong_and_missed():
    """Lines 218-222 with target 40: p1's 50 in declarations reach it; saying dost at once wins
    two brčka (the others have 0 < double_under 20).  Saying it at 50 against the default 100
    (margin 100) is wrong: the others win two.  Not saying it lets p2's side, which reaches 58
    with the first trick (trump seven: 52 + 6), say dost first and win, though p1's side reached
    the target earlier (line 222).  Trace of the missed case: p1 declares 50 and leads Ac (his
    aces are all sure; the first of equals); p2 must follow and cannot beat: 9c; p3 follows 8c;
    p4, void in clubs, must trump and beat: with save_first he trumps with 7s, 52 + 6 = 58, and
    says dost (58 >= 40); p1's side has 50 >= 20: one brčko."""
    g = dict(unit="game", target=40, double_under=20)
    right = G.play_stacked(rules(**g), None, DEAL_B)
    assert (right["p1_win"], right["p1_brcka"], right["dost"], right["played_out"]) == (1, 2, 1, 0)
    wrong = G.play_stacked(rules(unit="game"), ["p1=baseline(margin=100)"], DEAL_B)
    assert (wrong["p2_win"], wrong["p2_brcka"], wrong["dost_wrong"]) == (1, 2, 1)
    missed = G.play_stacked(rules(**g), ["p1=baseline(claim=0)", "p3=baseline(claim=0)"], DEAL_B)
    assert (missed["p2_win"], missed["p2_claims"], missed["p2_brcka"]) == (1, 1, 1)
    assert missed["p2_points"] == 58 and missed["p1_points"] == 50


def test_next_deal_is_the_gathered_tricks_cut():
    """unit=game: the second deal's pack is the first deal's tricks gathered (the dealer's side's
    pile on top, each pile's last trick first, each trick in playing order) and cut at 5."""
    r = rules(unit="game", target=300, double_under=0)
    res, lg = G.play_stacked(r, None, DEAL_A, cuts=[5], log=True)
    assert res["deals"] >= 2 and lg.loc[1, "cut"] == 5 and lg.loc[1, "dealer"] == 0
    d0 = lg.loc[0]
    cards = [int(d0[f"card{j}"]) for j in range(32)]
    tricks = [cards[4 * t:4 * t + 4] for t in range(8)]
    leader, winners = 0, []
    for tr in tricks:
        ws = (leader + ref.winner_index(tr, int(d0["trump"]))) % 4
        winners.append(ws)
        leader = ws
    dealer_side = [tricks[t] for t in range(7, -1, -1) if winners[t] % 2 == 1]
    other = [tricks[t] for t in range(7, -1, -1) if winners[t] % 2 == 0]
    gathered = [c for tr in dealer_side + other for c in tr]
    assert [int(lg.loc[1, f"pack{j}"]) for j in range(32)] == gathered[5:] + gathered[:5]
    played = G.play_stacked(rules(unit="game", target=300, double_under=0, gather="played"), None,
                            DEAL_A, cuts=[5], log=True)[1]
    flat = [c for t in range(7, -1, -1) for c in tricks[t]]
    assert [int(played.loc[1, f"pack{j}"]) for j in range(32)] == flat[5:] + flat[:5]


# ---------------------------------------------------------------- the reference replay

CASES = [
    ({"unit": "deal"}, ["p2=random", "p4=random"], 400),
    ({"unit": "game"}, None, 300),
    ({"unit": "game", "dealing": "shuffle", "gather": "played", "deal_end": "higher"},
     ["p3=random"], 300),
    ({"unit": "game", "rotate": False, "min_cut": 1, "seven_bonuses": False},
     ["p1=baseline(claim=0)", "p2=random(d=0.2)"], 300),
    ({"unit": "series"}, ["p1=baseline(subtract_at=1,margin=10)", "p2=random(d=0.9)"], 40),
    # nobody says dost: the deal-end rules decide (both sides often pass 60 in one deal)
    ({"unit": "game", "target": 60, "double_under": 30},
     [f"p{k}=baseline(claim=0)" for k in range(1, 5)], 300),
    ({"unit": "game", "target": 60, "deal_end": "higher"},
     [f"p{k}=baseline(claim=0)" for k in range(1, 5)], 300),
]


@pytest.mark.slow
@pytest.mark.parametrize("opts,strategies,n", CASES)
def test_every_logged_deal_replays_by_the_text(opts, strategies, n):
    checked, rows = replay(rules(**opts), strategies, n, seed=11)
    assert checked >= n
    assert rows["unfinished"].sum() == 0


def test_the_reference_catches_a_tampered_log():
    r = rules(unit="game")
    rows, log = G.play_logged(r, None, n=5, seed=2, raw=True)
    deals = G.deal_log(log)
    for a, b in [("card5", "card6"), ("score0", 1), ("pack3", "pack12"), ("decl1", 1 << 8)]:
        bad = deals.copy()
        if isinstance(b, str):  # two cards swapped
            bad.loc[1, [a, b]] = bad.loc[1, [b, a]].to_numpy()
        else:
            bad.loc[1, a] += b
        with pytest.raises(ref.Mismatch):
            ref.replay_log(bad, rows, r, heads(log))


def test_card_points_are_78_on_every_played_out_deal():
    for opts in ({"unit": "deal"}, {"unit": "game"}):
        rows = G.play_logged(rules(**opts), ["p1=random", "p4=random"], n=3000, seed=4)[0]
        assert (rows["card_points"] == 78 * rows["played_out"]).all()
        full = rows[(rows["played_out"] == rows["deals"])]
        assert len(full) > 500
        assert ((full["p1_cards"] + full["p2_cards"]) == 78 * full["deals"]).all()
        assert (full["p1_cards"] == full["p3_cards"]).all()


# ---------------------------------------------------------------- exact chances vs the deals

@pytest.mark.slow
def test_exact_hand_chances_match_the_deals():
    """Fractions of exact.py against 20,000 shuffled deals (80,000 hands), each within 4 SE:
    four and exactly three of a rank (pooled over the 8 ranks), any declarable combination, the
    trump seven with the dealer (the turned card is his) and with another seat."""
    pr = exact.probabilities()
    dist = exact.hand_distribution()
    assert sum(dist.values()) == 1
    n = 20_000
    deals = G.play_logged(rules(), None, n=n, seed=9)[1]
    packs = deals[[f"pack{j}" for j in range(32)]].to_numpy()
    seat = np.array([(3 + int(o)) % 4 for o in engine.OFFSETS])
    counts = {"four": 0, "three": 0, "any": 0, "t7d": 0, "t7o": 0, "pts": 0.0}
    for row in packs:
        trump = row[31] >> 4
        for k in range(4):
            hand = row[seat == k]
            ranks = np.bincount(hand & 15, minlength=16)[7:15]
            counts["four"] += int((ranks == 4).sum())
            counts["three"] += int((ranks == 3).sum())
            pts = exact.hand_points({r + 7: int(c) for r, c in enumerate(ranks)})
            counts["any"] += pts > 0
            counts["pts"] += pts
            held = trump * 16 + 7 in hand
            if k == 3:
                counts["t7d"] += held
            else:
                counts["t7o"] += held
    for key, p, m in [("four", pr["four_of_rank"], 8 * 4 * n), ("three", pr["three_of_rank"], 8 * 4 * n),
                      ("any", pr["any_combination"], 4 * n), ("t7d", pr["trump7_dealer"], n),
                      ("t7o", pr["trump7_other_seat"], 3 * n)]:
        p = float(p)
        se = math.sqrt(p * (1 - p) / m)
        assert abs(counts[key] / m - p) < 4 * se, (key, counts[key] / m, p)
    mean = float(pr["combo_points_mean"])
    sd = math.sqrt(float(sum(q * (v - pr["combo_points_mean"]) ** 2 for v, q in dist.items())))
    assert abs(counts["pts"] / (4 * n) - mean) < 4 * sd / math.sqrt(4 * n)


def test_exact_command_reports_the_fractions():
    obj, table = SPEC.exact(rules(), None, None)
    assert "any_combination" in set(table["metric"]) and obj["summary"]
    assert math.isclose(table.set_index("metric").loc["four_of_rank", "mean"],
                        math.comb(28, 4) / math.comb(32, 8))


# ---------------------------------------------------------------- strategies and input

def test_baseline_beats_random():
    """Baseline on one side against random on the other, both seatings, 6,000 deals each (paired
    by the deal's key): the baseline side's points per deal exceed the random side's by more than
    5 standard errors; over 1,000 games a side wins more than half."""
    diffs = []
    for strats, side in [(["p2=random", "p4=random"], 1), (["p1=random", "p3=random"], 2)]:
        rows = G.play_logged(rules(), strats, n=6000, seed=3)[0]
        other = 3 - side
        diffs.append(rows[f"p{side}_points"] - rows[f"p{other}_points"])
    d = (diffs[0] + diffs[1]) / 2
    assert d.mean() > 5 * d.std() / math.sqrt(len(d)), d.mean()
    rows = G.play_logged(rules(unit="game"), ["p2=random", "p4=random"], n=1000, seed=5)[0]
    p = rows["p1_win"].mean()
    assert p - 0.5 > 4 * math.sqrt(0.25 / 1000), p


def test_deal_unit_cards_depend_on_the_key_only():
    a = G.play_logged(rules(), None, n=50, seed=8)[1]
    b = G.play_logged(rules(), ["p1=random", "p2=random"], n=50, seed=8)[1]
    cols = [f"pack{j}" for j in range(32)]
    assert (a[cols].to_numpy() == b[cols].to_numpy()).all()


def test_bad_input_is_one_line():
    with pytest.raises(SimkitError, match="double_under"):
        rules(double_under=200)
    with pytest.raises(SimkitError, match="32 cards"):
        G.play_stacked(rules(), None, "As Ks Qs")
    with pytest.raises(SimkitError, match="cuts"):
        G.play_stacked(rules(unit="game"), None, DEAL_A, cuts=[40])
    with pytest.raises(SimkitError, match="unit"):
        rules(unit="match")


def test_must_beat_fast_path_equals_the_engines_legal_moves():
    """tricks.must_beat_moves (from the winning card so far) against tricks.legal_moves with the
    full trick, on 20,000 random partial tricks."""
    from simkit.engines import tricks as TR
    R = engine.game_rules(rules())
    rng = np.random.default_rng(1)
    for _ in range(20_000):
        cards = rng.permutation(engine.DECK)
        n = int(rng.integers(1, 4))
        trick = np.asarray(cards[:n], np.int64)
        hand = C.mask(cards[n:n + int(rng.integers(1, 9))])
        trump = int(rng.integers(0, 4))
        w = TR.trick_winner(trick, n, trump, R.strength)
        fast = TR.must_beat_moves(hand, trick[0] >> 4, trick[w], trump, R.strength)
        full = TR.legal_moves(hand, trick, n, trump, R.tricks, R.strength)
        assert fast == full
        assert int(full) == C.mask(ref.legal([int(c) for c in cards[n:] if hand >> int(c) & 1],
                                             [int(c) for c in trick], trump))


def test_a_deal_block_holds_the_longest_deal():
    """Every logged deal's events fit its block of ``BLOCK_W`` (an overrun would lose the
    scores to the next deal's events, which ``deal_columns`` refuses): random players who
    declare often, over a series's deals; the fullest block is within the width."""
    from simkit.core.registry import parse_strategies
    from simkit.core.rng import stream_state
    from simkit.engines.moves import split_event
    spec, rules = simkit.parse_game("stovkahra(unit=series)")
    strategies = parse_strategies(spec, rules, [f"p{k}=random(d=0.9)" for k in range(1, 5)])
    R, S, W = G.prepare(rules, strategies)
    n, nm = 60, len(engine.metrics(rules))
    log = np.full((n, len(engine.log_columns(rules))), -1, np.int64)
    engine.run_deals(R, S, W, stream_state(3, 0), n, np.zeros((2, nm)), np.zeros((n, nm)), log)
    fullest, blocks = 0, 0
    for i in range(n):
        for j in range(min(int(log[i, engine.H.played]), engine.log_deals(rules))):
            c = engine.NHEAD + j * engine.BLOCK_W
            used = [e for e in log[i, c:c + engine.BLOCK_W] if e >= 0]
            assert split_event(used[-1])[0] in (engine.E_SCORE, engine.E_WIN)
            engine.deal_columns(used)
            fullest, blocks = max(fullest, len(used)), blocks + 1
    assert blocks > 1000 and 70 <= fullest <= engine.BLOCK_W
