"""The command line (simkit.cli): output formats, results files, and exit status 2 with one
``simkit: error:`` line for every bad input."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pandas as pd
import pytest

import simkit

from simkit.cli import main
from simkit.core import runner as R
from simkit.core import store

ESTIMATE = {"mean", "se", "ci_low", "ci_high"}
N = "2e4"


def cli(capsys, *argv):
    """Run the CLI in this process: (exit status, stdout, stderr)."""
    rc = main(list(argv))
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def ok(capsys, *argv) -> str:
    rc, out, err = cli(capsys, *argv)
    assert rc == 0, err
    assert "Traceback" not in err
    return out


# --- listing -------------------------------------------------------------------------------

def test_games(capsys):
    out = ok(capsys, "games")
    assert "ochko" in out and "stand_at" in out and "casino_like" in out
    recs = json.loads(ok(capsys, "games", "--format", "json"))
    names = [r["game"] for r in recs]
    assert {"ochko", "ochko_session", "gin"} <= set(names)
    assert recs[names.index("ochko")]["default_strategy"] == "stand_at(17)"
    csv = pd.read_csv(io.StringIO(ok(capsys, "games", "--format", "csv")))
    assert csv["game"].tolist() == names


def test_rules(capsys):
    out = ok(capsys, "rules", "ochko")
    for word in ["banker_stop", "an integer in 2..22", "deck", "one of 36, 52", "strategy stand_at",
                 "preset casino_like"]:
        assert word in out, word
    recs = json.loads(ok(capsys, "rules", "ochko", "--format", "json"))
    by = {r["option"]: r for r in recs}
    assert by["banker_stop"]["default"] == 17 and by["banker_stop"]["allowed"] == "an integer in 2..22"
    assert by["ties"]["allowed"] == "one of bank, push"
    assert "preset text1" in by


def test_no_command_shows_readable_help(capsys):
    rc, out, err = cli(capsys)
    text = out + err
    assert "Commands:" in text
    assert any(line.strip().startswith("run ") for line in text.splitlines())
    assert not text.startswith("simkit: error:")


def test_version_and_help(capsys):
    assert "simkit" in ok(capsys, "--version")
    assert "sweep" in ok(capsys, "--help")
    assert "--grid" in ok(capsys, "sweep", "--help")


# --- run and sweep -------------------------------------------------------------------------

def test_run_json(capsys):
    obj = json.loads(ok(capsys, "run", "ochko", "-n", N, "--format", "json"))
    assert {"game", "rules", "strategies", "n", "seed", "metrics"} <= set(obj)
    assert obj["game"] == "ochko" and obj["rules"] == "ochko"
    assert obj["strategies"] == {"p1": "stand_at(t=17)"}
    assert obj["n"] == 20_000 and obj["seed"] == 0 and obj["complete"] is True
    assert {"bank_result", "p1_result", "p1_win", "banker_bust"} <= set(obj["metrics"])
    units = {m.name: m.unit for m in simkit.get_game("ochko").metrics(simkit.parse_game("ochko")[1])}
    for name, e in obj["metrics"].items():
        assert set(e) == ESTIMATE | {"unit"}, name
        assert e["unit"] == units[name] and e["unit"], name
        assert e["ci_low"] <= e["mean"] <= e["ci_high"], name
    assert obj["metrics"]["bank_result"]["mean"] == pytest.approx(-obj["metrics"]["p1_result"]["mean"])


def test_run_options_reach_the_simulation(capsys):
    obj = json.loads(ok(capsys, "run", "ochko(banker_stop=16)", "-r", "deck=52", "-s", "p1=stand_at(15)",
                        "--seed", "3", "-n", N, "--format", "json", "--workers", "2"))
    assert obj["rules"] == "ochko(deck=52,banker_stop=16)"
    assert obj["strategies"] == {"p1": "stand_at(t=15)"} and obj["seed"] == 3
    same = json.loads(ok(capsys, "run", "ochko", "-r", "banker_stop=16", "-r", "deck=52",
                         "-s", "p1=stand_at(t=15)", "--seed", "3", "-n", "20_000", "--format", "json"))
    assert same == obj  # same request, same numbers, whatever the spelling and the workers


def test_sweep_json(capsys):
    objs = json.loads(ok(capsys, "sweep", "ochko", "--grid", "banker_stop=16..17", "-n", N,
                         "--format", "json"))
    assert isinstance(objs, list) and len(objs) == 2
    assert [o["grid"] for o in objs] == [{"banker_stop": 16}, {"banker_stop": 17}]
    assert [o["rules"] for o in objs] == ["ochko(banker_stop=16)", "ochko"]
    for o in objs:
        assert {"game", "rules", "strategies", "n", "seed", "metrics"} <= set(o)
        assert all(set(e) == ESTIMATE | {"unit"} for e in o["metrics"].values())
    objs = json.loads(ok(capsys, "sweep", "ochko", "--grid", "banker_stop=16,17", "--grid",
                         "p1.t=14..18:2", "-n", "8192", "--format", "json"))
    assert [(o["grid"]["banker_stop"], o["grid"]["p1.t"]) for o in objs] == [
        (16, 14), (16, 16), (16, 18), (17, 14), (17, 16), (17, 18)]
    assert objs[1]["strategies"] == {"p1": "stand_at(t=16)"}


def test_csv_and_table_formats(capsys):
    csv = pd.read_csv(io.StringIO(ok(capsys, "run", "ochko", "-n", N, "--format", "csv")))
    for col in ["game", "rules", "strategies", "metric", "mean", "se", "ci_low", "ci_high", "n", "seed",
                "game_version", "simkit_version", "created"]:
        assert col in csv.columns, col
    assert (csv["n"] == 20_000).all() and "p1_result" in set(csv["metric"])
    sw = pd.read_csv(io.StringIO(ok(capsys, "sweep", "ochko", "--grid", "banker_stop=16..17", "-n", N,
                                    "--format", "csv")))
    assert sorted(set(sw["banker_stop"])) == [16, 17] and len(sw) == 2 * len(csv)
    table = ok(capsys, "run", "ochko", "-n", N)
    assert table.splitlines()[0].startswith("game: ochko")
    assert "p1_result" in table and "ci_high" in table


def test_metric_filter(capsys):
    csv = pd.read_csv(io.StringIO(ok(capsys, "run", "ochko", "-n", N, "--format", "csv", "-m", "p1_result")))
    assert csv["metric"].tolist() == ["p1_result"]
    obj = json.loads(ok(capsys, "run", "ochko", "-n", N, "--format", "json", "-m", "p1_result",
                        "-m", "bank_result"))
    assert set(obj["metrics"]) == {"p1_result", "bank_result"}
    objs = json.loads(ok(capsys, "sweep", "ochko", "--grid", "banker_stop=16..17", "-n", N,
                         "--format", "json", "-m", "p1_result"))
    assert all(set(o["metrics"]) == {"p1_result"} for o in objs)
    table = ok(capsys, "run", "ochko", "-n", N, "-m", "p1_result")
    assert "p1_result" in table and "bank_result" not in table


@pytest.mark.parametrize("ext", ["parquet", "csv"])
def test_output_files(capsys, tmp_path, ext):
    out = tmp_path / f"res.{ext}"
    printed = pd.read_csv(io.StringIO(ok(capsys, "run", "ochko", "-n", N, "-o", str(out), "--format", "csv")))
    df, meta = store.read_table(str(out))
    for col in ["game", "rules", "strategies", "seed", "n", "game_version", "simkit_version", "created"]:
        assert col in df.columns
    assert df["metric"].tolist() == printed["metric"].tolist()
    pd.testing.assert_series_equal(df["mean"], printed["mean"], check_exact=False, rtol=1e-15)
    if ext == "parquet":
        assert meta["complete"] is True and meta["request"]["n"] == 20_000
    # -o with a sweep
    sw = tmp_path / f"sweep.{ext}"
    ok(capsys, "sweep", "ochko", "--grid", "banker_stop=16..17", "-n", "8192", "-o", str(sw))
    df = store.read_table(str(sw))[0]
    assert sorted(set(df["banker_stop"])) == [16, 17]
    assert [f for f in os.listdir(tmp_path) if f.startswith(".simkit-")] == []


def test_rows_file(capsys, tmp_path):
    rows = tmp_path / "rows.parquet"
    ok(capsys, "run", "ochko", "-n", "5000", "--rows", str(rows))
    df = pd.read_parquet(rows)
    assert len(df) == 5000 and "p1_result" in df.columns


def test_precision_option(capsys):
    obj = json.loads(ok(capsys, "run", "ochko", "-n", "1e6", "--precision", "0.02", "--format", "json"))
    assert obj["n"] < 10**6
    assert all(max(e["mean"] - e["ci_low"], e["ci_high"] - e["mean"]) <= 0.02
               for e in obj["metrics"].values())


@pytest.mark.slow
def test_python_dash_m_simkit_subprocess(tmp_path):
    env = dict(os.environ, SIMKIT_NO_PROGRESS="1")
    p = subprocess.run([sys.executable, "-m", "simkit", "run", "ochko", "-n", N, "--format", "json",
                        "-o", str(tmp_path / "r.parquet")],
                       capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    obj = json.loads(p.stdout)
    assert obj["n"] == 20_000 and set(obj["metrics"]["p1_result"]) == ESTIMATE | {"unit"}
    assert (tmp_path / "r.parquet").exists()
    bad = subprocess.run([sys.executable, "-m", "simkit", "run", "ochko", "-r", "banker_stop=99"],
                         capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path)
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and bad.stderr.startswith("simkit: error: ")
    assert "Traceback" not in bad.stderr


# --- errors --------------------------------------------------------------------------------

ERRORS = [
    ("unknown-game", ["run", "blackjack"], r"unknown game 'blackjack': available games are .*ochko"),
    ("unknown-game-rules", ["rules", "blackjack"], r"unknown game 'blackjack'"),
    ("unknown-game-sweep", ["sweep", "blackjack", "--grid", "x=1"], r"unknown game 'blackjack'"),
    ("unknown-option", ["run", "ochko", "-r", "bankerstop=16"],
     r"unknown option 'bankerstop': valid options are players, .*banker_stop"),
    ("unknown-option-in-game", ["run", "ochko(foo=1)"], r"unknown option 'foo'"),
    ("unknown-option-grid", ["sweep", "ochko", "--grid", "foo=1,2"], r"unknown option 'foo'"),
    ("bad-value", ["run", "ochko", "-r", "banker_stop=abc"],
     r"bad value 'abc' for banker_stop: expected an integer in 2\.\.22"),
    ("out-of-range", ["run", "ochko(banker_stop=99)"], r"banker_stop=99 is out of range"),
    ("bad-choice", ["run", "ochko", "-r", "deck=40"], r"deck=40 is not allowed: choose one of 36, 52"),
    ("bad-grid-value", ["sweep", "ochko", "--grid", "banker_stop=16.5,17"], r"bad value '16.5'"),
    ("unknown-preset", ["run", "ochko(preset=vegas)"], r"unknown preset 'vegas'.*casino_like"),
    ("unknown-strategy", ["run", "ochko", "-s", "p1=hit_me"],
     r"unknown strategy 'hit_me' for ochko: available strategies are stand_at, random, table"),
    ("bad-strategy-value", ["run", "ochko", "-s", "p1=stand_at(30)"], r"stand_at\.t=30 is out of range"),
    ("strategy-without-seat", ["run", "ochko", "-s", "stand_at(16)"], r"write SEAT=NAME"),
    ("unknown-seat", ["run", "ochko", "-s", "p2=stand_at(16)"], r"unknown seat 'p2': this game has seats p1"),
    ("unknown-seat-grid", ["sweep", "ochko", "--grid", "p2.t=15,16"], r"unknown seat 'p2'"),
    ("unknown-param-grid", ["sweep", "ochko", "--grid", "p1.x=15,16"], r"strategy stand_at has parameters t"),
    ("grid-not-numbers", ["sweep", "ochko", "--grid", "banker_stop=a..b"], r"malformed grid 'banker_stop=a\.\.b'"),
    ("grid-no-equals", ["sweep", "ochko", "--grid", "foo"], r"malformed grid 'foo'"),
    ("grid-backwards", ["sweep", "ochko", "--grid", "banker_stop=17..16"], r"malformed grid"),
    ("grid-zero-step", ["sweep", "ochko", "--grid", "banker_stop=16..17:0"], r"malformed grid"),
    ("grid-empty", ["sweep", "ochko", "--grid", "banker_stop="], r"malformed grid"),
    ("grid-twice", ["sweep", "ochko", "--grid", "banker_stop=16", "--grid", "banker_stop=17"],
     r"a key appears twice"),
    ("grid-missing", ["sweep", "ochko"], r"Missing option '--grid'"),
    ("n-zero", ["run", "ochko", "-n", "0"], r"bad number of deals '0'"),
    ("n-negative", ["run", "ochko", "-n", "-5"], r"bad number of deals '-5'"),
    ("n-fraction", ["run", "ochko", "-n", "2.5"], r"bad number of deals"),
    ("n-text", ["run", "ochko", "-n", "abc"], r"bad number of deals 'abc'"),
    ("n-inf", ["run", "ochko", "-n", "inf"], r"bad number of deals"),
    ("bad-extension", ["run", "ochko", "-n", N, "-o", "results.txt"], r"must end in \.parquet or \.csv"),
    ("bad-rows-extension", ["run", "ochko", "-n", N, "--rows", "rows.json"], r"must end in \.parquet or \.csv"),
    ("too-many-rows", ["run", "ochko", "-n", "2e6", "--rows", "rows.csv"], r"per-deal rows"),
    ("unknown-metric", ["run", "ochko", "-n", N, "-m", "p9_result"], r"unknown metric 'p9_result': metrics are .*p1_result"),
    ("resume-without-output", ["run", "ochko", "--resume"], r"--resume needs -o"),
    ("resume-missing-file", ["run", "ochko", "-o", "none.parquet", "--resume"], r"not found"),
    ("resume-csv", ["run", "ochko", "-o", "r.csv", "--resume"], r"needs a \.parquet"),
    ("bad-seed", ["run", "ochko", "--seed", "-1"], r"--seed must be a non-negative integer"),
    ("bad-workers", ["run", "ochko", "--workers", "0"], r"--workers must be at least 1"),
    ("bad-precision", ["run", "ochko", "--precision", "-1"], r"--precision must be positive"),
    ("bad-format", ["run", "ochko", "--format", "xml"], r"Invalid value for '--format'"),
    ("bad-backend", ["run", "ochko", "--backend", "gpu"], r"Invalid value for '--backend'"),
    ("unknown-flag", ["run", "ochko", "--frobnicate"], r"No such option"),
    ("unknown-command", ["simulate", "ochko"], r"No such command"),
    ("missing-n-value", ["run", "ochko", "-n"], r"requires an argument"),
    ("policy-file-missing", ["run", "ochko", "-n", N, "-s", "p1=table(path=/no/such.csv)"],
     r"policy file '/no/such\.csv' not found"),
]


def assert_one_error_line(rc, out, err, pattern):
    import re
    assert rc == 2, (rc, err)
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), err
    assert lines[0].startswith("simkit: error: "), err
    assert re.search(pattern, lines[0]), (pattern, lines[0])
    assert out == ""


@pytest.mark.parametrize("argv,pattern", [pytest.param(a, p, id=i) for i, a, p in ERRORS])
def test_bad_input_exits_2_with_one_line(capsys, tmp_path, monkeypatch, argv, pattern):
    monkeypatch.chdir(tmp_path)
    if "r.csv" in argv:
        (tmp_path / "r.csv").write_text("game,metric,mean\nochko,m,1\n")
    rc, out, err = cli(capsys, *argv)
    assert_one_error_line(rc, out, err, pattern)
    assert not (tmp_path / "results.txt").exists() and not (tmp_path / "none.parquet").exists()


@pytest.fixture
def foreign_files(tmp_path):
    (tmp_path / "junk.parquet").write_bytes(b"not a parquet file at all" * 4)
    pd.DataFrame({"a": [1, 2]}).to_parquet(tmp_path / "foreign.parquet")
    good = tmp_path / "other.parquet"
    assert main(["run", "ochko", "-n", "8192", "--seed", "1", "-o", str(good), "--format", "csv"]) == 0
    return tmp_path


@pytest.mark.parametrize("name,pattern", [
    ("junk.parquet", r"cannot read results file .*junk\.parquet"),
    ("foreign.parquet", r"not a simkit results file"),
    ("other.parquet", r"holds a different request"),
])
def test_resume_with_unreadable_or_foreign_file(capsys, foreign_files, name, pattern):
    capsys.readouterr()
    p = foreign_files / name
    before = p.read_bytes()
    rc, out, err = cli(capsys, "run", "ochko", "-n", N, "-o", str(p), "--resume")
    assert_one_error_line(rc, out, err, pattern)
    assert p.read_bytes() == before


def test_resume_with_tampered_metadata_is_a_user_error(capsys, tmp_path):
    import pyarrow.parquet as pq
    p = tmp_path / "t.parquet"
    assert main(["run", "ochko", "-n", N, "-o", str(p), "--format", "csv"]) == 0
    capsys.readouterr()
    t = pq.read_table(p)
    md = dict(t.schema.metadata)
    meta = json.loads(md[b"simkit"])
    meta["format"], meta["chunks"] = 1, [{"0": "garbage"}]  # as an old file kept them
    md[b"simkit"] = json.dumps(meta).encode()
    pq.write_table(t.replace_schema_metadata(md), p)
    rc, out, err = cli(capsys, "run", "ochko", "-n", N, "-o", str(p), "--resume")
    assert_one_error_line(rc, out, err, r"results file")


# --- a failing command leaves an existing results file alone --------------------------------

@pytest.fixture
def results_file(tmp_path):
    p = tmp_path / "keep.parquet"
    assert main(["run", "ochko", "-n", "8192", "--seed", "7", "-o", str(p), "--format", "csv"]) == 0
    c = tmp_path / "keep.csv"
    assert main(["run", "ochko", "-n", "8192", "--seed", "7", "-o", str(c), "--format", "csv"]) == 0
    return {".parquet": (p, p.read_bytes(), p.stat().st_mtime_ns),
            ".csv": (c, c.read_bytes(), c.stat().st_mtime_ns)}


_UNTOUCHED = [(i, a, p) for i, a, p in ERRORS
              if a[0] in ("run", "sweep") and "-o" not in a and "--resume" not in a
              and i not in ("grid-missing", "unknown-flag", "missing-n-value")]


@pytest.mark.parametrize("ext", [".parquet", ".csv"])
@pytest.mark.parametrize("argv,pattern", [
    pytest.param(a, p, id=i)
    for i, a, p in _UNTOUCHED])
def test_failing_command_keeps_existing_results_file(capsys, tmp_path, monkeypatch, results_file,
                                                     ext, argv, pattern):
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    path, data, mtime = results_file[ext]
    if "-n" not in argv:
        argv = argv + ["-n", N]
    rc, out, err = cli(capsys, *argv, "-o", str(path))
    assert_one_error_line(rc, out, err, pattern)
    assert path.read_bytes() == data
    assert path.stat().st_mtime_ns == mtime
    assert [f for f in os.listdir(tmp_path) if f.startswith(".simkit-")] == []


# --- Ctrl-C --------------------------------------------------------------------------------

def test_ctrl_c_saves_and_resume_finishes(capsys, tmp_path, monkeypatch):
    out = tmp_path / "ctrl_c.parquet"
    argv = ["run", "ochko", "-n", "6e4", "--seed", "2", "-o", str(out), "--format", "json"]
    orig = R.Backend.map

    def map_(self, units, fn=R.execute_unit):
        for k, item in enumerate(orig(self, units, fn)):
            if k == 5:
                raise KeyboardInterrupt
            yield item

    monkeypatch.setattr(R.Backend, "map", map_)
    rc, stdout, err = cli(capsys, *argv)
    assert rc == 130
    assert "simkit: interrupted" in err and "--resume" in err and "Traceback" not in err
    partial = json.loads(stdout)
    assert partial["complete"] is False and partial["n"] == 5 * 4096
    meta = store.read_table(str(out))[1]
    assert meta["complete"] is False and len(store.read_chunks(str(out))[0]) == 5
    monkeypatch.undo()
    resumed = json.loads(ok(capsys, *argv, "--resume"))
    fresh = json.loads(ok(capsys, *argv[:-4], "--format", "json"))
    assert resumed["complete"] is True
    assert resumed["metrics"] == fresh["metrics"] and resumed["n"] == fresh["n"] == 60_000


def _cpu_seconds(pid):
    """User + system CPU seconds of process ``pid`` (Linux ``/proc``), or None elsewhere."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.slow
