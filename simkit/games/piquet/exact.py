"""Exact probabilities of a Piquet deal: a 12-card hand from the 32 (``simkit exact piquet``).

Counted by combinatorics, in exact rationals: the suit-length patterns ``(a, b, c, d)`` (each
0..8, summing to 12) weigh ``prod C(8, a_i)``; a suit holding of ``m`` cards without a run of
``L`` or more is counted by enumerating the 256 holdings of the eight ranks.  Reported: carte
blanche (no K, Q, J), the distribution of the longest suit, at least one quatorze (four of a rank,
ten or higher; inclusion-exclusion over the five ranks), and a sequence of 3+, 4+, 5+ cards in
one suit.  Sets by count (:func:`sets`): the chance of exactly ``k`` quatorzes (``quatorzes_k``)
and of exactly ``k`` trios (three of a rank, ten or higher; ``trios_k``), and of at least one
trio (``trio``), counted over the cards a hand holds of each of the five ranks 10..A (the others
from the twelve 7s, 8s and 9s).  These are the dealt hand's (before the exchange); the
simulator's ``dealt_*`` metrics
and ``carte_blanche`` are compared with them in ``tests/test_piquet.py``.
"""
from __future__ import annotations

import time
from fractions import Fraction
from itertools import product
from math import comb

import pandas as pd

TOTAL = comb(32, 12)


def patterns():
    for a, b, c in product(range(9), repeat=3):
        d = 12 - a - b - c
        if 0 <= d <= 8:
            yield a, b, c, d


def p_blank() -> Fraction:
    return Fraction(comb(20, 12), TOTAL)


def longest_suit() -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for pat in patterns():
        w = comb(8, pat[0]) * comb(8, pat[1]) * comb(8, pat[2]) * comb(8, pat[3])
        out[max(pat)] = out.get(max(pat), 0) + Fraction(w, TOTAL)
    return dict(sorted(out.items()))


def p_quatorze() -> Fraction:
    return sum(Fraction((-1) ** (j + 1) * comb(5, j) * comb(32 - 4 * j, 12 - 4 * j), TOTAL)
               for j in range(1, 4))


def sets(high: int = 5, suits: int = 4, low: int = 12,
         hand: int = 12) -> dict[tuple[int, int], Fraction]:
    """The chance of exactly ``(q, t)`` quatorzes and trios in a ``hand``-card hand: each of the
    ``high`` ranks that count (10..A) is held 0..``suits`` times (``C(suits, k)`` ways each), the
    rest of the hand from the ``low`` other cards.  Parameters other than the defaults are for
    checking the count against enumerating every hand of a smaller pack."""
    total = comb(high * suits + low, hand)
    out: dict[tuple[int, int], Fraction] = {}
    for ks in product(range(suits + 1), repeat=high):
        rest = hand - sum(ks)
        if rest < 0 or rest > low:
            continue
        w = comb(low, rest)
        for k in ks:
            w *= comb(suits, k)
        key = (ks.count(suits), ks.count(suits - 1))
        out[key] = out.get(key, 0) + Fraction(w, total)
    return dict(sorted(out.items()))


def _longest_run(m: int) -> int:
    best = run = 0
    for j in range(8):
        run = run + 1 if m >> j & 1 else 0
        best = max(best, run)
    return best


def p_run(length: int) -> Fraction:
    """A run of at least ``length`` cards in one suit."""
    free = [0] * 9
    for m in range(256):
        if _longest_run(m) < length:
            free[bin(m).count("1")] += 1
    none = sum(free[a] * free[b] * free[c] * free[d] for a, b, c, d in patterns())
    return 1 - Fraction(none, TOTAL)


def table() -> pd.DataFrame:
    rows = [("carte_blanche", "a hand without K Q J", p_blank())]
    for k, p in longest_suit().items():
        rows.append((f"longest_{k}", f"the longest suit has {k} cards", p))
    rows.append(("quatorze", "at least one quatorze", p_quatorze()))
    st = sets()
    for k in range(4):
        rows.append((f"quatorzes_{k}", f"exactly {k} quatorze{'s' * (k != 1)}",
                     sum((p for (q, _), p in st.items() if q == k), Fraction(0))))
    rows.append(("trio", "at least one trio (three of a rank, ten or higher)",
                 sum((p for (_, t), p in st.items() if t), Fraction(0))))
    for k in range(5):
        rows.append((f"trios_{k}", f"exactly {k} trio{'s' * (k != 1)}",
                     sum((p for (_, t), p in st.items() if t == k), Fraction(0))))
    for L in (3, 4, 5):
        rows.append((f"run{L}", f"a sequence of {L}+ cards", p_run(L)))
    return pd.DataFrame([dict(quantity=q, what=w, probability=float(p), exact=str(p))
                         for q, w, p in rows])


def analyze(rules, strategies=None, grid_axes=None):
    """What ``simkit exact piquet`` prints: ``(JSON object, tidy table)``."""
    t0 = time.perf_counter()
    from simkit.core.exact import with_provenance
    from simkit.core.registry import game_string
    from simkit.games.piquet import SPEC as spec
    t = table()
    summary = [f"{r.what}: {r.probability:.6g} ({r.exact})" for r in t.itertuples()]
    method = "combinatorics (exact rationals) of a 12-card hand from 32"
    obj = dict(game="piquet", rules=game_string(spec, rules), method=method,
               seconds=round(time.perf_counter() - t0, 3), summary=summary)
    long = t.rename(columns={"quantity": "metric", "probability": "mean"})
    return obj, with_provenance(spec, rules, long, "-", method)
