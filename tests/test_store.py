"""The results store (simkit.core.store): Parquet/CSV files with provenance, atomic writes,
checkpoints of interrupted runs and resume."""
from __future__ import annotations

import json
import os

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import simkit
from simkit.core import runner as R
from simkit.core import store
from simkit.errors import SimkitError

PROVENANCE = ["game", "rules", "strategies", "seed", "n", "game_version", "simkit_version", "created"]
N = 60_000  # 15 chunks of 4096


def numbers(df: pd.DataFrame) -> pd.DataFrame:
    return df.drop(columns=["created"]).reset_index(drop=True)


def temp_files(folder) -> list[str]:
    return [f for f in os.listdir(folder) if f.startswith(".simkit-") or f.endswith(".tmp")]


@pytest.fixture(scope="module")
def baseline():
    """The uninterrupted run every resume must reproduce exactly."""
    return simkit.run("ochko(banker_stop=16)", n=N, seed=5, strategies=["p1=stand_at(15)"])


def run_it(**kw):
    return simkit.run("ochko(banker_stop=16)", n=N, seed=5, strategies=["p1=stand_at(15)"], **kw)


# --- writing -------------------------------------------------------------------------------

@pytest.mark.parametrize("ext", ["parquet", "csv"])
def test_run_writes_results_with_provenance(tmp_path, ext, baseline):
    out = tmp_path / f"res.{ext}"
    res = run_it(out=str(out))
    df, meta = store.read_table(str(out))
    for col in PROVENANCE + ["metric", "mean", "se", "ci_low", "ci_high"]:
        assert col in df.columns, col
    assert len(df) == len(res.metric_specs[0])
    assert (df["game"] == "ochko").all()
    assert (df["rules"] == "ochko(banker_stop=16)").all()
    assert (df["strategies"] == "p1=stand_at(t=15)").all()
    assert (df["seed"] == 5).all() and (df["n"] == N).all()
    assert (df["game_version"] == res.spec.version).all()
    assert (df["simkit_version"] == simkit.__version__).all()
    assert df["created"].nunique() == 1 and pd.Timestamp(df["created"].iloc[0]).tzinfo is not None
    assert df["metric"].tolist() == baseline.table()["metric"].tolist()
    if ext == "parquet":
        pd.testing.assert_frame_equal(numbers(df), numbers(baseline.table()))  # exact
        assert meta["format"] == store.FORMAT and meta["complete"] is True
        assert meta["game"] == "ochko" and meta["simkit_version"] == simkit.__version__
        assert meta["request"]["seed"] == 5 and meta["request"]["n"] == N
        assert sorted(int(c) for c in store.read_chunks(str(out))[0]) == [c for c, _ in R.plan(N)]
    else:
        assert meta == {"complete": True} and df["complete"].all()  # CSV keeps it in a column
        np.testing.assert_allclose(df["mean"], baseline.table()["mean"], rtol=1e-15)
    assert temp_files(tmp_path) == []


def test_sweep_file_has_grid_columns(tmp_path):
    out = tmp_path / "sweep.parquet"
    simkit.sweep("ochko", ["banker_stop=16,17", "p1.t=15"], n=8192, seed=1, out=str(out))
    df, meta = store.read_table(str(out))
    assert sorted(set(df["banker_stop"])) == [16, 17] and set(df["p1.t"]) == {15}
    assert len(store.read_chunks(str(out))) == 2
    assert meta["request"]["rules_strings"] == ["ochko(banker_stop=16)", "ochko"]


def test_write_table_round_trip_and_folders(tmp_path):
    df = pd.DataFrame({"game": ["g", "g"], "metric": ["a", "b"], "mean": [0.1, 1 / 3], "x": [1, 2]})
    p = tmp_path / "deep" / "er" / "t.parquet"
    store.write_table(str(p), df, {"note": "hello", "nested": {"k": [1, 2]}})
    back, meta = store.read_table(str(p))
    pd.testing.assert_frame_equal(back, df)
    assert meta.pop("table_sha256") == store.table_digest(df)
    assert meta == {"format": store.FORMAT, "note": "hello", "nested": {"k": [1, 2]}}
    c = tmp_path / "t.csv"
    store.write_table(str(c), df)
    back, meta = store.read_table(str(c))
    pd.testing.assert_frame_equal(back, df)
    assert temp_files(tmp_path) == [] and temp_files(p.parent) == []


