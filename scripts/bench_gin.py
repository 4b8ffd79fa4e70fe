"""Gin benchmark: simkit's hands per second per core against open-spiel's simple gin bot.

    python scripts/bench_gin.py [-n 40000] [--os-hands 500] [--json out.json]

Both are measured in this run (the machines are shared and noisy, so the ratio is what counts):
* simkit: ``simple`` against ``simple``, single hands (``gin(swap=false)``), one thread, the
  median of five interleaved CPU-time repetitions after a warm-up that compiles the kernels
  (``simkit bench gin``);
* open-spiel: its C++ ``SimpleGinRummyBot`` on both seats, whole hands played in C++ by
  ``pyspiel.evaluate_bots`` (``simkit/peers/openspiel_gin.py``).
Targets (issue 4): at least 20,000 hands per second per core, and at least 100 times open-spiel.
"""
from __future__ import annotations

import argparse
import json
import pathlib

from simkit.analysis.bench import bench


def openspiel():
    """``simkit.peers.openspiel_gin`` (open-spiel is imported when it is first used)."""
    from simkit.peers import openspiel_gin
    return openspiel_gin


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", default="4e4", help="simkit hands to time (default 4e4)")
    ap.add_argument("--os-hands", type=int, default=500, help="open-spiel hands to time")
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    df = bench("gin(swap=false)", n=int(float(args.n)), strategies=["p1=simple", "p2=simple"])
    ours = float(df.set_index("quantity").loc["hands_per_second_per_core", "value"])
    out = {"simkit_hands_per_second_per_core": ours}
    try:
        os_rate = openspiel().simple_bot_hands_per_second(args.os_hands, seed=1)["hands_per_second"]
        out.update(openspiel_simple_bot_hands_per_second=os_rate, ratio=ours / os_rate)
    except ImportError:
        out["openspiel"] = "not installed (pip install open-spiel)"
    out["targets"] = {"hands_per_second_per_core": 20_000, "ratio": 100}
    print(json.dumps(out, indent=2))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(out, indent=2))
    return out


if __name__ == "__main__":
    main()
