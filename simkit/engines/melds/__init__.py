"""Melds: sets and runs over multi-deck hands with wild cards (see the modules)."""
from simkit.engines.melds.rules import *  # noqa: F401,F403
from simkit.engines.melds.moves import (  # noqa: F401
    add_options, check_meld, is_wild, joker_swap, legal_melds, melds_with,
)
from simkit.engines.melds.search import arrange  # noqa: F401
