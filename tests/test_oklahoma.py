"""Oklahoma (Q♠ rummy, 003:85-88): worked hands on stacked decks scored by hand from line 87,
the exact dealt-hand odds against dealt hands, the baseline against random play.

Tolerances: simulated shares and means within 4 standard errors of the exact values (a false
alarm about once in 16,000 checks); seeds fixed, so a failure is reproducible.  The move-by-move
legality and the scores of thousands of logged hands are checked by a plain-Python reference
of the rules (tests/test_oklahoma_reference.py).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import simkit
from simkit.core import cards as C
from simkit.core import play
from simkit.errors import SimkitError
from simkit.engines import melds as ME
from simkit.games.oklahoma import engine as E
from simkit.games.oklahoma import exact

Z = 4.0
SPEC = simkit.get_game("oklahoma")


def _rules(**kw):
    return SPEC.rules.build(kw)


def _stack(p1: str, p2: str, up: str, stock: str) -> str:
    """Two players, seat 1 deals: cards alternate p1, p2; then the upcard and the stock."""
    a, b = p1.split(), p2.split()
    assert len(a) == len(b) == 13
    return " ".join(x for pair in zip(a, b) for x in pair) + f" {up} {stock}"


P2_JUNK = "Qs Jo 2c 3d 5d 7d 9c Jc Kc 4h 6h 8h Th"   # 100 + 200 + 20 + 75 in hand


def test_line_87_values():
    hand, meld = E.card_values()
    q = C.parse("As Qs Kd 8c 7h 3s 2d Jo")
    assert [hand[c] for c in q] == [20, 100, 10, 10, 5, 5, 20, 200]
    assert [meld[c] for c in q[:6]] == [20, 50, 10, 10, 5, 5] and meld[64] == 100
    # a melded deuce by the card it stands for: K..8 10, lower 5, an ace high 10 / low 5
    assert [E.wild_value(C.parse_card(s), False) for s in ("Kh", "8h", "7h", "3h", "2h")] \
        == [10, 10, 5, 5, 5]
    assert E.wild_value(C.parse_card("Ah"), False) == 10 and E.wild_value(C.parse_card("Ah"), True) == 5


def test_going_out_on_the_first_turn_scores_line_87_and_88():
    # p1: sets of aces, kings, nines and a four-card run: 60 + 30 + 30 + 20 = 140 melded;
    # draws 7h, melds everything, discards 7h and goes out (+100).  p2 holds 395 in hand.
    deck = _stack("As Ah Ad Ks Kh Kd 9d 9h 9s 3c 4c 5c 6c", P2_JUNK, "8s", "7h")
    r = play.play_stacked(SPEC, _rules(), None, deck)
    assert r["p1_points"] == 240 and r["p1_out"] == 1 and r["turns"] == 1
    assert r["p2_points"] == -395 and r["p2_qs_stuck"] == 1 and r["p2_out"] == 0
    assert r["stock_out"] == 0 and r["p1_takes"] == 0


def test_the_pile_is_taken_to_meld_its_top_card_with_two_from_hand():
    deck = _stack("9d 9h 3c 5d 7s Js Kd 4h 6c 8s Th Qh Ac", P2_JUNK, "9c", "")
    _, log = play.play_stacked(SPEC, _rules(), None, deck, log=True)
    first = log[E.NHEAD + 26 + 1]
    assert first >> 20 == E.EV_TAKE and (first >> 16) & 15 == 0 and first & 255 == C.parse_card("9c")
    meld = log[E.NHEAD + 26 + 2]
    assert meld >> 20 == E.EV_MELD and meld & 255 == 3
    laid = sorted(int(e) & 255 for e in log[E.NHEAD + 26 + 3:E.NHEAD + 26 + 6])
    assert laid == sorted(C.parse("9c 9d 9h").tolist())


def test_one_card_of_a_pair_cannot_take_the_pile():
    deck = _stack("9d 3h 3c 5d 7s Js Kd 4h 6c 8s Th Qh Ac", P2_JUNK, "9c", "")
    _, log = play.play_stacked(SPEC, _rules(), None, deck, log=True)
    first = log[E.NHEAD + 26 + 1]
    assert first >> 20 == E.EV_DRAW


def test_the_queen_of_spades_is_kept_until_it_is_the_last_card():
    # p1 can meld twelve cards but not its Q♠ (no spade near it, no wild card); left with Q♠
    # and 4h it must throw 4h, not the Q♠ (line 87)
    deck = _stack("Ac Ah Ad Kc Kh Kd 9d 9h 9s 3c 4c 5c Qs", P2_JUNK, "8s", "4h")
    _, log = play.play_stacked(SPEC, _rules(), None, deck, log=True)
    ev = [int(e) for e in log[E.NHEAD + 27:] if e >= 0]
    discards = [e & 255 for e in ev if e >> 20 == E.EV_DISCARD and (e >> 16) & 15 == 0]
    assert discards[0] == C.parse_card("4h")


def test_a_stacked_deck_is_checked_and_plays_single_hands():
    with pytest.raises(SimkitError):
        play.play_stacked(SPEC, _rules(), None, "Jo Jo")
    with pytest.raises(SimkitError):
        play.play_stacked(SPEC, _rules(unit="game"), None, "As")


def test_exact_odds_are_a_distribution():
    pr = exact.probabilities()
    wild = sum(v for k, v in pr.items() if k.startswith("wilds_") and k[6:].isdigit())
    value = sum(v for k, v in pr.items() if k.startswith("value_") and k[6:].isdigit())
    assert wild == 1 and value == 1
    # by hand: P(no Q♠ among 13 of 105) = C(103, 13) / C(105, 13)
    assert pr["qs_held"] == 1 - exact.Fraction(math.comb(103, 13), math.comb(105, 13))
    assert pr["joker_held"] == exact.Fraction(13, 105)
    assert pr["wilds_mean"] == exact.Fraction(13 * 9, 105)


def test_exact_odds_against_dealt_hands():
    """Every seat's dealt 13 cards of 3,000 logged hands (3 players: 9,000 hands) against the
    exact law: shares and means within 4 SE."""
    rules = _rules(players=3)
    _, log = play.play_logged(SPEC, rules, [f"p{k}=random" for k in (1, 2, 3)], n=3000, seed=11)
    hands = log[:, E.NHEAD:E.NHEAD + 39]
    vals, _ = E.card_values()
    qs, jo, wild, value = [], [], [], []
    for row in hands:
        for seat in range(3):
            h = row[seat::3]
            qs.append(float((h == E.QS).any()))
            jo.append(float((h == 64).any()))
            wild.append(float(((h & 15) == 2).sum() + (h == 64).sum()))
            value.append(float(vals[h].sum()))
    pr = exact.probabilities()
    for name, x in [("qs_held", qs), ("joker_held", jo), ("wilds_mean", wild),
                    ("value_mean", value)]:
        x = np.asarray(x)
        se = x.std(ddof=1) / math.sqrt(len(x))
        assert abs(x.mean() - float(pr[name])) < Z * se, (name, x.mean(), float(pr[name]), se)


def test_simkit_exact_prints_fractions_and_refuses_a_grid():
    obj, table = exact.exact(_rules())
    assert obj["exact"]["joker_held"] == "13/105"
    assert set(table.metric) >= {"qs_held", "wilds_mean", "value_mean"}
    with pytest.raises(SimkitError):
        exact.exact(_rules(), None, [("players", [2, 3])])


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_baseline_beats_random_in_every_player_count(players):
    """The baseline in each seat in turn against random players: its points a hand minus the
    random seats' mean, per hand, at least 5 SE above zero (n = 400 hands per seat)."""
    diffs = []
    for seat in range(players):
        strats = [f"p{k + 1}=" + ("baseline" if k == seat else "random") for k in range(players)]
        rows = simkit.run(f"oklahoma(players={players})", n=400, seed=5 + seat,
                          strategies=strats, rows=True, progress=False).rows
        pts = rows[[f"p{k + 1}_points" for k in range(players)]].to_numpy(float)
        others = np.delete(pts, seat, axis=1).mean(axis=1)
        diffs.append(pts[:, seat] - others)
    d = np.concatenate(diffs)
    m, se = d.mean(), d.std(ddof=1) / math.sqrt(len(d))
    assert m > 5 * se, (players, m, se)


