"""A plain statement of Handjass (``000_e1e7c8054592a022.txt`` lines 48-179), written apart from
the engine, that replays the engine's logged deals (:data:`simkit.games.handjass.engine.
LOG_COLUMNS`, one dict per deal) and checks every step: the deal and the trump card, the
play-or-drop turns and the blind, the trump six, every Weis (found here by trying every split of
the hand into fours of a kind and runs) and the Weis comparison, Stöck, the legality of every
card, the trick winners and card points, the totals, the strokes and potatoes, and over a game
the scores, the retirements, the Forehand's rotation and the loser.

It works on lists and sets of ``(suit, rank)`` pairs with the rank orders written out as in the
text's tables, and raises ``AssertionError`` saying what broke.
"""
from __future__ import annotations

PLAIN = ["A", "K", "Q", "J", "10", "9", "8", "7", "6"]          # lines 68-79, high to low
TRUMP = ["J", "9", "A", "K", "Q", "10", "8", "7", "6"]          # lines 80-91
PLAIN_PTS = {"A": 11, "K": 4, "Q": 3, "J": 2, "10": 10}
TRUMP_PTS = {"J": 20, "9": 14, "A": 11, "K": 4, "Q": 3, "10": 10}
NAME = {6: "6", 7: "7", 8: "8", 9: "9", 10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}
SEQ = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]             # line 96: plain order, low up
QUADS = {"J": 200, "A": 100, "K": 100, "Q": 100, "10": 100}       # lines 97-101
BERNER = {2: 4, 1: 3, 0: 2, 3: 1}                                  # line 173, core suit numbers


def card(code):
    return (code // 16, NAME[code % 16])


def beats(a, b, trump):
    """Whether card ``a`` played after ``b`` (winning so far) wins the trick."""
    if a[0] == b[0]:
        order = TRUMP if a[0] == trump else PLAIN
        return order.index(a[1]) < order.index(b[1])
    return a[0] == trump


def winner(trick, trump):
    w = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[w], trump):
            w = i
    return w


def points(c, trump):
    return (TRUMP_PTS if c[0] == trump else PLAIN_PTS).get(c[1], 0)


def legal(hand, trick, trump):
    """Lines 121-129, as the text says them."""
    hand = set(hand)
    if not trick:
        return hand
    led = trick[0][0]
    same = {c for c in hand if c[0] == led}
    trumps = {c for c in hand if c[0] == trump}
    if led == trump:
        if same and same != {(trump, "J")}:
            return same                       # follow trumps; the lone trump jack is free
        return hand
    in_trick = [c for c in trick if c[0] == trump]

    def may(t):                                # no undertrumping unless all trumps
        if not in_trick or trumps == hand:
            return True
        top = min(TRUMP.index(c[1]) for c in in_trick)
        return TRUMP.index(t[1]) < top
    if same:
        return same | {t for t in trumps if may(t)}
    return {c for c in hand if c[0] != trump} | {t for t in trumps if may(t)}


def runs(cards, trump):
    """The maximal runs of three or more: list of (value, cards, top index, is trump)."""
    out = []
    for s in range(4):
        have = [SEQ.index(r) for (su, r) in cards if su == s]
        have = sorted(set(have))
        i = 0
        while i < len(have):
            j = i
            while j + 1 < len(have) and have[j + 1] == have[j] + 1:
                j += 1
            n = j - i + 1
            if n >= 3:
                out.append(({3: 20, 4: 50}.get(n, 100), n, have[j], int(s == trump)))
            i = j + 1
    return out


def splits(cards, trump):
    """Every split of a hand's Weis (line 104: no card in two combinations): for each choice of
    its fours of a kind, those and the runs of the rest, as ``(total, best single Weis (value,
    cards, top, trump), the cards shown)``."""
    cards = set(cards)
    quads = [r for r in QUADS if all((s, r) in cards for s in range(4))]
    out = []
    for mask in range(1 << len(quads)):
        used = [quads[q] for q in range(len(quads)) if mask >> q & 1]
        rest = {c for c in cards if c[1] not in used}
        combos = [(QUADS[r], 4, SEQ.index(r), 0) for r in used] + runs(rest, trump)
        shown = {c for c in cards if c[1] in used} | run_cards(rest)
        out.append((sum(c[0] for c in combos), max(combos) if combos else (0, 0, 0, 0), shown))
    return out


