"""Crazy Eights under uniformly random play: simkit (preset ``openspiel``) against open-spiel's
crazy_eights; the comparison lives in ``simkit/peers/openspiel_crazy_eights.py``.

    python scripts/compare_crazy_eights_openspiel.py --os-games 5000 --simkit-games 500000
"""
from __future__ import annotations

import argparse
import sys

from simkit.peers.openspiel_crazy_eights import compare


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--os-games", type=int, default=5000)
    ap.add_argument("--simkit-games", type=int, default=500_000)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    rows = compare(a.os_games, a.simkit_games, a.seed)
    print(f"simkit games {a.simkit_games:,}, open-spiel games {a.os_games:,}, seed {a.seed}")
    print(f"{'quantity':<14}{'simkit':>10}{'± se':>9}{'open-spiel':>12}{'± se':>9}{'z':>7}")
    for r in rows:
        print(f"{r['quantity']:<14}{r['simkit']:>10.4f}{r['simkit_se']:>9.4f}"
              f"{r['openspiel']:>12.4f}{r['openspiel_se']:>9.4f}{r['z']:>7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
