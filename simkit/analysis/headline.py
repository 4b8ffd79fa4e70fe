"""The headline of a sweep, or of any tidy results table: the game's objective, and a winner only
where the numbers settle it (:mod:`.verdict`).

* A grid over one seat's strategy (gin ``p1.knock``): that seat's objective (gin ``p1_points``,
  Hearts ``p1_points``, lower is better), the best grid point, resolved only when its
  difference from every other point excludes 0.
* A grid over both sides' choices of a game of two sides (Очко ``banker_stop`` x ``p1.t``, a rules
  option being the house's choice as in :func:`simkit.solve`; gin ``p1.knock`` x ``p2.knock``):
  the equilibrium of the matrix game, not the maximum of one side's value: each side's pure
  minimax as a claim, and the mixed equilibrium (:func:`simkit.analysis.solve.matrix_game`).
  The house's payoff is minus the player's objective.
* A grid over rules options alone: p1's objective, the best point for p1.
* Several seats' choices in a game of more sides: no single winner, and the headline says so.

Differences are paired on common deals when the caller gives per-chunk sums (a
:class:`~simkit.analysis.simulate.Result` has them: :func:`of_result`); from a table alone (a
CSV, a DataFrame) they come from the two standard errors (``unpaired``, wider than the truth),
and an exact table's are exact.
"""
from __future__ import annotations

import re

import numpy as np

from simkit.analysis.common import batch, bootstrap_weights, objective, stems
from simkit.analysis.verdict import leader
from simkit.core.store import STANDARD_COLUMNS
from simkit.errors import SimkitError

#: Columns of a tidy results table that are not grid columns.
STANDARD = STANDARD_COLUMNS
_SEAT = re.compile(r"^(p\d+)\.")
#: Bootstrap resamples for the sampling error of a sweep's equilibrium.
REPS = 200


def point_name(point, keys) -> str:
    """``banker_stop=16, p1.t=15``: a grid point by the values of ``keys``."""
    return ", ".join(f"{k}={point[k]}" for k in keys)


def chunk_sums(result):
    """``sums(metric) -> (counts[k], sums[configurations, k])`` over the chunks every
    configuration of ``result`` finished, or None with fewer than two such chunks."""
    common = sorted(set.intersection(*[set(a.chunks) for a in result.aggs]))
    if len(common) < 2:
        return None
    cnt = np.array([result.aggs[0].chunks[c][0] for c in common], float)

    def sums(metric):
        out = []
        for i in range(len(result.configs)):
            m = next(m for m in result.metric_specs[i] if m.name == metric)
            out.append(result._chunk_sums(i, m, common, cnt))
        return cnt, np.array(out)
    return sums


def best_point(names, means, ses, *, larger: bool, claim: str, sums=None, exact=None) -> dict:
    """The claim "the best of ``names``": paired differences from per-chunk ``sums`` (``(counts,
    sums[points, k])``, t over the chunks), else from the standard errors ``ses`` (unpaired,
    normal), exact where ``exact`` marks both points."""
    def diff(i, j):
        m = float(means[i] - means[j])
        if sums is not None:
            cnt, s = sums
            e = batch(cnt, s[i] - s[j])
            return m, e["se"], e["df"], "paired"
        if exact is not None and exact[i] and exact[j]:
            return m, 0.0, None, "exact"
        return m, float(np.hypot(ses[i], ses[j])), None, "unpaired"
    return leader(list(names), list(means), diff, larger=larger, claim=claim)


def of_result(result, reps: int = REPS) -> dict | None:
    """:func:`headline` of a sweep's :class:`Result`, paired on its common deals, as JSON-able
    values (NaN as None)."""
    from simkit.analysis.common import _jsonable
    return _jsonable(headline(result.table(), chunk_sums(result), reps=reps, seed=result.seed))


