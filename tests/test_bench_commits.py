"""scripts/bench_commits.py, the check of a speed target against the code of an earlier commit:
it times the working tree and ``git archive``'s copy of HEAD side by side, and the two, being
the same code, deal the same cards a deal."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_bench_commits_times_head_beside_the_tree(tmp_path):
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"],
                      capture_output=True).returncode:
        pytest.skip("not a git checkout")
    out = tmp_path / "b.json"
    res = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_commits.py"), "ochko",
                          "ochko@HEAD", "-n", "20000", "--reps", "2", "--json", str(out)],
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]
    specs = json.loads(out.read_text())["specs"]
    a, b = specs["ochko"], specs["ochko@HEAD"]
    assert len(a["runs"]) == len(b["runs"]) == 2
    assert a["cards_per_deal"] == b["cards_per_deal"] and 4.0 < a["cards_per_deal"] < 7.0
    assert all(0.0 < r["fraction"] < 1.0 for r in a["runs"] + b["runs"])
    assert a["ratio_to_ochko"] == 1.0
    assert "fraction" in res.stdout and "ochko@HEAD" in res.stdout


def test_bench_commits_refuses_a_missing_revision():
    res = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_commits.py"),
                          "ochko@no-such-revision", "-n", "1000", "--reps", "1"],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and "no-such-revision" in res.stderr
    assert "Traceback" not in res.stderr
