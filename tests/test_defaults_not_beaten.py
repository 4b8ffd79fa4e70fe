"""Issue 30: a game's default strategy is the strongest sensible player of its own family.

For every registered game whose default strategy has parameters (and Fan-Tan, whose family is
its five hint kinds), p1 plays the default changed in one parameter by one step each way (a
handful of variants) while every other seat plays the default; the variant's objective (the
game's, :func:`simkit.analysis.common.objective`; p2's is minus p1's in the two-player games
that report only p1's) is compared with the default's on the same deals (per-deal paired
differences, fixed seeds).  The default may not be worse than any variant by more than 3
standard errors of the paired difference.  ``n`` is stated per game in :data:`CASES`.

Left out: Hearts (``heuristic`` has no parameters), Old Maid (no decisions), Klaberjass's
``sight`` (it sees the other hand) and the parameters that switch a clairvoyant endgame on
(Piquet's and Durak's ``exact``).  A case the default is known to lose is marked xfail with the
measured margin (see the README's "Defaults" section).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import simkit
from simkit.analysis.common import objective
from simkit.games import GAMES, parse_game

pytestmark = pytest.mark.slow

def _steps(kind: str = "baseline", **defaults) -> list[str]:
    """``kind(name=default-1)``, ``kind(name=default+1)`` for each parameter, in order."""
    return [f"{kind}({k}={v + d})" for k, v in defaults.items() for d in (-1, 1)]


#: game -> (game string, seat varied, deals, seed, [p1's variants]).  Each variant changes one
#: parameter of the default by one step (a strategy string of the default kind).
CASES = {
    "ochko": ("ochko", "p1", 60_000, 11, ["stand_at(16)", "stand_at(18)"]),
    "ochko_session": ("ochko_session", "p1", 3_000, 11, ["fixed(t=16)", "fixed(t=18)"]),
    "gin": ("gin", "p1", 2_000, 11, ["threshold(9)", "threshold(knock=10,greedy=1)",
                                     "threshold(knock=10,block=1)"]),   # knock 10 is the top
    "klaberjass": ("klaberjass", "p1", 20_000, 11, [
        "heuristic(t1=50)", "heuristic(t1=70)", "heuristic(t2=40)", "heuristic(t2=60)",
        "heuristic(declare=0)", "heuristic(claim=0)", "heuristic(margin=10)"]),
    "crazy_eights": ("crazy_eights", "p1", 40_000, 11, [
        "baseline(eight_at=4)", "baseline(eight_at=6)", "baseline(call=0)",
        "baseline(call=2)"]),
    "fan_tan": ("fan_tan", "p1", 40_000, 11, ["sequence", "ends", "block"]),
    "durak": ("durak", "p1", 40_000, 11, [
        "baseline(trump_stock=6)", "baseline(trump_stock=10)", "baseline(max_trump=12)",
        "baseline(max_trump=14)", "baseline(throw_rank=13)", "baseline(late_trump=13)",
        "baseline(take_cost=12)", "baseline(take_cost=16)", "baseline(double=-1)",
        "baseline(double=2)"]),
    "stovkahra": ("stovkahra", "p1", 20_000, 11, [
        "baseline(lead_trumps=2)", "baseline(lead_trumps=4)", "baseline(save_last=0)",
        "baseline(save_first=0)", "baseline(declare=0)", "baseline(claim=0)"]),
    "thirty_one": ("thirty_one", "p1", 40_000, 11, _steps(
        knock=24, knock_first=25, swap_all=7, refuse=17, feed=27) + ["baseline(feed=40)"]),
    "thirty_one_2": ("thirty_one(players=2)", "p1", 40_000, 11, _steps(
        knock=24, knock_first=25, swap_all=7, feed=27)),
    "piquet": ("piquet", "p1", 20_000, 11, [
        "baseline(keep_guards=1)", "baseline(run_long=1)", "baseline(w_high=0)",
        "baseline(w_high=2)", "baseline(w_point=5)", "baseline(w_point=7)",
        "baseline(w_seq=1)", "baseline(w_seq=3)", "baseline(w_set=1)", "baseline(w_set=3)",
        "baseline(take=4)"]),
    "piquet_younger": ("piquet", "p2", 20_000, 11, [
        "baseline(keep_guards=1)", "baseline(run_long=1)", "baseline(ytake=3)",
        "baseline(w_high=0)", "baseline(w_high=2)", "baseline(w_point=5)",
        "baseline(w_point=7)", "baseline(w_seq=1)", "baseline(w_seq=3)"]),
    "handjass": ("handjass", "p1", 10_000, 11, [
        "baseline(keep_jack=0)", "baseline(play=50)", "baseline(play=60)",
        "baseline(play_more=0)", "baseline(play_more=8)"]),
    "handjass_3": ("handjass(players=3)", "p1", 10_000, 11, [
        "baseline(play=50)", "baseline(play=60)", "baseline(blind=50)", "baseline(blind=60)"]),
    "thirty_one_bank": ("thirty_one_bank", "p1", 60_000, 11, [
        "stand_at(t=24)", "stand_at(t=26)", "stand_at(soft=27)", "stand_at(soft=29)"]),
    "oklahoma": ("oklahoma", "p1", 1_500, 11, [
        "baseline(pile_min=2)", "baseline(hold=1)", "baseline(qs=0)", "baseline(joker=0)",
        "baseline(keep=3)", "baseline(keep=5)", "baseline(feed=1)"]),
    # p1 varied, partner p3 and the opponents default, on the objective net; b90/b120 act only
    # in unit=game (a single hand's minimum is 50), take_min=0 is out of range;
    # ask_max only when partner asks (ask=1, a variant); take_min2 and lone_min only where a
    # draw is two cards (two-hand, cutthroat: measured in the strategies' docstring)
    "canasta": ("canasta", "p1", 4_000, 11, [
        "baseline(b50=5)", "baseline(b50=7)", "baseline(take_min=2)", "baseline(pairs=0)",
        "baseline(wild_gap=2)", "baseline(wild_gap=4)", "baseline(freeze=1)",
        "baseline(freeze=4)", "baseline(b3_pile=0)", "baseline(b3_pile=2)", "baseline(feed=2)",
        "baseline(feed=4)", "baseline(go_out=2)", "baseline(ask=1)"]),
    # Cuban (003:84): wmeld, which acts only there, and b120, its table default (3; Cuban's
    # minimum 95 is met within b120's budget); b50/b90/b3_pile/feed/freeze do not act there
    "canasta_cuban": ("canasta(preset=cuban)", "p1", 4_000, 11, [
        "baseline(wmeld=0)", "baseline(wmeld=5)", "baseline(wmeld=7)", "baseline(b120=2)",
        "baseline(b120=4)", "baseline(wild_gap=2)", "baseline(take_min=2)"]),
    # Samba (003:71-81): its own lever seq_min, the draw-two take_min2, the initial budget and
    # the levers whose Samba value differs (strategies.BY_TABLE); go_out=2 is the rules' two
    # canastas, b90/b120 do not act in a single hand
    "canasta_samba": ("canasta(preset=samba)", "p1", 30_000, 12, [
        "baseline(seq_min=4)", "baseline(seq_min=6)", "baseline(seq_min=0)",
        "baseline(take_min2=2)", "baseline(take_min2=4)", "baseline(b50=4)",
        "baseline(pairs=0)", "baseline(b3_pile=1)", "baseline(feed=1)", "baseline(feed=3)",
        "baseline(wild_gap=2)", "baseline(ask=1)"]),
    # Bolivia (003:82): seq_min and wmeld, and the levers of its table
    "canasta_bolivia": ("canasta(preset=bolivia)", "p1", 20_000, 12, [
        "baseline(seq_min=4)", "baseline(seq_min=0)", "baseline(wmeld=4)", "baseline(wmeld=0)",
        "baseline(wild_gap=1)", "baseline(b50=4)", "baseline(take_min2=4)",
        "baseline(take_min2=6)", "baseline(freeze=0)", "baseline(freeze=4)",
        "baseline(b3_pile=3)", "baseline(b3_pile=5)", "baseline(feed=4)", "baseline(feed=6)",
        "baseline(pairs=0)",
        # the sequence levers (issue 27)
        "baseline(seq_first=0)", "baseline(seq_out=0)", "baseline(seq_take=0)",
        "baseline(seq_take=2)", "baseline(seq_keep=5)"]),
    # Brazilian (003:83, single hands): seq_min, wmeld and the levers of its table
    "canasta_brazilian": ("canasta(preset=brazilian)", "p1", 30_000, 12, [
        "baseline(seq_min=5)", "baseline(seq_min=7)", "baseline(wmeld=5)", "baseline(wmeld=7)",
        "baseline(take_min2=4)", "baseline(take_min2=6)", "baseline(b50=4)", "baseline(pairs=0)",
        "baseline(b3_pile=1)", "baseline(feed=1)", "baseline(feed=3)"]),
    # two-hand (003:55) and cutthroat (003:56-59): p1 varied against the table's defaults
    # (strategies.BY_TABLE); b90/b120 do not act in a single hand, go_out=2 is the rules' two
    # canastas, ask needs partners
    "canasta_two_hand": ("canasta(preset=two_hand)", "p1", 4_000, 11, [
        "baseline(b50=4)", "baseline(take_min2=3)", "baseline(take_min2=5)",
        "baseline(take_min2=6)", "baseline(pairs=0)", "baseline(wild_gap=1)",
        "baseline(wild_gap=2)", "baseline(b3_pile=2)", "baseline(b3_pile=4)", "baseline(feed=4)",
        "baseline(feed=6)", "baseline(freeze=3)", "baseline(freeze=5)"]),
    # two-hand's take_min2/b3_pile default is a mixture per role (strategies.TWO_HAND_MIX) and
    # its wild_gap the role's (TWO_HAND_WILD_GAP): p1 plays first (eldest), p2 deals; the
    # dealer's changes measured in its own seat
    "canasta_two_hand_dealer": ("canasta(preset=two_hand)", "p2", 4_000, 11, [
        "baseline(take_min2=3)", "baseline(take_min2=5)", "baseline(take_min2=6)",
        "baseline(b3_pile=2)", "baseline(b3_pile=4)", "baseline(wild_gap=0)",
        "baseline(wild_gap=2)", "baseline(feed=4)",
        "baseline(freeze=3)", "baseline(freeze=5)"]),
    "canasta_cutthroat": ("canasta(preset=cutthroat)", "p1", 4_000, 11, [
        "baseline(b50=5)", "baseline(b50=7)", "baseline(pairs=0)", "baseline(wild_gap=1)",
        "baseline(wild_gap=3)", "baseline(b3_pile=0)", "baseline(b3_pile=2)", "baseline(feed=1)",
        "baseline(freeze=1)", "baseline(lone_min=26)", "baseline(lone_min=28)"]),
    # the last seat, where every parameter acts (top_seat only there in full)
    "panguingue": ("panguingue", "p6", 6_000, 11, _steps(top=14, top_seat=0, pair=3, valle=1,
                                                         feed=4) + ["baseline(demand=0)",
                                                                  "baseline(borrow=0)"]),
}

#: the games with no parametrised default: why they are not in :data:`CASES`
NOT_APPLICABLE = {"hearts": "heuristic has no parameters", "old_maid": "no decisions to vary"}

#: (case, variant) -> why the default is known to lose to it (the measured margin, this file's
#: n and seed); the README's "Defaults" says why each default stays
KNOWN = {
    ("ochko", "stand_at(16)"): "stand_at(17) is the banker's own rule, kept as the reference "
                               "player; 16 gains 0.028 a round (SE 0.0019, n=60,000)",
    ("ochko_session", "fixed(t=16)"): "t=17 as Ochko's reference player; 16 gains 1.69 a "
                                      "session (SE 0.11, n=3,000)",
    ("stovkahra", "baseline(lead_trumps=4)"): "not retuned (issue 30 names six other games); "
                                              "+0.23 points a deal (SE 0.047, n=20,000)",
    ("stovkahra", "baseline(claim=0)"): "not retuned; +0.014 points a deal (SE 0.0032, "
                                        "n=20,000)",
}


def _column(rows, seat: str, stem: str) -> np.ndarray:
    if f"{seat}_{stem}" in rows:
        return rows[f"{seat}_{stem}"].to_numpy(float)
    return -rows[f"p1_{stem}"].to_numpy(float)     # two players reporting p1's only (piquet)


_DEFAULTS: dict = {}


def _objective(case: str, strategy: str | None):
    game, seat, n, seed, _ = CASES[case]
    strategies = [f"{seat}={strategy}"] if strategy else []
    res = simkit.sweep(game, n=n, seed=seed, strategies=strategies, rows=True, progress=False)
    spec, rules = parse_game(game)
    stem, larger = objective(spec, rules)
    return _column(res.rows, seat, stem), larger


def test_every_game_is_covered():
    covered = {CASES[c][0].split("(")[0] for c in CASES}
    assert covered | set(NOT_APPLICABLE) == set(GAMES)


@pytest.mark.parametrize("case,variant", [
    pytest.param(c, v, marks=[pytest.mark.xfail(reason=KNOWN[c, v], strict=True)]
                 if (c, v) in KNOWN else [], id=f"{c}-{v}")
    for c, (_, _, _, _, vs) in CASES.items() for v in vs])
def test_default_is_not_beaten_by_one_step(case, variant):
    if case not in _DEFAULTS:
        _DEFAULTS[case] = _objective(case, None)
    base, larger = _DEFAULTS[case]
    other, _ = _objective(case, variant)
    d = (other - base) * (1.0 if larger else -1.0)   # > 0: the variant does better
    se = d.std(ddof=1) / math.sqrt(len(d))
    n = CASES[case][2]
    assert d.mean() <= 3 * se, (f"{case}: p{CASES[case][1][1:]}={variant} beats the default by "
                                f"{d.mean():.4f} (SE {se:.4f}, n={n})")
