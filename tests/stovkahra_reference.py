"""A slow plain-Python reference of Stovkahra (``000_e1e7c8054592a022.txt`` lines 180-222) that
replays the kernel's move log and checks it: the pack of every deal (a permutation; after a game's
first deal, the previous deal's tricks gathered and cut, unless every deal is shuffled), the
dealer's rotation and the 3-2-3 deal, the trump card, the declarations (only combinations held),
every card's legality (follow, trump when void, beat the highest card so far when able), the trick
winners, card points, seven bonuses and last trick, "dost" (only by a player who has just declared
or won a trick), the game's result and brčka, and a unit's totals against the kernel's metrics.

Written from the rule text, not from the kernel: no import from ``simkit.games.stovkahra``
except the log's column layout.
"""
from __future__ import annotations

POINTS = {14: 6, 13: 5, 12: 4, 11: 3}
THREE = {14: 30, 10: 10, 7: 10, 13: 6, 12: 6, 11: 6}
FOUR = {14: 40, 10: 20, 7: 20, 13: 12, 12: 12, 11: 12}
FULL = sorted(s * 16 + r for s in range(4) for r in range(7, 15))


class Mismatch(AssertionError):
    pass


def need(cond, what):
    if not cond:
        raise Mismatch(what)


def suit(c):
    return c >> 4


def rank(c):
    return c & 15


def beats(c, best, trump):
    if suit(c) == suit(best):
        return rank(c) > rank(best)
    return suit(c) == trump


def winner_index(trick, trump):
    w = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[w], trump):
            w = i
    return w


def legal(hand, trick, trump):
    """Lines 216-217: follow suit; void, trump; then beat the highest card so far if able."""
    if not trick:
        return set(hand)
    led = suit(trick[0])
    cands = [c for c in hand if suit(c) == led]
    if not cands:
        cands = [c for c in hand if suit(c) == trump] or list(hand)
    best = trick[winner_index(trick, trump)]
    beaters = [c for c in cands if beats(c, best, trump)]
    return set(beaters or cands)


def deal_hands(pack, dealer):
    """3, 2, 3 cards to each player from the dealer's left (line 215)."""
    hands = [set() for _ in range(4)]
    p = 0
    for size in (3, 2, 3):
        for j in range(1, 5):
            for _ in range(size):
                hands[(dealer + j) % 4].add(pack[p])
                p += 1
    return hands


def held(hand):
    out = {}
    for r in THREE:
        k = sum(1 for c in hand if rank(c) == r)
        if k >= 3:
            out[r] = FOUR[r] if k == 4 else THREE[r]
    return out


def gather(tricks, winners, dealer, hands_left, sides=True):
    """The pack picked up after a deal, top first (the rules module's ``gather`` reading)."""
    out = []
    piles = [dealer % 2, 1 - dealer % 2] if sides else [None]
    for side in piles:
        for t in range(len(tricks) - 1, -1, -1):
            if side is None or winners[t] % 2 == side:
                out += tricks[t]
    for h in hands_left:
        out += sorted(h)
    return out


