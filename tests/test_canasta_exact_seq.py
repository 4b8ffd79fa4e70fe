"""The Samba family's meld and first-pile odds with sequences (simkit/games/canasta/exact_seq.py,
a DP over ranks on sets of partial lays) against things it did not write:

* every hand of reduced packs (each natural class and wild/black-three class with its copies;
  a hand is a multiset of classes weighted by its ways, so every physical hand is counted once),
  its best lay by the plain search over every lay (tests/canasta_seq_reference.py): the
  fractions must be equal, for Samba's lay and for Bolivia's (a wild-card meld);
* a simulation of the real 156-card hand-held pack (four suits, three copies, six jokers, twelve
  deuces, six black threes) at hands of five: n = 20,000 hands, seed fixed, the plain search's
  shares within 4 standard errors (from the exact share) of the DP's.
"""
from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from simkit.games.canasta import exact_seq as S
from tests.canasta_seq_reference import plain_lay

Z = 4.0


def _hands(pack: S.SeqPack, hand: int):
    """Every hand as ``(naturals Counter, jokers, deuces, black threes, ways)``."""
    classes = [(r, s) for r in range(len(pack.values)) for s in range(pack.suits)]
    caps = [pack.copies] * len(classes) + [pack.jokers, pack.deuces, pack.black3]

    def rec(i, left, picked):
        if i == len(caps):
            if left == 0:
                yield list(picked)
            return
        for k in range(min(caps[i], left) + 1):
            picked.append(k)
            yield from rec(i + 1, left - k, picked)
            picked.pop()
    for ks in rec(0, hand, []):
        nat = Counter({c: k for c, k in zip(classes, ks) if k})
        j, d, b = ks[-3:]
        ways = math.prod(math.comb(cap, k) for cap, k in zip(caps, ks))
        yield nat, j, d, b, ways


def _brute(pack: S.SeqPack, hand: int, minima):
    """meldM and take_first_pile (the hand uniform, the upcard uniform over the plain cards not
    held) by the plain search over every lay of every hand."""
    total = math.comb(pack.size, hand)
    meld, groups = Counter(), Counter()
    take = pair = Fraction(0)
    per_rank = pack.suits * pack.copies
    for nat, j, d, b, ways in _hands(pack, hand):
        v = plain_lay(pack.values, pack.suits, nat, j, d, pack.max_wild, pack.wild_meld)
        g = plain_lay(pack.values, pack.suits, nat, j, d, pack.max_wild, pack.wild_meld,
                      sequences=False)
        for m in minima:
            meld[m] += ways * (v >= m)
            groups[m] += ways * (g >= m)
        held_plain = hand - j - d
        for x in range(len(pack.values)):
            nx = sum(nat[(x, s)] for s in range(pack.suits))
            if nx < 2:
                continue
            q = Fraction(ways * (per_rank - nx), total * (pack.plain - held_plain))
            pair += q
            if plain_lay(pack.values, pack.suits, nat, j, d, pack.max_wild, pack.wild_meld,
                         up=x) >= minima[0]:
                take += q
    out = {f"meld{m}": Fraction(meld[m], total) for m in minima}
    out["take_first_pile"] = take
    out["take_pair_dp"] = pair
    return out, {m: Fraction(groups[m], total) for m in minima}


@pytest.mark.parametrize("wild_meld", [0, 7])
def test_reduced_pack_every_hand_against_the_plain_search(wild_meld):
    """Five ranks (values 5 5 10 10 20) x two suits x two copies, two jokers, two deuces, two
    black threes (26 cards), hands of six: the DP's fractions equal the search's exactly; the
    thresholds all bite (neither 0 nor 1) and sequences change the answer (a groups-only lay
    gives other fractions)."""
    pack = S.SeqPack((5, 5, 10, 10, 20), 2, 2, 2, 2, 2, max_wild=2, wild_meld=wild_meld)
    minima = (50, 70, 90)
    S.seq_odds.cache_clear()
    ex = S.seq_odds(pack, 6, minima)
    bf, groups_only = _brute(pack, 6, minima)
    assert ex == bf
    assert all(0 < ex[f"meld{m}"] < 1 for m in minima) and 0 < ex["take_first_pile"] < 1
    assert all(groups_only[m] < ex[f"meld{m}"] for m in minima)


def test_a_long_suit_splits_into_pieces():
    """Eight ranks of one suit, two copies, one joker, one deuce, hands of eight: runs longer than
    seven are laid as pieces of three to seven (the search), as one open run (the DP)."""
    pack = S.SeqPack((5, 5, 5, 5, 10, 10, 10, 20), 1, 2, 1, 1, 1, max_wild=2)
    minima = (50, 80, 100)
    ex = S.seq_odds(pack, 8, minima)
    bf, groups_only = _brute(pack, 8, minima)
    assert ex == bf
    assert 0 < ex["meld100"] < 1 and groups_only[100] < ex["meld100"]


SAMBA_VALUES = (5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20)        # ranks 4..A (READINGS 3.1)


