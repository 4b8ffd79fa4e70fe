"""The numba Очко engine against an independent plain-Python reference (``ochko_reference.py``).

1. exact: every metric of one round, engine vs reference, on >= 20,000 shuffled deck orders over a
   spread of rules and deterministic strategies (stand_at and 0/1 hit tables), plus a
   derandomized hypothesis search and short stacked decks that run out;
2. hand-worked stacked decks with known outcomes (checked against both engine and reference);
3. an exact probability: two aces first = 1/105 (36 cards), 1/221 (52 cards);
4. the random-deal path (``simkit.run``) against the reference on numpy-shuffled decks;
5. validation errors name the option and what is allowed.
"""
from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import ochko_reference as ref  # noqa: E402

import simkit  # noqa: E402
from simkit.core import cards as C  # noqa: E402
from simkit.core.registry import parse_strategies  # noqa: E402
from simkit.games import parse_game
from simkit.errors import SimkitError  # noqa: E402
from simkit.games.ochko import play_stacked  # noqa: E402

SPEC, BASE = parse_game("ochko")
DECKS = {36: C.deck(36), 52: C.deck(52)}
PAYS = (0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 10.0)       # dyadic: float sums are exact in any order
PENALTIES = (0.0, 0.25, 0.5, 1.0, 2.0)


# --------------------------------------------------------------------------- helpers

def engine_round(rules, strategies, deck):
    """The engine's metrics for one stacked round; ``strategies`` are strings or parsed ones."""
    if strategies and isinstance(strategies[0], str):
        strategies = parse_strategies(SPEC, rules, strategies)
    out = play_stacked(rules, strategies, np.asarray(deck, np.uint8))
    return {k: float(v) for k, v in out.items()}


def diff(engine, reference):
    """``{metric: (engine, reference)}`` of the metrics that differ (names must agree)."""
    assert list(engine) == list(reference), (
        f"metric names differ:\n engine    {list(engine)}\n reference {list(reference)}")
    return {k: (engine[k], reference[k]) for k in reference if engine[k] != reference[k]}


def reproducer(rules, strategies, deck, d):
    return (f"  game=ochko({rules.canonical()}) strategies={list(strategies)}\n"
            f"  cards='{C.format_cards(deck)}'\n  differs (engine, reference): {d}")


def write_table(path, hit):
    """A 0/1 policy file listing every (total 0..31, cards 0..12) pair, or only the hits."""
    with open(path, "w") as f:
        f.write("total,cards,hit\n")
        for t in range(32):
            for c in range(13):
                h = hit(t, c)
                if h is not None:
                    f.write(f"{t},{c},{int(h)}\n")
    return str(path)


@pytest.fixture(scope="session")
def table_paths(tmp_path_factory):
    """Six pure policy tables, chosen so that a (total, cards) mix-up changes the play."""
    d = tmp_path_factory.mktemp("ochko_tables")
    rng = np.random.default_rng(20240601)
    dense = rng.random((32, 13)) < 0.6
    sparse = rng.random((32, 13)) < 0.5
    return [
        write_table(d / "basic.csv", lambda t, c: t < 15 or (c == 2 and t < 18)),
        write_table(d / "three_cards.csv", lambda t, c: c < 3),            # ignores the total
        write_table(d / "dense_random.csv", lambda t, c: bool(dense[t, c])),
        # only hits listed (unlisted pairs must stand): totals 10..20, 1..4 cards
        write_table(d / "sparse_hits.csv",
                    lambda t, c: True if (10 <= t <= 20 and 1 <= c <= 4 and sparse[t, c]) else None),
        write_table(d / "always.csv", lambda t, c: True),
        write_table(d / "parity.csv", lambda t, c: (t + c) % 2 == 1 and t < 20),
    ]