def replay_unit(blocks, rules, head, row=None, metric_names=None):
    """Check one unit's logged deals (dicts of the log's columns).  ``head``: the unit's head
    columns (played, games, brcka0, brcka1); ``row``: its metrics to compare."""
    T, D50 = rules.target, rules.double_under
    shuffle = rules.dealing == "shuffle"
    need(head["played"] == len(blocks) or len(blocks) < head["played"], "played count")
    brcka = [0, 0]
    score = [0, 0]
    reach = [None, None]
    event = 0
    prev = None
    dealer = 3
    totals = {"points": [0, 0], "cards": [0, 0], "combos": [0, 0], "tricks": [0, 0],
              "seven_first": [0, 0], "seven_mid": [0, 0], "seven_last": [0, 0]}
    card_points = 0
    last_winner = -1
    new_game = True
    for b in blocks:
        pack = [b[f"pack{j}"] for j in range(32)]
        need(sorted(pack) == FULL, "the pack is not the 32 cards")
        need(b["dealer"] == dealer, f"dealer {b['dealer']}, expected {dealer}")
        if new_game:
            score, reach, event = [0, 0], [None, None], 0
            need(b["deal"] == 0, "a game's first deal is deal 0")
            need(b["cut"] == -1, "a game's first deal is shuffled, not cut")
        elif shuffle:
            need(b["cut"] == -1, "dealing=shuffle: no cut")
        else:
            k = b["cut"]
            need(rules.min_cut <= k <= 32 - rules.min_cut, f"cut {k} out of range")
            need(pack == prev[k:] + prev[:k], "the pack is not the gathered tricks, cut")
        trump = suit(pack[31])
        need(b["trump"] == trump, "trump is not the bottom card's suit")
        hands = deal_hands(pack, dealer)
        need(pack[31] in hands[dealer], "the trump card is not the dealer's")
        claimer = b["claimer"]
        # declarations, eldest first
        declared_after_claim = False
        claimed = False
        for j in range(1, 5):
            k = (dealer + j) % 4
            m = b[f"decl{k}"]
            ranks = [r for r in range(16) if m >> r & 1]
            h = held(hands[k])
            need(all(r in h for r in ranks), f"seat {k} declared ranks {ranks} it lacks")
            if ranks and claimed:
                declared_after_claim = True
            if ranks:
                pts = sum(h[r] for r in ranks)
                score[k % 2] += pts
                totals["combos"][k % 2] += pts
                totals["points"][k % 2] += pts
                event += 1
                if score[k % 2] >= T and reach[k % 2] is None:
                    reach[k % 2] = event
                if claimer == k and b["tricks"] == 0:
                    claimed = True
        need(not declared_after_claim, "a declaration after the dost")
        if b["tricks"] == 0:
            need(claimer >= 0 and claimed, "no tricks played without a declarer's dost")
        # tricks
        leader = (dealer + 1) % 4
        cards = [b[f"card{j}"] for j in range(32)]
        tricks, winners = [], []
        for t in range(b["tricks"]):
            trick = []
            for j in range(4):
                k = (leader + j) % 4
                c = cards[4 * t + j]
                need(c in hands[k], f"trick {t}: seat {k} plays {c} it does not hold")
                need(c in legal(hands[k], trick, trump),
                     f"trick {t}: seat {k} plays {c}, not legal in {sorted(hands[k])} to {trick}")
                hands[k].discard(c)
                trick.append(c)
            w = winner_index(trick, trump)
            ws = (leader + w) % 4
            side = ws % 2
            pts = sum(POINTS.get(rank(c), 0) for c in trick)
            last = t == 7
            cp = pts + (6 if last else 0)
            bonus = cp
            if rules.seven_bonuses and rank(trick[w]) == 7:
                if t == 0:
                    bonus += 52
                    totals["seven_first"][side] += 1
                elif last:
                    bonus += 20
                    totals["seven_last"][side] += 1
                else:
                    bonus += 10
                    totals["seven_mid"][side] += 1
            totals["cards"][side] += cp
            totals["points"][side] += bonus
            totals["tricks"][side] += 1
            score[side] += bonus
            event += 1
            if score[side] >= T and reach[side] is None:
                reach[side] = event
            tricks.append(trick)
            winners.append(ws)
            leader = ws
        if claimer >= 0 and b["tricks"] > 0:
            need(claimer == winners[-1], "dost by a player who did not just win the trick")
        if claimer < 0:
            need(b["tricks"] == 8, "a deal stopped without a dost")
        if b["tricks"] == 8:
            need(sum(sum(POINTS.get(rank(c), 0) for c in tr) for tr in tricks) + 6 == 78,
                 "a played-out deal's card points are not 78")
            card_points += 78
        need([b["score0"], b["score1"]] == score, f"scores {b['score0'], b['score1']} != {score}")
        # the game's result (lines 218-219)
        if claimer >= 0:
            side = claimer % 2
            ok = score[side] >= T
            need(b["claim_ok"] == int(ok), "claim_ok")
            w, amount = (side, 2 if score[1 - side] < D50 else 1) if ok else (1 - side, 2)
        else:
            reached = [s >= T for s in score]
            if not any(reached):
                w, amount = -1, 0
            else:
                if all(reached):
                    if rules.deal_end == "higher" and score[0] != score[1]:
                        w = 0 if score[0] > score[1] else 1
                    else:
                        w = 0 if reach[0] < reach[1] else 1
                else:
                    w = 0 if reached[0] else 1
                amount = 2 if score[1 - w] < D50 else 1
        need(b["winner"] == w, f"game winner {b['winner']}, expected {w}")
        if w >= 0:
            need(b["brcka"] == amount, f"brčka {b['brcka']}, expected {amount}")
            if b["sub"]:
                need(rules.unit == "series" and brcka[1 - w] > 0, "a subtraction from nothing")
                brcka[1 - w] = max(0, brcka[1 - w] - amount)
            else:
                brcka[w] += amount
            last_winner = w
        new_game = w >= 0
        prev = gather(tricks, winners, dealer, hands, rules.gather == "sides")
        if rules.rotate:
            dealer = (dealer + 1) % 4
    complete = len(blocks) == head["played"]
    if complete:
        need([head["brcka0"], head["brcka1"]] == brcka, "the unit's brčka")
    if row is not None and complete:
        for q, vals in totals.items():
            for k in range(4):
                need(row[f"p{k + 1}_{q}"] == vals[k % 2], f"p{k + 1}_{q}: {row[f'p{k + 1}_{q}']} "
                                                           f"!= {vals[k % 2]}")
        need(row["card_points"] == card_points, "card_points")
        if rules.unit != "deal" and not row["unfinished"]:
            winner = (0 if brcka[0] >= rules.series_target else 1) if rules.unit == "series" \
                else last_winner
            need(row["p1_win"] == (winner == 0) and row["p2_win"] == (winner == 1), "the winner")
    return brcka


def replay_log(log_df, rows_df, rules, head_rows):
    """Replay every unit of a :func:`simkit.games.stovkahra.play_logged` result; returns the
    number of deals checked."""
    n = 0
    for i, g in log_df.groupby("unit"):
        blocks = g.to_dict("records")
        replay_unit(blocks, rules, head_rows[i], rows_df.iloc[i].to_dict())
        n += len(blocks)
    return n
