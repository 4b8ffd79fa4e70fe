"""Handjass benchmark: deals per second per core, against Klaberjass measured in the same run.

    python scripts/bench_handjass.py [-n 3e5] [--json out.json]

The issue's target is at least Klaberjass's rate (``simkit bench klaberjass``: short games per
second with its default heuristic).  The machines are shared and noisy, so the ratio, both
measured here one after the other (best of three each), is the number to read.  Also timed:
random play with everyone playing (36 cards a deal) and whole games of four to the loser.
"""
from __future__ import annotations

import argparse
import json

from simkit.analysis.bench import bench


def per_core(game: str, n: int, strategies=None) -> float:
    b = bench(game, n=n, strategies=strategies)
    return float(b.set_index("quantity").loc["deals_per_second_per_core", "value"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", default="3e5", help="deals to time (default 3e5)")
    ap.add_argument("--json", default=None, help="also write the results to this JSON file")
    args = ap.parse_args()
    n = int(float(args.n))
    out = {"handjass": per_core("handjass", n), "klaberjass": per_core("klaberjass", n)}
    out["ratio"] = out["handjass"] / out["klaberjass"]
    out["handjass_random_no_drop"] = per_core("handjass(dropping=false)", n,
                                              [f"p{k}=random" for k in range(1, 5)])
    out["handjass_games"] = per_core("handjass(unit=game)", max(1000, n // 20))
    for k, v in out.items():
        print(f"{k:26s} {v:14,.2f}" if k == "ratio" else f"{k:26s} {v:14,.0f} per second (one core)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=2)


if __name__ == "__main__":
    main()
