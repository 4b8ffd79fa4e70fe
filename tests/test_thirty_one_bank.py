"""«31» with a bank (rule text 002 lines 84-98): stacked deals worked from the text, the plain
reference replaying logged deals, the exact analysis against the simulator (tolerances in
standard errors, n stated, fixed seeds), the baseline against random, line 97's remark."""
from __future__ import annotations

import numpy as np
import pytest

import simkit
from simkit.core.registry import resolve_strategies
from simkit.core.rng import stream_state
from simkit.engines.moves import split_event
from simkit.errors import SimkitError
from simkit.games import parse_game
from simkit.games.thirty_one_bank import engine as E
from simkit.games.thirty_one_bank import exact as X
from simkit.games.thirty_one_bank import play_stacked, prepare
from tests import thirty_one_bank_reference as ref


def rules(text="thirty_one_bank"):
    return parse_game(text)[1]


def chunk(game, strategies=(), n=1000, seed=5, log=False, pack_cards=None):
    spec, r = parse_game(game)
    S = resolve_strategies(spec, r, list(strategies))
    names = [m.name for m in spec.metrics(r)]
    lg = np.zeros((n, len(spec.log_columns(r))), np.int64) if log else np.zeros((0, 1), np.int64)
    R, St, W = prepare(r, S, None, pack_cards)
    rows = np.zeros((n, len(names)))
    spec.kernel(R, St, W, stream_state(seed, 0), n, np.zeros((2, len(names))), rows, lg)
    return r, S, names, rows, lg


# --- hand values and stacked deals from the text -------------------------------------------

def test_hand_values_line_91():
    """An ace is 1 or 11 at the holder's choice, pictures 10, the hand the sum of all cards."""
    p = lambda s: [int(c) for c in simkit.core.cards.parse(s)]  # noqa: E731
    assert ref.best(p("As Kd Qh")) == 31 == E.best(21, 1)
    assert ref.best(p("As Ad 9h")) == 31 == E.best(11, 2)     # both aces 11
    assert ref.best(p("As Ad Ah")) == 23 == E.best(3, 3)      # only two can be 11
    assert ref.best(p("As Kd Qh 5c")) == 26 == E.best(26, 1)  # the ace falls back to 1
    assert ref.best(p("10s Jd 2h")) == 22


def test_stacked_dealt_31_is_paid_at_once():
    """Line 92: p1 dealt A-K-Q shows 31 and is paid stake31; the banker plays on against p2."""
    r = rules("thirty_one_bank(punters=2)")
    # deal order: p1 p2 banker, three times; then p2's draws, then the banker's
    m = play_stacked(r, ["p1=stand_at", "p2=stand_at(20,20)"],
                     "As 10c 9d Kd Jc 8h Qh 2c 9s 3h Kc")
    assert m["p1_dealt31"] == 1 and m["p1_result"] == 2.0
    # p2: 10+J+2 = 22, stands (t=20); banker 9+8+9 = 26 < 27 draws 3: 29 > 22: p2 pays 2
    assert m["p2_result"] == -2.0 and m["banker_total"] == 29
    assert m["bank_result"] == 0.0


@pytest.mark.parametrize("both31,p1", [("punter", 2.0), ("push", 0.0)])
def test_stacked_banker_31_collects_from_all_but_a_31(both31, p1):
    """Line 92: the banker dealt 31 collects from every punter without 31; nobody draws."""
    r = rules(f"thirty_one_bank(punters=2,both31={both31})")
    m, log = play_stacked(r, None, "As 2c Ad Kd 3c Ah Qh 4c 9s 5c 5d", log=True)
    assert m["banker_dealt31"] == 1 and m["p2_result"] == -2.0 and m["p1_result"] == p1
    assert (log[:9] >= 0).all() and (log[9:] == -1).all()   # nine cards dealt, no more


