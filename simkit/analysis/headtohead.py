"""Head-to-head: two strategies on the same deals, the difference of every metric, paired.

``compare("gin", "simple", "threshold(10)")`` plays A against B with the seats swapped (two
players) or rotated (A alone in each seat in turn, B in the others); ``field="random"`` instead
plays A and B each against the same field, in every seat in turn, on the same deals (and a
one-seat game such as Очко, a player against the bank, always compares that way).  For each
metric: A's value, B's value and the comparison with its batch-means standard error over chunks:
A's edge where two players share a zero- or constant-sum metric (gin's points: A's own points
per hand, B's being their negative; A - B would be twice it), else A - B.  Each row says in
words which (``quantity``), whether lower is better (``better``: Durak's ``lose``, Hearts'
points) and whether its interval excludes 0 (``resolved``); the target metric comes first and
the rows without a difference last.  The headline names a winner only when resolved.

Sequential mode (``until_resolved`` or ``precision``): the analysis looks after 32, 64, 128, ...
chunks and stops when the target metric's difference excludes zero (or its interval is narrower
than ``precision``) at the stated confidence, or when ``n`` (the cap) is reached.  Each look tests
at level ``(1 - confidence) / L`` with ``L`` the number of possible looks (Bonferroni over looks),
so repeated looking does not inflate the chance of a wrong sign.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from simkit.analysis.common import (Analysis, Deals, batch, better, describe, looks, objective,
                                    nothing_finished, seat_metric, stems, t_quantile, unit_of)
from simkit.analysis.verdict import estimate_claim, num, settled
from simkit.analysis.simulate import parse_n, parse_seed
from simkit.core import runner as R
from simkit.core.registry import game_string, parse_strategy, seat_names
from simkit.errors import SimkitError


def _seatings(spec, rules, a, b, field, teams=False):
    """``(configs, roles)``: per configuration, the seats A plays and the seats B plays (the
    rest play the field).  ``teams``: A on p1, p3, ... and B on p2, p4, ..., then the sides
    swapped (partnerships such as Stovkahra's p1/p3 against p2/p4)."""
    k = spec.seats(rules)
    configs, roles = [], []
    if teams:
        if field is not None:
            raise SimkitError("--teams plays A's team against B's: it takes no --field")
        if k < 4 or k % 2:
            raise SimkitError(f"--teams needs an even number of seats, four or more: "
                              f"{spec.name} has {k} here")
        odd, even = list(range(0, k, 2)), list(range(1, k, 2))
        for sa, sb in ((odd, even), (even, odd)):
            strats = tuple(a if s in sa else b for s in range(k))
            configs.append(R.Config(spec, rules, strats))
            roles.append((sa, sb))
        return configs, roles, "teams"
    if field is None and k >= 2:
        for r in range(k):
            strats = tuple(a if s == r else b for s in range(k))
            configs.append(R.Config(spec, rules, strats))
            roles.append(([r], [s for s in range(k) if s != r]))
        return configs, roles, "head-to-head"
    f = field if field is not None else a
    for who in (a, b):
        for r in range(k):
            strats = tuple(who if s == r else f for s in range(k))
            configs.append(R.Config(spec, rules, strats))
            roles.append(([r], []) if who is a else ([], [r]))
    return configs, roles, "field"


def _sides(deals: Deals, roles, mode: str, stem, chunks):
    """Per-chunk sums of A's and B's value of ``stem`` (per seat they play, averaged over the
    configurations), and whether A - B means anything for it."""
    if stem.kind == "shared":
        if mode in ("head-to-head", "teams"):
            tot = sum(deals.seat_sums(i, 0, stem, chunks) for i in range(len(roles))) / len(roles)
            return tot, tot, False
        ia = [i for i, (sa, _) in enumerate(roles) if sa]
        ib = [i for i, (_, sb) in enumerate(roles) if sb]
        a = sum(deals.seat_sums(i, 0, stem, chunks) for i in ia) / len(ia)
        b = sum(deals.seat_sums(i, 0, stem, chunks) for i in ib) / len(ib)
        return a, b, True
    a = b = 0.0
    na = nb = 0
    for i, (sa, sb) in enumerate(roles):
        if sa:
            a = a + sum(deals.seat_sums(i, s, stem, chunks) for s in sa) / len(sa)
            na += 1
        if sb:
            b = b + sum(deals.seat_sums(i, s, stem, chunks) for s in sb) / len(sb)
            nb += 1
    return a / na, b / nb, True


def compare(game: str, a: str, b: str, *, field: str | None = None, rules=None, n=100_000,
            seed: int = 0, metric: str | None = None, until_resolved: bool = False,
            precision: float | None = None, confidence: float = 0.95, workers: int = 1,
            backend: str | None = None, scheduler: str | None = None,
            progress: bool | None = None, teams: bool = False, out: str | None = None,
            resume: bool = False) -> Analysis:
    """Strategy ``a`` against strategy ``b`` (strategy strings of the game) on the same deals.

    Returns an :class:`~simkit.analysis.common.Analysis` whose table has one row per metric:
    ``a_mean``, ``b_mean``, and ``mean`` with ``se``, ``ci_low``, ``ci_high`` the comparison
    named by ``quantity`` (``A's edge``: A's value minus the even share ``even``, half of A - B;
    or ``A - B``), ``diff`` = A - B with its interval ``diff_low``, ``diff_high``, ``better``
    (``lower``, ``higher`` or blank), ``resolved`` (the interval excludes 0 at ``confidence``;
    for the target, the sequential test over its looks); ``kind`` says whether the metric is a
    strategy's own (seat) or a shared outcome.
    ``metric`` (a stem such as ``points`` or a seat name such as ``p1_points``; default the game's
    objective) is the one the sequential mode resolves; ``n`` is the deals per configuration
    (the cap when sequential).  ``teams``: a team of A (p1, p3, ...) against a team of B (p2,
    p4, ...) and the sides swapped; a value is the per-seat mean over the team's seats, and the
    team's edge (half of A - B) is reported where the two teams share a zero- or constant-sum
    metric.
    """
    from simkit.games import parse_game
    spec, r = parse_game(game, rules)
    n = parse_n(n)
    seed = parse_seed(seed)
    if not 0.5 <= confidence < 1:
        raise SimkitError(f"--confidence must be in [0.5, 1), not {confidence}")
    if precision is not None and not precision > 0:
        raise SimkitError(f"--precision must be positive, not {precision}")
    sa, sb = parse_strategy(spec, a), parse_strategy(spec, b)
    sf = parse_strategy(spec, field) if field else None
    if sa == sb and sf is None:
        raise SimkitError(f"compare needs two different strategies, not {sa} twice")
    st = stems(spec, r)
    target, larger = objective(spec, r)
    if metric:
        _, target = seat_metric(spec, r, metric)
    configs, roles, mode = _seatings(spec, r, sa, sb, sf, teams)
    if st[target].kind == "shared" and mode in ("head-to-head", "teams"):
        raise SimkitError(f"{target!r} is a shared outcome: head-to-head has no A - B for it; "
                          f"name a per-seat metric with -m, or compare against a --field")
    sequential = until_resolved or precision is not None
    d = Deals(spec, configs, n, seed, workers=workers, backend=backend, scheduler=scheduler,
              progress=progress, desc=f"{spec.name} compare", out=out, resume=resume)
    plan_looks = looks(len(d.plan)) if sequential else [len(d.plan)]
    with d:
        status, history = _play_looks(d, len(configs), roles, mode, st[target], plan_looks,
                                      (1 - confidence) / len(plan_looks), until_resolved,
                                      precision)
    if not history:
        nothing_finished(d, "no chunk finished: nothing to compare")
    chunks = d.common(range(len(configs)))
    cnt = d.counts(chunks)
    rs = game_string(spec, r)
    h = history[-1]
    common = dict(game=spec.name, rules=rs, a=str(sa), b=str(sb),
                  field=str(sf) if sf else ("-" if mode != "field" else "bank"))
    rows = [dict(common, **row, n=int(cnt.sum()), seed=int(seed), configs=len(configs), mode=mode)
            for row in _metric_rows(spec, r, d, roles, mode, st, chunks, cnt, target, h,
                                    confidence)]
    # what matters first: the target, then the metrics with a difference, the rest (no A - B) last
    rows.sort(key=lambda x: (x["metric"] != target, not math.isfinite(x["mean"])))
    table = pd.DataFrame(rows)
    tr = table.iloc[0]
    who = f"A={sa} vs B={sb}" + (f" (each against {sf})" if sf else "") + (
        " (A's team on p1, p3... against B's on p2, p4..., and swapped)" if mode == "teams" else "")
    unit = unit_of(spec, r, target)
    looked = f" over {len(plan_looks)} looks" if sequential else ""
    lower = tr["better"] == "lower"
    claim = estimate_claim(f"A or B by {target}", (-1 if lower else 1) * tr["mean"], tr["se"],
                           len(chunks) - 1, confidence=confidence, positive=f"A={sa}",
                           negative=f"B={sb}")
    if claim["resolved"] != bool(tr["resolved"]):  # the sequential test (over its looks) decides
        claim.update(resolved=False, winner=None, tied=[f"A={sa}", f"B={sb}"])
    word = {"resolved": "", "cap reached": "; the cap was reached",
            "precision reached": "; the precision was reached", "fixed n": "",
            "interrupted": "; interrupted"}[status]
    how = f" ({tr['better']} is better)" if tr["better"] else ""
    summary = [f"{who}, {mode}, {len(configs)} seatings on common deals",
               f"{target}{how}: " + _what(tr, unit) + f"; after {h['deals']:,} deals per seating"
               + word]
    if claim["resolved"]:
        verdict = (f"resolved at {confidence:.0%} confidence{looked}: {claim['winner']} "
                   + (f"is better by {target}" if tr["better"] else
                      f"has the higher {target}"))
    else:
        verdict = (f"not resolved at {confidence:.0%} confidence{looked}: the margin "
                   f"{num(claim['margin'])} (se {num(claim['se'])}) does not exclude 0; A and B "
                   f"cannot be told apart by {target}")
    summary.append(verdict)
    claim["text"] = verdict
    label = describe(spec, rs, who, h["deals"], seed)
    info = dict(target=target, larger=larger, status=status, resolved=claim["resolved"],
                confidence=confidence,
                looks=len(plan_looks), mode=mode, a=str(sa), b=str(sb),
                field=str(sf) if sf else None, seed=int(seed), n=n,
                deals=int(d.played()), seats=seat_names(spec.seats(r)))
    return Analysis("compare", rs, label, {"table": table, "history": pd.DataFrame(history)},
                    summary, info, complete=d.complete, exit_status=d.exit_status, claims=[claim])


def _play_looks(d, nconfigs, roles, mode, s, plan_looks, alpha, until_resolved, precision):
    """Play the seatings look by look (``plan_looks``: chunks per look) until the target ``s``
    is resolved, the precision is reached, the cap or an interruption; returns the status and
    the history of looks (A - B's mean, se and bound at each)."""
    sequential = until_resolved or precision is not None
    status, history = "fixed n", []
    for k in plan_looks:
        d.play(range(nconfigs), k)
        chunks = d.common(range(nconfigs))
        if len(chunks) < 2:
            break
        cnt = d.counts(chunks)
        av, bv, _ = _sides(d, roles, mode, s, chunks)
        e = batch(cnt, av - bv)
        q = t_quantile(1 - alpha / 2, e["df"])
        history.append(dict(look=len(history) + 1, chunks=len(chunks), deals=int(cnt.sum()),
                            mean=e["mean"], se=e["se"], bound=q * e["se"]))
        if not d.complete:
            status = "interrupted"
            break
        if until_resolved and abs(e["mean"]) > q * e["se"]:
            status = "resolved"
            break
        if precision is not None and q * e["se"] <= precision:
            status = "precision reached"
            break
    else:
        if sequential:
            status = "cap reached"
    return status, history


def _metric_rows(spec, r, d, roles, mode, st, chunks, cnt, target, h, confidence):
    """One row a metric: A's and B's means, the comparison (A's edge or A - B), A - B, whether
    it is resolved (the target by the last look ``h`` of the sequential test)."""
    rows = []
    for name, s in st.items():
        av, bv, diffable = _sides(d, roles, mode, s, chunks)
        ea, eb = batch(cnt, av), batch(cnt, bv)
        nan = dict(mean=math.nan, se=math.nan, df=0, ci_low=math.nan, ci_high=math.nan)
        e = batch(cnt, av - bv) if diffable else nan
        even = _even_share(cnt, av, bv) if diffable and (mode == "teams" or (
            mode == "head-to-head" and spec.seats(r) == 2)) else None
        q = batch(cnt, (av - bv) / 2) if even is not None else e
        if name == target:
            ok = abs(h["mean"]) > h["bound"]
        else:
            ok = settled(q["mean"], q["se"], q["df"], confidence)
        rows.append(dict(metric=name, kind=s.kind if s.kind == "shared" else "seat",
                         better=better(spec, r, name),
                         quantity=("A's edge" if even is not None else "A - B") if diffable else "",
                         a_mean=ea["mean"], b_mean=eb["mean"], mean=q["mean"], se=q["se"],
                         ci_low=q["ci_low"], ci_high=q["ci_high"], diff=e["mean"],
                         diff_low=e["ci_low"], diff_high=e["ci_high"],
                         even=even if even is not None else math.nan, resolved=bool(ok)))
    return rows



def _even_share(cnt, av, bv) -> float | None:
    """In a two-player head-to-head (or team against team), the per-deal value ``(a + b) / 2`` when
    it is the same in every chunk (a zero-sum metric: 0, such as gin's points; a constant-sum one:
    half the total), else None.  Then A - B is twice A's edge over that even share."""
    tot = (av + bv) / cnt
    scale = max(1.0, float(abs(av / cnt).max()))
    if len(tot) and np.allclose(tot, tot[0], rtol=0, atol=1e-9 * scale):
        return float(tot[0]) / 2
    return None


def _what(r, unit: str) -> str:
    """The target's number in words: A's edge (and what A - B is) or A - B, with its interval."""
    u = f" {unit}" if unit else ""
    ci = f"(se {r['se']:.3g}, 95% CI [{r['ci_low']:+.6g}, {r['ci_high']:+.6g}])"
    if r["quantity"] == "A's edge":
        base = ("A's own value; B's is its negative" if abs(r["even"]) < 1e-12 else
                f"A's value {r['a_mean']:.6g} minus the even share {r['even']:.6g}")
        return (f"A's edge {r['mean']:+.6g}{u} {ci}: {base}, so A - B = {r['diff']:+.6g} is "
                f"twice it")
    return (f"A - B = {r['mean']:+.6g}{u} {ci}: A's {r['a_mean']:.6g} minus B's "
            f"{r['b_mean']:.6g}")
