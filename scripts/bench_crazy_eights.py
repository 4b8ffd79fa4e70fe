"""Crazy Eights speed: simkit's kernel against open-spiel's crazy_eights, measured in the same run.

What "a game" is, on both sides: one deal of open-spiel's ``crazy_eights`` defaults (simkit's preset
``openspiel``): five players, one 52-card deck, five cards each, at most five draws a turn,
passing allowed once a player may not draw, no special cards, no reshuffle; it ends when a player
goes out, after 100 cards played, or after six passes in a row with the stock empty.  Every seat
plays uniformly random legal actions (the playable cards, the draw when allowed, the pass when
allowed; a uniformly random suit with an eight).  ``scripts/compare_crazy_eights_openspiel.py``
checks that the two engines agree on game length and who goes out.

* simkit: ``run_chunk`` of ``--n`` deals on one core, warm (compiled before timing).
* open-spiel: its C++ game played by C++ uniform random bots, one ``pyspiel.evaluate_bots`` call a
  game: the whole game (chance deals, ``LegalActions``, random choice, ``ApplyAction``) runs in
  C++, with one Python call per game and none per move.  It is the fastest open-spiel loop
  pyspiel offers for this (a Python loop of ``legal_actions`` / ``random.choice`` /
  ``apply_action`` measured about 4x slower; ``RandomRolloutEvaluator`` has no Python entry).

Rates use CPU time (``time.process_time``), so that other jobs on a shared machine distort them
less.  The two sides alternate, ``--reps`` times (open-spiel, simkit, open-spiel, simkit, ...),
so that a slow spell of the machine hits both; each repetition gives a ratio, and the median
ratio with its spread (min-max and interquartile range) is the result.  The issue's target is
simkit at least 20 times open-spiel's loop.

    python scripts/bench_crazy_eights.py [--n 200000] [--os-n 3000] [--reps 7]
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np

GAME = "crazy_eights(preset=openspiel)"


def simkit_timer(seed: int = 0, game: str = GAME):
    """A function ``rate(n, rep)``: deals per CPU second of ``n`` random deals (compiled first)."""
    from simkit.core.play import run_chunk
    from simkit.core.registry import parse_strategies
    from simkit.core.rng import stream_state
    from simkit.games import parse_game
    spec, rules = parse_game(game)
    strats = parse_strategies(spec, rules, [f"p{k}=random" for k in range(1, rules.players + 1)])
    run_chunk(spec, rules, strats, stream_state(seed, 0), 1000)   # compile / load the cache

    def rate(n: int, rep: int) -> float:
        t = time.process_time()
        run_chunk(spec, rules, strats, stream_state(seed, rep + 1), n)
        return n / (time.process_time() - t)
    return rate


def openspiel_timer(seed: int = 0):
    """A function ``rate(n, rep)``: games per CPU second of open-spiel's C++ loop with C++
    uniform random bots (``ImportError`` without open-spiel)."""
    import pyspiel
    game = pyspiel.load_game("crazy_eights")
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]
    pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)

    def rate(n: int, rep: int) -> float:
        base = (rep + 1) * n
        t = time.process_time()
        for i in range(n):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, base + i)
        return n / (time.process_time() - t)
    return rate


def interleaved(n: int, os_n: int, reps: int, seed: int = 0):
    """``reps`` alternating repetitions: a list of ``(open-spiel games/s, simkit deals/s)``."""
    sk, os_ = simkit_timer(seed), openspiel_timer(seed)
    return [(os_(os_n, r), sk(n, r)) for r in range(reps)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200_000, help="simkit deals a repetition")
    ap.add_argument("--os-n", type=int, default=3000, help="open-spiel games a repetition")
    ap.add_argument("--reps", type=int, default=7, help="alternating repetitions")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("open-spiel is not installed (pip install open-spiel)")
        return 0
    rows = interleaved(a.n, a.os_n, a.reps, a.seed)
    print(f"{GAME}, every seat random; simkit {a.n:,} deals and open-spiel {a.os_n:,} games a "
          f"repetition, {a.reps} repetitions alternating (CPU time, one core)")
    print(f"{'rep':>4}{'open-spiel games/s':>20}{'simkit deals/s':>17}{'ratio':>8}")
    for r, (o, s) in enumerate(rows):
        print(f"{r + 1:>4}{o:>20,.0f}{s:>17,.0f}{s / o:>7.1f}x")
    o, s = np.array(rows).T
    ratio = s / o
    q1, q3 = np.percentile(ratio, [25, 75])
    print(f"median: open-spiel {np.median(o):,.0f} games/s, simkit {np.median(s):,.0f} deals/s "
          f"(ratio of medians {np.median(s) / np.median(o):.1f}x)")
    print(f"ratio simkit / open-spiel: median {np.median(ratio):.1f}x, min-max "
          f"{ratio.min():.1f}x-{ratio.max():.1f}x, interquartile {q1:.1f}x-{q3:.1f}x "
          f"(target: at least 20x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
