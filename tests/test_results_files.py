"""Results files say the truth (issue 17): ``complete`` only after the last chunk, atomic and
flushed checkpoints, reports that mark partial files, no silent restart over an unfinished file,
honest advice for CSV, policy files checked by content on resume, and output paths checked
before any work."""
from __future__ import annotations

import os
import shutil

import pandas as pd
import pytest

import simkit
from simkit.report import build
from simkit.core import runner as R
from simkit.core import store
from simkit.errors import SimkitError
from tests.test_cli import assert_one_error_line, cli

N = 20 * 4096


def interrupt_after(monkeypatch, k):
    orig = R.Backend.map

    def map_(self, units, fn=R.execute_unit):
        for j, item in enumerate(orig(self, units, fn)):
            if j == k:
                raise KeyboardInterrupt
            yield item
    monkeypatch.setattr(R.Backend, "map", map_)


def partial_file(tmp_path, monkeypatch, name="p.parquet", **kw):
    out = str(tmp_path / name)
    interrupt_after(monkeypatch, 3)
    with pytest.warns(UserWarning, match="interrupted"):
        simkit.run("ochko", n=N, seed=1, out=out, **kw)
    monkeypatch.undo()
    return out


# --- complete only when the last chunk is merged --------------------------------------------

def test_every_checkpoint_before_the_last_chunk_says_incomplete(tmp_path, monkeypatch):
    """What a SIGKILL at any instant would leave: each checkpoint's ``complete`` flag."""
    seen = []
    orig = store.write_results

    def spy(path, df, meta, aggs, request):
        orig(path, df, meta, aggs, request)
        seen.append((meta["complete"], sum(len(d) for d in store.read_chunks(path))))
    monkeypatch.setattr(store, "write_results", spy)
    throttle = R.Throttle.__init__
    monkeypatch.setattr(R.Throttle, "__init__", lambda self, fn, seconds=None: throttle(self, fn, 0))
    out = str(tmp_path / "r.parquet")
    res = simkit.run("ochko", n=N, seed=1, out=out)
    chunks = len(R.plan(N))
    assert res.complete and len(seen) >= chunks
    assert all(c is False for c, k in seen[:-1]) and seen[-1] == (True, chunks)
    assert store.read_table(out)[1]["complete"] is True


def test_atomic_write_flushes_before_the_rename(tmp_path, monkeypatch):
    events = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (events.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "replace", lambda a, b: (events.append("replace"), real_replace(a, b))[1])
    store.write_table(str(tmp_path / "t.parquet"), pd.DataFrame({"game": ["g"], "metric": ["m"],
                                                                 "mean": [1.0]}), {"x": 1})
    assert events[:2] == ["fsync", "replace"]  # the new file is on disk before it replaces the old


def test_report_marks_a_partial_file(tmp_path, monkeypatch):
    out = partial_file(tmp_path, monkeypatch)
    page = tmp_path / "r.html"
    build([out], str(page))
    text = page.read_text()
    assert "(partial: the run did not finish)" in text and "complete: false" in text
    assert "--resume" in text
    full = str(tmp_path / "full.parquet")
    simkit.run("ochko", n=N, seed=1, out=full)
    build([full], str(page))
    assert "did not finish" not in page.read_text() and "complete: false" not in page.read_text()


# --- no silent restart over an unfinished file ----------------------------------------------

def test_rerun_without_resume_refuses_an_unfinished_file(capsys, tmp_path, monkeypatch):
    out = partial_file(tmp_path, monkeypatch)
    before = open(out, "rb").read()
    rc, stdout, err = cli(capsys, "run", "ochko", "-n", str(N), "--seed", "1", "-o", out)
    assert_one_error_line(rc, stdout, err, r"holds an unfinished run \(12,288 deals done\): "
                                           r"continue it with --resume, or start again with --overwrite")
    assert open(out, "rb").read() == before
    rc, stdout, err = cli(capsys, "run", "ochko", "-n", str(N), "-o", out, "--resume", "--overwrite")
    assert_one_error_line(rc, stdout, err, r"contradict")
    # --overwrite starts again; a complete file is replaced by a rerun, as before
    rc, stdout, err = cli(capsys, "run", "ochko", "-n", "8192", "--seed", "2", "-o", out,
                          "--overwrite")
    assert rc == 0, err
    df, meta = store.read_table(out)
    assert meta["complete"] is True and (df["n"] == 8192).all()
    rc, stdout, err = cli(capsys, "run", "ochko", "-n", "4096", "--seed", "3", "-o", out)
    assert rc == 0, err
    assert (store.read_table(out)[0]["n"] == 4096).all()


