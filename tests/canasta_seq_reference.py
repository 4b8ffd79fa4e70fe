"""A plain search over every lay of a Samba-family hand (groups, sequences, a wild-card meld),
written without the DP of simkit/games/canasta/exact_seq.py, for its tests and for
scripts that estimate the 15-card odds by simulation.

A hand: ``nat`` a Counter of ``(rank index, suit)`` naturals (rank index 0 = the lowest rank of
``values``), ``jokers``, ``deuces``.  Every multiset of sequences (a suit's consecutive ranks,
three to seven long) the hand's cards allow is tried; with the rest, every choice of groups (per
rank: none, or ``k >= 2`` naturals with ``a`` jokers and ``b`` deuces, ``a + b <= max_wild``,
``k + a + b >= 3``), then, with ``wild_meld``, every meld of 3..``wild_meld`` of the wild cards
left.  ``up``: the rank index of the pile's top card; the lay must then hold a group of that rank
with the top card and two or more naturals of the hand (the top card's value counted).
"""
from __future__ import annotations

from functools import lru_cache

JOKER, DEUCE = 50, 20


def _runs(nranks, suits):
    return [(s, a, n) for s in range(suits) for a in range(nranks) for n in range(3, 8)
            if a + n <= nranks]


def _groups(values, rest, jokers, deuces, max_wild, wild_meld, up):
    @lru_cache(maxsize=None)
    def go(i, j, d):
        if i == len(values):
            best = 0
            if wild_meld:
                for a in range(j + 1):
                    for b in range(d + 1):
                        if 3 <= a + b <= wild_meld:
                            best = max(best, JOKER * a + DEUCE * b)
            return best
        n = rest[i]
        extra = 1 if i == up else 0
        best = -10 ** 9 if i == up else go(i + 1, j, d)
        for k in range(2, n + 1):
            for a in range(min(j, max_wild) + 1):
                for b in range(min(d, max_wild - a) + 1):
                    if k + extra + a + b < 3:
                        continue
                    best = max(best, (k + extra) * values[i] + JOKER * a + DEUCE * b
                               + go(i + 1, j - a, d - b))
        return best
    return go(0, jokers, deuces)


def plain_lay(values, suits, nat, jokers, deuces, max_wild=2, wild_meld=0, up=None,
              sequences=True):
    """The most value any lay of the hand holds (see the module docstring); ``-10**9`` when
    ``up`` is given and no lay holds the required group; ``sequences=False``: groups only."""
    runs = _runs(len(values), suits) if sequences else []
    cnt = dict(nat)
    best = -10 ** 9

    def rec(start, seq_value):
        nonlocal best
        rest = [sum(cnt.get((r, s), 0) for s in range(suits)) for r in range(len(values))]
        best = max(best, seq_value + _groups(tuple(values), tuple(rest), jokers, deuces,
                                             max_wild, wild_meld, up))
        for i in range(start, len(runs)):
            s, a, n = runs[i]
            if all(cnt.get((r, s), 0) > 0 for r in range(a, a + n)):
                for r in range(a, a + n):
                    cnt[(r, s)] -= 1
                rec(i, seq_value + sum(values[a:a + n]))
                for r in range(a, a + n):
                    cnt[(r, s)] += 1
    rec(0, 0)
    return best
