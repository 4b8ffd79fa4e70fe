"""Fan-Tan («Фан-тан», Sevens): sevens open the rows, build up to the K and down to the A, pay a
chip per pass, the first out takes the pool.  Rules: ``003_25b072003b534ab4.txt`` lines 121-134
(see :mod:`simkit.games.fan_tan.rules`).  Built on :mod:`simkit.engines.shedding`.
"""
from __future__ import annotations

from simkit.core.registry import GameSpec
from simkit.errors import SimkitError
from simkit.games.fan_tan import engine, replay
from simkit.games.fan_tan.rules import FanTanRules
from simkit.games.fan_tan.strategies import STRATEGIES, encode

VERSION = 2


def prepare(rules, strategies, stacked=None):
    """Records; ``stacked``: the 52 cards in the order dealt (card ``j`` to seat ``j % players``
    with ``deal_from=left``)."""
    if len(strategies) != rules.players:
        raise SimkitError(f"fan_tan with {rules.players} players needs {rules.players} "
                          f"strategies, not {len(strategies)}")
    if stacked is not None and len(stacked) != 52:
        raise SimkitError(f"a stacked fan_tan deck is the 52 cards, not {len(stacked)}")
    return engine.table(rules), encode(strategies), engine.work(rules, stacked)


SPEC = GameSpec(
    name="fan_tan", version=VERSION, rules=FanTanRules, strategies=STRATEGIES,
    default_strategy="extend", seats=lambda r: r.players, metrics=engine.metrics,
    prepare=prepare, kernel=engine.run_deals, pack=engine.make_deck,
    log_columns=engine.log_columns, replay=replay.moves,
    presets={"text": {}, "literal_deal": {"deal_from": "right"}, "five": {"players": 5},
             "free_pass": {"must_play": False}},
    preset_docs={"text": "the text's rules, four players, the common deal (the default)",
                 "literal_deal": "line 124 literally: dealt from the dealer's right",
                 "five": "five players (one more card to p1, p2)",
                 "free_pass": "a player may pass when able, at a chip's cost"},
    title="Fan-Tan (Фан-тан, Sevens): build the rows from the sevens, pay to pass",
    source="003_25b072003b534ab4.txt:121-134",
    bench_n=2_000_000,
    zero_sum=lambda r: [f"p{k + 1}_chips" for k in range(r.players)],
    objective=lambda r: ("chips", True),
    digest_runs=(("fan_tan(players=7,deal_from=right)", ("p1=random", "p3=block")),
                 ("fan_tan(preset=free_pass)", ("p1=block", "p2=random"))))
