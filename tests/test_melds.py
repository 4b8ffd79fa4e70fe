"""The meld engine (:mod:`simkit.engines.melds`) against the plain-Python brute force of
``tests/melds_reference.py`` (every partition of the hand; shares no code with the engine) on
random hands of 0-14 cards from 1-3 decks with 0-3 wild cards under several rule records; gin's
fast path against the engine; rules validation; hands worked by hand; plain Python against the
compiled kernels.

Hypothesis runs derandomized (fixed examples, never flaky).  The quick tier checks a few hundred
hands, and the brute force against its first, slower statement on 300 more; the slow tier
(``-m slow``) checks ``arrange`` on 10,000 hands and the other kernels on 1,650 more.  The cost
is kept small: the brute force lists a hand's melds once and remembers each sub-multiset's least
deadwood (under 1 ms a hand); a hypothesis example costs about as much again, so ``arrange``
takes five hands to an example, and a hand's cards come from a seeded generator.
"""
from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simkit.core import cards as C
from simkit.engines import melds as M
from simkit.engines.melds import onedeck
from simkit.errors import SimkitError
from tests import melds_reference as REF

RULES = {
    "oklahoma": M.OKLAHOMA,
    "gin": M.GIN,
    "high_any_unbounded_min2": M.meld_rules(seq_ranks="high", set_suits="any", wild_ranks=1 << 2,
                                            max_wild=2, min_natural=2),
    "spanish_one_or_all": M.meld_rules(seq_ranks="spanish", set_suits="one_or_all_different",
                                       free_set_ranks=(1 << 14) | (1 << 13), max_wild=3),
    "both_distinct_all_wild": M.meld_rules(seq_ranks="both", max_size=4, set_suits="distinct",
                                           wild_ranks=1 << 2, max_wild=3, min_natural=0,
                                           run_wilds=False),
    "canasta": M.CANASTA,
    "runs_of_two_to_five": M.meld_rules(sets=False, seq_ranks="both", min_size=2, max_size=5,
                                        wild_ranks=(1 << 2) | (1 << 7), max_wild=1),
    "sets_one_or_all_six": M.meld_rules(runs=False, set_suits="one_or_all_different", max_size=6,
                                        wild_ranks=1 << 2, max_wild=2, min_natural=1),
}
SPANISH_RANKS = [2, 3, 4, 5, 6, 7, 11, 12, 13, 14]
VALUE_TABLES = {"oklahoma": M.oklahoma_hand_values(), "gin": M.gin_values()}
OUT = np.zeros((60_000, M.MELD_W), np.int64)     # legal_melds of a 14-card hand fit


def _ranks(name):
    R = RULES[name]
    base = SPANISH_RANKS if name.startswith("spanish") else list(range(2, 15))
    return [r for r in base if not (R.wild_ranks >> r) & 1]


# (rules, decks, suits of a meld-dense hand or 0 for any card, value table)
CASES = list(itertools.product(sorted(RULES), (1, 2, 3), (4, 2, 0), ("oklahoma", "gin", "random")))


@st.composite
def deals(draw):
    """(rules name, hand as sorted codes, values int64[65]): a rule record, 1-3 decks, all cards
    or (meld-dense) five neighbouring ranks of 4 or 2 suits, a value table; ``n`` cards, ``w`` of
    them wild, drawn by a seeded generator (a draw per card made hypothesis's part cost more
    than the brute force)."""
    name, decks, dense, table = draw(st.sampled_from(CASES))
    n = draw(st.integers(0, 14))
    w = draw(st.integers(0, min(3, n)))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)) if n else 0)
    R = RULES[name]
    ranks, suits = _ranks(name), range(4)
    if dense:
        lo = int(rng.integers(0, len(ranks) - 4))
        ranks, suits = ranks[lo:lo + 5], sorted(int(s) for s in rng.permutation(4)[:dense])
    naturals = [s * 16 + r for s in suits for r in ranks] * decks
    wilds = [64] * (2 * decks) + [s * 16 + r for s in range(4) for r in range(2, 15)
                                  if (R.wild_ranks >> r) & 1] * decks
    w = min(w, n, len(wilds))
    hand = sorted([naturals[i] for i in rng.permutation(len(naturals))[:n - w]]
                  + [wilds[i] for i in rng.permutation(len(wilds))[:w]])
    dw = rng.integers(0, 31, 65) if table == "random" else VALUE_TABLES[table]
    return name, hand, np.ascontiguousarray(dw, np.int64)


