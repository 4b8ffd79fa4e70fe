"""Seconds each game's first run spends compiling its kernels, as CPU time (the wait on a quiet
machine; wall time on a shared one is longer), and its second run in a fresh process (loading
numba's cache).  Run it with a fresh, empty ``NUMBA_CACHE_DIR``:

    NUMBA_CACHE_DIR=$(mktemp -d) python scripts/compile_times.py [--games gin durak ...]

It prints one line per game (``game cold_s warm_s``); the cold numbers are the guide
``simkit.analysis.simulate.COMPILE_SECONDS`` that the first-run notice quotes.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

CHILD = ("import sys, time; from simkit.analysis.simulate import run; "
         "t = time.process_time(); run(sys.argv[1], n=10, seed=0, progress=False); "
         "print(time.process_time() - t)")


def one(game: str) -> float:
    env = dict(os.environ, SIMKIT_NO_PROGRESS="1")
    out = subprocess.run([sys.executable, "-c", CHILD, game], env=env, check=True,
                         capture_output=True, text=True).stdout
    return float(out.split()[-1])


def main() -> None:
    from simkit.games import GAMES
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", nargs="*", default=list(GAMES))
    a = ap.parse_args()
    if not os.environ.get("NUMBA_CACHE_DIR"):
        sys.exit("set NUMBA_CACHE_DIR to a fresh, empty folder (the cold numbers need it)")
    for g in a.games:
        cold = one(g)
        warm = one(g)
        print(f"{g} {cold:.1f} {warm:.1f}", flush=True)


if __name__ == "__main__":
    main()
