"""simkit: Monte Carlo simulation and strategy analysis for the card games of ``shared/rules``."""
__version__ = "0.1.0"

from simkit.games import games, get_game, parse_game  # noqa: E402,F401
from simkit.analysis.simulate import run, sweep  # noqa: E402,F401
