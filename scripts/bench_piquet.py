"""Piquet benchmark: deals per second per core (target: 200,000 with the baseline), and the exact
endgame solver's cost by the number of tricks left.

    python scripts/bench_piquet.py [-n 1e6] [--reps 5] [--k 12] [--positions 10]

* deals: ``run_chunk`` on one thread, CPU time (``time.process_time``) of the compiled kernel, in
  ``--reps`` interleaved rounds (ceiling, baseline, random, partie, exact; ceiling, ...), each on
  the same deals: the baseline on both seats, random play, a Rubicon partie (per deal played:
  the partie's deals are counted, six or more), and the baseline with the exact endgame for the
  last 4 tricks.  The reference is the shuffle ceiling, measured in every round: the deal loop's
  generator alone, a key from xoshiro256** and a 32-card Fisher-Yates shuffle from its splitmix64
  sequence (:func:`simkit.analysis.interleave.shuffle_rate`).  Printed: the median rate and the
  min-max spread over the rounds, and the median (spread) of each round's ratio to the ceiling;
* the solver: ``engine.position_value`` from random positions of k cards a hand (a fresh memo
  table for each position), Elder to lead, no pique live; mean and worst seconds per position and
  the table's fill, for k = 1, 2, ... until a position takes over ``--budget`` seconds on average.
The machine is shared: the load average is printed with the numbers.
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np

from simkit.analysis.interleave import cpu_rate, interleaved, line, ratios, shuffle_rate
from simkit.core.play import run_chunk
from simkit.core.registry import parse_strategies
from simkit.core.rng import stream_state
from simkit.engines.endgame import EMPTY
from simkit.games import parse_game
from simkit.games.piquet import engine as E
from simkit.games.piquet import prepare


def timer(game, strategies, n):
    """A timer of ``n`` units (compiled first): returns deals played per CPU second."""
    spec, r = parse_game(game)
    st = parse_strategies(spec, r, strategies)
    run_chunk(spec, r, st, stream_state(0, 0), 200)
    deals = run_chunk(spec, r, st, stream_state(1, 0), n)[0][0, E.M.deals]
    return lambda: cpu_rate(lambda: run_chunk(spec, r, st, stream_state(1, 0), n), deals)


def solver(kmax, positions, budget):
    spec, r = parse_game("piquet")
    st = parse_strategies(spec, r, ["p1=clairvoyant"])
    rng = np.random.default_rng(1)
    out = []
    for k in range(1, kmax + 1):
        times = []
        for _ in range(positions):
            R, S, W = prepare(r, st)
            cards = rng.permutation(E.DECK)[:2 * k]
            he = sum(1 << int(c) for c in cards[:k])
            hy = sum(1 << int(c) for c in cards[k:])
            t = time.perf_counter()
            E.position_value(R, W, he, hy, 0, 6 - k // 2 if k < 12 else 0, -1)
            times.append(time.perf_counter() - t)
            fill = float((W.memo_val != EMPTY).mean())
        out.append((k, float(np.mean(times)), float(np.max(times)), fill))
        print(f"exact solver, {k:2d} tricks left: mean {np.mean(times) * 1e3:9.2f} ms, worst "
              f"{np.max(times) * 1e3:9.2f} ms, memo fill {fill:.3f}", flush=True)
        if np.mean(times) > budget:
            break
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=float, default=1e6)
    ap.add_argument("--reps", type=int, default=5, help="interleaved rounds (default 5)")
    ap.add_argument("--k", type=int, default=12)
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--budget", type=float, default=2.0)
    a = ap.parse_args()
    n = int(a.n)
    load0 = os.getloadavg()[0]
    cases = {"shuffle ceiling (32 cards)": (None, None, n),
             "baseline v baseline": ("piquet", None, n),
             "random v random": ("piquet", ["p1=random", "p2=random"], n),
             "Rubicon partie, baseline (per deal)": ("piquet(unit=partie)", None, n // 6),
             "baseline with exact last 4 tricks": ("piquet", ["p1=clairvoyant(exact=4)",
                                                             "p2=clairvoyant(exact=4)"],
                                                   max(2000, n // 200))}
    timers = {k: (lambda: shuffle_rate(32, 31, n)) if g is None else timer(g, st, nn)
              for k, (g, st, nn) in cases.items()}
    res = interleaved(timers, a.reps)
    load1 = os.getloadavg()[0]
    print(f"one thread, CPU time, {a.reps} interleaved rounds, median [min, max]; load average "
          f"{load0:.2f} before, {load1:.2f} after, on {os.cpu_count()} cores")
    ceiling = res["shuffle ceiling (32 cards)"]
    for k, (g, st, nn) in cases.items():
        print(line(k, res[k], f"deals/s (n={nn:,})"), flush=True)
    for k in list(cases)[1:]:
        print(line(f"  {k} / ceiling", ratios(res[k], ceiling), "", ".4f"))
    solver(a.k, a.positions, a.budget)


if __name__ == "__main__":
    main()
