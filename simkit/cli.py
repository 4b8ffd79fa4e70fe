"""The command line: a thin click shell over :mod:`simkit.analysis`.

Which command takes what: ``games``, ``rules GAME`` and ``metrics GAME`` take ``--format`` and
``-o``; ``run GAME`` and ``sweep GAME --grid ...`` take ``--format``, ``-o``, ``--seed``, ``-n``,
``--workers``, ``--backend``, ``--scheduler``, ``-r``, ``-s``, ``-m``, ``--precision``,
``--resume``, ``--overwrite``, ``--rows`` and ``--progress``; ``exact GAME`` takes ``--format``,
``-o``, ``-r``, ``-s`` and ``--grid``; ``bench GAME`` takes ``--format``, ``-o``, ``--seed``,
``-n``, ``--workers``, ``-r`` and ``-s``; ``report FILE...`` takes ``-o`` (``.html``) and
``--title``; ``replay GAME`` takes ``-r``, ``-s``, ``--seed``, ``--deal`` and ``--format``
(``text|json``); the analyses (``compare``, ``tournament``, ``best``, ``solve``, ``odds``, in
:mod:`simkit.cli_analysis`) take ``--format``, ``-o``, ``--seed``, ``-n``, ``--workers``,
``--backend``, ``--scheduler``, ``-r`` and their own options (the README's table says the same,
and a test keeps both true).
Exit status: 0 done; 1 a bug (a traceback); 2 bad input, one line (``simkit: error: ...``),
checked before any work (output paths too); 130 Ctrl-C (SIGINT) and 143 SIGTERM, after saving
the finished chunks; 3 the Dask cluster was lost (no worker or no scheduler for
``SIMKIT_DASK_TIMEOUT`` seconds), finished chunks saved.
Shell completion: ``eval "$(_SIMKIT_COMPLETE=bash_source simkit)"`` (zsh_source, fish_source).
"""
from __future__ import annotations

import json
import os
import sys
import textwrap
import threading
import warnings

import click
import pandas as pd

from simkit.cli_analysis import COMMANDS as ANALYSIS_COMMANDS
from simkit.cli_options import FILE, FLOAT, FORMATS, INT, RULE_HELP, common_options, jsonable
from simkit.core.registry import game_string
from simkit.errors import SimkitError


def _sim_options(f):
    opts = [
        click.option("-r", "--rule", "rules", multiple=True, help=RULE_HELP),
        click.option("-s", "--strategy", "strategies", multiple=True,
                     help="SEAT=NAME(params), e.g. p1=stand_at(16) (repeatable)"),
        click.option("-m", "--metric", "metrics", multiple=True, help="show only these metrics"),
        click.option("--precision", type=FLOAT, default=None,
                     help="add chunks until every 95% CI half-width is at most this (-n is the cap)"),
        click.option("--resume", is_flag=True, help="continue the interrupted run stored in -o FILE"),
        click.option("--overwrite", is_flag=True,
                     help="start again over the unfinished run stored in -o FILE"),
        click.option("--rows", "rows_out", type=FILE, default=None, help="also write per-deal rows to FILE (n <= 1e6)"),
        click.option("--all", "show_all", is_flag=True,
                     help="print every metric: a sweep prints its objective and a run folds "
                          "metrics that are the same in every deal, unless this or -m"),
        click.option("--progress/--no-progress", default=None, help="progress bar (default: on a terminal)"),
    ]
    for o in reversed(opts):
        f = o(f)
    return f


@click.group(context_settings=dict(help_option_names=["-h", "--help"]))
@click.version_option(package_name="simkit")
def cli():
    """simkit: Monte Carlo simulation and strategy analysis for card games."""


for _command in ANALYSIS_COMMANDS:  # compare, tournament, best, solve, odds
    cli.add_command(_command)


