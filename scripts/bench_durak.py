"""Durak benchmark: games per second per core, simkit against the PyPI peer ``durakgame``, both
measured in this run (the machines are shared and noisy: compare the ratio).

    python scripts/bench_durak.py [-n 1e6] [--peer 300]

* simkit: ``simkit bench durak`` (the baseline on both seats, one thread, the median of five
  interleaved CPU-time repetitions), and random play under the peer's rules
  (``durak(preset=durakgame)``, ``random(subsets=1)``);
* durakgame 1.0.4, unmodified: its ``Game`` with ``MrRandom`` on both seats (its own simple
  bots), ``--peer`` games; a game still running after 2 s is abandoned and counted at 2 s (the
  peer lists every subset of throw-ins as one option, and its duplicated throw-ins make hands
  grow: see ``simkit.peers.durakgame_peer``).  The peer's rate is flattered, the ratio not;
* the peer mended (``LazyGame``: its throw-in list indexed lazily, thrown-in cards leave the
  attacker's hand): the fair ratio, the peer's own rules without the bug's long games.
"""
from __future__ import annotations

import argparse
import time

from simkit.analysis.bench import bench
from simkit.core.play import run_chunk
from simkit.core.registry import parse_strategies
from simkit.core.rng import stream_state
from simkit.games import parse_game
from simkit.peers.durakgame_peer import STRATS, peer_games


def rate(game, strategies, n):
    spec, r = parse_game(game)
    st = parse_strategies(spec, r, strategies)
    run_chunk(spec, r, st, stream_state(0, 0), 1000)
    best = 0.0
    for k in range(3):
        t = time.perf_counter()
        run_chunk(spec, r, st, stream_state(1, k), n)
        best = max(best, n / (time.perf_counter() - t))
    return best


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=float, default=1e6)
    ap.add_argument("--peer", type=int, default=300)
    a = ap.parse_args(argv)
    n = int(a.n)
    res = bench("durak", n=n, seed=0)
    ours = float(res.set_index(res.columns[0]).loc["deals_per_second_per_core", res.columns[1]])
    ours_random = rate("durak(preset=durakgame)", STRATS, n)
    _, slow, secs = peer_games(a.peer, 1, lazy=False, limit=2.0)
    theirs = a.peer / secs
    _, _, secs2 = peer_games(a.peer * 10, 1, lazy=True)
    mended = a.peer * 10 / secs2
    print(f"simkit durak, baseline x2:               {ours:14,.0f} games/s/core")
    print(f"simkit durak(preset=durakgame), random:  {ours_random:14,.0f} games/s/core")
    print(f"durakgame MrRandom x2 ({a.peer} games, {slow} abandoned): {theirs:10,.1f} games/s")
    print(f"durakgame mended ({10 * a.peer} games):           {mended:14,.1f} games/s")
    print(f"ratio (random play, same rules):         {ours_random / theirs:14,.0f}x")
    print(f"ratio against the mended peer:           {ours_random / mended:14,.0f}x")


if __name__ == "__main__":
    main()