@pytest.mark.parametrize("name", ["x.txt", "x", "x.parquet.bak", "x.json"])
def test_bad_extension(tmp_path, name):
    with pytest.raises(SimkitError, match="must end in .parquet or .csv"):
        store.write_table(str(tmp_path / name), pd.DataFrame({"a": [1]}))
    with pytest.raises(SimkitError, match="must end in .parquet or .csv"):
        simkit.run("ochko", n=1000, out=str(tmp_path / name))
    assert os.listdir(tmp_path) == []


def test_encode_decode_chunks_exact(baseline):
    enc = json.loads(json.dumps(store.encode_chunks(baseline.aggs)))
    aggs = [R.Aggregates(a.n_metrics) for a in baseline.aggs]
    store.decode_chunks(enc, aggs, R.plan(baseline.n))
    for a, b in zip(aggs, baseline.aggs):
        assert a.chunks.keys() == b.chunks.keys()
        for c in a.chunks:
            assert a.chunks[c][0] == b.chunks[c][0]
            assert np.array_equal(a.chunks[c][1], b.chunks[c][1])  # floats survive JSON exactly
    with pytest.raises(SimkitError, match="wrong number of configurations"):
        store.decode_chunks(enc * 2, aggs, R.plan(baseline.n))
    with pytest.raises(SimkitError, match="do not match this game's metrics"):
        store.decode_chunks(enc, [R.Aggregates(3)], R.plan(baseline.n))


# --- atomic writes -------------------------------------------------------------------------

@pytest.fixture
def existing(tmp_path):
    """An existing results file of each kind, with its bytes."""
    df = pd.DataFrame({"game": ["old"], "metric": ["m"], "mean": [1.0]})
    paths = {}
    for ext in ("parquet", "csv"):
        p = tmp_path / f"old.{ext}"
        store.write_table(str(p), df, {"old": True} if ext == "parquet" else None)
        paths[ext] = (p, p.read_bytes())
    return paths


def _half_write_then_fail(path):
    with open(path, "wb") as f:
        f.write(b"PAR1 half a file")
    raise OSError("disk full")


def test_failing_parquet_write_keeps_the_old_file(tmp_path, existing, monkeypatch):
    p, before = existing["parquet"]
    monkeypatch.setattr(pq, "write_table", lambda table, where, **k: _half_write_then_fail(where))
    with pytest.raises(OSError, match="disk full"):
        store.write_table(str(p), pd.DataFrame({"game": ["new"], "metric": ["m"], "mean": [2.0]}))
    assert p.read_bytes() == before
    assert temp_files(tmp_path) == []
    monkeypatch.undo()
    assert store.read_table(str(p))[1]["old"] is True


def test_failing_csv_write_keeps_the_old_file(tmp_path, existing, monkeypatch):
    p, before = existing["csv"]
    monkeypatch.setattr(pd.DataFrame, "to_csv", lambda self, path, **k: _half_write_then_fail(path))
    with pytest.raises(OSError, match="disk full"):
        store.write_table(str(p), pd.DataFrame({"game": ["new"], "metric": ["m"], "mean": [2.0]}))
    assert p.read_bytes() == before
    assert temp_files(tmp_path) == []


def test_unconvertible_table_keeps_the_old_file(tmp_path, existing):
    p, before = existing["parquet"]
    bad = pd.DataFrame({"game": ["x"], "metric": ["m"], "mean": [object()]})
    with pytest.raises(Exception):
        store.write_table(str(p), bad)
    assert p.read_bytes() == before
    assert temp_files(tmp_path) == []


