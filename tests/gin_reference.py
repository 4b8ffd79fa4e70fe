"""A slow, plain-Python statement of gin rummy's meld rules, written from the text only
(``003_25b072003b534ab4.txt`` lines 6, 9-11): cards are ``(rank, suit)`` with rank 1 (ace) ..
13 (king), pictures worth 10.  Used by the tests to check :mod:`simkit.games.gin.melds`."""
from __future__ import annotations

import itertools
from functools import lru_cache


def value(card):
    return min(card[0], 10)


def is_meld(cards) -> bool:
    cards = list(cards)
    if len(cards) < 3:
        return False
    ranks = {r for r, _ in cards}
    suits = {s for _, s in cards}
    if len(ranks) == 1 and len(cards) <= 4 and len(suits) == len(cards):
        return True
    if len(suits) == 1:
        rs = sorted(r for r, _ in cards)
        return all(b == a + 1 for a, b in zip(rs, rs[1:]))
    return False


def all_melds(hand):
    """Every meld contained in ``hand`` (as frozensets)."""
    hand = sorted(hand)
    out = []
    for k in range(3, len(hand) + 1):
        for combo in itertools.combinations(hand, k):
            if is_meld(combo):
                out.append(frozenset(combo))
    return out


def arrangements(hand):
    """Every set of disjoint melds from ``hand`` (including none), as tuples of frozensets."""
    melds = all_melds(hand)
    res = []

    def rec(i, used, chosen):
        if i == len(melds):
            res.append(tuple(chosen))
            return
        rec(i + 1, used, chosen)
        m = melds[i]
        if not (m & used):
            rec(i + 1, used | m, chosen + [m])
    rec(0, frozenset(), [])
    return res


@lru_cache(maxsize=None)
def min_deadwood(hand: frozenset) -> int:
    best = sum(value(c) for c in hand)
    for arr in arrangements(hand):
        used = frozenset().union(*arr) if arr else frozenset()
        best = min(best, sum(value(c) for c in hand - used))
    return best


def best_after_discard(hand: frozenset) -> int:
    return min(min_deadwood(hand - {c}) for c in hand)


def fits(card, meld) -> bool:
    """Whether ``card`` could join ``meld`` at all: a set of its rank or a run of its suit (a
    necessary condition, which keeps the search below small)."""
    ranks = {r for r, _ in meld}
    suits = {s for _, s in meld}
    return card[0] in ranks if len(ranks) == 1 else card[1] in suits


def can_lay_off(cards, melds) -> bool:
    """Whether ``cards`` can all be added to the knocker's ``melds`` (each to one meld) so that
    every meld stays a meld."""
    cards = list(cards)
    options = [[j for j, m in enumerate(melds) if fits(c, m)] for c in cards]
    for assign in itertools.product(*options):
        ext = [set(m) for m in melds]
        for c, j in zip(cards, assign):
            ext[j].add(c)
        if all(is_meld(e) for e in ext):
            return True
    return False


def laid_off(arr, defender: frozenset) -> int:
    """The defender's least deadwood when he may lay off on the knocker's melds ``arr``."""
    near = [c for c in defender if any(fits(c, m) for m in arr)]
    best = min_deadwood(defender)
    for k in range(1, len(near) + 1):
        for sub in itertools.combinations(near, k):
            if can_lay_off(sub, arr):
                best = min(best, min_deadwood(defender - set(sub)))
    return best


def knock(knocker: frozenset, defender: frozenset) -> tuple[int, int]:
    """(knocker deadwood, defender deadwood after his best layoffs).  The knocker lays down a
    minimum-deadwood arrangement, the one (among those) that leaves the defender most."""
    dk = min_deadwood(knocker)
    if dk == 0:
        return 0, min_deadwood(defender)
    worst = -1
    for arr in arrangements(knocker):
        used = frozenset().union(*arr) if arr else frozenset()
        if sum(value(c) for c in knocker - used) != dk:
            continue
        worst = max(worst, laid_off(arr, defender))
    return dk, worst


def points(dk, dd, gin_bonus=25, undercut_bonus=25, undercut_on_equal=True) -> int:
    """The knocker's points (negative: the defender's), lines 12-14."""
    if dk == 0:
        return gin_bonus + dd
    if dd < dk or (dd == dk and undercut_on_equal):
        return -(dk - dd + undercut_bonus)
    return dd - dk


def knock_block(knocker: frozenset, defender: frozenset, limit=10, **scoring) -> tuple[int, int]:
    """(points, knocker deadwood) when the knocker may lay down any arrangement with deadwood
    ``<= limit``: the most points after the defender's best layoffs, and the least deadwood
    that scores them.  Gin (no layoffs) is laid down as gin."""
    if min_deadwood(knocker) == 0:
        return points(0, min_deadwood(defender), **scoring), 0
    best = None
    for arr in arrangements(knocker):
        used = frozenset().union(*arr) if arr else frozenset()
        dk = sum(value(c) for c in knocker - used)
        if dk > limit:
            continue
        key = (points(dk, laid_off(arr, defender), **scoring), -dk)
        best = key if best is None else max(best, key)
    return best[0], -best[1]


def from_codes(codes) -> frozenset:
    """simkit card codes (``suit * 16 + rank``, ace 14) to ``(rank, suit)`` with the ace low."""
    out = set()
    for c in codes:
        r, s = int(c) & 15, int(c) >> 4
        out.add((1 if r == 14 else r, s))
    return frozenset(out)
