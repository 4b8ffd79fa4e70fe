"""Mechanisms several games share (tricks, melds, shedding, banking).  A game imports what it
needs from here; nothing here imports a game."""
