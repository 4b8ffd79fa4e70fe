"""Meld engine benchmark: ns per call of ``engines.melds.arrange`` on random Oklahoma hands beside
gin's ``min_deadwood`` (``engines/melds/onedeck.py``) on random gin hands, in one run.

    python scripts/bench_melds.py [-n 20000] [--reps 5] [--cards 13]

Both kernels run over ``n`` pre-dealt hands inside one compiled loop (CPU time,
``time.process_time``), in ``--reps`` interleaved rounds (gin, Oklahoma, gin, ...;
:mod:`simkit.analysis.interleave`); printed: the median ns per call with the min-max spread over
the rounds, and the median of each round's ratio Oklahoma / gin.  Oklahoma hands: ``--cards``
cards from two decks and a joker (0-4 wild cards as dealt), values in hand from text 003 line 87;
gin hands: 10 cards of one deck.  The machine is shared: the load average is printed.
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np
from numba import njit

from simkit.analysis.interleave import interleaved, line, ratios
from simkit.engines import melds as M
from simkit.engines.melds.onedeck import gin_mask, min_deadwood


@njit(cache=True)
def arrange_loop(hands, R, dw, out):
    cnt = np.zeros(65, np.int64)
    acc = 0
    for h in range(hands.shape[0]):
        for j in range(hands.shape[1]):
            cnt[hands[h, j]] += 1
        d, k = M.arrange(cnt, R, dw, out)
        acc += d + k
        for j in range(hands.shape[1]):
            cnt[hands[h, j]] -= 1
    return acc


@njit(cache=True)
def gin_loop(masks):
    acc = 0
    for m in masks:
        acc += min_deadwood(m)
    return acc


def ns_per_call(fn, count):
    """A timer: ``fn()`` runs ``count`` calls; returns ns per call (CPU time)."""
    def timer():
        t = time.process_time()
        fn()
        return (time.process_time() - t) / count * 1e9
    return timer


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=float, default=2e4)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--cards", type=int, default=13)
    a = ap.parse_args(argv)
    n = int(a.n)
    rng = np.random.default_rng(1)
    okla = np.array([s * 16 + r for s in range(4) for r in range(2, 15)] * 2 + [64])
    hands = np.array([rng.permutation(okla)[:a.cards] for _ in range(n)], np.int64)
    one = np.array([s * 16 + r for s in range(4) for r in range(2, 15)])
    masks = np.array([int(gin_mask(rng.permutation(one)[:10])) for _ in range(n)], np.uint64)
    dw = M.oklahoma_hand_values()
    out = np.zeros((16, M.MELD_W), np.int64)
    arrange_loop(hands[:10], M.OKLAHOMA, dw, out)
    gin_loop(masks[:10])
    load0 = os.getloadavg()[0]
    res = interleaved({"gin min_deadwood (10 cards, one deck)": ns_per_call(lambda: gin_loop(masks), n),
                       f"melds.arrange (Oklahoma, {a.cards} cards)":
                           ns_per_call(lambda: arrange_loop(hands, M.OKLAHOMA, dw, out), n)},
                      a.reps)
    print(f"one thread, CPU time, {a.reps} interleaved rounds of {n:,} calls, median [min, max]; "
          f"load average {load0:.2f} before, {os.getloadavg()[0]:.2f} after, on {os.cpu_count()} cores")
    keys = list(res)
    for k in keys:
        print(line(k, res[k], "ns/call"))
    print(line("  arrange / min_deadwood", ratios(res[keys[1]], res[keys[0]]), "", ".1f"))
    return res


if __name__ == "__main__":
    main()
