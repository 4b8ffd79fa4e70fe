"""Fan-Tan (003:121-134): a plain-Python replay of logged games, the exact chance that a seat is
dealt a seven or the 7♦, and the text's hints against random, paired.

Tolerances: within 4 standard errors (seeds fixed).
"""
from math import comb

import numpy as np
import pytest

import simkit
from simkit.core import play
from simkit.core.registry import resolve_strategies
from simkit.core.rng import stream_state
from tests.shedding_reference import replay_fan_tan

Z = 4.0


def _logged(opts, strategies, n, seed=9):
    spec = simkit.get_game("fan_tan")
    rules = spec.rules.build(opts)
    strats = resolve_strategies(spec, rules, strategies)
    log = np.zeros((n, len(spec.log_columns(rules))), np.int64)
    _, rows, _ = play.run_chunk(spec, rules, strats, stream_state(seed, 0), n, rows=True, log=log)
    return rules, log, rows, [m.name for m in spec.metrics(rules)]


@pytest.mark.parametrize("opts,strategies", [
    ({}, None), ({"players": 3}, ["p1=random", "p2=extend", "p3=ends"]),
    ({"players": 5, "deal_from": "right"}, ["p1=block", "p2=random"]),
    ({"players": 8, "must_play": False}, ["p1=random", "p2=block", "p3=block"]),
    ({"players": 6, "ante_even": 2}, ["p4=random"]),
    ({"must_play": False, "pass_penalty": True}, ["p1=random", "p2=block", "p3=block"]),
    ({"players": 7, "must_play": False, "pass_penalty": True}, ["p1=random", "p2=random"])])
def test_reference_replays_logged_games(opts, strategies):
    rules, log, rows, names = _logged(opts, strategies, 200)
    checked = 0
    for i in range(len(log)):
        ref = replay_fan_tan(rules, log[i].tolist())
        if ref is not None:
            assert ref == dict(zip(names, rows[i].tolist())), i
            checked += 1
    assert checked >= 150


def seven_odds(cards):
    """P(a hand of ``cards`` of the 52 holds at least one seven), P(it holds the 7♦)."""
    return 1 - comb(48, cards) / comb(52, cards), cards / 52


@pytest.mark.parametrize("players,deal_from", [(4, "left"), (5, "left"), (5, "right"),
                                               (7, "right")])
def test_seven_holdings_match_the_exact_odds(players, deal_from):
    n = 6000
    rules, log, _, _ = _logged({"players": players, "deal_from": deal_from}, None, n, seed=4)
    first, step = int(log[0, 0]), int(log[0, 1])
    dealt = log[:, 2:54]
    seat = (first + step * np.arange(52)) % players
    d7 = 1 * 16 + 7
    for k in range(players):
        mine = dealt[:, seat == k]
        has7 = ((mine & 15) == 7).any(axis=1).mean()
        has7d = (mine == d7).any(axis=1).mean()
        p7, pd = seven_odds(int((seat == k).sum()))
        for got, p in ((has7, p7), (has7d, pd)):
            assert abs(got - p) < Z * np.sqrt(p * (1 - p) / n), (k, got, p)


def test_chips_sum_to_zero_and_extra_cards_pay_less():
    res = simkit.run("fan_tan(players=5)", n=4000, seed=2, rows=True, progress=False)
    r = res.rows
    assert np.allclose(r[[f"p{k}_chips" for k in range(1, 6)]].sum(axis=1), 0)
    assert (r[[f"p{k}_win" for k in range(1, 6)]].sum(axis=1) == 1).all()


@pytest.mark.parametrize("n", [8192, pytest.param(200_000, marks=pytest.mark.slow)])
@pytest.mark.parametrize("hint", ["sequence", "extend", "ends", "block"])
def test_hints_against_random(hint, n):
    """Each hint, paired against random on the same deals over every seat (simkit compare);
    the quick tier checks that the comparison runs and the estimate is finite, the slow tier
    that ``sequence`` and ``extend`` win chips from random."""
    from simkit.analysis.headtohead import compare
    t = compare("fan_tan", hint, "random", n=n, seed=3, progress=False).table()
    row = t[(t.kind == "seat") & (t.metric == "chips")].iloc[0]
    assert np.isfinite(row["mean"]) and row["se"] > 0
    if n > 10_000 and hint in ("sequence", "extend"):
        assert row["mean"] > Z * row["se"], row.to_dict()


# --------------------------------------------------------------------------- line 129

def _hands(hands):
    """The 52-card pack dealing ``hands`` (card strings, seat ``k``'s list) with deal_from=left:
    card ``j`` to seat ``j % players``."""
    from simkit.core.cards import parse_card
    K = len(hands)
    left = [list(h.split()) for h in hands]
    order = []
    for j in range(52):
        order.append(left[j % K].pop(0))
    assert not any(left) and len(set(order)) == 52
    return " ".join(order), [[parse_card(c) for c in h.split()] for h in hands]


