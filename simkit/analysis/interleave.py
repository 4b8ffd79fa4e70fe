"""Benchmarks that hold on a shared, noisy machine: CPU time, interleaved repetitions, medians.

A bench script times several things (a reference and the kernels it is compared with) in rounds,
``a, b, c, a, b, c, ...``, so that a burst of load from someone else lands on every one of them
alike; each round's ratio to the reference is taken in that round, and the median ratio over the
rounds (with its min-max spread) is the number to read.  Time is ``time.process_time`` (this
process's CPU time), never wall time, of an already compiled kernel.

:func:`shuffle_rate` is the random-number ceiling of a game that deals by shuffling: the deal
loop's generator alone (a key a deal from the chunk's xoshiro256** stream, then a partial
Fisher-Yates shuffle from the key's splitmix64 sequence), nothing of the game.
"""
from __future__ import annotations

import statistics
import time
from typing import Callable

import numpy as np
from numba import njit

from simkit.core.rng import shuffle_prefix, stream_state, xoshiro_step


def cpu_rate(fn: Callable[[], object], count: float) -> float:
    """``count`` divided by the CPU seconds of one call of ``fn``."""
    t = time.process_time()
    fn()
    return count / max(time.process_time() - t, 1e-9)


def game_runner(game: str, strategies: list[str], warm: int = 200) -> Callable[[int], object]:
    """``run(n)``: ``n`` units of ``game`` (a game string, options allowed) with ``strategies``
    (``pK=NAME`` items), one thread, on one stream; ``warm`` units are played first, so the
    kernels are compiled (or loaded) before anything is timed."""
    from simkit.core.play import run_chunk
    from simkit.core.registry import parse_strategies
    from simkit.games import parse_game
    spec, r = parse_game(game)
    strats = parse_strategies(spec, r, strategies)
    state = stream_state(1, 0)
    run_chunk(spec, r, strats, state, warm)
    return lambda n: run_chunk(spec, r, strats, state, n)


def interleaved(timers: dict[str, Callable[[], float]], reps: int) -> dict[str, list[float]]:
    """Call every timer once a round, in order, for ``reps`` rounds: ``{name: [rate a round]}``."""
    out: dict[str, list[float]] = {k: [] for k in timers}
    for _ in range(reps):
        for k, f in timers.items():
            out[k].append(float(f()))
    return out


def summary(values) -> tuple[float, float, float]:
    """``(median, min, max)``."""
    v = list(values)
    return statistics.median(v), min(v), max(v)


def ratios(a, b) -> list[float]:
    """Round-by-round ratios ``a[i] / b[i]``."""
    return [x / y for x, y in zip(a, b)]


def line(label: str, values, unit: str = "", fmt: str = ",.0f") -> str:
    """``label  median  [min, max]  unit``."""
    med, lo, hi = summary(values)
    return f"{label:52s} {med:{fmt}}  [{lo:{fmt}}, {hi:{fmt}}] {unit}".rstrip()


@njit(cache=True, nogil=True)
def shuffle_sum(state, ncards, k, n):
    """``n`` shuffles as the deal loop does them: a key a deal from xoshiro ``state`` (advanced),
    ``perm`` reset to ``0..ncards-1`` and its first ``k`` positions drawn by
    :func:`simkit.core.rng.shuffle_prefix` from the key.  Returns a checksum (so nothing is
    optimised away)."""
    perm = np.zeros(ncards, np.int64)
    x0, x1, x2, x3 = state[0], state[1], state[2], state[3]
    acc = 0
    for _ in range(n):
        key, x0, x1, x2, x3 = xoshiro_step(x0, x1, x2, x3)
        for j in range(ncards):
            perm[j] = j
        shuffle_prefix(perm, k, key)
        acc += perm[0]
    state[0], state[1], state[2], state[3] = x0, x1, x2, x3
    return acc


def shuffle_rate(ncards: int, k: int, n: int, seed: int = 0) -> float:
    """Shuffles a CPU second of ``ncards`` cards, ``k`` positions drawn (:func:`shuffle_sum`)."""
    s = stream_state(seed, 0)
    shuffle_sum(s, ncards, k, 1000)
    return cpu_rate(lambda: shuffle_sum(s, ncards, k, n), n)
