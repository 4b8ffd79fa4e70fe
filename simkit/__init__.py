"""simkit: Monte Carlo simulation and strategy analysis for the card games of ``shared/rules``."""
__version__ = "0.1.0"

import simkit.games as games  # noqa: E402,F401  (callable: simkit.games() lists the games)
from simkit.games import get_game, parse_game  # noqa: E402,F401
from simkit.analysis.simulate import run, sweep  # noqa: E402,F401
from simkit.analysis.headtohead import compare  # noqa: E402,F401
from simkit.analysis.tournament import tournament  # noqa: E402,F401
from simkit.analysis.racing import best  # noqa: E402,F401
from simkit.analysis.solve import solve  # noqa: E402,F401
from simkit.analysis.match import odds  # noqa: E402,F401