@cli.command()
@click.option("--format", "fmt", type=FORMATS, default="table", help="output format on stdout")
@click.option("-o", "--output", "out", type=FILE, default=None, help="also write the table to FILE")
def games(fmt, out):
    """List the games, their presets and strategies."""
    from simkit.games import games as all_games
    recs = [dict(game=s.name, version=s.version, title=s.title, presets=",".join(s.presets),
                 strategies=",".join(s.strategies), default_strategy=s.default_strategy,
                 source=s.source) for s in all_games().values()]
    blocks = [(f"{r['game']} (version {r['version']}): {r['title']}",
               [f"presets: {r['presets'].replace(',', ', ') or '(none)'}",
                f"strategies: {r['strategies'].replace(',', ', ')} (default {r['default_strategy']})",
                f"rules text: {r['source']}"]) for r in recs]
    _emit_frame(pd.DataFrame(recs), fmt, recs, out, text=_blocks(blocks))


@cli.command()
@click.argument("game")
@click.option("--format", "fmt", type=FORMATS, default="table", help="output format on stdout")
@click.option("-o", "--output", "out", type=FILE, default=None, help="also write the table to FILE")
def rules(game, fmt, out):
    """Every rules option of GAME: default, allowed values, the text it comes from.

    GAME is a game string as for run ('ochko(deck=52)'); its options are shown as values."""
    from simkit.games import parse_game
    spec, chosen = parse_game(game)
    recs = spec.rules.describe()
    changed = chosen.changed()
    if changed:
        for r in recs:
            r["value"] = getattr(chosen, r["option"])
    for name, kind in spec.strategies.items():
        recs.append(dict(option=f"strategy {kind.name}", default=",".join(
            f"{p.name}={p.default}" for p in kind.params), allowed=",".join(
            f"{p.name} in {p.range[0]}..{p.range[1]}" if p.range else p.name for p in kind.params),
            doc=kind.doc, source=""))
    for name, opts in spec.presets.items():
        recs.append(dict(option=f"preset {name}", default=",".join(f"{k}={v}" for k, v in opts.items()),
                         allowed="", doc=spec.preset_docs.get(name, ""), source=""))
    text = [{k: str(v) for k, v in r.items()} for r in recs]  # defaults mix types: text columns
    blocks = []
    for r in recs:
        o = r["option"]
        if o.startswith("strategy "):
            head = f"{o}({r['default']})"
        elif o.startswith("preset "):
            head = f"{o}: {r['default'] or '(the defaults)'}"
        elif "value" in r and r["value"] != r["default"]:
            head = f"{o} = {_word(r['value'])} (default {_word(r['default'])})"
        else:
            head = f"{o} = {_word(r['default'])}"
        detail = [x for x in (r["allowed"] and ("allowed: " + r["allowed"]), r["doc"],
                              r["source"] and f"rules text lines {r['source']}") if x]
        blocks.append((head, ["; ".join(detail)] if detail else []))
    title = f"{game_string(spec, chosen)}: {len(spec.rules.describe())} rules options, " \
        f"{len(spec.strategies)} strategies, {len(spec.presets)} presets"
    _emit_frame(pd.DataFrame(text), fmt, recs, out, text=title + "\n" + _blocks(blocks))


@cli.command()
@click.argument("game")
@click.option("--format", "fmt", type=FORMATS, default="table", help="output format on stdout")
@click.option("-o", "--output", "out", type=FILE, default=None, help="also write the table to FILE")
def metrics(game, fmt, out):
    """Every metric of GAME with its meaning and unit (what -m names and tables report).

    GAME is a game string as for run: the metrics depend on the rules ('gin(unit=match)',
    'ochko(players=3)')."""
    from simkit.games import parse_game
    spec, r = parse_game(game)
    recs = [dict(metric=m.name, kind=m.kind, unit=m.unit, doc=m.doc) for m in spec.metrics(r)
            if not m.hidden or m.category]
    blocks = [(f"{x['metric']}: {x['unit']}" if x["unit"] else x["metric"],
               [f"{x['doc']} [{x['kind']}]" if x["doc"] else f"[{x['kind']}]"]) for x in recs]
    title = f"{game_string(spec, r)}: {len(recs)} metrics, each a mean over deals with its 95% " \
        f"interval"
    _emit_frame(pd.DataFrame(recs), fmt, recs, out, text=title + "\n" + _blocks(blocks))


