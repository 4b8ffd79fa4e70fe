"""Klaberjass for two (Клабор / Деберц).  Rules: ``001_4b506a693298ed3d.txt`` lines 1-119; the
readings chosen are in :mod:`simkit.games.klaberjass.rules`, the kernel in
:mod:`simkit.games.klaberjass.engine`, the strategies in
:mod:`simkit.games.klaberjass.strategies`.

One unit (the runner's "deal") is a short game (one played deal, plus any redeals) or, with
``form=301`` / ``form=501``, a whole long game.  p1 has the first word in every unit's first deal
unless ``opener`` says otherwise, so with the same strategy on both seats ``p1_win - p2_win`` is
the first-bidder advantage.  For "bait probability against hand strength" ask the short game for
rows: each row has the bidder's strength and whether he was baited.

A unit's move log (:func:`simkit.core.play.playthrough`, :func:`play_logged`) is one row per unit
(:func:`engine.log_columns`); :func:`deal_log` turns such rows into one row per played deal.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simkit.core import cards as C
from simkit.core import play
from simkit.core.registry import GameSpec, resolve_strategies
from simkit.core.rng import stream_state
from simkit.games.klaberjass import engine, replay
from simkit.games.klaberjass.rules import KlaberjassRules
from simkit.games.klaberjass.strategies import STRATEGIES, encode

VERSION = 1
DECK = C.deck(32)


def prepare(rules, strategies, stacked=None, start=None, more_deals=None):
    """The kernel's records: the rules, both seats' strategies, the deck and the buffers.

    ``stacked``: the cards of a unit's first deal in dealing order (checked by core), and
    ``more_deals`` the cards of the deals after it (redeals, a long game's next deals; checked
    deal by deal by :func:`play_stacked`).  ``start``: scores p1, p2 and a hanging bait to start
    every unit from (tests; default 0; the open-hand bonus is added to it)."""
    if stacked is None:
        deck = DECK
    else:
        deck = np.concatenate([np.asarray(stacked, np.int64),
                               np.asarray([] if more_deals is None else more_deals, np.int64)])
    return (engine.game_rules(rules), encode(strategies),
            engine.work(deck, stacked is not None, start))


def deal_log(log) -> pd.DataFrame:
    """Move-log rows (``int64[n, width]``, one per unit, :func:`engine.log_columns`) as one row
    per played deal (:data:`engine.LOG_COLUMNS`, ``unit`` the row it came from)."""
    return pd.DataFrame(engine.deal_rows(log), columns=engine.LOG_COLUMNS)


def play_logged(rules, strategies=None, n=1000, seed=0, chunk=0, start=None):
    """Play ``n`` units of chunk ``chunk`` of ``seed`` and return ``(rows DataFrame (one per
    unit), log DataFrame (one per played deal, :data:`engine.LOG_COLUMNS`))``."""
    strategies = resolve_strategies(SPEC, rules, strategies)
    R, S, W = prepare(rules, strategies, start=start)
    names = [m.name for m in engine.metrics(rules)]
    blocks = engine.log_deals(rules)
    while True:
        acc = np.zeros((2, len(names)))
        out = np.zeros((n, len(names)))
        log = np.zeros((n, len(engine.log_columns(rules, blocks))), np.int64)
        engine.run_deals(R, S, W, stream_state(seed, chunk), n, acc, out, log)
        most = int(log[:, engine.H.played].max()) if n else 0
        if most <= blocks:
            break
        blocks = most  # a long game played more deals than the row had room for: again, wider
    return pd.DataFrame(out, columns=names), deal_log(log)


def play_stacked(rules, strategies, cards, start=None, log=False):
    """Play one unit with the cards coming in the order given (``"As Ah 10s ..."`` or codes).

    Dealing order per deal (20 cards): the first word's three, the other's three, the first's
    three, the other's three, the upcard, the first's three, the other's three, the bottom card;
    a redeal or the next deal of a long game takes the next 20, from a fresh pack (a unit that
    runs out of cards ends unfinished).  Each deal's cards are checked against the pack: a
    repeated card or one not in the 32 is refused.  ``start``: scores (p1, p2) and a hanging bait
    to start from (tests; default 0).  Returns the unit's metrics by name, and with ``log`` also
    the deals' log (a DataFrame of :data:`engine.LOG_COLUMNS`).
    """
    deck = C.parse(cards) if isinstance(cards, str) else np.asarray(cards, np.int64)
    per = engine.CARDS_PER_DEAL
    for j in range(per, len(deck), per):
        play.check_stack(SPEC, rules, deck[j:j + per])
    got = play.play_stacked(SPEC, rules, strategies, deck[:per], log=log, start=start,
                            more_deals=deck[per:])
    if log:
        res, row = got
        return res, deal_log(row[None, :])
    return got


SPEC = GameSpec(
    name="klaberjass", version=VERSION, rules=KlaberjassRules, strategies=STRATEGIES,
    default_strategy="heuristic", seats=lambda r: 2, metrics=engine.metrics,
    prepare=prepare, kernel=engine.run_deals, pack=lambda r: DECK,
    log_columns=engine.log_columns, replay=replay.moves,
    presets={"short": {"form": "short"}, "long301": {"form": "301"}, "long501": {"form": "501"},
             "open150": {"form": "501", "open_hand": "p1", "open_bonus": 150},
             "open155": {"form": "501", "open_hand": "p1", "open_bonus": 155},
             "open160": {"form": "501", "open_hand": "p1", "open_bonus": 160}},
    preset_docs={"short": "the short game: one played deal (the default)",
                 "long301": "a long game to 301", "long501": "a long game to 501",
                 "open150": "a game to 501, p1 plays open-handed with a 150-point start",
                 "open155": "a game to 501, p1 plays open-handed with a 155-point start",
                 "open160": "a game to 501, p1 plays open-handed with a 160-point start"},
    title="Klaberjass for two (Клабор / Деберц)", source="001_4b506a693298ed3d.txt:1-119",
    bench_n=300_000, match={"form": "301"}, zero_sum=lambda r: ["p1_stakes", "p2_stakes"],
    objective=lambda r: ("stakes", True) if r.form == "short" else ("win", True),
    digest_runs=(("klaberjass(preset=long301)", ("p2=random",)),))
