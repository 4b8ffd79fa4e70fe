"""simkit: Monte Carlo simulation and strategy analysis for the card games of ``shared/rules``.

The names below are loaded on first use (PEP 562), so ``import simkit.core`` or
``import simkit.engines`` loads no game: only ``simkit.games`` (the catalogue) imports the games.
"""
from simkit._version import __version__  # noqa: F401

#: name -> (module, attribute or None for the module itself)
_LAZY = {
    "games": ("simkit.games", None),  # callable: simkit.games() lists the games
    "get_game": ("simkit.games", "get_game"),
    "parse_game": ("simkit.games", "parse_game"),
    "run": ("simkit.analysis.simulate", "run"),
    "sweep": ("simkit.analysis.simulate", "sweep"),
    "compare": ("simkit.analysis.headtohead", "compare"),
    "tournament": ("simkit.analysis.tournament", "tournament"),
    "best": ("simkit.analysis.racing", "best"),
    "solve": ("simkit.analysis.solve", "solve"),
    "odds": ("simkit.analysis.match", "odds"),
}


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module 'simkit' has no attribute {name!r}")
    import importlib
    module, attr = _LAZY[name]
    value = importlib.import_module(module)
    value = value if attr is None else getattr(value, attr)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
