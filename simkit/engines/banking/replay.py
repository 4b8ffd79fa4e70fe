"""A banker's round move by move, from its move log (the house's events, who received each card
in the order dealt: :func:`simkit.engines.banking.round.put_cards`): what ``simkit replay``
prints for Очко's round and for each round of an Очко session."""
from __future__ import annotations

from simkit.core.cards import ACE, JACK, KING, QUEEN
from simkit.engines.banking.round import E_DEAL, E_DRAW, card_values
from simkit.engines.moves import Records, split_event


PICTURES = (JACK, QUEEN, KING)


def hand_word(rules, cards, values) -> tuple[str, str]:
    """``(verb, total)`` where a hand of ``cards`` ends: stands, busts, a golden point (two
    aces), five pictures."""
    total = sum(int(values[c]) for c in cards)
    if rules.golden_point and len(cards) == 2 and all(c & 15 == ACE for c in cards):
        return "holds a golden point", f"two aces, {total}"
    if rules.five_pictures and len(cards) == 5 and all(c & 15 in PICTURES for c in cards):
        return "holds five pictures", f"{total}"
    return ("busts with" if total > 21 else "stands with"), f"{total}"


def round_cards(log) -> tuple[list, list]:
    """A round's ``DEAL`` and ``DRAW`` events as ``(seat, card)`` pairs (other events, -1s
    skipped)."""
    deal, draw = [], []
    for e in log:
        if e >= 0:
            kind, seat, _, card = split_event(e)
            if kind == E_DEAL:
                deal.append((seat, card))
            elif kind == E_DRAW:
                draw.append((seat, card))
    return deal, draw


def round_moves(rules, log: list[int], deal: int = 1) -> list[dict]:
    """A round's cards from its move log (:func:`round_cards`): the deal, each player's cards
    and where he stops, the banker's (no card when no player is left standing: his first card
    is then below his stop and he drew none)."""
    K = rules.players
    values = card_values(rules.values)
    rec = Records(deal)
    add = rec.rec

    first, later = round_cards(log)
    held = [[] for _ in range(K + 1)]
    for who, c in first:                # one card each, the banker's last and face up
        held[who].append(c)
        add(None, "the banker turns up", [c]) if who == K else add(who, "is dealt", [c])
    # then each player's draws in turn, then the banker's
    for k in range(K):
        for who, c in later:
            if who == k:
                held[k].append(c)
                add(k, "takes a card", [c])
        verb, total = hand_word(rules, held[k], values)
        add(k, verb, held[k], total)
    banker = [c for who, c in later if who == K]
    if not banker and held[K] and values[held[K][0]] < rules.banker_stop:
        add(None, "the banker draws no card", note="no player is left standing")
        return rec
    for c in banker:
        held[K].append(c)
        add(None, "the banker draws", [c])
    verb, total = hand_word(rules, held[K], values)
    add(None, f"the banker {verb}", held[K], total)
    return rec
