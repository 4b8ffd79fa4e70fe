"""Klaberjass's move log in a player's words (``simkit replay klaberjass``).

Reads the deal blocks of :mod:`simkit.games.klaberjass.engine` (the house's events, read back by
:func:`engine.deal_columns` as :data:`engine.DEAL_COLUMNS`): per played deal the six cards each (lines 34, 50), the upcard, the bidding (round one: take the
upcard's suit or pass; round two: name another suit, lines 36-48), three more each and the
trump seven's exchange (line 52), the declarations (sequence, bella, lines 58-82), the tricks
(lines 86-98: the higher card of the suit led wins unless trumped; trump order J 9 A 10 K Q 8 7,
line 3) with "Партия!" claims (line 110), and the deal's points and the running score.
"""
from __future__ import annotations

from simkit.core.cards import format_card
from simkit.engines.moves import Records, cards_of, each_deal
from simkit.games.klaberjass import engine

L = engine.L
SUITS = ("clubs", "diamonds", "hearts", "spades")
PLAIN = "A 10 K Q J 9 8 7".split()
TRUMP = "J 9 A 10 K Q 8 7".split()
RANKS = {"A": 14, "K": 13, "Q": 12, "J": 11, "10": 10, "9": 9, "8": 8, "7": 7}


def strength(card: int, trump: int) -> int:
    """A card's strength in its suit (higher beats lower; lines 3-4)."""
    order = TRUMP if card // 16 == trump else PLAIN
    return len(order) - [RANKS[r] for r in order].index(card % 16)


def beats(b: int, a: int, trump: int) -> bool:
    """Does ``b`` played second take the trick led with ``a``?"""
    if b // 16 == a // 16:
        return strength(b, trump) > strength(a, trump)
    return b // 16 == trump


def moves(rules, log, metrics):
    """One unit's move-log row as records (see :mod:`simkit.core.replay`)."""
    out = Records()
    blocks = each_deal(out, log, engine.NHEAD, engine.BLOCK_W, log[0], engine.log_deals(rules))
    for j, b in enumerate(blocks):
        deal_moves(rules, out, engine.deal_columns(b, j))
    if rules.form != "short" or metrics.get("unfinished"):
        win = [k for k in (0, 1) if metrics[f"p{k + 1}_win"]]
        out.rec(win[0] if win else None, "wins the game" if win else "game ends", [],
                "" if win else "unfinished")
    return out


def deal_moves(rules, out, b):
    first, bidder, trump, rnd = b[L.opener], b[L.bidder], b[L.trump], b[L.round]
    other = 1 - first
    up, bottom = b[L.upcard], b[L.bottom]
    if b[L.redeals]:
        out.rec(None, "redeals", [], f"{b[L.redeals]} deal{'s' if b[L.redeals] > 1 else ''} thrown "
            f"in: both passed twice")
    if out.deal == 1 and rules.open_hand != "none":
        k = int(rules.open_hand[1]) - 1
        out.rec(k, "plays open-handed", [], f"starts with {rules.open_bonus} points (lines 18-22)")
    out.rec(None, "deals", [], f"p{first + 1} has the first word")
    h6 = [cards_of(b[L.hand0_6]), cards_of(b[L.hand1_6])]
    h9 = [cards_of(b[L.hand0_9]), cards_of(b[L.hand1_9])]
    for k in (first, other):
        out.rec(k, "is dealt", h6[k])
    out.rec(None, "turns up", [up])
    words = []
    if rnd == 1:
        words = [first] if bidder == first else [first, other]
        for k in words[:-1]:
            out.rec(k, "passes")
        out.rec(bidder, "takes", [], f"{SUITS[trump]} are trumps")
    else:
        for k in (first, other):
            out.rec(k, "passes", [], "round one")
        if bidder == other:
            out.rec(first, "passes", [], "round two")
        out.rec(bidder, "names trumps", [], f"{SUITS[trump]}")
    for k in (first, other):
        out.rec(k, "is dealt", [c for c in h9[k] if c not in h6[k]], "three more")
    out.rec(None, "turns up the bottom card", [bottom], "the last card of the pack")
    hands = [list(h9[0]), list(h9[1])]
    if b[L.exchanged] >= 0:
        k = b[L.exchanged]
        seven = trump * 16 + 7
        hands[k].remove(seven)
        hands[k].append(up)
        out.rec(k, "exchanges", [seven, up], f"the trump seven for the upcard "
            f"{format_card(up, 'symbols')}")
    for k in (first, other):
        seq, bel = b[L.seq0 + k], b[L.bella0 + k]
        if seq:
            out.rec(k, "declares a sequence", [], f"counted {b[L.combos0 + k] - 20 * bel}")
        if bel:
            out.rec(k, "declares bella", [trump * 16 + 13, trump * 16 + 12], "20")
    ntr = b[L.tricks]
    won = [0, 0]
    for t in range(ntr):
        c1, s1 = b[L.card0 + 2 * t], b[L.seat0 + 2 * t]
        c2, s2 = b[L.card0 + 2 * t + 1], b[L.seat0 + 2 * t + 1]
        hands[s1].remove(c1)
        hands[s2].remove(c2)
        w = s2 if beats(c2, c1, trump) else s1
        won[w] += 1
        out.rec(s1, "leads", [c1])
        out.rec(s2, "follows", [c2], f"p{w + 1} wins the trick")
    if b[L.claim] >= 0:
        k = b[L.claim]
        out.rec(k, "claims the game", [], "«Партия!»: " + ("enough points" if b[L.claim_ok]
                                                        else "short of the target: he loses"))
    out.rec(None, "scores", [],
        f"card points p1 {b[L.cards0]}, p2 {b[L.cards1]}; combinations p1 {b[L.combos0]}, "
        f"p2 {b[L.combos1]}; credited p1 {b[L.credit0]}, p2 {b[L.credit1]}"
        + (f"; score {b[L.score0]}-{b[L.score1]}" if rules.form != "short" else "")
        + (f"; {b[L.pending]} hanging" if b[L.pending] else ""))
    return out
