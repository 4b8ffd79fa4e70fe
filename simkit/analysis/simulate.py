"""Simulate one configuration or a grid of them: the friendly layer over the runner.

``run("ochko(banker_stop=16)", n=1e6, seed=1, strategies=["p1=stand_at(16)"])`` and
``sweep("ochko", grid=["banker_stop=14..20", "p1.t=14..18"], n=1e6)`` return a :class:`Result`
whose :meth:`Result.table` is a tidy DataFrame (one row per configuration and metric, with its
provenance).  Every grid point sees the same deals, so differences between them are paired.
"""
from __future__ import annotations

import contextlib
import datetime as _dt
import hashlib
import itertools
import math
import os
import signal
import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from simkit._version import __version__
from simkit.core import runner as R
from simkit.core import stats, store
from simkit.core.registry import (GameSpec, game_string, make_strategy, merge_options, parse_kv,
                                  parse_strategies, rules_from_options, seat_names, split_call)
from simkit.errors import SimkitError

MAX_ROWS = 1_000_000
MAX_WORKERS = 1024


def parse_n(n) -> int:
    """``1e6``, ``"1e6"``, ``"2_000_000"`` -> int; n must be a positive whole number."""
    try:
        if not str(n).isascii():
            raise ValueError
        f = float(str(n).replace("_", ""))
    except ValueError:
        raise SimkitError(f"bad number of deals {n!r}: write a positive number such as 1e6") from None
    if not math.isfinite(f) or f != int(f) or f <= 0:
        raise SimkitError(f"bad number of deals {n!r}: n must be a positive whole number")
    return int(f)


def parse_grid(items) -> list[tuple[str, list[str]]]:
    """``["banker_stop=14..20", "p1.t=15,16,17", "x=0..1:0.25"]`` -> ``[(key, [values])]``."""
    if isinstance(items, dict):
        return [(k, [str(v) for v in (vs if isinstance(vs, (list, tuple, range, np.ndarray)) else [vs])])
                for k, vs in items.items()]
    out = []
    for it in items or []:
        if "=" not in it:
            raise SimkitError(f"malformed grid {it!r}: write key=a..b, key=a..b:step or key=a,b,c")
        key, spec = (s.strip() for s in it.split("=", 1))
        if ".." in spec:
            rng_part, _, step = spec.partition(":")
            a, _, b = rng_part.partition("..")
            try:
                if not spec.isascii():
                    raise ValueError
                a, b = float(a), float(b)
                st = float(step) if step else 1.0
                if not all(map(math.isfinite, (a, b, st))):
                    raise ValueError
            except ValueError:
                raise SimkitError(f"malformed grid {it!r}: a..b needs finite numbers in ASCII "
                                  f"digits, e.g. {key}=14..20") from None
            if st <= 0 or b < a or (b - a) / st > 10_000:
                raise SimkitError(f"malformed grid {it!r}: need a <= b and a positive step "
                                  f"(at most 10000 points)")
            k = int(math.floor((b - a) / st + 1e-9))
            vals = [a + i * st for i in range(k + 1)]
            values = [str(int(v)) if float(v).is_integer() else repr(round(v, 12)) for v in vals]
        else:
            values = [v.strip() for v in spec.split(",") if v.strip()]
        if not key or not values:
            raise SimkitError(f"malformed grid {it!r}: write key=a..b, key=a..b:step or key=a,b,c")
        out.append((key, values))
    keys = [k for k, _ in out]
    if len(set(keys)) != len(keys):
        raise SimkitError("malformed grid: a key appears twice")
    return out


#: Seeds are stored in results tables as int64.
MAX_SEED = 2 ** 63 - 1


def parse_seed(seed) -> int:
    """``--seed``: a whole number in 0..2**63-1 written in ASCII digits (``int()`` would also
    take other scripts' digits and numbers too big for a results file)."""
    if isinstance(seed, bool):
        seed = str(seed)
    if isinstance(seed, (int, np.integer)):
        value = int(seed)
    else:
        text = str(seed).strip()
        if not (text.isascii() and text.lstrip("+-").isdigit()):
            raise SimkitError(f"bad seed {seed!r}: write a whole number in ASCII digits, "
                              f"0..{MAX_SEED}")
        value = int(text)
    if not 0 <= value <= MAX_SEED:
        raise SimkitError(f"--seed must be a non-negative integer up to 2**63-1 = {MAX_SEED}, "
                          f"not {value}")
    return value


