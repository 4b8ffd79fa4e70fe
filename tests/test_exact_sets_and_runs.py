"""Issue 30: Piquet's trios and quatorzes and Handjass's runs by length in ``exact``, as exact
fractions, checked by enumerating every hand of smaller packs in plain Python (the counting
functions take the pack's shape) and against the quantities ``exact`` reported before."""
from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest

from simkit.games.handjass import exact as hx
from simkit.games.piquet import exact as px


def brute_sets(high, suits, low, hand):
    pack = [("h", r, s) for r in range(high) for s in range(suits)] + [("l", j, 0)
                                                                        for j in range(low)]
    out = Counter()
    for h in combinations(pack, hand):
        per = Counter(r for kind, r, _ in h if kind == "h")
        out[(sum(v == suits for v in per.values()), sum(v == suits - 1 for v in per.values()))] += 1
    total = comb(len(pack), hand)
    return {k: Fraction(v, total) for k, v in out.items()}


@pytest.mark.parametrize("shape", [(2, 4, 4, 5), (3, 4, 6, 7), (3, 3, 5, 6)])
def test_piquet_sets_against_every_hand_of_a_small_pack(shape):
    assert px.sets(*shape) == brute_sets(*shape)


def test_piquet_sets_agree_with_the_quatorze_reported_before():
    t = px.table().set_index("quantity")["exact"].map(Fraction)
    assert t["quatorzes_0"] == 1 - px.p_quatorze()
    assert sum(t[f"quatorzes_{k}"] for k in range(4)) == 1
    assert sum(t[f"trios_{k}"] for k in range(5)) == 1
    assert t["trio"] == 1 - t["trios_0"]
    # a hand holding three trios and a quatorze needs 13 cards: so no (1, 3) and up
    assert all(q * 4 + t3 * 3 <= 12 for q, t3 in px.sets())


def brute_runs(n, ranks, suits):
    pack = [(s, r) for s in range(suits) for r in range(ranks)]
    out = Counter()
    for h in combinations(pack, n):
        best = 0
        for s in range(suits):
            have = {r for s2, r in h if s2 == s}
            run = 0
            for r in range(ranks):
                run = run + 1 if r in have else 0
                best = max(best, run)
        out[best if best >= 3 else 0] += 1
    total = comb(len(pack), n)
    return {L: Fraction(out[L], total) for L in [0] + list(range(3, ranks + 1))}


@pytest.mark.parametrize("shape", [(6, 5, 4), (7, 6, 3), (5, 9, 2)])
def test_handjass_runs_against_every_hand_of_a_small_pack(shape):
    assert hx.longest_runs(*shape) == brute_runs(*shape)


def test_handjass_runs_beside_the_weis_classes():
    from simkit.games import parse_game
    _, r = parse_game("handjass")
    ch = hx.weis_chances(r)
    # a best Weis of 20 (50) is a run of exactly three (four) without a better Weis
    assert ch["run_3"] >= ch["weis_best_20"] and ch["run_4"] >= ch["weis_best_50"]
    assert ch["run_none"] >= ch["weis_best_0"]
    assert abs(sum(ch[k] for k in ch if k.startswith("run_")) - 1) < 1e-12
