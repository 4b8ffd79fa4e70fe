"""The analysis commands end an interruption as ``run`` does (issue 31): Ctrl-C exits 130 and
SIGTERM 143, with one ``simkit: interrupted`` line on stderr and the numbers of the chunks that
finished on stdout; stopped before two chunks finished, they say so and exit the same way, with
no traceback.  The interruption is the backend raising KeyboardInterrupt (or the runner's
Interrupted(SIGTERM)) after k units, in this process."""
from __future__ import annotations

import signal

import pytest

from simkit.cli import main
from simkit.core import runner as R

N = ["-n", "2e5", "--no-progress"]
COMMANDS = {
    "compare": ["compare", "ochko", "stand_at(15)", "stand_at(17)", *N],
    "tournament": ["tournament", "ochko", "-s", "stand_at(15)", "-s", "stand_at(17)", "-s",
                   "random", *N],
    "best": ["best", "ochko", "--grid", "p1.t=15..17", *N],
    "solve": ["solve", "ochko", "--row", "banker_stop=16,17", "--col", "p1.t=15,16", *N],
    # three chunks of 4,096 matches a point; stopped after four
    "odds": ["odds", "gin", "--grid", "p1.knock=0,10", "-n", "12288", "--no-progress"],
}
AFTER = {"odds": 4}


def interrupt_after(monkeypatch, k, exc):
    orig = R.Backend.map

    def map_(self, units, fn=R.execute_unit):
        done = 0
        for item in orig(self, units, fn):
            if done == k:
                raise exc
            done += 1
            yield item

    monkeypatch.setattr(R.Backend, "map", map_)


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_an_interrupted_analysis_exits_as_a_run_does(command, sig, monkeypatch, capsys):
    exc = KeyboardInterrupt() if sig == signal.SIGINT else R.Interrupted(signal.SIGTERM)
    interrupt_after(monkeypatch, AFTER.get(command, 12), exc)
    rc = main(COMMANDS[command])
    cap = capsys.readouterr()
    assert rc == 128 + sig, (rc, cap.err[-500:])
    assert "Traceback" not in cap.err
    assert cap.err.strip().splitlines()[-1].startswith("simkit: interrupted"), cap.err
    assert cap.out.strip(), "the finished chunks' numbers are shown"


@pytest.mark.parametrize("command", ["compare", "solve", "odds"])
def test_an_analysis_interrupted_before_any_chunk_exits_130(command, monkeypatch, capsys):
    interrupt_after(monkeypatch, 0, KeyboardInterrupt())
    rc = main(COMMANDS[command])
    cap = capsys.readouterr()
    assert rc == 130 and "Traceback" not in cap.err, cap.err[-500:]
    assert cap.err.strip().splitlines()[-1].startswith("simkit: interrupted"), cap.err


def _json(capsys, argv):
    import json
    rc = main(argv)
    cap = capsys.readouterr()
    assert rc == 0, cap.err[-500:]
    return json.loads(cap.out)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_interrupted_analysis_resumes_to_the_uninterrupted_numbers(command, tmp_path,
                                                                       monkeypatch, capsys):
    """``--resume -o FILE.parquet`` plays only the chunks missing from the interrupted
    analysis's file and ends with exactly the numbers of an uninterrupted analysis."""
    out = str(tmp_path / "a.parquet")
    argv = COMMANDS[command] + ["--format", "json"]
    interrupt_after(monkeypatch, AFTER.get(command, 12), KeyboardInterrupt())
    assert main(argv + ["-o", out]) == 130
    capsys.readouterr()
    monkeypatch.undo()
    from tests.test_store import record_units
    played = record_units(monkeypatch)
    resumed = _json(capsys, argv + ["-o", out, "--resume"])
    resumed_units = len(played)
    played.clear()
    fresh = _json(capsys, argv)
    assert resumed == fresh
    assert 0 < resumed_units <= len(played) - AFTER.get(command, 12)
    from simkit.core import store
    assert store.read_table(out)[1]["complete"] is True


@pytest.mark.parametrize("argv,message", [
    (["--resume"], "--resume needs -o"),
    (["--resume", "-o", "x.csv"], "needs a .parquet"),
    (["--resume", "-o", "none.parquet"], "is missing"),
])
def test_analysis_resume_errors_are_one_line(argv, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    rc = main(COMMANDS["compare"] + argv)
    cap = capsys.readouterr()
    assert rc == 2 and message in cap.err and len(cap.err.strip().splitlines()) == 1, cap.err


def test_a_resume_of_another_analysis_is_refused(tmp_path, capsys):
    out = str(tmp_path / "a.parquet")
    assert main(COMMANDS["compare"] + ["-o", out]) == 0
    capsys.readouterr()
    rc = main(COMMANDS["compare"] + ["--seed", "3", "-o", out, "--resume"])
    cap = capsys.readouterr()
    assert rc == 2 and "another request" in cap.err, cap.err


@pytest.mark.parametrize("command", ["solve", "odds"])
def test_solve_and_odds_say_the_interruption_in_one_line(command, monkeypatch, capsys):
    interrupt_after(monkeypatch, AFTER.get(command, 12), KeyboardInterrupt())
    assert main(COMMANDS[command]) == 130
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        "simkit: interrupted: the numbers above use the chunks that finished"], err


@pytest.mark.parametrize("command", ["compare", "solve"])
def test_an_interrupted_analysis_keeps_the_finished_file_it_would_replace(
        command, tmp_path, monkeypatch, capsys):
    from simkit.core import store
    out = str(tmp_path / "a.parquet")
    argv = [*COMMANDS[command], "-o", out]
    assert main(argv) == 0
    before = open(out, "rb").read()
    capsys.readouterr()
    interrupt_after(monkeypatch, 12, KeyboardInterrupt())
    assert main(argv) == 130
    err = capsys.readouterr().err
    assert open(out, "rb").read() == before, "the finished results are kept whole"
    part = store.partial_name(out)
    assert f"{out} keeps the results it held" in err and store.read_table(part)[1]["complete"] is False
    monkeypatch.undo()
    assert main([*argv, "--resume"]) == 0           # the partial one finishes and replaces it
    assert store.read_table(out)[1]["complete"] is True
