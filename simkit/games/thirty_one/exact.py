"""Exact answers for Thirty-one by enumeration over the pack (``simkit exact thirty_one``).

* The law of a dealt three-card hand's value (best one-suit sum, A 11, faces 10, three of a kind
  30; lines 41-50, 74-82) for the 36- and 52-card packs: every one of the C(36,3) = 7,140 and
  C(52,3) = 22,100 hands, counted as exact fractions.
* P(a hand is 31) and P(at least one 31 among the m disjoint hands of a deal), by inclusion and
  exclusion over ordered tuples of disjoint 31-hands (each holds its suit's ace, so at most four).
  m is the deal's three-card groups: K+1 in the table variant (the dealer's first three, the
  table or his second hand, and each other player's), K in the draw variant.  This is the
  simulation's ``dealt_31``, whatever the strategies do.
* One exchange's best expected gain.  Table variant: over every hand and every table of three
  other cards, the best single exchange, and the best of one or all three, against the hand's
  value (the 36-card pack: 39 million deals; the 52-card pack's 407 million only when the rules
  ask for it).  ``table_first_gain_2p``: the best move's gain (one exchange or all three, as
  the baseline with ``swap_all=0`` plays when it does not knock) of the first to play with two
  players, on the deals a 31 in a hand does not end at once (the simulation's ``first_gain``
  where ``turns`` > 0): the hand is not 31, and each pair is weighted by the chance that the
  dealer's three, uniform from the other cards, are not 31 either.  Draw variant: the first
  turn's gain from drawing the stock's top blind, from the best choice between the turned card
  (seen) and the stock's top (a uniform unknown card), and from the baseline's rule (the turned
  card when it raises the hand): the simulation's ``first_gain`` with the first player not
  knocking at once.
"""
from __future__ import annotations

import time
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pandas as pd
from numba import njit

from simkit.core.exact import with_provenance
from simkit.core.registry import game_string
from simkit.errors import SimkitError


def pack(deck: int) -> list[int]:
    low = 6 if deck == 36 else 2
    return [s * 16 + r for s in range(4) for r in range(low, 15)]


def card_points(c: int) -> int:
    r = c & 15
    return 11 if r == 14 else (10 if r >= 10 else r)


def hand_value(hand, trips: bool = True) -> int:
    if trips and len({c & 15 for c in hand}) == 1:
        return 30
    return max(sum(card_points(c) for c in hand if c >> 4 == s) for s in {c >> 4 for c in hand})


def value_distribution(deck: int, trips: bool = True) -> dict[int, Fraction]:
    """P(value = v) of a uniform three-card hand, exactly."""
    counts: dict[int, int] = {}
    for h in combinations(pack(deck), 3):
        v = hand_value(h, trips)
        counts[v] = counts.get(v, 0) + 1
    total = comb(deck, 3)
    return {v: Fraction(c, total) for v, c in sorted(counts.items())}


def p_any_31(deck: int, hands: int, trips: bool = True) -> Fraction:
    """P(at least one of ``hands`` disjoint uniform three-card hands is worth 31)."""
    h31 = [frozenset(h) for h in combinations(pack(deck), 3) if hand_value(h, trips) == 31]
    ordered = [0] * (hands + 1)      # ordered k-tuples of pairwise disjoint 31-hands

    def grow(used, k):
        ordered[k] += 1
        if k == hands:
            return
        for h in h31:
            if not (h & used):
                grow(used | h, k + 1)
    grow(frozenset(), 0)
    out = Fraction(0)
    for k in range(1, hands + 1):
        tuples = Fraction(1)          # ordered k-tuples of disjoint 3-sets from the pack
        for j in range(k):
            tuples *= comb(deck - 3 * j, 3)
        out += (-1) ** (k + 1) * comb(hands, k) * Fraction(ordered[k]) / tuples
    return out


@njit(cache=True)
def _val(P, trips, a, b, c):
    if trips and (a & 15) == (b & 15) and (b & 15) == (c & 15):
        return 30
    best = 0
    for x in (a, b, c):
        s = 0
        for y in (a, b, c):
            if (y >> 4) == (x >> 4):
                s += P[y]
        best = max(best, s)
    return best


@njit(cache=True)
def _table_gain(cards, P, trips):
    """Sums over (hand, table) of: v, best single exchange, best of single or all, single > v;
    the number of (hand, table) pairs; and, for two players, the best move's gain and the weight
    of the pairs where a 31 does not end the deal at once (the hand is not 31, weighted by the
    chance that the other player's three, uniform from the other cards, are not 31 either)."""
    n = cards.shape[0]
    sv = 0.0
    s1 = 0.0
    sb = 0.0
    imp = 0.0
    cnt = 0.0
    sg = 0.0
    sw = 0.0
    rest = np.zeros(n, np.int64)
    h = np.zeros(3, np.int64)
    aces = np.zeros(4, np.int64)      # by suit, the cards a 31 is made of: an ace and two tens
    tens = np.zeros(4, np.int64)
    for q in range(n):
        aces[cards[q] >> 4] += P[cards[q]] == 11
        tens[cards[q] >> 4] += P[cards[q]] == 10
    others = (n - 6) * (n - 7) * (n - 8) / 6.0
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                h[0], h[1], h[2] = cards[i], cards[j], cards[k]
                v = _val(P, trips, h[0], h[1], h[2])
                m = 0
                for q in range(n):
                    if q != i and q != j and q != k:
                        rest[m] = cards[q]
                        m += 1
                for a in range(m):
                    for b in range(a + 1, m):
                        for c in range(b + 1, m):
                            t0, t1, t2 = rest[a], rest[b], rest[c]
                            best = 0
                            for x in range(3):
                                for y in range(3):
                                    ty = t0 if y == 0 else (t1 if y == 1 else t2)
                                    w = _val(P, trips, ty if x == 0 else h[0],
                                             ty if x == 1 else h[1], ty if x == 2 else h[2])
                                    best = max(best, w)
                            vt = _val(P, trips, t0, t1, t2)
                            sv += v
                            s1 += best
                            sb += max(best, vt)
                            if best > v:
                                imp += 1.0
                            cnt += 1.0
                            if v == 31:
                                continue
                            n31 = 0               # the 31s left among the other cards
                            for st in range(4):
                                ka, kt = aces[st], tens[st]
                                for y in (h[0], h[1], h[2], t0, t1, t2):
                                    if y >> 4 == st:
                                        ka -= P[y] == 11
                                        kt -= P[y] == 10
                                n31 += ka * kt * (kt - 1) // 2
                            w = 1.0 - n31 / others
                            sg += w * (max(best, vt) - v)
                            sw += w
    return sv, s1, sb, imp, cnt, sg, sw


