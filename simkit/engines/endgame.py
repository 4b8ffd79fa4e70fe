"""The shared exact endgame: the memo table of a perfect-information minimax, and how the
baseline's move is kept when it is optimal too.

Durak and Piquet (``simkit/games/{durak,piquet}/engine.py``) each solve their endgame exactly,
both hands known, by minimax over the legal moves.  The moves and the scores are the game's, so
each game keeps its own recursion (``solve``: numba calls a module-level ``@njit`` function
directly, where a move generator or an evaluation passed in as a first-class function would be
called indirectly, and slowly); what they share lives here, as small ``@njit`` helpers inlined
into it:

* **The table** (:func:`memo`): ``keys`` ``uint64[size, width]``, a position packed by the game
  into ``width`` (2 or 3) words, and ``values`` ``int64[size]``, :data:`EMPTY` in a slot never
  written.  ``size`` is a power of two (a game's ``MEMO``), or 1 when no seat plays the exact
  endgame.  The table is direct-mapped: :func:`slot` hashes the key words to one slot, and a new
  position overwrites whatever was there.  A slot's key is checked in full (:func:`probe`), so a
  value read is always the position's own.
* **Its lifetime.**  A position's value depends on the rules and the position only, so the
  table is never cleared: it lives as long as the work record that holds it (the game's
  ``prepare`` makes one per chunk of deals), and a position met again in a later deal of the
  chunk is not searched again.  Neither the hashing nor the size changes a value, only how much
  is searched again.
* **Storing** (:func:`store`): the game's recursion stores the value it found, exactly as
  searched (the searches cut off only at a won or lost bound that no move can beat, so a stored
  value is exact, never a bound).
* **The baseline's move** (:func:`keep`): at a decision, the exact player plays the baseline's
  own choice when it is optimal too, else the game's first optimal move (its lowest card); so the
  exact player differs from the baseline only where the baseline errs.
"""
from __future__ import annotations

import numpy as np
from numba import njit

EMPTY = -(1 << 40)   # a slot never written (no game's value comes near)

_K1 = np.uint64(0x9E3779B97F4A7C15)
_K2 = np.uint64(0xC2B2AE3D27D4EB4F)
_K3 = np.uint64(0x165667B19E3779F9)
_S31 = np.uint64(31)
_S29 = np.uint64(29)


def memo(size: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """A fresh table of ``size`` slots (a power of two) for keys of ``width`` words:
    ``(keys uint64[size, width], values int64[size])``, every slot empty."""
    if size & (size - 1) or size < 1:
        raise ValueError(f"the memo table's size must be a power of two, not {size}")
    return np.zeros((size, width), np.uint64), np.full(size, EMPTY, np.int64)


@njit(cache=True, nogil=True, inline="always")
def I(x):
    """``x`` as int64 (a recursive solver's arguments must not be literal types: each literal
    would compile a new version)."""
    return np.int64(x)


@njit(cache=True, nogil=True, inline="always")
def slot(values, k0, k1, k2):
    """The slot of the key ``(k0, k1, k2)`` (``k2 = 0`` for keys of two words)."""
    h = k0 * _K1 ^ k1 * _K2 ^ k2 * _K3
    h ^= h >> _S31
    h *= _K1
    h ^= h >> _S29
    return np.int64(h & np.uint64(values.shape[0] - 1))


@njit(cache=True, nogil=True, inline="always")
def probe(keys, values, k0, k1, k2):
    """``(slot, found)``: the key's slot, and whether it holds this very key (then
    ``values[slot]`` is its value).  ``k2`` is ignored for keys of two words."""
    s = slot(values, k0, k1, k2)
    found = values[s] != EMPTY and keys[s, 0] == k0 and keys[s, 1] == k1 and \
        (keys.shape[1] < 3 or keys[s, 2] == k2)
    return s, found


@njit(cache=True, nogil=True, inline="always")
def store(keys, values, s, k0, k1, k2, v):
    """Write value ``v`` of key ``(k0, k1, k2)`` into slot ``s`` (from :func:`probe`); returns
    ``v``."""
    values[s] = v
    keys[s, 0] = k0
    keys[s, 1] = k1
    if keys.shape[1] > 2:
        keys[s, 2] = k2
    return v


@njit(cache=True, nogil=True, inline="always")
def keep(pref, pref_value, best, move):
    """The move to play: the baseline's ``pref`` when its value ``pref_value`` is the ``best``,
    else the search's ``move``."""
    return pref if pref_value == best else move
