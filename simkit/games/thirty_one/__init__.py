"""Thirty-one / Schwimmen: the 36-card game with lives (lines 17-55 of ``002_17c4cc3dde05b547.txt``)
and its 52-card draw-and-discard variant (lines 59-82, ``variant=draw``, preset ``draw52``).  The
readings are in :mod:`simkit.games.thirty_one.rules`, the kernel in
:mod:`simkit.games.thirty_one.engine`, the strategies in :mod:`simkit.games.thirty_one.strategies`,
the exact hand-value analysis in :mod:`simkit.games.thirty_one.exact`.

One unit (the runner's "deal") is a deal (``pK_lose``: lost a life) or, with ``unit=game``, a
whole game to the last survivor (``pK_win``; ``pK_chips``, his net chips of the game: a coin into
the pot for each life lost but the last, the pot to the winner; ``pot``).  p1 deals (and keeps or
refuses his first three); p2 plays first.
"""
from __future__ import annotations

import numpy as np

from simkit.core import cards as C
from simkit.core import play
from simkit.core.registry import GameSpec
from simkit.engines.moves import split_event
from simkit.games.thirty_one import engine, replay
from simkit.games.thirty_one.rules import ThirtyOneRules
from simkit.games.thirty_one.strategies import STRATEGIES, encode

VERSION = 4  # 2: draw variant, every hand 31 after a laid-down 31 is no replay (line 65);
# 3: the baseline takes a 31 one move away instead of knocking; 4: the baseline's thresholds by
# table size and line 67's feed hint (issue 30)


def pack(rules) -> np.ndarray:
    return C.deck(rules.deck).astype(np.int64)


def prepare(rules, strategies, stacked=None):
    """The kernel's records.  ``stacked``: cards in dealing order (see the engine's docstring);
    the pack's other cards follow in pack order."""
    deck = pack(rules)
    if stacked is not None:
        st = [int(c) for c in stacked]
        deck = np.array(st + [int(c) for c in deck if int(c) not in set(st)], np.int64)
    return (engine.game_rules(rules), encode(strategies), engine.work(deck, stacked is not None))


def play_logged(rules, strategies=None, n=1000, seed=0, chunk=0):
    """Play ``n`` deals of chunk ``chunk`` of ``seed``: ``(rows DataFrame, log int64[n, w])``."""
    return play.play_logged(SPEC, rules, strategies, n, seed, chunk)


def play_stacked(rules, strategies, cards, log=False):
    """Play one unit with the cards in the order given (see the engine's dealing order)."""
    return play.play_stacked(SPEC, rules, strategies, cards, log=log)


def decode(entry: int) -> tuple[str, int, int, int]:
    """A log event as ``(kind name, seat, aux, card)`` (:func:`simkit.engines.moves.split_event`)."""
    kind, seat, aux, card = split_event(entry)
    return engine.KINDS[kind - 1], seat, aux, card


def _exact(rules, strategies, grid_axes):
    from simkit.games.thirty_one.exact import analyze
    return analyze(rules, strategies, grid_axes)


SPEC = GameSpec(
    name="thirty_one", version=VERSION, rules=ThirtyOneRules, strategies=STRATEGIES,
    default_strategy="baseline", seats=lambda r: r.players, metrics=engine.metrics,
    prepare=prepare, kernel=engine.run_deals, pack=pack, log_columns=engine.log_columns,
    presets={"draw52": {"variant": "draw", "deck": 52},
             "game": {"unit": "game"},
             "draw52_game": {"variant": "draw", "deck": 52, "unit": "game"}},
    preset_docs={"draw52": "the 52-card draw-and-discard variant (lines 59-82), one deal",
                 "game": "the 36-card game, a whole game to the last survivor",
                 "draw52_game": "the 52-card variant, a whole game to the last survivor"},
    title="Thirty-one / Schwimmen (lives; 52-card draw variant)",
    source="002_17c4cc3dde05b547.txt:1-82", bench_n=2_000_000,
    zero_sum=lambda r: [f"p{k + 1}_chips" for k in range(r.players)] if r.unit == "game" else [],
    exact=_exact, match={"unit": "game"}, replay=replay.moves,
    objective=lambda r: ("lose", False) if r.unit == "deal" else ("win", True),
    digest_runs=(("thirty_one(players=2,table_source=after_deal)", ("p1=random",)),
                 ("thirty_one(preset=draw52,players=6)", ("p2=random",)),
                 ("thirty_one(unit=game,players=3)", ("p1=baseline(knock=27)",))))