def kernel_is_cold(spec: GameSpec) -> bool:
    """True when ``spec``'s kernel is neither compiled in this process nor in numba's cache on
    disk (its first call will compile, which takes seconds)."""
    k = spec.kernel
    if getattr(k, "signatures", None):
        return False
    try:
        return not k._cache._cache_file._load_index()  # numba internals: the on-disk index
    except Exception:  # noqa: BLE001 - another numba, or no cache: say nothing rather than guess
        return False


#: seconds the first run of each game spends compiling its kernels into numba's cache, measured
#: with a fresh ``NUMBA_CACHE_DIR`` on a two-core CI machine by ``scripts/compile_times.py`` (a
#: guide for the notice below; later runs load the cache in about a second)
COMPILE_SECONDS: dict[str, float] = {
    "ochko": 32, "ochko_session": 34, "gin": 34, "klaberjass": 40, "hearts": 59, "old_maid": 8,
    "crazy_eights": 62, "fan_tan": 11, "durak": 49, "stovkahra": 46, "thirty_one": 51, "piquet":
    57, "handjass": 93}


def say_compiling(spec: GameSpec, enabled: bool | None = None) -> bool:
    """Tell the user, on standard error, that this first run compiles the game's kernels and
    about how long that takes (``enabled`` None: unless ``SIMKIT_NO_PROGRESS`` is set, on a
    terminal, a pipe or a notebook alike: the wait is the same).  Returns whether it did."""
    import os
    import sys
    if enabled is None:
        enabled = not os.environ.get("SIMKIT_NO_PROGRESS")
    if not enabled or not kernel_is_cold(spec):
        return False
    secs = COMPILE_SECONDS.get(spec.name)
    wait = f"about {_round_wait(secs)}" if secs else "up to a minute or two"
    print(f"simkit: compiling {spec.name}'s kernels, first run only ({wait}; later runs load them "
          f"from numba's cache)...", file=sys.stderr, flush=True)
    return True


def _round_wait(secs: float) -> str:
    if secs < 55:
        return f"{max(5, 5 * round(secs / 5))} s"
    return f"{round(secs / 60 * 2) / 2:g} min"


SCHEMES = ("tcp", "tls", "inproc", "ucx", "ws", "wss")


def check_backend(workers, backend: str | None, scheduler: str | None) -> None:
    """Refuse combinations of ``--workers``, ``--backend`` and ``--scheduler`` that would be
    ignored or cannot work, before anything runs."""
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)):
        raise SimkitError(f"--workers must be a whole number, not {workers!r}")
    if workers < 1:
        raise SimkitError(f"--workers must be at least 1, not {workers}")
    if workers > MAX_WORKERS:
        raise SimkitError(f"--workers {workers}: at most {MAX_WORKERS} (each is a thread, a "
                          f"process or a Dask task slot)")
    if backend == "serial" and workers > 1:
        raise SimkitError(f"--backend serial runs one worker, not {workers}: drop --workers or "
                          f"choose --backend threads, processes or dask")
    if backend == "dask" or scheduler is not None:
        from simkit.core.runner import dask_timeout
        dask_timeout()  # a bad SIMKIT_DASK_TIMEOUT is found now, not when a worker dies
    if scheduler is None:
        return
    addr = str(scheduler).strip()
    if not addr:
        raise SimkitError("--scheduler needs the address of a Dask scheduler, e.g. "
                          "tcp://127.0.0.1:8786 (leave it out to run here)")
    if backend not in (None, "dask"):
        raise SimkitError(f"--scheduler runs on Dask, not --backend {backend}: drop one of them")
    scheme, sep, rest = addr.rpartition("://")
    if sep and scheme not in SCHEMES:
        raise SimkitError(f"bad --scheduler {scheduler!r}: unknown scheme {scheme!r}, use one of "
                          f"{', '.join(s + '://' for s in SCHEMES)} (e.g. tcp://127.0.0.1:8786)")
    bad = SimkitError(f"bad --scheduler {scheduler!r}: write HOST:PORT or "
                      f"SCHEME://HOST:PORT, e.g. tcp://127.0.0.1:8786 or tcp://[::1]:8786")
    if not rest or any(c.isspace() for c in rest) or not rest.isascii():
        raise bad
    if not sep or scheme in ("tcp", "tls"):
        # HOST[:PORT], an IPv6 host in brackets: what Dask's address parser takes
        host, port = rest, ""
        if rest.startswith("["):
            host, close, tail = rest[1:].partition("]")
            if not close or (tail and not tail.startswith(":")):
                raise bad
            port = tail[1:]
        elif ":" in rest:
            host, _, port = rest.rpartition(":")
            if ":" in host:
                raise bad  # an IPv6 address needs brackets
        if not host or (port and not (port.isdigit() and 0 < int(port) < 65536)):
            raise bad


