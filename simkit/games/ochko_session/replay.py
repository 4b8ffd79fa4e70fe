"""An Очко session round by round (``simkit replay ochko_session``), from the move log of
:mod:`simkit.games.ochko_session.engine` (the house's events): each round (a ``deal`` of the
records) is the bank, the first cards, the stakes on them (line 42), the round's cards as Очко's
replay tells them (:func:`simkit.engines.banking.replay.round_moves`) and what each seat wins or
loses (its stake times the payoff of its outcome category); then how the session ends (стук,
ruin or the round cap, lines 32-34) and what the banker takes."""
from __future__ import annotations

import numpy as np

from simkit.engines.banking import round as banker_round
from simkit.engines.banking.replay import round_moves
from simkit.engines.moves import split_event
from simkit.games.ochko_session.engine import (E_ROUND, E_SETTLE, E_STAKE, E_STAKE_HI,
                                               LOG_ROUNDS)


def rounds_of(log) -> list[list[int]]:
    """The session's log cut at its ``ROUND`` events: each round's events."""
    out = []
    for e in log:
        if e < 0:
            continue
        if split_event(e)[0] == E_ROUND:
            out.append([])
        elif out:
            out[-1].append(e)
    return out


def seat_values(K, events) -> tuple[list[int], list[int]]:
    """Each seat's stake (``STAKE`` and its ``STAKE_HI``, 16 bits each) and outcome category
    (``SETTLE``) from a round's events."""
    stakes, cats, shift = [0] * K, [0] * K, [0] * K
    for e in events:
        kind, seat, aux, card = split_event(e)
        if kind == E_STAKE:
            stakes[seat], shift[seat] = aux << 8 | card, 16
        elif kind == E_STAKE_HI:
            stakes[seat] |= (aux << 8 | card) << shift[seat]
            shift[seat] += 16
        elif kind == E_SETTLE:
            cats[seat] = aux
    return stakes, cats


def _money(x: float) -> str:
    return f"{x:+g}"


def moves(rules, log: list[int], metrics: dict) -> list[dict]:
    K = rules.players
    rec = []
    bank = float(rules.bank)
    stuk_bank = rules.stuk_multiple * rules.bank if rules.stuk_multiple > 0 else np.inf
    pay_of = banker_round.weights(rules)[:, banker_round.P.result]  # by outcome category
    rounds = rounds_of(log)
    logged = len(rounds)
    for r, events in enumerate(rounds):
        deal = r + 1
        stakes, cats = seat_values(K, events)
        pays = [float(pay_of[c]) for c in cats]
        last = bank >= stuk_bank
        head = dict(deal=deal, seat=None, action=f"the bank holds {bank:g}",
                    cards=[], note="стук: the last round" if last else "")
        cards = round_moves(rules, events, deal)
        bets = [dict(deal=deal, seat=k, action="stakes" if stakes[k] else "sits out", cards=[],
                     note=f"{stakes[k]:g}" if stakes[k] else "the bank cannot cover him")
                for k in range(K)]
        delta = 0.0
        results = []
        for k in range(K):
            g = stakes[k] * pays[k]
            delta -= g
            what = "wins" if pays[k] > 0 else "pushes" if pays[k] == 0 else "loses"
            results.append(dict(deal=deal, seat=k, action=what, cards=[], note=_money(g)))
        bank += delta
        rec += [head] + cards[:K + 1] + bets + cards[K + 1:] + results
    end = dict(deal=max(logged, 1), seat=None, cards=[], note="")
    if logged < metrics["rounds"]:
        rec.append(dict(end, action=f"the move log ends after {LOG_ROUNDS} rounds",
                        note=f"{metrics['rounds']:g} rounds in the session"))
    why = ("стук" if metrics["stuk"] > 0 else "the bank is broke" if metrics["bank_broke"] > 0
           else f"the round cap, max_rounds={rules.max_rounds}")
    rec.append(dict(end, action="the session ends", note=why))
    rec.append(dict(end, action=f"the banker takes {rules.bank + metrics['bank_result']:g}",
                    note=f"net {_money(metrics['bank_result'])} on his stake of {rules.bank}"))
    for k in range(K):
        rec.append(dict(end, seat=k, action="ends the session",
                        note=f"net {_money(metrics[f'p{k + 1}_result'])}"))
    return rec
