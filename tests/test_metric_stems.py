"""Issue 30: one rule for ``-m`` everywhere.  A seat metric's stem (``potato``) names that
metric in every seat in ``run``/``sweep`` as it does in ``compare``; a full name names itself."""
import io

import pandas as pd
import pytest

from simkit.analysis.common import expand_metrics
from simkit.cli import main
from simkit.errors import SimkitError
from simkit.games import parse_game

SEATS = ["p1_potato", "p2_potato", "p3_potato", "p4_potato"]


def test_stem_expands_to_every_seat_and_full_names_stay():
    spec, r = parse_game("handjass")
    assert expand_metrics(spec, [r], ["potato"]) == SEATS
    assert expand_metrics(spec, [r], ["p2_potato", "potato"])[0] == "p2_potato"
    with pytest.raises(SimkitError, match="unknown metric 'spud'"):
        expand_metrics(spec, [r], ["spud"])


def test_run_accepts_the_stem_compare_accepts(capsys):
    assert main(["run", "handjass", "-n", "256", "-m", "potato", "--format", "csv"]) == 0
    got = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert sorted(got["metric"]) == SEATS
    assert main(["run", "handjass", "-n", "256", "-m", "p3_potato", "--format", "csv"]) == 0
    assert list(pd.read_csv(io.StringIO(capsys.readouterr().out))["metric"]) == ["p3_potato"]


@pytest.mark.parametrize("game, old, new", [
    ("ochko", "p1_ev", "p1_result"), ("ochko", "bank_ev", "bank_result"), ("ochko", "ev", "result"),
    ("hearts", "p3_points_per_hand", "p3_points"), ("hearts", "points_per_hand", "points")])
def test_one_name_across_games_and_old_names_say_the_new_one(game, old, new):
    """Issue 29: the bank's and a player's net in Очко are ``bank_result``/``pK_result`` as in
    «31» with a bank and the Очко session; points per hand are ``pK_points`` in Hearts as in
    every other game.  The old names are refused with today's name."""
    spec, r = parse_game(game)
    names = {m.name for m in spec.metrics(r)}
    assert new in names or f"p1_{new}" in names
    assert not {m for m in names if m.endswith(("_ev", "_per_hand"))}
    with pytest.raises(SimkitError, match=f"unknown metric '{old}'.*now called '{new}'"):
        expand_metrics(spec, [r], [old])
    for g in ("thirty_one_bank", "ochko_session"):
        bank = parse_game(g)
        assert "bank_result" in {m.name for m in bank[0].metrics(bank[1])}
