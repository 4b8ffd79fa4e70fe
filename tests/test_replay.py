"""``simkit replay`` (issue 29): the core (:mod:`simkit.core.replay`), the CLI, and the replays of
ochko, ochko_session, gin, hearts, old_maid, fan_tan and crazy_eights, each checked against
something its decoder did not write: the kernel's metric row recomputed from the records by the
rule text (tricks, chips, points, bank), the trace of :func:`simkit.games.ochko_session.
trace_sessions`, or a stacked deal whose moves are known by hand."""
from __future__ import annotations

import json
from collections import Counter

import pytest

import simkit
from simkit.cli import main
from simkit.core import cards as C
from simkit.core import play
from simkit.core.replay import KEYS, MAX_DEAL, as_json, check_records, render, replay_unit
from simkit.core.registry import resolve_strategies
from simkit.core.rng import stream_state
from simkit.errors import SimkitError
from simkit.games import parse_game
from simkit.games.hearts.engine import read_log

MINE = ("ochko", "ochko_session", "gin", "hearts", "old_maid", "fan_tan", "crazy_eights")


def replay(game: str, strategies=None, seed: int = 1, deal: int = 1):
    spec, rules = parse_game(game)
    records, metrics = replay_unit(spec, rules, strategies, seed, deal)
    check_records(records, spec.pack(rules), spec.seats(rules))
    return spec, rules, records, metrics


def by(records, action=None, seat=None, deal=None):
    return [r for r in records if (action is None or r["action"] == action)
            and (seat is None or r["seat"] == seat) and (deal is None or r["deal"] == deal)]


@pytest.mark.parametrize("game", MINE)
def test_every_record_keeps_the_contract_and_deal_k_is_row_k(game):
    spec, rules, records, metrics = replay(game, seed=3, deal=2)
    assert all(set(r) == set(KEYS) for r in records)
    rows, _ = play.play_logged(spec, rules, None, n=2, seed=3)
    assert metrics == rows.iloc[1].to_dict()   # deal 2 is row 2 of the seed's first chunk
    text = render(records, [f"p{k + 1}" for k in range(spec.seats(rules))])
    assert len(text.splitlines()) >= len(records)
    assert all(isinstance(c, str) for r in as_json(records) for c in r["cards"])


def _presets():
    """Every preset of the seven games that keeps a move log (gin's eaai plays whole games)."""
    out = [f"{g}(preset={p})" for g in MINE for p in simkit.get_game(g).presets]
    return [g for g in out if parse_game(g)[0].log_columns(parse_game(g)[1])]


@pytest.mark.parametrize("game", _presets())
def test_every_preset_replays_within_the_contract(game):
    replay(game, seed=11)


def test_check_records_refuses_what_breaks_the_contract():
    good = dict(deal=1, seat=0, action="plays", cards=[C.card(12, 3)], note="")
    check_records([good], C.deck(52), 2)
    for bad in (dict(good, seat=2), dict(good, cards=[99]), dict(good, deal=0),
                dict(good, action=""), {k: v for k, v in good.items() if k != "note"},
                dict(good, cards=[C.card(12, 3) + 0.0])):
        with pytest.raises(ValueError):
            check_records([bad], C.deck(52), 2)


# --------------------------------------------------------------------------- hearts

def _trick_winner(cards):
    """The position of the highest card of the led suit (four players, one deck, no joker)."""
    led = cards[0] >> 4
    return max((c & 15, i) for i, c in enumerate(cards) if c >> 4 == led)[1]


