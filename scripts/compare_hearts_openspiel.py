"""Hearts under uniformly random play: simkit (preset ``openspiel``) against open-spiel's hearts.

The comparison itself lives in ``simkit/peers/openspiel_hearts.py`` (shared with the tests).

    python scripts/compare_hearts_openspiel.py --os-hands 20000 --simkit-hands 1000000
"""
from __future__ import annotations

import argparse
import sys

from simkit.peers.openspiel_hearts import compare


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--os-hands", type=int, default=20_000)
    ap.add_argument("--simkit-hands", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--loop", choices=("cpp", "python"), default="cpp")
    a = ap.parse_args(argv)
    rows = compare(a.os_hands, a.simkit_hands, a.seed, a.loop)
    print(f"simkit hands {a.simkit_hands:,}, open-spiel hands {a.os_hands:,} ({a.loop} loop), "
          f"seed {a.seed}")
    print(f"{'quantity':<20}{'simkit':>10}{'± se':>9}{'open-spiel':>12}{'± se':>9}{'z':>7}")
    for r in rows:
        print(f"{r['quantity']:<20}{r['simkit']:>10.4f}{r['simkit_se']:>9.4f}"
              f"{r['openspiel']:>12.4f}{r['openspiel_se']:>9.4f}{r['z']:>7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
