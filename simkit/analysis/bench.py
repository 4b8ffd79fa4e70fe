"""``simkit bench``: deals per second per core, reported against a ceiling measured in the same run.

The ceiling is the random generator alone: xoshiro256** bounded draws per second on one core,
divided by the cards a deal actually draws (measured on the same configuration).  Ratios, not
absolute rates, are what to compare across these shared, noisy machines.

The deals and the generator are timed in interleaved repetitions (deals, draws, deals, draws,
...: :mod:`simkit.analysis.interleave`), each by this process's CPU time, and the fraction of the
ceiling is taken within each repetition: a burst of someone else's load then lands on both sides
of a ratio alike.  Every row is the median over the repetitions, with their min and max.
"""
from __future__ import annotations

import statistics
import time

import pandas as pd

from simkit.analysis.interleave import cpu_rate, interleaved
from simkit.core.play import run_chunk
from simkit.core.registry import parse_strategies
from simkit.core.rng import stream_state, xoshiro_bounded_sum
from simkit.core.runner import check_size, in_thread


def bench(game: str, n: int | None = None, seed: int = 0, rules=None, strategies=None,
          workers: int = 1, reps: int = 5) -> pd.DataFrame:
    """Time ``n`` deals on one core ``reps`` times, interleaved with ``4 n`` bounded draws (after a
    warm-up that compiles the kernels); with ``workers`` > 1 also time the runner on that many
    threads (wall time: it is several threads)."""
    from simkit.analysis.simulate import check_backend, parse_n, parse_seed, say_compiling
    from simkit.errors import SimkitError
    from simkit.games import parse_game
    spec, r = parse_game(game, rules)
    strats = parse_strategies(spec, r, strategies)
    n = spec.bench_n if n is None else parse_n(n)
    check_size(n)
    seed = parse_seed(seed)
    check_backend(workers, None, None)
    if not 1 <= reps <= 1000:
        raise SimkitError(f"--reps {reps}: give 1..1000 repetitions")
    say_compiling(spec)
    run_chunk(spec, r, strats, stream_state(seed, 0), min(n, 10_000))
    m = min(n, 200_000)
    cards = run_chunk(spec, r, strats, stream_state(seed, 2), m)[2] / m
    state = stream_state(seed, 0)
    s = stream_state(seed, 1)
    xoshiro_bounded_sum(s, 36, 1000)
    rates = interleaved({
        # in a thread, so that Ctrl-C stops a long bench at once (CPU time is the process's)
        "deals": lambda: cpu_rate(lambda: in_thread(run_chunk, spec, r, strats, state, n), n),
        "draws": lambda: cpu_rate(lambda: in_thread(xoshiro_bounded_sum, s, 36, 4 * n), 4 * n)},
        reps)
    deals, draws = rates["deals"], rates["draws"]
    rows = [("deals_per_second_per_core", deals, f"{n:,} deals, one thread"),
            ("bounded_draws_per_second", draws, "xoshiro256** + Lemire, one thread"),
            ("cards_per_deal", [cards], f"mean, on {m:,} deals"),
            ("ceiling_deals_per_second", [d / cards for d in draws], "draws per second / cards a deal"),
            ("fraction_of_ceiling", [a * cards / d for a, d in zip(deals, draws)],
             "deals per second / ceiling, each repetition")]
    units = spec.bench_units(r) if spec.bench_units else None
    if units:
        rows.insert(1, (f"{units[0]}_per_second_per_core", [d * units[1] for d in deals],
                        f"{units[1]:g} {units[0]} per deal"))
    if workers > 1:
        from simkit.analysis.simulate import run
        t = time.perf_counter()
        run(game, n=n, seed=seed, rules=rules, strategies=strategies, workers=workers, progress=False)
        rate = n / (time.perf_counter() - t)
        one = statistics.median(deals)
        rows += [(f"deals_per_second_{workers}_threads", [rate], "through the runner, all chunks "
                  "(wall time, once)"),
                 ("thread_speedup", [rate / one], f"{workers} threads / one core's median")]
    return pd.DataFrame([(q, statistics.median(v), min(v), max(v), h) for q, v, h in rows],
                        columns=["quantity", "value", "low", "high", "how"]).assign(
        game=spec.name, rules=game, strategies=" ".join(str(x) for x in strats), n=n, reps=reps)