def random_rules(rng, players=None):
    K = int(rng.integers(1, 10)) if players is None else players
    return BASE.replace(
        players=K,
        deck=int(rng.choice([36, 52])),
        values=str(rng.choice(["standard", "text1"])),
        banker_stop=int(rng.integers(2, 23)),
        max_cards=int(rng.choice([2, 3, 4, 5, 5, 5, 6, 8, 12])),
        banker_max_cards=int(rng.choice([0, 0, 0, 2, 3, 4, 5, 8, 12])),
        player_21_wins=bool(rng.integers(2)),
        golden_point=bool(rng.random() < 0.7),
        golden_pays=float(rng.choice(PAYS)),
        five_pictures=bool(rng.random() < 0.7),
        five_pictures_pays=float(rng.choice(PAYS)),
        bonus_hands=bool(rng.random() < 0.6),
        bonus_pays=float(rng.choice(PAYS)),
        ties=str(rng.choice(["bank", "push"])),
        bust_penalty=float(rng.choice(PENALTIES)),
        banker_five_pictures=bool(rng.random() < 0.4),
    )


def random_strategies(rng, K, table_paths, table_share=0.2):
    """Per seat: a 0/1 table (share ``table_share``; each costs a file read per round) or stand_at."""
    out = []
    for k in range(K):
        if rng.random() < table_share:
            out.append(f"p{k + 1}=table(path={table_paths[int(rng.integers(len(table_paths)))]})")
        elif rng.random() < 0.25:  # sees the banker's face-up card
            t, ts, strong = (int(rng.integers(10, 22)), int(rng.integers(10, 22)),
                             int(rng.integers(0, 12)))
            out.append(f"p{k + 1}=upcard_stand({t},{ts},{strong})")
        else:
            # mostly sensible thresholds, sometimes the extremes 2 (never draw) and 22 (to 21)
            t = int(rng.integers(12, 23)) if rng.random() < 0.8 else int(rng.integers(2, 23))
            out.append(f"p{k + 1}=stand_at({t})")
    return out


# ranks put on top of a "rich" deck so that rare hands come up often
RICH = [{14}, {11, 12, 13}, {6, 7, 8}, {7}, {14, 10}, {11, 12, 13, 14}, {6, 7, 8, 14}]


def random_deck(rng, size, K):
    """A shuffled deck; sometimes with chosen ranks on top; sometimes cut short (runs out)."""
    deck = rng.permutation(DECKS[size])
    if rng.random() < 0.35:
        ranks = RICH[int(rng.integers(len(RICH)))]
        top = np.array([c for c in deck if (c & 15) in ranks], np.uint8)
        rest = np.array([c for c in deck if (c & 15) not in ranks], np.uint8)
        deck = np.concatenate([top, rest])
    if rng.random() < 0.12:
        deck = deck[: int(rng.integers(K + 1, min(size, K + 12) + 1))]
    return deck


# --------------------------------------------------------------------------- 1. exact comparison

N_CONFIGS, DECKS_PER_CONFIG = 500, 40        # 20,000 deck orders in the default run


def compare_many(table_paths, seed, n_configs, per_config, table_share=0.2):
    rng = np.random.default_rng(seed)
    mismatches, seen, rounds = [], {}, 0
    for _ in range(n_configs):
        rules = random_rules(rng)
        strs = random_strategies(rng, rules.players, table_paths, table_share)
        parsed = parse_strategies(SPEC, rules, strs)
        mine = ref.strategies_for(rules, strs)
        for _ in range(per_config):
            deck = random_deck(rng, rules.deck, rules.players)
            r = ref.play_round(rules, mine, deck)
            d = diff(engine_round(rules, parsed, deck), r)
            rounds += 1
            if d:
                mismatches.append(reproducer(rules, strs, deck, d))
            for k, v in r.items():
                if k[0] == "p" and k[1].isdigit():
                    k = "p_" + k.split("_", 1)[1]
                if v:
                    seen[k] = seen.get(k, 0) + 1
            if len(deck) < rules.deck:
                seen["short_deck"] = seen.get("short_deck", 0) + 1
    return rounds, mismatches, seen


