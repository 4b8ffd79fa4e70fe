"""Klaberjass benchmark: units (deals, or whole long games) per second per core.

    python scripts/bench_klaberjass.py [-n 5e5] [--json out.json]

Reports, all measured in this run (the machines are shared and noisy, so compare ratios):
* short games (one played deal each, redeals included) per second on one core, for the default
  heuristic on both seats and for random play (``simkit bench klaberjass``);
* played deals per second (a short game plays one; redeals deal 20 cards and stop at the bidding);
* long games to 301 per second, and the deals per second they make.
"""
from __future__ import annotations

import argparse
import json
import time

from simkit.analysis.bench import bench
from simkit.core.play import run_chunk
from simkit.core.registry import parse_strategies
from simkit.core.rng import stream_state
from simkit.games import parse_game
from simkit.games.klaberjass import engine


def rate(game: str, strategies, n: int) -> tuple[float, float]:
    """(units per second, played deals per second), best of three on one thread."""
    spec, r = parse_game(game)
    st = parse_strategies(spec, r, strategies)
    run_chunk(spec, r, st, stream_state(0, 0), 1000)
    names = [m.name for m in engine.metrics(r)]
    best = (0.0, 0.0)
    for rep in range(3):
        t = time.perf_counter()
        acc, _, _ = run_chunk(spec, r, st, stream_state(0, rep), n)
        dt = time.perf_counter() - t
        best = max(best, (n / dt, acc[0, names.index("deals")] / dt))
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", default="5e5", help="short games to time (default 5e5)")
    ap.add_argument("--json", default=None, help="also write the results to this JSON file")
    args = ap.parse_args()
    n = int(float(args.n))
    out: dict = {}
    b = bench("klaberjass", n=n)
    out["bench"] = dict(zip(b["quantity"], b["value"]))
    for name, game, strats, count in [
            ("short_heuristic", "klaberjass", None, n),
            ("short_random", "klaberjass", ["p1=random", "p2=random"], n),
            ("long301_heuristic", "klaberjass(form=301)", None, max(1000, n // 5))]:
        units, deals = rate(game, strats, count)
        out[name] = dict(units_per_second=units, deals_per_second=deals)
        print(f"{name:20s} {units:14,.0f} units/s   {deals:14,.0f} played deals/s   (one core)")
    print(f"{'simkit bench':20s} {out['bench']['deals_per_second_per_core']:14,.0f} short games/s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=2)


if __name__ == "__main__":
    main()