@njit(cache=True)
def _draw_gain(cards, P, trips):
    """Sums over hands of the mean blind-draw gain, of the mean best first-turn gain (the
    turned card seen, the stock's top unknown) and of the baseline's (the turned card when it
    raises the hand, else the stock's top), and the number of hands."""
    n = cards.shape[0]
    g = np.zeros(n)
    blind = 0.0
    best = 0.0
    base = 0.0
    cnt = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                a, b, c = cards[i], cards[j], cards[k]
                v = _val(P, trips, a, b, c)
                tot = 0.0
                for q in range(n):
                    if q == i or q == j or q == k:
                        g[q] = 0.0
                        continue
                    d = cards[q]
                    w = max(v, max(_val(P, trips, d, b, c),
                                   max(_val(P, trips, a, d, c), _val(P, trips, a, b, d))))
                    g[q] = w - v
                    tot += g[q]
                blind += tot / (n - 3)
                e = 0.0
                eb = 0.0
                for q in range(n):
                    if q == i or q == j or q == k:
                        continue
                    e += max(g[q], (tot - g[q]) / (n - 4))
                    eb += g[q] if g[q] > 0 else (tot - g[q]) / (n - 4)
                best += e / (n - 3)
                base += eb / (n - 3)
                cnt += 1.0
    return blind, best, base, cnt


def exchange_gains(deck: int, trips: bool = True, table: bool = True, draw: bool = True) -> dict:
    cards = np.array(pack(deck), np.int64)
    P = np.array([card_points(c) for c in range(80)], np.int64)
    out = {}
    if table:
        sv, s1, sb, imp, cnt, sg, sw = _table_gain(cards, P, trips)
        out.update(table_best_single_gain=(s1 - sv) / cnt, table_best_move_gain=(sb - sv) / cnt,
                   table_single_improves=imp / cnt, table_first_gain_2p=sg / sw)
    if draw:
        blind, best, base, cnt = _draw_gain(cards, P, trips)
        out.update(draw_blind_gain=blind / cnt, draw_best_gain=best / cnt,
                   draw_baseline_gain=base / cnt)
    return out


def analyze(rules, strategies=None, grid_axes=None) -> tuple[dict, pd.DataFrame]:
    """What ``simkit exact thirty_one`` prints: ``(JSON object, tidy table)``."""
    if grid_axes:
        raise SimkitError("simkit exact thirty_one takes no --grid: its answers are the rules' "
                          "own (players, deck, variant, trips)")
    t0 = time.perf_counter()
    from simkit.games.thirty_one import SPEC as spec
    groups = rules.players + (0 if rules.variant == "draw" else 1)
    rows = []
    obj = dict(game="thirty_one", rules=game_string(spec, rules),
               method="exact enumeration (fractions; gains in float64)")
    for deck in (36, 52):
        dist = value_distribution(deck, rules.trips)
        mean = sum(v * p for v, p in dist.items())
        for v, p in dist.items():
            rows.append(dict(deck=deck, value=v, metric="p_value", mean=float(p)))
        any31 = p_any_31(deck, groups, rules.trips)
        rows += [dict(deck=deck, value=-1, metric="mean_value", mean=float(mean)),
                 dict(deck=deck, value=31, metric="p_31", mean=float(dist.get(31, 0))),
                 dict(deck=deck, value=31, metric="dealt_31", mean=float(any31))]
        obj[f"deck{deck}"] = dict(distribution={v: str(p) for v, p in dist.items()},
                                  mean_value=str(mean), p_31=str(dist.get(31, 0)),
                                  dealt_31=str(any31), dealt_groups=groups)
    gains = exchange_gains(rules.deck, rules.trips, table=rules.variant == "table" or
                           rules.deck == 36, draw=True)
    for k, g in gains.items():
        rows.append(dict(deck=rules.deck, value=-1, metric=k, mean=g))
    obj["gains"] = dict(deck=rules.deck, **gains)
    obj["seconds"] = round(time.perf_counter() - t0, 3)
    d = obj[f"deck{rules.deck}"]
    obj["summary"] = [
        f"{rules.deck} cards: mean dealt value {float(Fraction(d['mean_value'])):.4f}, "
        f"P(31) = {d['p_31']} = {float(Fraction(d['p_31'])):.6f}, P(a 31 among the {groups} "
        f"hands dealt) = {float(Fraction(d['dealt_31'])):.6f}"] + [
        f"{k}: {g:.4f}" for k, g in gains.items()]
    table = with_provenance(spec, rules, pd.DataFrame(rows), "-", "exact")
    return obj, table
