"""What every strategy analysis shares: configurations on common deals, seat values, batch means.

An analysis (:mod:`.headtohead`, :mod:`.tournament`, :mod:`.racing`, :mod:`.solve`) is a set of
configurations played on the same deals: chunk ``c`` of every configuration is the same deals
(the runner's ``SeedSequence(seed, spawn_key=(c,))``), so the difference of two configurations,
chunk by chunk, is paired.  Chunks are smaller than a plain run's (about ``n / 256``) so that a
difference has enough chunks for batch-means standard errors after a few of them, which is
what lets the sequential procedures look early.  Every estimate uses only the chunks that all the
configurations it involves have finished, so an interrupted analysis reports honestly on what
was done.

Seat values.  Most games report a per-seat metric as ``pK_stem`` (``p1_result``, ``p2_win``); a
strategy's value of ``stem`` in seat ``K`` is that column.  A two-seat game may report only p1's
net (``Metric.net``: gin's ``p1_points`` is p1's points minus p2's); p2's value is its negative.
Metrics without a seat prefix (``draw``, ``bank_result``) are shared outcomes; one named like a seat
stem (gin's ``gin``, the hand ends in gin, beside ``p1_gin``) is read as ``shared_gin``.
"""
from __future__ import annotations

import fnmatch
import math
import re
from dataclasses import dataclass, field

import numpy as np
from scipy import stats as sps

from simkit._version import __version__
from simkit.core import runner as R
from simkit.core.registry import GameSpec, Metric, seat_names
from simkit.errors import SimkitError

MIN_CHUNK = 1024
TARGET_CHUNKS = 256
_SEAT = re.compile(r"^p(\d+)_(.+)$")


def chunk_size(n: int) -> int:
    """Deals per chunk of an analysis of ``n`` deals per configuration: about n/256, a power of
    two in [1024, 2**20], but small enough for 32 chunks when ``n`` is small (a deal of a whole
    match costs enough that the per-chunk overhead does not matter)."""
    def pow2(x):
        return 1 << (max(1, math.ceil(x)) - 1).bit_length()
    return int(min(R.MAX_CHUNK, max(min(MIN_CHUNK, pow2(n / 32)), pow2(n / TARGET_CHUNKS))))


def looks(n_chunks: int, first: int = 32) -> list[int]:
    """Chunk counts at which a sequential procedure looks: 32, 64, 128, ... and the last."""
    out, k = [], first
    while k < n_chunks:
        out.append(k)
        k *= 2
    return out + [n_chunks]


# --- seat values ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Stem:
    """A metric as the analyses read it: ``kind`` is ``seat`` (``pK_stem`` for every seat),
    ``net`` (only ``p1_stem``, p1 minus p2) or ``shared``; ``binary`` as the game's metric."""
    name: str
    kind: str
    binary: bool
    doc: str = ""


def stems(spec: GameSpec, rules) -> dict[str, Stem]:
    """Every reported metric of ``spec`` under ``rules``, by stem (seat metrics) or by name."""
    metrics = [m for m in spec.metrics(rules) if not m.hidden]
    seats = seat_names(spec.seats(rules))
    names = {m.name: m for m in metrics}
    out: dict[str, Stem] = {}
    for m in metrics:
        g = _SEAT.match(m.name)
        if g and f"p{g.group(1)}" in seats:
            stem = g.group(2)
            if stem in out and out[stem].kind != "shared":
                continue
            if all(f"{s}_{stem}" in names for s in seats):
                out[stem] = Stem(stem, "seat", m.binary, m.doc)
                continue
            if m.net and len(seats) == 2 and g.group(1) == "1":
                out[stem] = Stem(stem, "net", m.binary, m.doc)
                continue
        if m.name not in out:
            out[m.name] = Stem(m.name, "shared", m.binary, m.doc)
    # a shared metric named like a seat stem (gin's "gin": the hand ends in gin) is kept as
    # shared_<name>; the bare name is the strategy's own value
    for m in metrics:
        if m.name in out and out[m.name].kind != "shared" and not _SEAT.match(m.name):
            out[f"shared_{m.name}"] = Stem(m.name, "shared", m.binary, m.doc)
    return out


