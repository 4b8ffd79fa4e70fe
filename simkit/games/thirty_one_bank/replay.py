"""«31» with a bank: the move log in a player's words (``simkit replay thirty_one_bank``).

The log (:func:`simkit.games.thirty_one_bank.engine.log_columns`) is the house's events
(:func:`simkit.engines.moves.split_event`), one per card dealt, its seat the one who receives it
and its aux the talia's round: ``DEAL``, three rounds of one card to p1..pK then the banker (seat
K), then ``DRAW``, each punter's draws in seat order and the banker's (lines 91-94);
``RESHUFFLE`` (aux the round) marks the spent cards shuffled in (line 96).  The banker is no
strategy seat: his moves are table events ("the banker draws").  A talia's rounds are its
``deal`` 1, 2, ...  Each round ends with the hands' totals (an ace 1 or 11, pictures 10, line
91) and, per punter, who pays whom (lines 92-94).
"""
from __future__ import annotations

from simkit.engines.moves import Records, split_event
from simkit.games.thirty_one_bank import engine


def points(card: int) -> int:
    r = card % 16
    return 1 if r == 14 else 10 if r >= 11 else r


def best(hand) -> int:
    """The best total: aces raised to 11 while it stays within 31 (the hard total if over)."""
    t = sum(points(c) for c in hand)
    for c in hand:
        if c % 16 == 14 and t + 10 <= 31:
            t += 10
    return t


def outcome(rules, punter, banker) -> str:
    """A punter's result against the banker, by the hands (lines 92-94): paid, push or pays."""
    p31, b31 = len(punter) == 3 and best(punter) == 31, len(banker) == 3 and best(banker) == 31
    if p31 and b31:
        return "push" if rules.both31 == "push" else "paid"
    if p31:
        return "paid"
    if best(punter) > 31:
        return "pays"
    if b31:
        return "pays"
    if best(banker) > 31:
        return "paid"
    if best(punter) == best(banker):
        return "push"
    return "paid" if best(punter) > best(banker) else "pays"


RESHUFFLE = -2                   # the seat a reshuffle stands in for in moves' triples
BANKER = {"is dealt": "is dealt", "hits": "draws", "stands": "stands"}
WORDS = {"paid": "is paid", "push": "a push: nobody pays", "pays": "pays the banker"}


def moves(rules, log, metrics):
    """One unit's move-log row (a round, or a talia of rounds) as records."""
    K = rules.punters
    triples = []                 # (round, seat, card); (round, RESHUFFLE, 0) for a reshuffle
    for e in log:
        if e >= 0:
            kind, seat, rnd, c = split_event(e)
            triples.append((rnd, RESHUFFLE if kind == engine.E_RESHUFFLE else seat, c))
    out = Records()

    def say(seat, action, cards=(), note=""):
        """A punter's move, or the banker's (seat K) as a table event: he is no strategy seat."""
        if seat == K:
            out.rec(None, f"the banker {BANKER.get(action, action)}", cards, note)
        else:
            out.rec(seat, action, cards, note)

    rounds = []
    for rnd, to, c in triples:
        if rnd < 0:
            break
        if not rounds or rounds[-1][0] != rnd:
            rounds.append((rnd, []))
        rounds[-1][1].append((to, c))
    for rnd, cards in rounds:
        out.deal = rnd + 1
        hands = {s: [] for s in range(K + 1)}
        dealt = 0
        cur = 0                      # the seat whose turn to draw it is
        for to, c in cards:
            if to == RESHUFFLE:
                out.rec(None, "the spent cards are shuffled in", [], "the pack ran out")
                continue
            if dealt < 3 * (K + 1):
                hands[to].append(c)
                dealt += 1
                if dealt == 3 * (K + 1):
                    for s in range(K + 1):
                        t = best(hands[s])
                        say(s, "is dealt", hands[s], "31 dealt" if t == 31 else f"{t}")
                continue
            for s in range(cur, to):
                _stop(say, s, hands[s])
            cur = to
            hands[to].append(c)
            t = best(hands[to])
            say(to, "hits", [c], f"{t}" if t <= 31 else f"{t}: over 31")
        if dealt == 3 * (K + 1):
            for s in range(cur, K + 1):
                _stop(say, s, hands[s])
        for s in range(K):
            out.rec(s, "settles", [], WORDS[outcome(rules, hands[s], hands[K])]
                + f" ({best(hands[s])} against {best(hands[K])})")
    return out


def _stop(say, seat, hand):
    """A seat's turn over: it stands (not over 31, not dealt 31: that is paid at once)."""
    if best(hand) < 31 or (best(hand) == 31 and len(hand) > 3):
        say(seat, "stands", [], f"on {best(hand)}")