def test_stacked_bust_pays_banker_bust_pays_the_rest():
    """Line 93: over 31 pays 2 at once; line 94: a banker over 31 pays every punter still in."""
    r = rules("thirty_one_bank(punters=2)")
    # p1 10 5 8 = 23 draws (t=27) K: 33 bust; p2 9 9 9 = 27 stands;
    # banker 7 6 5 = 18 draws 8: 26, draws 10: 36 bust
    m = play_stacked(r, None, "10s 9c 7d 5s 9d 6h 8s 9h 5c Kc 8d 10d")
    assert m["p1_bust"] == 1 and m["p1_result"] == -2.0
    assert m["banker_bust"] == 1 and m["p2_result"] == 2.0 and m["banker_total"] == 32
    assert m["bank_result"] == 0.0


def test_stacked_equal_totals_neither_pays():
    """Line 94: lower pays 2, higher receives 2, equal neither."""
    r = rules("thirty_one_bank(punters=3)")
    # p1 10 10 8 = 28, p2 10 10 7 = 27, p3 10 10 9 = 29; banker 10 10 8 = 28 stands
    m = play_stacked(r, None, "10s 10c 10d 10h Ks Kc Kd Kh 8s 7s 9s 8h")
    assert (m["p1_push"], m["p2_result"], m["p3_result"]) == (1.0, -2.0, 2.0)
    assert m["bank_result"] == 0.0 and m["banker_total"] == 28


def test_stacked_talia_reshuffles_the_spent_cards():
    """Lines 95-96: dealing goes on through the pack; a pack spent mid-round takes back the
    spent cards of the earlier rounds (in order, for a stacked deck) and the talia ends."""
    r = rules("thirty_one_bank(unit=talia)")
    # round 1: p1 10 K Q = 30, banker 9 8 9 = 26 draws 2: 28, p1 wins; round 2 from the five
    # cards left: p1 3 5 7, banker 4 6 and, the pack spent, the first spent card (10s): 20;
    # p1 buys 9c (24) and Kd: over 31
    cards = "10s 9c Kd 8h Qs 9d 2c 3c 4c 5c 6c 7c"
    m, log = play_stacked(r, None, cards, log=True)
    kinds = [split_event(e)[0] for e in log if e >= 0]
    assert m["rounds"] == 2 and m["reshuffles"] == 1
    assert kinds.count(E.E_RESHUFFLE) == 1
    want = ref.replay(r, resolve_strategies(simkit.get_game("thirty_one_bank"), r, None),
                      [int(x) for x in log], simkit.core.cards.parse(cards))
    assert {k: v for k, v in want.items() if v} == {k: v for k, v in m.items() if v}
    assert (m["p1_result"], m["p1_bust"], m["banker_total"]) == (0.0, 1.0, 48.0)


# --- the plain reference, on many random deals ---------------------------------------------

@pytest.mark.parametrize("game,strs,n", [
    ("thirty_one_bank(punters=3)", ["p1=stand_at", "p2=count", "p3=random"], 1500),
    ("thirty_one_bank(unit=talia,punters=2)", ["p1=count", "p2=random(0.3)"], 200),
    ("thirty_one_bank(preset=three_decks)", ["p1=count(0.5,27)", "p3=random"], 40),
    ("thirty_one_bank(unit=talia,punters=7,short_pack=stand,both31=push)", ["p2=count"], 100),
    ("thirty_one_bank(unit=talia,punters=4,min_cards=20,decks=2,stake31=3)", [], 100),
    ("thirty_one_bank(punters=2,banker_soft=29)", ["p2=count"], 1500),
    ("thirty_one_bank(unit=talia,punters=3,banker_stand=28,banker_soft=22)", [], 100)])
def test_random_deals_match_reference(game, strs, n):
    r, S, names, rows, log = chunk(game, strs, n, log=True)
    for i in range(n):
        m = ref.replay(r, S, [int(x) for x in log[i]])
        got = dict(zip(names, rows[i]))
        assert {k: v for k, v in got.items() if v} == pytest.approx(
            {k: v for k, v in m.items() if v}), (game, i)


# --- the fast round (round_coded) against the general one (play_unit) ---------------------

