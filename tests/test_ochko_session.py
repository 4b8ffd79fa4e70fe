"""Очко sessions (``ochko_session``, simkit/games/ochko_session/).

1. the peek: the first cards the session kernel stakes on and the payoffs it books are those of
   the round game's kernel run on the same xoshiro state, round for round;
2. exact: every session metric against a slow plain-Python session loop written here, on rounds
   played by the independent reference ``ochko_reference.play_round`` with cards dealt by a
   pure-Python xoshiro / splitmix / Lemire deal (it shares no code with the kernels);
3. hand-checkable sessions whose outcome the rules (or a stacked deck) force;
4. invariants on thousands of traced sessions (caps, stakes, money, стук, rounds), and pairing:
   round r of session i deals the same cards whatever was staked;
5. validation errors name the option; 6. reproducibility through the runner (serial and two
   threads), rows, sweep, CLI JSON and resume, and a statistical check of the optional-stopping
   identity E[bank_result] = edge * E[staked] against the round game's measured edge.
"""
from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from tests import ochko_reference as ref  # noqa: E402
from tests.rng_reference import ref_splitmix, ref_xoshiro  # noqa: E402

import simkit  # noqa: E402
from simkit.cli import main  # noqa: E402
from simkit.core import cards as C  # noqa: E402
from simkit.core.play import run_chunk  # noqa: E402
from simkit.core.registry import parse_strategies  # noqa: E402
from simkit.games import parse_game
from simkit.core.rng import stream_state, xoshiro_next  # noqa: E402
from simkit.errors import SimkitError  # noqa: E402
from simkit.games.ochko import engine  # noqa: E402
from simkit.games.ochko_session import engine as session_engine  # noqa: E402
from simkit.games.ochko_session import (SPEC, OchkoSessionRules, first_cards,  # noqa: E402
                                        peek_key, play_stacked, session_state, trace_sessions)



# --------------------------------------------------------------------------- pure-Python RNG

def py_session_state(key: int) -> list[int]:
    """A session's own xoshiro state: the first four splitmix64 outputs of its key."""
    g = ref_splitmix(key)
    return [next(g) for _ in range(4)]


def py_deal(key: int, deck, count: int) -> list[int]:
    """The first ``count`` cards a round with ``key`` deals: splitmix64 from the key, Lemire's
    bounded draw on the top 32 bits (with rejection), positions already dealt are drawn again."""
    g = ref_splitmix(key)
    n = len(deck)
    taken: set[int] = set()
    out = []
    threshold = ((1 << 32) - n) % n
    while len(out) < min(count, n):
        m = (next(g) >> 32) * n
        if (m & 0xFFFFFFFF) < threshold:
            continue
        j = m >> 32
        if j in taken:
            continue
        taken.add(j)
        out.append(int(deck[j]))
    return out


# --------------------------------------------------------------------------- reference loop

def py_round(rules, ts, key):
    """Per-unit payoffs of one round and the dealt first cards (players', then the banker's)."""
    deck = C.deck(rules.deck)
    K = rules.players
    plays = [ref.StandAt(t) for t in ts]
    for count in (24, len(deck)):
        cards = py_deal(key, deck, count)
        m, hands, banker = ref.play_round(rules, plays, cards, trace=True)
        used = sum(len(h) for h in hands) + len(banker)
        if used < len(cards) or count == len(deck):
            break
    return [m[f"p{k + 1}_result"] for k in range(K)], cards[:K + 1]


