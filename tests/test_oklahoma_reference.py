"""Oklahoma's logged hands replayed by a plain-Python statement of the rules
(tests/oklahoma_reference.py, written from 003:85-88 and READINGS-rummy.md section 4, not from the
engine): every move legal, and each seat's score, going out, pile takes, Q♠ left in hand and the
number of turns equal to the engine's metrics of the same deal.

Quick tier: 300 hands over 2-5 players; ``slow``: 1,700 more, every rule option of the brief
(``pile_take=layoff``, ``min_natural=0``, ``stock_end=reshuffle``, ``final_discard=false``) and
both strategies, mixed.  Seeds fixed.  Worked logs written by hand check the reference itself; the
corrupted engine logs show that the replay can fail: a discard of a card not held, a meld of five
cards, a layoff to a fifth card, a wrong score.
"""
from __future__ import annotations

import zlib

import numpy as np
import pytest

import simkit
from simkit.core import cards as C
from simkit.core import play
from tests import oklahoma_reference as ref

SPEC = simkit.get_game("oklahoma")

# (id, rule options, strategies, hands in the quick tier, hands in the slow tier)
CASES = [
    ("two-baseline", {}, ["p1=baseline", "p2=baseline"], 60, 300),
    ("three-mixed", {"players": 3}, ["p1=random", "p2=baseline", "p3=random"], 50, 300),
    ("four-layoff", {"players": 4, "pile_take": "layoff"},
     ["p1=baseline(hold=1)", "p2=random", "p3=baseline(feed=3,pile_min=3)",
      "p4=baseline(joker=0,qs=0)"], 40, 200),
    ("five-all-wild", {"players": 5, "min_natural": 0},
     ["p1=random", "p2=random", "p3=baseline", "p4=random", "p5=baseline(hold=1)"], 30, 200),
    # two random players: about a fifth of their hands end by a second empty stock (the baseline
    # goes out first: 0 in 2,000 hands against random, seed 1)
    ("two-reshuffle", {"stock_end": "reshuffle"}, ["p1=random", "p2=random"], 25, 80),
    ("three-no-final-discard", {"players": 3, "final_discard": False},
     ["p1=baseline", "p2=random", "p3=baseline(hold=1,keep=0)"], 45, 200),
    ("four-every-option", {"players": 4, "pile_take": "layoff", "min_natural": 0,
                           "stock_end": "reshuffle", "final_discard": False},
     ["p1=random", "p2=baseline", "p3=random", "p4=baseline(pile_gain=20)"], 50, 420),
]


def _rules(**kw):
    return SPEC.rules.build(kw)


def _check(case_id, opts, strats, n):
    rules = _rules(**opts)
    rows, log = play.play_logged(SPEC, rules, strats, n=n, seed=zlib.crc32(case_id.encode()))
    res = ref.check_rows(rows, log, rules)
    assert res["hands"] == n
    assert (res["illegal"], res["mismatch"], res["truncated"]) == (0, 0, 0), res["problems"]
    return res


