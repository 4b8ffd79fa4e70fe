"""Panguingue (003:89-104): melds against the house meld engine, a worked deal on a stacked deck
paid by hand from lines 97-101, chips conserved in every deal, the baseline against random play.

Tolerances: the baseline's margin in standard errors (stated per test), seeds fixed, so a failure
is reproducible.  The move-by-move legality and the chips of thousands of logged deals are checked
by a plain-Python reference of the rules (tests/test_panguingue_reference.py).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import simkit
from simkit.core import cards as C
from simkit.core import play
from simkit.engines import melds as ME
from simkit.games.panguingue import engine as E

SPEC = simkit.get_game("panguingue")
STAY = "baseline(top=0)"


def _rules(**kw):
    return SPEC.rules.build(kw)


def _work_with_meld(a, b, c):
    W = E.work(_rules(players=2))
    k, r, hi, s, bits = E.classify(a, b, c)
    W.md[0, 0, [E.M_K, E.M_R, E.M_H, E.M_S, E.M_M]] = k, r, hi, s, bits
    W.sv[0, E.Q_NMELD] = 1
    return W


def test_three_card_melds_and_additions_agree_with_the_meld_engine():
    """Every triple of the 40 Spanish cards: a meld here iff the house engine's Panguingue
    preset says so (line 95-96); every card added to every kind of meld (different-suit sets
    take only new suits here, as the engine's one-or-all-different sets do)."""
    row = np.zeros(ME.MELD_W, np.int64)
    code = E.IDX2CODE
    melds = []
    for a in range(40):
        for b in range(a, 40):
            for c in range(b, 40):
                mine = E.classify(a, b, c)[0] >= 0
                theirs = ME.check_meld(np.array([code[a], code[b], code[c]]), 3,
                                       ME.PANGUINGUE, row)
                assert mine == theirs, (C.format_card(code[a]), code[b], code[c])
                if mine:
                    melds.append((a, b, c))
    # ropes, one-suit sets (three of one card), mixed-suit sets, aces and kings (any 3 suits)
    assert len(melds) == 4 * 8 + 8 * 4 + 8 * 4 + 2 * 20
    R = E.table(_rules(players=2, mixed_add="new_suit"))
    for a, b, c in melds[::7]:
        W = _work_with_meld(a, b, c)
        E.refit(R, W, 0)                  # the fit words the kernel reads (M_FB, Q_FA)
        for x in range(40):
            theirs = ME.check_meld(np.array([code[a], code[b], code[c], code[x]]), 4,
                                   ME.PANGUINGUE, row)
            assert E.fits(W, 0, 0, x, True) == theirs, (a, b, c, x)
            assert bool((W.md[0, 0, E.M_FB] >> x) & 1) == theirs == E.fitting(W, 0, x), (a, b, c, x)


def test_conditions_table_of_line_98():
    sp, h = 3, 2
    assert E.cond_value(E.ONE, 2, 2, sp, False) == 4          # 3♠3♠3♠
    assert E.cond_value(E.ONE, 4, 4, h, False) == 2           # 5♥5♥5♥
    assert E.cond_value(E.DIFF, 6, 6, -1, False) == 1         # 7s of different suits
    assert E.cond_value(E.DIFF, 3, 3, -1, False) == 0         # 4s: not valle
    assert E.cond_value(E.ROPE, 0, 2, sp, False) == 2         # A-2-3♠
    assert E.cond_value(E.ROPE, 7, 9, h, False) == 1          # J-Q-K♥
    assert E.cond_value(E.ROPE, 1, 3, h, False) == 0          # 2-3-4♥
    assert E.cond_value(E.ONE, 8, 8, sp, False) == 0          # Q♠Q♠Q♠: the text's table ...
    assert E.cond_value(E.ONE, 8, 8, sp, True) == 2           # ... and the published row
    assert E.cond_value(E.ONE, 1, 1, h, True) == 1
    assert E.cond_value(E.FREE, 0, 0, -1, True) == 0          # aces never pay


def _stack(p1, p2, up, stock):
    a, b = p1.split(), p2.split()
    return " ".join(a[:5] + b[:5] + a[5:] + b[5:] + [up] + stock.split())


P1 = "3s 3s 3s 3s 5c 5d 5h Jh Qh Kh"
P2 = "2c 4d 6h Qs Ac 2h 4c 6s Qd Ad"


@pytest.mark.parametrize("opts, again", [({}, 11), ({"again": "base"}, 6),
                                         ({"winner_per_player": 2}, 11)])
def test_a_first_turn_win_is_paid_by_lines_97_to_101(opts, again):
    """p1 melds 3♠3♠3♠ (4 chips), adds the fourth 3♠ (4 again), 5♣5♦5♥ (1), J-Q-K♥ (1), then
    adds the drawn 7♥ to the rope (1 again): eleven cards melded, 11 chips from p2 during play;
    then 11 again (everything collected; 6 with again=base: 4 + 1 + 1) and 1 (or 2) a player."""
    rules = _rules(players=2, **opts)
    r = play.play_stacked(SPEC, rules, [f"p1={STAY}", f"p2={STAY}"],
                          _stack(P1, P2, "2d", "7h"))
    pp = opts.get("winner_per_player", 1)
    assert r["p1_win"] == 1 and r["turns"] == 1 and r["p1_melded"] == 11
    assert r["p1_conditions"] == 11
    assert r["p1_chips"] == 11 + again + pp and r["p2_chips"] == -(11 + again + pp)


def test_going_on_top_pays_the_forfeit_to_the_winner():
    """Three players, p3 goes on top (top=30: always): it pays 2, which p1 collects; p3 pays
    no condition."""
    rules = _rules(players=3)
    junk = "2c 4d 6h Qs Ac 2h 4c 6s Qd Ad"
    a, b, c = P1.split(), junk.split(), junk.split()
    deck = " ".join(a[:5] + b[:5] + c[:5] + a[5:] + b[5:] + c[5:] + ["2d", "7h"])
    r = play.play_stacked(SPEC, rules, [f"p1={STAY}", f"p2={STAY}", "p3=baseline(top=30)"], deck)
    assert r["p3_top"] == 1 and r["p3_chips"] == -2
    assert r["p1_chips"] == 11 + 11 + 1 + 2 and r["p2_chips"] == -(11 + 11 + 1)


@pytest.mark.parametrize("demand", [10, 0])
def test_the_forced_take_is_demanded_by_the_next_seat(demand):
    """p1 melds 4♣4♦4♥ on its first turn; p3 melds 2♣2♣2♣ with the discard and throws 4♠, which
    fits p1's set: with ``demand`` p2 (the first other seat after p1) demands the forced take
    (line 100); without, p1 takes it of its own accord (it melds)."""
    rules = _rules(players=3)
    p1 = "4c 4d 4h Kc Ks 6c 6d 2s Qh Jc"
    p2 = "Ac 3d 6h 3h Js Kd Qc 5s Jd 7h"
    p3 = "4s 2c 2c Qs Qs Jh Jh 5d 5d 6d"
    a, b, c = p1.split(), p2.split(), p3.split()
    deck = " ".join(a[:5] + b[:5] + c[:5] + a[5:] + b[5:] + c[5:] + ["Jd"])
    strats = [f"p{k}=baseline(top=0,feed=0,demand={demand})" for k in (1, 2, 3)]
    _, log = play.play_stacked(SPEC, rules, strats, deck, log=True)
    ev = [int(e) for e in np.ravel(log)[E.NHEAD + 31:] if e >= 0]
    s4 = C.parse_card("4s")
    d3 = ev.index((E.EV_DISCARD << 20) | (2 << 16) | s4)
    if demand:
        assert ev[d3 + 1] == (E.EV_DEMAND << 20) | (1 << 16) | (0 << 8) | s4
        d3 += 1
    assert ev[d3 + 1] == (E.EV_TAKE << 20) | (0 << 16) | s4
    assert ev[d3 + 2] == (E.EV_ADD << 20) | (0 << 16) | (0 << 8) | s4


def test_chips_are_conserved_in_every_deal():
    """Every deal of several rule sets and strategy mixes: the seats' chips sum to zero, one
    winner with eleven cards melded or none (stock out), nobody on top wins or melds."""
    cases = [("panguingue", None), ("panguingue(players=2)", ["p1=random"]),
             ("panguingue(players=10,packs=5,spades_removed=true,stock_end=void)",
              ["p3=random", "p7=random"]),
             ("panguingue(players=4,conditions=published,again=base,winner_per_player=2,"
              "discard_take=layoff_only,mixed_add=new_suit,rope_extended_pays=true)",
              ["p2=random", "p4=baseline(top=20,demand=0)"]),
             ("panguingue(players=3,max_turns=20)", ["p1=random", "p2=random", "p3=random"])]
    for game, strats in cases:
        res = simkit.run(game, n=600, seed=4, strategies=strats, rows=True, progress=False)
        rows = res.rows
        K = len([c for c in rows.columns if c.endswith("_chips")])
        chips = rows[[f"p{k + 1}_chips" for k in range(K)]].to_numpy()
        assert (chips.sum(axis=1) == 0).all(), game
        win = rows[[f"p{k + 1}_win" for k in range(K)]].to_numpy()
        top = rows[[f"p{k + 1}_top" for k in range(K)]].to_numpy()
        melded = rows[[f"p{k + 1}_melded" for k in range(K)]].to_numpy()
        assert (win.sum(axis=1) + rows["stock_out"].to_numpy() == 1).all(), game
        assert ((win == 1) & (top == 1)).sum() == 0 and (melded[top == 1] == 0).all(), game
        one = (top.sum(axis=1) == K - 1)
        assert (melded[(win == 1) & ~one[:, None]] == 11).all(), game
        assert (melded <= 11).all(), game


@pytest.mark.parametrize("players", [2, 4, 6, 8])
def test_baseline_beats_random_in_every_player_count(players):
    """The baseline in each seat in turn against random players: its chips a deal minus the
    random seats' mean, at least 5 SE above zero (n = 800 deals over the seats)."""
    diffs = []
    for seat in range(players):
        strats = [f"p{k + 1}=" + ("baseline" if k == seat else "random") for k in range(players)]
        rows = simkit.run(f"panguingue(players={players})", n=800 // players, seed=5 + seat,
                          strategies=strats, rows=True, progress=False).rows
        chips = rows[[f"p{k + 1}_chips" for k in range(players)]].to_numpy(float)
        others = np.delete(chips, seat, axis=1).mean(axis=1)
        diffs.append(chips[:, seat] - others)
    d = np.concatenate(diffs)
    m, se = d.mean(), d.std(ddof=1) / math.sqrt(len(d))
    assert m > 5 * se, (players, m, se)


def test_a_session_carries_the_chips_and_starts_with_the_deal_of_its_key():
    """``unit=session``: every session's chips sum to zero, wins and stock-outs add up to the
    deals, and its first deal (the first block of its move log) is the single deal of the same
    key."""
    res = simkit.run("panguingue(unit=session,deals=5,players=4)", n=300, seed=4,
                     strategies=["p2=random"], rows=True, progress=False)
    rows = res.rows
    chips = rows[[f"p{k}_chips" for k in (1, 2, 3, 4)]].to_numpy()
    assert (chips.sum(axis=1) == 0).all()
    assert not any(m.binary for m in SPEC.metrics(_rules(unit="session")))
    assert res.table()["mean"].notna().all()
    wins = rows[[f"p{k}_wins" for k in (1, 2, 3, 4)]].to_numpy().sum(axis=1)
    assert (wins + rows["stock_outs"].to_numpy() == 5).all()
    one = play.playthrough(SPEC, _rules(players=4), ["p2=random"], seed=4)
    sess = play.playthrough(SPEC, _rules(players=4, unit="session", deals=5), ["p2=random"],
                            seed=4)
    blocks, played = E.log_blocks(_rules(players=4, unit="session", deals=5), sess["log"])
    assert played == 5 and len(blocks) == 5 and blocks[0] == list(one["log"])


def test_exact_odds_by_hand_and_against_dealt_hands():
    """The exact law by hand (valle cards hypergeometric: 96 of 320, mean 3) and against every
    seat's dealt ten cards of 2,000 logged six-player deals (12,000 hands): means within 4 SE."""
    from simkit.games.panguingue import exact
    rules = _rules()
    pr = exact.probabilities(rules)
    assert pr["valle_mean"] == 3 and sum(v for k, v in pr.items()
                                         if k.startswith("valle_") and k[6:].isdigit()) == 1
    assert pr["valle_00"] == exact.Fraction(math.comb(224, 10), math.comb(320, 10))
    # one A-2-3 of clubs: 1 - 3 P(one kind absent) + 3 P(two absent) - P(three absent)
    a = [exact.Fraction(math.comb(320 - 8 * j, 10), math.comb(320, 10)) for j in range(4)]
    assert pr["rope_mean"] == 8 * (1 - 3 * a[1] + 3 * a[2] - a[3])
    _, log = play.play_logged(SPEC, rules, None, n=2000, seed=11)
    dealt = log[:, E.NHEAD:E.NHEAD + 60]
    got = {"valle_mean": [], "one_suit_valle_mean": [], "mixed_valle_mean": [], "rope_mean": []}
    for row in dealt:
        for seat in range(6):
            h = np.zeros(40, np.int64)
            for j, c in enumerate(row):
                if (j // 5) % 6 == seat:
                    h[E.CODE2IDX[c]] += 1
            got["valle_mean"].append(sum(h[s * 10 + r] for s in range(4) for r in (2, 4, 6)))
            got["one_suit_valle_mean"].append(sum(h[s * 10 + r] >= 3 for s in range(4)
                                                  for r in (2, 4, 6)))
            got["mixed_valle_mean"].append(sum(sum(h[s * 10 + r] > 0 for s in range(4)) >= 3
                                               for r in (2, 4, 6)))
            got["rope_mean"].append(sum(all(h[s * 10 + p] for p in ps) for s in range(4)
                                        for ps in ((0, 1, 2), (7, 8, 9))))
    for name, x in got.items():
        x = np.asarray(x, float)
        se = x.std(ddof=1) / math.sqrt(len(x))
        assert abs(x.mean() - float(pr[name])) < 4 * se, (name, x.mean(), float(pr[name]), se)
    obj, table = exact.exact(_rules(packs=5, spades_removed=True))
    assert set(table.metric) >= {"valle_mean", "conditions_mean"} and obj["summary"]


def test_the_contract_checks_the_chips_sum_to_zero():
    """``GameSpec.zero_sum``: the contract's check_sums passes with the chips and names a
    non-zero-sum choice (the wins)."""
    import dataclasses

    from simkit import testing
    testing.check_sums(SPEC, n=200)
    wrong = dataclasses.replace(SPEC, zero_sum=lambda r: ["p1_win", "p2_win"])
    with pytest.raises(AssertionError, match="sum to zero"):
        testing.check_sums(wrong, n=200)


def _first_turn(deck, strat, players=2):
    """p1's first-turn events (up to its discard or win) on a stacked deck."""
    rules = _rules(players=players)
    _, log = play.play_stacked(SPEC, rules, [f"p{k}={strat}" for k in range(1, players + 1)],
                               deck, log=True)
    ev = [int(e) for e in np.ravel(log)[E.NHEAD + 10 * players + 1:] if e >= 0]
    ev = ev[players:]                                 # the go-on-top decisions
    end = next(j for j, e in enumerate(ev) if e >> 20 in (E.EV_DISCARD, E.EV_OUT))
    return ev[:end + 1]


def _pays(ev):
    return [(e >> 8) & 255 for e in ev if e >> 20 == E.EV_PAY]


@pytest.mark.parametrize("borrow", [0, 1])
def test_a_split_that_makes_a_condition_pays(borrow):
    """Line 99: p1 melds 3♠3♠3♠ (4), adds two more 3♠ (4 each), adds the drawn 3♠ (4): six
    3♠; with ``borrow=1`` it splits them into two sets of three, the second a condition made by
    the split, which pays 4 again."""
    p1 = "3s 3s 3s 3s 3s 2c 4d 6h Qs Jc"
    p2 = "2h 4c 6s Qd Ad 2d 4h 6c Jd 7s"
    ev = _first_turn(_stack(p1, p2, "5d", "3s"), f"baseline(top=0,borrow={borrow})")
    splits = [e for e in ev if e >> 20 == E.EV_SPLIT]
    if borrow:
        assert splits == [(E.EV_SPLIT << 20) | (0 << 8) | 3]
        j = ev.index(splits[0])
        assert [e >> 20 for e in ev[j + 1:j + 5]] == [E.EV_CARD] * 3 + [E.EV_PAY]
        assert _pays(ev) == [4, 4, 4, 4, 4]
    else:
        assert splits == [] and _pays(ev) == [4, 4, 4, 4]


@pytest.mark.parametrize("borrow", [0, 1])
def test_a_borrow_that_completes_a_condition_pays(borrow):
    """Line 99: p1 melds four kings (any suits), then draws J♠ holding Q♠: with ``borrow=1`` it
    borrows K♠ from the kings (three stay: still a legal meld) for J-Q-K♠, a condition that pays
    2; without, the J♠ cannot be melded."""
    p1 = "Kc Kd Kh Ks Qs 2c 4d 6h 5c 7d"
    p2 = "2h 4c 6s Qd Ad 2d 4h 6c Jd 7s"
    ks, js = C.parse_card("Ks"), C.parse_card("Js")
    ev = _first_turn(_stack(p1, p2, "5h", "Js"), f"baseline(top=0,borrow={borrow})")
    borrows = [e for e in ev if e >> 20 == E.EV_BORROW]
    if borrow:
        assert borrows == [(E.EV_BORROW << 20) | (0 << 8) | ks]
        j = ev.index(borrows[0])
        assert ev[j + 1] == (E.EV_MELD << 20) | (1 << 8) | 3
        assert sorted(e & 255 for e in ev[j + 2:j + 5]) == sorted([ks, js, C.parse_card("Qs")])
        assert _pays(ev) == [2]
    else:
        assert borrows == [] and _pays(ev) == [] and ev[-1] >> 20 == E.EV_DISCARD


@pytest.mark.parametrize("opts", [{}, {"mixed_add": "new_suit", "conditions": "published"}])
def test_the_meld_words_agree_with_fits_and_lendable(opts):
    """The words the kernel keeps per meld (``meld_words``: the cards that fit, the length, the
    cards it may lend with and without ``keep``) against :func:`fits` and :func:`lendable`
    card by card, on every rope of four cards or more, every set of up to three cards a suit
    (ranks A, 3, 4, K), each with condition values 0, 1, 2 and 4 standing."""
    R = E.table(_rules(players=2, **opts))
    W = E.work(_rules(players=2, **opts))
    md = W.md[0]
    shapes = []
    for s in range(4):
        for lo in range(10):
            for hi in range(lo + 2, 10):
                shapes.append((E.ROPE, lo, hi, s, 1 << s, None))
    for r in (0, 2, 3, 9):
        for cnt in np.ndindex(4, 4, 4, 4):
            if 3 <= sum(cnt) <= 9:
                k, s = E.set_kind(r, *cnt)
                bits = sum(1 << q for q in range(4) if cnt[q])
                shapes.append((k, r, r, s, bits, cnt))
    lent = 0
    for k, r, hi, s, bits, cnt in shapes:
        for v in (0, 1, 2, 4):
            md[0, :] = 0
            md[0, [E.M_K, E.M_R, E.M_H, E.M_S, E.M_M, E.M_V]] = k, r, hi, s, bits, v
            if cnt is not None:
                md[0, E.M_C:E.M_C + 4] = cnt
            W.sv[0, E.Q_NMELD] = 1
            E.refit(R, W, 0)
            n = hi - r + 1 if cnt is None else sum(cnt)
            assert md[0, E.M_L] == n and W.sv[0, E.Q_ML] == n
            for x in range(40):
                if v == 0:
                    assert bool((md[0, E.M_FB] >> x) & 1) == E.fits(W, 0, 0, x, R.new_suit)
                for col, keep in ((E.M_LA, False), (E.M_LK, True)):
                    assert bool((md[0, col] >> x) & 1) == E.lendable(R, md, 0, x, keep), \
                        (k, r, hi, s, cnt, v, x, keep)
            lent += bin(int(md[0, E.M_LK])).count("1")
    assert lent > 1000          # the keep words are not all empty


@pytest.mark.parametrize("players, strategies", [(6, []), (4, ["p2=random", "p4=random"]),
                                                 (2, ["p1=baseline(borrow=0)"])])
def test_the_hand_words_the_turn_keeps_match_the_hand(players, strategies):
    """The turn's shortcuts read two per-seat words instead of the hand: ``Q_HB``, the cards
    held as bits (kept by the deal, the discard and the phases' lays), and ``Q_NS``, set once the
    hand made no new meld (it only shrinks after the deal, so it never makes one again).  After
    each of 300 deals (the winner's hand is empty, the others' are not), every seat's words are
    recomputed from its hand: the bits exactly, and no new meld in a hand flagged ``Q_NS``."""
    from simkit.core.rng import stream_state
    rules = _rules(players=players)
    st = simkit.core.registry.resolve_strategies(SPEC, rules, strategies)
    R, S, W = SPEC.prepare(rules, st, None)
    acc = np.zeros((2, len(SPEC.metrics(rules))))
    out = np.zeros((0, acc.shape[1]))
    state = stream_state(11, 0)
    flagged = 0
    with play.wraps():
        for _ in range(300):
            SPEC.kernel(R, S, W, state, 1, acc, out, play.NO_LOG)
            for p in range(players):
                bits = sum(1 << x for x in range(40) if W.hand[p, x] > 0)
                assert W.sv[p, E.Q_HB] == bits
                if W.sv[p, E.Q_NS]:
                    flagged += 1
                    assert E.options_hand(W.hand[p], W.md[p], W.op, 0, 0) == 0
    assert flagged > 100


def test_the_keep_value_counts_the_connections_the_strategy_states():
    """The baseline's keep value of a held card (strategies.py: ``pair`` for a copy of the same
    card, 2 for each other suit of its rank or neighbour in its suit, 1 for a card two away),
    computed here from the counts, against the kernel's, which reads the hand's bits: every
    held card of 3,000 random hands of 1 to 13 cards."""
    rng = np.random.default_rng(5)
    n = 0
    for _ in range(3000):
        h = np.zeros(40, np.int64)
        np.add.at(h, rng.integers(0, 40, rng.integers(1, 14)), 1)
        hb = sum(1 << x for x in range(40) if h[x] > 0)
        for x in np.flatnonzero(h):
            r, s = x % 10, x // 10
            want = 7 if h[x] > 1 else 0
            want += 2 * sum(1 for t in range(4) if t != s and h[t * 10 + r] > 0)
            want += sum((2 if abs(d) == 1 else 1) for d in (-2, -1, 1, 2)
                        if 0 <= r + d <= 9 and h[s * 10 + r + d] > 0)
            assert E.connections(hb, int(x), h[x] > 1, 7) == want, (h, x)
            n += 1
    assert n > 15000
