"""Oklahoma (Q♠ rummy, also Arlington): two decks and a joker, wild deuces, the whole discard
pile taken to meld its top card, the Q♠ worth 100 against its holder.  Rules:
``003_25b072003b534ab4.txt`` lines 85-88 (see :mod:`simkit.games.oklahoma.rules`).  Built on the
multi-deck meld engine :mod:`simkit.engines.melds`.

``unit=hand`` (the default) scores one hand per deal (each player's melds plus, cards in hand
minus, 100 for going out); ``unit=game`` plays hands until a player reaches 1000 (line 88), the
unit of match odds.  ``simkit exact oklahoma`` gives a dealt hand's odds as exact fractions.
"""
from __future__ import annotations


from simkit.core.registry import GameSpec
from simkit.engines.melds.stock import stacked_deck
from simkit.errors import SimkitError
from simkit.games.oklahoma import engine, exact, replay
from simkit.games.oklahoma.rules import OklahomaRules
from simkit.games.oklahoma.strategies import STRATEGIES, encode

VERSION = 1


def prepare(rules, strategies, stacked=None):
    """Records; ``stacked``: cards dealt in order (13 to each seat one at a time from the
    dealer's left, the upcard, then the stock from the top), the pack's other cards following in
    the pack's order; it plays single hands."""
    if len(strategies) != rules.players:
        raise SimkitError(f"oklahoma with {rules.players} players needs {rules.players} "
                          f"strategies, not {len(strategies)}")
    deck = None
    if stacked is not None:
        if rules.unit != "hand":
            raise SimkitError("a stacked oklahoma deck plays single hands (unit=hand)")
        deck = stacked_deck(engine.make_deck(rules), stacked)
    return engine.table(rules), encode(strategies, engine.Seats), engine.work(rules, deck)


SPEC = GameSpec(
    name="oklahoma", version=VERSION, rules=OklahomaRules, strategies=STRATEGIES,
    default_strategy="baseline", seats=lambda r: r.players, metrics=engine.metrics,
    prepare=prepare, kernel=engine.run_deals, pack=engine.make_deck,
    log_columns=engine.log_columns, replay=replay.moves,
    presets={"text": {}, "layoff": {"pile_take": "layoff"}, "three": {"players": 3},
             "game": {"unit": "game"}, "reshuffle": {"stock_end": "reshuffle"}},
    preset_docs={"text": "lines 85-88 with the common readings (the default: two players)",
                 "layoff": "the pile may also be taken to lay its top card off on one's own meld",
                 "three": "three players (the published 'best for three')",
                 "game": "each deal is a game to 1000 with the 200 bonus (line 88)",
                 "reshuffle": "an empty stock is refilled once from the pile"},
    title="Oklahoma (Q♠ rummy): two decks and a joker, wild deuces, take the whole pile",
    source="003_25b072003b534ab4.txt:85-88",
    bench_n=20_000, exact=exact.exact,
    objective=lambda r: ("win", True) if r.unit == "game" else ("points", True),
    match={"unit": "game"},
    digest_runs=(("oklahoma(players=4,pile_take=layoff,min_natural=0)",
                  ("p1=baseline(hold=1,qs=0)", "p3=random")),
                 ("oklahoma(stock_end=reshuffle,final_discard=false)", ("p2=baseline(feed=3)",))))
