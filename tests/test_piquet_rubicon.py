"""Piquet's score-aware play (issue 30: strategies that play to the score, Rubicon piquet, text
002 lines 177-185): the ``rubicon`` strategy's parameters at 0 play the baseline exactly; the
partie state reaches the decisions, only in the last ``rubicon_push`` deals of a partie and never
in ``unit=deal`` or ``unit=game``; and the measured cost of chasing combinations late."""
from __future__ import annotations

import numpy as np

import simkit
from simkit.core.records import record
from simkit.games import piquet as P
from simkit.games.piquet import engine as E
from simkit.games.piquet.strategies import SCORE_PARAMS
from tests import piquet_reference as ref

SPEC = P.SPEC
ON = "rubicon(rubicon_push=2,push_need=20,push_w=3,safe_lead=30)"


def rules(**kw):
    return SPEC.rules.build(kw)


def rows(strats, n=300, seed=5, **kw):
    res = simkit.run("piquet", rules=kw, strategies=strats, n=n, seed=seed, rows=True,
                     progress=False)
    return res.rows.drop(columns=["config"])


def seat(**kw):
    base = dict(kind=E.K_BASELINE, take=5, ytake=8, ylow=1000, w_high=1, w_point=6, w_seq=2,
                w_set=2, sink=1, run_long=False, keep_guards=False, exact=0, rubicon_push=0,
                push_need=0, push_w=0, safe_lead=0)
    base.update(kw)
    return record(E.Seat, **base)


def test_params_at_zero_play_the_baseline():
    """``rubicon``'s defaults (all off) and ``rubicon_push=0`` with the other levers set play
    the very rows of the baseline in a partie, in both seats."""
    assert [p.default for p in SCORE_PARAMS] == [0, 0, 0, 0]
    base = rows([], unit="partie")
    for strats in (["p1=rubicon"], ["p2=rubicon"],
                   ["p1=rubicon(rubicon_push=0,push_need=20,push_w=3,safe_lead=30)",
                    "p2=rubicon(rubicon_push=0,push_w=9)"]):
        assert rows(strats, unit="partie").equals(base), strats


def test_posture_reads_the_partie_state():
    """The posture of a seat (its total, the opponent's, deals left, Elder) picks its levers."""
    st = seat(rubicon_push=2, push_need=20, push_w=3, safe_lead=30)
    same = E.posture(st, 50, 60, 3, True, 100)               # three deals left: not yet
    assert same == st
    chase = E.posture(st, 40, 120, 2, True, 100)             # needs 60 to the Rubicon, 30 a deal
    assert (chase.w_seq, chase.w_set, chase.w_point, chase.keep_guards) == (5, 5, 6, False)
    assert E.posture(st, 70, 120, 2, False, 100) == st        # needs 30, 15 a deal: no chase
    assert E.posture(st, 150, 200, 1, False, 100).w_seq == 5  # over it: 51 to overtake
    assert E.posture(st, 95, 200, 1, False, 100) == st        # 5 to the Rubicon is nearer
    safe = E.posture(st, 130, 100, 1, True, 100)              # leads by 30
    assert safe.keep_guards and safe.w_seq == 2
    assert E.posture(st, 129, 100, 1, True, 100) == st
    assert E.posture(seat(), 0, 300, 1, True, 100) == seat()  # rubicon_push=0: off


def deal_starts(entries):
    """Positions of the DEAL entries in a logged unit."""
    return [j for j, e in enumerate(entries) if e >= 0 and P.decode(int(e))[0] == "DEAL"]


def test_the_score_changes_only_the_last_deals_of_a_partie():
    """With ``rubicon_push=2`` the first four deals of every partie are logged exactly as the
    baseline plays them, and some of the last two differ (the state reached the exchange or
    the play); the logs still replay under the reference referee."""
    r = rules(unit="partie")
    _, base = P.play_logged(r, None, n=300, seed=5)
    got_rows, got = P.play_logged(r, [f"p1={ON}", f"p2={ON}"], n=300, seed=5)
    changed = 0
    for j in range(300):
        cut = deal_starts(base[j])[4]
        assert deal_starts(got[j])[4] == cut
        assert np.array_equal(got[j][:cut], base[j][:cut]), j
        changed += not np.array_equal(got[j], base[j])
        res = ref.replay(r, got[j])
        assert res["p1_net"] == got_rows["p1_net"][j]
    assert changed >= 10, changed


def test_no_change_outside_a_partie():
    """``unit=deal`` and ``unit=game`` give no partie state: the settings change nothing."""
    for kw in ({"unit": "deal"}, {"unit": "game"}):
        base = rows([], **kw)
        assert rows([f"p1={ON}", f"p2={ON}"], **kw).equals(base), kw


def test_late_chasing_of_combinations_loses():
    """Measured: chasing quints and quatorzes in the last deal whenever behind
    (``rubicon_push=1,push_w=6``) loses the partie net: A's edge -2.04 points a partie, SE 0.10
    (``simkit compare piquet -r unit=partie``, n = 100,000, seed 1).  Here n = 20,000 parties
    per seating, seed 2, paired on common deals: the edge is negative by more than 4 SEs and
    within 4 SEs of -2.04."""
    n = 20_000
    chase = "rubicon(rubicon_push=1,push_w=6)"
    base = rows([], n=n, seed=2, unit="partie")["p1_net"].to_numpy()
    a = rows([f"p1={chase}"], n=n, seed=2, unit="partie")["p1_net"].to_numpy()
    b = rows([f"p2={chase}"], n=n, seed=2, unit="partie")["p1_net"].to_numpy()
    edge = ((a - base) - (b - base)) / 2
    mean, se = edge.mean(), edge.std(ddof=1) / np.sqrt(n)
    assert mean < -4 * se, (mean, se)
    assert abs(mean + 2.04) < 4 * np.hypot(se, 0.10), (mean, se)
