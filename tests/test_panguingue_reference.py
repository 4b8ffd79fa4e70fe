"""Panguingue's logged deals replayed by a plain-Python statement of the rules
(tests/panguingue_reference.py, written from 003:89-104 and READINGS-rummy.md section 5, not
from the engine): every move legal, and each seat's chips, win, going on top, conditions and cards
melded, and the number of turns equal to the engine's metrics of the same deal.

Quick tier: 330 deals over 2-10 players and every rule option, both strategies mixed; ``slow``:
2,000 more.  Seeds fixed.  Corrupted engine logs show that the replay can fail.
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
