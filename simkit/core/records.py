"""Named records for kernels: rules and strategies reach numba as ``NamedTuple`` s, not as
positional arrays indexed by constants kept in step with a list elsewhere.

A game declares its record as a ``typing.NamedTuple`` with annotations, and builds it with
:func:`record`, which gives every field a fixed numba type (``int`` -> ``int64``, ``float`` ->
``float64``, ``bool`` -> ``bool_``, ``np.ndarray`` -> a C-contiguous array of the dtype the
value has).  Because the types never depend on the values, one compiled kernel serves every
rules option and every strategy parameter (``simkit.testing.check_game`` checks that a game's
kernel compiles once across its presets)::

    class OchkoRules_(NamedTuple):
        players: int
        five_pictures: bool
        card_info: np.ndarray      # int64[80]

    R = record(OchkoRules_, players=rules.players, five_pictures=rules.five_pictures,
               card_info=card_info(rules.values))
    ... R.players ... R.card_info[c] ...   # inside @njit code
"""
from __future__ import annotations

from typing import NamedTuple, get_type_hints

import numpy as np
from numba import njit

from simkit.errors import SimkitError

_SCALARS = {int: np.int64, float: np.float64, bool: np.bool_}


def record(cls: type[NamedTuple], **values) -> NamedTuple:
    """Build ``cls`` from ``values``, each coerced to the numba-stable type its annotation names."""
    hints = get_type_hints(cls)
    missing = [k for k in cls._fields if k not in values]
    extra = [k for k in values if k not in cls._fields]
    if missing or extra:
        raise SimkitError(f"{cls.__name__}: missing fields {missing}, unknown fields {extra}")
    out = {}
    for k in cls._fields:
        t, v = hints[k], values[k]
        if t in _SCALARS:
            out[k] = _SCALARS[t](v)
        elif t is np.ndarray:
            out[k] = np.ascontiguousarray(v)
        else:  # a nested record or a tuple: taken as given
            out[k] = v
    return cls(**out)


def slots(names, first: int = 0, step: int = 1) -> NamedTuple:
    """A record of metric slot indices from the metric names themselves: ``slots(["win", "ev"])``
    gives ``(win=0, ev=1)``, so a kernel writes ``v[M.ev]`` and the slots cannot drift from the
    list.  Names must be identifiers (seat prefixes are added by the game's metric list).

    ``first`` and ``step`` place the names at ``first, first + step, ...``: a per-seat metric's
    record gives the slot of its first seat (p1), read by :func:`seat_slot`.  Seat by seat
    (p1's metrics, then p2's): ``slots(SEAT, first=NM)``, seats ``len(SEAT)`` apart; metric by
    metric (p1_x, p2_x, then p1_y ...): ``slots(SEAT, first=NM, step=seats)``, seats 1 apart."""
    names = list(names)
    cls = NamedTuple("Slots", [(n, int) for n in names])
    return cls(*[np.int64(first + step * i) for i in range(len(names))])


@njit(cache=True, nogil=True, inline="always")
def seat_slot(p1, apart, k):
    """The house's one way to a per-seat metric: seat ``k``'s slot of the metric whose first
    seat's (p1's) slot is ``p1`` (a :func:`slots` index), the seats' slots ``apart`` slots apart
    (the number of metrics a seat has when the vector goes seat by seat; 1 when each metric's
    seats are side by side: p1_x, p2_x)."""
    return p1 + apart * k
