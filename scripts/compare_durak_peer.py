"""Durak against the PyPI peer ``durakgame`` (1.0.4): the opener's win / draw / loss under the
peer's rules (``durak(preset=durakgame)``: p1 always opens, at most 5 attacking cards until the
first discard) with the peer's bots (``MrRandom`` on both seats: a uniformly random choice among
the legal moves, a uniformly random subset of throw-ins onto a take; simkit's
``random(subsets=1)``), measured in the same run, and both engines' speed.

    python scripts/compare_durak_peer.py -n 20000          # needs: pip install durakgame

Prints, per outcome, both rates with 95% Wilson intervals, their difference with its standard
error, and whether they agree within 3 SE; then games per second of each (one core) and their
ratio.  Known difference kept: on a take in the first bout the peer allows up to six attacking
cards (its cap of five counts beaten cards only), simkit's preset five.  Exit status 1 when an
outcome disagrees.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time

import simkit

STRATS = ["p1=random(subsets=1)", "p2=random(subsets=1)"]


def wilson(k, n, z=1.96):
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


class _Slow(Exception):
    pass


def _alarm(signum, frame):
    raise _Slow


def peer(n, seed, limit=2.0):
    """``n`` peer games, MrRandom on both seats: ``((wins, draws, losses) of p1 (the opener),
    games abandoned, seconds)``.  The peer lists every subset of throw-ins onto a take as one
    option, so a random game whose attacker holds many matching cards builds tens of thousands of
    options per move (measured: one game of 200 took 5.9 s, and a run of 3,000 ran out of memory);
    a game still running after ``limit`` seconds is abandoned and counted apart (the rates are
    over the finished games)."""
    import signal

    import durakgame as dg
    random.seed(seed)
    out = {1: 0, 0: 0, -1: 0, -2: 0}
    slow = 0
    old = signal.signal(signal.SIGALRM, _alarm)
    t = time.perf_counter()
    try:
        for _ in range(n):
            signal.setitimer(signal.ITIMER_REAL, limit)
            try:
                h = dg.play(dg.MrRandom(), dg.MrRandom())
                out[h.result.value] += 1
            except _Slow:
                slow += 1
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        signal.signal(signal.SIGALRM, old)
    return (out[1], out[0], out[-1]), slow, time.perf_counter() - t


def ours(n, seed):
    res = simkit.run("durak(preset=durakgame)", n=n, seed=seed, strategies=STRATS,
                     progress=False)
    t = res.table().set_index("metric")
    return {k: float(t.loc[k, "mean"]) for k in ("p1_win", "draw", "p1_lose")}


def our_speed(n):
    spec = simkit.get_game("durak")
    from simkit.core import play
    from simkit.core.registry import resolve_strategies, rules_from_options
    from simkit.core.rng import stream_state
    rules = rules_from_options(spec, {"preset": "durakgame"})
    strats = resolve_strategies(spec, rules, STRATS)
    play.run_chunk(spec, rules, strats, stream_state(0, 0), 1000)       # compiled
    t = time.perf_counter()
    play.run_chunk(spec, rules, strats, stream_state(1, 0), n)
    return n / (time.perf_counter() - t)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=20000, help="peer games (simkit plays 10x as many)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    (w, d, l), slow, secs = peer(a.n, a.seed)
    m = 10 * a.n
    done = w + d + l
    mine = ours(m, a.seed)
    ok = True
    print(f"opener (p1) outcomes, durakgame MrRandom x2: {done} peer games ({slow} abandoned "
          f"after 2 s), {m} simkit games")
    print(f"{'outcome':8} {'durakgame':>8} {'95% CI':>17} {'simkit':>8} {'95% CI':>17} "
          f"{'diff':>8} {'se':>7} agree")
    for name, k, key in (("win", w, "p1_win"), ("draw", d, "draw"), ("loss", l, "p1_lose")):
        p = k / done
        q = mine[key]
        se = math.sqrt(p * (1 - p) / done + q * (1 - q) / m)
        agree = abs(p - q) <= 3 * se
        ok &= agree
        lo, hi = wilson(k, done)
        lo2, hi2 = wilson(round(q * m), m)
        print(f"{name:8} {p:8.4f} [{lo:.4f}, {hi:.4f}] {q:8.4f} [{lo2:.4f}, {hi2:.4f}] "
              f"{p - q:+8.4f} {se:7.4f} {'yes' if agree else 'NO'}")
    peer_rate = a.n / secs   # abandoned games count with their 2 s
    our_rate = our_speed(max(m, 200_000))
    print(f"speed, one core: durakgame {peer_rate:,.0f} games/s, simkit {our_rate:,.0f} "
          f"games/s, ratio {our_rate / peer_rate:,.0f}x")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
