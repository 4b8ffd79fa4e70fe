"""Очко session kernels: one *deal* of ``ochko_session`` is one whole session.

The kernel is :func:`run_deals`: the core deal loop (:mod:`simkit.core.deals`) over
:func:`run_session` (as :func:`play_session`, or :func:`play_session_logged` with the move log),
which plays a session round after round in four phases: the end of a
session checked before each round (:func:`next_round`: ruin, стук, and the стук round), the
stakes (:func:`place_stakes`, on the round's first cards), the round itself (:func:`deal_round`:
one banker's round of Очко, :func:`simkit.engines.banking.round.play_round`, as the game
``ochko`` plays it) and the settlement (:func:`settle`); :func:`end_session` writes the session's
metrics.  The records: the session's rules :class:`Session` (with the round's
:class:`~simkit.engines.banking.round.Tables`), the seats'
:class:`~simkit.games.ochko_session.strategies.Seats` (the house's record of per-seat arrays, with
the round's policy tables) and the buffers :class:`Work`.

Randomness and pairing: each session takes one key from its chunk's xoshiro stream (the deal
loop's key) and seeds its own xoshiro state from it (:func:`seed_session`, four splitmix64
outputs); each of its rounds is one round of Очко's kernel on that state, which takes one key
per round.  So round ``r`` of session ``i`` deals the same cards in every configuration, whatever
was staked and however long the sessions before it lasted: two configurations' sessions stay
paired round for round for as long as both last.  Stakes are decided before a round is played by
peeking at its key (:func:`peek_key`; :func:`first_cards` deals the first cards exactly as the
round does).  The strategies draw no coin flips of their own (the deal loop's ``ukey`` is unused).

Metric vector layout (:func:`metrics`): the session's metrics (slots :data:`M`), then three per
seat (seat ``k``'s metric ``q`` at ``seat_slot(Q.q, NQ, k)``, :data:`Q` p1's slots).  A round
trace (:data:`TRACE_HEAD`, then :data:`TRACE_SEAT` per seat) is written into ``Work.trace``
while it has room.

Move log (:func:`log_columns`, for ``simkit replay``): the house's events
(:mod:`simkit.engines.moves`, kinds :data:`EVENTS`), per round (at most :data:`LOG_ROUNDS`)
``ROUND``, each seat's stake (``STAKE`` and, for a stake of 2^16 or more, ``STAKE_HI``), the
round's cards (``DEAL`` and ``DRAW``, seat the player or the banker K, dealt again from the
round's key by :func:`simkit.engines.banking.round.put_cards`, so the round itself pays nothing
for them) and each seat's outcome category (``SETTLE``).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simkit.core import cards as C
from simkit.core.deals import SALT, coded_row, deal_loop
from simkit.core.records import record, seat_slot, slots
from simkit.core.registry import Metric
from simkit.core.rng import draw_index, splitmix, xoshiro_step
from simkit.engines.banking import round as banker_round
from simkit.engines.moves import put_next
from simkit.games.ochko_session.rules import (CAP_BANK, LAST_BANK, LAST_NONE, LAST_ROUND_CAPS,
                                              ROUND_CAPS, SHORT_ONE, SHORT_BANKS)
from simkit.games.ochko_session.strategies import STAKE_FIXED, STAKE_FRACTION

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
M = slots(n for n, _, _ in SESSION_METRICS)   # M.bank_result, ...: the session's slots
NS, NQ = len(SESSION_METRICS), len(SEAT_METRICS)
Q = slots((n for n, _, _ in SEAT_METRICS), first=NS)  # p1's; seat k's: seat_slot(Q.q, NQ, k)

# per-round trace columns (see :func:`simkit.games.ochko_session.trace_sessions`)
TRACE_HEAD = ["session", "round", "bank", "cap", "stuk_round", "banker_card", "bank_after"]
TRACE_SEAT = ["card", "stake", "pay"]
T = slots(TRACE_HEAD)   # T.bank, ...: a trace row's columns
TQ = slots(TRACE_SEAT)  # TQ.stake, ...: a seat's, offset by NTH + NTS * seat
NTH, NTS = len(TRACE_HEAD), len(TRACE_SEAT)

# a round row of the round: seat k's payoff per unit stake is at EV + NP * k
EV = banker_round.NB + banker_round.P.result
# what the end-of-session phase decides before a round
NEXT_ROUND, STUK_ROUND, END_RUIN, END_STUK = range(4)
# the move log: rounds a session's log keeps; the session's event kinds (simkit.engines.moves)
# beside the round's DEAL and DRAW (simkit.engines.banking.round): a round begins, a seat's stake
# (its low 16 bits in aux and card, each further 16 bits in a STAKE_HI after it: a stake is a
# whole number of any size), a seat's outcome category (aux; the round's category codes)
LOG_ROUNDS = 500
E_ROUND, E_STAKE, E_STAKE_HI, E_SETTLE = 8, 9, 10, 11
EVENTS = {**banker_round.EVENTS, E_ROUND: "ROUND", E_STAKE: "STAKE", E_STAKE_HI: "STAKE_HI",
          E_SETTLE: "SETTLE"}
STAKE_EVENTS = 4            # at most a STAKE and three STAKE_HI (64 bits)


UNITS = {"bank_return": "multiples of the banker's stake per session",
         "rounds": "rounds per session", "rounds_out": "rounds per session",
         "bank_peak": "multiples of the banker's stake"}


def metrics(rules) -> list[Metric]:
    def unit(n, b):
        return "share of sessions (0..1)" if b else UNITS.get(n, "money per session (a player's "
                                                                  "stake is 1)")
    out = [Metric(n, b, d, unit=unit(n, b)) for n, b, d in SESSION_METRICS]
    for k in range(rules.players):
        out += [Metric(f"p{k + 1}_{n}", b, f"p{k + 1}: {d}", unit=unit(n, b))
                for n, b, d in SEAT_METRICS]
    return out


def round_events(rules) -> int:
    """The most events one round logs: ``ROUND``, a card event per card of the deck, and per
    seat its stake's events and ``SETTLE``."""
    return 1 + len(C.deck(rules.deck)) + (STAKE_EVENTS + 1) * rules.players


