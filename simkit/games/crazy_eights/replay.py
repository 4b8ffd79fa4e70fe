"""A Crazy Eights deal move by move (``simkit replay crazy_eights``), from the move log of
:mod:`simkit.games.crazy_eights.engine`: the deal, the starter (line 109), each play, draw and
pass (lines 110-111) and the score (line 112); the events read by
:func:`simkit.engines.moves.split_event` (aux the suit).  With ``unit=game`` the log holds the game's
first deal; the score lines are then the game's."""
from __future__ import annotations

from simkit.core.cards import SUIT_SYMBOLS
from simkit.engines.moves import Records, split_event
from simkit.games.crazy_eights.engine import (EV_BURY, EV_DRAW, EV_PASS, EV_PLAY, EV_STARTER,
                                              MAX_LOG)


def _sorted(cards) -> list[int]:
    return sorted(cards, key=lambda c: (c >> 4, c & 15))


def _effects(rules, c: int, suit: int, run: int, out: bool) -> list[str]:
    """What a card played does: the suit named with an eight (111), the optional rules' draws
    and skip (113-115), going out."""
    said = [f"names {SUIT_SYMBOLS[suit]}"] if c & 15 == 8 else []
    if rules.queen_spades and c == 3 * 16 + 12:
        said.append("the next player draws five")
    if rules.twos != "off" and c & 15 == 2:
        said.append(f"the next player draws {2 * run}"
                    + (" or passes it on with a two" if rules.twos == "stack" else ""))
    if rules.jacks and c & 15 == 11:
        said.append("skips the next player")
    return said + (["goes out"] if out else [])


def moves(rules, log: list[int], metrics: dict) -> list[dict]:
    K, H = rules.players, rules.cards_each
    rec = Records()
    add = rec.rec

    hands = [[] for _ in range(K)]
    for j in range(K * H):
        hands[j % K].append(log[1 + j])
    for p in range(K):
        add(p, "is dealt", _sorted(hands[p]))
    events = log[1 + K * H:]
    run = 0                             # twos played in a row (lines 114)
    put_back = "buried at the bottom of the stock" if rules.starter_eight == "bury" else \
        "shuffled back into the stock"
    for e in events:
        kind, p, suit, c = split_event(e)
        if kind == EV_BURY:
            add(None, "the starter turned is an eight", [c], put_back)
        elif kind == EV_STARTER:
            add(None, "the starter is", [c], f"{SUIT_SYMBOLS[c >> 4]} to follow")
        elif kind == EV_DRAW:
            hands[p].append(c)
            if rules.twos == "stack":
                run = 0                 # he pays for the twos (or draws with none to pay)
            add(p, "draws from the stock", [c])
        elif kind == EV_PASS:
            add(p, "passes")
        elif kind == EV_PLAY:
            hands[p].remove(c)
            run = run + 1 if c & 15 == 2 else 0
            add(p, "plays", [c], "; ".join(_effects(rules, c, suit, run, not hands[p])))
    if log[0] > MAX_LOG:
        add(None, f"the move log ends after {MAX_LOG} events", note=f"{log[0]} in the deal")
    if rules.unit == "game":
        add(None, "the game's first deal ends; the game's final totals are",
            note=", ".join(f"p{k + 1} {metrics[f'p{k + 1}_score']:g}" for k in range(K))
            + f" after {metrics['deals']:g} deals")
        return rec
    if metrics["blocked"] > 0:
        add(None, "the deal is blocked", note="the stock is out and no one can play"
            if not rules.max_plays else "no one went out")
    for q in range(K):
        if hands[q]:
            add(q, "is left with", _sorted(hands[q]))
    for q in range(K):
        if metrics[f"p{q + 1}_win"] > 0:
            add(q, "wins the deal", note=f"scores {metrics[f'p{q + 1}_points']:g} points")
    return rec
