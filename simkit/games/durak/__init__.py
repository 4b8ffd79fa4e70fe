"""Durak for two (подкидной).  Rules: ``001_4b506a693298ed3d.txt`` lines 120-197; the readings
chosen are in :mod:`simkit.games.durak.rules`, the kernel in :mod:`simkit.games.durak.engine`,
the strategies in :mod:`simkit.games.durak.strategies`.

One unit (the runner's "deal") is a game or, with ``unit=match``, a whole match of the form
(long3/5/7: to 3, 5 or 7 wins).  The first attacker is the holder of the lowest trump (a seat
metric ``pK_first`` says who), so with one strategy on both seats the first-move edge is
``opener_edge`` (+1/-1/0 per unit: its mean is ``opener_win - opener_lose``, with its own standard
error).  By the trump card's rank R (6..14) of the unit's first game: ``opener_edge_trumpR`` and
``pK_lose_trumpR`` (ratios over the units with that trump; ``-m 'opener_edge_trump*'``), and
``trumpR``, the share of units with that trump: the distribution of ``trump_rank``, a label per
unit that tables never average (it stays in the per-deal rows, ``--rows``).  The
durak (the loser) is ``pK_lose``; players minimise it.
"""
from __future__ import annotations

import numpy as np

from simkit.core import cards as C
from simkit.core import play
from simkit.core.registry import GameSpec
from simkit.engines.moves import split_event
from simkit.games.durak import engine, replay
from simkit.games.durak.rules import DurakRules
from simkit.games.durak.strategies import STRATEGIES, encode

VERSION = 5  # 2: the baseline's card memory parameter (play unchanged at its default); 3: no
# throw-in onto a defender who beat with his last card and no stock left (super-short, empty_stock);
# 4: the baseline's defaults (throw_rank=14, trump_stock=8, max_trump=13, take_cost=14; late_trump);
# 5: the trump rank's distribution reported (trumpR, was the hidden _trumpR), trump_rank no longer
# averaged (numbers unchanged)
DECK = np.array([s * 16 + r for s in range(4) for r in range(6, 15)], np.int64)


def prepare(rules, strategies, stacked=None, more_deals=None):
    """The kernel's records.  ``stacked``: a game's 36 cards in dealing order (p1 3, p2 3, p1 3,
    p2 3, the trump card, the stock from its top); ``more_deals``: the cards of redeals and later
    games, 36 each."""
    if stacked is None:
        deck = DECK
    else:
        deck = np.concatenate([np.asarray(stacked, np.int64),
                               np.asarray([] if more_deals is None else more_deals, np.int64)])
    exact = any(dict(s.params).get("exact", 0) for s in strategies)
    return (engine.game_rules(rules), encode(strategies),
            engine.work(deck, stacked is not None, exact))


def play_logged(rules, strategies=None, n=1000, seed=0, chunk=0):
    """Play ``n`` units of chunk ``chunk`` of ``seed``: ``(rows DataFrame, log int64[n, width])``."""
    return play.play_logged(SPEC, rules, strategies, n, seed, chunk)


def play_stacked(rules, strategies, cards, log=False):
    """Play one unit with the cards in the order given (36 a game; see :func:`prepare`)."""
    deck = C.parse(cards) if isinstance(cards, str) else np.asarray(cards, np.int64)
    for j in range(36, len(deck), 36):
        play.check_stack(SPEC, rules, deck[j:j + 36])
    return play.play_stacked(SPEC, rules, strategies, deck[:36], log=log, more_deals=deck[36:])


def decode(entry: int) -> tuple[str, int, int, int]:
    """A log event as ``(kind name, seat, aux, card)`` (:func:`simkit.engines.moves.split_event`)."""
    kind, seat, aux, card = split_event(entry)
    return engine.KINDS[kind - 1], seat, aux, card


SPEC = GameSpec(
    name="durak", version=VERSION, rules=DurakRules, strategies=STRATEGIES,
    default_strategy="baseline", seats=lambda r: 2, metrics=engine.metrics,
    prepare=prepare, kernel=engine.run_deals, pack=lambda r: DECK,
    log_columns=engine.log_columns, replay=replay.moves,
    presets={"short": {"form": "short"}, "super_short": {"form": "super_short"},
             "long3": {"form": "long3", "unit": "match"},
             "long5": {"form": "long5", "unit": "match"},
             "long7": {"form": "long7", "unit": "match"},
             "durakgame": {"opener": "p1", "first_bout_cap": 5}},
    preset_docs={"short": "one game to the end of the stock (the default)",
                 "super_short": "six cards each, the stock never used",
                 "long3": "a match to 3 wins", "long5": "a match to 5 wins",
                 "long7": "a match to 7 wins",
                 "durakgame": "the PyPI peer durakgame's rules: p1 always opens, first bout "
                              "capped at 5"},
    title="Durak for two (подкидной)", source="001_4b506a693298ed3d.txt:120-197",
    bench_n=2_000_000, bench_units=None, match={"unit": "match"},
    objective=lambda r: ("lose", False),
    digest_runs=(("durak(form=long5,unit=match)", ("p1=random",)),
                 ("durak(form=super_short,hand_cap=empty_stock)", ("p1=random", "p2=random")),
                 ("durak", ("p1=exact(exact=6)",))))
