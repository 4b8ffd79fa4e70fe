"""Every bad input ends with exit status 2, one ``simkit: error:`` line, no traceback, and an
existing ``-o`` file left byte for byte (issue 17).

The cases are generated from every registered game's spec (each rules option's allowed values,
each strategy kind's parameters, the seats, the presets), plus grids, ``-n``, seeds, backends,
paths and results files for ``report``.  They run in this process through
:func:`simkit.cli.main` (none of them reaches a kernel), and a handful through a real
subprocess to prove the entry point.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import fields

import pandas as pd
import pytest

import simkit
from simkit.cli import main
from simkit.core.registry import seat_names

GAMES = sorted(simkit.games())
N = ["-n", "100"]
ARABIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


def _bad_values(f):
    """``[(value, pattern)]``: values the rules option ``f`` must refuse."""
    md, d = f.metadata, f.default
    out = []
    if md.get("choices") is not None:
        out.append(("no_such_choice", r"(is not allowed: choose|expected) one of"))
    elif isinstance(d, bool):
        out.append(("maybe", r"bad value 'maybe' .*expected true or false"))
    elif isinstance(d, (int, float)):
        out.append(("abc", r"bad value 'abc'"))
        lo, hi = md["range"]
        out.append((str(hi + 1), r"is out of range: allowed"))
        out.append((str(abs(int(d))).translate(ARABIC), r"write it in ASCII digits"))
        if isinstance(d, float):
            out.append(("nan", r"is out of range"))
    return out


def _cases():
    cases = []  # (id, argv, pattern, takes_output)

    def add(i, argv, pattern, takes_output=True):
        cases.append((i, list(argv), pattern, takes_output))

    for g in GAMES:
        spec = simkit.get_game(g)
        rules = spec.rules()
        seats = seat_names(spec.seats(rules))
        opts = fields(spec.rules)
        first = opts[0]
        num = next(f for f in opts if isinstance(f.default, int) and not isinstance(f.default, bool)
                   and f.metadata.get("range"))
        # rules options: every option's bad values, in -r and in the game string
        for f in opts:
            for k, (v, pat) in enumerate(_bad_values(f)):
                add(f"{g}-r-{f.name}-{k}", ["run", g, "-r", f"{f.name}={v}", *N], pat)
        lo, hi = num.metadata["range"]
        add(f"{g}-game-string-range", ["run", f"{g}({num.name}={hi + 1})", *N], r"out of range")
        add(f"{g}-unknown-option", ["run", g, "-r", "no_such_option=1", *N],
            r"unknown option 'no_such_option': valid options are " + first.name)
        add(f"{g}-unknown-option-in-game", ["run", f"{g}(no_such_option=1)", *N], r"unknown option")
        add(f"{g}-option-without-value", ["run", g, "-r", first.name, *N], r"write key=value")
        add(f"{g}-extra-paren", ["run", f"{g}({num.name}={num.default}))", *N], r"a '\)' too many")
        add(f"{g}-open-paren", ["run", f"{g}({num.name}={num.default}", *N], r"'\(' not closed")
        add(f"{g}-repeated-r", ["run", g, "-r", f"{num.name}={lo}", "-r", f"{num.name}={hi}", *N],
            r"is given twice")
        add(f"{g}-game-string-and-r", ["run", f"{g}({num.name}={lo})", "-r", f"{num.name}={hi}", *N],
            r"is given twice .*in the game string and -r")
        add(f"{g}-unknown-game-like", ["run", g + "x", *N], r"unknown game")
        add(f"{g}-unknown-preset", ["run", f"{g}(preset=no_such_preset)", *N], r"unknown preset")
        if len(spec.presets) >= 2:
            p1, p2 = list(spec.presets)[:2]
            add(f"{g}-two-presets", ["run", f"{g}(preset={p1})", "-r", f"preset={p2}", *N],
                r"two presets given")
        # strategies
        add(f"{g}-unknown-strategy", ["run", g, "-s", "p1=no_such_strategy", *N], r"unknown strategy")
        add(f"{g}-strategy-no-seat", ["run", g, "-s", spec.default_strategy, *N], r"write SEAT=NAME")
        add(f"{g}-seat-p0", ["run", g, "-s", f"p0={spec.default_strategy}", *N], r"unknown seat 'p0'")
        add(f"{g}-seat-past-last", ["run", g, "-s", f"p{len(seats) + 1}={spec.default_strategy}", *N],
            r"unknown seat")
        add(f"{g}-repeated-seat", ["run", g, "-s", f"p1={spec.default_strategy}", "-s",
                                   f"p1={spec.default_strategy}", *N], r"seat p1 is given two strategies")
        add(f"{g}-strategy-paren", ["run", g, "-s", "p1=" + spec.default_strategy.split("(")[0] + "((", *N],
            r"cannot read strategy")
        for name, kind in spec.strategies.items():
            add(f"{g}-{name}-unknown-param", ["run", g, "-s", f"p1={name}(no_such=1)", *N],
                r"unknown parameter 'no_such'")
            add(f"{g}-{name}-too-many", ["run", g, "-s", f"p1={name}(" + ",".join(["1"] * (len(kind.params) + 1)) + ")", *N],
                r"too many values")
            ranged = [p for p in kind.params if p.range]
            if ranged:
                p = ranged[0]
                add(f"{g}-{name}-{p.name}-range", ["run", g, "-s", f"p1={name}({p.name}={p.range[1] + 1})", *N],
                    r"out of range")
                add(f"{g}-{name}-{p.name}-non-ascii", ["run", g, "-s",
                                                      f"p1={name}({p.name}={str(abs(int(p.default))).translate(ARABIC)})", *N],
                    r"ASCII digits")
                add(f"{g}-{name}-{p.name}-twice", ["run", g, "-s", f"p1={name}({p.default},{p.name}={p.default})", *N],
                    r"is given twice")
        # grids
        grid = lambda *items: ["sweep", g, *[x for it in items for x in ("--grid", it)], *N]  # noqa: E731
        add(f"{g}-grid-words", grid(f"{num.name}=a..b"), r"malformed grid")
        add(f"{g}-grid-nan-inf", grid(f"{num.name}=nan..inf"), r"finite numbers")
        add(f"{g}-grid-backwards", grid(f"{num.name}={hi}..{lo}"), r"malformed grid")
        add(f"{g}-grid-zero-step", grid(f"{num.name}={lo}..{hi}:0"), r"malformed grid")
        add(f"{g}-grid-too-many", grid(f"{num.name}=0..1e9"), r"at most 10000 points")
        add(f"{g}-grid-no-equals", grid(num.name), r"malformed grid")
        add(f"{g}-grid-empty", grid(f"{num.name}="), r"malformed grid")
        add(f"{g}-grid-twice", grid(f"{num.name}={lo}", f"{num.name}={hi}"), r"a key appears twice")
        add(f"{g}-grid-out-of-range", grid(f"{num.name}={lo},{hi + 1}"), r"out of range")
        add(f"{g}-grid-non-ascii", grid(f"{num.name}={str(lo).translate(ARABIC)}..{str(hi).translate(ARABIC)}"),
            r"ASCII digits")
        add(f"{g}-grid-unknown-key", grid("no_such_option=1,2"), r"unknown option 'no_such_option'")
        add(f"{g}-grid-unknown-param", grid("p1.no_such=1,2"), r"has parameters")
        add(f"{g}-grid-unknown-seat", grid(f"p{len(seats) + 1}.t=1,2"), r"unknown seat")
        add(f"{g}-grid-fixed-too", ["sweep", f"{g}({num.name}={lo})", "--grid", f"{num.name}={lo},{hi}", *N],
            r"both fixed .* and on the grid")
        add(f"{g}-grid-missing", ["sweep", g, *N], r"Missing option '--grid'")
        # n, seeds, workers, backends, metrics
        for k, (n, pat) in enumerate([("0", "bad number of deals"), ("-1", "bad number of deals"),
                                      ("abc", "bad number of deals"), ("1.5", "bad number of deals"),
                                      ("inf", "bad number of deals"), ("nan", "bad number of deals"),
                                      ("١٠٠", "bad number of deals")]):
            add(f"{g}-n-{k}", ["run", g, "-n", n], pat)
        for k, (s, pat) in enumerate([("-1", "non-negative"), (str(2 ** 70), "up to 2\\*\\*63-1"),
                                      ("16".translate(FULLWIDTH), "ASCII digits"), ("abc", "bad seed"),
                                      ("1.5", "bad seed")]):
            add(f"{g}-seed-{k}", ["run", g, "--seed", s, *N], pat)
        add(f"{g}-workers-0", ["run", g, "--workers", "0", *N], r"--workers must be at least 1")
        add(f"{g}-workers-non-ascii", ["run", g, "--workers", "4".translate(FULLWIDTH), *N], r"ASCII digits")
        add(f"{g}-workers-serial", ["run", g, "--workers", "4", "--backend", "serial", *N],
            r"--backend serial runs one worker")
        add(f"{g}-backend-unknown", ["run", g, "--backend", "gpu", *N], r"Invalid value for '--backend'")
        add(f"{g}-scheduler-empty", ["run", g, "--scheduler", "", *N], r"--scheduler needs the address")
        add(f"{g}-scheduler-scheme", ["run", g, "--scheduler", "foo://bar", *N], r"unknown scheme 'foo'")
        add(f"{g}-scheduler-port", ["run", g, "--scheduler", "localhost:abc", *N], r"bad --scheduler")
        add(f"{g}-scheduler-ipv6", ["run", g, "--scheduler", "tcp://[::1", *N], r"bad --scheduler")
        add(f"{g}-workers-too-many", ["run", g, "--workers", "100000", *N], r"at most 1024")
        add(f"{g}-output-empty", ["run", g, "-o", "", *N], r"'' is not a file name", takes_output=False)
        add(f"{g}-output-too-long", ["run", g, "-o", "x" * 300 + ".parquet", *N],
            r"is 308 bytes long, at most \d+ here", takes_output=False)
        add(f"{g}-rows-per-sweep", ["sweep", g, "--grid", f"{num.name}={lo},{hi}", "-n", "6e5",
                                    "--rows", "rows.parquet"], r"at most 1,000,000 deals in all")
        add(f"{g}-scheduler-threads", ["run", g, "--scheduler", "tcp://127.0.0.1:1", "--backend", "threads", *N],
            r"--scheduler runs on Dask")
        add(f"{g}-unknown-metric", ["run", g, "-m", "no_such_metric", *N], r"unknown metric 'no_such_metric'")
        add(f"{g}-precision", ["run", g, "--precision", "0", *N], r"--precision must be positive")
        add(f"{g}-too-many-rows", ["run", g, "-n", "2e6", "--rows", "rows.parquet"], r"per-deal rows")
        add(f"{g}-resume-no-output", ["run", g, "--resume", *N], r"--resume needs -o", takes_output=False)
        add(f"{g}-bad-output", ["run", g, "-o", "out.txt", *N], r"must end in \.parquet or \.csv",
            takes_output=False)
        add(f"{g}-bad-rows-path", ["run", g, "--rows", "rows.json", *N], r"must end in \.parquet or \.csv")
        # bench, exact, rules, metrics
        add(f"{g}-bench-workers-0", ["bench", g, "--workers", "0", "-n", "100"], r"--workers must be at least 1")
        add(f"{g}-bench-n-0", ["bench", g, "-n", "0"], r"bad number of deals")
        add(f"{g}-bench-n-huge", ["bench", g, "-n", "1e30"], r"at most 1e12")
        add(f"{g}-bench-seed", ["bench", g, "--seed", "-3", "-n", "100"], r"non-negative")
        add(f"{g}-bench-option", ["bench", g, "-r", "no_such_option=1", "-n", "100"], r"unknown option")
        if spec.exact is None:
            add(f"{g}-exact", ["exact", g], r"has no exact analysis")
        else:  # what an exact analysis cannot honour is refused, never ignored (issue 30)
            add(f"{g}-exact-grid", ["exact", g, "--grid", "p1.no_such=1,2"],
                r"exact analysis takes (no --grid|--grid on .* only), not p1.no_such")
            if "p1" not in spec.exact_takes:
                add(f"{g}-exact-strategy", ["exact", g, "-s", f"p1={spec.default_strategy}"],
                    r"exact analysis takes no strategy \(-s\), not p1")
        add(f"{g}-exact-option", ["exact", f"{g}(no_such_option=1)"], r"unknown option")
        add(f"{g}-rules-option", ["rules", f"{g}({num.name}={hi + 1})"], r"out of range")
        add(f"{g}-rules-paren", ["rules", f"{g}(("], r"cannot read game")
        add(f"{g}-metrics-option", ["metrics", f"{g}(no_such_option=1)"], r"unknown option")
    # commands and files that belong to no game
    add("unknown-command", ["simulate", "ochko"], r"No such command", takes_output=False)
    add("unknown-flag", ["run", "ochko", "--frobnicate"], r"No such option")
    add("metrics-unknown-game", ["metrics", "blackjack"], r"unknown game 'blackjack'")
    for name, pat in [("folder.parquet", r"it is a folder"), ("plain_folder", r"it is a folder"),
                      ("missing.parquet", r"not found"), ("junk.parquet", r"cannot read results file"),
                      ("empty.parquet", r"cannot read results file"),
                      ("foreign.parquet", r"not a simkit results file"),
                      ("foreign.csv", r"not a simkit results table"),
                      ("notes.txt", r"results files end in \.parquet or \.csv")]:
        add(f"report-{name}", ["report", name], pat)
    add("report-bad-output", ["report", "junk.parquet", "-o", "report.txt"], r"must end in \.html",
        takes_output=False)
    add("report-nothing", ["report"], r"Missing argument", takes_output=False)
    add("report-text-mean", ["report", "text_mean.csv"], r"'mean' column that is not numbers")
    add("odds-option-twice", ["odds", "gin(target=50)", "-r", "target=60", "--grid",
                              "p1.knock=0,10", *N], r"'target' is given twice")
    add("long-input-clipped", ["run", "ochko", "-r", "d" * 100_000 + "=3", *N],
        r"unknown option 'd+ \[\.\.\. [\d,]+ characters \.\.\.\]")
    return cases


CASES = _cases()


def test_there_are_enough_cases():
    assert len(CASES) >= 100 * 2
    assert {a[1] for _, a, _, _ in CASES if a[0] == "run"} >= set(GAMES)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("bad_input")
    (d / "folder.parquet").mkdir()
    (d / "plain_folder").mkdir()
    (d / "junk.parquet").write_bytes(b"not a parquet file at all" * 4)
    (d / "empty.parquet").write_bytes(b"")
    pd.DataFrame({"a": [1, 2]}).to_parquet(d / "foreign.parquet")
    (d / "foreign.csv").write_text("a,b\n1,2\n")
    (d / "notes.txt").write_text("hello\n")
    pd.DataFrame({"game": ["ochko"], "metric": ["p1_result"], "mean": ["abc"], "se": [0.1]}).to_csv(
        d / "text_mean.csv", index=False)
    return d


def test_a_bad_dask_timeout_is_refused_before_the_run(monkeypatch, capsys):
    monkeypatch.setenv("SIMKIT_DASK_TIMEOUT", "abc")
    rc = main(["run", "ochko", "--backend", "dask", "--workers", "2", *N])
    check_one_line(rc, *capsys.readouterr(), r"SIMKIT_DASK_TIMEOUT='abc'")


def test_a_closed_pipe_is_not_an_error(tmp_path):
    """``simkit ... | head``: the reader leaves early; simkit exits 0 with nothing on stderr.
    ``true`` leaves before simkit has imported, so the write surely meets a closed pipe (it
    exited 1 before)."""
    exe = os.path.join(os.path.dirname(sys.executable), "simkit")
    cmd = f"{exe if os.path.exists(exe) else sys.executable + ' -m simkit'} games"
    p = subprocess.run(f"{cmd} | true; exit ${{PIPESTATUS[0]}}", shell=True,
                       executable="/bin/bash", capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stderr == "", p


def check_one_line(rc, out, err, pattern):
    assert rc == 2, (rc, out, err)
    assert "Traceback" not in err and "Traceback" not in out
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), err
    assert lines[0].startswith("simkit: error: "), err
    assert re.search(pattern, lines[0]), (pattern, lines[0])
    assert out == "", out


@pytest.mark.parametrize("argv,pattern,takes_output",
                         [pytest.param(a, p, t, id=i) for i, a, p, t in CASES])
def test_bad_input(capsys, monkeypatch, files, argv, pattern, takes_output):
    monkeypatch.chdir(files)
    before = set(os.listdir(files))
    target = None
    if takes_output:
        target = files / ("keep.html" if argv[0] == "report" else "keep.parquet")
        target.write_bytes(b"an existing results file: these bytes must stay\n")
        argv = argv + ["-o", str(target)]
    rc = main(argv)
    cap = capsys.readouterr()
    check_one_line(rc, cap.out, cap.err, pattern)
    if target is not None:
        assert target.read_bytes() == b"an existing results file: these bytes must stay\n"
    assert set(os.listdir(files)) <= before | {"keep.parquet", "keep.html"}, "a file was written"


SUBPROCESS = ["ochko-grid-nan-inf", "gin-seed-1", "hearts-scheduler-scheme"]


@pytest.mark.slow
@pytest.mark.parametrize("case", SUBPROCESS)
def test_bad_input_through_the_entry_point(files, case):
    _, argv, pattern, takes_output = next(c for c in CASES if c[0] == case)
    target = files / ("sub.html" if argv[0] == "report" else "sub.parquet")
    target.write_bytes(b"keep\n")
    exe = os.path.join(os.path.dirname(sys.executable), "simkit")
    cmd = [exe] if os.path.exists(exe) and case != "gin-seed-1" else [sys.executable, "-m", "simkit"]
    p = subprocess.run(cmd + argv + (["-o", str(target)] if takes_output else []), cwd=files,
                       capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, SIMKIT_NO_PROGRESS="1"))
    check_one_line(p.returncode, p.stdout, p.stderr, pattern)
    assert target.read_bytes() == b"keep\n"


def test_ctrl_c_while_the_commands_load_is_one_line(monkeypatch, capsys):
    """Ctrl-C while the console script imports the command modules: status 130 and one line
    (it was a traceback).  The interrupt is made deterministic by an import hook that raises it
    when ``simkit.cli`` is imported."""
    import importlib.abc

    from simkit import _entry

    class Interrupting(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "simkit.cli":
                raise KeyboardInterrupt
            return None

    monkeypatch.delitem(sys.modules, "simkit.cli", raising=False)
    monkeypatch.setattr(sys, "meta_path", [Interrupting(), *sys.meta_path])
    with pytest.raises(SystemExit) as e:
        _entry.entry()
    assert e.value.code == 130
    assert capsys.readouterr().err == "simkit: interrupted\n"