@pytest.mark.slow
def test_exact_against_reference_on_shuffled_decks(table_paths):
    rounds, mismatches, seen = compare_many(table_paths, 12345, N_CONFIGS, DECKS_PER_CONFIG)
    assert rounds >= 20_000
    assert not mismatches, (f"engine != reference in {len(mismatches)} of {rounds} rounds; "
                            f"first ones:\n" + "\n".join(mismatches[:5]))
    # the comparison only means something if every outcome actually came up
    for k in ["banker_idle", "banker_le16", "banker_17", "banker_18", "banker_19", "banker_20",
              "banker_21", "banker_bust", "banker_golden", "p_win", "p_push", "p_loss", "p_bust",
              "p_golden", "p_five", "p_bonus", "short_deck"]:
        assert seen.get(k, 0) >= 20, f"outcome {k} came up only {seen.get(k, 0)} times: {seen}"


@pytest.mark.slow
def test_exact_against_reference_many_more_decks(table_paths):
    # 60,000 more deck orders (fewer table seats: each one re-reads its file every round)
    rounds, mismatches, _ = compare_many(table_paths, 777, 1_500, 40, table_share=0.08)
    assert not mismatches, (f"engine != reference in {len(mismatches)} of {rounds} rounds; "
                            f"first ones:\n" + "\n".join(mismatches[:5]))


@st.composite
def cases(draw):
    K = draw(st.integers(1, 9))
    size = draw(st.sampled_from([36, 52]))
    kw = dict(
        players=K, deck=size, values=draw(st.sampled_from(["standard", "text1"])),
        banker_stop=draw(st.integers(2, 22)), max_cards=draw(st.integers(2, 12)),
        banker_max_cards=draw(st.sampled_from([0] + list(range(2, 13)))),
        player_21_wins=draw(st.booleans()), golden_point=draw(st.booleans()),
        golden_pays=draw(st.sampled_from(PAYS)), five_pictures=draw(st.booleans()),
        five_pictures_pays=draw(st.sampled_from(PAYS)), bonus_hands=draw(st.booleans()),
        bonus_pays=draw(st.sampled_from(PAYS)), ties=draw(st.sampled_from(["bank", "push"])),
        bust_penalty=draw(st.sampled_from(PENALTIES)))
    strats = [draw(st.one_of(st.tuples(st.just("stand_at"), st.integers(2, 22)),
                             st.tuples(st.just("table"), st.integers(0, 5)))) for _ in range(K)]
    order = draw(st.permutations(range(size)))
    cut = draw(st.one_of(st.none(), st.integers(K + 1, size)))
    return kw, strats, order, cut


