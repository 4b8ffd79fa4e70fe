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
        # a draw: kind 1, the drawer, the seat drawn from, the card
        kind, d, v, c = x >> 20, (x >> 16) & 15, (x >> 8) & 255, x & 255
        assert kind == 1, f"event {x}"
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


# --------------------------------------------------------------------------- Crazy Eights

def c8_points(c):
    r = rank(c)
    return 50 if r == 8 else 1 if r == 14 else 10 if r > 10 else r


def replay_crazy_eights(rules, row):
    """Replay one logged deal (``unit=deal``) of Crazy Eights against the rules of 003:105-117."""
    from collections import Counter
    K, H = rules.players, rules.cards_each
    decks = rules.decks or (1 if K <= 5 else 2)
    nev = row[0]
    dealt = row[1:1 + K * H]
    events = row[1 + K * H:1 + K * H + nev]
    assert nev <= len(row) - 1 - K * H, "log truncated"
    unseen = Counter({s * 16 + r: decks for s in range(4) for r in range(2, 15)})
    hands = [Counter() for _ in range(K)]
    for j, c in enumerate(dealt):
        assert unseen[c] > 0, "a card dealt more often than the pack holds it"
        unseen[c] -= 1
        hands[j % K][c] += 1
    stock = sum(unseen.values())
    ev = [(x >> 20, (x >> 16) & 15, (x >> 8) & 255, x & 255) for x in events]   # kind seat suit card
    k = 0
    while ev[k][0] == 5:             # a starter eight buried or shuffled back into the stock
        assert rules.starter_eight in ("bury", "shuffle") and rank(ev[k][3]) == 8
        k += 1
    kind, _, _, top = ev[k]
    assert kind == 4, "no starter"
    if rules.starter_eight != "stands":
        assert rank(top) != 8, "an eight stands as starter although eights are put back"
    assert unseen[top] > 0
    unseen[top] -= 1
    stock -= 1
    k += 1
    want_suit = suit(top)
    p, passes, plays, draws, npass = 0, 0, 0, 0, 0
    owe_q, run, owe2 = False, 0, 0
    winner, blocked = None, False

    def draw(seat):
        nonlocal k, stock, draws
        kind, s_, _, c = ev[k]
        assert kind == 2 and s_ == seat, f"event {k}: seat {seat} should draw, got {ev[k]}"
        assert unseen[c] > 0, f"drawn card {c} is not in the stock"
        unseen[c] -= 1
        hands[seat][c] += 1
        stock -= 1
        draws += 1
        k += 1

    def legal(seat):
        return {c for c in hands[seat] if hands[seat][c] > 0 and
                (rank(c) == 8 or suit(c) == want_suit or rank(c) == rank(top))}

    while k < len(ev):
        nxt = (p + 1) % K
        if owe_q:
            owe_q = False
            for _ in range(min(5, stock)):
                draw(p)
            if rules.penalty_ends_turn:
                p = nxt
                continue
        if owe2:
            kind, s_, _, c = ev[k]
            if rules.twos == "stack" and kind == 1 and rank(c) == 2 and s_ == p:
                assert s_ == p and hands[p][c] > 0
                hands[p][c] -= 1
                plays += 1
                passes = 0
                top, want_suit = c, suit(c)
                run += 1
                owe2 = 2 * run
                k += 1
                if sum(hands[p].values()) == 0:
                    winner = p
                    break
                if rules.max_plays and plays >= rules.max_plays:
                    blocked = True
                    break
                p = nxt
                continue
            for _ in range(min(owe2, stock)):
                draw(p)
            owe2 = 0
            if rules.twos == "stack":
                run = 0
                if rules.penalty_ends_turn:
                    p = nxt
                    continue
        drawn = 0
        while True:
            kind, s_, called, c = ev[k]
            assert s_ == p, f"event {k} {ev[k]}: it is seat {p}'s turn"
            L = legal(p)
            may = stock > 0 and (rules.max_draws == 0 or drawn < rules.max_draws)
            if rules.draw_one:
                may = may and drawn == 0
            if kind == 2:
                assert may and (not L or rules.voluntary_draw), f"event {k}: a draw not allowed"
                draw(p)
                drawn += 1
                continue
            if kind == 3:
                assert (not L and not may) or (rules.draw_one and drawn > 0) or \
                    (rules.may_pass and not may), \
                    f"event {k}: seat {p} passes although it may play or draw"
                k += 1
                npass += 1
                if stock > 0:
                    passes = 0
                else:
                    passes += 1
                break
            assert kind == 1 and c in L, f"event {k}: {c} is not playable on {top}/{want_suit}"
            assert not (rules.draw_one and drawn > 0), "played after the one draw of line 116"
            hands[p][c] -= 1
            plays += 1
            passes = 0
            top = c
            want_suit = called if rank(c) == 8 else suit(c)
            assert rank(c) == 8 or called == suit(c)
            k += 1
            break
        if kind == 3:
            if passes >= K + rules.extra_passes and stock == 0:
                blocked = True
                break
            p = nxt
            continue
        if sum(hands[p].values()) == 0:
            winner = p
            break
        if rules.max_plays and plays >= rules.max_plays:
            blocked = True
            break
        if rules.twos != "off" and rank(top) == 2:
            run += 1
            owe2 = 2 * run
        else:
            run = 0
        if rules.queen_spades and top == 3 * 16 + 12:
            owe_q = True
        if rules.jacks and rank(top) == 11:
            nxt = (nxt + 1) % K
        p = nxt
    assert k == len(ev), "events after the end of the deal"
    assert winner is not None or blocked, "the log ends before the deal does"
    # every card is somewhere: hands + unseen (stock and buried) + played = the pack
    total = sum(sum(h.values()) for h in hands) + sum(unseen.values()) + plays + 1
    assert total == 52 * decks, f"cards lost or duplicated: {total}"
    vals = [sum(c8_points(c) * n for c, n in h.items()) for h in hands]
    pts = [0.0] * K
    if winner is None and rules.blocked == "lowest":
        lo = min(vals)
        if vals.count(lo) == 1:
            winner = vals.index(lo)
    if winner is not None:
        pts[winner] = float(sum(vals[q] - vals[winner] for q in range(K) if q != winner))
    out = {}
    for q in range(K):
        out[f"p{q + 1}_win"] = float(q == winner)
        out[f"p{q + 1}_points"] = pts[q]
    out.update(plays=float(plays), draws=float(draws), blocked=float(blocked),
               passes=float(npass))
    return out