def both_kernels(game, strategies=(), n=20_000, seed=11):
    """The same rounds by E.run_coded and E.run_general: (acc, rows, cards, state after) each."""
    spec, r = parse_game(game)
    R, S, W = prepare(r, resolve_strategies(spec, r, list(strategies)), None)
    assert E.coded(R, S, W)
    M = len(spec.metrics(r))
    out = []
    for kernel in (E.run_coded, E.run_general):
        acc, rows, state = np.zeros((2, M)), np.zeros((n, M)), stream_state(seed, 3)
        cards = kernel(R, S, W, state, n, acc, rows, np.zeros((0, 1), np.int64))
        out.append((acc, rows, cards, state))
    return out


@pytest.mark.parametrize("game,strs", [
    ("thirty_one_bank", []),
    ("thirty_one_bank(banker_stand=32,both31=push)", ["p1=stand_at(32,32)"]),
    ("thirty_one_bank(banker_stand=2,stake31=0.5,bust_pays=0)", ["p1=stand_at(2,2)"]),
    ("thirty_one_bank(punters=2,banker_stand=20)", ["p1=stand_at(30,20)", "p2=stand_at(12,31)"]),
    ("thirty_one_bank(punters=3,both31=push,showdown_pays=1.5)", ["p3=stand_at(28,32)"]),
    ("thirty_one_bank(punters=7,banker_stand=31,banker_bust_pays=4)",
     [f"p{k}=stand_at({20 + k},{24 + k})" for k in range(1, 8)]),
    ("thirty_one_bank(punters=7,banker_stand=32)", [f"p{k}=stand_at(32,32)" for k in range(1, 8)]),
    ("thirty_one_bank(punters=2,banker_soft=29)", []),
    ("thirty_one_bank(banker_stand=27,banker_soft=21)", [])])
def test_coded_round_equals_the_general_round(game, strs):
    """20,000 rounds each: the same cards, row by row the same metrics, the same sums (every
    payment a multiple of 1/2, so both sums are exact), the stream left in the same state."""
    (a1, r1, c1, s1), (a2, r2, c2, s2) = both_kernels(game, strs)
    assert c1 == c2 and (s1 == s2).all()
    assert np.array_equal(r1, r2)
    assert np.array_equal(a1, a2)


def test_coded_sums_of_an_inexact_payment():
    """Payments a float cannot sum exactly (0.1): the counted sums agree with the round-by-round
    ones to rounding (the rows themselves stay equal)."""
    (a1, r1, _, _), (a2, r2, _, _) = both_kernels("thirty_one_bank(punters=2,showdown_pays=0.1)")
    assert np.array_equal(r1, r2)
    np.testing.assert_allclose(a1, a2, rtol=1e-12, atol=1e-9)


@pytest.mark.parametrize("game,strs", [
    ("thirty_one_bank(unit=talia)", []), ("thirty_one_bank(decks=2)", []),
    ("thirty_one_bank", ["p1=count"]), ("thirty_one_bank(punters=2)", ["p2=random"])])
def test_general_round_where_the_coded_one_does_not_apply(game, strs):
    spec, r = parse_game(game)
    assert not E.coded(*prepare(r, resolve_strategies(spec, r, strs), None))
    stacked = simkit.core.cards.parse("As Kd Qh Jc 10s 9d 8h 7c 6s 5d 4h 3c 2s 2d")
    r1 = rules()
    assert not E.coded(*prepare(r1, resolve_strategies(spec, r1, []), stacked)), "stacked"


def test_coded_table_has_one_owner_a_slot():
    from simkit.core.deals import check_table
    t = E.coded_table(rules("thirty_one_bank(punters=2)"))
    check_table(t, E.M.bank_result, E.CODE_BITS)
    with pytest.raises(ValueError, match="owner"):
        check_table(t, E.Q.result, E.CODE_BITS)  # p1's net as the direct slot
    t[1, E.WIN, E.Q.win] = 1.0              # p2's table writing p1's win
    with pytest.raises(ValueError, match="owner"):
        check_table(t, E.M.bank_result, E.CODE_BITS)


# --- exact analysis against the simulator ------------------------------------------------

