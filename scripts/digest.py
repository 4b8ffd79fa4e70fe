"""Digest a fixed set of seeded runs per game, to show that a refactor kept every number.

    python scripts/digest.py -o before.json          # on the old commit
    python scripts/digest.py -o after.json --against before.json   # on the new one

For every registered game the set is: the default configuration; each preset; each strategy kind
with its default parameters in seat ``p1`` (the other seats at the game's default); the game's
own extras, ``GameSpec.digest_runs`` (kept in the game's folder, so that adding a game does not
touch this script).  Each run is ``n`` deals at a fixed seed with per-deal rows kept; the digest
of a run is the SHA-256 of its table's estimates (mean, se, interval, n) and of its per-deal
rows, as raw float64 bytes.  A run that fails (say, a strategy
kind whose defaults do not play) is recorded as its error text, so that a fix shows up as a change.
``--against`` prints which runs moved; ``--without PATTERN...`` leaves new metrics out, so that a
change that only adds metrics shows the old ones unmoved.
"""
from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import sys

import numpy as np

import simkit
from simkit.errors import SimkitError

N = 12_000  # three chunks of 4096 (the last one short): chunk order and the short chunk both count
SEED = 7


def runs_for(name, spec):
    out = [(name, [])]
    out += [(f"{name}(preset={p})", []) for p in spec.presets]
    out += [(name, [f"p1={k}"]) for k in spec.strategies]
    out += [(game, list(strats)) for game, strats in spec.digest_runs]
    return out


def digest(game: str, strategies: list[str], n: int, seed: int, without=()) -> str:
    try:
        res = simkit.run(game, n=n, seed=seed, strategies=strategies, rows=True, progress=False)
    except SimkitError as e:
        return "error: " + str(e)
    t, rows = res.table(), res.rows
    if without:  # metrics added since the digest compared with: leave them out of both parts
        def kept(name):
            return not any(fnmatch.fnmatchcase(name, p) for p in without)
        t = t[[kept(m) for m in t["metric"].astype(str)]]
        rows = rows[[c for c in rows.columns if kept(c)]]
    h = hashlib.sha256()
    h.update(",".join(t["metric"].astype(str)).encode())
    for col in ("mean", "se", "ci_low", "ci_high", "n"):
        h.update(np.ascontiguousarray(t[col].to_numpy(np.float64)).tobytes())
    rows = rows.drop(columns=["config", "deal"])
    h.update(",".join(rows.columns).encode())
    h.update(np.ascontiguousarray(rows.to_numpy(np.float64)).tobytes())
    return h.hexdigest()[:16]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-o", "--out", help="write the digests here (JSON)")
    ap.add_argument("--against", help="a digest file to compare with")
    ap.add_argument("--games", nargs="*", help="only these games")
    ap.add_argument("-n", type=int, default=N)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--without", nargs="*", default=(), metavar="PATTERN",
                    help="leave out metrics (table rows and per-deal columns, hidden ones too) "
                         "matching these shell patterns: a change that only adds metrics then "
                         "keeps the digests of the ones that were there")
    a = ap.parse_args(argv)
    out = {}
    for name, spec in simkit.games().items():
        if a.games and name not in a.games:
            continue
        for game, strats in runs_for(name, spec):
            key = game + " " + " ".join(strats)
            out[key.strip()] = d = digest(game, strats, a.n, a.seed, a.without)
            print(f"{d:>16}  {key}", flush=True)
    if a.out:
        with open(a.out, "w") as f:
            json.dump(out, f, indent=1, ensure_ascii=False)
    if a.against:
        with open(a.against) as f:
            old = json.load(f)
        moved = [k for k in old if k in out and old[k] != out[k]]
        missing = [k for k in old if k not in out]
        print(f"\n{len(old) - len(moved) - len(missing)} of {len(old)} runs identical; "
              f"{len(moved)} moved; {len(missing)} not run")
        for k in moved:
            print(f"  moved: {k}: {old[k]} -> {out[k]}")
        return 1 if moved else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
