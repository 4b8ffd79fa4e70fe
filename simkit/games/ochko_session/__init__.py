"""Очко table sessions: a banker's bank from his stake to "стук", ruin or a round cap.

One *deal* of the game ``ochko_session`` is one whole session: the banker puts up ``bank``, the
players stake against it round after round (each round an ordinary Очко round, the banking engine's
:func:`simkit.engines.banking.round.play_round`), and the session ends when the bank reaches
``stuk_multiple`` times the banker's stake ("стук", after one last round), when it can no longer
cover a stake, or after ``max_rounds`` rounds.  The banker then takes what is left.

Rules and their readings: :mod:`.rules`; seat strategies (a staking rule and a playing rule):
:mod:`.strategies`; the kernel, its phases and how sessions stay paired across configurations:
:mod:`.engine`.  Rule text ``shared/rules/000_e1e7c8054592a022.txt`` lines 8-46.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simkit.core import cards as C
from simkit.core import play
from simkit.core.registry import GameSpec, resolve_strategies
from simkit.errors import SimkitError
from simkit.engines.banking import round as banker_round
from simkit.games.ochko_session import engine, replay
from simkit.games.ochko_session.engine import (first_cards, metrics, peek_key,  # noqa: F401
                                               session_state)
from simkit.games.ochko_session.rules import OchkoSessionRules
from simkit.games.ochko_session.strategies import STRATEGIES, seats

VERSION = 1
MAX_TRACE = 5_000_000
MAX_STACK = 64  # the round deals at most 64 cards from a stacked deck


def prepare(rules, strategies, stacked=None, trace_rows: int = 0):
    """The kernel's records: the session's rules (with the round's tables), the seats' staking
    rules (with their playing rules as the round's policies) and the buffers, with room for
    ``trace_rows`` rounds of trace.  With a ``stacked`` deck every round of the session is dealt
    from it in order."""
    return (engine.session(rules, banker_round.tables(rules)),
            seats(strategies, rules.max_cards),
            engine.work(rules, banker_round.work(rules, stacked), trace_rows))


def play_stacked(rules, strategies, cards) -> dict[str, float]:
    """Play one session in which every round is dealt from ``cards`` in the order given
    (``"As Ah 10s ..."`` or codes; one card to each player, then the banker's, then each
    player's draws, then the banker's, as a round of the game ``ochko`` is dealt).  Returns the
    session's metrics by name.  Repeated cards and cards not in the rules' deck are refused."""
    if len(cards if not isinstance(cards, str) else cards.split()) > MAX_STACK:
        raise SimkitError(f"a stacked deck holds at most {MAX_STACK} cards")
    return play.play_stacked(SPEC, rules, strategies, cards)


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
    strategies = resolve_strategies(SPEC, rules, strategies)
    K = rules.players
    cap = n * rules.max_rounds if max_trace is None else int(max_trace)
    R, S, W = prepare(rules, strategies, trace_rows=min(cap, MAX_TRACE))
    names = [m.name for m in metrics(rules)]
    rows = np.zeros((n, len(names)))
    engine.run_deals(R, S, W, np.array(state, np.uint64).copy(), n, np.zeros((2, len(names))),
                     rows, W.no_log)
    cols = engine.TRACE_HEAD + [f"p{k + 1}_{c}" for k in range(K) for c in engine.TRACE_SEAT]
    tr = pd.DataFrame(W.trace[:W.traced[0]], columns=cols)
    ints = ["session", "round", "stuk_round", "banker_card"] + [f"p{k + 1}_card" for k in range(K)]
    tr[ints] = tr[ints].astype(np.int64)
    return pd.DataFrame(rows, columns=names), tr


SPEC = GameSpec(
    name="ochko_session", version=VERSION, rules=OchkoSessionRules, strategies=STRATEGIES,
    default_strategy="fixed", seats=lambda r: r.players, metrics=metrics,
    prepare=prepare, kernel=engine.run_deals, pack=lambda r: C.deck(r.deck),
    log_columns=engine.log_columns, replay=replay.moves,
    presets={"text1": {"values": "text1"}, "whole_bank": {"round_cap": "bank"},
             "no_stuk": {"stuk_multiple": 0}},
    preset_docs={"text1": "the text's first card values: J=8, Q=9, K=10",
                 "whole_bank": "a round's stakes together may reach the whole bank",
                 "no_stuk": "no стук: sessions end only by ruin or max_rounds"},
    title="Очко sessions: the bank from the banker's stake to стук or ruin",
    source="000_e1e7c8054592a022.txt:8-46", bench_n=20_000,
    objective=lambda r: ("result", True),
    digest_runs=(("ochko_session(players=2)", ("p1=vabank", "p2=fraction(0.2)")),))
