"""Brute-force values of small Durak endgames (stock empty, both hands known), written apart
from the engine's solver: cards as (rank, suit) pairs in frozensets, a plain game-tree search of
every legal single-card move (attack, beat or take, throw in or stop) with no memo and no pruning.

``value(a, d, trump)`` is the minimax value for the attacker to move at a bout's start: +1 he
gets rid of his cards first, 0 a draw, -1 he is the durak.
"""


def beats(b, c, trump):
    return (b[1] == c[1] and b[0] > c[0]) or (b[1] == trump and c[1] != trump)


def value(a, d, trump, max_attack=6):
    a, d = frozenset(a), frozenset(d)
    if not a and not d:
        return 0
    if not a:
        return 1
    if not d:
        return -1
    cap = min(max_attack, len(d))
    return max(_defend(a - {c}, d, trump, cap, [c], c) for c in a)


def _defend(a, d, trump, cap, table, open_card):
    """The defender answers ``open_card``: the attacker's value, minimised over take and beats."""
    options = [_throw(a, d, trump, cap, table, True)]
    for b in d:
        if beats(b, open_card, trump):
            options.append(_throw(a, d - {b}, trump, cap, table + [b], False))
    return min(options)


def _throw(a, d, trump, cap, table, taking):
    # attacking cards so far: a table alternates attack, beat, ...; it ends with an attack
    # when the defender takes, with a beat when he has just beaten
    n_attack = _attacks(table)
    if taking:
        best = _next_same(a, d, table, trump)            # he takes: the attacker attacks again
    else:
        best = -value(d, a, trump)                       # beaten: the defender attacks next
    ranks = {c[0] for c in table}
    if n_attack < cap:
        for t in a:
            if t[0] in ranks:
                if taking:
                    v = _throw_more(a - {t}, d, trump, cap, table + [t], n_attack + 1)
                else:
                    v = _defend(a - {t}, d, trump, cap, table + [t], t)
                best = max(best, v)
    return best


def _attacks(table):
    # a table before a take alternates attack, beat, ..., attack: (len + 1) // 2 attacks
    return (len(table) + 1) // 2


def _next_same(a, d, table, trump):
    return value(a, d | frozenset(table), trump)


def _throw_more(a, d, trump, cap, table, n_attack):
    best = _next_same(a, d, table, trump)
    ranks = {c[0] for c in table}
    if n_attack < cap:
        for t in a:
            if t[0] in ranks:
                best = max(best, _throw_more(a - {t}, d, trump, cap, table + [t], n_attack + 1))
    return best