def py_sessions(rules, strategies, state, n):
    """Plain-Python sessions: ``(rows as dicts, rounds as dicts)``, written from the rules."""
    K = rules.players
    chunk = ref_xoshiro(state)
    kinds = [(s.kind, s.values) for s in strategies]
    ts = [v["t"] for _, v in kinds]
    B = float(rules.bank)
    one = rules.short_bank == "one"

    def cannot_cover(bank):
        return bank <= 0 if one else bank < 1

    sessions, rounds_out = [], []
    for i in range(n):
        xo = ref_xoshiro(py_session_state(next(chunk)))
        bank, peak, played = B, B, 0
        stuk, stuk_gain, turnover = False, 0.0, 0.0
        result, staked, sat = [0.0] * K, [0.0] * K, [0.0] * K
        while played < rules.max_rounds and not cannot_cover(bank):
            last = False
            if rules.stuk_multiple > 0 and bank >= rules.stuk_multiple * B:
                stuk = True
                if rules.last_round_cap == "none":
                    break
                last = True
            whole = rules.round_cap == "bank" or (last and rules.last_round_cap == "bank")
            cap = bank if whole else min(bank, B)
            key = next(xo)
            pays, first = py_round(rules, ts, key)
            stakes, left = [], cap
            for k, (kind, v) in enumerate(kinds):
                whole_units = math.floor(left)
                if whole_units >= 1:
                    hi = max(1, whole_units - (K - 1 - k)) if rules.reserve else whole_units
                    if kind == "fixed":
                        want = v["stake"]
                    elif kind == "fraction":
                        want = math.floor(v["f"] * bank + 0.5)
                    else:
                        want = hi if ref.value(first[k], rules.values) >= v["card"] else v["base"]
                    s = min(max(want, 1), hi)
                elif one:
                    s = 1
                else:
                    s, sat[k] = 0, sat[k] + 1
                stakes.append(float(s))
                left -= s
            change = 0.0
            for k in range(K):
                result[k] += stakes[k] * pays[k]
                staked[k] += stakes[k]
                turnover += stakes[k]
                change -= stakes[k] * pays[k]
            rounds_out.append(dict(session=i, round=played, bank=bank, cap=cap, last=last,
                                   first=first, stakes=stakes, pays=pays))
            bank += change
            played += 1
            peak = max(peak, bank)
            if last:
                stuk_gain = change
                break
        broke = cannot_cover(bank)
        row = dict(bank_result=bank - B, bank_return=(bank - B) / B,
                   bank_profit=float(bank - B > 0), bank_broke=float(broke), stuk=float(stuk),
                   capped=float(not (stuk or broke)), rounds=float(played), staked=turnover,
                   stuk_round_result=stuk_gain, bank_peak=peak / B)
        for k in range(K):
            row[f"p{k + 1}_result"] = result[k]
            row[f"p{k + 1}_staked"] = staked[k]
            row[f"p{k + 1}_rounds_out"] = sat[k]
        sessions.append(row)
    return sessions, rounds_out


def kernel_rows(game, strs, state, n):
    spec, rules = parse_game(game)
    strategies = parse_strategies(spec, rules, strs)
    _, rows, _ = run_chunk(SPEC, rules, strategies, np.array(state, np.uint64).copy(), n,
                           rows=True)
    names = [m.name for m in spec.metrics(rules)]
    return rules, strategies, [dict(zip(names, r)) for r in rows]


# --------------------------------------------------------------------------- 1. the peek

def test_registered():
    assert simkit.get_game("ochko_session") is SPEC
    assert SPEC.rules is OchkoSessionRules


@pytest.mark.parametrize("players,deck", [(1, 36), (3, 52), (9, 36)])
def test_peeked_cards_and_payoffs_are_the_engines_rounds(players, deck):
    """Stakes of 1 and a bank too large to matter: each session's rounds are exactly the round
    game's rounds on the session's state, and the cards staked on are the rounds' first cards."""
    R = 300
    game = f"ochko_session(players={players},deck={deck},bank=1000000,stuk_multiple=0,max_rounds={R})"
    spec, rules = parse_game(game)
    strats = parse_strategies(spec, rules, [f"p{k + 1}=fixed(stake=1,t={14 + k % 6})"
                                            for k in range(players)])
    state = stream_state(11, 3)
    sessions, trace = trace_sessions(rules, strats, state, n=2)
    assert len(trace) == 2 * R and (trace["cap"] > 999_000).all()
    _, rrules = parse_game(f"ochko(players={players},deck={deck})")
    rspec = simkit.get_game("ochko")
    rstrats = parse_strategies(rspec, rrules, [f"p{k + 1}=stand_at({14 + k % 6})"
                                               for k in range(players)])
    chunk = ref_xoshiro(state)
    d = C.deck(deck)
    out = np.zeros(players + 1, np.int64)
    for i in range(2):
        key = next(chunk)
        sub = session_state(key)
        assert sub.tolist() == py_session_state(key)
        tr = trace[trace["session"] == i]
        # the same rounds through the round game on the session's state
        _, rows, _ = run_chunk(rspec, rrules, rstrats, sub.copy(), R, rows=True)
        for k in range(players):
            ev = rows[:, engine.NB + engine.NP * k + engine.P.result]
            assert np.array_equal(tr[f"p{k + 1}_pay"].to_numpy(), ev), f"session {i} seat {k + 1}"
            assert (tr[f"p{k + 1}_stake"] == 1).all()
        assert sessions["bank_result"].iloc[i] == rows[:, engine.B.bank_result].sum()
        # the first cards: the kernel's peek, the njit helper and a pure-Python deal all agree
        xo = ref_xoshiro(sub)
        for r in range(R):
            rkey = next(xo)
            want = py_deal(rkey, d, players + 1)
            first_cards(np.uint64(rkey), d, players, out)
            assert out.tolist() == want
            got = [int(tr[f"p{k + 1}_card"].iloc[r]) for k in range(players)] + \
                [int(tr["banker_card"].iloc[r])]
            assert got == want, f"session {i} round {r}"