@pytest.mark.parametrize("deal", [1, 2, 3])
def test_hearts_every_card_once_each_hand_as_dealt_and_passed_and_points_by_trick(deal):
    spec, rules, rec, m = replay("hearts", seed=5, deal=deal)
    plays = [r for r in rec if r["action"] in ("leads", "follows", "discards")]
    assert Counter(c for r in plays for c in r["cards"]) == Counter(int(c) for c in spec.pack(rules))
    log = play.unit_log(spec, rules, None, 5, deal)["log"]
    off = read_log(rules, log)["pass_offset"]       # the kernel's pass offset
    for p in range(4):
        hand = set(by(rec, "is dealt", p)[0]["cards"])
        if off:
            hand -= set(by(rec, "passes", p)[0]["cards"])
            hand |= set(by(rec, "passes", (p - off) % 4)[0]["cards"])
        assert {c for r in plays if r["seat"] == p for c in r["cards"]} == hand
    points = [0] * 4
    for t in range(13):
        trick = plays[4 * t:4 * (t + 1)]
        assert trick[0]["action"] == "leads"
        w = _trick_winner([r["cards"][0] for r in trick])
        assert trick[w]["note"].startswith("wins the trick")  # the decoder says the same
        points[trick[w]["seat"]] += sum(1 if c >> 4 == 2 else 13 if c == C.card(12, 3) else 0
                                        for r in trick for c in r["cards"])
    if m["moon_rate"] == 0:
        assert points == [m[f"p{k + 1}_points"] for k in range(4)]
    else:
        assert 26 in points


# --------------------------------------------------------------------------- fan_tan

@pytest.mark.parametrize("deal", [1, 2])
def test_fan_tan_plays_are_legal_and_chips_add_up_to_the_metrics(deal):
    spec, rules, rec, m = replay("fan_tan", seed=2, deal=deal)
    K = rules.players
    hands = {p: set(by(rec, "is dealt", p)[0]["cards"]) for p in range(K)}
    low = lambda c: 1 if c & 15 == 14 else c & 15  # noqa: E731 - A low (line 123)
    lo, hi = {}, {}
    chips, pool = [0] * K, 0
    for r in by(rec, "antes"):
        a = int(r["note"].split()[0])
        chips[r["seat"]] -= a
        pool += a
    for r in rec:
        p = r["seat"]
        if r["action"] == "passes":
            chips[p] -= 1
            pool += 1
        elif r["action"] == "plays":
            c = r["cards"][0]
            s, rk = c >> 4, low(c)
            assert c in hands[p]
            if s not in lo:                       # line 127: sevens open the rows
                assert rk == 7
                lo[s] = hi[s] = 7
            else:
                assert rk in (lo[s] - 1, hi[s] + 1)
                lo[s], hi[s] = min(lo[s], rk), max(hi[s], rk)
            hands[p].discard(c)
    winner = int(m["winner_seat"]) - 1
    assert not hands[winner]
    for p in range(K):
        assert len(by(rec, "passes", p)) == m[f"p{p + 1}_passes"]
        if p != winner:                           # line 128: a chip per card left
            chips[p] -= len(hands[p])
            pool += len(hands[p])
    chips[winner] += pool
    assert chips == [m[f"p{p + 1}_chips"] for p in range(K)] and pool == m["pool"]


# --------------------------------------------------------------------------- old_maid

@pytest.mark.parametrize("game", ["old_maid", "old_maid(players=3,draw_from=left)"])
def test_old_maid_draws_pairs_and_the_loser_match_the_metrics(game):
    spec, rules, rec, m = replay(game, seed=4)
    K = rules.players
    dealt = [c for r in by(rec, "is dealt") for c in r["cards"]]
    assert Counter(dealt) == Counter(int(c) for c in spec.pack(rules))
    draws = [r for r in rec if r["action"].startswith("draws from p")]
    assert len(draws) == m["draws"]
    hands = {p: set(by(rec, "is dealt", p)[0]["cards"]) for p in range(K)}
    for p in range(K):
        for r in by(rec, "discards pairs", p):
            ranks = Counter(c & 15 for c in r["cards"])
            assert all(n % 2 == 0 for n in ranks.values())
            hands[p] -= set(r["cards"])
    for r in draws:
        p, victim = r["seat"], int(r["action"].split("p")[-1]) - 1
        step = 1 if rules.draw_from == "left" else -1
        assert victim == next(q for q in [(p + step * j) % K for j in range(1, K)] if hands[q])
        c = r["cards"][0]
        hands[victim].remove(c)
        mate = [x for x in hands[p] if x & 15 == c & 15]
        hands[p] = hands[p] - set(mate) if mate else hands[p] | {c}
    left = {p: h for p, h in hands.items() if h}
    assert len(left) == 1
    (loser, hand), = left.items()
    assert m[f"p{loser + 1}_lose"] == 1 and [c & 15 for c in hand] == [12]


