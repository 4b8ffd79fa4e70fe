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

**Strategies** reach a kernel in one form, the house's (issue 28): one record of per-seat arrays,
built by :func:`seat_arrays`.  Its ``kind`` field holds each seat's :class:`StrategyKind` code
(p1's first) and every other field one array indexed by seat: a parameter of the game's
strategy kinds (a seat whose kind lacks it gets the parameter's default), or a value the game
derives (passed in, one entry per seat, or a table ``[seat, ...]``).  The record's types never
depend on the number of seats, so one compiled kernel serves every table size.  A kernel reads
``S.kind[k]``, ``S.threshold[k]``; a hot per-move helper is given the seat's values as scalars
or the arrays as locals (:mod:`simkit.core.jit`, rule 2), not the record.
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


def seat_arrays(cls: type[NamedTuple], strategies, kinds: dict, **derived) -> NamedTuple:
    """The house's strategy record (see the module docstring): ``cls``'s fields ``kind`` (the
    seats' kind codes from ``kinds``, the game's ``STRATEGIES``), each parameter of ``kinds``
    named by a field (per seat: the seat's value, or the parameter's default where the seat's
    kind has none; dtype from the default: ``bool`` -> ``bool_``, ``int`` -> ``int64``,
    ``float`` -> ``float64``) and ``derived`` fields given whole (an array with the seats
    first).  A field neither a parameter nor given is an error, as is a field filled from a
    parameter whose kinds disagree on its default's type (such a parameter may still be read
    by the game into a derived field of another name: gin's ``knock``)."""
    strategies = list(strategies)
    unknown = sorted(set(derived) - set(cls._fields))
    if unknown:
        raise SimkitError(f"{cls.__name__}: unknown fields {unknown}")
    params, clash = {}, {}
    for kind in kinds.values():
        for p in kind.params:
            old = params.setdefault(p.name, p)
            if type(old.default) is not type(p.default):
                clash.setdefault(p.name, f"{cls.__name__}: parameter {p.name!r} is "
                                         f"{type(old.default).__name__} in one kind and "
                                         f"{type(p.default).__name__} in another")
    values = {}
    for f in cls._fields:
        if f in derived:
            values[f] = np.asarray(derived[f])
        elif f == "kind":
            values[f] = np.array([kinds[s.kind].code for s in strategies], np.int64)
        elif f in clash:
            raise SimkitError(clash[f])
        elif f in params:
            d = params[f].default
            dtype = _SCALARS.get(type(d), np.float64)
            values[f] = np.array([s.values.get(f, d) for s in strategies], dtype)
        else:
            raise SimkitError(f"{cls.__name__}: field {f!r} is no strategy parameter and was "
                              f"not given")
    return record(cls, **values)


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
