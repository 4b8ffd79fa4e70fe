"""Write the golden playthrough of each game (tests/golden/<game>.json): one seeded deal's move
log and metric row, with the game's version.  Run it after a deliberate behaviour change (which
also bumps the game's VERSION); tests/test_contract.py compares the stored files.

    python scripts/golden.py            # every registered game
    python scripts/golden.py hearts gin
"""
import os
import sys

import simkit
from simkit import testing

FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "golden")


def main(names):
    for name in names or sorted(simkit.games()):
        print(testing.write_golden(FOLDER, simkit.get_game(name)))


if __name__ == "__main__":
    main(sys.argv[1:])
