"""The README's Python snippets run (at small n), and ``Result.paired`` finds grid points by
their values (issue 17)."""
from __future__ import annotations

import os
import re

import pytest

import simkit
from simkit.errors import SimkitError

README = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "README.md")


def python_blocks() -> list[str]:
    with open(README, encoding="utf-8") as f:
        text = f.read()
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_readme_python_snippets_run(tmp_path, monkeypatch):
    import matplotlib
    matplotlib.use("Agg")
    blocks = python_blocks()
    assert blocks, "the README has no python snippet"
    monkeypatch.chdir(tmp_path)
    for code in blocks:
        small = re.sub(r"\bn=[0-9_]+", "n=100", code)  # the README's sizes are for real runs
        assert small != code or "n=" not in code
        exec(compile(small, "README.md", "exec"), {"__name__": "readme"})  # noqa: S102


@pytest.fixture(scope="module")
def res():
    return simkit.sweep("ochko", grid={"banker_stop": range(15, 18), "p1.t": [15, 16]}, n=20_000,
                        seed=3, progress=False)


def test_paired_by_grid_values_positions_and_keywords(res):
    i = res.config_index({"banker_stop": 15, "p1.t": 16})
    j = res.config_index({"banker_stop": 16, "p1.t": 16})
    assert res.points[i] == {"banker_stop": 15, "p1.t": 16}
    by_pos = res.paired("bank_result", i, j)
    assert res.paired("bank_result", {"banker_stop": 15, "p1.t": 16},
                      {"banker_stop": 16, "p1.t": 16}) == by_pos
    assert res.paired("bank_result", {"p1.t": 16}, {"p1.t": 16}, banker_stop=(15, 16)) == by_pos
    assert res.paired("bank_result", {"banker_stop": "15", "p1.t": 16.0},
                      {"banker_stop": 16, "p1.t": "16"}) == by_pos
    assert set(by_pos) >= {"mean", "se"}
    one = simkit.sweep("ochko", grid={"banker_stop": [15, 16]}, n=20_000, seed=3, progress=False)
    assert one.paired("p1_result", banker_stop=(15, 16)) == one.paired("p1_result", 0, 1)


@pytest.mark.parametrize("args,kw,pattern", [
    (({"banker_stop": 14, "p1.t": 16}, 0), {}, r"no configuration with banker_stop=14: the grid has banker_stop in 15, 16, 17"),
    (({"banker_stop": 15}, 0), {}, r"matches 2 configurations: also give p1\.t"),
    (({"deck": 52}, 0), {}, r"'deck' is not a grid column of this result: its grid columns are banker_stop, p1\.t"),
    ((15, 16), {}, r"no configuration 15: this result has 6 \(positions 0\.\.5"),
    (("15", 0), {}, r"cannot find configuration '15'"),
    ((), {}, r"paired needs two configurations"),
    (({"p1.t": 16}, {"p1.t": 16}), {"banker_stop": 15}, r"banker_stop= needs two values"),
])
def test_paired_refuses_what_it_cannot_find(res, args, kw, pattern):
    with pytest.raises(SimkitError, match=pattern):
        res.paired("bank_result", *args, **kw)


def _readme_options() -> dict[str, set[str]]:
    with open(README, encoding="utf-8") as f:
        text = f.read()
    rows = re.findall(r"^\| `(\w+)[^`]*` \| (.*) \|$", text, re.M)
    table = {cmd: set(re.findall(r"`(-[-\w]+)`", opts)) for cmd, opts in rows}
    if "sweep" in table:  # "--grid and everything run takes"
        table["sweep"] |= table.get("run", set())
    return table


def test_readme_says_exactly_which_command_takes_what():
    import click

    from simkit.cli import cli
    table = _readme_options()
    for name, cmd in cli.commands.items():
        # each option by its short name where it has one (-o, -n, -r), else its long one
        have = {min(o.opts, key=lambda x: (x.startswith("--"), len(x)))
                for o in cmd.params if isinstance(o, click.Option)}
        assert table.get(name) == have, (name, table.get(name), have)


def test_readme_names_every_notebook_every_game_and_the_notebooks_extra():
    import pathlib

    from simkit.games import GAMES
    text = open(README, encoding="utf-8").read()
    root = pathlib.Path(README).parent
    for nb in sorted((root / "notebooks").glob("*.ipynb")):
        assert f"`notebooks/{nb.name}`" in text, nb.name
    for game in GAMES:
        assert re.search(rf"simkit \w+ '?{game}\b", text), f"no command line of {game} in the README"
    assert '".[notebooks]"' in text
