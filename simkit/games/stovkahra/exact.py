"""Exact probabilities of a Stovkahra deal (no sampling): the combinations of an eight-card hand
(lines 203-211) and where the trump seven lies (line 215: the turned bottom card is the dealer's).

An eight-card hand of a shuffled 32-card pack is a multivariate hypergeometric draw of rank
counts; :func:`hand_distribution` enumerates every count vector (each rank 0..4, summing to 8)
with its weight ``prod C(4, c_r) / C(32, 8)`` as an exact fraction.  These hold for any seat of a
shuffled deal (a game's first deal; every deal with ``dealing=shuffle``).
"""
from __future__ import annotations

import itertools
import time
from fractions import Fraction
from math import comb


from simkit.core.exact import tidy
from simkit.core.registry import game_string
from simkit.games.stovkahra.engine import COMBO3, COMBO4

RANKS = (14, 13, 12, 11, 10, 9, 8, 7)
NAMES = {14: "A", 13: "K", 12: "O", 11: "U", 10: "10", 9: "9", 8: "8", 7: "7"}


def hand_points(counts: dict[int, int]) -> int:
    """Combination points of a hand with ``counts[rank]`` cards of each rank (all declared)."""
    return sum(COMBO4[r] if c == 4 else COMBO3[r] for r, c in counts.items()
               if r in COMBO3 and c >= 3)


def hand_distribution() -> dict[int, Fraction]:
    """Exact distribution of an eight-card hand's combination points (everything declared)."""
    total = comb(32, 8)
    out: dict[int, Fraction] = {}
    for cs in itertools.product(range(5), repeat=8):
        if sum(cs) != 8:
            continue
        w = 1
        for c in cs:
            w *= comb(4, c)
        p = hand_points(dict(zip(RANKS, cs)))
        out[p] = out.get(p, Fraction(0)) + Fraction(w, total)
    return dict(sorted(out.items()))


def probabilities() -> dict[str, Fraction]:
    """Exact chances for one eight-card hand of a shuffled pack, and the trump seven's seat."""
    total = comb(32, 8)
    four = Fraction(comb(28, 4), total)            # all four of a rank
    three = Fraction(4 * comb(28, 5), total)       # exactly three of a rank
    out = {"four_of_rank": four, "three_of_rank": three}
    dist = hand_distribution()
    out["any_combination"] = 1 - dist.get(0, Fraction(0))
    out["combo_points_mean"] = sum(p * q for p, q in dist.items())
    # the bottom card (trumps) is the dealer's: he holds the trump seven if it is the bottom card
    # (1/8) or among his other seven of the 31 left; any other seat: among its eight of the 31
    out["trump7_dealer"] = Fraction(1, 8) + Fraction(7, 8) * Fraction(7, 31)
    out["trump7_other_seat"] = Fraction(7, 8) * Fraction(8, 31)
    out["trumps_dealer_mean"] = 1 + Fraction(7 * 7, 31)
    out["trumps_other_seat_mean"] = Fraction(8 * 7, 31)
    return out


def exact(rules, strategies=None, grid_axes=None):
    """``simkit exact stovkahra``: ``(JSON object, tidy table)`` of :func:`probabilities`."""
    t0 = time.perf_counter()
    from simkit.games.stovkahra import SPEC as spec
    pr = probabilities()
    dist = hand_distribution()
    rows = {k: float(v) for k, v in pr.items()}
    rows.update({f"combo_points_{p}": float(q) for p, q in dist.items()})
    table = tidy(spec, rules, rows, "-", "exact enumeration (fractions)")
    obj = dict(game="stovkahra", rules=game_string(spec, rules),
               method="exact enumeration of rank counts (fractions)",
               exact={k: str(v) for k, v in pr.items()},
               seconds=round(time.perf_counter() - t0, 3),
               summary=[f"an eight-card hand holds a declarable combination with probability "
                        f"{float(pr['any_combination']):.6f} (mean "
                        f"{float(pr['combo_points_mean']):.4f} points if all declared); the "
                        f"dealer holds the trump seven with {float(pr['trump7_dealer']):.6f}, "
                        f"each other seat {float(pr['trump7_other_seat']):.6f}"])
    return obj, table
