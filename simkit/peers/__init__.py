"""Other implementations of simkit's games, wrapped for comparison (tests and ``scripts/``).

* ``openspiel_gin``: open-spiel's gin rummy (card numbering, deadwood, its simple bot's statistics);
* ``openspiel_hearts``: open-spiel's hearts under uniformly random play against simkit's;
* ``openspiel_crazy_eights``: open-spiel's crazy_eights under random play, and its C++ loop's speed;
* ``durakgame_peer``: the PyPI ``durakgame``'s Durak (its game replaying simkit's, its random bots'
  outcomes).

open-spiel (``pyspiel``) and durakgame are optional dependencies (the ``test`` extra): these modules import it
inside the functions that need it, so importing them never requires it.
"""