# --------------------------------------------------------------------------- crazy_eights

POINTS_112 = {8: 50, 14: 1, 11: 10, 12: 10, 13: 10}   # line 112; other cards their number


@pytest.mark.parametrize("game,deal", [("crazy_eights", 1), ("crazy_eights", 2),
                                       ("crazy_eights(players=4)", 1),
                                       ("crazy_eights(preset=optional)", 2)])
def test_crazy_eights_plays_follow_the_top_card_and_the_winner_scores_line_112(game, deal):
    spec, rules, rec, m = replay(game, seed=6, deal=deal)
    K = rules.players
    hands = {p: Counter(by(rec, "is dealt", p)[0]["cards"]) for p in range(K)}
    top, suit = None, None
    for r in rec:
        p, a = r["seat"], r["action"]
        if a == "the starter is":
            top = r["cards"][0]
            suit = top >> 4
        elif a == "draws from the stock":
            hands[p][r["cards"][0]] += 1
        elif a == "plays":
            c = r["cards"][0]
            assert hands[p][c] > 0
            assert c & 15 == 8 or c >> 4 == suit or c & 15 == top & 15   # lines 110-111
            hands[p][c] -= 1
            top = c
            suit = C.SUIT_SYMBOLS.index(r["note"].split()[1][0]) if c & 15 == 8 else c >> 4
    assert len(by(rec, "plays")) == m["plays"] and len(by(rec, "draws from the stock")) == m["draws"]
    left = {p: sum(POINTS_112.get(c & 15, c & 15) * n for c, n in h.items()) for p, h in hands.items()}
    out = [p for p in range(K) if not +hands[p]]
    if out:
        (w,) = out
        assert m[f"p{w + 1}_win"] == 1
        assert m[f"p{w + 1}_points"] == sum(left.values())


# --------------------------------------------------------------------------- ochko

def test_ochko_a_stacked_round_known_by_hand():
    """p1 (stand at 17) gets 10♠, the banker turns up 6♥; p1 draws 9♦ and stands on 19; the
    banker draws 7♣ (13) and 6♠ (19): a tie, which goes to the bank (line 13)."""
    spec, rules = parse_game("ochko")
    m, log = play.play_stacked(spec, rules, None, "10s 6h 9d 7c 6s", log=True)
    rec = spec.replay(rules, [x for x in log.tolist() if x != -1], m)
    check_records(rec, spec.pack(rules), 1)
    c = C.parse
    assert [(r["seat"], r["action"], r["cards"], r["note"]) for r in rec] == [
        (0, "is dealt", list(c("10s")), ""), (None, "the banker turns up", list(c("6h")), ""),
        (0, "takes a card", list(c("9d")), ""), (0, "stands with", list(c("10s 9d")), "19"),
        (None, "the banker draws", list(c("7c")), ""), (None, "the banker draws", list(c("6s")), ""),
        (None, "the banker stands with", list(c("6h 7c 6s")), "19"), (0, "loses", [], "-1 stake")]


def test_ochko_idle_banker_and_busts_agree_with_the_metrics():
    spec, rules = parse_game("ochko(players=2)")
    values = {r: v for r, v in zip(range(6, 15), (6, 7, 8, 9, 10, 2, 3, 4, 11))}  # line 38
    seen = Counter()
    for deal in range(1, 41):
        rec, m = replay_unit(spec, rules, None, 9, deal)
        idle = bool(by(rec, "the banker draws no card"))
        assert idle == (m["banker_idle"] == 1)
        for k in range(2):
            (end,) = [r for r in rec if r["seat"] == k and r["cards"] and len(r["cards"]) >= 1
                      and r["action"] not in ("is dealt", "takes a card")]
            total = sum(values[c & 15] for c in end["cards"])
            assert (end["action"] == "busts with") == (m[f"p{k + 1}_bust"] == 1)
            assert end["note"].endswith(str(total))
            seen[end["action"]] += 1
        seen["idle"] += idle
    assert seen["busts with"] and seen["stands with"] and seen["idle"]   # both kinds were seen


