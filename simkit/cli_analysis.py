"""The analysis commands: ``compare``, ``tournament``, ``best``, ``solve`` and ``odds``.

Each is a thin shell over :mod:`simkit.analysis` with the grammar of ``run`` and ``sweep`` (game
strings, ``-r``, ``-s``, ``--grid``, ``-n``, ``--seed``, ``--workers``, ``--backend``,
``--scheduler``, ``--format``, ``-o``).  It prints the analysis's table and headline lines;
``-o FILE.parquet`` keeps every frame for ``simkit report``.  The commands are plain click
commands listed in :data:`COMMANDS`; :mod:`simkit.cli` adds them to its group (this module does
not import it).
"""
from __future__ import annotations

import json
import sys

import click
import pandas as pd

from simkit.cli_options import FLOAT, RULE_HELP, common_options, jsonable

_PROGRESS = click.option("--progress/--no-progress", default=None,
                         help="progress bar (default: on a terminal)")
_RESUME = click.option("--resume", is_flag=True,
                       help="continue the interrupted analysis stored in -o FILE.parquet")
_RULES = click.option("-r", "--rule", "rules", multiple=True,
                      help=RULE_HELP)


def _grid_against(grid_help: str):
    """``--grid`` (required, repeatable), ``-s`` for the fixed seats and ``-r``."""
    def deco(f):
        for o in reversed([
                click.option("--grid", "grid", multiple=True, required=True, help=grid_help),
                click.option("-s", "--strategy", "strategies", multiple=True,
                             help="SEAT=NAME(params) for the other seats (repeatable)"),
                _RULES]):
            f = o(f)
        return f
    return deco


def _save(an, out: str) -> None:
    """Save the analysis to ``out``; an interrupted one never replaces results that ``out``
    already holds (other than an earlier interrupted analysis, which ``--resume`` continues):
    it goes to ``X.partial.parquet`` beside it, as an interrupted run's checkpoints do."""
    import os

    from simkit.core import store
    if not an.complete and os.path.isfile(out) and not _interrupted_file(out):
        part = store.partial_name(out)
        an.save(part)
        click.echo(f"simkit: {out} keeps the results it held; this interrupted analysis is in "
                   f"{part} (--resume -o {out} finishes it)", err=True)
        return
    an.save(out)


def _interrupted_file(path: str) -> bool:
    """True when ``path`` is a results file that says it is not complete."""
    from simkit.core import store
    try:
        return store.read_table(path)[1].get("complete") is False
    except Exception:  # noqa: BLE001 - unreadable: keep it, it is not ours to replace
        return False


def _emit(an, fmt: str, out: str | None, columns: list[str], extra=None) -> None:
    if out:
        _save(an, out)
    if fmt == "json":
        click.echo(json.dumps(an.to_json(), indent=1, default=jsonable))
        _finish(an)
        return
    if fmt == "csv":
        click.echo(an.table().to_csv(index=False), nl=False)
        _finish(an)
        return
    t = an.table()
    with pd.option_context("display.max_rows", None, "display.width", 200,
                           "display.max_colwidth", 60, "display.float_format",
                           lambda v: f"{v:.6g}"):
        click.echo(t[[c for c in columns if c in t.columns]].to_string(index=False))
        if extra is not None:
            click.echo("")
            click.echo(extra.to_string())
    for line in an.summary:
        click.echo(line)
    _finish(an)


def _finish(an) -> None:
    """An interrupted analysis: say so, and exit as an interrupted run does (130 after Ctrl-C,
    143 after SIGTERM), its numbers (those of the chunks that finished) shown and saved."""
    if not an.complete:
        click.echo("simkit: interrupted: the numbers above use the chunks that finished", err=True)
        sys.exit(an.exit_status or 130)


def _prep(kw, out):
    """The shared numbers for the analysis (``-n`` only when given: each analysis has its own
    default), after checking ``-o`` before any work; ``out`` and ``resume`` for its checkpoints."""
    from simkit.core import store
    if out:
        store.check_output(out)
    if kw["resume"] and not out:
        from simkit.errors import SimkitError
        raise SimkitError("--resume needs -o FILE.parquet, the results file of the interrupted "
                          "analysis")
    if kw["resume"] and store.kind_of(out) != "parquet":
        from simkit.errors import SimkitError
        raise SimkitError("--resume needs a .parquet results file (CSV keeps no chunk aggregates)")
    nums = {k: kw[k] for k in ("seed", "workers", "backend", "scheduler", "resume")}
    nums["out"] = out
    if kw.get("n") is not None:
        nums["n"] = kw["n"]
    return nums


@click.command()
@click.argument("game")
@click.argument("a")
@click.argument("b")
@click.option("--field", default=None,
              help="play A and B each against this strategy in the other seats (default: A against B)")
@click.option("--teams", is_flag=True,
              help="A on p1, p3, ... against B on p2, p4, ..., then swapped: the team's edge "
                   "(partnership games such as stovkahra)")
@_RULES
@click.option("-m", "--metric", "metric", default=None,
              help="the metric to resolve (default: the game's objective, e.g. points)")
@click.option("--until-resolved", is_flag=True,
              help="add chunks until the sign of the metric's difference is settled (-n is the cap)")
@click.option("--precision", type=FLOAT, default=None,
              help="add chunks until the difference's interval half-width is at most this")
@click.option("--confidence", type=FLOAT, default=0.95, show_default=True,
              help="confidence of the sequential decision (shared over its looks)")
