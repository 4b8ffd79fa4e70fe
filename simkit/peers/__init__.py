"""Other implementations of simkit's games, wrapped for comparison (tests and ``scripts/``).

* ``openspiel_gin``: open-spiel's gin rummy (card numbering, deadwood, its simple bot's statistics);
* ``openspiel_hearts``: open-spiel's hearts under uniformly random play against simkit's.

open-spiel (``pyspiel``) is an optional dependency (the ``test`` extra): these modules import it
inside the functions that need it, so importing them never requires it.
"""
