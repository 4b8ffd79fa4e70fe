"""The shared trick engine (simkit.engines.tricks): hand-worked legal moves for every rule switch,
trick winners and points, and a seeded random comparison of ``legal_moves`` with a slow
set-based statement of the same rules written in this file (it speaks of "cards that would win
the trick", never of strength thresholds or masks)."""
from __future__ import annotations

import random

import numpy as np
import pytest

from simkit.core import cards as C
from simkit.engines import tricks as T

S, H, D, CL = 3, 2, 1, 0
KLAB = T.strength_tables("A 10 K Q J 9 8 7", "J 9 A 10 K Q 8 7")
NAT = T.natural_strength()


def legal(hand, trick, trump, tr, strength=KLAB):
    """The legal cards as a sorted card string (the kernel on masks and code arrays)."""
    t = np.zeros(8, np.int64)
    codes = C.parse(trick) if trick else []
    t[:len(codes)] = codes
    m = T.legal_moves(np.uint64(C.mask(C.parse(hand))), t, len(codes), trump, tr, strength)
    return " ".join(C.format_card(c) for c in range(64) if (int(m) >> c) & 1)


def cs(text):
    return " ".join(C.format_card(c) for c in sorted(C.parse(text)))


KLABERJASS = T.trick_rules(must_trump=True, overtrump_on_trump_lead=True)


# --------------------------------------------------------------------------- tables

def test_strength_and_points_tables():
    assert KLAB[1, 11] > KLAB[1, 9] > KLAB[1, 14] > KLAB[1, 10] > KLAB[1, 13] > KLAB[1, 12] \
        > KLAB[1, 8] > KLAB[1, 7] > 0
    assert KLAB[0, 14] > KLAB[0, 10] > KLAB[0, 13] > KLAB[0, 12] > KLAB[0, 11] > KLAB[0, 9] \
        > KLAB[0, 8] > KLAB[0, 7] > 0
    assert KLAB[0, 2] == 0 and NAT[0, 14] == 14 and NAT[1, 2] == 2
    pts = T.points_table("A=11 10=10 K=4 Q=3 J=2", {"J": 20, 9: 14, "A": 11, 10: 10, "K": 4, "Q": 3})
    assert pts[0, 11] == 2 and pts[1, 11] == 20 and pts[1, 9] == 14 and pts[0, 9] == 0
    # the 32-card deck's card points: 2 * plain suits... 3 plain suits + trumps = 162 - 10
    deck = C.deck(32).astype(np.int64)
    assert T.trick_points(deck, len(deck), S, pts) == 152  # +10 for the last trick makes 162
    assert list(T.trick_rules()) == [1, 0, 0, 0, 1, 0, 0, 0]


def test_bit_helpers():
    m = np.uint64(C.mask(C.parse("2c 9d Ah Qs")))
    assert T.popcount(m) == 4
    assert T.lowest_code(m) == C.parse_card("2c") and T.highest_code(m) == C.parse_card("Qs")
    assert [T.nth_code(m, k) for k in range(4)] == sorted(C.parse("2c 9d Ah Qs"))
    assert T.strongest_of_suit(np.uint64(C.mask(C.parse("7s Js 9s As"))), S, S, KLAB) == \
        C.parse_card("Js")
    assert T.weakest_of_suit(np.uint64(C.mask(C.parse("7s Js 9s As"))), S, -1, KLAB) == \
        C.parse_card("7s")
    assert T.strongest_of_suit(m, CL, -1, KLAB) == C.parse_card("2c")  # a rank outside the order
    assert T.strongest_of_suit(m, S, -1, NAT) == C.parse_card("Qs")
    assert T.weakest_of_suit(np.uint64(0), S, -1, NAT) == -1
    assert T.seat_of(3, 2, 4) == 1
    # random_card: only cards of the mask, each about equally often (from Python the state must
    # be handed back as a uint64: a Python int would be typed int64)
    s = np.uint64(99)
    seen = {}
    for _ in range(4000):
        c, s = T.random_card(m, np.uint64(s))
        seen[c] = seen.get(c, 0) + 1
    assert set(seen) == set(C.parse("2c 9d Ah Qs").tolist())
    assert min(seen.values()) > 850


# --------------------------------------------------------------------------- hand-worked legal moves

@pytest.mark.parametrize("hand,trick,trump,want", [
    # Klaberjass (001): follow suit; no duty to head a plain trick
    ("7h Ah Js 8d", "8h", S, "7h Ah"),
    # void in the led suit: must trump
    ("7s Kd Qc", "Ah", S, "7s"),
    ("Kd Qc", "Ah", S, "Qc Kd"),
    # trump lead: must overtrump when able (J > 9 > A > 10 ...)
    ("Js As 7s Kh", "9s", S, "Js"),
    ("Js 9s 7s Kh", "As", S, "9s Js"),
    ("9s 7s Kh", "Js", S, "7s 9s"),           # cannot beat the jack: any trump
    # a trumped plain trick: Klaberjass does not force an overtrump (only on a trump lead)
    ("7s Js Kd", "Ah 9s", S, "7s Js"),
])
def test_klaberjass_legal_moves(hand, trick, trump, want):
    assert legal(hand, trick, trump, KLABERJASS) == cs(want)


