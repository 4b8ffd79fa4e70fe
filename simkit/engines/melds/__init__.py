"""Melds: sets and runs over multi-deck hands with wild cards, driven by a named meld-rules record.

A hand is a count vector ``cnt: int64[65]``: ``cnt[code]`` copies of each natural card
(``code = suit * 16 + rank``, :mod:`simkit.core.cards`) and ``cnt[64]`` jokers.  The rules are a
:class:`~simkit.engines.melds.rules.MeldRules` built by :func:`meld_rules` (presets :data:`GIN`,
:data:`OKLAHOMA`; sketches :data:`CANASTA`, :data:`PANGUINGUE`).  Kernels (``@njit``, plain
Python under ``NUMBA_DISABLE_JIT=1``):

* :func:`arrange` -- the least-deadwood arrangement of a hand (:mod:`.search`);
* :func:`legal_melds`, :func:`melds_with`, :func:`add_options`, :func:`joker_swap`,
  :func:`check_meld` -- listings (:mod:`.lists`);
* :mod:`.onedeck` -- gin's exact one-deck, no-wild search on ``uint64`` masks, its fast path
  (:func:`arrange` under :data:`GIN` gives the same least deadwood, a test checks it).

A meld row is ``int64[MELD_W]``, ``MELD_W = 3 + 2 * MAX_LEN``: ``[kind, n, key, actual_0,
stands_0, actual_1, stands_1, ...]`` -- ``kind`` :data:`KIND_SET` (0) or :data:`KIND_RUN` (1),
``n`` its cards, ``key`` a set's rank or a run's ``suit * 16 + lowest rank position`` (position
1 is an ace played low, 14 an ace played high), then per card the code used (``actual``: a
natural card, a wild deuce, 64 for a joker) and the natural card it stands for (``stands``: itself
for a natural card).  Unused entries are -1.  A run's cards are in rank order.  A set's natural
cards come first (by suit), then its wild cards by code.

Wild naming.  A wild card in a run stands for the card of its position.  A wild card in a set
stands for a card of the set's rank whose suit is the lowest that keeps the set legal
(:func:`~simkit.engines.melds.search.set_wild_suits`): clubs where suits are free (SET_ANY, or a
rank in ``free_set_ranks``); the lowest suits the natural cards lack under SET_DISTINCT; under
one-suit-or-all-different, the lowest missing suits while the set can be all different (natural
cards of distinct suits, four cards at most), else the natural cards' suit.  Wild cards are
placed in ascending code order, so a run with a deuce and the joker has the deuce at its lower
wild position.

Tie-break of :func:`arrange`: the first least-deadwood arrangement in its search order (natural
kinds by value in hand, most valuable first; for each, its melds with more natural cards first,
then fewer wilds, then deadwood), the wilds used being the most valuable in hand; details in
:mod:`.search`.

Rule texts.  Oklahoma's defaults come from text 003 (``../shared/rules/003_25b072003b534ab4.txt``)
lines 85-88: melds of three or four cards, sets may repeat a card (two decks), ace high or low
but not round the corner (85), the joker and every deuce wild and the player names what a wild
stands for (86); the readings (``../shared/rules/READINGS-rummy.md`` section 4) infer that a meld
holds at least one natural card.  Gin's come from the same text's lines 6 and 9.
"""
from __future__ import annotations

import numpy as np

from simkit.core import cards as C
from simkit.engines.melds.moves import (  # noqa: F401
    SCRATCH, add_options, check_meld, joker_swap, legal_melds, legal_melds_in, melds_with,
    melds_with_in,
)
from simkit.engines.melds.rules import (  # noqa: F401
    ACE_BOTH, ACE_HIGH, ACE_LOW, ACES, ALL_RANKS, CANASTA, GIN, JOKER, KIND_RUN, KIND_SET, MAX_LEN,
    MELD_W, OKLAHOMA, PANGUINGUE, PRESETS, SET_ANY, SET_DISTINCT, SET_ONE_OR_ALL_DIFFERENT,
    SET_SUITS, SPANISH, MeldRules, gin_values, meld_rules, oklahoma_hand_values,
)
from simkit.engines.melds.search import arrange, arrange_in, set_wild_suits  # noqa: F401
from simkit.errors import SimkitError


def counts(cards) -> np.ndarray:
    """The count vector (``int64[65]``) of cards given as text (``"As As 2c Jo"``) or codes."""
    codes = C.parse(cards) if isinstance(cards, str) else np.asarray(cards, np.int64).ravel()
    cnt = np.zeros(65, np.int64)
    for c in codes:
        c = int(c)
        if not (c == JOKER or (0 <= c < 64 and 2 <= c % 16 <= 14)):
            raise SimkitError(f"{c} is not a card code (suit * 16 + rank 2..14, or 64 a joker)")
        cnt[c] += 1
    return cnt


def row_cards(row, style: str = "ascii") -> list[str]:
    """A meld row's cards as text, a wild as ``actual=stands`` (``["5s", "Jo=6s", "7s"]``)."""
    out = []
    for j in range(int(row[1])):
        a, s = int(row[3 + 2 * j]), int(row[4 + 2 * j])
        t = C.format_card(a, style)
        out.append(t if a == s else f"{t}={C.format_card(s, style)}")
    return out


def rows_cards(rows, k: int, style: str = "ascii") -> list[list[str]]:
    """The first ``k`` rows as :func:`row_cards` lists."""
    return [row_cards(rows[i], style) for i in range(k)]


def arrange_codes(cards, rules: MeldRules = OKLAHOMA, values=None, style: str = "ascii") -> dict:
    """:func:`arrange` from Python: ``cards`` as text or codes, ``values`` an ``int64[65]`` of
    in-hand values (default :func:`oklahoma_hand_values` for Oklahoma, :func:`gin_values` for
    gin, else every card 1).  Returns ``{"deadwood": int, "melds": [[card, ...], ...],
    "deadwood_cards": [card, ...]}`` (wild cards in melds as ``actual=stands``)."""
    cnt = counts(cards)
    if values is None:
        values = (oklahoma_hand_values() if rules == OKLAHOMA
                  else gin_values() if rules == GIN else np.ones(65, np.int64))
    dw = np.ascontiguousarray(values, np.int64)
    if dw.shape != (65,):
        raise SimkitError(f"values must be 65 numbers (one a card code, 64 the joker), "
                          f"not {dw.shape}")
    out = np.zeros((int(cnt.sum()) + 1, MELD_W), np.int64)
    dead, k = arrange(cnt, rules, dw, out)
    left = cnt.copy()
    for i in range(k):
        for j in range(int(out[i, 1])):
            left[out[i, 3 + 2 * j]] -= 1
    rest = [C.format_card(c, style) for c in range(65) for _ in range(int(left[c]))]
    return {"deadwood": int(dead), "melds": rows_cards(out, k, style), "deadwood_cards": rest}
