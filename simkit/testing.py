"""The game contract, checked: what every registered game promises, tested the same way for all.

``check_game(spec)`` runs every check below and raises ``AssertionError`` naming the first one
that fails; ``tests/test_contract.py`` runs each check over every registered game (the way
OpenSpiel's ``api_test`` and pgx's ``api_test`` run over all of theirs), so a new game is checked
by being registered.  The checks, one function each:

* :func:`check_sums`: the accumulated sums and sums of squares equal those of the per-deal rows,
  binary metrics are 0 or 1 in every row, and a game's ``zero_sum`` metrics (chips that only
  change hands) sum to zero in every row;
* :func:`check_sums_variants`: binary metrics are 0 or 1 and ``zero_sum`` metrics sum to zero
  in every row under every preset, the match unit and every choice of a ``unit`` option too
  (:func:`variants`);
* :func:`check_backends`: the same seed gives the same table on serial, threads and processes;
  another seed changes it;
* :func:`check_presets`: every preset round-trips through its game string and has a description;
* :func:`check_digest_runs`: the game's own digest runs (``GameSpec.digest_runs``) name the game
  and parse, rules and strategies;
* :func:`check_strategies`: every strategy kind plays with its default parameters;
* :func:`check_options`: every option rejects a bad value with a :class:`SimkitError` naming it,
  and every option has a doc and a source (the rule text's lines, or why it has none);
* :func:`check_metric_names`: per-seat metrics are ``pK_...`` with ``K`` a seat of the game, and
  every reported metric has a doc and a unit;
* :func:`check_stacks`: a stacked deck naming a card outside the pack, or a card more often than
  the pack holds it, is refused;
* :func:`check_compiles_once`: one compiled kernel serves every preset and strategy kind;
* :func:`check_playthrough`: a seeded playthrough is the same twice and matches the runner's
  first per-deal row.

Golden playthroughs (one seeded deal's move log or metric row per game, stored under
``tests/golden/``) are compared by :func:`golden_mismatch`.
"""
from __future__ import annotations

import dataclasses
import json
import math
import os
import re
from collections import Counter

import numpy as np

from simkit.core import play
from simkit.core.registry import (GameSpec, game_string, make_strategy, parse_rules, parse_strategies,
                                  resolve_strategies, rules_from_options)
from simkit.core.rng import stream_state
from simkit.errors import SimkitError

N = 600  # deals per check: enough to visit most branches, small enough for every game


def default_rules(spec: GameSpec):
    return spec.rules.build({})


def _numbers(res):
    t = res.table()
    return t[["metric", "mean", "se", "n"]].to_numpy().tolist()


def check_sums(spec: GameSpec, rules=None, n: int = N) -> None:
    rules = rules or default_rules(spec)
    strats = resolve_strategies(spec, rules, None)
    acc, rows, _ = play.run_chunk(spec, rules, strats, stream_state(11, 0), n, rows=True)
    metrics = spec.metrics(rules)
    assert rows.shape == (n, len(metrics)), f"{spec.name}: rows have shape {rows.shape}"
    np.testing.assert_allclose(acc[0], rows.sum(0), rtol=1e-12, atol=1e-9,
                               err_msg=f"{spec.name}: sums differ from the rows' sums")
    np.testing.assert_allclose(acc[1], (rows ** 2).sum(0), rtol=1e-12, atol=1e-9,
                               err_msg=f"{spec.name}: sums of squares differ from the rows'")
    if spec.zero_sum is not None:
        names = [m.name for m in metrics]
        cols = [names.index(k) for k in spec.zero_sum(rules)]   # [] : none under these rules
        bad = np.flatnonzero(np.abs(rows[:, cols].sum(axis=1)) > 1e-9) if cols else []
        assert not len(bad), f"{spec.name}: {', '.join(spec.zero_sum(rules))} do not " \
                                      f"sum to zero in deal {bad[:1].tolist()}"
    for j, m in enumerate(metrics):
        if m.binary and not m.hidden:
            bad = set(np.unique(rows[:, j]).tolist()) - {0.0, 1.0}
            assert not bad, f"{spec.name}: binary metric {m.name} takes values {sorted(bad)[:5]}"


def variants(spec: GameSpec, units: bool = True) -> list[tuple[str, object]]:
    """``(what, rules)``: the default rules, every preset, the match unit (``GameSpec.match``)
    and, with ``units``, every choice of the rules' ``unit`` option; each rule set once."""
    out = [("default", default_rules(spec))] + [
        (f"preset {p}", rules_from_options(spec, {"preset": p})) for p in spec.presets]
    if spec.match is not None:
        out.append(("match unit", rules_from_options(spec, dict(spec.match))))
    unit = next((f for f in dataclasses.fields(spec.rules) if f.name == "unit"), None)
    if units and unit is not None:
        out += [(f"unit={c}", spec.rules.build({"unit": c})) for c in unit.metadata["choices"]]
    seen, kept = [], []
    for what, r in out:
        if r not in seen:
            seen.append(r)
            kept.append((what, r))
    return kept


