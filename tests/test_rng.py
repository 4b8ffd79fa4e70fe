"""Random streams of simkit.core.rng: reference outputs, per-chunk seeding, unbiased bounded draws.

The chi-square checks use fixed seeds, so they are deterministic; the thresholds are the 0.9999
quantiles of the chi-square distribution with the stated degrees of freedom (a correct generator
fails one with probability 1e-4 for a given seed, and these seeds are fixed).
"""
from __future__ import annotations

import numpy as np
import pytest

from simkit.core import rng

from tests.rng_reference import M64, ref_bounded, ref_splitmix, ref_xoshiro


# chi2.ppf(0.9999, df)
CHI2_9999 = {1: 15.137, 2: 18.421, 15: 44.263, 35: 74.926}


# --- reference outputs ---------------------------------------------------------------------

def test_xoshiro_reference_outputs():
    s = np.array([1, 2, 3, 4], np.uint64)
    assert [int(rng.xoshiro_next(s)) for _ in range(4)] == [11520, 0, 1509978240, 1215971899390074240]


def test_xoshiro_matches_python_reference_and_updates_state_in_place():
    state = rng.stream_state(12345, 7)
    s = state.copy()
    ref = ref_xoshiro(state)
    got = [int(rng.xoshiro_next(s)) for _ in range(1000)]
    assert got == [next(ref) for _ in range(1000)]
    assert not np.array_equal(s, state)


def splitmix_outputs(seed, k):
    """k outputs of rng.splitmix from ``seed``, and the final state."""
    st, out = np.uint64(seed), []
    for _ in range(k):
        x, st = rng.splitmix(np.uint64(st))  # numba returns uint64 as int: re-wrap
        out.append(int(x))
    return out, int(st)


def test_splitmix64_reference_outputs():
    assert splitmix_outputs(0, 3)[0] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    out, st = splitmix_outputs(1234567, 5)
    assert out == [6457827717110365317, 3203168211198807973, 9817491932198370423,
                   4593380528125082431, 16408922859458223821]
    assert st == (1234567 + 5 * 0x9E3779B97F4A7C15) & M64


def test_splitmix64_matches_python_reference():
    for seed in (0, 1, 2**63, M64, 0xDEADBEEF):
        ref = ref_splitmix(seed)
        assert splitmix_outputs(seed, 200)[0] == [next(ref) for _ in range(200)]


# --- per-chunk streams ---------------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 42, 2**32 + 3, 2**70 + 11])
def test_stream_state_is_the_chunks_child_of_the_seed_sequence(seed):
    k = 12
    children = np.random.SeedSequence(seed).spawn(k)
    for chunk in range(k):
        st = rng.stream_state(seed, chunk)
        assert st.dtype == np.uint64 and st.shape == (4,)
        assert np.array_equal(st, children[chunk].generate_state(4, np.uint64))
    states = {tuple(rng.stream_state(seed, c)) for c in range(k)}
    assert len(states) == k
    assert np.array_equal(rng.stream_state(seed, 3), rng.stream_state(seed, 3))
    assert not np.array_equal(rng.stream_state(seed, 0), rng.stream_state(seed + 1, 0))


# --- bounded draws -------------------------------------------------------------------------

BOUNDS = [1, 2, 3, 36, 2**31 + 1]


@pytest.mark.parametrize("n", BOUNDS)
def test_bounded_xoshiro_matches_reference_and_stays_in_range(n):
    state = rng.stream_state(9, 1)
    s = state.copy()
    ref = ref_xoshiro(state)
    got = [int(rng.bounded_xoshiro(s, n)) for _ in range(3000)]
    assert got == [ref_bounded(ref, n) for _ in range(3000)]
    assert min(got) >= 0 and max(got) < n


def deal_draws(seed, n, count):
    """``count`` draws of rng.bounded(s, n) from a deal state ``seed``."""
    st, out = np.uint64(seed), []
    for _ in range(count):
        v, st = rng.bounded(np.uint64(st), n)
        out.append(int(v))
    return out


@pytest.mark.parametrize("n", BOUNDS)
def test_bounded_deal_matches_reference_and_stays_in_range(n):
    got = deal_draws(0x1234_5678_9ABC_DEF0, n, 3000)
    ref = ref_splitmix(0x1234_5678_9ABC_DEF0)
    assert got == [ref_bounded(ref, n) for _ in range(3000)]
    assert min(got) >= 0 and max(got) < n


