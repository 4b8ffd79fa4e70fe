"""An Очко round move by move (``simkit replay ochko``), from the move log of
:mod:`simkit.games.ochko.engine` (who received each card, in the order dealt): one card to each
player and the banker's face up (line 40), each player's cards and where he stops, the banker's,
then each player's result against the bank (lines 11-17, 30-31, 44).  The banker is no strategy
seat: his moves are table events."""
from __future__ import annotations

from simkit.engines.banking.replay import round_moves


def moves(rules, log: list[int], metrics: dict) -> list[dict]:
    rec = round_moves(rules, log)
    for k in range(rules.players):
        m = lambda x: metrics[f"p{k + 1}_{x}"]  # noqa: E731
        what = "wins" if m("win") > 0 else "pushes" if m("push") > 0 else "loses"
        ev = m("result")
        rec.append(dict(deal=1, seat=k, action=what, cards=[],
                        note=f"{ev:+g} stake{'' if abs(ev) == 1 else 's'}"))
    return rec