def check_sums_variants(spec: GameSpec, n: int = 200) -> None:
    """:func:`check_sums` (binary metrics 0 or 1, ``zero_sum`` metrics summing to zero, the
    accumulated sums) over ``n`` units of every rule set of :func:`variants`."""
    for what, r in variants(spec)[1:]:
        try:
            check_sums(spec, r, n)
        except AssertionError as e:
            raise AssertionError(f"{what} ({game_string(spec, r)}): {e}") from None


def check_backends(spec: GameSpec, n: int = 3 * 4096 + 17) -> None:
    from simkit.analysis.simulate import run
    kw = dict(n=n, seed=5, progress=False)
    serial = _numbers(run(spec.name, backend="serial", **kw))
    threads = _numbers(run(spec.name, workers=2, backend="threads", **kw))
    procs = _numbers(run(spec.name, workers=2, backend="processes", **kw))
    assert serial == threads, f"{spec.name}: threads differ from serial"
    assert serial == procs, f"{spec.name}: processes differ from serial"
    other = _numbers(run(spec.name, n=n, seed=6, progress=False))
    assert other != serial, f"{spec.name}: another seed gives the same table"


def check_presets(spec: GameSpec) -> None:
    from simkit.games import parse_game
    for name, opts in spec.presets.items():
        rules = rules_from_options(spec, {"preset": name})
        text = game_string(spec, rules)
        again = parse_game(text)[1]
        assert again == rules, f"{spec.name}: preset {name} -> {text!r} -> other rules"
        for k in opts:
            assert hasattr(rules, k), f"{spec.name}: preset {name} sets unknown option {k}"
        assert spec.preset_docs.get(name), f"{spec.name}: preset {name} has no description " \
                                           f"(GameSpec.preset_docs; simkit rules shows it)"


def check_digest_runs(spec: GameSpec) -> None:
    for text, strategies in spec.digest_runs:
        assert isinstance(strategies, tuple), f"{spec.name}: digest run {text!r}: strategies " \
                                              f"as a tuple of strings"
        try:
            parse_strategies(spec, parse_rules(spec, text), list(strategies))
        except SimkitError as e:
            raise AssertionError(f"{spec.name}: digest run {text!r} {list(strategies)}: {e}")


def check_strategies(spec: GameSpec, n: int = 200) -> None:
    rules = default_rules(spec)
    base = list(resolve_strategies(spec, rules, None))
    for kind in spec.strategies.values():
        s = make_strategy(kind, {})
        strats = tuple([s] + base[1:])
        try:
            acc, _, _ = play.run_chunk(spec, rules, strats, stream_state(3, 0), n)
        except SimkitError as e:
            raise AssertionError(f"{spec.name}: strategy {s} does not play with its defaults: {e}")
        assert np.isfinite(acc).all(), f"{spec.name}: strategy {s} gives non-finite sums"


def bad_values(f) -> list:
    """Values the option declared by dataclass field ``f`` must refuse."""
    md, d = f.metadata, f.default
    out = []
    if md.get("choices") is not None:
        out.append("no_such_choice")
    if isinstance(d, bool):
        out.append("maybe")
    elif isinstance(d, (int, float)):
        out.append("not_a_number")
        if md.get("range") is not None:
            lo, hi = md["range"]
            out += [hi + 1, lo - 1]
        if isinstance(d, int):
            out.append(d + 0.5)
    return out


def check_options(spec: GameSpec) -> None:
    for f in dataclasses.fields(spec.rules):
        md = f.metadata
        assert md.get("doc"), f"{spec.name}: option {f.name} has no doc"
        assert md.get("source"), f"{spec.name}: option {f.name} has no source (the rule text's " \
                                 f"lines, or say why it has none)"
        for v in bad_values(f):
            try:
                spec.rules.build({f.name: v})
            except SimkitError as e:
                assert f.name in str(e), f"{spec.name}: the error for {f.name}={v!r} does not " \
                                         f"name the option: {e}"
            else:
                raise AssertionError(f"{spec.name}: option {f.name} accepts the bad value {v!r}")
    try:
        spec.rules.build({"no_such_option": 1})
    except SimkitError as e:
        assert "no_such_option" in str(e)
    else:
        raise AssertionError(f"{spec.name}: an unknown option is accepted")


