"""Cancellation Hearts (002:229-232) on stacked deals whose outcome is worked out by hand.

The text (``shared/rules/002_17c4cc3dde05b547.txt``): 229: 5-11 players, two decks; "if a pair
of equal cards is played they cancel each other in the ranking of the trick but still count
points: if both aces of hearts are played the next highest card wins the trick, and the winner
still gets two heart points"; "if a trick holds 2 pairs of any cards it is void and its cards go
to the winner of the next trick"; "pairing the Q♠ gives the winner of the trick a crushing 26".
231: the deal per player count (5: a joker added, 21 each, the joker leads; 6: a 2♣ and a 2♦ out,
17 each, the remaining 2♣ leads; 8: a joker added and a 2♣ out, 13 each, the joker leads; 10: a
2♣, both 2♦ and a 2♠ out, 10 each, the 2♣ leads).  232: the joker is the zero of clubs.  220:
the lowest club leads, players follow suit, the highest card of the led suit wins and its winner
leads next; on the first trick nobody may play a heart or the Q♠ while holding anything else.
222: hearts 1 point each, Q♠ 13; all of them in one hand is the moon.  The readings the code
chose (``simkit/games/hearts/rules.py``) used here: hearts may not be led until one has been
played unless the leader holds only hearts; after a held-over trick its leader leads again; the
moon gives each other player the points in play, 52 with two decks; ``holdover=no_winner`` holds
a trick over only when no card of the led suit survives.

Every deal below is built so that its points (and the winner of every trick) are the same
whatever legal card any player picks; the argument is written out for each deal, trick by trick
where the cards are forced and by a counting argument where they are not.  The tools:

* *forced*: the first lead is the lowest club (220, 231); a player whose only cards of the led
  suit are one card (or its two copies) must play it; on the first trick a player void in clubs
  whose only cards other than hearts and the Q♠ are one card must play it (220); a leader whose
  only non-heart cards are one card must lead it while no heart has been played.
* *no stray pairs*: a card whose two copies sit in one hand can never be paired in a trick (a
  player plays one card per trick).  Every deal gives both copies of a card to one player except
  a few listed "split" cards; with at most one split card left in play no trick can hold two
  pairs by chance.
* *control*: a player who leads a card no other player holds a copy of, higher than every card
  of its suit anyone else holds, wins the trick whatever the others play: nobody can cancel it,
  and the trick could only be held over with two pairs, which needs two split cards to meet.

Not covered: a last trick held over (its points lost).  No deal here forces one: a player's
last card is fixed only if he must follow another suit on every earlier trick (a void player
may drop anything, and the leader's choice is free once a heart has been played), and one suit
does not hold enough cards for the leader's leads plus the four such followers that two pairs
on the last trick would need.

Strategy coins: ``play_stacked`` plays one deal from the fixed stream state ``ones(4)``, so a
given strategy mix always plays the same way; :func:`plays` below runs the game's kernel on a
stacked deck (``prepare(..., stacked=deck)``: the cards in the given order every deal) for many
deals from a seeded stream:
each deal takes a new key and so new coins for the ``random`` seats (``heuristic`` and ``moon``
do not draw).  ``test_random_seats_do_vary`` checks that they do.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from simkit.core import cards as C
from simkit.core.play import check_stack
from simkit.core.registry import parse_strategies
from simkit.games import get_game, parse_game
from simkit.core.rng import stream_state
from simkit.games.hearts import engine, play_stacked

SPEC = get_game("hearts")
QS = C.parse_card("Qs")
AH = C.parse_card("Ah")
N_PLAYS = 30  # random plays of each stacked deal per strategy mix


def rules(text):
    return parse_game(text)[1]


def dbl(*cards):
    """Both copies of each card."""
    return " ".join(f"{c} {c}" for c in cards)


def text_pack(players):
    """The pack of line 231, written out here (not taken from the engine); the joker is the
    core's code (``C.parse("Jo")``)."""
    one = [f"{r}{s}" for s in "cdhs" for r in "23456789TJQKA"]
    cards = Counter(C.parse(" ".join(one * 2)).tolist())
    out = {5: ["Jo"], 6: ["-2c", "-2d"], 8: ["Jo", "-2c"], 10: ["-2c", "-2d", "-2d", "-2s"]}
    for x in out[players]:
        if x == "Jo":
            cards[C.parse_card("Jo")] += 1
        else:
            cards[C.parse_card(x[1:])] -= 1
    return +cards