def test_partial_csv_does_not_advise_resume(tmp_path, monkeypatch):
    out = str(tmp_path / "p.csv")
    interrupt_after(monkeypatch, 3)
    with pytest.warns(UserWarning) as w:
        res = simkit.run("ochko", n=N, seed=1, out=out)
    assert not res.complete
    msg = str(w[0].message)
    assert "--resume" not in msg and "cannot be resumed" in msg and ".parquet" in msg
    with pytest.warns(UserWarning) as w:  # and Parquet still says how to continue
        interrupt_after(monkeypatch, 3)
        simkit.run("ochko", n=N, seed=1, out=str(tmp_path / "p.parquet"))
    assert "continue with --resume" in str(w[0].message)


# --- resume checks the request field by field, and policy files by content -----------------

def test_resume_names_the_field_that_differs(tmp_path, monkeypatch):
    out = partial_file(tmp_path, monkeypatch)
    cases = [(dict(seed=2), r"seed: file 1, this command 2"),
             (dict(n=N + 1), rf"n: file {N}, this command {N + 1}"),
             (dict(strategies=["p1=stand_at(15)"]), r"strategies: file \['stand_at\(t=17\)'\], "
                                                    r"this command \['stand_at\(t=15\)'\]"),
             (dict(rules=["deck=52"]), r"game: file 'ochko', this command 'ochko\(deck=52\)'"),
             (dict(precision=0.1), r"precision: file None, this command 0.1")]
    for kw, pattern in cases:
        args = dict(n=N, seed=1, out=out, resume=True)
        args.update(kw)
        with pytest.raises(SimkitError, match=r"holds a different request \(.*" + pattern):
            simkit.run("ochko", **args)


def test_resume_refuses_a_changed_policy_file(capsys, tmp_path, monkeypatch):
    policy = tmp_path / "policy.csv"
    policy.write_text("total,cards,hit\n" + "".join(f"{t},2,{int(t < 16)}\n" for t in range(2, 22)))
    strat = [f"p1=table(path={policy})"]
    out = partial_file(tmp_path, monkeypatch, strategies=strat)
    meta = store.read_table(out)[1]
    assert len(meta["request"]["files"][0]["p1.path"]) == 64  # sha256 of the content
    policy.write_text(policy.read_text().replace("15,2,1", "15,2,0"))  # same path, new content
    before = open(out, "rb").read()
    rc, stdout, err = cli(capsys, "run", "ochko", "-n", str(N), "--seed", "1", "-s", strat[0],
                          "-o", out, "--resume")
    assert_one_error_line(rc, stdout, err, r"holds a different request \(content of the policy "
                                           r"file p1.path changed \(sha256 [0-9a-f]{12}\.\.\. in "
                                           r"the file, [0-9a-f]{12}\.\.\. now\)\)")
    assert open(out, "rb").read() == before
    policy.write_text(policy.read_text().replace("15,2,0", "15,2,1"))  # back as it was: resumes
    res = simkit.run("ochko", n=N, seed=1, strategies=strat, out=out, resume=True)
    assert res.complete and res.deals() == N


def test_requests_without_policy_files_record_none(tmp_path):
    """Requests of runs without file-valued parameters are as before (old files still resume)."""
    out = str(tmp_path / "r.parquet")
    simkit.run("ochko", n=4096, out=out)
    assert "files" not in store.read_table(out)[1]["request"]
    simkit.run("ochko", n=4096, out=out, strategies=["p1=table"])  # the bundled table: its digest
    assert set(store.read_table(out)[1]["request"]["files"][0]) == {"p1.path"}


# --- every output path is checked before any work -------------------------------------------

def _bad_paths(tmp_path):
    (tmp_path / "afile").write_text("x")
    (tmp_path / "folder.parquet").mkdir()
    (tmp_path / "folder.html").mkdir()
    (tmp_path / "folder.csv").mkdir()
    return [("/proc/r.{ext}", r"cannot create files in '/proc'"),
            (str(tmp_path / "afile" / "r.{ext}"), r"is a file, not a folder"),
            (str(tmp_path / "folder.{ext}"), r"it is a folder")]


@pytest.mark.parametrize("which", ["-o", "--rows", "report -o", "exact -o", "games -o"])
def test_bad_output_paths_fail_before_any_work(capsys, tmp_path, monkeypatch, which):
    monkeypatch.chdir(tmp_path)
    good = tmp_path / "good.parquet"
    assert simkit.cli.main(["run", "ochko", "-n", "4096", "-o", str(good), "--format", "csv"]) == 0
    capsys.readouterr()
    data = good.read_bytes()

    def no_work(self, units, fn=None):
        raise AssertionError("a unit ran before the output path was checked")
        yield
    monkeypatch.setattr(R.Backend, "map", no_work)
    for template, pattern in _bad_paths(tmp_path):
        ext = "html" if which.startswith("report") else "csv" if which == "exact -o" else "parquet"
        bad = template.format(ext=ext)
        argv = {"-o": ["run", "ochko", "-n", "4096", "-o", bad],
                "--rows": ["run", "ochko", "-n", "4096", "--rows", bad, "-o", str(good)],
                "report -o": ["report", str(good), "-o", bad],
                "exact -o": ["exact", "ochko", "-o", bad],
                "games -o": ["games", "-o", bad]}[which]
        rc, out, err = cli(capsys, *argv)
        assert_one_error_line(rc, out, err, pattern)
        assert good.read_bytes() == data
    assert [f for f in os.listdir(tmp_path) if f.startswith(".simkit-")] == []


