"""The notebooks run top to bottom through the package's own code paths, at a small size."""
from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", ["ochko_banker", "gin_knock"])
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
def test_ochko_banker_notebook_runs(monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    monkeypatch.setenv("SIMKIT_NB_N", "2e4")
    nb = nbformat.read(ROOT / "notebooks" / "ochko_banker.ipynb", as_version=4)
    nbclient.NotebookClient(nb, timeout=900, kernel_name="python3",
                            resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                   for o in c.get("outputs", []))
    assert "the bank's best threshold" in text and "Per session" in text
    images = sum("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code"
                 for o in c.get("outputs", []))
    assert images >= 5


@pytest.mark.slow
def test_gin_knock_notebook_runs(monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    monkeypatch.setenv("SIMKIT_NB_N", "4e3")
    nb = nbformat.read(ROOT / "notebooks" / "gin_knock.ipynb", as_version=4)
    nbclient.NotebookClient(nb, timeout=900, kernel_name="python3",
                            resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                   for o in c.get("outputs", []))
    assert "the best threshold is knock <=" in text and "best replies in the matrix" in text
    images = sum("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code"
                 for o in c.get("outputs", []))
    assert images >= 4