def objective(spec: GameSpec, rules) -> tuple[str, bool]:
    """The stem a player maximises (``larger`` False: minimises) by default in this game."""
    st = stems(spec, rules)
    if spec.objective is not None:
        stem, larger = spec.objective(rules)
        if stem in st:
            return stem, larger
    seatwise = [s for s in st.values() if s.kind != "shared"]
    for s in seatwise:
        if s.name == "win":
            return "win", True
    if not seatwise:
        raise SimkitError(f"{spec.name} reports no per-seat metric: name one with -m")
    return seatwise[0].name, True


def seat_metric(spec: GameSpec, rules, name: str) -> tuple[str | None, str]:
    """``p2_points`` -> ``("p2", "points")``; a shared metric -> ``(None, name)``; refuses a name
    the game does not report (listing what it does)."""
    st = stems(spec, rules)
    seats = seat_names(spec.seats(rules))
    g = _SEAT.match(name)
    if g and f"p{g.group(1)}" in seats and g.group(2) in st and st[g.group(2)].kind != "shared":
        return f"p{g.group(1)}", g.group(2)
    if name in st and st[name].kind == "shared":
        return None, name
    if name in st:
        return None, name  # a stem: the caller decides the seat
    known = [f"p1_{s}" if v.kind != "shared" else s for s, v in st.items()]
    raise SimkitError(f"unknown metric {name!r} for {spec.name}: {_renamed(spec, name)}metrics "
                      f"are {', '.join(known)}")


def _renamed(spec: GameSpec, name: str) -> str:
    """``"it is now called X; "`` when ``name`` (or its stem) is an old metric name of the game."""
    g = _SEAT.match(name)
    if name in spec.renamed:
        return f"it is now called {spec.renamed[name]!r}; "
    if g and g.group(2) in spec.renamed:
        return f"it is now called 'p{g.group(1)}_{spec.renamed[g.group(2)]}'; "
    return ""


def expand_metrics(spec: GameSpec, rules_list, names) -> list[str]:
    """The game's metric names that ``names`` (``-m`` of any command) mean: a metric's own name
    (``p2_potato``, ``draw``) is itself; a seat stem (``potato``) is that metric in every seat
    (``p1_potato``, ``p2_potato``, ...); a net stem is ``p1_<stem>``; ``shared_<name>`` is the
    shared metric ``<name>``; a name that is both a shared metric and a seat stem (Fan-Tan's
    ``passes`` beside ``pK_passes``) names both; a shell pattern (``'opener_edge_trump*'``,
    ``'lose_trump*'``) is every metric, or every seat of every stem, it matches.  The one rule
    for ``-m`` in ``run`` and ``sweep`` (the analyses read a stem as a strategy's own value);
    refuses a name none of ``rules_list`` reports, listing what they do."""
    out: list[str] = []
    for name in names:
        found = []
        for rules in rules_list:
            own = [m.name for m in spec.metrics(rules) if not m.hidden]
            if any(ch in name for ch in "*?["):   # a pattern: every metric or stem it matches
                st = stems(spec, rules)
                hit = set(fnmatch.filter(own, name)) | {
                    f"{s}_{x.name}" for x in st.values() if x.kind != "shared"
                    and fnmatch.fnmatchcase(x.name, name) for s in seat_names(spec.seats(rules))
                    if f"{s}_{x.name}" in own}
                found += [m for m in own if m in hit]
                continue
            if name in own:   # a metric's own name (and below: a seat stem of that name too)
                found.append(name)
            st = stems(spec, rules).get(name)
            if st is None:
                continue
            if st.kind == "shared":
                found.append(st.name)
            else:
                seats = seat_names(spec.seats(rules)) if st.kind == "seat" else ["p1"]
                found += [f"{s}_{st.name}" for s in seats]
        if not found:
            known = list(dict.fromkeys(m.name for r in rules_list for m in spec.metrics(r)
                                       if not m.hidden))
            raise SimkitError(f"unknown metric {name!r}: {_renamed(spec, name)}metrics are "
                              f"{', '.join(known)} (a seat metric's stem, such as "
                              f"{_example_stem(spec, rules_list[0])}, names it in every seat)")
        out += found
    return list(dict.fromkeys(out))


def _example_stem(spec: GameSpec, rules) -> str:
    seatwise = [s.name for s in stems(spec, rules).values() if s.kind != "shared"]
    return repr(seatwise[0]) if seatwise else "'win'"


def _metric_of(spec: GameSpec, rules, stem: str) -> Metric | None:
    """The game's metric behind ``stem`` (``p1_<stem>`` for a seat metric)."""
    names = {m.name: m for m in spec.metrics(rules) if not m.hidden}
    return names.get(f"p1_{stem}") or names.get(stem)


