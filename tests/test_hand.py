"""simkit.core.hand, multi-deck hands (planes and a joker count), against ``collections.Counter``:
random sequences of adds and removes for 1 to 8 planes, every query compared with what the
counter says, and the plain-Python bodies (NUMBA_DISABLE_JIT=1) against the compiled ones."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from simkit.core import cards as C
from simkit.core import hand as H

NATURAL = [int(c) for c in C.deck(52)]
# a few cards, so that a random sequence piles up copies of them; and the whole deck for spread
FEW = [C.card(14, 3), C.card(14, 2), C.card(2, 0), C.card(10, 1), C.card(13, 3)]
CODES = st.sampled_from(FEW + [C.JOKER]) | st.sampled_from(NATURAL + [C.JOKER])
OPS = st.lists(st.tuples(st.booleans(), CODES), max_size=80)


def check_against(h, want: Counter, P: int, table: np.ndarray):
    """Every query of the hand ``h`` agrees with the multiset ``want``."""
    n = sum(want.values())
    assert H.size(h) == n
    assert H.jokers(h) == want[C.JOKER]
    assert int(H.distinct(h)) == C.mask(c for c in want if c != C.JOKER and want[c] > 0)
    for j in range(P - 1):          # nested planes: plane j+1 inside plane j
        assert int(h[j + 1]) & ~int(h[j]) == 0
    for c in set(want) | set(FEW):
        assert H.count(h, c) == want[c], c
    for s in range(4):
        lane = 0xFFFF << 16 * s
        assert H.size_in(h, np.uint64(lane)) == sum(k for c, k in want.items()
                                                    if c != C.JOKER and c >> 4 == s)
        packed = int(H.suit_ranks(h, s))
        assert [packed >> 4 * r & 15 for r in range(16)] == [want[16 * s + r] for r in range(16)]
    cnt = np.full(H.N_COUNTS, -7, np.int64)
    H.to_counts(h, cnt)
    assert cnt.tolist() == [want[c] for c in range(H.N_COUNTS)]
    out = np.full(n + 1, -1, np.int64)
    assert H.to_codes(h, out) == n
    assert out[:n].tolist() == sorted(want.elements())
    # the k-th copy: every physical card exactly once over k = 0..size-1
    assert Counter(int(H.kth(h, k)) for k in range(n)) == +want
    assert H.points(h, table) == sum(int(table[c]) * k for c, k in want.items())


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 8), OPS, st.integers(0, 2**32 - 1))
def test_random_adds_and_removes_match_a_counter(P, ops, seed):
    table = np.random.default_rng(seed).integers(-50, 50, H.N_COUNTS)
    h = H.hands(3, P)[1]             # a row of a work array, as the games hold them
    want = Counter()
    a = b = np.uint64(0)             # P = 2: the same hand's planes in registers (add2, remove2)
    for is_add, c in ops:
        if is_add:
            ok = H.add(h, c)
            assert ok == (c == C.JOKER or want[c] < P)   # a P+1-th copy is refused
            want[c] += ok
            if c != C.JOKER:
                a, b = map(np.uint64, H.add2(a, b, c))
        else:
            ok = H.remove(h, c)
            assert ok == (want[c] > 0)                   # an absent card is refused
            want[c] -= ok
            if c != C.JOKER:
                a, b = map(np.uint64, H.remove2(a, b, c))
        if P == 2:
            assert (int(a), int(b)) == (int(h[0]), int(h[1]))
    check_against(h, want, P, table)
    h2 = H.hands(1, P)[0]
    codes = np.array(sorted(want.elements()), np.int64)
    assert H.from_codes(h2, codes)
    assert h2.tolist() == h.tolist()


def test_refusals_leave_the_hand_unchanged():
    for P in (1, 2, 3, 8):
        h = H.hands(1, P)[0]
        ac = C.parse_card("Ac")
        for _ in range(P):
            assert H.add(h, ac)
        before = h.copy()
        assert not H.add(h, ac)                    # a copy beyond P: refused
        assert not H.remove(h, C.parse_card("Kd"))  # a card not held
        assert not H.remove(h, C.JOKER)            # no joker held
        assert h.tolist() == before.tolist() and H.count(h, ac) == P
        assert not H.from_codes(h, np.array([ac] * (P + 1), np.int64))
        assert H.count(h, ac) == P and H.size(h) == P


def test_one_plane_is_the_one_deck_mask():
    h = H.hands(1, 1)[0]
    cards = C.parse("As Kd 7c 2h Jo Jo")
    assert H.from_codes(h, cards.astype(np.int64))
    assert int(h[0]) == C.mask(C.parse("As Kd 7c 2h")) and H.jokers(h) == 2
    assert [H.kth(h, k) for k in range(6)] == sorted(int(c) for c in cards)


def test_suit_ranks_packs_eight_copies():
    """Panguingue holds up to eight copies of a card: the packed counts reach 8 in a nibble."""
    h = H.hands(1, 8)[0]
    codes = [C.card(7, 2)] * 8 + [C.card(14, 2)] * 3 + [C.card(2, 2)]
    assert H.from_codes(h, np.array(codes, np.int64))
    packed = int(H.suit_ranks(h, C.HEARTS))
    assert packed == (8 << 4 * 7) | (3 << 4 * 14) | (1 << 4 * 2)
    assert H.suit_ranks(h, C.CLUBS) == 0


@njit(cache=True)
def _deal_and_pick(K, P, deck, picks):
    """In a kernel: deal ``deck`` round the ``K`` rows of a work array, then remove ``picks``
    (a uniform k per hand) by ``kth``; returns the hands and the removed cards."""
    hs = np.zeros((K, P + 1), np.uint64)
    for j in range(deck.shape[0]):
        H.add(hs[j % K], deck[j])
    got = np.zeros(K, np.int64)
    for p in range(K):
        c = H.kth(hs[p], picks[p] % H.size(hs[p]))
        H.remove(hs[p], c)
        got[p] = c
    return hs, got


def test_rows_of_a_work_array_inside_a_kernel():
    deck = C.deck(52, decks=2, jokers=2).astype(np.int64)
    rng = np.random.default_rng(3)
    rng.shuffle(deck)
    K = 4
    hs, got = _deal_and_pick(K, 2, deck, np.array([5, 17, 40, 0]))
    for p in range(K):
        want = Counter(int(c) for c in deck[p::K])
        n = sum(want.values())
        # the kth order: first copies by code, second copies by code, jokers
        order = sorted(want) + sorted(c for c in want if want[c] > 1 and c != C.JOKER)
        order = [c for c in order if c != C.JOKER] + [C.JOKER] * want[C.JOKER]
        assert got[p] == order[[5, 17, 40, 0][p] % n]
        want[int(got[p])] -= 1
        check_against(hs[p], want, 2, np.arange(H.N_COUNTS))


def run_ops() -> list:
    """A fixed sequence of adds and removes on 1, 2, 3 and 8 planes, every query recorded."""
    rng = np.random.default_rng(11)
    out = []
    for P in (1, 2, 3, 8):
        h = H.hands(2, P)[1]
        a = b = np.uint64(0)
        for _ in range(300):
            c = int(rng.choice([2, 14, 30, 62, 63, 64]))
            adding = rng.random() < 0.6
            ok = H.add(h, c) if adding else H.remove(h, c)
            if c != 64:  # (the dispatcher boxes uint64 as int: back to uint64 for the next call)
                a, b = map(np.uint64, H.add2(a, b, c) if adding else H.remove2(a, b, c))
            n = H.size(h)
            cnt = np.zeros(H.N_COUNTS, np.int64)
            H.to_counts(h, cnt)
            codes = np.zeros(n + 1, np.int64)
            m = H.to_codes(h, codes)
            out.append([bool(ok), int(n), int(H.count(h, c)), int(H.jokers(h)),
                        int(H.distinct(h)), [int(H.kth(h, k)) for k in range(n)],
                        [int(H.suit_ranks(h, s)) for s in range(4)],
                        int(H.size_in(h, np.uint64(0xFFFF << 48))), cnt.tolist(),
                        codes[:m].tolist(), int(H.points(h, np.arange(H.N_COUNTS))),
                        int(a), int(b)])
    return out


# nth_code's multiply wraps by design (simkit.core.play.wraps)
PLAIN = """
import json, sys
import numpy as np
sys.path.insert(0, sys.argv[1])
from test_hand import run_ops
np.seterr(over="ignore")
print(json.dumps(run_ops()))
"""


def test_plain_python_equals_compiled():
    """The same operations under NUMBA_DISABLE_JIT=1 (plain Python, numpy scalars) and compiled."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    res = subprocess.run([sys.executable, "-c", PLAIN, os.path.dirname(os.path.abspath(__file__))],
                         capture_output=True, text=True, env=env, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    plain = json.loads(res.stdout)
    compiled = run_ops()
    assert plain == compiled
    assert any(r[0] for r in plain) and not all(r[0] for r in plain)  # adds and refusals


def test_hands_needs_a_plane():
    with pytest.raises(ValueError):
        H.hands(2, 0)
