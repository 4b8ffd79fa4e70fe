"""A plain-Python reading of the Klaberjass text (``001_4b506a693298ed3d.txt``), written apart from
the engine, used to check the kernel's move log deal by deal.

Cards are ``(rank, suit)`` pairs here (rank 7..14, suit 0..3), hands are Python sets; nothing is
imported from ``simkit.games.klaberjass`` or ``simkit.engines``.
"""
from __future__ import annotations

J, Q, K, A = 11, 12, 13, 14
# line 3: trump J 9 A 10 K Q 8 7 worth 20 14 11 10 4 3 0 0
TRUMP_ORDER = [J, 9, A, 10, K, Q, 8, 7]
TRUMP_POINTS = {J: 20, 9: 14, A: 11, 10: 10, K: 4, Q: 3, 8: 0, 7: 0}
# line 4: plain A 10 K Q J 9 8 7 worth 11 10 4 3 2 0 0 0
PLAIN_ORDER = [A, 10, K, Q, J, 9, 8, 7]
PLAIN_POINTS = {A: 11, 10: 10, K: 4, Q: 3, J: 2, 9: 0, 8: 0, 7: 0}
LAST_TRICK = 10  # line 66

DECK = [(r, s) for s in range(4) for r in range(7, 15)]


def code(card):
    r, s = card
    return s * 16 + r


def from_code(c):
    return (int(c) & 15, int(c) >> 4)


def from_mask(m):
    m = int(m)
    return {from_code(c) for c in range(64) if m >> c & 1}


def value(card, trump):
    r, s = card
    return TRUMP_POINTS[r] if s == trump else PLAIN_POINTS[r]


def power(card, trump):
    """Higher is stronger within the card's suit."""
    r, s = card
    order = TRUMP_ORDER if s == trump else PLAIN_ORDER
    return len(order) - order.index(r)


def legal(hand, led, trump, overtrump=True):
    """Lines 90-98: follow suit; else trump; else anything; on a trump lead beat it when able."""
    if led is None:
        return set(hand)
    same = {c for c in hand if c[1] == led[1]}
    if same:
        if led[1] == trump and overtrump:
            higher = {c for c in same if power(c, trump) > power(led, trump)}
            if higher:
                return higher
        return same
    trumps = {c for c in hand if c[1] == trump}
    return trumps or set(hand)


def second_wins(led, card, trump):
    """Line 94: the higher card takes the trick (a trump beats any plain card)."""
    if card[1] == led[1]:
        return power(card, trump) > power(led, trump)
    return card[1] == trump


def runs(hand):
    """Maximal runs of 3+ cards in a row (line 78's order A K Q J 10 9 8 7 is the natural one):
    ``[(length, top rank, suit)]``."""
    out = []
    for s in range(4):
        ranks = sorted(r for r, ss in hand if ss == s)
        i = 0
        while i < len(ranks):
            j = i
            while j + 1 < len(ranks) and ranks[j + 1] == ranks[j] + 1:
                j += 1
            if j - i + 1 >= 3:
                out.append((j - i + 1, ranks[j], s))
            i = j + 1
    return out


