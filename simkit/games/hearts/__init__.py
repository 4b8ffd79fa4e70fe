"""Hearts («Червы») and its variants: two players, Omnibus, Cancellation (5-11 players).

Rules: ``002_17c4cc3dde05b547.txt`` lines 210-234 (see :mod:`simkit.games.hearts.rules` for the
readings).  Built on :mod:`simkit.engines.tricks`.

Per-hand and per-game metrics come from two units (the ``unit`` rules option): with
``unit=hand`` (the default) each deal of a run is one hand and the metrics are points per hand,
zero-point hands and moons; with ``unit=game`` each deal is a whole game to ``target`` and the
metrics are the game-win rate and final score per seat, hands and moons per game.  A game is the
independent sample behind a win rate's error bar, which is why it is a deal of its own.
"""
from __future__ import annotations

import numpy as np

from simkit.core import cards as C
from simkit.core.registry import GameSpec, parse_strategies
from simkit.errors import SimkitError
from simkit.games.hearts import engine
from simkit.games.hearts.rules import HeartsRules
from simkit.games.hearts.strategies import STRATEGIES, encode

VERSION = 1
DIRECTIONS = {"none": engine.D_NONE, "left": engine.D_LEFT, "right": engine.D_RIGHT,
              "across": engine.D_ACROSS}


def _prepare(rules, strategies):
    if len(strategies) != rules.players:
        raise SimkitError(f"hearts with {rules.players} players needs {rules.players} strategies, "
                          f"not {len(strategies)}")
    return engine.encode(rules) + encode(strategies)


def run_chunk(rules, strategies, state, n, rows=False, log=None):
    """Play ``n`` deals from xoshiro ``state``; returns ``(acc[2, M], rows[n, M] or None)``.

    ``log``, an ``int16[n, width]`` array (:func:`engine.log_layout`), receives every deal's
    moves (the first hand of each game with ``unit=game``)."""
    M = len(engine.metrics(rules))
    acc = np.zeros((2, M))
    out = np.zeros((n if rows else 0, M))
    lg = np.zeros((0, 1), np.int16) if log is None else log
    engine.simulate(*_prepare(rules, strategies), state, n, acc, out, lg)
    return acc, (out if rows else None)


def play_stacked(rules, strategies, cards, direction=None, log=False):
    """Play one hand with the cards dealt in the order given, card ``j`` to seat ``j % players``
    (``"2c 3c ..."`` or codes; the joker is ``Jo``).  ``direction``: ``left``, ``right``,
    ``across`` or ``none`` (default: none unless ``rules.passing`` names a fixed one).  Returns the
    hand's metrics by name, and the move log too with ``log=True``."""
    if rules.unit != "hand":
        raise SimkitError("play_stacked plays one hand: use unit=hand")
    if isinstance(strategies, (list, tuple)) and (not strategies or isinstance(strategies[0], str)):
        strategies = parse_strategies(SPEC, rules, list(strategies))
    deck = C.parse(cards) if isinstance(cards, str) else np.asarray(cards, np.int64)
    deck = np.where(deck >= 64, engine.JOKER, deck).astype(np.uint8)
    need = rules.players * rules.hand_size
    if len(deck) < need:
        raise SimkitError(f"a stacked hand needs {need} cards, not {len(deck)}")
    if direction is None:
        direction = rules.passing if rules.passing in DIRECTIONS else "none"
    if direction not in DIRECTIONS:
        raise SimkitError(f"unknown direction {direction!r}: use left, right, across or none")
    cfg, pts, needt, _, tr, st, kinds, thr = _prepare(rules, strategies)
    names = [m.name for m in engine.metrics(rules)]
    rows = np.zeros((1, len(names)))
    lg = np.zeros((1, engine.log_layout(rules)["width"]), np.int16)
    engine.simulate(cfg, pts, needt, deck, tr, st, kinds, thr, np.ones(4, np.uint64), 1,
                    np.zeros((2, len(names))), rows, lg, True, DIRECTIONS[direction])
    res = dict(zip(names, rows[0]))
    return (res, lg[0]) if log else res


def cards_per_deal(rules, strategies, state, n) -> float:
    """Mean cards dealt per deal, measured over ``n`` deals."""
    M = len(engine.metrics(rules))
    cards = engine.simulate(*_prepare(rules, strategies), state, n, np.zeros((2, M)),
                            np.zeros((0, M)), np.zeros((0, 1), np.int16))
    return cards / n


SPEC = GameSpec(
    name="hearts", version=VERSION, rules=HeartsRules, strategies=STRATEGIES,
    default_strategy="heuristic", seats=lambda r: r.players, metrics=engine.metrics,
    run_chunk=run_chunk,
    presets={"text": {},
             "openspiel": {"passing": "random", "pass_cards": 3, "no_points_first_trick": True,
                           "hearts_broken": True, "qs_breaks_hearts": True, "moon": "add"},
             "two_player": {"players": 2},
             "omnibus": {"omnibus": True, "moon": "best"},
             "cancellation": {"players": 6},
             "game": {"unit": "game"}},
    title="Hearts (Червы): four players, two-player, Omnibus, Cancellation",
    source="002_17c4cc3dde05b547.txt:210-234",
    bench_cards_per_deal=cards_per_deal, bench_n=500_000)
