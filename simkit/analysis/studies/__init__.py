"""Studies of one game's strategy question, built on the analyses (:func:`simkit.sweep`,
:mod:`simkit.analysis.compare`), so they sit above the games: gin's knock threshold
(:mod:`.gin_knock`, ``notebooks/gin_knock.ipynb``) and Klaberjass's bidding
(:mod:`.klaberjass_bidding`, ``notebooks/klaberjass_bidding.ipynb``).  A study that needs only
the core (Hearts against random, ``simkit/games/hearts/study.py``) stays with its game."""
