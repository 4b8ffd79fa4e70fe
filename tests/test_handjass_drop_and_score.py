"""Issue 30: Handjass play-or-drop that sees how many already dropped (``dropped``) and plays to
the score (``behind``): what they must do at their extremes, on the per-deal rows, and that the
defaults (0) change nothing."""
import numpy as np

import simkit

SEATS = ["p1", "p2", "p3", "p4"]


def rows(strategy, n=3000, game="handjass"):
    st = [f"{s}={strategy}" for s in SEATS]
    return simkit.run(game, n=n, seed=4, strategies=st, rows=True, progress=False).rows


def test_zero_is_the_baseline():
    a, b = rows("baseline"), rows("baseline(dropped=0,behind=0)")
    assert a.equals(b)


def test_dropped_at_its_extremes():
    base = rows("baseline")
    assert (base["active"] <= 2).any()          # the baseline alone often leaves two or fewer
    eager = rows("baseline(dropped=-1000)")     # once one has dropped, everyone after plays
    assert (eager["active"] >= 3).all()
    shy = rows("baseline(dropped=1000)")        # once one has dropped, everyone after drops:
    played = shy[[f"{s}_play" for s in SEATS]].to_numpy()   # the Forehand (p1) decides first,
    two = shy["unplayed"] == 0                             # so who played is a prefix p1, p2...
    ok = [(np.diff(r) <= 0).all() for r in played[two.to_numpy()]]
    assert all(ok) and (shy["active"] < base["active"]).sum() > 0


def test_behind_plays_more_when_behind():
    game = "handjass(unit=game)"
    n = 1500
    runs = {}
    for b in (0, -1000):
        st = [f"p1=baseline(behind={b})"]
        e = simkit.run(game, n=n, seed=2, strategies=st, progress=False).estimates()
        runs[b] = e["p1_plays"]
    diff = runs[-1000]["mean"] - runs[0]["mean"]
    assert diff > 4 * np.hypot(runs[0]["se"], runs[-1000]["se"]), runs
