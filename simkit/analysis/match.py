"""Match odds: the chance of winning a whole match as a function of a strategy parameter.

Gin is dealt hand by hand but played to 100, Hearts to 100, Klaberjass to 301 or 501.  ``odds``
switches the game to its own match unit (``GameSpec.match``: gin ``unit=match``, Hearts
``unit=game``, Klaberjass ``form=301``; options given by the caller win), sweeps the grid on
common deals, and reports the grid seat's match-win chance per point with its interval and its
paired difference from the best point.
"""
from __future__ import annotations

import warnings

from simkit.analysis.common import Analysis, describe, objective
from simkit.analysis.compare import versus_best
from simkit.analysis.headline import best_point, chunk_sums, point_name
from simkit.analysis.simulate import parse_grid, sweep
from simkit.core.registry import game_string, merge_options, parse_kv, split_call
from simkit.errors import SimkitError


def odds(game: str, grid, *, strategies=None, rules=None, n=20_000, seed: int = 0,
         workers: int = 1, backend: str | None = None, scheduler: str | None = None,
         progress: bool | None = None, out: str | None = None, resume: bool = False) -> Analysis:
    """Match-win chance of the grid's seat at every point of ``grid`` (one seat's parameters),
    in the game's match unit; ``n`` matches per point."""
    from simkit.games import get_game
    name, args = split_call(game, "game")
    spec = get_game(name)
    if spec.match is None:
        raise SimkitError(f"{spec.name} has no match unit: its deal is already the unit users "
                          f"play; use simkit best or sweep")
    opts = dict(spec.match)
    # the match unit's options, then the user's: the game string's and -r's, each given once
    opts.update(merge_options(parse_kv(args, "rules option"),
                              rules if isinstance(rules, dict)
                              else parse_kv(list(rules or []), "rules option")))
    axes = parse_grid(grid)
    seats = {k.split(".", 1)[0] for k, _ in axes if "." in k}
    if len(seats) != 1 or any("." not in k for k, _ in axes):
        raise SimkitError("odds takes a grid over one seat's strategy parameters, e.g. "
                          "--grid p1.knock=0..10")
    gs = f"{spec.name}(" + ",".join(f"{k}={v}" for k, v in opts.items()) + ")"
    with warnings.catch_warnings(record=True):  # an interruption: the CLI says it, with its status
        warnings.simplefilter("always")
        # with -o FILE.parquet the sweep's chunks are checkpointed there (its table is then
        # replaced by the analysis's, which keeps the sweep's request for --resume)
        res = sweep(gs, grid, n=n, seed=seed, strategies=strategies, workers=workers,
                    backend=backend, scheduler=scheduler, progress=progress,
                    out=out if out and out.lower().endswith((".parquet", ".pq")) or resume else None,
                    resume=resume, overwrite=not resume)
    if not res.complete and min(res.deals(i) for i in range(len(res.points))) == 0:
        from simkit.core.runner import Interrupted
        if res.exit_status > 128:
            raise Interrupted(res.exit_status - 128)
        raise SimkitError("the run ended before every grid point had a finished match")
    r = res.configs[0].rules
    stem, larger = objective(spec, r)
    seat = seats.pop()
    metric = f"{seat}_{stem}"
    if metric not in res.estimates(0):
        raise SimkitError(f"{game_string(spec, r)} reports no {metric!r}")
    keys = [k for k, _ in axes]
    t = versus_best(res, keys, metric, larger=larger)
    rs = game_string(spec, r)
    t.insert(0, "metric", metric)
    t.insert(0, "rules", rs)
    t.insert(0, "game", spec.name)
    t["n"] = res.deals(0)
    t["seed"] = int(seed)
    b = t[t.best].iloc[0]
    sums = chunk_sums(res)
    claim = best_point([point_name(p, keys) for p in res.points],
                       [res.estimates(i)[metric]["mean"] for i in range(len(res.points))],
                       [res.estimates(i)[metric]["se"] for i in range(len(res.points))],
                       larger=larger, claim=f"best {' x '.join(keys)}",
                       sums=sums(metric) if sums else None)
    # the points the claim cannot tell from the best (t over the chunks, as the headline)
    t["tied"] = [point_name(row, keys) in claim["tied"] for _, row in t.iterrows()]
    summary = [f"{rs}: {metric} by {' x '.join(keys)}, {res.deals(0):,} matches per point on "
               f"common deals",
               claim["text"],
               f"{', '.join(f'{k}={b[k]}' for k in keys)} wins {b['mean']:.4f} "
               f"[{b['ci_low']:.4f}, {b['ci_high']:.4f}]"]
    fixed = " ".join(strategies or []) or "defaults"
    label = describe(spec, rs, f"grid {' x '.join(keys)} vs {fixed}", res.deals(0), seed)
    info = dict(metric=metric, larger=larger, keys=keys, seed=int(seed), n=res.n,
                best={k: b[k] for k in keys}, resolved=claim["resolved"])
    return Analysis("odds", rs, label, {"table": t}, summary, info, complete=res.complete,
                    exit_status=res.exit_status, claims=[claim], request=res.request)
