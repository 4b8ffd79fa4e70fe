"""Faults during a run, with real processes: ``simkit run`` killed (SIGKILL) or terminated
(SIGTERM) mid-run, and a Dask cluster that loses its only worker or its scheduler.  Each leaves a
results file that says ``complete: false`` with the deals that finished, and ``--resume`` ends
with exactly the numbers of an uninterrupted run.

Waits are on progress (the child's CPU time, lines a worker writes, the results file), with
generous timeouts, never on wall time alone."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from simkit.core import store

ENV = dict(os.environ, SIMKIT_NO_PROGRESS="1", SIMKIT_CHECKPOINT_SECONDS="0.2")
PY = [sys.executable, "-m", "simkit"]


def _wait_for(cond, timeout, what, proc=None):
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if cond():
            return
        if proc is not None and proc.poll() is not None:
            pytest.fail(f"{what}: the process ended first (status {proc.returncode})")
        time.sleep(0.05)
    pytest.fail(f"timed out after {timeout} s waiting for {what}")


def _meta(path):
    try:
        return store.read_table(str(path))
    except Exception:  # noqa: BLE001 - not written yet
        return None


def _json_run(argv, cwd, timeout=300, env=ENV):
    p = subprocess.run(PY + argv, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


_FRESH: dict = {}


def _fresh(argv, cwd):
    """An uninterrupted run's output (once per command in this module)."""
    if tuple(argv) not in _FRESH:
        _FRESH[tuple(argv)] = _json_run(argv, cwd)
    return _FRESH[tuple(argv)]


# --- SIGKILL and SIGTERM of a real run ----------------------------------------------------

RUN = ["run", "ochko", "-n", "1e7", "--seed", "5", "--format", "json", "-m", "p1_result", "-m", "bank_result"]


def test_sigterm_in_process_saves_and_exits_143(capsys, tmp_path, monkeypatch):
    """SIGTERM as Ctrl-C: the units in flight are merged, one line, exit 143 (the real-process
    version below is in the slow tier)."""
    import threading

    from simkit.cli import main
    from simkit.core import runner as R
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers need the main thread")
    orig = R.Backend.map

    def map_(self, units, fn=R.execute_unit):
        for k, item in enumerate(orig(self, units, fn)):
            if k == 4:
                os.kill(os.getpid(), signal.SIGTERM)
            yield item
    monkeypatch.setattr(R.Backend, "map", map_)
    out = tmp_path / "t.parquet"
    rc = main(["run", "ochko", "-n", str(20 * 4096), "--seed", "2", "-o", str(out), "--format", "json"])
    cap = capsys.readouterr()
    assert rc == 143, cap.err
    lines = cap.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("simkit: terminated (SIGTERM): "), cap.err
    assert "--resume" in lines[0]
    meta = store.read_table(str(out))[1]
    assert meta["complete"] is False and 5 <= len(store.read_chunks(str(out))[0]) < 20
    assert signal.getsignal(signal.SIGTERM) is not None  # the old handler is back
    monkeypatch.undo()
    assert main(["run", "ochko", "-n", str(20 * 4096), "--seed", "2", "-o", str(out), "--resume",
                 "--format", "json"]) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert main(["run", "ochko", "-n", str(20 * 4096), "--seed", "2", "--format", "json"]) == 0
    assert resumed["metrics"] == json.loads(capsys.readouterr().out)["metrics"]


@pytest.mark.parametrize("sig", [signal.SIGKILL,
                                 pytest.param(signal.SIGTERM, marks=pytest.mark.slow)],
                         ids=["SIGKILL", "SIGTERM"])
