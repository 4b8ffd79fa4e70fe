"""The chances of holding a condition or a meld in a dealt Panguingue hand (``simkit exact
panguingue``'s ``p_`` rows, a dynamic programme over card kinds) against what it did not write:

* every hand of a reduced size, enumerated as multisets of kinds weighted by ``prod C(n_k, c_k)``
  and judged by the plain-Python reference's meld and condition rules (tests/panguingue_reference.py)
  on each of its three-card subsets: the DP runs the same code on the same counts;
* the expected counts of the older rows (inclusion-exclusion): a chance of holding one is at most
  the expected number held;
* the dealt hands of logged deals (Monte Carlo): 1,500 six-player deals (9,000 hands), seed 11,
  each frequency within 4 standard errors of its exact chance.
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np

import simkit
from simkit.core import play
from simkit.games.panguingue import engine as E
from simkit.games.panguingue import exact
from tests import panguingue_reference as ref

SPEC = simkit.get_game("panguingue")
CODE = [s * 16 + ref.ORDER[p] for s in range(4) for p in range(10)]   # kind s*10+p -> house code


def _flags(codes, rules):
    """Which ``p_`` rows a hand (house codes) satisfies, from the reference's rules."""
    out = dict.fromkeys(["p_one_suit_valle", "p_mixed_valle", "p_valle_set", "p_rope_spades",
                         "p_rope_other", "p_rope", "p_condition", "p_meld"], False)
    for t in set(itertools.combinations(sorted(codes), 3)):
        a, b, c = t
        if not (a & 15 == b & 15 == c & 15 or a >> 4 == b >> 4 == c >> 4):
            continue                  # neither one rank nor one suit: no meld (a quick skip)
        if not ref.legal_three(t):
            continue
        out["p_meld"] = True
        v = ref.condition(list(t), rules)
        if v == 0:
            continue
        out["p_condition"] = True
        kind = ref.Meld(list(t), rules).kind()
        if kind == "one":
            out["p_one_suit_valle"] = out["p_valle_set"] = True
        elif kind == "mixed":
            out["p_mixed_valle"] = out["p_valle_set"] = True
        else:
            out["p_rope"] = True
            out["p_rope_spades" if ref.suit(t[0]) == ref.SPADES else "p_rope_other"] = True
    return out


def _enumerate(ns, kinds, hand):
    """Every hand of ``hand`` cards of the given kinds, each pack of ``ns`` (a list of count
    vectors) weighting it: the chance of each row per pack."""
    rules = SPEC.rules.build({})
    hits = [dict.fromkeys(_flags([], rules), 0) for _ in ns]
    for combo in itertools.combinations_with_replacement(kinds, hand):
        f = _flags([CODE[k] for k in combo], rules)
        cnt = {k: combo.count(k) for k in set(combo)}
        for n, h in zip(ns, hits):
            w = math.prod(math.comb(n[k], c) for k, c in cnt.items())
            for name, on in f.items():
                if on:
                    h[name] += w
    return [{k: Fraction(v, math.comb(sum(n), hand)) for k, v in h.items()}
            for n, h in zip(ns, hits)]


def test_every_four_card_hand_of_the_full_packs():
    """Every 4-card hand (123,410 multisets of the 40 kinds) of eight packs, and of eight packs
    less one set of spades: the chances equal the DP's to the last digit."""
    full = exact.kind_counts(SPEC.rules.build({}))
    less = exact.kind_counts(SPEC.rules.build({"spades_removed": True}))
    assert full != less
    for n, want in zip((full, less), _enumerate([full, less], range(40), 4)):
        got = exact.holding(n, 4)
        assert got == want, {k: (float(got[k]), float(want[k])) for k in got if got[k] != want[k]}
        assert want["p_meld"] > 0 and want["p_rope_spades"] > 0 and want["p_mixed_valle"] > 0


def test_every_five_card_hand_of_a_small_pack():
    """A pack of three suits (clubs, hearts, spades) and the ranks A, 2, 3, 4, 5, J, Q, K,
    three copies each (spades two): every 5-card hand (98,280 multisets), where a kind held
    three times, three aces, ropes in and out of the conditions all occur."""
    kinds = [s * 10 + p for s in (0, 2, 3) for p in (0, 1, 2, 3, 4, 7, 8, 9)]
    n = [0] * 40
    for k in kinds:
        n[k] = 2 if k // 10 == 3 else 3
    want = _enumerate([n], kinds, 5)[0]
    got = exact.holding(n, 5)
    assert got == want, {k: (float(got[k]), float(want[k])) for k in got if got[k] != want[k]}
    assert 0 < want["p_one_suit_valle"] < want["p_valle_set"] < want["p_condition"] < want["p_meld"]


def test_a_chance_of_one_is_at_most_the_expected_number():
    for opts in ({}, {"packs": 5, "spades_removed": True}, {"packs": 11}):
        pr = exact.probabilities(SPEC.rules.build(opts))
        for p, mean in (("p_one_suit_valle", "one_suit_valle_mean"),
                        ("p_mixed_valle", "mixed_valle_mean"), ("p_rope", "rope_mean"),
                        ("p_condition", "conditions_mean")):
            assert 0 < pr[p] < pr[mean], (opts, p)
        assert pr["p_valle_set"] < pr["one_suit_valle_mean"] + pr["mixed_valle_mean"]
        assert max(pr["p_rope_spades"], pr["p_rope_other"]) < pr["p_rope"] \
            < pr["p_rope_spades"] + pr["p_rope_other"]
        assert pr["p_condition"] < pr["p_meld"] < 1


def test_the_chances_against_dealt_hands():
    rules = SPEC.rules.build({})
    pr = exact.probabilities(rules)
    _, log = play.play_logged(SPEC, rules, None, n=1500, seed=11)
    dealt = log[:, E.NHEAD:E.NHEAD + 60]
    got = []
    for row in dealt:
        for seat in range(6):
            got.append(_flags([int(c) for j, c in enumerate(row) if (j // 5) % 6 == seat], rules))
    for name in got[0]:
        x = np.array([g[name] for g in got], float)
        se = math.sqrt(float(pr[name]) * (1 - float(pr[name])) / len(x))
        assert abs(x.mean() - float(pr[name])) < 4 * se, (name, x.mean(), float(pr[name]), se)
