"""Thirty-one benchmark: kernel speed against the RNG ceiling, per variant and unit.

    python scripts/bench_thirty_one.py [-n 1e6] [--json out.json]

For the 36-card table game and the 52-card draw variant, one deal and a whole game
(``simkit bench``: deals or games per second per core, the xoshiro256** bounded-draw ceiling
over the cards a unit actually draws, and the fraction of it reached), with the baseline and
with random players.  The ceiling counts card draws only: a Thirty-one deal draws 15 cards
(four players) but plays about eight turns, each weighing up to ten exchanges, so the fraction
is far below a banking game's.  All numbers are measured in this run (shared, noisy machines:
compare ratios).
"""
from __future__ import annotations

import argparse
import json

from simkit.analysis.bench import bench

CONFIGS = [("thirty_one", None), ("thirty_one", [f"p{k}=random" for k in range(1, 5)]),
           ("thirty_one(preset=draw52)", None), ("thirty_one(unit=game)", None),
           ("thirty_one(preset=draw52_game)", None)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", default="1e6", help="deals to time (games: a twentieth; default 1e6)")
    ap.add_argument("--json", default=None, help="also write the results to this JSON file")
    args = ap.parse_args()
    n = int(float(args.n))
    out = {}
    for game, strategies in CONFIGS:
        k = n // 20 if "game" in game else n
        df = bench(game, n=k, strategies=strategies)
        row = {r.quantity: float(r.value) for r in df.itertuples()}
        name = game + (" random" if strategies else " baseline")
        out[name] = row
        print(f"{name:42s} {row['deals_per_second_per_core']:>12,.0f} units/s  "
              f"{row['cards_per_deal']:6.1f} cards/unit  fraction of ceiling "
              f"{row['fraction_of_ceiling']:.4f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
