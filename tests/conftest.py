"""Session set-up: compile every game's kernels once, in parallel, before the xdist workers start.

With a fresh ``NUMBA_CACHE_DIR`` (CI always uses one) each worker would otherwise compile every
kernel it meets: about 25 CPU seconds a game, paid once per worker.  For a run on several workers
(``-n 2``) the controller compiles them first in that many processes, each pulling the next game,
and the workers then load them from the cache.  ``SIMKIT_NO_WARMUP=1`` skips it.
"""
from __future__ import annotations

import os


def pytest_sessionstart(session):
    config = session.config
    workers = getattr(config.option, "numprocesses", None)
    if (hasattr(config, "workerinput") or not isinstance(workers, int) or workers < 2
            or os.environ.get("NUMBA_DISABLE_JIT") == "1" or os.environ.get("SIMKIT_NO_WARMUP")):
        return
    import multiprocessing

    import simkit
    from simkit.testing import warm_up
    # a pool pulling one game at a time (fixed groups left one process idle while the other still
    # compiled: the games' costs differ tenfold), games with an exact analysis, the costliest, first
    names = sorted(simkit.games(), key=lambda g: (simkit.get_game(g).exact is None, g))
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for _ in pool.imap_unordered(warm_up, [[name] for name in names]):
            pass


def pytest_collection_modifyitems(config, items):
    """The long tests (``slow``, the notebooks longest) run first, so that with ``--dist worksteal``
    the last tests either worker runs are short ones and neither waits on the other's long tail."""
    def rank(item):
        if item.get_closest_marker("slow") is None:
            return 2
        return 0 if item.nodeid.startswith("tests/test_notebooks.py") else 1
    items.sort(key=rank)   # stable: the file order is kept within each rank
