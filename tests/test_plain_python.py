"""NUMBA_DISABLE_JIT=1 runs the kernels as plain Python (to debug them with pdb or print); it
must give the numbers the compiled kernels give, deal for deal, for every game.

One subprocess plays a few deals of each game's default configuration, and of a preset of each
game, as plain Python; this process plays the same deals compiled; the per-deal metric rows and
a seeded playthrough must be equal.  It catches plain-Python breakage (numba intrinsics without a
Python body, attributes of dispatchers) and any difference between numba's and numpy's
arithmetic in the kernels (integer wraparound, casts, division).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np

from simkit.core import play
from simkit.core.registry import resolve_strategies
from simkit.core.rng import stream_state
from simkit.games import games as all_games, parse_game

N = 6  # deals per configuration (plain Python is 500-1,300 times slower)

# the subprocess imports this file and calls play_few, as the compiled side does
SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1])
from test_plain_python import play_few
print(json.dumps({g: play_few(g) for g in json.loads(sys.argv[2])}))
"""


def play_few(game: str) -> dict:
    """``N`` deals of ``game`` (per-deal metric rows) and a seeded playthrough, as JSON values."""
    spec, rules = parse_game(game, None)
    strats = resolve_strategies(spec, rules, None)
    _, rows, _ = play.run_chunk(spec, rules, strats, stream_state(5, 1), N, rows=True)
    return {"rows": rows.tolist(), "playthrough": repr(play.playthrough(spec, rules, None, seed=4))}


def configs() -> list[str]:
    out = []
    for name, spec in all_games().items():
        out.append(name)
        if spec.presets:
            out.append(f"{name}(preset={sorted(spec.presets)[-1]})")
    return out


def test_plain_python_equals_compiled():
    games = configs()
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", SIMKIT_NO_WARMUP="1")
    res = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", SCRIPT,
                          os.path.dirname(os.path.abspath(__file__)), json.dumps(games)],
                         capture_output=True, text=True, env=env, timeout=900)
    assert res.returncode == 0, res.stderr[-3000:]
    plain = json.loads(res.stdout)
    assert sorted(plain) == sorted(games)
    for game in games:
        compiled = play_few(game)
        rows = np.array(compiled["rows"])
        assert rows.shape[0] == N and np.isfinite(rows).all()
        np.testing.assert_array_equal(np.array(plain[game]["rows"]), rows, err_msg=game)
        assert plain[game]["playthrough"] == compiled["playthrough"], game
