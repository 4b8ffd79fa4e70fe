"""Check the Очко simulator against the exact analysis at scale (default 1e8 rounds each).

    python scripts/check_ochko_exact.py [-n 1e8] [--workers 2] [--json out.json]

For each configuration below, every metric of ``simkit.run`` is compared with
``simkit.games.ochko.exact.evaluate``; the script prints the largest |z| (difference over the
simulation's standard error) and fails (exit 1) if any |z| exceeds 5.  With 18 metrics x 4
configurations, a |z| above 5 by chance has probability about 4e-5.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

import simkit
from simkit.games.ochko import exact as X

CONFIGS = [
    ("ochko", "stand_at(17)"),
    ("ochko(banker_stop=16)", "stand_at(16)"),
    ("ochko(ties=push,bonus_hands=true,bust_penalty=1)", "stand_at(15)"),
    ("ochko(values=text1,banker_max_cards=4)", "random(0.5)"),
]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", default="1e8")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    report, worst = [], 0.0
    for game, strat in CONFIGS:
        t = time.perf_counter()
        exact = X.evaluate(game, strat)
        t_exact = time.perf_counter() - t
        t = time.perf_counter()
        est = simkit.run(game, n=args.n, seed=args.seed, strategies=[f"p1={strat}"],
                         workers=args.workers).estimates()
        t_sim = time.perf_counter() - t
        zs = {m: (e["mean"] - exact[m]) / e["se"] for m, e in est.items() if e["se"] > 0}
        zmax = max(zs.items(), key=lambda kv: abs(kv[1]))
        worst = max(worst, abs(zmax[1]))
        print(f"{game} p1={strat}: p1_result exact {exact['p1_result']:.6f} simulated "
              f"{est['p1_result']['mean']:.6f} +- {est['p1_result']['se']:.6f}; max |z| {abs(zmax[1]):.2f} "
              f"({zmax[0]}); exact {t_exact:.2f} s, simulation {t_sim:.1f} s")
        report.append(dict(game=game, strategy=strat, exact=exact,
                           simulated={m: e["mean"] for m, e in est.items()}, z=zs,
                           seconds_exact=t_exact, seconds_simulation=t_sim))
    print(f"largest |z| over all metrics: {worst:.2f} (fail above 5)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    return 0 if worst <= 5 else 1


if __name__ == "__main__":
    sys.exit(main())
