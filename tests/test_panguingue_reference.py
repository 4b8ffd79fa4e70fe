"""Panguingue's logged deals replayed by a plain-Python statement of the rules
(tests/panguingue_reference.py, written from 003:89-104 and READINGS-rummy.md section 5, not
from the engine): every move legal, and each seat's chips, win, going on top, conditions and cards
melded, and the number of turns equal to the engine's metrics of the same deal.

Quick tier: 560 deals over 2-10 players and every rule option, both strategies mixed, the
baseline with and without split and borrow (line 99); ``slow``: 3,300 more.  Seeds fixed.
Corrupted engine logs show that the replay can fail.
"""
from __future__ import annotations

import pytest

import simkit
from simkit.core import play
from tests import panguingue_reference as ref

SPEC = simkit.get_game("panguingue")

# (id, rule options, strategies, deals in the quick tier, in the slow tier)
CASES = [
    ("six-baseline", {}, [], 60, 400),
    ("two-mixed", {"players": 2}, ["p1=random"], 60, 400),
    ("four-random", {"players": 4}, [f"p{k}=random" for k in (1, 2, 3, 4)], 40, 300),
    ("ten-small-pack", {"players": 10, "packs": 5, "spades_removed": True, "stock_end": "void"},
     ["p2=random", "p9=random", "p5=baseline(top=16,demand=3)"], 30, 200),
    ("options", {"players": 5, "conditions": "published", "again": "base",
                 "winner_per_player": 2, "discard_take": "layoff_only", "mixed_add": "new_suit",
                 "rope_extended_pays": True, "forfeit": 1},
     ["p1=random", "p3=baseline(feed=0,valle=0)", "p4=random"], 60, 300),
    ("three-random", {"players": 3, "packs": 5},
     ["p1=random", "p2=random", "p3=random"], 40, 200),
    ("safety-stop", {"players": 3, "max_turns": 20}, ["p2=random"], 40, 200),
    # split and borrow (line 99), both settings of the baseline's lever
    ("six-borrow", {}, [f"p{k}=baseline(borrow=1)" for k in range(1, 7)], 80, 500),
    ("six-no-borrow", {}, [f"p{k}=baseline(borrow=0)" for k in range(1, 7)], 30, 200),
    ("options-borrow", {"players": 4, "conditions": "published", "mixed_add": "new_suit",
                        "rope_extended_pays": True, "again": "base", "discard_take": "layoff_only"},
     ["p1=baseline(borrow=1,top=0)", "p2=baseline(borrow=1,top=0)", "p3=random",
      "p4=baseline(borrow=1,top=0)"], 60, 300),
    ("three-borrow", {"players": 3}, [f"p{k}=baseline(borrow=1,top=0)" for k in (1, 2, 3)],
     60, 300),
]


def _logged(opts, strats, n, seed):
    rules = SPEC.rules.build(opts)
    res, log = play.play_logged(SPEC, rules, strats or None, n=n, seed=seed)
    return rules, res, log


