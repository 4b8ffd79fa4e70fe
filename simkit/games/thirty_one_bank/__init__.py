"""«31» with a bank: a banker against 1-7 punters, three cards each, the talia.

Rules: ``002_17c4cc3dde05b547.txt`` lines 84-98 (readings in :mod:`.rules`); kernels
:mod:`.engine`; punter strategies :mod:`.strategies`; exact analysis :mod:`.exact`
(``simkit exact thirty_one_bank``).
"""
from __future__ import annotations

from simkit.core import play
from simkit.core.registry import GameSpec
from simkit.errors import SimkitError
from simkit.games.thirty_one_bank import engine, replay
from simkit.games.thirty_one_bank.rules import ThirtyOneBankRules
from simkit.games.thirty_one_bank.strategies import STRATEGIES, encode

VERSION = 1


def prepare(rules, strategies, stacked=None, pack_cards=None):
    """The kernel's records: the rules' tables, the punters' policies and the buffers
    (``pack_cards``: deal from this pack instead of the rules' one, e.g. a depleted pack)."""
    if stacked is not None and len(stacked) == 0:
        raise SimkitError("a stacked deck needs at least one card")
    return engine.tables(rules), encode(strategies), engine.work(rules, stacked, pack_cards)


def play_stacked(rules, strategies, cards, log=False):
    """Play one deal with the cards coming in the order given (``"As Kh 10s ..."``): one card
    at a time to p1..pK then the banker, three times; then each punter's draws in seat order,
    then the banker's.  A stacked deck that runs out is refilled with the spent cards (in
    order) or, with nothing spent, makes the next one to draw stand."""
    return play.play_stacked(SPEC, rules, strategies, cards, log=log)


def _exact(rules, strategies, grid_axes):
    from simkit.games.thirty_one_bank.exact import analyze  # numba recursions: compile on demand
    return analyze(rules, strategies, grid_axes)


SPEC = GameSpec(
    name="thirty_one_bank", version=VERSION, rules=ThirtyOneBankRules, strategies=STRATEGIES,
    default_strategy="stand_at", seats=lambda r: r.punters, metrics=engine.metrics,
    prepare=prepare, kernel=engine.run_deals, pack=engine.pack, log_columns=engine.log_columns,
    replay=replay.moves,
    presets={"talia": {"unit": "talia"},
             "two_decks": {"decks": 2, "punters": 5, "unit": "talia"},
             "three_decks": {"decks": 3, "punters": 7, "unit": "talia"},
             "push31": {"both31": "push"}},
    preset_docs={"talia": "deal through one pack round after round (lines 95-96)",
                 "two_decks": "two packs, five punters, a talia (line 90)",
                 "three_decks": "three packs, seven punters, a talia (line 90)",
                 "push31": "a punter's dealt 31 against the banker's is a push (line 92)"},
    title="31 with a bank: banker against punters", source="002_17c4cc3dde05b547.txt:84-98",
    bench_n=5_000_000, exact=_exact, exact_takes=("seen", "banker_stand", "p1.t", "p1.soft", "p1"),
    objective=lambda r: ("result", True),
    match={"unit": "talia"},
    bench_units=lambda r: ("rounds", 1.0) if r.unit == "round" else None,
    digest_runs=(("thirty_one_bank(punters=3,unit=talia)", ("p1=count", "p2=random(0.3)")),
                 ("thirty_one_bank(punters=4,decks=2,short_pack=stand,both31=push)", ())))