def _chi2(values, bins):
    counts = np.bincount(values, minlength=bins)
    assert len(counts) == bins
    expected = len(values) / bins
    return float(((counts - expected) ** 2 / expected).sum())


def _draws(kind, n, count, seed):
    if kind == "xoshiro":
        s = rng.stream_state(seed, 0)
        return np.array([rng.bounded_xoshiro(s, n) for _ in range(count)], np.int64)
    return np.array(deal_draws(seed, n, count), np.int64)


@pytest.mark.parametrize("kind", ["xoshiro", "deal"])
@pytest.mark.parametrize("n", [2, 3, 36])
def test_bounded_draws_are_uniform(kind, n):
    v = _draws(kind, n, 1000 * n if n > 3 else 30_000, seed=2024)
    assert v.min() >= 0 and v.max() < n
    assert _chi2(v, n) < CHI2_9999[n - 1]


@pytest.mark.parametrize("kind", ["xoshiro", "deal"])
def test_bounded_draws_are_uniform_for_a_large_bound(kind):
    n = 2**31 + 1
    v = _draws(kind, n, 32_000, seed=77)
    assert v.min() >= 0 and v.max() < n
    assert v.max() > n * 0.999 and v.min() < n * 0.001  # the whole range is reached
    assert _chi2(v * 16 // n, 16) < CHI2_9999[15]
    # low bits are uniform too (a modulo or shift bug shows here)
    assert _chi2(v % 2, 2) < CHI2_9999[1]


def test_bound_one_is_always_zero():
    s = rng.stream_state(0, 0)
    assert all(rng.bounded_xoshiro(s, 1) == 0 for _ in range(500))
    assert deal_draws(5, 1, 500) == [0] * 500


def test_xoshiro_bounded_sum_is_the_sum_of_bounded_draws():
    a, b = rng.stream_state(3, 4), rng.stream_state(3, 4)
    total = rng.xoshiro_bounded_sum(a, 36, 1000)
    assert total == sum(int(rng.bounded_xoshiro(b, 36)) for _ in range(1000))
    assert np.array_equal(a, b)


def test_uniform_in_unit_interval():
    st, u = np.uint64(11), []
    for _ in range(20_000):
        x, st = rng.uniform(np.uint64(st))
        u.append(x)
    u = np.array(u)
    assert (u >= 0).all() and (u < 1).all()
    assert abs(u.mean() - 0.5) < 0.01
    assert _chi2((u * 10).astype(np.int64), 10) < 33.72  # chi2.ppf(0.9999, 9)


# --- drawing cards -------------------------------------------------------------------------

def deal_positions(seed, n, k, stacked=False):
    """The first ``k`` positions a deal keyed ``seed`` draws from an ``n``-card deck."""
    st, drawn, out = np.uint64(seed), np.uint64(0), []
    for _ in range(k):
        j, st, drawn = rng.draw_index(np.uint64(st), np.uint64(drawn), n, stacked)
        out.append(int(j))
    assert int(drawn) == sum(1 << j for j in out)  # the mask records exactly what was dealt
    return out


@pytest.mark.parametrize("size", [1, 2, 20, 36, 52, 64])
def test_a_whole_deal_is_a_permutation(size):
    for seed in range(5):
        assert sorted(deal_positions(seed * 1000 + size, size, size)) == list(range(size))


def test_partial_deals_never_repeat_a_card():
    for k in range(1, 36, 5):
        pos = deal_positions(99 + k, 36, k)
        assert len(set(pos)) == k and all(0 <= j < 36 for j in pos)


def test_a_deal_depends_on_its_key_alone():
    """The same key deals the same cards; how much of the deal is used does not matter."""
    long = deal_positions(4242, 36, 20)
    assert deal_positions(4242, 36, 7) == long[:7]
    assert deal_positions(4243, 36, 20) != long


def test_stacked_deals_come_in_deck_order():
    assert deal_positions(12345, 10, 10, stacked=True) == list(range(10))


def test_deals_are_uniform():
    """Three cards: all 6 orders equally likely; the first card of a 36-card deck is uniform."""
    perms = {p: i for i, p in enumerate([(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)])}
    seen = np.array([perms[tuple(deal_positions(31337 + i, 3, 3))] for i in range(12_000)])
    assert _chi2(seen, 6) < 25.74  # chi2.ppf(0.9999, 5)
    first = np.array([deal_positions(7 * i + 1, 36, 1)[0] for i in range(36_000)])
    assert _chi2(first, 36) < CHI2_9999[35]
    # the third card given the first two: uniform over the 34 left (pairs of positions matter)
    third = np.array([deal_positions(i, 36, 3)[2] for i in range(20_000)])
    assert _chi2(third, 36) < CHI2_9999[35]


# --- partial Fisher-Yates shuffles (Hearts' deal) -------------------------------------------

def shuffled(key, n, k):
    perm = np.arange(n, dtype=np.int64)
    rng.shuffle_prefix(perm, k, np.uint64(key))
    return perm


@pytest.mark.parametrize("n", [1, 6, 7, 52, 104])
def test_shuffle_prefix_permutes_and_a_shorter_deal_is_a_prefix(n):
    for key in range(5):
        full = shuffled(key * 977 + n, n, n)
        assert sorted(full) == list(range(n))
        for k in (0, 1, n // 2):
            part = shuffled(key * 977 + n, n, k)
            assert list(part[:k]) == list(full[:k])      # the same key deals the same cards
            assert sorted(part) == list(range(n))        # and the rest of the pack is intact


def test_shuffle_prefix_is_uniform():
    """All 24 orders of 4 cards equally likely; the 40th card of 52 uniform over the pack."""
    orders = {}
    seen = []
    for i in range(24_000):
        seen.append(orders.setdefault(tuple(shuffled(i, 4, 4)), len(orders)))
    assert len(orders) == 24
    assert _chi2(np.array(seen), 24) < 57.075  # chi2.ppf(0.9999, 23)
    fortieth = np.array([shuffled(3 * i + 1, 52, 40)[39] for i in range(26_000)])
    assert _chi2(fortieth, 52) < 97.337  # chi2.ppf(0.9999, 51)


# --- the dealing step every permuting deal shares (issue 28) --------------------------------

def test_deal_step_one_card_at_a_time_is_the_shuffle_prefix():
    """Dealing card by card (gin, «31», the rummies' stock) gives the same cards as the whole
    prefix at once (Hearts and the trick games), for repeated cards too (a two-deck pack)."""
    pack = np.array([c for c in range(26)] * 2, dtype=np.int64)
    for key in range(20):
        perm, s, out = pack.copy(), np.uint64(key), []
        for k in range(30):
            c, s = rng.deal_step(perm, k, pack.shape[0], s, False)
            s = np.uint64(s)          # a state crossing into Python comes back as an int
            out.append(int(c))
        whole = pack.copy()
        rng.shuffle_prefix(whole, 30, np.uint64(key))
        assert out == list(whole[:30])
        assert sorted(perm) == sorted(pack)           # the pack is intact, only reordered


def test_a_stacked_deal_step_takes_the_pack_in_order():
    pack = np.arange(10, 0, -1, dtype=np.int64)
    perm, s = pack.copy(), np.uint64(5)
    got = []
    for k in range(10):
        c, s2 = rng.deal_step(perm, k, 10, s, True)
        assert int(s2) == int(s)                                # no random draw spent
        got.append(int(c))
    assert got == list(pack)


def test_the_rummy_stock_deals_by_the_step_and_reports_its_end():
    from simkit.engines.melds.stock import draw_stock, reset_stock
    deck = np.array([3, 3, 64, 64, 20, 21], dtype=np.int64)
    stk, st, rs = np.zeros(6, np.int64), np.zeros(2, np.int64), np.array([77], np.uint64)
    reset_stock(stk, st, deck)
    got = [int(draw_stock(stk, st, rs, False)) for _ in range(7)]
    perm, s, want = deck.copy(), np.uint64(77), []
    for k in range(6):
        c, s = rng.deal_step(perm, k, 6, s, False)
        s = np.uint64(s)
        want.append(int(c))
    assert got == want + [-1]                          # -1 once the stock is empty
    reset_stock(stk, st, deck)
    assert [int(draw_stock(stk, st, rs, True)) for _ in range(6)] == list(deck)
