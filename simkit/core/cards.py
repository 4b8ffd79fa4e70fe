"""One integer encoding of playing cards, shared by every game.

A card is ``code = suit * 16 + rank`` with ranks ``2..14`` (ace = 14) and suits ``0..3`` in the
order clubs, diamonds, hearts, spades.  Each suit owns a 16-bit lane, so a hand of distinct cards is
a ``uint64`` bitmask ``sum(1 << code)`` and a suit's ranks are ``(mask >> 16 * suit) & 0xFFFF``
(bit 1 is free for an ace played low in sequences).  There is one joker code, :data:`JOKER` = 64
(suit 4, rank 0): several jokers are the code repeated, as several decks repeat the natural codes;
a deck is a ``uint8`` array that may repeat codes.  A joker has no bit in a ``uint64`` mask
(:func:`mask` refuses it); hands that hold jokers count them beside the masks
(:mod:`simkit.core.hand`).

Notations accepted by :func:`parse` (case-insensitive, separated by spaces or commas)::

    As Td 10h 7c        latin ranks 2-9, T or 10, J Q K A; suits c d h s
    A♠ 10♥ 7♣ Q♦        suit symbols (white or black)
    Т♠ К♥ Д♦ В♣ 10♠     Russian rank letters: Т туз, К король, Д дама, В валет
    Jo, Joker, 🃏        a joker
"""
from __future__ import annotations

import numpy as np

from simkit.errors import SimkitError

CLUBS, DIAMONDS, HEARTS, SPADES, JOKER_SUIT = 0, 1, 2, 3, 4
JACK, QUEEN, KING, ACE = 11, 12, 13, 14
SUIT_LETTERS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
RANK_LETTERS = {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
RU_RANK_LETTERS = {11: "В", 12: "Д", 13: "К", 14: "Т"}
JOKER = JOKER_SUIT * 16  # the one joker code (64)
N_CODES = 80  # size of any lookup table indexed by card code (0..64; room to spare)

_SUIT_IN = {"c": 0, "d": 1, "h": 2, "s": 3, "♣": 0, "♧": 0, "♦": 1, "♢": 1, "♥": 2, "♡": 2,
            "♠": 3, "♤": 3}
_RANK_IN = {str(r): r for r in range(2, 11)}
_RANK_IN.update({"t": 10, "j": 11, "q": 12, "k": 13, "a": 14, "1": 14,
                 "в": 11, "д": 12, "к": 13, "т": 14})
_JOKERS = {"jo", "joker", "jk", "🃏", "x"}


def card(rank: int, suit: int) -> int:
    """The code of ``rank`` (2..14) of ``suit`` (0..3)."""
    if not (2 <= rank <= 14 and 0 <= suit <= 3):
        raise SimkitError(f"no card with rank {rank} and suit {suit}: rank is 2..14, suit 0..3")
    return suit * 16 + rank


def rank_of(code):
    return code & 15


def suit_of(code):
    return code >> 4


def is_joker(code) -> bool:
    return code == JOKER


def parse_card(token: str) -> int:
    """Parse one card token such as ``As``, ``10h``, ``Д♦`` or ``Jo``."""
    t = token.strip().lower()
    if t in _JOKERS:
        return JOKER
    if len(t) < 2 or t[-1] not in _SUIT_IN or t[:-1] not in _RANK_IN:
        raise SimkitError(
            f"cannot read card {token!r}: write a rank (2-10, T, J, Q, K, A or В, Д, К, Т) "
            f"and a suit (c d h s or ♣ ♦ ♥ ♠), e.g. As, 10h, Д♦")
    return card(_RANK_IN[t[:-1]], _SUIT_IN[t[-1]])


def parse(text: str) -> np.ndarray:
    """Parse a space- or comma-separated list of cards into a ``uint8`` array of codes."""
    tokens = [t for t in text.replace(",", " ").split() if t]
    return np.array([parse_card(t) for t in tokens], dtype=np.uint8)


def format_card(code: int, style: str = "ascii") -> str:
    """One card as text. ``style``: ``ascii`` (``Td``), ``symbols`` (``10♦``) or ``ru`` (``10♦``, ``Т♠``)."""
    code = int(code)
    if code == JOKER:
        return "Jo"
    r, s = rank_of(code), suit_of(code)
    if not (0 <= code < JOKER and 2 <= r <= 14):
        raise SimkitError(f"{code} is not a card code")
    if style == "ascii":
        return RANK_LETTERS.get(r, str(r)) + SUIT_LETTERS[s]
    if style == "symbols":
        return {10: "10"}.get(r, RANK_LETTERS.get(r, str(r))) + SUIT_SYMBOLS[s]
    if style == "ru":
        return RU_RANK_LETTERS.get(r, str(r)) + SUIT_SYMBOLS[s]
    raise SimkitError(f"unknown card style {style!r}: use ascii, symbols or ru")


def format_cards(codes, style: str = "ascii") -> str:
    """The inverse of :func:`parse`: ``format_cards(parse(s))`` reads back as the same cards."""
    return " ".join(format_card(c, style) for c in codes)


def deck(size: int = 52, decks: int = 1, jokers: int = 0) -> np.ndarray:
    """A sorted deck as ``uint8`` codes.

    ``size``: 52 (2..A), 36 (6..A), 32 (7..A), 24 (9..A), 20 (10..A) or 40 (Spanish: A, 2-7 and the
    three figures, which map to J Q K).  ``decks`` copies of it, plus ``jokers`` jokers (the code
    :data:`JOKER` that many times, last).
    """
    lowest = {52: 2, 36: 6, 32: 7, 24: 9, 20: 10}
    if size in lowest:
        ranks = list(range(lowest[size], 15))
    elif size == 40:
        ranks = [2, 3, 4, 5, 6, 7, JACK, QUEEN, KING, ACE]
    else:
        raise SimkitError(f"no {size}-card deck: use one of 20, 24, 32, 36, 40, 52")
    if decks < 1 or jokers < 0:
        raise SimkitError("decks must be at least 1 and jokers at least 0")
    one = [card(r, s) for s in range(4) for r in ranks]
    return np.array(sorted(one * decks) + [JOKER] * jokers, dtype=np.uint8)


def mask(codes) -> int:
    """Bitmask of a set of distinct natural cards (bit ``code``).  A joker has no bit: it is
    refused (:class:`SimkitError`), as is any code outside ``0..63``."""
    m = 0
    for c in codes:
        c = int(c)
        if not 0 <= c < 64:
            what = "a joker" if c == JOKER else f"code {c}"
            raise SimkitError(f"{what} has no bit in a card mask (bits 0..63); count jokers "
                              f"beside the mask (simkit.core.hand)")
        m |= 1 << c
    return m