@dataclass
class Result:
    """The outcome of :func:`run` or :func:`sweep`."""
    spec: GameSpec
    configs: list[R.Config]
    points: list[dict]
    aggs: list[R.Aggregates]
    seed: int
    n: int
    complete: bool = True
    rows: pd.DataFrame | None = None
    created: str = field(default_factory=lambda: _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"))
    # how the run ended, as the CLI's exit status: 0 finished, 130 SIGINT, 143 SIGTERM, 3 the
    # Dask cluster was lost (the last three leave complete=False and a file --resume continues)
    exit_status: int = 0
    _specs: list | None = field(default=None, repr=False, compare=False)
    #: what :func:`sweep` was asked (as its results file keeps it for ``--resume``)
    request: dict | None = field(default=None, repr=False, compare=False)

    @property
    def metric_specs(self):
        """Each configuration's metric list, built once (a sweep's table is linear in its grid)."""
        if self._specs is None or len(self._specs) != len(self.configs):
            self._specs = [self.spec.metrics(c.rules) for c in self.configs]
        return self._specs

    def estimates(self, i: int = 0) -> dict[str, dict[str, float]]:
        """``{metric: {mean, se, ci_low, ci_high}}`` of configuration ``i``."""
        cnt, acc = self.aggs[i].total()
        specs = self.metric_specs[i]
        col = {m.name: j for j, m in enumerate(specs)}
        out = {}
        for j, m in enumerate(specs):
            if m.hidden:
                continue
            if m.ratio:
                x, d, xd = (col[k] for k in m.ratio)
                out[m.name] = stats.ratio_estimate(cnt, acc[0, x], acc[1, x], acc[0, d],
                                                   acc[1, d], acc[0, xd])
            else:
                out[m.name] = stats.estimate(cnt, acc[0, j], acc[1, j], m.binary)
            if m.unit.startswith("share"):  # a share's interval stays inside [0, 1]
                e = out[m.name]
                e["ci_low"], e["ci_high"] = stats.clip01(e["ci_low"]), stats.clip01(e["ci_high"])
        return out

    def deals(self, i: int = 0) -> int:
        return self.aggs[i].total()[0]

    def __repr__(self) -> str:
        from simkit.analysis import display
        return display.text(display.result_view(self))

    def _repr_html_(self) -> str:
        from simkit.analysis import display
        return display.html_of(display.result_view(self))

    def strategies_string(self, i: int) -> str:
        seats = seat_names(len(self.configs[i].strategies))
        return " ".join(f"{s}={st}" for s, st in zip(seats, self.configs[i].strategies))

    def table(self) -> pd.DataFrame:
        """Tidy: one row per configuration and metric, with provenance columns."""
        recs = []
        for i, cfg in enumerate(self.configs):
            head = dict(game=self.spec.name, rules=game_string(self.spec, cfg.rules),
                        strategies=self.strategies_string(i), **self.points[i])
            n = self.deals(i)
            units = {m.name: m.unit for m in self.metric_specs[i]}
            for name, e in self.estimates(i).items():
                recs.append(dict(head, metric=name, unit=units[name], **e, n=n, seed=self.seed,
                                 game_version=self.spec.version, simkit_version=__version__,
                                 created=self.created))
        return pd.DataFrame.from_records(recs)

    def wide(self, stat: str = "mean") -> pd.DataFrame:
        """One row per configuration, one column per metric (``stat``: mean, se, ci_low, ci_high)."""
        t = self.table()
        keys = [c for c in t.columns if c not in ("metric", "unit", "mean", "se", "ci_low", "ci_high")]
        return t.pivot_table(index=keys, columns="metric", values=stat, sort=False).reset_index()

    def paired(self, metric: str, a=None, b=None, **grid) -> dict[str, float]:
        """Mean difference of ``metric`` between two configurations on the same deals (``a``
        minus ``b``), with its standard error and 95% interval.

        Name each configuration by its grid values, ``{"banker_stop": 15}`` (every grid column
        that tells it apart; ``"p1.t"`` keys too), or by its position in the grid order; or give
        ``key=(value_a, value_b)`` keywords for the grid columns that differ, the others fixed
        by ``a`` and ``b`` as mappings::

            res.paired("bank_result", {"banker_stop": 15}, {"banker_stop": 16})
            res.paired("bank_result", banker_stop=(15, 16))
            res.paired("bank_result", 0, 1)
        """
        if grid:
            a = dict(a or {}) if not isinstance(a, int) else a
            b = dict(b or {}) if not isinstance(b, int) else b
            if isinstance(a, int) or isinstance(b, int):
                raise SimkitError("paired: give key=(value_a, value_b) keywords or positions, "
                                  "not both")
            for k, v in grid.items():
                if not (isinstance(v, (tuple, list)) and len(v) == 2):
                    raise SimkitError(f"paired: {k}= needs two values, ({k}_a, {k}_b), not {v!r}")
                a[k], b[k] = v
        if a is None or b is None:
            raise SimkitError("paired needs two configurations: paired(metric, a, b) with grid "
                              "values such as {'banker_stop': 15} or positions")
        i, j = self.config_index(a), self.config_index(b)
        specs_i = {m.name: m for m in self.metric_specs[i] if not m.hidden}
        specs_j = {m.name: m for m in self.metric_specs[j] if not m.hidden}
        if metric not in specs_i or metric not in specs_j:
            raise SimkitError(f"unknown metric {metric!r}")
        common = sorted(set(self.aggs[i].chunks) & set(self.aggs[j].chunks))
        cnt = np.array([self.aggs[i].chunks[c][0] for c in common], float)
        return stats.paired_difference(cnt, self._chunk_sums(i, specs_i[metric], common, cnt),
                                       self._chunk_sums(j, specs_j[metric], common, cnt))

    def config_index(self, point) -> int:
        """The position of the configuration named by ``point``: grid values (a mapping) or a
        position; a :class:`SimkitError` says what the grid holds otherwise."""
        n = len(self.configs)
        if isinstance(point, (int, np.integer)) and not isinstance(point, bool):
            if not -n <= point < n:
                raise SimkitError(f"no configuration {point}: this result has {n} (positions "
                                  f"0..{n - 1}, or grid values such as {self._example()})")
            return int(point) % n
        if not isinstance(point, dict):
            raise SimkitError(f"cannot find configuration {point!r}: give grid values such as "
                              f"{self._example()} or a position 0..{n - 1}")
        keys = list(self.points[0]) if self.points else []
        unknown = [k for k in point if k not in keys]
        if unknown:
            raise SimkitError(f"{unknown[0]!r} is not a grid column of this result: its grid "
                              f"columns are {', '.join(keys) or '(none: one configuration)'}")
        found = [i for i, p in enumerate(self.points)
                 if all(_same(p[k], v) for k, v in point.items())]
        if len(found) == 1:
            return found[0]
        if not found:
            k = next(k for k, v in point.items() if not any(_same(p[k], v) for p in self.points))
            vals = ", ".join(map(str, dict.fromkeys(p[k] for p in self.points)))
            raise SimkitError(f"no configuration with {k}={point[k]!r}: the grid has {k} in {vals}")
        free = [k for k in keys if k not in point]
        raise SimkitError(f"{point} matches {len(found)} configurations: also give "
                          f"{', '.join(free)}")

    def _example(self) -> str:
        return repr(self.points[0]) if self.points and self.points[0] else "{}"

    def _chunk_sums(self, i: int, m, chunks, cnt) -> np.ndarray:
        """Per-chunk sums of ``m`` (a ratio metric: the chunk's ratio times its deals)."""
        names = [s.name for s in self.metric_specs[i]]
        acc = [self.aggs[i].chunks[c][1] for c in chunks]
        if not m.ratio:
            return np.array([a[0, names.index(m.name)] for a in acc])
        x, d = names.index(m.ratio[0]), names.index(m.ratio[1])
        return np.array([a[0, x] / a[0, d] if a[0, d] else 0.0 for a in acc]) * cnt

    def to_json(self):
        """One object per configuration (a list for a sweep), metrics as {mean, se, ci_low, ci_high}."""
        objs = []
        for i, cfg in enumerate(self.configs):
            units = {m.name: m.unit for m in self.metric_specs[i]}
            o = dict(game=self.spec.name, rules=game_string(self.spec, cfg.rules),
                     strategies={s: str(st) for s, st in zip(seat_names(len(cfg.strategies)),
                                                             cfg.strategies)},
                     n=self.deals(i), seed=self.seed, complete=self.complete,
                     metrics={k: {**{s: _num(v) for s, v in e.items()}, "unit": units[k]}
                              for k, e in self.estimates(i).items()})
            if self.points[i]:
                o["grid"] = self.points[i]
            objs.append(o)
        return objs

    def headline(self) -> dict | None:
        """The sweep's headline (:mod:`simkit.analysis.headline`): the game's objective, the best
        grid point or, for a grid over both sides' choices, the equilibrium, each claim with
        ``resolved``; paired on the common deals.  None for one configuration."""
        if len(self.configs) < 2:
            return None
        from simkit.analysis.headline import of_result
        return of_result(self)

    def meta(self, request: dict, headline: bool = False) -> dict:
        out = dict(request=request, complete=self.complete,
                   game=self.spec.name, game_version=self.spec.version,
                   simkit_version=__version__, created=self.created)
        if headline:
            out["headline"] = self.headline()
        return out


def _same(x, y) -> bool:
    """A grid value equals what the user wrote (``15``, ``"15"``, ``15.0``)."""
    if x == y:
        return True
    try:
        return _typed(str(y)) == x
    except (TypeError, ValueError):
        return False


def _num(v):
    return None if isinstance(v, float) and math.isnan(v) else float(v)


def _configs(spec, base_rules_opts, strategies_in, grid):
    """Expand the grid into configurations and their grid values."""
    axes = parse_grid(grid)
    for k, _ in axes:
        if k in base_rules_opts:
            raise SimkitError(f"rules option {k!r} is both fixed ({k}={base_rules_opts[k]}) and on "
                              f"the grid: drop it from the game string or -r, or from --grid")
    points, configs = [], []
    for combo in itertools.product(*[vals for _, vals in axes]) if axes else [()]:
        point = dict(zip([k for k, _ in axes], combo))
        opts = dict(base_rules_opts)
        strat_overrides = []
        for k, v in point.items():
            if "." in k:
                strat_overrides.append((k, v))
            else:
                opts[k] = v
        rules = rules_from_options(spec, opts)
        strats = list(parse_strategies(spec, rules, strategies_in))
        seats = seat_names(len(strats))
        for k, v in strat_overrides:
            seat, pname = k.split(".", 1)
            if seat not in seats:
                raise SimkitError(f"malformed grid key {k!r}: unknown seat {seat!r}, seats are "
                                  f"{', '.join(seats)}")
            kind = spec.strategies[strats[seats.index(seat)].kind]
            if pname not in [p.name for p in kind.params]:
                raise SimkitError(f"malformed grid key {k!r}: strategy {kind.name} has parameters "
                                  f"{', '.join(p.name for p in kind.params) or '(none)'}")
            strats[seats.index(seat)] = make_strategy(kind, dict(strats[seats.index(seat)].values,
                                                                 **{pname: v}))
        configs.append(R.Config(spec, rules, tuple(strats)))
        points.append({k: _typed(v) for k, v in point.items()})
    return configs, points


def _typed(v: str):
    for t in (int, float):
        try:
            return t(v)
        except ValueError:
            pass
    return v


def sweep(game: str, grid=None, *, n=None, seed: int = 0, strategies=None, rules=None,
          workers: int = 1, backend: str | None = None, scheduler: str | None = None,
          precision: float | None = None, rows: bool = False, out: str | None = None,
          resume: bool = False, progress: bool | None = None, metrics=None,
          overwrite: bool = False) -> Result:
    """Simulate every grid point on the same deals.

    Parameters
    ----------
    game : str
        Game string, e.g. ``"ochko(banker_stop=16)"``.
    grid : list of str or dict
        ``["banker_stop=14..20", "p1.t=15,16"]`` or ``{"banker_stop": range(14, 21)}``.
    n : int or str
        Deals per grid point (``1e6`` accepted; default 1e5); with ``precision``, the most deals
        to play (default 1e9).  At most 1e12 (:data:`simkit.core.runner.MAX_N`).
    seed : int
        Seed of the ``SeedSequence``; the same seed gives the same table on any backend.
    strategies : list of str or dict
        ``["p1=stand_at(16)"]``; seats not named play the game's default strategy.
    rules : list of str or dict
        Extra rules options (``["deck=52"]``), as the CLI's ``-r``.
    workers, backend, scheduler
        Where the chunks run: ``serial``, ``threads``, ``processes`` or ``dask`` (a local cluster of
        ``workers`` processes, or the cluster at ``scheduler``).
    precision : float, optional
        Keep adding chunks until the 95% interval half-width of every metric named in
        ``metrics`` (all metrics when none are named) is at most this.  Chunks start at 4096 deals
        and grow; each step plays about the deals the current standard errors say are needed.
    rows : bool
        Also keep per-deal metric rows (``n`` at most 1e6), as ``Result.rows``.
    out : str, optional
        Write the table to this ``.parquet`` or ``.csv`` file (atomically, checkpointed; the
        file says ``complete: false`` until the last chunk is merged).  An existing complete
        results file (or any other file) at ``out`` is replaced, as rerunning a finished command
        refreshes it; a Parquet file of an unfinished run is refused unless ``resume`` (continue
        it) or ``overwrite`` (start again).  A Parquet file's chunk sums go to
        ``X.chunks.parquet`` beside it (:func:`simkit.core.store.write_results`).  CSV files keep
        no chunks: they cannot be resumed and are always replaced.
    resume : bool
        Continue the interrupted run stored in ``out``; the request (game, rules, strategies,
        grid, seed, n, precision, content of policy files) must be the same.
    metrics : list of str, optional
        Metric names the caller will look at; checked before anything runs, and the metrics a
        ``precision`` target applies to.
    overwrite : bool
        Start again over an unfinished results file at ``out``.
    """
    from simkit.games import parse_game
    spec, _ = parse_game(game, rules)
    _, args = split_call(game, "game")
    base_opts = merge_options(parse_kv(args, "rules option"), rules if isinstance(rules, dict)
                              else parse_kv(list(rules or []), "rules option"))
    n = parse_n((10**9 if precision is not None else 100_000) if n is None else n)
    seed = parse_seed(seed)
    check_backend(workers, backend, scheduler)
    if precision is not None and not (precision > 0):
        raise SimkitError(f"--precision must be positive, not {precision}")
    if resume and not out:
        raise SimkitError("--resume needs -o FILE.parquet, the results file of the interrupted run")
    if resume and overwrite:
        raise SimkitError("--resume and --overwrite contradict each other: choose one")
    if out:
        store.kind_of(out)
        if resume and store.kind_of(out) != "parquet":
            raise SimkitError("--resume needs a .parquet results file (CSV keeps no chunk aggregates)")
        store.check_output(out)
        if not resume and not overwrite:
            _refuse_unfinished(out)
    configs, points = _configs(spec, base_opts, strategies, grid)
    R.check_size(n, len(configs))
    if rows and n * len(configs) > MAX_ROWS:
        raise SimkitError(f"per-deal rows are kept for at most {MAX_ROWS:,} deals in all, not "
                          f"{n:,} x {len(configs):,} configurations")
    aggs = [R.Aggregates(len(spec.metrics(c.rules))) for c in configs]
    from simkit.analysis.common import expand_metrics
    metrics = expand_metrics(spec, [c.rules for c in configs], metrics or [])
    say_compiling(spec, progress)
    size = R.chunk_size(n)
    request = dict(game=game_string(spec, configs[0].rules) if not points[0] else game,
                   rules_strings=[game_string(spec, c.rules) for c in configs],
                   strategies=[[str(s) for s in c.strategies] for c in configs],
                   seed=seed, n=n, chunk_size=size, precision=precision)
    if precision is not None:
        request["plan"] = "grow"  # chunks of 4096 deals first, doubling (runner.plan)
    files = _file_digests(spec, configs)
    if files:
        request["files"] = files
    chunks = R.plan(n, size, grow=precision is not None)
    result = Result(spec, configs, points, aggs, seed, n)
    result.request = request
    if resume:
        _, meta = store.read_table(out)
        old = meta.get("request") if isinstance(meta, dict) else None
        if old != request:
            raise SimkitError(f"{out!r} holds a different request ({_differences(old, request)}); "
                              f"resume needs the same command, or --overwrite to start again")
        store.load_chunks(out, meta, aggs, chunks, request)

    # an existing file that is not an unfinished run (a finished one, a CSV) stays whole until
    # its replacement is finished: the checkpoints go beside it
    ckpt = store.partial_name(out) if out and not (resume or overwrite) and os.path.isfile(out) \
        else out
    if ckpt != out and os.path.exists(ckpt):
        raise SimkitError(f"{ckpt!r} exists (a rerun of {out!r} that did not finish, or its "
                          f"resumed results): continue it with --resume -o {ckpt}, or move it away")
    with store.locked(out) if out else contextlib.nullcontext():
        return _play(result, chunks, request, out, ckpt, rows, progress, workers, backend,
                     scheduler, precision, metrics)


def _play(result: Result, chunks, request, out, ckpt, rows, progress, workers, backend, scheduler,
          precision, metrics) -> Result:
    """:func:`sweep`'s run: the chunks not yet done, checkpoints into ``ckpt`` (moved onto
    ``out`` once the run is complete), Ctrl-C and a lost backend ending it with what finished."""
    spec, configs, aggs, seed = result.spec, result.configs, result.aggs, result.seed


    final = []

    def save():
        if out and store.kind_of(ckpt) == "csv":  # no metadata: a column says if it is complete
            store.write_table(ckpt, result.table().assign(complete=result.complete))
        elif out:  # the headline (paired claims) once the chunks are all in
            store.write_results(ckpt, result.table(), result.meta(request, headline=bool(final)),
                                result.aggs, request)

    per_deal = {} if rows else None
    total = sum(cnt for _, cnt in chunks) * len(configs)
    done = sum(a.total()[0] for a in aggs)
    bar = R.Progress(total - done if precision is None else total, progress, desc=spec.name)
    checkpoint = R.Throttle(save)
    result.complete = False  # every checkpoint until the last chunk is merged says so
    try:
        with R.Backend(workers, backend, scheduler) as be:
            if precision is None:
                R.run_units(configs, aggs, seed, chunks, be, bar, checkpoint if out else None, per_deal)
            else:
                _run_to_precision(result, chunks, precision, list(metrics or []), be, bar,
                                  checkpoint if out else None, per_deal)
        result.complete = True
    except (KeyboardInterrupt, R.BackendLost) as e:
        if isinstance(e, R.BackendLost):
            result.exit_status, why = 3, str(e)
        else:
            sig = getattr(e, "signum", signal.SIGINT)
            result.exit_status = 128 + sig
            why = "terminated (SIGTERM)" if sig == signal.SIGTERM else "interrupted"
        kept = ""
        if out and store.kind_of(out) == "parquet":
            kept = f"; saved to {ckpt}, continue with --resume -o {ckpt}"
        elif out:
            kept = f"; saved to {ckpt} (a CSV file cannot be resumed: use -o FILE.parquet for that)"
        if ckpt != out:
            kept += f" ({out} still holds the earlier results)"
        warnings.warn(f"{why}: {sum(a.total()[0] for a in aggs)} of {total} deals done{kept}",
                      stacklevel=2)
    finally:
        bar.close()
    changed = _changed_files(spec, configs, request.get("files")) if result.complete else []
    if changed:  # the chunks may mix two versions of a policy: never complete
        result.complete = False
    if per_deal:
        result.rows = _rows_frame(result, per_deal, chunks)
    if out:
        final.append(True)
        checkpoint.flush()
        if ckpt != out and result.complete:
            store.move_results(ckpt, out)
    if changed:
        raise SimkitError(f"the policy file{'s' if len(changed) > 1 else ''} "
                          f"{', '.join(changed)} changed during the run: its chunks may mix two "
                          f"policies" + (f"; {ckpt} is saved as unfinished" if out else "")
                          + "; run again with the file unchanged")
    return result


def _changed_files(spec, configs, files) -> list[str]:
    """The policy files (their paths) whose content differs now from ``files``, the digests
    taken when the run started (:func:`_file_digests`)."""
    if not files:
        return []
    now = _file_digests(spec, configs) or [{}] * len(files)
    out = []
    for c, (a, b) in enumerate(zip(files, now)):
        st = {f"{seat}.{p}": s for seat, s in zip(seat_names(len(configs[c].strategies)),
                                                  configs[c].strategies)
              for p in [p.name for p in spec.strategies[s.kind].params]}
        for k in a:
            if a.get(k) != b.get(k):
                seat_param = k.split(".", 1)
                path = str(st[k].values[seat_param[1]]) if k in st else k
                if path not in out:
                    out.append(path)
    return out


def _run_to_precision(result: Result, chunks, precision: float, names: list[str], be, bar,
                      on_done, per_deal) -> None:
    """Play prefixes of the (growing) plan until the widest 95% half-width of the metrics
    ``names`` (all when empty) is at most ``precision``.  Each step plays about the deals the
    current standard errors say are needed (20% more, at most 16 times what was played); the
    steps depend on the numbers alone, not on the workers, so every backend and every resume
    stops at the same chunk."""
    starts = np.cumsum([0] + [cnt for _, cnt in chunks])  # deals before chunk k
    k = 1
    while True:
        R.run_units(result.configs, result.aggs, result.seed, chunks[:k], be, bar, on_done, per_deal)
        w = _widest(result, names, upto=chunks[k - 1][0] + 1)
        if w <= precision:
            return
        if k == len(chunks):
            warnings.warn(f"precision {precision} not reached within n={result.n}; widest "
                          f"half-width {w:.3g}", stacklevel=3)
            return
        played = int(starts[k])
        need = 2 * played if not math.isfinite(w) else             min(16 * played, math.ceil(1.2 * played * (w / precision) ** 2))
        k = int(min(len(chunks), max(k + 1, np.searchsorted(starts, need, side="left"))))


def _widest(result: Result, names=None, upto: int | None = None) -> float:
    """The widest 95% half-width over the metrics ``names`` (all when empty) of every
    configuration, counting only chunks below ``upto`` when given."""
    if upto is not None:
        aggs = []
        for a in result.aggs:
            b = R.Aggregates(a.n_metrics)
            b.chunks = {c: v for c, v in a.chunks.items() if c < upto}
            aggs.append(b)
        result = Result(result.spec, result.configs, result.points, aggs, result.seed, result.n,
                        _specs=result._specs)
    w = 0.0
    for i in range(len(result.configs)):
        for name, e in result.estimates(i).items():
            if names and name not in names:
                continue
            h = stats.half_width(e)
            w = max(w, h if not math.isnan(h) else math.inf)
    return w


def _refuse_unfinished(out: str) -> None:
    """Refuse to start again over a Parquet results file of an unfinished run (exit 2)."""
    if not os.path.isfile(out) or store.kind_of(out) != "parquet":
        return
    try:
        df, meta = store.read_table(out)
    except SimkitError:
        return  # not a simkit results file: replaced, as before
    if meta.get("complete") is False:
        done = f"{int(df['n'].min()):,} deals" if "n" in df.columns and len(df) else "some chunks"
        raise SimkitError(f"{out!r} holds an unfinished run ({done} done): continue it with "
                          f"--resume, or start again with --overwrite")


def _sha256(path: str) -> str | None:
    try:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        return h.hexdigest()
    except OSError:
        return None  # the strategy itself says the file is missing


def _file_digests(spec: GameSpec, configs) -> list[dict] | None:
    """Per configuration, ``{"p1.path": sha256}`` of every file-valued strategy parameter (None
    when the request has none), so that --resume notices a policy file whose content changed."""
    out, seen = [], {}
    for c in configs:
        d = {}
        for seat, st in zip(seat_names(len(c.strategies)), c.strategies):
            for p in spec.strategies[st.kind].params:
                if p.file is not None:
                    path = p.file(str(st.values[p.name]))
                    if path not in seen:
                        seen[path] = _sha256(path)
                    d[f"{seat}.{p.name}"] = seen[path]
        out.append(d)
    return out if any(out) else None


_FIELDS = dict(game="game", rules_strings="rules", strategies="strategies", seed="seed", n="n",
               chunk_size="chunk size", precision="precision", plan="chunk plan",
               files="policy files")


def _differences(old, new: dict) -> str:
    """Which fields of a stored request differ from this command's, e.g. ``seed: file 5, this
    command 6``."""
    if not isinstance(old, dict):
        return "the file records no request"
    parts = []
    for key in dict.fromkeys(list(new) + list(old)):
        a, b = old.get(key), new.get(key)
        if a == b:
            continue
        if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            j = next(j for j in range(len(a)) if a[j] != b[j])
            a, b = a[j], b[j]
            if isinstance(a, dict) and isinstance(b, dict):
                ks = [k for k in dict.fromkeys(list(b) + list(a)) if a.get(k) != b.get(k)]
                a, b = {k: a.get(k) for k in ks}, {k: b.get(k) for k in ks}
        if key == "files" and isinstance(a, dict) and isinstance(b, dict):
            parts += [f"content of the policy file {k} changed (sha256 {str(a.get(k))[:12]}... "
                      f"in the file, {str(b.get(k))[:12]}... now)" for k in a]
            continue
        parts.append(f"{_FIELDS.get(key, key)}: file {_short(a)}, this command {_short(b)}")
    return "; ".join(parts) or "the request differs"


def _short(v) -> str:
    t = repr(v) if isinstance(v, str) else str(v)
    return t if len(t) <= 70 else t[:67] + "..."


def _rows_frame(result: Result, per_deal: dict, chunks) -> pd.DataFrame:
    starts = dict(zip([c for c, _ in chunks], np.cumsum([0] + [cnt for _, cnt in chunks])[:-1]))
    frames = []
    for (i, c), arr in sorted(per_deal.items()):
        names = [m.name for m in result.metric_specs[i]]
        df = pd.DataFrame(arr, columns=names)
        df.insert(0, "deal", np.arange(starts[c], starts[c] + len(arr)))
        df.insert(0, "config", i)
        for k, v in reversed(list(result.points[i].items())):
            df.insert(1, k, v)
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def run(game: str, **kw) -> Result:
    """Simulate one configuration (a sweep without a grid); see :func:`sweep` for the arguments."""
    if kw.get("grid"):
        raise SimkitError("run takes no grid; use sweep")
    return sweep(game, None, **kw)
