"""Issue 30: passes per seat in Fan-Tan (``pK_passes``) and per deal/game in Crazy Eights
(``passes``), checked against the move log's pass entries (which the counters do not read)."""
import numpy as np

from simkit.core import play
from simkit.games import parse_game
from simkit.games.crazy_eights import engine as ce
from simkit.games.fan_tan import engine as ft


def test_fan_tan_passes_per_seat_are_the_logged_passes():
    spec, r = parse_game("fan_tan(players=4)")
    for strats in (None, ["p1=random", "p2=random", "p3=random", "p4=random"]):
        rows, log = play.play_logged(spec, r, strats, n=400, seed=11)
        turns = log[:, 54:]
        whole = (turns[:, -1] == -1)            # the log held every turn
        assert whole.mean() > 0.95
        for k in range(4):
            logged = (turns == (ft.EV_PASS << 20 | k << 16)).sum(axis=1)   # a pass by seat k
            assert np.array_equal(rows[f"p{k + 1}_passes"][whole], logged[whole])
        seats = sum(rows[f"p{k + 1}_passes"] for k in range(4))
        assert np.array_equal(seats, rows["passes"])
        assert rows["passes"].sum() > 0


def test_crazy_eights_passes_are_the_logged_passes():
    for game in ("crazy_eights", "crazy_eights(players=3,may_pass=true)"):
        spec, r = parse_game(game)
        rows, log = play.play_logged(spec, r, None, n=400, seed=4)
        start = 1 + r.players * r.cards_each
        ev = log[:, start:]
        whole = log[:, 0] < ev.shape[1]
        assert whole.mean() > 0.95
        logged = ((ev >= 0) & ((ev >> 20) == ce.EV_PASS)).sum(axis=1)
        assert np.array_equal(rows["passes"][whole], logged[whole])
        assert rows["passes"].sum() > 0