def test_a_failing_run_keeps_the_old_file(tmp_path, existing):
    p, before = existing["parquet"]
    with pytest.raises(SimkitError):
        simkit.run("ochko(deck=40)", n=1000, out=str(p))
    with pytest.raises(SimkitError):
        simkit.run("ochko", n=1000, strategies=["p1=table(path=/no/such/policy.csv)"], out=str(p))
    assert p.read_bytes() == before
    assert temp_files(tmp_path) == []


# --- interrupted runs and resume -----------------------------------------------------------

def interrupt_after(monkeypatch, k):
    """Make the backend raise KeyboardInterrupt (as Ctrl-C does) once ``k`` units have finished."""
    orig = R.Backend.map
    seen = {"units": 0}

    def map_(self, units, fn=R.execute_unit):
        for item in orig(self, units, fn):
            if seen["units"] == k:
                raise KeyboardInterrupt
            seen["units"] += 1
            yield item

    monkeypatch.setattr(R.Backend, "map", map_)
    return seen


def record_units(monkeypatch) -> list:
    """The units every ``Backend.map`` is given from now on (what a resume plays), in a list."""
    played, orig = [], R.Backend.map

    def map_(self, units, fn=R.execute_unit):
        played.extend(units)
        return orig(self, units, fn)
    monkeypatch.setattr(R.Backend, "map", map_)
    return played


def forbid_work(monkeypatch):
    def map_(self, units, fn=R.execute_unit):
        assert not units, f"resume of a complete file ran {len(units)} units"
        return iter(())
    monkeypatch.setattr(R.Backend, "map", map_)


def test_resume_after_dropping_chunks_from_the_file(tmp_path, baseline):
    out = str(tmp_path / "r.parquet")
    run_it(out=out)
    keep = {"0", "3", "4", "14"}
    _as_format_1(out, lambda ch: [{c: v for c, v in d.items() if c in keep} for d in ch])
    assert sorted(store.read_table(out)[1]["chunks"][0]) == sorted(keep)
    res = run_it(out=out, resume=True)
    pd.testing.assert_frame_equal(numbers(res.table()), numbers(baseline.table()))
    df2, meta2 = store.read_table(out)
    pd.testing.assert_frame_equal(numbers(df2), numbers(baseline.table()))
    assert meta2["complete"] is True and meta2["format"] == store.FORMAT
    assert len(store.read_chunks(out)[0]) == len(R.plan(N))


@pytest.mark.parametrize("workers", [1, 2])
def test_interrupted_run_keeps_finished_chunks_and_resume_finishes_it(tmp_path, monkeypatch,
                                                                      baseline, workers):
    out = str(tmp_path / "int.parquet")
    interrupt_after(monkeypatch, 4)
    with pytest.warns(UserWarning, match=r"interrupted: .* saved to .*--resume"):
        res = run_it(out=out, workers=workers)
    assert res.complete is False
    df, meta = store.read_table(out)
    stored = store.read_chunks(out)[0]
    done = sorted(int(c) for c in stored)
    assert len(done) == 4 and meta["complete"] is False
    assert (df["n"] == sum(cnt for c, cnt in R.plan(N) if c in done)).all()
    for c in done:  # the saved chunks are exactly the uninterrupted run's
        assert np.array_equal(np.array(stored[str(c)][1]), baseline.aggs[0].chunks[c][1][0])
    monkeypatch.undo()
    res2 = run_it(out=out, resume=True, workers=workers)
    assert res2.complete
    pd.testing.assert_frame_equal(numbers(res2.table()), numbers(baseline.table()))
    pd.testing.assert_frame_equal(numbers(store.read_table(out)[0]), numbers(baseline.table()))
    # resuming a finished file plays nothing and gives the same numbers again
    forbid_work(monkeypatch)
    res3 = run_it(out=out, resume=True)
    pd.testing.assert_frame_equal(numbers(res3.table()), numbers(baseline.table()))