# --- no silent wrong numbers (issue 31) --------------------------------------------------------

def _policy(tmp_path):
    policy = tmp_path / "policy.csv"
    policy.write_text("total,cards,hit\n" + "".join(f"{t},2,{int(t < 16)}\n" for t in range(2, 22)))
    return policy


def _edit_after(monkeypatch, k, policy):
    """Edit the policy file once ``k`` units have finished (as a user might, mid-run)."""
    orig = R.Backend.map

    def map_(self, units, fn=R.execute_unit):
        for j, item in enumerate(orig(self, units, fn)):
            if j == k:
                policy.write_text(policy.read_text().replace("15,2,1", "15,2,0"))
            yield item
    monkeypatch.setattr(R.Backend, "map", map_)


@pytest.mark.parametrize("ext", ["parquet", "csv"])
def test_a_policy_file_edited_during_the_run_is_never_complete(capsys, tmp_path, monkeypatch, ext):
    policy = _policy(tmp_path)
    out = str(tmp_path / f"r.{ext}")
    _edit_after(monkeypatch, 5, policy)
    rc, stdout, err = cli(capsys, "run", "ochko", "-n", str(N), "-s", f"p1=table(path={policy})",
                          "-o", out)
    assert_one_error_line(rc, stdout, err, r"the policy file .*policy\.csv changed during the "
                                           r"run: its chunks may mix two policies")
    assert store.read_table(out)[1]["complete"] is False


def test_a_partial_csv_says_it_is_partial(tmp_path, monkeypatch):
    out = str(tmp_path / "p.csv")
    interrupt_after(monkeypatch, 3)
    with pytest.warns(UserWarning, match="interrupted"):
        simkit.run("ochko", n=N, seed=1, out=out)
    df = pd.read_csv(out)
    assert (df["complete"] == False).all()  # noqa: E712 - the column, as read by anyone
    assert store.read_table(out)[1] == {"complete": False}
    monkeypatch.undo()
    simkit.run("ochko", n=N, seed=1, out=out)
    assert pd.read_csv(out)["complete"].all() and store.read_table(out)[1] == {"complete": True}


def test_no_flipped_bit_changes_a_number_unnoticed(capsys, tmp_path):
    """One bit flipped at a spread of places in a results file: reading it either fails with a
    one-line error (exit 2 from report and --resume) or gives the very same table (the issue:
    1,045 of 14,896 single flips changed a mean with no error)."""
    good = str(tmp_path / "g.parquet")
    simkit.run("ochko", n=N, seed=1, out=good)
    data = open(good, "rb").read()
    ref, ref_meta = store.read_table(good)
    bad = str(tmp_path / "b.parquet")
    shutil.copy(store.chunks_name(good), store.chunks_name(bad))
    caught = 0
    for pos in range(0, len(data), max(1, len(data) // 150)):
        for bit in (0, 5):
            flipped = bytearray(data)
            flipped[pos] ^= 1 << bit
            with open(bad, "wb") as f:
                f.write(flipped)
            try:
                df, meta = store.read_table(bad)
            except SimkitError:
                caught += 1
                continue
            pd.testing.assert_frame_equal(df, ref)
    assert caught > 0
    # a flip in a data page: report and --resume say so in one line, exit 2
    start = data.index(b"PAR1") + 4
    flipped = bytearray(data)
    flipped[start + 40] ^= 1
    with open(bad, "wb") as f:
        f.write(flipped)
    for argv in (["report", bad, "-o", str(tmp_path / "r.html")],
                 ["run", "ochko", "-n", str(N), "--seed", "1", "-o", bad, "--resume"]):
        rc, stdout, err = cli(capsys, *argv)
        assert_one_error_line(rc, stdout, err, r"b\.parquet")


def test_a_policy_file_edited_during_an_analysis_is_an_error(capsys, tmp_path, monkeypatch):
    policy = _policy(tmp_path)
    _edit_after(monkeypatch, 5, policy)
    rc, stdout, err = cli(capsys, "compare", "ochko", f"table(path={policy})", "stand_at(16)",
                          "-n", "2e5")
    assert_one_error_line(rc, stdout, err, r"changed during the analysis")
