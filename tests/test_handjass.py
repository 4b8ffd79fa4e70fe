"""Handjass: the engine against the plain reference of the rules (tests/handjass_reference.py),
the text's worked cases as stacked deals and hand-worked stroke tables, the exact Weis chances
against the simulator's frequencies, the baseline against random, and (when jass-kit is
installed) the trick mechanics against jass-kit's Schieber, which shares them.

Statistical checks state n, the seed and the tolerance in standard errors."""
from __future__ import annotations


import numpy as np
import pytest

import simkit
from simkit.core import cards as C
from simkit.engines import tricks as T
from simkit.core.registry import resolve_strategies
from simkit.core.rng import stream_state
from simkit.errors import SimkitError
from simkit.games import handjass as HJ
from simkit.games.handjass import engine as E
from simkit.games.handjass.exact import hand_counts, weis_chances
from simkit.games.handjass.rules import HandjassRules

from tests import handjass_reference as ref

S, H, D, CL = 3, 2, 1, 0


def rules(**kw):
    return HandjassRules.build(kw)


def stack(hands):
    """Four hands of nine (lists of card strings) as the 36-card deck in dealing order: hand
    ``j``'s card ``k`` at position ``12 * (k // 3) + 3 * j + k % 3`` (the last card of hand 3,
    position 35, shows trumps)."""
    deck = [None] * 36
    for j, h in enumerate(hands):
        cs = h.split()
        assert len(cs) == 9
        for k, c in enumerate(cs):
            deck[12 * (k // 3) + 3 * j + k % 3] = C.parse_card(c)
    return np.array(deck, np.int64)


# --------------------------------------------------------------------------- the reference

CONFIGS = [
    ({}, None, 400),
    ({}, ["p1=random", "p2=random", "p3=random(d=1)", "p4=random(p=0.9)"], 300),
    ({"players": 3}, None, 300),
    ({"players": 3}, ["p1=random(b=0.5)", "p2=random(d=1)", "p3=random"], 300),
    ({"players": 2}, None, 300),
    ({"players": 2}, ["p1=random(b=0.5,d=1)", "p2=random"], 300),
    ({"players": 3, "dropping": False}, None, 200),
    ({"players": 2, "dropping": False}, None, 200),
    ({"extra_per_potato": True, "strokes": "players_minus_one", "potato": 21}, None, 300),
    ({"berner": True, "players": 3, "potato_stake": 2}, None, 200),
    ({"players": 3, "bessern": True}, None, 200),
    ({"tie": "carry", "potato": 0, "extra_per_potato": True}, None, 300),
    ({"players": 2, "bessern": True}, ["p1=random(d=0.6)", "p2=baseline(besser=70)"], 200),
]
GAMES = [({"unit": "game"}, None, 40), ({"unit": "game", "bessern": True}, None, 30),
         ({"unit": "game", "players": 3}, ["p1=random"], 40),
         ({"unit": "game", "tie": "carry", "players": 2}, None, 40),
         ({"unit": "game", "berner": True, "target": 27, "extra_per_potato": True}, None, 15)]


@pytest.mark.parametrize("opts,strats,n", CONFIGS)
def test_reference_replays_logged_deals(opts, strats, n):
    r = rules(**opts)
    rows, log = HJ.play_logged(r, strats, n=n, seed=7)
    recs = log.to_dict("records")
    assert len(recs) == n
    for d in recs:
        ref.check_deal(d, r)
    assert (rows.card_total <= 157).all()


@pytest.mark.parametrize("opts,strats,n", GAMES)
def test_reference_replays_logged_games(opts, strats, n):
    """Every deal of every game, and the line-up (Forehand rotation, line 144), the scores, the
    retirements at the target and the loser."""
    r = rules(**opts)
    rows, log = HJ.play_logged(r, strats, n=n, seed=8)
    recs = log.to_dict("records")
    lose = rows[[f"p{k + 1}_lose" for k in range(r.players)]].to_numpy()
    assert (lose.sum(1) == 1).all()
    checked = 0
    for u in range(n):
        if rows.deals[u] > E.GAME_LOG_DEALS:
            continue
        ds = [d for d in recs if d["unit"] == u]
        ref.check_game(ds, r, int(np.argmax(lose[u])))
        checked += 1
    assert checked >= n * 0.9


def test_reference_catches_broken_logs():
    """The reference is not a rubber stamp: a stroke, a card point, a Weis key or a card moved
    in the log is caught."""
    r = rules()
    _, log = HJ.play_logged(r, None, n=60, seed=3)
    recs = [d for d in log.to_dict("records") if d["play0"] >= 0]
    for d in recs[:30]:
        for k, delta in [("strk1", 1), ("cards0", 2), ("total2", -1)]:
            e = dict(d)
            e[k] += delta
            with pytest.raises(AssertionError):
                ref.check_deal(e, r)
        e = dict(d)
        e["play4"], e["play5"] = e["play5"], e["play4"]   # two cards of the second trick swapped
        with pytest.raises(AssertionError):
            ref.check_deal(e, r)
    weis = [d for d in recs if any(d[f"decl{j}"] for j in range(4))]
    assert weis
    for d in weis[:10]:
        j = next(j for j in range(4) if d[f"decl{j}"])
        e = dict(d)
        e[f"wkey{j}"] += 16
        with pytest.raises(AssertionError):
            ref.check_deal(e, r)


def test_157_card_points_when_every_hand_is_played():
    """Lines 67-92: 157 card points a deal, counted on every played-out deal (four players and
    three with twelve cards each play all 36)."""
    for opts in ({"dropping": False}, {"dropping": False, "players": 3}):
        res = simkit.run(HJ.SPEC.name + "(" + ",".join(f"{k}={v}" for k, v in opts.items()) + ")",
                         n=2000, seed=4, rows=True, progress=False,
                         strategies=[f"p{k + 1}=random" for k in range(opts.get("players", 4))])
        assert (res.rows.card_total == 157).all()
        pts = res.rows[[c for c in res.rows.columns if c.endswith("_cards")]].sum(axis=1)
        assert (pts == 157).all()


# --------------------------------------------------------------------------- the text's cases

def legal(hand, trick, trump):
    t = np.zeros(4, np.int64)
    codes = C.parse(trick) if trick else []
    t[:len(codes)] = codes
    m = T.legal_moves(np.uint64(C.mask(C.parse(hand))), t, len(codes), trump, E.TRICK_RULES,
                      E.STRENGTH)
    return " ".join(C.format_card(c) for c in range(64) if (int(m) >> c) & 1)


def cs(text):
    return " ".join(C.format_card(c) for c in sorted(C.parse(text)))


@pytest.mark.parametrize("hand,trick,want", [
    ("Js Ah 7d", "9s", "Js Ah 7d"),          # 125: the lone trump jack is never forced
    ("Js 7s Ah", "9s", "Js 7s"),             # 125: with another trump, any trump
    ("Ah 7d", "9s", "Ah 7d"),                # 125: no trump: any card
    ("Ah 7s Kd", "Kh", "Ah 7s"),             # 126: follow or trump
    ("Ah 7s Js Kd", "Kh 9s", "Ah Js"),       # 128: no undertrumping the 9
    ("7s Js Kd", "Kh 9s", "Js Kd"),          # 127-128: void: anything but a lower trump
    ("7s 8s Kd", "Kh 9s", "Kd"),
    ("7s Js", "Kh 9s", "7s Js"),             # 129: only trumps: may undertrump though able to beat
    ("7s 8s", "Kh Js", "7s 8s"),
])
def test_legal_moves_lines_121_129(hand, trick, want):
    assert legal(hand, trick, S) == cs(want)
    codes = [int(c) for c in C.parse(trick)]
    t = np.array(codes + [0] * (4 - len(codes)), np.int64)
    w = T.trick_winner(t, len(codes), S, E.STRENGTH)
    fast = E.legal_cards(np.uint64(C.mask(C.parse(hand))), codes[0] >> 4, t[w], S)
    assert " ".join(C.format_card(c) for c in range(64) if (int(fast) >> c) & 1) == cs(want)


def test_cheapest_is_the_least_card_cost():
    """The suit table's cheapest card is the card of least ``card_cost`` (ties: the lower code)
    of random hands, every trump."""
    rng = np.random.default_rng(3)
    pack = C.deck(36).astype(np.int64)
    for _ in range(3000):
        hand = rng.permutation(pack)[:int(rng.integers(1, 13))]
        trump = int(rng.integers(4))
        want = min((E.card_cost(int(c), trump), int(c)) for c in hand)[1]
        assert E.cheapest(np.uint64(C.mask(hand)), trump) == want


def test_legal_cards_is_legal_moves():
    """The kernel's scalar legal cards (led suit and winning card) equal the trick engine's
    ``legal_moves`` under Handjass's rule table on 20,000 random tricks of one to three cards."""
    rng = np.random.default_rng(7)
    pack = C.deck(36).astype(np.int64)
    for _ in range(20000):
        cards = rng.permutation(pack)
        trump = int(rng.integers(4))
        ntr = int(rng.integers(1, 4))
        t = np.zeros(4, np.int64)
        t[:ntr] = cards[:ntr]
        hand = np.uint64(C.mask(cards[4:4 + int(rng.integers(1, 10))]))
        want = T.legal_moves(hand, t, ntr, trump, E.TRICK_RULES, E.STRENGTH)
        w = T.trick_winner(t, ntr, trump, E.STRENGTH)
        assert E.legal_cards(hand, t[0] >> 4, t[w], trump) == want


WEIS_131 = ["Ks Qs Js 10s Ac 9h 8d 6d Kd",      # A (Forehand): K-Q-J-10 of spades
            "Kc Jc 9c Qd 10d 7d As 7s Ah",      # B
            "Kh Qh Jh 10h 8c 7c 6c Ad 9s",      # C: K-Q-J-10 of hearts and 8-7-6 of clubs
            "Qc 10c Jd 9d 8s 6s 8h 7h 6h"]      # D (dealer): the 6h shows hearts


def test_weis_example_line_131():
    """A and C both declare 50 and both say "king"; C's sequence is in trumps and wins the Weis:
    he adds his 8-7-6 (20) and, holding trump K and Q, Stöck: 90 for combinations."""
    everyone = [f"p{k}=random(p=1,b=0,d=1)" for k in range(1, 5)]
    res = HJ.play_stacked(rules(), everyone, stack(WEIS_131))
    assert (res["p3_weis"], res["p3_stock"]) == (70, 20)
    assert res["p1_weis"] == res["p2_weis"] == res["p4_weis"] == 0
    assert res["p1_weis_held"] == res["p3_weis_held"] == 50 and res["p4_weis_held"] == 20
    # the same runs with diamonds trumps (the dealer's last card the 9d): equal non-trump
    # sequences go to the player nearest the dealer's right (lines 110-111): A
    diamonds = WEIS_131[:3] + ["Qc 10c 8s 6s 8h 7h 6h Jd 9d"]
    res = HJ.play_stacked(rules(), everyone, stack(diamonds))
    assert (res["p1_weis"], res["p3_weis"], res["p3_stock"]) == (50, 0, 0)
    # undeclared Weis neither scores nor competes (line 134): C keeps it to himself
    quiet = everyone[:2] + ["p3=baseline(play=0,weis=201)", everyone[3]]
    res = HJ.play_stacked(rules(), quiet, stack(WEIS_131))
    assert res["p3_weis"] == 0 and res["p1_weis"] == 50 and res["p3_stock"] == 20


def test_weis_split_that_wins_the_comparison_lines_104_110():
    """A player shows the split of his Weis that wins the comparison (line 104 forbids only a
    card in two combinations; 106-110 compare the best single Weis): A's four kings and
    K-Q-J-10-9-8 of hearts are either the kings (100) and Q-8 (100, five cards, queen high) or
    the run K-8 (100, six cards, king high); B holds J-10-9-8-7-6 of spades (six cards, jack
    high), which beats the first split but not the second.  A declares the run of six and
    scores 100 (he scored nothing, B 100).  Without B's run A shows the 200."""
    hands = ["Kc Kd Ks Kh Qh Jh 10h 9h 8h",      # A: four kings and K-8 of hearts
             "Js 10s 9s 8s 7s 6s Ah 7h Ac",      # B: J-6 of spades
             "As Qs 6h Qc 10c 8c Qd 10d 8d",     # C
             "Ad Jd 9d 7d 6d Jc 9c 7c 6c"]       # D (dealer): the 6c shows clubs
    everyone = [f"p{k}=random(p=1,b=0,d=1)" for k in range(1, 5)]
    r = rules()
    res, log = HJ.play_stacked(r, everyone, stack(hands), log=True)
    assert (res["p1_weis"], res["p2_weis"]) == (100, 0)
    ref.check_deal(log.iloc[0].to_dict(), r)
    quiet = everyone[:1] + ["p2=baseline(play=0,weis=201)"] + everyone[2:]
    res, log = HJ.play_stacked(r, quiet, stack(hands), log=True)
    assert (res["p1_weis"], res["p2_weis"]) == (200, 0)
    ref.check_deal(log.iloc[0].to_dict(), r)
    # the engine's split: the most points among those whose best key reaches ``need``
    h = np.uint64(C.mask(C.parse(hands[0])))
    run6 = (100 << 12) | (6 << 8) | (13 << 4)
    assert E.weis_split(h, CL, 0, 0)[:2] == (200, (100 << 12) | (5 << 8) | (12 << 4))
    assert E.weis_split(h, CL, run6, 0)[:2] == (100, run6)
    assert E.weis_of(h, CL) == (200, run6)


def test_stock_shown_in_a_scored_weis_counts_line_133():
    """Line 133: Stöck need not be announced when it was shown in the player's Weis.  A holds
    K-Q-J of hearts, trumps; the random strategy declares each of Weis and Stöck with chance
    ``d`` = 0.5.  Over 200 plays of the deal, whenever A's Weis scored, his Stöck counted; when
    it did not, Stöck still counts only when announced (both happen)."""
    hands = ["Kh Qh Jh 9c 7c Ad 8d 6s 10s",      # A: K-Q-J of trumps, nothing else
             "Ah 9h 7h Ac Qc 10c Kd Jd 9d",
             "10h 8h Kc Jc 8s Qd 10d As Qs",
             "6c 8c 7d 6d Ks Js 9s 7s 6h"]       # the 6h shows hearts
    r = rules()
    spec = HJ.SPEC
    strats = resolve_strategies(spec, r, ["p1=random(p=1,b=0,d=0.5)"] +
                                [f"p{k}=random(p=1,b=0)" for k in range(2, 5)])
    R, Sg, W = spec.prepare(r, strats, stack(hands))
    M = len(spec.metrics(r))
    n = 200
    rows = np.zeros((n, M))
    spec.kernel(R, Sg, W, stream_state(3, 0), n, np.zeros((2, M)), rows, np.zeros((0, 1), np.int64))
    names = [m.name for m in spec.metrics(r)]
    weis, stock = rows[:, names.index("p1_weis")], rows[:, names.index("p1_stock")]
    assert set(weis) == {0, 20}
    assert (stock[weis == 20] == 20).all()
    assert set(stock[weis == 0]) == {0, 20}


def test_weis_values_and_splits():
    """Lines 95-104: the values, and a card in one combination only (the split with the most
    points); engine and reference agree."""
    def w(text, trump=S):
        h = np.uint64(C.mask(C.parse(text)))
        total, key = E.weis_of(h, trump)
        r = ref.weis([ref.card(c) for c in C.parse(text)], trump)
        assert (total, ref.key_tuple(key)) == r
        return total, key >> 12
    assert w("6h 7h 8h 9h 10h Jh Qh Kh Ah") == (100, 100)          # one run of nine: 100
    assert w("6h 7h 8h 9h Ac Kd") == (50, 50)
    assert w("Jc Jd Jh Js 6c") == (200, 200)
    assert w("9c 9d 9h 9s 6c") == (0, 0)                           # four nines: nothing
    assert w("Kc Kd Ks Kh 9h 10h Jh Qh") == (150, 100)             # four kings + 9-Q, not 9-K
    assert w("Ac Ad Ah As Kc Kd Kh Ks 6s") == (200, 100)


def hand_worked_strokes(totals, m=None, mult=1, seed=1, **kw):
    R = E.game_rules(rules(**kw))
    W = E.work()
    k = len(totals)
    W.act[:k] = np.arange(k)
    W.total[:k] = totals
    E.score_strokes(R, W, k, m or k, mult, np.uint64(seed))
    return list(W.strk[:k]), list(W.pot[:k])


def test_strokes_and_potatoes_lines_137_141():
    # the two highest a stroke each, under 26 a potato (137-138)
    assert hand_worked_strokes([60, 50, 30, 17]) == ([1, 1, 0, -1], [0, 0, 0, 1])
    # all but one potato: the one at 26+ two strokes (138)
    assert hand_worked_strokes([100, 20, 20, 17]) == ([2, -1, -1, -1], [0, 1, 1, 1])
    # nobody at 26: all potatoes, no stroke (141)
    assert hand_worked_strokes([25, 20], m=4) == ([-1, -1], [1, 1])
    # a tie for the second stroke: a card drawn decides (140); both sides happen
    seen = {tuple(hand_worked_strokes([60, 40, 40, 17], seed=s)[0]) for s in range(40)}
    assert seen == {(1, 1, 0, -1), (1, 0, 1, -1)}
    # potato threshold 21 (164)
    assert hand_worked_strokes([60, 50, 22, 25], potato=21) == ([1, 1, 0, 0], [0, 0, 0, 0])
    # two players: one stroke to the higher at 26+, both under 26 both potato (161)
    assert hand_worked_strokes([80, 30]) == ([1, 0], [0, 0])
    assert hand_worked_strokes([80, 20]) == ([1, -1], [0, 1])
    assert hand_worked_strokes([20, 25]) == ([-1, -1], [1, 1])
    # strokes one fewer than the players (174): two without potato, the higher takes two
    assert hand_worked_strokes([60, 50, 30, 17], strokes="players_minus_one") == \
        ([1, 1, 1, -1], [0, 0, 0, 1])
    assert hand_worked_strokes([60, 50, 20, 17], strokes="players_minus_one")[0] == [2, 1, -1, -1]
    # an extra stroke per potato (170): one potato to the top; two potatoes: two each; lone: all
    assert hand_worked_strokes([60, 50, 30, 17], extra_per_potato=True)[0] == [2, 1, 0, -1]
    assert hand_worked_strokes([60, 50, 20, 17], extra_per_potato=True)[0] == [2, 2, -1, -1]
    assert hand_worked_strokes([60, 20, 20, 17], extra_per_potato=True)[0] == [5, -1, -1, -1]
    # strokes held over on a tie (175): both tied get the lower count, one stroke waits
    R = E.game_rules(rules(tie="carry"))
    W = E.work()
    W.act[:4] = np.arange(4)
    W.total[:4] = [60, 40, 40, 17]
    E.score_strokes(R, W, 4, 4, 1, np.uint64(3))
    assert list(W.strk[:4]) == [1, 0, 0, -1] and sorted(W.pend[0, :2]) == [1, 2] and W.pend[0, 2] == 1
    # Berner (173): times the suit's multiplier
    assert hand_worked_strokes([60, 50, 30, 17], mult=3)[0] == [3, 3, 0, -3]


def test_held_over_strokes_are_never_lost_line_175():
    """Line 175 over a game: seven deals of four players as the game loop runs them
    (score_strokes, then settle_held).  In deals 1-6 seat 0 takes 60 points and two others tie
    at 40 while the fourth drops, so each deal holds one stroke over: pairs {1,2}, {1,3},
    {2,3}, and each again.  In deal 7 everyone plays at 70/50/40/30 and every held stroke is
    settled: seat 1 wins both its pairs (2 + 2), seat 2 its pair with seat 3 (2).  Every deal
    gives out two strokes, so the seven give 14 and none waits or is lost.  (The engine kept
    five held-over entries and dropped a sixth stroke unrecorded.)"""
    R = E.game_rules(rules(tie="carry", unit="game"))
    W = E.work()
    W.order[:4] = np.arange(4)
    score = np.zeros(4, np.int64)
    ingame = np.ones(4, np.int64)
    held = 0
    pairs = [(1, 2), (1, 3), (2, 3)] * 2
    deals = [({0: 60, a: 40, b: 40}) for a, b in pairs] + [{0: 70, 1: 50, 2: 40, 3: 30}]
    for n, totals in enumerate(deals):
        k = len(totals)
        W.act[:k] = sorted(totals)
        for j in range(4):
            W.choice[j] = E.PLAY if j in totals else E.DROP
            W.total[j] = totals.get(j, 0)
            W.strk[j] = W.pot[j] = 0
        E.score_strokes(R, W, k, 4, 1, np.uint64(n + 1))
        score += W.strk[:4]
        held = E.settle_held(W, 4, k, held, score, ingame)
        assert score.sum() + sum(W.pend[2 + q, 2] for q in range(held)) == 2 * (n + 1)
    assert list(score) == [7, 1 + 4, 2, 0] and held == 0 and W.pend[-1, 2] == 0   # the last row: lost


def test_unplayed_strokes_lines_119_139_161():
    drop = "random(p=0,b=0)"
    deck = stack(WEIS_131)
    res = HJ.play_stacked(rules(), [f"p1={drop}", f"p2={drop}", f"p3={drop}", "p4=baseline"], deck)
    assert (res["p4_strokes"], res["unplayed"], res["p4_play"], res["card_total"]) == (2, 1, 0, 0)
    res = HJ.play_stacked(rules(strokes="players_minus_one"),
                          [f"p1={drop}", "p2=random(p=1)", f"p3={drop}", f"p4={drop}"], deck)
    assert (res["p2_strokes"], res["unplayed"]) == (3, 1)
    res = HJ.play_stacked(rules(players=2), [f"p1={drop}", "p2=baseline"], deck)
    assert (res["p2_strokes"], res["p1_strokes"]) == (1, 0)
    res = HJ.play_stacked(rules(players=3, berner=True), [f"p1={drop}", "p2=random(p=0,b=1)",
                                                        f"p3={drop}"], deck)
    assert res["p2_strokes"] == 4 * 2    # hearts trumps: times four


def test_three_players_blind_and_trump_six():
    """Lines 150-154: the blind's taker plays the blind (the trump card on the table until the
    first trick is over), the trump six is exchanged for the trump card, and the cards of the
    discarded hand and the blind do not count."""
    deck = stack(WEIS_131)      # hand 3 (the blind) ends with the 6h: the trump card is the six
    r = rules(players=3)
    res, log = HJ.play_stacked(r, ["p1=random(p=0,b=1,d=1)", "p2=random(p=1,b=0,d=1)",
                                   "p3=random(p=1,d=1)"], deck, log=True)
    d = log.iloc[0].to_dict()
    assert d["blindpos"] == 0 and d["table"] == C.parse_card("6h") and d["exch"] == -1
    ref.check_deal(d, r)
    assert res["card_total"] == sum(ref.points(ref.card(c), H) for h in (1, 2, 3)
                                    for c in C.parse(WEIS_131[h])) + 5
    # now the six of hearts is in B's hand: he exchanges it for the trump card (the 7h)
    six = [WEIS_131[0], "Kc Jc 9c Qd 10d 7d As 6h Ah", WEIS_131[2],
           "Qc 10c Jd 9d 8s 6s 8h 7s 7h"]
    res, log = HJ.play_stacked(r, ["p1=random(p=0,b=1,d=1)", "p2=random(p=1,b=0,d=1)",
                                   "p3=random(p=1,d=1)"], stack(six), log=True)
    d = log.iloc[0].to_dict()
    assert d["exch"] == 1 and d["table"] == C.parse_card("6h") and res["exchanges"] == 1
    ref.check_deal(d, r)


def test_stacked_decks_are_checked():
    with pytest.raises(SimkitError, match="36 cards"):
        HJ.play_stacked(rules(), None, stack(WEIS_131)[:30])
    two = np.concatenate([stack(WEIS_131), stack(WEIS_131)[:35], [C.parse_card("Ks")]])
    with pytest.raises(SimkitError):
        HJ.play_stacked(rules(unit="game"), None, two)


# --------------------------------------------------------------------------- exact, statistics

def test_exact_weis_counts():
    """The suit-by-suit count against closed forms: four jacks C(32, 5), Stöck C(34, 7), and
    every hand counted once."""
    from math import comb
    c9 = hand_counts(9)
    assert sum(c9.values()) == comb(36, 9)
    assert c9[200] == comb(32, 5)
    ch = weis_chances(rules())
    assert ch["stock"] == comb(34, 7) / comb(36, 9)


@pytest.mark.parametrize("opts", [{}, {"players": 3, "dropping": False}])
def test_exact_weis_chances_against_simulation(opts):
    """The best single Weis of each hand as dealt (``pK_weis_held``) against the exact count;
    n = 12,000 deals (four or three hands each), seed 11, within 4.5 standard errors of the
    per-deal seat mean."""
    r = rules(**opts)
    P = r.players
    game = "handjass(" + ",".join(f"{k}={str(v).lower()}" for k, v in opts.items()) + ")"
    res = simkit.run(game if opts else "handjass", n=12_000, seed=11, rows=True, progress=False,
                     strategies=[f"p{k + 1}=random" for k in range(P)])
    held = res.rows[[f"p{k + 1}_weis_held" for k in range(P)]].to_numpy()
    exact = weis_chances(r)
    for v in (0, 20, 50, 100, 200):
        per_deal = (held == v).mean(1)
        se = per_deal.std(ddof=1) / np.sqrt(len(per_deal))
        p = exact[f"weis_best_{v}"]
        assert abs(per_deal.mean() - p) <= 4.5 * max(se, np.sqrt(p * (1 - p) / held.size)), \
            (v, per_deal.mean(), p, se)


def test_baseline_beats_random():
    """The baseline in p1 against three random players: more strokes per deal than a random
    seat (n = 4,000 deals, seed 5, by more than 6 SE of the paired difference), and in whole
    games it loses less than a quarter (n = 400 games, 6 SE)."""
    strats = ["p1=baseline", "p2=random", "p3=random", "p4=random"]
    res = simkit.run("handjass", n=4000, seed=5, rows=True, progress=False, strategies=strats)
    diff = res.rows.p1_strokes - res.rows[["p2_strokes", "p3_strokes"]].mean(axis=1)
    assert diff.mean() > 6 * diff.std(ddof=1) / np.sqrt(len(diff))
    g = simkit.run("handjass(unit=game)", n=400, seed=5, progress=False,
                   strategies=strats).estimates()["p1_lose"]
    assert g["mean"] + 6 * g["se"] < 0.25


# --------------------------------------------------------------------------- jass-kit (peer)

def _jk_index(code):
    """jass-kit's card index (suits D H S C, ranks A K Q J 10 9 8 7 6) of a core code."""
    suit = {1: 0, 2: 1, 3: 2, 0: 3}[code >> 4]
    return suit * 9 + [14, 13, 12, 11, 10, 9, 8, 7, 6].index(code & 15)


def test_trick_mechanics_against_jass_kit():
    """jass-kit's Schieber (``RuleSchieber``) has Handjass's trick rules: the same legal cards
    (follow or trump, the trump jack never forced, no undertrumping unless all trumps), winners
    and card points, on 4,000 random positions (seed 13) of four-player tricks.  One difference
    is left out: with two trumps in a plain-led trick jass-kit bars trumps below the *lowest* of
    them, the text (line 128) below the highest."""
    pytest.importorskip("jass")
    from jass.game.rule_schieber import RuleSchieber
    rule = RuleSchieber()
    rng = np.random.default_rng(13)
    pack = C.deck(36).astype(np.int64)
    compared = 0
    for _ in range(4000):
        cards = rng.permutation(pack)
        trump = int(rng.integers(4))
        ntr = int(rng.integers(0, 4))
        trick, hand = list(cards[:ntr]), list(cards[4:4 + int(rng.integers(1, 10))])
        if ntr and sum((c >> 4) == trump for c in trick[1:]) >= 2 and (trick[0] >> 4) != trump:
            continue
        jt = {0: 3, 1: 0, 2: 1, 3: 2}[trump]
        one_hot = np.zeros(36, np.int32)
        one_hot[[_jk_index(c) for c in hand]] = 1
        want = rule.get_valid_cards(one_hot, np.array([_jk_index(c) for c in trick] + [-1] *
                                                      (4 - ntr)), ntr, jt)
        t = np.zeros(4, np.int64)
        t[:ntr] = trick
        got = T.legal_moves(np.uint64(C.mask(hand)), t, ntr, trump, E.TRICK_RULES, E.STRENGTH)
        assert {_jk_index(c) for c in hand if (int(got) >> c) & 1} == set(np.flatnonzero(want))
        full = np.array(list(cards[:4]), np.int64)
        jtr = np.array([_jk_index(c) for c in full])
        assert rule.calc_points(jtr, False, jt) == T.trick_points(full, 4, trump, E.POINTS)
        # jass-kit counts seats the other way round (its next player is first_player - 1)
        assert rule.calc_winner(jtr, 0, jt) == (-T.trick_winner(full, 4, trump, E.STRENGTH)) % 4
        compared += 1
    assert compared > 3500


def test_bessern_lines_166_169():
    """Three players with Bessern: the dealer's last card (position 32) shows trumps, a swap is
    exactly three cards for the three dealt face down, and it does not oblige to play."""
    r = rules(players=3, bessern=True)
    deck = stack(WEIS_131)
    res, log = HJ.play_stacked(r, ["p1=baseline(besser=400,play=400)", "p2=random(p=1,d=0)",
                                   "p3=random(p=1,d=0)"], deck, log=True)
    d = log.iloc[0].to_dict()
    assert d["tcard"] == deck[32] == C.parse_card("9s") and d["trump"] == S
    # p1 swaps its three cheapest plain cards (fewest points, then weakest): 6d 8d 9h
    assert d["bess0"] == C.mask(C.parse("6d 8d 9h")) and d["bess1"] == d["bess2"] == -1
    assert d["choice0"] == 0 and res["p1_play"] == 0 and d["blindpos"] == -1
    ref.check_deal(d, r)
    rows, log = HJ.play_logged(r, None, n=300, seed=2)
    assert (log.bess0 >= 0).mean() > 0.1 and rows.p1_blind.sum() == rows.exchanges.sum() == 0


def test_a_deal_block_holds_the_longest_deal():
    """Every logged deal's events fit its block of ``BLOCK_W`` (an overrun would lose the
    scores to the next deal's events, which ``deal_columns`` refuses): random players who play
    often and take every optional act (Weis, Stöck, the six, the Bessern), over whole games of
    four and of three with Bessern; every block ends with its scores and the -1 padding, and
    the fullest is within the width."""
    from simkit.core.registry import parse_strategies
    from simkit.engines.moves import split_event
    fullest, blocks = 0, 0
    for game, P in [("handjass(unit=game)", 4), ("handjass(unit=game,players=3,bessern=true)", 3)]:
        spec, r = simkit.parse_game(game)
        strategies = parse_strategies(spec, r, [f"p{k}=random(p=0.9,d=1)" for k in range(1, P + 1)])
        R, S, W = HJ.prepare(r, strategies)
        n, nm = 40, len(E.metrics(r))
        log = np.zeros((n, len(E.log_columns(r))), np.int64)   # no -1 but what the kernel writes
        E.run_deals(R, S, W, stream_state(3, 0), n, np.zeros((2, nm)), np.zeros((n, nm)), log)
        for i in range(n):
            for j in range(min(int(log[i, E.H.played]), E.log_deals(r))):
                block = log[i, E.NHEAD + j * E.BLOCK_W:E.NHEAD + (j + 1) * E.BLOCK_W].tolist()
                used = block[:block.index(-1)] if -1 in block else block
                assert all(e == -1 for e in block[len(used):])
                kinds = [split_event(e)[0] for e in used]
                assert kinds[-1] == E.E_SCORE and kinds.count(E.E_SCORE) == P
                E.deal_columns(used)
                fullest, blocks = max(fullest, len(used)), blocks + 1
    assert blocks > 1200 and 100 <= fullest <= E.BLOCK_W