def run_points(length, split=False):
    """Terz 20, fifty 50 (lines 63-64); 5+ as one fifty, or split into fifties and a terz."""
    if length == 3:
        return 20
    if split and length >= 5:
        return 50 * (length // 4) + (20 if length % 4 == 3 else 0)
    return 50


def best_run(rs, trump):
    """Lines 70-74: longer (a fifty over a terz), then higher top card, then trump."""
    if not rs:
        return None
    return max((min(L, 4), top, s == trump) for L, top, s in rs)


def runs_winner(rs0, rs1, trump, first):
    """Whose declared runs count: 0, 1 or None (line 76: fully equal -> who declared first)."""
    b0, b1 = best_run(rs0, trump), best_run(rs1, trump)
    if b0 is None and b1 is None:
        return None
    if b1 is None or (b0 is not None and b0 > b1):
        return 0
    if b0 is None or b1 > b0:
        return 1
    return first


def combos(hands, declared_runs, declared_bella, trump, first, split=False):
    """Counted combination points of both players (lines 58-82)."""
    rs = [runs(h) if declared_runs[k] else [] for k, h in enumerate(hands)]
    w = runs_winner(rs[0], rs[1], trump, first)
    out = [0, 0]
    for k in range(2):
        if w == k:
            out[k] += sum(run_points(L, split) for L, _, _ in rs[k])
        if declared_bella[k]:
            assert (K, trump) in hands[k] and (Q, trump) in hands[k], "bella declared without it"
            out[k] += 20
    return out


def settle(raw, bidder, form, pending):
    """Lines 44, 106: ``(credited points per seat, new pending, deal winner, stakes per seat)``.

    Long games: fewer -> all to the defender; equal -> the bidder's points hang and the old
    pending goes to this deal's winner.  Short: -2 / -1 / +1 stakes for the bidder."""
    d = 1 - bidder
    cred = [0, 0]
    stakes = [0, 0]
    if raw[bidder] > raw[d]:
        cred[bidder], cred[d] = raw[bidder], raw[d]
        winner, new_pending = bidder, 0
        stakes[bidder], stakes[d] = 1, -1
    elif raw[bidder] < raw[d]:
        cred[d] = raw[d] + raw[bidder]
        winner, new_pending = d, 0
        stakes[bidder], stakes[d] = -2, 2
    else:
        cred[d] = raw[d]
        winner, new_pending = d, raw[bidder]
        stakes[bidder], stakes[d] = -1, 1
    if form != "short":
        cred[winner] += pending
    else:
        new_pending = 0
    return cred, new_pending, winner, stakes


class Problem(AssertionError):
    pass


def check_deal(row, rules):
    """Check one logged deal (a dict of the engine's log columns) against the text.  Returns the
    deal's credited points, raw points, new pending and the deal winner (or claim outcome)."""
    def need(cond, what):
        if not cond:
            raise Problem(f"unit {row['unit']} deal {row['deal']}: {what}")

    first = row["opener"]
    bidder, trump = row["bidder"], row["trump"]
    up, bottom = from_code(row["upcard"]), from_code(row["bottom"])
    h6 = [from_mask(row["hand0_6"]), from_mask(row["hand1_6"])]
    h9 = [from_mask(row["hand0_9"]), from_mask(row["hand1_9"])]
    # the deal: 6 then 9 cards each, all different, none of them the upcard or the bottom card
    for k in range(2):
        need(len(h6[k]) == 6 and len(h9[k]) == 9 and h6[k] <= h9[k], f"hand sizes of seat {k}")
        need(all(c in DECK for c in h9[k]), "a card outside 7..A")
    need(not (h9[0] & h9[1]), "both hands hold a card")
    need(up not in h9[0] | h9[1] and bottom not in h9[0] | h9[1] and up != bottom,
         "the upcard or bottom card is in a hand")
    # bidding (lines 46-48)
    need(bidder in (0, 1) and 0 <= trump <= 3, "no bidder or trump")
    if row["round"] == 1:
        need(trump == up[1], "a first-round bid is on the upcard's suit")
    else:
        need(row["round"] == 2 and trump != up[1], "a second-round bid names another suit")
    # the trump seven (line 52)
    hands = [set(h9[0]), set(h9[1])]
    ex = row["exchanged"]
    if ex >= 0:
        need(rules.exchange and trump == up[1] and (7, trump) in h9[ex], "a bad exchange")
        hands[ex] = (hands[ex] - {(7, trump)}) | {up}
    start = [set(hands[0]), set(hands[1])]
    # combinations
    want = combos(start, [row["seq0"], row["seq1"]], [row["bella0"], row["bella1"]], trump, first,
                  rules.long_runs == "split")
    for k in range(2):
        need(row["seq%d" % k] in (0, 1) and (row["seq%d" % k] == 0 or runs(start[k])),
             "runs declared without runs")
        need(row["bella%d" % k] in (0, 1), "bella flag")
    need([row["combos0"], row["combos1"]] == want,
         f"combinations {row['combos0']},{row['combos1']} != {want}")
    # play (lines 88-98)
    leader = first
    won = [0, 0]
    seen = set()
    ntricks = row["tricks"]
    for t in range(ntricks):
        c1, s1 = from_code(row[f"card{2 * t}"]), row[f"seat{2 * t}"]
        c2, s2 = from_code(row[f"card{2 * t + 1}"]), row[f"seat{2 * t + 1}"]
        need(s1 == leader and s2 == 1 - leader, f"trick {t + 1}: wrong seat to play")
        need(c1 in hands[s1], f"trick {t + 1}: lead {c1} not in hand")
        need(c2 in legal(hands[s2], c1, trump, rules.overtrump), f"trick {t + 1}: {c2} is illegal "
             f"on {c1} with trump {trump} from {sorted(hands[s2])}")
        need(c1 not in seen and c2 not in seen, "a card played twice")
        seen |= {c1, c2}
        hands[s1].discard(c1)
        hands[s2].discard(c2)
        w = s2 if second_wins(c1, c2, trump) else s1
        won[w] += value(c1, trump) + value(c2, trump) + (LAST_TRICK if t == 8 else 0)
        leader = w
    for j in range(2 * ntricks, 18):
        need(row[f"card{j}"] == -1, "cards after a claim")
    need([row["cards0"], row["cards1"]] == won, f"card points {row['cards0']},{row['cards1']} != {won}")
    if row["claim"] < 0:
        need(ntricks == 9 and not hands[0] and not hands[1], "a hand not played out")
        need(seen == start[0] | start[1], "the played cards are not the hands")
        total = sum(value(c, trump) for c in seen) + LAST_TRICK
        need(won[0] + won[1] == total, f"points {won} do not add up to {total}")
    else:
        need(rules.form != "short" and ntricks >= 1 and row["claim"] == leader,
             "a claim by someone without the lead or a trick")
    raw = [won[k] + want[k] for k in range(2)]
    return raw


def check_unit(deals, unit_row, rules, start=(0, 0, 0)):
    """Check a unit's deals (a list of log dicts, in order) and its metrics row (a dict)."""
    def need(cond, what):
        if not cond:
            raise Problem(f"unit {deals[0]['unit'] if deals else '?'}: {what}")

    target = 0 if rules.form == "short" else int(rules.form)
    score = [start[0], start[1]]
    if rules.open_hand != "none":
        score[int(rules.open_hand[1]) - 1] += rules.open_bonus
    pending = start[2]
    winner = None
    points = [0, 0]
    stakes = [0, 0]
    first = None
    for j, row in enumerate(deals):
        need(winner is None, "a deal after the unit was decided")
        if j == 0:
            if rules.opener in ("p1", "p2"):
                # the first word alternates with every redeal (line 48)
                need(row["opener"] == (int(rules.opener[1]) - 1 + row["redeals"]) % 2,
                     "first word of the first deal")
        else:
            want = (first + row["redeals"]) % 2
            need(row["opener"] == want, f"first word of deal {j + 1}: {row['opener']} != {want}")
        raw = check_deal(row, rules)
        if row["claim"] >= 0:
            k = row["claim"]
            sure = score[k] + row[f"cards{k}"] + row[f"combos{k}"]
            need(bool(row["claim_ok"]) == (sure >= target), "claim outcome")
            winner = k if sure >= target else 1 - k
            break
        cred, pending, dealwin, st = settle(raw, row["bidder"], rules.form, pending)
        need([row["credit0"], row["credit1"]] == cred,
             f"credited {row['credit0']},{row['credit1']} != {cred} (raw {raw})")
        points = [points[k] + cred[k] for k in range(2)]
        if rules.form == "short":
            winner = dealwin
            stakes = st
            break
        score = [score[k] + cred[k] for k in range(2)]
        need([row["score0"], row["score1"], row["pending"]] == score + [pending], "scores")
        d = 1 - row["bidder"]
        # line 108: the defender's points are counted first
        if score[d] >= target:
            winner = d
        elif score[row["bidder"]] >= target:
            winner = row["bidder"]
        loser = 1 - dealwin
        first = (1 - row["opener"]) if rules.next_word == "alternate" else loser
    if winner is not None and rules.form != "short":
        stakes = [1 if k == winner else -1 for k in range(2)]
    for k in range(2):
        need(unit_row[f"p{k + 1}_win"] == (1 if winner == k else 0), "win")
        need(unit_row[f"p{k + 1}_points"] == points[k], f"points p{k + 1}")
        need(unit_row[f"p{k + 1}_stakes"] == stakes[k], f"stakes p{k + 1}")
    need(unit_row["deals"] == len(deals), "deals")
    need(unit_row["unfinished"] == (1 if winner is None else 0), "unfinished")
    return winner
