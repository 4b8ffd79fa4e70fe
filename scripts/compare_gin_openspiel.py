"""simkit's gin against open-spiel's: the simple player's hand statistics side by side.

    python scripts/compare_gin_openspiel.py [-n 20000] [--os-hands 3000] [--seed 1]

Rules ``gin(preset=gra)`` (open-spiel's gin_rummy: equal deadwood is no undercut, the card just
taken may be thrown back) and ``threshold(knock=10, greedy=0)`` on both seats (open-spiel's
simple bot: take the upcard only if it melds or allows a knock, throw the highest unmatched
card, knock at once).  Open-spiel's C++ ``SimpleGinRummyBot`` on both seats is measured in the
same run.  Compared: cards drawn per hand (``turns``; open-spiel's ``draws``) and the gin, knock
and dead-hand rates, each with its standard error and the z-score of the difference.

Not compared: points.  Open-spiel's simple bot never lays off and, facing gin, never lays down
its melds (see ``scripts/openspiel_gin.py``), so its points differ by design.  Open-spiel also
lets the player at the wall take the last discard to knock, which simkit's ``dead_stock`` rule
(the text, line 17) forbids; it touches about 0.2% of hands.
"""
from __future__ import annotations

import argparse
import math

import pandas as pd

import simkit
from bench_gin import openspiel


def compare(n: int = 20_000, os_hands: int = 3000, seed: int = 1) -> pd.DataFrame:
    theirs = openspiel().simple_bot_stats(os_hands, seed=seed)
    ours = simkit.run("gin(preset=gra)", n=n, seed=seed, progress=False,
                      strategies=["p1=threshold(10,0)", "p2=threshold(10,0)"]).estimates()
    rows = []
    for name, mine, (m, se) in [
            ("cards drawn per hand", "turns", (theirs["draws_mean"], theirs["draws_se"])),
            ("gin rate", "gin", (theirs["gin_rate"], theirs["gin_rate_se"])),
            ("knock rate (not gin)", "knock", (theirs["knock_rate"], theirs["knock_rate_se"])),
            ("dead-hand rate", "dead", (theirs["dead_rate"], theirs["dead_rate_se"]))]:
        e = ours[mine]
        z = (e["mean"] - m) / math.hypot(e["se"], se) if (e["se"] or se) else math.nan
        rows.append({"quantity": name, "simkit": e["mean"], "simkit_se": e["se"],
                     "openspiel": m, "openspiel_se": se, "z": z})
    df = pd.DataFrame(rows)
    df.attrs.update(simkit_deals=n, simkit_hands=2 * n, openspiel_hands=os_hands)
    return df


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", default="2e4", help="simkit deals (two hands each, seats swapped)")
    ap.add_argument("--os-hands", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    df = compare(int(float(a.n)), a.os_hands, a.seed)
    print(f"simkit: {2 * int(float(a.n)):,} hands; open-spiel: {a.os_hands:,} hands")
    print(df.to_string(index=False, float_format=lambda v: f"{v:.4f}"))


if __name__ == "__main__":
    main()
