"""A slow, plain-Python Piquet referee that replays the engine's move log
(:mod:`simkit.games.piquet.engine`) and recomputes every deal from the rule text
(``002_17c4cc3dde05b547.txt`` lines 144-198), independently of the kernel's code: the exchange's
limits, the declarations and their comparison, repique and pique, the legality of every card
(follow suit), the trick count in both of the text's forms (lines 171-173 and 187-190, which must
agree), cards and capot, and the unit's result (a deal, a Rubicon partie, a game to the target).
"""
from __future__ import annotations

from simkit.games.piquet import engine

PIP = {7: 7, 8: 8, 9: 9, 10: 10, 11: 10, 12: 10, 13: 10, 14: 11}
SEQ = {3: 3, 4: 4, 5: 15, 6: 16, 7: 17, 8: 18}


def suit(c):
    return c >> 4


def rank(c):
    return c & 15


def point(hand, void_rule=False):
    """(comparison key, score) of the point: the longest suit, then its pips."""
    best = (0, 0)
    score = 0
    for s in range(4):
        cards = [c for c in hand if suit(c) == s]
        if not cards:
            continue
        key = (len(cards), sum(PIP[rank(c)] for c in cards))
        if key > best:
            best, score = key, len(cards)
    if void_rule and any(not [c for c in hand if suit(c) == s] for s in range(4)):
        if (5, 50.5) > best:
            best, score = (5, 50.5), 5
    return best, score


def sequences(hand, void_rule=False):
    """(key of the best sequence: (length, top), total score of all sequences)."""
    best = (0, 0)
    total = 0
    for s in range(4):
        ranks = sorted(rank(c) for c in hand if suit(c) == s)
        runs = []
        for r in ranks:
            if runs and runs[-1][-1] == r - 1:
                runs[-1].append(r)
            else:
                runs.append([r])
        for run in runs:
            if len(run) >= 3:
                total += SEQ[len(run)]
                best = max(best, (len(run), run[-1]))
    if void_rule and any(not [c for c in hand if suit(c) == s] for s in range(4)):
        best = max(best, (5, 13.5))
        total += 10
    return best, total


def sets(hand):
    best = (0, 0)
    total = 0
    for r in range(10, 15):
        n = sum(1 for c in hand if rank(c) == r)
        if n >= 3:
            total += 14 if n == 4 else 3
            best = max(best, (n, r))
    return best, total


def blank(hand):
    return all(rank(c) not in (11, 12, 13) for c in hand)


class Stop(Exception):
    pass


def replay_deal(rules, entries, totals, eseat):
    """One deal's log entries (``(kind, payload)`` from DECK to the last PLAY): returns the
    deal's scores by role, counts, and whether a game to the target stopped."""
    deck = [p for k, p in entries if k == "DECK"]
    assert len(deck) == 32 and len(set(deck)) == 32
    ed = [p for k, p in entries if k == "EDISC"]
    yd = [p for k, p in entries if k == "YDISC"]
    decl = [p for k, p in entries if k == "DECL"]
    plays = [p for k, p in entries if k == "PLAY"]
    elder, younger, talon = deck[:12], deck[12:24], deck[24:]
    assert 1 <= len(ed) <= 5 and set(ed) <= set(elder), "Elder exchanges 1 to 5 of his cards"
    assert 0 <= len(yd) <= 8 - len(ed) and set(yd) <= set(younger), "Younger: up to what is left"
    cb = [blank(elder), blank(younger)]
    eh = [c for c in elder if c not in ed] + talon[:len(ed)]
    yh = [c for c in younger if c not in yd] + talon[len(ed):len(ed) + len(yd)]
    hands = [eh, yh]
    dmask = [decl[0] & 7, decl[0] >> 3]
    score = [0, 0]
    counts = dict(carte_blanche=sum(cb), pique=0, repique=0, capot=0)
    counts["hands"] = (list(eh), list(yh))
    seat = lambda role: eseat if role == 0 else 1 - eseat  # noqa: E731

    def add(role, pts):
        score[role] += pts
        totals[seat(role)] += pts
        if rules.unit == "game" and totals[seat(role)] >= rules.target:
            raise Stop

    # declarations, compared class by class (line 157); a class not declared counts as not held
    cls = []
    for fn in (lambda h: point(h, rules.void_suit), lambda h: sequences(h, rules.void_suit), sets):
        cls.append([fn(hands[0]), fn(hands[1])])
    won = [[0] * 4, [0] * 4]
    won[0][0] = 10 if cb[0] else 0
    won[1][0] = 10 if cb[1] else 0
    for k in range(3):
        keys = [cls[k][r][0] if (dmask[r] >> k) & 1 and cls[k][r][1] > 0 else (0, 0)
                for r in (0, 1)]
        if keys[0] > keys[1]:
            won[0][k + 1] = cls[k][0][1]
        elif keys[1] > keys[0]:
            won[1][k + 1] = cls[k][1][1]
    # repique: 30 from combinations alone in the order blank, point, sequence, set (lines 164-167)
    run = [0, 0]
    rep = None
    for k in range(4):
        for r in (0, 1):
            run[r] += won[r][k]
            if rep is None and run[r] >= 30 and run[1 - r] == 0:
                rep = r
    if rep is not None:
        counts["repique"] = 1
    stopped = False
    try:
        if won[0][0]:
            add(0, 10)
        if won[1][0]:
            add(1, 10)
        ec = sum(won[0][1:]) + (60 if rep == 0 else 0)
        yc = sum(won[1][1:]) + (60 if rep == 1 else 0)
        counts["combinations"] = (won[0][0] + ec, won[1][0] + yc)   # by role, before the play
        if ec:
            add(0, ec)
        pique_live = rep is None and run[1] == 0

        def elder_scored():
            nonlocal pique_live
            if pique_live and score[0] >= 30:
                pique_live = False
                counts["pique"] = 1
                add(0, 30)

        # the tricks (lines 169-175), both counts of the trick points
        assert len(plays) <= 24
        held = [list(eh), list(yh)]
        leader = 0
        tricks = [0, 0]
        simple = [1 if not rules.tricks == "flat" else 0, 0]   # lines 187-190: 1 for leading
        classic = [0, 0]
        last = None
        for t in range(12):
            if 2 * t >= len(plays):
                raise AssertionError("the deal stopped early without reaching the target")
            lc = plays[2 * t]
            assert lc in held[leader], "the leader plays a card he holds"
            if rules.tricks != "flat":
                classic[leader] += 1
                add(leader, 1)
                if leader == 1:
                    pique_live = False
                else:
                    elder_scored()
            if t == 0 and yc:
                add(1, yc)
            f = 1 - leader
            if 2 * t + 1 >= len(plays):
                raise AssertionError("a trick left unfinished without reaching the target")
            fc = plays[2 * t + 1]
            assert fc in held[f], "the follower plays a card he holds"
            if suit(fc) != suit(lc):
                assert not any(suit(c) == suit(lc) for c in held[f]), "must follow suit"
            held[leader].remove(lc)
            held[f].remove(fc)
            w = f if suit(fc) == suit(lc) and rank(fc) > rank(lc) else leader
            tricks[w] += 1
            if rules.tricks == "flat":
                pts = 1
            else:
                pts = (1 if w != leader else 0) + (1 if t == 11 else 0)
                classic[w] += pts
                simple[w] += 1 if w == leader else 2
            add(w, pts)
            if w == 1:
                pique_live = False
            else:
                elder_scored()
            leader = w
            last = w
        if rules.tricks != "flat":
            assert classic == simple, (classic, simple)
        # cards and capot (line 175; flat: 10 for last, line 198)
        bonus = None
        if tricks[0] == 12 or tricks[1] == 12:
            bonus = (0 if tricks[0] == 12 else 1, 40)
            counts["capot"] = 1
        elif rules.tricks == "flat":
            bonus = (last, 10)
        elif tricks[0] != 6:
            bonus = (0 if tricks[0] > 6 else 1, 10)
        if bonus:
            add(*bonus)
            if rules.pique_cards and bonus[0] == 0:
                elder_scored()
    except Stop:
        stopped = True
    return score, counts, stopped


