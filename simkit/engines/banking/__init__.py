"""Banking: a banker against players, each on his own stake, settled by a payout table.

:mod:`.round` is the banker's round of Очко (deal, the players' draws by their policies, the
banker's draws to his stop, the settlement of each player against him by outcome category) and
:mod:`.rules` its options.  The game ``ochko`` plays one round a deal; ``ochko_session`` plays
rounds against one bank, each player's result scaled by his stake
(``simkit/games/ochko_session``).
"""