@common_options
@_PROGRESS
@_RESUME
def compare(game, a, b, field, teams, rules, metric, until_resolved, precision, confidence, fmt,
            out, progress, **kw):
    """Strategy A against strategy B on the same deals, paired: for every metric A's edge (two
    players, a zero- or constant-sum metric: half of A - B) or A - B, and whether it is resolved."""
    from simkit.analysis.headtohead import compare as run
    an = run(game, a, b, field=field, teams=teams, rules=list(rules), metric=metric,
             until_resolved=until_resolved, precision=precision, confidence=confidence,
             progress=progress, **_prep(kw, out))
    _emit(an, fmt, out, ["metric", "kind", "better", "quantity", "a_mean", "b_mean", "mean", "se",
                         "ci_low", "ci_high", "resolved", "n"])


@click.command()
@click.argument("game")
@click.option("-s", "--strategy", "strategies", multiple=True,
              help="a strategy in the round robin (repeat: at least two)")
@_RULES
@click.option("-m", "--metric", "metric", default=None, help="rate by this per-seat metric")
@click.option("--model", type=click.Choice(["bradley-terry", "least-squares"]), default=None,
              help="ratings model (default: Bradley-Terry for win shares, else least squares)")
@click.option("--reps", type=click.IntRange(20, 100_000), default=400, show_default=True,
              help="bootstrap resamples of chunks for the intervals")
@common_options
@_PROGRESS
@_RESUME
def tournament(game, strategies, rules, metric, model, reps, fmt, out, progress, **kw):
    """A round robin of strategies: cross table and ratings with bootstrap intervals."""
    from simkit.analysis.tournament import tournament as run
    an = run(game, list(strategies), rules=list(rules), metric=metric, model=model, reps=reps,
             progress=progress, **_prep(kw, out))
    cross = an["cross"].pivot(index="row", columns="col", values="score")
    _emit(an, fmt, out, ["rank", "strategy", "metric", "mean", "ci_low", "ci_high",
                         f"mean_{an.info['metric']}", "n", "contradicts"], cross)


@click.command()
@click.argument("game")
@_grid_against("strategy grid, e.g. p1.knock=0..10 (repeatable: a product)")
@click.option("-m", "--metric", "metric", default=None,
              help="metric to optimise (default: the grid seat's objective, e.g. p1_points)")
@click.option("--minimize", is_flag=True, default=None, help="smaller is better")
@click.option("--alpha", type=FLOAT, default=0.05, show_default=True,
              help="chance of ever dropping a truly best point")
@common_options
@_PROGRESS
@_RESUME
def best(game, grid, strategies, rules, metric, minimize, alpha, fmt, out, progress, **kw):
    """The best point of a strategy grid against fixed opponents, by racing on common deals."""
    from simkit.analysis.racing import best as run
    an = run(game, list(grid), strategies=list(strategies), rules=list(rules), metric=metric,
             larger=None if minimize is None else not minimize, alpha=alpha, progress=progress,
             **_prep(kw, out))
    _emit(an, fmt, out, an.info["keys"] + ["metric", "mean", "ci_low", "ci_high", "n", "diff",
                                           "diff_se", "survivor", "dropped_at"])


@click.command()
@click.argument("game")
@click.option("--row", required=True, help="the row side's grid axis, e.g. banker_stop=14..20")
@click.option("--col", required=True, help="the column side's grid axis, e.g. p1.t=12..21")
@click.option("-s", "--strategy", "strategies", multiple=True,
              help="SEAT=NAME(params): the strategies whose parameter a grid varies")
@_RULES
@click.option("--row-metric", default=None, help="the row side's payoff (default: zero-sum)")
@click.option("--col-metric", default=None, help="the column side's payoff (default: its objective)")
@click.option("--exact", is_flag=True, help="the matrix from the game's exact analysis")
@click.option("--reps", type=click.IntRange(20, 100_000), default=400, show_default=True,
              help="bootstrap resamples of chunks for the value's error")
@common_options
@_PROGRESS
@_RESUME
def solve(game, row, col, strategies, rules, row_metric, col_metric, exact, reps, fmt, out,
          progress, **kw):
    """Payoff matrix of two grids: best replies, pure minimax and the mixed equilibrium."""
    from simkit.analysis.solve import solve as run
    an = run(game, row, col, strategies=list(strategies), rules=list(rules),
             row_metric=row_metric, col_metric=col_metric, exact=exact, reps=reps,
             progress=progress, **_prep(kw, out))
    t = an.table()
    mat = t.pivot(index=an.info["row"], columns=an.info["col"], values="mean")
    if fmt == "table":
        _emit_solve(an, mat, out)
    else:
        _emit(an, fmt, out, [])


def _emit_solve(an, mat, out):
    if out:
        _save(an, out)
    with pd.option_context("display.width", 200, "display.float_format", lambda v: f"{v:.6f}"):
        click.echo(f"row payoff {an.info['row_metric']} ({an.info['row']} down, "
                   f"{an.info['col']} across):")
        click.echo(mat.to_string())
        click.echo("")
        click.echo(an["replies"].to_string(index=False))
    for line in an.summary:
        click.echo(line)
    _finish(an)


@click.command()
@click.argument("game")
@_grid_against("one seat's strategy grid, e.g. p1.knock=0..10")
@common_options
@_PROGRESS
@_RESUME
def odds(game, grid, strategies, rules, fmt, out, progress, **kw):
    """Match-win chance by a strategy parameter, in the game's match unit (gin to 100...)."""
    from simkit.analysis.match import odds as run
    an = run(game, list(grid), strategies=list(strategies), rules=list(rules), progress=progress,
             **_prep(kw, out))
    _emit(an, fmt, out, an.info["keys"] + ["metric", "mean", "ci_low", "ci_high", "diff",
                                           "diff_low", "diff_high", "best", "tied", "n"])


#: the commands :mod:`simkit.cli` adds to its group
COMMANDS = (compare, tournament, best, solve, odds)