@pytest.fixture(scope="module")
def fresh():
    """Exact metrics of the default punter from a fresh pack (one evaluation, kept)."""
    return X.evaluate("thirty_one_bank", "stand_at")


def test_banker_alone_exact_rationals():
    d = X.banker_distribution("thirty_one_bank")
    assert sum(d.values()) == 1
    # dealt 31: A + two ten-valued (3 orders), or two aces + a nine (3 orders), of 52*51*50
    assert d["banker_31_dealt"] == X.Fraction(3 * 4 * 16 * 15 + 3 * 4 * 3 * 4, 52 * 51 * 50)
    assert set(d) == {"banker_31_dealt", "banker_bust"} | {f"banker_{t}" for t in range(27, 32)}
    d2 = X.banker_distribution("thirty_one_bank(banker_stand=2)")
    assert "banker_bust" not in d2 and sum(d2.values()) == 1   # he stands on his three cards


def test_banker_hands_against_a_brute_force_order_recursion():
    """The multiset enumeration (orders counted once per rules) against following every card
    order, on a small depleted pack (banker_stand=24)."""
    seen = "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 5c 5d 6c 7c 8c Ks Kh Kd Kc Qs Qh"
    r = rules("thirty_one_bank(banker_stand=24)")
    counts = X._Setup(r).remaining(seen)
    got = X.banker_distribution(r, seen)
    want = ref.banker_orders(counts, 24)
    assert got == want


def test_exact_matches_simulation_fresh_pack(fresh):
    """n = 200,000 rounds, seed 5: every metric within 4 standard errors of its exact value,
    and the banker's final-total histogram by a chi-square test (p > 1e-4)."""
    n = 200_000
    _, _, names, rows, _ = chunk("thirty_one_bank", n=n)
    for k, name in enumerate(names):
        if name in fresh:
            se = rows[:, k].std() / np.sqrt(n)
            assert abs(rows[:, k].mean() - fresh[name]) < 4 * se + 1e-12, name
    obs = np.bincount(rows[:, names.index("banker_total")].astype(int), minlength=33)
    exp = np.array([fresh.get(f"banker_total_{b}", 0.0) for b in range(33)]) * n
    keep = exp > 20
    assert obs[~keep].sum() <= 20 + 5 * np.sqrt(20)
    chi2 = ((obs[keep] - exp[keep]) ** 2 / exp[keep]).sum()
    from scipy.stats import chi2 as chi2_dist
    assert chi2_dist.sf(chi2, keep.sum() - 1) > 1e-4, chi2


def test_exact_matches_simulation_depleted_pack():
    """A pack with 18 cards seen (most tens and the low cards gone), the count strategy:
    n = 100,000 rounds from that pack, p1_result and banker_bust within 4 SE."""
    seen = "Ks Kh Kd Kc Qs Qh Qd Qc Js Jh 10s 10h 2c 2d 3c 3d 4c 5c"
    ex = X.evaluate("thirty_one_bank", "count", seen=seen)
    left = [c for c in E.pack(rules()) if c not in set(simkit.core.cards.parse(seen))]
    n = 100_000
    _, _, names, rows, _ = chunk("thirty_one_bank", ["p1=count"], n=n, seed=7,
                                 pack_cards=np.array(left, np.uint8))
    for name in ("p1_result", "banker_bust", "p1_bust", "banker_idle"):
        x = rows[:, names.index(name)]
        assert abs(x.mean() - ex[name]) < 4 * x.std() / np.sqrt(n), name


def test_exact_best_threshold_is_the_default(fresh):
    """The default stand_at is the exact best pair from a fresh pack (neighbours checked)."""
    df = X.thresholds("thirty_one_bank", range(24, 27), range(27, 30))
    best = df.loc[df.p1_result.idxmax()]
    spec = simkit.get_game("thirty_one_bank")
    d = resolve_strategies(spec, rules(), None)[0].values
    assert (int(best.t), int(best.soft)) == (d["t"], d["soft"])
    assert best.p1_result == pytest.approx(fresh["p1_result"], abs=1e-12)


