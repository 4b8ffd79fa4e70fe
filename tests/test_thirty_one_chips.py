"""Issue 30: the chips of a whole Thirty-one game (lines 19, 53, 55: a coin into the pot for each
life lost but the last, the pot to the last one left), checked against the lives and wins the
game already reports, and a constructed count."""
import numpy as np
import pytest

import simkit


@pytest.mark.parametrize("game", ["thirty_one(unit=game,players=3)",
                                  "thirty_one(unit=game,players=4,lives=2)"])
def test_chips_from_lives_and_win(game):
    res = simkit.run(game, n=600, seed=2, rows=True, progress=False)
    rows = res.rows
    K = 3 if "players=3" in game else 4
    L = 4 if "lives=2" not in game else 2
    paid = [np.minimum(L - rows[f"p{k}_lives"], L - 1) for k in range(1, K + 1)]
    pot = sum(paid)
    assert np.array_equal(rows["pot"], pot)
    done = rows["unfinished"] == 0
    for k in range(1, K + 1):
        want = -paid[k - 1] + rows[f"p{k}_win"] * pot
        assert np.array_equal(rows[f"p{k}_chips"], want)
    total = sum(rows[f"p{k}_chips"] for k in range(1, K + 1))
    assert (total[done] == 0).all()
    # every finished game: the pot holds lives - 1 coins from each of the K - 1 players out
    assert (pot[done] >= (K - 1) * (L - 1)).all() and (pot[done] <= K * (L - 1)).all()
