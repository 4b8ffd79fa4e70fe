"""Monte Carlo estimate of Samba's 15-card meldM and take_first_pile (the exact DP in
simkit/games/canasta/exact_seq.py is out of reach at 15 cards): uniform hands of the 156 cards a
hand is held from and a uniform plain upcard not held, each hand's best lay by the plain search
of tests/canasta_seq_reference.py.  Usage: python scripts/samba_meld_sim.py N SEED [wild_meld]."""
import math
import sys
import time
from collections import Counter

import numpy as np

sys.path.insert(0, ".")
from tests.canasta_seq_reference import plain_lay  # noqa: E402

VALUES = (5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20)
MINIMA = (50, 90, 120, 150)


def main(n, seed, wild_meld=0, hand=15):
    cards = [("n", r, s) for r in range(11) for s in range(4) for _ in range(3)]
    cards += [("j",)] * 6 + [("d",)] * 12 + [("b",)] * 6
    rng = np.random.default_rng(seed)
    hits = Counter()
    t0 = time.time()
    for _ in range(n):
        idx = rng.permutation(len(cards))
        h = [cards[i] for i in idx[:hand]]
        nat = Counter((c[1], c[2]) for c in h if c[0] == "n")
        j, d = sum(c[0] == "j" for c in h), sum(c[0] == "d" for c in h)
        up = next(cards[i] for i in idx[hand:] if cards[i][0] in "nb")
        v = plain_lay(VALUES, 4, nat, j, d, 2, wild_meld)
        for m in MINIMA:
            hits[f"meld{m}"] += v >= m
        if up[0] == "n" and sum(nat[(up[1], s)] for s in range(4)) >= 2:
            hits["take_pair"] += 1
            hits["take_first_pile"] += plain_lay(VALUES, 4, nat, j, d, 2, wild_meld,
                                                 up=up[1]) >= MINIMA[0]
    for k in [f"meld{m}" for m in MINIMA] + ["take_pair", "take_first_pile"]:
        p = hits[k] / n
        print(f"{k}\t{p:.5f}\tSE {math.sqrt(p * (1 - p) / n):.5f}")
    print(f"n={n} seed={seed} wild_meld={wild_meld} {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 0)
