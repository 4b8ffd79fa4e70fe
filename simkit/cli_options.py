"""What the command modules share (:mod:`simkit.cli` and :mod:`simkit.cli_analysis`): the
parameter types that take ASCII digits only, the output formats, the options of every simulating
command, and JSON output.  The analysis commands are defined in :mod:`simkit.cli_analysis` and
added to the group by :mod:`simkit.cli`: the imports go one way (``cli`` -> ``cli_analysis`` ->
``cli_options``), never in a cycle."""
from __future__ import annotations

import math

import click

#: -r's help (every command that takes rules options)
RULE_HELP = ("rules option key=value (repeatable), e.g. -r preset=NAME; -r 'GAME(key=value,...)' "
             "(the game's own name) reads too")
FORMATS = click.Choice(["table", "json", "csv"])


class _AsciiInt(click.ParamType):
    """An integer in ASCII digits (click's ``int`` also takes other scripts' digits)."""
    name = "integer"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        text = str(value).strip()
        if not (text.isascii() and text.lstrip("+-").isdigit()):
            self.fail(f"{value!r} is not a whole number in ASCII digits", param, ctx)
        return int(text)


INT = _AsciiInt()


class _AsciiFloat(click.ParamType):
    """A finite number in ASCII (``float()`` also takes other scripts' digits, nan and inf)."""
    name = "number"

    def convert(self, value, param, ctx):
        if isinstance(value, float):
            return value
        text = str(value).strip()
        try:
            f = float(text) if text.isascii() else math.nan
        except ValueError:
            f = math.nan
        if not math.isfinite(f):
            self.fail(f"{value!r} is not a finite number in ASCII digits", param, ctx)
        return f


FLOAT = _AsciiFloat()


class _FileName(click.ParamType):
    """A file to write: not empty (``-o ''`` was taken as no file at all)."""
    name = "file"

    def convert(self, value, param, ctx):
        if not str(value).strip():
            self.fail(f"{value!r} is not a file name", param, ctx)
        return str(value)


FILE = _FileName()


def common_options(f):
    """The options every simulating command takes: output, seed, size and where chunks run."""
    opts = [
        click.option("--format", "fmt", type=FORMATS, default="table", show_default=True,
                     help="output format on stdout"),
        click.option("-o", "--output", "out", type=FILE, default=None, help="write results to FILE (.parquet or .csv)"),
        click.option("--seed", default="0", show_default=True, help="seed of the SeedSequence (0..2**63-1)"),
        click.option("-n", "n", default=None,
                     help="deals (per grid point); 1e6 accepted [default: 1e5; with --precision "
                          "the cap, default 1e9]"),
        click.option("--workers", type=INT, default=1, show_default=True, help="parallel workers"),
        click.option("--backend", type=click.Choice(["serial", "threads", "processes", "dask"]),
                     default=None, help="where chunks run (default: serial, threads if --workers > 1)"),
        click.option("--scheduler", default=None, help="address of an existing Dask scheduler"),
    ]
    for o in reversed(opts):
        f = o(f)
    return f


def jsonable(v):
    """``json.dumps``'s ``default``: nan as null, anything else as its text."""
    if isinstance(v, float) and math.isnan(v):
        return None
    return str(v)
