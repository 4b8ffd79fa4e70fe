"""«31» with a bank benchmark: rounds per second per core against the RNG ceiling, measured in
the same run as Очко's (the target is at least Очко's fraction of the ceiling, issue 13).

    python scripts/bench_thirty_one_bank.py [-n 5e6] [--json out.json]

Reports, all in this run (the machines are shared and noisy, so compare ratios): for the default
round (one punter), a talia (``unit=talia``) and seven punters on three packs, deals per second
per core, the xoshiro256** bounded-draw ceiling, the fraction of it reached; Очко's default
round the same way; and the ratio of the round's fraction to Очко's.
"""
from __future__ import annotations

import argparse
import json

from simkit.analysis.bench import bench

CONFIGS = [("thirty_one_bank", "round"), ("thirty_one_bank(unit=talia)", "talia"),
           ("thirty_one_bank(preset=three_decks)", "three_decks")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", default="5e6", help="rounds to time (default 5e6; talias: n/20)")
    ap.add_argument("--json", default=None, help="also write the results to this JSON file")
    args = ap.parse_args()
    n = int(float(args.n))
    out: dict = {}
    for game, label in [("ochko", "ochko")] + CONFIGS:
        df = bench(game, n=n if label in ("ochko", "round") else max(n // 20, 1000))
        for r in df.itertuples():
            out[f"{label}_{r.quantity}"] = float(r.value)
    out["ratio_round_to_ochko"] = out["round_fraction_of_ceiling"] / out["ochko_fraction_of_ceiling"]
    for k, v in out.items():
        print(f"{k:48s} {v:,.4g}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