def unit_of(spec: GameSpec, rules, stem: str) -> str:
    """The unit a strategy's value of ``stem`` is counted in, without the game's remarks in
    brackets (gin's ``points per hand (p1's minus p2's)`` -> ``points per hand``)."""
    m = _metric_of(spec, rules, stem)
    return re.sub(r"\s*\([^)]*\)", "", m.unit).strip() if m is not None else ""


_LOWER = re.compile(r"\b(fewer|lower|less) is better\b")


def better(spec: GameSpec, rules, stem: str) -> str:
    """``"lower"`` where less of ``stem`` is better for the player (the game's objective when it is
    minimised, Durak's ``lose``, penalty points whose unit says "fewer is better"), ``"higher"``
    for the objective and win shares, ``""`` where the metric is no measure of doing well."""
    target, larger = objective(spec, rules)
    if stem == target:
        return "higher" if larger else "lower"
    m = _metric_of(spec, rules, stem)
    text = f"{m.unit} {m.doc}".lower() if m is not None else ""
    if _LOWER.search(text) or stem in ("lose", "loss") or stem.endswith("_lose"):
        return "lower"
    if stem in ("win", "match_win", "games_won") or re.search(r"\b(more|higher) is better\b", text):
        return "higher"
    return ""


# --- configurations on common deals --------------------------------------------------------

