"""Handjass benchmark: deals per second per core, against Klaberjass measured in the same run.

    python scripts/bench_handjass.py [-n 3e5] [--reps 7] [--json out.json]

The issue's target is at least Klaberjass's rate (``simkit bench klaberjass``: short games per
second with its default heuristic).  Both units are their game's default form: a Handjass deal of
``handjass`` (four players, ``unit=deal``: the play-or-drop turn, Weis and Stöck, the nine tricks
of those who play, strokes and potatoes) and a Klaberjass short game of ``klaberjass``
(``form=short``: one played deal, redeals included), each with its default strategy on every seat.

The machines are shared and noisy, so the two are timed in ``--reps`` interleaved rounds
(Klaberjass, Handjass, the others, Klaberjass, ...) on the same deals each round, in CPU time
(``time.process_time``) of the compiled kernels, and the number to read is the median of the
rounds' ratios Handjass / Klaberjass, printed with its min-max spread.  Also timed in each round:
the shuffle ceiling (the deal loop's generator alone: a key and a 36-card shuffle), random play
with everyone playing (36 cards a deal) and whole games of four to the loser.
"""
from __future__ import annotations

import argparse
import json
import os

from simkit.analysis.interleave import cpu_rate, interleaved, line, ratios, shuffle_rate, summary
from simkit.core.play import run_chunk
from simkit.core.registry import parse_strategies
from simkit.core.rng import stream_state
from simkit.games import parse_game


def timer(game: str, n: int, strategies=None):
    """A timer of ``n`` units of ``game`` (compiled first: units per CPU second), and the means
    of the run's metrics (to say what a unit is)."""
    spec, r = parse_game(game)
    st = parse_strategies(spec, r, strategies)
    run_chunk(spec, r, st, stream_state(0, 0), 1000)
    acc = run_chunk(spec, r, st, stream_state(1, 0), n)[0]
    means = dict(zip([m.name for m in spec.metrics(r)], acc[0] / n))
    return (lambda: cpu_rate(lambda: run_chunk(spec, r, st, stream_state(1, 0), n), n)), means


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", default="3e5", help="deals to time (default 3e5)")
    ap.add_argument("--reps", type=int, default=7, help="interleaved rounds (default 7)")
    ap.add_argument("--json", default=None, help="also write the results to this JSON file")
    args = ap.parse_args()
    n = int(float(args.n))
    load0 = os.getloadavg()[0]
    kj, kjm = timer("klaberjass", n)
    hj, hjm = timer("handjass", n)
    hr, _ = timer("handjass(dropping=false)", n, [f"p{k}=random" for k in range(1, 5)])
    ng = max(1000, n // 20)
    hg, _ = timer("handjass(unit=game)", ng)
    timers = {"klaberjass": kj, "handjass": hj, "handjass_random_no_drop": hr,
              "handjass_games": hg, "shuffle_36": lambda: shuffle_rate(36, 35, n)}
    res = interleaved(timers, args.reps)
    load1 = os.getloadavg()[0]
    ratio = ratios(res["handjass"], res["klaberjass"])
    print(f"one core, CPU time, {args.reps} interleaved rounds, median [min, max]; load average "
          f"{load0:.2f} before, {load1:.2f} after, on {os.cpu_count()} cores")
    print(f"a handjass deal: 4 players, unit=deal, baseline; {hjm['active']:.2f} players play it "
          f"on average, {hjm['unplayed']:.3f} of deals unplayed (all but one dropped)")
    print(f"a klaberjass short game: form=short, heuristic; {kjm['deals']:.3f} played deal and "
          f"{kjm['redeals']:.3f} redeals per short game")
    units = {"klaberjass": f"short games/s (n={n:,})", "handjass": f"deals/s (n={n:,})",
             "handjass_random_no_drop": f"deals/s (n={n:,})",
             "handjass_games": f"games/s (n={ng:,})", "shuffle_36": f"shuffles/s (n={n:,})"}
    for k, vals in res.items():
        print(line(k, vals, units[k]))
    print(line("ratio handjass / klaberjass", ratio, "(each round's)", ".3f"))
    if args.json:
        out = {k: dict(zip(("median", "min", "max"), summary(v)), reps=v) for k, v in res.items()}
        out["ratio"] = dict(zip(("median", "min", "max"), summary(ratio)), reps=ratio)
        out.update(n=n, reps=args.reps, load=[load0, load1])
        with open(args.json, "w") as f:
            json.dump(out, f, indent=2)


if __name__ == "__main__":
    main()
