"""Crazy Eights speed: simkit's kernel against open-spiel's crazy_eights, measured in the same run.

Every seat plays uniformly random legal actions on both sides, under open-spiel's default rules
(simkit's preset ``openspiel``: five players).  simkit: deals per second on one core
(``run_chunk``, best of three, after compiling); open-spiel: its C++ game with C++ uniform random
bots (``pyspiel.evaluate_bots``, no Python per move), best of three.  Rates use CPU time
(``time.process_time``) so that other jobs on a shared machine distort them less.  The issue's
target is simkit at least 20 times open-spiel's loop.

    python scripts/bench_crazy_eights.py [--n 200000] [--os-n 3000]
"""
from __future__ import annotations

import argparse
import sys
import time


def simkit_rate(n: int, seed: int = 0, game: str = "crazy_eights(preset=openspiel)") -> float:
    from simkit.core.play import run_chunk
    from simkit.core.registry import parse_strategies
    from simkit.core.rng import stream_state
    from simkit.games import parse_game
    spec, rules = parse_game(game)
    strats = parse_strategies(spec, rules, [f"p{k}=random" for k in range(1, rules.players + 1)])
    run_chunk(spec, rules, strats, stream_state(seed, 0), 1000)   # compile / load the cache
    best = 0.0
    for rep in range(3):
        t = time.process_time()
        run_chunk(spec, rules, strats, stream_state(seed, rep + 1), n)
        best = max(best, n / (time.process_time() - t))
    return best


def openspiel_cpp_rate(n: int, seed: int = 0) -> float:
    import pyspiel
    game = pyspiel.load_game("crazy_eights")
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]
    best = 0.0
    for rep in range(3):
        t = time.process_time()
        for i in range(n):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, rep * n + i)
        best = max(best, n / (time.process_time() - t))
    return best


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200_000)
    ap.add_argument("--os-n", type=int, default=3000)
    a = ap.parse_args(argv)
    sk = simkit_rate(a.n)
    print(f"simkit crazy_eights(preset=openspiel), random: {sk:,.0f} deals/s (one core, {a.n:,} deals)")
    try:
        os_rate = openspiel_cpp_rate(a.os_n)
    except ImportError:
        print("open-spiel is not installed (pip install open-spiel)")
        return 0
    print(f"open-spiel crazy_eights, C++ random bots: {os_rate:,.0f} games/s ({a.os_n:,} games)")
    print(f"ratio simkit / open-spiel: {sk / os_rate:.1f}x (target: at least 20x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
