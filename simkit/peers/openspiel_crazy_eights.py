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

``starter_eight=True`` compares the same quantities over deals whose first turned starter is an
eight only (about one deal in thirteen), where simkit's ``starter_eight`` option acts: open-spiel
puts that eight back among the undealt cards and turns another, so it may lie anywhere in the
stock (simkit's ``starter_eight=shuffle``, set by the preset; ``bury`` would put it last).  One
more quantity says where it went: ``eight_at``, the cards taken from the stock after the eight
was put back (turned as starter or drawn) before that eight was taken again, or all the cards
taken if it never was (uniform over the stock's places when shuffled in: about 12; about 25,
the whole stock, when buried).  On open-spiel's side every game is drawn from that condition
exactly (the eight, one of the pack's eights at random, is held out of the deal and turned
first; the rest is dealt at random: a random pack conditioned on an eight as the 26th card); on
simkit's side the deals are played with their move log and those that logged a starter eight
put back are kept.

Random play is the same on both sides: each decision uniform among the legal actions (the
playable cards, the draw when it is allowed, the pass when it is allowed), the suit named with an
eight uniform.  open-spiel's games are played by random choices in Python (its history is needed
to find the first player); ``scripts/bench_crazy_eights.py`` times its C++ random bots.

    python scripts/compare_crazy_eights_openspiel.py --os-games 5000 --simkit-games 500000
    python scripts/compare_crazy_eights_openspiel.py --starter-eight --os-games 10000 \
        --simkit-games 400000
"""
from __future__ import annotations

import math
import random

import numpy as np

PLAYERS = 5
GAME = "crazy_eights(preset=openspiel)"
RANDOM = [f"p{k}=random" for k in range(1, PLAYERS + 1)]
CHUNK = 10_000   # simkit deals played with their move log at once (100 MB of log)


def quantities(K=PLAYERS, starter_eight=False):
    return (["plays", "draws", "someone_out"] + [f"out_seat{k + 1}" for k in range(K)]
            + (["eight_at"] if starter_eight else []))


def openspiel_values(n: int, seed: int = 0, starter_eight: bool = False) -> dict[str, np.ndarray]:
    """Per-game values of the compared quantities over ``n`` random open-spiel games (with
    ``starter_eight``, games whose first turned starter is an eight)."""
    import pyspiel
    game = pyspiel.load_game("crazy_eights")
    K = game.num_players()
    assert K <= 5, "one deck: the held-out eight is the pack's only copy"
    dealt = K * (7 if K == 2 else 5)
    rng = random.Random(seed)
    out = {q: np.zeros(n) for q in quantities(K, starter_eight)}
    for i in range(n):
        st = game.new_initial_state()
        first = None
        plays = draws = 0
        held = rng.choice([s + 4 * 6 for s in range(4)]) if starter_eight else -1  # rank 6: 8
        taken = -1        # stock cards taken since the held eight was put back (-1: not yet)
        while not st.is_terminal():
            if st.is_chance_node():
                acts, probs = zip(*st.chance_outcomes())
                if first is None:
                    a = rng.choices(acts, probs)[0]
                    first = (a - 52 + 1) % K   # the dealer's decision: the next plays first
                elif held >= 0 and taken < 0:  # the deal without the held eight, then it
                    if len(st.history()) == 1 + dealt:
                        a, taken = held, 0
                    else:
                        a = rng.choices(acts, [0.0 if x == held else p
                                               for x, p in zip(acts, probs)])[0]
                else:
                    a = rng.choices(acts, probs)[0]
                    if held >= 0 and a == held:
                        out["eight_at"][i] = taken
                        held = -1              # taken again: stop counting
                    elif held >= 0:
                        taken += 1
            else:
                a = rng.choice(st.legal_actions())
                if a < 52:
                    plays += 1
                elif a == 52:
                    draws += 1
            st.apply_action(a)
        if held >= 0:
            out["eight_at"][i] = taken         # never taken again: all the cards taken
        ret = np.asarray(st.returns())
        out["plays"][i] = plays
        out["draws"][i] = draws
        zero = np.flatnonzero(ret == 0.0)      # only an empty hand scores 0
        if len(zero) == 1:
            out["someone_out"][i] = 1
            out[f"out_seat{(zero[0] - first) % K + 1}"][i] = 1
    return out


def _eight_at(events) -> int:
    """``eight_at`` of one logged deal that starts with a starter eight put back."""
    from simkit.games.crazy_eights.engine import EV_BURY, EV_DRAW, EV_STARTER
    eight = events[0] & 63
    taken = 0
    for e in events[1:]:
        if (e >> 12) in (EV_BURY, EV_STARTER, EV_DRAW):
            if e & 63 == eight:
                return taken
            taken += 1
    return taken


def simkit_values(n: int, seed: int = 0, starter_eight: bool = False,
                  game: str = GAME) -> dict[str, np.ndarray]:
    """Per-deal values of the compared quantities over ``n`` random deals of ``game`` (with
    ``starter_eight``, those of ``n`` deals whose first turned starter is an eight)."""
    import simkit
    out: dict[str, np.ndarray] = {}
    if not starter_eight:
        r = simkit.run(game, n=n, seed=seed, rows=True, strategies=RANDOM, progress=False).rows
    else:
        import pandas as pd

        from simkit.core.play import play_logged
        from simkit.core.registry import parse_rules
        from simkit.games.crazy_eights.engine import EV_BURY
        spec = simkit.get_game("crazy_eights")
        rules = parse_rules(spec, game)
        first = spec.log_columns(rules).index("event_0")
        parts, at = [], []
        for chunk in range(-(-n // CHUNK)):
            rows, log = play_logged(spec, rules, RANDOM, min(CHUNK, n - chunk * CHUNK), seed,
                                    chunk)
            keep = (log[:, first] >> 12) == EV_BURY
            parts.append(rows[keep])
            at += [_eight_at(row[first:first + row[0]]) for row in log[keep]]
        r = pd.concat(parts, ignore_index=True)
        out["eight_at"] = np.array(at, float)
    out["plays"] = r["plays"].to_numpy()
    out["draws"] = r["draws"].to_numpy()
    # a player who went out: won and the deal was not blocked
    notb = 1.0 - r["blocked"].to_numpy()
    out["someone_out"] = notb
    for k in range(PLAYERS):
        out[f"out_seat{k + 1}"] = r[f"p{k + 1}_win"].to_numpy() * notb
    return out


def table(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> list[dict]:
    """Rows of quantity, both means and SEs, and ``z`` of values ``a`` (simkit) and ``b``
    (open-spiel)."""
    rows = []
    for q in b:
        ma, mb = a[q].mean(), b[q].mean()
        sa = a[q].std(ddof=1) / math.sqrt(len(a[q]))
        sb = b[q].std(ddof=1) / math.sqrt(len(b[q]))
        se = math.hypot(sa, sb)
        rows.append({"quantity": q, "simkit": ma, "simkit_se": sa, "openspiel": mb,
                     "openspiel_se": sb, "z": (ma - mb) / se if se > 0 else 0.0})
    return rows


def compare(os_games: int = 2000, simkit_games: int = 200_000, seed: int = 0,
            starter_eight: bool = False, game: str = GAME):
    """A table (list of dicts): quantity, both means and SEs, and ``z`` (with
    ``starter_eight``: over deals whose first starter is an eight; of ``simkit_games`` deals
    about one in thirteen is kept, every open-spiel game is one)."""
    return table(simkit_values(simkit_games, seed, starter_eight, game),
                 openspiel_values(os_games, seed, starter_eight))
