"""Digest a fixed set of seeded runs per game, to show that a refactor kept every number.

    python scripts/digest.py -o before.json          # on the old commit
    python scripts/digest.py -o after.json --against before.json   # on the new one

For every registered game the set is: the default configuration; each preset; each strategy kind
with its default parameters in seat ``p1`` (the other seats at the game's default); a few
game-specific extras listed in :data:`EXTRA`.  Each run is ``n`` deals at a fixed seed with
per-deal rows kept; the digest of a run is the SHA-256 of its table's estimates (mean, se,
interval, n) and of its per-deal rows, as raw float64 bytes.  A run that fails (say, a strategy
kind whose defaults do not play) is recorded as its error text, so that a fix shows up as a change.
``--against`` prints which runs moved.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys

import numpy as np

import simkit
from simkit.errors import SimkitError

N = 12_000  # three chunks of 4096 (the last one short): chunk order and the short chunk both count
SEED = 7
EXTRA = {
    "ochko": [("ochko(players=3,deck=52)", ["p1=stand_at(15)", "p2=random(0.3)"]),
              ("ochko(bonus_hands=true,ties=push,banker_stop=16)", [])],
    "ochko_session": [("ochko_session(players=2)", ["p1=vabank", "p2=fraction(0.2)"])],
    "gin": [("gin(unit=match)", ["p1=threshold(5)"]), ("gin(preset=gra)", ["p1=careful", "p2=tracker"])],
    "klaberjass": [("klaberjass(preset=long301)", ["p2=random"])],
    "durak": [("durak(form=long5,unit=match)", ["p1=random"]),
              ("durak(form=super_short,hand_cap=empty_stock)", ["p1=random", "p2=random"]),
              ("durak", ["p1=exact(exact=6)"])],
    "oklahoma": [("oklahoma(players=4,pile_take=layoff,min_natural=0)",
                  ["p1=baseline(hold=1,qs=0)", "p3=random"]),
                 ("oklahoma(stock_end=reshuffle,final_discard=false)", ["p2=baseline(feed=3)"])],
    "piquet": [("piquet(unit=partie)", ["p2=random"]),
               ("piquet(unit=game,tricks=flat,void_suit=true)", ["p1=random"]),
               ("piquet", ["p1=exact(exact=4)", "p2=baseline(take=3,sink=10)"])],
    "hearts": [("hearts(players=6,preset=cancellation)", ["p1=moon"]),
               ("hearts(preset=openspiel)", [f"p{k}=random" for k in range(1, 5)])],
    "crazy_eights": [("crazy_eights(players=4,preset=optional)", ["p2=random"]),
                     ("crazy_eights(preset=openspiel)", [f"p{k}=random" for k in range(1, 6)])],
    "fan_tan": [("fan_tan(players=7,deal_from=right)", ["p1=random", "p3=block"]),
                ("fan_tan(preset=free_pass)", ["p1=block", "p2=random"])],
    "stovkahra": [("stovkahra(unit=game,gather=played,deal_end=higher)", ["p2=random", "p4=random"]),
                  ("stovkahra(unit=series,seven_bonuses=false)", ["p1=baseline(subtract_at=2)"])],
    "handjass": [("handjass(players=3)", ["p1=random(b=0.5)", "p3=random"]),
                 ("handjass(unit=game,players=3,extra_per_potato=true)", ["p2=random"])],
    "old_maid": [("old_maid(players=2)", []), ("old_maid(players=7,starter=random,extra=last)", [])],
    "thirty_one": [("thirty_one(players=2,table_source=after_deal)", ["p1=random"]),
                   ("thirty_one(preset=draw52,players=6)", ["p2=random"]),
                   ("thirty_one(unit=game,players=3)", ["p1=baseline(knock=27)"])],
    "thirty_one_bank": [("thirty_one_bank(punters=3,unit=talia)", ["p1=count", "p2=random(0.3)"]),
                        ("thirty_one_bank(punters=4,decks=2,short_pack=stand,both31=push)", [])],
}


def runs_for(name, spec):
    out = [(name, [])]
    out += [(f"{name}(preset={p})", []) for p in spec.presets]
    out += [(name, [f"p1={k}"]) for k in spec.strategies]
    out += EXTRA.get(name, [])
    return out


def digest(game: str, strategies: list[str], n: int, seed: int) -> str:
    try:
        res = simkit.run(game, n=n, seed=seed, strategies=strategies, rows=True, progress=False)
    except SimkitError as e:
        return "error: " + str(e)
    t = res.table()
    h = hashlib.sha256()
    h.update(",".join(t["metric"].astype(str)).encode())
    for col in ("mean", "se", "ci_low", "ci_high", "n"):
        h.update(np.ascontiguousarray(t[col].to_numpy(np.float64)).tobytes())
    rows = res.rows.drop(columns=["config", "deal"])
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
    a = ap.parse_args(argv)
    out = {}
    for name, spec in simkit.games().items():
        if a.games and name not in a.games:
            continue
        for game, strats in runs_for(name, spec):
            key = game + " " + " ".join(strats)
            out[key.strip()] = d = digest(game, strats, a.n, a.seed)
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