def test_peek_key_is_the_next_key_and_leaves_the_state():
    state = stream_state(1, 0)
    before = state.copy()
    assert int(peek_key(state)) == next(ref_xoshiro(before))
    assert np.array_equal(state, before)


def test_run_chunk_takes_one_key_per_session():
    spec, rules = parse_game("ochko_session(players=2,bank=4)")
    strats = parse_strategies(spec, rules, ["p1=vabank(card=10)", "p2=fraction(f=0.5)"])
    state = stream_state(5, 0)
    s = state.copy()
    run_chunk(SPEC, rules, strats, s, 50)
    xo = ref_xoshiro(state)
    for _ in range(50):
        next(xo)
    # the state was advanced exactly 50 steps: its next output is the reference's 51st
    assert int(xoshiro_next(s)) == next(xo)


def test_first_cards_when_the_deck_runs_out():
    out = np.zeros(4, np.int64)
    first_cards(np.uint64(123), C.deck(36)[:2], 3, out)
    assert sorted(out[:2].tolist()) == sorted(C.deck(36)[:2].tolist()) and out[2:].tolist() == [-1, -1]


# --------------------------------------------------------------------------- 2. exact vs reference

EXACT_CASES = [
    ("ochko_session", ["p1=fixed"], 25),
    ("ochko_session(players=3,bank=5,stuk_multiple=2,max_rounds=60)",
     ["p1=vabank(card=10,base=1,t=16)", "p2=fraction(f=0.3,t=15)", "p3=fixed(stake=2,t=18)"], 40),
    ("ochko_session(players=2,bank=3,short_bank=one,reserve=false,round_cap=bank,golden_pays=1.5,"
     "bust_penalty=0.5,values=text1,deck=52)", ["p1=vabank(card=9,t=15)", "p2=fixed(stake=3)"], 40),
    ("ochko_session(players=4,bank=2,last_round_cap=none,stuk_multiple=1.5,ties=push)",
     ["p1=fraction(f=0.5)", "p2=vabank(card=6,base=2)", "p3=fixed", "p4=fixed(t=20)"], 60),
    ("ochko_session(players=2,bank=20,last_round_cap=normal,stuk_multiple=1.25,bonus_hands=true,"
     "bonus_pays=2.5,five_pictures_pays=2,player_21_wins=false)",
     ["p1=vabank(card=11,base=3,t=19)", "p2=fraction(f=0.25,t=16)"], 30),
    ("ochko_session(players=9,bank=6,stuk_multiple=0,max_rounds=25,banker_stop=16)",
     ["p1=vabank(card=10)", "p5=fixed(stake=2)", "p9=fraction(f=1)"], 20),
    ("ochko_session(players=3,bank=1,short_bank=one,stuk_multiple=4,max_rounds=80,"
     "golden_point=false,five_pictures=false)", ["p2=vabank(card=2)", "p3=fraction(f=0.75,t=21)"], 40),
    ("ochko_session(players=2,bank=7,reserve=false,max_rounds=40,last_round_cap=normal,"
     "round_cap=bank,banker_max_cards=3,max_cards=3)", ["p1=fraction(f=0.6)", "p2=vabank(card=8)"], 40),
    ("ochko_session(players=3,bank=30,max_rounds=100)",
     ["p1=fraction(f=0.15,t=16)", "p2=vabank(card=10,base=2)", "p3=fixed(stake=4,t=15)"], 12),
    ("ochko_session(players=2,bank=25,round_cap=bank,stuk_multiple=2,deck=52,values=text1,ties=push)",
     ["p1=fraction(f=0.05,t=18)", "p2=vabank(card=11,base=1,t=14)"], 12),
]


@pytest.mark.parametrize("game,strs,n", EXACT_CASES)
def test_sessions_exactly_match_a_plain_python_loop(game, strs, n):
    for seed in (1, 2, 3):
        state = stream_state(seed, 7)
        rules, strategies, got = kernel_rows(game, strs, state, n)
        want, _ = py_sessions(rules, strategies, state, n)
        for i, (g, w) in enumerate(zip(got, want)):
            assert list(g) == list(w)
            bad = {k: (g[k], w[k]) for k in w if g[k] != w[k]}
            assert not bad, f"{game} {strs} seed {seed} session {i}: (kernel, reference) {bad}"