def test_solve_exact_through_the_cli(capsys):
    """``simkit solve thirty_one_bank --row banker_stand=.. --col p1.t=.. --exact`` (once a
    KeyError traceback: the exact grid named its columns t/soft): every cell is the bank's exact
    edge against stand_at(t, soft) with soft where the simulation plays it (the default 28, or
    the -s strategy's), and a strategy the exact grid cannot play is refused in one line."""
    import io
    import pandas as pd
    from simkit.cli import main

    def solve(*extra):
        rc = main(["solve", "thirty_one_bank", "--row", "banker_stand=26..27", "--col",
                   "p1.t=24..25", "--exact", "--format", "csv", *extra])
        cap = capsys.readouterr()
        return rc, cap.out, cap.err

    for extra, soft in (((), 28), (("-s", "p1=stand_at(soft=27)"), 27)):
        rc, out, err = solve(*extra)
        assert rc == 0 and "Traceback" not in err, err
        t = pd.read_csv(io.StringIO(out)).set_index(["banker_stand", "p1.t"])
        assert len(t) == 4 and (t["metric"] == "-p1_result").all()
        for b in (26, 27):
            for x in (24, 25):
                want = X.evaluate(f"thirty_one_bank(banker_stand={b})", f"stand_at({x},{soft})")
                assert t.loc[(b, x), "mean"] == pytest.approx(want["bank_result"], abs=1e-12)
    rc, out, err = solve("-s", "p1=count")
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1 and lines[0].startswith("simkit: error:"), err


