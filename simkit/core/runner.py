"""The Monte Carlo runner: chunks, backends, streaming merge, progress, interruption.

A request is a list of *configurations* (game, rules, strategies) and a number of deals ``n``.
``n`` is cut into chunks whose size depends on ``n`` alone (:func:`plan`); chunk ``c`` of every
configuration plays the same deals (its stream is ``SeedSequence(seed, spawn_key=(c,))``).  A
*unit* is one (configuration, chunk); units run serially, on threads (the kernels release the GIL),
on local processes, or on Dask distributed, and their aggregates are merged in chunk order, so the
numbers are bit-identical whichever backend ran them.
"""
from __future__ import annotations

import math
import os
import signal
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Callable, Iterable

import numpy as np

from simkit.core.play import run_chunk
from simkit.core.registry import GameSpec, Strategy
from simkit.core.rng import stream_state
from simkit.core.rules import Rules
from simkit.errors import SimkitError

MIN_CHUNK = 4096
MAX_CHUNK = 1 << 20
TARGET_CHUNKS = 64
BACKENDS = ("serial", "threads", "processes", "dask")


def chunk_size(n: int) -> int:
    """Deals per chunk for a request of ``n`` deals: about n/64, a power of two in [4096, 2**20]."""
    want = max(1, math.ceil(n / TARGET_CHUNKS))
    return int(min(MAX_CHUNK, max(MIN_CHUNK, 1 << (want - 1).bit_length())))


def plan(n: int, size: int | None = None) -> list[tuple[int, int]]:
    """``[(chunk index, deals), ...]`` covering ``n`` deals."""
    size = size or chunk_size(n)
    full, rest = divmod(n, size)
    return [(c, size) for c in range(full)] + ([(full, rest)] if rest else [])


@dataclass(frozen=True)
class Config:
    """One configuration: a game, its rules and one strategy per seat (the spec pickles by name)."""
    spec: GameSpec
    rules: Rules
    strategies: tuple[Strategy, ...]


def execute_unit(config: Config, seed: int, chunk: int, count: int, rows: bool = False):
    """Play chunk ``chunk`` (``count`` deals) of ``config``; runs in any worker."""
    acc, out, _ = run_chunk(config.spec, config.rules, config.strategies,
                            stream_state(seed, chunk), count, rows)
    return acc, out


@dataclass
class Aggregates:
    """Per-chunk sums and sums of squares of one configuration's metrics."""
    n_metrics: int
    chunks: dict[int, tuple[int, np.ndarray]] = field(default_factory=dict)

    def add(self, chunk: int, count: int, acc: np.ndarray) -> None:
        self.chunks[chunk] = (int(count), np.asarray(acc, np.float64))

    def total(self) -> tuple[int, np.ndarray]:
        """Deals and ``acc[2, M]`` summed in chunk order (the order fixes the float rounding)."""
        acc = np.zeros((2, self.n_metrics))
        n = 0
        for c in sorted(self.chunks):
            cnt, a = self.chunks[c]
            n += cnt
            acc += a
        return n, acc