@pytest.mark.slow
def test_killed_or_terminated_run_leaves_a_partial_file_that_resume_completes(tmp_path, sig):
    out = tmp_path / "big.parquet"
    _json_run([a if a != "1e7" else "1e4" for a in RUN], tmp_path)  # compile outside the run
    p = subprocess.Popen(PY + RUN + ["-o", str(out)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=ENV, cwd=tmp_path)
    # a checkpoint with some chunks in it (written every 0.2 s while the run goes on)
    _wait_for(lambda: _meta(out) and store.read_chunks(str(out))[0], 120,
              "a checkpoint", p)
    p.send_signal(sig)
    stdout, stderr = p.communicate(timeout=120)
    if sig == signal.SIGKILL:
        assert p.returncode == -signal.SIGKILL
    else:
        assert p.returncode == 143, stderr
        assert "Traceback" not in stderr
        lines = stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("simkit: terminated (SIGTERM): "), stderr
        assert "--resume" in lines[0]
        assert json.loads(stdout)["complete"] is False
    df, meta = store.read_table(str(out))
    assert meta["complete"] is False
    done = sum(cnt for cnt, _, _ in store.read_chunks(str(out))[0].values())
    assert 0 < done < 10**7 and (df["n"] == done).all()
    # the same command without --resume refuses to start again over the unfinished file
    before = out.read_bytes()
    r = subprocess.run(PY + RUN + ["-o", str(out)], capture_output=True, text=True, env=ENV,
                       cwd=tmp_path, timeout=120)
    assert r.returncode == 2 and "--resume" in r.stderr and "--overwrite" in r.stderr, r.stderr
    assert out.read_bytes() == before
    resumed = _json_run(RUN + ["-o", str(out), "--resume"], tmp_path)
    fresh = _fresh(RUN, tmp_path)
    assert resumed["complete"] is True and resumed["n"] == fresh["n"] == 10**7
    assert resumed["metrics"] == fresh["metrics"]  # bit-identical
    assert store.read_table(str(out))[1]["complete"] is True


# --- a Dask cluster that goes away ----------------------------------------------------------

# a worker preload: each unit sleeps a little (so the run is long enough to break) and writes a
# line, by which the test knows that units are done; the client pickles execute_unit by name
PRELOAD = '''
import os, time
import simkit.core.runner as R
if not hasattr(R, "_test_orig_execute_unit"):  # distributed may import a preload twice
    R._test_orig_execute_unit = R.execute_unit
    def execute_unit(*a, **k):
        out = R._test_orig_execute_unit(*a, **k)
        time.sleep(0.15)
        with open(os.environ["SIMKIT_TEST_UNITS"], "a") as f:
            f.write("unit\\n")
        return out
    R.execute_unit = execute_unit
'''

DASK_RUN = ["run", "ochko", "-n", str(64 * 4096), "--seed", "3", "--format", "json", "-m", "p1_result"]


@pytest.fixture
def cluster(tmp_path):
    """A real ``dask scheduler`` and one ``dask worker`` (no nanny: killing it loses it)."""
    pytest.importorskip("distributed")
    dask = shutil.which("dask", path=os.path.dirname(sys.executable)) or shutil.which("dask")
    if dask is None:
        pytest.skip("no dask command")
    (tmp_path / "slow_units.py").write_text(PRELOAD)
    units = tmp_path / "units.log"
    env = dict(ENV, SIMKIT_TEST_UNITS=str(units))
    sfile = tmp_path / "scheduler.json"
    log = open(tmp_path / "dask.log", "w")
    procs = {}
    procs["scheduler"] = subprocess.Popen(
        [dask, "scheduler", "--port", "0", "--no-dashboard", "--host", "127.0.0.1",
         "--scheduler-file", str(sfile)], stdout=log, stderr=log, env=env, cwd=tmp_path)
    try:
        _wait_for(lambda: sfile.exists() and sfile.stat().st_size > 0, 120, "the scheduler",
                  procs["scheduler"])
        time.sleep(0.2)
        address = json.loads(sfile.read_text())["address"]
        procs["worker"] = subprocess.Popen(
            [dask, "worker", "--scheduler-file", str(sfile), "--nworkers", "1", "--nthreads", "1",
             "--no-nanny", "--no-dashboard", "--preload", str(tmp_path / "slow_units.py")],
            stdout=log, stderr=log, env=env, cwd=tmp_path)
        # the run under test gives up after SIMKIT_DASK_TIMEOUT seconds without a worker, so
        # start it only once the worker is registered (on a loaded machine that takes a while)
        from distributed import Client
        with Client(address, timeout=120) as c:
            c.wait_for_workers(1, timeout=180)
        yield dict(address=address, procs=procs, units=units, path=tmp_path)
    finally:
        for p in procs.values():
            if p.poll() is None:
                p.kill()
            p.wait(timeout=60)
        log.close()


def _units_done(cluster) -> int:
    try:
        return cluster["units"].read_text().count("unit")
    except FileNotFoundError:
        return 0


def _start_dask_run(cluster, out, timeout):
    env = dict(ENV, SIMKIT_DASK_TIMEOUT=str(timeout))
    err = open(cluster["path"] / "simkit.err", "w")
    p = subprocess.Popen(PY + DASK_RUN + ["--scheduler", cluster["address"], "-o", str(out)],
                         stdout=subprocess.PIPE, stderr=err, text=True, env=env,
                         cwd=cluster["path"])
    _wait_for(lambda: _units_done(cluster) >= 5, 180, "five units on the worker", p)
    return p, err


def _check_partial_and_resume(out, cwd):
    df, meta = store.read_table(str(out))
    assert meta["complete"] is False
    done = sum(cnt for cnt, _, _ in store.read_chunks(str(out))[0].values())
    assert 0 < done < 64 * 4096 and (df["n"] == done).all()
    resumed = _json_run(DASK_RUN + ["-o", str(out), "--resume"], cwd)  # serially, here
    fresh = _fresh(DASK_RUN, cwd)
    assert resumed["complete"] is True and resumed["metrics"] == fresh["metrics"]


@pytest.mark.slow
@pytest.mark.parametrize("lose", ["worker", "scheduler"])
def test_losing_the_dask_worker_or_scheduler_ends_with_a_partial_file(cluster, lose):
    out = cluster["path"] / "dask.parquet"
    # 6 s, not less: on a loaded machine the scheduler can take seconds to answer, and a
    # shorter limit ends the run as "lost" before the test has broken anything
    p, err = _start_dask_run(cluster, out, timeout=6)
    cluster["procs"][lose].kill()
    stdout, _ = p.communicate(timeout=120)
    err.close()
    stderr = (cluster["path"] / "simkit.err").read_text()
    assert p.returncode == 3, stderr
    assert "Traceback" not in stderr
    assert ("no Dask worker is connected" if lose == "worker" else "lost the Dask scheduler") \
        in stderr
    assert "--resume" in stderr.splitlines()[-1]
    assert json.loads(stdout)["complete"] is False
    _check_partial_and_resume(out, cluster["path"])


@pytest.mark.slow
def test_ctrl_c_while_waiting_for_a_lost_dask_worker(cluster):
    out = cluster["path"] / "dask.parquet"
    p, err = _start_dask_run(cluster, out, timeout=600)
    cluster["procs"]["worker"].kill()
    errfile = cluster["path"] / "simkit.err"
    _wait_for(lambda: "waiting up to 600 s" in errfile.read_text(), 120, "the waiting message", p)
    p.send_signal(signal.SIGINT)
    stdout, _ = p.communicate(timeout=60)
    err.close()
    stderr = errfile.read_text()
    assert p.returncode == 130, stderr
    assert "Traceback" not in stderr and "simkit: interrupted" in stderr
    _check_partial_and_resume(out, cluster["path"])


def _children(pid: int) -> set[int]:
    """Every living descendant of ``pid`` (from /proc)."""
    parents = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    parents[int(d)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    out, todo = set(), [pid]
    while todo:
        p = todo.pop()
        kids = {c for c, pp in parents.items() if pp == p}
        out |= kids
        todo += list(kids)
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
def test_sigkill_of_a_processes_run_ends_its_workers(tmp_path):
    """SIGKILL leaves no worker playing on and no resource tracker (issue 31: 730 MB for 5.7
    minutes): each worker watches its parent and ends itself."""
    p = subprocess.Popen(PY + ["run", "ochko", "-n", "1e10", "--backend", "processes",
                               "--workers", "2", "-o", str(tmp_path / "k.parquet")],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV,
                         cwd=tmp_path)
    # the two workers and the resource tracker, and a checkpoint: the workers are playing
    _wait_for(lambda: len(_children(p.pid)) >= 3 and _meta(tmp_path / "k.parquet"), 180,
              "the workers and a checkpoint", p)
    kids = _children(p.pid)
    p.kill()
    p.wait(timeout=30)
    t0 = time.monotonic()
    while any(_alive(k) for k in kids) and time.monotonic() - t0 < 10:
        time.sleep(0.1)
    left = [k for k in kids if _alive(k)]
    for k in left:  # not to leave them running when the test fails
        os.kill(k, signal.SIGKILL)
    assert not left, "workers outlived their parent by 10 s"


def _chunk_running(pid: int) -> bool:
    """The main thread waits while another thread of ``pid`` runs (a chunk's kernel), in three
    looks 0.1 s apart (start-up runs in the main thread)."""
    def state(task):
        with open(f"/proc/{pid}/task/{task}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    for _ in range(3):
        try:
            others = [state(t) for t in os.listdir(f"/proc/{pid}/task") if t != str(pid)]
            if state(pid) != "S" or "R" not in others:
                return False
        except OSError:
            return False
        time.sleep(0.1)
    return True


def _stops_at_once(argv, tmp_path, signals: int):
    """Start ``argv``, wait until its chunk runs (a thread beside the main one), send SIGINT
    ``signals`` times a second apart, and return its status and stderr, failing when it does not
    end within 20 s of the last signal (a gin match chunk plays for about 100 s)."""
    p = subprocess.Popen(PY + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=ENV, cwd=tmp_path)
    try:
        _wait_for(lambda: _chunk_running(p.pid), 180, "the chunk's thread", p)
        time.sleep(1)
        for _ in range(signals):
            p.send_signal(signal.SIGINT)
            time.sleep(1)
        _, err = p.communicate(timeout=20)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    return p.returncode, err


@pytest.mark.slow
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
@pytest.mark.parametrize("workers", [1, 2], ids=["serial", "threads"])
def test_a_second_ctrl_c_stops_a_long_chunk_at_once(tmp_path, workers):
    """``run 'gin(unit=match)' -n 1e8``: chunks of minutes; the first Ctrl-C waits for them, the
    second ends the run at once (it took 100 s) with what had finished saved."""
    out = tmp_path / "g.parquet"
    _json_run(["run", "gin(unit=match)", "-n", "10", "--format", "json"], tmp_path)  # compile
    rc, err = _stops_at_once(["run", "gin(unit=match)", "-n", "1e8", "--workers", str(workers),
                              "-o", str(out)], tmp_path, 2)
    assert rc == 130 and "Traceback" not in err, err
    assert store.read_table(str(out))[1]["complete"] is False


@pytest.mark.slow
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
def test_ctrl_c_stops_a_long_bench(tmp_path):
    rc, err = _stops_at_once(["bench", "ochko", "-n", "1e11"], tmp_path, 1)
    assert rc == 130 and err.strip().splitlines()[-1] == "simkit: interrupted", err
