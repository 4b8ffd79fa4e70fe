"""Gin rummy for two. Rules: ``003_25b072003b534ab4.txt`` lines 1-48 (see :mod:`.rules`).

``deadwood``, ``melds`` and ``knock`` (from :mod:`.meldcore`) answer meld questions about given
hands; ``play_stacked`` and ``hand_log`` play one hand and show it; the game registers as
``gin`` with presets ``ru1992`` (the text), ``gra`` (the rules open-spiel's gin_rummy plays)
and ``eaai`` (the EAAI gin rummy challenge's games to 100).
"""
from __future__ import annotations

import numpy as np

from simkit.core import cards as C
from simkit.core.registry import GameSpec, parse_strategies
from simkit.errors import SimkitError
from simkit.games.gin import engine
from simkit.games.gin.meldcore import deadwood, gin_bit, knock, melds  # noqa: F401 (API)
from simkit.games.gin.rules import GinRules
from simkit.games.gin.strategies import STRATEGIES, encode

VERSION = 1


def run_chunk(rules, strategies, state, n, rows=False):
    """Play ``n`` deals from xoshiro ``state``: ``(acc[2, M], rows[n, M] or None)``."""
    M = len(engine.metrics(rules))
    acc = np.zeros((2, M))
    out = np.zeros((n if rows else 0, M))
    engine.simulate(engine.encode_rules(rules), encode(strategies), state, n, acc, out)
    return acc, (out if rows else None)


def _strategies(rules, strategies):
    if strategies is None or (isinstance(strategies, (list, tuple)) and strategies
                              and isinstance(strategies[0], str)):
        return parse_strategies(SPEC, rules, strategies)
    return strategies


def _rules(rules):
    if isinstance(rules, str):
        from simkit.games import parse_game
        return parse_game(rules)[1]
    return rules


OUTCOMES = {engine.DEAD: "dead", engine.KNOCK: "knock", engine.UNDERCUT: "undercut",
            engine.GIN: "gin"}


def hand_log(rules="gin", strategies=None, key: int = 1, cards=None, dealer: int = 1, flip: int = 0):
    """Play one hand and return ``(result, log)``: ``result`` a dict (outcome, knocker, winner,
    points, turns; seats 0 and 1, seat ``dealer`` deals), ``log`` a DataFrame with one row per
    turn (seat, source, drawn, discarded, knock).  ``cards``: a stacked deck (string or codes,
    dealt one at a time from the non-dealer, then the upcard, then the stock in order); otherwise
    the hand's cards come from ``key``.  ``flip=1`` seats p2 in seat 0."""
    import pandas as pd
    rules = _rules(rules)
    P = encode(_strategies(rules, strategies))
    order = engine.DECK.copy()
    stacked = cards is not None
    if stacked:
        codes = C.parse(cards) if isinstance(cards, str) else np.asarray(cards)
        bits = [int(gin_bit(c)).bit_length() - 1 for c in codes]
        if len(set(bits)) != len(bits):
            raise SimkitError("a stacked gin deck repeats a card")
        rest = [b for b in engine.DECK if b not in set(bits)]
        order = np.array(bits + rest, np.int64)
    log = np.full((200, engine.LOG_COLS), -1, np.int64)
    o, kn, wn, pts, turns = engine.play_hand(engine.encode_rules(rules), P, flip, dealer,
                                             np.uint64(key), order, np.zeros(52, np.int64),
                                             stacked, log)
    from simkit.games.gin.meldcore import bit_code
    log = log[log[:, 0] >= 0]
    df = pd.DataFrame(dict(seat=log[:, 0], source=np.where(log[:, 1] == 1, "pile", "stock"),
                           drawn=[C.format_card(bit_code(b)) for b in log[:, 2]],
                           discarded=[C.format_card(bit_code(b)) for b in log[:, 3]],
                           knock=log[:, 4].astype(bool)))
    res = dict(outcome=OUTCOMES[int(o)], knocker=int(kn), winner=int(wn), points=int(pts),
               turns=int(turns))
    return res, df


def score_game(hands, rules="gin") -> dict:
    """Score a game from its hands, as the text's example (lines 20-33) does.

    ``hands``: ``(knocker, knocker_deadwood, defender_deadwood)`` per hand with players 0 and 1
    (the defender's deadwood after layoffs), or ``None`` for a drawn hand.  Returns each
    player's points and hands won, the game's winner, both totals with bonuses and the net win.
    """
    rules = _rules(rules)
    R = engine.encode_rules(rules)
    score, wins = [0, 0], [0, 0]
    for h in hands:
        if h is None:
            continue
        kn, dk, dd = h
        if dk > rules.knock_limit:
            raise SimkitError(f"a knock with deadwood {dk} is over the limit {rules.knock_limit}")
        if dk == 0:
            w, pts = kn, rules.gin_bonus + dd
        elif dd < dk or (dd == dk and rules.undercut_on_equal):
            w, pts = 1 - kn, dk - dd + rules.undercut_bonus
        elif dd == dk:
            continue                      # equal and no undercut: nobody scores
        else:
            w, pts = kn, dd - dk
        score[w] += pts
        wins[w] += 1
    if max(score) < rules.target:
        return dict(points=score, wins=wins, winner=None)
    w = 0 if score[0] >= rules.target else 1
    tw, tl, shut = engine.match_totals(R, score[w], score[1 - w], wins[w], wins[1 - w])
    return dict(points=score, wins=wins, winner=w, totals={w: int(tw), 1 - w: int(tl)},
                net=int(tw - tl), shutout=bool(shut))


def _bench_cards(rules, strategies, state, n):
    """Mean cards drawn per deal, for the benchmark's random-number ceiling."""
    acc, _ = run_chunk(rules.replace(unit="hand"), strategies, state, n)
    names = [m.name for m in engine.metrics(rules.replace(unit="hand"))]
    return 21 + acc[0, names.index("turns")] / n


SPEC = GameSpec(
    name="gin", version=VERSION, rules=GinRules, strategies=STRATEGIES,
    default_strategy="threshold(10)", seats=lambda r: 2, metrics=engine.metrics,
    run_chunk=run_chunk,
    presets={"ru1992": {},
             "gra": {"undercut_on_equal": False, "discard_taken": True, "unit": "hand"},
             "eaai": {"unit": "match", "game_bonus": 0, "box_bonus": 0, "shutout": False}},
    title="Gin rummy for two", source="003_25b072003b534ab4.txt:1-48",
    bench_cards_per_deal=_bench_cards, bench_n=20_000,
    bench_units=lambda r: ("hands", 2.0 if r.swap else 1.0) if r.unit == "hand" else None)