def log_columns(rules) -> list[str]:
    """A session's move log, the house's events (:mod:`simkit.engines.moves`), room for its
    first :data:`LOG_ROUNDS` rounds (:func:`log_round`)."""
    return [f"e{j}" for j in range(min(rules.max_rounds, LOG_ROUNDS) * round_events(rules))]


class Session(NamedTuple):
    """The session's rules as the kernel reads them (built by :func:`session`)."""
    players: int
    bank: float                # the banker's stake B
    stuk_bank: float           # стук when the bank holds this much (stuk_multiple x B; inf: never)
    max_rounds: int
    last_round_cap: int        # LAST_BANK, LAST_NORMAL or LAST_NONE
    round_cap: int             # CAP_STAKE or CAP_BANK
    reserve: bool              # each seat leaves 1 of the cap for every later seat
    short_bank: int            # SHORT_SIT or SHORT_ONE (every seat always stakes at least 1)
    card_value: np.ndarray     # int64[80]: each card's points (vabank's test)
    round: banker_round.Tables  # the round's rules


class Work(NamedTuple):
    """The round's buffers and the session's: its own xoshiro state, the round's metric
    row, the first cards and stakes of the round, the seats' running sums, and the trace."""
    round: banker_round.Work
    state: np.ndarray          # uint64[4]: the session's own xoshiro state
    row: np.ndarray            # float64[1, MR]: the round's metric vector
    no_log: np.ndarray         # int64[0, 1]: the round's (empty) move log
    first: np.ndarray          # int64[K + 1]: the round's first cards, the banker's last
    stakes: np.ndarray         # float64[K]: the round's stakes
    result: np.ndarray         # float64[K]: each seat's net so far
    staked: np.ndarray         # float64[K]: each seat's stakes so far
    sat_out: np.ndarray        # float64[K]: rounds each seat sat out
    trace: np.ndarray          # float64[T, NTH + NTS * K]: one row per round while there is room
    traced: np.ndarray         # int64[1]: rows of trace written


def session(rules, tables) -> Session:
    return record(Session, players=rules.players, bank=rules.bank,
                  stuk_bank=rules.stuk_multiple * rules.bank if rules.stuk_multiple > 0
                  else np.inf, max_rounds=rules.max_rounds,
                  last_round_cap=LAST_ROUND_CAPS.index(rules.last_round_cap),
                  round_cap=ROUND_CAPS.index(rules.round_cap), reserve=rules.reserve,
                  short_bank=SHORT_BANKS.index(rules.short_bank),
                  card_value=banker_round.card_values(rules.values), round=tables)


