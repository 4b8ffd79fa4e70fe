"""The notebooks run top to bottom through the package's own code paths, at a small size.

The notebooks are found, not listed: every ``notebooks/make_NAME.py`` writes ``NAME.ipynb`` and
says in its ``CHECK`` literal (read here without running the script) the size to run it at, the
phrases its output must print and the least number of images, so adding a game's notebook
touches only ``notebooks/``."""
from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"


def _check(script: pathlib.Path) -> dict | None:
    """The ``CHECK = {...}`` literal of a make script (None when it has none)."""
    for node in ast.parse(script.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["CHECK"]:
            return ast.literal_eval(node.value)
    return None


SCRIPTS = {p.stem[len("make_"):]: p for p in sorted(NOTEBOOKS.glob("make_*.py"))}
CHECKS = {name: _check(p) for name, p in SCRIPTS.items()}


def test_every_notebook_has_its_script_and_its_check():
    stored = {p.stem for p in NOTEBOOKS.glob("*.ipynb")}
    assert stored == set(SCRIPTS), (sorted(stored - set(SCRIPTS)), sorted(set(SCRIPTS) - stored))
    for name, check in CHECKS.items():
        assert check is not None, f"notebooks/make_{name}.py has no CHECK literal"
        assert set(check) == {"size", "phrases", "images"} and check["phrases"], (name, check)
        float(check["size"])


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_notebook_is_generated_from_its_script(tmp_path, name):
    """notebooks/NAME.ipynb is written by make_NAME.py; they must not drift."""
    nbformat = pytest.importorskip("nbformat")
    script = SCRIPTS[name]
    copy = tmp_path / script.name
    copy.write_text(script.read_text())
    subprocess.run([sys.executable, str(copy)], check=True)
    fresh = nbformat.read(tmp_path / f"{name}.ipynb", as_version=4)
    stored = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    assert [c.source for c in fresh.cells] == [c.source for c in stored.cells]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_notebook_runs(monkeypatch, name):
    size, phrases, images = (CHECKS[name][k] for k in ("size", "phrases", "images"))
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    monkeypatch.setenv("SIMKIT_NB_N", size)
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    nbclient.NotebookClient(nb, timeout=900, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    text = "".join(o.get("text", "") for o in outputs)
    for phrase in phrases:
        assert phrase in text
    assert sum("image/png" in o.get("data", {}) for o in outputs) >= images


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_notebook_figures_keep_titles_and_label_bars(name):
    """Issue 29: a notebook drawing with pyplot lays its figures out with constrained layout (so
    titles and labels are inside the picture, not clipped), and no bar chart hides its ticks."""
    text = SCRIPTS[name].read_text()
    if "matplotlib.pyplot" not in text:
        return   # its figures are simkit's own (simkit.plots), which are laid out and sized
    assert '"figure.constrained_layout.use": True' in text, name
    assert "tight_layout" not in text and "set_xticks([])" not in text, name
