"""Piquet: the text's worked examples, the maximum deal, the reference replay of logged deals,
the exact endgame against brute force, exact deal probabilities against the simulator, and the
baseline against random play."""
from __future__ import annotations

import math

import numpy as np
import pytest

import simkit
from simkit.core import cards as C
from simkit.core import play
from simkit.core.registry import resolve_strategies
from simkit.core.rng import stream_state
from simkit.errors import SimkitError
from simkit.games import piquet as P
from simkit.games.piquet import engine as E
from simkit.games.piquet import exact as X
from tests import piquet_reference as ref

SPEC = P.SPEC


def rules(**kw):
    return SPEC.rules.build(kw)


# --------------------------------------------------------------------------- the text's examples

def test_repique_examples_lines_166_167():
    """Example 1: Elder 7 point, sequences 15+4+3, a trio: 32, repique; not if Younger had called
    a blank (it counts first).  Example 2: point and sequence equal, Younger's two quatorzes and a
    trio (31) earn the repique, not if Elder had scored for blank, point or sequence."""
    z = np.zeros(4, np.int64)
    assert E.repique(np.array([0, 7, 22, 3]), z) == 0
    assert 7 + 22 + 3 + 60 == 92
    assert E.repique(np.array([0, 7, 22, 3]), np.array([10, 0, 0, 0])) == -1
    assert E.repique(z, np.array([0, 0, 0, 31])) == 1
    for k in range(3):
        e = np.zeros(4, np.int64)
        e[k] = 10 if k == 0 else 3
        assert E.repique(e, np.array([0, 0, 0, 31])) == -1
    # a pique is not a repique: 29 from combinations is not enough
    assert E.repique(np.array([0, 7, 22, 0]), z) == -1


def test_partie_examples_line_183():
    """Napoleon 154 v Josephine 113 scores 141; Josephine 154 v Napoleon 93 scores 347."""
    assert E.partie_score(154, 113, 100) == (141, False)
    assert E.partie_score(93, 154, 100) == (-347, True)
    assert ref.partie_score(154, 113) == 141 and ref.partie_score(93, 154) == -347


ELDER_TAKE1 = ["p1=baseline(take=1)", "p2=baseline(ytake=0)"]


def test_maximum_deal_170_line_191():
    """Elder with A K Q of every suit after the exchange: point 3, four tierces, three quatorzes,
    repique, every trick and capot: 170."""
    elder = "Ac Kc Qc Ad Kd Qd Ah Kh Qh As Ks 7s"          # the 7s goes, the Qs comes
    younger = "Jc Tc 9c Jd Td 9d Jh Th 9h Js Ts 9s"
    talon = "Qs 8c 7c 8d 7d 8h 7h 8s"
    res, log = P.play_stacked(rules(), ELDER_TAKE1, " ".join([elder, younger, talon]), log=True)
    assert res["p1_points"] == 170 and res["p2_points"] == 0
    assert res["repique"] == 1 and res["capot"] == 1 and res["pique"] == 0
    assert ref.replay(rules(), log)["p1_points"] == 170


def test_repique_hand_and_the_batches():
    """Point 6, a sixieme and a tierce, a quatorze and a trio: 42 from combinations alone and
    repique (102 before the tricks); the same deal given in batches of three plays the same."""
    elder = "Ac Kc Qc Jc Tc 9c Ad Kd Qd Ah As 7s"
    younger = "Qh Jh Th 9h 8h 7h Ks Qs Js Ts 9s 8s"
    talon = "Kh 8c 7c Jd Td 9d 8d 7d"
    deck = C.parse(" ".join([elder, younger, talon]))
    res, log = P.play_stacked(rules(), ELDER_TAKE1, deck, log=True)
    assert res["repique"] == 1 and res["p1_points"] >= 102 + 1
    assert ref.replay(rules(), log)["p1_points"] == res["p1_points"]
    batches = []
    for j in range(4):
        batches += list(deck[3 * j:3 * j + 3]) + list(deck[12 + 3 * j:12 + 3 * j + 3])
    again = P.play_stacked(rules(deal_batch=3), ELDER_TAKE1, batches + list(deck[24:]))
    assert again == res