class Deal:
    """A stacked deal given by role: ``roles`` is ``[(name, cards), ...]`` in seat order; with
    ``rotation`` k the role listed i-th sits at seat ``(i + k) % players``."""

    def __init__(self, roles, rotation=0):
        self.names = [n for n, _ in roles]
        self.K = len(roles)
        self.k = rotation
        # the deck speaks the core's codes (the joker is 64); inside the kernel, and in its move
        # log, the joker is code 0, "the zero of clubs" (232)
        hands = [C.parse(h).tolist() for _, h in roles]
        assert len({len(h) for h in hands}) == 1
        self.H = len(hands[0])
        by_seat = [None] * self.K
        for i, h in enumerate(hands):
            by_seat[(i + rotation) % self.K] = h
        self.hands = by_seat
        # card j goes to seat j % K (play_stacked's convention)
        self.deck = [by_seat[j % self.K][j // self.K] for j in range(self.K * self.H)]

    def seat(self, name):
        return (self.names.index(name) + self.k) % self.K

    def by_seat(self, values):
        """``{role: value}`` (missing roles: 0) as a list by seat."""
        out = [0] * self.K
        for name in self.names:
            out[self.seat(name)] = values.get(name, 0)
        return out


def mixes(K):
    """Strategy mixes: all random, all heuristic, all moon(10), and a mixture."""
    cycle = ["random", "heuristic", "moon(10)", "moon(0)"]
    return [["random"] * K, ["heuristic"] * K, ["moon(10)"] * K,
            [cycle[k % 4] for k in range(K)]]


def plays(r, mix, deal, n=N_PLAYS, seed=3):
    """Play the stacked deal ``n`` times (new strategy coins each time): ``(rows, logs)``, one
    dict of metrics and one move-log row per play."""
    strategies = parse_strategies(SPEC, r, [f"p{k + 1}={s}" for k, s in enumerate(mix)])
    R, S, W = SPEC.prepare(r, strategies, check_stack(SPEC, r, deal.deck), direction="none")
    names = [m.name for m in engine.metrics(r)]
    rows = np.zeros((n, len(names)))
    logs = np.zeros((n, len(engine.log_columns(r))), np.int64)
    SPEC.kernel(R, S, W, stream_state(seed, 0), n, np.zeros((2, len(names))), rows, logs)
    return [dict(zip(names, row)) for row in rows], logs


def points(res, K):
    return [res[f"p{k + 1}_points"] for k in range(K)]


def tricks(r, log):
    """The tricks of a logged hand as lists of ``(seat, code)`` in playing order (the joker
    64)."""
    K = r.players
    ps = engine.read_log(r, log)["plays"]
    return [ps[t * K:(t + 1) * K] for t in range(len(ps) // K)]


def winners(r, log):
    return engine.read_log(r, log)["winners"]


def card_of(trick, seat):
    return next(c for s, c in trick if s == seat)


def check_all(r, deal, mix, want, want_winners, moon_seat=None, trick_checks=()):
    """Every play of ``deal`` under ``mix``: the points by seat, the trick winners (-1: held
    over), the moon flags and the per-trick checks ``f(tricks) -> None``."""
    results, logs = plays(r, mix, deal)
    once, log1 = play_stacked(r, [f"p{k + 1}={s}" for k, s in enumerate(mix)], deal.deck,
                              log=True)
    results.append(once)
    logs = np.vstack([logs, log1[None, :]])
    for res, log in zip(results, logs):
        assert points(res, deal.K) == want
        assert winners(r, log) == want_winners
        assert [res[f"p{k + 1}_moon"] for k in range(deal.K)] == \
            [float(k == moon_seat) for k in range(deal.K)]
        assert res["moon_rate"] == (moon_seat is not None)
        assert res["zero_point_rate"] == sum(p == 0 for p in want) / deal.K
        ts = tricks(r, log)
        for f in trick_checks:
            f(ts)
    return logs


ROTATIONS = [0, 3]


# --------------------------------------------------------------------------- the packs


def test_stacked_deals_are_the_packs_of_line_231():
    for roles in (SIX, TEN, FIVE, EIGHT):
        deal = Deal(roles)
        r = rules(f"hearts(players={deal.K})")
        assert deal.H == r.hand_size
        assert Counter(deal.deck) == text_pack(deal.K)
        assert Counter(deal.deck) == Counter(SPEC.pack(r).tolist())


# --------------------------------------------------------------------------- 6 players

SIX = [
    ("L", "2c Ac Ah " + dbl("3c", "4c", "5c", "6c", "7c", "8c", "9c")),
    ("D", "Ac " + dbl("Kh", "Qh", "Jh", "Th", "9h", "8h", "7h", "6h")),
    ("S", "Ah " + dbl("Tc", "Jc", "Qc", "Kc", "4d", "5d", "6d", "7d")),
    ("X", dbl("2h", "3h") + " 2d " + dbl("8d", "9d", "Td", "Jd", "Qd", "Kd")),
    ("Y", dbl("4h", "5h") + " 3d " + dbl("Ad", "2s", "3s", "4s", "5s", "6s")),
    ("Z", "3d " + dbl("7s", "8s", "9s", "Ts", "Js", "Qs", "Ks", "As")),
]


@pytest.mark.parametrize("rotation", ROTATIONS)
@pytest.mark.parametrize("mix", range(4))
@pytest.mark.parametrize("moon,shooter_gets,others_get", [
    ("add", 0, 52), ("best", 0, 52), ("subtract", -52, 0), ("off", 52, 0)])
def test_six_players_aces_of_hearts_cancel_and_the_moon_is_52(rotation, mix, moon,
                                                               shooter_gets, others_get):
    """Six players (231: one 2♣ and one 2♦ out, 17 cards each, the 2♣ leads).

    Split cards (one copy in each of two hands): A♣ (L, D), A♥ (L, S), 3♦ (Y, Z); the 2♣ and 2♦
    are single in this pack; every other card has both copies in one hand.

    Trick 1: L holds the only 2♣ and leads it (220, 231).  D's only club is the A♣, so D plays
    it; its other copy is L's, who has led the 2♣, so nothing cancels it and no club beats it.
    Nobody may play a heart or the Q♠ (220: everyone void in clubs holds other cards), so at
    most one pair (Y's and Z's 3♦) is possible.  D wins, no points.

    Trick 2: D holds only hearts now, so he may lead one although none has been played; he
    leads any of K♥..6♥.  L's and S's only heart is the A♥: both must play it, and the two aces
    cancel (229).  X plays 2♥ or 3♥, Y 4♥ or 5♥ (their only hearts), Z (no hearts) discards.
    One pair only, so the trick stands, and the highest heart left is D's (6♥ or more beats
    5♥; no one else holds a copy of it): the next highest card wins, and D takes both aces'
    points (229's example), 5 hearts in all.

    Tricks 3-17: D leads one of his hearts each time; the only hearts left elsewhere are 2♥-5♥
    and nobody holds a copy of D's, so D wins every trick, and no trick can hold two pairs (the
    3♦ is the only split card left).  So D takes all 102 cards: the 26 hearts (both A♥ among
    them) and both Q♠ (whenever Z drops them), 52 points, all of them: the moon (222), worth 52
    to each other player with two decks (the docstring's reading); ``subtract`` -52 for D;
    ``off`` 52 for D.  Without the cancellation L's A♥ would win trick 2 and there would be no
    moon.
    """
    deal = Deal(SIX, rotation)
    r = rules(f"hearts(players=6,passing=none,moon={moon})")
    D, L, S = deal.seat("D"), deal.seat("L"), deal.seat("S")
    want = [shooter_gets if k == D else others_get for k in range(6)]

    def first(ts):
        assert ts[0][0] == (L, C.parse_card("2c")) and card_of(ts[0], D) == C.parse_card("Ac")

    def aces(ts):
        t = ts[1]
        assert t[0][0] == D and 6 <= C.rank_of(t[0][1]) <= 13 and C.suit_of(t[0][1]) == C.HEARTS
        assert card_of(t, L) == AH and card_of(t, S) == AH
        assert sum(C.suit_of(c) == C.HEARTS for _, c in t) == 5

    check_all(r, deal, mixes(6)[mix], want, [D] * 17,
              moon_seat=D if moon != "off" else None, trick_checks=(first, aces))


# --------------------------------------------------------------------------- 10 players

TEN = [
    ("L", "2c Ac 4c 2s " + dbl("5c", "6c", "7c")),
    ("D", "Ac Ks " + dbl("2h", "3h", "4h", "5h")),
    ("P", "Ks Qs " + dbl("6h", "7h", "8h", "9h")),
    ("E", dbl("Js", "Ah", "Kh", "Ad", "Kd")),
    ("A1", "As 3c " + dbl("Th", "3d", "4d", "5d")),
    ("A2", "As 3c " + dbl("Jh", "6d", "7d", "8d")),
    ("Q", "Qs 4c " + dbl("Qh", "9d", "Td", "Jd")),
    ("M1", dbl("8c", "9c", "Tc", "Qd", "3s")),
    ("M2", dbl("Jc", "Qc", "Kc", "4s", "5s")),
    ("M3", dbl("6s", "7s", "8s", "9s", "Ts")),
]


@pytest.mark.parametrize("rotation", ROTATIONS)
@pytest.mark.parametrize("mix", range(4))
@pytest.mark.parametrize("holdover,moon", [("two_pairs", "add"), ("two_pairs", "off"),
                                           ("no_winner", "add")])
def test_ten_players_two_pairs_hold_the_trick_over(rotation, mix, holdover, moon):
    """Ten players (231: a 2♣, both 2♦ and a 2♠ out, 10 cards each, the 2♣ leads).

    Split cards: A♣ (L, D), K♠ (D, P), 3♣ (A1, A2), 4♣ (Q, L), A♠ (A1, A2), Q♠ (P, Q); the
    2♣ and 2♠ are single in this pack.

    Trick 1: L leads the 2♣ (the only one).  D plays his only club, the A♣ (its copy is L's).
    P is void in clubs and holds only hearts, the Q♠ and the K♠: on the first trick he must
    play the K♠ (220).  A1 and A2 play their only club, the 3♣ (one pair), Q his 4♣; M1, M2
    follow with clubs of their own, E and M3 (void) drop a card that is no heart or Q♠ (220).
    One pair: D's A♣ wins, no points.

    Trick 2: no heart has been played and D's only card besides hearts is the K♠: he must lead
    it.  A1 and A2 play their only spade, the A♠ (a pair); P and Q their only spade, the Q♠ (a
    pair, 26 points); E his J♠, L his 2♠, M1 3♠, M2 4♠/5♠, M3 one of 6♠-T♠, none paired.  No
    heart can fall: every player who holds one still holds a spade.  Two pairs: the trick is
    void and its cards, the two Q♠, go to the winner of the next trick (229).  D's K♠ is the
    highest card that survives, so with ``holdover=no_winner`` (held over only when nothing
    survives) D wins it with 26.

    Trick 3: D leads again (held over, or as its winner); he has only hearts: one of 2♥-5♥.
    P follows with one of 6♥-9♥, A1 T♥, A2 J♥, Q Q♥, E A♥ or K♥; L, M1-M3 hold no hearts and
    drop clubs, diamonds or low spades.  The split cards left (A♣, 4♣) are both L's: no pair.
    E wins, 6 hearts (and with ``two_pairs`` the held-over 26).

    Tricks 4-10: E leads; every card he holds (J♠, A♥, K♥, A♦, K♦) has its other copy in his
    hand or already played, and every other spade, heart and diamond left is lower (the A♠, K♠
    and Q♠ are gone, the other hearts are Q♥ or lower, the other diamonds Q♦ or lower).  No split
    card remains, so no pair: E wins every trick and all 20 hearts left.

    ``two_pairs``: E takes the 26 hearts and both Q♠, all 52 points: the moon, 52 for each other
    player (``moon=off``: 52 for E).  ``no_winner``: D 26, E 26.
    """
    deal = Deal(TEN, rotation)
    r = rules(f"hearts(players=10,passing=none,holdover={holdover},moon={moon})")
    D, E, L = deal.seat("D"), deal.seat("E"), deal.seat("L")
    if holdover == "no_winner":
        want, moon_seat, trick2 = deal.by_seat({"D": 26, "E": 26}), None, D
    elif moon == "add":
        want, moon_seat, trick2 = [0 if k == E else 52 for k in range(10)], E, -1
    else:
        want, moon_seat, trick2 = deal.by_seat({"E": 52}), None, -1

    def first(ts):
        assert ts[0][0] == (L, C.parse_card("2c"))
        assert card_of(ts[0], deal.seat("P")) == C.parse_card("Ks")

    def two_pairs(ts):
        t = ts[1]
        assert t[0] == (D, C.parse_card("Ks"))
        cnt = Counter(c for _, c in t)
        assert cnt[QS] == 2 and cnt[C.parse_card("As")] == 2 and len(cnt) == 8
        assert not any(C.suit_of(c) == C.HEARTS for _, c in t)

    def hearts(ts):
        t = ts[2]
        assert t[0][0] == D and C.suit_of(t[0][1]) == C.HEARTS
        assert card_of(t, E) in (AH, C.parse_card("Kh"))
        assert sum(C.suit_of(c) == C.HEARTS for _, c in t) == 6

    check_all(r, deal, mixes(10)[mix], want, [D, trick2] + [E] * 8, moon_seat=moon_seat,
              trick_checks=(first, two_pairs, hearts))


# --------------------------------------------------------------------------- 5 players

FIVE = [
    ("L", "Jo Ac Kc " + dbl("2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "Ts")),
    ("D", "Ac " + dbl("As", "2h", "3h", "4h", "5h", "6h", "7h", "8h", "9h", "Th")),
    ("E", "Kc " + dbl("Jh", "Qh", "Kh", "Ah", "Ks", "Js", "Jd", "Qd", "Kd", "Ad")),
    ("Q1", "Qs " + dbl("2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "Tc", "Jc")),
    ("Q2", "Qs " + dbl("Qc", "2d", "3d", "4d", "5d", "6d", "7d", "8d", "9d", "Td")),
]


@pytest.mark.parametrize("rotation", ROTATIONS)
@pytest.mark.parametrize("mix", range(4))
@pytest.mark.parametrize("holdover", ["two_pairs", "no_winner"])
def test_five_players_joker_leads_and_the_paired_queen_gives_26(rotation, mix, holdover):
    """Five players (231: a joker added, 21 cards each, the joker leads; 232: it is the zero of
    clubs).

    Split cards: A♣ (L, D), K♣ (L, E), Q♠ (Q1, Q2).

    Trick 1: L leads the joker, the lowest club.  D's only club is the A♣ (its copy is L's), E's
    the K♣ (its copy is L's), Q2's the Q♣; Q1 follows with one of his clubs 2♣-J♣ (both copies
    his).  No pair; the joker, the zero of clubs, loses to every club: D's A♣ wins, no points.

    Trick 2: no heart has been played and D's only other cards are the two A♠: he leads one.
    Q1 and Q2 hold one spade each, the Q♠: both must play it, a pair (cancelled, one pair only
    so the trick stands).  L follows with a spade 2♠-T♠, E with K♠ or J♠.  The A♠ (its copy is
    D's) wins: D takes the paired Q♠, 26 points (229), and no heart (nobody is void in spades
    but the two queens' holders, who play them).

    Trick 3: D must lead his other A♠ (still no heart played).  L and E follow in spades (L has
    17 left, E 3); Q1 and Q2, now void, drop clubs or diamonds (they hold nothing else).  D
    wins, no points.

    Trick 4: D holds only hearts and leads one of 2♥-T♥.  E must follow with one of J♥-A♥, the
    only higher hearts; L, Q1 and Q2 hold no hearts.  E wins, 2 points.

    Tricks 5-21: E leads; each of his cards (hearts J-A, K♠/J♠, diamonds J-A) has its other
    copy in his hand or played, and every other card of those suits is lower (D's hearts up to
    T♥, L's spades up to T♠ after both A♠ and Q♠ are gone, Q2's diamonds up to T♦).  No split
    card is left to pair: E wins them all and the 24 hearts left.

    D 26, E 26, the others 0, whichever reading of the hold-over (no trick has two pairs or
    loses all its led suit).
    """
    deal = Deal(FIVE, rotation)
    r = rules(f"hearts(players=5,passing=none,holdover={holdover})")
    D, E, L = deal.seat("D"), deal.seat("E"), deal.seat("L")

    def joker(ts):
        assert ts[0][0] == (L, engine.PACK_JOKER)
        assert card_of(ts[0], D) == C.parse_card("Ac")
        assert card_of(ts[0], E) == C.parse_card("Kc")

    def queens(ts):
        t = ts[1]
        assert t[0] == (D, C.parse_card("As"))
        assert card_of(t, deal.seat("Q1")) == QS and card_of(t, deal.seat("Q2")) == QS

    check_all(r, deal, mixes(5)[mix], deal.by_seat({"D": 26, "E": 26}), [D] * 3 + [E] * 18,
              trick_checks=(joker, queens))


# --------------------------------------------------------------------------- 8 players

EIGHT = [
    ("L", "Jo Ac Kc " + dbl("7h", "8h", "6s", "7s", "8s")),
    ("D", "Ac " + dbl("As", "2h", "3h", "4h", "5h", "6h")),
    ("W", "Kc " + dbl("Kh", "Qh", "Ks", "Js", "Ad", "Kd")),
    ("S1", "Ah " + dbl("2s", "3s", "4d", "5d", "6d", "7d")),
    ("S2", "Ah " + dbl("4s", "5s", "8d", "9d", "Td", "Jd")),
    ("Q1", "Qs " + dbl("3c", "4c", "5c", "6c", "7c", "8c")),
    ("Q2", "Qs " + dbl("9c", "Tc", "Jc", "Qc", "2d", "3d")),
    ("M", "2c " + dbl("9h", "Th", "Jh", "9s", "Ts", "Qd")),
]


@pytest.mark.parametrize("rotation", ROTATIONS)
@pytest.mark.parametrize("mix", range(4))
def test_eight_players_joker_leads_and_the_next_highest_heart_wins(rotation, mix):
    """Eight players (231: a joker added and a 2♣ out, 13 cards each, the joker leads).

    Split cards: A♣ (L, D), K♣ (L, W), A♥ (S1, S2), Q♠ (Q1, Q2); the 2♣ is single.

    Trick 1: L leads the joker.  D's only club is the A♣, W's the K♣, M's the 2♣ (copies: L's,
    L's, none); Q1 and Q2 follow with clubs of their own; S1 and S2 (void) drop a spade or a
    diamond (220: not the A♥).  No pair: D's A♣ wins, no points.

    Trick 2: no heart played, D's only other cards are the two A♠: he leads one.  Q1 and Q2 play
    their only spade, the Q♠ (one pair, 26 points); L (6-8♠), W (K♠/J♠), S1 (2-3♠), S2 (4-5♠)
    and M (9-T♠) follow with spades of their own.  The A♠ wins: D 26.

    Trick 3: D must lead the other A♠.  L, W, S1, S2, M still hold spades (S1 and S2 had four,
    at most one dropped on trick 1); Q1 and Q2, void, drop clubs or diamonds.  D wins, 0.

    Trick 4: D (only hearts) leads one of 2♥-6♥.  S1 and S2 must play their only heart, the A♥:
    they cancel (229).  W follows with K♥ or Q♥, L with 7♥/8♥, M with 9♥-J♥; Q1, Q2 are void.
    One pair; the next highest card, W's K♥ or Q♥ (its copy is W's), wins, and W takes both
    aces' points: 6 hearts.

    Tricks 5-13: W leads; each of his cards (K♥, Q♥, K♠, J♠, A♦, K♦) has its other copy in his
    hand or played and is above every other card left in its suit (both A♥, A♠ and Q♠ are out);
    no split card is left: W wins them all and the 20 hearts left.  D 26, W 26, the others 0.
    """
    deal = Deal(EIGHT, rotation)
    r = rules("hearts(players=8,passing=none)")
    D, W, L = deal.seat("D"), deal.seat("W"), deal.seat("L")

    def joker(ts):
        assert ts[0][0] == (L, engine.PACK_JOKER) and card_of(ts[0], D) == C.parse_card("Ac")

    def aces(ts):
        t = ts[3]
        assert t[0][0] == D and C.rank_of(t[0][1]) <= 6 and C.suit_of(t[0][1]) == C.HEARTS
        assert card_of(t, deal.seat("S1")) == AH and card_of(t, deal.seat("S2")) == AH
        assert card_of(t, W) in (C.parse_card("Kh"), C.parse_card("Qh"))
        assert sum(C.suit_of(c) == C.HEARTS for _, c in t) == 6

    check_all(r, deal, mixes(8)[mix], deal.by_seat({"D": 26, "W": 26}), [D] * 3 + [W] * 10,
              trick_checks=(joker, aces))


# --------------------------------------------------------------------------- the coins


def test_random_seats_do_vary():
    """The plays above are not one play repeated: with random seats the stacked deal is played
    differently from deal to deal (new coins per deal), while ``play_stacked`` (fixed stream
    state) repeats itself for a given mix."""
    for roles in (SIX, TEN, FIVE, EIGHT):
        deal = Deal(roles)
        r = rules(f"hearts(players={deal.K},passing=none)")
        _, logs = plays(r, ["random"] * deal.K, deal)
        assert len({tuple(engine.read_log(r, row)["plays"]) for row in logs}) > N_PLAYS // 2
        seats = [f"p{k + 1}=random" for k in range(deal.K)]
        a = play_stacked(r, seats, deal.deck, log=True)[1]
        b = play_stacked(r, seats, deal.deck, log=True)[1]
        assert np.array_equal(a, b)
