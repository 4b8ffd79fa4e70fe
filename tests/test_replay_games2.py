"""The move-by-move replays (issue 29, ``simkit replay``) of durak, klaberjass, handjass,
stovkahra, piquet, thirty_one, thirty_one_bank and oklahoma: each decoder's records have the
five keys with their types and only the pack's cards, and agree with what the decoder did not
write: the kernel's metric row (who lost, values, tricks, takes, outcomes) and the cards'
whereabouts (a seat plays only cards it holds, each card once a deal)."""
from __future__ import annotations

import re
from collections import Counter

import pytest

from simkit.core.play import playthrough
from simkit.games import parse_game

KEYS = {"deal": int, "seat": (int, type(None)), "action": str, "cards": list, "note": str}


def replay(game: str, seed: int = 1):
    spec, rules = parse_game(game)
    p = playthrough(spec, rules, None, seed)
    recs = spec.replay(rules, p["log"], p["metrics"])
    assert recs, game
    pack = {int(c) for c in spec.pack(rules)}
    seats = spec.seats(rules)
    for r in recs:
        assert set(r) == set(KEYS), r
        for k, t in KEYS.items():
            assert isinstance(r[k], t), (k, r)
        assert r["deal"] >= 1 and r["action"]
        assert all(type(c) is int and c in pack for c in r["cards"]), r
        assert r["seat"] is None or (type(r["seat"]) is int and 0 <= r["seat"] < seats), r
    return spec, rules, recs, p["metrics"], seats


def by_deal(recs):
    out = {}
    for r in recs:
        out.setdefault(r["deal"], []).append(r)
    return out


# ----------------------------------------------------------------------------- durak

def durak_hands(deal):
    """Each seat's cards from the records: what it is dealt, draws and takes; every card it
    attacks, beats or throws in must be held.  Returns the hands at the end."""
    hands = {0: Counter(), 1: Counter()}
    for r in deal:
        s, a = r["seat"], r["action"]
        if a in ("is dealt", "draws from the stock", "takes the cards"):
            hands[s].update(r["cards"])
        elif a in ("attacks", "beats", "throws in"):
            (c,) = r["cards"]
            assert hands[s][c] == 1, (r, hands[s])
            hands[s][c] -= 1
    return {s: +h for s, h in hands.items()}


@pytest.mark.parametrize("game,seed", [("durak", 1), ("durak", 7),
                                       ("durak(preset=super_short)", 3),
                                       ("durak(preset=long3)", 2)])
def test_durak_cards_and_the_durak(game, seed):
    spec, rules, recs, m, _ = replay(game, seed)
    deals = by_deal(recs)
    assert len(deals) == m["games"]
    lost = Counter()
    for d, deal in deals.items():
        dealt = [c for r in deal if r["action"] in ("is dealt", "turns up the trump")
                 for c in r["cards"]]
        assert len(dealt) == len(set(dealt)) == 13
        came = [c for r in deal if r["action"] in ("is dealt", "draws from the stock")
                for c in r["cards"]]
        gone = [c for r in deal if r["action"] == "beaten off" for c in r["cards"]]
        assert len(came) == len(set(came)) and len(gone) == len(set(gone))  # each card once
        left = durak_hands(deal)
        end = [r for r in deal if r["action"] in ("is the durak", "game ends")]
        assert len(end) == 1 and end[-1] is deal[-1]
        if end[0]["action"] == "is the durak":
            s = end[0]["seat"]
            assert Counter(end[0]["cards"]) == left[s] and not left[1 - s]
            lost[s] += 1
    assert m["p1_lose"] == (lost[0] > lost[1]) and m["p2_lose"] == (lost[1] > lost[0])
    if rules.unit == "game":
        assert m["p1_cards_left"] == sum(durak_hands(deals[1])[0].values())


