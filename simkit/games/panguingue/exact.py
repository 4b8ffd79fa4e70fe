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

The chances of holding at least one (``p_`` rows) are not sums: each is one minus the chance of
holding none, counted by :func:`p_none`, a dynamic programme over the 40 kinds (rank by rank, the
four suits within a rank) whose state is what a forbidden meld still needs: the cards dealt so
far, per suit the length (0-2) of the run of ranks held ending at the last rank (for the ropes),
and at the current rank its suits held and cards held (for the sets).  A hand's weight is the
number of ways to draw its counts of each kind, ``prod C(n_k, c_k)``; exact integers, so
fractions.  The rows: ``p_one_suit_valle`` (a valle kind three times), ``p_mixed_valle`` (a valle
rank in three suits), ``p_valle_set`` (either), ``p_rope_spades`` and ``p_rope_other`` (A-2-3 or
K-Q-J of spades, of another suit), ``p_rope`` (either), ``p_condition`` (any condition of the
text's table) and ``p_meld`` (any legal three-card meld: a kind three times, three suits of a
rank, three aces or three kings of any suits, three in suit sequence).
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


def p_none(n, hand, kind3=(), suits3=(), rank3=(), windows=()) -> Fraction:
    """The chance that ``hand`` cards drawn from a pack of ``n[k]`` copies of kind ``k`` hold none
    of: a kind of ``kind3`` three times, a rank of ``suits3`` in three suits, three cards of a rank
    of ``rank3``, all three ranks ``lo, lo+1, lo+2`` of suit ``s`` for ``(s, lo)`` in ``windows``
    (ranks are positions 0..9, kinds ``suit * 10 + pos``)."""
    kind3, suits3, rank3, windows = set(kind3), set(suits3), set(rank3), set(windows)
    roped = {s for s, _ in windows}
    N = sum(n)
    # state: (cards so far, runs per suit, suits held at this rank, cards held at this rank)
    states = {(0, (0, 0, 0, 0), 0, 0): 1}
    for r in range(10):
        states = _merge(((u, runs, 0, 0), w) for (u, runs, _, _), w in states.items())
        for s in range(4):
            k = s * 10 + r
            top = min(n[k], 2 if k in kind3 else n[k])
            nxt: dict = {}
            for (u, runs, ns, nt), w in states.items():
                for c in range(min(top, hand - u) + 1):
                    run = runs[s]
                    if c:
                        if r in suits3 and ns + 1 >= 3 or r in rank3 and nt + c >= 3:
                            break
                        if run >= 2 and (s, r - 2) in windows:
                            break
                        key = (u + c, runs[:s] + (min(run + 1, 2) if s in roped else 0,)
                               + runs[s + 1:], ns + 1, nt + c)
                    else:
                        key = (u, runs[:s] + (0,) + runs[s + 1:], ns, nt)
                    nxt[key] = nxt.get(key, 0) + w * comb(n[k], c)
            states = nxt
    none = sum(w for (u, _, _, _), w in states.items() if u == hand)
    return Fraction(none, comb(N, hand))


def _merge(pairs):
    out: dict = {}
    for key, w in pairs:
        out[key] = out.get(key, 0) + w
    return out


def holding(n, hand: int = HAND) -> dict[str, Fraction]:
    """The ``p_`` rows: the chance of holding at least one of each (:func:`p_none`)."""
    valle_kinds = [s * 10 + r for s in range(4) for r in VALLE]
    ends = [(s, lo) for s in range(4) for lo in (0, 7)]
    rows = dict(
        p_one_suit_valle=dict(kind3=valle_kinds), p_mixed_valle=dict(suits3=VALLE),
        p_valle_set=dict(kind3=valle_kinds, suits3=VALLE),
        p_rope_spades=dict(windows=[w for w in ends if w[0] == SPADES]),
        p_rope_other=dict(windows=[w for w in ends if w[0] != SPADES]),
        p_rope=dict(windows=ends),
        p_condition=dict(kind3=valle_kinds, suits3=VALLE, windows=ends),
        p_meld=dict(kind3=range(40), suits3=range(1, 9), rank3=(0, 9),
                    windows=[(s, lo) for s in range(4) for lo in range(8)]))
    return {name: 1 - p_none(n, hand, **kw) for name, kw in rows.items()}


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
    out.update(holding(n, hand))
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
                 "exact (fractions: hypergeometric, inclusion-exclusion, a dynamic programme "
                 "over card kinds)")
    head = {k: v for k, v in pr.items() if not k[-1].isdigit()}
    obj = dict(game="panguingue", rules=game_string(SPEC, rules),
               method="exact: hypergeometric laws and inclusion-exclusion over card kinds; the "
                      "chances of holding one by a dynamic programme over card kinds (fractions)",
               exact={k: str(v) for k, v in pr.items()},
               seconds=round(time.perf_counter() - t0, 3),
               summary=[f"a dealt ten-card hand holds {float(pr['valle_mean']):.4f} valle cards "
                        f"on average (none with probability {float(pr['valle_00']):.6f}) and "
                        f"{float(pr['conditions_mean']):.5f} conditions (one-suit valle sets "
                        f"{float(pr['one_suit_valle_mean']):.5f}, mixed valle sets "
                        f"{float(pr['mixed_valle_mean']):.5f}, A-2-3/K-Q-J ropes "
                        f"{float(pr['rope_mean']):.5f})",
                        f"it holds at least one condition with probability "
                        f"{float(pr['p_condition']):.5f} (a one-suit valle set "
                        f"{float(pr['p_one_suit_valle']):.6f}, a mixed valle set "
                        f"{float(pr['p_mixed_valle']):.5f}, an A-2-3 or K-Q-J in suit "
                        f"{float(pr['p_rope']):.5f}) and some legal three-card meld with "
                        f"probability {float(pr['p_meld']):.5f}"],
               means={k: float(v) for k, v in head.items()})
    return obj, table
