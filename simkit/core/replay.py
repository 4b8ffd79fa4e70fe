"""One unit of a game, move by move, in words and card names (``simkit replay``).

A game that keeps a move log supplies ``replay(rules, log, metrics) -> records`` on its spec
(:class:`~simkit.core.registry.GameSpec`), in ``simkit/games/<game>/replay.py``; core plays the
unit with its move log (:func:`replay_unit`) and prints the records (:func:`render`) or gives
them as JSON (:func:`as_json`).

A record is a dict with exactly the keys :data:`KEYS`:

* ``deal``: the deal within the unit, from 1 (1 for a unit of one deal);
* ``seat``: the seat (0-based) who acts, or ``None`` for a table event (the deal, the turn-up,
  a score line, the banker of Очко);
* ``action``: what a player of the game says he does, in the present tense ("leads", "plays",
  "draws from the stock", "knocks"; a table event's whole phrase, "the starter is");
* ``cards``: the cards of the move as card codes (:mod:`simkit.core.cards`), ``[]`` for none;
* ``note``: a word on the move ("wins the trick", "score 12-4"), or ``""``.
"""
from __future__ import annotations

from simkit.core import cards as C
from simkit.core.play import unit_log
from simkit.core.registry import GameSpec, game_string, resolve_strategies
from simkit.core.runner import MIN_CHUNK
from simkit.errors import SimkitError

KEYS = ("deal", "seat", "action", "cards", "note")
#: the highest ``--deal``: every run's first chunk holds at least this many units, so deal K is
#: row K of ``simkit run GAME --seed S --rows`` whatever its ``-n``
MAX_DEAL = MIN_CHUNK


def replay_unit(spec: GameSpec, rules, strategies=None, seed: int = 1,
                deal: int = 1) -> tuple[list[dict], dict]:
    """Unit ``deal`` (from 1) of chunk 0 of ``seed`` with ``strategies``: ``(records, metric
    row by name)``.  ``deal=1`` is the golden playthrough (:func:`simkit.core.play.playthrough`),
    the first row of ``simkit run GAME --seed SEED --rows``."""
    if isinstance(deal, bool) or not isinstance(deal, int) or not 1 <= deal <= MAX_DEAL:
        raise SimkitError(f"--deal must be a whole number from 1 to {MAX_DEAL:,} (the units "
                          f"every run's first chunk holds), not {deal!r}")
    if spec.log_columns is None or not spec.log_columns(rules):
        hint = ""
        if spec.match and all(getattr(rules, k) == v for k, v in spec.match.items()):
            single = spec.rules()
            hint = " (whole games keep none: replay one deal with " + ", ".join(
                f"-r {k}={getattr(single, k)}" for k in spec.match) + ")"
        raise SimkitError(f"{game_string(spec, rules)} keeps no move log, so it has no "
                          f"replay{hint}")
    if spec.replay is None:
        raise SimkitError(f"{spec.name} has no replay of its moves yet")
    strategies = resolve_strategies(spec, rules, strategies)
    got = unit_log(spec, rules, strategies, seed, deal)
    return spec.replay(rules, got["log"], got["metrics"]), got["metrics"]


def seat_names(strategies) -> list[str]:
    """``p1 (baseline)``: each seat and its strategy's kind."""
    return [f"p{k + 1} ({s.kind})" for k, s in enumerate(strategies)]


def cards_text(codes) -> str:
    return " ".join(C.format_card(c, "symbols") for c in codes)


def render(records: list[dict], seat_names: list[str]) -> str:
    """The records as numbered lines, e.g. ``  7. p2 (baseline) plays 10♦ — wins the trick``;
    a header line where the deal changes (when the unit has more than one)."""
    several = len({r["deal"] for r in records}) > 1
    lines, deal = [], None
    width = len(str(len(records)))
    for i, r in enumerate(records, 1):
        if several and r["deal"] != deal:
            deal = r["deal"]
            lines.append(f"deal {deal}")
        who = "" if r["seat"] is None else seat_names[r["seat"]] + " "
        text = f"{who}{r['action']}"
        if r["cards"]:
            text += " " + cards_text(r["cards"])
        if r["note"]:
            text += " — " + r["note"]
        lines.append(f"{i:>{width + 2}}. {text}")
    return "\n".join(lines)


def as_json(records: list[dict]) -> list[dict]:
    """The records with their cards as names (``["Q♠", "10♦"]``)."""
    return [dict(r, cards=[C.format_card(c, "symbols") for c in r["cards"]]) for r in records]


def check_records(records: list[dict], pack, seats: int) -> None:
    """Refuse (``ValueError``, naming the first fault) records that break the contract: the five
    keys with their types, seats within ``seats``, cards of ``pack`` (the game's card codes)."""
    legal = {int(c) for c in pack}
    if not records:
        raise ValueError("no records")
    for i, r in enumerate(records):
        where = f"record {i} {r!r}"
        if not isinstance(r, dict) or set(r) != set(KEYS):
            raise ValueError(f"{where}: keys must be {KEYS}")
        if type(r["deal"]) is not int or r["deal"] < 1:
            raise ValueError(f"{where}: deal is an int from 1")
        if r["seat"] is not None and (type(r["seat"]) is not int or not 0 <= r["seat"] < seats):
            raise ValueError(f"{where}: seat is None or an int 0..{seats - 1}")
        if not isinstance(r["action"], str) or not r["action"]:
            raise ValueError(f"{where}: action is a non-empty str")
        if not isinstance(r["note"], str):
            raise ValueError(f"{where}: note is a str")
        if not isinstance(r["cards"], list) or any(type(c) is not int or c not in legal
                                                   for c in r["cards"]):
            raise ValueError(f"{where}: cards is a list of int codes of the game's pack")
