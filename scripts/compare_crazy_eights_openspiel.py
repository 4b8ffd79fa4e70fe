"""Crazy Eights under uniformly random play: simkit (preset ``openspiel``) against open-spiel's
crazy_eights; the comparison lives in ``simkit/peers/openspiel_crazy_eights.py``.

    python scripts/compare_crazy_eights_openspiel.py --os-games 5000 --simkit-games 500000
    python scripts/compare_crazy_eights_openspiel.py --starter-eight --os-games 10000 \
        --simkit-games 400000     # deals whose first starter is an eight
    python scripts/compare_crazy_eights_openspiel.py --starter-eight \
        --game "crazy_eights(preset=openspiel,starter_eight=bury)"     # the preset before v3
"""
from __future__ import annotations

import argparse
import sys

from simkit.peers.openspiel_crazy_eights import GAME, compare


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--os-games", type=int, default=5000)
    ap.add_argument("--simkit-games", type=int, default=500_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--starter-eight", action="store_true",
                    help="only deals whose first turned starter is an eight (simkit keeps about "
                         "one in thirteen of its games)")
    ap.add_argument("--game", default=GAME, help=f"simkit's side (default {GAME})")
    a = ap.parse_args(argv)
    rows = compare(a.os_games, a.simkit_games, a.seed, a.starter_eight, a.game)
    print(f"{a.game}: simkit games {a.simkit_games:,}, open-spiel games {a.os_games:,}, "
          f"seed {a.seed}"
          + (", deals whose first starter is an eight" if a.starter_eight else ""))
    print(f"{'quantity':<14}{'simkit':>10}{'± se':>9}{'open-spiel':>12}{'± se':>9}{'z':>7}")
    for r in rows:
        print(f"{r['quantity']:<14}{r['simkit']:>10.4f}{r['simkit_se']:>9.4f}"
              f"{r['openspiel']:>12.4f}{r['openspiel_se']:>9.4f}{r['z']:>7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