def run_cards(cards):
    """The cards of the runs of three or more in ``cards``."""
    out = set()
    for s in range(4):
        have = {SEQ.index(r) for (su, r) in cards if su == s}
        for i in have:
            if {i - 2, i - 1} <= have or {i - 1, i + 1} <= have or {i + 1, i + 2} <= have:
                out.add((s, SEQ[i]))
    return out


def weis(cards, trump):
    """``(total, best)`` of a hand: the most points of any split, and the best single Weis
    (value, cards, top, trump) any split holds (the one its holder declares, line 130)."""
    sp = splits(cards, trump)
    return max(t for t, _, _ in sp), max(b for _, b, _ in sp)


def shown_weis(cards, trump, beats):
    """The split the winner of the Weis comparison shows: the most points among the splits
    whose best single Weis satisfies ``beats``, then the better best one, then one showing
    Stöck (``(total, shows trump K and Q)``)."""
    sp = [(t, b, {(trump, "K"), (trump, "Q")} <= shown) for t, b, shown in splits(cards, trump)
          if beats(b)]
    t, _, stock = max(sp)
    return t, stock


def key_tuple(key):
    """The engine's Weis key as (value, cards, top index in SEQ, trump)."""
    if key == 0:
        return (0, 0, 0, 0)
    return (key >> 12, (key >> 8) & 15, ((key >> 4) & 15) - 6, key & 1)