def test_trace_matches_the_reference_rounds():
    game = "ochko_session(players=3,bank=4,stuk_multiple=2.5,max_rounds=50)"
    strs = ["p1=vabank(card=10)", "p2=fraction(f=0.5)", "p3=fixed(stake=2)"]
    spec, rules = parse_game(game)
    strategies = parse_strategies(spec, rules, strs)
    state = stream_state(3, 0)
    _, trace = trace_sessions(rules, strategies, state, n=30)
    _, rounds = py_sessions(rules, strategies, state, 30)
    assert len(trace) == len(rounds)
    for (_, t), r in zip(trace.iterrows(), rounds):
        assert (t["session"], t["round"], t["bank"], t["cap"], t["stuk_round"]) == \
            (r["session"], r["round"], r["bank"], r["cap"], int(r["last"]))
        assert [t[f"p{k}_stake"] for k in (1, 2, 3)] == r["stakes"]
        assert [t[f"p{k}_pay"] for k in (1, 2, 3)] == r["pays"]
        assert [t[f"p{k}_card"] for k in (1, 2, 3)] + [t["banker_card"]] == r["first"]


# --------------------------------------------------------------------------- 3. forced outcomes

# the banker draws while below 22, so whenever he plays he busts; a player who never draws
# (t=2) always stands, so the banker always plays: every player wins every round, +1 a stake
FORCED_WIN = "banker_stop=22,golden_point=false,five_pictures=false"


@pytest.mark.parametrize("bank", [1, 2, 7, 50])
def test_forced_player_wins_empty_the_bank_one_unit_a_round(bank):
    sessions, trace = trace_sessions(f"ochko_session(bank={bank},{FORCED_WIN})",
                                     ["p1=fixed(stake=1,t=2)"], stream_state(0, 0), n=5)
    assert (trace["p1_pay"] == 1).all()
    s = sessions.iloc[0]
    assert (s["bank_result"], s["rounds"], s["p1_result"], s["bank_broke"], s["stuk"],
            s["capped"], s["bank_profit"], s["bank_peak"]) == (-bank, bank, bank, 1, 0, 0, 0, 1)
    assert trace[trace["session"] == 0]["bank"].tolist() == list(range(bank, 0, -1))
    assert (sessions == sessions.iloc[0]).all().all()


def test_forced_player_wins_all_in_breaks_the_bank_in_one_round():
    sessions, trace = trace_sessions(f"ochko_session(bank=10,{FORCED_WIN})",
                                     ["p1=vabank(card=2,t=2)"], stream_state(0, 0), n=3)
    assert sessions["rounds"].tolist() == [1, 1, 1]
    assert sessions["p1_result"].tolist() == [10, 10, 10] and (sessions["bank_broke"] == 1).all()


def test_forced_wins_with_three_seats_and_the_reserve():
    # bank 5, three players all in: p1 may stake 5 - 2 (one kept for each later seat), then 1, 1
    sessions, trace = trace_sessions(f"ochko_session(players=3,bank=5,{FORCED_WIN})",
                                     ["p1=vabank(card=2,t=2)", "p2=vabank(card=2,t=2)",
                                      "p3=vabank(card=2,t=2)"], stream_state(0, 0), n=1)
    assert trace[["p1_stake", "p2_stake", "p3_stake"]].values.tolist() == [[3, 1, 1]]
    assert sessions.iloc[0][["p1_result", "p2_result", "p3_result", "bank_result"]].tolist() == \
        [3, 1, 1, -5]
    # without the reserve p1 takes the whole cap and the others sit out
    sessions, trace = trace_sessions(f"ochko_session(players=3,bank=5,reserve=false,{FORCED_WIN})",
                                     ["p1=vabank(card=2,t=2)", "p2=fixed(t=2)", "p3=fixed(t=2)"],
                                     stream_state(0, 0), n=1)
    assert trace[["p1_stake", "p2_stake", "p3_stake"]].values.tolist() == [[5, 0, 0]]
    assert sessions.iloc[0][["p2_rounds_out", "p3_rounds_out"]].tolist() == [1, 1]
    # short_bank=one: a bank of 1 still takes a stake of 1 from each of three seats
    sessions, trace = trace_sessions(f"ochko_session(players=3,bank=1,short_bank=one,{FORCED_WIN})",
                                     ["p1=fixed(t=2)", "p2=fixed(t=2)", "p3=fixed(t=2)"],
                                     stream_state(0, 0), n=1)
    assert trace[["p1_stake", "p2_stake", "p3_stake"]].values.tolist() == [[1, 1, 1]]
    assert sessions.iloc[0]["bank_result"] == -3 and sessions.iloc[0]["bank_broke"] == 1


