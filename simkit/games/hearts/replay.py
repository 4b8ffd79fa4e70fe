"""A Hearts hand move by move (``simkit replay hearts``), from the move log of
:mod:`simkit.games.hearts.engine` (its events, read back by
:func:`~simkit.games.hearts.engine.read_log`; cards in the pack's codes, the joker 64).

With ``unit=game`` the log holds the game's first hand; the score lines are then the game's.
"""
from __future__ import annotations

from simkit.engines.moves import Records
from simkit.games.hearts import engine


def _sorted(cards) -> list[int]:
    return sorted(cards, key=lambda c: (-1, 0) if c == engine.PACK_JOKER else (c >> 4, c & 15))


def _points(c: int, omnibus: bool) -> int:
    """A card's penalty points (line 218; the Omnibus 10♦ -10, line 228)."""
    if c == engine.PACK_JOKER:
        return 0
    if (c >> 4) == engine.HEARTS:
        return 1
    if c == engine.QS:
        return 13
    return -10 if omnibus and c == engine.DIAMONDS * 16 + 10 else 0


def moves(rules, log: list[int], metrics: dict) -> list[dict]:
    K, H = rules.players, rules.hand_size
    got = engine.read_log(rules, log)
    off = got["pass_offset"]
    rec = Records()
    add = rec.rec

    dealt = [[] for _ in range(K)]
    for j, c in enumerate(got["dealt"]):
        dealt[j % K].append(c)
    for p in range(K):
        add(p, "is dealt", _sorted(dealt[p]))
    npass = rules.pass_cards
    if off and npass:
        where = ("to the other player" if K == 2 else "to the left" if off == 1 else
                 "to the right" if off == K - 1 else "across" if 2 * off == K else
                 f"{off} seats on")
        for p in range(K):
            add(p, "passes", _sorted(got["passed"][p]), f"{where}, to p{(p + off) % K + 1}")
    else:
        add(None, "no cards are passed this hand")
    plays = got["plays"]
    pending = 0
    for t in range(H):
        trick = plays[t * K:(t + 1) * K]
        won = got["winners"][t]
        led = None
        pts = pending + sum(_points(c, rules.omnibus) for _, c in trick)
        for i, (p, c) in enumerate(trick):
            suit = 0 if c == engine.PACK_JOKER else c >> 4
            if i == 0:
                led, action = suit, "leads"
            else:
                action = "follows" if suit == led else "discards"
            note = ""
            if p == won:
                note = f"wins the trick ({pts} point{'s' if abs(pts) != 1 else ''})" if pts \
                    else "wins the trick"
            elif won < 0 and i == K - 1:
                note = "no one takes the trick: its cards are held over to the next"
            add(p, action, [c], note)
        pending = 0 if won >= 0 else pts
    if rules.unit == "game":
        score = ", ".join(f"p{k + 1} {metrics[f'p{k + 1}_score']:g}" for k in range(K))
        add(None, "the game's first hand ends; the game's final totals are",
            note=score + f" after {metrics['hands_per_game']:g} hands")
        return rec
    for k in range(K):
        moon = metrics[f"p{k + 1}_moon"] > 0
        add(k, f"scores {metrics[f'p{k + 1}_points']:g} points",
            note="shoots the moon" if moon else "")
    return rec