def hands_of(dealt, twelve):
    hands = [[] for _ in range(4)]
    for p, code in enumerate(dealt):
        hands[(p % 12) // (4 if twelve else 3)].append(card(code))
    return hands


def strokes_for(totals, m, rules, order, mult):
    """Strokes and potatoes of the active players ``totals`` (position -> points) given the
    ranking ``order`` of the tied ones (lines 137-141, 161, 170, 174)."""
    ok = [j for j in order if totals[j] >= rules.potato]
    s = {j: 0 for j in totals}
    pot = {j: 0 for j in totals}
    for j in totals:
        if totals[j] < rules.potato:
            pot[j] = mult
            s[j] = -mult
    if not ok:
        return s, pot, []
    S = 1 if m == 2 else (m - 1 if rules.strokes == "players_minus_one" else 2)
    rec = ok[:S]
    for j in rec:
        s[j] = mult
    s[rec[0]] += mult * (S - len(rec))
    if rules.extra_per_potato:
        for e in range(len(totals) - len(ok)):
            s[rec[e % len(rec)]] += mult
    held = []
    if rules.tie == "carry":                   # line 175: a two-way tie's parted strokes wait
        for q in range(len(ok) - 1):
            a, b = ok[q], ok[q + 1]
            same = [j for j in ok if totals[j] == totals[a]]
            if totals[a] == totals[b] and s[a] != s[b] and len(same) == 2:
                held.append((a, b, s[a] - s[b]))
                s[a] = s[b]
    return s, pot, held


def check_deal(d, rules, with_totals=False):
    """Replay one logged deal ``d`` (a dict of :data:`LOG_COLUMNS`); ``AssertionError`` on the
    first broken rule.  Returns ``{game seat: net strokes}``."""
    m = d["m"]
    dealt = [d[f"dealt{p}"] for p in range(36)]
    assert sorted(dealt) == sorted(s * 16 + r for s in range(4) for r in range(6, 15)), "deck"
    twelve = (not rules.dropping) and m < 4
    hands = hands_of(dealt, twelve)
    bessern = rules.bessern and m < 4 and not twelve
    tcode = dealt[12 * 2 + 4 * (m - 1) + 3] if twelve else dealt[35]
    if bessern and m == 3:
        tcode = dealt[32]                                  # the dealer's last card (line 167)
    assert d["tcard"] == tcode, "trump card"
    trump = tcode // 16
    assert d["trump"] == trump
    mult = BERNER[trump] if rules.berner else 1
    order = [d[f"ord{j}"] for j in range(m)]
    choice = [d[f"choice{j}"] for j in range(m)]
    # ---- Bessern (lines 166-169): exactly three cards swapped for the three face down
    for j in range(m):
        b = d[f"bess{j}"]
        if b < 0:
            continue
        assert bessern, "a Bessern swap without Bessern"
        out = [card(c) for c in range(64) if b >> c & 1]
        assert len(out) == 3 and all(c in hands[j] for c in out), "Bessern discards"
        packet = [card(dealt[12 * j + (9 if m == 3 else 6) + q]) for q in range(3)]
        hands[j] = [c for c in hands[j] if c not in out] + packet
    # ---- play, drop or blind
    blind = -1
    drops = 0
    lone = -1
    for j in range(m):
        c = choice[j]
        if not rules.dropping:
            assert c == 1, "everyone plays"
            continue
        if drops == m - 1:
            assert c == -1, "asked after all others dropped"
            continue
        assert c in (0, 1, 2), f"choice {c}"
        if c == 2:
            assert m < 4 and rules.blind and blind < 0 and not twelve and not bessern, \
                "blind not allowed"
            blind = j
        drops += c == 0
    if drops == m - 1:
        lone = [j for j in range(m) if choice[j] != 0][0]
    assert d["blindpos"] == blind
    play = {j: list(hands[j]) for j in range(m) if choice[j] in (1, 2)}
    if blind >= 0:
        play[blind] = list(hands[3 if m == 3 else 2])
    strk = {j: d[f"strk{j}"] for j in range(m)}
    if lone >= 0:
        S = 1 if m == 2 else (m - 1 if rules.strokes == "players_minus_one" else 2)
        for j in range(m):
            assert strk[j] == (S * mult if j == lone else 0), "unplayed strokes"
        assert d["play0"] == -1
        out = {order[j]: strk[j] for j in range(m)}
        return (out, {}, []) if with_totals else out
    # ---- the trump six (lines 116, 153, 160)
    table = tcode if (blind >= 0 and m == 3) else -1
    ex = d["exch"]
    six = (trump, "6")
    tc = card(tcode)
    if ex >= 0:
        assert m < 4 and rules.six_exchange and not twelve and tc != six and \
            not (bessern and m == 3), "exchange not allowed"
        assert six in play[ex] and not (m == 3 and ex == blind), "exchanger without the six"
        play[ex].remove(six)
        play[ex].append(tc)
        if blind >= 0 and m == 3:
            play[blind].remove(tc)
            play[blind].append(six)
            table = trump * 16 + 6
    assert d["table"] == table
    # ---- Weis and Stöck (lines 104-112, 130-134): each declares his best single Weis; the
    # best one (ties to the earlier player) scores the split with the most points that still
    # beats every other declared one; Stöck shown in that split counts unannounced (133)
    best, bj, declared = None, -1, {}
    for j in sorted(play):
        total, top = weis(play[j], trump)
        if d[f"decl{j}"]:
            assert top[0] > 0, "declared nothing"
            assert key_tuple(d[f"wkey{j}"]) == top, f"Weis of {play[j]}: {top} vs log"
            declared[j] = top
            if best is None or top > best:
                best, bj = top, j
        st = d[f"stock{j}"]
        assert st in (0, 20)
        if st:
            assert (trump, "K") in play[j] and (trump, "Q") in play[j], "Stöck without K Q"
    for j in play:
        want = 0
        if j == bj:
            others = {i: w for i, w in declared.items() if i != j}
            want, stock = shown_weis(play[j], trump, lambda b: all(
                b > w if i < j else b >= w for i, w in others.items()))
            if stock:
                assert d[f"stock{j}"] == 20, "Stöck shown in the scored Weis not counted"
        assert d[f"weis{j}"] == want, f"credited Weis of {j}"
    # ---- the tricks
    act = sorted(play)
    k = len(act)
    held = {j: set(play[j]) for j in act}
    won = {j: 0 for j in act}
    plays = [d[f"play{t}"] for t in range(36)]
    lead = 0
    pos = 0
    ntr = 12 if twelve else 9
    for t in range(ntr):
        trick = []
        who = []
        for q in range(k):
            j = act[(lead + q) % k]
            e = plays[pos]
            pos += 1
            assert e // 64 == j, f"trick {t}: {e // 64} played for {j}"
            c = card(e % 64)
            hand = set(held[j])
            if t == 0 and j == blind and table >= 0:
                hand.discard(card(table))
            assert c in legal(hand, trick, trump), f"trick {t}: {c} illegal from {sorted(hand)} " \
                                                   f"on {trick}"
            held[j].remove(c)
            trick.append(c)
            who.append(j)
        w = winner(trick, trump)
        won[who[w]] += sum(points(c, trump) for c in trick) + (5 if t == ntr - 1 else 0)
        lead = act.index(who[w])
    assert pos == 36 or plays[pos] == -1
    in_play = sum(points(c, trump) for j in act for c in play[j]) + 5
    assert sum(won.values()) == in_play, "card points"
    if k == 4:
        assert in_play == 157
    totals = {}
    for j in act:
        assert d[f"cards{j}"] == won[j], f"card points of {j}"
        totals[j] = won[j] + d[f"weis{j}"] + d[f"stock{j}"]
        assert d[f"total{j}"] == totals[j]
    for j in range(m):
        if j not in play:
            assert d[f"cards{j}"] == d[f"total{j}"] == d[f"weis{j}"] == d[f"stock{j}"] == 0, \
                f"{j} dropped but scored"
    # ---- strokes: the engine's order of tied players is one of the draws (line 140)
    ranking = sorted(act, key=lambda j: (-totals[j], -strk[j]))
    s, pot, held = strokes_for(totals, m, rules, ranking, mult)
    for j in range(m):
        assert strk[j] == s.get(j, 0), f"strokes of {j}: {strk[j]} vs {s.get(j, 0)} ({totals})"
        assert d[f"pot{j}"] == pot.get(j, 0)
    out = {order[j]: strk[j] for j in range(m)}
    if with_totals:
        return out, {order[j]: totals[j] for j in act}, [(order[a], order[b], x) for a, b, x in held]
    return out


def check_game(deals, rules, lose):
    """Replay a game's logged deals (in order) and check the line-up of every deal, the scores,
    the retirements and the loser (``lose``: the seat whose ``pK_lose`` is 1, or -1)."""
    P = rules.players
    score = [0] * P
    inside = list(range(P))
    pending = []
    fore = 0
    for n, d in enumerate(deals):
        assert d["deal"] == n
        m = len(inside)
        assert d["m"] == m
        start = inside.index(fore)
        want = inside[start:] + inside[:start]
        assert [d[f"ord{j}"] for j in range(m)] == want, f"deal {n}: line-up"
        got, totals, new = check_deal(d, rules, with_totals=True)
        for g, x in got.items():
            score[g] += x
        keep = []
        for a, b, x in pending:                 # line 175: settled in a deal both play
            if a in totals and b in totals and totals[a] != totals[b]:
                score[a if totals[a] > totals[b] else b] += x
            elif a in inside and b in inside:
                keep.append((a, b, x))
        pending = keep + new
        assert [d[f"score{g}"] for g in range(P)] == score, f"deal {n}: scores"
        out = [g for g in inside if score[g] >= rules.target]
        nxt = (fore + 1) % P
        while nxt not in inside or nxt in out:
            nxt = (nxt + 1) % P
        inside = [g for g in inside if g not in out]
        if len(inside) <= 1:
            assert n == len(deals) - 1, "the game went on"
            assert lose == (inside[0] if inside else -1), "loser"
            return
        fore = nxt
    assert lose == -1, "a game that did not end has no loser"
