"""Очко table sessions: a banker's bank from his stake to "стук", ruin or a round cap.

One *deal* of the game ``ochko_session`` is one whole session: the banker puts up ``bank``, the
players stake against it round after round (each round is an ordinary Очко round played by
:func:`simkit.games.ochko.engine.simulate`), and the session ends when the bank reaches
``stuk_multiple`` times the banker's stake ("стук", after one last round), when it can no longer
cover a stake, or after ``max_rounds`` rounds.  The banker then takes what is left.

Rule text ``shared/rules/000_e1e7c8054592a022.txt``; the line numbers below are that file's own
(``nl``/``cat -n``).  Readings chosen where the text is unclear (each one an option):

* ``bank``: line 11 "банкир назначает любую сумму банка" (the banker names any bank) and line 40
  "его ставка называется «банк»": the banker's stake, an integer (default 10).
* ``round_cap``: line 11 "ставка не должна превышать ранее определенного банка" (a stake must not
  exceed the bank *as named beforehand*) and line 40 "Сумма ставок всех остальных игроков не
  должна быть больше ставки банка": the players' stakes in a round sum to at most the banker's
  stake, and never to more than the bank holds (``stake``, default).  ``bank``: up to the
  whole current bank in every round (then the стук round is no different from the others).
* ``stuk_multiple`` and ``last_round_cap``: lines 32-34 "стук" comes "когда банк составляет
  сумму в 3 раза больше того, что ставил банкир" and is "заключительный круг игры" (the last
  round), with stakes "иногда сравнимые с полным банком" (sometimes comparable to the whole bank);
  "когда этап «стука» окончен, банкир ... забирает остаток банка".  Read: at the start of a round
  in which the bank holds at least ``stuk_multiple`` x ``bank``, стук is called; that round is the
  last and its stakes may sum to the whole bank (``bank``, default); ``normal``: the last round
  keeps the usual cap; ``none``: no last round, the banker takes the bank at once.
  ``stuk_multiple=0`` switches стук off (then only ruin or ``max_rounds`` end a session).
* ``max_rounds``: not in the text; a cap so that every session ends (default 200).
* Order of stakes: line 40 (one card each, the banker's last and face up, *then* the bets) and
  line 41 (the player on the banker's left first, clockwise): seat order p1, p2, ..., each
  player deciding after seeing his own first card and the banker's.
* ``reserve``: line 42 "ставка 2 игрока может равнять сумме на 2 значения ниже ставки банка"
  (with four players the second may stake up to the bank less 2), "so that the third player can
  also take part": a seat's stake leaves 1 of the cap for every later seat (default on).
* ``short_bank``: line 42 "минимальная ставка каждого из игроков должна равняться 1, даже если
  банк поставил всего 1" (the minimum stake is 1, even when the bank is only 1).  ``sit``
  (default): every stake is a whole number of at least 1 within the cap, and a seat the cap can
  no longer cover sits the round out; ``one``: read as an exception to the cap, every seat
  always stakes at least 1, even beyond what the bank holds.
* Settlement (lines 11, 45): a losing stake (and a bust fine, ``bust_penalty``) feeds the bank, a
  winning one is paid from it at the round's rates (``golden_pays`` ...).  Payouts above 1 per
  stake, or ``short_bank=one``, can take the bank below 0: the banker makes up the difference
  from his own pocket (his ``bank_result`` can fall below ``-bank``).
* A bank that can no longer cover a stake of 1 (below 1 with ``short_bank=sit``, at or below 0
  with ``one``) ends the session: ``bank_broke``.
* A seat that sits a round out is still dealt its hand (with no stake), so that the other seats'
  cards are those of the round's key, the same as in every other configuration (pairing).
* Not modelled: line 34's side bets of the others on the last player's cards, line 44's "the win
  goes to the largest stake if he can cover it", line 14's fines for hidden busts.

Seat strategies carry the playing rule (``t``: draw while the total is below ``t``, the
``stand_at`` rule of :mod:`simkit.games.ochko.strategies`) and the staking rule, as numbers:

* ``fixed(stake, t)``: a fixed stake;
* ``fraction(f, t)``: ``f`` times the current bank, rounded half up;
* ``vabank(card, base, t)``: "на все", everything the cap allows when the player's first card is
  worth at least ``card`` points, else ``base``.

Every wish is then clipped to the seat's cap (and to at least 1).

Randomness and pairing: each session (the runner's "deal") takes one key from its chunk's
xoshiro stream and seeds its own xoshiro state from it (:func:`session_state`, four splitmix64
outputs); each of its rounds is one :func:`engine.simulate` round on that state, which takes one
key per round.  So round ``r`` of session ``i`` deals the same cards in every configuration,
whatever was staked and however long the sessions before it lasted: two configurations' sessions
stay paired round for round for as long as both last.  Stakes are decided before a round is
played by peeking at its key (:func:`peek_key`; :func:`first_cards` deals the first cards exactly
as ``simulate`` does).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from numba import njit

from simkit.core.accumulate import add_deal
from simkit.core.registry import GameSpec, Metric, Param, Strategy, StrategyKind, parse_strategies
from simkit.core.rng import draw_index, splitmix, xoshiro_step
from simkit.core.rules import option
from simkit.errors import SimkitError
from simkit.games.ochko import engine, prepare as _round_prepare
from simkit.core.play import NO_LOG
from simkit.games.ochko.rules import OchkoRules

VERSION = 1


@dataclass(frozen=True)
class OchkoSessionRules(OchkoRules):
    bank: int = option(10, range=(1, 1_000_000), doc="the banker's stake: the bank he puts up",
                       source="000:11,40")
    stuk_multiple: float = option(3.0, range=(0.0, 1000.0),
                                  doc="стук when the bank holds this many times the banker's "
                                      "stake (0: never; else above 1)", source="000:32-34")
    max_rounds: int = option(200, range=(1, 1_000_000), doc="most rounds in a session (a cap)")
    last_round_cap: str = option("bank", choices=("bank", "normal", "none"),
                                 doc="стук round: stakes up to the whole bank / the usual cap / "
                                     "no last round", source="000:33-34")
    round_cap: str = option("stake", choices=("stake", "bank"),
                            doc="stakes in a round sum to at most the banker's stake (and the "
                                "bank) / the whole bank", source="000:11,40")
    reserve: bool = option(True, doc="each seat leaves 1 of the cap for every later seat",
                           source="000:42")
    short_bank: str = option("sit", choices=("sit", "one"),
                             doc="a seat the cap cannot cover sits out / always stakes 1",
                             source="000:42")

    def check(self) -> None:
        super().check()
        if 0.0 < self.stuk_multiple <= 1.0:
            raise SimkitError(f"stuk_multiple={self.stuk_multiple} is out of range: allowed 0 "
                              f"(no стук) or a number above 1 (up to 1000)")


# --------------------------------------------------------------------------- strategies

K_FIXED, K_FRACTION, K_VABANK = 0, 1, 2
_T = Param("t", 17, (2, 22), "draw while the total is below t")
STRATEGIES = {
    "fixed": StrategyKind("fixed", K_FIXED, (Param("stake", 1, (1, 1_000_000), "the stake"), _T),
                          "stake a fixed amount; draw while below t"),
    "fraction": StrategyKind("fraction", K_FRACTION,
                             (Param("f", 0.1, (0.0, 1.0), "share of the current bank"), _T),
                             "stake f x the current bank (rounded, at least 1); draw while "
                             "below t"),
    "vabank": StrategyKind("vabank", K_VABANK,
                           (Param("card", 11, (2, 11), "first-card points to go all in"),
                            Param("base", 1, (1, 1_000_000), "the stake otherwise"), _T),
                           "на все: stake all the cap allows when the first card is worth at least "
                           "card points, else base; draw while below t"),
}
NSPAR = 3  # staking parameters per seat after the kind code


def encode_strategies(strategies, rules):
    """``(spar float64[K, 4], play)``: each seat's kind code and staking parameters, and the
    playing rules as ``stand_at`` strategies of the round game."""
    spar = np.zeros((len(strategies), 1 + NSPAR))
    play = []
    for k, s in enumerate(strategies):
        v = s.values
        if s.kind not in STRATEGIES:
            raise SimkitError(f"unknown strategy {s.kind!r} for ochko_session: available "
                              f"strategies are {', '.join(STRATEGIES)}")
        spar[k, 0] = STRATEGIES[s.kind].code
        if s.kind == "fixed":
            spar[k, 1] = v["stake"]
        elif s.kind == "fraction":
            spar[k, 1] = v["f"]
        else:
            spar[k, 1], spar[k, 2] = v["card"], v["base"]
        play.append(Strategy("stand_at", (("t", v["t"]),)))
    return spar, tuple(play)


# --------------------------------------------------------------------------- metrics

# per-session metrics: (name, binary, doc); then per seat
SESSION_METRICS = [
    ("bank_result", False, "the banker's net: the bank he takes at the end less his stake"),
    ("bank_return", False, "bank_result / bank (per unit of the banker's stake)"),
    ("bank_profit", True, "the banker ends with more than he put up"),
    ("bank_broke", True, "the bank ends unable to cover a stake (the banker lost his stake)"),
    ("stuk", True, "стук was called"),
    ("capped", True, "the session reached max_rounds (neither стук nor ruin)"),
    ("rounds", False, "rounds played"),
    ("staked", False, "all stakes of all seats over the session (the banker's turnover)"),
    ("stuk_round_result", False, "the bank's gain in the стук round (0 without one)"),
    ("bank_peak", False, "the highest bank during the session, as a multiple of the stake"),
]
SEAT_METRICS = [("result", False, "the seat's net over the session"),
                ("staked", False, "the seat's stakes over the session"),
                ("rounds_out", False, "rounds the seat sat out (the cap could not cover it)")]
(M_RESULT, M_RETURN, M_PROFIT, M_BROKE, M_STUK, M_CAPPED, M_ROUNDS, M_STAKED, M_STUK_ROUND,
 M_PEAK) = range(len(SESSION_METRICS))
NS, NQ = len(SESSION_METRICS), len(SEAT_METRICS)


def metrics(rules) -> list[Metric]:
    out = [Metric(n, b, d) for n, b, d in SESSION_METRICS]
    for k in range(rules.players):
        out += [Metric(f"p{k + 1}_{n}", b, d) for n, b, d in SEAT_METRICS]
    return out


# per-round trace columns (see :func:`trace_sessions`)
TRACE_HEAD = ["session", "round", "bank", "cap", "stuk_round", "banker_card", "bank_after"]
TRACE_SEAT = ["card", "stake", "pay"]
NTH, NTS = len(TRACE_HEAD), len(TRACE_SEAT)

EV0 = engine.NB + engine.NP - 1  # a round row's payoff per unit stake of seat k: EV0 + NP * k
LAST_BANK, LAST_NORMAL, LAST_NONE = 0, 1, 2
CAP_STAKE, CAP_BANK = 0, 1
SHORT_SIT, SHORT_ONE = 0, 1


def encode_session(rules) -> np.ndarray:
    """The session options as ``float64[7]`` for the kernel."""
    return np.array([rules.bank, rules.stuk_multiple, rules.max_rounds,
                     ("bank", "normal", "none").index(rules.last_round_cap),
                     ("stake", "bank").index(rules.round_cap), float(rules.reserve),
                     ("sit", "one").index(rules.short_bank)], np.float64)


# --------------------------------------------------------------------------- kernels

@njit(cache=True, nogil=True)
def first_cards(key, deck, K, out):
    """The first cards a round with ``key`` deals, as :func:`engine.simulate` deals them: one to
    each of the ``K`` players, then the banker's, into ``out[0..K]`` (``-1``: the deck ran out)."""
    ndeck = deck.shape[0]
    s = key
    drawn = np.uint64(0)
    for k in range(K + 1):
        if k < ndeck:
            j, s, drawn = draw_index(s, drawn, ndeck, False)
            out[k] = deck[j]
        else:
            out[k] = -1