def _samba_pack(wild_meld=0):
    return S.SeqPack(SAMBA_VALUES, 4, 3, 6, 12, 6, max_wild=2, wild_meld=wild_meld)


def test_real_pack_small_hands_against_simulation():
    """The 156 cards a Samba hand is held from, hands of five (the DP at fifteen is out of
    reach, see exact_seq's docstring): n = 20,000 uniform hands and upcards (numpy, seed fixed),
    each share within 4 SE (sqrt(p(1-p)/n) at the exact p) of the DP's fraction."""
    pack = _samba_pack()
    hand, minima, n = 5, (50, 90, 120), 20_000
    ex = S.seq_odds(pack, hand, minima)
    cards = [("n", r, s) for r in range(11) for s in range(4) for _ in range(3)]
    cards += [("j",)] * 6 + [("d",)] * 12 + [("b",)] * 6
    assert len(cards) == 156
    rng = np.random.default_rng(2026120427)
    hits = Counter()
    for _ in range(n):
        idx = rng.permutation(156)
        h = [cards[i] for i in idx[:hand]]
        nat = Counter((c[1], c[2]) for c in h if c[0] == "n")
        j, d = sum(c[0] == "j" for c in h), sum(c[0] == "d" for c in h)
        up = next(cards[i] for i in idx[hand:] if cards[i][0] in "nb")   # uniform plain card
        v = plain_lay(SAMBA_VALUES, 4, nat, j, d, 2, 0)
        for m in minima:
            hits[f"meld{m}"] += v >= m
        if up[0] == "n" and sum(nat[(up[1], s)] for s in range(4)) >= 2:
            hits["take_pair_dp"] += 1
            hits["take_first_pile"] += plain_lay(SAMBA_VALUES, 4, nat, j, d, 2, 0,
                                                 up=up[1]) >= minima[0]
    for k in [f"meld{m}" for m in minima] + ["take_first_pile", "take_pair_dp"]:
        p = float(ex[k])
        se = math.sqrt(p * (1 - p) / n)
        assert abs(hits[k] / n - p) < Z * se, (k, hits[k] / n, p, se)


# ------------------------------------------------------------------ one threshold, wilds fixed

def _crossed_only_with_wilds(pack, hand, T):
    """Ways of the hands whose naturals alone lay less than ``T`` and that lay ``T`` with their
    wild cards (the plain search)."""
    n = 0
    for nat, j, d, b, ways in _hands(pack, hand):
        if j + d and plain_lay(pack.values, pack.suits, nat, 0, 0, pack.max_wild) < T <= \
                plain_lay(pack.values, pack.suits, nat, j, d, pack.max_wild):
            n += ways
    return n


def test_threshold_dp_equals_the_plain_search():
    """seq_odds_at (one threshold, the wild cards fixed first and cut to what can matter, a
    prefix reaching T absorbed) on the 26-card reduced pack, hands of six: meldT for T = 50, 70,
    90 and take_first_pile at 50 and 70 equal the plain search's fractions exactly; at each T
    some hands cross it only with their wild cards, and some wild classes are cut (two jokers
    at 50 count as one)."""
    pack = S.SeqPack((5, 5, 10, 10, 20), 2, 2, 2, 2, 2, max_wild=2)
    bf, _ = _brute(pack, 6, (50, 70, 90))
    for T in (50, 70, 90):
        assert S.seq_odds_at(pack, 6, T) == bf[f"meld{T}"], T
        assert _crossed_only_with_wilds(pack, 6, T) > 0
    assert S.seq_odds_at(pack, 6, 50, take=True) == bf["take_first_pile"]
    bf70, _ = _brute(pack, 6, (70,))
    assert S.seq_odds_at(pack, 6, 70, take=True) == bf70["take_first_pile"]
    assert 0 < bf70["take_first_pile"] < bf["take_first_pile"]
    assert S.wild_classes(50, 2, 1) == (1, 0) and S.wild_classes(70, 1, 2) == (1, 1)


