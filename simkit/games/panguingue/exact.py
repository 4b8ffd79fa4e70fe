"""Exact odds of a dealt Panguingue hand (no sampling): valle cards and the conditions held, for
any seat's ten cards of the shuffled pack (line 90: ``packs`` Spanish packs, less one set of
spades when removed).

The hand is a multivariate hypergeometric draw over the pack's 40 kinds of card (``packs``
copies each).  The valle cards (3, 5, 7: line 97) are ``12 * packs`` of them: their number is
hypergeometric.  The conditions the ten cards hold before any draw (line 98) are counted by
linearity of expectation, each chance an inclusion-exclusion over the card kinds absent
(``P(kinds S all absent) = C(N - n_S, 10) / C(N, 10)``):

* ``one_suit_valle_mean``: kinds of valle card held three times or more (a one-suit valle set:
  4 chips in spades, 2 otherwise);
* ``mixed_valle_mean``: valle ranks held in three suits or more (a set of different suits, 1);
* ``rope_mean``: A-2-3 and K-Q-J of a suit held (2 in spades, 1 otherwise);
* ``conditions_mean`` their sum, ``meld_kinds_mean`` the kinds held three times or more (any
  one-suit set, the condition or not).
"""
from __future__ import annotations

import itertools
import time
from fractions import Fraction
from math import comb

from simkit.core.exact import tidy
from simkit.core.registry import game_string
from simkit.errors import SimkitError

HAND = 10
VALLE = (2, 4, 6)         # rank positions of 3, 5, 7 (A, 2-7, J, Q, K)
SPADES = 3


def kind_counts(rules):
    """Copies of each kind ``suit * 10 + pos`` in the pack."""
    return [rules.packs - (1 if (rules.spades_removed and k // 10 == SPADES) else 0)
            for k in range(40)]


def probabilities(rules, hand: int = HAND) -> dict[str, Fraction]:
    n = kind_counts(rules)
    N = sum(n)
    total = comb(N, hand)

    def absent(kinds):
        return Fraction(comb(N - sum(n[k] for k in kinds), hand), total)

    def all_present(kinds):
        return sum(((-1) ** len(S)) * absent(S) for r in range(len(kinds) + 1)
                   for S in itertools.combinations(kinds, r))

    def at_least(k, m):
        return 1 - sum(Fraction(comb(n[k], j) * comb(N - n[k], hand - j), total)
                       for j in range(m))

    out: dict[str, Fraction] = {}
    nv = sum(n[s * 10 + r] for s in range(4) for r in VALLE)
    for k in range(hand + 1):
        out[f"valle_{k:02d}"] = Fraction(comb(nv, k) * comb(N - nv, hand - k), total)
    out["valle_mean"] = Fraction(hand * nv, N)
    out["valle_held"] = 1 - out["valle_00"]
    out["one_suit_valle_mean"] = sum(at_least(s * 10 + r, 3) for s in range(4) for r in VALLE)
    out["meld_kinds_mean"] = sum(at_least(k, 3) for k in range(40))
    mixed = Fraction(0)
    for r in VALLE:
        kinds = [s * 10 + r for s in range(4)]
        for trio in itertools.combinations(kinds, 3):      # exactly these three suits present
            mixed += all_present(list(trio)) - all_present(kinds)
        mixed += all_present(kinds)                         # all four
    out["mixed_valle_mean"] = mixed
    out["rope_mean"] = sum(all_present([s * 10 + p for p in ps]) for s in range(4)
                           for ps in ((0, 1, 2), (7, 8, 9)))
    out["conditions_mean"] = (out["one_suit_valle_mean"] + out["mixed_valle_mean"]
                              + out["rope_mean"])
    return out


def exact(rules, strategies=None, grid_axes=None):
    """``simkit exact panguingue``: ``(JSON object, tidy table)`` of :func:`probabilities`."""
    if grid_axes:
        raise SimkitError("simkit exact panguingue takes no --grid: the dealt hand's odds depend "
                          "on the pack only (-r packs=..., -r spades_removed=true)")
    from simkit.games.panguingue import SPEC
    t0 = time.perf_counter()
    pr = probabilities(rules)
    table = tidy(SPEC, rules, {k: float(v) for k, v in pr.items()}, "-",
                 "exact (fractions: hypergeometric, inclusion-exclusion)")
    head = {k: v for k, v in pr.items() if not k[-1].isdigit()}
    obj = dict(game="panguingue", rules=game_string(SPEC, rules),
               method="exact: hypergeometric laws and inclusion-exclusion over card kinds "
                      "(fractions)",
               exact={k: str(v) for k, v in pr.items()},
               seconds=round(time.perf_counter() - t0, 3),
               summary=[f"a dealt ten-card hand holds {float(pr['valle_mean']):.4f} valle cards "
                        f"on average (none with probability {float(pr['valle_00']):.6f}) and "
                        f"{float(pr['conditions_mean']):.5f} conditions (one-suit valle sets "
                        f"{float(pr['one_suit_valle_mean']):.5f}, mixed valle sets "
                        f"{float(pr['mixed_valle_mean']):.5f}, A-2-3/K-Q-J ropes "
                        f"{float(pr['rope_mean']):.5f})"],
               means={k: float(v) for k, v in head.items()})
    return obj, table