def test_durak_stacked_first_bout():
    """A stacked deal whose first bout follows from the rule text by hand: p1 holds the lowest
    trump (6♠ under a spade trump) and attacks; with the baseline's lowest card first."""
    from simkit.games.durak import play_stacked
    spec, rules = parse_game("durak")
    deck = ("6s 7c 8c 9c 10c Jc "   # p1's first three, p2's first three
            "Qc Kc Ac 7d 8d 9d "    # p1's second three, p2's second three
            "As "                   # the trump card: spades
            "6c 6d 6h 7h 8h 9h 10h Jh Qh Kh Ah 10d Jd Qd Kd Ad 7s 8s 9s 10s Js Qs Ks")
    m, row = play_stacked(rules, None, deck, log=True)
    log = [int(e) for e in row if e != -1]
    recs = spec.replay(rules, log, m)
    from simkit.core.cards import parse
    assert recs[0] == dict(deal=1, seat=0, action="is dealt", cards=[int(c) for c in
                           parse("6s 7c 8c Qc Kc Ac")], note="")
    assert recs[1]["cards"] == [int(c) for c in parse("9c 10c Jc 7d 8d 9d")]
    assert recs[2]["action"] == "turns up the trump" and recs[2]["cards"] == [int(parse("As")[0])]
    assert recs[3]["seat"] == 0 and recs[3]["action"] == "opens"   # the lowest trump, 6♠
    first = recs[4]
    assert first["seat"] == 0 and first["action"] == "attacks"
    durak_hands([r for r in recs if r["deal"] == 1])


# ----------------------------------------------------------------------------- thirty_one