def replay(rules, row):
    """Replay one unit's log row; returns the unit's results as the engine's metric names."""
    entries = []
    for e in row:
        if e < 0:
            break
        k = engine.KINDS[(e >> 20) - 1]       # kind << 20 | seat << 16 | aux << 8 | card
        entries.append((k, (e >> 16) & 15 if k == "DEAL" else (e >> 8) & 255 if k in ("DECL", "END")
                        else e & 255))
    deals = []
    cur = None
    for k, p in entries:
        if k == "DEAL":
            cur = [p, []]
            deals.append(cur)
        elif k == "END":
            cur.append(p)
        else:
            cur[1].append((k, p))
    totals = [0, 0]
    out = dict(carte_blanche=0, pique=0, repique=0, capot=0, elder_wins=0, younger_wins=0,
               elder_margin=0)
    stopped = False
    for j, (eseat, ents, end) in enumerate(deals):
        assert eseat == j % 2, "the deal alternates, p1 Elder first"
        score, counts, stopped = replay_deal(rules, ents, totals, eseat)
        assert stopped == bool(end)
        for k in ("carte_blanche", "pique", "repique", "capot"):
            out[k] += counts[k]
        out.setdefault("deal_details", []).append((score, counts))
        out["elder_wins"] += score[0] > score[1]
        out["younger_wins"] += score[1] > score[0]
        out["elder_margin"] += score[0] - score[1]
        if stopped:
            break
    n = len(deals)
    if rules.unit == "deal":
        assert n == 1
    elif rules.unit == "partie":
        assert n >= rules.partie_deals and (n - rules.partie_deals) % 2 == 0
        # two more deals only while tied (line 185)
    t0, t1 = totals
    out.update(deals=n, p1_points=t0, p2_points=t1)
    draw = t0 == t1 or (rules.unit == "game" and not stopped)
    out["draw"] = int(draw)
    out["p1_win"] = int(not draw and t0 > t1)
    out["p2_win"] = int(not draw and t1 > t0)
    net = t0 - t1
    out["rubicon"] = 0
    if rules.unit == "partie" and not draw:
        out["p1_net"] = partie_score(t0, t1, rules.rubicon)
        out["rubicon"] = int(min(t0, t1) < rules.rubicon)
    else:
        out["p1_net"] = 0 if (rules.unit == "partie") else net
    return out


def partie_score(p1, p2, rubicon=100):
    """The Rubicon settlement for p1 (lines 181-184): the winner scores 100 + the difference if the
    loser reached the Rubicon, else 100 + both totals; + for p1 winning, - for p2."""
    hi, lo = max(p1, p2), min(p1, p2)
    s = 100 + hi - lo if lo >= rubicon else 100 + hi + lo
    return s if p1 > p2 else -s