def check_metric_names(spec: GameSpec) -> None:
    rules = default_rules(spec)
    seats = spec.seats(rules)
    names = [m.name for m in spec.metrics(rules)]
    assert len(set(names)) == len(names), f"{spec.name}: metric names repeat"
    for name in names:
        m = re.match(r"^p(\d+)_", name)
        if m:
            assert 1 <= int(m.group(1)) <= seats, f"{spec.name}: {name} names a seat it lacks"
        assert re.match(r"^_?[a-z][a-z0-9_]*$", name), f"{spec.name}: metric name {name!r}"
    for r in [rules] + [rules_from_options(spec, {"preset": p}) for p in spec.presets]:
        for m in spec.metrics(r):
            if not m.hidden:
                assert m.doc and m.unit, f"{spec.name}: metric {m.name} needs a doc and a unit " \
                                         f"(simkit metrics shows them)"


def check_stacks(spec: GameSpec) -> None:
    rules = default_rules(spec)
    pack = Counter(int(c) for c in spec.pack(rules))
    outside = next(c for c in range(80) if c not in pack and (c & 15) >= 2)
    code, k = pack.most_common(1)[0]
    for deck, what in [([code] * (k + 1), "a repeated card"), ([outside], "a card not in the pack")]:
        deck = list(deck) + [c for c in pack if c != code][:10]
        try:
            play.check_stack(spec, rules, np.array(deck))
        except SimkitError:
            continue
        raise AssertionError(f"{spec.name}: a stacked deck with {what} is accepted")


def check_compiles_once(spec: GameSpec) -> None:
    kernel = spec.kernel
    if not hasattr(kernel, "signatures") or os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return
    base = default_rules(spec)
    configs = [rules_from_options(spec, {"preset": p}) for p in spec.presets] + [base]
    for rules in configs:
        strats = resolve_strategies(spec, rules, None)
        play.run_chunk(spec, rules, strats, stream_state(1, 0), 20)
    strats0 = list(resolve_strategies(spec, base, None))
    for kind in spec.strategies.values():
        strats = tuple([make_strategy(kind, {})] + strats0[1:])
        play.run_chunk(spec, base, strats, stream_state(1, 0), 20)
    assert len(kernel.signatures) == 1, (
        f"{spec.name}: the kernel compiled {len(kernel.signatures)} times over presets and "
        f"strategies: {kernel.signatures}")


def check_playthrough(spec: GameSpec) -> None:
    rules = default_rules(spec)
    a = play.playthrough(spec, rules, None, seed=3)
    b = play.playthrough(spec, rules, None, seed=3)
    assert a == b, f"{spec.name}: the same seed gives two playthroughs"
    from simkit.analysis.simulate import run
    res = run(spec.name, n=1, seed=3, rows=True, progress=False)
    row = res.rows.drop(columns=["config", "deal"]).iloc[0].to_dict()
    assert {k: float(v) for k, v in row.items()} == a["metrics"], \
        f"{spec.name}: the playthrough is not the runner's first deal"


def check_analysis(spec: GameSpec) -> None:
    """The analysis layer serves the game with no game code: its objective is a per-seat metric
    under every preset (and the match unit), and a head-to-head of two strategy kinds plays."""
    from simkit.analysis import common
    from simkit.analysis.headtohead import compare
    for what, r in variants(spec, units=False):
        stem, _ = common.objective(spec, r)
        kind = common.stems(spec, r)[stem].kind
        assert kind in ("seat", "net"), f"{spec.name} {what}: objective {stem!r} is {kind}"
    kinds = list(spec.strategies)
    a = spec.default_strategy
    b = next((k for k in kinds if k != a.split("(")[0]), None)
    if b is None:
        return
    an = compare(spec.name, a, b, n=2048, seed=5, progress=False)
    t = an.table()
    seatwise = t[t.kind == "seat"]
    assert len(seatwise) and seatwise["mean"].notna().all(), \
        f"{spec.name}: compare {a} {b} gave no per-seat differences"
    again = compare(spec.name, a, b, n=2048, seed=5, progress=False, workers=2,
                    backend="threads").table()
    assert t.equals(again), f"{spec.name}: compare differs between serial and threads"


CHECKS = [check_sums, check_sums_variants, check_backends, check_presets, check_digest_runs, check_strategies,
          check_options, check_metric_names, check_stacks, check_compiles_once, check_playthrough,
          check_analysis]


def check_game(spec: GameSpec) -> None:
    """Run every contract check on ``spec``; an ``AssertionError`` names the first failure."""
    for check in CHECKS:
        check(spec)


