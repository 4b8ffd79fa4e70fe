"""Hearts («Червы») and its variants: two players, Omnibus, Cancellation (5-11 players).

Rules: ``002_17c4cc3dde05b547.txt`` lines 210-234 (see :mod:`simkit.games.hearts.rules` for the
readings).  Built on :mod:`simkit.engines.tricks`.

Per-hand and per-game metrics come from two units (the ``unit`` rules option): with
``unit=hand`` (the default) each deal of a run is one hand and the metrics are points per hand,
zero-point hands and moons; with ``unit=game`` each deal is a whole game to ``target`` and the
metrics are the game-win rate and final score per seat, hands and moons per game.  A game is the
independent sample behind a win rate's error bar, which is why it is a deal of its own.
"""
from __future__ import annotations

from simkit.core import play
from simkit.core.registry import GameSpec
from simkit.errors import SimkitError
from simkit.games.hearts import engine, replay
from simkit.games.hearts.rules import HeartsRules
from simkit.games.hearts.strategies import STRATEGIES, encode

# 2: the heuristic stops moons early (two players too), takes the Omnibus 10♦, pairs the Q♠
VERSION = 3  # 3: pK_points_per_hand renamed pK_points, the form of every game (numbers unchanged)
DIRECTIONS = engine.DIRECTIONS


def prepare(rules, strategies, stacked=None, direction=None):
    """The kernel's records: the rules table, the seats' strategies and the work buffers.

    ``stacked``: a checked deck (core codes) dealt in order, card ``j`` to seat
    ``j % players``, every hand of a deal (with ``unit=game``, every hand of the game).
    ``direction`` (``left``, ``right``, ``across``, ``none``) forces the pass direction; with a
    stacked deck it defaults to the fixed ``rules.passing``, else ``none``."""
    if len(strategies) != rules.players:
        raise SimkitError(f"hearts with {rules.players} players needs {rules.players} strategies, "
                          f"not {len(strategies)}")
    if direction is None and stacked is not None:
        direction = rules.passing if rules.passing in DIRECTIONS else "none"
    if direction is not None and direction not in DIRECTIONS:
        raise SimkitError(f"unknown direction {direction!r}: use left, right, across or none")
    deck = None
    if stacked is not None:
        need = rules.players * rules.hand_size
        if len(stacked) < need:
            raise SimkitError(f"a stacked hand needs {need} cards, not {len(stacked)}")
        deck = engine.kernel_codes(stacked)
    fixed = engine.NO_DIRECTION if direction is None else DIRECTIONS[direction]
    return engine.table(rules), encode(strategies), engine.work(rules, deck, fixed)


def play_stacked(rules, strategies, cards, direction=None, log=False):
    """Play one hand with the cards dealt in the order given, card ``j`` to seat ``j % players``
    (``"2c 3c ..."`` or codes; the joker is ``Jo``).  ``direction``: ``left``, ``right``,
    ``across`` or ``none`` (default: none unless ``rules.passing`` names a fixed one).  Returns the
    hand's metrics by name, and the move log too with ``log=True``.  Repeated cards and cards not
    in the pack are refused."""
    if rules.unit != "hand":
        raise SimkitError("play_stacked plays one hand: use unit=hand")
    return play.play_stacked(SPEC, rules, strategies, cards, log=log, direction=direction)


SPEC = GameSpec(
    name="hearts", version=VERSION, renamed={"points_per_hand": "points"}, rules=HeartsRules, strategies=STRATEGIES,
    default_strategy="heuristic", seats=lambda r: r.players, metrics=engine.metrics,
    prepare=prepare, kernel=engine.run_deals, pack=engine.pack, log_columns=engine.log_columns,
    replay=replay.moves,
    presets={"text": {},
             "openspiel": {"passing": "random", "pass_cards": 3, "no_points_first_trick": True,
                           "hearts_broken": True, "qs_breaks_hearts": True, "moon": "add"},
             "two_player": {"players": 2},
             "omnibus": {"omnibus": True, "moon": "best"},
             "cancellation": {"players": 6},
             "game": {"unit": "game"}},
    preset_docs={"text": "the rule text as written (the default)",
                 "openspiel": "the rules open-spiel's hearts plays: random passing of 3, no "
                              "points on the first trick, hearts broken, moon adds 26",
                 "two_player": "two players", "omnibus": "Omnibus: the 10♦ counts -10, the "
                 "moon shooter chooses (moon=best)", "cancellation": "Cancellation hearts for six players",
                 "game": "each deal is a whole game to the target (game-win rates)"},
    title="Hearts (Червы): four players, two-player, Omnibus, Cancellation",
    source="002_17c4cc3dde05b547.txt:210-234",
    bench_n=500_000,
    objective=lambda r: ("win", True) if r.unit == "game" else ("points", False),
    match={"unit": "game"},
    digest_runs=(("hearts(players=6,preset=cancellation)", ("p1=moon",)),
                 ("hearts(preset=openspiel)", tuple(f"p{k}=random" for k in range(1, 5)))))