def test_sinking_gives_the_class_away():
    """The repique hand again, Elder sinking every class worth under 20 (line 157): his point
    (6), sequences (19) and sets (17) go undeclared, Younger's point and sequences are good, and
    their 6 + 16 + 16 = 38 before Elder scores anything are a repique for Younger."""
    elder = "Ac Kc Qc Jc Tc 9c Ad Kd Qd Ah As 7s"
    younger = "Qh Jh Th 9h 8h 7h Ks Qs Js Ts 9s 8s"
    talon = "Kh 8c 7c Jd Td 9d 8d 7d"
    strats = ["p1=baseline(take=1,sink=20)", "p2=baseline(ytake=0)"]
    res, log = P.play_stacked(rules(), strats, " ".join([elder, younger, talon]), log=True)
    assert res["repique"] == 1 and res["pique"] == 0
    decl = [P.decode(int(e))[2] for e in log if e >= 0 and P.decode(int(e))[0] == "DECL"]
    assert decl == [0 | (3 << 3)]                 # Elder declares nothing; Younger point, sequence
    got = ref.replay(rules(), log)
    assert got["p1_points"] == res["p1_points"] and got["p2_points"] == res["p2_points"]
    assert res["p2_points"] >= 6 + 16 + 16 + 60  # point 6, two sixiemes (Q-, K-high), repique


def test_bad_input():
    with pytest.raises(SimkitError, match="deal_batch"):
        rules(deal_batch=5)
    with pytest.raises(SimkitError, match="partie_deals"):
        rules(partie_deals=5)
    with pytest.raises(SimkitError, match="32 cards a deal"):
        P.play_stacked(rules(), None, C.parse("Ac Kc"))
    with pytest.raises(SimkitError):
        rules(unit="rubber")


# --------------------------------------------------------------------------- the reference replay

CASES = [
    ("deal", {}, None),
    ("deal", {}, ["p1=random", "p2=random"]),
    ("deal", {"tricks": "flat", "void_suit": True}, ["p2=random"]),
    ("deal", {"pique_cards": True}, ["p1=baseline(take=3,sink=10)", "p2=baseline(ytake=1)"]),
    ("partie", {}, ["p2=random"]),
    ("partie", {"void_suit": True}, None),
    ("game", {"target": 100}, ["p1=random"]),
    ("deal", {}, ["p1=clairvoyant(exact=3)", "p2=clairvoyant(exact=3)"]),
]


@pytest.mark.parametrize("unit,opts,strats", CASES)
def test_reference_replay(unit, opts, strats):
    r = rules(unit=unit, **opts)
    n = 60 if unit != "deal" else 300
    rows, log = P.play_logged(r, strats, n=n, seed=3)
    keys = ["p1_points", "p2_points", "p1_net", "p1_win", "p2_win", "draw", "deals", "rubicon",
            "carte_blanche", "pique", "repique", "capot", "elder_wins", "younger_wins",
            "elder_margin"]
    seen = set()
    for j in range(n):
        got = ref.replay(r, log[j])
        for k in keys:
            assert got[k] == rows[k][j], (unit, opts, j, k, got[k], rows[k][j])
        seen |= {k for k in ("pique", "repique", "capot", "rubicon") if got[k]}
        if unit == "game" and not got["draw"]:       # play stops the moment one reaches 100
            assert max(got["p1_points"], got["p2_points"]) >= r.target
            assert min(got["p1_points"], got["p2_points"]) < r.target
    if unit == "deal" and strats is None:
        assert {"pique", "repique", "capot"} <= seen      # the replay met each bonus


# --------------------------------------------------------------------------- the exact endgame

def brute(r, he, hy, leader, te, pq):
    """Plain minimax, no memo: Elder's points minus Younger's to the deal's end."""
    if not he:
        return 0
    lh, fh = (he, hy) if leader == 0 else (hy, he)
    best = None
    for cl in lh:
        follow = [c for c in fh if c >> 4 == cl >> 4] or fh
        inner = None
        for cf in follow:
            w = 1 - leader if (cf >> 4 == cl >> 4 and cf > cl) else leader
            te2 = te + (w == 0)
            he2 = [c for c in he if c not in (cl, cf)]
            hy2 = [c for c in hy if c not in (cl, cf)]
            last = not he2
            pts = [0, 0]
            live = pq >= 0
            events = []                            # (who, points, is the end bonus)
            if r.tricks == "flat":
                events.append((w, 1, False))
            else:
                events.append((leader, 1, False))
                if w != leader:
                    events.append((w, 1, False))
                if last:
                    events.append((w, 1, False))
            if last:
                if te2 in (0, 12):
                    events.append((0 if te2 == 12 else 1, 40, True))
                elif r.tricks == "flat":
                    events.append((w, 10, True))
                elif te2 != 6:
                    events.append((0 if te2 > 6 else 1, 10, True))
            for who, p, is_bonus in events:
                pts[who] += p
                if who == 1:
                    live = False
                elif live and pq + pts[0] >= 30 and (not is_bonus or r.pique_cards):
                    pts[0] += 30
                    live = False
            v = pts[0] - pts[1]
            if not last:
                v += brute(r, he2, hy2, w, te2, pq + pts[0] if live else -1)
            if inner is None or (v < inner if leader == 0 else v > inner):
                inner = v
        if best is None or (inner > best if leader == 0 else inner < best):
            best = inner
    return best


