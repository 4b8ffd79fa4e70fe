"""Panguingue benchmark: six-player deals per second per core, baseline on every seat, beside
gin's hands measured in the same run.

    python scripts/bench_panguingue.py [-n 5000] [--reps 5] [--json out.json]

Interleaved rounds of CPU time (``simkit.analysis.interleave``; the machines are shared and
noisy, so the same-run ratios are what count):
* Panguingue: ``baseline`` on all six seats, eight packs (``panguingue``), one thread;
* Panguingue with two players (``panguingue(players=2)``): the same kernel with a short table;
* gin: ``simple`` on both seats, single hands (``gin(swap=false)``), one thread: the reference
  rummy of the house.
Target (issue 26): at least 100,000 six-player deals a second per core.
"""
from __future__ import annotations

import argparse
import json
import pathlib

from simkit.analysis.interleave import (cpu_rate, game_runner, interleaved, line, ratios,
                                         summary)

TARGET = 100_000


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", default="5e3", help="deals to time per round (default 5e3)")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    n = int(float(args.n))
    six = game_runner("panguingue", [f"p{k}=baseline" for k in range(1, 7)])
    two = game_runner("panguingue(players=2)", ["p1=baseline", "p2=baseline"])
    gin = game_runner("gin(swap=false)", ["p1=simple", "p2=simple"])
    rates = interleaved({
        "six": lambda: cpu_rate(lambda: six(n), n),
        "two": lambda: cpu_rate(lambda: two(n), n),
        "gin": lambda: cpu_rate(lambda: gin(n), n),
    }, args.reps)
    print(line("panguingue six-player deals per second per core (baseline x6)", rates["six"]))
    print(line("panguingue two-player deals per second per core (baseline x2)", rates["two"]))
    print(line("gin hands per second per core (simple x2)", rates["gin"]))
    print(line("panguingue six-player deals / gin hands", ratios(rates["six"], rates["gin"]),
               "", ".3f"))
    med = summary(rates["six"])[0]
    out = {"six_player_deals_per_second": summary(rates["six"]),
           "two_player_deals_per_second": summary(rates["two"]),
           "gin_hands_per_second": summary(rates["gin"]),
           "ratio_six_gin": summary(ratios(rates["six"], rates["gin"])),
           "target_deals_per_second": TARGET, "target_met": int(med >= TARGET)}
    print(f"target {TARGET:,} six-player deals/s per core: {'met' if med >= TARGET else 'not met'}")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(out, indent=2))
    return out


if __name__ == "__main__":
    main()