def test_overtrump_always_and_undertrump():
    over = T.trick_rules(must_trump=True, overtrump_always=True)
    assert legal("7s Js Kd", "Ah 9s", S, over) == cs("Js")          # must beat the 9
    assert legal("7s 8s Kd", "Ah 9s", S, over) == cs("7s 8s")       # cannot: undertrump allowed
    no_under = T.trick_rules(must_trump=True, undertrump=False)
    assert legal("7s Kd", "Ah 9s", S, no_under) == cs("Kd")          # may not undertrump
    assert legal("7s 8s", "Ah 9s", S, no_under) == cs("7s 8s")      # nothing else: may
    assert legal("7s Js Kd", "Ah 9s", S, no_under) == cs("Js")      # the higher trump only
    # Handjass-like: no duty to trump, but no undertrumping
    free = T.trick_rules(undertrump=False)
    assert legal("7s Js Kd", "Ah 9s", S, free) == cs("Js Kd")
    assert legal("7s 8s Kd", "Ah 9s", S, free) == cs("Kd")
    assert legal("7s 8s", "Ah 9s", S, free) == cs("7s 8s")
    assert legal("7s Ah Kd", "Kh", S, free) == cs("Ah")               # follow suit first


def test_must_beat_stovkahra():
    beat = T.trick_rules(must_trump=True, must_beat=True)
    nat = NAT
    assert legal("9c Qc Ac 7h", "Tc Jc", H, beat, nat) == cs("Qc Ac")     # head the trick
    assert legal("8c 9c 7h", "Tc Jc", H, beat, nat) == cs("8c 9c")       # cannot: any club
    assert legal("7h Kh Kd", "Tc Qh", H, beat, nat) == cs("Kh")           # overtrump the queen
    assert legal("7h Kd", "Tc Qh", H, beat, nat) == cs("7h")              # cannot: still trump
    assert legal("Kd 7h 8h", "Tc", H, beat, nat) == cs("7h 8h")           # any trump wins
    assert legal("Kd Qd", "Tc", -1, beat, nat) == cs("Kd Qd")             # no trumps: any card
    assert legal("9h Jh Kd", "8h", H, T.trick_rules(must_beat=True), nat) == cs("9h Jh")
    assert legal("7h Jh", "8h", H, T.trick_rules(must_beat=True), nat) == cs("Jh")
    assert legal("Ac Kc 2d", "Qc Ks", S, T.trick_rules(must_beat=True), nat) == cs("Ac Kc")


def test_trump_jack_exception_handjass():
    jack = T.trick_rules(must_trump=True, trump_jack_free=True)
    assert legal("Js Ah 7d", "9s", S, jack) == cs("Js Ah 7d")   # the lone jack need not be played
    assert legal("Js 7s Ah", "9s", S, jack) == cs("Js 7s")     # with another trump: follow
    assert legal("Js Ah 7d", "9s", S, T.trick_rules(must_trump=True)) == cs("Js")
    assert legal("Js Ad 7d", "9h", S, jack) == cs("Js")         # a plain lead, void: must trump


def test_no_follow_and_leads():
    assert legal("7s Ah Kd", "", S, KLABERJASS) == cs("7s Ah Kd")            # any card leads
    assert legal("7s Ah Kd", "Kh", S, T.trick_rules(follow=False)) == cs("7s Ah Kd")
    hand = np.uint64(C.mask(C.parse("2c 5c Ah")))
    assert T.follow_suit(hand, CL) == C.mask(C.parse("2c 5c"))
    assert T.follow_suit(hand, S) == hand


# --------------------------------------------------------------------------- winners and points

@pytest.mark.parametrize("trick,trump,strength,want", [
    ("Ah Th 7s", S, KLAB, 2), ("Ah Th Kh", S, KLAB, 0), ("9s Js", S, KLAB, 1),
    ("Jd Ad", -1, KLAB, 1), ("Jd Ad", D, KLAB, 0), ("Th Ah 9h", -1, KLAB, 1),
    ("2c Ah Kc 3c", -1, NAT, 2), ("Ks As Qs", -1, NAT, 1), ("7d 8s 9h", -1, NAT, 0),
])
def test_trick_winner(trick, trump, strength, want):
    t = C.parse(trick).astype(np.int64)
    assert T.trick_winner(t, len(t), trump, strength) == want


