"""Durak's move log in a player's words (``simkit replay durak``).

Reads the event stream of :mod:`simkit.games.durak.engine` (the house's events,
:func:`simkit.engines.moves.split_event`): the
hands dealt three and three (line 168), the trump card under the stock, each bout's attack, beats
or take and throw-ins, the drawing (the attacker to six first, then the defender, line 182; the
turned-up trump comes last), and each game's end.  The drawn cards are not logged: they are the
stock's next cards in dealing order, which the ``DECK`` entries give.
"""
from __future__ import annotations

from simkit.engines.moves import Records, split_event
from simkit.games.durak import engine


def _entries(log):
    for e in log:
        if e < 0:
            return
        kind, seat, aux, card = split_event(e)
        yield engine.KINDS[kind - 1], seat, aux, card


def moves(rules, log, metrics):
    """One unit's move-log row as records (see :mod:`simkit.core.replay`); a game is a deal."""
    out = Records()
    game = 0
    redeals = 0
    deck = []
    hands = [[], []]
    table = []
    stock = []
    att = 0
    took = False
    wins = [0, 0]
    super_short = rules.form == "super_short"

    for kind, seat, aux, x in _entries(log):
        if kind == "REDEAL":
            redeals += 1
        elif kind == "GAME":
            game += 1
            out.deal = game
            att = seat
            deck = []
        elif kind == "DECK":
            deck.append(x)
            if len(deck) == 36:
                if redeals:
                    out.rec(None, "redeals", [], f"neither hand held a trump ({redeals}x)")
                    redeals = 0
                hands = [deck[0:3] + deck[6:9], deck[3:6] + deck[9:12]]
                stock = [] if super_short else deck[13:36] + [deck[12]]
                for s in (0, 1):
                    out.rec(s, "is dealt", hands[s])
                out.rec(None, "turns up the trump", [deck[12]],
                    "the stock is set aside" if super_short else f"{len(stock)} in the stock")
                out.rec(att, "opens", [], "first attacker")
        elif kind == "ATTACK":
            table = [x]
            took = False
            hands[att].remove(x)
            out.rec(att, "attacks", [x])
        elif kind == "BEAT":
            table.append(x)
            hands[1 - att].remove(x)
            out.rec(1 - att, "beats", [x])
        elif kind == "THROW":
            table.append(x)
            hands[att].remove(x)
            out.rec(att, "throws in", [x], "onto the cards taken" if took else "")
        elif kind == "TAKE":
            took = True
            out.rec(1 - att, "takes", [], "gives up the defence")
        elif kind == "STOP":
            if took:
                hands[1 - att] += table
                out.rec(1 - att, "takes the cards", table)
            else:
                out.rec(None, "beaten off", table, "the cards go to the discard")
            table = []
        elif kind == "DRAW":          # the attacker's, then the defender's
            got = []
            while len(hands[seat]) + len(got) < 6 and stock:
                got.append(stock.pop(0))
            hands[seat] += got
            if got:
                out.rec(seat, "draws from the stock", got, f"{len(stock)} left")
            if len(hands[seat]) != aux:
                raise ValueError(f"durak log: p{seat + 1} holds {aux} after a draw, replayed "
                                 f"{len(hands[seat])}")
            if seat != att and not took:
                att = 1 - att
        elif kind == "END":
            x = aux
            if x < 2:
                wins[x] += 1
                note = f"p{x + 1} is out"
            else:
                note = "a draw: both out at once" if x == 2 else "unfinished"
            if rules.unit == "match":
                note += f"; games won {wins[0]}-{wins[1]}"
            if x < 2:
                out.rec(1 - x, "is the durak", hands[1 - x], note)
            else:
                out.rec(None, "game ends", [], note)
    return out
