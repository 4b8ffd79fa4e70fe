"""Stovkahra's move log in a player's words (``simkit replay stovkahra``).

Reads the deal blocks of :mod:`simkit.games.stovkahra.engine` (the house's events, read back by
:func:`engine.deal_columns` as :data:`engine.DEAL_COLUMNS`): per deal the cut (a game's later deals are the gathered tricks, cut), the cards dealt 3-2-3 from the
dealer's left (line 215; the dealer's last card shows trumps), the combinations declared eldest
first (lines 203-211), the tricks (lines 216-217: the eldest leads, the winner of a trick leads
the next; the higher card of the suit led wins unless trumped), "dost" (line 218), and the
side's scores after the deal.  Seats 0..3 are p1..p4 clockwise; p1 and p3 are one side.
"""
from __future__ import annotations

from simkit.engines.moves import Records, each_deal
from simkit.games.stovkahra import engine

L = engine.L
SUITS = ("clubs", "diamonds", "hearts", "spades")
RANK_WORDS = {14: "aces", 13: "kings", 12: "overs", 11: "unders", 10: "tens", 7: "sevens"}


def beats(c: int, best: int, trump: int) -> bool:
    if c // 16 == best // 16:
        return c % 16 > best % 16
    return c // 16 == trump


def moves(rules, log, metrics):
    """One unit's move-log row as records (see :mod:`simkit.core.replay`)."""
    out = Records()
    played = log[engine.H.played]
    for b in each_deal(out, log, engine.NHEAD, engine.BLOCK_W, played, engine.log_deals(rules)):
        deal_moves(out, engine.deal_columns(b))
    if rules.unit != "deal":
        out.rec(None, "unit ends", [], f"brčka p1/p3 {log[engine.H.brcka0]}, p2/p4 "
                f"{log[engine.H.brcka1]}; games {log[engine.H.games]}")
    return out


def deal_moves(out, b):
    dealer, trump = b[L.dealer], b[L.trump]
    pack = [b[L.pack0 + j] for j in range(engine.NCARDS)]
    if b[L.cut] >= 0:
        out.rec(None, "the pack is cut", [], f"at {b[L.cut]} cards")
    out.rec(dealer, "deals", [], f"game {b[L.game] + 1}, deal {b[L.deal] + 1}")
    hands = {k: [] for k in range(4)}
    for p, c in enumerate(pack):
        hands[(dealer + int(engine.OFFSETS[p])) % 4].append(c)
    for j in range(1, 5):
        k = (dealer + j) % 4
        out.rec(k, "is dealt", hands[k])
    out.rec(dealer, "shows the trump", [pack[-1]], f"{SUITS[trump]} are trumps (his last card)")
    claimer, ntr = b[L.claimer], b[L.tricks]
    for j in range(1, 5):
        k = (dealer + j) % 4
        ranks = [r for r in range(16) if b[L.decl0 + k] >> r & 1]
        for r in ranks:
            cs = [c for c in hands[k] if c % 16 == r]
            pts = (engine.COMBO4 if len(cs) == 4 else engine.COMBO3)[r]
            out.rec(k, "declares", cs, f"{'four' if len(cs) == 4 else 'three'} {RANK_WORDS[r]}: "
                f"{pts}")
        if claimer == k and ntr == 0 and ranks:
            out.rec(k, "says dost", [], "claims the game")
    leader = (dealer + 1) % 4
    for t in range(ntr):
        trick = [b[L.card0 + 4 * t + q] for q in range(4)]
        w = 0
        for q in range(1, 4):
            if beats(trick[q], trick[w], trump):
                w = q
        ws = (leader + w) % 4
        for q, c in enumerate(trick):
            out.rec((leader + q) % 4, "leads" if q == 0 else "follows", [c],
                f"p{ws + 1} wins the trick" if q == 3 else "")
        leader = ws
    if claimer >= 0 and ntr > 0:
        out.rec(claimer, "says dost", [], "claims the game")
    if claimer >= 0:
        out.rec(None, "dost", [], "good" if b[L.claim_ok] else "short: the other side wins")
    note = f"score p1/p3 {b[L.score0]}, p2/p4 {b[L.score1]}"
    if b[L.winner] >= 0:
        note += (f"; side p{b[L.winner] + 1}/p{b[L.winner] + 3} wins the game"
                 + (f", {b[L.brcka]} brčka" if b[L.brcka] else ""))
    out.rec(None, "scores", [], note)
    return out
