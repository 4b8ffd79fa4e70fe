"""Exact odds of a dealt Oklahoma hand (no sampling): the Q♠, the joker, wild cards and the
hand's value in hand (line 87), for any seat's 13 cards of a shuffled 105-card pack (line 85).

A hand is a multivariate hypergeometric draw over six classes of cards that line 87 values
alike: aces (8 cards, 20 in hand), the two Q♠ (100), the other K..8 (46 cards, 10), 7..3
(40 cards, 5), deuces (8, 20) and the joker (1, 200).  :func:`class_counts` enumerates every
count vector summing to 13 with its weight ``prod C(n_i, k_i) / C(105, 13)`` as an exact
fraction; every quantity below is a sum over them.
"""
from __future__ import annotations

import itertools
import time
from fractions import Fraction
from math import comb

from simkit.core.exact import tidy
from simkit.core.registry import game_string
from simkit.errors import SimkitError

# (name, cards in the pack, value in hand): line 87
CLASSES = (("aces", 8, 20), ("qs", 2, 100), ("k_to_8", 46, 10), ("7_to_3", 40, 5),
           ("deuces", 8, 20), ("joker", 1, 200))
PACK = sum(n for _, n, _ in CLASSES)
HAND = 13


def class_counts(hand: int = HAND):
    """Every ``(counts, probability)`` of a ``hand``-card hand over :data:`CLASSES`."""
    total = comb(PACK, hand)
    sizes = [n for _, n, _ in CLASSES]
    for ks in itertools.product(*[range(min(n, hand) + 1) for n in sizes[:-1]]):
        rest = hand - sum(ks)
        if not 0 <= rest <= sizes[-1]:
            continue
        ks = ks + (rest,)
        w = 1
        for n, k in zip(sizes, ks):
            w *= comb(n, k)
        yield ks, Fraction(w, total)


def probabilities(hand: int = HAND) -> dict[str, Fraction]:
    """Exact chances and means for one dealt hand: the Q♠ held (once, twice), the joker, the
    number of wild cards (deuces and joker; its law), the value in hand (its mean and law)."""
    out: dict[str, Fraction] = {}
    add = lambda k, p: out.__setitem__(k, out.get(k, Fraction(0)) + p)  # noqa: E731
    for ks, p in class_counts(hand):
        a, q, t, f, d, j = ks
        wild = d + j
        value = sum(k * v for k, (_, _, v) in zip(ks, CLASSES))
        add("qs_held", p if q else 0)
        add("qs_both", p if q == 2 else 0)
        add("joker_held", p if j else 0)
        add("no_wild", p if wild == 0 else 0)
        add("qs_without_wild", p if q and wild == 0 else 0)
        add("wilds_mean", p * wild)
        add("value_mean", p * value)
        add(f"wilds_{wild}", p)
        add(f"value_{value:03d}", p)
    return out


def exact(rules, strategies=None, grid_axes=None):
    """``simkit exact oklahoma``: ``(JSON object, tidy table)`` of :func:`probabilities`."""
    if grid_axes:
        raise SimkitError("simkit exact oklahoma takes no --grid: the dealt hand's odds do not "
                          "depend on options or strategies")
    from simkit.games.oklahoma import SPEC
    t0 = time.perf_counter()
    pr = probabilities()
    table = tidy(SPEC, rules, {k: float(v) for k, v in pr.items()}, "-",
                 "exact enumeration (fractions)")
    head = {k: v for k, v in pr.items() if not k[-1].isdigit()}
    obj = dict(game="oklahoma", rules=game_string(SPEC, rules),
               method="exact enumeration of card-class counts (fractions)",
               exact={k: str(v) for k, v in pr.items()},
               seconds=round(time.perf_counter() - t0, 3),
               summary=[f"a dealt 13-card hand holds the Q♠ with probability "
                        f"{float(pr['qs_held']):.6f} (both: {float(pr['qs_both']):.6f}), the "
                        f"joker with {float(pr['joker_held']):.6f}, no wild card with "
                        f"{float(pr['no_wild']):.6f}; on average {float(pr['wilds_mean']):.4f} "
                        f"wild cards and {float(pr['value_mean']):.3f} points in hand"],
               means={k: float(v) for k, v in head.items()})
    return obj, table