def test_stacked_golden_points_empty_the_bank():
    """Every round dealt from one stacked deck: p1 gets As, the banker Kh, p1 draws Ah (golden
    point, paid 1): the bank of 10 loses 1 a round until it cannot cover a stake."""
    s = play_stacked(parse_game("ochko_session")[1], None, "As Kh Ah 6c 7c 8c")
    assert (s["bank_result"], s["rounds"], s["p1_result"], s["p1_staked"], s["bank_broke"],
            s["stuk"], s["capped"]) == (-10, 10, 10, 10, 1, 0, 0)


@pytest.mark.parametrize("last,rounds,stuk_gain", [("bank", 21, 1), ("normal", 21, 1),
                                                   ("none", 20, 0)])
def test_stacked_banker_wins_to_stuk(last, rounds, stuk_gain):
    """p1 stands on 6s (t=2), the banker draws 10h then As (21): the bank gains 1 a round, reaches
    3 x 10 after 20 rounds and calls стук; the стук round is played (and won) unless there is
    none."""
    rules = parse_game(f"ochko_session(last_round_cap={last})")[1]
    s = play_stacked(rules, ["p1=fixed(t=2)"], "6s 10h As 7c")
    assert (s["rounds"], s["stuk"], s["stuk_round_result"], s["bank_result"], s["p1_result"],
            s["bank_peak"]) == (rounds, 1, stuk_gain, rounds, -rounds, (10 + rounds) / 10)


@pytest.mark.parametrize("cards,words", [("As Kh As", ["As", "appears 2 times"]),
                                         ("As Kh 2c", ["2c", "not in the 36-card pack"]),
                                         (" ".join(["As"] * 65), ["at most 64"])])
def test_stacked_decks_are_checked(cards, words):
    with pytest.raises(SimkitError) as e:
        play_stacked(parse_game("ochko_session")[1], None, cards)
    for w in words:
        assert w in str(e.value), f"{cards}: {e.value!s} lacks {w!r}"
    # a 52-card game has the 2c
    assert play_stacked(parse_game("ochko_session(deck=52)")[1], None, "As Kh 2c 10d")["rounds"] > 0


@pytest.mark.parametrize("kind", sorted(SPEC.strategies))
def test_every_strategy_plays_with_its_defaults(kind):
    spec, rules = parse_game("ochko_session(players=2)")
    _, rows, cards = run_chunk(SPEC, rules, parse_strategies(spec, rules, [f"p1={kind}"]),
                               stream_state(1, 0), 200, rows=True)
    assert cards > 0 and (rows[:, session_engine.M.rounds] >= 1).all() and np.isfinite(rows).all()


def test_max_rounds_caps_a_session_that_cannot_end():
    sessions, _ = trace_sessions("ochko_session(bank=1000000,stuk_multiple=0,max_rounds=17)",
                                 None, stream_state(0, 0), n=10)
    assert (sessions["rounds"] == 17).all() and (sessions["capped"] == 1).all()
    assert (sessions["stuk"] == 0).all() and (sessions["bank_broke"] == 0).all()


# --------------------------------------------------------------------------- 4. invariants

INVARIANT_CASES = [
    ("ochko_session", ["p1=fixed"]),
    ("ochko_session(players=3,bank=5)", ["p1=vabank(card=10)", "p2=fraction(f=0.4)",
                                         "p3=fixed(stake=3)"]),
    ("ochko_session(players=5,bank=3,round_cap=bank,stuk_multiple=2,golden_pays=2,bonus_hands=true)",
     ["p1=vabank(card=9)", "p2=vabank(card=11,base=2)", "p3=fraction(f=0.2)", "p4=fixed(stake=2)"]),
    ("ochko_session(players=2,bank=10,last_round_cap=none,stuk_multiple=1.5)",
     ["p1=fraction(f=0.3)", "p2=vabank(card=10)"]),
    ("ochko_session(players=2,bank=8,last_round_cap=normal,reserve=false,max_rounds=30)",
     ["p1=vabank(card=10)", "p2=fraction(f=0.5)"]),
    ("ochko_session(players=4,bank=2,short_bank=one,bust_penalty=1)",
     ["p1=vabank(card=6)", "p2=fixed(stake=2)"]),
]