def _word(v) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def _width() -> int:
    """Columns to wrap text tables to: the terminal's, at most 100."""
    import shutil
    return max(60, min(100, shutil.get_terminal_size((100, 24)).columns))


def _blocks(blocks) -> str:
    """``[(head, [detail, ...])]`` as wrapped text: the head flush left, details indented."""
    import textwrap
    w = _width()
    lines = []
    for head, detail in blocks:
        lines += textwrap.wrap(head, w, subsequent_indent="      ", break_on_hyphens=False) or [""]
        for d in detail:
            lines += textwrap.wrap(d, w, initial_indent="    ", subsequent_indent="    ",
                                   break_on_hyphens=False)
    return "\n".join(lines)


@cli.command()
@click.argument("game")
@common_options
@_sim_options
def run(game, **kw):
    """Simulate one configuration of GAME: metrics with 95% intervals."""
    _simulate(game, None, **kw)


@cli.command()
@click.argument("game")
@click.option("--grid", "grid", multiple=True, required=True,
              help="key=a..b, key=a..b:step, key=a,b,c; p1.param=... for a strategy parameter")
@common_options
@_sim_options
def sweep(game, grid, **kw):
    """Simulate GAME over a grid of rules options and strategy parameters (paired deals)."""
    _simulate(game, list(grid), **kw)


def _simulate(game, grid, fmt, out, seed, n, workers, backend, scheduler, rules, strategies,
              metrics, precision, resume, overwrite, rows_out, progress, show_all):
    import os

    from simkit.analysis.simulate import sweep as do_sweep
    from simkit.core import store
    if rows_out:
        store.check_output(rows_out)
        if out and os.path.abspath(rows_out) == os.path.abspath(out):
            raise SimkitError(f"--rows and -o name the same file {out!r}: give two files")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = do_sweep(game, grid, n=n, seed=seed, strategies=list(strategies), rules=list(rules),
                       workers=workers, backend=backend, scheduler=scheduler, precision=precision,
                       rows=bool(rows_out), out=out, resume=resume, progress=progress,
                       metrics=list(metrics), overwrite=overwrite)
    table = res.table()
    if metrics:  # a seat metric's stem names it in every seat (analysis.common.expand_metrics)
        from simkit.analysis.common import expand_metrics
        metrics = expand_metrics(res.spec, [c.rules for c in res.configs], metrics)
        table = table[table["metric"].isin(metrics)]
    if rows_out and res.rows is not None:
        store.write_table(rows_out, res.rows, {"rows_of": game}) if rows_out.endswith(".parquet") \
            else store.write_table(rows_out, res.rows)
    head = res.headline() if grid and fmt != "csv" else None
    if fmt == "json":
        objs = res.to_json()
        for o in objs:
            if metrics:
                o["metrics"] = {k: v for k, v in o["metrics"].items() if k in metrics}
            if head:  # the sweep's headline claims, each with resolved (the same in every object)
                o["headline"] = head
        click.echo(json.dumps(objs if grid else objs[0], indent=1))
    elif fmt == "csv":
        click.echo(table.to_csv(index=False), nl=False)
    else:
        _print_table(res, table, grid, show_all or bool(metrics))
        for line in (head or {}).get("lines", []):
            click.echo(line)
    for w in caught:
        click.echo(f"simkit: {w.message}", err=True)
    if not res.complete:
        sys.exit(res.exit_status or 130)


