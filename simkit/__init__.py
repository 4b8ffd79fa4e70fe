"""simkit: Monte Carlo simulation and strategy analysis for the card games of ``shared/rules``."""
__version__ = "0.1.0"

import simkit.games as games  # noqa: E402,F401  (callable: simkit.games() lists the games)
from simkit.games import get_game, parse_game  # noqa: E402,F401
from simkit.analysis.simulate import run, sweep  # noqa: E402,F401
