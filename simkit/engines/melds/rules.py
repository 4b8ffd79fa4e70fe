"""Meld rules as a record of scalars (:class:`MeldRules`), built and checked by :func:`meld_rules`,
and the presets of the games that use them.

Rank positions.  A run uses rank *positions* 1..14 in one suit: position 1 is an ace played low,
2..13 the ranks 2..K, 14 an ace played high.  ``seq_ranks`` is the bit mask of the positions runs
may use, and a run is a stretch of positions that are consecutive *among the mask's bits* (a
Spanish 40-card pack without 8, 9, 10 makes 7-J adjacent).  An ace is one card that may sit at
position 1 or 14 where the mask has the bit; a run never goes round the corner (K-A-2) because
positions 14 and 1 are the two ends of the order, not neighbours.

Wild cards.  The joker (code 64) is always wild; ``wild_ranks`` makes natural ranks wild too
(deuces: bit 2).  A wild card stands for any card and never counts as a natural, even where it
stands for itself (a deuce of clubs as the 2 of clubs in A-2-3).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simkit.core.records import record
from simkit.errors import SimkitError

MAX_LEN = 16                  # cards a meld row can hold
MELD_W = 3 + 2 * MAX_LEN      # a meld row: kind, n, key, then (actual, stands) per card
JOKER = 64
KIND_SET, KIND_RUN = 0, 1
SET_ANY, SET_DISTINCT, SET_ONE_OR_ALL_DIFFERENT = 0, 1, 2
SET_SUITS = {"any": SET_ANY, "distinct": SET_DISTINCT,
             "one_or_all_different": SET_ONE_OR_ALL_DIFFERENT}

ACE_LOW = sum(1 << b for b in range(1, 14))    # A-2-3 ... J-Q-K
ACE_HIGH = sum(1 << b for b in range(2, 15))   # 2-3-4 ... Q-K-A
ACE_BOTH = sum(1 << b for b in range(1, 15))   # both, not round the corner
SPANISH = sum(1 << b for b in (1, 2, 3, 4, 5, 6, 7, 11, 12, 13))  # A low, 7 next to J
ALL_RANKS = sum(1 << b for b in range(2, 15))  # rank bits 2..14 (ace 14)
ACES = {"low": ACE_LOW, "high": ACE_HIGH, "both": ACE_BOTH, "spanish": SPANISH}
POSITIONS = ACE_BOTH


class MeldRules(NamedTuple):
    """What a meld is.  Every field a scalar (numba keeps no reference counts for it)."""
    seq_ranks: int       # bit mask of the rank positions 1..14 runs may use (see the module)
    runs: bool           # runs (sequences in one suit) exist
    sets: bool           # sets (groups of one rank) exist
    min_size: int        # cards in a meld, at least
    max_size: int        # and at most (MAX_LEN: unbounded)
    set_suits: int       # SET_ANY, SET_DISTINCT or SET_ONE_OR_ALL_DIFFERENT
    free_set_ranks: int  # rank bits whose sets take any suits regardless (Panguingue: A, K)
    set_ranks: int       # rank bits that may form sets (canasta: not threes)
    wild_ranks: int      # rank bits that are wild (deuces: 1 << 2); the joker always is
    max_wild: int        # wild cards in one meld, at most
    min_natural: int     # natural cards in one meld, at least (0: all-wild melds exist)
    run_wilds: bool      # runs may hold wild cards (Samba: no)


_FIELDS = {
    "seq_ranks": "a bit mask of rank positions 1..14 (1 ace low, 14 ace high), or one of "
                 + ", ".join(ACES),
    "runs": "true or false",
    "sets": "true or false",
    "min_size": f"an integer in 2..{MAX_LEN}",
    "max_size": f"an integer in min_size..{MAX_LEN}",
    "set_suits": "one of " + ", ".join(SET_SUITS),
    "free_set_ranks": "a bit mask of ranks 2..14",
    "set_ranks": "a bit mask of ranks 2..14",
    "wild_ranks": "a bit mask of ranks 2..14",
    "max_wild": f"an integer in 0..{MAX_LEN}",
    "min_natural": "an integer in 0..max_size",
    "run_wilds": "true or false",
}


def _bad(field: str, value) -> SimkitError:
    return SimkitError(f"meld rules: bad {field}={value!r}: expected {_FIELDS[field]}")


def _bool(field, v):
    if isinstance(v, bool):
        return v
    if isinstance(v, str) and v.strip().lower() in ("true", "false", "1", "0", "yes", "no"):
        return v.strip().lower() in ("true", "1", "yes")
    if isinstance(v, int) and v in (0, 1):
        return bool(v)
    raise _bad(field, v)


def _int(field, v, lo, hi):
    if isinstance(v, bool):
        raise _bad(field, v)
    try:
        i = int(v)
    except (TypeError, ValueError):
        raise _bad(field, v) from None
    if i != v and not isinstance(v, str) or not lo <= i <= hi:
        raise _bad(field, v)
    return i


def _mask(field, v, allowed):
    i = _int(field, v, 0, (1 << 16) - 1)
    if i & ~allowed:
        raise _bad(field, v)
    return i


def meld_rules(**kw) -> MeldRules:
    """A checked :class:`MeldRules`; every field may be given, the rest take the defaults of plain
    one-deck rummy (= :data:`GIN`): ace low runs and sets of distinct suits, three cards or more,
    no wild cards.  A bad value raises :class:`~simkit.errors.SimkitError` naming the field and what
    it allows; ``seq_ranks`` also takes ``"low"``, ``"high"``, ``"both"`` or ``"spanish"`` and
    ``set_suits`` ``"any"``, ``"distinct"`` or ``"one_or_all_different"``."""
    v = dict(seq_ranks=ACE_LOW, runs=True, sets=True, min_size=3, max_size=MAX_LEN,
             set_suits=SET_DISTINCT, free_set_ranks=0, set_ranks=ALL_RANKS, wild_ranks=0,
             max_wild=0, min_natural=1, run_wilds=True)
    unknown = sorted(set(kw) - set(v))
    if unknown:
        raise SimkitError(f"meld rules: unknown field {unknown[0]!r}: the fields are "
                          + ", ".join(v))
    v.update(kw)
    if isinstance(v["seq_ranks"], str):
        if v["seq_ranks"] not in ACES:
            raise _bad("seq_ranks", v["seq_ranks"])
        v["seq_ranks"] = ACES[v["seq_ranks"]]
    seq = _mask("seq_ranks", v["seq_ranks"], POSITIONS)
    runs, sets = _bool("runs", v["runs"]), _bool("sets", v["sets"])
    if not (runs or sets):
        raise SimkitError("meld rules: runs and sets are both false: no meld would exist")
    lo = _int("min_size", v["min_size"], 2, MAX_LEN)
    hi = _int("max_size", v["max_size"], lo, MAX_LEN)
    ss = v["set_suits"]
    if isinstance(ss, str):
        if ss not in SET_SUITS:
            raise _bad("set_suits", ss)
        ss = SET_SUITS[ss]
    ss = _int("set_suits", ss, 0, 2)
    free = _mask("free_set_ranks", v["free_set_ranks"], ALL_RANKS)
    setr = _mask("set_ranks", v["set_ranks"], ALL_RANKS)
    wild = _mask("wild_ranks", v["wild_ranks"], ALL_RANKS)
    mw = _int("max_wild", v["max_wild"], 0, MAX_LEN)
    mn = _int("min_natural", v["min_natural"], 0, hi)
    rw = _bool("run_wilds", v["run_wilds"])
    if runs and bin(seq).count("1") < lo:
        raise SimkitError(f"meld rules: seq_ranks has {bin(seq).count('1')} positions, fewer than "
                          f"min_size={lo}: no run would exist")
    return record(MeldRules, seq_ranks=seq, runs=runs, sets=sets, min_size=lo, max_size=hi,
                  set_suits=ss, free_set_ranks=free, set_ranks=setr, wild_ranks=wild,
                  max_wild=mw, min_natural=mn, run_wilds=rw)


# Gin rummy (text 003 line 6: king high, ace low; line 9: sets of three or four of a rank, runs of
# three or more in one suit); one deck, no wild cards.  The engine's least deadwood under these
# rules equals :func:`simkit.engines.melds.onedeck.min_deadwood`.
GIN = meld_rules()

# Oklahoma (text 003 lines 85-88; readings: ../shared/rules/READINGS-rummy.md section 4): two
# decks and a joker; sets (a card may repeat, two decks) and runs of 3 or 4 cards (line 85: "not
# beyond four cards"); ace high or low, not round the corner (line 85); the joker and every
# deuce wild (line 86).  A meld must hold one natural card at least (the text is silent: the
# reading's inferred default, an option of the game); so at most three wilds in a meld of four.
OKLAHOMA = meld_rules(seq_ranks=ACE_BOTH, min_size=3, max_size=4, set_suits=SET_ANY,
                      wild_ranks=1 << 2, max_wild=3, min_natural=1)

# Sketches (not yet played by any game; READINGS-rummy.md section 3).  Canasta: sets only, of
# ranks 4..A (threes are special), any suits, three cards or more, deuces and jokers wild, at
# least two naturals and at most three wilds a meld (text 003 line 48).
CANASTA = meld_rules(runs=False, set_suits=SET_ANY, set_ranks=ALL_RANKS & ~(1 << 3),
                     wild_ranks=1 << 2, max_wild=3, min_natural=2)
# Panguingue (text 003 lines 90, 95-96): Spanish packs (A low, 7 next to J), melds of three or
# more (new melds exactly three: the game's rule), sets of one suit or all different suits,
# aces and kings in any suits; no wild cards.
PANGUINGUE = meld_rules(seq_ranks=SPANISH, set_suits=SET_ONE_OR_ALL_DIFFERENT,
                        free_set_ranks=(1 << 14) | (1 << 13))
PRESETS = {"gin": GIN, "oklahoma": OKLAHOMA, "canasta": CANASTA, "panguingue": PANGUINGUE}


def gin_values() -> np.ndarray:
    """Gin's deadwood values by card code (text 003 line 6: pictures 10, aces 1, other cards their
    pips), as ``int64[65]`` for :func:`~simkit.engines.melds.search.arrange`."""
    v = np.zeros(65, np.int64)
    for s in range(4):
        for r in range(2, 15):
            v[s * 16 + r] = 1 if r == 14 else min(r, 10)
    return v


def oklahoma_hand_values() -> np.ndarray:
    """Oklahoma's values of cards left in hand by code (text 003 line 87): any ace 20, the queen
    of spades 100, K..8 10, 7..3 5, a deuce 20, the joker 200.  (The game keeps its own tables:
    melded values differ.)"""
    v = np.zeros(65, np.int64)
    for s in range(4):
        for r in range(2, 15):
            v[s * 16 + r] = 20 if r in (2, 14) else 10 if r >= 8 else 5
    v[3 * 16 + 12] = 100
    v[JOKER] = 200
    return v
