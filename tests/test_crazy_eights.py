"""Crazy Eights (003:105-120): a plain-Python replay of logged deals under every rule switch,
the baseline against random, stacked deals worked by hand, and open-spiel's crazy_eights under
random play.

Tolerances: differences within 4 standard errors (seeds fixed, so reproducible).
"""
import numpy as np
import pytest

import simkit
from simkit.core import play
from simkit.core.registry import resolve_strategies
from simkit.core.rng import stream_state
from tests.shedding_reference import replay_crazy_eights

Z = 4.0


def _logged(opts, strategies, n, seed=9):
    spec = simkit.get_game("crazy_eights")
    rules = spec.rules.build(opts)
    strats = resolve_strategies(spec, rules, strategies)
    log = np.zeros((n, len(spec.log_columns(rules))), np.int64)
    _, rows, _ = play.run_chunk(spec, rules, strats, stream_state(seed, 0), n, rows=True, log=log)
    names = [m.name for m in spec.metrics(rules)]
    return rules, log, rows, names


CASES = [({}, None), ({}, ["p1=random", "p2=random"]),
         ({"players": 5, "max_draws": 5, "max_plays": 100, "may_pass": True, "extra_passes": 1,
           "starter_eight": "shuffle"}, [f"p{k}=random" for k in range(1, 6)]),
         ({"players": 4, "queen_spades": True, "twos": "stack", "jacks": True}, None),
         ({"players": 3, "queen_spades": True, "twos": "stack", "jacks": True,
           "penalty_ends_turn": False}, ["p1=random", "p2=random"]),
         ({"players": 7, "twos": "literal", "draw_one": True}, None),
         ({"players": 6, "starter_eight": "stands", "blocked": "nobody",
           "voluntary_draw": False}, ["p2=random"]),
         ({"players": 2, "draw_one": True, "jacks": True}, ["p1=random"])]


@pytest.mark.parametrize("opts,strategies", CASES)
def test_reference_replays_logged_deals(opts, strategies):
    rules, log, rows, names = _logged(opts, strategies, 150)
    for i in range(len(log)):
        ref = replay_crazy_eights(rules, log[i].tolist())
        got = dict(zip(names, rows[i].tolist()))
        assert ref == got, (i, ref, got)


@pytest.mark.parametrize("opts,strategies", CASES)
def test_unlogged_deals_match_logged(opts, strategies):
    """Without a log, a random deal without optional rules runs play_hand's lean compiled
    version: the same rows as the logged (general) version of the same deals."""
    rules, _, rows, _ = _logged(opts, strategies, 300)
    spec = simkit.get_game("crazy_eights")
    strats = resolve_strategies(spec, rules, strategies)
    _, plain, _ = play.run_chunk(spec, rules, strats, stream_state(9, 0), 300, rows=True)
    assert np.array_equal(rows, plain)


@pytest.mark.parametrize("n", [20_000, pytest.param(400_000, marks=pytest.mark.slow)])
@pytest.mark.parametrize("players", [2, 4])
def test_baseline_beats_random(players, n):
    """Paired on the same deals with seats swapped (simkit compare): the baseline's points per
    deal exceed random's by more than 4 standard errors."""
    from simkit.analysis.headtohead import compare
    t = compare(f"crazy_eights(players={players})", "baseline", "random", n=n, seed=2,
                progress=False).table()
    row = t[(t.kind == "seat") & (t.metric == "points")].iloc[0]
    assert row["mean"] > Z * row["se"], row.to_dict()


def test_stacked_deal_by_hand():
    """Two players, seven each: p1 holds 8s and six hearts, p2 seven clubs; starter 5h."""
    spec = simkit.get_game("crazy_eights")
    rules = spec.rules.build({})
    p1 = "8s 2h 3h 4h 6h 7h 9h".split()
    p2 = "2c 3c 4c 5c 6c 7c 9c".split()
    rest = [c for c in (f"{r}{s}" for s in "cdhs" for r in "23456789TJQKA")
            if c not in p1 + p2 + ["5h"]]
    order = [x for pair in zip(p1, p2) for x in pair] + ["5h"] + rest
    res = play.play_stacked(spec, rules, ["p1=baseline", "p2=baseline"], " ".join(order))
    # p1 plays its six hearts while p2 draws; whoever goes out scores the other's cards
    assert res["p1_win"] + res["p2_win"] == 1.0
    assert res["plays"] >= 6


