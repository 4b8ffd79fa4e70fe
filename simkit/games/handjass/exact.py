"""Exact chances of the Weis in one hand (lines 95-103): the best single Weis a hand of nine
(twelve with ``dropping=false`` and fewer than four players) dealt from the 36 cards holds, and
the chance of Stöck, by counting hands, not by sampling.

The count runs suit by suit over the 512 subsets of each suit's nine ranks, keeping (cards so far,
the ranks present in every suit so far, the longest run's class so far): a four of a kind is a
rank present in all four suits, and a run lies inside one suit.  The best single Weis is then
200 for four jacks, else 100 for four A/K/Q/10 or a run of five or more, 50 for a run of four,
20 for a run of three, 0 for none; which combinations a hand splits into when they share a card
never changes its best single value (the better one of the two is kept whole).  The
simulator's ``pK_weis_held`` is compared with these numbers in ``tests/test_handjass.py``.

Runs by length (:func:`longest_runs`, exact fractions): the chance that the longest run in one
suit of the hand has exactly ``L`` cards (``run_L``, L = 3..9; ``run_none``: no run of three),
from the number of holdings of each size of one suit whose longest run is shorter than ``L``.
"""
from __future__ import annotations

import time
from fractions import Fraction
from math import comb

import numpy as np
import pandas as pd

from simkit.core.exact import tidy
from simkit.core.registry import game_string

VALUES = (0, 20, 50, 100, 200)
RUN_CLASS_VALUE = (0, 20, 50, 100)      # longest run: none, 3, 4, 5+
JACK_BIT = 11 - 6
HUNDRED_BITS = (1 << (14 - 6)) | (1 << (13 - 6)) | (1 << (12 - 6)) | (1 << (10 - 6))


def _suit_tables():
    size = np.zeros(512, np.int64)
    cls = np.zeros(512, np.int64)
    for m in range(512):
        size[m] = bin(m).count("1")
        longest = run = 0
        for b in range(9):
            run = run + 1 if m >> b & 1 else 0
            longest = max(longest, run)
        cls[m] = 0 if longest < 3 else min(longest, 5) - 2
    return size, cls


def hand_counts(n: int) -> dict[int, int]:
    """The number of ``n``-card hands (of the 36) whose best single Weis is worth each value."""
    size, cls = _suit_tables()
    dp = np.zeros((n + 1, 512, 4), np.int64)   # [cards, ranks in every suit so far, run class]
    for m in range(512):
        if size[m] <= n:
            dp[size[m], m, cls[m]] += 1
    for _ in range(3):
        new = np.zeros_like(dp)
        idx_all = np.arange(512)
        for m in range(512):
            s, c = size[m], cls[m]
            if s > n:
                continue
            idx = idx_all & m
            for k in range(4):
                nc = max(k, c)
                np.add.at(new[:, :, nc], (slice(s, n + 1), idx), dp[:n + 1 - s, :, k])
        dp = new
    out = {v: 0 for v in VALUES}
    final = dp[n]
    for inter in range(512):
        for k in range(4):
            cnt = int(final[inter, k])
            if not cnt:
                continue
            if inter >> JACK_BIT & 1:
                v = 200
            else:
                v = max(100 if inter & HUNDRED_BITS else 0, RUN_CLASS_VALUE[k])
            out[v] += cnt
    assert sum(out.values()) == comb(36, n)
    return out


def longest_runs(n: int, ranks: int = 9, suits: int = 4) -> dict[int, Fraction]:
    """The chance that the longest run in one suit of an ``n``-card hand (from ``suits`` suits
    of ``ranks`` ranks) has exactly ``L`` cards, for L = 0 (no run of three) and 3..ranks.
    Other parameters than the defaults are for checking against enumerating a smaller pack."""
    total = comb(ranks * suits, n)
    shorter = {}   # L -> hands whose every suit's longest run is shorter than L
    for L in range(3, ranks + 2):
        free = [0] * (ranks + 1)     # holdings of one suit by size, longest run < L
        for m in range(1 << ranks):
            longest = run = 0
            for b in range(ranks):
                run = run + 1 if m >> b & 1 else 0
                longest = max(longest, run)
            if longest < L:
                free[bin(m).count("1")] += 1
        poly = [1]
        for _ in range(suits):       # the hand's size over the suits: a product of polynomials
            nxt = [0] * (len(poly) + ranks)
            for a, x in enumerate(poly):
                if x:
                    for b, y in enumerate(free):
                        nxt[a + b] += x * y
            poly = nxt
        shorter[L] = poly[n] if n < len(poly) else 0
    out = {0: Fraction(shorter[3], total)}
    for L in range(3, ranks + 1):
        out[L] = Fraction(shorter[L + 1] - shorter[L], total)
    assert sum(out.values()) == 1
    return out


def hand_size(rules) -> int:
    return 12 if (not rules.dropping and rules.players < 4) else 9


def weis_chances(rules) -> dict[str, float]:
    """``weis_best_V``: the chance that a hand's best single Weis is worth ``V``;
    ``stock``: the chance it holds trump K and Q; ``any_weis``: a Weis at all."""
    n = hand_size(rules)
    counts = hand_counts(n)
    total = comb(36, n)
    out = {f"weis_best_{v}": counts[v] / total for v in VALUES}
    out["any_weis"] = 1 - out["weis_best_0"]
    out["stock"] = comb(34, n - 2) / total
    for L, p in longest_runs(n).items():
        out["run_none" if L == 0 else f"run_{L}"] = float(p)
    return out


def exact_fractions(rules) -> dict[str, Fraction]:
    """The chances of :func:`weis_chances` that are reported as exact fractions: runs by length
    and Stöck."""
    n = hand_size(rules)
    out = {"run_none" if L == 0 else f"run_{L}": p for L, p in longest_runs(n).items()}
    out["stock"] = Fraction(comb(34, n - 2), comb(36, n))
    return out


def exact_summary(rules) -> tuple[dict, pd.DataFrame]:
    """What ``simkit exact handjass`` prints: ``(JSON object, tidy table)``."""
    t0 = time.perf_counter()
    from simkit.games.handjass import SPEC as spec
    ch = weis_chances(rules)
    n = hand_size(rules)
    rs = game_string(spec, rules)
    table = tidy(spec, rules, {k: float(v) for k, v in ch.items()}, "-", "exact count")
    fr = exact_fractions(rules)
    table.insert(table.columns.get_loc("mean") + 1, "exact",
                 [str(fr[m]) if m in fr else "" for m in table["metric"]])
    obj = dict(game="handjass", rules=rs, method=f"exact count over the C(36,{n}) hands",
               seconds=round(time.perf_counter() - t0, 3), chances=ch,
               fractions={k: str(v) for k, v in fr.items()},
               summary=[f"a {n}-card hand holds a Weis with probability {ch['any_weis']:.6f} "
                        f"(best 20: {ch['weis_best_20']:.6f}, 50: {ch['weis_best_50']:.6f}, "
                        f"100: {ch['weis_best_100']:.6f}, 200: {ch['weis_best_200']:.6f}); "
                        f"Stöck {ch['stock']:.6f}",
                        "the longest run in one suit: " + ", ".join(
                            f"{'none' if L == 0 else L} {p}" for L, p in longest_runs(n).items())])
    return obj, table