def _print_table(res, table, grid, show_all: bool = False):
    """The text table of a run or a sweep: a header with the rules string and the strategies
    (grid values as ``*``), then mean, interval and unit per metric.  Unless ``show_all``: a
    sweep prints its game's objective only, and metrics that are the same in every deal of every
    configuration (se 0: ``p1_knock`` of a player who never knocks) are folded into one line."""
    from simkit.plots._tidy import _drop_options, _star_params
    keys = list(res.points[0].keys())
    rules = {_drop_options(str(r), keys) for r in table["rules"].unique()}
    strats = {_star_params(str(x), keys) for x in table["strategies"].unique()}
    deals = [res.deals(i) for i in range(len(res.configs))]
    n = f"{deals[0]:,}" if min(deals) == max(deals) else f"{min(deals):,}..{max(deals):,}"
    grid_part = f"   grid: {', '.join(keys)} ({len(res.configs)} points)" if grid else ""
    click.echo(f"game: {' | '.join(sorted(rules))}   strategies: {' | '.join(sorted(strats))}"
               f"{grid_part}   n: {n}{' each' if grid else ''}   seed: {res.seed}")
    notes = []
    if not show_all:
        table, notes = _fold(res, table, bool(grid))
    cols = keys + ["metric", "mean", "se", "ci_low", "ci_high", "unit"]
    with pd.option_context("display.max_rows", None, "display.width", 200,
                           "display.float_format", lambda v: f"{v:.6f}"):
        click.echo(table[cols].to_string(index=False) if len(table) else "(no metric left)")
    for line in notes:
        click.echo(textwrap.fill(line, _width(), subsequent_indent="  "))
    if res.spec.notes:
        said = {}
        for i, cfg in enumerate(res.configs):
            for line in res.spec.notes(cfg.rules, cfg.strategies):
                said.setdefault(line, []).append(", ".join(f"{k}={v}" for k, v in res.points[i].items()))
        for line, where in said.items():
            at = f" (at {'; '.join(where)})" if grid and len(where) < len(res.configs) else ""
            click.echo(textwrap.fill(line.replace("note:", f"note{at}:", 1), _width()))


def _fold(res, table, sweep: bool):
    """``(rows to print, note lines)``: a sweep's objective rows, and no metric that is the same
    in every deal of every configuration; the notes say what was left out and how to see it."""
    from simkit.analysis.common import objective, stems
    notes, whole = [], table
    # constant: a standard error of exactly 0 everywhere (NaN, e.g. from one deal, proves nothing)
    const = table.groupby("metric", sort=False)["se"].agg(lambda s: bool((s == 0).all()))
    const = [m for m, c in const.items() if c and
             table.loc[table["metric"] == m, "mean"].notna().all()]
    if sweep:
        spec, rules = res.spec, res.configs[0].rules
        try:
            stem, larger = objective(spec, rules)
        except SimkitError:
            stem = None
        kind = stems(spec, rules).get(stem) if stem else None
        if kind is not None:
            names = [m for m in dict.fromkeys(table["metric"]) if m == stem or m.endswith("_" + stem)
                     and m.split("_", 1)[0][1:].isdigit()]
            rest = table["metric"].nunique() - len(names)
            if names and rest:
                table = table[table["metric"].isin(names)]
                notes.append(f"showing the game's objective ({', '.join(names)}, "
                             f"{'higher' if larger else 'lower'} is better); {rest} more metrics "
                             f"with --all or -m NAME, all of them in -o FILE or --format csv")
    folded = [m for m in dict.fromkeys(table["metric"]) if m in const]
    if folded and len(folded) < table["metric"].nunique():
        table = table[~table["metric"].isin(folded)]
        said = []
        for m in folded:
            v = set(whole.loc[whole["metric"] == m, "mean"])
            said.append(f"{m} = {v.pop():g}" if len(v) == 1 else m)
        notes.append("the same in every deal, not shown (--all shows them): " + ", ".join(said))
    return table, notes


PROVENANCE = ("game", "rules", "strategies", "n", "seed", "game_version", "simkit_version",
              "created", "method", "se", "ci_low", "ci_high")


