"""Очко kernels: deal and play rounds from an RNG stream, count outcomes.

The round itself, a banker against the players, is the banking engine's
(:mod:`simkit.engines.banking.round`: the packed hands, the stop and category tables, the payout
table :func:`weights` and :func:`play_round`); this module adds the game's metrics, its move log
and its kernel.  A round ends in one outcome category per player and one for the banker; the
kernel counts categories, and the metrics (win, bust, payoff per stake...) are weighted sums of
those counts, so sums and sums of squares are exact.  ``bank_result`` is summed directly since
it mixes the players.

Metric vector layout (:func:`metrics`): the banker's ten first (slots :data:`B`), then eight per
player seat (seat ``k``'s metric ``m`` at ``NB + NP * k + P.m``).  The kernel is :func:`run_deals`:
the core's coded deal loop (:func:`simkit.core.deals.coded_loop`, the categories by
:func:`outcome_table`) over :func:`play_round`, with the rules as the named record :class:`Tables`
and the players' strategies as the house's seat record
(:class:`simkit.games.ochko.strategies.Seats`, with their policy tables).  (The house contract first put the round on the vector loop, which
zeroes and sums the whole metric vector every round; back on counted categories the round is
1.26x faster: ``scripts/bench_commits.py ochko ochko@56f4c4e``.)  The move log is the house's
events, one per card (:func:`log_columns`).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simkit.core import cards as C
from simkit.core.deals import coded_loop
from simkit.core.registry import Metric
from simkit.engines.banking.round import (  # noqa: F401 - the round's names, as Очко's
    ASK, B, B_EV, BANKER_NAMES, BC_17, BC_18, BC_19, BC_20, BC_21, BC_BUST, BC_FIVE, BC_GOLDEN,
    BC_IDLE, BC_LE16, BK_BUST, BK_GOLDEN, BONUS, BONUS_SHAPE, BUST, CODE_BITS, DRAW, FIVE,
    FIVE_MASK, FIVE_PICTURES, GOLD, HAND_BITS, IDX, LOSS, NB, NBC, NP, NPC, NU, P, PICTURE_BITS,
    PLAYER_NAMES, PUSH, STOP, STRAT_SALT, TN, TT, WIN, Policies, Tables, Work, card_info,
    card_values, draw_below, outcome_table, play_round, stop_tables, tables, weights,
    width, work, write_log)

DOCS = {"banker_idle": "the banker does not draw: no player is left standing",
        "banker_le16": "the banker ends below 17 (a lower banker_stop, his card cap, the deck)",
        "banker_17": "the banker ends on 17", "banker_18": "the banker ends on 18",
        "banker_19": "the banker ends on 19", "banker_20": "the banker ends on 20",
        "banker_21": "the banker ends on 21", "banker_bust": "the banker busts (over 21)",
        "banker_golden": "the banker holds a golden point (two aces)",
        "bank_result": "the banker's net over all players",
        "win": "the player wins the round", "push": "the round is a tie returned to the player",
        "loss": "the player loses the round (busts included)", "bust": "the player busts",
        "golden": "the player holds a golden point (two aces)",
        "five": "the player wins with five pictures", "bonus": "the player wins with a bonus hand",
        "result": "the player's net payoff"}


def metrics(rules) -> list[Metric]:
    share, stakes = "share of rounds (0..1)", "stakes per round"
    out = [Metric(n, binary=(n != "bank_result"), doc=DOCS[n],
                  unit=stakes if n == "bank_result" else share) for n in BANKER_NAMES]
    for k in range(rules.players):
        out += [Metric(f"p{k + 1}_{n}", binary=(n != "result"), doc=f"p{k + 1}: " + DOCS[n],
                       unit=stakes if n == "result" else share) for n in PLAYER_NAMES]
    if rules.banker_five_pictures:
        out.append(Metric("banker_five", doc="the banker holds five pictures and beats every "
                                             "standing player", unit=share))
    return out


def log_columns(rules) -> list[str]:
    """A round's move log: one event per card dealt, in the order dealt (the house's events,
    :func:`simkit.engines.banking.round.put_cards`: ``DEAL`` or ``DRAW``, the seat 0..K-1 or
    the banker K, the card); -1 after the last card.  A round deals at most the deck."""
    return [f"e{j}" for j in range(C.deck(rules.deck).shape[0])]


@njit(cache=True, nogil=True, inline="always")
def play_round_logged(R, S, W, i, key, ukey, log):
    """:func:`play_round`, then its move log into ``log[i]``."""
    pos, word, bank = play_round(R, S, W, i, key, ukey, log)
    write_log(log, i, W.deck, W.stacked, key, W.held, pos)
    return pos, word, bank


@njit(cache=True, nogil=True)
def run_deals(R, S, W, state, n, acc, rows, log):
    """``n`` rounds on the core's coded deal loop (:func:`simkit.core.deals.coded_loop`: a round
    ends in one category per seat, counted).  The round with a move log is a loop of its own,
    so that the round without one carries no logging code (measured: a log call left in the
    round, even untaken, made it 1.7x slower)."""
    if log.shape[0] > 0:
        return coded_loop(play_round_logged, STRAT_SALT, R, S, W, state, n, acc, rows, log,
                          R.outcome, B_EV, CODE_BITS)
    return coded_loop(play_round, STRAT_SALT, R, S, W, state, n, acc, rows, log, R.outcome,
                      B_EV, CODE_BITS)