def test_game_to_100_ends_at_the_target():
    res = simkit.run("crazy_eights(unit=game)", n=2000, seed=1, rows=True, progress=False)
    r = res.rows
    assert (r[["p1_win", "p2_win"]].sum(axis=1) == 1).all()
    top = r[["p1_score", "p2_score"]].max(axis=1)
    assert (top >= 100).all()


@pytest.mark.parametrize("os_games,sk_games", [(300, 20_000),
                                               pytest.param(5000, 400_000, marks=pytest.mark.slow)])
def test_openspiel_random_play_agrees(os_games, sk_games):
    """Cards played, cards drawn, the share of deals someone goes out and who (by seat from the
    first player) agree with open-spiel's crazy_eights under random play."""
    pytest.importorskip("pyspiel")
    from simkit.peers.openspiel_crazy_eights import compare
    rows = compare(os_games=os_games, simkit_games=sk_games, seed=0)
    for r in rows:
        assert abs(r["z"]) < Z, r


def test_starter_eight_put_back():
    """A starter eight (109 is silent): ``bury`` puts it at the bottom of the stock, ``shuffle``
    at a random place of it, the top included (then it is turned again), ``stands`` keeps it as
    the starter.  One stacked pack (the 8s turned as starter) played 200 times with the deal's
    random streams of 200 keys."""
    from simkit.core.cards import parse_card
    spec = simkit.get_game("crazy_eights")
    p1 = "2h 3h 4h 5h 6h 7h 9h".split()
    p2 = "2c 3c 4c 5c 6c 7c 9c".split()
    rest = [c for c in (f"{r}{s}" for s in "cdhs" for r in "23456789TJQKA")
            if c not in p1 + p2 + ["8s"]]
    pack = [x for pair in zip(p1, p2) for x in pair] + ["8s"] + rest
    eight, n = parse_card("8s"), 200
    places = []
    for mode in ("bury", "shuffle", "stands"):
        rules = spec.rules.build({"starter_eight": mode})
        strats = resolve_strategies(spec, rules, ["p1=random", "p2=random"])
        R, S, W = spec.prepare(rules, strats, play.check_stack(spec, rules, " ".join(pack)))
        log = np.zeros((n, len(spec.log_columns(rules))), np.int64)
        M = len(spec.metrics(rules))
        spec.kernel(R, S, W, stream_state(5, 0), n, np.zeros((2, M)), np.zeros((n, M)), log)
        for row in log:
            ev = row[15:15 + row[0]]
            if mode == "stands":
                assert ev[0] >> 20 == 4 and ev[0] & 255 == eight    # the starter
                continue
            assert ev[0] >> 20 == 5 and ev[0] & 255 == eight        # put back
            taken = [e & 255 for e in ev[1:] if e >> 20 in (2, 4, 5)]
            at = taken.index(eight) if eight in taken else None
            if mode == "bury":
                assert at in (None, len(rest))                     # the stock's last card
            else:
                places.append(len(rest) if at is None else at)
    # shuffled in: each of the 38 places (0: turned again) about n / 38 times; far from all last
    assert len(set(places)) > 20 and np.mean(places) < 0.75 * len(rest)


def test_openspiel_starter_eight_agrees():
    """Deals whose first turned starter is an eight (open-spiel puts it back among the undealt
    cards and draws another: ``starter_eight=shuffle`` in the preset): the same quantities and
    ``eight_at`` (stock cards taken before that eight comes out again) agree within 4 SE, over
    300 open-spiel games (all start with an eight) and the ~3,100 of 40,000 simkit deals that do
    (seed 0).  ``bury`` fails it by far: its ``eight_at`` is 25.9 against open-spiel's 12.4
    (z = 29 here).  The deals' outcomes barely tell the two apart (bury: +0.07 cards played,
    +1.1 points of deals someone goes out, z = 1.5 and 2.8 at 20,000 open-spiel games and
    1,000,000 simkit deals: ``scripts/compare_crazy_eights_openspiel.py --starter-eight``)."""
    pytest.importorskip("pyspiel")
    from simkit.peers.openspiel_crazy_eights import compare
    rows = compare(os_games=300, simkit_games=40_000, seed=0, starter_eight=True)
    assert rows[-1]["quantity"] == "eight_at"
    for r in rows:
        assert abs(r["z"]) < Z, r