@pytest.mark.parametrize("game,strs", INVARIANT_CASES)
def test_session_invariants(game, strs):
    spec, rules = parse_game(game)
    K, B, m = rules.players, rules.bank, rules.stuk_multiple
    sessions, tr = trace_sessions(rules, strs, stream_state(9, 1), n=600)
    stakes = tr[[f"p{k + 1}_stake" for k in range(K)]].to_numpy()
    pays = tr[[f"p{k + 1}_pay" for k in range(K)]].to_numpy()
    bank, cap, last = tr["bank"].to_numpy(), tr["cap"].to_numpy(), tr["stuk_round"].to_numpy() == 1
    one = rules.short_bank == "one"
    # stakes: whole numbers, at least 1 (0 = sat out), within the cap (always, unless short_bank=one)
    assert (stakes == np.round(stakes)).all() and (stakes >= 0).all()
    if one:
        assert (stakes >= 1).all()
        over = stakes.sum(1) > cap
        assert (stakes[over] >= 1).all()  # only the minimum stakes go over
    else:
        assert (stakes.sum(1) <= cap).all() and (cap <= bank).all()
        # a seat sits out only when what is left of the cap cannot cover 1
        left = cap[:, None] - np.cumsum(stakes, 1) + stakes
        assert ((stakes > 0) | (left < 1)).all()
    # the cap: min(bank, stake) in ordinary rounds, the whole bank in a стук round (when so chosen)
    whole = (rules.round_cap == "bank") | (last & (rules.last_round_cap == "bank"))
    assert np.array_equal(cap, np.where(whole, bank, np.minimum(bank, B)))
    # money: each round's bank after = before - sum(stake * pay), and the next round starts there
    assert np.array_equal(tr["bank_after"].to_numpy(), bank - (stakes * pays).sum(1))
    same = tr["session"].to_numpy()[1:] == tr["session"].to_numpy()[:-1]
    assert np.array_equal(tr["bank"].to_numpy()[1:][same], tr["bank_after"].to_numpy()[:-1][same])
    seat = sessions[[f"p{k + 1}_result" for k in range(K)]].sum(axis=1)
    assert np.allclose(sessions["bank_result"] + seat, 0, atol=1e-9)
    if rules.golden_pays == 1 and rules.bust_penalty == 0 and not rules.bonus_hands:
        assert (sessions["bank_result"] + seat == 0).all()
    # sessions: lengths, endings, стук
    per = tr.groupby("session")
    assert np.array_equal(per.size().reindex(range(600), fill_value=0), sessions["rounds"])
    assert (sessions["rounds"] <= rules.max_rounds).all() and (sessions["rounds"] >= 1).all()
    ends = sessions["stuk"] + sessions["bank_broke"] + sessions["capped"]
    assert (ends >= 1).all()
    assert (sessions["rounds"][sessions["capped"] == 1] == rules.max_rounds).all()
    final = sessions["bank_result"] + B
    if m > 0:
        starts_over = bank >= m * B
        if rules.last_round_cap == "none":
            assert not starts_over.any()           # never played on past the стук
            assert (final[sessions["stuk"] == 1] >= m * B).all()
        else:
            assert np.array_equal(starts_over, last)  # the стук round is the one that starts over
            lasts = tr[last]
            assert lasts["round"].tolist() == (sessions["rounds"][sessions["stuk"] == 1] - 1).tolist()
        assert (sessions["bank_peak"][sessions["stuk"] == 1] >= m).all()
        # without стук no round started at the multiple (a capped session may end above it)
        no_stuk = tr["session"].isin(np.flatnonzero(sessions["stuk"] == 0))
        assert (tr["bank"][no_stuk] < m * B).all()
        high = (sessions["stuk"] == 0) & (sessions["bank_peak"] >= m)
        assert (sessions["capped"][high] == 1).all()
        assert (final[high] == sessions["bank_peak"][high] * B).all()
    assert (sessions["bank_broke"] == ((final <= 0) if one else (final < 1))).all()
    assert (sessions["bank_profit"] == (final > B)).all()
    assert (sessions["staked"] == sessions[[f"p{k + 1}_staked" for k in range(K)]].sum(axis=1)).all()
    assert sessions["staked"].sum() == stakes.sum()


def test_the_same_rounds_deal_the_same_cards_whatever_the_stakes():
    """Pairing: round r of session i deals the same cards in every configuration, however the
    seats staked and however long the sessions before it lasted."""
    state = stream_state(4, 2)
    _, a = trace_sessions("ochko_session(players=2)", ["p1=fixed", "p2=fixed"], state, n=80)
    _, b = trace_sessions("ochko_session(players=2,bank=3,stuk_multiple=2)",
                          ["p1=vabank(card=10)", "p2=fraction(f=0.5,t=15)"], state, n=80)
    both = a.merge(b, on=["session", "round"], suffixes=("_a", "_b"))
    assert len(both) == min(len(a), len(b)) or len(both) > 500
    for c in ["p1_card", "p2_card", "banker_card"]:
        assert (both[c + "_a"] == both[c + "_b"]).all()
    # and the sessions differ in length (so the stream position alone would not pair them)
    assert not a.groupby("session").size().equals(b.groupby("session").size())


