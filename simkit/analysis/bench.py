"""``simkit bench``: deals per second per core, reported against a ceiling measured in the same run.

The ceiling is the random generator alone: xoshiro256** bounded draws per second on one core,
divided by the cards a deal actually draws (measured on the same configuration).  Ratios, not
absolute rates, are what to compare across these shared, noisy machines.
"""
from __future__ import annotations

import time

import pandas as pd

from simkit.core.play import run_chunk
from simkit.core.registry import parse_strategies
from simkit.core.rng import stream_state, xoshiro_bounded_sum


def _best_rate(fn, count: int, repeats: int = 3) -> float:
    best = 0.0
    for _ in range(repeats):
        t = time.perf_counter()
        fn(count)
        best = max(best, count / (time.perf_counter() - t))
    return best


def bench(game: str, n: int | None = None, seed: int = 0, rules=None, strategies=None,
          workers: int = 1) -> pd.DataFrame:
    """Time ``n`` deals on one core (best of three, after a warm-up that compiles the kernels);
    with ``workers`` > 1 also time the runner on that many threads."""
    from simkit.analysis.simulate import check_backend, parse_n, parse_seed, say_compiling
    from simkit.games import parse_game
    spec, r = parse_game(game, rules)
    strats = parse_strategies(spec, r, strategies)
    n = spec.bench_n if n is None else parse_n(n)
    seed = parse_seed(seed)
    check_backend(workers, None, None)
    say_compiling(spec)
    warm = min(n, 10_000)
    run_chunk(spec, r, strats, stream_state(seed, 0), warm)
    state = stream_state(seed, 0)
    deal_rate = _best_rate(lambda k: run_chunk(spec, r, strats, state, k), n)
    s = stream_state(seed, 1)
    xoshiro_bounded_sum(s, 36, 1000)
    draw_rate = _best_rate(lambda k: xoshiro_bounded_sum(s, 36, k), 4 * n)
    m = min(n, 200_000)
    cards = run_chunk(spec, r, strats, stream_state(seed, 2), m)[2] / m
    ceiling = draw_rate / cards
    rows = [("deals_per_second_per_core", deal_rate, f"{n:,} deals, one thread, best of 3"),
            ("bounded_draws_per_second", draw_rate, "xoshiro256** + Lemire, one thread"),
            ("cards_per_deal", cards, "mean cards dealt per deal (measured)"),
            ("ceiling_deals_per_second", ceiling, "bounded draws per second / cards per deal"),
            ("fraction_of_ceiling", deal_rate / ceiling, "deals per second / ceiling")]
    units = spec.bench_units(r) if spec.bench_units else None
    if units:
        rows.insert(1, (f"{units[0]}_per_second_per_core", deal_rate * units[1],
                        f"{units[1]:g} {units[0]} per deal"))
    if workers > 1:
        from simkit.analysis.simulate import run
        t = time.perf_counter()
        run(game, n=n, seed=seed, rules=rules, strategies=strategies, workers=workers, progress=False)
        rate = n / (time.perf_counter() - t)
        rows += [(f"deals_per_second_{workers}_threads", rate, "through the runner, all chunks"),
                 ("thread_speedup", rate / deal_rate, f"{workers} threads / one core")]
    return pd.DataFrame(rows, columns=["quantity", "value", "how"]).assign(
        game=spec.name, rules=game, strategies=" ".join(str(x) for x in strats), n=n)
