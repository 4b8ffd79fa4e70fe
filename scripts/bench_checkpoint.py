"""What one checkpoint of a large sweep costs: format 1 (chunk sums as JSON in the Parquet
footer) against format 2 (chunk sums as data in ``X.chunks.parquet``).

    python scripts/bench_checkpoint.py [--points 2000] [--chunks 64] [--metrics 8]

Made-up aggregates of ``points`` configurations x ``chunks`` chunks x ``metrics`` metrics (the
issue 31 case: a 2,000-point sweep of 64 chunks a point) are written as a results file both
ways, then read back; the report gives seconds, megabytes and peak traced memory (Python
allocations, from a second traced call) of each.
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time
import tracemalloc

import numpy as np
import pandas as pd

from simkit.core import runner as R
from simkit.core import store


def measure(fn):
    """Seconds (untraced), then peak traced megabytes (a second call under tracemalloc)."""
    t = time.perf_counter()
    try:
        out = fn()
    except Exception as e:  # noqa: BLE001 - a format that cannot read its own file says so
        out = f"{type(e).__name__}: {str(e)[:80]}"
    dt = time.perf_counter() - t
    tracemalloc.start()
    try:
        fn()
    except Exception:  # noqa: BLE001 - reported above
        pass
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return dt, peak / 1e6, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--points", type=int, default=2000)
    ap.add_argument("--chunks", type=int, default=64)
    ap.add_argument("--metrics", type=int, default=8)
    a = ap.parse_args()
    rng = np.random.default_rng(0)
    aggs = []
    for _ in range(a.points):
        agg = R.Aggregates(a.metrics)
        for c in range(a.chunks):
            agg.add(c, 4096, rng.normal(size=(2, a.metrics)) * 1000)
        aggs.append(agg)
    plan = [(c, 4096) for c in range(a.chunks)]
    rows = a.points * a.metrics
    df = pd.DataFrame({"game": ["g"] * rows, "metric": ["m"] * rows, "mean": np.zeros(rows)})
    request = {"bench": True}
    with tempfile.TemporaryDirectory() as d:
        old, new = os.path.join(d, "old.parquet"), os.path.join(d, "new.parquet")

        def read(path):
            meta = store.read_table(path)[1]
            back = [R.Aggregates(a.metrics) for _ in aggs]
            store.load_chunks(path, meta, back, plan, request)
            return "read back"

        w1 = measure(lambda: store.write_table(old, df, {"format": 1, "complete": False,
                                                         "chunks": store.encode_chunks(aggs)}))
        r1 = measure(lambda: read(old))
        w2 = measure(lambda: store.write_results(new, df, {"complete": False}, aggs, request))
        r2 = measure(lambda: read(new))
        size1 = os.path.getsize(old) / 1e6
        size2 = (os.path.getsize(new) + os.path.getsize(store.chunks_name(new))) / 1e6
    print(f"{a.points} points x {a.chunks} chunks x {a.metrics} metrics")
    for name, w, r, size in (("format 1 (JSON footer)", w1, r1, size1),
                             ("format 2 (chunk file)", w2, r2, size2)):
        print(f"{name}: checkpoint {w[0]:.2f} s, peak {w[1]:.0f} MB; files {size:.1f} MB; "
              f"read {r[0]:.2f} s, peak {r[1]:.0f} MB: {r[2]}")


if __name__ == "__main__":
    main()
