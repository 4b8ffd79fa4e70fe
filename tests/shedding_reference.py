"""Plain-Python references of the shedding games' rules, written apart from the kernels, that
replay a logged deal and check it: Old Maid (every draw from the right neighbour, pairs, loser),
Crazy Eights (every play legal, every card's whereabouts, the scores), Fan-Tan (every play on a
row, passes only when unable, the chips).  Each ``replay_*`` raises ``AssertionError`` on the
first thing that is wrong and returns the metrics it computed by name.
"""
from __future__ import annotations


def rank(c):
    return c & 15


def suit(c):
    return c >> 4


# --------------------------------------------------------------------------- Old Maid

def replay_old_maid(rules, row):
    K = rules.players
    first, drawer0 = row[0], row[1]
    dealt = row[2:53]
    draws = [x for x in row[53:] if x != -1]
    hands = [set() for _ in range(K)]
    for j, c in enumerate(dealt):
        p = (first + j) % K
        same = [x for x in hands[p] if rank(x) == rank(c)]
        if same:
            hands[p].remove(same[0])
        else:
            hands[p].add(c)
    for h in hands:
        assert len({rank(c) for c in h}) == len(h), "a pair left in a hand after the deal"
    # the starting drawer
    want = {"left": 0, "dealer": K - 1}.get(rules.starter)
    turn = 1 if rules.draw_from == "right" else -1
    if want is not None:
        t = want
        while not hands[t]:
            t = (t + turn) % K
        assert drawer0 == t, f"first drawer {drawer0}, the rules say {t}"
    t = drawer0
    for x in draws:
        c, d, v = x % 64, (x // 64) % 8, x // 512
        assert d == t, f"seat {d} draws, it is seat {t}'s turn"
        vv = (t - turn) % K
        while not hands[vv]:
            vv = (vv - turn) % K
        assert v == vv and v != t, f"seat {t} draws from {v}, its neighbour with cards is {vv}"
        assert c in hands[v], "a drawn card that the neighbour does not hold"
        hands[v].remove(c)
        same = [y for y in hands[t] if rank(y) == rank(c)]
        if same:
            hands[t].remove(same[0])
        else:
            hands[t].add(c)
        if sum(1 for h in hands if h) <= 1:
            break
        nt = (t + turn) % K
        while not hands[nt]:
            nt = (nt + turn) % K
        t = nt
    left = [p for p in range(K) if hands[p]]
    assert len(left) == 1, f"the game ended with {len(left)} hands holding cards"
    (loser,) = left
    (card,) = hands[loser]
    assert rank(card) == 12, "the last card is not a queen"
    out = {f"p{k + 1}_lose": float(k == loser) for k in range(K)}
    out["draws"] = float(len(draws))
    return out
