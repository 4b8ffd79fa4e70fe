"""Threshold equilibria: the payoff matrix of two strategy grids, best replies, minimax, mixed play.

``solve("ochko", row="banker_stop=14..20", col="p1.t=12..21")`` plays every (row, column) pair
on common deals and returns the matrix of the row side's payoff (default: minus the column
side's objective, so a zero-sum game; ``row_metric="bank_result"`` names it), each side's best reply
to each of the other's points (with the paired margin over the runner-up), the pure minimax (the
row side's best point when the column side answers it with its best reply, and the column's
analogue), and the mixed equilibrium of the matrix game with its value (a linear programme).
The value's sampling error is the spread of the equilibrium value over a bootstrap of chunks.

The two sides are the row's and the column's: a seat's strategy parameter (``p1.t``) or a rules
option (``banker_stop``: the house); a game with more sides than those two is refused.  With
``exact=True`` the matrix comes from the game's exact analysis (Очко, «31» with a bank), with
zero error, through the same code; a seat's other strategy parameters are passed to it as
one-value axes at the values the simulation would play (``p1.soft=28`` beside ``p1.t``), so
the exact cells are the simulated ones or the analysis refuses them.
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
from scipy.optimize import linprog

from simkit.analysis.common import (Analysis, batch, bootstrap_weights, describe, objective,
                                    play_all, seat_metric, stems)
from simkit.analysis.simulate import _configs, parse_grid, parse_n, parse_seed
from simkit.analysis.verdict import CONFIDENCE, leader
from simkit.core.exact import check_request
from simkit.core.registry import (game_string, parse_kv, parse_strategies, seat_names,
                                   split_call)
from simkit.errors import SimkitError


def zero_sum_equilibrium(a: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """Value and optimal mixed strategies of the zero-sum game where the row player maximises
    ``a[i, j]`` and the column player minimises it."""
    m, k = a.shape
    shift = a.min() - 1.0
    b = a - shift  # positive, so the value is positive
    # row: max v s.t. sum_i x_i b_ij >= v; variables (x, v)
    c = np.r_[np.zeros(m), -1.0]
    aub = np.c_[-b.T, np.ones(k)]
    res = linprog(c, A_ub=aub, b_ub=np.zeros(k), A_eq=np.r_[np.ones(m), 0.0][None],
                  b_eq=[1.0], bounds=[(0, None)] * m + [(None, None)], method="highs")
    col = linprog(np.r_[np.zeros(k), 1.0], A_ub=np.c_[b, -np.ones(m)], b_ub=np.zeros(m),
                  A_eq=np.r_[np.ones(k), 0.0][None], b_eq=[1.0],
                  bounds=[(0, None)] * k + [(None, None)], method="highs")
    if not (res.success and col.success):
        raise SimkitError("the matrix game's linear programme failed")
    x, y = np.clip(res.x[:m], 0, None), np.clip(col.x[:k], 0, None)
    return float(-res.fun + shift), x / x.sum(), y / y.sum()


def _side(key: str) -> str:
    return key.split(".", 1)[0] if "." in key else "house"


def _matrix_answers(u_row, u_col, rvals, cvals):
    """Best replies and the pure minimax of both sides from payoff matrices."""
    br_col = u_col.argmax(axis=1)          # column's best reply to each row point
    br_row = u_row.argmax(axis=0)          # row's best reply to each column point
    row_guarantee = u_row[np.arange(len(rvals)), br_col]
    i_star = int(row_guarantee.argmax())
    col_guarantee = u_col[br_row, np.arange(len(cvals))]
    j_star = int(col_guarantee.argmax())
    return br_col, br_row, i_star, j_star


def solve(game: str, row: str, col: str, *, strategies=None, rules=None,
          row_metric: str | None = None, col_metric: str | None = None, exact: bool = False,
          n=100_000, seed: int = 0, reps: int = 400, workers: int = 1,
          backend: str | None = None, scheduler: str | None = None,
          progress: bool | None = None, out: str | None = None, resume: bool = False) -> Analysis:
    """The matrix of ``row`` (one grid axis, ``"banker_stop=14..20"``) against ``col``
    (``"p1.t=12..21"``) with best replies, minimax and the mixed equilibrium; see the module."""
    from simkit.games import parse_game
    spec, r0 = parse_game(game, rules)
    n = parse_n(n)
    seed = parse_seed(seed)
    axes = parse_grid([row, col])
    if len(axes) != 2 or len(parse_grid([row])) != 1:
        raise SimkitError("solve takes one grid axis for --row and one for --col")
    (rk, rvals), (ck, cvals) = axes
    sr, sc = _side(rk), _side(ck)
    if sr == sc:
        raise SimkitError(f"--row {rk} and --col {ck} belong to the same side ({sr}); solve needs "
                          f"the two sides of a two-sided game")
    seats = spec.seats(r0)
    sides = seats + (1 if "house" in (sr, sc) else 0)
    if sides != 2:
        raise SimkitError(f"{game_string(spec, r0)} has {sides} sides ({seats} seats"
                          + (" and the house" if "house" in (sr, sc) else "")
                          + "); a payoff matrix needs a game of exactly two")
    stem, larger = objective(spec, r0)
    if not larger:
        raise SimkitError(f"{spec.name}'s objective {stem!r} is minimised; name the payoffs with "
                          f"--row-metric and --col-metric")
    st = stems(spec, r0)
    cm, csign = _payoff(spec, r0, st, stem, col_metric, sc)
    rm, rsign = _payoff(spec, r0, st, stem, row_metric, sr)
    if cm is None:                    # the house's column: zero-sum against the row side
        cm, csign = rm, -rsign
    if rm is None:
        rm, rsign = cm, -csign

    _, args = split_call(game, "game")
    opts = parse_kv(args, "rules option")
    opts.update(rules if isinstance(rules, dict) else parse_kv(list(rules or []), "rules option"))
    rs = game_string(spec, r0)
    if exact:
        if resume:
            raise SimkitError("--resume: an --exact solve plays no chunks, there is nothing to "
                              "continue")
        piv = _exact_matrices(spec, r0, strategies, (rk, rvals), (ck, cvals), {rm, cm})
        u_row, u_col = rsign * piv[rm], csign * piv[cm]
        cell_se = np.zeros_like(u_row)
        paired = cnt = w = None
        nd, deals, complete, method, status = 0, 0, True, "exact", 0
    else:
        configs, points = _configs(spec, opts, strategies, [row, col])
        d, chunks, cnt = play_all(spec, configs, n, seed, "solve", workers=workers,
                                  backend=backend, scheduler=scheduler, progress=progress,
                                  out=out, resume=resume)
        shape = (len(rvals), len(cvals))

        def sums(name, sign):
            seat, s = seat_metric(spec, r0, name)
            idx = int(seat[1:]) - 1 if seat else 0
            return sign * np.array([d.seat_sums(i, idx, st[s], chunks) for i in range(len(configs))])

        srow, scol = sums(rm, rsign), sums(cm, csign)      # [cells, chunks]
        u_row = (srow.sum(1) / cnt.sum()).reshape(shape)
        u_col = (scol.sum(1) / cnt.sum()).reshape(shape)
        cell_se = np.array([batch(cnt, x)["se"] for x in srow]).reshape(shape)
        w = bootstrap_weights(len(chunks), reps, seed)
        paired = {"row": srow, "col": scol}
        nd, deals, complete, method = int(cnt.sum()), d.played(), d.complete, "simulation"
        status = d.exit_status
    rlab = rm if rsign > 0 else f"-{rm}"
    g = matrix_game(u_row, u_col, rk, ck, [f"{rk}={_num(v)}" for v in rvals],
                    [f"{ck}={_num(v)}" for v in cvals], [str(_num(v)) for v in rvals],
                    [str(_num(v)) for v in cvals], rlab, paired, cnt, w)
    br_col, br_row, i_star, j_star, x, y = g.br_col, g.br_row, g.i_star, g.j_star, g.x, g.y
    table = pd.DataFrame(_cells(g, (rk, rvals), (ck, cvals), u_row, u_col, cell_se,
                                dict(game=spec.name, rules=rs, metric=rlab, n=nd,
                                     seed=int(seed), method=method)))
    summary = [f"{method}: {rk} ({len(rvals)}) x {ck} ({len(cvals)}), row payoff {rlab}"
               + (f", {nd:,} common deals per cell" if nd else "")] + g.lines
    claims = g.claims
    value, val_se, zero_sum = g.value, g.value_se, g.zero_sum
    minimax, mm_se = g.minimax, g.minimax_se
    label = describe(spec, rs, f"{rk} x {ck}" + (f" with {' '.join(strategies)}" if strategies else ""),
                     nd, seed) if nd else f"{rs} | {rk} x {ck} | exact"
    info = dict(row=rk, col=ck, row_values=[_num(v) for v in rvals],
                col_values=[_num(v) for v in cvals], row_metric=rlab,
                col_metric=cm if csign > 0 else f"-{cm}", value=value, value_se=val_se,
                minimax=minimax, minimax_se=mm_se, minimax_row=_num(rvals[i_star]),
                minimax_reply=_num(cvals[br_col[i_star]]), col_minimax=_num(cvals[j_star]),
                row_mix=x.tolist(), col_mix=y.tolist(), zero_sum=zero_sum, method=method,
                seed=int(seed), n=n, deals=int(deals),
                col_best_reply=[_num(cvals[j]) for j in br_col],
                row_best_reply=[_num(rvals[i]) for i in br_row],
                resolved=[c["resolved"] for c in claims])
    return Analysis("solve", rs, label, {"table": table, "replies": g.replies}, summary, info,
                    complete=complete, exit_status=status, claims=claims)


def _payoff(spec, r0, st, stem, metric, side):
    """A side's payoff metric and sign: ``metric`` (``-name`` negated), by default the side's
    own objective ``stem`` (``None`` for the house)."""
    if metric is None:
        return (f"{side}_{stem}", 1.0) if side != "house" else (None, 1.0)
    neg = metric.startswith("-")
    name = metric[1:] if neg else metric
    seat, s = seat_metric(spec, r0, name)
    if seat is None and st[s].kind != "shared":
        raise SimkitError(f"name a seat's metric, e.g. p1_{s}")
    return name, -1.0 if neg else 1.0


def _exact_matrices(spec, r0, strategies, row, col, names):
    """The game's exact analysis over the ``row`` and ``col`` axes (``(key, values)``): each of
    ``names``' means as a matrix, rows by the row values and columns by the column values."""
    (rk, rvals), (ck, cvals) = row, col
    if spec.exact is None:
        raise SimkitError(f"{spec.name} has no exact analysis; solve it by simulation")
    ex_axes = [(rk, rvals), (ck, cvals)] + _fixed_axes(spec, r0, strategies, (rk, ck))
    check_request(spec, (), ex_axes)
    _, t = spec.exact(r0, None, ex_axes)
    for key in (rk, ck):
        if key not in t.columns:
            raise SimkitError(f"{spec.name}'s exact analysis has no {key} axis; solve it by "
                              f"simulation")
    piv = {}
    for name in names:
        sub = t[t.metric == name]
        if sub.empty:
            raise SimkitError(f"the exact analysis reports no {name!r}")
        if sub.duplicated([rk, ck]).any():
            raise SimkitError(f"{spec.name}'s exact analysis varies more than {rk} and {ck}; "
                              f"solve it by simulation")
        piv[name] = sub.pivot_table(index=rk, columns=ck, values="mean").reindex(
            index=[_num(v) for v in rvals], columns=[_num(v) for v in cvals]).to_numpy()
    return piv


