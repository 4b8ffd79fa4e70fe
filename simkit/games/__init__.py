"""The catalogue of games: one registration line per game, and lookup by name.

Adding a game touches its folder and one line here (:data:`GAMES`): the CLI, the contract tests,
the golden playthroughs and ``scripts/digest.py`` (with the spec's ``digest_runs``) read the
catalogue.  ``core`` never imports this module; the runner and the core functions take a
:class:`~simkit.core.registry.GameSpec`, and a spec sent to a worker process is found again here
by name.
"""
from __future__ import annotations

import importlib
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


#: the registered games, in the order ``simkit games`` lists them: adding a game is one line here
GAMES = (
    "ochko",
    "ochko_session",
    "gin",
    "klaberjass",
    "hearts",
    "old_maid",
    "crazy_eights",
    "fan_tan",
    "durak",
    "stovkahra",
    "thirty_one",
    "piquet",
    "handjass",
    "thirty_one_bank",
    "oklahoma",
    "panguingue",
    "canasta",
)

for _name in GAMES:
    register(importlib.import_module(f"{__name__}.{_name}").SPEC)
del _name


class _Catalogue(types.ModuleType):
    """``simkit.games`` is this package and, called, the catalogue: ``simkit.games()`` lists the
    games while ``import simkit.games.gin`` still finds the subpackage (a plain function named
    ``games`` in ``simkit`` would hide the package)."""

    def __call__(self) -> dict[str, GameSpec]:
        return games()


sys.modules[__name__].__class__ = _Catalogue
