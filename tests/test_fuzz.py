"""A fuzz over every command and every game (issue 31): no input ends in a traceback.

Each command gets a plain base command line per game (``run GAME -n 64``, ``compare GAME A B``,
...), and the cases are that line with one thing changed: a token replaced by an odd value
(empty, negative, huge, ``nan``, text, 300 characters, brackets, non-ASCII...), a token dropped,
an option of the command added with an odd value, or an option given twice.  A fixed-seed sample
of them runs in this process through :func:`simkit.cli.main`.  No kernel runs: the backend
raises an interruption where the first chunk would start (so what passes every check ends as an
interrupted command, exit 130), ``bench`` stops where it would time and ``replay`` where it
would play.  Every case must end
with status 0, 2 (one ``simkit: error:`` line) or 130, and no exception may leave ``main``.
"""
from __future__ import annotations

import random
import signal
from dataclasses import fields

import pandas as pd
import pytest

import simkit
from simkit.cli import cli, main
from simkit.core import runner as R

GAMES = sorted(simkit.games())
ODD = ["", "-1", "0", "1e30", "nan", "inf", "abc", "x" * 300, "1..", "=", ",", "p9=x", "ё",
       "1e-5", "99999999999999999999", "-", "(", ")", "p1=", "a=b=c", "1,2,", " ", "0x10",
       "1_000", "١٠", "p1.t=1..3", "--", "None", "true", "/", "../x.parquet", "x.csv"]
CASES = 5000  # of about 82,000; about 40 s on one core
OK = {0, 2, 130}


class _Stop(R.Interrupted):
    """Raised where the first chunk would run."""


def _bases(game: str) -> dict[str, list[str]]:
    spec = simkit.get_game(game)
    kinds = list(spec.strategies)
    a, b = kinds[0], kinds[-1]
    kind = spec.strategies[a]
    param = kind.params[0].name if kind.params else "x"
    first = fields(spec.rules)[0]
    axis = f"{first.name}={first.default}"
    n = ["-n", "64"]
    return {
        "run": ["run", game, *n],
        "sweep": ["sweep", game, "--grid", axis, *n],
        "compare": ["compare", game, a, b, *n],
        "tournament": ["tournament", game, "-s", a, "-s", b, *n],
        "best": ["best", game, "--grid", f"p1.{param}=1,2", "-s", f"p1={a}", *n],
        "solve": ["solve", game, "--row", axis, "--col", f"p1.{param}=1,2", "-s", f"p1={a}", *n],
        "odds": ["odds", game, "--grid", f"p1.{param}=1,2", "-s", f"p1={a}", *n],
        "games": ["games"],
        "rules": ["rules", game],
        "metrics": ["metrics", game],
        "exact": ["exact", game],
        "bench": ["bench", game, "-n", "64", "--reps", "1"],
        "report": ["report", "res.parquet", "-o", "r.html"],
        "plot": ["plot", "res.parquet", "-o", "f.png"],
        "replay": ["replay", game, "--seed", "1", "--deal", "2"],
    }


def _options(command: str) -> list[str]:
    import click
    return [min(p.opts, key=len) for p in cli.commands[command].params
            if isinstance(p, click.Option)]


def _mutations(base: list[str]) -> list[list[str]]:
    out = []
    for i in range(1, len(base)):
        out += [base[:i] + [v] + base[i + 1:] for v in ODD]
        out.append(base[:i] + base[i + 1:])
    for opt in _options(base[0]):
        out += [base + [opt, v] for v in ODD]
        out.append(base + [opt])  # no value
    for i, tok in enumerate(base):
        if tok.startswith("-") and i + 1 < len(base):
            out.append(base + [tok, base[i + 1]])  # the same option twice
    return out


def _cases() -> list[list[str]]:
    every = []
    for g in GAMES:
        for argv in _bases(g).values():
            every += _mutations(argv)
    unique = list({tuple(a): a for a in every}.values())
    assert set(cli.commands) == {a[0] for a in unique}, "a command has no base line"
    return random.Random(31).sample(unique, min(CASES, len(unique)))


@pytest.mark.slow
def test_no_input_ends_in_a_traceback(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    from simkit.core import store
    store.write_table("res.parquet", pd.DataFrame({
        "game": ["ochko"] * 2, "rules": ["ochko"] * 2, "strategies": ["p1=stand_at(t=16)"] * 2,
        "metric": ["p1_result", "bank_result"], "mean": [0.1, -0.1], "se": [0.01] * 2,
        "ci_low": [0.08, -0.12], "ci_high": [0.12, -0.08], "n": [1000] * 2, "seed": [0] * 2}),
        {"complete": True})

    def stop(*a, **k):
        raise _Stop(signal.SIGINT)

    monkeypatch.setattr(R.Backend, "__enter__", lambda self: self)
    monkeypatch.setattr(R.Backend, "__exit__", lambda self, *exc: None)
    monkeypatch.setattr(R.Backend, "map", stop)
    monkeypatch.setattr("simkit.analysis.bench.run_chunk", stop)
    monkeypatch.setattr("simkit.core.play.run_chunk", stop)  # replay plays where the check ends
    bad = []
    for argv in _cases():
        try:
            rc = main(argv)
        except BaseException as e:  # noqa: BLE001 - what the fuzz looks for
            bad.append((argv, f"{type(e).__name__}: {str(e)[:200]}"))
            continue
        err = capsys.readouterr().err
        lines = err.strip().splitlines()
        if rc not in OK or "Traceback" in err:
            bad.append((argv, f"exit {rc}: {err[-300:]}"))
        elif rc == 2 and (len(lines) != 1 or not lines[0].startswith("simkit: error: ")):
            bad.append((argv, f"exit 2 with {len(lines)} lines: {err[-300:]}"))
    assert not bad, f"{len(bad)} of {CASES} cases:\n" + "\n".join(
        f"{' '.join(repr(t) if not t or ' ' in t else t for t in a)[:200]} -> {why}"
        for a, why in bad[:25])
