"""Очко benchmark: kernel speed against the RNG ceiling, thread scaling, and CLI start-up.

    python scripts/bench_ochko.py [-n 2e7] [--json out.json]

Reports, all measured in this run (the machines are shared and noisy, so compare ratios):
* rounds per second per core for one player against the banker, the xoshiro256** bounded-draw
  ceiling and the fraction of it reached (``simkit bench ochko``);
* rounds per second through the runner with 1 and 2 threads;
* wall time of ``simkit run ochko -n 1000`` in a new process with an empty numba cache (compiles)
  and again with the cache filled (the target is under two seconds).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import simkit
from simkit.analysis.bench import bench


def cli_seconds(cache_dir: str) -> float:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, SIMKIT_NO_PROGRESS="1")
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "simkit", "run", "ochko", "-n", "1000"], env=env,
                   check=True, capture_output=True)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", default="2e7", help="rounds to time (default 2e7)")
    ap.add_argument("--json", default=None, help="also write the results to this JSON file")
    args = ap.parse_args()
    n = int(float(args.n))
    out: dict = {}
    df = bench("ochko", n=n)
    out.update({r.quantity: float(r.value) for r in df.itertuples()})
    for workers in (1, 2):
        simkit.run("ochko", n=10_000, workers=workers)  # warm
        t = time.perf_counter()
        simkit.run("ochko", n=n, workers=workers, seed=1)
        out[f"runner_rounds_per_second_{workers}_threads"] = n / (time.perf_counter() - t)
    out["thread_speedup_2_vs_1"] = out["runner_rounds_per_second_2_threads"] / \
        out["runner_rounds_per_second_1_threads"]
    with tempfile.TemporaryDirectory() as cache:
        out["cli_run_1000_cold_cache_s"] = cli_seconds(cache)
        out["cli_run_1000_warm_cache_s"] = cli_seconds(cache)
    out["cpu_count"] = os.cpu_count()
    for k, v in out.items():
        print(f"{k:42s} {v:,.4g}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