# --------------------------------------------------------------------------- Fan-Tan

def replay_fan_tan(rules, row):
    """Replay one logged Fan-Tan game against 003:121-129 (a pass when able: its chip, and the
    penalties of 129 with ``pass_penalty``)."""
    K = rules.players
    first, step = row[0], row[1]
    if rules.deal_from == "left":
        assert (first, step) == (0, 1)
    else:
        assert (first, step) == (K - 2, -1), "the deal from the dealer's right"
    dealt = row[2:54]
    assert sorted(dealt) == sorted(s * 16 + r for s in range(4) for r in range(2, 15))
    hands = [set() for _ in range(K)]
    for j, c in enumerate(dealt):
        hands[(first + step * j) % K].add(c)
    sizes = [len(h) for h in hands]
    assert max(sizes) - min(sizes) <= 1
    chips = [0] * K
    pool = 0
    for p in range(K):
        a = rules.ante_even if max(sizes) == min(sizes) else (1 if sizes[p] == max(sizes) else 2)
        chips[p] -= a
        pool += a
    low = {s: None for s in range(4)}    # the row of each suit, A-low ranks: (lowest, highest)

    def lr(c):
        return 1 if rank(c) == 14 else rank(c)

    def can(c):
        s, r = suit(c), lr(c)
        if r == 7:
            return low[s] is None
        if low[s] is None:
            return False
        lo, hi = low[s]
        return r == lo - 1 or r == hi + 1

    turns = [x for x in row[54:] if x != -1]
    if len(turns) == len(row) - 54:
        return None                      # the log is full: the game may go on beyond it
    p, passes, winner, since = 0, 0, None, 0
    seat_passes = [0] * K
    for x in turns:
        kind, seat, c = x >> 20, (x >> 16) & 15, x & 255      # 1 a play, 2 a pass
        assert kind in (1, 2) and (kind == 1) == (c > 0), f"event {x}"
        assert seat == p, f"seat {seat} moves, it is {p}'s turn"
        able = [y for y in hands[p] if can(y)]
        if kind == 2:
            assert not able or (not rules.must_play and since < K - 1), \
                f"seat {p} passes holding {able}"
            since += 1
            chips[p] -= 1
            pool += 1
            passes += 1
            seat_passes[p] += 1
            if able and rules.pass_penalty:       # 129: three to the pool; a seven held back:
                chips[p] -= 3                     # five to each other holder of its 6 or 8
                pool += 3
                for y in able:
                    if lr(y) == 7:
                        for q in range(K):
                            if q != p and hands[q] & {y - 1, y + 1}:
                                chips[p] -= 5
                                chips[q] += 5
        else:
            assert c in hands[p] and can(c), f"seat {p} plays {c}, not playable"
            hands[p].remove(c)
            since = 0
            s, r = suit(c), lr(c)
            lo, hi = low[s] or (7, 7)
            low[s] = (min(lo, r), max(hi, r))
            if not hands[p]:
                winner = p
                break
        p = (p + 1) % K
    assert winner is not None and x == turns[-1], "the log goes on after the winner is out"
    for q in range(K):
        if q != winner:
            chips[q] -= len(hands[q])
            pool += len(hands[q])
    chips[winner] += pool
    assert sum(chips) == 0
    out = {}
    for q in range(K):
        out[f"p{q + 1}_chips"] = float(chips[q])
        out[f"p{q + 1}_win"] = float(q == winner)
    out.update(pool=float(pool), passes=float(passes), winner_seat=float(winner + 1))
    out.update({f"p{q + 1}_passes": float(seat_passes[q]) for q in range(K)})
    return out