def _cells(g, row, col, u_row, u_col, cell_se, about):
    """The table's rows, one a cell: its row and column values (``row``, ``col``: ``(key,
    values)``), the row's payoff with its se and 95% interval, the column's payoff, the best
    replies and the equilibrium's mixes; ``about``: the game, rules, metric, n, seed, method."""
    (rk, rvals), (ck, cvals) = row, col
    cells = []
    for i, rv in enumerate(rvals):
        for j, cv in enumerate(cvals):
            cells.append({"game": about["game"], "rules": about["rules"], rk: _num(rv),
                          ck: _num(cv), "metric": about["metric"], "mean": float(u_row[i, j]),
                          "se": float(cell_se[i, j]),
                          "ci_low": float(u_row[i, j] - 1.959963984540054 * cell_se[i, j]),
                          "ci_high": float(u_row[i, j] + 1.959963984540054 * cell_se[i, j]),
                          "col_payoff": float(u_col[i, j]), "n": about["n"],
                          "seed": about["seed"], "col_best_reply": bool(g.br_col[i] == j),
                          "row_best_reply": bool(g.br_row[j] == i), "row_mix": float(g.x[i]),
                          "col_mix": float(g.y[j]), "method": about["method"]})
    return cells



def matrix_game(u_row, u_col, rk: str, ck: str, rnames, cnames, rshort, cshort, rlab: str,
                paired=None, cnt=None, w=None, cell_se=None) -> SimpleNamespace:
    """Everything said about a payoff matrix: both sides' best replies (with paired margins,
    resolved or not, and the replies not told apart), each side's pure minimax as a claim
    (resolved when its guarantee beats every other point's, paired), and the mixed equilibrium
    of the zero-sum game on ``u_row`` with its value.

    ``u_row[i, j]``, ``u_col[i, j]``: the two sides' payoffs (each maximises its own); ``rnames``
    and ``cnames`` name the points (``banker_stop=16``), ``rshort``/``cshort`` the same briefly
    (``16``) for the mixes; ``rlab`` the row payoff's name.  ``paired``: ``{"row": sums, "col":
    sums}``, per-chunk sums of each side's payoff per cell (flat, row-major) with ``cnt`` deals
    per chunk, for paired standard errors; ``w``, bootstrap weights over those chunks for the
    equilibrium's errors and its supports' stability.  Without them, ``cell_se`` (``{"row": se,
    "col": se}`` per cell, flat) gives unpaired standard errors, else the payoffs are exact."""
    shape = u_row.shape
    br_col, br_row, i_star, j_star = _matrix_answers(u_row, u_col, rnames, cnames)
    value, x, y = zero_sum_equilibrium(u_row)
    zero_sum = bool(np.allclose(u_row, -u_col, atol=1e-9 + 1e-6 * np.abs(u_row).max()))
    boot_vals, boot_minimax, boot_support = [], [], []
    if paired is not None and w is not None:
        srow, scol = paired["row"], paired["col"]
        for wi in w:
            ur = (srow @ wi / (cnt @ wi)).reshape(shape)
            uc = (scol @ wi / (cnt @ wi)).reshape(shape)
            bv, bx, by = zero_sum_equilibrium(ur)
            boot_vals.append(bv)
            boot_support.append(_support(bx, by))
            bc, _, i_b, _ = _matrix_answers(ur, uc, rnames, cnames)
            boot_minimax.append(ur[i_b, bc[i_b]])

    def diff_of(side, u):
        """``diff(a, b)`` of two cells (flat indices) of ``side``'s payoff ``u``: paired on the
        common deals (t over the chunks), unpaired from the cells' errors, or exact."""
        def diff(a, b):
            m = float(u.flat[a] - u.flat[b])
            if paired is not None:
                e = batch(cnt, paired[side][a] - paired[side][b])
                return m, e["se"], e["df"], "paired"
            if cell_se is not None:
                return m, float(np.hypot(cell_se[side][a], cell_se[side][b])), None, "unpaired"
            return m, 0.0, None, "exact"
        return diff

    cell = {"row": lambda c: rnames[c // shape[1]], "col": lambda c: cnames[c % shape[1]]}

    def reply(side, to, u, idx):
        """A best reply, the runner-up, the paired margin between them, whether the best is
        resolved and the replies it cannot be told apart from."""
        c = leader([cell[side](x) for x in idx], u.flat[idx], lambda a, b: diff_of(side, u)(
            idx[a], idx[b]), claim=f"{side}'s best reply to {to}")
        return dict(side=side, to=to, best=c["leader"], payoff=float(u.flat[idx].max()),
                    runner_up=c["runner_up"], margin=c["margin"], margin_se=c["se"],
                    resolved=c["resolved"], tied=", ".join(c["tied"]))

    rows_ = []
    for i in range(shape[0]):
        idx = np.ravel_multi_index((np.full(shape[1], i), np.arange(shape[1])), shape)
        rows_.append(reply("col", rnames[i], u_col, idx))
    for j in range(shape[1]):
        idx = np.ravel_multi_index((np.arange(shape[0]), np.full(shape[0], j)), shape)
        rows_.append(reply("row", cnames[j], u_row, idx))
    # each side's pure minimax: its point whose guarantee (its payoff when the other side answers
    # with its best reply) is highest, resolved when that beats every other point's guarantee
    g_row = np.ravel_multi_index((np.arange(shape[0]), br_col), shape)
    g_col = np.ravel_multi_index((br_row, np.arange(shape[1])), shape)
    claims = [leader(list(rnames), u_row.flat[g_row],
                     lambda a, b: diff_of("row", u_row)(g_row[a], g_row[b]),
                     claim=f"row's pure minimax {rk}"),
              leader(list(cnames), u_col.flat[g_col],
                     lambda a, b: diff_of("col", u_col)(g_col[a], g_col[b]),
                     claim=f"column's pure minimax {ck}")]
    minimax = float(u_row[i_star, br_col[i_star]])
    val_se = float(np.std(boot_vals, ddof=1)) if boot_vals else 0.0
    mm_se = float(np.std(boot_minimax, ddof=1)) if boot_vals else 0.0
    mix_r = ", ".join(f"{v}: {p:.3f}" for v, p in zip(rshort, x) if p > 1e-6)
    mix_c = ", ".join(f"{v}: {p:.3f}" for v, p in zip(cshort, y) if p > 1e-6)
    held = _support(x, y)
    sampled = paired is not None or cell_se is not None
    stable = float(np.mean([b == held for b in boot_support])) if boot_support else \
        (float("nan") if sampled else 1.0)
    mixed = dict(claim="mixed equilibrium", leader=f"row plays {mix_r}; column plays {mix_c}",
                 resolved=bool(stable >= CONFIDENCE), confidence=CONFIDENCE, value=value,
                 se=val_se if boot_vals else (float("nan") if sampled else 0.0),
                 support_held=stable,
                 by="bootstrap" if boot_vals else "unpaired" if sampled else "exact")
    mixed["winner"] = mixed["leader"] if mixed["resolved"] else None
    conf = f"at {CONFIDENCE:.0%} confidence"
    held_text = "" if not sampled else (
        f"; these supports held in {stable:.0%} of {len(boot_support)} bootstrap resamples: "
        + (f"resolved {conf}" if mixed["resolved"] else f"not resolved {conf}") if boot_vals
        else "; not resolved: no chunks to resample for its error")
    mixed["text"] = ("mixed equilibrium"
                     + ("" if zero_sum else f" (of the zero-sum game on {rlab})")
                     + f": value {value:.6f}"
                     + (f" (bootstrap se {val_se:.2g})" if boot_vals else "")
                     + f"; row plays {mix_r}; column plays {mix_c}" + held_text)
    claims.append(mixed)
    lines = [claims[0]["text"],
             f"  at {rnames[i_star]} the best reply is {cnames[br_col[i_star]]}: {rlab} "
             f"{minimax:.6f}" + (f" (bootstrap se {mm_se:.2g})" if boot_vals else ""),
             claims[1]["text"],
             f"  at {cnames[j_star]} the best reply is {rnames[br_row[j_star]]}",
             mixed["text"]]
    return SimpleNamespace(br_col=br_col, br_row=br_row, i_star=i_star, j_star=j_star, x=x, y=y,
                           value=value, value_se=val_se, minimax=minimax, minimax_se=mm_se,
                           zero_sum=zero_sum, replies=pd.DataFrame(rows_), claims=claims,
                           lines=lines)


def _support(x, y) -> tuple:
    """The points each side's mixed strategy plays (weight above 1e-6)."""
    return tuple(np.flatnonzero(x > 1e-6)), tuple(np.flatnonzero(y > 1e-6))


def _fixed_axes(spec, rules, strategies, keys) -> list[tuple[str, list[str]]]:
    """The other parameters of a seat on ``keys`` (``p1.t``) at the values the simulation plays
    them (from ``strategies`` or the defaults), as one-value grid axes for the exact analysis:
    it computes the same cells or refuses them (e.g. ``p1.soft=28`` beside ``p1.t``)."""
    strats = parse_strategies(spec, rules, strategies)
    seats = seat_names(len(strats))
    out = []
    for key in keys:
        seat, _, pname = key.partition(".")
        if not pname or seat not in seats:
            continue
        for p, v in strats[seats.index(seat)].values.items():
            if p != pname and f"{seat}.{p}" not in keys:
                out.append((f"{seat}.{p}", [str(v)]))
    return out


def _num(v: str):
    f = float(v)
    return int(f) if f.is_integer() else f