def test_threshold_dp_with_the_wild_card_meld_equals_the_plain_search():
    """Bolivia's lay (a wild-card meld of 3-7): seq_odds_at's wild classes
    (wild_classes_meld: two wild cards or fewer as Samba, three or more worth T alone = every
    hand) equal the plain search's fractions exactly on the reduced pack (hands of six: meld50,
    70, 90, take_first_pile at 50 and 70) and the long-suit pack (eight: meld80, 100, take at
    80); the wild-card meld raises meld50 above Samba's lay's, and the cut is used."""
    pack = S.SeqPack((5, 5, 10, 10, 20), 2, 2, 2, 2, 2, max_wild=2, wild_meld=7)
    samba = S.SeqPack((5, 5, 10, 10, 20), 2, 2, 2, 2, 2, max_wild=2)
    bf, _ = _brute(pack, 6, (50, 70, 90))
    for T in (50, 70, 90):
        assert S.seq_odds_at(pack, 6, T) == bf[f"meld{T}"], T
    assert S.seq_odds_at(pack, 6, 50, take=True) == bf["take_first_pile"]
    bf70, _ = _brute(pack, 6, (70,))
    assert S.seq_odds_at(pack, 6, 70, take=True) == bf70["take_first_pile"]
    assert bf["meld50"] > S.seq_odds_at(samba, 6, 50)
    # the take cannot gain here: a pair and the upcard take two wild cards, and with three the
    # best two of this pack's (a joker among them) already reach 70
    assert bf["take_first_pile"] == S.seq_odds_at(samba, 6, 50, take=True)
    assert S.wild_classes_meld(pack, 50, 0, 3) == ("all", 3)
    assert S.wild_classes_meld(pack, 70, 0, 3) == (0, 3)       # 60 alone: no cut
    assert S.wild_classes_meld(pack, 50, 2, 0) == (1, 0)       # two or fewer: Samba's cut
    long = S.SeqPack((5, 5, 5, 5, 10, 10, 10, 20), 1, 2, 1, 1, 1, max_wild=2, wild_meld=7)
    bf, _ = _brute(long, 8, (80, 100))
    assert S.seq_odds_at(long, 8, 80) == bf["meld80"]
    assert S.seq_odds_at(long, 8, 100) == bf["meld100"]
    assert S.seq_odds_at(long, 8, 80, take=True) == bf["take_first_pile"]


def test_threshold_dp_long_suit_and_real_pack():
    """The long-suit pack (runs split into pieces, eight cards) at T = 80 and 100, and the real
    156-card pack at hands of four against the set DP without a threshold (seq_odds)."""
    pack = S.SeqPack((5, 5, 5, 5, 10, 10, 10, 20), 1, 2, 1, 1, 1, max_wild=2)
    bf, _ = _brute(pack, 8, (80, 100))
    assert S.seq_odds_at(pack, 8, 80) == bf["meld80"]
    assert S.seq_odds_at(pack, 8, 100) == bf["meld100"]
    assert S.seq_odds_at(pack, 8, 80, take=True) == bf["take_first_pile"]
    real = _samba_pack()
    ex = S.seq_odds(real, 4, (50, 90))
    assert S.seq_odds_at(real, 4, 50) == ex["meld50"]
    assert S.seq_odds_at(real, 4, 90) == ex["meld90"]
    assert S.seq_odds_at(real, 4, 50, take=True) == ex["take_first_pile"]
    assert 0 < ex["meld50"] < 1 and 0 < ex["take_first_pile"]


# the plain search's estimates at Samba's 15 cards: ``python scripts/samba_meld_sim.py 100000
# 20261204`` (n = 100,000 uniform hands and upcards, seed 20261204, run 2026-12-04)
SIM15 = {(50, False): 0.9142, (90, False): 0.7123, (120, False): 0.4706, (150, False): 0.2446,
         (50, True): 0.2624}
SIM15_N = 100_000


def test_samba_15_card_table_within_4_se_of_the_simulation():
    """Every exact 15-card figure of exact_seq.SAMBA15 (the threshold DP) within 4 SE
    (sqrt(p(1-p)/n) at the exact p, n = 100,000) of the plain search's simulation estimate."""
    assert S.SAMBA15, "no 15-card figure computed"
    for key, v in S.SAMBA15.items():
        p = float(Fraction(v))
        se = math.sqrt(p * (1 - p) / SIM15_N)
        assert abs(SIM15[key] - p) < Z * se, (key, SIM15[key], p, se)


# Bolivia's lay (a wild-card meld of 3-7; Brazilian's at score 0 is the same): ``python
# scripts/samba_meld_sim.py 100000 20261205 7`` (n = 100,000, seed 20261205, run 2026-12-04)
SIM15_BOLIVIA = {(50, False): 0.9135, (90, False): 0.7151, (120, False): 0.4805,
                 (150, False): 0.2524, (50, True): 0.2635}


def test_bolivia_15_card_table_within_4_se_of_the_simulation():
    """Every exact 15-card figure of exact_seq.BOLIVIA15 within 4 SE (sqrt(p(1-p)/n) at the
    exact p, n = 100,000) of the plain search's simulation of Bolivia's lay."""
    assert S.BOLIVIA15, "no 15-card figure computed"
    for key, v in S.BOLIVIA15.items():
        p = float(Fraction(v))
        se = math.sqrt(p * (1 - p) / SIM15_N)
        assert abs(SIM15_BOLIVIA[key] - p) < Z * se, (key, SIM15_BOLIVIA[key], p, se)


@pytest.mark.slow
def test_bolivia_15_card_meld50_recomputed():
    """meld50 of Bolivia's lay at 15 cards recomputed by seq_odds_at equals the table (about
    80 s)."""
    assert S.seq_odds_at(_samba_pack(wild_meld=7), 15, 50) == \
        Fraction(S.BOLIVIA15[(50, False)])


@pytest.mark.slow
def test_samba_15_card_meld50_recomputed():
    """meld50 at Samba's 15 cards recomputed by seq_odds_at equals the table (about 80 s)."""
    assert S.seq_odds_at(_samba_pack(), 15, 50) == Fraction(S.SAMBA15[(50, False)])
