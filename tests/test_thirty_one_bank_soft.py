"""Issue 30: a «31»-with-a-bank banker who hits soft totals (``banker_soft``): the exact
banker against following every card order, the exact round against the simulator, and a
stacked round (the plain reference replays are in tests/test_thirty_one_bank.py)."""

from simkit.core import cards as C
from simkit.games import parse_game
from simkit.games.thirty_one_bank import exact as X
from tests import thirty_one_bank_reference as ref


def test_banker_soft_zero_is_banker_stand():
    assert X.banker_distribution("thirty_one_bank(banker_soft=27)") == \
        X.banker_distribution("thirty_one_bank")


def test_soft_banker_against_a_brute_force_order_recursion():
    seen = "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 5c 5d 6c 7c 8c Ks Kh Kd Kc Qs Qh"
    r = parse_game("thirty_one_bank(banker_stand=24,banker_soft=29)")[1]
    got = X.banker_distribution(r, seen)
    want = ref.banker_orders(X._Setup(r).remaining(seen), 24, 29)
    assert got == want
    assert got != X.banker_distribution(parse_game("thirty_one_bank(banker_stand=24)")[1], seen)


def test_soft_banker_exact_against_simulation():
    """n = 200,000 rounds, seed 3: p1_result and the banker's bust rate within 4 SE."""
    import simkit
    game = "thirty_one_bank(banker_soft=29)"
    ex = X.evaluate(game, "stand_at")
    res = simkit.run(game, n=200_000, seed=3, progress=False).estimates()
    for name in ("p1_result", "banker_bust", "p1_bust"):
        assert abs(res[name]["mean"] - ex[name]) < 4 * res[name]["se"], name
    plain = X.evaluate("thirty_one_bank", "stand_at")
    assert ex["banker_bust"] > plain["banker_bust"]     # drawing on soft 27, 28 busts more


def test_stacked_banker_hits_soft_27():
    """p1 stands on 10+10+7 = 27; the banker holds A 6 K (soft 27): with banker_soft=28 he draws
    the 5 (hard 22: the ace falls back to 1) and loses to 27; by default he stands: a push."""
    from simkit.games.thirty_one_bank import play_stacked
    cards = "Kd As Qd 6h 7c Ks 5c"     # p1, banker, p1, banker, p1, banker; the banker's draw
    for game, total in (("thirty_one_bank", 27), ("thirty_one_bank(banker_soft=28)", 22)):
        spec, r = parse_game(game)
        m = play_stacked(r, ["p1=stand_at(20,20)"], C.parse(cards))
        assert m["banker_total"] == total, game
        assert m["p1_result"] == (0 if total == 27 else 2), game
