"""Canasta: classic four-hand partnership Canasta (108 cards, 11 each, wild deuces and jokers,
red threes faced and replaced, black threes stop cards, melds of one rank, canastas of seven,
the initial minimum, the frozen pile, going out with a canasta), two-hand Canasta (003:55) and
three-hand Cutthroat Canasta (003:56-59, ``preset=cutthroat``: the first pile taker the lone
hand against the other two), Cuban Canasta (003:84, ``preset=cuban``: 13 cards, every three
faced, wild-card melds, canastas of seven at most, the pile always frozen) and Samba (003:71-81,
``preset=samba``: 162 cards, 15 each, draw two, sequences and sambas, two wild cards a group)
Bolivia (003:82, ``preset=bolivia``: Samba with wild-card melds and an escalera to go out) and
Brazilian Canasta (003:83, ``preset=brazilian``: -1000 an incomplete wild-card meld or
sequence, a canasta in the initial meld from 7000; ``preset=brazilian_bicycle``: Bicycle's
readings, READINGS 3.6: no pile take for the initial meld, always ask partner before going out,
an escalera's ends open when going out).
Rules: ``003_25b072003b534ab4.txt`` lines 48-84 and READINGS-rummy.md 3.1-3.7 (see
:mod:`simkit.games.canasta.rules`); the move log's format is the one agreed in CANASTA.md.

``unit=hand`` (the default) scores one hand per deal, per side (partners report the same side
values; three hands: each seat its scoring group's values and its own red threes, ``pK_lone``);
``unit=game`` plays hands until a side (three hands: a seat) reaches ``game_to``.
"""
from __future__ import annotations

from simkit.core.registry import GameSpec
from simkit.engines.melds.stock import stacked_deck
from simkit.errors import SimkitError
from simkit.games.canasta import engine, exact, replay
from simkit.games.canasta.rules import PRESET_DOCS, PRESETS, CanastaRules
from simkit.games.canasta.strategies import STRATEGIES, encode

VERSION = 7     # 7: two-hand's mixed take_min2/b3_pile default per role, its wild_gap per role and its b50/feed/freeze (strategies.TWO_HAND_MIX, TWO_HAND_WILD_GAP), and Bolivia plays its sequences (seq_first, seq_out, seq_take); the other tables' numbers unchanged; 6: the Samba family's own baseline tables (samba, bolivia, brazilian); 5: the baseline's defaults per table (strategies.BY_TABLE); 2: preset cutthroat, the baseline's lone_min; 3: the objective net, defaults measured on it, take_min2; 4: preset cuban, the baseline's wmeld (the earlier presets' numbers unchanged: digests identical)


def prepare(rules, strategies, stacked=None):
    """Records; ``stacked``: cards dealt in order (``hand_size`` to each seat one at a time from
    the dealer's left, the upcard and its covering cards, the dealt red threes' replacements,
    then the stock from the top), the pack's other cards following in the pack's order; it
    plays single hands."""
    if len(strategies) != rules.players:
        raise SimkitError(f"canasta with {rules.players} players needs {rules.players} "
                          f"strategies, not {len(strategies)}")
    deck = None
    if stacked is not None:
        if rules.unit != "hand":
            raise SimkitError("a stacked canasta deck plays single hands (unit=hand)")
        deck = stacked_deck(engine.make_deck(rules), stacked)
    return engine.table(rules), encode(strategies, engine.Seats, rules), engine.work(rules, deck)


SPEC = GameSpec(
    name="canasta", version=VERSION, rules=CanastaRules, strategies=STRATEGIES,
    default_strategy="baseline", seats=lambda r: r.players, metrics=engine.metrics,
    prepare=prepare, kernel=engine.run_deals, pack=engine.make_deck,
    log_columns=engine.log_columns, replay=replay.moves,
    presets=PRESETS, preset_docs=PRESET_DOCS, golden_presets=("two_hand", "cutthroat", "cuban", "samba", "bolivia",
                                                     "brazilian", "brazilian_bicycle", "game"),
    title=("Canasta: classic four-hand partnership, two-hand, three-hand (cutthroat), "
           "Cuban (108 cards), Samba, Bolivia and Brazilian (162 cards, sequences), canastas "
           "of seven"),
    source="003_25b072003b534ab4.txt:48-84",
    bench_n=5_000, exact=exact.exact,
    objective=lambda r: ("win", True) if r.unit == "game" else ("net", True),
    match={"unit": "game"},
    digest_runs=(("canasta(preset=two_hand)", ("p2=random",)),
                 ("canasta(stock_end=end)", ("p1=baseline(b50=4,freeze=0)", "p2=random")),
                 # Brazilian games: the initial-meld canasta requirements from 7000 (003:83)
                 ("canasta(preset=brazilian,unit=game)", ())))