def _shown_columns(table: pd.DataFrame) -> list[str]:
    """An exact table's columns worth printing: its grid columns, metric and value (the
    provenance and the zero error columns of exact values are in the files, not on screen)."""
    return [c for c in table.columns if c not in PROVENANCE]


def _method(obj) -> str:
    m = obj.get("method", "")
    return ", ".join(f"{k}: {v}" for k, v in m.items()) if isinstance(m, dict) else str(m)


@cli.command()
@click.argument("game")
@click.option("-r", "--rule", "rules", multiple=True, help=RULE_HELP)
@click.option("-s", "--strategy", "strategies", multiple=True, help="p1=NAME(params): evaluate it")
@click.option("--grid", "grid", multiple=True, help="banker_stop=a..b and/or p1.t=a..b")
@click.option("--format", "fmt", type=FORMATS, default="table", show_default=True)
@click.option("-o", "--output", "out", type=FILE, default=None, help="write the tidy table (.parquet or .csv)")
def exact(game, rules, strategies, grid, fmt, out):
    """Exact analysis where the game has one (by recursion over the deck, no sampling)."""
    from simkit.analysis.simulate import parse_grid
    from simkit.core import store
    from simkit.core.exact import check_request
    from simkit.core.registry import parse_strategies
    from simkit.games import parse_game
    if out:
        store.check_output(out)
    spec, r = parse_game(game, list(rules))
    if spec.exact is None:
        raise SimkitError(f"{spec.name} has no exact analysis; use simkit run")
    strats = None
    if strategies:
        strats = [s for s in parse_strategies(spec, r, list(strategies))]
    axes = parse_grid(list(grid))
    check_request(spec, strategies, axes)
    obj, table = spec.exact(r, strats, axes)
    if out:
        store.write_table(out, table, {"exact": obj})
    if fmt == "json":
        click.echo(json.dumps(obj, indent=1, default=jsonable))
    elif fmt == "csv":
        click.echo(table.to_csv(index=False), nl=False)
    else:
        click.echo(f"game: {obj.get('rules', spec.name)}   method: {_method(obj)}   "
                   f"seconds: {obj.get('seconds', '')}")
        with pd.option_context("display.max_rows", None, "display.width", 200,
                               "display.float_format", lambda v: f"{v:.6f}"):
            click.echo(table[_shown_columns(table)].to_string(index=False))
        for line in obj.get("summary", []):
            click.echo(line)


@cli.command()
@click.argument("game")
@click.option("-n", "n", default=None, help="deals to time (default: the game's, 2e7 for ochko)")
@click.option("--seed", default="0", show_default=True, help="seed of the timed deals' streams")
@click.option("--format", "fmt", type=FORMATS, default="table", show_default=True,
              help="output format on stdout")
@click.option("-r", "--rule", "rules", multiple=True, help=RULE_HELP)
@click.option("-s", "--strategy", "strategies", multiple=True,
              help="SEAT=NAME(params) to time, e.g. p1=stand_at(16) (repeatable)")
@click.option("-o", "--output", "out", type=FILE, default=None, help="also write the table to FILE (.parquet or .csv)")
@click.option("--workers", type=INT, default=1, show_default=True,
              help="also time the runner with this many threads")
@click.option("--reps", type=INT, default=5, show_default=True,
              help="interleaved repetitions (deals, then the generator's draws) to take medians of")
def bench(game, n, seed, fmt, rules, strategies, out, workers, reps):
    """Deals per second per core, against the random generator's ceiling measured alongside."""
    from simkit.analysis.bench import bench as do_bench
    from simkit.analysis.simulate import parse_n
    if out:
        from simkit.core import store
        store.check_output(out)
    df = do_bench(game, n=None if n is None else parse_n(n), seed=seed, rules=list(rules),
                  strategies=list(strategies), workers=workers, reps=reps)
    head = f"game: {df['rules'].iloc[0]}   strategies: {df['strategies'].iloc[0]}   " \
        f"n: {int(df['n'].iloc[0]):,}"
    note = f"each: the median of {reps} interleaved repetitions (CPU time), then min and max"
    w = max(len(q) for q in df["quantity"])
    lines = [f"{q:<{w}}  {_readable(v):>14}  {_spread(v, lo, hi):>11}  {how}" for q, v, lo, hi, how
             in zip(df["quantity"], df["value"], df["low"], df["high"], df["how"])]
    _emit_frame(df, fmt, df.to_dict("records"), out, text="\n".join([head, note] + lines))


