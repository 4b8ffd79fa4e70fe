"""Canasta's move log in a player's words (``simkit replay canasta``), card by card.

Reads the log of :mod:`simkit.games.canasta.engine` (the format of CANASTA.md): the deal one card
at a time from the dealer's left, the upcard (and the cards covering a wild or red-three upcard),
red threes faced and replaced, then each turn's draw or pile take (its top card laid at once),
the lays on the side's melds (a meld is named by its rank), asking partner, the discard, going
out; then the hand's score per side from the metric row.  With ``unit=game`` the log holds the
game's first hand.
"""
from __future__ import annotations

from simkit.engines.moves import Records, split_event
from simkit.games.canasta import engine as E

RANKS = {3: "threes", 4: "fours", 5: "fives", 6: "sixes", 7: "sevens", 8: "eights", 9: "nines",
         10: "tens", 11: "jacks", 12: "queens", 13: "kings", 14: "aces"}


def moves(rules, log, metrics):
    """One unit's move-log row as records (see :mod:`simkit.core.replay`)."""
    K = int(log[2])
    dealer, nev = int(log[0]), int(log[1])
    head = E.nhead(rules)
    events = [int(e) for e in log[head:head + nev]]
    out = Records()
    mins = (f"{log[7]} (p1's side), {log[8]} (p2's side)" if K != 3
            else f"{log[7]} (p1), {log[8]} (p2); p3's from its own score")
    out.rec(dealer, "deals", [], f"p{(dealer + 1) % K + 1} plays first; initial minimums {mins}")
    dealt = [[] for _ in range(K)]
    j = 0
    while j < len(events) and split_event(events[j])[0] == E.EV_DEAL:
        _, s, _, c = split_event(events[j])
        dealt[s].append(c)
        j += 1
    for s in range(K):
        out.rec(s, "is dealt", dealt[s])
    lay_seat, laid, meld = None, [], None

    def flush():
        nonlocal laid, lay_seat, meld
        if laid:
            name = (f"sequence {meld - E.SEQ_ID + 1}" if meld >= E.SEQ_ID else
                    RANKS.get(meld, meld))
            out.rec(lay_seat, "lays", laid, f"on the side's {name}")
        laid, lay_seat, meld = [], None, None

    for e in events[j:]:
        kind, s, aux, c = split_event(e)
        if kind != E.EV_LAY or s != lay_seat or aux != meld:
            flush()
        if kind == E.EV_LAY:
            lay_seat, meld = s, aux
            laid.append(c)
        elif kind == E.EV_UP:
            out.rec(None, "turns up", [c], "the pile is frozen" if E.RI[c] < 3 else "")
        elif kind == E.EV_RED3:
            out.rec(s, "faces a red three", [c], "from the pile, not replaced" if aux else "")
        elif kind == E.EV_DRAW:
            out.rec(s, "draws" + (" a replacement" if aux else ""), [c])
        elif kind == E.EV_TAKE:
            out.rec(s, "takes the pile", [c], f"{aux} cards; its top card is laid at once")
        elif kind == E.EV_PILE:
            out.rec(s, "takes the rest of the pile into the hand", [], f"{aux} cards")
        elif kind == E.EV_DISCARD:
            out.rec(s, "discards", [c])
        elif kind == E.EV_ASK:
            out.rec(s, "asks partner: may I go out?", [], "yes" if aux else "no (binding)")
        elif kind == E.EV_OUT:
            out.rec(s, "goes out" + (" concealed" if aux else ""))
        elif kind == E.EV_LONE:
            out.rec(s, "is the lone hand", [], "the first to take the pile; the other two are "
                    "partners, their melds merged" if aux == 0 else
                    "out before anyone took the pile; the other two score together")
        elif kind == E.EV_END:
            out.rec(None, "hand ends", [], ("a player went out", "the stock is exhausted",
                                            "the turn limit")[aux])
    flush()
    if rules.unit == "game":
        out.rec(None, "game ends", [], "the game's first hand above; final totals: "
                + ", ".join(f"p{k + 1} {metrics[f'p{k + 1}_score']:g}"
                            for k in range(K if K == 3 else min(K, 2))))
    elif K == 3:
        out.rec(None, "scores", [], ", ".join(
            f"p{k + 1} {metrics[f'p{k + 1}_points']:g}" for k in range(K)))
    else:
        out.rec(None, "scores", [], ", ".join(
            f"p{k + 1}'s side {metrics[f'p{k + 1}_points']:g}" for k in range(min(K, 2))))
    return out