@settings(max_examples=300, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@pytest.mark.slow
@given(case=cases())
def test_exact_against_reference_hypothesis(table_paths, case):
    kw, strats, order, cut = case
    rules = BASE.replace(**kw)
    strs = [f"p{k + 1}=stand_at({v})" if kind == "stand_at"
            else f"p{k + 1}=table(path={table_paths[v]})" for k, (kind, v) in enumerate(strats)]
    deck = DECKS[rules.deck][list(order)][:cut]
    d = diff(engine_round(rules, strs, deck),
             ref.play_round(rules, ref.strategies_for(rules, strs), deck))
    assert not d, "engine != reference:\n" + reproducer(rules, strs, deck, d)


@pytest.mark.slow
def test_exact_short_stacked_decks_that_run_out():
    """Every cut of fixed orders, from one card per hand up to the full sequence."""
    rng = np.random.default_rng(99)
    bad, n = [], 0
    for K in (1, 2, 3, 5, 9):
        for _ in range(12):
            rules = random_rules(rng, players=K)
            strs = [f"p{k + 1}=stand_at({int(rng.integers(14, 23))})" for k in range(K)]
            full = random_deck(rng, rules.deck, K)
            for cut in range(K + 1, min(len(full), K + 25) + 1):
                deck = full[:cut]
                d = diff(engine_round(rules, strs, deck),
                         ref.play_round(rules, ref.strategies_for(rules, strs), deck))
                n += 1
                if d:
                    bad.append(reproducer(rules, strs, deck, d))
    assert n > 1000
    assert not bad, f"engine != reference on {len(bad)} of {n} short decks:\n" + "\n".join(bad[:5])


def test_exact_decks_shorter_than_the_deal():
    """Fewer cards than one per hand: the last hands stay empty (total 0) and nobody draws.

    The rules only say that whoever would draw stands when the cards run out; this extends it to
    the deal.  It also guards the engine against reading past the end of a short deck.
    """
    rng = np.random.default_rng(5)
    bad = []
    for K in range(1, 10):
        for _ in range(6):
            rules = random_rules(rng, players=K)
            strs = [f"p{k + 1}=stand_at({int(rng.integers(2, 23))})" for k in range(K)]
            full = random_deck(rng, rules.deck, K)
            for cut in range(0, K + 1):
                deck = full[:cut]
                d = diff(engine_round(rules, strs, deck),
                         ref.play_round(rules, ref.strategies_for(rules, strs), deck))
                if d:
                    bad.append(reproducer(rules, strs, deck, d))
    assert not bad, f"engine != reference on {len(bad)} decks shorter than the deal:\n" + \
        "\n".join(bad[:5])


# --------------------------------------------------------------------------- 2. hand-worked decks

# (game, strategies, cards, the metrics that are non-zero; every other metric must be 0)
HAND_CASES = {
    # p1 As, banker 10c, p1 draws Ad: golden point, paid 1.5; nobody stands -> banker idle
    "player_golden": ("ochko(golden_pays=1.5)", ["p1=stand_at(17)"], "As 10c Ad",
                      dict(banker_idle=1, bank_result=-1.5, p1_win=1, p1_golden=1, p1_result=1.5)),
    # the same cards without golden point: A+A = 22 is a bust, fined 0.5
    "two_aces_bust_without_golden": (
        "ochko(golden_point=false,bust_penalty=0.5)", ["p1=stand_at(17)"], "As 10c Ad",
        dict(banker_idle=1, bank_result=1.5, p1_loss=1, p1_bust=1, p1_result=-1.5)),
    # p1 10c+7d = 17 stands; banker Ah then Ac: the banker's golden point beats the stander
    "banker_golden": ("ochko", ["p1=stand_at(17)"], "10c Ah 7d Ac",
                      dict(banker_golden=1, bank_result=1, p1_loss=1, p1_result=-1)),
    "banker_two_aces_bust_without_golden": (
        "ochko(golden_point=false)", ["p1=stand_at(17)"], "10c Ah 7d Ac",
        dict(banker_bust=1, bank_result=-1, p1_win=1, p1_result=1)),
    # p1 J Q K J Q = 2+3+4+2+3 = 14 in five pictures: wins at once, paid 2.5
    "five_pictures": ("ochko(five_pictures_pays=2.5)", ["p1=stand_at(21)"], "Jc 9d Qc Kc Jd Qd 7s Kh",
                      dict(banker_idle=1, bank_result=-2.5, p1_win=1, p1_five=1, p1_result=2.5)),
    # without it, 14 in 5 cards stands (max_cards 5); banker 9+7+4 = 20 beats it
    "five_pictures_off": ("ochko(five_pictures=false)", ["p1=stand_at(21)"], "Jc 9d Qc Kc Jd Qd 7s Kh",
                          dict(banker_20=1, bank_result=1, p1_loss=1, p1_result=-1)),
    # ... and with a 6-card limit p1 draws 7s to 21 and wins at once
    "five_pictures_off_six_cards": (
        "ochko(five_pictures=false,max_cards=6)", ["p1=stand_at(21)"], "Jc 9d Qc Kc Jd Qd 7s Kh",
        dict(banker_idle=1, bank_result=-1, p1_win=1, p1_result=1)),
    # p1 10+6 = 16 < 17 draws 8: 24 bust, fined 0.5
    "bust_with_penalty": ("ochko(bust_penalty=0.5)", ["p1=stand_at(17)"], "10c 9d 6h 8s",
                          dict(banker_idle=1, bank_result=1.5, p1_loss=1, p1_bust=1, p1_result=-1.5)),
    # p1 10+8 = 18, banker 10+8 = 18: the tie goes to the bank ...
    "tie_to_bank": ("ochko", ["p1=stand_at(17)"], "10c 10d 8h 8s",
                    dict(banker_18=1, bank_result=1, p1_loss=1, p1_result=-1)),
    # ... or is a push
    "tie_push": ("ochko(ties=push)", ["p1=stand_at(17)"], "10c 10d 8h 8s",
                 dict(banker_18=1, p1_push=1)),
    # p1 10+7 = 17 stands; banker 10+6 = 16 draws 9: 25 bust
    "banker_bust": ("ochko", ["p1=stand_at(17)"], "10c 10d 7h 6s 9c",
                    dict(banker_bust=1, bank_result=-1, p1_win=1, p1_result=1)),
    # p1 10+A = 21 wins at once ...
    "player_21_wins": ("ochko", ["p1=stand_at(17)"], "10c 10d As Ks 7c",
                       dict(banker_idle=1, bank_result=-1, p1_win=1, p1_result=1)),
    # ... or stands; banker 10+K(4)+7 = 21 ties and the bank takes it
    "player_21_stands": ("ochko(player_21_wins=false)", ["p1=stand_at(17)"], "10c 10d As Ks 7c",
                         dict(banker_21=1, bank_result=1, p1_loss=1, p1_result=-1)),
    # 6-7-8 = 21 in three cards wins at once and pays the bonus
    "bonus_678": ("ochko(bonus_hands=true)", ["p1=stand_at(17)"], "6c 10d 7h 8s",
                  dict(banker_idle=1, bank_result=-2, p1_win=1, p1_bonus=1, p1_result=2)),
    "bonus_678_off": ("ochko", ["p1=stand_at(17)"], "6c 10d 7h 8s",
                      dict(banker_idle=1, bank_result=-1, p1_win=1, p1_result=1)),
    # 7-7-7 standing at 21 beats the banker's 10+9 = 19 and pays the bonus
    "bonus_777_standing": ("ochko(bonus_hands=true,player_21_wins=false,bonus_pays=3)",
                           ["p1=stand_at(17)"], "7c 10d 7h 7s 9c",
                           dict(banker_19=1, bank_result=-3, p1_win=1, p1_bonus=1, p1_result=3)),
    # 7-7-7 tied by the banker's 10+A = 21 loses (no bonus on a loss)
    "bonus_777_loses": ("ochko(bonus_hands=true,player_21_wins=false)", ["p1=stand_at(17)"],
                        "7c 10d 7h 7s Ac", dict(banker_21=1, bank_result=1, p1_loss=1, p1_result=-1)),
    # p1 10+8 = 18; the banker capped at 2 cards stops at 6+9 = 15 ...
    "banker_max_cards": ("ochko(banker_max_cards=2,deck=52)", ["p1=stand_at(17)"], "10c 6d 8h 9s 5c",
                         dict(banker_le16=1, bank_result=-1, p1_win=1, p1_result=1)),
    # ... uncapped he draws 5c to 20
    "banker_uncapped": ("ochko(deck=52)", ["p1=stand_at(17)"], "10c 6d 8h 9s 5c",
                        dict(banker_20=1, bank_result=1, p1_loss=1, p1_result=-1)),
    # text1: p1 K+Q = 10+9 = 19; banker J+9 = 8+9 = 17
    "text1_values": ("ochko(values=text1)", ["p1=stand_at(17)"], "Kc Jd Qh 9s 8c",
                     dict(banker_17=1, bank_result=-1, p1_win=1, p1_result=1)),
    # standard: p1 K+Q+9+8 = 4+3+9+8 = 24 bust
    "standard_values": ("ochko", ["p1=stand_at(17)"], "Kc Jd Qh 9s 8c",
                        dict(banker_idle=1, bank_result=1, p1_loss=1, p1_bust=1, p1_result=-1)),
    # two players: p1 golden, p2 10+6+8 = 24 bust: nobody stands, the bank nets 0
    "two_players_idle": ("ochko(players=2)", ["p1=stand_at(17)", "p2=stand_at(17)"],
                         "As 10c 9d Ad 6h 8c",
                         dict(banker_idle=1, bank_result=0, p1_win=1, p1_golden=1, p1_result=1,
                              p2_loss=1, p2_bust=1, p2_result=-1)),
    # the deck runs out: p1 stands on 10+5 = 15, the banker on 9
    "deck_runs_out": ("ochko(deck=52)", ["p1=stand_at(17)"], "10c 9d 5h",
                      dict(banker_le16=1, bank_result=-1, p1_win=1, p1_result=1)),
    # max_cards 3: p1 6+6+6 = 18 stands although stand_at(21) wants more; banker 10+2, runs out
    "max_cards": ("ochko(max_cards=3,deck=52)", ["p1=stand_at(21)"], "6c 10d 6h 6s 2c",
                  dict(banker_le16=1, bank_result=-1, p1_win=1, p1_result=1)),
    # banker_stop=22: the banker draws on 21 (10+A) and busts with 6
    "banker_stop_22": ("ochko(banker_stop=22)", ["p1=stand_at(17)"], "10c 10d 8h As 6c",
                       dict(banker_bust=1, bank_result=-1, p1_win=1, p1_result=1)),
    "banker_stop_17_on_21": ("ochko", ["p1=stand_at(17)"], "10c 10d 8h As 6c",
                             dict(banker_21=1, bank_result=1, p1_loss=1, p1_result=-1)),
    # banker_five_pictures (line 31): p1 stands on 10+8; the banker's J Q K J Q make 14 with five
    # pictures: he stops, unlosable, and beats the standing player ...
    "banker_five": ("ochko(banker_five_pictures=true)", ["p1=stand_at(17)"],
                    "10c Jd 8h Qs Kc Jh Qc 9d",
                    dict(banker_five=1, bank_result=1, p1_loss=1, p1_result=-1)),
    # ... and without the option he draws the 9d to 23 and busts
    "banker_five_off": ("ochko", ["p1=stand_at(17)"], "10c Jd 8h Qs Kc Jh Qc 9d",
                        dict(banker_bust=1, bank_result=-1, p1_win=1, p1_result=1)),
    # upcard_stand sees the banker's 10 (strong): p1 draws while below 18 (6+7 = 13, then 6s),
    # stands on 19; against the banker's 10+9 = 19 the tie goes to the bank
    "upcard_strong": ("ochko", ["p1=upcard_stand(14,18,10)"], "6c 10d 7h 6s 9c",
                      dict(banker_19=1, bank_result=1, p1_loss=1, p1_result=-1)),
    # against a weak face-up card (J = 2) the same player stands on 6+8 = 14; the banker makes 21
    "upcard_weak": ("ochko", ["p1=upcard_stand(14,18,10)"], "6c Jd 8h 9s 10c",
                    dict(banker_21=1, bank_result=1, p1_loss=1, p1_result=-1)),
    # a table that draws only while holding 1 card: p1 9 draws 9h, stands on 18 with two cards;
    # banker 6+8+7 = 21 beats it
    "table_strategy": ("ochko(deck=52)", "TABLE:1", "9c 6d 9h 8s 7c 2c",
                       dict(banker_21=1, bank_result=1, p1_loss=1, p1_result=-1)),
}


@pytest.mark.parametrize("name", list(HAND_CASES))
def test_hand_worked_decks(name, tmp_path):
    game, strs, text, nonzero = HAND_CASES[name]
    _, rules = parse_game(game)
    if strs == "TABLE:1":
        path = write_table(tmp_path / "one_card.csv", lambda t, c: c == 1)
        strs = [f"p1=table(path={path})"]
    deck = C.parse(text)
    expected = dict.fromkeys(ref.metric_names(rules.players, rules.banker_five_pictures), 0.0)
    expected.update({k: float(v) for k, v in nonzero.items()})
    mine = ref.play_round(rules, ref.strategies_for(rules, strs), deck)
    assert mine == expected, f"reference wrong on {name}: {diff(mine, expected)}"
    got = engine_round(rules, strs, deck)
    d = diff(got, expected)
    assert not d, f"engine wrong on hand-worked deck {name!r}:\n" + reproducer(rules, strs, deck, d)


# --------------------------------------------------------------------------- 3. exact probability

@pytest.mark.parametrize("game,t,p", [
    ("ochko(players=1)", 12, 1 / 105),                  # 4/36 * 3/35
    ("ochko(players=1)", 21, 1 / 105),
    ("ochko(players=3)", 17, 1 / 105),                  # every seat: the same by symmetry
    ("ochko(players=1,deck=52)", 16, 4 / 52 * 3 / 51),  # 1/221
])
def test_golden_point_probability(game, t, p):
    n = 2_000_000
    K = parse_game(game)[1].players
    res = simkit.run(game, n=n, seed=4242, strategies=[f"p{k + 1}=stand_at({t})" for k in range(K)])
    est = res.estimates(0)
    se = math.sqrt(p * (1 - p) / n)      # binomial SE of p at n = 2e6: 6.9e-5 (36), 4.7e-5 (52)
    for k in range(1, K + 1):
        m = est[f"p{k}_golden"]["mean"]
        assert abs(m - p) <= 4 * se, f"p{k}_golden = {m:.6f}, exact {p:.6f}, 4 SE = {4 * se:.6f}"


# --------------------------------------------------------------------------- 4. random deals

def reference_means(rules, strs, n, seed):
    """Means and SEs of the reference's metrics over ``n`` numpy-shuffled full decks."""
    rng = np.random.default_rng(seed)
    mine = ref.strategies_for(rules, strs, rng=random.Random(seed))
    names = ref.metric_names(rules.players, rules.banker_five_pictures)
    rows = np.empty((n, len(names)))
    deck = DECKS[rules.deck]
    for i in range(n):
        r = ref.play_round(rules, mine, rng.permutation(deck))
        rows[i] = [r[k] for k in names]
    mean = rows.mean(0)
    se = rows.std(0, ddof=1) / math.sqrt(n)
    return {k: (mean[j], se[j]) for j, k in enumerate(names)}


STAT_CASES = [
    ("ochko(players=1)", ["p1=stand_at(16)"], ["p1"]),
    ("ochko(players=3,banker_stop=16,ties=push,bonus_hands=true,bust_penalty=0.5)",
     ["p1=stand_at(15)", "p2=stand_at(18)", "p3=random(0.3)"], ["p1", "p2", "p3"]),
]


def stat_compare(game, strs, seats, n_engine, n_ref, seed, z=4.5):
    _, rules = parse_game(game)
    res = simkit.run(game, n=n_engine, seed=seed, strategies=strs)
    eng = res.estimates(0)
    mine = reference_means(rules, strs, n_ref, seed)
    metrics = ["banker_idle", "banker_le16", "banker_bust", "banker_golden"] + \
        [f"banker_{t}" for t in range(17, 22)] + ["bank_result"]
    for s in seats:
        metrics += [f"{s}_{m}" for m in ("win", "push", "bust", "golden", "bonus", "result")]
    bad = []
    for k in metrics:
        m1, s1 = eng[k]["mean"], eng[k]["se"]
        m2, s2 = mine[k]
        tol = z * math.sqrt(s1 ** 2 + s2 ** 2)
        if not abs(m1 - m2) <= tol:
            bad.append(f"{k}: engine {m1:.5f} (se {s1:.5f}) vs reference {m2:.5f} (se {s2:.5f}), "
                       f"|diff| {abs(m1 - m2):.5f} > {z} combined SE {tol:.5f}")
    assert not bad, f"{game} {strs}: random-deal path disagrees with the reference\n" + "\n".join(bad)


@pytest.mark.slow
@pytest.mark.parametrize("game,strs,seats", STAT_CASES)
def test_random_deals_match_reference(game, strs, seats):
    # engine n = 2e5 (se of a ~0.4 rate ~ 0.0011), reference n = 3e4 (se ~ 0.0028):
    # two-sample z tolerance 4.5 combined SE ~ 0.014 on a rate, deterministic seeds
    stat_compare(game, strs, seats, n_engine=200_000, n_ref=30_000, seed=2024)


@pytest.mark.slow
@pytest.mark.parametrize("game,strs,seats", [
    ("ochko(players=2,deck=52,values=text1,banker_stop=18)", ["p1=stand_at(17)", "p2=stand_at(14)"],
     ["p1", "p2"]),
    ("ochko(players=1,player_21_wins=false,golden_point=false,banker_max_cards=3)",
     ["p1=stand_at(19)"], ["p1"]),
])
def test_random_deals_match_reference_slow(game, strs, seats):
    # engine n = 1e6, reference n = 1e5: 4.5 combined SE ~ 0.007 on a rate
    stat_compare(game, strs, seats, n_engine=1_000_000, n_ref=100_000, seed=7)


# --------------------------------------------------------------------------- 5. validation

@pytest.mark.parametrize("game,words", [
    ("ochko(banker_stop=99)", ["banker_stop", "2..22"]),
    ("ochko(banker_stop=1)", ["banker_stop", "2..22"]),
    ("ochko(players=10)", ["players", "1..9"]),
    ("ochko(max_cards=1)", ["max_cards", "2..12"]),
    ("ochko(banker_max_cards=1)", ["banker_max_cards", "2..12"]),
    ("ochko(deck=54)", ["deck", "36", "52"]),
    ("ochko(values=soviet)", ["values", "standard", "text1"]),
    ("ochko(ties=player)", ["ties", "bank", "push"]),
    ("ochko(golden_pays=11)", ["golden_pays", "0.0..10.0"]),
    ("ochko(golden_point=maybe)", ["golden_point", "true or false"]),
    ("ochko(bankr_stop=16)", ["bankr_stop", "banker_stop", "players", "bust_penalty"]),
    ("ochko(jokers=2)", ["jokers", "banker_stop", "values"]),
])
def test_validation_errors(game, words):
    with pytest.raises(SimkitError) as e:
        parse_game(game)
    msg = str(e.value)
    for w in words:
        assert w in msg, f"{game}: error message {msg!r} does not mention {w!r}"


def test_strategy_validation_errors():
    _, rules = parse_game("ochko(players=2)")
    with pytest.raises(SimkitError, match=r"stand_at\.t.*2\.\.22"):
        parse_strategies(SPEC, rules, ["p1=stand_at(99)"])
    with pytest.raises(SimkitError, match=r"hold_at.*stand_at"):
        parse_strategies(SPEC, rules, ["p1=hold_at(16)"])


def test_move_log_matches_the_reference_hands(table_paths):
    """The move log (events: who took which card, in order) rebuilds every hand the plain-Python
    reference deals, on random stacked decks and rules."""
    from simkit.core import play
    from simkit.engines.banking.round import E_DEAL, E_DRAW
    from simkit.engines.moves import split_event
    rng = np.random.default_rng(99)
    checked = 0
    for _ in range(150):
        rules = random_rules(rng)
        strs = random_strategies(rng, rules.players, table_paths, 0.1)
        deck = random_deck(rng, rules.deck, rules.players)
        _, hands, banker = ref.play_round(rules, ref.strategies_for(rules, strs), deck, trace=True)
        _, row = play.play_stacked(SPEC, rules, parse_strategies(SPEC, rules, strs), deck, log=True)
        got = [[] for _ in range(rules.players + 1)]
        for e in row:
            if e >= 0:
                kind, who, _, card = split_event(e)
                assert kind in (E_DEAL, E_DRAW) and (kind == E_DEAL) == (sum(map(len, got)) <=
                                                                          rules.players)
                got[who].append(card)
        assert got == [list(map(int, h)) for h in hands] + [list(map(int, banker))], (rules, strs)
        checked += 1
    assert checked == 150