def work(rules, round_work, trace_rows: int = 0) -> Work:
    K = rules.players
    MR = banker_round.width(rules)
    return record(Work, round=round_work, state=np.zeros(4, np.uint64),
                  row=np.zeros((1, MR)), no_log=np.zeros((0, 1), np.int64),
                  first=np.zeros(K + 1, np.int64), stakes=np.zeros(K), result=np.zeros(K),
                  staked=np.zeros(K), sat_out=np.zeros(K),
                  trace=np.zeros((trace_rows, NTH + NTS * K)), traced=np.zeros(1, np.int64))


# --------------------------------------------------------------------------- the session's RNG

@njit(cache=True, nogil=True, inline="always")
def first_cards(key, deck, K, out, stacked=False):
    """The first cards a round with ``key`` deals, as the round deals them: one to each of
    the ``K`` players, then the banker's, into ``out[0..K]`` (``-1``: the deck ran out)."""
    ndeck = deck.shape[0]
    s = key
    drawn = np.uint64(0)
    for k in range(K + 1):
        if k < ndeck:
            j, s, drawn = draw_index(s, drawn, ndeck, stacked)
            out[k] = deck[j]
        else:
            out[k] = -1


@njit(cache=True, nogil=True, inline="always")
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


# --------------------------------------------------------------------------- the phases
# The phases take the arrays they use as plain arguments: :func:`play_session` takes them out of
# the records once per session.  Read from a record inside the round loop instead, every use
# costs a reference-count pair (measured: the session ran at under half the speed).

@njit(cache=True, nogil=True, inline="always")
def cannot_cover(R, bank):
    """Ruin: the bank cannot cover a stake of 1 (with ``short_bank=one``: nothing is left)."""
    return bank <= 0.0 if R.short_bank == SHORT_ONE else bank < 1.0


@njit(cache=True, nogil=True, inline="always")
def next_round(R, bank):
    """The end of a session, before a round: ``END_RUIN`` (the bank cannot cover a stake),
    ``END_STUK`` (стук with no last round), ``STUK_ROUND`` (стук: this round is the last) or
    ``NEXT_ROUND``.  (The round cap, ``max_rounds``, is the session loop's own condition.)"""
    if cannot_cover(R, bank):
        return END_RUIN
    if bank >= R.stuk_bank:
        return END_STUK if R.last_round_cap == LAST_NONE else STUK_ROUND
    return NEXT_ROUND


@njit(cache=True, nogil=True, inline="always")
def round_cap(R, bank, last):
    """What the round's stakes may sum to: the whole bank (``round_cap=bank``, or the стук round
    with ``last_round_cap=bank``), else the banker's stake, and never more than the bank."""
    if R.round_cap == CAP_BANK or (last and R.last_round_cap == LAST_BANK):
        return bank
    return min(bank, R.bank)


# 12 parameters: the seats' five staking arrays (Seats' fields, taken off the record once a
# session, as the phases' other arrays: the note above) beside the round's own
@njit(cache=True, nogil=True, inline="always")
def place_stakes(R, kind, stake, f, card, base, value, first, stakes, sat_out, bank, cap):
    """The stakes, on the round's ``first`` cards (peeked): each seat in turn asks for what its
    rule says (:class:`~simkit.games.ochko_session.strategies.Seats`: ``fixed`` its ``stake``,
    ``fraction`` ``f`` times the bank rounded half up, ``vabank`` everything when its first
    card is worth at least ``card`` points (``value``: each card's points), else ``base``) and
    stakes it as a whole number within what is
    left of ``cap`` (less 1 for every later seat with ``reserve``), at least 1; a seat the rest
    cannot cover sits out (``sat_out``), or stakes 1 anyway with ``short_bank=one``."""
    K = R.players
    avail = cap
    for k in range(K):
        room = np.floor(avail)
        if room >= 1.0:
            top = room - (K - 1 - k) if R.reserve else room
            if top < 1.0:
                top = 1.0
            kd = kind[k]
            c = first[k]
            if kd == STAKE_FIXED:
                want = float(stake[k])
            elif kd == STAKE_FRACTION:
                want = np.floor(f[k] * bank + 0.5)
            elif c >= 0 and value[c] >= card[k]:
                want = top                                           # на все
            else:
                want = float(base[k])
            st = min(max(want, 1.0), top)
        elif R.short_bank == SHORT_ONE:
            st = 1.0
        else:
            st = 0.0
            sat_out[k] += 1.0
        stakes[k] = st
        avail -= st


