"""An Old Maid game move by move (``simkit replay old_maid``), from the move log of
:mod:`simkit.games.old_maid.engine`: the deal and its pairs discarded (line 112), then each
draw from a neighbour and the pair it makes (line 113), to the one left with the odd queen."""
from __future__ import annotations

from simkit.core.cards import format_card
from simkit.engines.moves import Records, split_event
from simkit.games.old_maid.engine import MAX_LOG, N_CARDS


def _sorted(cards) -> list[int]:
    return sorted(cards, key=lambda c: (c & 15, c >> 4))


def _receive(hand: set, c: int):
    """``hand`` takes ``c``; returns the card it pairs with (both discarded), or ``None``."""
    for x in hand:
        if x & 15 == c & 15:
            hand.discard(x)
            return x
    hand.add(c)
    return None


def moves(rules, log: list[int], metrics: dict) -> list[dict]:
    K = rules.players
    rec = Records()
    add = rec.rec

    first, drawer = log[0], log[1]
    dealt = [[] for _ in range(K)]
    hands = [set() for _ in range(K)]
    pairs = [[] for _ in range(K)]
    for j in range(N_CARDS):
        p, c = (first + j) % K, log[2 + j]
        dealt[p].append(c)
        x = _receive(hands[p], c)
        if x is not None:
            pairs[p] += [x, c]
    for p in range(K):
        add(p, "is dealt", _sorted(dealt[p]))
    for p in range(K):
        if pairs[p]:
            add(p, "discards pairs", _sorted(pairs[p]),
                f"{len(hands[p])} card{'s' if len(hands[p]) != 1 else ''} left"
                + ("" if hands[p] else ": he is out"))
    add(drawer, "draws first")
    draws = log[2 + N_CARDS:]
    for x in draws:
        _, t, victim, c = split_event(x)      # a draw: the drawer, the seat drawn from, the card
        hands[victim].discard(c)
        mate = _receive(hands[t], c)
        notes = []
        if mate is not None:
            notes.append(f"a pair with {format_card(mate, 'symbols')}: both discarded")
        for q, who in ((victim, f"p{victim + 1}"), (t, "he")):
            if not hands[q]:
                notes.append(f"{who} is out")
        add(t, f"draws from p{victim + 1}", [c], "; ".join(notes))
    if len(draws) >= MAX_LOG and sum(map(bool, hands)) > 1:
        add(None, f"the move log ends after {MAX_LOG} draws",
            note=f"{metrics['draws']:g} draws in the game")
    for p in range(K):
        if metrics[f"p{p + 1}_lose"] > 0:
            add(p, "is left with the odd queen", _sorted(hands[p]), "loses")
    return rec
