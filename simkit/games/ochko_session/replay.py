"""An Очко session round by round (``simkit replay ochko_session``), from the move log of
:mod:`simkit.games.ochko_session.engine`: each round (a ``deal`` of the records) is the bank,
the first cards, the stakes on them (line 42), the round's cards as Очко's replay tells them
(:func:`simkit.engines.banking.replay.round_moves`, the cards dealt again from the round's key) and
what each seat wins or loses; then how the session ends (стук, ruin or the round cap, lines
32-34) and what the banker takes."""
from __future__ import annotations

import numpy as np

from simkit.core import cards as C
from simkit.core.play import wraps
from simkit.engines.banking import round as banker_round
from simkit.engines.banking.replay import round_moves
from simkit.games.ochko_session.engine import LOG_HEAD, LOG_ROUNDS, LOG_SEAT, PAY_SCALE


def round_log(rules, key: int, ncards: int, held) -> list[int]:
    """The Очко move log of the round with ``key`` that dealt ``ncards`` cards, the players
    ending with ``held`` cards (the banking engine's :func:`~simkit.engines.banking.round.write_log`)."""
    K = rules.players
    deck = C.deck(rules.deck)
    row = np.full((1, 2 * len(deck)), -1, np.int64)
    h = np.zeros(K + 1, np.int64)
    h[:K] = held
    with wraps():
        banker_round.write_log(row, 0, deck, False, np.uint64(key), h, ncards)
    return row[0].tolist()


def _money(x: float) -> str:
    return f"{x:+g}"


def moves(rules, log: list[int], metrics: dict) -> list[dict]:
    K = rules.players
    width = len(LOG_HEAD) + len(LOG_SEAT) * K
    rec = []
    bank = float(rules.bank)
    stuk_bank = rules.stuk_multiple * rules.bank if rules.stuk_multiple > 0 else np.inf
    logged = log[0]
    for r in range(logged):
        deal = r + 1
        c = 1 + r * width
        hi, lo, ncards = log[c:c + 3]
        held = log[c + 3:c + 3 + K]
        stakes = log[c + 3 + K:c + 3 + 2 * K]
        pays = [x / PAY_SCALE for x in log[c + 3 + 2 * K:c + 3 + 3 * K]]
        last = bank >= stuk_bank
        head = dict(deal=deal, seat=None, action=f"the bank holds {bank:g}",
                    cards=[], note="стук: the last round" if last else "")
        cards = round_moves(rules, round_log(rules, (hi << 32) | lo, ncards, held), deal)
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
