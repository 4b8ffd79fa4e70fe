"""The catalogue of games: one registration line per game, and lookup by name.

Adding a game touches its folder and one line here.  ``core`` never imports this module; the
runner and the core functions take a :class:`~simkit.core.registry.GameSpec`, and a spec sent to
a worker process is found again here by name.
"""
from __future__ import annotations

import sys
import types

from simkit.core.registry import GameSpec, Rules, parse_rules, split_call
from simkit.errors import SimkitError

_CATALOGUE: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Add ``spec`` to the catalogue (a user's own game too)."""
    _CATALOGUE[spec.name] = spec
    return spec


def games() -> dict[str, GameSpec]:
    """Every registered game by name."""
    return dict(_CATALOGUE)


def get_game(name: str) -> GameSpec:
    if name not in _CATALOGUE:
        raise SimkitError(f"unknown game {name!r}: available games are "
                          f"{', '.join(sorted(_CATALOGUE))}")
    return _CATALOGUE[name]


def parse_game(text: str, overrides: list[str] | dict | None = None) -> tuple[GameSpec, Rules]:
    """``"ochko(banker_stop=16,deck=36)"`` (plus ``-r key=value`` overrides) -> (spec, rules)."""
    spec = get_game(split_call(text, "game")[0])
    return spec, parse_rules(spec, text, overrides)


from simkit.games.crazy_eights import SPEC as _crazy_eights  # noqa: E402
from simkit.games.fan_tan import SPEC as _fan_tan  # noqa: E402
from simkit.games.gin import SPEC as _gin  # noqa: E402
from simkit.games.handjass import SPEC as _handjass  # noqa: E402
from simkit.games.durak import SPEC as _durak  # noqa: E402
from simkit.games.hearts import SPEC as _hearts  # noqa: E402
from simkit.games.klaberjass import SPEC as _klaberjass  # noqa: E402
from simkit.games.ochko import SPEC as _ochko  # noqa: E402
from simkit.games.ochko_session import SPEC as _ochko_session  # noqa: E402
from simkit.games.oklahoma import SPEC as _oklahoma  # noqa: E402
from simkit.games.old_maid import SPEC as _old_maid  # noqa: E402
from simkit.games.stovkahra import SPEC as _stovkahra  # noqa: E402
from simkit.games.thirty_one import SPEC as _thirty_one  # noqa: E402
from simkit.games.piquet import SPEC as _piquet  # noqa: E402
from simkit.games.thirty_one_bank import SPEC as _thirty_one_bank  # noqa: E402

register(_ochko)
register(_ochko_session)
register(_gin)
register(_klaberjass)
register(_hearts)
register(_old_maid)
register(_crazy_eights)
register(_fan_tan)
register(_durak)
register(_stovkahra)
register(_thirty_one)
register(_piquet)
register(_handjass)
register(_thirty_one_bank)
register(_oklahoma)


class _Catalogue(types.ModuleType):
    """``simkit.games`` is this package and, called, the catalogue: ``simkit.games()`` lists the
    games while ``import simkit.games.gin`` still finds the subpackage (a plain function named
    ``games`` in ``simkit`` would hide the package)."""

    def __call__(self) -> dict[str, GameSpec]:
        return games()


sys.modules[__name__].__class__ = _Catalogue