@pytest.mark.parametrize("min_natural", [0, 1, 2])
def test_a_meldless_hand_that_draws_a_card_may_meld_rules_out_holds_no_meld(min_natural):
    """baseline_melds skips the search when a hand with no meld draws one natural card that
    may_meld rules out of every meld.  On 3,000 random meldless hands (what the search leaves
    unmelded, of 4-24 random cards; seeded) plus one more natural card: the leftover indeed
    holds no meld, and whenever may_meld says no, the search finds no meld and every card in
    hand, as the skip assumes (and the skip is taken in a fair share of the cases)."""
    R = E.table(_rules(min_natural=min_natural))
    arr, wk = np.zeros((E.MAXM, E.W_), np.int64), np.zeros(E.WK, np.int64)
    deck = E.make_deck().astype(np.int64)
    rng = np.random.default_rng(85 + min_natural)
    skipped = 0
    for it in range(3000):
        pick = rng.permutation(deck)
        h = np.zeros(E.NC, np.int64)
        for c in pick[:rng.integers(4, 25)]:
            h[c] += 1
        dw, nm = E.arrange_in(h, R, arr, wk)
        for k in range(nm):
            for j in range(arr[k, 1]):
                h[arr[k, 3 + 2 * j]] -= 1
        assert E.arrange_in(h, R, arr, wk)[1] == 0, (it, np.flatnonzero(h))
        c = next(int(x) for x in pick[30:] if not E.is_wild(x))
        h[c] += 1
        if not E.may_meld(h, c, E.wilds_for(h, R.mr.max_wild)):
            skipped += 1
            assert E.arrange_in(h, R, arr, wk) == (E.in_hand(h), 0), (it, np.flatnonzero(h), c)
    assert skipped > 600, skipped


