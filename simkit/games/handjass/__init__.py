"""Handjass (Swiss Potato Jass) for two to four players: strokes and potatoes to find a loser.
Rules: ``000_e1e7c8054592a022.txt`` lines 48-179 (pagat.com's Handjass page, translated); the
readings are in :mod:`simkit.games.handjass.rules`, the kernel in
:mod:`simkit.games.handjass.engine`, the strategies in :mod:`simkit.games.handjass.strategies`,
the exact Weis chances in :mod:`simkit.games.handjass.exact`.

``unit=deal`` (the default): one deal of ``players``, p1 the Forehand and the last seat the
dealer; ``pK_strokes`` is the seat's net strokes.  ``unit=game``: a whole game to the loser
(players retiring at ``target`` and the rest going on with fewer), p1 the first Forehand;
``pK_lose`` is the headline, its spread over the seats the seat edge.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simkit.core import cards as C
from simkit.core import play
from simkit.core.registry import GameSpec
from simkit.errors import SimkitError
from simkit.games.handjass import engine, replay
from simkit.games.handjass.rules import HandjassRules
from simkit.games.handjass.strategies import STRATEGIES, encode

VERSION = 4  # 2: tie=carry keeps every held-over stroke (one entry a pair of seats; a sixth was dropped)
# 3: the Weis split that wins the comparison is shown (line 104); Stöck shown in it counts unannounced (133)
# 4: the baseline keeps the trump jack for the last trick (keep_jack=1, line 164) and plays from
# 4 more strength at a table of four (play_more=4)


def prepare(rules, strategies, stacked=None, more_deals=None):
    """The kernel's records.  ``stacked``: a deal's 36 cards in deck order (checked by core;
    :mod:`engine` says which position goes to which hand), ``more_deals`` the next deals' cards
    of a game (36 each)."""
    if len(strategies) != rules.players:
        raise SimkitError(f"handjass with {rules.players} players needs {rules.players} "
                          f"strategies, not {len(strategies)}")
    stack = None
    if stacked is not None:
        stack = np.concatenate([np.asarray(stacked, np.int64),
                                np.asarray([] if more_deals is None else more_deals, np.int64)])
        if len(stack) < engine.NCARDS or len(stack) % engine.NCARDS:
            raise SimkitError(f"a stacked Handjass deal is all 36 cards (a game: 36 per deal), "
                              f"not {len(stack)}")
    return engine.game_rules(rules), encode(strategies), engine.work(stack)


def deal_log(log) -> pd.DataFrame:
    """Move-log rows (one per unit) as one row per deal (:data:`engine.LOG_COLUMNS`)."""
    return pd.DataFrame(engine.deal_rows(log), columns=engine.LOG_COLUMNS)


def play_logged(rules, strategies=None, n=1000, seed=0, chunk=0):
    """``n`` units of chunk ``chunk`` of ``seed``: ``(rows DataFrame, log DataFrame)`` (one log
    row per deal)."""
    rows, log = play.play_logged(SPEC, rules, strategies, n, seed, chunk, fill=0)
    return rows, deal_log(log)


def play_stacked(rules, strategies, cards, log=False):
    """Play one unit with the deals' cards in the order given (``"As Kh ..."`` or codes), 36 a
    deal (a game takes deal after deal; running out ends it unfinished).  Each deal's cards are
    checked against the pack.  Returns the metrics by name (and the deals' log with ``log``)."""
    deck = C.parse(cards) if isinstance(cards, str) else np.asarray(cards, np.int64)
    n = engine.NCARDS
    for j in range(n, len(deck), n):
        play.check_stack(SPEC, rules, deck[j:j + n])
    got = play.play_stacked(SPEC, rules, strategies, deck[:n], log=log, more_deals=deck[n:])
    if log:
        res, row = got
        return res, deal_log(row[None, :])
    return got


def _exact(rules, strategies, grid_axes):
    from simkit.games.handjass.exact import exact_summary
    return exact_summary(rules)


SPEC = GameSpec(
    name="handjass", version=VERSION, rules=HandjassRules, strategies=STRATEGIES,
    default_strategy="baseline", seats=lambda r: r.players, metrics=engine.metrics,
    prepare=prepare, kernel=engine.run_deals, pack=engine.pack, log_columns=engine.log_columns,
    replay=replay.moves,
    presets={"text": {}, "game": {"unit": "game"}, "three": {"players": 3},
             "two": {"players": 2}, "original21": {"potato": 21},
             "short5": {"target": 5, "unit": "game"}, "long9": {"target": 9, "unit": "game"},
             "no_drop": {"dropping": False}, "extra_potato": {"extra_per_potato": True},
             "three_strokes": {"strokes": "players_minus_one"},
             "berner": {"berner": True, "target": 27, "unit": "game"},
             "potato_pay": {"potato_stake": 1}, "bessern3": {"players": 3, "bessern": True}},
    preset_docs={"text": "the rule text: four players, one deal (the default)",
                 "game": "a whole game of four to the loser",
                 "three": "one deal for three (the blind)", "two": "one deal for two",
                 "original21": "the original potato threshold of 21 (line 164)",
                 "short5": "a game to 5 strokes (line 165)", "long9": "a game to 9 (line 165)",
                 "no_drop": "everyone plays every deal (line 171)",
                 "extra_potato": "an extra stroke per potato (line 170)",
                 "three_strokes": "strokes one fewer than the players (line 174)",
                 "berner": "Berner Handjass: multipliers by trump suit, a game to 27 (line 173)",
                 "potato_pay": "a potato pays a small stake to each other active player (line 172)",
                 "bessern3": "three players with Bessern instead of the blind (lines 166-168)"},
    title="Handjass (Swiss Potato Jass), 2-4 players", source="000_e1e7c8054592a022.txt:48-179",
    bench_n=300_000,
    zero_sum=lambda r: [f"p{k + 1}_side" for k in range(r.players)],
    exact=_exact,
    objective=lambda r: ("lose", False) if r.unit == "game" else ("strokes", True),
    match={"unit": "game"},
    digest_runs=(("handjass(players=3)", ("p1=random(b=0.5)", "p3=random")),
                 ("handjass(unit=game,players=3,extra_per_potato=true)", ("p2=random",))))