@pytest.mark.parametrize("opts", [{}, {"tricks": "flat"}, {"pique_cards": True}])
def test_exact_solver_matches_brute_force(opts):
    r = rules(**opts)
    st = resolve_strategies(SPEC, r, ["p1=clairvoyant"])
    R, S, W = P.prepare(r, st)
    rng = np.random.default_rng(5)
    for trial in range(120):
        k = 1 + trial % 4                          # tricks left
        cards = rng.permutation(E.DECK)[:2 * k]
        he, hy = sorted(cards[:k].tolist()), sorted(cards[k:].tolist())
        leader = int(rng.integers(2))
        te = int(rng.integers(0, 13 - k)) if trial % 3 else (12 - k) * (trial % 2)
        pq = int(rng.integers(20, 30)) if trial % 5 == 0 else -1
        mask = lambda cs: sum(1 << c for c in cs)  # noqa: E731
        got = E.position_value(R, W, mask(he), mask(hy), leader, te, pq)
        assert got == brute(r, he, hy, leader, te, pq), (trial, he, hy, leader, te, pq)


@pytest.mark.slow
def test_exact_play_realises_the_solver_value():
    """Both seats exact for all twelve tricks: the points of the play (tricks, pique, cards,
    capot) equal the solver's value at the first lead, on logged deals (the engine's own scoring
    of the play against the solver's)."""
    r = rules()
    strats = ["p1=clairvoyant(exact=12)", "p2=clairvoyant(exact=12)"]
    rows, log = P.play_logged(r, strats, n=4, seed=21)
    st = resolve_strategies(SPEC, r, strats)
    R, S, W = P.prepare(r, st)
    for j in range(4):
        got = ref.replay(r, log[j])
        score, counts = got["deal_details"][0]
        ce, cy = counts["combinations"]
        he, hy = counts["hands"]
        live = counts["repique"] == 0 and cy == 0
        mask = lambda cs: sum(1 << c for c in cs)  # noqa: E731
        value = E.position_value(R, W, mask(he), mask(hy), 0, 0, ce if live else -1)
        assert (score[0] - ce) - (score[1] - cy) == value, j


# --------------------------------------------------------------------------- exact probabilities

def test_deal_probabilities_against_the_simulator():
    """Carte blanche, the longest suit, a quatorze, sequences of 3+/4+/5+ in Elder's dealt hand:
    exact (combinatorics) against 150,000 simulated deals, within 4.5 standard errors each."""
    n = 150_000
    r = rules()
    st = resolve_strategies(SPEC, r, ["p1=random", "p2=random"])
    _, rows, _ = play.run_chunk(SPEC, r, st, stream_state(2026, 0), n, rows=True)
    names = [m.name for m in SPEC.metrics(r)]
    col = lambda k: rows[:, names.index(k)]  # noqa: E731
    p = float(X.p_blank())                     # blanks per deal (either hand): 2p exactly
    assert abs(col("carte_blanche").mean() - 2 * p) < 4.5 * math.sqrt(2 * p * (1 - p) / n)
    checks = []
    for k, q in X.longest_suit().items():
        if q > 1e-3:
            checks.append(((col("dealt_longest") == k).mean(), q))
    checks.append((col("dealt_quatorze").mean(), X.p_quatorze()))
    for L in (3, 4, 5):
        checks.append(((col("dealt_run") >= L).mean(), X.p_run(L)))
    for freq, q in checks:
        q = float(q)
        assert abs(freq - q) < 4.5 * math.sqrt(q * (1 - q) / n), (freq, q)
    assert abs(sum(X.longest_suit().values()) - 1) == 0


# --------------------------------------------------------------------------- the baseline

def test_baseline_beats_random_in_both_seats():
    """n = 20,000 deals each way; the baseline's margin must exceed 10 standard errors."""
    for strats, sign in ((["p2=random"], 1), (["p1=random"], -1)):
        res = simkit.run("piquet", strategies=strats, n=20_000, seed=9, progress=False)
        est = res.estimates()["p1_net"]
        assert sign * est["mean"] > 10 * est["se"], (strats, est)


def test_exact_is_the_deprecated_name_of_clairvoyant():
    """Issue 30: the strategy that sees the opponent's hand is named ``clairvoyant``; ``exact``,
    its old name, still plays the very same deals (same parameters, same table)."""
    ks = SPEC.strategies
    assert [(p.name, p.default) for p in ks["exact"].params] == \
        [(p.name, p.default) for p in ks["clairvoyant"].params]
    assert "deprecated" in ks["exact"].doc and "opponent's hand" in ks["clairvoyant"].doc
    a, b = (simkit.run("piquet", strategies=[f"p1={k}(exact=2)"], n=300, seed=4,
                       progress=False).estimates()["p1_net"] for k in ("clairvoyant", "exact"))
    assert a == b
