"""Hearts under uniformly random play: simkit (preset ``openspiel``) against open-spiel's hearts.

Both sides play every seat uniformly at random among the legal moves, passing included (open-spiel
draws the pass direction by chance, as the preset's ``passing=random`` does).  Per hand we record
the points of seat p1 (open-spiel's player 0), the mean points per player, whether someone shot the
moon and the share of players with zero points; means and standard errors come from the per-hand
values.  open-spiel's hands are played by its C++ uniform random bots (``pyspiel.evaluate_bots``)
or, with ``--loop python``, by random choices made in Python.

    python scripts/compare_hearts_openspiel.py --os-hands 20000 --simkit-hands 1000000

Used by ``tests/test_hearts.py`` and ``scripts/compare_hearts_openspiel.py``; ``pyspiel`` is
imported inside ``openspiel_points`` only (open-spiel is an optional test extra).
"""
from __future__ import annotations

import argparse
import math
import random

import numpy as np

QUANTITIES = ["p1_points", "p1_points_squared", "points_per_player", "moon_rate",
              "zero_point_rate"]


def _summaries(points: np.ndarray) -> dict[str, np.ndarray]:
    """Per-hand values of the compared quantities from ``points[n, 4]``."""
    total = points.sum(axis=1)
    return {"p1_points": points[:, 0],
            "p1_points_squared": points[:, 0] ** 2,       # the spread of a seat's points
            "points_per_player": points.mean(axis=1),
            "moon_rate": (total == 78).astype(float),     # a moon makes 0 + 3 * 26 (add)
            "zero_point_rate": (points == 0).mean(axis=1)}


def openspiel_points(n: int, seed: int = 0, loop: str = "cpp") -> np.ndarray:
    """``float64[n, 4]``: the points of each player in ``n`` random open-spiel hands."""
    import pyspiel
    game = pyspiel.load_game("hearts")
    out = np.zeros((n, 4))
    if loop == "cpp":
        bots = [pyspiel.make_uniform_random_bot(p, seed * 7919 + p) for p in range(4)]
        for i in range(n):
            ret = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed * 1_000_003 + i)
            out[i] = 26.0 - np.asarray(ret)                  # returns are 26 - points
    else:
        rng = random.Random(seed)
        for i in range(n):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
            out[i] = 26.0 - np.asarray(state.returns())
    return out


def simkit_points(n: int, seed: int = 0) -> np.ndarray:
    """``float64[n, 4]``: the points of each player in ``n`` random simkit hands (preset openspiel)."""
    from simkit.core.play import run_chunk
    from simkit.core.registry import parse_strategies
    from simkit.games import parse_game
    from simkit.core.rng import stream_state
    spec, rules = parse_game("hearts(preset=openspiel)")
    strats = parse_strategies(spec, rules, [f"p{k}=random" for k in range(1, 5)])
    names = [m.name for m in spec.metrics(rules)]
    cols = [names.index(f"p{k}_points") for k in range(1, 5)]
    parts, c, left = [], 0, n
    while left > 0:
        k = min(left, 1 << 16)
        _, rows, _ = run_chunk(spec, rules, strats, stream_state(seed, c), k, rows=True)
        parts.append(rows[:, cols])
        left -= k
        c += 1
    return np.concatenate(parts)


def compare(os_hands: int = 3000, simkit_hands: int = 200_000, seed: int = 0, loop: str = "cpp"):
    """A table (list of dicts): quantity, both means, both SEs and ``z`` (difference over the
    combined SE)."""
    a = _summaries(simkit_points(simkit_hands, seed))
    b = _summaries(openspiel_points(os_hands, seed, loop))
    out = []
    for q in QUANTITIES:
        ma, mb = a[q].mean(), b[q].mean()
        sa = a[q].std(ddof=1) / math.sqrt(len(a[q]))
        sb = b[q].std(ddof=1) / math.sqrt(len(b[q]))
        se = math.hypot(sa, sb)
        out.append({"quantity": q, "simkit": ma, "simkit_se": sa, "openspiel": mb,
                    "openspiel_se": sb, "z": (ma - mb) / se if se > 0 else 0.0})
    return out
