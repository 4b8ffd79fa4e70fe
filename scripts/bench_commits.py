"""A game's fraction of the generator ceiling at earlier commits, measured beside today's.

    python scripts/bench_commits.py ochko@a12bd84 thirty_one_bank [-n 3e6] [--reps 5]

A speed target written as "the fraction GAME reached then" is checked against that code on this
machine now, not against the number written down on another day.  Each ``GAME[@REV]`` is timed
in its own process with ``REV``'s simkit on the path (``git archive`` into a temporary
directory; no ``@REV``: this working tree), in ``--reps`` rounds that take every spec in turn,
so that a burst of load lands on all of them alike.  Within a process the measure is the one of
``simkit bench``: the CPU time of ``n`` warm deals of the game's defaults and of ``4 n``
xoshiro256** bounded draws, and the fraction ``deals/s x cards a deal / draws/s``.  The report
gives each spec's median fraction with its min-max, and each one's median ratio to the first
spec's fraction of the same round.

Commits before the house contract (``1f25505``) have ``spec.run_chunk`` and
``spec.bench_cards_per_deal``; later ones ``simkit.core.play.run_chunk``: both are understood.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def worker(path: str, game: str, n: int) -> dict:
    """In this process: ``path``'s simkit, one timing of ``n`` deals and of ``4 n`` draws."""
    sys.path.insert(0, path)
    import simkit
    assert Path(simkit.__file__).resolve().is_relative_to(Path(path).resolve()), simkit.__file__
    from simkit.core.rng import stream_state, xoshiro_bounded_sum
    try:
        from simkit.core.play import run_chunk
        from simkit.core.registry import parse_strategies
        from simkit.games import parse_game
        spec, r = parse_game(game, None)
        st = parse_strategies(spec, r, None)

        def chunk(state, k):
            return run_chunk(spec, r, st, state, k)[2]
    except ImportError:             # before the house contract
        from simkit.core.registry import parse_game, parse_strategies
        spec, r = parse_game(game, None)
        st = parse_strategies(spec, r, None)

        def chunk(state, k):
            spec.run_chunk(r, st, state, k)
            return None
    chunk(stream_state(0, 0), 10_000)
    cards = chunk(stream_state(0, 1), n)
    cards = (cards if cards is not None
             else spec.bench_cards_per_deal(r, st, stream_state(0, 1), n) * n) / n
    state = stream_state(0, 2)
    s = stream_state(0, 3)
    xoshiro_bounded_sum(s, 36, 1000)
    t = time.process_time()
    chunk(state, n)
    deals = n / max(time.process_time() - t, 1e-9)
    t = time.process_time()
    xoshiro_bounded_sum(s, 36, 4 * n)
    draws = 4 * n / max(time.process_time() - t, 1e-9)
    return {"deals_per_second": deals, "draws_per_second": draws, "cards_per_deal": cards,
            "fraction": deals * cards / draws}


def tree(rev: str | None, tmp: Path) -> Path:
    """The directory holding ``rev``'s simkit (this working tree for ``None``)."""
    if rev is None:
        return ROOT
    out = tmp / rev
    if not out.exists():
        got = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "simkit"],
                             capture_output=True)
        if got.returncode:
            print(f"bench_commits: no simkit at revision {rev!r}: "
                  f"{got.stderr.decode().strip().splitlines()[-1]}", file=sys.stderr)
            sys.exit(2)
        out.mkdir(parents=True)
        subprocess.run(["tar", "-x", "-C", str(out)], input=got.stdout, check=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("specs", nargs="*", help="GAME or GAME@REV (a git revision)")
    ap.add_argument("-n", default="3e6", help="deals timed a round (default 3e6)")
    ap.add_argument("--reps", type=int, default=5, help="rounds (default 5)")
    ap.add_argument("--json", default=None, help="also write the results to this JSON file")
    ap.add_argument("--worker", nargs=2, metavar=("PATH", "GAME"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    n = int(float(args.n))
    if args.worker:
        print(json.dumps(worker(*args.worker, n)))
        return
    if not args.specs:
        ap.error("give at least one GAME or GAME@REV")
    with tempfile.TemporaryDirectory(prefix="simkit-bench-") as tmp:
        specs = []
        for sp in args.specs:
            game, _, rev = sp.partition("@")
            specs.append((sp, game, tree(rev or None, Path(tmp))))
        caches = {sp: tempfile.mkdtemp(prefix="numba-", dir=tmp) for sp, _, _ in specs}
        runs: dict[str, list[dict]] = {sp: [] for sp, _, _ in specs}
        for _ in range(args.reps):
            for sp, game, path in specs:
                env = dict(os.environ, NUMBA_CACHE_DIR=caches[sp], PYTHONPATH=str(path))
                p = subprocess.run([sys.executable, __file__, "--worker", str(path), game,
                                    "-n", str(n)], env=env, capture_output=True, text=True,
                                   cwd=tmp)
                if p.returncode:
                    sys.exit(f"{sp}: the timing process failed:\n{p.stderr.strip()}")
                runs[sp].append(json.loads(p.stdout.strip().splitlines()[-1]))
    first = args.specs[0]
    report = {}
    for sp in args.specs:
        fr = [x["fraction"] for x in runs[sp]]
        ratio = [a["fraction"] / b["fraction"] for a, b in zip(runs[sp], runs[first])]
        report[sp] = {"fraction_median": statistics.median(fr), "fraction_min": min(fr),
                      "fraction_max": max(fr), f"ratio_to_{first}": statistics.median(ratio),
                      "deals_per_second_median": statistics.median(
                          x["deals_per_second"] for x in runs[sp]),
                      "cards_per_deal": runs[sp][0]["cards_per_deal"], "runs": runs[sp]}
        print(f"{sp:32s} fraction {statistics.median(fr):.4f} [{min(fr):.4f}, {max(fr):.4f}]  "
              f"x{statistics.median(ratio):.3f} of {first}  "
              f"{report[sp]['deals_per_second_median']:,.0f} deals/s  "
              f"{report[sp]['cards_per_deal']:.3f} cards a deal")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"n": n, "reps": args.reps, "specs": report}, f, indent=1)


if __name__ == "__main__":
    main()