def test_exact_refuses_what_it_cannot_honour(capsys):
    """``simkit exact`` answers the question asked or refuses it in one line (exit status 2):
    a one-deck pack holds one A♠, so ``seen=As,As`` is no pack (it once computed anyway); two
    decks hold two.  A banker_stand grid plays stand_at(p1.t, p1.soft), so a -s strategy beside
    it is refused, as is an axis the analysis does not have."""
    from simkit.cli import main

    def refused(*argv, phrase):
        assert main(["exact", "thirty_one_bank", *argv]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("simkit: error:") and phrase in err[0], err

    refused("--grid", "seen=As,As", phrase="seen: As appears 2 times; the pack holds it 1 time")
    refused("-r", "decks=2", "--grid", "seen=As,As,As", phrase="As appears 3 times; the pack holds it 2 times")
    refused("--grid", "banker_stand=26..27", "-s", "p1=count", phrase="drop -s")
    refused("--grid", "p1.q=0.3,0.4", phrase="not p1.q")
    two = X._Setup(rules("thirty_one_bank(decks=2)")).remaining("As As")
    assert two.sum() == X._Setup(rules("thirty_one_bank(decks=2)")).full.sum() - 2


@pytest.mark.slow
def test_banker_default_is_the_minimax_threshold():
    """The default banker_stand=27 is the bank's best threshold against a punter answering
    every threshold with his best stand_at (exact, banker 26..28, punter t 24..26, soft 28).
    The punter's ranges are narrowed to save time: a narrower reply can only overstate the
    other thresholds' edge, so 27 winning here means it wins against the full best reply."""
    g = X.grid("thirty_one_bank", range(26, 29), range(24, 27), [28])
    assert X.bank_best_threshold(g)["banker_stand"] == rules().banker_stand == 27


@pytest.mark.slow
def test_talia_exact_rounds_against_the_simulated_talias():
    """Over whole talias (unit=talia, short_pack=stand, min_cards=20, so every round starts
    with at least 20 cards; banker_stand=22 and stand_at(20,22) keep it cheap): a talia's
    simulated p1_result and p1_win against the sums of its rounds' exact values from their
    compositions (read from the move log).  30 talias, seed 2, paired per talia, within 4
    standard errors; and the exact values do move with the pack."""
    df = X.talia_counting("thirty_one_bank(unit=talia,short_pack=stand,min_cards=20,"
                          "banker_stand=22)", talias=30, seed=2, strategy="stand_at(20,22)",
                          best=False)
    assert df.exact.all()
    per = df.groupby("talia").agg(exact=("fixed", "sum"), sim=("talia_result", "first"),
                                  win=("fixed_win", "sum"), sim_win=("talia_win", "first"))
    for sim, exact in (("sim", "exact"), ("sim_win", "win")):
        d = per[sim] - per[exact]
        assert abs(d.mean()) < 4 * d.std() / np.sqrt(len(d)), sim
    assert df[df["round"] > 0].fixed.std() > 0.005


def test_line_97_remark():
    """Line 97: with 26 or 27 a punter gains nothing by buying, the banker having to draw.
    Exactly, for every dealt hard hand of 26 or 27 (fresh pack, default banker): buying one
    card, or buying and playing on by the best threshold, is worth less than standing."""
    df = X.remark_97("thirty_one_bank", t=25, soft=28)
    hard = df[~df.soft]
    assert set(hard.total) == {26, 27} and len(hard) == 7     # 6-10-10 ... 9-9-9
    assert (hard.gain_one < 0).all() and (hard.gain_on < 0).all()
    # a soft 26 or 27 cannot go over on the next card (the ace falls back to 1): there the
    # remark fails, and buying gains
    assert (df[df.soft].gain_one > 0).all()


# --- strategies -----------------------------------------------------------------------------

def test_baseline_beats_random():
    """Paired on the same rounds (n = 20,000, seed 3): stand_at's p1_result exceeds
    random(0.5)'s by more than 5 standard errors of the paired difference."""
    a = simkit.run("thirty_one_bank", n=20_000, seed=3, rows=True, progress=False)
    b = simkit.run("thirty_one_bank", n=20_000, seed=3, rows=True, progress=False,
                   strategies=["p1=random"])
    d = a.rows["p1_result"].to_numpy() - b.rows["p1_result"].to_numpy()
    assert d.mean() > 5 * d.std() / np.sqrt(d.size)


def test_bad_input():
    with pytest.raises(SimkitError, match="punters"):
        rules("thirty_one_bank(punters=9)")
    with pytest.raises(SimkitError, match="short_pack"):
        rules("thirty_one_bank(short_pack=never)")
    with pytest.raises(SimkitError, match="one punter"):
        X.evaluate("thirty_one_bank(punters=2)")
    with pytest.raises(SimkitError, match="seen: Ad appears 2 times; the pack holds it 1 time"):
        X.evaluate("thirty_one_bank", seen="As Ad Ah Ac Ad")
    with pytest.raises(SimkitError, match="random"):
        X.evaluate("thirty_one_bank", "random")
    with pytest.raises(SimkitError, match="appears 2 times"):
        play_stacked(rules(), None, "As As")


@pytest.mark.parametrize("game,strs", [
    ("thirty_one_bank(preset=three_decks)", ["p1=random(0.9)", "p2=random(0.9)"]),
    ("thirty_one_bank(unit=talia,punters=7,min_cards=1)",
     [f"p{k}=random(0.95)" for k in range(1, 8)])])
def test_move_log_row_holds_the_longest_talias(game, strs):
    """The move log's row (twice the pack and four more) holds every card event of a talia
    whose punters buy almost always, reshuffles included: the card events of each row are its
    cards dealt (``run_general`` returns their sum), and a reshuffle appears at most once."""
    spec, r = parse_game(game)
    S = resolve_strategies(spec, r, strs)
    n = 300
    lg = np.zeros((n, len(spec.log_columns(r))), np.int64)
    R, St, W = prepare(r, S, None)
    rows = np.zeros((n, len(spec.metrics(r))))
    cards = E.run_general(R, St, W, stream_state(9, 0), n, np.zeros((2, rows.shape[1])), rows, lg)
    kinds = [[split_event(e)[0] for e in row if e >= 0] for row in lg]
    assert sum(k.count(E.E_DEAL) + k.count(E.E_DRAW) for k in kinds) == cards
    assert max(k.count(E.E_RESHUFFLE) for k in kinds) == 1
    assert max(len(k) for k in kinds) > lg.shape[1] // 2      # long talias were played