def _spread(v: float, lo: float, hi: float) -> str:
    """``-7% +4%``: min and max relative to the median (blank when they are equal)."""
    if lo == hi or v == 0:
        return ""
    return f"{round(100 * (lo / v - 1)):+d}% {round(100 * (hi / v - 1)):+d}%"


def _readable(v: float) -> str:
    """12,345,678 for rates and counts, 3 significant digits below 1000."""
    return f"{v:,.0f}" if abs(v) >= 1000 else f"{v:.3g}"


@cli.command()
@click.argument("results", nargs=-1, required=True)
@click.option("-o", "--output", "out", type=FILE, required=True, help="the report to write (.html)")
@click.option("--title", default=None, help="title of the page (default: the games)")
def report(results, out, title):
    """One self-contained HTML page of plots and tables from RESULTS files (.parquet or .csv)."""
    from simkit.report import build
    build(list(results), out, title=title)
    click.echo(f"wrote {out}")


@cli.command()
@click.argument("results")
@click.option("-o", "--output", "out", type=FILE, default=None,
              help="the figure to write (.png, .svg or .pdf)")
@click.option("--figure", "which", type=INT, default=1, show_default=True,
              help="which of the file's figures (in the report's order)")
@click.option("--list", "listing", is_flag=True, help="name the file's figures and write none")
def plot(results, out, which, listing):
    """One figure of a RESULTS file (a run, a sweep, an analysis, --rows) as PNG, SVG or PDF: the
    report's figures, the game's objective first."""
    from simkit.report import figures
    if listing:
        for k, (title, _) in enumerate(figures.figures(results), 1):
            click.echo(f"{k}  {title}")
        return
    if out is None:
        raise SimkitError("plot needs -o FILE (.png, .svg or .pdf), or --list")
    title = figures.save(results, out, which)
    click.echo(f"wrote {out} ({title})")


@cli.command()
@click.argument("game")
@click.option("-r", "--rule", "rules", multiple=True, help=RULE_HELP)
@click.option("-s", "--strategy", "strategies", multiple=True,
              help="SEAT=NAME(params), e.g. p1=stand_at(16) (repeatable)")
@click.option("--seed", default="0", show_default=True, help="seed of the SeedSequence (0..2**63-1)")
@click.option("--deal", type=INT, default=1, show_default=True,
              help="which unit of the seed's first chunk (row K of run --seed S --rows)")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="output format on stdout")
def replay(game, rules, strategies, seed, deal, fmt):
    """One deal of GAME, move by move, in card names and a player's words."""
    from simkit.analysis.simulate import parse_seed
    from simkit.core import replay as rp
    from simkit.core.registry import resolve_strategies
    from simkit.games import parse_game
    spec, r = parse_game(game, list(rules))
    seed = parse_seed(seed)
    strats = resolve_strategies(spec, r, list(strategies))
    records, row = rp.replay_unit(spec, r, strats, seed, deal)
    names = [m.name for m in spec.metrics(r) if not m.name.startswith("_")]  # labels too
    row = {k: row[k] for k in names}
    if fmt == "json":
        obj = dict(game=spec.name, rules=game_string(spec, r),
                   strategies=[f"p{k + 1}={s}" for k, s in enumerate(strats)], seed=seed,
                   deal=deal, metrics=row, moves=rp.as_json(records))
        click.echo(json.dumps(obj, indent=1, ensure_ascii=False, default=jsonable))
        return
    short = [_short_strategy(spec, s) for s in strats]
    said = f"{short[0]} (every seat)" if len(strats) > 1 and len(set(short)) == 1 else \
        " ".join(f"p{k + 1}={s}" for k, s in enumerate(short))
    click.echo(textwrap.fill(f"game: {game_string(spec, r)}   strategies: {said}   seed: {seed}   "
                             f"deal: {deal}", _width(), subsequent_indent="  "))
    click.echo(rp.render(records, rp.seat_names(strats)))
    click.echo(textwrap.fill("metrics: " + ", ".join(f"{k} {v:g}" for k, v in row.items()),
                             _width(), subsequent_indent="  "))


