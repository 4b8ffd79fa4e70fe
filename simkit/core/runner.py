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
GROW = 4  # a precision run's plan: GROW chunks of each size 4096, 8192, ... up to chunk_size(n)
MAX_N = 10**12  # deals per configuration (about 10**6 chunks)
MAX_UNITS = 2_000_000  # configurations times chunks in one request
BACKENDS = ("serial", "threads", "processes", "dask")
DASK_TIMEOUT = 60.0  # seconds without progress and without workers (SIMKIT_DASK_TIMEOUT)


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM during a run: ``signum`` says which (the CLI exits 128 + signum)."""

    def __init__(self, signum: int = signal.SIGINT):
        super().__init__(signum)
        self.signum = int(signum)


class BackendLost(RuntimeError):
    """The Dask cluster went away (no worker, or no scheduler, for the timeout): the units merged
    so far are kept and the run ends early, as after an interrupt."""


def chunk_size(n: int) -> int:
    """Deals per chunk for a request of ``n`` deals: about n/64, a power of two in [4096, 2**20]."""
    want = max(1, math.ceil(n / TARGET_CHUNKS))
    return int(min(MAX_CHUNK, max(MIN_CHUNK, 1 << (want - 1).bit_length())))


def plan(n: int, size: int | None = None, grow: bool = False) -> list[tuple[int, int]]:
    """``[(chunk index, deals), ...]`` covering ``n`` deals.

    ``grow`` (precision runs): the first chunks are small and double every :data:`GROW` chunks up
    to ``size``, so that a loose target stops after a few thousand deals whatever the cap."""
    size = size or chunk_size(n)
    if grow:
        out, c, left = [], 0, n
        while left > 0 and (MIN_CHUNK << (c // GROW)) < size:
            k = min(left, MIN_CHUNK << (c // GROW))
            out.append((c, k))
            c, left = c + 1, left - k
        full, rest = divmod(left, size)
        return out + [(c + j, size) for j in range(full)] + ([(c + full, rest)] if rest else [])
    full, rest = divmod(n, size)
    return [(c, size) for c in range(full)] + ([(full, rest)] if rest else [])


def check_size(n: int, configs: int = 1) -> None:
    """Refuse a request too large to plan (exit 2), before any chunk list is built."""
    if n > MAX_N:
        raise SimkitError(f"n={n:.3g} deals per configuration is more than simkit plans for "
                          f"(at most 1e12); split the work into several runs with other seeds"
                          .replace("e+", "e"))
    units = configs * math.ceil(n / chunk_size(n))
    if units > MAX_UNITS:
        raise SimkitError(f"{configs:,} configurations of n={n:,} deals make {units:,} chunks, more "
                          f"than {MAX_UNITS:,}; use a smaller grid or fewer deals")


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


_PROCESS_POOLS: dict[int, object] = {}


def _process_pool(workers: int):
    """A spawn pool of ``workers`` processes, kept for the next requests of this process:
    starting one costs seconds (each worker imports simkit and loads the kernels), so a notebook
    or a test session that runs many requests on processes pays it once.  A pool left broken or
    by an exception is shut down and replaced (:meth:`Backend.__exit__`)."""
    pool = _PROCESS_POOLS.get(workers)
    if pool is None or getattr(pool, "_broken", False):
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor
        pool = ProcessPoolExecutor(workers, mp_context=mp.get_context("spawn"),
                                   initializer=_watch_parent, initargs=(os.getpid(),))
        if not _PROCESS_POOLS:
            import atexit
            atexit.register(_close_pools)  # before interpreter teardown, which they outlive
        _PROCESS_POOLS[workers] = pool
    return pool


def _watch_parent(parent: int, every: float = 0.2) -> None:
    """A process worker's initializer: a daemon thread that ends the worker once its parent is
    gone (SIGKILL of a run gives its workers no chance to be shut down; they would play on,
    holding memory, and keep the resource tracker alive).  The kernels release the GIL, so the
    thread looks even while the worker plays a chunk."""
    def watch():
        while True:
            time.sleep(every)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="simkit-parent-watch", daemon=True).start()


def _close_pools() -> None:
    while _PROCESS_POOLS:
        _, pool = _PROCESS_POOLS.popitem()
        pool.shutdown(wait=True, cancel_futures=True)


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
        self._client = self._cluster = self._pool = self._quieted = None

    def __enter__(self):
        if self.kind == "threads":
            self._pool = ThreadPoolExecutor(self.workers)
        elif self.kind == "processes":
            self._pool = _process_pool(self.workers)
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
            # simkit says itself what went wrong with the cluster (a lost worker or scheduler);
            # distributed's own reconnection tracebacks would bury that one line
            self._quieted = _quiet_dask()
        return self

    def __exit__(self, *exc):
        if self._pool is not None and self.kind == "processes" and exc[0] is None:
            pass  # idle after a finished request: kept for the next one
        elif self._pool is not None:
            if exc[0] is not None and issubclass(exc[0], KeyboardInterrupt):
                # a second Ctrl-C: the chunks still running are given up, not waited for (the
                # CLI then exits at once; process workers are ended)
                for proc in list((getattr(self._pool, "_processes", None) or {}).values()):
                    proc.terminate()
                self._pool.shutdown(wait=False, cancel_futures=True)
            else:
                self._pool.shutdown(wait=True, cancel_futures=True)
            if _PROCESS_POOLS.get(self.workers) is self._pool:
                del _PROCESS_POOLS[self.workers]
        if self._client is not None:
            quieted = getattr(self, "_quieted", None) or _quiet_dask()
            try:  # shutting a local cluster down logs closed comms; they are harmless
                try:
                    self._client.close(timeout=5)
                except Exception:  # noqa: BLE001 - a lost scheduler: nothing left to close
                    pass
                if self._cluster is not None:
                    self._cluster.close()
                # a lost worker leaves distributed's gather tasks with unretrieved exceptions;
                # collect them while its loggers are still quiet, or asyncio prints a traceback
                import gc
                gc.collect()
            finally:
                for q, lv in quieted:
                    q.setLevel(lv)
                self._quieted = None

    def map(self, units: list[tuple], fn: Callable = execute_unit) -> Iterable[tuple[tuple, object]]:
        """Yield ``(unit, result)`` as units finish.

        The first Ctrl-C (or SIGTERM) stops submitting units; the ones in flight finish and are
        yielded, then :class:`Interrupted` (a KeyboardInterrupt) is raised.  A second one
        interrupts at once.  A Dask cluster left without workers or scheduler raises
        :class:`BackendLost` after ``SIMKIT_DASK_TIMEOUT`` seconds without progress."""
        with _StopOnSigint() as stop:
            if self.kind == "serial":
                for u in units:
                    if stop.requested:
                        break
                    yield u, in_thread(fn, *u)
            else:
                yield from self._map_parallel(units, fn, stop)
            if stop.requested:
                raise Interrupted(stop.requested)

    def _map_parallel(self, units, fn, stop):
        window = 2 * self.workers
        pending = list(reversed(units))
        inflight: dict = {}
        self._idle_since, self._told = None, False
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
            if self._client is None:
                try:
                    done = wait(list(inflight), timeout=0.5, return_when=FIRST_COMPLETED).done
                except KeyboardInterrupt:  # a second Ctrl-C: keep what finished, leave the rest
                    for f in [f for f in inflight if f.done() and f.exception() is None]:
                        yield inflight.pop(f), f.result()
                    raise
                for f in done:
                    yield inflight.pop(f), f.result()
                continue
            for f in self._dask_wait(inflight, stop):
                ok, value = self._dask_result(f)
                if ok:
                    self._idle_since = None
                    yield inflight.pop(f), value
                else:  # its result went with a worker: the scheduler computes it again
                    self._dask_stalled(stop)
                    time.sleep(0.2)

    def _dask_wait(self, inflight, stop) -> set:
        """Wait for a unit in short polls, so that signals and a cluster that went away are seen."""
        from distributed import wait as dwait
        while True:
            try:
                return dwait(list(inflight), timeout=0.5, return_when="FIRST_COMPLETED").done
            except TimeoutError:
                pass
            except Exception as e:  # noqa: BLE001 - a comm error: the scheduler is gone
                if stop.requested:
                    raise Interrupted(stop.requested) from None
                raise BackendLost(f"lost the Dask scheduler at {self._where()} "
                                  f"({type(e).__name__})") from None
            self._dask_stalled(stop)

    def _dask_stalled(self, stop) -> None:
        """No progress: when the cluster has no worker (or no scheduler), say so once on stderr
        and give up after ``SIMKIT_DASK_TIMEOUT`` seconds (default 60) without progress; a
        Ctrl-C or SIGTERM then stops at once (the units in flight cannot finish)."""
        trouble = self._dask_trouble()
        if trouble is None:
            self._idle_since = None
            return
        if stop.requested:
            raise Interrupted(stop.requested)
        limit, now = dask_timeout(), time.monotonic()
        if self._idle_since is None:
            self._idle_since = now
        if not self._told:
            sys.stderr.write(f"simkit: {trouble}; waiting up to {limit:g} s for it to come back "
                             f"(SIMKIT_DASK_TIMEOUT), Ctrl-C saves what finished\n")
            sys.stderr.flush()
            self._told = True
        if now - self._idle_since >= limit:
            raise BackendLost(f"{trouble} for {limit:g} s")

    def _where(self) -> str:
        return self.scheduler or "the local cluster"

    def _dask_trouble(self) -> str | None:
        """Why no unit can progress on the Dask cluster, or None when it has a worker."""
        status = getattr(self._client, "status", "running")
        if status != "running":
            return f"lost the Dask scheduler at {self._where()}"
        try:  # ask the scheduler now (Client.scheduler_info keeps stale answers when it is gone)
            info = self._client.sync(self._client.scheduler.identity, callback_timeout=5)
            workers = info.get("n_workers", len(info.get("workers", {})))
        except Exception:  # noqa: BLE001 - the scheduler did not answer
            return f"lost the Dask scheduler at {self._where()}"
        if not workers:
            return f"no Dask worker is connected to the scheduler at {self._where()}"
        return None

    def _dask_result(self, f) -> tuple[bool, object]:
        """``(True, result)`` of a Dask unit, ``(False, None)`` when its result cannot be
        fetched now (it was on a worker that is gone); :class:`BackendLost` when the scheduler
        cancelled it or workers died running it; an error of the unit's own is raised as it is
        (a bug)."""
        if f.status == "finished":
            try:
                return True, f.result(timeout=5)
            except Exception:  # noqa: BLE001 - the result was on a worker that is gone
                return False, None
        if f.status == "cancelled":
            raise BackendLost(f"the Dask scheduler at {self._where()} cancelled a chunk "
                              f"(scheduler lost?)")
        exc = f.exception()
        if type(exc).__name__ == "KilledWorker":
            raise BackendLost(f"Dask workers died running a chunk ({exc})")
        return True, f.result()


def _quiet_dask() -> list:
    """Set every distributed and tornado logger to CRITICAL; ``[(logger, old level)]``."""
    import logging
    names = ["distributed", "tornado", "asyncio"] + [n for n in list(logging.root.manager.loggerDict)
                                          if n.startswith(("distributed.", "tornado."))]
    out = []
    for n in dict.fromkeys(names):
        q = logging.getLogger(n)
        out.append((q, q.level))
        q.setLevel(logging.CRITICAL)
    return out


def dask_timeout() -> float:
    """``SIMKIT_DASK_TIMEOUT``: seconds to wait for a Dask cluster that has no worker or lost its
    scheduler, before ending the run with the finished chunks saved."""
    raw = os.environ.get("SIMKIT_DASK_TIMEOUT", "")
    try:
        v = float(raw) if raw.strip() else DASK_TIMEOUT
    except ValueError:
        raise SimkitError(f"SIMKIT_DASK_TIMEOUT={raw!r}: give a number of seconds") from None
    if not v > 0:
        raise SimkitError(f"SIMKIT_DASK_TIMEOUT={raw!r}: give a positive number of seconds")
    return v


def in_thread(fn: Callable, *args):
    """``fn(*args)`` in a daemon thread while the main thread waits in short polls, so that a
    signal is handled at once even while a kernel plays a long chunk (a numba kernel holds the
    main thread until it returns: a gin match chunk takes minutes).  A second Ctrl-C then raises
    here and the chunk is given up.  Off the main thread, a plain call."""
    if threading.current_thread() is not threading.main_thread():
        return fn(*args)
    box: dict = {}
    done = threading.Event()

    def target():
        try:
            box["value"] = fn(*args)
        except BaseException as e:  # noqa: BLE001 - raised again in the caller's thread
            box["error"] = e
        finally:
            done.set()

    threading.Thread(target=target, name="simkit-chunk", daemon=True).start()
    while not done.wait(0.2):
        pass
    if "error" in box:
        raise box.pop("error")
    return box["value"]


class _StopOnSigint:
    """Within the block, the first SIGINT or SIGTERM only sets ``requested`` to its number (the
    main thread only); a second one goes to the handler that was there before."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self):
        self.requested = 0
        self._old: dict = {}

    def _handler(self, signum, frame):
        self.requested = signum
        self._restore()  # a second Ctrl-C interrupts at once

    def _restore(self):
        for sig, old in self._old.items():
            signal.signal(sig, old if old is not None else signal.SIG_DFL)
        self._old = {}

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for sig in self.SIGNALS:
                self._old[sig] = signal.signal(sig, self._handler)
        return self

    def __exit__(self, *exc):
        self._restore()


