"""Tournaments: a round robin of strategies on common deals, a cross table and ratings.

Every pair of strategies plays the head-to-head seatings of :mod:`.headtohead` (seats swapped for
two players; for more, each alone in every seat against the other, both ways round), all on the
same deals.  For each pair, A's and B's value of the metric per seat they played give:

* with a win metric (the per-seat values are exclusive shares, such as ``win``), A's chance of
  beating B, ``p = a / (a + b)`` (draws set aside), and **Bradley-Terry** ratings fitted to all
  pairs (on the Elo scale: 400 log10 of the strength; a 200-point gap is a 76% chance);
* with any other metric (points), A's advantage ``a - b`` (``b - a`` where less is better,
  Hearts' penalty points: a positive advantage always favours A) and **least-squares** ratings
  ``r_A - r_B ~`` that advantage (in the metric's units, mean zero).

The cross table holds both cells of every pair, the row's score against the column; a rating
order that contradicts a resolved head-to-head result (the pair's 95% interval excludes an even
result) is flagged in the headline (:func:`contradictions`), since ratings average over every
opponent.

A one-seat game (a player against the bank) compares each strategy with the others on the same
deals; its ratings are the strategies' own means, centred.  Intervals come from a bootstrap over
chunks (the same resampled chunks for every pair, so the pairing is kept), seeded.

:func:`rate` is the fitting on per-chunk sums alone, so it can be checked on constructed data
with known strengths (``tests/test_analysis.py``).
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
from scipy.optimize import minimize

from simkit.analysis.common import (Analysis, Deals, bootstrap_weights, describe, objective,
                                    play_all, seat_metric, stems)
from simkit.analysis.headtohead import _seatings, _sides
from simkit.analysis.simulate import parse_n, parse_seed
from simkit.core.registry import game_string, parse_strategy
from simkit.errors import SimkitError

ELO = 400 / math.log(10)
MODELS = ("bradley-terry", "least-squares")


def _bt_fit(p: np.ndarray, pairs, s: int) -> np.ndarray:
    """Bradley-Terry log-strengths (mean zero) from pairwise win chances ``p``."""
    p = np.clip(p, 1e-6, 1 - 1e-6)
    ia = np.array([i for i, _ in pairs])
    ib = np.array([j for _, j in pairs])

    def f(r):
        x = r[ia] - r[ib]
        ll = p * -np.logaddexp(0, -x) + (1 - p) * -np.logaddexp(0, x)
        sig = 1 / (1 + np.exp(-x))
        g = np.zeros(s)
        np.add.at(g, ia, -(p - sig))
        np.add.at(g, ib, p - sig)
        return -ll.sum() + 0.5 * r.sum() ** 2, g + r.sum()

    res = minimize(f, np.zeros(s), jac=True, method="L-BFGS-B")
    return res.x - res.x.mean()


def _ls_fit(dv: np.ndarray, pairs, s: int) -> np.ndarray:
    """Least-squares ratings (mean zero) with ``r_i - r_j ~ d_ij``."""
    a = np.zeros((len(pairs) + 1, s))
    for k, (i, j) in enumerate(pairs):
        a[k, i], a[k, j] = 1.0, -1.0
    a[-1] = 1.0
    return np.linalg.lstsq(a, np.append(dv, 0.0), rcond=None)[0]


def rate(pairs, a_sums: np.ndarray, b_sums: np.ndarray, counts: np.ndarray, s: int,
         model: str, reps: int = 400, seed: int = 0):
    """Ratings of ``s`` strategies from per-pair, per-chunk sums of A's and B's values
    (``a_sums[pair, chunk]``), with a bootstrap over chunks.  Returns ``(ratings, boot)``:
    ``ratings[s]`` and ``boot[reps, s]`` (the ratings of each resample); pairwise scores are
    ``p = a / (a + b)`` (Bradley-Terry, Elo scale) or ``(a - b) / deals`` (least squares)."""
    def fit(a, b, n):
        if model == "bradley-terry":
            return _bt_fit(a / np.maximum(a + b, 1e-300), pairs, s) * ELO
        return _ls_fit((a - b) / n, pairs, s)

    ratings = fit(a_sums.sum(1), b_sums.sum(1), counts.sum())
    w = bootstrap_weights(a_sums.shape[1], reps, seed)
    boot = np.array([fit(a_sums @ wi, b_sums @ wi, counts @ wi) for wi in w])
    return ratings, boot


def pair_scores(a, b, n, model):
    return a / (a + b) if model == "bradley-terry" else (a - b) / n


def tournament(game: str, strategies, *, rules=None, metric: str | None = None,
               model: str | None = None, n=100_000, seed: int = 0, reps: int = 400,
               workers: int = 1, backend: str | None = None, scheduler: str | None = None,
               progress: bool | None = None, out: str | None = None,
               resume: bool = False) -> Analysis:
    """A round robin of ``strategies`` (strategy strings, at least two) on common deals.

    ``metric``: a per-seat metric stem or seat name (default the game's objective); ``model``:
    ``bradley-terry`` (needs a win share such as ``win``) or ``least-squares`` (any metric);
    default Bradley-Terry for a metric named ``win``/``match_win``, else least squares.  The
    analysis's table holds the ratings; ``frames["cross"]`` the cross table (row strategy's score
    against the column strategy, with bootstrap intervals)."""
    from simkit.games import parse_game
    spec, r = parse_game(game, rules)
    n = parse_n(n)
    seed = parse_seed(seed)
    strats = [parse_strategy(spec, s) for s in strategies or []]
    if len(strats) < 2:
        raise SimkitError("a tournament needs at least two strategies: -s A -s B ...")
    if len(set(strats)) != len(strats):
        raise SimkitError("a tournament lists each strategy once")
    st = stems(spec, r)
    target, larger = objective(spec, r)
    if metric:
        _, target = seat_metric(spec, r, metric)
    stem = st[target]
    if stem.kind == "shared":
        raise SimkitError(f"{target!r} is a shared outcome; a tournament rates by a per-seat metric")
    k_seats = spec.seats(r)
    if model is None:
        model = "bradley-terry" if target in ("win", "match_win") and k_seats >= 2 else "least-squares"
    if model not in MODELS:
        raise SimkitError(f"unknown rating model {model!r}: choose one of {', '.join(MODELS)}")
    if model == "bradley-terry" and k_seats < 2:
        raise SimkitError(f"{spec.name} with these rules has one seat: strategies never meet, so "
                          f"rate them with --model least-squares")
    pairs = list(itertools.combinations(range(len(strats)), 2))
    configs, owners = [], []
    for pi, (i, j) in enumerate(pairs):
        cs, roles, mode = _seatings(spec, r, strats[i], strats[j], None)
        configs += cs
        owners.append((len(configs) - len(cs), len(cs), roles, mode))
    d, chunks, cnt = play_all(spec, configs, n, seed, "tournament", workers=workers,
                              backend=backend, scheduler=scheduler, progress=progress, out=out,
                              resume=resume)
    a_s, b_s = [], []
    for start, size, roles, mode in owners:
        sub = _Sub(d, start)
        a, b, _ = _sides(sub, roles, mode, stem, chunks)
        a_s.append(a)
        b_s.append(b)
    a_s, b_s = np.array(a_s), np.array(b_s)
    if model == "bradley-terry" and (np.any(a_s < 0) or np.any(b_s < 0)):
        raise SimkitError(f"{target!r} is not a win share (negative values): use --model "
                          f"least-squares")
    sign = 1.0 if larger else -1.0
    if not larger and model == "least-squares":
        a_s, b_s = -a_s, -b_s  # ratings: higher is better
    ratings, boot = rate(pairs, a_s, b_s, cnt, len(strats), model, reps, seed)
    w = bootstrap_weights(len(chunks), reps, seed)
    rs = game_string(spec, r)
    lo, hi = np.percentile(boot, [2.5, 97.5], axis=0)
    own = []
    for x in range(len(strats)):
        vals = [a_s[p].sum() / cnt.sum() for p, (i, j) in enumerate(pairs) if i == x] + \
               [b_s[p].sum() / cnt.sum() for p, (i, j) in enumerate(pairs) if j == x]
        own.append(sign * float(np.mean(vals)))
    table = pd.DataFrame(dict(
        game=spec.name, rules=rs, strategy=[str(s) for s in strats],
        metric="elo" if model == "bradley-terry" else f"rating_{target}",
        mean=ratings, se=boot.std(axis=0, ddof=1), ci_low=lo, ci_high=hi,
        **{f"mean_{target}": own}, n=int(cnt.sum()), seed=int(seed), model=model))
    table = table.sort_values("mean", ascending=False).reset_index(drop=True)
    table.insert(3, "rank", range(1, len(strats) + 1))
    cross = cross_table(pairs, a_s, b_s, cnt, w, model, [str(x) for x in strats])
    what = ("chance of beating the column strategy (draws set aside)" if model == "bradley-terry"
            else f"advantage: its {target} per seat minus the column strategy's" if larger else
            f"advantage: the column strategy's {target} per seat minus its own (lower {target} is "
            f"better, so a positive cell favours the row)")
    flags = contradictions([str(x) for x in strats], ratings, cross, model)
    summary = [f"round robin of {len(strats)} strategies, {len(pairs)} pairs, {len(configs)} "
               f"seatings on {int(cnt.sum()):,} common deals each; cross table: row's {what}",
               f"ratings ({model}{', Elo scale' if model == 'bradley-terry' else ''}, 95% "
               f"bootstrap intervals over chunks):"]
    summary += [f"  {t.rank}. {t.strategy}: {t.mean:+.1f} [{t.ci_low:+.1f}, {t.ci_high:+.1f}]"
                if model == "bradley-terry" else
                f"  {t.rank}. {t.strategy}: {t.mean:+.4g} [{t.ci_low:+.4g}, {t.ci_high:+.4g}]"
                for t in table.itertuples()]
    summary += [f["text"] for f in flags]
    table["contradicts"] = [", ".join(f["loses_to"] for f in flags if f["rated"] == s_)
                            for s_ in table["strategy"]]
    label = describe(spec, rs, " vs ".join(str(s) for s in strats), int(cnt.sum()), seed)
    info = dict(metric=target, larger=larger, model=model, reps=reps, seed=int(seed), n=n,
                strategies=[str(s) for s in strats], deals=int(d.played()), what=what,
                contradictions=flags)
    return Analysis("tournament", rs, label, {"table": table, "cross": cross}, summary, info,
                    complete=d.complete, exit_status=d.exit_status)


def cross_table(pairs, a_s, b_s, cnt, w, model: str, names: list[str]) -> pd.DataFrame:
    """Both cells of every pair: the row strategy's score against the column strategy (its chance
    of beating it, or its advantage in the metric, per seat; ``a_s``/``b_s`` already signed so
    that higher is better) with the 95% interval from the bootstrap weights ``w``."""
    cross = []
    for p, (i, j) in enumerate(pairs):
        score = pair_scores(a_s[p].sum(), b_s[p].sum(), cnt.sum(), model)
        bs = pair_scores(w @ a_s[p], w @ b_s[p], w @ cnt, model)
        blo, bhi = np.percentile(bs, [2.5, 97.5])
        for (x, y, v, l, h) in ((i, j, score, blo, bhi),
                                (j, i, *((1 - score, 1 - bhi, 1 - blo) if model == "bradley-terry"
                                         else (-score, -bhi, -blo)))):
            cross.append(dict(row=names[x], col=names[y], score=float(v),
                              ci_low=float(l), ci_high=float(h), se=float(np.std(bs, ddof=1))))
    return pd.DataFrame(cross)


def contradictions(names: list[str], ratings, cross: pd.DataFrame, model: str) -> list[dict]:
    """Every pair where the ratings put one strategy above another that beats it head to head,
    the head-to-head resolved (its 95% interval excludes an even result: 0.5 for a chance, 0 for
    an advantage).  One dict per pair: ``rated`` (the higher rated), ``loses_to``, the rating
    gap, the head-to-head score with its interval, and the line that flags it."""
    even = 0.5 if model == "bradley-terry" else 0.0
    r = dict(zip(names, np.asarray(ratings, float)))
    out = []
    for c in cross.itertuples():
        if c.ci_low > even and r[c.row] < r[c.col]:  # the row beats the column, rated below it
            gap = r[c.col] - r[c.row]
            out.append(dict(rated=c.col, loses_to=c.row, rating_gap=float(gap),
                            score=float(c.score), ci_low=float(c.ci_low), ci_high=float(c.ci_high),
                            text=f"  contradiction: {c.col} is rated {gap:.3g} above {c.row}, but "
                                 f"{c.row} beats it head to head ({c.score:+.4g} [{c.ci_low:+.4g}, "
                                 f"{c.ci_high:+.4g}], resolved at 95%): the ratings average over "
                                 f"all opponents and do not settle this pair"))
    return out


class _Sub:
    """A view of one pair's configurations inside the tournament's :class:`Deals`."""

    def __init__(self, deals: Deals, start: int):
        self.deals, self.start = deals, start

    def seat_sums(self, i, seat, stem, chunks):
        return self.deals.seat_sums(self.start + i, seat, stem, chunks)
