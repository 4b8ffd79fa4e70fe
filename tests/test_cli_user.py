"""What a user sees (issue 17): metric and preset descriptions, game strings for `rules`, help
texts, 100-column listings, readable bench numbers, the gin mirror note, the compiling note and
shell completion."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import click
import pytest

import simkit
from simkit.cli import cli as click_group
from simkit.cli import main

GAMES = sorted(simkit.games())


def ok(capsys, *argv) -> str:
    rc = main(list(argv))
    cap = capsys.readouterr()
    assert rc == 0, cap.err
    assert cap.err == ""
    return cap.out


@pytest.mark.parametrize("game", GAMES + ["gin(unit=match)", "hearts(unit=game)",
                                          "klaberjass(form=301)", "ochko(players=3)"])
def test_metrics_lists_every_metric_with_meaning_and_unit(capsys, game):
    spec, rules = simkit.parse_game(game)
    names = [m.name for m in spec.metrics(rules) if not m.hidden or m.category]
    labels = {m.name for m in spec.metrics(rules) if m.category}
    recs = json.loads(ok(capsys, "metrics", game, "--format", "json"))
    assert [r["metric"] for r in recs] == names
    for r in recs:
        assert r["doc"] and r["unit"] and r["kind"], r
        assert r["kind"].startswith("a label per deal") == (r["metric"] in labels), r
    text = ok(capsys, "metrics", game)
    for n in names:
        assert f"\n{n}: " in text
    # every metric -m accepts is listed, and the labels the rows keep (nothing else)
    assert set(names) == {r["metric"] for r in recs}


def test_rules_takes_a_game_string_and_shows_preset_descriptions(capsys):
    text = ok(capsys, "rules", "ochko(deck=52)")
    assert "deck = 52 (default 36)" in text
    assert text.startswith("ochko(deck=52): ")
    assert "preset casino_like: deck=52,ties=push\n    a 52-card deck and ties returned" in text
    recs = {r["option"]: r for r in json.loads(ok(capsys, "rules", "ochko(deck=52)", "--format", "json"))}
    assert recs["deck"]["value"] == 52 and recs["deck"]["default"] == 36
    for game in GAMES:
        spec = simkit.get_game(game)
        recs = {r["option"]: r for r in json.loads(ok(capsys, "rules", game, "--format", "json"))}
        for p in spec.presets:
            assert recs[f"preset {p}"]["doc"] == spec.preset_docs[p] != ""
    rc = main(["rules", "ochko(deck=40)"])
    assert rc == 2 and "deck=40 is not allowed" in capsys.readouterr().err


@pytest.mark.parametrize("columns", ["100", "250", "40"])
def test_games_rules_and_metrics_fit_100_columns(capsys, monkeypatch, columns):
    monkeypatch.setenv("COLUMNS", columns)
    outs = [ok(capsys, "games")]
    for game in GAMES:
        outs += [ok(capsys, "rules", game), ok(capsys, "metrics", game)]
    for out in outs:
        for line in out.splitlines():
            assert len(line) <= 100, line


def test_help_texts(capsys):
    out = ok(capsys, "run", "--help")
    assert "95%" in out and "95%%" not in out
    for name in ("bench", "rules", "metrics", "run", "sweep", "exact", "report", "games"):
        cmd = click_group.commands[name]
        missing = [p.name for p in cmd.params if isinstance(p, click.Option) and not p.help]
        if name in ("bench", "metrics", "rules"):
            assert missing == [], (name, missing)


def test_bench_prints_readable_numbers(capsys):
    out = ok(capsys, "bench", "ochko", "-n", "20000")
    lines = out.splitlines()
    assert lines[0].startswith("game: ochko") and "n: 20,000" in lines[0]
    rate = next(line for line in lines if line.startswith("deals_per_second_per_core"))
    value = rate.split()[1]
    assert "," in value and "e+" not in value, rate
    assert all(len(line) <= 100 for line in lines)
    assert "median of 5 interleaved repetitions" in lines[1]
    recs = json.loads(ok(capsys, "bench", "ochko", "-n", "20000", "--format", "json", "--reps", "3"))
    assert isinstance(recs[0]["value"], float)
    for rec in recs:  # each row: the median of the repetitions, between their min and max
        assert rec["low"] <= rec["value"] <= rec["high"] and rec["reps"] == 3, rec
    frac = next(r for r in recs if r["quantity"] == "fraction_of_ceiling")
    assert 0 < frac["low"] <= frac["high"] < 1


def test_gin_mirrored_seats_are_explained(capsys):
    out = " ".join(ok(capsys, "run", "gin", "-n", "200", "--seed", "1").split())  # unwrapped
    assert "the same in every deal, not shown (--all shows them): p1_points = 0," in out
    assert "p1_points  0.000000" in ok(capsys, "run", "gin", "-n", "200", "--seed", "1", "--all")
    assert "note: both seats play the same strategy" in out and "by construction" in out
    out = ok(capsys, "run", "gin", "-n", "200", "--seed", "1", "-s", "p2=simple")
    assert "note:" not in out
    assert "note:" not in ok(capsys, "run", "gin", "-n", "200", "--format", "csv")


def test_compiling_note_only_for_a_cold_kernel_on_a_terminal_or_a_pipe(capsys, monkeypatch):
    from simkit.analysis import simulate
    monkeypatch.delenv("SIMKIT_NO_PROGRESS", raising=False)  # CI sets it

    class Cold:
        signatures: list = []

        class _cache:
            class _cache_file:
                @staticmethod
                def _load_index():
                    return {}

    class Spec:
        name = "toy"
        kernel = Cold()

    assert simulate.kernel_is_cold(Spec())
    assert simulate.say_compiling(Spec(), True)
    assert capsys.readouterr().err == ("simkit: compiling toy's kernels, first run only (up to a "
                                       "minute or two; later runs load them from numba's cache)...\n")
    assert not simulate.say_compiling(Spec(), False)
    assert simulate.say_compiling(Spec())  # stderr is captured here, a pipe: said all the same
    warm = simkit.get_game("ochko")
    simkit.run("ochko", n=100, progress=False)
    assert not simulate.kernel_is_cold(warm) and not simulate.say_compiling(warm, True)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert simulate.say_compiling(Spec()) and "compiling toy" in capsys.readouterr().err
    monkeypatch.setenv("SIMKIT_NO_PROGRESS", "1")
    assert not simulate.say_compiling(Spec())


@pytest.mark.slow
def test_shell_completion(capsys, monkeypatch):
    monkeypatch.setenv("_SIMKIT_COMPLETE", "bash_complete")
    monkeypatch.setenv("COMP_WORDS", "simkit ru")
    monkeypatch.setenv("COMP_CWORD", "1")
    rc = main([])
    out = capsys.readouterr().out
    assert rc == 0 and "plain,run" in out and "plain,rules" in out and "Commands:" not in out
    env = dict(os.environ, _SIMKIT_COMPLETE="bash_source")
    p = subprocess.run([sys.executable, "-m", "simkit"], capture_output=True, text=True, env=env,
                       timeout=120)
    assert p.returncode == 0 and "_simkit_completion()" in p.stdout and "complete " in p.stdout


def test_fold_only_what_is_proved_constant():
    """A metric is folded away as 'the same in every deal' only when its standard error is 0:
    a NaN standard error (one deal, or one qualifying deal) proves nothing."""
    import pandas as pd
    from simkit.cli import _fold
    table = pd.DataFrame({"metric": ["a", "b", "c"], "mean": [1.0, 0.5, 2.0],
                          "se": [float("nan"), 0.1, 0.0]})
    shown, notes = _fold(None, table, sweep=False)
    assert list(shown["metric"]) == ["a", "b"], shown
    assert notes == ["the same in every deal, not shown (--all shows them): c = 2"], notes