def in_notebook() -> bool:
    """True inside a Jupyter kernel (a notebook, JupyterLab, VS Code's notebooks)."""
    shell = sys.modules.get("IPython")
    try:
        ip = shell.get_ipython() if shell is not None else None
    except Exception:  # noqa: BLE001 - an IPython without a shell
        return False
    return ip is not None and "IPKernelApp" in getattr(ip, "config", {})


def show_progress() -> bool:
    """Whether a long run shows a bar when the caller did not say: on a terminal (stderr) or in a
    notebook, never in a pipe or with ``SIMKIT_NO_PROGRESS`` set."""
    if os.environ.get("SIMKIT_NO_PROGRESS"):
        return False
    return sys.stderr.isatty() or in_notebook()


def _bar_class():
    """tqdm's notebook widget in a notebook with ipywidgets (the ``notebooks`` extra), else its
    text bar on stderr (tqdm.auto would warn and fall back to the same)."""
    if in_notebook():
        import importlib.util
        if importlib.util.find_spec("ipywidgets") is not None:
            from tqdm.notebook import tqdm
            return tqdm
    from tqdm.std import tqdm
    return tqdm


class Progress:
    """A tqdm bar on a terminal (stderr) or a notebook's widget, nothing in a pipe."""

    def __init__(self, total: int, enabled: bool | None = None, desc: str = "deals"):
        if enabled is None:
            enabled = show_progress()
        self.bar = None
        if enabled:
            self.bar = _bar_class()(total=total, unit=" deals", unit_scale=True, desc=desc,
                                    leave=False)

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
    """Call ``fn`` at most every ``seconds`` (and always on :meth:`flush`); by default every
    ``SIMKIT_CHECKPOINT_SECONDS`` (5; 0 calls it every time).  A call that took long spaces the
    next ones out to 20 times its time, so that checkpoints of a large run stay about 5% of it."""

    def __init__(self, fn: Callable[[], None], seconds: float | None = None):
        if seconds is None:
            try:
                seconds = float(os.environ.get("SIMKIT_CHECKPOINT_SECONDS") or 5.0)
            except ValueError:
                seconds = 5.0
        self.fn, self.seconds, self.last, self.cost = fn, seconds, time.monotonic(), 0.0

    def __call__(self) -> None:
        gap = max(self.seconds, 20 * self.cost) if self.seconds > 0 else 0.0  # 0: every call
        if time.monotonic() - self.last >= gap:
            self.flush()

    def flush(self) -> None:
        t = time.monotonic()
        self.fn()
        self.last = time.monotonic()
        self.cost = self.last - t
