"""Klaberjass for two (Клабор / Деберц).  Rules: ``001_4b506a693298ed3d.txt`` lines 1-119; the
readings chosen are in :mod:`simkit.games.klaberjass.rules`, the kernel in
:mod:`simkit.games.klaberjass.engine`, the strategies in
:mod:`simkit.games.klaberjass.strategies`.

One unit (the runner's "deal") is a short game (one played deal, plus any redeals) or, with
``form=301`` / ``form=501``, a whole long game.  p1 has the first word in every unit's first deal
unless ``opener`` says otherwise, so with the same strategy on both seats ``p1_win - p2_win`` is
the first-bidder advantage.  For "bait probability against hand strength" ask the short game for
rows: each row has the bidder's strength and whether he was baited.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simkit.core import cards as C
from simkit.core.registry import GameSpec, parse_strategies
from simkit.core.rng import stream_state
from simkit.errors import SimkitError
from simkit.games.klaberjass import engine
from simkit.games.klaberjass.rules import KlaberjassRules
from simkit.games.klaberjass.strategies import STRATEGIES, encode

VERSION = 1
DECK = C.deck(32)


def _strategies(rules, strategies):
    """Parsed strategies for both seats from ``None``, ``["p1=..."]``, a dict or parsed ones."""
    if strategies is None or isinstance(strategies, dict) or len(strategies) == 0 \
            or isinstance(strategies[0], str):
        strategies = parse_strategies(SPEC, rules, strategies)
    if len(strategies) != 2:
        raise SimkitError(f"klaberjass needs two strategies (p1, p2), not {len(strategies)}")
    return strategies


def _init(start):
    init = np.zeros(3, np.int64)
    if start is not None:
        init[:len(start)] = start
    return init


def run_chunk(rules, strategies, state, n, rows=False):
    """Play ``n`` units from xoshiro ``state``; returns ``(acc[2, M], rows[n, M] or None)``."""
    acc = np.zeros((2, engine.NMET))
    out = np.zeros((n if rows else 0, engine.NMET))
    engine.simulate(*engine.encode(rules), encode(strategies), _init(None), DECK, state, n, acc,
                    out, np.zeros((0, engine.LOGW), np.int64))
    return acc, (out if rows else None)


def play_logged(rules, strategies=None, n=1000, seed=0, chunk=0, start=None):
    """Play ``n`` units of chunk ``chunk`` of ``seed`` and return ``(rows DataFrame (one per
    unit), log DataFrame (one per played deal, :data:`engine.LOG_COLUMNS`))``."""
    strategies = _strategies(rules, strategies)
    cap = n * (1 if rules.form == "short" else min(rules.max_deals, 64))
    acc = np.zeros((2, engine.NMET))
    out = np.zeros((n, engine.NMET))
    log = np.zeros((cap, engine.LOGW), np.int64)
    got = engine.simulate(*engine.encode(rules), encode(strategies), _init(start), DECK,
                          stream_state(seed, chunk), n, acc, out, log)
    if got > cap:
        log = np.zeros((got, engine.LOGW), np.int64)
        engine.simulate(*engine.encode(rules), encode(strategies), _init(start), DECK,
                        stream_state(seed, chunk), n, acc, out, log)
    names = [m.name for m in engine.metrics(rules)]
    return pd.DataFrame(out, columns=names), pd.DataFrame(log[:got], columns=engine.LOG_COLUMNS)


def play_stacked(rules, strategies, cards, start=None, log=False):
    """Play one unit with the cards coming in the order given (``"As Ah 10s ..."`` or codes).

    Dealing order per deal (20 cards): the first word's three, the other's three, the first's
    three, the other's three, the upcard, the first's three, the other's three, the bottom card;
    a redeal or the next deal of a long game takes the next 20.  ``start``: scores (p1, p2) and
    a hanging bait to start from (tests; default 0).  Returns the unit's metrics by name, and with
    ``log`` also the deals' log (a DataFrame of :data:`engine.LOG_COLUMNS`).
    """
    strategies = _strategies(rules, strategies)
    deck = C.parse(cards) if isinstance(cards, str) else np.asarray(cards, np.uint8)
    for j in range(0, len(deck) - len(deck) % 20, 20):
        d = deck[j:j + 20]
        if len(set(d.tolist())) != 20 or any((c & 15) < 7 or (c & 15) > 14 for c in d):
            raise SimkitError(f"stacked deal {j // 20 + 1}: 20 different cards 7..A needed, got "
                              f"{C.format_cards(d)}")
    acc = np.zeros((2, engine.NMET))
    rows = np.zeros((1, engine.NMET))
    cap = max(1, len(deck) // 20)
    lg = np.zeros((cap, engine.LOGW), np.int64)
    got = engine.simulate(*engine.encode(rules), encode(strategies), _init(start), deck,
                          np.ones(4, np.uint64), 1, acc, rows, lg, True)
    names = [m.name for m in engine.metrics(rules)]
    res = dict(zip(names, rows[0].tolist()))
    if log:
        return res, pd.DataFrame(lg[:got], columns=engine.LOG_COLUMNS)
    return res


def cards_per_deal(rules, strategies, state, n) -> float:
    """Cards drawn per unit (20 per deal, redeals included), measured over ``n`` units."""
    acc, _ = run_chunk(rules, strategies, state, n)
    names = [m.name for m in engine.metrics(rules)]
    return 20.0 * (acc[0, names.index("deals")] + acc[0, names.index("redeals")]) / n


SPEC = GameSpec(
    name="klaberjass", version=VERSION, rules=KlaberjassRules, strategies=STRATEGIES,
    default_strategy="heuristic", seats=lambda r: 2, metrics=engine.metrics, run_chunk=run_chunk,
    presets={"short": {"form": "short"}, "long301": {"form": "301"}, "long501": {"form": "501"},
             "open150": {"form": "501", "open_hand": "p1", "open_bonus": 150},
             "open155": {"form": "501", "open_hand": "p1", "open_bonus": 155},
             "open160": {"form": "501", "open_hand": "p1", "open_bonus": 160}},
    title="Klaberjass for two (Клабор / Деберц)", source="001_4b506a693298ed3d.txt:1-119",
    bench_cards_per_deal=cards_per_deal, bench_n=300_000)
