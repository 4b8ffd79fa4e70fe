"""Oklahoma benchmark: two-player hands per second per core, baseline against baseline, and the
multi-deck meld search's cost beside gin's, all measured in this run.

    python scripts/bench_oklahoma.py [-n 20000] [--reps 5] [--calls 200000] [--json out.json]

Interleaved rounds of CPU time (``simkit.analysis.interleave``; the machines are shared and
noisy, so the same-run ratios are what count):
* Oklahoma: ``baseline`` on both seats, single hands (``oklahoma``), one thread;
* gin: ``simple`` on both seats, single hands (``gin(swap=false)``), one thread: the reference
  rummy of the house, a one-deck meld search with no wild cards;
* the meld searches alone: :func:`simkit.engines.melds.arrange` on random 14-card Oklahoma hands
  (two decks and the joker, Oklahoma's meld rules) and gin's ``min_deadwood`` on random 11-card
  hands, nanoseconds a call.
Target (issue 25): at least 50,000 Oklahoma hands a second per core.
"""
from __future__ import annotations

import argparse
import json
import pathlib

import numpy as np
from numba import njit

from simkit.analysis.interleave import (cpu_rate, game_runner, interleaved, line, ratios,
                                         summary)
from simkit.engines import melds as ME
from simkit.games import parse_game
from simkit.games.gin import gin_bit, min_deadwood
from simkit.games.oklahoma import engine as OE

TARGET = 50_000


@njit(cache=True)
def _arrange_all(hands, R, dw, out):
    t = 0
    for i in range(hands.shape[0]):
        d, _ = ME.arrange(hands[i], R, dw, out)
        t += d
    return t


@njit(cache=True)
def min_deadwood_all(masks):
    t = 0
    for i in range(masks.shape[0]):
        t += min_deadwood(masks[i])
    return t


def random_gin_hands(k: int, size: int = 11, seed: int = 4) -> np.ndarray:
    rng = np.random.default_rng(seed)
    pack = [s * 16 + r for s in range(4) for r in range(2, 15)]
    return np.array([sum(int(gin_bit(c)) for c in rng.choice(pack, size, replace=False))
                     for _ in range(k)], np.uint64)


def random_okla_hands(k: int, size: int = 14, seed: int = 3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    pack = OE.make_deck().astype(np.int64)
    out = np.zeros((k, OE.NC), np.int64)
    for i in range(k):
        for c in rng.choice(pack, size, replace=False):
            out[i, c] += 1
    return out


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", default="2e4", help="hands to time per round (default 2e4)")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--calls", type=int, default=20_000, help="meld searches per round")
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    n = int(float(args.n))
    okla = game_runner("oklahoma", ["p1=baseline", "p2=baseline"])
    gin = game_runner("gin(swap=false)", ["p1=simple", "p2=simple"])
    R = OE.meld_rules(parse_game("oklahoma")[1])
    H = random_okla_hands(args.calls)
    buf = np.zeros((OE.MAXM, ME.MELD_W), np.int64)
    _arrange_all(H[:10], R, OE.HAND_VALUE, buf)
    G = random_gin_hands(args.calls)
    min_deadwood_all(G[:10])
    rates = interleaved({
        "oklahoma": lambda: cpu_rate(lambda: okla(n), n),
        "gin": lambda: cpu_rate(lambda: gin(n), n),
        "arrange": lambda: cpu_rate(lambda: _arrange_all(H, R, OE.HAND_VALUE, buf), len(H)),
        "min_deadwood": lambda: cpu_rate(lambda: min_deadwood_all(G), len(G)),
    }, args.reps)
    ns = {k: [1e9 / x for x in rates[k]] for k in ("arrange", "min_deadwood")}
    print(line("oklahoma hands per second per core (baseline x2)", rates["oklahoma"]))
    print(line("gin hands per second per core (simple x2)", rates["gin"]))
    print(line("oklahoma / gin hands per second", ratios(rates["oklahoma"], rates["gin"]), "", ".3f"))
    print(line("arrange, ns per 14-card two-deck hand", ns["arrange"], "ns", ",.0f"))
    print(line("gin min_deadwood, ns per 11-card hand", ns["min_deadwood"], "ns", ",.0f"))
    print(line("arrange / min_deadwood (cost per call)",
               ratios(ns["arrange"], ns["min_deadwood"]), "", ".2f"))
    med = summary(rates["oklahoma"])[0]
    out = {"oklahoma_hands_per_second": summary(rates["oklahoma"]),
           "gin_hands_per_second": summary(rates["gin"]),
           "ratio_oklahoma_gin": summary(ratios(rates["oklahoma"], rates["gin"])),
           "arrange_ns": summary(ns["arrange"]), "min_deadwood_ns": summary(ns["min_deadwood"]),
           "target_hands_per_second": TARGET, "target_met": int(med >= TARGET)}
    print(f"target {TARGET:,} hands/s per core: {'met' if med >= TARGET else 'not met'}")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(out, indent=2))
    return out


if __name__ == "__main__":
    main()