@njit(cache=True, nogil=True, inline="always")
def deal_round(tables, policies, round_work, state, row, no_log):
    """The round: the banking engine's round (``play_round``, inlined, with its records
    ``tables, policies, round_work``) on the next key of the session's ``state``, into ``row[0]``
    (its metric vector), exactly as one deal of its ``run_deals`` would play it (same key, same
    strategy stream).  Inlining the round instead of calling ``run_deals(n=1)`` measured 4.5x
    faster (1.1e5 sessions/s).  Returns the cards dealt and the round's outcome code word."""
    key, state[0], state[1], state[2], state[3] = xoshiro_step(state[0], state[1], state[2],
                                                               state[3])
    pos, word, bank = banker_round.play_round(tables, policies, round_work, 0, key,
                                              key ^ banker_round.STRAT_SALT, no_log)
    coded_row(row[0], tables.outcome, word, bank, banker_round.B_EV, banker_round.CODE_BITS)
    return pos, word


@njit(cache=True, nogil=True, inline="always")
def settle(R, stakes, row, result, staked, turnover):
    """Settlement: each seat wins its stake times its payoff per unit staked (the round's
    ``row``) from the bank, or loses it to the bank; ``result`` and ``staked`` are the seats'
    running sums.  Returns the bank's change and the session's turnover so far."""
    delta = 0.0
    for k in range(R.players):
        g = stakes[k] * row[0, EV + banker_round.NP * k]
        result[k] += g
        staked[k] += stakes[k]
        turnover += stakes[k]
        delta -= g
    return delta, turnover


# 12 parameters: one trace row's values, taken as plain arguments like the phases above
@njit(cache=True, nogil=True)
def trace_round(R, trace, traced, first, stakes, row, i, r, bank, cap, last, delta):
    """Row ``traced[0]`` of ``trace``, if there is room: round ``r`` of session ``i``."""
    t = traced[0]
    if t < trace.shape[0]:
        trace[t, T.session] = i
        trace[t, T.round] = r
        trace[t, T.bank] = bank
        trace[t, T.cap] = cap
        trace[t, T.stuk_round] = 1.0 if last else 0.0
        trace[t, T.banker_card] = first[R.players]
        trace[t, T.bank_after] = bank + delta
        for k in range(R.players):
            trace[t, NTH + NTS * k + TQ.card] = first[k]
            trace[t, NTH + NTS * k + TQ.stake] = stakes[k]
            trace[t, NTH + NTS * k + TQ.pay] = row[0, EV + banker_round.NP * k]
        traced[0] = t + 1


@njit(cache=True, nogil=True)
def log_round(log, i, lp, deck, stacked, key, ncards, held, stakes, word):
    """Round events from position ``lp`` of session ``i``'s move-log row (returned after them):
    ``ROUND``, each seat's stake (``STAKE``, then ``STAKE_HI`` while more of it is left), the
    round's cards (:func:`simkit.engines.banking.round.put_cards`, dealt again from its
    ``key``) and each seat's outcome category (``SETTLE``, aux the code of the round's code
    ``word``: its payoff per unit staked is the round's weights')."""
    K = stakes.shape[0]
    lp = put_next(log, i, lp, E_ROUND, 0, 0, 0)
    for k in range(K):
        x = np.int64(stakes[k])
        lp = put_next(log, i, lp, E_STAKE, k, (x >> 8) & 255, x & 255)
        x >>= 16
        while x > 0:
            lp = put_next(log, i, lp, E_STAKE_HI, k, (x >> 8) & 255, x & 255)
            x >>= 16
    lp = banker_round.put_cards(log, i, lp, deck, stacked, key, held, ncards)
    for k in range(K):
        lp = put_next(log, i, lp, E_SETTLE, k, (word >> (banker_round.CODE_BITS * k)) & 15, 0)
    return lp


