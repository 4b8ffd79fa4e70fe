"""The package's version, in a module of its own so that any layer can read it without importing
the package top (which would load every game).  ``pyproject.toml`` reads it from here."""
__version__ = "0.1.0"
