"""Thirty-one's move log in a player's words (``simkit replay thirty_one``; ``unit=deal``, the
only unit with a move log).

Reads the event stream of :mod:`simkit.games.thirty_one.engine` (the house's events,
:func:`simkit.engines.moves.split_event`): the
dealing order of its docstring (p1 deals: his first three, in the table variant his second hand
when he may refuse, three to each other player in turn order from his left, the table or the
turned card), the dealer's choice (lines 24-27), every turn (knock, pass, exchange one or all
three; draw variant: draw from the stock or take the turned card, discard), and the end: each
hand shown with its value and who loses a life.  An all-equal deal replayed (line 53) is the
next ``deal``.
"""
from __future__ import annotations

from simkit.core.cards import format_card
from simkit.engines.moves import Records, split_event
from simkit.games.thirty_one import engine

REASON_WORDS = {"knock": "after the knock and the last round", "31": "on a 31",
                "capped": "at the turn cap, as it stands", "stock_out": "the stock is out",
                "replay": "all hands equal: the deal is replayed",
                "unresolved": "all hands equal once more: nobody loses a life"}


def points(card: int) -> int:
    r = card % 16
    return 11 if r == 14 else 10 if r >= 11 else r


def value(hand, trips: bool) -> int:
    """A hand's value: the best one suit's sum, or 30 for three of a kind (lines 41-50)."""
    if trips and len(hand) == 3 and len({c % 16 for c in hand}) == 1:
        return 30
    by = {}
    for c in hand:
        by[c // 16] = by.get(c // 16, 0) + points(c)
    return max(by.values()) if by else 0


def moves(rules, log, metrics):
    """One deal's move-log row as records (see :mod:`simkit.core.replay`)."""
    K = rules.players
    draw = rules.variant == "draw"
    order = list(range(1, K)) + [0]
    entries = []
    for e in log:
        if e >= 0:
            kind, seat, aux, card = split_event(e)
            entries.append((engine.KINDS[kind - 1], seat, aux, card))
    out = Records()
    deal = 0
    i = 0

    while i < len(entries):
        kind, _, replay, _ = entries[i]
        i += 1
        if kind != "DEAL":
            raise ValueError(f"thirty_one log: expected DEAL at entry {i - 1}, found {kind}")
        deal += 1
        out.deal = deal
        cards = []
        while i < len(entries) and entries[i][0] == "CARD":
            cards.append(entries[i][3])
            i += 1
        hands, table, pile = {}, None, []
        if replay:
            out.rec(None, "redeals", [], f"replay {replay} of an all-equal deal")
        if draw:
            hands[0] = cards[:3]
            for q, k in enumerate(order[:-1]):
                hands[k] = cards[3 + 3 * q:6 + 3 * q]
            for k in range(K):
                out.rec(k, "is dealt", hands[k])
            pile = [cards[-1]]
            out.rec(None, "turns up", pile, "the first card of the discard pile")
        else:
            refused = bool(entries[i][2])
            i += 1
            first = cards[:3]
            j = 3
            second = None
            if refused or rules.table_source == "second_hand":
                second, j = cards[3:6], 6
            for k in order[:-1]:
                hands[k] = cards[j:j + 3]
                j += 3
            if second is None:
                second = cards[j:j + 3]
            out.rec(0, "is dealt", first, "his first three")
            for k in order[:-1]:
                out.rec(k, "is dealt", hands[k])
            if refused:
                out.rec(0, "refuses", first, "lays his first three open as the table")
                out.rec(0, "takes his second hand", second)
                hands[0], table = list(second), list(first)
            else:
                out.rec(0, "keeps", first, "his first three")
                out.rec(None, "the table is laid open", second)
                hands[0], table = list(first), list(second)
        hands = {k: list(h) for k, h in hands.items()}
        while i < len(entries) and entries[i][0] != "END":
            kind, k, aux, card = entries[i]
            i += 1
            if kind == "KNOCK":
                out.rec(k, "knocks")
            elif kind == "PASS":
                out.rec(k, "passes")
            elif kind == "SWAP1":
                a, b = card, aux
                hands[k][hands[k].index(a)] = b
                table[table.index(b)] = a
                out.rec(k, "exchanges", [a, b], f"lays {_name(a)}, takes {_name(b)}; holds "
                    f"{value(hands[k], rules.trips)}")
            elif kind == "SWAP3":
                hands[k], table = table, hands[k]
                out.rec(k, "exchanges all three", hands[k], f"lays {_names(table)}; holds "
                    f"{value(hands[k], rules.trips)}")
            elif kind == "RESHUFFLE":
                out.rec(None, "reshuffles the discards", pile[:-1],
                    f"{len(pile) - 1} cards form the new stock")
                pile = pile[-1:]
            elif kind == "DRAW":
                c, src = card, aux
                if src == 0:
                    out.rec(k, "draws from the stock", [c])
                else:
                    pile.pop()
                    out.rec(k, "takes the discard", [c])
                hands[k].append(c)
            elif kind == "DISCARD":
                d = card
                hands[k].remove(d)
                pile.append(d)
                out.rec(k, "discards", [d], f"holds {value(hands[k], rules.trips)}")
        if i >= len(entries):
            break
        reason = engine.REASONS[entries[i][2]]
        i += 1
        mask = 0
        if i < len(entries) and entries[i][0] == "LOST":
            mask = entries[i][2]
            i += 1
        for k in order:
            out.rec(k, "shows", hands[k], f"{value(hands[k], rules.trips)}")
        lost = [f"p{k + 1}" for k in range(K) if mask >> k & 1]
        out.rec(None, "deal ends", [], REASON_WORDS[reason]
            + (f"; {', '.join(lost)} lose{'s' if len(lost) == 1 else ''} a life" if lost else ""))
    return out


def _name(c):
    return format_card(c, "symbols")


def _names(cs):
    return " ".join(_name(c) for c in cs)
