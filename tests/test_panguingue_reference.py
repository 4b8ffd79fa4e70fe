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
