"""Panguingue's move log in a player's words (``simkit replay panguingue``).

Reads the log of :mod:`simkit.games.panguingue.engine` (its docstring's table), deal by deal (a
session's row holds every deal that fits): the cards dealt in fives from the eldest, the upcard, the go-on-top decisions (line 93), then each turn's
forced take (line 100), take of the top discard or draw from the stock (line 94), melds and
additions (95-96) with the conditions they collect (97-99), the discard and the win (100); then
the deal's chips (101) from the metric row.
"""
from __future__ import annotations

from simkit.engines.moves import Records, log_ends, split_event
from simkit.games.panguingue import engine


def moves(rules, log, metrics):
    """One unit's move-log row as records (see :mod:`simkit.core.replay`): each logged deal
    (a session's row holds every deal that fits, :func:`engine.log_blocks`)."""
    K = rules.players
    out = Records()
    blocks, played = engine.log_blocks(rules, log)
    for j, b in enumerate(blocks):
        out.deal = j + 1
        deal_moves(out, rules, b)
    if rules.unit == "session":
        log_ends(out, played, len(blocks))
        out.rec(None, "session ends", [], f"chips over its {rules.deals} deals: "
                + ", ".join(f"p{k + 1} {metrics[f'p{k + 1}_chips']:+g}" for k in range(K)))
    else:
        out.rec(None, "chips", [], ", ".join(f"p{k + 1} {metrics[f'p{k + 1}_chips']:+g}"
                                             for k in range(K)))
    return out


def deal_moves(out, rules, log):
    """One deal's block (the layout of :mod:`engine`'s docstring) as records."""
    K = rules.players
    n = K * engine.N_HAND
    dealer, nev = log[0], log[1]
    dealt = log[engine.NHEAD:engine.NHEAD + n]
    upcard = log[engine.NHEAD + n]
    events = log[engine.NHEAD + n + 1:engine.NHEAD + n + 1 + nev]
    eldest = (dealer + 1) % K
    out.rec(dealer, "deals", [], f"p{eldest + 1} is eldest; play goes to the right: "
            f"p{eldest + 1}, p{(eldest + 1) % K + 1}, ...")
    for s in range(K):
        out.rec(s, "is dealt", [c for j, c in enumerate(dealt) if (eldest + j // 5) % K == s])
    out.rec(None, "turns up", [upcard], "the first card of the discard pile")
    i = 0
    while i < len(events):
        kind, s, aux, c = split_event(events[i])
        i += 1
        if kind == engine.EV_TOP:
            out.rec(s, "goes on top" if aux else "stays",
                    [], f"pays {rules.forfeit} chips to the pot" if aux else "")
        elif kind == engine.EV_DEMAND:
            out.rec(s, "demands the forced take", [c], f"p{aux + 1} must take and meld it")
        elif kind == engine.EV_TAKE:
            out.rec(s, "takes the discard", [c], "melded at once")
        elif kind == engine.EV_DRAW:
            out.rec(s, "draws from the stock", [c])
        elif kind == engine.EV_MELD:
            laid = [split_event(e)[3] for e in events[i:i + c]]
            i += c
            out.rec(s, "melds", laid, f"meld {aux + 1}")
        elif kind == engine.EV_ADD:
            out.rec(s, "adds", [c], f"to meld {aux + 1}")
        elif kind == engine.EV_PAY:
            out.rec(s, "collects a condition", [], f"{aux} from each active player")
        elif kind == engine.EV_DISCARD:
            out.rec(s, "discards", [c])
        elif kind == engine.EV_OUT:
            out.rec(s, "wins", [], "eleven cards melded" if rules.players > 1 else "")
        elif kind == engine.EV_BORROW:
            out.rec(s, "borrows", [c], f"from meld {aux + 1} (line 99): the new meld follows")
        elif kind == engine.EV_SPLIT:
            laid = [split_event(e)[3] for e in events[i:i + c]]
            i += c
            out.rec(s, "splits", laid, f"off meld {aux + 1} into a new meld (line 99)")
        elif kind == engine.EV_END:
            out.rec(None, "deal ends", [], "the stock is exhausted: no winner")
