"""simkit.engines.melds.moves against a brute force written from the definition of a meld.

The brute force takes every sub-multiset of a small hand and every ordering of it, and asks of
each: are these cards, in this order, a run (one suit, consecutive positions of ``seq_ranks``, a
wild anywhere, the ace one card at position 1 or 14), or, as a multiset, a set (one natural rank,
the suit rule)?  It shares no code with the engine's generator.  Melds are compared by identity:
a set by its rank and its cards, a run by its suit, first position, its cards and the positions of
its wild cards.
"""
from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.engines.melds import moves as MV
from simkit.engines.melds import rules as MR

JOKER = 64
PACK2 = [s * 16 + r for s in range(4) for r in range(2, 15)] * 2 + [JOKER]
RULES = {
    "oklahoma": MR.OKLAHOMA,
    "all_wild": MR.meld_rules(seq_ranks=MR.ACE_BOTH, min_size=3, max_size=4, set_suits=MR.SET_ANY,
                              wild_ranks=1 << 2, max_wild=4, min_natural=0),
    "distinct_low": MR.meld_rules(seq_ranks=MR.ACE_LOW, min_size=3, max_size=5,
                                  set_suits=MR.SET_DISTINCT, wild_ranks=1 << 2, max_wild=2,
                                  min_natural=1),
    "one_or_all": MR.meld_rules(seq_ranks=MR.ACE_HIGH, min_size=3, max_size=4,
                                set_suits=MR.SET_ONE_OR_ALL_DIFFERENT,
                                free_set_ranks=(1 << 14) | (1 << 13)),
}


def wild(c, R):
    return c == JOKER or (R.wild_ranks >> (c & 15)) & 1


def positions(R):
    return [q for q in range(1, 15) if (R.seq_ranks >> q) & 1]


def code_at(s, q):
    return s * 16 + (14 if q == 1 else q)


def run_keys(cards, R):
    """Every (suit, first position, cards by position) reading of the ordered ``cards`` as a run."""
    pos = positions(R)
    n = len(cards)
    out = set()
    nat = [c for c in cards if not wild(c, R)]
    w = n - len(nat)
    if not R.runs or w > R.max_wild or len(nat) < max(R.min_natural, 1) or (w and not R.run_wilds):
        return out
    for s in range(4):
        for i in range(len(pos) - n + 1):
            span = pos[i:i + n]
            if all(wild(c, R) or c == code_at(s, q) for c, q in zip(cards, span)):
                out.add(("run", s, span[0], tuple(sorted(cards)),
                         tuple(j for j, c in enumerate(cards) if wild(c, R))))
    return out


def set_key(cards, R):
    nat = [c for c in cards if not wild(c, R)]
    w = len(cards) - len(nat)
    if not R.sets or w > R.max_wild or len(nat) < R.min_natural:
        return None
    if not nat:
        low = min(r for r in range(2, 15) if (R.set_ranks >> r) & 1 and not (R.wild_ranks >> r) & 1)
        return ("set", low, tuple(sorted(cards)))    # all-wild: listed once, lowest set rank
    ranks = {c & 15 for c in nat}
    if len(ranks) != 1:
        return None
    r = ranks.pop()
    if not (R.set_ranks >> r) & 1:
        return None
    suits = [c >> 4 for c in nat]
    free = R.set_suits == MR.SET_ANY or (R.free_set_ranks >> r) & 1
    if not free:
        distinct = len(set(suits)) == len(suits) and len(cards) <= 4
        one = len(set(suits)) == 1
        if R.set_suits == MR.SET_DISTINCT and not distinct:
            return None
        if R.set_suits == MR.SET_ONE_OR_ALL_DIFFERENT and not (distinct or one):
            return None
        if distinct and not one and len(cards) > 4:
            return None
    return ("set", r, tuple(sorted(cards)))


def brute(hand, R, must=None, min_n=0):
    keys = set()
    c = Counter(hand)
    items = sorted(c.elements())
    for n in range(max(R.min_size, min_n), min(R.max_size, len(items)) + 1):
        for sub in set(itertools.combinations(items, n)):
            if must is not None and must not in sub:
                continue
            k = set_key(sub, R)
            if k:
                keys.add(k)
            if len({c >> 4 for c in sub if not wild(c, R)}) > 1:
                continue                # a run's natural cards share a suit, in any order
            for perm in set(itertools.permutations(sub)):
                keys |= run_keys(perm, R)
    return keys


