"""Issue 30: ``compare --teams`` (A on p1, p3 against B on p2, p4, and swapped) against plain
runs of the same two seatings (other deals: a statistical check, 4 standard errors), and what it
refuses."""
import math

import pytest

import simkit
from simkit.analysis.headtohead import compare
from simkit.errors import SimkitError


def test_teams_compare_against_runs_of_the_two_seatings():
    an = compare("stovkahra", "baseline", "random", teams=True, n=4096, seed=1, progress=False)
    t = an.frames["table"].set_index("metric")
    assert an.info["mode"] == "teams" and t.loc["points", "configs"] == 2
    sides = {"a": [], "b": []}
    ses = []
    for a_seats, seats in (((1, 3), "p1=baseline p2=random p3=baseline p4=random"),
                           ((2, 4), "p1=random p2=baseline p3=random p4=baseline")):
        est = simkit.run("stovkahra", n=16384, seed=9, strategies=seats.split(),
                         progress=False).estimates()
        for k in range(1, 5):
            sides["a" if k in a_seats else "b"].append(est[f"p{k}_points"]["mean"])
            ses.append(est[f"p{k}_points"]["se"] / 4)   # each seat's weight in A - B is 1/4
    diff = sum(sides["a"]) / 4 - sum(sides["b"]) / 4
    tol = 4 * math.hypot(t.loc["points", "se"], sum(ses))   # conservative: se's added
    assert abs(t.loc["points", "mean"] - diff) < tol, (t.loc["points", "mean"], diff, tol)
    assert t.loc["points", "mean"] == pytest.approx(t.loc["points", "a_mean"] -
                                                    t.loc["points", "b_mean"])


@pytest.mark.parametrize("game,kw,msg", [
    ("gin", {}, "even number of seats, four or more"),
    ("handjass(players=3)", {}, "even number of seats, four or more"),
    ("stovkahra", {"field": "random"}, "takes no --field")])
def test_teams_refuses(game, kw, msg):
    with pytest.raises(SimkitError, match=msg):
        compare(game, "baseline" if "gin" not in game else "simple", "random", teams=True,
                n=1024, progress=False, **kw)