def _quick_slow(quick, slow):
    """Examples for the quick tier, and a slow-tier case with ``slow`` more."""
    return [pytest.param(quick, id="quick"),
            pytest.param(slow, id="slow", marks=pytest.mark.slow)]


def _settings(n):
    return settings(max_examples=n, derandomize=True, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))


def _rows(k):
    return [OUT[i].copy() for i in range(k)]


# ---- arrange ---------------------------------------------------------------------------------

def check_arrange(name, hand, dw):
    R = RULES[name]
    out = np.zeros((16, M.MELD_W), np.int64)
    dead, k = M.arrange(M.counts(hand), R, dw, out)
    assert dead == REF.least_deadwood(R, hand, dw), (name, C.format_cards(hand))
    used = Counter()
    for i in range(k):
        assert REF.row_legal(R, out[i]), (name, hand, out[i])
        used.update(int(out[i, 3 + 2 * j]) for j in range(out[i, 1]))
    assert not used - Counter(hand)                 # the melds use only the hand's cards
    left = Counter(hand) - used
    assert sum(int(dw[c]) * v for c, v in left.items()) == dead


@pytest.mark.parametrize("n", _quick_slow(250, 10_000))
def test_arrange_equals_the_brute_force(n):
    """``n`` hands, five to a hypothesis example (an example's own cost is about a hand's)."""
    checked = []

    @given(st.lists(deals(), min_size=5, max_size=5))
    def run(ds):
        for d in ds:
            check_arrange(*d)
        checked.append(len(ds))
    _settings(n // 5)(run)()
    assert sum(checked) >= n


def test_the_reference_equals_its_first_statement():
    """The memoised brute force against the first one (melds holding the lowest natural card
    searched afresh at every step; wild cards left to the end)."""
    @given(deals())
    def run(d):
        name, hand, dw = d
        R = RULES[name]
        assert REF.least_deadwood(R, hand, dw) == REF.least_deadwood_slow(R, hand, dw), (
            name, C.format_cards(hand))
    _settings(300)(run)()


# ---- legal_melds, melds_with -------------------------------------------------------------------

def check_legal(name, hand, dw):
    R = RULES[name]
    k = M.legal_melds(M.counts(hand), R, OUT)
    assert k >= 0
    sigs = [REF.row_signature(R, r) for r in _rows(k)]
    assert len(set(sigs)) == len(sigs)              # distinct
    assert all(REF.row_legal(R, r) for r in _rows(k))
    assert set(sigs) == REF.legal_signatures(R, hand)


@pytest.mark.parametrize("n", _quick_slow(80, 600))
def test_legal_melds_equal_the_brute_force(n):
    _settings(n)(given(deals())(lambda d: check_legal(*d)))()


def check_melds_with(name, hand, code, least):
    R = RULES[name]
    cnt = M.counts(hand)
    before = cnt.copy()
    k = M.melds_with(cnt, R, code, least, OUT)
    assert (cnt == before).all()
    assert k >= 0
    sigs = [REF.row_signature(R, r) for r in _rows(k)]
    assert len(set(sigs)) == len(sigs)
    assert all(REF.row_legal(R, r) for r in _rows(k))
    assert set(sigs) == REF.legal_signatures(R, hand + [code], must=code, min_n=least + 1)


@pytest.mark.parametrize("n", _quick_slow(50, 300))
def test_melds_with_equal_the_brute_force(n):
    @given(deals(), st.integers(0, 64), st.integers(0, 3))
    def run(d, code, least):
        if not (code == 64 or 2 <= code % 16 <= 14):
            code = 64
        check_melds_with(d[0], d[1][:10], code, least)
    _settings(n)(run)()


# ---- add_options, joker_swap, check_meld -------------------------------------------------------

@pytest.mark.parametrize("n", _quick_slow(50, 300))
def test_add_options_equal_the_brute_force(n):
    @given(deals(), st.integers(0, 10 ** 6), st.integers(0, 64))
    def run(d, pick, code):
        name, hand, _ = d
        R = RULES[name]
        k = M.legal_melds(M.counts(hand[:8]), R, OUT)
        if k <= 0:
            return
        row = OUT[pick % k].copy()
        if not (code == 64 or 2 <= code % 16 <= 14):
            code = 64
        out = np.zeros((4, M.MELD_W), np.int64)
        m = M.add_options(row, code, R, out)
        assert m >= 0
        got = [REF.row_signature(R, out[i]) for i in range(m)]
        assert all(REF.row_legal(R, out[i]) for i in range(m))
        assert len(set(got)) == len(got)
        assert set(got) == REF.add_signatures(R, row, code), (name, row, code)
    _settings(n)(run)()


@pytest.mark.parametrize("n", _quick_slow(40, 150))
def test_joker_swap_finds_the_joker(n):
    @given(deals(), st.integers(0, 10 ** 6), st.integers(0, 63))
    def run(d, pick, code):
        name, hand, _ = d
        R = RULES[name]
        k = M.legal_melds(M.counts(hand[:8] + [64]), R, OUT)
        for i in range(0, max(k, 0), 1 + pick % 7):
            row = OUT[i]
            for c in [code] + [int(row[4 + 2 * j]) for j in range(row[1])]:
                assert M.joker_swap(row, c) == REF.joker_position(row, c)
    _settings(n)(run)()


@pytest.mark.parametrize("n", _quick_slow(60, 300))
def test_check_meld_equals_the_definition(n):
    @given(deals(), st.lists(st.integers(0, 13), min_size=1, max_size=7, unique=True))
    def run(d, picks):
        name, hand, _ = d
        R = RULES[name]
        cards = [hand[i] for i in picks if i < len(hand)]
        if not cards:
            return
        row = np.zeros(M.MELD_W, np.int64)
        ok = M.check_meld(np.array(cards, np.int64), len(cards), R, row)
        assert ok == REF.is_meld(R, cards), (name, cards)
        if ok:
            assert REF.row_legal(R, row)
            assert sorted(int(row[3 + 2 * j]) for j in range(row[1])) == sorted(cards)
    _settings(n)(run)()


# ---- hands worked by hand ----------------------------------------------------------------------

def test_oklahoma_hands_worked_by_hand():
    # 5-6-7 of spades, three sevens, Q-K-A of spades: the seven of spades goes in one meld,
    # two fives (7..3 are 5 each, line 87) stay out; a deuce completes the other meld
    r = M.arrange_codes("5s 6s 7s 7h 7d Qs Ks As")
    assert r["deadwood"] == 10 and ["Qs", "Ks", "As"] in r["melds"]
    r = M.arrange_codes("5s 6s 7s 7h 7d Qs Ks As 2c")
    assert r["deadwood"] == 0
    # four is the most (line 85): 3-4-5-6-7 of hearts keeps one card out, the cheapest end
    r = M.arrange_codes("3h 4h 5h 6h 7h")
    assert r["deadwood"] == 5 and len(r["melds"]) == 1 and len(r["melds"][0]) == 4
    # sets may repeat a card (two decks); no run goes round the corner (K-A-2)
    assert M.arrange_codes("9c 9c 9d")["deadwood"] == 0
    assert M.arrange_codes("Kd Ad 3d")["deadwood"] == 10 + 20 + 5
    # a meld needs a natural card: three wild cards stay in hand (20 + 20 + 200)
    assert M.arrange_codes("2c 2d Jo")["deadwood"] == 240
    assert M.arrange_codes("8h 9h 2c Jo")["melds"] == [["8h", "9h", "2c=Th", "Jo=Jh"]]
    # the joker (200 in hand) is used before a deuce (20) when only one wild fits
    threes = M.meld_rules(seq_ranks="both", max_size=3, set_suits="any", wild_ranks=1 << 2,
                          max_wild=2, min_natural=2)
    r = M.arrange_codes("8h 9h 2c Jo", threes, M.oklahoma_hand_values())
    assert r["deadwood"] == 20 and r["melds"] == [["8h", "9h", "Jo=Th"]]


def test_rows_name_wilds_as_documented():
    out = np.zeros((4, M.MELD_W), np.int64)
    # a set of distinct suits names the lowest suits its natural cards lack
    R = M.meld_rules(set_suits="distinct", wild_ranks=1 << 2, max_wild=2, runs=False)
    dead, k = M.arrange(M.counts("5d 5s 2c"), R, np.ones(65, np.int64), out)
    assert (dead, k) == (0, 1)
    assert M.row_cards(out[0]) == ["5d", "5s", "2c=5c"]
    # a run's wild cards by code at its wild positions; the window extends upward
    dead, k = M.arrange(M.counts("5s 7s Jo 2h"), M.OKLAHOMA, M.oklahoma_hand_values(), out)
    assert M.row_cards(out[0]) == ["5s", "2h=6s", "7s", "Jo=8s"]
    assert list(out[0, :3]) == [M.KIND_RUN, 4, 3 * 16 + 5]
    assert (out[0, 3 + 2 * 4:] == -1).all()


def test_melds_with_takes_the_pile_card_with_two_hand_cards():
    out = np.zeros((64, M.MELD_W), np.int64)
    cnt = M.counts("8h 9h Ks Kd 4c")
    k = M.melds_with(cnt, M.OKLAHOMA, C.parse_card("Th"), 2, out)
    assert sorted(tuple(M.row_cards(out[i])) for i in range(k)) == [("8h", "9h", "Th")]
    k = M.melds_with(cnt, M.OKLAHOMA, C.parse_card("Kc"), 2, out)
    assert [M.row_cards(out[i]) for i in range(k)] == [["Kc", "Kd", "Ks"]]
    assert M.melds_with(cnt, M.OKLAHOMA, C.parse_card("Kc"), 3, out) == 0


# ---- gin's fast path ---------------------------------------------------------------------------

@pytest.mark.parametrize("k", [10, 11])
def test_gin_fast_path_equals_the_engine(k):
    rng = np.random.default_rng(250 + k)
    deck = np.array([s * 16 + r for s in range(4) for r in range(2, 15)])
    dw = M.gin_values()
    out = np.zeros((8, M.MELD_W), np.int64)
    for _ in range(1500):
        hand = rng.choice(deck, k, replace=False)
        dead, _ = M.arrange(M.counts(hand), M.GIN, dw, out)
        assert dead == onedeck.min_deadwood(onedeck.gin_mask(hand)), C.format_cards(hand)


# ---- rules -------------------------------------------------------------------------------------

@pytest.mark.parametrize("kw,field", [
    (dict(seq_ranks="round"), "seq_ranks"), (dict(seq_ranks=1 << 15), "seq_ranks"),
    (dict(min_size=1), "min_size"), (dict(min_size=3, max_size=2), "max_size"),
    (dict(max_size=M.MAX_LEN + 1), "max_size"), (dict(set_suits="mixed"), "set_suits"),
    (dict(wild_ranks=1 << 1), "wild_ranks"), (dict(max_wild=-1), "max_wild"),
    (dict(min_natural=2.5), "min_natural"), (dict(runs="maybe"), "runs"),
    (dict(free_set_ranks="x"), "free_set_ranks"), (dict(colour=1), "colour"),
])
def test_meld_rules_refuse_bad_values_naming_the_field(kw, field):
    with pytest.raises(SimkitError, match=field):
        M.meld_rules(**kw)


def test_meld_rules_presets_and_names():
    assert M.OKLAHOMA.seq_ranks == M.ACE_BOTH and M.OKLAHOMA.max_size == 4
    assert M.OKLAHOMA.wild_ranks == 1 << 2 and M.OKLAHOMA.set_suits == M.SET_ANY
    assert M.meld_rules(seq_ranks="high", set_suits="any") == M.meld_rules(
        seq_ranks=M.ACE_HIGH, set_suits=M.SET_ANY)
    with pytest.raises(SimkitError, match="both false"):
        M.meld_rules(runs=False, sets=False)


# ---- big hands and plain Python ----------------------------------------------------------------

def test_a_hand_with_the_whole_pile_stays_exact_on_small_checks():
    """A 13-card hand that took a 60-card pile: rows legal, cards accounted for; and adding a
    card that completes nothing never lowers the deadwood below the smaller hand's."""
    rng = np.random.default_rng(9)
    deck = np.array([s * 16 + r for s in range(4) for r in range(2, 15)] * 2 + [64])
    dw = M.oklahoma_hand_values()
    out = np.zeros((40, M.MELD_W), np.int64)
    for size in (30, 45, 73):
        hand = sorted(int(c) for c in rng.permutation(deck)[:size])
        dead, k = M.arrange(M.counts(hand), M.OKLAHOMA, dw, out)
        used = Counter()
        for i in range(k):
            assert REF.row_legal(M.OKLAHOMA, out[i])
            used.update(int(out[i, 3 + 2 * j]) for j in range(out[i, 1]))
        left = Counter(hand) - used
        assert not used - Counter(hand)
        assert sum(int(dw[c]) * v for c, v in left.items()) == dead


def test_a_work_buffer_of_any_contents_changes_nothing():
    """``arrange_in``, ``melds_with_in`` and ``legal_melds_in`` with buffers filled with random
    numbers before every call give what the allocating calls give (zeroed buffers): the kernels
    read only what they wrote (the search's memo table aside, which it clears).  300 seeded
    hands from Oklahoma's 105 cards (nine in ten of 3-40 cards, so that many hold 20 naturals
    or more: the memo table; one in ten of 3-13) under four rule records, the listings on those
    of 14 cards or fewer; a buffer too small for the hand (8 words: a buffer of its own) too."""
    rng = np.random.default_rng(25)
    deck = np.array([s * 16 + r for s in range(4) for r in range(2, 15)] * 2 + [64])
    big = np.zeros(1 << 19, np.int64)
    out, out2 = np.zeros((40, M.MELD_W), np.int64), np.zeros((40, M.MELD_W), np.int64)
    opts, opts2 = np.zeros((3000, M.MELD_W), np.int64), np.zeros((3000, M.MELD_W), np.int64)
    searched = 0
    for i in range(300):
        name = ("oklahoma", "canasta", "high_any_unbounded_min2", "both_distinct_all_wild")[i % 4]
        R = RULES[name]
        hand = [int(c) for c in rng.permutation(deck)[:int(rng.integers(3, 41 if i % 10 else 14))]]
        dw = M.oklahoma_hand_values() if i % 3 else rng.integers(0, 31, 65)
        cnt = M.counts(hand)
        dead, k = M.arrange(cnt, R, dw, out)
        for buf in (big, big[:8]):
            buf[:] = rng.integers(-2 ** 62, 2 ** 62, buf.shape[0])
            out2[:] = -7
            assert M.arrange_in(cnt, R, dw, out2, buf) == (dead, k), (name, hand)
            assert (out2[:min(k, 40)] == out[:min(k, 40)]).all(), (name, hand)
        searched += k > 0
        if len(hand) <= 14:
            for code in (int(rng.choice(deck)), 64):
                n = M.melds_with(cnt, R, code, 2, opts)
                big[:] = rng.integers(-2 ** 62, 2 ** 62, big.shape[0])
                assert M.melds_with_in(cnt, R, code, 2, opts2, big) == n, (name, hand, code)
                assert (opts2[:max(n, 0)] == opts[:max(n, 0)]).all()
            n = M.legal_melds(cnt, R, opts)
            big[:] = rng.integers(-2 ** 62, 2 ** 62, big.shape[0])
            assert M.legal_melds_in(cnt, R, opts2, big) == n, (name, hand)
            assert (opts2[:max(n, 0)] == opts[:max(n, 0)]).all()
    assert searched > 150                       # most hands went through the search


def plain_calls() -> dict:
    """A few calls of every kernel, as JSON values (run compiled here and as plain Python)."""
    out = np.zeros((300, M.MELD_W), np.int64)
    res = {}
    for i, (name, text) in enumerate([("oklahoma", "5s 6s 7s 7h 7d Qs Ks As 2c Jo 9c 9c 3d"),
                                      ("gin", "As 2s 3s 7d 7h 7c Kd Qd Jd 5c"),
                                      ("spanish_one_or_all", "Ac Ad Ah 5s 5s 6s Jo 7h Jh Qh"),
                                      ("both_distinct_all_wild", "2c 2d Jo 9h Th Jh 9s")]):
        R = RULES[name]
        cnt = M.counts(text)
        dead, k = M.arrange(cnt, R, M.oklahoma_hand_values(), out)
        res[f"arrange {i}"] = [int(dead), out[:k].tolist()]
        k = M.legal_melds(cnt, R, out)
        res[f"legal {i}"] = out[:max(k, 0)].tolist()
        k = M.melds_with(cnt, R, C.parse_card("8s"), 2, out)
        res[f"with {i}"] = out[:max(k, 0)].tolist()
        row = np.zeros(M.MELD_W, np.int64)
        res[f"check {i}"] = [bool(M.check_meld(np.array([53, 54, 64]), 3, R, row)), row.tolist()]
        res[f"add {i}"] = [int(M.add_options(row, 64, R, out)), out[:2].tolist()]
    return res


def test_plain_python_equals_compiled():
    script = ("import json, sys\nsys.path.insert(0, sys.argv[1])\n"
              "from tests.test_melds import plain_calls\nprint(json.dumps(plain_calls()))\n")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    res = subprocess.run([sys.executable, "-c", script, root], capture_output=True, text=True,
                         env=env, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    assert json.loads(res.stdout) == plain_calls()


def test_the_memo_table_of_big_hands_keeps_them_exact():
    """Hands of 20-25 naturals search with the memo table (:func:`search.memo_bits`: 2**8
    entries there, so positions share slots): 40 seeded hands of Oklahoma's 105 cards against
    the brute force's least deadwood, their rows legal and their cards the hand's."""
    from simkit.engines.melds import search
    rng = np.random.default_rng(21)
    deck = np.array([s * 16 + r for s in range(4) for r in range(2, 15)] * 2 + [64])
    dw = M.oklahoma_hand_values()
    out = np.zeros((40, M.MELD_W), np.int64)
    checked = 0
    while checked < 40:
        hand = sorted(int(c) for c in rng.permutation(deck)[:int(rng.integers(21, 26))])
        nat = sum(1 for c in hand if c != 64 and c & 15 != 2)
        if not 20 <= nat <= 25:
            continue
        assert search.memo_bits(nat) == 8
        dead, k = M.arrange(M.counts(hand), M.OKLAHOMA, dw, out)
        assert dead == REF.least_deadwood(M.OKLAHOMA, hand, dw), C.format_cards(hand)
        used = Counter()
        for i in range(k):
            assert REF.row_legal(M.OKLAHOMA, out[i])
            used.update(int(out[i, 3 + 2 * j]) for j in range(out[i, 1]))
        assert not used - Counter(hand)
        checked += 1
