"""The notebooks run top to bottom through the package's own code paths, at a small size."""
from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", ["ochko_banker", "gin_knock", "klaberjass_bidding",
                                  "strategy_analysis", "shedding", "durak_first_move",
                                  "stovkahra", "thirty_one_knock", "piquet", "handjass",
                                  "thirty_one_bank", "oklahoma"])
def test_notebook_is_generated_from_its_script(tmp_path, name):
    """notebooks/NAME.ipynb is written by make_NAME.py; they must not drift."""
    nbformat = pytest.importorskip("nbformat")
    script = ROOT / "notebooks" / f"make_{name}.py"
    copy = tmp_path / script.name
    copy.write_text(script.read_text())
    subprocess.run([sys.executable, str(copy)], check=True)
    fresh = nbformat.read(tmp_path / f"{name}.ipynb", as_version=4)
    stored = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    assert [c.source for c in fresh.cells] == [c.source for c in stored.cells]


@pytest.mark.slow
@pytest.mark.parametrize("name,size,phrases,images", [
    ("ochko_banker", "2e4", ["the bank's best threshold", "Per session"], 5),
    ("gin_knock", "4e3", ["the best threshold is knock <=", "best replies in the matrix"], 4),
    ("klaberjass_bidding", "4e3", ["the best round-one threshold is t1 =",
                                   "the best round-two threshold is t2 =", "the best (t1, t2) pair is",
                                   "the first word wins the short game with probability",
                                   "bait rate by strength:", "equal players: p1, with the first word",
                                   "in a long game to 501 the best t1 =",
                                   "the break-even open-hand bonus is"], 8),
    ("strategy_analysis", "2e4", ["the bank's minimax stop: simulation",
                                  "the best knock threshold against simple is knock <=",
                                  "match odds to 100 by knock threshold:", "tournament ratings:",
                                  "mixed equilibrium"], 9),
    ("shedding", "2e3", ["first player's edge in crazy eights", "best baseline parameters",
                         "two players, exact loser shares", "the best hint against random is",
                         "mean draws per game by players"], 1),
    ("durak_first_move", "4e3", ["short game: the lowest-trump holder wins",
                                 "the habit that matters most:",
                                 "the exact endgame changes p1's result in"], 0),
    ("stovkahra", "4e3", ["seat edge: the eldest side scores", "the seven bonuses are worth",
                          "a game pays two brčka in", "unshuffled dealing changes"], 1),
    ("thirty_one_knock", "4e3", ["knock threshold by seat", "knock at once:", "by lives left:",
                                 "survival by seat:", "refusing the first three:"], 3),
    ("piquet", "4e3", ["Elder wins", "bonus rates per deal:", "exchanging four instead of five",
                       "the loser is rubiconed in", "inside parties Elder wins",
                       "the exact last 6 tricks are worth"], 0),
    ("handjass", "4e3", ["the loser's seat with 4 players", "best play threshold for p1",
                         "the Forehand's potato rate", "a game lasts", "playing blind is worth"], 4),
    ("oklahoma", "2e3", ["pile take:", "points a hand against the baseline", "the baseline is left with the Q♠"], 2),
    ("thirty_one_bank", "2e4", ["the bank's best threshold against the punter's best reply",
                                "counting (count q=0.46) gains the punter", "line 97:"], 1),
])
def test_notebook_runs(monkeypatch, name, size, phrases, images):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    monkeypatch.setenv("SIMKIT_NB_N", size)
    nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    nbclient.NotebookClient(nb, timeout=900, kernel_name="python3",
                            resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    text = "".join(o.get("text", "") for o in outputs)
    for phrase in phrases:
        assert phrase in text
    assert sum("image/png" in o.get("data", {}) for o in outputs) >= images
