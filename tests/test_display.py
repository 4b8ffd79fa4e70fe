"""How results show in Jupyter and at a prompt, the notebook progress bar and the first-run
compiling notice (issue 29)."""
from __future__ import annotations

import html.parser
import sys
import types

import pytest

import simkit
from simkit.analysis import display
from simkit.analysis import simulate as S
from simkit.cli import main
from simkit.core import runner as R


class _Cells(html.parser.HTMLParser):
    """The text of every table cell of an HTML page, by row."""

    def __init__(self):
        super().__init__()
        self.rows, self._cell = [], None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(self._cell.strip())
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data


def cells(page: str) -> list[list[str]]:
    p = _Cells()
    p.feed(page)
    return p.rows


@pytest.fixture(scope="module")
def one():
    return simkit.run("old_maid(players=3)", n=3_000, seed=5, progress=False)


def test_a_run_shows_its_rules_strategies_n_and_every_metric(one):
    t = one.table()
    page = one._repr_html_()
    rows = cells(page)
    assert rows[0] == ["metric", "mean", "se", "ci_low", "ci_high", "unit"]
    shown = {r[0]: float(r[1]) for r in rows[1:]}
    assert set(shown) == set(t["metric"])
    for m, mean in zip(t["metric"], t["mean"]):   # 4 significant digits
        assert shown[m] == pytest.approx(mean, rel=1e-3)
    for text in (page, repr(one)):
        assert "old_maid(players=3)" in text and "p1=uniform" in text
        assert "n = 3,000 deals" in text and "seed 5" in text and "finished" in text


def test_a_sweep_shows_one_row_per_configuration_and_cuts_long_tables(monkeypatch):
    res = simkit.sweep("old_maid", {"players": [2, 3, 4]}, n=600, seed=1, progress=False)
    rows = cells(res._repr_html_())
    assert rows[0][0] == "players" and [r[0] for r in rows[1:]] == ["2", "3", "4"]
    wide = res.wide()
    col = rows[0].index("p1_lose")
    assert [float(r[col]) for r in rows[1:]] == pytest.approx(list(wide["p1_lose"]), rel=1e-3)
    monkeypatch.setattr(display, "MAX_ROWS", 2)
    assert len(cells(res._repr_html_())) == 3
    assert "1 more rows in .table()" in res._repr_html_() and "1 more rows" in repr(res)


def test_an_unfinished_run_says_so(one):
    import dataclasses
    part = dataclasses.replace(one, complete=False)
    assert "NOT finished" in repr(part) and "NOT finished" in part._repr_html_()


def test_an_analysis_shows_its_headline_and_table():
    an = simkit.compare("gin", "simple", "random", n=1_000, seed=1, progress=False)
    page, text = an._repr_html_(), repr(an)
    for line in an.summary:
        assert str(line) in text
        assert html.escape(str(line)) in page or str(line) in page
    rows = cells(page)
    assert "metric" in rows[0] and "mean" in rows[0]
    assert "seed" not in rows[0]            # the label says it once
    assert {r[rows[0].index("metric")] for r in rows[1:]} == set(an.table()["metric"])


# --- the progress bar and the compiling notice ---------------------------------------------

def _fake_kernel(monkeypatch):
    shell = types.SimpleNamespace(config={"IPKernelApp": {}})
    monkeypatch.setitem(sys.modules, "IPython",
                        types.SimpleNamespace(get_ipython=lambda: shell))


def test_a_notebook_gets_a_bar_and_a_pipe_does_not(monkeypatch):
    monkeypatch.delenv("SIMKIT_NO_PROGRESS", raising=False)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    assert not R.in_notebook() and not R.show_progress()
    _fake_kernel(monkeypatch)
    assert R.in_notebook() and R.show_progress()
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: object() if name == "ipywidgets" else real(name, *a))
    import tqdm.notebook
    assert R._bar_class() is tqdm.notebook.tqdm
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "ipywidgets" else real(name, *a))
    import tqdm.std
    assert R._bar_class() is tqdm.std.tqdm        # no widgets: the text bar, no warning
    monkeypatch.setenv("SIMKIT_NO_PROGRESS", "1")
    assert not R.show_progress()