# --------------------------------------------------------------------------- golden playthroughs

GOLDEN_SEED = 1


def golden_record(spec: GameSpec, preset: str | None = None) -> dict:
    """What ``tests/golden/<game>.json`` holds (``<game>@<preset>.json`` for a preset of
    ``spec.golden_presets``): the game's version, its game string, the seed, and one seeded
    deal's playthrough (move log and metric row)."""
    rules = default_rules(spec) if preset is None else parse_rules(spec,
                                                                   f"{spec.name}(preset={preset})")
    return dict(game=spec.name, version=spec.version, rules=game_string(spec, rules),
                strategies=[str(s) for s in resolve_strategies(spec, rules, None)],
                seed=GOLDEN_SEED, playthrough=_clean(play.playthrough(spec, rules, None,
                                                                      GOLDEN_SEED)))


def _clean(obj):
    if isinstance(obj, float) and not math.isfinite(obj):
        return str(obj)
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_clean(v) for v in obj]
    return obj


def golden_path(folder: str, spec: GameSpec, preset: str | None = None) -> str:
    return os.path.join(folder, spec.name + ("" if preset is None else f"@{preset}") + ".json")


def write_golden(folder: str, spec: GameSpec) -> str:
    """Write the game's golden playthroughs (the default's, then each golden preset's);
    returns their paths, one a line."""
    os.makedirs(folder, exist_ok=True)
    paths = []
    for preset in (None,) + tuple(spec.golden_presets):
        path = golden_path(folder, spec, preset)
        text = json.dumps(golden_record(spec, preset), indent=1, ensure_ascii=False)
        with open(path, "w") as f:
            f.write(_pack_number_lists(text) + "\n")
        paths.append(path)
    return "\n".join(paths)


def _pack_number_lists(text: str) -> str:
    """Lists of numbers or names a hundred characters to a line, not one item a line."""
    import textwrap

    def pack(m):
        found = re.findall(r'-?[\d.eE+]+|"[^"\n]*"', m.group(2))
        if any(any(c.isspace() for c in x) for x in found):
            return m.group(0)  # a name with a space could be wrapped inside its quotes
        items = ", ".join(found)
        lines = textwrap.wrap(items, 100 - len(m.group(1)), break_on_hyphens=False,
                              break_long_words=False)  # never inside a quoted name
        pad = "\n" + m.group(1) + " "
        return "[" + pad + pad.join(lines) + "\n" + m.group(1) + "]"
    return re.sub(r'\[\n( *)((?:\s*(?:-?[\d.eE+]+|"[^"\n]*"),?)+)\s*\]', pack, text)


def golden_mismatch(folder: str, spec: GameSpec) -> str | None:
    """``None`` when the stored playthroughs match (the default's and each of
    ``spec.golden_presets``'); otherwise what is wrong and what to do."""
    for preset in (None,) + tuple(spec.golden_presets):
        problem = _golden_mismatch(folder, spec, preset)
        if problem:
            return problem
    return None


def _golden_mismatch(folder: str, spec: GameSpec, preset: str | None) -> str | None:
    path = golden_path(folder, spec, preset)
    what = spec.name + ("" if preset is None else f" (preset {preset})")
    if not os.path.exists(path):
        return f"{what} has no golden playthrough: run python scripts/golden.py {spec.name}"
    with open(path) as f:
        stored = json.load(f)
    now = golden_record(spec, preset)
    if stored == now:
        return None
    if stored.get("version") == spec.version:
        return (f"{what}'s golden playthrough moved but its version is still "
                f"{spec.version}: a behaviour change must bump VERSION (then run "
                f"python scripts/golden.py {spec.name})")
    return (f"{what} is version {spec.version}, its golden file version "
            f"{stored.get('version')}: check the new playthrough and run python scripts/golden.py "
            f"{spec.name}")


def warm_up(names) -> None:
    """Compile (into numba's disk cache) what the tests of games ``names`` use first: the
    kernel, the playthrough's logged path and the exact analysis's recursions where a game has
    one.  ``tests/conftest.py`` runs it in one process per test worker before the workers
    start, so that each kernel is compiled once, not once per worker."""
    from simkit.analysis.simulate import run
    from simkit.games import get_game
    for name in names:
        spec = get_game(name)
        rules = default_rules(spec)
        run(name, n=10, seed=0, progress=False)
        play.playthrough(spec, rules, None, seed=0)
        if spec.exact is not None:
            try:
                spec.exact(rules, resolve_strategies(spec, rules, None), None)
            except SimkitError:     # no exact analysis under the default rules (old_maid)
                pass