def test_real_sigint_saves_and_resume_gives_the_uninterrupted_numbers(tmp_path):
    """A real Ctrl-C (SIGINT) to ``python -m simkit``: exit 130, finished chunks saved, and
    ``--resume`` ends with exactly the numbers of an uninterrupted run."""
    import signal
    import time
    env = dict(os.environ, SIMKIT_NO_PROGRESS="1")
    out = tmp_path / "big.parquet"
    argv = [sys.executable, "-m", "simkit", "run", "ochko", "-n", "1e8", "--seed", "4",
            "--format", "json", "-m", "bank_result", "-m", "p1_win"]
    # Interrupt inside the run loop, not during start-up: compile the kernel first (CI starts with
    # a fresh NUMBA_CACHE_DIR), then wait for 4 s of the child's CPU time (start-up takes about
    # 2): wall time is no measure on a loaded machine or beside other pytest-xdist workers.
    warm = subprocess.run(["1e4" if a == "1e8" else a for a in argv], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=300)
    assert warm.returncode == 0, warm.stderr
    p = subprocess.Popen(argv + ["-o", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env, cwd=tmp_path)
    t0 = time.monotonic()
    while p.poll() is None and time.monotonic() - t0 < 120:
        cpu = _cpu_seconds(p.pid)
        if (time.monotonic() - t0 if cpu is None else cpu) >= 4:
            break
        time.sleep(0.05)
    if p.poll() is not None:
        pytest.skip("the run finished before the interrupt; this machine is too fast for n=1e8")
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=60)
    assert p.returncode == 130, stderr
    assert "Traceback" not in stderr and "simkit: interrupted" in stderr and "--resume" in stderr
    partial = json.loads(stdout)
    assert partial["complete"] is False and 0 < partial["n"] < 10**8
    df, meta = store.read_table(str(out))
    assert meta["complete"] is False and (df["n"] == partial["n"]).all()
    r = subprocess.run(argv + ["-o", str(out), "--resume"], capture_output=True, text=True, env=env,
                       cwd=tmp_path, timeout=110)
    assert r.returncode == 0, r.stderr
    resumed = json.loads(r.stdout)
    fresh = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=110)
    assert fresh.returncode == 0, fresh.stderr
    fresh = json.loads(fresh.stdout)
    assert resumed["complete"] is True and resumed["n"] == fresh["n"] == 10**8
    assert resumed["metrics"] == fresh["metrics"]
