"""Gin's default player against its variants, paired on the same deals (same seed, seats swapped).

    python scripts/gin_baseline.py [-n 2e5] [--seed 2026] [--workers 2]

* ``greedy``: ``threshold(10, greedy=0)`` (the default: take from the pile only a card that melds
  or lets it knock, the text's line 44) against ``greedy=1`` (``simple``: also a low card that
  replaces a higher unmatched one), head to head and each against a set of opponents; games to
  100 head to head.
* ``block``: ``threshold(10, block=1)`` (lay down the arrangement that scores most after the
  defender's layoffs) against ``block=0`` (a least-deadwood arrangement) against the same
  opponents; the hands are identical up to the knock, so no deal may lose points.

Every difference is a mean over deals of the per-deal difference (a deal is two hands, seats
swapped), with its standard error.
"""
from __future__ import annotations

import argparse

import numpy as np

import simkit
from simkit.analysis.simulate import sweep

OPPONENTS = ("simple", "threshold(10)", "threshold(5)", "tracker", "careful", "schedule", "random")


def paired(rules, axis, opponent, n, seed, workers, metric="p1_points"):
    """``p1=threshold(10)`` with ``p1.axis`` 1 minus 0 against ``opponent``: (mean, se, share of
    deals that differ, smallest per-deal difference)."""
    res = sweep(rules, [f"p1.{axis}=0,1"], n=n, seed=seed, rows=True, progress=False,
                workers=workers, strategies=["p1=threshold(10)", f"p2={opponent}"])
    r = res.rows
    c0, c1 = list(dict.fromkeys(r["config"]))
    d = r[r["config"] == c1][metric].to_numpy() - r[r["config"] == c0][metric].to_numpy()
    return d.mean(), d.std(ddof=1) / np.sqrt(len(d)), (d != 0).mean(), d.min()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", default="2e5", help="deals per configuration (two hands each)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args(argv)
    n = int(float(a.n))
    print(f"n = {n:,} deals per configuration, seed {a.seed}")
    for rules in ("gin", "gin(preset=gra)"):
        e = simkit.run(rules, n=n, seed=a.seed, progress=False, workers=a.workers,
                       strategies=["p1=threshold(10,0)", "p2=threshold(10,1)"]).estimates()
        print(f"{rules}: threshold(10) - simple head to head: p1_points "
              f"{e['p1_points']['mean']:+.3f} ± {e['p1_points']['se']:.3f}")
        for opp in OPPONENTS:
            m, se, _, _ = paired(rules, "greedy", opp, n, a.seed, a.workers)
            print(f"{rules}: greedy=1 minus greedy=0 against {opp}: {m:+.3f} ± {se:.3f}")
        for opp in ("threshold(10)", "simple", "careful"):
            m, se, share, low = paired(rules, "block", opp, n, a.seed, a.workers)
            print(f"{rules}: block=1 minus block=0 against {opp}: {m:+.4f} ± {se:.4f} "
                  f"({share:.2%} of deals differ, smallest difference {low:+g})")
    games = max(n // 10, 1000)
    e = simkit.run("gin(unit=match)", n=games, seed=a.seed, progress=False, workers=a.workers,
                   strategies=["p1=threshold(10,0)", "p2=threshold(10,1)"]).estimates()
    print(f"games to 100 ({games:,} deals of two games): threshold(10) wins "
          f"{e['p1_match_win']['mean']:.3f} ± {e['p1_match_win']['se']:.3f}, simple "
          f"{e['p2_match_win']['mean']:.3f}; net {e['p1_match_net']['mean']:+.1f} ± "
          f"{e['p1_match_net']['se']:.1f} per game")


if __name__ == "__main__":
    main()
