"""The ``simkit`` console script and ``python -m simkit``.  The command modules (click, pandas,
numba and the games behind them) are imported inside the Ctrl-C handling, so that a Ctrl-C while
they load ends with one line and status 130, as one during a run does, never a traceback (the
package top is lazy, so importing this module loads nothing else)."""
from __future__ import annotations

import sys


def entry() -> None:
    try:
        from simkit.cli import entry as run
    except KeyboardInterrupt:
        sys.stderr.write("simkit: interrupted\n")
        raise SystemExit(130) from None
    run()