@njit(cache=True, nogil=True)
def peek_key(state):
    """The key the next round will take from xoshiro ``state`` (the state is not advanced)."""
    key, _, _, _, _ = xoshiro_step(state[0], state[1], state[2], state[3])
    return key


@njit(cache=True, nogil=True)
def seed_session(key, out):
    """A session's own xoshiro state from its key: four splitmix64 outputs into ``out``."""
    s = key
    for q in range(4):
        out[q], s = splitmix(s)
    if out[0] == 0 and out[1] == 0 and out[2] == 0 and out[3] == 0:
        out[0] = np.uint64(1)  # the one state xoshiro cannot leave


def session_state(key) -> np.ndarray:
    """The xoshiro state (``uint64[4]``) whose outputs are the round keys of the session with
    ``key``."""
    out = np.zeros(4, np.uint64)
    seed_session(np.uint64(key), out)
    return out


@njit(cache=True, nogil=True)
def simulate_sessions(R, S, W, cfg, spar, cardval, state, n, acc, rows, trace):
    """Play ``n`` sessions into ``acc[2, M]`` (sums and sums of squares of :func:`metrics`); with
    a non-empty ``rows`` (``[n, M]``) also write each session's metrics, and with a non-empty
    ``trace`` (``[T, 7 + 3K]``, :data:`TRACE_HEAD` then :data:`TRACE_SEAT` per seat) each round
    until it is full.  Returns ``(rounds played, cards drawn)``.

    ``tabs, ptab, hitp, w, deck`` are the round kernel's arguments (:func:`engine.simulate`),
    ``cfg`` is :func:`encode_session`, ``spar`` (``[K, 4]``) the seats' staking rules and
    ``cardval`` the points of each card code.  Each session takes one key from the xoshiro
    ``state`` (``uint64[4]``, advanced in place) and seeds its own state from it
    (:func:`seed_session`); each round calls ``engine.simulate`` for one round on that state,
    after peeking at the round's key to deal the first cards on which the stakes depend.
    """
    K = S.table.shape[0]
    deck = W.deck
    M = acc.shape[1]
    MR = engine.NB + engine.NP * K
    sub = np.zeros(4, np.uint64)
    acc1 = np.zeros((2, MR))
    rows1 = np.zeros((1, MR))
    first = np.zeros(K + 1, np.int64)
    stake = np.zeros(K)
    res = np.zeros(K)
    staked = np.zeros(K)
    out = np.zeros(K)
    vals = np.zeros(M)
    B = cfg[0]
    mult = cfg[1]
    max_rounds = np.int64(cfg[2])
    last_mode = np.int64(cfg[3])
    cap_mode = np.int64(cfg[4])
    reserve = cfg[5] > 0.0
    short_one = np.int64(cfg[6]) == SHORT_ONE
    T = trace.shape[0]
    t = 0
    total_rounds = 0
    cards = 0
    x0, x1, x2, x3 = state[0], state[1], state[2], state[3]
    for i in range(n):
        key, x0, x1, x2, x3 = xoshiro_step(x0, x1, x2, x3)
        seed_session(key, sub)
        bank = B
        peak = B
        rounds = 0
        stuk = False
        stuk_gain = 0.0
        turnover = 0.0
        for k in range(K):
            res[k] = 0.0
            staked[k] = 0.0
            out[k] = 0.0
        while rounds < max_rounds:
            if (bank <= 0.0) if short_one else (bank < 1.0):
                break
            last = False
            if mult > 0.0 and bank >= mult * B:
                stuk = True
                if last_mode == LAST_NONE:
                    break
                last = True
            if cap_mode == CAP_BANK or (last and last_mode == LAST_BANK):
                cap = bank
            else:
                cap = min(bank, B)
            first_cards(peek_key(sub), deck, K, first)
            avail = cap
            for k in range(K):
                room = np.floor(avail)
                if room >= 1.0:
                    top = room - (K - 1 - k) if reserve else room
                    if top < 1.0:
                        top = 1.0
                    kind = np.int64(spar[k, 0])
                    if kind == K_FIXED:
                        want = spar[k, 1]
                    elif kind == K_FRACTION:
                        want = np.floor(spar[k, 1] * bank + 0.5)
                    else:
                        c = first[k]
                        want = top if (c >= 0 and cardval[c] >= spar[k, 1]) else spar[k, 2]
                    st = min(max(want, 1.0), top)
                elif short_one:
                    st = 1.0
                else:
                    st = 0.0
                    out[k] += 1.0
                stake[k] = st
                avail -= st
            for q in range(MR):
                rows1[0, q] = 0.0
            cards += engine.run_deals(R, S, W, sub, 1, acc1, rows1, NO_LOG)
            delta = 0.0
            for k in range(K):
                g = stake[k] * rows1[0, EV0 + engine.NP * k]
                res[k] += g
                staked[k] += stake[k]
                turnover += stake[k]
                delta -= g
            if t < T:
                trace[t, 0] = i
                trace[t, 1] = rounds
                trace[t, 2] = bank
                trace[t, 3] = cap
                trace[t, 4] = 1.0 if last else 0.0
                trace[t, 5] = first[K]
                trace[t, 6] = bank + delta
                for k in range(K):
                    trace[t, NTH + NTS * k] = first[k]
                    trace[t, NTH + NTS * k + 1] = stake[k]
                    trace[t, NTH + NTS * k + 2] = rows1[0, EV0 + engine.NP * k]
                t += 1
            bank += delta
            rounds += 1
            if bank > peak:
                peak = bank
            if last:
                stuk_gain = delta
                break
        broke = (bank <= 0.0) if short_one else (bank < 1.0)
        total_rounds += rounds
        result = bank - B
        vals[M_RESULT] = result
        vals[M_RETURN] = result / B
        vals[M_PROFIT] = 1.0 if result > 0.0 else 0.0
        vals[M_BROKE] = 1.0 if broke else 0.0
        vals[M_STUK] = 1.0 if stuk else 0.0
        vals[M_CAPPED] = 1.0 if not (stuk or broke) else 0.0
        vals[M_ROUNDS] = rounds
        vals[M_STAKED] = turnover
        vals[M_STUK_ROUND] = stuk_gain
        vals[M_PEAK] = peak / B
        for k in range(K):
            vals[NS + NQ * k] = res[k]
            vals[NS + NQ * k + 1] = staked[k]
            vals[NS + NQ * k + 2] = out[k]
        add_deal(acc, rows, i, vals)
    state[0], state[1], state[2], state[3] = x0, x1, x2, x3
    return total_rounds, cards


