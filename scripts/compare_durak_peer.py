"""Durak against the PyPI peer ``durakgame`` (1.0.4), under its rules and with its random bots
(``simkit.peers.durakgame_peer``): the opener's win / draw / loss of both engines measured in the
same run, and the replay of simkit's games through the peer's game.

    python scripts/compare_durak_peer.py -n 20000          # needs the test extra (durakgame)

Prints, per outcome, both rates with 95% Wilson intervals, their difference with its standard
error and whether they agree within 3 SE; then how many of 1,000 simkit games (random and
baseline play) the peer's game replays move for move.  The peer's games are played by
``LazyGame``: the peer's game with its throw-in list indexed lazily and its one bug mended (see
the module).  Exit status 1 when an outcome disagrees or a game does not replay.
"""
from __future__ import annotations

import argparse
import math
import sys

from simkit.core.registry import rules_from_options
from simkit.games.durak import SPEC, decode, play_logged
from simkit.peers.durakgame_peer import compare, replay


def wilson(p, n, z=1.96):
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=20000, help="peer games (simkit plays 10x as many)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    m = 10 * a.n
    ok = True
    print(f"opener (p1) outcomes: {a.n} durakgame games (MrRandom x2), {m} simkit games "
          f"(random(subsets=1) x2)")
    print(f"{'outcome':8} {'durakgame':>9} {'95% CI':>17} {'simkit':>8} {'95% CI':>17} "
          f"{'diff':>8} {'se':>7} agree")
    for r in compare(a.n, m, a.seed):
        agree = abs(r["z"]) <= 3
        ok &= agree
        lo, hi = wilson(r["durakgame"], a.n)
        lo2, hi2 = wilson(r["simkit"], m)
        print(f"{r['outcome']:8} {r['durakgame']:9.4f} [{lo:.4f}, {hi:.4f}] {r['simkit']:8.4f} "
              f"[{lo2:.4f}, {hi2:.4f}] {r['simkit'] - r['durakgame']:+8.4f} {r['se']:7.4f} "
              f"{'yes' if agree else 'NO'}")
    rules = rules_from_options(SPEC, {"preset": "durakgame"})
    for strats in (["p1=random(subsets=1)", "p2=random(subsets=1)"], None):
        _, log = play_logged(rules, strats, n=1000, seed=a.seed)
        bad = [replay([decode(int(x)) for x in row if x >= 0]) for row in log]
        bad = [b for b in bad if b]
        ok &= not bad
        print(f"replayed by the peer's game, {strats or 'baseline x2'}: {1000 - len(bad)} of "
              f"1000 games{'; first: ' + bad[0] if bad else ''}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
