"""Panguingue ("Pan"): eight Spanish packs, ten cards, going on top, conditions paid in chips,
eleven cards melded to win.  Rules: ``003_25b072003b534ab4.txt`` lines 89-104 (see
:mod:`simkit.games.panguingue.rules`).  A deal is one unit (every seat's net chips); ``unit=session`` plays ten deals with the chips
carried, the winner eldest in the next (its move log holds every deal that fits in the row).
``simkit exact panguingue`` gives a dealt hand's valle cards, conditions and melds held as exact
fractions.
"""
from __future__ import annotations


from simkit.core.registry import GameSpec
from simkit.engines.melds.stock import stacked_deck
from simkit.errors import SimkitError
from simkit.games.panguingue import engine, exact, replay
from simkit.games.panguingue.rules import PanguingueRules
from simkit.games.panguingue.strategies import STRATEGIES, encode

VERSION = 4   # 2: the baseline splits and borrows (line 99, borrow=1); 3: go on top below 14 at every seat;
# 4: the random player borrows and splits too (any legal one)


def prepare(rules, strategies, stacked=None):
    """Records; ``stacked``: cards dealt in order (five to each seat from p1, five more each, the
    upcard, then the stock from the top), the pack's other cards following in the pack's order."""
    if len(strategies) != rules.players:
        raise SimkitError(f"panguingue with {rules.players} players needs {rules.players} "
                          f"strategies, not {len(strategies)}")
    deck = None
    if stacked is not None:
        if rules.unit != "deal":
            raise SimkitError("a stacked panguingue deck plays single deals (unit=deal)")
        deck = stacked_deck(engine.make_deck(rules), stacked)
    return engine.table(rules), encode(strategies, engine.Seats), engine.work(rules, deck)


SPEC = GameSpec(
    name="panguingue", version=VERSION, rules=PanguingueRules, strategies=STRATEGIES,
    default_strategy="baseline", seats=lambda r: r.players, metrics=engine.metrics,
    prepare=prepare, kernel=engine.run_deals, pack=engine.make_deck,
    log_columns=engine.log_columns, replay=replay.moves,
    presets={"text": {}, "published": {"conditions": "published", "winner_per_player": 2},
             "layoff": {"discard_take": "layoff_only"}, "two": {"players": 2},
             "small": {"packs": 5, "spades_removed": True},
             "session": {"unit": "session"}},
    preset_docs={"text": "lines 89-104 with the common readings (six players, eight packs)",
                 "published": "the published four-row conditions table and 2 chips a player to "
                              "the winner",
                 "layoff": "the top discard is taken only to add it to an own meld (line 94's "
                           "literal reading)",
                 "two": "two players",
                 "small": "five packs with one set of spades removed",
                 "session": "ten deals with the chips carried, the winner eldest in the next"},
    title="Panguingue (Pan): 320 cards, going on top, conditions paid in chips",
    source="003_25b072003b534ab4.txt:89-104",
    bench_n=20_000, exact=exact.exact,
    objective=lambda r: ("chips", True),
    match={"unit": "session"},
    zero_sum=lambda r: [f"p{k + 1}_chips" for k in range(r.players)],
    digest_runs=(("panguingue(players=4,again=base,mixed_add=new_suit)",
                  ("p1=baseline(top=4,demand=0)", "p3=random")),
                 ("panguingue(players=8,rope_extended_pays=true,stock_end=void)",
                  ("p2=baseline(feed=0,valle=0)",)),
                 ("panguingue(unit=session,players=4,deals=5,next_eldest=rotate)",
                  ("p4=random",))))