def test_resume_of_a_sweep_interrupted_twice(tmp_path, monkeypatch):
    grid, kw = ["banker_stop=16,17", "p1.t=15,16"], dict(n=20_000, seed=9)
    ref = simkit.sweep("ochko", grid, **kw)
    out = str(tmp_path / "s.parquet")
    for k in (3, 7):
        interrupt_after(monkeypatch, k)
        with pytest.warns(UserWarning, match="interrupted"):
            r = simkit.sweep("ochko", grid, out=out, resume=os.path.exists(out), **kw)
        assert not r.complete
        monkeypatch.undo()
    assert sum(len(d) for d in store.read_chunks(out)) == 10
    r = simkit.sweep("ochko", grid, out=out, resume=True, **kw)
    pd.testing.assert_frame_equal(numbers(r.table()), numbers(ref.table()))


def test_resume_with_a_different_request_fails(tmp_path):
    out = str(tmp_path / "r.parquet")
    run_it(out=out)
    before = open(out, "rb").read()
    variants = [
        dict(game="ochko(banker_stop=16)", n=N, seed=6, strategies=["p1=stand_at(15)"]),
        dict(game="ochko(banker_stop=16)", n=N + 1, seed=5, strategies=["p1=stand_at(15)"]),
        dict(game="ochko(banker_stop=17)", n=N, seed=5, strategies=["p1=stand_at(15)"]),
        dict(game="ochko(banker_stop=16)", n=N, seed=5, strategies=["p1=stand_at(16)"]),
        dict(game="ochko(banker_stop=16)", n=N, seed=5, strategies=["p1=stand_at(15)"], precision=0.01),
        dict(game="ochko(banker_stop=16,deck=52)", n=N, seed=5, strategies=["p1=stand_at(15)"]),
    ]
    for v in variants:
        game = v.pop("game")
        with pytest.raises(SimkitError, match="holds a different request"):
            simkit.run(game, out=out, resume=True, **v)
    with pytest.raises(SimkitError, match="holds a different request"):
        simkit.sweep("ochko", ["banker_stop=16,17"], n=N, seed=5, out=out, resume=True)
    assert open(out, "rb").read() == before
    # the same request written differently is the same request
    run_it(out=out, resume=True, workers=2)
    simkit.run("ochko", rules=["banker_stop=16"], n=N, seed=5, strategies=["p1=stand_at(t=15)"],
               out=out, resume=True)


def test_resume_needs_a_parquet_file(tmp_path):
    with pytest.raises(SimkitError, match="--resume needs -o"):
        simkit.run("ochko", n=1000, resume=True)
    csv = str(tmp_path / "r.csv")
    simkit.run("ochko", n=1000, out=csv)
    with pytest.raises(SimkitError, match="needs a .parquet"):
        simkit.run("ochko", n=1000, out=csv, resume=True)
    with pytest.raises(SimkitError, match="not found"):
        simkit.run("ochko", n=1000, out=str(tmp_path / "none.parquet"), resume=True)


