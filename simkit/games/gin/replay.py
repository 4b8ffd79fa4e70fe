"""A gin deal move by move (``simkit replay gin``), from the move log of
:mod:`simkit.games.gin.engine` (``unit=hand``; the house's events, one block per hand, read by
:func:`hand_events`): each hand's turns (the upcard, a draw from the stock or the discard, the
discard, the knock; lines 8-11) and its result (lines 12-14).  With ``swap`` the deal's second
hand is the same cards with the strategies' seats exchanged.

The log keeps no dealt hands (the cards drawn and discarded only), so the hands are not shown;
the seats are the strategies' (``p1``, ``p2``), whichever kernel seat they sit in."""
from __future__ import annotations

from simkit.engines.moves import Records, split_event
from simkit.games.gin.engine import (
    DEAD,
    E_END,
    E_KNOCK,
    E_PILE,
    E_SCORE,
    E_STOCK,
    GIN,
    OUTCOMES,
    PILE,
    STOCK,
    UNDERCUT,
    hand_width,
)


def hand_events(block) -> tuple[dict, list[tuple[int, int, int, int, bool]]]:
    """A hand's block of events as ``(head, turns)``: ``head`` its outcome, knocker and winner
    (kernel seats, -1 none), points and turns; ``turns`` one ``(seat, source, drawn, discarded,
    knock)`` per turn (source :data:`STOCK` or :data:`PILE`, card codes)."""
    head = dict(outcome=DEAD, knocker=-1, winner=-1, points=0, turns=0)
    turns = []
    for e in block:
        if e < 0:
            break
        kind, seat, aux, card = split_event(e)
        if kind in (E_STOCK, E_PILE):
            turns.append([seat, PILE if kind == E_PILE else STOCK, card])
        elif kind == E_END:
            head["outcome"] = aux
            head["knocker"] = -1 if aux == DEAD else seat
        elif kind == E_SCORE:
            head["winner"], head["points"] = seat, aux << 8 | card
        elif turns and len(turns[-1]) == 3:        # the turn's discard or knock
            turns[-1] += [card, kind == E_KNOCK]
    head["turns"] = len(turns)
    return head, [tuple(t) for t in turns]


def moves(rules, log: list[int], metrics: dict) -> list[dict]:
    width = hand_width(rules.max_turns)
    log = list(log) + [-1] * (width * (2 if rules.swap else 1) - len(log))
    rec = Records()
    add = rec.rec
    for flip in range(2 if rules.swap else 1):
        rec.deal = flip + 1
        base = flip * width
        head, turns = hand_events(log[base:base + width])
        dealer = 1 ^ flip                       # the kernel's seat 1 deals
        add(dealer, "deals", note="ten cards each, the upcard turned" +
            (" (the first hand's cards, the seats exchanged)" if flip else ""))
        for t, (q, src, drawn, disc, knock) in enumerate(turns):
            seat = q ^ flip
            if t == 0 and src == PILE and q == 1:
                add(0 ^ flip, "passes the upcard")
            elif t == 0 and src != PILE:
                add(seat, "passes the upcard")
                add(dealer, "passes the upcard")
            if src == PILE:
                add(seat, "takes the upcard" if t == 0 else "takes the discard", [drawn])
            else:
                add(seat, "draws from the stock", [drawn])
            if knock:
                gin = head["outcome"] == GIN
                add(seat, "goes gin, discarding" if gin else "knocks, discarding", [disc])
            else:
                add(seat, "discards", [disc])
        outcome, winner, points = head["outcome"], head["winner"], head["points"]
        if outcome == DEAD:
            add(None, "the hand is dead", note=f"after {head['turns']} turns"
                + (f" (the cap, max_turns={rules.max_turns})" if head["turns"] >= rules.max_turns
                   else f": {rules.dead_stock} cards left in the stock"))
        elif winner < 0:
            add(None, "nobody scores", note="equal deadwood, and that is no undercut")
        else:
            what = {GIN: "gin", UNDERCUT: "undercuts the knocker"}.get(outcome,
                                                                         OUTCOMES[outcome])
            add(winner ^ flip, f"scores {points} points", note=what)
    if rules.swap:
        add(None, "p1's net over the two hands", note=f"{metrics['p1_points']:+g} points per hand")
    return rec
