"""Очко (21): a banker against 1-9 players. Rules: ``000_e1e7c8054592a022.txt`` lines 8-46."""
from __future__ import annotations

import numpy as np

from simkit.core import cards as C
from simkit.core.registry import GameSpec, parse_strategies
from simkit.games.ochko import engine
from simkit.games.ochko.rules import OchkoRules
from simkit.games.ochko.strategies import STRATEGIES, encode

VERSION = 1


def run_chunk(rules, strategies, state, n, rows=False):
    """Play ``n`` rounds from xoshiro ``state``; returns ``(acc[2, M], rows[n, M] or None)``."""
    rv, pay, vals, deck = engine.encode_rules(rules)
    kinds, params, tables = encode(strategies)
    M = len(engine.metrics(rules))
    acc = np.zeros((2, M))
    out = np.zeros((n if rows else 0, M))
    engine.simulate(rv, pay, vals, kinds, params, tables, deck, state, n, acc, out)
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
    rv, pay, vals, _ = engine.encode_rules(rules)
    kinds, params, tables = encode(strategies)
    names = [m.name for m in engine.metrics(rules)]
    acc = np.zeros((2, len(names)))
    ss = np.ones(1, np.uint64)
    hands = np.zeros((rules.players + 1, 4), np.int64)
    engine.play_round(rv, pay, vals, kinds, params, tables, deck, np.zeros(1, np.int64), ss, hands,
                      acc, np.zeros((0, len(names))), 0)
    return dict(zip(names, acc[0]))


def cards_per_round(rules, strategies, state, n) -> float:
    """Mean cards drawn per round, measured over ``n`` rounds (the benchmark's ceiling)."""
    rv, pay, vals, deck = engine.encode_rules(rules)
    kinds, params, tables = encode(strategies)
    return engine.count_cards(rv, pay, vals, kinds, params, tables, deck, state, n) / n


SPEC = GameSpec(
    name="ochko", version=VERSION, rules=OchkoRules, strategies=STRATEGIES,
    default_strategy="stand_at(17)", seats=lambda r: r.players, metrics=engine.metrics,
    run_chunk=run_chunk,
    presets={"text1": {"values": "text1"}, "text2": {"values": "standard"},
             "casino_like": {"deck": 52, "ties": "push"}},
    title="Очко / 21: banker against players", source="000_e1e7c8054592a022.txt:8-46",
    bench_cards_per_deal=cards_per_round)
