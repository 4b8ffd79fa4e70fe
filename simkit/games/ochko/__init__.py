"""Очко (21): a banker against 1-9 players. Rules: ``000_e1e7c8054592a022.txt`` lines 8-46."""
from __future__ import annotations

import numpy as np

from simkit.core import cards as C
from simkit.errors import SimkitError
from simkit.core.registry import GameSpec, parse_strategies
from simkit.games.ochko import engine
from simkit.games.ochko.rules import OchkoRules
from simkit.games.ochko.strategies import STRATEGIES, encode

VERSION = 1


def _prepare(rules, strategies):
    """The kernel's arguments before the RNG state: rules tables, players' stop tables, weights
    and deck."""
    tabs, w, deck = engine.encode(rules)
    ptab, hitp = encode(strategies, rules)
    K = len(strategies)
    return tabs, ptab.reshape(K, -1), hitp.reshape(K, -1), w, deck


def run_chunk(rules, strategies, state, n, rows=False):
    """Play ``n`` rounds from xoshiro ``state``; returns ``(acc[2, M], rows[n, M] or None)``."""
    M = len(engine.metrics(rules))
    acc = np.zeros((2, M))
    out = np.zeros((n if rows else 0, M))
    engine.simulate(*_prepare(rules, strategies), state, n, acc, out)
    return acc, (out if rows else None)


def play_stacked(rules, strategies, cards) -> dict[str, float]:
    """Play one round with the cards coming in the order given (``"As Ah 10s ..."`` or codes).

    Cards go one to each player, then the banker's first, then each player's draws, then the
    banker's.  Returns the round's metrics by name (a stacked deck that runs out makes the next
    one to draw stand).
    """
    if isinstance(strategies, (list, tuple)) and strategies and isinstance(strategies[0], str):
        strategies = parse_strategies(SPEC, rules, strategies)
    deck = C.parse(cards) if isinstance(cards, str) else np.asarray(cards, np.uint8)
    if len(deck) > 64:
        raise SimkitError(f"a stacked deck holds at most 64 cards, not {len(deck)}")
    tabs, ptab, hitp, w, _ = _prepare(rules, strategies)
    names = [m.name for m in engine.metrics(rules)]
    rows = np.zeros((1, len(names)))
    engine.simulate(tabs, ptab, hitp, w, deck, np.ones(4, np.uint64), 1,
                    np.zeros((2, len(names))), rows, True)
    return dict(zip(names, rows[0]))


def cards_per_round(rules, strategies, state, n) -> float:
    """Mean cards drawn per round, measured over ``n`` rounds (the benchmark's ceiling)."""
    M = len(engine.metrics(rules))
    cards = engine.simulate(*_prepare(rules, strategies), state, n, np.zeros((2, M)),
                            np.zeros((0, M)))
    return cards / n


def _exact(rules, strategies, grid_axes):
    from simkit.games.ochko.exact import analyze  # numba recursions: compile only when asked
    return analyze(rules, strategies, grid_axes)


SPEC = GameSpec(
    name="ochko", version=VERSION, rules=OchkoRules, strategies=STRATEGIES,
    default_strategy="stand_at(17)", seats=lambda r: r.players, metrics=engine.metrics,
    run_chunk=run_chunk,
    presets={"text1": {"values": "text1"}, "text2": {"values": "standard"},
             "casino_like": {"deck": 52, "ties": "push"}},
    title="Очко / 21: banker against players", source="000_e1e7c8054592a022.txt:8-46",
    bench_cards_per_deal=cards_per_round, exact=_exact)
