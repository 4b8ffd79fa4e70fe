"""Open-spiel's gin rummy as a reference for simkit's gin engine: card numbering, deadwood, rules
confirmed by rigged deals, its simple bot's statistics and speed.

    python scripts/openspiel_gin.py [-n 500] [--seed 1] [--check 1000] [--json out.json]

The code lives in ``simkit/peers/openspiel_gin.py`` (shared with the tests; see its docstring for
what open-spiel exposes and the rules it plays).  Needs ``open-spiel`` (``pyspiel``).
"""
from __future__ import annotations

import sys

from simkit.peers.openspiel_gin import main

if __name__ == "__main__":
    sys.exit(main())
