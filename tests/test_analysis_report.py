"""The strategy analyses in ``simkit report`` (issue 11): each kind saved with ``Analysis.save``
makes a section with its headline, its figures (simkit.plots.analysis) and its tables; every
figure carries the analysis's label and says its bars are 95% intervals."""
from __future__ import annotations

import dataclasses
import html

import pytest

import simkit
from simkit.cli import main
from simkit.errors import SimkitError
from simkit.plots import analysis as aplots
from simkit.report import build

IMG = '<img src="data:image/png;base64,'


@pytest.fixture(scope="module")
def analyses() -> dict:
    q = dict(progress=False)
    return {
        "compare": simkit.compare("ochko", "stand_at(t=15)", "stand_at(t=17)", n=8192, seed=3, **q),
        "tournament": simkit.tournament("ochko", ["stand_at(t=14)", "stand_at(t=16)",
                                                  "stand_at(t=18)"], n=8192, seed=4, **q),
        "best": simkit.best("ochko", ["p1.t=12..18"], n=2 ** 17, seed=5, **q),
        "solve": simkit.solve("ochko", "banker_stop=15..17", "p1.t=14..16", n=8192, seed=6, **q),
        "odds": simkit.odds("gin", ["p1.knock=6..10:2"], strategies=["p2=simple"], n=200, seed=7,
                            **q),
    }


#: figures per kind in the report, and the plot functions that draw them
FIGS = {"compare": ["differences"], "tournament": ["ratings", "cross_table"], "best": ["racing"],
        "solve": ["matrix", "best_replies"], "odds": ["odds"]}


def texts(fig) -> str:
    """Every title, caption, legend and axes text of ``fig``, wrapped lines joined by `` | ``."""
    out = [fig.get_suptitle(), fig.get_supxlabel()] + [t.get_text() for t in fig.texts]
    out += [t.get_text() for leg in fig.legends for t in leg.get_texts()]
    for ax in fig.axes:
        out += [ax.get_title(loc=loc) for loc in ("left", "center", "right")]
        out += [ax.get_xlabel(), ax.get_ylabel()]
        leg = ax.get_legend()
        if leg is not None:
            out += [t.get_text() for t in leg.get_texts()] + [leg.get_title().get_text()]
    return " ".join(out).replace("\n", " | ")


@pytest.mark.parametrize("kind", list(FIGS))
def test_report_of_saved_analysis(analyses, kind, tmp_path):
    an = analyses[kind]
    assert an.kind == kind and an.complete
    f = tmp_path / f"{kind}.parquet"
    an.save(str(f))
    out = tmp_path / "r.html"
    assert main(["report", str(f), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    for line in an.summary:                       # the headline, first thing in the section
        assert html.escape(line, quote=False) in page
    sec = page[page.index('<section id="s1-1"'):]
    assert sec.index("class=headline") < sec.index(IMG) < sec.index("Main table")
    assert page.count(IMG) >= len(FIGS[kind])
    assert html.escape(an.label) in page
    seed = an.info["seed"]
    assert f"seed {seed}" in an.label and f"seed {seed}" in page
    assert "n=" in an.label and an.label.split(" | ")[-2] in page  # "n=8,192 per configuration"
    assert "Partial analysis" not in page
    secondary = {"compare": "Sequential looks", "tournament": "Cross table", "best": "Sequential looks",
                 "solve": "Best replies"}.get(kind)
    if secondary:
        assert secondary in page
    assert "No " + FIGS[kind][0] not in page       # every figure was drawn


@pytest.mark.parametrize("kind", list(FIGS))
def test_plot_functions_label_and_bars(analyses, kind):
    an = analyses[kind]
    for name in FIGS[kind]:
        fig = getattr(aplots, name)(an)
        text = texts(fig)
        assert an.label in text, (name, text)
        assert "95%" in text, (name, text)
        # the same figure from the saved form (to_json) as the report reads it
        fig2 = getattr(aplots, name)(an.to_json())
        assert an.label in texts(fig2)


def test_exact_solve_draws():
    ex = simkit.solve("ochko", "banker_stop=15..17", "p1.t=14..16", exact=True)
    for name in FIGS["solve"]:
        text = texts(getattr(aplots, name)(ex))
        assert ex.label in text and "exact" in text


def test_plots_refuse_the_wrong_kind(analyses):
    with pytest.raises(SimkitError, match="tournament"):
        aplots.cross_table(analyses["compare"])
    with pytest.raises(SimkitError, match="strategy analysis"):
        aplots.matrix(object())


def test_partial_analysis_is_marked(analyses, tmp_path):
    an = dataclasses.replace(analyses["best"], complete=False)
    f = tmp_path / "partial.parquet"
    an.save(str(f))
    out = tmp_path / "p.html"
    assert main(["report", str(f), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "Partial analysis" in page and "(partial)" in page
    assert "partial" in texts(aplots.racing(an))


@pytest.mark.slow
def test_build_takes_analysis_objects(analyses, tmp_path):
    out = tmp_path / "all.html"
    build([analyses["solve"], analyses["odds"]], str(out))
    page = out.read_text(encoding="utf-8")
    assert page.count(IMG) >= 3
    for k in ("solve", "odds"):
        assert html.escape(analyses[k].label) in page
        assert html.escape(analyses[k].summary[0], quote=False) in page


def _smallest_text(fig) -> float:
    """The smallest font size of any visible text once the figure is drawn (as a page shows it)."""
    from matplotlib.text import Text
    to_png = __import__("simkit.plots.charts", fromlist=["to_png"]).to_png
    to_png(fig)
    return min(t.get_fontsize() for t in fig.findobj(Text) if t.get_visible() and t.get_text())


@pytest.mark.parametrize("kind", list(FIGS))
def test_every_text_is_at_least_9_points(analyses, kind):
    """Issue 29: small multiples and annotations readable at the default size (at least 9 pt)."""
    for name in FIGS[kind]:
        assert _smallest_text(getattr(aplots, name)(analyses[kind])) >= 9, name


def test_run_and_sweep_figures_are_at_least_9_points():
    from simkit.report.figures import figures
    sw = simkit.sweep("gin", grid={"p1.knock": [0, 5, 10]}, n=400, seed=1, progress=False)
    run = simkit.run("hearts", n=400, seed=1, progress=False)
    figs = figures(sw) + figures(run)
    assert len(figs) >= 3
    for title, fig in figs:
        assert _smallest_text(fig) >= 9, title
