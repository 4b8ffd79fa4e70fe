"""Exact Old Maid for two players: a Markov chain on hand sizes.

After the deal's pairs are discarded, every rank but the queens is held once by both players or
not at all (a rank of four split 1-3 leaves one card in each hand, 2-2 or 0-4 none), and of the
three queens one player holds one (an odd split) and the other none.  So the state is ``m`` (the
ranks held by both), who holds the odd queen and who draws next: the holder has ``m + 1`` cards,
the other ``m``.  A drawer who holds the queen always makes a pair (``m - 1``); one who does not
draws the queen with probability ``1 / (m + 1)`` (the queen changes hands, ``m`` stays) and
otherwise a pair.  At ``m = 0`` the holder is left with the queen and loses.

The deal's distribution of ``(m, holder)`` comes from the hypergeometric split of each rank,
summed by a small recursion over the thirteen ranks.
"""
from __future__ import annotations

from math import comb

import numpy as np


def deal_distribution(cards_first: int) -> dict[tuple[int, int], float]:
    """``{(m, holder): probability}`` when seat 0 gets ``cards_first`` of the 51 cards (holder
    0 or 1: who keeps the odd queen)."""
    # dist[(a, m)]: ways with a cards to seat 0 and m odd ranks so far (the 12 ranks of four)
    dist = {(0, 0): 1}
    for _ in range(12):
        new = {}
        for (a, m), w in dist.items():
            for k in range(5):
                key = (a + k, m + (k & 1))
                new[key] = new.get(key, 0) + w * comb(4, k)
        dist = new
    out: dict[tuple[int, int], float] = {}
    total = comb(51, cards_first)
    for (a, m), w in dist.items():
        k = cards_first - a
        if 0 <= k <= 3:
            key = (m, 0 if k & 1 else 1)
            out[key] = out.get(key, 0.0) + w * comb(3, k) / total
    return out


def two_player(first_cards: int = 26, first_drawer: int = 0, tol: float = 1e-15):
    """``(lose, draws)``: ``lose[s]`` the probability that seat ``s`` loses and ``draws[d]`` the
    probability that the game takes ``d`` draws, when seat 0 is dealt ``first_cards`` cards and
    seat ``first_drawer`` draws first."""
    lose = np.zeros(2)
    draws = []
    # state probability mass: {(m, holder, drawer): p}
    cur = {}
    for (m, h), p in deal_distribution(first_cards).items():
        cur[(m, h, first_drawer)] = cur.get((m, h, first_drawer), 0.0) + p
    while cur:
        ended = 0.0
        nxt = {}
        for (m, h, d), p in cur.items():
            if m == 0:
                lose[h] += p
                ended += p
                continue
            other = 1 - d
            if d == h:
                key = (m - 1, h, other)
                nxt[key] = nxt.get(key, 0.0) + p
            else:
                q = 1.0 / (m + 1)
                k1 = (m, d, other)
                k2 = (m - 1, h, other)
                nxt[k1] = nxt.get(k1, 0.0) + p * q
                nxt[k2] = nxt.get(k2, 0.0) + p * (1 - q)
        draws.append(ended)
        cur = {k: p for k, p in nxt.items() if p > tol}
    return lose, np.array(draws)


def analyze(rules, strategies=None, grid_axes=None):
    """What ``simkit exact old_maid`` prints (two players): each seat's chance of being left
    with the queen, the mean and the distribution of the number of draws, exactly, for the rules'
    deal (``extra``: who holds 26 of the 51 cards) and first drawer (``starter``); ``random``
    options average their two cases."""
    import time

    from simkit.core.exact import tidy
    from simkit.core.registry import game_string
    from simkit.errors import SimkitError
    if rules.players != 2:
        raise SimkitError(f"old_maid's exact analysis is for two players (players=2), not "
                          f"players={rules.players}: use simkit run")
    if grid_axes:
        raise SimkitError("old_maid's exact analysis takes no --grid")
    t0 = time.perf_counter()
    # p1 sits at the dealer's left and is dealt to first; the dealer is p2
    firsts = {"first": [26], "last": [25], "random": [26, 25]}[rules.extra]
    drawers = {"left": [0], "dealer": [1], "random": [0, 1]}[rules.starter]
    lose, draws = np.zeros(2), np.zeros(0)
    w = 1.0 / (len(firsts) * len(drawers))
    for f in firsts:
        for d in drawers:
            lo, dr = two_player(f, d)
            lose += w * lo
            if len(dr) > len(draws):
                draws = np.pad(draws, (0, len(dr) - len(draws)))
            draws[:len(dr)] += w * dr
    mean = float((np.arange(len(draws)) * draws).sum())
    from simkit.games.old_maid import SPEC as spec
    rows = {"p1_lose": float(lose[0]), "p2_lose": float(lose[1]), "draws": mean}
    rows.update({f"draws_eq_{k}": float(p) for k, p in enumerate(draws) if p > 1e-12})
    obj = dict(game="old_maid", rules=game_string(spec, rules),
               method="exact Markov chain on hand sizes, float64",
               p1_lose=rows["p1_lose"], p2_lose=rows["p2_lose"], draws=mean,
               seconds=round(time.perf_counter() - t0, 3))
    obj["summary"] = [f"p1 is left with the queen with probability {lose[0]:.6f}, p2 "
                      f"{lose[1]:.6f}; {mean:.4f} draws on average"]
    return obj, tidy(spec, rules, rows, "-", "exact")