def test_the_first_run_says_it_compiles_also_into_a_pipe(monkeypatch, capsys):
    monkeypatch.delenv("SIMKIT_NO_PROGRESS", raising=False)
    monkeypatch.setattr(S, "kernel_is_cold", lambda spec: True)
    monkeypatch.setitem(S.COMPILE_SECONDS, "old_maid", 61.0)
    rc = main(["run", "old_maid", "-n", "200", "--format", "json"])   # stdout is captured: a pipe
    err = capsys.readouterr().err
    assert rc == 0
    assert "compiling old_maid's kernels, first run only (about 1 min;" in err
    monkeypatch.setitem(S.COMPILE_SECONDS, "old_maid", 23.0)
    assert S.say_compiling(simkit.get_game("old_maid"))
    assert "(about 25 s;" in capsys.readouterr().err
    assert not S.say_compiling(simkit.get_game("old_maid"), False)
    monkeypatch.setenv("SIMKIT_NO_PROGRESS", "1")
    assert not S.say_compiling(simkit.get_game("old_maid"))
    assert capsys.readouterr().err == ""


def test_an_analysis_says_it_compiles(monkeypatch, capsys):
    monkeypatch.delenv("SIMKIT_NO_PROGRESS", raising=False)
    monkeypatch.setattr(S, "kernel_is_cold", lambda spec: True)
    simkit.compare("gin", "simple", "random", n=200, seed=1, progress=None)
    assert "compiling gin's kernels" in capsys.readouterr().err


# --- simkit plot FILE -o fig ---------------------------------------------------------------

def _cli(capsys, *argv):
    rc = main(list(argv))
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("plots")
    sweep, rows = str(d / "sweep.parquet"), str(d / "rows.parquet")
    assert main(["sweep", "old_maid", "--grid", "players=2..4", "-n", "1500", "-o", sweep,
                 "--rows", rows]) == 0
    cmp = str(d / "cmp.parquet")
    assert main(["compare", "gin", "simple", "random", "-n", "600", "-o", cmp]) == 0
    return dict(sweep=sweep, rows=rows, compare=cmp, dir=d)


def test_plot_writes_the_reports_figures(files, capsys):
    listed = {}
    for kind in ("sweep", "rows", "compare"):
        rc, out, err = _cli(capsys, "plot", files[kind], "--list")
        assert rc == 0, err
        listed[kind] = [line.split("  ", 1)[1] for line in out.splitlines()]
    assert listed["sweep"] == ["4 metrics by players"]     # the objective p1_lose and 3 more
    assert listed["rows"] and all(t.startswith("histogram of") for t in listed["rows"])
    assert listed["compare"]
    magic = {".png": b"\x89PNG", ".svg": b"<?xml", ".pdf": b"%PDF"}
    for kind, k, ext in [("sweep", 1, ".png"), ("sweep", 1, ".svg"), ("sweep", 1, ".pdf"),
                         ("rows", 2, ".png"), ("compare", 1, ".png")]:
        target = files["dir"] / f"{kind}{k}{ext}"
        rc, out, err = _cli(capsys, "plot", files[kind], "-o", str(target), "--figure", str(k))
        assert rc == 0, err
        assert out.strip() == f"wrote {target} ({listed[kind][k - 1]})"
        assert target.read_bytes().startswith(magic[ext])


@pytest.mark.parametrize("argv, says", [
    (["-o", "x.gif"], "ending in .png, .svg, .pdf"),
    (["-o", "x.png", "--figure", "99"], "--figure 99: this file has"),
    (["-o", "x.png", "--figure", "0"], "--figure 0"),
    ([], "plot needs -o FILE"),
    (["-o", "/no/such/folder/x.png"], "cannot write"),
])
def test_plot_refuses_in_one_line(files, capsys, argv, says):
    rc, out, err = _cli(capsys, "plot", files["sweep"], *argv)
    assert rc == 2 and says in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_plot_of_a_missing_or_corrupt_file(files, capsys, tmp_path):
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"not parquet at all")
    for path in (str(tmp_path / "none.parquet"), str(bad)):
        rc, out, err = _cli(capsys, "plot", path, "-o", str(tmp_path / "f.png"))
        assert rc == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "f.png").exists()


@pytest.mark.slow
def test_a_shared_report_names_files_without_local_paths(files, tmp_path):
    from simkit.report import build
    page = open(build([files["sweep"], files["compare"], files["rows"]],
                      str(tmp_path / "r.html"))).read()
    assert str(files["dir"]) not in page and "sweep.parquet" in page