# --------------------------------------------------------------------------- 5. validation

@pytest.mark.parametrize("game,words", [
    ("ochko_session(bank=0)", ["bank", "1..1000000"]),
    ("ochko_session(bank=2000000)", ["bank", "1..1000000"]),
    ("ochko_session(bank=2.5)", ["bank", "integer"]),
    ("ochko_session(stuk_multiple=0.5)", ["stuk_multiple", "above 1"]),
    ("ochko_session(stuk_multiple=1)", ["stuk_multiple", "above 1"]),
    ("ochko_session(stuk_multiple=-1)", ["stuk_multiple", "0.0..1000.0"]),
    ("ochko_session(max_rounds=0)", ["max_rounds", "1..1000000"]),
    ("ochko_session(last_round_cap=all)", ["last_round_cap", "bank", "normal", "none"]),
    ("ochko_session(round_cap=table)", ["round_cap", "stake", "bank"]),
    ("ochko_session(short_bank=two)", ["short_bank", "sit", "one"]),
    ("ochko_session(reserve=maybe)", ["reserve", "true or false"]),
    ("ochko_session(players=0)", ["players", "1..9"]),
    ("ochko_session(banker_max_cards=1)", ["banker_max_cards"]),
    ("ochko_session(stake=3)", ["stake", "bank", "stuk_multiple"]),
])
def test_validation_errors(game, words):
    with pytest.raises(SimkitError) as e:
        parse_game(game)
    for w in words:
        assert w in str(e.value), f"{game}: {e.value!s} lacks {w!r}"


@pytest.mark.parametrize("strategy,words", [
    ("fixed(stake=0)", ["fixed.stake", "1..1000000"]),
    ("fixed(t=23)", ["fixed.t", "2..22"]),
    ("fraction(f=1.5)", ["fraction.f", "0.0..1.0"]),
    ("vabank(card=12)", ["vabank.card", "2..11"]),
    ("vabank(base=0)", ["vabank.base", "1..1000000"]),
    ("stand_at(16)", ["stand_at", "fixed", "fraction", "vabank"]),
    ("fixed(size=2)", ["size", "stake"]),
])
def test_strategy_validation_errors(strategy, words):
    spec, rules = parse_game("ochko_session")
    with pytest.raises(SimkitError) as e:
        parse_strategies(spec, rules, [f"p1={strategy}"])
    for w in words:
        assert w in str(e.value), f"{strategy}: {e.value!s} lacks {w!r}"


# --------------------------------------------------------------------------- 6. runner and CLI

def numbers(res):
    return res.table().drop(columns=["created"])


def test_run_is_reproducible_and_identical_on_two_workers():
    a = simkit.run("ochko_session", n=2000, seed=1)
    b = simkit.run("ochko_session", n=2000, seed=1)
    c = simkit.run("ochko_session", n=2000, seed=1, workers=2)
    pd.testing.assert_frame_equal(numbers(a), numbers(b))
    pd.testing.assert_frame_equal(numbers(a), numbers(c))
    assert not numbers(a).equals(numbers(simkit.run("ochko_session", n=2000, seed=2)))
    e = a.estimates(0)
    assert e["bank_result"]["mean"] > 0 and e["bank_profit"]["mean"] > 0.5
    assert math.isclose(e["bank_result"]["mean"], -e["p1_result"]["mean"], abs_tol=1e-12)


def test_rows_and_sweep_through_the_runner():
    res = simkit.run("ochko_session(players=2,bank=5)", n=3000, seed=3, rows=True,
                     strategies=["p1=vabank(card=10)", "p2=fraction(f=0.3)"], workers=2)
    rows = res.rows
    e = res.estimates(0)
    for m in ("bank_result", "stuk", "rounds", "p2_staked"):
        assert math.isclose(rows[m].mean(), e[m]["mean"], rel_tol=1e-12, abs_tol=1e-12)
    assert ((rows["bank_result"] + rows["p1_result"] + rows["p2_result"]).abs() < 1e-9).all()
    sw = simkit.sweep("ochko_session", grid={"bank": [5, 20], "p1.f": [0.1, 0.5]}, n=2000, seed=3,
                      strategies=["p1=fraction"])
    w = sw.wide()
    assert len(w) == 4 and set(w["bank"]) == {5, 20}
    d = sw.paired("bank_result", 0, 1)
    assert math.isfinite(d["mean"])


