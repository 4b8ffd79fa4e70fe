"""Best response by racing: the best point of a strategy grid against fixed opponents.

``best("gin", ["p1.knock=0..10"], strategies=["p2=simple"])`` plays every grid point on common
deals and looks after 32, 64, 128, ... chunks.  At each look a point is dropped when some other
live point beats it by more than ``q`` paired standard errors, with ``q`` the one-sided t quantile
at ``alpha / (L * m * (m - 1))`` (``L`` possible looks, ``m`` points: Bonferroni over every look
and every ordered pair), so the chance of ever dropping a truly best point is at most ``alpha``
whatever the other points are.  The deals go to the points still racing.  The result lists every
point with its estimate, when it was dropped (or that it survived: not distinguishable from the
best), and how many deals the race took against a full sweep giving every point as many deals as
the survivors got.

:func:`race` is the procedure on any source of per-chunk sums, so its error rate can be measured
on synthetic data where the truth is known (``tests/test_analysis.py``).
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np
import pandas as pd

from simkit.analysis.common import (Analysis, Deals, batch, describe, looks, objective, seat_metric,
                                    nothing_finished, stems, t_quantile)
from simkit.analysis.headline import point_name
from simkit.analysis.simulate import _configs, parse_grid, parse_n, parse_seed
from simkit.analysis.verdict import say
from simkit.core.registry import game_string, parse_kv, split_call
from simkit.errors import SimkitError


def race(sample: Callable, m: int, plan_looks: list[int], alpha: float = 0.05,
         larger: bool = True) -> tuple[list[int], pd.DataFrame]:
    """Race ``m`` points.  ``sample(alive, k) -> (counts[c], sums[len(alive), c])`` gives per-chunk
    counts and sums of the objective for the live points over the chunks played once chunks
    ``0..k-1`` are played.  Returns the survivors and the history (one row per look and point:
    ``look, chunks, deals, point, mean, se, alive``)."""
    sign = 1.0 if larger else -1.0
    alive = list(range(m))
    level = alpha / (len(plan_looks) * max(1, m * (m - 1)))
    hist = []
    for j, k in enumerate(plan_looks):
        cnt, sums = sample(alive, k)
        if len(cnt) < 2:
            break
        q = t_quantile(1 - level, len(cnt) - 1)
        means = sums.sum(axis=1) / cnt.sum()
        drop = set()
        if len(alive) > 1:
            # every ordered pair at once: d[y, x] = sign * (y - x) per chunk, batch means
            dd = sign * (sums[:, None, :] - sums[None, :, :])
            mean = dd.sum(axis=2) / cnt.sum()
            w = cnt / cnt.sum()
            kk = len(cnt)
            se = np.sqrt(kk / (kk - 1) * np.sum(w * w * (dd / cnt - mean[..., None]) ** 2, axis=2))
            beaten = (mean > q * se) & ~np.eye(len(alive), dtype=bool)
            drop = {x for x in range(len(alive)) if beaten[:, x].any()}
        for x, p in enumerate(alive):
            e = batch(cnt, sums[x])
            hist.append(dict(look=j + 1, chunks=len(cnt), deals=int(cnt.sum()), point=p,
                             mean=float(means[x]), se=e["se"], alive=x not in drop))
        alive = [p for x, p in enumerate(alive) if x not in drop]
        if len(alive) == 1:
            break
    return alive, pd.DataFrame(hist)


def _seat_of(key: str) -> str | None:
    return key.split(".", 1)[0] if "." in key else None


def best(game: str, grid, *, strategies=None, rules=None, metric: str | None = None,
         larger: bool | None = None, n=100_000, seed: int = 0, alpha: float = 0.05,
         workers: int = 1, backend: str | None = None, scheduler: str | None = None,
         progress: bool | None = None, out: str | None = None, resume: bool = False) -> Analysis:
    """The best point of ``grid`` (``["p1.knock=0..10"]``, several axes allowed) against the fixed
    ``strategies`` of the other seats, by racing on common deals; ``n`` is the most deals a point
    gets.  ``metric`` defaults to the game's objective for the grid's seat (``p1_points`` in gin);
    a grid over a rules option (Очко's ``banker_stop``) needs one (``bank_result``).  ``larger``
    (default: the objective's direction, else True) says whether more is better."""
    from simkit.games import parse_game
    spec, r0 = parse_game(game, rules)
    n = parse_n(n)
    seed = parse_seed(seed)
    if not 0 < alpha < 0.5:
        raise SimkitError(f"--alpha must be in (0, 0.5), not {alpha}")
    axes = parse_grid(grid)
    if not axes:
        raise SimkitError("best needs a grid: --grid p1.PARAM=a..b (or a rules option)")
    _, args = split_call(game, "game")
    opts = parse_kv(args, "rules option")
    opts.update(rules if isinstance(rules, dict) else parse_kv(list(rules or []), "rules option"))
    configs, points = _configs(spec, opts, strategies, grid)
    if len(configs) < 2:
        raise SimkitError("best needs a grid of at least two points")
    seats = {_seat_of(k) for k, _ in axes}
    stem, obj_larger = objective(spec, r0)
    if metric is None:
        if len(seats) != 1 or None in seats:
            raise SimkitError("say which metric to optimise with -m (the grid is not one seat's "
                              "strategy), e.g. -m bank_result")
        metric = f"{next(iter(seats))}_{stem}"
    seat, s = seat_metric(spec, r0, metric)
    st = stems(spec, r0)[s]
    if seat is None and st.kind != "shared":
        raise SimkitError(f"name a seat's metric, e.g. -m p1_{s}")
    larger = (obj_larger if s == stem else True) if larger is None else bool(larger)
    idx = int(seat[1:]) - 1 if seat else 0
    name = metric

    d = Deals(spec, configs, n, seed, workers=workers, backend=backend, scheduler=scheduler,
              progress=progress, desc=f"{spec.name} best", out=out, resume=resume)
    plan_looks = looks(len(d.plan))

    def sample(alive, k):
        d.play(alive, k)
        chunks = d.common(alive)
        if not chunks:
            return np.zeros(0), np.zeros((len(alive), 0))
        return d.counts(chunks), np.array([d.seat_sums(i, idx, st, chunks) for i in alive])

    with d:
        alive, hist = race(sample, len(configs), plan_looks, alpha, larger)
    if hist.empty:
        nothing_finished(d, "no chunk finished: nothing to race")
    keys = [k for k, _ in axes]
    last = hist.groupby("point").tail(1).set_index("point")
    survivors = set(alive)
    top = max(survivors, key=lambda p: (1 if larger else -1) * last.loc[p, "mean"])
    rs = game_string(spec, r0)
    rows = []
    for p, pt in enumerate(points):
        chunks = sorted(d.aggs[p].chunks)
        cnt = d.counts(chunks)
        e = batch(cnt, d.seat_sums(p, idx, st, chunks))
        both = [c for c in chunks if c in d.aggs[top].chunks]
        dd = batch(d.counts(both), d.seat_sums(p, idx, st, both) - d.seat_sums(top, idx, st, both)) \
            if p != top else dict(mean=0.0, se=0.0, df=0, ci_low=0.0, ci_high=0.0)
        gone = hist[(hist.point == p) & ~hist.alive]
        rows.append(dict(game=spec.name, rules=rs, strategies=" ".join(f"p{i + 1}={x}" for i, x in
                                                  enumerate(configs[p].strategies)),
                         **pt, metric=name, mean=e["mean"], se=e["se"], ci_low=e["ci_low"],
                         ci_high=e["ci_high"], n=int(cnt.sum()), seed=int(seed),
                         diff=dd["mean"], diff_se=dd["se"], diff_low=dd["ci_low"],
                         diff_high=dd["ci_high"], best=p == top, survivor=p in survivors,
                         dropped_at=int(gone["deals"].iloc[0]) if len(gone) else None))
    table = pd.DataFrame(rows)
    used = d.played()
    full = len(configs) * max(d.deals(p) for p in survivors)
    where = [point_name(pt, keys) for pt in points]
    claim = _race_claim(table, top, sorted(survivors), where, larger, alpha, keys)
    tr = table.iloc[top]
    summary = [claim["text"],
               f"{where[top]}: {name} {tr['mean']:.6g} (95% CI [{tr['ci_low']:.6g}, "
               f"{tr['ci_high']:.6g}], {int(tr['n']):,} deals)",
               f"deals played: {used:,}, a full sweep at the same precision: {full:,} "
               f"({used / full:.0%}); alpha {alpha} over {len(plan_looks)} looks"]
    fixed = " ".join(str(s) for s in (strategies or [])) or "defaults"
    label = describe(spec, rs, f"grid {' x '.join(keys)} vs {fixed}", d.deals(top), seed)
    hist = hist.assign(**{k: [points[p][k] for p in hist.point] for k in keys})
    info = dict(metric=name, larger=larger, alpha=alpha, keys=keys, best=points[top],
                resolved=claim["resolved"],
                survivors=[points[p] for p in sorted(survivors)], deals=int(used),
                full_sweep_deals=int(full), looks=len(plan_looks), seed=int(seed), n=n)
    return Analysis("best", rs, label, {"table": table, "history": hist}, summary, info,
                    complete=d.complete, exit_status=d.exit_status, claims=[claim])


def _race_claim(table: pd.DataFrame, top: int, survivors: list[int], where: list[str],
                larger: bool, alpha: float, keys) -> dict:
    """The race's headline claim: resolved when it ended with one survivor (the race's own
    guarantee: a truly best point is dropped with chance at most ``alpha``), else the survivors
    cannot be told apart.  The margin is the leader's over the runner-up (the best other
    survivor, or the best dropped point), paired on the deals both played."""
    sign = 1.0 if larger else -1.0
    others = [p for p in survivors if p != top] or [p for p in range(len(table)) if p != top]
    out = dict(claim=f"best {' x '.join(keys)}", leader=where[top],
               winner=where[top] if len(survivors) == 1 else None, resolved=len(survivors) == 1,
               confidence=1 - alpha, margin=math.nan, se=math.nan, runner_up=None,
               tied=[where[top]] + [where[p] for p in survivors if p != top], by="paired")
    if others:
        ru = max(others, key=lambda p: sign * float(table["mean"].iloc[p]))
        out.update(runner_up=where[ru], margin=-sign * float(table["diff"].iloc[ru]),
                   se=float(table["diff_se"].iloc[ru]))
    text = say(out)
    if out["resolved"] and out["runner_up"] is not None:
        text += " (racing: every other point dropped)"
    out["text"] = text
    return out
