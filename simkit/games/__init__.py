"""Game registration: one line per game.  Adding a game touches its folder and this file only."""
from simkit.core.registry import register
from simkit.games.gin import SPEC as _gin
from simkit.games.hearts import SPEC as _hearts
from simkit.games.klaberjass import SPEC as _klaberjass
from simkit.games.ochko import SPEC as _ochko
from simkit.games.ochko.session import SESSION_SPEC

register(_ochko)
register(SESSION_SPEC)
register(_gin)
register(_klaberjass)
register(_hearts)