def _check(opts, strats, n, seed):
    rules, rows, log = _logged(opts, strats, n, seed)
    for j in range(n):
        got = ref.replay(rules, [int(x) for x in log[j]])
        want = rows.iloc[j].to_dict()
        for k, v in got.items():
            assert v == want[k], (j, k, v, want[k])


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_reference_replays_logged_deals(case):
    _, opts, strats, n, _ = case
    _check(opts, strats, n, seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_reference_replays_more_deals(case):
    _, opts, strats, _, n = case
    _check(opts, strats, n, seed=2)


# sessions: (id, rule options, strategies, sessions in the quick tier, in the slow tier)
SESSIONS = [
    ("six-winner", {"deals": 10}, [], 20, 150),
    ("four-rotate-mixed", {"players": 4, "deals": 12, "next_eldest": "rotate"},
     ["p2=random", "p3=random"], 20, 150),
    ("two-random", {"players": 2, "deals": 8, "stock_end": "void"}, ["p1=random", "p2=random"],
     30, 200),
    ("ten-options", {"players": 10, "deals": 6, "conditions": "published", "again": "base",
                     "packs": 11, "forfeit": 1}, ["p4=random", "p10=baseline(top=16)"], 10, 80),
]


def _check_sessions(opts, strats, n, seed, full):
    rules, rows, log = _logged(dict(opts, unit="session"), strats, n, seed)
    whole = 0
    for j in range(n):
        tot, played, logged = ref.replay_session(rules, [int(x) for x in log[j]])
        if logged < played:
            continue
        whole += 1
        want = rows.iloc[j].to_dict()
        assert tot == want, (j, {k: (v, want[k]) for k, v in tot.items() if v != want[k]})
    assert whole >= full * n, (whole, n)


@pytest.mark.parametrize("case", SESSIONS, ids=[c[0] for c in SESSIONS])
def test_reference_replays_every_deal_of_logged_sessions(case):
    """Every deal of a session's row replayed legally with any eldest, and the chips, wins,
    tops, conditions, turns and stock-outs summed over the deals equal to the session's
    metrics (every session here fits in its row)."""
    _, opts, strats, n, _ = case
    _check_sessions(opts, strats, n, seed=5, full=1.0)


@pytest.mark.slow
@pytest.mark.parametrize("case", SESSIONS, ids=[c[0] for c in SESSIONS])
def test_reference_replays_more_sessions(case):
    _, opts, strats, _, n = case
    _check_sessions(opts, strats, n, seed=6, full=1.0)


def test_a_long_session_logs_the_deals_that_fit():
    """100 ten-player deals do not fit in a session's row: the row holds the first ones (each
    replayed legally, the eldest chain kept), and the replay says where the log ends."""
    rules, rows, log = _logged({"unit": "session", "players": 10, "deals": 100}, [], 5, 7)
    for j in range(5):
        _, played, logged = ref.replay_session(rules, [int(x) for x in log[j]])
        assert played == 100 and 10 <= logged < 100, logged
    from simkit.core.replay import check_records
    recs = SPEC.replay(rules, [int(x) for x in log[0]], rows.iloc[0].to_dict())
    check_records(recs, SPEC.pack(rules), 10)
    assert any(r["action"] == "the log ends" for r in recs)
    assert {r["deal"] for r in recs} == set(range(1, 1 + int(log[0, 1])))


def test_the_reference_refuses_corrupted_logs():
    rules, _, log = _logged({"players": 3}, ["p1=random"], 20, 3)
    row = [int(x) for x in log[0]]
    ref.replay(rules, row)
    start = 3 + 30
    events = row[start:start + row[1]]
    disc = next(j for j, e in enumerate(events) if e >> 20 == 9)
    bad = list(row)
    bad[start + disc] = (9 << 20) | (events[disc] & (15 << 16)) | 0x3F   # a card no one holds
    with pytest.raises(AssertionError):
        ref.replay(rules, bad)
    meld = next((j for j, e in enumerate(events) if e >> 20 == 5), None)
    if meld is not None:
        bad = list(row)
        bad[start + meld + 1] = (6 << 20) | 0x22                        # 2♦: breaks the meld
        with pytest.raises(AssertionError):
            ref.replay(rules, bad)


def _with_event(kind, opts, strats, n=60, seed=5):
    """A logged deal holding an event of ``kind``: its rules, row, events' start and index."""
    rules, _, log = _logged(opts, strats, n, seed)
    start = 3 + 10 * rules.players
    for x in log:
        row = [int(v) for v in x]
        js = [j for j, e in enumerate(row[start:start + row[1]]) if e >> 20 == kind]
        if js:
            return rules, row, start, js[0]
    raise AssertionError(f"no event {kind} in {n} deals")


def test_the_reference_refuses_illegal_splits_and_borrows():
    """A split moving a card the meld does not hold, a borrow from another meld than the one
    holding the card, and a split or borrow whose condition is not paid are refused."""
    strats = [f"p{k}=baseline(borrow=1,top=0)" for k in (1, 2, 3)]
    rules, row, start, j = _with_event(13, {"players": 3}, strats)
    ref.replay(rules, row)
    bad = list(row)
    bad[start + j + 1] = (6 << 20) | 0x3F                  # a moved card not in the meld
    with pytest.raises(AssertionError):
        ref.replay(rules, bad)
    pays = [k for k in range(j, j + 8) if row[start + k] >> 20 == 8]
    assert pays, "this split makes a condition"            # ... and unpaid, it is refused
    bad = list(row)
    del bad[start + pays[0]]
    bad[1] -= 1
    with pytest.raises(AssertionError):
        ref.replay(rules, bad)
    rules, row, start, j = _with_event(12, {"players": 3}, strats)
    ref.replay(rules, row)
    e = row[start + j]
    bad = list(row)
    bad[start + j] = (e & ~0xFF) | 0x3F                    # borrows a card of no meld
    with pytest.raises(AssertionError):
        ref.replay(rules, bad)


def test_the_random_player_borrows_and_splits_and_the_reference_accepts_them():
    """The random player's moves include borrows and splits (line 99; any legal one, condition
    kept or not): in 300 four-player all-random deals (seed 5) both occur and every deal
    replays in the reference."""
    opts, strats = {"players": 4}, [f"p{k}=random" for k in (1, 2, 3, 4)]
    rules, rows, log = _logged(opts, strats, 300, 5)
    start = 3 + 10 * rules.players
    kinds = [int(e) >> 20 for x in log for e in list(x)[start:start + int(x[1])]]
    assert kinds.count(12) > 0 and kinds.count(13) > 0, (kinds.count(12), kinds.count(13))
    for j in range(len(rows)):
        got = ref.replay(rules, [int(x) for x in log[j]])
        assert all(v == rows.iloc[j][k] for k, v in got.items()), j
