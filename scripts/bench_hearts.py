"""Hearts speed: simkit's kernel against open-spiel's hearts, measured in the same run.

All four seats play uniformly random legal cards (and random passes).  simkit: hands per second on
one core (``run_chunk``, best of three, after compiling); rates use CPU time (``time.process_time``)
so that other jobs on a shared machine distort them less.  open-spiel: its C++ hearts with C++
uniform random bots (``pyspiel.evaluate_bots``, no Python per move), and its C++ hearts driven by
random choices made in Python.  Prints the rates and the ratios.

    python scripts/bench_hearts.py [--n 500000] [--os-n 20000]
"""
from __future__ import annotations

import argparse
import random
import sys
import time


def simkit_rate(n: int, seed: int = 0) -> float:
    from simkit.core.play import run_chunk
    from simkit.core.registry import parse_strategies
    from simkit.core.rng import stream_state
    from simkit.games import parse_game
    spec, rules = parse_game("hearts(preset=openspiel)")
    strats = parse_strategies(spec, rules, [f"p{k}=random" for k in range(1, 5)])
    run_chunk(spec, rules, strats, stream_state(seed, 0), 1000)   # compile / load the cache
    best = 0.0
    for rep in range(3):
        t = time.process_time()
        run_chunk(spec, rules, strats, stream_state(seed, rep + 1), n)
        best = max(best, n / (time.process_time() - t))
    return best


def openspiel_cpp_rate(n: int, seed: int = 0) -> float:
    import pyspiel
    game = pyspiel.load_game("hearts")
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(4)]
    best = 0.0
    for rep in range(3):
        t = time.process_time()
        for i in range(n):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, rep * n + i)
        best = max(best, n / (time.process_time() - t))
    return best


def openspiel_python_rate(n: int, seed: int = 0) -> float:
    import pyspiel
    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    t = time.process_time()
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
    return n / (time.process_time() - t)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=500_000, help="simkit hands per timing")
    ap.add_argument("--os-n", type=int, default=20_000, help="open-spiel hands per timing")
    a = ap.parse_args(argv)
    sk = simkit_rate(a.n)
    cpp = openspiel_cpp_rate(a.os_n)
    py = openspiel_python_rate(max(a.os_n // 5, 100))
    print(f"simkit kernel, one core            {sk:>12,.0f} hands/s  ({a.n:,} hands, best of 3)")
    print(f"open-spiel C++ random bots         {cpp:>12,.0f} hands/s  ({a.os_n:,} hands, best of 3)")
    print(f"open-spiel C++ game, Python loop   {py:>12,.0f} hands/s  ({max(a.os_n // 5, 100):,} hands)")
    print(f"ratio simkit / open-spiel C++ bots  {sk / cpp:>8.1f}x")
    print(f"ratio simkit / open-spiel Python    {sk / py:>8.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
