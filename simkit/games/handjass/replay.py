"""Handjass's move log in a player's words (``simkit replay handjass``).

Reads the deal blocks of :mod:`simkit.games.handjass.engine` (the house's events of each deal,
read back as :data:`engine.DEAL_COLUMNS` by :func:`engine.deal_columns`): per deal the hands dealt in threes (or fours of twelve) by position from the Forehand (the engine's
docstring), the trump card, each player's play / drop / blind (lines 118-119, 147-152), Bessern's
swaps (lines 166-169), the trump six's exchange (line 116), Weis and Stöck (lines 94-112,
130-134), the tricks (each card logged with its player's position; the winner leads the next),
and the deal's points, strokes and potatoes.  A game's deals are numbered.
"""
from __future__ import annotations

from simkit.engines.moves import Records, cards_of, each_deal
from simkit.games.handjass import engine

L = engine.L
SUITS = ("clubs", "diamonds", "hearts", "spades")
CHOICES = {engine.DROP: "drops", engine.PLAY: "plays the deal", engine.BLIND: "takes the blind"}


def moves(rules, log, metrics):
    """One unit's move-log row as records (see :mod:`simkit.core.replay`)."""
    out = Records()
    for b in each_deal(out, log, engine.NHEAD, engine.BLOCK_W, log[0], engine.log_deals(rules)):
        deal_moves(rules, out, engine.deal_columns(b))
    if rules.unit == "game":
        lose = [k for k in range(rules.players) if metrics[f"p{k + 1}_lose"]]
        out.rec(lose[0] if lose else None, "loses the game" if lose else "game ends", [],
                "" if lose else "unfinished")
    return out


def deal_moves(rules, out, b):
    m = b[L.m]
    order = [b[L.ord0 + j] for j in range(m)]
    trump, tcard = b[L.trump], b[L.tcard]
    cards = [b[L.dealt0 + p] for p in range(engine.NCARDS)]
    twelve = (not rules.dropping) and m < 4
    layout = engine.hand_layout(twelve)
    hands = [[c for p, c in enumerate(cards) if layout[p] == h] for h in range(4)]
    out.rec(order[-1], "deals", [], f"p{order[0] + 1} is the Forehand")
    for j in range(m):
        out.rec(order[j], "is dealt", hands[j])
    if m < 4 and not twelve:
        extra = hands[m] if m == 3 else hands[2]
        if rules.bessern:
            out.rec(None, "the face-down threes", [c for h in range(m, 4) for c in hands[h]])
        else:
            out.rec(None, "the blind", extra, "face down")
    out.rec(None, "turns up the trump", [tcard], f"{SUITS[trump]} are trumps")
    held = {j: list(hands[j]) for j in range(m)}
    off = 9 if m == 3 else 6
    for j in range(m):
        if b[L.bess0 + j] >= 0 and rules.bessern:
            gave = cards_of(b[L.bess0 + j])
            took = cards[12 * j + off:12 * j + off + 3]
            held[j] = [c for c in held[j] if c not in gave] + took
            out.rec(order[j], "betters", gave + took, "lays three, takes his three face down")
    for j in range(m):
        c = b[L.choice0 + j]
        if c == engine.NOT_ASKED:
            continue
        if c == engine.BLIND:
            held[j] = list(hands[3 if m == 3 else 2])
            out.rec(order[j], "takes the blind", held[j], "and lays his hand aside")
        else:
            out.rec(order[j], CHOICES[c])
    plays = [b[L.play0 + q] for q in range(engine.NCARDS) if b[L.play0 + q] >= 0]
    active = [j for j in range(m) if b[L.choice0 + j] in (engine.PLAY, engine.BLIND)]
    if not plays:
        lone = [order[j] for j in active]
        if len(lone) == 1:
            out.rec(lone[0], "wins unplayed", [], "everyone else dropped")
    else:
        if b[L.exch] >= 0:
            j = b[L.exch]
            six = trump * 16 + engine.SIX
            out.rec(order[j], "exchanges", [six, tcard], "the trump six for the trump card")
        for j in active:
            if b[L.decl0 + j] or b[L.weis0 + j]:
                out.rec(order[j], "declares Weis", [], f"{b[L.weis0 + j]} counted")
            if b[L.stock0 + j]:
                out.rec(order[j], "declares Stöck", [trump * 16 + engine.KING,
                                                 trump * 16 + engine.QUEEN], "20")
        k = len(active)
        for t in range(len(plays) // k):
            trick = plays[t * k:(t + 1) * k]
            win = trick[0]
            for q, e in enumerate(trick):
                if q and engine.beats(e % 64, win % 64, trump, engine.STRENGTH):
                    win = e
            for q, e in enumerate(trick):
                j, c = e // 64, e % 64
                note = f"p{order[win // 64] + 1} wins the trick" if q == k - 1 else ""
                out.rec(order[j], "leads" if q == 0 else "follows", [c], note)
    for j in range(m):
        if b[L.choice0 + j] == engine.DROP:
            continue
        word = (f"{b[L.total0 + j]} points ({b[L.cards0 + j]} in cards)"
                + (f", strokes {b[L.strk0 + j]:+d}" if b[L.strk0 + j] else "")
                + (", a potato" if b[L.pot0 + j] else ""))
        out.rec(order[j], "scores", [], word)
    return out

