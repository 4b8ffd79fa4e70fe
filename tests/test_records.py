"""The house's records (simkit.core.records): the strategy record built by ``seat_arrays``."""
from typing import NamedTuple

import numpy as np
import pytest
from numba import njit

from simkit.core.records import seat_arrays
from simkit.core.registry import Param, Strategy, StrategyKind
from simkit.errors import SimkitError

KINDS = {
    "random": StrategyKind("random", 0, (Param("p", 0.5, (0.0, 1.0)),)),
    "rule": StrategyKind("rule", 1, (Param("t", 17, (0, 21)), Param("safe", True))),
}


class Seats(NamedTuple):
    kind: np.ndarray
    p: np.ndarray
    t: np.ndarray
    safe: np.ndarray
    table: np.ndarray


def strat(kind, **v):
    names = [p.name for p in KINDS[kind].params]
    return Strategy(kind, tuple((n, v.get(n, p.default)) for n, p in
                                zip(names, KINDS[kind].params)))


def test_seat_arrays_fills_each_seat_from_its_kind_and_defaults_the_rest():
    S = seat_arrays(Seats, [strat("rule", t=15, safe=False), strat("random", p=0.25)], KINDS,
                    table=np.arange(6).reshape(2, 3))
    assert S.kind.tolist() == [1, 0]
    assert S.t.tolist() == [15, 17] and S.t.dtype == np.int64
    assert S.p.tolist() == [0.5, 0.25] and S.p.dtype == np.float64
    assert S.safe.tolist() == [False, True] and S.safe.dtype == np.bool_
    assert S.table[1].tolist() == [3, 4, 5]


def test_one_compiled_kernel_serves_every_table_size():
    @njit
    def total(S):
        out = 0.0
        for k in range(S.kind.shape[0]):
            out += S.kind[k] * S.t[k] + S.p[k]
        return out

    for n in (2, 3, 5):
        S = seat_arrays(Seats, [strat("rule", t=10)] * n, KINDS, table=np.zeros((n, 1)))
        assert total(S) == 10.0 * n + 0.5 * n
    assert len(total.signatures) == 1


@pytest.mark.parametrize("derived, message", [
    (dict(), "field 'table' is no strategy parameter"),
    (dict(table=np.zeros(1), extra=1), "unknown fields ['extra']"),
])
def test_seat_arrays_refuses_a_field_it_cannot_fill(derived, message):
    with pytest.raises(SimkitError, match=message.replace("[", r"\[").replace("]", r"\]")):
        seat_arrays(Seats, [strat("random")], KINDS, **derived)


def test_seat_arrays_refuses_kinds_that_disagree_on_a_type():
    kinds = dict(KINDS, other=StrategyKind("other", 2, (Param("t", 0.5),)))
    with pytest.raises(SimkitError, match="'t' is int in one kind and float in another"):
        seat_arrays(Seats, [strat("random")], kinds, table=np.zeros(1))


def test_a_clash_only_matters_where_a_field_is_filled_from_the_parameter():
    """Kinds may disagree on a parameter's type (gin's ``knock``: random's chance, threshold's
    deadwood) as long as no field is filled from it; the game derives its own fields."""
    kinds = dict(KINDS, other=StrategyKind("other", 2, (Param("t", 0.5),)))
    S = seat_arrays(Seats, [strat("random"), strat("rule", t=12)], kinds,
                    t=np.array([0, 12]), table=np.zeros(2))
    assert S.t.tolist() == [0, 12] and S.kind.tolist() == [0, 1]
