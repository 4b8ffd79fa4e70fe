"""The card codec of simkit.core.cards: parse / format round trips, decks, masks, errors."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.core import cards as C
from simkit.errors import SimkitError

STYLES = ("ascii", "symbols", "ru")
FULL_DECK = [int(c) for c in C.deck(52)]


# --- encoding ------------------------------------------------------------------------------

def test_card_codes_and_accessors():
    assert C.card(2, C.CLUBS) == 2
    assert C.card(C.ACE, C.SPADES) == 3 * 16 + 14
    for code in FULL_DECK:
        assert C.card(C.rank_of(code), C.suit_of(code)) == code
        assert not C.is_joker(code)
    assert C.JOKER == 64 and C.is_joker(64)
    assert not any(C.is_joker(c) for c in range(65, 80))  # one joker code
    for rank, suit in [(1, 0), (15, 0), (2, 4), (14, -1)]:
        with pytest.raises(SimkitError):
            C.card(rank, suit)


# --- round trips ---------------------------------------------------------------------------

@pytest.mark.parametrize("style", STYLES)
def test_round_trip_every_card_of_the_52_deck(style):
    for code in FULL_DECK:
        text = C.format_card(code, style)
        assert int(C.parse_card(text)) == code, (style, code, text)
    text = C.format_cards(FULL_DECK, style)
    assert C.parse(text).tolist() == FULL_DECK
    # format_cards(parse(s)) is a fixed point: it reads back to the same text
    assert C.format_cards(C.parse(text), style) == text


def test_styles_look_as_documented():
    ten_d, ace_s, queen_d = C.card(10, C.DIAMONDS), C.card(14, C.SPADES), C.card(12, C.DIAMONDS)
    assert [C.format_card(ten_d, s) for s in STYLES] == ["Td", "10♦", "10♦"]
    assert [C.format_card(ace_s, s) for s in STYLES] == ["As", "A♠", "Т♠"]
    assert [C.format_card(queen_d, s) for s in STYLES] == ["Qd", "Q♦", "Д♦"]
    assert C.format_card(64) == "Jo"
    with pytest.raises(SimkitError, match="ascii, symbols or ru"):
        C.format_card(ace_s, "klingon")


def test_parse_mixed_notations():
    codes = C.parse("As 10h 7♣ Т♠ Д♦ В♣ Td Jo")
    assert codes.dtype == np.uint8
    assert codes.tolist() == [
        C.card(14, C.SPADES),     # As
        C.card(10, C.HEARTS),     # 10h
        C.card(7, C.CLUBS),       # 7♣
        C.card(14, C.SPADES),     # Т♠ (Cyrillic Т = туз = ace, not latin T = ten)
        C.card(12, C.DIAMONDS),   # Д♦ дама
        C.card(11, C.CLUBS),      # В♣ валет
        C.card(10, C.DIAMONDS),   # Td (latin T = ten)
        64,                       # Jo
    ]


def test_parse_is_case_insensitive_and_takes_commas_and_variants():
    assert C.parse("as, AS,aS A♤").tolist() == [C.card(14, 3)] * 4
    assert C.parse("tc 10C Tc").tolist() == [C.card(10, 0)] * 3
    assert C.parse("к♡ K♥ k♥ kh").tolist() == [C.card(13, C.HEARTS)] * 4
    assert C.parse("Jo joker JOKER jk 🃏 x").tolist() == [64] * 6
    assert C.parse("").tolist() == []
    assert C.parse("  ,  ").tolist() == []


@pytest.mark.parametrize("token", ["", "Xs", "10", "11h", "1", "0s", "As7", "Zz", "Ah♠", "B♣", "Js!",
                                   "♠", "10x", "jok"])
def test_bad_tokens_raise_simkit_error(token):
    with pytest.raises(SimkitError, match="cannot read card"):
        C.parse_card(token)


def test_bad_token_inside_a_list_names_the_token():
    with pytest.raises(SimkitError, match="'Qx'"):
        C.parse("As Kd Qx 7c")


def test_format_card_rejects_non_card_codes_below_64():
    for code in [0, 1, 15, 16, 17, 31, 48 + 15]:
        with pytest.raises(SimkitError, match="not a card code"):
            C.format_card(code)


def test_format_card_rejects_every_non_card_code_with_simkit_error():
    valid = set(FULL_DECK)
    for code in range(-20, 256):
        if code in valid or C.is_joker(code):
            continue
        with pytest.raises(SimkitError):
            C.format_card(code)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(FULL_DECK + [64]), max_size=60), st.sampled_from(STYLES),
       st.sampled_from([" ", ", ", ",", "  "]))
def test_round_trip_random_card_lists(codes, style, sep):
    text = sep.join(C.format_card(c, style) for c in codes)
    parsed = C.parse(text)
    assert parsed.tolist() == codes
    assert C.format_cards(parsed, style) == C.format_cards(codes, style)
    # and across styles: the same cards whatever the notation
    for other in STYLES:
        assert C.parse(C.format_cards(parsed, other)).tolist() == codes


# --- decks ---------------------------------------------------------------------------------

LOWEST = {52: 2, 36: 6, 32: 7, 24: 9, 20: 10}


@pytest.mark.parametrize("size", [20, 24, 32, 36, 40, 52])
def test_deck_sizes(size):
    d = C.deck(size)
    assert d.dtype == np.uint8
    assert len(d) == size
    assert len(set(d.tolist())) == size
    assert d.tolist() == sorted(d.tolist())
    ranks = sorted({C.rank_of(int(c)) for c in d})
    if size == 40:
        assert ranks == [2, 3, 4, 5, 6, 7, 11, 12, 13, 14]
    else:
        assert ranks == list(range(LOWEST[size], 15))
    for s in range(4):
        assert sum(C.suit_of(int(c)) == s for c in d) == size // 4
    if size == 52:
        assert C.deck().tolist() == d.tolist() == FULL_DECK


@pytest.mark.parametrize("size", [20, 24, 32, 36, 40, 52])
@pytest.mark.parametrize("decks,jokers", [(2, 0), (3, 2), (1, 4)])
def test_several_decks_and_jokers(size, decks, jokers):
    d = C.deck(size, decks=decks, jokers=jokers)
    assert len(d) == size * decks + jokers
    normal = [int(c) for c in d if not C.is_joker(int(c))]
    assert sorted(normal) == sorted(C.deck(size).tolist() * decks)
    vals, counts = np.unique(normal, return_counts=True)
    assert (counts == decks).all()
    jk = [int(c) for c in d if C.is_joker(int(c))]
    assert jk == [C.JOKER] * jokers  # one code, repeated, after the natural cards
    assert d[len(normal):].tolist() == jk
    assert all(c < C.N_CODES for c in d)
    # a deck with jokers formats and parses back to the same cards
    assert C.parse(C.format_cards(d)).tolist() == d.tolist()


@pytest.mark.parametrize("args", [dict(size=0), dict(size=54), dict(size=48), dict(size=36, decks=0),
                                  dict(size=36, jokers=-1)])
def test_bad_decks_raise(args):
    with pytest.raises(SimkitError):
        C.deck(**args)


# --- masks ---------------------------------------------------------------------------------

def test_mask():
    assert C.mask([]) == 0
    assert C.mask(C.parse("2c")) == 1 << 2
    hand = C.parse("As Kd 7c")
    assert C.mask(hand) == (1 << 62) | (1 << 29) | (1 << 7)
    full = C.mask(C.deck(52))
    assert bin(full).count("1") == 52
    assert full < 1 << 64
    for s in range(4):  # each suit's lane holds ranks 2..14
        assert (full >> (16 * s)) & 0xFFFF == 0b0111_1111_1111_1100
    m36 = C.mask(C.deck(36))
    assert (m36 >> 16 * C.HEARTS) & 0xFFFF == sum(1 << r for r in range(6, 15))
    assert C.mask(np.array([5, 5], np.uint8)) == 1 << 5  # repeats do not add


@pytest.mark.parametrize("codes", [C.parse("As Jo"), [C.JOKER], [65], [-1], C.deck(52, jokers=1)])
def test_mask_refuses_a_joker_and_non_bits(codes):
    """A joker (or any code outside 0..63) has no bit: refused, not a 65-bit integer."""
    with pytest.raises(SimkitError, match="no bit in a card mask"):
        C.mask(codes)


def test_jokers_parse_as_the_one_code_and_format_back():
    assert C.parse("Jo Jo").tolist() == [64, 64]
    assert C.parse(C.format_cards(C.deck(24, jokers=3))).tolist() == C.deck(24, jokers=3).tolist()
    for code in range(65, 80):  # no second joker code
        with pytest.raises(SimkitError, match="not a card code"):
            C.format_card(code)


@settings(max_examples=100, deadline=None)
@given(st.sets(st.sampled_from(FULL_DECK)))
def test_mask_is_the_set_of_codes(cards):
    m = C.mask(sorted(cards))
    assert {b for b in range(64) if m >> b & 1} == cards


# --- stacked decks with jokers -------------------------------------------------------------

@pytest.mark.parametrize("jokers", [0, 1, 2, 4])
def test_stacked_deck_takes_jokers_up_to_the_packs_count(jokers):
    """``Jo Jo ...`` in a stacked deck: accepted up to the pack's jokers, refused beyond in one
    line (:func:`simkit.core.play.check_stack`, what every game's ``play_stacked`` calls)."""
    from types import SimpleNamespace

    from simkit.core.play import check_stack
    spec = SimpleNamespace(name="twodecks", pack=lambda rules: C.deck(52, decks=2, jokers=jokers))
    ok = " ".join(["As", "As", "2c"] + ["Jo"] * jokers)
    assert check_stack(spec, None, ok).tolist() == C.parse(ok).tolist()
    with pytest.raises(SimkitError) as e:
        check_stack(spec, None, ok + " Jo")
    msg = str(e.value)
    assert "\n" not in msg
    if jokers:
        assert f"Jo appears {jokers + 1} times; the pack holds it {jokers} time" in msg
    else:
        assert "Jo is not in the 104-card pack of twodecks" in msg
    with pytest.raises(SimkitError, match="As appears 3 times; the pack holds it 2 times"):
        check_stack(spec, None, "As As As")