@pytest.mark.parametrize("case_id,opts,strats,quick,slow", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("tier", ["quick", pytest.param("slow", marks=pytest.mark.slow)])
def test_logged_hands_replay_legally_and_score_by_the_rules(case_id, opts, strats, quick, slow,
                                                              tier):
    n = quick if tier == "quick" else slow
    res = _check(case_id + ("" if tier == "quick" else "-slow"), opts, strats, n)
    seen = res["seen"]
    # the hands did exercise what is checked: melds, layoffs, discards, pile takes, going out
    assert min(seen["meld"], seen["layoff"], seen["discard"], seen["take"], seen["out"]) > 0, seen
    if tier == "slow":
        # and the rarer moves: joker swaps (line 86), hands ended by the stock, reshuffles
        assert seen["swap"] > 0
        if case_id != "two-baseline":
            assert res["stock_out"] > 0
        if opts.get("stock_end") == "reshuffle":
            assert res["reshuffled"] > 0


# --------------------------------------------------------------------------- the reference itself

def _c(s):
    return C.parse_card(s)


def test_meld_definition_lines_85_86():
    e = ref.meld_error
    nat = [(_c(s), _c(s)) for s in ("9c", "9c", "9h")]
    assert e(nat, 1) is None                                      # a set may repeat a card
    assert e(nat + [(_c("9s"), _c("9s")), (_c("9d"), _c("9d"))], 1) == "a meld of 5 cards (3 or 4)"
    run = [(_c("Qh"), _c("Qh")), (_c("Kh"), _c("Kh"))]
    assert e(run + [(_c("Ah"), _c("Ah"))], 1) is None              # ace high
    assert e([(_c("Ah"), _c("Ah")), (_c("2c"), _c("2h")), (_c("3h"), _c("3h"))], 1) is None
    assert e(run + [(_c("Ah"), _c("Ah")), (_c("2c"), _c("2h"))], 1) is not None  # round the corner
    assert e(run + [(64, _c("Js"))], 1) is not None                # a wild naming another suit
    assert e(run + [(_c("Ah"), _c("Kh"))], 1) is not None          # a natural stands for itself
    wild = [(64, _c("7d")), (_c("2c"), _c("7c")), (_c("2s"), _c("7h"))]
    assert e(wild, 1) is not None and e(wild, 0) is None           # min_natural
    assert ref.can_form([_c("Kh"), _c("Ah"), _c("2d")], 1)         # Q-K-A, the deuce a queen
    assert not ref.can_form([_c("Kh"), _c("Ah"), _c("3h")], 1)     # K-A-3: round the corner


def test_values_line_87():
    low = [(_c("Ah"), _c("Ah")), (_c("2c"), _c("2h")), (_c("3h"), _c("3h"))]
    assert ref.meld_value(low) == 20 + 5 + 5                        # a natural ace is always 20
    assert ref.meld_value([(_c("2c"), _c("Ah")), (_c("2h"), _c("2h")), (_c("3h"), _c("3h"))]) \
        == 5 + 5 + 5                                                # a deuce as a low ace 5
    high = [(_c("Qs"), _c("Qs")), (_c("Ks"), _c("Ks")), (_c("2d"), _c("As"))]
    assert ref.meld_value(high) == 50 + 10 + 10
    assert ref.meld_value([(64, _c("7c")), (_c("7d"), _c("7d")), (_c("2s"), _c("7s"))]) \
        == 100 + 5 + 5
    assert [ref.hand_value(_c(s)) for s in ("As", "Qs", "Qh", "8c", "7c", "3d", "2h")] \
        == [20, 100, 10, 10, 5, 5, 20] and ref.hand_value(64) == 200


def _row(dealt, up, events, K=2):
    """A move-log row: seat K-1 deals; ``events`` as (kind, seat, aux, card)."""
    evs = [k << 20 | s << 16 | a << 8 | c for k, s, a, c in events]
    return [K - 1, len(evs)] + list(dealt) + [up] + evs + [-1] * 8


def _deal(p1, p2):
    a, b = C.parse(p1).tolist(), C.parse(p2).tolist()
    return [x for pair in zip(a, b) for x in pair]


P1 = "As Ah Ad Ks Kh Kd 9d 9h 9s 3c 4c 5c 6c"
P2 = "Qs Jo 2c 3d 5d 7d 9c Jc Kc 4h 6h 8h Th"     # 100 + 200 + 20 + 75 in hand


def _meld(seat, k, cards, named=None):
    cs = [_c(x) for x in cards.split()]
    ns = [_c(x) for x in named.split()] if named else cs
    return [(ref.MELD, seat, k, len(cs))] + [(ref.CARD, seat, n, c) for c, n in zip(cs, ns)]


def _going_out_hand():
    ev = [(ref.DRAW, 0, 0, _c("7h"))]
    ev += _meld(0, 0, "As Ah Ad") + _meld(0, 1, "Ks Kh Kd") + _meld(0, 2, "9d 9h 9s")
    ev += _meld(0, 3, "3c 4c 5c 6c") + [(ref.DISCARD, 0, 0, _c("7h")), (ref.OUT, 0, 0, 0)]
    return _row(_deal(P1, P2), _c("8s"), ev)


def test_a_worked_hand_scores_line_87_and_88():
    rules = _rules()
    H = ref.replay(_going_out_hand(), rules)
    m = H.metrics()
    assert (m["p1_points"], m["p1_out"], m["p2_points"], m["p2_qs_stuck"], m["turns"]) \
        == (60 + 30 + 30 + 20 + 100, 1, -395, 1, 1)


def test_the_reference_refuses_bad_moves_of_a_worked_hand():
    rules = _rules()
    good = _going_out_hand()
    bad = list(good)
    bad[ref.NHEAD + 26 + 1] = ref.DRAW << 20 | 1 << 16 | _c("7h")          # the wrong seat moves
    with pytest.raises(ref.Illegal, match="seat 1"):
        ref.replay(bad, rules)
    # p1 discards the 7h and then lays off: a move after the turn's discard
    ev = [(ref.DRAW, 0, 0, _c("7h"))] + _meld(0, 0, "3c 4c 5c") + [
        (ref.DISCARD, 0, 0, _c("7h")), (ref.LAYOFF, 0, 0, 4), (ref.CARD, 0, _c("6c"), _c("6c"))]
    with pytest.raises(ref.Illegal, match="layoff outside"):
        ref.replay(_row(_deal(P1, P2), _c("8s"), ev), rules)
    # p2 may not discard the Q♠ while holding other cards (line 87)
    ev = [(ref.DRAW, 0, 0, _c("7h")), (ref.DISCARD, 0, 0, _c("7h")), (ref.DRAW, 1, 0, _c("8c")),
          (ref.DISCARD, 1, 0, _c("Qs"))]
    with pytest.raises(ref.Illegal, match="Q♠"):
        ref.replay(_row(_deal(P1, P2), _c("8s"), ev), rules)
    # p1 melds all and lays the drawn 7c off on his full 3c-6c (line 85: never beyond four)
    ev = [(ref.DRAW, 0, 0, _c("7c"))] + _meld(0, 0, "As Ah Ad") + _meld(0, 1, "Ks Kh Kd") \
        + _meld(0, 2, "9d 9h 9s") + _meld(0, 3, "3c 4c 5c 6c") \
        + [(ref.LAYOFF, 0, 3, 5), (ref.CARD, 0, _c("7c"), _c("7c")), (ref.OUT, 0, 0, 0)]
    with pytest.raises(ref.Illegal, match="beyond four"):
        ref.replay(_row(_deal(P1, P2), _c("8s"), ev), rules)
    # the pile taken to meld its 8s with a 2c that p1 does not hold
    ev = [(ref.TAKE, 0, 1, _c("8s"))] + _meld(0, 0, "8s 9s 2c", "8s 9s Ts")
    with pytest.raises(ref.Illegal, match="2c"):
        ref.replay(_row(_deal(P1, P2), _c("8s"), ev), rules)


P1_JOKER = "Jo 5h 6h As Ah Ad Ks Kh Kd 9d 9h 9s 3c"
P2_PLAIN = "Qs 2c 3d 5d 7d 9c Jc Kc 4h 6h 8h Th Tc"


def test_joker_swaps_line_86():
    rules = _rules()
    deal = _deal(P1_JOKER, P2_PLAIN)
    lay = [(ref.DRAW, 0, 0, _c("7h"))] + _meld(0, 0, "5h 6h Jo", "5h 6h 7h")
    H = ref.replay(_row(deal, _c("8s"), lay + [(ref.SWAP, 0, 0, _c("7h"))]), rules, stop=6)
    assert H.melds[0][0][2] == (_c("7h"), _c("7h")) and H.hands[0][64] == 1
    with pytest.raises(ref.Illegal, match="no joker standing for 8h"):     # not the named card
        ref.replay(_row(deal, _c("8s"), lay + [(ref.SWAP, 0, 0, _c("8h"))]), rules, stop=6)
    # a melded deuce is never taken back
    deuce = _deal(P1_JOKER.replace("Jo", "2d"), P2_PLAIN)
    lay = [(ref.DRAW, 0, 0, _c("7h"))] + _meld(0, 0, "5h 6h 2d", "5h 6h 7h")
    with pytest.raises(ref.Illegal, match="no joker"):
        ref.replay(_row(deuce, _c("8s"), lay + [(ref.SWAP, 0, 0, _c("7h"))]), rules, stop=6)


def test_pile_takes_line_85():
    deal = _deal(P1, P2_PLAIN)
    # p1 takes the 9c with 9d 9h from hand: legal; the 9c missing from the meld: refused
    take = [(ref.TAKE, 0, 1, _c("9c"))]
    H = ref.replay(_row(deal, _c("9c"), take + _meld(0, 0, "9c 9d 9h")), _rules(), stop=5)
    assert H.takes[0] == 1 and not H.pile and len(H.melds[0]) == 1
    with pytest.raises(ref.Illegal, match="lacks its top card"):
        ref.replay(_row(deal, _c("9c"), take + _meld(0, 0, "9s 9d 9h")), _rules(), stop=5)
    # p2 throws the 2c; p1 lays it off on his 3c 4c 5c as the 6c: a take only with pile_take=layoff
    ev = [(ref.DRAW, 0, 0, _c("7h"))] + _meld(0, 0, "3c 4c 5c") + [
        (ref.DISCARD, 0, 0, _c("7h")), (ref.DRAW, 1, 0, _c("8c")), (ref.DISCARD, 1, 0, _c("2c")),
        (ref.TAKE, 0, 3, _c("2c")), (ref.LAYOFF, 0, 0, 4), (ref.CARD, 0, _c("6c"), _c("2c"))]
    row = _row(deal, _c("8s"), ev)
    H = ref.replay(row, _rules(pile_take="layoff"), stop=len(ev))
    assert H.takes[0] == 1 and sorted(H.hands[0].elements()) == sorted(
        C.parse("As Ah Ad Ks Kh Kd 9d 9h 9s 6c 8s 7h").tolist())
    with pytest.raises(ref.Illegal, match="not melded at once"):
        ref.replay(row, _rules(), stop=len(ev))


def test_who_may_take_the_pile_when_the_stock_is_empty():
    def can(hand, top, melds=(), **kw):
        H = ref.Hand(rules=_rules(**kw), K=2, hands=[ref.Counter(C.parse(hand).tolist()),
                                                     ref.Counter()],
                     melds=[[[(c, c) for c in C.parse(m).tolist()] for m in melds], []],
                     pile=[_c("3d"), _c(top)])
        return ref.can_take(H, 0)
    assert can("9d 2c Kh", "9c") and not can("9d Kh 5s", "9c")
    assert can("5h 6h", "Jo") and not can("Kh Ah", "3h") and can("Kh Ah", "Qh")
    assert not can("Kh", "6c", ["3c 4c 5c"]) and can("Kh", "6c", ["3c 4c 5c"], pile_take="layoff")
    assert not can("Kh", "7c", ["3c 4c 5c"], pile_take="layoff")
    assert not can("Jo", "9c", min_natural=2) and can("Jo 9d", "9c", min_natural=2)


def test_the_last_card_under_final_discard_false():
    rules = _rules(final_discard=False)
    deal = _deal(P1, P2_PLAIN)
    melds = _meld(0, 0, "As Ah Ad") + _meld(0, 1, "Ks Kh Kd") + _meld(0, 2, "9d 9h 9s")
    ev = [(ref.DRAW, 0, 0, _c("7h"))] + melds + _meld(0, 3, "3c 4c 5c 6c")
    with pytest.raises(ref.Illegal, match="last card discarded"):
        ref.replay(_row(deal, _c("8s"), ev + [(ref.DISCARD, 0, 0, _c("7h"))]), rules)
    with pytest.raises(ref.Illegal, match="without a discard"):     # keeping it and passing
        ref.replay(_row(deal, _c("8s"), ev + [(ref.DRAW, 1, 0, _c("8c"))]), rules)


# --------------------------------------------------------------------------- corrupted engine logs

def _engine_hands(n=40):
    """Logged hands of three players, those the reference replays without a fault."""
    rules = _rules(players=3)
    rows, log = play.play_logged(SPEC, rules, ["p1=random", "p2=baseline", "p3=random"], n=n,
                                 seed=99)
    keep = []
    for i, row in enumerate(log):
        try:
            ref.replay(row, rules)
            keep.append(i)
        except ref.Illegal:
            pass
    assert len(keep) >= n // 2
    return rules, rows.iloc[keep].reset_index(drop=True), log[keep]


def _each_event(rules, log):
    """``(row, events, j, kind, seat, aux, card)`` for every event of every logged hand."""
    start = ref.NHEAD + ref.N_HAND * rules.players + 1
    for row in log:
        evs = [int(e) for e in row[start:start + int(row[1])]]
        for j, e in enumerate(evs):
            yield (row, evs, j) + ref.decode(e)


def _rebuild(row, K, events):
    start = ref.NHEAD + ref.N_HAND * K + 1
    out = [int(x) for x in row[:start]] + events
    out[1] = len(events)
    return np.array(out + [-1] * (len(row) - len(out)), np.int64)


def test_a_discard_of_a_card_not_held_is_caught():
    rules, rows, log = _engine_hands()
    for row, evs, j, kind, seat, _, _ in _each_event(rules, log):
        if kind != ref.DISCARD:
            continue
        H = ref.replay(row, rules, stop=j)
        x = next(x for x in ref.NATURALS if H.hands[seat][x] == 0 and x != ref.QS)
        bad = _rebuild(row, rules.players, evs[:j] + [evs[j] & ~255 | x] + evs[j + 1:])
        with pytest.raises(ref.Illegal, match="does not hold") as err:
            ref.replay(bad, rules)
        assert err.value.event == j
        return
    pytest.fail("no discard in the logged hands")


def _a_meld_with_spare_cards(rules, log, need):
    """``(row, events, j, seat, n, spare)``: a meld of ``n`` cards from hand at event ``j`` whose
    player still holds the ``spare`` cards (at least ``need``) after it."""
    for row, evs, j, kind, seat, _, n in _each_event(rules, log):
        if kind != ref.MELD or ref.decode(evs[j - 1])[0] == ref.TAKE:
            continue
        H = ref.replay(row, rules, stop=j + 1 + n)
        spare = [c for c, k in H.hands[seat].items() for _ in range(k)]
        if len(spare) >= need:
            return row, evs, j, seat, n, spare
    pytest.fail("no meld in the logged hands")


def test_a_meld_of_five_cards_is_caught():
    rules, rows, log = _engine_hands()
    row, evs, j, seat, n, spare = _a_meld_with_spare_cards(rules, log, 2)
    extra = [ref.CARD << 20 | seat << 16 | c << 8 | c if not ref.is_wild(c)
             else ref.CARD << 20 | seat << 16 | _c("9h") << 8 | c for c in spare[:5 - n]]
    head = evs[j] & ~255 | 5
    bad = _rebuild(row, rules.players, evs[:j] + [head] + evs[j + 1:j + 1 + n] + extra
                   + evs[j + 1 + n:])
    with pytest.raises(ref.Illegal, match="a meld of 5 cards"):
        ref.replay(bad, rules)


def test_a_layoff_to_a_fifth_card_is_caught():
    rules, rows, log = _engine_hands()
    for row, evs, j, kind, seat, k, n in _each_event(rules, log):
        if kind not in (ref.MELD, ref.LAYOFF) or n != 4:
            continue
        end = j + (2 if kind == ref.LAYOFF else 1 + n)    # after the move's last event
        H = ref.replay(row, rules, stop=end)
        spare = [c for c, m in H.hands[seat].items() if m > 0]
        if not spare:
            continue
        named = [s for _, s in H.melds[seat][k]]
        extra = [ref.LAYOFF << 20 | seat << 16 | k << 8 | 5,
                 ref.CARD << 20 | seat << 16 | named[0] << 8 | spare[0]]
        bad = _rebuild(row, rules.players, evs[:end] + extra + evs[end:])
        with pytest.raises(ref.Illegal, match="beyond four cards"):
            ref.replay(bad, rules)
        return
    pytest.fail("no meld of four cards in the logged hands")


def test_a_wrong_score_is_a_mismatch():
    rules, rows, log = _engine_hands(10)
    assert ref.check_rows(rows, log, rules)["mismatch"] == 0
    rows = rows.copy()
    rows.loc[3, "p2_points"] += 5
    res = ref.check_rows(rows, log, rules)
    assert res["mismatch"] == 1 and "deal 3" in res["problems"][0]
