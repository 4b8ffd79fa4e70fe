"""Session set-up: compile every game's kernels once, in parallel, before the xdist workers start.

With a fresh ``NUMBA_CACHE_DIR`` (CI always uses one) each worker would otherwise compile every
kernel it meets: about 25 CPU seconds a game, paid once per worker.  For a run on several workers
(``-n 2``) the controller compiles them first in that many processes, each taking every other game,
and the workers then load them from the cache.  ``SIMKIT_NO_WARMUP=1`` skips it.
"""
from __future__ import annotations

import os
import subprocess
import sys


def pytest_sessionstart(session):
    config = session.config
    workers = getattr(config.option, "numprocesses", None)
    if (hasattr(config, "workerinput") or not isinstance(workers, int) or workers < 2
            or os.environ.get("NUMBA_DISABLE_JIT") == "1" or os.environ.get("SIMKIT_NO_WARMUP")):
        return
    import simkit
    names = sorted(simkit.games())
    groups = [names[i::workers] for i in range(workers)]
    code = "import sys; from simkit.testing import warm_up; warm_up(sys.argv[1:])"
    procs = [subprocess.Popen([sys.executable, "-c", code, *g]) for g in groups if g]
    for p in procs:
        if p.wait() != 0:
            raise RuntimeError(f"warming up the numba cache failed (exit {p.returncode})")
