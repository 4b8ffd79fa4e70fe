"""Очко (21): a banker against 1-9 players. Rules: ``000_e1e7c8054592a022.txt`` lines 8-46."""
from __future__ import annotations

from simkit.core import cards as C
from simkit.core import play
from simkit.core.registry import GameSpec
from simkit.errors import SimkitError
from simkit.games.ochko import engine, replay
from simkit.games.ochko.rules import OchkoRules
from simkit.games.ochko.strategies import STRATEGIES, encode

VERSION = 3  # 2: table strategy defaults to the bundled basic table (was: an error); 3: p1_ev and
# bank_ev renamed p1_result and bank_result, as in «31» with a bank and the session (numbers unchanged)


def prepare(rules, strategies, stacked=None):
    """The kernel's records: rules tables, the players' strategies (with their policy tables),
    the deck and scratch."""
    return engine.tables(rules), encode(strategies, rules), engine.work(rules, stacked)


def play_stacked(rules, strategies, cards) -> dict[str, float]:
    """Play one round with the cards coming in the order given (``"As Ah 10s ..."`` or codes).

    Cards go one to each player, then the banker's first, then each player's draws, then the
    banker's.  Returns the round's metrics by name (a stacked deck that runs out makes the next
    one to draw stand).  Repeated cards and cards not in the rules' deck are refused."""
    if len(cards if not isinstance(cards, str) else cards.split()) > 64:
        raise SimkitError("a stacked deck holds at most 64 cards")
    return play.play_stacked(SPEC, rules, strategies, cards)


def _exact(rules, strategies, grid_axes):
    from simkit.games.ochko.exact import analyze  # numba recursions: compile only when asked
    return analyze(rules, strategies, grid_axes)


SPEC = GameSpec(
    name="ochko", version=VERSION, rules=OchkoRules, strategies=STRATEGIES,
    renamed={"ev": "result", "bank_ev": "bank_result"},
    default_strategy="stand_at(17)", seats=lambda r: r.players, metrics=engine.metrics,
    prepare=prepare, kernel=engine.run_deals, pack=lambda r: C.deck(r.deck),
    log_columns=engine.log_columns, replay=replay.moves,
    presets={"text1": {"values": "text1"}, "text2": {"values": "standard"},
             "casino_like": {"deck": 52, "ties": "push"}},
    preset_docs={"text1": "the text's first card values: J=8, Q=9, K=10 (line 38's other reading)",
                 "text2": "the common Soviet card values J=2, Q=3, K=4, A=11 (the default)",
                 "casino_like": "a 52-card deck and ties returned to the player, as in a casino"},
    title="Очко / 21: banker against players", source="000_e1e7c8054592a022.txt:8-46",
    exact=_exact, exact_takes=("banker_stop", "p1.t", "p1"), objective=lambda r: ("result", True),
    digest_runs=(("ochko(players=3,deck=52)", ("p1=stand_at(15)", "p2=random(0.3)")),
                 ("ochko(bonus_hands=true,ties=push,banker_stop=16)", ())))
