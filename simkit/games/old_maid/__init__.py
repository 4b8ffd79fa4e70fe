"""Old Maid («Ведьма»): pairs discarded, a card drawn from a neighbour in turn, the one left with
the odd queen loses.  Rules: ``002_17c4cc3dde05b547.txt`` lines 111-114 (see
:mod:`simkit.games.old_maid.rules`).  Built on :mod:`simkit.engines.shedding`.

There is no choice in the game (the draw is blind), so the one strategy is ``uniform``; the game
is a study of the seat's chance of being left with the queen under each convention (who starts,
which neighbour is drawn from, who gets the extra cards) and of the game's length.  Two players
have an exact solution (:mod:`simkit.games.old_maid.exact`).
"""
from __future__ import annotations

import numpy as np

from simkit.core.records import record
from simkit.core.registry import GameSpec, StrategyKind
from simkit.errors import SimkitError
from simkit.games.old_maid import engine, exact, replay
from simkit.games.old_maid.rules import OldMaidRules
from typing import NamedTuple

VERSION = 1

STRATEGIES = {"uniform": StrategyKind("uniform", 0, (), "draw a uniformly random card of the "
                                                        "neighbour's (the only way to draw blind)")}


class Seats(NamedTuple):
    kind: np.ndarray


def prepare(rules, strategies, stacked=None):
    """Records; ``stacked``: the 51 cards dealt in order, card ``j`` to seat
    ``(first + j) % players`` (``first`` = 0 with ``extra=first``)."""
    if len(strategies) != rules.players:
        raise SimkitError(f"old_maid with {rules.players} players needs {rules.players} "
                          f"strategies, not {len(strategies)}")
    if stacked is not None and len(stacked) != engine.N_CARDS:
        raise SimkitError(f"a stacked old_maid deck is the {engine.N_CARDS} cards in play, not "
                          f"{len(stacked)}")
    S = record(Seats, kind=np.zeros(rules.players, np.int64))
    return engine.table(rules), S, engine.work(rules, stacked)


SPEC = GameSpec(
    name="old_maid", version=VERSION, rules=OldMaidRules, strategies=STRATEGIES,
    default_strategy="uniform", seats=lambda r: r.players, metrics=engine.metrics,
    prepare=prepare, kernel=engine.run_deals, pack=engine.make_deck,
    log_columns=engine.log_columns, replay=replay.moves,
    presets={"text": {}, "literal": {"set_aside": "Qs"}, "two": {"players": 2},
             "left": {"draw_from": "left"}},
    preset_docs={"text": "the common reading of the text (the default)",
                 "literal": "line 113 literally: the Q♠ set aside",
                 "two": "two players (the exact Markov chain)",
                 "left": "each player draws from his left-hand neighbour"},
    title="Old Maid (Ведьма): draw from a neighbour, pairs out, the odd queen loses",
    source="002_17c4cc3dde05b547.txt:111-114",
    bench_n=2_000_000, exact=exact.analyze,
    objective=lambda r: ("lose", False),
    digest_runs=(("old_maid(players=2)", ()),
                 ("old_maid(players=7,starter=random,extra=last)", ())))
