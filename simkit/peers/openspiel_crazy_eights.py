"""Crazy Eights under uniformly random play: simkit (preset ``openspiel``) against open-spiel's
``crazy_eights`` (its defaults: five players, one deck, at most five draws a turn, passing
allowed once a player may not draw, the game over after 100 cards played or six passes in a row
with the stock empty, no special cards, no reshuffle, a starter eight put back and redrawn).

What the two engines define alike, and so what is compared: the number of cards played and of
cards drawn by players in a deal, the share of deals in which someone goes out, and who goes out
by seat counted from the first player (open-spiel's dealer is a chance outcome and the player
after him plays first; simkit's p1 plays first).  Their scores are not compared: open-spiel
returns minus each player's own hand (an ace counting 10, a bug-like ``card + 2`` for the
rest), nothing to the winner, while the text's winner scores the others' cards (112).

Random play is the same on both sides: each decision uniform among the legal actions (the
playable cards, the draw when it is allowed, the pass when it is allowed), the suit named with an
eight uniform.  open-spiel's games are played by random choices in Python (its history is needed
to find the first player); ``scripts/bench_crazy_eights.py`` times its C++ random bots.

    python scripts/compare_crazy_eights_openspiel.py --os-games 5000 --simkit-games 500000
"""
from __future__ import annotations

import math
import random

import numpy as np

PLAYERS = 5


def quantities(K=PLAYERS):
    return ["plays", "draws", "someone_out"] + [f"out_seat{k + 1}" for k in range(K)]


def openspiel_values(n: int, seed: int = 0) -> dict[str, np.ndarray]:
    """Per-game values of the compared quantities over ``n`` random open-spiel games."""
    import pyspiel
    game = pyspiel.load_game("crazy_eights")
    K = game.num_players()
    rng = random.Random(seed)
    out = {q: np.zeros(n) for q in quantities(K)}
    for i in range(n):
        st = game.new_initial_state()
        first = None
        plays = draws = 0
        while not st.is_terminal():
            if st.is_chance_node():
                outs = st.chance_outcomes()
                acts, probs = zip(*outs)
                a = rng.choices(acts, probs)[0]
                if first is None:
                    first = (a - 52 + 1) % K   # the dealer's decision: the next plays first
            else:
                a = rng.choice(st.legal_actions())
                if a < 52:
                    plays += 1
                elif a == 52:
                    draws += 1
            st.apply_action(a)
        ret = np.asarray(st.returns())
        out["plays"][i] = plays
        out["draws"][i] = draws
        zero = np.flatnonzero(ret == 0.0)      # only an empty hand scores 0
        if len(zero) == 1:
            out["someone_out"][i] = 1
            out[f"out_seat{(zero[0] - first) % K + 1}"][i] = 1
    return out


def simkit_values(n: int, seed: int = 0) -> dict[str, np.ndarray]:
    import simkit
    res = simkit.run("crazy_eights(preset=openspiel)", n=n, seed=seed, rows=True,
                     strategies=[f"p{k}=random" for k in range(1, PLAYERS + 1)], progress=False)
    r = res.rows
    out = {"plays": r["plays"].to_numpy(), "draws": r["draws"].to_numpy()}
    # a player who went out: won and the deal was not blocked
    notb = 1.0 - r["blocked"].to_numpy()
    out["someone_out"] = notb
    for k in range(PLAYERS):
        out[f"out_seat{k + 1}"] = r[f"p{k + 1}_win"].to_numpy() * notb
    return out


def compare(os_games: int = 2000, simkit_games: int = 200_000, seed: int = 0):
    """A table (list of dicts): quantity, both means and SEs, and ``z``."""
    a = simkit_values(simkit_games, seed)
    b = openspiel_values(os_games, seed)
    rows = []
    for q in quantities():
        ma, mb = a[q].mean(), b[q].mean()
        sa = a[q].std(ddof=1) / math.sqrt(len(a[q]))
        sb = b[q].std(ddof=1) / math.sqrt(len(b[q]))
        se = math.hypot(sa, sb)
        rows.append({"quantity": q, "simkit": ma, "simkit_se": sa, "openspiel": mb,
                     "openspiel_se": sb, "z": (ma - mb) / se if se > 0 else 0.0})
    return rows
