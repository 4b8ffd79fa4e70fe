"""Piquet (the English club game, Rubicon piquet).  Rules: ``002_17c4cc3dde05b547.txt`` lines
144-198, a translation of D. Parlett's "Rules of Piquet"; the readings chosen are in
:mod:`simkit.games.piquet.rules`, the kernel in :mod:`simkit.games.piquet.engine` (tricks on
:mod:`simkit.engines.tricks`), the strategies in :mod:`simkit.games.piquet.strategies`, the exact
deal probabilities in :mod:`simkit.games.piquet.exact`.

Seats and Elder: p1 is Elder in the first deal of every unit, and the deal alternates (p2 is Elder
in the second deal, ...).  With ``unit=deal`` (the default) p1 is always Elder, so ``p1_win`` is
Elder's share of deals won and ``p1_net`` Elder's margin; ``pK_elder`` reports each seat's share
of the unit's deals as Elder, and ``elder_wins`` / ``elder_margin`` count by role in every unit.
"""
from __future__ import annotations

import numpy as np

from simkit.core import cards as C
from simkit.core import play
from simkit.core.registry import GameSpec
from simkit.engines.moves import split_event
from simkit.errors import SimkitError
from simkit.games.piquet import engine, replay
from simkit.games.piquet.rules import PiquetRules
from simkit.games.piquet.strategies import STRATEGIES, encode

VERSION = 2  # 2: the baseline's defaults (issue 30: ytake=8, keep_guards=0, run_long=0, weights
# 1/6/2/2); the strategy that sees the opponent's hand is named clairvoyant (exact: the old name)
DECK = engine.DECK


def canonical(deal, batch: int) -> np.ndarray:
    """One deal's 32 cards as dealt in batches of ``batch`` (2 or 3, Elder first, then the
    talon from its top) -> Elder's 12, Younger's 12, the talon (``batch=12``: unchanged)."""
    deal = np.asarray(deal, np.int64)
    if batch == 12:
        return deal
    e, y = [], []
    j = 0
    while len(e) < 12:
        e += list(deal[j:j + batch])
        y += list(deal[j + batch:j + 2 * batch])
        j += 2 * batch
    return np.array(e + y + list(deal[24:]), np.int64)


def prepare(rules, strategies, stacked=None, more_deals=None):
    """The kernel's records.  ``stacked``: a deal's 32 cards (Elder's twelve, Younger's twelve,
    the talon from its top, or in batches: ``deal_batch``); ``more_deals``: the cards of the
    unit's later deals, 32 each."""
    if stacked is None:
        deck = DECK
    else:
        cards = np.concatenate([np.asarray(stacked, np.int64),
                                np.asarray([] if more_deals is None else more_deals, np.int64)])
        deck = np.concatenate([canonical(cards[j:j + 32], rules.deal_batch)
                               for j in range(0, len(cards), 32)])
    exact = any(dict(s.params).get("exact", 0) for s in strategies)
    return (engine.game_rules(rules), encode(strategies),
            engine.work(deck, stacked is not None, exact))


def play_logged(rules, strategies=None, n=1000, seed=0, chunk=0):
    """Play ``n`` units of chunk ``chunk`` of ``seed``: ``(rows DataFrame, log int64[n, width])``."""
    return play.play_logged(SPEC, rules, strategies, n, seed, chunk)


def play_stacked(rules, strategies, cards, log=False):
    """Play one unit with the cards in the order given (32 a deal; see :func:`prepare`)."""
    deck = C.parse(cards) if isinstance(cards, str) else np.asarray(cards, np.int64)
    if len(deck) % 32:
        raise SimkitError(f"a stacked piquet deck is 32 cards a deal, not {len(deck)}")
    for j in range(32, len(deck), 32):
        play.check_stack(SPEC, rules, deck[j:j + 32])
    return play.play_stacked(SPEC, rules, strategies, deck[:32], log=log, more_deals=deck[32:])


def decode(entry: int) -> tuple[str, int, int, int]:
    """A log event as ``(kind name, seat, aux, card)`` (:func:`simkit.engines.moves.split_event`)."""
    kind, seat, aux, card = split_event(entry)
    return engine.KINDS[kind - 1], seat, aux, card


def _exact(rules, strategies, grid_axes):
    from simkit.games.piquet.exact import analyze
    return analyze(rules)


SPEC = GameSpec(
    name="piquet", version=VERSION, rules=PiquetRules, strategies=STRATEGIES,
    default_strategy="baseline", seats=lambda r: 2, metrics=engine.metrics,
    prepare=prepare, kernel=engine.run_deals, pack=lambda r: DECK,
    log_columns=engine.log_columns, replay=replay.moves,
    presets={"deal": {"unit": "deal"}, "rubicon": {"unit": "partie"},
             "saunt": {"unit": "game", "target": 100},
             "flat": {"tricks": "flat"}, "void": {"void_suit": True}},
    preset_docs={"deal": "one deal, p1 Elder (the default)",
                 "rubicon": "Rubicon piquet: a partie of six deals",
                 "saunt": "basic piquet: first to 100, play stopping when it is reached",
                 "flat": "variant: 1 a trick and 10 for the last trick (line 198)",
                 "void": "variant: a void suit counts as a point and sequence (line 197)"},
    title="Piquet (Rubicon piquet, English club rules)",
    source="002_17c4cc3dde05b547.txt:144-198",
    bench_n=2_000_000, bench_units=None, match={"unit": "partie"},
    objective=lambda r: ("net", True), exact=_exact,
    digest_runs=(("piquet(unit=partie)", ("p2=random",)),
                 ("piquet(unit=game,tricks=flat,void_suit=true)", ("p1=random",)),
                 ("piquet", ("p1=exact(exact=4)", "p2=baseline(take=3,sink=10)")),
                 ("piquet(unit=partie)",
                  ("p1=rubicon(rubicon_push=2,push_need=20,push_w=3,safe_lead=30)",))))