def test_cli_run_json_sweep_and_resume(capsys, tmp_path):
    rc = main(["run", "ochko_session(bank=5)", "-n", "3000", "--seed", "2", "--format", "json",
               "-s", "p1=vabank(card=10)", "-m", "bank_result", "-m", "stuk"])
    out = capsys.readouterr().out
    assert rc == 0
    obj = json.loads(out)
    assert obj["game"] == "ochko_session" and obj["rules"] == "ochko_session(bank=5)"
    assert set(obj["metrics"]) == {"bank_result", "stuk"}
    assert obj["strategies"] == {"p1": "vabank(card=10,base=1,t=17)"}
    f = str(tmp_path / "s.parquet")
    assert main(["sweep", "ochko_session", "--grid", "bank=5,10", "-n", "3000", "-o", f,
                 "--format", "csv"]) == 0
    first = capsys.readouterr().out
    assert main(["sweep", "ochko_session", "--grid", "bank=5,10", "-n", "3000", "-o", f,
                 "--format", "csv", "--resume"]) == 0
    again = capsys.readouterr().out
    drop = lambda s: pd.read_csv(__import__("io").StringIO(s)).drop(columns=["created"])  # noqa: E731
    pd.testing.assert_frame_equal(drop(first), drop(again))
    assert main(["run", "ochko_session(stuk_multiple=0.5)"]) == 2
    assert "stuk_multiple" in capsys.readouterr().err


def test_bank_result_is_the_round_edge_times_the_stakes():
    """Optional stopping: with stakes that ignore the cards, E[bank_result] = e * E[staked] where
    e is the bank's edge per unit stake of one round (measured by the round game).  Per-session
    d = bank_result - e * staked has mean 0; tolerance 4.5 standard errors (d's, plus e's error
    times the mean turnover), deterministic seeds."""
    res = simkit.run("ochko_session(players=2,bank=6,stuk_multiple=2.5)", n=20_000, seed=5,
                     rows=True, strategies=["p1=fixed(stake=2,t=16)", "p2=fraction(f=0.25)"])
    rows = res.rows
    rnd = simkit.run("ochko(players=2)", n=2_000_000, seed=6, strategies=["p1=stand_at(16)"])
    ev = rnd.estimates(0)
    per_seat = [-ev["p1_result"]["mean"], -ev["p2_result"]["mean"]]
    d = rows["bank_result"] - per_seat[0] * rows["p1_staked"] - per_seat[1] * rows["p2_staked"]
    se = math.sqrt(d.var() / len(d) + (ev["p1_result"]["se"] * rows["p1_staked"].mean()) ** 2
                   + (ev["p2_result"]["se"] * rows["p2_staked"].mean()) ** 2)
    assert abs(d.mean()) < 4.5 * se, (d.mean(), se)
    assert rows["bank_result"].mean() > 0


def test_move_log_events_are_the_traced_rounds():
    """The move log (the house's events): per logged round a ``ROUND``, each seat's stake
    (``STAKE``, and ``STAKE_HI`` for the 16-bit parts of a stake of 2^16 or more) equal to the
    trace's, the round's cards, each seat's ``SETTLE`` whose category pays the trace's payoff per
    unit staked, and the round's events within ``round_events`` (the row's room per round);
    stakes up to 9e5 here, so the long stakes are read back too."""
    from simkit.engines.banking import round as banker_round
    from simkit.engines.moves import split_event
    from simkit.games.ochko_session.replay import rounds_of, seat_values
    game = "ochko_session(players=3,bank=1000000,round_cap=bank,stuk_multiple=0,max_rounds=40)"
    spec, rules = parse_game(game)
    strats = parse_strategies(spec, rules, ["p1=fraction(0.9)", "p2=fixed(70000)",
                                            "p3=vabank(card=10,base=3)"])
    n = 6
    log = np.zeros((n, len(spec.log_columns(rules))), np.int64)
    run_chunk(spec, rules, strats, stream_state(3, 0), n, True, log)
    _, trace = trace_sessions(rules, strats, stream_state(3, 0), n=n)
    pay_of = banker_round.weights(rules)[:, banker_round.P.result]
    per_round = session_engine.round_events(rules)
    big = 0
    for i in range(n):
        rounds = rounds_of(log[i].tolist())
        tr = trace[trace["session"] == i]
        assert len(rounds) == len(tr) > 0
        for r, events in enumerate(rounds):
            assert len(events) + 1 <= per_round
            kinds = [split_event(e)[0] for e in events]
            assert kinds.count(session_engine.E_SETTLE) == 3
            stakes, cats = seat_values(3, events)
            row = tr.iloc[r]
            for k in range(3):
                assert stakes[k] == row[f"p{k + 1}_stake"]
                assert pay_of[cats[k]] == row[f"p{k + 1}_pay"]
            big += sum(s >= 1 << 16 for s in stakes)
    assert big > 0
