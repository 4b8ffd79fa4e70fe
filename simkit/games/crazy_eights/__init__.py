"""Crazy Eights («Восьмерки»): match the top card's suit or rank, eights wild, first out scores
the others' cards.  Rules: ``003_25b072003b534ab4.txt`` lines 105-120 (see
:mod:`simkit.games.crazy_eights.rules`).  Built on :mod:`simkit.engines.shedding`.

``unit=deal`` (the default) makes each deal of a run one game (line 112: "each deal may count
as a game"), with per-deal wins and points; ``unit=game`` a game of deals to ``target`` (100 for
two players, 112), the unit of a match's win rate.
"""
from __future__ import annotations

from simkit.core.registry import GameSpec
from simkit.errors import SimkitError
from simkit.games.crazy_eights import engine, replay
from simkit.games.crazy_eights.rules import CrazyEightsRules
from simkit.games.crazy_eights.strategies import STRATEGIES, encode

VERSION = 4  # 2: the baseline keeps eights only above 5 cards (eight_at=5); keep_eights is the
# literal hint; 3: starter_eight=shuffle; 4: the baseline names a suit the next player lacks (call=1)
# 3: preset openspiel shuffles a starter eight back into the stock (starter_eight=shuffle), as open-spiel does


def prepare(rules, strategies, stacked=None):
    """Records; ``stacked``: the pack in dealing order, card ``j < players * cards_each`` to seat
    ``j % players``, then the starter, then the stock from the top."""
    if len(strategies) != rules.players:
        raise SimkitError(f"crazy_eights with {rules.players} players needs {rules.players} "
                          f"strategies, not {len(strategies)}")
    if stacked is not None and len(stacked) != rules.n_decks * 52:
        raise SimkitError(f"a stacked crazy_eights deck is the whole pack of "
                          f"{rules.n_decks * 52} cards, not {len(stacked)}")
    return engine.table(rules), encode(strategies), engine.work(rules, stacked)


SPEC = GameSpec(
    name="crazy_eights", version=VERSION, rules=CrazyEightsRules, strategies=STRATEGIES,
    default_strategy="baseline", seats=lambda r: r.players, metrics=engine.metrics,
    prepare=prepare, kernel=engine.run_deals, pack=engine.make_deck,
    log_columns=engine.log_columns, replay=replay.moves,
    presets={"text": {},
             "openspiel": {"players": 5, "max_draws": 5, "max_plays": 100, "may_pass": True,
                           "extra_passes": 1, "starter_eight": "shuffle"},
             "optional": {"queen_spades": True, "twos": "stack", "jacks": True},
             "draw_one": {"draw_one": True},
             "game": {"unit": "game"},
             "seven": {"players": 7}},
    preset_docs={"text": "the text's basic rules for two players (the default)",
                 "openspiel": "open-spiel's crazy_eights defaults: five players, at most five "
                              "draws a turn, passing at will once one may not draw, the deal stops after 100 cards played "
                              "or players + 1 passes with the stock empty, a starter eight "
                              "shuffled back into the stock",
                 "optional": "the optional rules of lines 113-115: Q♠ draws five, stacked twos, "
                             "jacks skip",
                 "draw_one": "line 116: a player who cannot play draws one card and passes",
                 "game": "each deal is a game to 100 (two players, line 112)",
                 "seven": "seven players, two decks"},
    title="Crazy Eights (Восьмерки): match suit or rank, eights wild",
    source="003_25b072003b534ab4.txt:105-120",
    bench_n=1_000_000,
    objective=lambda r: ("win", True) if r.unit == "game" else ("points", True),
    match={"unit": "game"},
    digest_runs=(("crazy_eights(players=4,preset=optional)", ("p2=random",)),
                 ("crazy_eights(preset=openspiel)", tuple(f"p{k}=random" for k in range(1, 6)))))