def _rest(used):
    """The cards not in ``used`` (card strings), in pack order."""
    return [f"{r}{s}" for s in "cdhs" for r in "A23456789TJQK"
            if f"{r}{s}" not in used.split()]


def test_pass_penalty_by_hand():
    """Line 129 on a dealt position (three players, no row open): p1 holds the 7♣ and 7♦ and
    the 5♥; p2 the 6♣ and 8♣, p3 the 8♦, p1 himself the 6♦.  A pass by p1 costs 3 into the pool,
    5 to p2 (one holder of both the 6♣ and 8♣: five, not ten) and 5 to p3 for the 8♦ (the 6♦
    is p1's own: nothing).  With the clubs row open, only the 7♦ is held back: 3 and 5 to p3.
    A pass by p3 holding no seven (his 8♦ not playable): 3 only."""
    from simkit.core.cards import parse_card
    from simkit.games.fan_tan.engine import pass_penalty
    hand = np.array([sum(1 << parse_card(c) for c in h.split()) for h in
                     ["7c 7d 6d 5h", "6c 8c 2s", "8d 3s"]], np.uint64)
    lo = np.zeros(4, np.int64)
    chips = np.zeros(3, np.int64)
    assert pass_penalty(hand, 0, lo, chips) == 3 and list(chips) == [-3 - 10, 5, 5]
    lo[0] = 7                          # clubs row open (its seven on the table)
    chips[:] = 0
    assert pass_penalty(hand, 0, lo, chips) == 3 and list(chips) == [-3 - 5, 0, 5]
    chips[:] = 0
    assert pass_penalty(hand, 2, lo, chips) == 3 and list(chips) == [0, 0, -3]


def test_pass_penalty_in_a_stacked_game():
    """A whole stacked game, with and without the penalty (the same play: the strategies do not
    see chips).  p1 (block) holds the four sevens and none of the 6s and 8s: every play opens two
    cards to the others, so he passes while he may; p2 holds the four 6s, p3 the four 8s, both
    play ``sequence`` (never a voluntary pass).  Every pass of p1 while he still holds k sevens
    costs him 3 + 10k: 5k to p2, 5k to p3, 3 to the pool the winner takes.  The first is turn
    one (k = 4: 43 chips)."""
    spec = simkit.get_game("fan_tan")
    sevens, sixes, eights = "7c 7d 7h 7s", "6c 6d 6h 6s", "8c 8d 8h 8s"
    rest = _rest(" ".join([sevens, sixes, eights]))
    text = [" ".join([sevens] + rest[:14]), " ".join([sixes] + rest[14:27]),
            " ".join([eights] + rest[27:])]
    pack, hands = _hands(text)
    strats = ["p1=block", "p2=sequence", "p3=sequence"]
    res = {}
    for pen in (False, True):
        rules = spec.rules.build({"players": 3, "must_play": False, "pass_penalty": pen})
        res[pen], log = play.play_stacked(spec, rules, strats, pack, log=True)
        assert replay_fan_tan(rules, log.tolist()) == res[pen]
    turns = [int(x) for x in log[54:] if x != -1]
    assert turns[0] == 2 << 20             # p1 passes at once (kind 2, seat 0)
    held, owed = 4, []
    for x in turns:
        kind, seat, c = x >> 20, (x >> 16) & 15, x & 255
        if seat == 0 and kind == 2 and held:
            owed.append(held)
        elif seat == 0 and (c & 15) == 7:
            held -= 1
    assert owed[0] == 4 and len(owed) > 1
    winner = int(res[True]["winner_seat"]) - 1
    want = [-(3 * len(owed) + 10 * sum(owed)), 5 * sum(owed), 5 * sum(owed)]
    want[winner] += 3 * len(owed)
    got = [res[True][f"p{k}_chips"] - res[False][f"p{k}_chips"] for k in (1, 2, 3)]
    assert got == want
    assert res[True]["pool"] - res[False]["pool"] == 3 * len(owed)
    assert sum(res[True][f"p{k}_chips"] for k in (1, 2, 3)) == 0


def test_pass_penalty_needs_free_passes():
    from simkit.errors import SimkitError
    with pytest.raises(SimkitError, match="pass_penalty"):
        simkit.get_game("fan_tan").rules.build({"pass_penalty": True})


def test_chips_sum_to_zero_with_the_penalty():
    res = simkit.run("fan_tan(players=5,must_play=false,pass_penalty=true)", n=4000, seed=2,
                     rows=True, strategies=["p1=block", "p2=random"], progress=False)
    r = res.rows
    assert np.allclose(r[[f"p{k}_chips" for k in range(1, 6)]].sum(axis=1), 0)
    assert r["passes"].sum() > 0