def t31_value(hand, trips=True):
    pts = {14: 11, 13: 10, 12: 10, 11: 10}
    if trips and len({c % 16 for c in hand}) == 1:
        return 30
    by = Counter()
    for c in hand:
        by[c // 16] += pts.get(c % 16, c % 16)
    return max(by.values())


@pytest.mark.parametrize("game,seed", [("thirty_one", 1), ("thirty_one", 5),
                                       ("thirty_one(preset=draw52,players=3)", 3),
                                       ("thirty_one(players=2,table_source=after_deal)", 2)])
def test_thirty_one_shown_hands_match_the_metrics(game, seed):
    spec, rules, recs, m, K = replay(game, seed)
    last = by_deal(recs)[max(r["deal"] for r in recs)]
    shown = {r["seat"]: r["cards"] for r in last if r["action"] == "shows"}
    assert sorted(shown) == list(range(K))
    for k, hand in shown.items():
        assert len(hand) == 3
        assert t31_value(hand, rules.trips) == m[f"p{k + 1}_value"]
    end = last[-1]
    assert end["action"] == "deal ends"
    losers = set(re.findall(r"p(\d+)", end["note"].split(";")[-1])) if "life" in end["note"] \
        else set()
    assert losers == {str(k + 1) for k in range(K) if m[f"p{k + 1}_lose"]}
    # the cards: every card is in one place; a player lays, discards or exchanges only his own
    hands = {}
    for r in last:
        a, s = r["action"], r["seat"]
        if a in ("is dealt", "takes his second hand"):
            hands[s] = list(r["cards"])
        elif a in ("draws from the stock", "takes the discard"):
            hands[s] += r["cards"]
        elif a == "discards":
            hands[s].remove(r["cards"][0])
        elif a == "exchanges":
            hands[s].remove(r["cards"][0])
            hands[s].append(r["cards"][1])
        elif a == "exchanges all three":
            hands[s] = list(r["cards"])
    assert {k: sorted(h) for k, h in hands.items()} == {k: sorted(h) for k, h in shown.items()}
    turns = sum(1 for r in recs if r["action"] in ("knocks", "passes", "exchanges",
                                                   "exchanges all three", "discards"))
    assert turns == m["turns"]      # replays included


# ----------------------------------------------------------------------------- thirty_one_bank

def bank_best(hand):
    t = sum(1 if c % 16 == 14 else min(c % 16, 10) for c in hand)
    for c in hand:
        if c % 16 == 14 and t + 10 <= 31:
            t += 10
    return t


@pytest.mark.parametrize("game,seed", [("thirty_one_bank", 1), ("thirty_one_bank(punters=3)", 4),
                                       ("thirty_one_bank(preset=two_decks)", 1),
                                       ("thirty_one_bank(preset=talia)", 2)])
def test_thirty_one_bank_outcomes_match_the_metrics(game, seed):
    spec, rules, recs, m, K = replay(game, seed)
    deals = by_deal(recs)
    assert len(deals) == m["rounds"]
    got = Counter()
    banker = 0
    for deal in deals.values():
        hands = {s: [] for s in range(K + 1)}
        for r in deal:
            if r["action"] in ("is dealt", "hits", "the banker is dealt", "the banker draws"):
                hands[K if r["seat"] is None else r["seat"]] += r["cards"]
            elif r["action"] == "settles":
                word, = [w for k, w in (("is paid", "win"), ("a push", "push"),
                                        ("pays the banker", "loss")) if r["note"].startswith(k)]
                got[(r["seat"], word)] += 1
        assert all(len(h) >= 3 for h in hands.values())
        banker += min(bank_best(hands[K]), 32)
        for s in range(K + 1):                      # a seat stops drawing once over 31
            assert bank_best(hands[s][:-1]) <= 31
    for k in range(K):
        for q in ("win", "push", "loss"):
            assert got[(k, q)] == m[f"p{k + 1}_{q}"], (k, q)
    assert banker == m["banker_total"]


# ----------------------------------------------------------------------------- oklahoma

@pytest.mark.parametrize("game,seed", [("oklahoma", 1), ("oklahoma", 4),
                                       ("oklahoma(preset=three)", 2)])
def test_oklahoma_cards_follow_the_hands(game, seed):
    spec, rules, recs, m, K = replay(game, seed)
    hands = {s: Counter() for s in range(K)}
    pile = []
    takes = Counter()
    out = set()
    for r in recs:
        a, s, cs = r["action"], r["seat"], r["cards"]
        if a == "is dealt":
            assert len(cs) == 13
            hands[s].update(cs)
        elif a == "turns up":
            pile = list(cs)
        elif a == "draws from the stock":
            hands[s].update(cs)
        elif a == "takes the discard pile":
            assert cs == pile
            hands[s].update(cs)
            pile = []
            takes[s] += 1
        elif a in ("melds", "lays off", "discards", "swaps for the joker"):
            for c in cs:
                assert hands[s][c] > 0, (r, hands[s])
                hands[s][c] -= 1
            if a == "discards":
                pile += cs
            if a == "swaps for the joker":
                hands[s][64] += 1
        elif a == "goes out":
            assert sum(hands[s].values()) == 0
            out.add(s)
        elif a == "reshuffles the pile":
            pile = pile[-1:]
    for k in range(K):
        assert takes[k] == m[f"p{k + 1}_takes"]
        assert (k in out) == bool(m[f"p{k + 1}_out"])
        assert (hands[k][3 * 16 + 12] > 0) == bool(m[f"p{k + 1}_qs_stuck"])


# ----------------------------------------------------------------------------- piquet

@pytest.mark.parametrize("game,seed", [("piquet", 1), ("piquet", 6),
                                       ("piquet(preset=rubicon)", 2)])
def test_piquet_cards_and_tricks(game, seed):
    spec, rules, recs, m, _ = replay(game, seed)
    deals = by_deal(recs)
    assert len(deals) == m["deals"]
    elder = Counter()
    for deal in deals.values():
        hands = {}
        for r in deal:
            a, s, cs = r["action"], r["seat"], r["cards"]
            if a == "is dealt":
                hands[s] = list(cs)
                if r["note"] == "Elder":
                    elder[s] += 1
            elif a == "discards":
                for c in cs:
                    hands[s].remove(c)
            elif a == "exchanges":
                hands[s] += cs
            elif a in ("leads", "follows"):
                hands[s].remove(cs[0])
        if not m["deals"] > 1 or rules.unit == "partie":
            assert not hands[0] and not hands[1]         # twelve tricks, every card played
        plays = [r for r in deal if r["action"] in ("leads", "follows")]
        for lead, follow in zip(plays[::2], plays[1::2]):
            assert lead["seat"] != follow["seat"]
            a, b = lead["cards"][0], follow["cards"][0]
            win = follow["seat"] if b // 16 == a // 16 and b % 16 > a % 16 else lead["seat"]
            assert follow["note"] == f"p{win + 1} wins the trick"
    assert elder[0] / len(deals) == m["p1_elder"]


# ----------------------------------------------------------------------------- klaberjass

KJ_POINTS = ({14: 11, 10: 10, 13: 4, 12: 3, 11: 2},                 # plain (line 4)
             {11: 20, 9: 14, 14: 11, 10: 10, 13: 4, 12: 3})         # trump (line 3)
KJ_ORDER = ([14, 10, 13, 12, 11, 9, 8, 7], [11, 9, 14, 10, 13, 12, 8, 7])


def kj_winner(lead, follow, trump):
    """0 when the leader takes the trick, 1 the follower (lines 3-4, 86-98)."""
    if follow // 16 == lead // 16:
        order = KJ_ORDER[lead // 16 == trump]
        return int(order.index(follow % 16) < order.index(lead % 16))
    return int(follow // 16 == trump)


@pytest.mark.parametrize("game,seed", [("klaberjass", 1), ("klaberjass", 9),
                                       ("klaberjass(preset=long301)", 1)])
def test_klaberjass_tricks_match_the_points(game, seed):
    spec, rules, recs, m, _ = replay(game, seed)
    deals = by_deal(recs)
    assert len(deals) == m["deals"]
    for deal in deals.values():
        trump = ["clubs", "diamonds", "hearts", "spades"].index(
            next(r["note"].split()[0] for r in deal if r["action"] in ("takes", "names trumps")))
        hands = {0: [], 1: []}
        for r in deal:
            if r["action"] == "is dealt":
                hands[r["seat"]] += r["cards"]
            elif r["action"] == "exchanges":
                seven, up = r["cards"]
                hands[r["seat"]].remove(seven)
                hands[r["seat"]].append(up)
        assert all(len(h) == 9 for h in hands.values())
        plays = [r for r in deal if r["action"] in ("leads", "follows")]
        pts = [0, 0]
        nxt = None
        for t, (a, b) in enumerate(zip(plays[::2], plays[1::2])):
            for r in (a, b):
                hands[r["seat"]].remove(r["cards"][0])   # a seat plays only its own cards
            if nxt is not None:
                assert a["seat"] == nxt                  # the trick's winner leads next
            w = (a, b)[kj_winner(a["cards"][0], b["cards"][0], trump)]["seat"]
            nxt = w
            for r in (a, b):
                c = r["cards"][0]
                pts[w] += KJ_POINTS[c // 16 == trump].get(c % 16, 0)
            if t == 8:
                pts[w] += 10                              # the last trick
        score = deal[-1] if deal[-1]["action"] == "scores" else deal[-2]
        if len(plays) == 18:
            assert score["note"].startswith(f"card points p1 {pts[0]}, p2 {pts[1]};")
        if rules.form == "short":
            combos = [sum(20 for r in deal if r["seat"] == k and r["action"] == "declares bella")
                      for k in (0, 1)]
            for k in (0, 1):
                assert m[f"p{k + 1}_raw"] >= pts[k] + combos[k]
            assert m["p1_raw"] + m["p2_raw"] == sum(pts) + m["p1_combos"] + m["p2_combos"]


# ----------------------------------------------------------------------------- handjass

HJ_ORDER = ([14, 13, 12, 11, 10, 9, 8, 7, 6], [11, 9, 14, 13, 12, 10, 8, 7, 6])   # lines 68-91
HJ_POINTS = ({14: 11, 13: 4, 12: 3, 11: 2, 10: 10}, {11: 20, 9: 14, 14: 11, 13: 4, 12: 3, 10: 10})


def hj_winner(trick, trump):
    """The index of the card taking ``trick``: the best trump, else the best of the suit led."""
    def key(c):
        if c // 16 == trump:
            return 2, -HJ_ORDER[1].index(c % 16)
        return (1, -HJ_ORDER[0].index(c % 16)) if c // 16 == trick[0] // 16 else (0, 0)
    return max(range(len(trick)), key=lambda q: key(trick[q]))


@pytest.mark.parametrize("game,seed", [("handjass", 1), ("handjass", 3),
                                       ("handjass(preset=three)", 2),
                                       ("handjass(preset=bessern3)", 4),
                                       ("handjass(preset=game)", 1)])
def test_handjass_cards_and_points(game, seed):
    spec, rules, recs, m, K = replay(game, seed)
    deals = by_deal(recs)
    if rules.unit == "game":
        assert len(deals) == min(m["deals"], 60)
    for deal in deals.values():
        trump = next(r["cards"][0] // 16 for r in deal if r["action"] == "turns up the trump")
        hands = {}
        for r in deal:
            a, s, cs = r["action"], r["seat"], r["cards"]
            if a in ("is dealt", "takes the blind"):
                hands[s] = list(cs)
            elif a == "betters":
                for c in cs[:3]:
                    hands[s].remove(c)
                hands[s] += cs[3:]
            elif a == "exchanges":
                hands[s].remove(cs[0])
                hands[s].append(cs[1])
        plays = [r for r in deal if r["action"] in ("leads", "follows")]
        k = sum(1 for r in deal if r["action"] in ("plays the deal", "takes the blind"))
        pts = Counter()
        for t in range(len(plays) // max(k, 1)):
            trick = plays[t * k:(t + 1) * k]
            assert trick[0]["action"] == "leads"
            for r in trick:
                hands[r["seat"]].remove(r["cards"][0])   # only cards the seat holds
            cs = [r["cards"][0] for r in trick]
            w = trick[hj_winner(cs, trump)]["seat"]
            assert trick[-1]["note"] == f"p{w + 1} wins the trick"
            if t + 1 < len(plays) // k:
                assert plays[(t + 1) * k]["seat"] == w     # the kernel's next leader
            pts[w] += sum(HJ_POINTS[c // 16 == trump].get(c % 16, 0) for c in cs)
            if t == len(plays) // k - 1:
                pts[w] += 5                                # the last trick (line 92)
        if plays:
            assert all(not hands[r["seat"]] for r in plays)  # every card played
        scores = {r["seat"]: r["note"] for r in deal if r["action"] == "scores"}
        for s, note in scores.items():
            assert f"({pts[s]} in cards)" in note
        if rules.unit == "deal":
            for s in range(K):
                assert m[f"p{s + 1}_cards"] == pts[s]


# ----------------------------------------------------------------------------- stovkahra

ST_POINTS = {14: 6, 13: 5, 12: 4, 11: 3}      # lines 189-192


def st_winner(trick, trump):
    w = 0
    for q in range(1, len(trick)):
        c, b = trick[q], trick[w]
        if (c // 16 == b // 16 and c % 16 > b % 16) or (c // 16 == trump and b // 16 != trump):
            w = q
    return w


@pytest.mark.parametrize("game,seed", [("stovkahra", 1), ("stovkahra", 5),
                                       ("stovkahra(preset=game)", 2)])
def test_stovkahra_tricks_match_the_metrics(game, seed):
    spec, rules, recs, m, _ = replay(game, seed)
    deals = by_deal(recs)
    assert len(deals) == min(m["deals"], 24)
    tricks, cards = Counter(), Counter()
    for deal in deals.values():
        trump = next(r["cards"][0] // 16 for r in deal if r["action"] == "shows the trump")
        hands = {r["seat"]: list(r["cards"]) for r in deal if r["action"] == "is dealt"}
        pack = sorted(int(c) for c in spec.pack(rules))
        assert sorted(c for h in hands.values() for c in h) == pack
        plays = [r for r in deal if r["action"] in ("leads", "follows")]
        nxt = None
        for t in range(len(plays) // 4):
            trick = plays[4 * t:4 * t + 4]
            if nxt is not None:
                assert trick[0]["seat"] == nxt
            for r in trick:
                hands[r["seat"]].remove(r["cards"][0])
            cs = [r["cards"][0] for r in trick]
            nxt = trick[st_winner(cs, trump)]["seat"]
            assert trick[-1]["note"] == f"p{nxt + 1} wins the trick"
            tricks[nxt % 2] += 1
            cards[nxt % 2] += sum(ST_POINTS.get(c % 16, 0) for c in cs) + (6 if t == 7 else 0)
    if rules.unit == "deal":
        for k in range(4):
            assert m[f"p{k + 1}_tricks"] == tricks[k % 2]
            assert m[f"p{k + 1}_cards"] == cards[k % 2]


def test_stovkahra_stacked_deal_3_2_3():
    """A stacked pack is dealt 3-2-3 from the dealer's (p4's) left (line 215): p1 gets cards
    1-3, 13-14 and 21-23; the dealer's last card, the pack's bottom, shows trumps."""
    from simkit.core.play import play_stacked
    spec, rules = parse_game("stovkahra")
    pack = [int(c) for c in spec.pack(rules)]
    m, row = play_stacked(spec, rules, None, pack, log=True)
    log = [int(e) for e in row]
    while log and log[-1] == -1:
        log.pop()
    recs = spec.replay(rules, log, m)
    dealt = {r["seat"]: r["cards"] for r in recs if r["action"] == "is dealt"}
    assert dealt[0] == pack[0:3] + pack[12:14] + pack[20:23]
    assert dealt[1] == pack[3:6] + pack[14:16] + pack[23:26]
    assert dealt[3] == pack[9:12] + pack[18:20] + pack[29:32]
    shown = next(r for r in recs if r["action"] == "shows the trump")
    assert shown["seat"] == 3 and shown["cards"] == [pack[31]]
    assert next(r for r in recs if r["action"] == "leads")["seat"] == 0   # the eldest leads