class Backend:
    """Where units run: ``serial``, ``threads`` (the kernels release the GIL), ``processes`` or
    ``dask``.  Without a ``backend``: serial for one worker, threads for more; a ``scheduler``
    address means Dask."""

    def __init__(self, workers: int = 1, backend: str | None = None, scheduler: str | None = None):
        if workers < 1:
            raise SimkitError(f"--workers must be at least 1, not {workers}")
        if scheduler:
            backend = "dask"
        backend = backend or ("serial" if workers == 1 else "threads")
        if backend not in BACKENDS:
            raise SimkitError(f"unknown backend {backend!r}: choose one of {', '.join(BACKENDS)}")
        self.workers, self.kind, self.scheduler = workers, backend, scheduler
        self._client = self._cluster = self._pool = None

    def __enter__(self):
        if self.kind == "threads":
            self._pool = ThreadPoolExecutor(self.workers)
        elif self.kind == "processes":
            import multiprocessing as mp
            from concurrent.futures import ProcessPoolExecutor
            self._pool = ProcessPoolExecutor(self.workers, mp_context=mp.get_context("spawn"))
        elif self.kind == "dask":
            try:
                from distributed import Client, LocalCluster
            except ImportError:
                raise SimkitError("the dask backend needs Dask: pip install 'simkit[dask]'") from None
            if self.scheduler:
                try:
                    self._client = Client(self.scheduler, timeout=10)
                except (OSError, TimeoutError) as e:
                    raise SimkitError(f"cannot reach the Dask scheduler at {self.scheduler}: {e}") from None
            else:
                self._cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1,
                                             processes=True, dashboard_address=None)
                self._client = Client(self._cluster)
        return self

    def __exit__(self, *exc):
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        if self._client is not None:
            import logging
            quiet = [logging.getLogger(n) for n in ("distributed", "tornado")]
            levels = [q.level for q in quiet]
            for q in quiet:  # shutting a local cluster down logs closed comms; they are harmless
                q.setLevel(logging.CRITICAL)
            try:
                self._client.close()
                if self._cluster is not None:
                    self._cluster.close()
            finally:
                for q, lv in zip(quiet, levels):
                    q.setLevel(lv)

    def map(self, units: list[tuple], fn: Callable = execute_unit) -> Iterable[tuple[tuple, object]]:
        """Yield ``(unit, result)`` as units finish.

        The first Ctrl-C stops submitting units; the ones in flight finish and are yielded, then
        KeyboardInterrupt is raised.  A second Ctrl-C interrupts at once."""
        with _StopOnSigint() as stop:
            if self.kind == "serial":
                for u in units:
                    if stop.requested:
                        break
                    yield u, fn(*u)
            else:
                yield from self._map_parallel(units, fn, stop)
            if stop.requested:
                raise KeyboardInterrupt

    def _map_parallel(self, units, fn, stop):
        window = 2 * self.workers
        pending = list(reversed(units))
        inflight: dict = {}
        while pending or inflight:
            while pending and len(inflight) < window and not stop.requested:
                u = pending.pop()
                if self._client is not None:
                    f = self._client.submit(fn, *u, pure=False)
                else:
                    f = self._pool.submit(fn, *u)
                inflight[f] = u
            if not inflight:
                break
            if self._client is not None:
                from distributed import wait as dwait
                done = dwait(list(inflight), timeout=None, return_when="FIRST_COMPLETED").done
            else:
                done = wait(list(inflight), timeout=0.5, return_when=FIRST_COMPLETED).done
            for f in done:
                u = inflight.pop(f)
                yield u, f.result()


class _StopOnSigint:
    """Within the block, the first SIGINT only sets ``requested`` (the main thread only)."""

    def __init__(self):
        self.requested = False
        self._old = None

    def _handler(self, signum, frame):
        self.requested = True
        signal.signal(signal.SIGINT, self._old)  # a second Ctrl-C interrupts at once

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            self._old = signal.signal(signal.SIGINT, self._handler)
        return self

    def __exit__(self, *exc):
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)


class Progress:
    """A tqdm bar on a terminal (stderr), nothing in a pipe."""

    def __init__(self, total: int, enabled: bool | None = None, desc: str = "deals"):
        if enabled is None:
            enabled = sys.stderr.isatty() and not os.environ.get("SIMKIT_NO_PROGRESS")
        self.bar = None
        if enabled:
            from tqdm.auto import tqdm
            self.bar = tqdm(total=total, unit=" deals", unit_scale=True, desc=desc, leave=False)

    def update(self, k: int) -> None:
        if self.bar is not None:
            self.bar.update(k)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def run_units(configs: list[Config], aggs: list[Aggregates], seed: int, chunks: list[tuple[int, int]],
              backend: Backend, progress: Progress | None = None,
              on_done: Callable[[], None] | None = None, rows: dict | None = None) -> None:
    """Run every (configuration, chunk) not yet in ``aggs`` and merge it in.

    ``on_done`` is called after each merged unit (the store uses it to checkpoint).  A
    KeyboardInterrupt propagates after the units in flight have been merged.
    """
    units = [(configs[i], seed, c, cnt, rows is not None)
             for c, cnt in chunks for i in range(len(configs)) if c not in aggs[i].chunks]
    index = {id(cfg): i for i, cfg in enumerate(configs)}
    for (cfg, _, c, cnt, _), (acc, r) in backend.map(units):
        i = index[id(cfg)]
        aggs[i].add(c, cnt, acc)
        if rows is not None and r is not None:
            rows[(i, c)] = r
        if progress is not None:
            progress.update(cnt)
        if on_done is not None:
            on_done()


class Throttle:
    """Call ``fn`` at most every ``seconds`` (and always on :meth:`flush`)."""

    def __init__(self, fn: Callable[[], None], seconds: float = 5.0):
        self.fn, self.seconds, self.last = fn, seconds, time.monotonic()

    def __call__(self) -> None:
        if time.monotonic() - self.last >= self.seconds:
            self.flush()

    def flush(self) -> None:
        self.fn()
        self.last = time.monotonic()
