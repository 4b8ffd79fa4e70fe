"""Canasta benchmark: four-hand classic hands per second per core, baseline on every seat, with
gin's rate measured in the same run as the reference, and the cost of Canasta's meld logic.

    python scripts/bench_canasta.py [-n 5000] [--reps 5] [--calls 20000] [--json out.json]

Interleaved rounds of CPU time (``simkit.analysis.interleave``; the machines are shared and
noisy, so the same-run ratios are what count):
* Canasta: ``baseline`` on the four seats, single hands (``canasta``), one thread;
* gin: ``simple`` on both seats, single hands (``gin(swap=false)``), one thread: the house's
  reference rummy;
* the meld logic alone: Canasta has no meld search (a side's melds are counts by rank); its
  arrangement work is :func:`~simkit.games.canasta.engine.out_plan` (can the hand go out?) and
  :func:`~simkit.games.canasta.engine.initial_fill` (the cheapest initial meld), timed on random
  11-card hands against random side melds, nanoseconds a call.  The share of a hand's time is
  estimated as (one call of each per turn) x turns per hand / time per hand: a rough estimate,
  not a profile (``initial_fill`` runs only until the side has melded, ``out_plan`` up to twice
  a turn, and both often stop at their first bound).
Target (issue 27): at least 20,000 four-hand classic hands a second per core.
"""
from __future__ import annotations

import argparse
import json
import pathlib

import numpy as np
from numba import njit

from simkit.analysis.interleave import (cpu_rate, game_runner, interleaved, line, ratios,
                                         summary)
from simkit.core.play import run_chunk
from simkit.core.registry import parse_strategies
from simkit.core.rng import stream_state
from simkit.games import parse_game
from simkit.games.canasta import engine as E

TARGET = 20_000


@njit(cache=True)
def _plans(R, W, hands, melds):
    t = 0
    for i in range(hands.shape[0]):
        for r in range(E.NR):
            W.rk[0, r] = hands[i, r]
            W.rk[E.MN, r] = melds[i, r]
            W.rk[E.MW, r] = 0
        W.st[E.MELDED] = 1
        t += E.out_plan(R, W, 0)
        W.st[E.MELDED] = 0
        t += E.initial_fill(R, W, 0, -1, 50)
    return t


def random_states(k: int, seed: int = 5):
    """Rank-index counts of random 11-card hands and, per hand, a random set of side melds."""
    rng = np.random.default_rng(seed)
    pack = E.make_deck().astype(np.int64)
    hs = np.zeros((k, E.NR), np.int64)
    ms = np.zeros((k, E.NR), np.int64)
    for i in range(k):
        for c in rng.choice(pack, 11, replace=False):
            if E.RI[c] != E.R_RED3:
                hs[i, E.RI[c]] += 1
        for r in rng.choice(np.arange(4, 15), 3, replace=False):
            ms[i, r] = rng.integers(3, 8)
    return hs, ms


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", default="5e3", help="hands to time per round (default 5e3)")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--calls", type=int, default=20_000, help="plan calls per round")
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    n = int(float(args.n))
    can = game_runner("canasta", ["p1=baseline", "p2=baseline", "p3=baseline", "p4=baseline"])
    gin = game_runner("gin(swap=false)", ["p1=simple", "p2=simple"])
    spec, r = parse_game("canasta")
    R, _, W = spec.prepare(r, parse_strategies(spec, r, []))
    hs, ms = random_states(args.calls)
    _plans(R, W, hs[:10], ms[:10])
    acc, _, _ = run_chunk(spec, r, parse_strategies(spec, r, []), stream_state(2, 0), 2000)
    names = [m.name for m in spec.metrics(r)]
    turns = acc[0, names.index("turns")] / 2000
    rates = interleaved({
        "canasta": lambda: cpu_rate(lambda: can(n), n),
        "gin": lambda: cpu_rate(lambda: gin(n), n),
        "plans": lambda: cpu_rate(lambda: _plans(R, W, hs, ms), len(hs)),
    }, args.reps)
    ns = [1e9 / x for x in rates["plans"]]
    share = [turns * a * c / 1e9 for a, c in zip(ns, rates["canasta"])]
    print(line("canasta hands per second per core (baseline x4)", rates["canasta"]))
    print(line("gin hands per second per core (simple x2)", rates["gin"]))
    print(line("canasta / gin hands per second", ratios(rates["canasta"], rates["gin"]), "",
               ".3f"))
    print(line("out_plan + initial_fill, ns per pair of calls", ns, "ns", ",.0f"))
    print(f"turns per hand: {turns:.1f}")
    print(line("meld logic's share of a hand (rough estimate)", share, "", ".3f"))
    med = summary(rates["canasta"])[0]
    out = {"canasta_hands_per_second": summary(rates["canasta"]),
           "gin_hands_per_second": summary(rates["gin"]),
           "ratio_canasta_gin": summary(ratios(rates["canasta"], rates["gin"])),
           "plan_ns": summary(ns), "turns_per_hand": turns, "meld_share": summary(share),
           "target_hands_per_second": TARGET, "target_met": int(med >= TARGET)}
    print(f"target {TARGET:,} hands/s per core: {'met' if med >= TARGET else 'not met'}")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(out, indent=2))
    return out


if __name__ == "__main__":
    main()
