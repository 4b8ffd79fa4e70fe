"""Hearts: a strategy in seat p1 against random players in every other seat, for every variant.

Per hand the edge is the random seats' mean points minus p1's (positive: p1 does better), per game
p1's win share minus 1/K; each with its standard error over hands or games
(:mod:`simkit.games.hearts.study`).  Also the two-player moon rate in self-play.

    python scripts/hearts_against_random.py [--n 100000] [--games 20000] [--seed 1]
"""
from __future__ import annotations

import argparse
import sys

from simkit.games.hearts.study import VARIANTS, against_random, self_play_moons


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000, help="hands per unit=hand variant")
    ap.add_argument("--games", type=int, default=20_000, help="games per unit=game variant")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--strategy", default="heuristic")
    a = ap.parse_args(argv)
    print(f"{'variant':32} {'n':>8} {'edge':>8} {'se':>7} {'z':>7} {'p1 mean':>8} {'moons':>7}")
    for g in VARIANTS:
        n = a.games if "unit=game" in g else a.n
        r = against_random(g, n, a.seed, a.strategy)
        print(f"{g:32} {n:>8} {r['edge']:>8.3f} {r['se']:>7.3f} {r['z']:>7.1f} "
              f"{r['seat_mean']:>8.3f} {r['moons']:>7.3f}", flush=True)
    for g, n in (("hearts(players=2)", a.n), ("hearts(players=2,unit=game)", a.games)):
        m, se = self_play_moons(g, n, a.seed, a.strategy)
        print(f"self-play moons {g}: {m:.4f} ± {se:.4f} (n={n}, seed={a.seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