def _short_strategy(spec, s) -> str:
    """A strategy with only the parameters that differ from its kind's defaults."""
    defaults = {p.name: p.default for p in spec.strategies[s.kind].params}
    changed = [f"{k}={v}" for k, v in s.params if v != defaults.get(k)]
    return f"{s.kind}({','.join(changed)})" if changed else s.kind


def _emit_frame(df: pd.DataFrame, fmt: str, records, out: str | None = None,
                text: str | None = None) -> None:
    if out:
        from simkit.core import store
        store.write_table(store.check_output(out), df)
    if fmt == "json":
        click.echo(json.dumps(records, indent=1, default=jsonable))
    elif fmt == "csv":
        click.echo(df.to_csv(index=False), nl=False)
    elif text is not None:
        click.echo(text)
    else:
        with pd.option_context("display.max_rows", None, "display.width", 250,
                               "display.max_colwidth", 80):
            click.echo(df.to_string(index=False))


def main(argv=None) -> int:
    """Entry point: runs the CLI and turns every user error into exit status 2 and one line."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv and not os.environ.get("_SIMKIT_COMPLETE"):  # shell completion also has no argv
        click.echo(cli.get_help(click.Context(cli, info_name="simkit")))
        return 0
    import signal
    old_term = None
    if threading.current_thread() is threading.main_thread():
        old_term = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        return _main(argv)
    finally:
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)


def _on_sigterm(signum, frame):
    """SIGTERM outside a run's chunk loop (start-up, compiling, saving): end as Ctrl-C does."""
    from simkit.core.runner import Interrupted
    raise Interrupted(signum)


def _one_line(msg: str, width: int = 400) -> str:
    """An error message on one line, an echoed input of any length cut in the middle."""
    msg = " ".join(str(msg).split("\n"))
    if len(msg) <= width:
        return msg
    return f"{msg[:width - 120]} [... {len(msg) - width + 40:,} characters ...] {msg[-80:]}"


def _main(argv) -> int:
    try:
        cli.main(args=argv, prog_name="simkit", standalone_mode=False)
    except SimkitError as e:
        click.echo(f"simkit: error: {_one_line(e)}", err=True)
        return 2
    except click.exceptions.UsageError as e:
        click.echo(f"simkit: error: {_one_line(e.format_message())}", err=True)
        return 2
    except click.exceptions.Exit as e:
        return e.exit_code
    except click.exceptions.Abort:
        click.echo("simkit: interrupted", err=True)
        return 130
    except KeyboardInterrupt as e:
        import signal
        sig = getattr(e, "signum", signal.SIGINT)
        click.echo("simkit: terminated (SIGTERM)" if sig == signal.SIGTERM else "simkit: interrupted",
                   err=True)
        return 128 + sig
    except BrokenPipeError:
        return 0
    except SystemExit as e:
        if type(sys.stdout).__name__ == "_PacifyFlushWrapper":
            return 0  # click met a closed pipe (``simkit ... | head``) and exits 1: the reader left
        return e.code if isinstance(e.code, int) else 1
    return 0


def entry() -> None:
    code = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        # ``simkit ... | head``: the reader left; what it read is what it asked for.  Python would
        # flush again at exit and fail with status 1, so stdout is pointed at nothing first.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if code in (130, 143):
        # interrupted: what finished is saved and shown; chunks given up by a second Ctrl-C may
        # still run in threads, which a normal exit would wait for
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)