# --------------------------------------------------------------------------- ochko_session

def test_ochko_session_rounds_match_the_trace_and_the_money_adds_up():
    from simkit.games.ochko_session import trace_sessions
    spec, rules = parse_game("ochko_session(players=2,bank=6)")
    strats = resolve_strategies(spec, rules, ["p2=vabank"])
    rec, m = replay_unit(spec, rules, strats, 2, 1)
    check_records(rec, spec.pack(rules), 2)
    _, trace = trace_sessions(rules, strats, stream_state(2, 0), n=1)
    assert len(trace) == m["rounds"] == max(r["deal"] for r in rec)
    bank = rules.bank
    for (_, t), d in zip(trace.iterrows(), range(1, len(trace) + 1)):
        assert by(rec, "the banker turns up", deal=d)[0]["cards"] == [t["banker_card"]]
        assert by(rec, f"the bank holds {bank:g}", deal=d)
        for k in range(2):
            assert by(rec, "is dealt", k, d)[0]["cards"] == [t[f"p{k + 1}_card"]]
            stake = by(rec, "stakes", k, d) or by(rec, "sits out", k, d)
            assert (stake[0]["note"] == f"{t[f'p{k + 1}_stake']:g}") or t[f"p{k + 1}_stake"] == 0
        bank -= sum(float(r["note"]) for r in rec if r["deal"] == d
                    and r["action"] in ("wins", "loses", "pushes"))
        assert bank == t["bank_after"]
    assert bank == rules.bank + m["bank_result"]
    for k in range(2):
        won = sum(float(r["note"]) for r in rec if r["seat"] == k
                  and r["action"] in ("wins", "loses", "pushes"))
        assert won == m[f"p{k + 1}_result"]


# --------------------------------------------------------------------------- gin

def test_gin_turns_points_and_the_discard_pile():
    spec, rules, rec, m = replay("gin", ["p2=simple"], seed=7)
    draws = [r for r in rec if r["action"] in ("draws from the stock", "takes the discard",
                                                "takes the upcard")]
    assert len(draws) == 2 * m["turns"]               # swap: the metric is the two hands' mean
    net = 0
    for h in (1, 2):
        hand = [r for r in rec if r["deal"] == h]
        stock = [r["cards"][0] for r in hand if r["action"] == "draws from the stock"]
        assert len(stock) == len(set(stock))          # a card comes off the stock once
        pile = None
        for r in hand:
            if r["action"] == "takes the discard":
                assert r["cards"][0] == pile          # the top of the pile is the last discard
            if r["action"] in ("discards", "knocks, discarding", "goes gin, discarding"):
                pile = r["cards"][0]
        for r in hand:
            if r["action"].startswith("scores "):
                pts = int(r["action"].split()[1])
                net += pts if r["seat"] == 0 else -pts
    assert net / 2 == m["p1_points"]


# --------------------------------------------------------------------------- the CLI and refusals

def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_text_and_json(capsys):
    code, text, _ = run(capsys, "replay", "old_maid", "--seed", "3")
    assert code == 0 and "p1 (uniform) is dealt" in text and "is left with the odd queen" in text
    assert text.splitlines()[0].startswith("game: old_maid") and "metrics: p1_lose" in text
    code, out, _ = run(capsys, "replay", "old_maid", "--seed", "3", "--format", "json")
    obj = json.loads(out)
    assert code == 0 and set(obj) == {"game", "rules", "strategies", "seed", "deal", "metrics",
                                      "moves"}
    assert obj["seed"] == 3 and obj["deal"] == 1 and obj["strategies"][0] == "p1=uniform"
    assert all(set(r) == set(KEYS) for r in obj["moves"])
    assert [C.format_card(C.parse_card(c), "symbols") for r in obj["moves"] for c in r["cards"]] \
        == [c for r in obj["moves"] for c in r["cards"]]
    assert len([r for r in obj["moves"] if r["action"].startswith("draws from")]) \
        == obj["metrics"]["draws"]
    _, two, _ = run(capsys, "replay", "old_maid", "--seed", "3", "--deal", "2")
    assert two.splitlines()[1:] != text.splitlines()[1:]


