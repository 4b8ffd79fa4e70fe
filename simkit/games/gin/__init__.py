"""Gin rummy for two. Rules: ``003_25b072003b534ab4.txt`` lines 1-48 (see :mod:`.rules`).

``deadwood``, ``melds`` and ``knock`` answer meld questions about given hands; ``play_stacked``
and ``hand_log`` play one hand and show it; ``score_game`` scores a game from its hands; the
game registers as ``gin`` with presets ``ru1992`` (the text), ``gra`` (the rules open-spiel's
gin_rummy plays) and ``eaai`` (the EAAI gin rummy challenge's games to 100).
"""
from __future__ import annotations

import numpy as np

from simkit.core import cards as C
from simkit.core import play
from simkit.core.registry import GameSpec, resolve_strategies
from simkit.errors import SimkitError
from simkit.games.gin import engine, replay
from simkit.engines.melds.onedeck import (  # noqa: F401 (deadwood, melds: API)
    _hand,
    bit_code,
    deadwood,
    gin_bit,
    knock_block,
    knock_points,
    knock_result,
    mask_codes,
    meld_lists,
    melds,
    min_deadwood,
)
from simkit.games.gin.rules import GinRules
from simkit.games.gin.strategies import STRATEGIES, seats

VERSION = 2  # 2: threshold takes from the pile only to meld (greedy=0); hands stop at max_turns
OUTCOMES = engine.OUTCOMES


def prepare(rules, strategies, stacked=None):
    """The kernel's records: the rules, the seats' strategies (:class:`Seats`), the deck order
    and scratch.

    A stacked deck (card codes, already checked against the pack) is dealt in its order, the
    cards it does not name following in the pack's order; it plays single hands."""
    order = None
    if stacked is not None:
        if rules.unit != "hand":
            raise SimkitError("a stacked gin deck plays single hands (unit=hand), not whole games")
        bits = [int(gin_bit(c)).bit_length() - 1 for c in stacked]
        taken = set(bits)
        order = np.array(bits + [int(b) for b in engine.DECK if int(b) not in taken], np.int64)
    return engine.kernel_rules(rules), seats(strategies), engine.work(order)


def _rules(rules):
    if isinstance(rules, str):
        from simkit.games import parse_game
        return parse_game(rules)[1]
    return rules


def play_stacked(rules, strategies, cards) -> dict[str, float]:
    """Play one deal with the cards coming in the order given (``"As 2s ..."`` or codes): one at
    a time from the non-dealer (seat 0; seat 1 deals), then the upcard, then the stock in
    order (cards not named follow in the pack's order).  With ``swap`` the same cards are
    played again with the strategies' seats exchanged.  Returns the deal's metrics by name.
    Repeated cards and cards not in the 52-card pack are refused."""
    return play.play_stacked(SPEC, _rules(rules), strategies, cards)


def hand_log(rules="gin", strategies=None, seed: int = 1, cards=None, dealer: int = 1,
             flip: int = 0):
    """Play one hand and return ``(result, log)``: ``result`` a dict (outcome, knocker, winner,
    points, turns; seats 0 and 1, seat ``dealer`` deals), ``log`` a DataFrame with one row per
    turn (seat, source, drawn, discarded, knock).  ``cards``: a stacked deck (string or codes,
    dealt one at a time from the non-dealer, then the upcard, then the stock in order; the
    strategies' coin flips then come from core's fixed stacked-deal stream); otherwise the hand
    is the first deal of ``seed`` (the first row of ``simkit run gin --seed SEED --rows``, seats
    as given).  ``flip=1`` seats p2 in seat 0."""
    import pandas as pd
    rules = _rules(rules).replace(unit="hand", swap=False)
    strategies = resolve_strategies(SPEC, rules, strategies)
    relabel = 0 if dealer == 1 else 1          # the kernel's seat 1 deals: relabel the seats
    seated = tuple(strategies[(j ^ relabel) ^ flip] for j in range(2))
    if cards is not None:
        _, row = play.play_stacked(SPEC, rules, seated, cards, log=True)
    else:
        row = np.array(play.playthrough(SPEC, rules, seated, seed)["log"], np.int64)
    head, turns = replay.hand_events(row[:engine.hand_width(rules.max_turns)].tolist())
    turns = np.array(turns, np.int64).reshape(len(turns), 5)
    df = pd.DataFrame(dict(seat=turns[:, 0] ^ relabel,
                           source=np.where(turns[:, 1] == engine.PILE, "pile", "stock"),
                           drawn=[C.format_card(c) for c in turns[:, 2]],
                           discarded=[C.format_card(c) for c in turns[:, 3]],
                           knock=turns[:, 4].astype(bool)))
    seat = lambda s: int(s) ^ relabel if s >= 0 else -1  # noqa: E731
    res = dict(outcome=OUTCOMES[head["outcome"]], knocker=seat(head["knocker"]),
               winner=seat(head["winner"]), points=int(head["points"]), turns=int(head["turns"]))
    return res, df


