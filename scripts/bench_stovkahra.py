"""Stovkahra benchmark against Klaberjass, measured in one process, interleaved.

    python scripts/bench_stovkahra.py [-n 3e5] [--rounds 5] [--json out.json]

The issue's target is at least Klaberjass's rate (short games per second per core).  The machine
is shared, so both games are timed alternately, ``rounds`` times each, by the process's CPU time
(one thread), and the best round of each is kept; the ratio is what to compare.  Reported: deals
per second for the default baseline and for random play (``unit=deal``), games to 100 per second,
and Klaberjass's short games per second with its default heuristic (``simkit bench klaberjass``).
"""
from __future__ import annotations

import argparse
import json
import time

from simkit.core.play import run_chunk
from simkit.core.registry import parse_strategies
from simkit.core.rng import stream_state
from simkit.games import parse_game

CASES = [("stovkahra_deal_baseline", "stovkahra", None),
         ("stovkahra_deal_random", "stovkahra", [f"p{k}=random" for k in range(1, 5)]),
         ("stovkahra_game_baseline", "stovkahra(unit=game)", None),
         ("klaberjass_short", "klaberjass", None)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", default="3e5", help="units per timing (default 3e5)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    n = int(float(args.n))
    setups = {}
    for name, game, strats in CASES:
        spec, r = parse_game(game)
        st = parse_strategies(spec, r, strats)
        run_chunk(spec, r, st, stream_state(0, 0), 1000)   # compile / load
        setups[name] = (spec, r, st, n // 5 if "game" in name else n)
    best = {name: 0.0 for name in setups}
    for rep in range(args.rounds):
        for name, (spec, r, st, k) in setups.items():
            t = time.process_time()
            run_chunk(spec, r, st, stream_state(1, rep), k)
            best[name] = max(best[name], k / (time.process_time() - t))
    for name, rate in best.items():
        print(f"{name:26s} {rate:12,.0f} units per CPU second")
    ratio = best["stovkahra_deal_baseline"] / best["klaberjass_short"]
    print(f"{'ratio stovkahra/klaberjass':26s} {ratio:12.2f}   (baseline deals / heuristic short games)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(best, ratio=ratio), f, indent=2)


if __name__ == "__main__":
    main()
