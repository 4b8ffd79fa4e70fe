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