def _gapped_by_the_rule(h, c):
    """Is natural ``c`` one of three naturals of its suit in four run positions whose missing one
    is inside (a four-card run with one wild inside)?"""
    s, r = c >> 4, c & 15
    for q in ([r, 1] if r == 14 else [r]):
        for x in range(max(1, q - 3), min(q, 11) + 1):
            held = [E._near(h, s, y) or y == q for y in range(x, x + 4)]
            if held in ([True, False, True, True], [True, True, False, True]):
                return True
    return False


def _bound_by_the_rule(h, mw):
    """worth_bound spelled out card by card: line 87's values with may_meld; the naturals it
    rules out with no wild (or with one) sorted by what melding them gains, and every way the
    hand's wilds make melds of one wild (``a``: two needy naturals each, three in ``e`` of them,
    three of the gapped ones each) and of two or more (``b``: two each, ``a + 2b <= nw``) tried,
    the best kept."""
    nw = int(h[E.JOKER] + h[[2, 18, 34, 50]].sum())
    w = min(nw, mw)
    t = int(h[E.JOKER] * E.MELD_VALUE[E.JOKER] + 10 * (nw - h[E.JOKER]))
    one, two, gapped = [], [], 0
    for c in np.flatnonzero(h[:64]):
        if c & 15 == 2:
            continue
        for _ in range(h[c]):
            gain = int(E.MELD_VALUE[c] + E.HAND_VALUE[c])
            t += int(E.MELD_VALUE[c]) - gain
            if E.may_meld(h, c, 0):
                t += gain
            elif w >= 1 and E.may_meld(h, c, 1):
                one.append(gain)
                gapped += _gapped_by_the_rule(h, c)
            elif w >= 2:
                two.append(gain)
    one.sort(reverse=True)
    two.sort(reverse=True)
    best = [0, 0]          # the best, and the best with no meld of three gapped ones
    for b in range(nw // 2 + 1 if mw >= 2 else 1):
        for a in range(nw - 2 * b + 1):
            for e in range(min(a, gapped // 3) + 1):
                for i in range(min(2 * b, len(two)) + 1):
                    rest = 2 * a + e + 2 * b - i
                    if rest >= 0:
                        v = sum(two[:i]) + sum(one[:rest])
                        best = [max(best[0], v), max(best[1], v) if e == 0 else best[1]]
    return t + best[0], t + best[1]


def _old_bound(h, mw):
    """Session 21's bound: every natural may_meld allows (with the hand's wilds) counted melded."""
    w = min(h[E.JOKER] + h[[2, 18, 34, 50]].sum(), mw)
    t = h[E.JOKER] * E.MELD_VALUE[E.JOKER] + 10 * h[[2, 18, 34, 50]].sum()
    for c in np.flatnonzero(h[:64]):
        if c & 15 != 2:
            t += h[c] * (E.MELD_VALUE[c] if E.may_meld(h, c, w) else -E.HAND_VALUE[c])
    return t


def _shaped_hand(rng, deck, it):
    """Random hands of 1..30 cards (a third without wilds), and shapes where the wilds are
    scarce: pairs and near cards of a suit with 1-3 wilds, lone naturals with 2-5."""
    h = np.zeros(E.NC, np.int64)
    shape = it % 4
    if shape < 2:
        for c in rng.choice(deck, rng.integers(1, 31), replace=False):
            h[c] += 1
        if shape == 0:
            h[[2, 18, 34, 50, E.JOKER]] = 0
        return h
    nat = [c for c in deck if c != E.JOKER and c & 15 != 2]
    for _ in range(rng.integers(2, 7)):
        c = int(rng.choice(nat))
        h[c] = min(h[c] + 1, 2)
        if shape == 2:       # a mate: the same rank, or one or two ranks along the suit
            r, s = c & 15, c >> 4
            mates = [x * 16 + r for x in range(4)] + [s * 16 + r + d for d in (-2, -1, 1, 2)
                                                     if 3 <= r + d <= 14]
            m = int(rng.choice(mates))
            h[m] = min(h[m] + 1, 2)
    wilds = [2, 18, 34, 50] * 2 + [E.JOKER]
    for c in rng.choice(wilds, rng.integers(1, 4) if shape == 2 else rng.integers(2, 6),
                        replace=False):
        h[c] += 1
    return h


@pytest.mark.parametrize("min_natural", [0, 1, 2])
def test_worth_bound_bounds_the_search_and_is_the_rule_card_by_card(min_natural):
    """The pile decision skips the search of an option whose worth_bound is too low: on 2,000
    hands (seeded; random ones of 1..30 cards, a third of them without wilds, and shapes where
    wilds are scarce: pairs and near cards with 1-3 wilds, lone naturals with 2-5), the bound is
    never below the searched worth, equals the rule spelled out card by card (may_meld, the
    gapped four-card windows, then the wilds' melds tried every way), never above session 21's
    bound (every natural may_meld allows counted melded), and below it in a fair share of the
    hands (the pairs' and lone naturals' share of the wilds), equal to the worth in a fair share
    too, and raised by a meld of three gapped naturals in some (so that rule is exercised)."""
    R = E.table(_rules(min_natural=min_natural))
    mw = R.mr.max_wild
    arr, wk = np.zeros((E.MAXM, E.W_), np.int64), np.zeros(E.WK, np.int64)
    deck = E.make_deck().astype(np.int64)
    rng = np.random.default_rng(87 + min_natural)
    tighter = tight = three = 0
    for it in range(2000):
        h = _shaped_hand(rng, deck, it)
        b = E.worth_bound(h, mw)
        v = E.worth(h, R, arr, wk)[0]
        assert b >= v, (it, np.flatnonzero(h), b, v)
        rule, no_three = _bound_by_the_rule(h, mw)
        assert b == rule, (it, np.flatnonzero(h))
        old = _old_bound(h, mw)
        assert b <= old, (it, np.flatnonzero(h))
        tighter += b < old
        tight += b == v
        three += rule > no_three
    assert tighter > 500 and tight > 500 and three > 100, (tighter, tight, three)


@pytest.mark.parametrize("min_natural", [0, 1, 2])
def test_a_hands_worth_depends_on_how_many_deuces_it_holds_not_their_suits(min_natural):
    """baseline_take prices once the pile options whose hands differ only in their deuces'
    suits (option_key).  On 2,000 random hands of 3-24 cards with 1-4 deuces (seeded), the
    search's worth is the same with the deuces' suits dealt again at random (at most two of a
    suit; the hand otherwise the same), and the suits make a difference in a fair share of
    the cases (so the check is not of the same hand twice)."""
    R = E.table(_rules(min_natural=min_natural))
    arr, wk = np.zeros((E.MAXM, E.W_), np.int64), np.zeros(E.WK, np.int64)
    deck = [c for c in E.make_deck().astype(np.int64) if c == E.JOKER or c & 15 != 2]
    deuces = [2, 18, 34, 50] * 2
    rng = np.random.default_rng(90 + min_natural)
    moved = 0
    for it in range(2000):
        h = np.zeros(E.NC, np.int64)
        for c in rng.choice(deck, rng.integers(2, 21), replace=False):
            h[c] += 1
        nd = int(rng.integers(1, 5))
        h2 = h.copy()
        for c in rng.choice(deuces, nd, replace=False):
            h[c] += 1
        for c in rng.choice(deuces, nd, replace=False):
            h2[c] += 1
        moved += not np.array_equal(h, h2)
        assert E.worth(h, R, arr, wk)[0] == E.worth(h2, R, arr, wk)[0], (
            it, np.flatnonzero(h), np.flatnonzero(h2))
    assert moved > 1000, moved


def _seats(pile_gain):
    one = {"kind": 1, "pile_min": 1, "pile_gain": pile_gain, "hold": 0, "qs": 1, "joker": 1,
           "keep": 4, "feed": 0}
    return E.Seats(**{f: np.array([one[f]] * 2, np.int64) for f in E.Seats._fields})


def _pile_position(W, rng, deck, max_pile, wilds=False):
    """A random position for seat 0's pile decision, written into ``W``: a hand of 4-14 cards
    of a shuffled ``deck`` (``wilds``: plus 0-2 more deuces or the joker, two copies at most)
    and a pile of the next 1..``max_pile`` cards, no meld on the table.  ``(hand, pile)``."""
    pick = rng.permutation(deck)
    nh, n = rng.integers(4, 15), rng.integers(1, max_pile + 1)
    hand = np.zeros(E.NC, np.int64)
    for c in pick[:nh]:
        hand[c] += 1
    if wilds:
        for c in rng.choice([2, 18, 34, 50, E.JOKER], rng.integers(0, 3), replace=False):
            hand[c] = min(hand[c] + 1, 2 if c != E.JOKER else 1)
    pile = pick[nh:nh + n]
    W.hand[0] = hand
    W.pile[:n] = pile
    W.st[2] = n
    W.nmeld[0] = 0
    return hand, pile


def test_the_pile_decision_is_the_one_of_pricing_every_option():
    """baseline_take searches the options best bound first and the hand's own worth only when
    its bounds leave the decision open.  On 1,200 random positions (seeded: a hand of 4-14
    cards, a pile of 1-10; a third forced, pile_gain -20..80) its choice is the one of pricing
    every option and the hand by the search: the first option of the highest worth (the hand
    it leaves plus the meld's value), taken when forced or when that is at least the hand's
    worth plus pile_gain."""
    r = _rules()
    R, W = E.table(r), E.work(r)
    arr, wk = np.zeros((E.MAXM, E.W_), np.int64), np.zeros(E.WK, np.int64)
    deck = E.make_deck().astype(np.int64)
    rng = np.random.default_rng(85)
    taken = declined = 0
    for it in range(1200):
        hand, pile = _pile_position(W, rng, deck, 10)
        base = E.worth(hand, R, arr, wk)
        W.free[0] = 1 if base[1] == 0 and it % 2 else 0
        k = E.pile_options(R, W, 0)
        if k == 0:
            continue
        forced, pg = it % 3 == 0, int(rng.choice([-20, 0, 30, 80]))
        vals = []
        for o in range(k):
            row = W.opts[o, :3 + 2 * W.opts[o, 1]]
            left = hand.copy()
            for c in pile[:-1]:
                left[c] += 1
            laid = list(row[3::2])
            laid.remove(pile[-1])
            for c in laid:
                left[c] -= 1
            vals.append(E.worth(left, R, arr, wk)[0] + E.meld_value(W.opts[o]))
        bo = int(np.argmax(vals))
        want = bo if forced or vals[bo] - base[0] >= pg else -1
        got = E.baseline_take(R, _seats(pg), W, 0, k, forced)
        assert got == want, (it, np.flatnonzero(hand), pile, forced, pg, vals, base[0])
        taken += got >= 0 and not forced
        declined += got < 0
    assert taken > 100 and declined > 100, (taken, declined)


@pytest.mark.parametrize("min_natural", [0, 1, 2])
def test_a_pile_top_may_meld_rules_out_makes_no_new_meld(min_natural):
    """pile_options lists no new meld, without calling the listing, for a natural top card that
    may_meld rules out of every meld of the hand with it.  On 3,000 random hands of 1-20 cards
    and natural top cards (seeded): whenever may_meld says no, the listing finds no meld of the
    top card with two or more hand cards (and it finds some in a fair share of the others)."""
    R = E.table(_rules(min_natural=min_natural))
    out = np.zeros((E.NOPT, E.W_), np.int64)
    wk = np.zeros(E.WK, np.int64)
    deck = E.make_deck().astype(np.int64)
    rng = np.random.default_rng(86 + min_natural)
    ruled_out = listed = 0
    for it in range(3000):
        pick = rng.permutation(deck)
        h = np.zeros(E.NC, np.int64)
        for c in pick[:rng.integers(1, 21)]:
            h[c] += 1
        top = next(int(x) for x in pick[25:] if not E.is_wild(x))
        h[top] += 1
        maybe = E.may_meld(h, top, E.wilds_for(h, R.mr.max_wild))
        h[top] -= 1
        k = E.melds_with(h, R.mr, top, 2, out, wk)
        if not maybe:
            ruled_out += 1
            assert k == 0, (it, np.flatnonzero(h), top)
        listed += k > 0
    assert ruled_out > 600 and listed > 300, (ruled_out, listed)


def test_meld_values_are_line_87_card_by_card():
    """meld_value (tables, no branch a card) against the plain-Python reference's meld_value
    (tests/oklahoma_reference.py, line 87 spelled out) on 20,000 random meld rows of 3-4 cards
    (seeded): sets and runs, the ace high and low, each card natural or a random wild (a deuce
    of any suit or the joker) standing for its place; every kind of card must occur, the low
    ace stood for by a deuce (the one special case) among them."""
    from tests import oklahoma_reference as ref
    rng = np.random.default_rng(88)
    wilds = [s * 16 + 2 for s in range(4)] + [E.JOKER]
    low_deuce = 0
    seen = set()
    for it in range(20000):
        n = int(rng.integers(3, 5))
        row = np.full(E.W_, -1, np.int64)
        if rng.random() < 0.5:
            s, lo = int(rng.integers(0, 4)), int(rng.integers(1, 16 - n))
            row[0], row[2] = ME.KIND_RUN, s * 16 + lo
            stands = [s * 16 + (14 if q == 1 else q) for q in range(lo, lo + n)]
        else:
            r = int(rng.integers(3, 15))
            row[0], row[2] = ME.KIND_SET, r
            stands = [int(rng.integers(0, 4)) * 16 + r for _ in range(n)]
        row[1] = n
        for j, st in enumerate(stands):
            a = st if (st & 15) != 2 and rng.random() < 0.6 else int(rng.choice(wilds))
            row[3 + 2 * j], row[4 + 2 * j] = a, st
            seen.add("joker" if a == E.JOKER else "deuce" if (a & 15) == 2 else
                     "qs" if a == E.QS else "ace" if (a & 15) == 14 else "natural")
        entries = [(int(row[3 + 2 * j]), int(row[4 + 2 * j])) for j in range(n)]
        assert E.meld_value(row) == ref.meld_value(entries), (it, row[:3], entries)
        low_deuce += row[0] == ME.KIND_RUN and (row[2] & 15) == 1 and (row[3] & 15) == 2
    assert seen == {"joker", "deuce", "qs", "ace", "natural"} and low_deuce > 100, \
        (seen, low_deuce)


@pytest.mark.parametrize("min_natural", [0, 1, 3])
def test_a_dealt_hand_holds_no_meld_only_when_the_search_finds_none(min_natural):
    """The deal marks a hand free (no meld: its first turn skips the search of the whole hand)
    by holds_no_meld.  On 4,000 random hands of 3-15 cards (seeded; most wild cards left out, so
    that meldless hands are common): whenever it says free, the search finds no meld; and it
    says so for a fair share of the hands the search finds meldless."""
    R = E.table(_rules(min_natural=min_natural))
    arr, wk = np.zeros((E.MAXM, E.W_), np.int64), np.zeros(E.WK, np.int64)
    deck = E.make_deck().astype(np.int64)
    rng = np.random.default_rng(87 + min_natural)
    free = meldless = 0
    for it in range(4000):
        pick = rng.permutation(deck)
        keep_wild = rng.random() < 0.3
        h = np.zeros(E.NC, np.int64)
        for c in [x for x in pick if keep_wild or not E.is_wild(x) or rng.random() < 0.1][
                :rng.integers(3, 16)]:
            h[c] += 1
        nm = E.arrange_in(h, R, arr, wk)[1]
        meldless += nm == 0
        if E.holds_no_meld(h, R.mr.max_wild):
            free += 1
            assert nm == 0, (it, np.flatnonzero(h))
    assert free > 300 and free > meldless // 2, (free, meldless)


@pytest.mark.parametrize("min_natural", [1, 2])
def test_the_layoff_masks_are_may_fit_card_by_card(min_natural):
    """The layoff loop tries only the cards of fit_mask (in code order, lowest_code): on 1,500
    seeded random tables of 1..8 melds (legal melds of random hands of 3..16 cards, some with
    the meld engine's layoffs added, so full and ace-low ones occur), the mask is exactly the
    naturals may_fit puts on some meld not full, ``some`` exactly whether one is not full."""
    R = E.table(_rules(min_natural=min_natural))
    W = E.work(_rules(min_natural=min_natural))
    opts = np.zeros((E.NOPT, E.W_), np.int64)
    deck = E.make_deck().astype(np.int64)
    rng = np.random.default_rng(89)
    kinds = set()
    for it in range(1500):
        nm = 0
        while nm < rng.integers(1, 9):
            h = np.zeros(E.NC, np.int64)
            for c in rng.choice(deck, rng.integers(3, 17), replace=False):
                h[c] += 1
            k = ME.legal_melds(h, R.mr, opts)
            if k <= 0:
                continue
            row = opts[rng.integers(0, min(k, E.NOPT))].copy()
            c = int(rng.choice(deck))
            if rng.random() < 0.5 and row[1] < R.mr.max_size and E.may_fit(row, c):
                n = E.add_options(row, c, R.mr, opts)
                if n > 0:
                    row = opts[0].copy()
            W.melds[0, nm] = row
            kinds.add((int(row[0]), int(row[1]) >= R.mr.max_size))
            nm += 1
        W.nmeld[0] = nm
        f, some = E.fit_mask(R, W, 0)
        want = 0
        for c in range(64):
            if (c & 15) in (0, 1, 2, 15):
                continue
            if any(W.melds[0, m, 1] < R.mr.max_size and E.may_fit(W.melds[0, m], c)
                   for m in range(nm)):
                want |= 1 << c
        assert f == want, (it, W.melds[0, :nm])
        assert some == any(W.melds[0, m, 1] < R.mr.max_size for m in range(nm))
    assert len(kinds) == 4, kinds


def _random_hands(seed, n):
    """``n`` seeded random hands of 1..30 cards of the pack (count vectors)."""
    deck = E.make_deck().astype(np.int64)
    rng = np.random.default_rng(seed)
    for _ in range(n):
        h = np.zeros(E.NC, np.int64)
        for c in rng.choice(deck, rng.integers(1, 31), replace=False):
            h[c] += 1
        yield h


def _connections_by_rule(h, c):
    """The discard's count of connected cards, spelled out (same rank, other suit; same suit
    one or two ranks away, the ace below the three too)."""
    if c == E.JOKER:
        return 0
    r, s = c & 15, c >> 4
    t = h[c] - 1 + sum(h[x * 16 + r] for x in range(4) if x != s)
    ranks = [r - 2, r - 1, r + 1, r + 2] + ([3] if r == 14 else [])
    return t + sum(h[s * 16 + (14 if q == 1 else q)] for q in ranks
                   if 3 <= (14 if q == 1 else q) <= 14)


def test_connections_table_counts_by_the_rule():
    """baseline_discard's connections reads a table of neighbours: on 2,000 seeded random hands
    of 1..30 cards, for every card held, it equals the rule spelled out card by card."""
    for it, h in enumerate(_random_hands(91, 2000)):
        one, two = E.held_planes(h)
        for c in np.flatnonzero(h):
            assert E.connections(one, two, c) == _connections_by_rule(h, c), (it, c)


def test_the_held_planes_are_the_cards_held_once_and_twice():
    """baseline_discard walks the bits of held_planes' first plane and counts connections with
    both: on 2,000 seeded random hands of 1..30 cards they are exactly the sets of codes < 64
    held at least once and at least twice."""
    for it, h in enumerate(_random_hands(93, 2000)):
        planes = [sum(1 << int(c) for c in np.flatnonzero(h[:64] > j)) for j in (0, 1)]
        assert [int(x) & ((1 << 64) - 1) for x in E.held_planes(h)] == planes, it


@pytest.mark.parametrize("min_natural", [0, 1, 2])
def test_option_bounds_are_worth_bound_of_each_options_hand(min_natural):
    """option_bounds prices a decision's options from the base hand's masks less each option's
    meld cards: on 1,500 random positions (seeded: a hand of 4-14 cards, a pile of 1-12, each
    with extra deuces and pairs now and then) every option's bound is worth_bound of the hand it
    leaves (option_hand, counted out of the whole hand) plus its gain."""
    r = _rules(min_natural=min_natural)
    R, W = E.table(r), E.work(r)
    deck = E.make_deck().astype(np.int64)
    rng = np.random.default_rng(86 + min_natural)
    tmp = np.zeros(E.NC, np.int64)
    checked = 0
    for it in range(1500):
        hand, pile = _pile_position(W, rng, deck, 12, wilds=True)
        k = E.pile_options(R, W, 0)
        E.option_bounds(R, W, 0, k)
        for o in range(k):
            E.option_hand(W, 0, o, tmp)
            assert W.oub[o] == E.worth_bound(tmp, R.mr.max_wild) + W.ogain[o], (
                it, o, np.flatnonzero(hand), pile)
            checked += 1
    assert checked > 2000, checked