def engine_keys(rows, k, R):
    out = set()
    for row in rows[:k]:
        n = row[1]
        act = tuple(int(row[3 + 2 * j]) for j in range(n))
        if row[0] == MR.KIND_SET:
            out.add(("set", int(row[2]), tuple(sorted(act))))
        else:
            out.add(("run", int(row[2]) >> 4, int(row[2]) & 15, tuple(sorted(act)),
                     tuple(j for j in range(n) if wild(act[j], R))))
    return out


def counts(hand):
    c = np.zeros(65, np.int64)
    for x in hand:
        c[x] += 1
    return c


hands = st.lists(st.sampled_from(PACK2), min_size=3, max_size=7).filter(
    lambda h: all(v <= (1 if c == JOKER else 2) for c, v in Counter(h).items()))


def near(h):
    """Bias hands toward melds: cards of a few ranks and suits."""
    return h


@settings(max_examples=60, deadline=None, derandomize=True)
@given(hand=hands, name=st.sampled_from(sorted(RULES)))
def test_legal_melds_are_the_brute_force_melds(hand, name):
    R = RULES[name]
    out = np.zeros((20000, MR.MELD_W), np.int64)
    k = MV.legal_melds(counts(hand), R, out)
    assert k >= 0
    assert engine_keys(out, k, R) == brute(hand, R)
    assert len(engine_keys(out, k, R)) == k                 # each meld listed once


clustered = st.lists(st.sampled_from([c for c in PACK2 if (c & 15) in (2, 3, 4, 5, 13, 14)
                                      and c >> 4 in (0, 3)] + [JOKER] * 2),
                     min_size=3, max_size=7).filter(
    lambda h: all(v <= (1 if c == JOKER else 2) for c, v in Counter(h).items()))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(hand=clustered, name=st.sampled_from(sorted(RULES)))
def test_legal_melds_on_meld_rich_hands(hand, name):
    R = RULES[name]
    out = np.zeros((20000, MR.MELD_W), np.int64)
    k = MV.legal_melds(counts(hand), R, out)
    assert engine_keys(out, k, R) == brute(hand, R)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(hand=clustered, top=st.sampled_from(sorted(set(PACK2))), name=st.sampled_from(sorted(RULES)))
def test_melds_with_a_card(hand, top, name):
    R = RULES[name]
    if Counter(hand + [top])[top] > (1 if top == JOKER else 2):
        return
    out = np.zeros((20000, MR.MELD_W), np.int64)
    k = MV.melds_with(counts(hand), R, top, 2, out)
    assert engine_keys(out, k, R) == brute(hand + [top], R, must=top, min_n=3)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(hand=clustered, extra=st.sampled_from(sorted(set(PACK2))), name=st.sampled_from(sorted(RULES)))
def test_add_options_and_check_meld(hand, extra, name):
    """Each legal meld of the hand plus one card: add_options finds it when the smaller meld is
    on the table; check_meld accepts exactly the brute force's melds."""
    R = RULES[name]
    out = np.zeros((20000, MR.MELD_W), np.int64)
    k = MV.legal_melds(counts(hand), R, out)
    opt = np.zeros((8, MR.MELD_W), np.int64)
    row = np.zeros(MR.MELD_W, np.int64)
    for i in range(min(k, 40)):
        base = out[i]
        n = base[1]
        cards = [int(base[3 + 2 * j]) for j in range(n)]
        m = MV.add_options(base, extra, R, opt)
        got = engine_keys(opt, m, R)
        want = set()
        if base[0] == MR.KIND_SET:
            key = set_key(tuple(cards + [extra]), R)
            if key and n + 1 <= R.max_size and key[1] == base[2]:
                want.add(key)
        else:
            for order in ([extra] + cards, cards + [extra]):
                for key in run_keys(tuple(order), R):
                    if n + 1 <= R.max_size and key[1] == base[2] >> 4:
                        want.add(key)
        assert got == want, (cards, extra)
        assert MV.check_meld(np.array(cards, np.int64), n, R, row)
    # a hand that is no meld is refused
    if not brute(hand, R) or len(hand) > R.max_size:
        assert not MV.check_meld(np.array(hand, np.int64), len(hand), R, row) or \
            any(len(k2[-1]) == len(hand) for k2 in brute(hand, R))


def test_joker_swap_takes_the_named_card_back():
    R = MR.OKLAHOMA
    row = np.zeros(MR.MELD_W, np.int64)
    # 5h Jo 7h: the joker stands for 6h
    assert MV.check_meld(np.array([37, JOKER, 39], np.int64), 3, R, row)
    assert MV.joker_swap(row, 38) >= 0 and MV.joker_swap(row, 22) == -1
