"""Stovkahra (Brčko), a Trappola game for four in partnerships.  Rules:
``000_e1e7c8054592a022.txt`` lines 180-222 (a translation of pagat.com's Stovkahra page, whose
card table is reconstructed in :mod:`simkit.games.stovkahra.rules`); kernel in
:mod:`simkit.games.stovkahra.engine`, strategies in :mod:`simkit.games.stovkahra.strategies`,
exact hand probabilities in :mod:`simkit.games.stovkahra.exact`.

Seats p1..p4 play clockwise, p1/p3 against p2/p4; p4 deals a game's first deal, so p1 leads.
Side results are reported under each seat (``p1_win`` = ``p3_win``: p1's side won).  One unit is
a deal (default, a game's first deal from 0-0), a game (to 100) or a series (to ten brčka); in a
game the deals after the first come from the gathered tricks, cut (``dealing=gathered``), unless
``dealing=shuffle``.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simkit.core import cards as C
from simkit.core import play
from simkit.core.registry import GameSpec
from simkit.errors import SimkitError
from simkit.games.stovkahra import engine, exact, replay
from simkit.games.stovkahra.rules import StovkahraRules
from simkit.games.stovkahra.strategies import STRATEGIES, encode

VERSION = 1
DECK = engine.DECK


def prepare(rules, strategies, stacked=None, cuts=None):
    """The kernel's records.  ``stacked``: the first deal's 32 cards in dealing order (the pack
    after the cut, top first: 3 to the eldest p1, 3 to p2, 3 to p3, 3 to the dealer p4, then 2
    each, then 3 each; the last card, the dealer's, is turned for trumps).  ``cuts``: the cut of
    each later deal of the unit (deal 2, 3, ...; default drawn), for stacked tests."""
    if stacked is None:
        deck, st = DECK, False
    else:
        deck = np.asarray(stacked, np.int64)
        if len(deck) != engine.NCARDS or len(set(deck.tolist())) != engine.NCARDS:
            raise SimkitError(f"stacked deck: a deal takes all 32 cards, each once "
                              f"(got {len(deck)} cards, {len(set(deck.tolist()))} different)")
        st = True
    if cuts is not None and any(not rules.min_cut <= int(k) <= 32 - rules.min_cut for k in cuts):
        raise SimkitError(f"cuts must lie in {rules.min_cut}..{32 - rules.min_cut} (min_cut)")
    return engine.game_rules(rules), encode(strategies), engine.work(deck, st, cuts)


def deal_log(log) -> pd.DataFrame:
    """Log rows as one row per logged deal (:data:`engine.LOG_COLUMNS`)."""
    return pd.DataFrame(engine.deal_rows(log), columns=engine.LOG_COLUMNS)


def play_logged(rules, strategies=None, n=1000, seed=0, chunk=0, raw=False):
    """``n`` units of chunk ``chunk`` of ``seed``: ``(rows DataFrame, deals DataFrame)`` (with
    ``raw``: the log array itself instead of the deals, one row per unit)."""
    rows, log = play.play_logged(SPEC, rules, strategies, n, seed, chunk, fill=0)
    return rows, (log if raw else deal_log(log))


def play_stacked(rules, strategies, cards, cuts=None, log=False):
    """Play one unit whose first deal is ``cards`` (see :func:`prepare`); later deals come from
    the gathered tricks and ``cuts``.  Returns the metrics by name (and the deals' log)."""
    deck = C.parse(cards) if isinstance(cards, str) else np.asarray(cards, np.int64)
    got = play.play_stacked(SPEC, rules, strategies, deck, log=log, cuts=cuts)
    if log:
        res, row = got
        return res, deal_log(row[None, :])
    return got


SPEC = GameSpec(
    name="stovkahra", version=VERSION, rules=StovkahraRules, strategies=STRATEGIES,
    default_strategy="baseline", seats=lambda r: 4, metrics=engine.metrics,
    prepare=prepare, kernel=engine.run_deals, pack=lambda r: DECK,
    log_columns=engine.log_columns, replay=replay.moves,
    presets={"deal": {"unit": "deal"}, "game": {"unit": "game"},
             "series": {"unit": "series"},
             "shuffled": {"unit": "game", "dealing": "shuffle"}},
    preset_docs={"deal": "one deal, a game's first (the default)",
                 "game": "a game to 100, later deals gathered and cut (the text's dealing)",
                 "series": "a series to ten brčka",
                 "shuffled": "a game to 100 with every deal shuffled"},
    title="Stovkahra (Brčko), Trappola for four in partnerships",
    source="000_e1e7c8054592a022.txt:180-222", bench_n=300_000,
    exact=exact.exact, match={"unit": "series"},
    objective=lambda r: ("points", True) if r.unit == "deal" else ("win", True),
    digest_runs=(("stovkahra(unit=game,gather=played,deal_end=higher)", ("p2=random", "p4=random")),
                 ("stovkahra(unit=series,seven_bonuses=false)", ("p1=baseline(subtract_at=2)",))))