def headline(df, sums=None, keys=None, reps: int = REPS, seed: int = 0) -> dict | None:
    """``{"metric", "kind", "lines", "claims"}`` for a tidy table of one game: ``kind`` is
    ``best``, ``equilibrium`` or ``none``; None when the table names no game this simkit knows,
    or lacks the objective's metric.  ``sums(metric)`` (:func:`chunk_sums`) pairs the
    differences; ``keys`` are the columns that tell configurations apart (default: the varying
    grid columns)."""
    from simkit.games import get_game, parse_game
    if "game" not in df.columns or df["game"].nunique() != 1 or "metric" not in df.columns:
        return None
    try:
        spec = get_game(str(df["game"].iloc[0]))
        spec, rules = parse_game(str(df["rules"].iloc[0])) if "rules" in df.columns else \
            parse_game(spec.name)
    except SimkitError:
        return None
    if keys is None:
        keys = [c for c in df.columns if c not in STANDARD and df[c].nunique(dropna=False) > 1]
    keys = list(keys)
    if not keys:
        return None
    stem, larger = objective(spec, rules)
    kind = stems(spec, rules).get(stem)
    points = df.drop_duplicates(keys)[keys].reset_index(drop=True)
    sides = {k: (_SEAT.match(k).group(1) if _SEAT.match(k) else "house") for k in keys}
    seats = sorted({s for s in sides.values() if s != "house"}, key=lambda s: int(s[1:]))
    house = "house" in sides.values()
    n_seats = spec.seats(rules)

    def value(seat):
        """``(metric, sign)``: the table's metric holding ``seat``'s objective."""
        if kind is not None and kind.kind == "net":
            return f"p1_{stem}", 1.0 if seat == "p1" else -1.0
        return f"{seat}_{stem}", 1.0

    def column(metric):
        """Means, standard errors and exactness of ``metric`` per configuration."""
        sub = df[df["metric"] == metric].drop_duplicates(keys)
        if len(sub) != len(points):
            return None
        sub = points.merge(sub, on=keys, how="left")
        if not np.isfinite(sub["mean"].to_numpy(float)).all():
            return None  # a configuration without hands yet (an interrupted sweep): no headline
        se = sub["se"].to_numpy(float) if "se" in sub.columns else np.full(len(sub), np.nan)
        exact = (sub["method"].astype(str) == "exact").to_numpy() if "method" in sub.columns \
            else np.zeros(len(sub), bool)
        return sub["mean"].to_numpy(float), np.where(exact, 0.0, se), exact

    def paired(metric):
        if sums is None:
            return None
        try:
            return sums(metric)
        except (StopIteration, KeyError, ValueError):
            return None

    if (len(seats) == 2 and not house and n_seats == 2) or (len(seats) == 1 and house and
                                                             n_seats == 1):
        return _equilibrium(df, keys, points, sides, seats, house, value, column, paired, stem,
                            reps, seed)
    if len(seats) > 1:
        return dict(metric=None, kind="none", claims=[],
                    lines=[f"the grid varies the choices of {', '.join(seats)} in a game of "
                           f"{n_seats + house} sides: no single best point (simkit solve takes "
                           f"two sides)"])
    seat = seats[0] if seats else "p1"
    metric, sign = value(seat)
    col = column(metric)
    if col is None:
        return None
    means, ses, exact = col
    s = paired(metric)
    claim = best_point([point_name(p, keys) for _, p in points.iterrows()], sign * means, ses,
                       larger=larger, claim=f"best {' x '.join(keys)} by {_label(metric, sign)}",
                       sums=(s[0], sign * s[1]) if s is not None else None, exact=exact)
    who = (f"{seat}'s objective {stem}, {'higher' if larger else 'lower'} is better"
           + ("" if seats else "; the grid is over rules options"))
    top = [point_name(p, keys) for _, p in points.iterrows()].index(claim["leader"])
    return dict(metric=metric, sign=sign, larger=larger, kind="best", claims=[claim],
                leader_mean=float(means[top]), what=who,
                lines=[f"headline: {_label(metric, sign)} ({who})", claim["text"]])


def _label(metric: str, sign: float) -> str:
    return metric if sign > 0 else f"-{metric}"


def _equilibrium(df, keys, points, sides, seats, house, value, column, paired, stem, reps, seed):
    """The headline of a grid over both sides' choices: the matrix game's claims."""
    from simkit.analysis.solve import matrix_game
    if house:
        row_keys = [k for k in keys if sides[k] == "house"]
        col_keys = [k for k in keys if sides[k] != "house"]
        cm, csign = value(seats[0])
        rm, rsign = cm, -csign
        rwho, cwho = "the house", seats[0]
    else:
        row_keys = [k for k in keys if sides[k] == seats[0]]
        col_keys = [k for k in keys if sides[k] == seats[1]]
        (rm, rsign), (cm, csign) = value(seats[0]), value(seats[1])
        rwho, cwho = seats
    rows = points[row_keys].drop_duplicates().reset_index(drop=True)
    cols = points[col_keys].drop_duplicates().reset_index(drop=True)
    if len(rows) * len(cols) != len(points) or len(rows) < 2 or len(cols) < 2:
        return None  # not a full product of the two sides' points
    rc, cc = column(rm), column(cm)
    if rc is None or cc is None:
        return None
    # configuration of each cell, row-major
    where = {tuple(p[k] for k in keys): i for i, p in points.iterrows()}
    order = [where[tuple({**dict(r), **dict(c)}[k] for k in keys)]
             for _, r in rows.iterrows() for _, c in cols.iterrows()]
    shape = (len(rows), len(cols))
    u_row = (rsign * rc[0][order]).reshape(shape)
    u_col = (csign * cc[0][order]).reshape(shape)
    sr, sc = paired(rm), paired(cm)
    pair = cnt = w = None
    if sr is not None and sc is not None:
        cnt = sr[0]
        pair = {"row": rsign * sr[1][order], "col": csign * sc[1][order]}
        w = bootstrap_weights(len(cnt), reps, seed)
    exact = bool(rc[2].all() and cc[2].all())
    cell_se = None if exact or pair is not None else {
        "row": rc[1][order], "col": cc[1][order]}
    rlab, clab = " x ".join(row_keys), " x ".join(col_keys)
    g = matrix_game(u_row, u_col, rlab, clab, [point_name(r, row_keys) for _, r in rows.iterrows()],
                    [point_name(c, col_keys) for _, c in cols.iterrows()],
                    [point_name(r, row_keys).split("=", 1)[1] if len(row_keys) == 1 else
                     point_name(r, row_keys) for _, r in rows.iterrows()],
                    [point_name(c, col_keys).split("=", 1)[1] if len(col_keys) == 1 else
                     point_name(c, col_keys) for _, c in cols.iterrows()],
                    _label(rm, rsign), pair, cnt, w, cell_se=cell_se)
    payoff = (f"{_label(rm, rsign)}: {rwho}'s payoff, minus {cwho}'s objective {stem}" if house
              else f"{rwho} maximises {_label(rm, rsign)}, {cwho} {_label(cm, csign)}")
    return dict(metric=rm, sign=rsign, kind="equilibrium", claims=g.claims, value=g.value,
                lines=[f"headline: the grid varies both sides' choices, {rlab} ({rwho}) against "
                       f"{clab} ({cwho}): their equilibrium, not the best of one side's value "
                       f"({payoff})"] + g.lines)
