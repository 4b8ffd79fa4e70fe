"""Two-hand Canasta's mixed baseline (issue 27): the payoff matrix of the baseline's
(``take_min2``, ``b3_pile``) pairs against each other on common deals, and its equilibrium.

Every ordered pair of grid points plays the same deals (p1 one point, p2 the other, both
otherwise the table's defaults); ``A[i, j]`` is p1's mean ``net`` (zero-sum: p2's is minus it).
In ``unit=hand`` p2 deals and p1 plays first, so the two seats play different games: the
equilibrium of ``A`` (the house's :func:`simkit.analysis.solve.zero_sum_equilibrium`) gives the
eldest's mixture (rows) and the dealer's (columns); the symmetrised ``(A - A.T) / 2`` (one
mixture for both seats) is printed too.  Pairs under ``--trim`` are dropped and the rest
renormalised.  ``--check`` measures, on other deals, the one-step changes (:data:`VARIANTS`) and
the grid's pure pairs in each seat against the default in both.

    PYTHONPATH=$PWD python scripts/canasta_two_hand_mix.py --n 10000 --seed 11 --out /tmp/m.npz
    PYTHONPATH=$PWD python scripts/canasta_two_hand_mix.py --check --n 20000 --seed 12
"""
from __future__ import annotations

import itertools
import time

import click
import numpy as np

from simkit.analysis.solve import zero_sum_equilibrium
from simkit.core.play import run_chunk
from simkit.core.registry import resolve_strategies
from simkit.core.rng import stream_state
from simkit.games import parse_game


def grid(t_values, b_values):
    return list(itertools.product(t_values, b_values))


def play_matrix(points, n, seed, extra=""):
    spec, rules = parse_game("canasta(preset=two_hand)")
    net = [m.name for m in spec.metrics(rules)].index("p1_net")
    k = len(points)
    d = np.zeros((k, k, n), np.float32)
    for i, j in itertools.product(range(k), range(k)):
        (t1, b1), (t2, b2) = points[i], points[j]
        st = resolve_strategies(spec, rules, [f"p1=baseline(take_min2={t1},b3_pile={b1}{extra})",
                                              f"p2=baseline(take_min2={t2},b3_pile={b2}{extra})"])
        _, rows, _ = run_chunk(spec, rules, st, stream_state(seed, 0), n, True)
        d[i, j] = rows[:, net]
    return d


def _mix(names, p):
    return ", ".join(f"{names[i]} {w:.4f}" for i, w in enumerate(p) if w > 1e-6)


def report(points, d, trim=0.05):
    a = d.mean(axis=2).astype(float)
    names = [f"{t}/{b}" for t, b in points]
    print("A: p1 (eldest, row) take_min2/b3_pile against p2 (dealer, column), p1's net a hand:")
    print("       " + " ".join(f"{c:>6}" for c in names))
    for i, r in enumerate(names):
        print(f"{r:>6} " + " ".join(f"{v:6.1f}" for v in a[i]))
    for j, c in enumerate(names):
        i = int(a[:, j].argmax())
        k = int(a[j].argmin())
        print(f"eldest's best reply to a dealer at {c}: {names[i]} ({a[i, j]:+.1f}); "
              f"dealer's to an eldest at {c}: {names[k]} ({-a[j, k]:+.1f})")
    value, x, y = zero_sum_equilibrium(a)
    print(f"equilibrium of A: value {value:.2f}; eldest {_mix(names, x)}; dealer {_mix(names, y)}")
    xt, yt = (np.where(p >= trim, p, 0) for p in (x, y))
    xt, yt = xt / xt.sum(), yt / yt.sum()
    n = d.shape[2]
    base = np.einsum("k,j,kjn->n", xt, yt, d)
    print(f"trimmed below {trim}: eldest {_mix(names, xt)}; dealer {_mix(names, yt)}; "
          f"value {base.mean():.2f}; in-sample gains of each pure pair against it (SE):")
    for i, c in enumerate(names):
        g1 = np.einsum("j,jn->n", yt, d[i]) - base
        g2 = base - np.einsum("k,kn->n", xt, d[:, i])
        print(f"  {c}: eldest {g1.mean():+7.1f} ({g1.std(ddof=1) / np.sqrt(n):4.1f}), "
              f"dealer {g2.mean():+7.1f} ({g2.std(ddof=1) / np.sqrt(n):4.1f})")
    s = (a - a.T) / 2
    vs, xs, _ = zero_sum_equilibrium(s)
    print(f"symmetrised (one mixture for both seats): value {vs:.3f}; {_mix(names, xs)}")
    return x, y


def deviations(variants, n, seed, seats=("p1", "p2")):
    """Each variant (a ``baseline(...)`` string) in one seat against the default in the other,
    paired per deal with the default in both: ``{(seat, variant): (gain, se)}`` in the varied
    seat's ``net`` a hand."""
    spec, rules = parse_game("canasta(preset=two_hand)")
    names = [m.name for m in spec.metrics(rules)]

    def nets(strats, seat):
        st = resolve_strategies(spec, rules, strats)
        _, rows, _ = run_chunk(spec, rules, st, stream_state(seed, 0), n, True)
        return rows[:, names.index(f"{seat}_net")]

    out = {}
    for seat in seats:
        base = nets([], seat)
        for v in variants:
            d = nets([f"{seat}={v}"], seat) - base
            out[seat, v] = (float(d.mean()), float(d.std(ddof=1) / np.sqrt(n)))
    return out


#: the one-step changes checked against the mixed default: each value of each acting lever
VARIANTS = ([f"baseline(take_min2={t})" for t in range(3, 8)]
            + [f"baseline(b3_pile={b})" for b in range(1, 6)]
            + [f"baseline(wild_gap={g})" for g in (0, 1, 2)]
            + [f"baseline(feed={f})" for f in (4, 6)]
            + ["baseline(b50=4)"]
            + [f"baseline(freeze={f})" for f in (0, 3, 5, 8)]
            + ["baseline(pairs=0)"]
            + ["random"])


@click.command()
@click.option("--n", default=10_000)
@click.option("--seed", default=11)
@click.option("--take", default="3,4,5,6")
@click.option("--b3", default="1,2,3,4,5")
@click.option("--out", default="")
@click.option("--check", is_flag=True, help="measure the one-step changes (VARIANTS) and the "
              "grid's pure pairs against the default instead")
def main(n, seed, take, b3, out, check):
    if check:
        pure = [f"baseline(take_min2={t},b3_pile={b})" for t in take.split(",")
                for b in b3.split(",")]
        t0 = time.time()
        res = deviations(VARIANTS + pure, n, seed)
        print(f"{len(res)} deviations x {n} hands, seed {seed}: {time.time() - t0:.0f} s")
        for (seat, v), (g, se) in res.items():
            print(f"{seat} {v:40s} {g:+8.2f} (SE {se:5.2f}, t {g / se if se else 0:+6.2f})")
        return
    points = grid([int(v) for v in take.split(",")], [int(v) for v in b3.split(",")])
    t0 = time.time()
    d = play_matrix(points, n, seed)
    print(f"{len(points) ** 2} cells x {n} hands, seed {seed}: {time.time() - t0:.0f} s")
    if out:
        np.savez_compressed(out, d=d, points=np.array(points))
    report(points, d)


if __name__ == "__main__":
    main()