@njit(cache=True, nogil=True, inline="always")
def end_session(R, W, v, bank, peak, rounds, stuk, stuk_gain, turnover):
    """The session's metrics into ``v``: the banker takes what is left of the bank."""
    broke = cannot_cover(R, bank)
    result = bank - R.bank
    v[M.bank_result] = result
    v[M.bank_return] = result / R.bank
    v[M.bank_profit] = 1.0 if result > 0.0 else 0.0
    v[M.bank_broke] = 1.0 if broke else 0.0
    v[M.stuk] = 1.0 if stuk else 0.0
    v[M.capped] = 1.0 if not (stuk or broke) else 0.0
    v[M.rounds] = rounds
    v[M.staked] = turnover
    v[M.stuk_round_result] = stuk_gain
    v[M.bank_peak] = peak / R.bank
    for k in range(R.players):
        v[seat_slot(Q.result, NQ, k)] = W.result[k]
        v[seat_slot(Q.staked, NQ, k)] = W.staked[k]
        v[seat_slot(Q.rounds_out, NQ, k)] = W.sat_out[k]


@njit(cache=True, nogil=True, inline="always")
def run_session(R, S, W, i, key, v, log, logging):
    """Session ``i``: from the banker's stake to ruin, стук or ``max_rounds`` rounds.  Writes
    the session's metrics into ``v`` and, with ``logging``, its move log into ``log[i]``;
    returns the cards dealt over all its rounds."""
    # the records' arrays the rounds use, once per session (see the note above the phases)
    tables, round_work = R.round, W.round
    policies = banker_round.Policies(S.table, S.hitp)      # the round's view of the seats
    deck, stacked = W.round.deck, W.round.stacked
    state, row, no_log = W.state, W.row, W.no_log
    first, stakes, result, staked, sat_out = W.first, W.stakes, W.result, W.staked, W.sat_out
    kind, stake, f, card, base, value = S.kind, S.stake, S.f, S.card, S.base, R.card_value
    tracing = W.trace.shape[0] > 0
    lp = 0                    # the move log's write position
    if logging:
        for q in range(log.shape[1]):
            log[i, q] = -1
    seed_session(key, state)
    result[:] = 0.0
    staked[:] = 0.0
    sat_out[:] = 0.0
    bank = R.bank
    peak = bank
    rounds = 0
    stuk = False
    stuk_gain = 0.0
    turnover = 0.0
    cards = 0
    while rounds < R.max_rounds:
        step = next_round(R, bank)                          # the end of a session: ruin, стук
        if step == STUK_ROUND or step == END_STUK:
            stuk = True
        if step == END_RUIN or step == END_STUK:
            break
        last = step == STUK_ROUND
        cap = round_cap(R, bank, last)                      # the stakes
        rkey = peek_key(state)
        first_cards(rkey, deck, R.players, first, stacked)
        place_stakes(R, kind, stake, f, card, base, value, first, stakes, sat_out, bank, cap)
        dealt, word = deal_round(tables, policies, round_work, state, row, no_log)  # the round
        cards += dealt
        delta, turnover = settle(R, stakes, row, result, staked, turnover)   # settlement
        if tracing:
            trace_round(R, W.trace, W.traced, first, stakes, row, i, rounds, bank, cap, last,
                        delta)
        if logging and rounds < LOG_ROUNDS:
            lp = log_round(log, i, lp, deck, stacked, rkey, dealt, round_work.held, stakes, word)
        bank += delta
        rounds += 1
        if bank > peak:
            peak = bank
        if last:
            stuk_gain = delta
            break
    end_session(R, W, v, bank, peak, rounds, stuk, stuk_gain, turnover)
    return cards


@njit(cache=True, nogil=True, inline="always")
def play_session(R, S, W, i, key, ukey, v, log):
    """A session without its move log (:func:`run_session` with the constant ``logging=False``:
    compiled without the logging code)."""
    return run_session(R, S, W, i, key, v, log, False)


@njit(cache=True, nogil=True, inline="always")
def play_session_logged(R, S, W, i, key, ukey, v, log):
    """A session and its move log."""
    return run_session(R, S, W, i, key, v, log, True)


@njit(cache=True, nogil=True)
def run_deals(R, S, W, state, n, acc, rows, log):
    """``n`` sessions on the core deal loop (see :mod:`simkit.core.deals`).  Sessions with a
    move log are a loop of their own, so that the session without one carries no logging code
    (as Очко's round: :func:`simkit.games.ochko.engine.run_deals`)."""
    if log.shape[0] > 0:
        return deal_loop(play_session_logged, SALT, R, S, W, state, n, acc, rows, log)
    return deal_loop(play_session, SALT, R, S, W, state, n, acc, rows, log)