# --------------------------------------------------------------------------- Python layer

def _kernel_args(rules, strategies):
    spar, play = encode_strategies(strategies, rules)
    R, S, W = _round_prepare(rules, play)
    return (R, S, W, encode_session(rules), spar,
            engine.card_values(rules.values))


def run_chunk(rules, strategies, state, n, rows=False):
    """Play ``n`` sessions from xoshiro ``state``; returns ``(acc[2, M], rows[n, M] or None)``."""
    M = len(metrics(rules))
    acc = np.zeros((2, M))
    out = np.zeros((n if rows else 0, M))
    simulate_sessions(*_kernel_args(rules, strategies), state, n, acc, out,
                      np.zeros((0, NTH + NTS * rules.players)))
    return acc, (out if rows else None)


MAX_TRACE = 5_000_000


def trace_sessions(rules, strategies, state, n=1, max_trace: int | None = None):
    """Play ``n`` sessions from xoshiro ``state`` (a copy is used) and return ``(sessions,
    rounds)``: a DataFrame of each session's metrics and one of every round (the bank before and
    after, the cap, whether it is the стук round, the banker's and each seat's first card, each
    seat's stake and payoff per unit staked), up to ``max_trace`` rounds.

    ``rules`` is an :class:`OchkoSessionRules` or a game string; ``strategies`` parsed ones or
    strings (``["p1=vabank(card=10)"]``).
    """
    if isinstance(rules, str):
        from simkit.games import parse_game
        _, rules = parse_game(rules)
    if not isinstance(rules, OchkoSessionRules):
        raise SimkitError("trace_sessions needs ochko_session rules")
    if strategies is None or (isinstance(strategies, (list, tuple, dict)) and (
            not strategies or isinstance(next(iter(strategies)), str))):
        strategies = parse_strategies(SESSION_SPEC, rules, strategies)
    K = rules.players
    cap = n * rules.max_rounds if max_trace is None else int(max_trace)
    cap = min(cap, MAX_TRACE)
    names = [m.name for m in metrics(rules)]
    acc = np.zeros((2, len(names)))
    rows = np.zeros((n, len(names)))
    trace = np.zeros((cap, NTH + NTS * K))
    total, _ = simulate_sessions(*_kernel_args(rules, strategies),
                                 np.array(state, np.uint64).copy(), n, acc, rows, trace)
    cols = TRACE_HEAD + [f"p{k + 1}_{c}" for k in range(K) for c in TRACE_SEAT]
    tr = pd.DataFrame(trace[:min(total, cap)], columns=cols)
    ints = ["session", "round", "stuk_round", "banker_card"] + [f"p{k + 1}_card" for k in range(K)]
    tr[ints] = tr[ints].astype(np.int64)
    return pd.DataFrame(rows, columns=names), tr


def cards_per_session(rules, strategies, state, n) -> float:
    """Mean cards drawn per session over ``n`` sessions (the benchmark's ceiling)."""
    M = len(metrics(rules))
    _, cards = simulate_sessions(*_kernel_args(rules, strategies), state, n, np.zeros((2, M)),
                                 np.zeros((0, M)), np.zeros((0, NTH + NTS * rules.players)))
    return cards / n


SESSION_SPEC = GameSpec(
    name="ochko_session", version=VERSION, rules=OchkoSessionRules, strategies=STRATEGIES,
    default_strategy="fixed", seats=lambda r: r.players, metrics=metrics, run_chunk=run_chunk,
    presets={"text1": {"values": "text1"}, "whole_bank": {"round_cap": "bank"},
             "no_stuk": {"stuk_multiple": 0}},
    title="Очко sessions: the bank from the banker's stake to стук or ruin",
    source="000_e1e7c8054592a022.txt:8-46", bench_cards_per_deal=cards_per_session,
    bench_n=20_000)

SPEC = SESSION_SPEC