@pytest.mark.parametrize("argv,says", [
    (["replay", "old_maid", "--deal", "0"], "--deal must be"),
    (["replay", "old_maid", "--deal", str(MAX_DEAL + 1)], "--deal must be"),
    (["replay", "old_maid", "--deal", "x"], "--deal"),
    (["replay", "nogame"], "unknown game"),
    (["replay", "gin(unit=match)"], "-r unit=hand"),
    (["replay", "old_maid", "--seed", "-1"], "--seed"),
    (["replay", "old_maid", "-s", "p9=uniform"], "unknown seat"),
    (["replay", "old_maid", "--format", "csv"], "--format"),
])
def test_cli_bad_input_exits_2_with_one_line(capsys, argv, says):
    code, out, err = run(capsys, *argv)
    assert code == 2 and len(err.strip().splitlines()) == 1 and says in err, err


def test_replay_unit_refuses_a_game_without_a_replay():
    from dataclasses import replace
    spec, rules = parse_game("old_maid")
    with pytest.raises(SimkitError, match="no replay"):
        replay_unit(replace(spec, replay=None), rules)
    assert simkit.get_game("old_maid").replay is not None


@pytest.mark.parametrize("game", sorted(simkit.games.GAMES))
def test_every_registered_game_replays(game):
    """Issue 29: ``simkit replay`` for every registered game, in card names and words."""
    spec, rules = parse_game(game)
    assert spec.replay is not None, game
    _, _, records, _ = replay(game, seed=5)
    text = render(records, [f"p{k + 1}" for k in range(spec.seats(rules))])
    assert records and any(r["cards"] for r in records)
    assert any(s in text for s in "♠♥♦♣"), text[:200]


def test_the_rummy_event_encoding_round_trips_and_drops_events_past_the_row():
    """``put_event``/``split_event`` (Oklahoma, Panguingue, Canasta): every field back, the joker
    (64) included; a full row drops events; an empty log logs nothing."""
    import numpy as np
    from simkit.engines.moves import put_event, split_event
    log, cur = np.full((2, 4), -1, np.int64), np.array([0, 1], np.int64)
    events = [(1, 0, 0, 64), (15, 9, 255, 0), (3, 4, 17, 62), (2, 1, 1, 19)]
    for e in events:
        put_event(log, 1, cur, 1, *e)
    assert cur[1] == 4 and log[0].tolist() == [-1] * 4 and log[1, 0] == -1
    assert [split_event(x) for x in log[1, 1:]] == events[:3]
    put_event(log[:0], 0, cur, 0, 1, 0, 0, 64)
    assert cur[0] == 0


def test_put_next_writes_the_same_events_at_a_carried_position():
    """``put_next`` (thirty_one, durak, piquet: the position a local) writes ``event``'s int,
    which ``split_event`` reads back field by field, the joker (64) included; past a full row it
    writes nothing but still counts; an empty log writes nothing."""
    import numpy as np
    from simkit.engines.moves import event, put_next, split_event
    log = np.full((2, 3), -1, np.int64)
    events = [(1, 0, 0, 64), (11, 7, 200, 0), (4, 15, 3, 62), (2, 1, 1, 19)]
    lp = 0
    for e in events:
        lp = put_next(log, 1, lp, *e)
    assert lp == 4 and log[0].tolist() == [-1] * 3
    assert [split_event(x) for x in log[1]] == events[:3]
    assert log[1, 1] == event(11, 7, 200, 0) == (11 << 20) + (7 << 16) + (200 << 8)
    assert put_next(log[:0], 0, 5, 1, 0, 0, 64) == 6