def test_trick_points_klaberjass():
    pts = T.points_table("A=11 10=10 K=4 Q=3 J=2", "J=20 9=14 A=11 10=10 K=4 Q=3")
    t = C.parse("Js 9s Ah 7d").astype(np.int64)
    assert T.trick_points(t, 4, S, pts) == 45
    assert T.trick_points(t, 4, H, pts) == 2 + 0 + 11 + 0


@pytest.mark.parametrize("trick,trump,want", [
    ("Ah Ah 5h", -1, (2, 1)),            # the pair cancels: the next highest wins
    ("Ah Ah 5c", -1, (-1, 1)),           # no heart survives: no winner
    ("5h 5h 7c 7c 2h", -1, (4, 2)),      # two pairs (the game decides to hold it over)
    ("9d Kd 2s Kd", S, (2, 1)),          # a trump beats what survives
    ("9d Kd 2s 2s", S, (1, 1)),          # the trumps cancel: the led suit wins
])
def test_cancel_winner(trick, trump, want):
    t = C.parse(trick).astype(np.int64)
    assert T.cancel_winner(t, len(t), trump, NAT) == want


# --------------------------------------------------------------------------- random comparison

RULE_NAMES = ["follow", "must_trump", "overtrump_on_trump_lead", "overtrump_always",
              "undertrump", "must_beat", "trump_jack_free"]


def slow_legal(hand, trick, trump, flags, strength):
    """The rules as sentences over sets of cards."""
    if not trick:
        return set(hand)

    def power(c):
        return strength[1 if c // 16 == trump else 0][c % 16]

    def takes_over(c, best):  # c, played after best, would be winning
        if c // 16 == best // 16:
            return power(c) > power(best)
        return c // 16 == trump

    best = trick[0]
    for c in trick[1:]:
        if takes_over(c, best):
            best = c
    wins = {c for c in hand if takes_over(c, best)}
    led = trick[0] // 16
    same = {c for c in hand if c // 16 == led}
    trumps = {c for c in hand if c // 16 == trump}
    if flags["follow"] and same:
        if led == trump and flags["trump_jack_free"] and same == {trump * 16 + 11}:
            return set(hand)
        if led == trump and (flags["overtrump_on_trump_lead"] or flags["must_beat"]) and same & wins:
            return same & wins
        if led != trump and flags["must_beat"] and same & wins:
            return same & wins
        return same
    allowed = set(hand)
    if flags["must_trump"] and trumps:
        allowed = set(trumps)
    if best // 16 == trump:
        under = {c for c in trumps if c not in wins}   # trumps that would not beat the best one
        if (flags["overtrump_always"] or flags["must_beat"]) and trumps & wins \
                and allowed - under:
            allowed -= under
        if not flags["undertrump"] and allowed & under:
            rest = (allowed - under) or (set(hand) - under)
            if rest:
                allowed = rest
    if flags["must_beat"] and allowed & wins:
        allowed &= wins
    return allowed


def test_legal_moves_match_the_slow_statement():
    rng = random.Random(20240611)
    decks = {32: [int(c) for c in C.deck(32)], 52: [int(c) for c in C.deck(52)]}
    strengths = [NAT, KLAB, T.strength_tables("A K Q J 10 9 8 7 6", "J 9 A K Q 10 8 7 6")]
    checked = 0
    for _ in range(6000):
        deck = decks[rng.choice((32, 52))]
        cards = rng.sample(deck, rng.randint(2, 14))
        ntrick = rng.randint(0, min(4, len(cards) - 1))
        trick, hand = cards[:ntrick], cards[ntrick:]
        if rng.random() < 0.3 and trick:     # bias towards the interesting cases
            led = trick[0] // 16
            hand = [c for c in hand if c // 16 != led] or hand
        trump = rng.choice((-1, 0, 1, 2, 3, 3))
        flags = {k: rng.random() < 0.5 for k in RULE_NAMES}
        if rng.random() < 0.3:
            flags["undertrump"] = True
        strength = rng.choice(strengths)
        tr = T.trick_rules(**flags)
        t = np.zeros(8, np.int64)
        t[:ntrick] = trick
        got = T.legal_moves(np.uint64(C.mask(hand)), t, ntrick, trump, tr, strength)
        want = slow_legal(hand, trick, trump, flags, strength)
        assert {c for c in range(64) if (int(got) >> c) & 1} == want, (
            f"hand={C.format_cards(hand)} trick={C.format_cards(trick)} trump={trump} {flags}")
        assert want, "a hand always has a legal card"
        checked += 1
        if ntrick:
            w = T.trick_winner(t, ntrick, trump, strength)
            best = trick[0]
            for c in trick[1:]:
                same = c // 16 == best // 16
                rc, rb = int(c // 16 == trump), int(best // 16 == trump)
                if (same and strength[rc][c % 16] > strength[rb][best % 16]) or \
                        (not same and c // 16 == trump):
                    best = c
            assert trick[w] == best
    assert checked == 6000
