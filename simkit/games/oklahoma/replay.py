"""Oklahoma's move log in a player's words (``simkit replay oklahoma``).

Reads the log of :mod:`simkit.games.oklahoma.engine` (its docstring's table): the 13 cards dealt
one at a time from the dealer's left, the upcard, then each turn's draw from the stock or take of
the whole pile (its top card melded at once, lines 85-86), melds (a deuce or the joker laid as
the card it stands for), lay-offs, joker swaps, the discard and going out; then the hand's score
(line 87) from the metric row.  With ``unit=game`` the log holds the game's first hand.
"""
from __future__ import annotations

from simkit.core.cards import format_card
from simkit.engines.moves import Records, split_event
from simkit.games.oklahoma import engine


def moves(rules, log, metrics):
    """One unit's move-log row as records (see :mod:`simkit.core.replay`)."""
    K = rules.players
    dealer, nev = log[0], log[1]
    dealt = log[2:2 + K * engine.N_HAND]
    upcard = log[2 + K * engine.N_HAND]
    events = log[3 + K * engine.N_HAND:3 + K * engine.N_HAND + nev]
    out = Records()
    out.rec(dealer, "deals", [], f"p{(dealer + 1) % K + 1} plays first")
    for s in range(K):              # card j goes to the dealer's left first: seat dealer + 1 + j
        out.rec(s, "is dealt", dealt[(s - dealer - 1) % K::K])
    out.rec(None, "turns up", [upcard], "the first card of the pile")
    pile = [upcard]
    i = 0
    while i < len(events):
        kind, s, aux, c = split_event(events[i])
        i += 1
        if kind == engine.EV_DRAW:
            out.rec(s, "draws from the stock", [c])
        elif kind == engine.EV_TAKE:
            out.rec(s, "takes the discard pile", pile, f"{len(pile)} cards; the top card "
                f"{format_card(c, 'symbols')} is melded at once")
            pile = []
        elif kind in (engine.EV_MELD, engine.EV_LAYOFF):
            n = c if kind == engine.EV_MELD else 1
            laid, wild = [], []
            for _ in range(n):
                _, _, stands, card = split_event(events[i])
                i += 1
                laid.append(card)
                if stands != card:
                    wild.append(f"{format_card(card, 'symbols')} as "
                                f"{format_card(stands, 'symbols')}")
            note = f"meld {aux + 1}" + (" (" + ", ".join(wild) + ")" if wild else "")
            if kind == engine.EV_MELD:
                out.rec(s, "melds", laid, note)
            else:
                out.rec(s, "lays off", laid, f"on {note}, now {c} cards")
        elif kind == engine.EV_SWAP:
            out.rec(s, "swaps for the joker", [c], f"puts {format_card(c, 'symbols')} in the "
                f"joker's place in meld {aux + 1} and takes the joker")
        elif kind == engine.EV_DISCARD:
            pile.append(c)
            out.rec(s, "discards", [c])
        elif kind == engine.EV_OUT:
            out.rec(s, "goes out")
        elif kind == engine.EV_RESHUFFLE:
            out.rec(None, "reshuffles the pile", pile[:-1], f"{aux} cards form the new stock")
            pile = pile[-1:]
        elif kind == engine.EV_END:
            out.rec(None, "hand ends", [], "the stock is exhausted")
    if rules.unit == "game":
        out.rec(None, "game ends", [], "the game's first hand above; final totals: "
            + ", ".join(f"p{k + 1} {metrics[f'p{k + 1}_score']:g}" for k in range(K))
            + "; " + " ".join(f"p{k + 1} wins" for k in range(K) if metrics[f"p{k + 1}_win"]))
    else:
        out.rec(None, "scores", [], ", ".join(f"p{k + 1} {metrics[f'p{k + 1}_points']:g}"
                                           for k in range(K)))
    return out
