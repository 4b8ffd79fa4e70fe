"""Bicycle's Brazilian readings as options (READINGS-rummy.md 3.6: "Bicycle/rummy-games [read] add:
the pile may not be taken for the initial meld; ... always ask partner before going out"; 003:83
is silent): ``initial_pile_take``, ``ask_partner``, ``escalera_out_ends`` ("in going out one may add to
the ends of an escalera") and ``preset=brazilian_bicycle``.

Each option is shown to act (a placed table where the engine's decision list changes, and seeded
hands whose logs change the way the rule says), the referee (tests/canasta_reference.py, written
from the rules, not the engine) accepts the engine's logs with the options on (there:
test_canasta_reference.py CASES) and refuses an engine log of the other rules relabelled with the
option's head bit.  Seeds fixed; counts exact (no statistics).
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import simkit
from simkit.core import cards as C
from simkit.core import play
from simkit.core.registry import parse_rules
from simkit.engines.moves import split_event
from simkit.errors import SimkitError
from simkit.games.canasta import engine as E
from simkit.games.canasta.rules import PRESETS
from tests import canasta_reference as ref
from tests.test_canasta import _samba_table

SPEC = simkit.get_game("canasta")
MIX = ["p1=random", "p2=baseline", "p3=random", "p4=baseline"]
BASE = ["p1=baseline", "p2=baseline", "p3=baseline", "p4=baseline"]
NHEAD = 14                                  # the Samba family's head (CANASTA.md 12:35)


def brazilian(**kw):
    return SPEC.rules.build({**PRESETS["brazilian"], **kw})


def _initial_takes(row):
    """Pile takes by a seat whose side had laid nothing before them."""
    melded, n = [False, False], 0
    for e in [ref.decode(x) for x in row[NHEAD:NHEAD + int(row[1])]]:
        if e[0] == ref.TAKE and not melded[e[1] % 2]:
            n += 1
        if e[0] == ref.LAY:
            melded[e[1] % 2] = True
    return n


def _logged(rules, strats, n, seed):
    rows, log = play.play_logged(SPEC, rules, strats, n=n, seed=seed)
    res = ref.check_rows(rows, log, rules)
    assert (res["illegal"], res["mismatch"], res["truncated"]) == (0, 0, 0), res["problems"]
    return rows, log, res


# ----------------------------------------------------------------------------- the options

def test_defaults_are_the_earlier_play_and_the_preset_is_brazilian_plus_three():
    r = SPEC.rules.build({})
    assert (r.initial_pile_take, r.ask_partner, r.escalera_out_ends) == (True, "may", False)
    b = brazilian()
    assert (b.initial_pile_take, b.ask_partner) == (True, "may")
    bb = parse_rules(SPEC, "canasta(preset=brazilian_bicycle)")
    diff = {k for k in PRESETS["brazilian_bicycle"]
            if PRESETS["brazilian_bicycle"][k] != PRESETS["brazilian"].get(k)}
    assert diff == {"incomplete_penalty", "initial_pile_take", "ask_partner", "escalera_out_ends"}
    assert (bb.incomplete_penalty, bb.initial_pile_take, bb.ask_partner, bb.escalera_out_ends) \
        == ("bicycle_seq_lt5", False, "always", True)
    assert bb == brazilian(incomplete_penalty="bicycle_seq_lt5", initial_pile_take=False,
                           ask_partner="always", escalera_out_ends=True)
    assert parse_rules(SPEC, "canasta(preset=brazilian_bicycle,unit=game)").game_to == 10000
    for name in ("initial_pile_take", "ask_partner", "escalera_out_ends"):
        src = {f.name: f for f in dataclasses.fields(type(r))}[name].metadata
        assert "READINGS 3.6" in src["source"] and "003:83 silent" in src["source"]


@pytest.mark.parametrize("game,pattern", [
    ("canasta(initial_pile_take=false)", r"initial_pile_take=false outside the Samba family"),
    ("canasta(preset=two_hand,ask_partner=always)", r"ask_partner=always outside four-hand"),
    ("canasta(ask_partner=always)", r"ask_partner=always outside four-hand"),
    ("canasta(escalera_out_ends=true)", r"escalera_out_ends without sequences"),
    ("canasta(preset=brazilian,ask_partner=often)", r"one of"),
    ("canasta(preset=brazilian,initial_pile_take=perhaps)", r"expected true or false"),
])
def test_refused_values_exit_2_with_one_line(game, pattern, capsys, tmp_path, monkeypatch):
    from simkit.cli import main
    from tests.test_bad_input import check_one_line
    monkeypatch.chdir(tmp_path)
    rc = main(["run", game, "-n", "10"])
    cap = capsys.readouterr()
    check_one_line(rc, cap.out, cap.err, pattern)
    with pytest.raises(SimkitError):
        parse_rules(SPEC, game)


# ----------------------------------------------------------------------------- initial_pile_take

def test_no_take_is_listed_before_the_sides_first_meld():
    """A natural pair of the top card (the frozen pile's only take, 003:78): listed for a side
    without a meld under the text's Brazilian, not with ``initial_pile_take=false``; once the
    side has melded the option changes nothing."""
    for melds, want in (({}, (2, 0)), ({13: 3}, (2, 2))):
        got = tuple(E.take_forms(*_samba_table(None, "9h 9d 4c 5c", melds, [], "Kc 9c",
                                               r=brazilian(initial_pile_take=t))[:3:2], 0)
                    for t in (True, False))
        assert got == want, (melds, got)


def test_initial_takes_vanish_and_the_referee_refuses_them():
    """Seeded hands (n=60, mixed random/baseline): the text's Brazilian takes the pile for an
    initial meld in some hands; with ``initial_pile_take=false`` in none, the referee agreeing.
    A logged initial take relabelled with the option's head bit is refused."""
    _, log, _ = _logged(brazilian(), MIX, 60, 83)
    taken = [i for i, row in enumerate(log) if _initial_takes(row)]
    assert len(taken) >= 5
    rows2, log2, res2 = _logged(brazilian(initial_pile_take=False), MIX, 60, 83)
    assert sum(_initial_takes(row) for row in log2) == 0 and res2["seen"]["take"] > 0
    bad = np.array(log[taken[0]], copy=True)
    bad[13] |= 2
    with pytest.raises(ref.Illegal, match="initial meld"):
        ref.replay(bad, brazilian(initial_pile_take=False))
    with pytest.raises(ref.Illegal, match="head"):          # the rules say it, the head not
        ref.replay(log[taken[0]], brazilian(initial_pile_take=False))


# ----------------------------------------------------------------------------- ask_partner

def test_always_ask_refuses_a_take_that_would_commit_to_going_out():
    """A pair of nines takes the pile of two (9c on Kc), the side holding two canastas: the
    taker keeps one card, the king, and must go out by discarding it (CANASTA.md trap (b)),
    legal when asking is optional; with ``ask_partner=always`` partner may say no, so the take
    is refused (the reading of rules.py).  With a third card in hand it is legal either way."""
    for hand, want in (("9h 9d", (True, False)), ("9h 9d 4c", (True, True))):
        got = []
        for ask in ("may", "always"):
            R, S, W, _ = _samba_table(None, hand, {13: 7, 12: 7, 9: 3}, [], "Kc 9c",
                                      r=brazilian(ask_partner=ask))
            got.append(bool(E.take_forms(R, W, 0) & 2) and E.take_plan(R, W, 0, 2))
        assert tuple(got) == want, (hand, got)


def test_every_going_out_is_asked_and_a_no_binds():
    """The baseline's default never asks (``ask=0``): seeded hands (n=60) under the text's
    Brazilian hold no EV_ASK; with ``ask_partner=always`` every going out follows partner's yes
    in that turn (yes forces it: asks answered yes = goings out), and some asks are answered
    no, those askers not going out that turn (the referee's trap (a)).  A logged going out of
    the text's Brazilian, unasked, relabelled with the option's head bit is refused."""
    _, _, res = _logged(brazilian(), BASE, 60, 84)
    assert res["seen"]["ask_yes"] + res["seen"]["ask_no"] == 0 and res["seen"]["out"] > 0
    _, log, res = _logged(brazilian(ask_partner="always"), BASE, 60, 84)
    s = res["seen"]
    assert s["ask_yes"] == s["out"] > 0 and s["ask_no"] > 0, s
    # a going out of the text's Brazilian, unasked, relabelled "always ask": refused
    _, log0, _ = _logged(brazilian(), BASE, 20, 85)
    i = next(i for i, row in enumerate(log0) if any(ref.decode(e)[0] == ref.OUT
                                                    for e in row[NHEAD:NHEAD + int(row[1])]))
    bad = np.array(log0[i], copy=True)
    bad[13] |= 4
    with pytest.raises(ref.Illegal, match="without asking partner"):
        ref.replay(bad, brazilian(ask_partner="always"))


def test_the_referee_refuses_a_take_leaving_one_card_when_asking_is_due():
    """An engine log of the text's Brazilian (random seats) where a take leaves the taker one
    card or none (legal there, trap (b)), relabelled "always ask": refused at that take."""
    _, log, _ = _logged(brazilian(), [f"p{k}=random" for k in (1, 2, 3, 4)], 200, 86)
    found = 0
    for row in log:
        evs = [ref.decode(e) for e in row[NHEAD:NHEAD + int(row[1])]]
        for j, e in enumerate(evs):
            if e[0] != ref.PILE:
                continue
            k = j + 1
            while k < len(evs) and evs[k][0] == ref.RED3_EV:
                k += 1
            H = ref.replay(row, brazilian(), stop=k)
            if sum(H.hands[e[1]].values()) < 2:
                bad = np.array(row, copy=True)
                bad[13] |= 4
                with pytest.raises(ref.Illegal, match="after a take when partner must"):
                    ref.replay(bad, brazilian(ask_partner="always"))
                found += 1
                break
        if found >= 2:
            break
    assert found >= 1


# ----------------------------------------------------------------------------- escalera_out_ends

def _esc_table(hand, esc_ends):
    """Seat 0's side: a canasta of kings and the escalera 5h..Jh (two canastas: enough to go
    out), melded before the turn; ``hand`` held."""
    R, S, W, log = _samba_table(None, hand, {13: 7}, ["5h Jh"], "Kc 8s",
                                r=brazilian(escalera_out_ends=esc_ends))
    W.st[7] = W.st[8] = 1                        # the side melded, the seat laid, before
    return R, S, W, log


def test_going_out_onto_an_escaleras_ends_only_with_the_option():
    """4h and Qh fit only the escalera's ends (no group of fours or queens): without the option
    the hand cannot go out (two loose cards), with it both go on the escalera (logged as lays on
    its id 16, low end first) and the nine is discarded; a hand the groups take out plans
    nothing on the escalera, one they do not takes only the card that fits its end."""
    R, S, W, log = _esc_table("4h Qh 9c", False)
    assert E.out_plan(R, W, 0) == -1
    R, S, W, log = _esc_table("4h Qh 9c", True)
    assert E.out_plan(R, W, 0) == 1 and W.st[E.ESC] == 2
    assert W.st[E.HN] == 3 and W.cd[0, C.parse_card("4h")] == 1     # nothing laid by planning
    start = W.st[E.LP]
    E.go_out(R, W, 0, log, 0)
    ev = [split_event(x) for x in log[0, start:W.st[E.LP]]]
    assert [(e[0], e[2], e[3]) for e in ev] == [
        (E.EV_LAY, 16, C.parse_card("4h")), (E.EV_LAY, 16, C.parse_card("Qh")),
        (E.EV_DISCARD, 0, C.parse_card("9c")), (E.EV_OUT, 0, 0)]
    assert E.seq_len(W, 0, 0) == 9 and E.sambas(W, 0) == 1
    R, S, W, log = _esc_table("Kd Qh 9c", True)           # the king on its group, Qh on the end
    assert E.out_plan(R, W, 0) == 1 and W.st[E.ESC] == 1 and W.rk[E.PL, 13] == 1
    R, S, W, log = _esc_table("Kd Qh 9c", False)
    assert E.out_plan(R, W, 0) == -1
    R, S, W, log = _esc_table("Kd 9c", True)
    assert E.out_plan(R, W, 0) == 1 and W.st[E.ESC] == 0


def test_the_referee_takes_escalera_ends_only_in_a_going_out_turn():
    """Seeded hands with random seats (n=300): some goings out extend an escalera and the
    referee accepts them, scoring a sequence of eight or more as one sequence canasta; the same
    log without the option's head bit is refused at that lay, and a lay beyond seven moved to a
    turn that ends with a discard is refused."""
    rules = brazilian(escalera_out_ends=True)
    _, log, res = _logged(rules, [f"p{k}=random" for k in (1, 2, 3, 4)], 300, 87)
    assert res["seen"]["esc_end"] > 0, res["seen"]
    i = next(i for i, row in enumerate(log) if ref.replay(row, rules).seen["esc_end"])
    bad = np.array(log[i], copy=True)
    bad[13] &= ~8
    with pytest.raises(ref.Illegal, match="laid on a samba"):
        ref.replay(bad, brazilian())
    evs = [ref.decode(e) for e in log[i][NHEAD:NHEAD + int(log[i][1])]]
    H = ref.replay(log[i], rules)
    j = next(j for j, e in enumerate(evs) if e[0] == ref.LAY and e[2] >= 16 and
             len(ref.replay(log[i], rules, stop=j + 1).melds[e[1] % 2][e[2]]) > 7)
    assert H.out == evs[j][1]
    # the same lay, then the turn ended by a discard of a card the player holds, not going out
    k = j + 1
    rest = evs[:k] + [(ref.DISCARD, evs[j][1], 0, next(
        c for c, n in ref.replay(log[i], rules, stop=k).hands[evs[j][1]].items() if n))] + \
        [(ref.END, 0, 1, 0)]
    cut = list(log[i][:NHEAD]) + [ref.encode(*e) for e in rest]
    cut[1] = len(rest)
    with pytest.raises(ref.Illegal, match="without going out|goes out holding|out"):
        ref.replay(np.array(cut), rules)