def _files(tmp_path):
    """Corrupt and foreign files."""
    good = tmp_path / "good.parquet"
    run_it(out=str(good))
    data = good.read_bytes()
    (tmp_path / "junk.parquet").write_bytes(b"hello world" * 10)
    (tmp_path / "empty.parquet").write_bytes(b"")
    (tmp_path / "trunc.parquet").write_bytes(data[: len(data) // 2])
    (tmp_path / "tail.parquet").write_bytes(data[:100] + data[-200:])
    pd.DataFrame({"a": [1, 2]}).to_parquet(tmp_path / "foreign.parquet")
    pd.DataFrame({"game": ["g"], "metric": ["m"], "mean": [1.0]}).to_parquet(tmp_path / "nometa.parquet")
    (tmp_path / "dir.parquet").mkdir()
    return ["junk", "empty", "trunc", "tail", "foreign", "nometa", "dir"]


def test_resume_from_corrupt_or_foreign_files_fails_cleanly(tmp_path):
    for name in _files(tmp_path):
        p = tmp_path / f"{name}.parquet"
        before = p.read_bytes() if p.is_file() else None
        with pytest.raises(SimkitError) as e:
            run_it(out=str(p), resume=True)
        assert str(p.name) in str(e.value) or "results file" in str(e.value), (name, e.value)
        if before is not None:
            assert p.read_bytes() == before, name


def test_read_table_rejects_foreign_files(tmp_path):
    pd.DataFrame({"a": [1]}).to_csv(tmp_path / "x.csv", index=False)
    with pytest.raises(SimkitError, match="not a simkit results table"):
        store.read_table(str(tmp_path / "x.csv"))
    (tmp_path / "bin.csv").write_bytes(b"\xff\xfe\x00\x81garbage")
    with pytest.raises(SimkitError):
        store.read_table(str(tmp_path / "bin.csv"))
    t = pa.table({"game": ["g"], "metric": ["m"], "mean": [1.0]})
    pq.write_table(t.replace_schema_metadata({b"simkit": json.dumps({"format": 99}).encode()}),
                   tmp_path / "future.parquet")
    with pytest.raises(SimkitError, match="results format 99"):
        store.read_table(str(tmp_path / "future.parquet"))


def _as_format_1(path, change=lambda chunks: chunks):
    """Rewrite a results file as simkit wrote them before the chunk file (format 1: chunk
    aggregates as JSON in the footer), ``change`` applied to them; the run marked unfinished."""
    chunks = change(store.read_chunks(path))
    df, meta = store.read_table(path)
    os.remove(store.chunks_name(path))
    store.write_table(path, df, dict(meta, format=1, chunks=chunks, complete=False))


def _tamper(path, change):
    _as_format_1(path)
    t = pq.read_table(path)
    md = dict(t.schema.metadata)
    meta = json.loads(md[b"simkit"])
    new = change(meta)
    md[b"simkit"] = new if isinstance(new, bytes) else json.dumps(new).encode()
    pq.write_table(t.replace_schema_metadata(md), path)


def _set(key, fn):
    def change(meta):
        meta[key] = fn(meta[key])
        return meta
    return change


def _first_chunk(fn):
    return _set("chunks", lambda ch: [{**d, "0": fn(d["0"])} for d in ch])



TAMPER = [
    pytest.param("json", lambda m: b"{not json", id="invalid-json"),
    pytest.param("format", _set("format", lambda v: 99), id="wrong-format"),
    pytest.param("request", _set("request", lambda v: None), id="no-request"),
    pytest.param("metrics", _first_chunk(lambda v: [v[0], v[1][:3], v[2][:3]]), id="wrong-metric-count"),
    pytest.param("triple", _first_chunk(lambda v: "garbage"),
                 id="chunk-not-a-triple"),
    pytest.param("pair", _first_chunk(lambda v: v[:2]),
                 id="chunk-pair"),
    pytest.param("key", _set("chunks", lambda ch: [{("x" if c == "0" else c): v for c, v in d.items()}
                                                    for d in ch]),
                 id="chunk-key-not-int"),
    pytest.param("nochunks", lambda m: {k: v for k, v in m.items() if k != "chunks"},
                 id="no-chunks"),
    pytest.param("list", lambda m: b"[1, 2]",
                 id="metadata-not-an-object"),
]


@pytest.mark.parametrize("what,change", TAMPER)
def test_resume_from_tampered_metadata_raises_simkit_error(tmp_path, what, change):
    out = str(tmp_path / "t.parquet")
    run_it(out=out)
    _tamper(out, change)
    with pytest.raises(SimkitError):
        run_it(out=out, resume=True)


@pytest.mark.parametrize("change", [
    _set("chunks", lambda ch: [{**d, "999": d["0"]} for d in ch]),
    _first_chunk(lambda v: [1, v[1], v[2]]),
], ids=["chunk-outside-plan", "wrong-chunk-count"])
def test_resume_never_reports_numbers_of_a_tampered_file(tmp_path, baseline, change):
    out = str(tmp_path / "t.parquet")
    run_it(out=out)
    _tamper(out, change)
    try:
        res = run_it(out=out, resume=True)
    except SimkitError:
        return  # refusing the file is fine
    assert res.deals() == N
    pd.testing.assert_frame_equal(numbers(res.table()), numbers(baseline.table()))


def test_ctrl_c_during_a_threaded_run_merges_the_units_in_flight(tmp_path, monkeypatch, baseline):
    """Ctrl-C lands in the main thread while it waits for the pool: the units in flight finish,
    are merged and saved; nothing new is submitted."""
    real_wait, calls = R.wait, {"n": 0}

    def wait(fs, **kw):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real_wait(fs, **kw)

    monkeypatch.setattr(R, "wait", wait)
    out = str(tmp_path / "c.parquet")
    with pytest.warns(UserWarning, match="interrupted"):
        res = run_it(out=out, workers=2)
    assert not res.complete
    done = sorted(int(c) for c in store.read_chunks(out)[0])
    # at least one unit per completed wait; at most a window (2 * workers) per wait, the third one
    # (interrupted) only draining what was in flight: nothing new was submitted after Ctrl-C
    assert 2 <= len(done) <= 3 * 2 * 2 < len(R.plan(N))
    assert res.deals() == sum(cnt for c, cnt in R.plan(N) if c in done)
    monkeypatch.undo()
    res2 = run_it(out=out, resume=True, workers=2)
    pd.testing.assert_frame_equal(numbers(res2.table()), numbers(baseline.table()))


@pytest.mark.parametrize("ext", ["parquet", "csv"])
def test_results_files_get_ordinary_permissions(tmp_path, ext):
    umask = os.umask(0o022)
    try:
        p = tmp_path / f"perm.{ext}"
        df = pd.DataFrame({"game": ["g"], "metric": ["m"], "mean": [1.0]})
        store.write_table(str(p), df)
        assert p.stat().st_mode & 0o777 == 0o644  # what open() gives under umask 022
        os.chmod(p, 0o664)
        store.write_table(str(p), df)
        assert p.stat().st_mode & 0o777 == 0o664  # rewriting keeps the file's mode
    finally:
        os.umask(umask)


def test_a_finished_file_stays_whole_until_its_replacement_is_finished(tmp_path, monkeypatch):
    """Rerunning over a finished -o file: the checkpoints go to X.partial.parquet, so a run
    stopped half-way leaves X byte for byte (it replaced X at its first checkpoint before); the
    partial file resumes to the uninterrupted numbers; a finished rerun replaces X and leaves no
    partial file (issue 31)."""
    kw = dict(n=20_000, seed=4)
    out = str(tmp_path / "s.parquet")
    first = simkit.run("ochko", out=out, **kw)
    assert first.complete
    before = open(out, "rb").read()
    chunks_before = open(store.chunks_name(out), "rb").read()
    interrupt_after(monkeypatch, 2)
    with pytest.warns(UserWarning, match=r"s\.partial\.parquet .*still holds the earlier"):
        r = simkit.run("ochko", out=out, **{**kw, "seed": 5})
    monkeypatch.undo()
    assert not r.complete and open(out, "rb").read() == before
    assert open(store.chunks_name(out), "rb").read() == chunks_before
    partial = str(tmp_path / "s.partial.parquet")
    done = simkit.run("ochko", out=partial, resume=True, **{**kw, "seed": 5})
    pd.testing.assert_frame_equal(numbers(done.table()),
                                  numbers(simkit.run("ochko", **{**kw, "seed": 5}).table()))
    with pytest.raises(SimkitError, match=r"s\.partial\.parquet' exists"):
        simkit.run("ochko", out=out, **{**kw, "seed": 6})   # it would overwrite the partial file
    os.remove(partial)
    simkit.run("ochko", out=out, **{**kw, "seed": 6})
    assert open(out, "rb").read() != before
    # no partial file (its chunk file, left above, was overwritten and moved), no lock file left
    assert sorted(os.listdir(tmp_path)) == ["s.chunks.parquet", "s.parquet"]
    forbid_work(monkeypatch)
    simkit.run("ochko", out=out, resume=True, **{**kw, "seed": 6})  # the moved chunks match


def test_two_runs_cannot_write_one_file(tmp_path):
    out = str(tmp_path / "s.parquet")
    with store.locked(out):
        with pytest.raises(SimkitError, match="another simkit run is writing"):
            simkit.run("ochko", out=out, n=5_000)
    simkit.run("ochko", out=out, n=5_000)  # the lock is gone with its holder


# --- chunk aggregates as data (format 2) ------------------------------------------------------

def _rewrite_chunks(path, fn):
    """Rewrite the chunk file of ``path`` with ``fn`` applied to its table (metadata kept)."""
    side = store.chunks_name(path)
    t = pq.read_table(side)
    pq.write_table(fn(t).replace_schema_metadata(t.schema.metadata), side)


def _replace_column(name, fn):
    def change(t):
        return t.set_column(t.schema.get_field_index(name), name, fn(t.column(name)))
    return change


def _short(name):
    return _replace_column(name, lambda c: pa.array([v[:2] for v in c.to_pylist()],
                                                    pa.large_list(pa.float64())))


CHUNK_TAMPER = [
    pytest.param(lambda p: os.remove(store.chunks_name(p)), "is missing", id="missing"),
    pytest.param(lambda p: open(store.chunks_name(p), "wb").write(b"junk"),
                 "cannot read the chunk aggregates", id="junk"),
    pytest.param(lambda p: _rewrite_chunks(p, lambda t: t.drop_columns(["sumsq"])),
                 "not the chunk aggregates", id="no-sumsq"),
    pytest.param(lambda p: _rewrite_chunks(p, _replace_column(
        "chunk", lambda c: pa.array(np.asarray(c) + 1000))), "not in this request's plan",
        id="chunk-outside-plan"),
    pytest.param(lambda p: _rewrite_chunks(p, _replace_column(
        "n", lambda c: pa.array(np.asarray(c) + 1))), "not in this request's plan",
        id="wrong-deals"),
    pytest.param(lambda p: _rewrite_chunks(p, lambda t: _short("sumsq")(_short("sum")(t))),
                 "do not match this game's metrics", id="wrong-metric-count"),
    pytest.param(lambda p: _rewrite_chunks(p, _short("sum")), "differ in length",
                 id="sums-and-squares-differ"),
    pytest.param(lambda p: _rewrite_chunks(p, _replace_column(
        "config", lambda c: pa.array(np.asarray(c) + 3, pa.int32()))),
        "wrong number of configurations", id="config-out-of-range"),
]


@pytest.mark.parametrize("change,message", CHUNK_TAMPER)
def test_resume_from_a_bad_chunk_file_is_an_error(tmp_path, change, message):
    out = str(tmp_path / "t.parquet")
    run_it(out=out)
    change(out)
    with pytest.raises(SimkitError, match=message):
        run_it(out=out, resume=True)
    store.read_table(out)  # the table itself still reads (for report)


def test_chunk_file_of_another_request_is_refused(tmp_path):
    a, b = str(tmp_path / "a.parquet"), str(tmp_path / "b.parquet")
    run_it(out=a)
    simkit.run("ochko(banker_stop=16)", n=N, seed=6, strategies=["p1=stand_at(15)"], out=b)
    os.replace(store.chunks_name(b), store.chunks_name(a))
    with pytest.raises(SimkitError, match="chunk aggregates of another request"):
        run_it(out=a, resume=True)


def test_the_chunk_file_is_not_a_results_table(tmp_path):
    out = str(tmp_path / "t.parquet")
    run_it(out=out)
    with pytest.raises(SimkitError, match=r"holds the chunk aggregates of 't\.parquet'"):
        store.read_table(store.chunks_name(out))


def test_a_format_1_file_still_resumes(tmp_path, monkeypatch, baseline):
    out = str(tmp_path / "old.parquet")
    interrupt_after(monkeypatch, 5)
    with pytest.warns(UserWarning, match="interrupted"):
        run_it(out=out)
    monkeypatch.undo()
    _as_format_1(out)
    assert store.read_table(out)[1]["format"] == 1
    res = run_it(out=out, resume=True)
    pd.testing.assert_frame_equal(numbers(res.table()), numbers(baseline.table()))
    assert store.read_table(out)[1]["format"] == store.FORMAT  # rewritten in the new format
    assert len(store.read_chunks(out)[0]) == len(R.plan(N))


def test_chunk_table_round_trips_exactly(tmp_path, baseline):
    aggs = [R.Aggregates(a.n_metrics) for a in baseline.aggs]
    out = str(tmp_path / "x.parquet")
    request = {"k": 1}
    store.write_results(out, baseline.table(), {"complete": True}, baseline.aggs, request)
    store.load_chunks(out, store.read_table(out)[1], aggs, R.plan(baseline.n), request)
    for a, b in zip(aggs, baseline.aggs):
        assert a.chunks.keys() == b.chunks.keys()
        for c in a.chunks:
            assert a.chunks[c][0] == b.chunks[c][0] and np.array_equal(a.chunks[c][1], b.chunks[c][1])


@pytest.mark.slow
def test_a_run_of_many_chunks_reads_back_and_resumes(tmp_path, monkeypatch):
    """n=4e11 is 381,470 chunks of 2**20 deals: its file reads back, and resume plays only the
    missing chunk (the format-1 footer failed with 'Exceeded size limit' from 300,000).  The
    other chunks' sums are made up (playing them would take days)."""
    n, out = 4 * 10**11, str(tmp_path / "big.parquet")
    interrupt_after(monkeypatch, 0)
    with pytest.warns(UserWarning, match="interrupted"):
        simkit.run("ochko", n=n, seed=1, out=out)
    monkeypatch.undo()
    df, meta = store.read_table(out)
    plan = R.plan(n, meta["request"]["chunk_size"])
    assert len(plan) > 300_000
    small = simkit.run("ochko", n=2**16, seed=1).aggs[0]
    count, total = small.total()
    a, acc = R.Aggregates(small.n_metrics), total / count  # per deal: binary metrics stay binary
    for c, cnt in plan[:-1]:
        a.add(c, cnt, acc * cnt)
    store.write_results(out, df, meta, [a], meta["request"])
    assert store.read_table(out)[1]["complete"] is False
    played = record_units(monkeypatch)
    res = simkit.run("ochko", n=n, seed=1, out=out, resume=True)
    assert res.complete and len(played) == 1 and res.deals() == n
    df, meta = store.read_table(out)
    assert meta["complete"] is True and (df["n"] == n).all()
    assert pq.ParquetFile(store.chunks_name(out)).metadata.num_rows == len(plan)


def test_report_of_a_glob_skips_the_chunk_files(tmp_path):
    from simkit.report import build
    out = str(tmp_path / "t.parquet")
    run_it(out=out)
    page = build(sorted(str(p) for p in tmp_path.glob("*.parquet")), str(tmp_path / "r.html"))
    assert os.path.isfile(page)
    with pytest.raises(SimkitError, match="holds the chunk aggregates"):  # alone, it is refused
        build([store.chunks_name(out)], str(tmp_path / "r2.html"))


def test_a_second_ctrl_c_with_threads_keeps_the_finished_units(monkeypatch):
    """Units 0 and 1 finish, 2 and 3 hang; a second Ctrl-C while the main thread waits yields the
    finished ones and raises at once, not waiting for the hung ones (it threw them away)."""
    import threading
    release = threading.Event()

    def fn(i):
        if i >= 2:
            release.wait(60)
        return i

    real_wait = R.wait

    def wait(fs, **kw):
        done = [f for f in fs if f.done()]
        if len(done) >= 2:
            raise KeyboardInterrupt  # as the second Ctrl-C lands in the main thread
        return real_wait(fs, **kw)

    monkeypatch.setattr(R, "wait", wait)
    got = []
    try:
        with pytest.raises(KeyboardInterrupt):
            with R.Backend(2, "threads") as be:
                for u, v in be.map([(0,), (1,), (2,), (3,)], fn):
                    got.append(v)
        assert sorted(got) == [0, 1]
    finally:
        release.set()
