"""How strong a Hearts strategy is against random play: one seat against random players in every
other seat, as a paired difference with a standard error.

Per hand (``unit=hand``): the *edge* is the mean points of the random seats minus the points of
the tested seat, hand by hand (points are bad, so a positive edge means the tested seat does
better); the hand is the unit of the standard error.  Per game (``unit=game``): the edge is the
tested seat's game-win share minus ``1/K``, the share of a player no better than the others.
``z`` is the edge over its standard error.

    from simkit.games.hearts.study import against_random, VARIANTS
    against_random("hearts(players=2)", n=20_000, seed=1)

``scripts/hearts_against_random.py`` prints the table for every variant.
"""
from __future__ import annotations

import math

import numpy as np

from simkit.core.play import run_chunk
from simkit.core.registry import parse_strategies
from simkit.core.rng import stream_state

# every variant the game offers: the standard game, two players, Omnibus, Cancellation with
# 5..11 players, and whole games to 100 (four and two players)
VARIANTS = (["hearts", "hearts(preset=two_player)", "hearts(preset=omnibus)"]
            + [f"hearts(players={k})" for k in range(5, 12)]
            + ["hearts(unit=game)", "hearts(players=2,unit=game)"])


def rows(game: str, strategies, n: int, seed: int) -> tuple[list[str], np.ndarray]:
    """The per-deal metric rows of ``n`` deals (chunks of 2**16 from ``seed``'s stream)."""
    from simkit.games import parse_game
    spec, rules = parse_game(game)
    strats = parse_strategies(spec, rules, strategies)
    names = [m.name for m in spec.metrics(rules)]
    parts, c, left = [], 0, n
    while left > 0:
        k = min(left, 1 << 16)
        parts.append(run_chunk(spec, rules, strats, stream_state(seed, c), k, rows=True)[1])
        left -= k
        c += 1
    return names, np.concatenate(parts)


def against_random(game: str, n: int, seed: int, strategy: str = "heuristic",
                   seat: int = 1) -> dict:
    """``strategy`` in ``seat`` (1-based), random play in every other seat: the edge, its SE and
    ``z`` (see the module docstring), plus the seat's mean points per hand or game-win share and
    the moon rate (moons per game with ``unit=game``)."""
    from simkit.games import parse_game
    _, rules = parse_game(game)
    K = rules.players
    strategies = [f"p{k}={strategy if k == seat else 'random'}" for k in range(1, K + 1)]
    names, r = rows(game, strategies, n, seed)
    col = {m: i for i, m in enumerate(names)}
    others = [k for k in range(1, K + 1) if k != seat]
    if rules.unit == "game":
        mine = r[:, col[f"p{seat}_win"]]
        d = mine - 1.0 / K
        moons = r[:, col["moons_per_game"]]
        what = "win share - 1/K"
    else:
        mine = r[:, col[f"p{seat}_points"]]
        d = r[:, [col[f"p{k}_points"] for k in others]].mean(axis=1) - mine
        moons = r[:, col["moon_rate"]]
        what = "random seats' points - its points, per hand"
    se = d.std(ddof=1) / math.sqrt(n)
    return dict(game=game, strategy=strategy, n=n, seed=seed, edge=float(d.mean()), se=float(se),
                z=float(d.mean() / se) if se > 0 else math.inf, seat_mean=float(mine.mean()),
                seat_se=float(mine.std(ddof=1) / math.sqrt(n)), moons=float(moons.mean()),
                edge_is=what)


def self_play_moons(game: str, n: int, seed: int,
                    strategy: str = "heuristic") -> tuple[float, float]:
    """The moon rate (and its SE) with ``strategy`` in every seat."""
    from simkit.games import parse_game
    _, rules = parse_game(game)
    names, r = rows(game, [f"p{k}={strategy}" for k in range(1, rules.players + 1)], n, seed)
    m = r[:, names.index("moons_per_game" if rules.unit == "game" else "moon_rate")]
    return float(m.mean()), float(m.std(ddof=1) / math.sqrt(n))
