"""Melds: sets and runs over multi-deck hands with wild cards (see the modules)."""
