"""The meld engine's shortcuts (issue 25's speed) against the slow paths they skip, on random
hands from a fixed seed (never flaky):

* :func:`~simkit.engines.melds.melds_with` lists only the sets of a natural card's rank and the
  runs of its suit through it, and returns at once when a quick test finds none
  (:func:`~simkit.engines.melds.moves._none_with`): its rows must be exactly
  :func:`legal_melds`' rows of the hand with the card that hold the card and enough cards, in
  the same order (every rule record of ``tests/test_melds.py``);
* :func:`~simkit.engines.melds.search._no_meld`, the quick exit of :func:`arrange`: whenever it
  says a hand holds no meld, :func:`legal_melds` (which shares no code with it) lists none, and
  :func:`arrange` gives every card's value as deadwood with no rows, as the brute force of
  ``tests/melds_reference.py`` does;
* :func:`~simkit.engines.melds.search._lonely`, the search's drop of the natural cards no meld
  can hold before it lists melds: every card it drops is in none of :func:`legal_melds`' rows,
  is a single copy, and its value is the deadwood it reports;
* the Oklahoma baseline prices the pile options that leave the same hand once
  (:func:`~simkit.games.oklahoma.engine.sort_key`: one key a multiset of cards).
"""
from __future__ import annotations

import numpy as np
import pytest

from simkit.engines import melds as M
from simkit.engines.melds.moves import _none_with
from simkit.engines.melds.search import _lonely, _no_meld
from simkit.games.oklahoma import engine as OE
from tests import melds_reference as REF
from tests.test_melds import RULES

OUT = np.zeros((60_000, M.MELD_W), np.int64)
N_HANDS = 3000


def _hand(rng, R, decks, size, wilds):
    """``size`` cards from ``decks`` decks, at most ``wilds`` of them wild (jokers or wild ranks)."""
    nat = [s * 16 + r for s in range(4) for r in range(2, 15) if not (R.wild_ranks >> r) & 1]
    wl = [64] * decks + [s * 16 + r for s in range(4) for r in range(2, 15)
                         if (R.wild_ranks >> r) & 1] * decks
    w = int(rng.integers(0, wilds + 1))
    pick = [nat[i] for i in rng.permutation(len(nat) * decks)[:size - w] % len(nat)]
    cnt = np.zeros(65, np.int64)
    for c in pick + [wl[i] for i in rng.permutation(len(wl))[:w]]:
        cnt[c] += 1
    return cnt


@pytest.mark.parametrize("name", sorted(RULES))
def test_melds_with_lists_the_legal_melds_holding_the_card_in_their_order(name):
    R = RULES[name]
    rng = np.random.default_rng(2501)
    mine = np.zeros((4096, M.MELD_W), np.int64)
    codes = [c for c in range(64) if 2 <= c % 16 <= 14] + [64]
    nonempty = quick = 0
    for i in range(N_HANDS // 4):
        cnt = _hand(rng, R, int(rng.integers(1, 3)), int(rng.integers(2, 14)), 2)
        code = int(rng.choice(codes))
        least = int(rng.integers(0, 3))
        k = M.melds_with(cnt, R, code, least, mine)
        c2 = cnt.copy()
        c2[code] += 1
        n = M.legal_melds(c2, R, OUT)
        want = [OUT[j] for j in range(n)
                if OUT[j, 1] >= least + 1 and code in OUT[j, 3:3 + 2 * OUT[j, 1]:2]]
        assert k == len(want), (name, i, code)
        for j in range(k):
            assert np.array_equal(mine[j], want[j]), (name, i, code, j)
        nonempty += k > 0
        quick += bool(_none_with(cnt, R, code, least + 1))
    assert nonempty > N_HANDS // 100
    assert quick > N_HANDS // 40 or R.min_natural == 0, quick     # the quick exit is tried


@pytest.mark.parametrize("name", sorted(n for n in RULES if RULES[n].min_natural > 0))
def test_the_no_meld_exit_only_fires_on_hands_without_melds(name):
    R = RULES[name]
    rng = np.random.default_rng(2502)
    dw = rng.integers(0, 31, 65).astype(np.int64)
    out = np.zeros((16, M.MELD_W), np.int64)
    fired = 0
    for i in range(N_HANDS // 3):
        cnt = _hand(rng, R, int(rng.integers(1, 4)), int(rng.integers(0, 13)), 1)
        W = int(cnt[64]) + sum(int(cnt[c]) for c in range(64) if (R.wild_ranks >> (c % 16)) & 1)
        none = _no_meld(cnt, R, W)
        n = M.legal_melds(cnt, R, OUT)
        assert n == 0 or not none, (name, i)
        if none:
            fired += 1
            dead, k = M.arrange(cnt, R, dw, out)
            assert k == 0 and dead == int((cnt * dw).sum()), (name, i)
            if fired <= 100:
                hand = [c for c in range(65) for _ in range(int(cnt[c]))]
                assert dead == REF.least_deadwood(R, hand, dw), (name, i)
    assert fired > N_HANDS // 30, fired


@pytest.mark.parametrize("name", sorted(n for n in RULES if RULES[n].min_natural > 0))
def test_the_cards_dropped_before_listing_are_in_no_meld(name):
    R = RULES[name]
    rng = np.random.default_rng(2503)
    dw = rng.integers(0, 31, 65).astype(np.int64)
    dropped = kept_alone = 0
    for i in range(N_HANDS // 3):
        cnt = _hand(rng, R, int(rng.integers(1, 4)), int(rng.integers(1, 15)), 2)
        W = int(cnt[64]) + sum(int(cnt[c]) for c in range(64) if (R.wild_ranks >> (c % 16)) & 1)
        held = 0
        for c in range(64):
            if cnt[c] and not (R.wild_ranks >> (c % 16)) & 1:
                held |= 1 << c
        kept, dead = _lonely(cnt, R, W, np.int64(held), dw)
        gone = [c for c in range(64) if (held >> c) & 1 and not (int(kept) >> c) & 1]
        assert int(kept) & ~held == 0, (name, i)
        n = M.legal_melds(cnt, R, OUT)
        in_meld = {int(OUT[j, 3 + 2 * u]) for j in range(n) for u in range(int(OUT[j, 1]))}
        assert not in_meld & set(gone), (name, i, gone)
        assert all(cnt[c] == 1 for c in gone) and dead == sum(int(dw[c]) for c in gone)
        dropped += len(gone)
        kept_alone += sum(1 for c in range(64) if (int(kept) >> c) & 1 and c not in in_meld)
    if name.startswith("spanish"):  # runs over positions with a gap: no drop
        assert dropped == 0
    else:
        assert dropped > N_HANDS // 10, (dropped, kept_alone)


def test_a_key_is_the_multiset_of_cards():
    def key(codes):
        k = 0
        for c in codes:
            k = k * 128 + c + 1
        return int(OE.sort_key(np.int64(k)))
    assert key([5, 64, 5]) == key([64, 5, 5]) == key([5, 5, 64])
    assert key([5, 64]) != key([5, 5, 64]) and key([0, 1]) != key([1, 1])
    assert key([]) == 0
    # any 0..8 codes (three or fewer: the compare-and-swap path; more: the selection sort)
    rng = np.random.default_rng(25)
    for _ in range(2000):
        codes = [int(c) for c in rng.integers(0, 65, rng.integers(0, 9))]
        want = 0
        for c in sorted(codes):
            want = want * 128 + c + 1
        assert key(codes) == want, codes