class Deals:
    """Configurations played chunk by chunk on common deals.

    ``with Deals(spec, configs, n, seed, ...) as d: d.play(which, k)`` plays chunks ``0..k-1`` of
    the configurations ``which``; :meth:`sums` gives per-chunk sums of any metric or seat value
    over the chunks that all the named configurations have finished.
    """

    def __init__(self, spec: GameSpec, configs: list[R.Config], n: int, seed: int, *,
                 workers: int = 1, backend: str | None = None, scheduler: str | None = None,
                 progress: bool | None = None, desc: str | None = None, out: str | None = None,
                 resume: bool = False):
        self.spec, self.configs, self.n, self.seed = spec, list(configs), int(n), int(seed)
        R.check_size(self.n, len(self.configs))
        self.size = chunk_size(self.n)
        units = len(self.configs) * math.ceil(self.n / self.size)
        if units > R.MAX_UNITS:
            raise SimkitError(f"{len(self.configs):,} configurations of n={self.n:,} deals make "
                              f"{units:,} chunks, more than {R.MAX_UNITS:,}; use fewer deals")
        self.plan = R.plan(self.n, self.size)
        self.metrics = [spec.metrics(c.rules) for c in self.configs]
        self.col = [{m.name: j for j, m in enumerate(ms)} for ms in self.metrics]
        self.aggs = [R.Aggregates(len(ms)) for ms in self.metrics]
        self.complete = True
        self.exit_status = 0
        from simkit.analysis.simulate import check_backend, say_compiling
        check_backend(workers, backend, scheduler)
        self._backend = R.Backend(workers, backend, scheduler)
        self._progress, self._desc = progress, desc or spec.name
        say_compiling(spec, progress)
        self._bar = None
        self._upto = len(self.plan)
        self._checkpoint(out, resume)

    def _checkpoint(self, out: str | None, resume: bool) -> None:
        """With ``out`` (a ``.parquet`` file), keep the chunk aggregates in ``X.chunks.parquet``
        as they finish (every few seconds and at the end); ``resume`` loads them first, so that
        only the missing chunks are played.  The analysis itself is a function of the numbers,
        so a resumed one ends as an uninterrupted one."""
        from simkit.core import store
        self._out = out if out and store.kind_of(out) == "parquet" else None
        if resume and not out:
            raise SimkitError("--resume needs -o FILE.parquet, the results file of the "
                              "interrupted analysis")
        if resume and not self._out:
            raise SimkitError("--resume needs a .parquet results file (CSV keeps no chunk "
                              "aggregates)")
        from simkit.analysis.simulate import _file_digests
        from simkit.core.registry import game_string
        self.request = dict(analysis=self._desc, seed=self.seed, n=self.n, chunk_size=self.size,
                            rules_strings=[game_string(self.spec, c.rules) for c in self.configs],
                            strategies=[[str(s) for s in c.strategies] for c in self.configs],
                            files=_file_digests(self.spec, self.configs))
        if resume:
            store.load_chunks(out, {"format": store.FORMAT}, self.aggs, self.plan, self.request)
        self._save = R.Throttle(lambda: store.write_chunks(self._out, self.aggs, self.request)) \
            if self._out else None

    def __enter__(self):
        self._backend.__enter__()
        return self

    def __exit__(self, *exc):
        if self._bar is not None:
            self._bar.close()
        self._backend.__exit__(*exc)

    def budget(self, total_deals: int) -> None:
        """Size the progress bar (the most deals the analysis can play)."""
        if self._bar is None:
            self._bar = R.Progress(int(total_deals), self._progress, desc=self._desc)

    def play(self, which, upto: int) -> None:
        """Play chunks ``0..upto-1`` of configurations ``which`` (those not yet played).  A
        Ctrl-C ends the analysis after the chunks in flight (``complete`` becomes False)."""
        which = list(which)
        if not self.complete:
            return
        self.budget(len(self.configs) * self.n)
        self._upto = upto
        try:
            R.run_units([self.configs[i] for i in which], [self.aggs[i] for i in which], self.seed,
                        self.plan[:upto], self._backend, self._bar, self._save)
        except KeyboardInterrupt as e:
            import signal
            self.complete = False
            self.exit_status = 128 + getattr(e, "signum", signal.SIGINT)
        finally:
            if self._save is not None:
                self._save.flush()
        from simkit.analysis.simulate import _changed_files
        changed = _changed_files(self.spec, self.configs, self.request.get("files"))
        if changed:  # its chunks may mix two versions of a policy
            raise SimkitError(f"the policy file{'s' if len(changed) > 1 else ''} "
                              f"{', '.join(changed)} changed during the analysis: its chunks may "
                              f"mix two policies; run it again with the file unchanged")

    def common(self, which) -> list[int]:
        """Chunks finished by every configuration in ``which``, among those the last
        :meth:`play` asked for (a resumed analysis may hold later ones already)."""
        sets = [set(self.aggs[i].chunks) for i in which]
        return sorted(c for c in set.intersection(*sets) if c < self._upto) if sets else []

    def counts(self, chunks) -> np.ndarray:
        sizes = dict(self.plan)
        return np.array([sizes[c] for c in chunks], float)

    def sums(self, i: int, name: str, chunks) -> np.ndarray:
        """Per-chunk sums of metric ``name`` in configuration ``i`` (a ratio metric: the chunk's
        ratio times its deals), over ``chunks``."""
        col = self.col[i]
        if name not in col:
            raise SimkitError(f"unknown metric {name!r}")
        m: Metric = self.metrics[i][col[name]]
        acc = [self.aggs[i].chunks[c] for c in chunks]
        if not m.ratio:
            return np.array([a[1][0, col[name]] for a in acc])
        x, d = col[m.ratio[0]], col[m.ratio[1]]
        return np.array([a[1][0, x] / a[1][0, d] * a[0] if a[1][0, d] else 0.0 for a in acc])

    def seat_sums(self, i: int, seat: int, stem: Stem, chunks) -> np.ndarray:
        """Per-chunk sums of seat ``seat``'s (0-based) value of ``stem`` in configuration ``i``."""
        if stem.kind == "seat":
            return self.sums(i, f"p{seat + 1}_{stem.name}", chunks)
        if stem.kind == "net":
            s = self.sums(i, f"p1_{stem.name}", chunks)
            return s if seat == 0 else -s
        return self.sums(i, stem.name, chunks)

    def deals(self, i: int) -> int:
        return self.aggs[i].total()[0]

    def played(self) -> int:
        return sum(self.deals(i) for i in range(len(self.configs)))


def play_all(spec: GameSpec, configs, n: int, seed: int, what: str, **where):
    """Play every configuration to ``n`` (``where``: workers, backend, scheduler, progress):
    ``(deals, the chunks all finished, their deal counts)``."""
    d = Deals(spec, configs, n, seed, desc=f"{spec.name} {what}", **where)
    with d:
        d.play(range(len(configs)), len(d.plan))
    chunks = d.common(range(len(configs)))
    if len(chunks) < 2:
        nothing_finished(d, f"fewer than two chunks finished: nothing to {what}")
    return d, chunks, d.counts(chunks)


def nothing_finished(d: Deals, why: str):
    """Raise: an interruption (the CLI exits 130 or 143) if ``d`` was interrupted before there
    was anything to show, else the error ``why``."""
    if not d.complete:
        from simkit.core.runner import Interrupted
        raise Interrupted(d.exit_status - 128)
    raise SimkitError(why)