def knock(knocker, defender, block: bool = False, rules="gin") -> dict:
    """What happens when ``knocker`` (10 cards) knocks against ``defender`` (10 cards), layoffs
    included: ``{"knocker": dk, "defender": dd, "gin": dk == 0, "outcome": "gin", "knock" or
    "undercut", "points": the knocker's (negative: the defender's undercut), "melds": the melds
    the knocker lays down, "deadwood_cards": his deadwood}``.

    ``block=False``: the knocker lays down a least-deadwood arrangement (among several, the one
    leaving the defender most).  ``block=True``: any arrangement within the rules'
    ``knock_limit``, the one scoring most for him after the defender's best layoffs (keeping a
    card out of a meld can block layoffs); refused when the hand cannot knock."""
    rules = _rules(rules)
    k, d = _hand(knocker, (10,)), _hand(defender, (10,))
    if int(k) & int(d):
        raise SimkitError("the two hands share a card")
    args = (rules.gin_bonus, rules.undercut_bonus, rules.undercut_on_equal)
    if block:
        if min_deadwood(k) > rules.knock_limit:
            raise SimkitError(f"the knocker's least deadwood, {int(min_deadwood(k))}, is over the "
                              f"knock limit {rules.knock_limit}")
        dk, dd, sets, runs = knock_block(k, d, rules.knock_limit, *args)
    else:
        dk, dd, sets, runs = knock_result(k, d)
    pts = int(knock_points(dk, dd, *args))
    undercut = dd < dk or (dd == dk and rules.undercut_on_equal)
    outcome = "gin" if dk == 0 else ("undercut" if undercut else "knock")
    laid = int(sets) | int(runs)
    return {"knocker": int(dk), "defender": int(dd), "gin": int(dk) == 0, "outcome": outcome,
            "points": pts,
            "melds": [C.format_cards([bit_code(i) for i in m]) for m in meld_lists(sets, runs)],
            "deadwood_cards": C.format_cards(mask_codes(int(k) & ~laid))}


def score_game(hands, rules="gin") -> dict:
    """Score a game from its hands, as the text's example (lines 20-34) does.

    ``hands``: ``(knocker, knocker_deadwood, defender_deadwood)`` per hand with players 0 and 1
    (the defender's deadwood after layoffs), or ``None`` for a drawn hand.  The game ends at the
    hand that takes a player to ``target`` (line 15, "the first to reach 100"), as the engine's
    games do; hands given after it are refused (a :class:`SimkitError` naming the hand).
    Returns each player's points and hands won, the game's winner (``None`` while nobody has
    reached the target), both totals with bonuses and the net win."""
    rules = _rules(rules)
    R = engine.kernel_rules(rules)
    score, wins = [0, 0], [0, 0]
    winner = None
    for i, h in enumerate(hands):
        if winner is not None:
            raise SimkitError(f"hand {i + 1} comes after the game ended: player {winner} reached "
                              f"{rules.target} at hand {i}")
        if h is None:
            continue
        kn, dk, dd = h
        if kn not in (0, 1):
            raise SimkitError(f"hand {i + 1}: the knocker is player 0 or 1, not {kn!r}")
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
        if score[w] >= rules.target:
            winner = w
    if winner is None:
        return dict(points=score, wins=wins, winner=None)
    w = winner
    tw, tl, shut = engine.match_totals(R, score[w], score[1 - w], wins[w], wins[1 - w])
    return dict(points=score, wins=wins, winner=w, totals={w: int(tw), 1 - w: int(tl)},
                net=int(tw - tl), shutout=bool(shut))


def notes(rules, strategies) -> list[str]:
    """Why a default run's p1_points is 0 ± 0: the seats mirror each other."""
    if rules.swap and len(set(strategies)) == 1:
        return ["note: both seats play the same strategy and swap=true plays every deal twice "
                "with the seats exchanged, so p1 and p2 mirror each other exactly: p1_points "
                "(and p1_match_net) is 0 by construction, not a fault. Compare two players with "
                "-s p2=NAME (e.g. -s p2=simple)."]
    return []


SPEC = GameSpec(
    name="gin", version=VERSION, rules=GinRules, strategies=STRATEGIES,
    default_strategy="threshold(10)", seats=lambda r: 2, metrics=engine.metrics,
    prepare=prepare, kernel=engine.run_deals, pack=lambda r: C.deck(52),
    log_columns=engine.log_columns, replay=replay.moves, notes=notes,
    presets={"ru1992": {},
             "gra": {"undercut_on_equal": False, "discard_taken": True, "unit": "hand"},
             "eaai": {"unit": "match", "game_bonus": 0, "box_bonus": 0, "shutout": False}},
    preset_docs={"ru1992": "the rule text as written (the default)",
                 "gra": "the rules open-spiel's gin_rummy plays: equal deadwood is no undercut, "
                        "the card taken may be discarded, single hands",
                 "eaai": "the EAAI gin rummy challenge: games to 100 with no game, box or "
                         "shutout bonuses"},
    title="Gin rummy for two", source="003_25b072003b534ab4.txt:1-48", bench_n=20_000,
    bench_units=lambda r: ("hands", 2.0 if r.swap else 1.0) if r.unit == "hand" else None,
    objective=lambda r: ("points", True) if r.unit == "hand" else ("match_win", True),
    match={"unit": "match"},
    digest_runs=(("gin(unit=match)", ("p1=threshold(5)",)),
                 ("gin(preset=gra)", ("p1=careful", "p2=tracker"))))