# --- statistics on per-chunk sums ----------------------------------------------------------

def batch(counts: np.ndarray, sums: np.ndarray) -> dict[str, float]:
    """Mean per deal of a quantity whose per-chunk sums are ``sums`` (a difference, a seat
    value), its batch-means standard error, degrees of freedom and 95% t interval."""
    counts = np.asarray(counts, float)
    sums = np.asarray(sums, float)
    n, k = counts.sum(), len(counts)
    mean = float(sums.sum() / n) if n else math.nan
    se = math.nan
    if k >= 2:
        w = counts / n
        se = float(math.sqrt(k / (k - 1) * np.sum(w * w * (sums / counts - mean) ** 2)))
    q = sps.t.ppf(0.975, k - 1) if k >= 2 else math.nan
    return dict(mean=mean, se=se, df=k - 1, ci_low=mean - q * se, ci_high=mean + q * se)


def t_quantile(p: float, df: int) -> float:
    return float(sps.t.ppf(p, df)) if df >= 1 else math.inf


def bootstrap_weights(k: int, reps: int, seed: int) -> np.ndarray:
    """``reps x k`` multinomial chunk counts: a bootstrap over chunks (each row sums to ``k``),
    seeded so the intervals are reproducible."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(0x5EED,)))
    return rng.multinomial(k, np.full(k, 1.0 / k), size=reps).astype(float)


def describe(spec: GameSpec, rules_string: str, strategies: str, n: int, seed: int) -> str:
    """The label every analysis plot carries: game string, strategies, n and seed."""
    return f"{rules_string} | {strategies} | n={n:,} per configuration | seed {seed}"


# --- what an analysis returns --------------------------------------------------------------

@dataclass
class Analysis:
    """The outcome of an analysis: tidy frames, the headline lines, and provenance.

    ``table()`` is the main frame (every row with ``game``, ``metric`` and ``mean``, so a saved
    analysis is a results file that ``simkit report`` reads); ``frames`` holds the others (a
    cross table, a racing history, a payoff matrix); ``summary`` the lines the CLI prints;
    ``claims`` the headline claims with ``resolved: true|false`` (:mod:`.verdict`)."""
    kind: str
    game: str
    label: str
    frames: dict
    summary: list
    info: dict
    complete: bool = True
    #: 128 + the signal that interrupted it (130 Ctrl-C, 143 SIGTERM), 0 when it finished
    exit_status: int = 0
    #: the headline claims, each beside its line (:mod:`simkit.analysis.verdict`)
    claims: list = field(default_factory=list)
    #: the simulation request behind it, kept in a saved file for ``--resume`` (odds: its sweep's)
    request: dict | None = None

    def table(self):
        return self.frames["table"]

    def __repr__(self) -> str:
        from simkit.analysis import display
        return display.text(display.analysis_view(self))

    def _repr_html_(self) -> str:
        from simkit.analysis import display
        return display.html_of(display.analysis_view(self))

    def __getitem__(self, name: str):
        return self.frames[name]

    def to_json(self) -> dict:
        return dict(analysis=self.kind, game=self.game, label=self.label, complete=self.complete,
                    summary=list(self.summary), claims=_jsonable(list(self.claims)),
                    info=_jsonable(self.info),
                    frames={k: _records(v) for k, v in self.frames.items()})

    def meta(self) -> dict:
        out = dict(analysis=self.to_json(), complete=self.complete, game=self.game.split("(")[0],
                   simkit_version=__version__)
        if self.request is not None:
            out["request"] = self.request
        return out

    def save(self, out: str) -> None:
        from simkit.core import store
        store.write_table(out, self.table(), self.meta() if store.kind_of(out) == "parquet" else None)


def _records(df) -> list[dict]:
    return [{k: _jsonable(v) for k, v in r.items()} for r in df.to_dict("records")]


def _jsonable(v):
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, (np.bool_, bool)):
        return bool(v)
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return None if not math.isfinite(float(v)) else float(v)
    return v


def frames_from_json(obj: dict) -> dict:
    """The frames of a saved analysis (``Analysis.to_json()['frames']``) as DataFrames."""
    import pandas as pd
    return {k: pd.DataFrame.from_records(v) for k, v in (obj.get("frames") or {}).items()}
