"""The game contract (:class:`GameSpec`), game strings and strategy strings.

A game is one :class:`GameSpec`; the catalogue of games lives with the games
(``simkit/games/__init__.py``), and nothing in ``core`` imports it: the runner and every core
function take the spec.  Game strings are ``name`` or ``name(option=value,...)``
(``preset=NAME`` first expands a named preset); strategy strings are ``kind``,
``kind(value,...)`` or ``kind(param=value,...)``.
"""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from simkit.core.rules import Rules, coerce
from simkit.errors import SimkitError


@dataclass(frozen=True)
class Param:
    """A strategy parameter: name, default, inclusive range (numbers) and a one-line doc.

    ``file``: for a parameter naming a file the strategy reads, the function from the value to
    the path read (bundled names to their files); results files record that file's sha256 and
    ``--resume`` refuses a file whose content changed."""
    name: str
    default: Any
    range: tuple | None = None
    doc: str = ""
    file: Callable[[str], str] | None = None


@dataclass(frozen=True)
class StrategyKind:
    """A named kind of strategy; its parameters travel to the kernel as numbers (no recompiling)."""
    name: str
    code: int
    params: tuple[Param, ...] = ()
    doc: str = ""


@dataclass(frozen=True)
class Strategy:
    """A strategy for one seat: a kind and its parameter values (all filled in)."""
    kind: str
    params: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        if not self.params:
            return self.kind
        return f"{self.kind}(" + ",".join(f"{k}={v}" for k, v in self.params) + ")"

    @property
    def values(self) -> dict[str, Any]:
        return dict(self.params)

    def with_param(self, name: str, value) -> "Strategy":
        return Strategy(self.kind, tuple((k, value if k == name else v) for k, v in self.params))


@dataclass(frozen=True)
class Metric:
    """A per-deal quantity whose mean the runner reports. ``binary`` ones get Wilson intervals.

    A ``ratio=(num, den, cross)`` metric is reported as ``sum(num) / sum(den)`` (for example
    points per hand when a deal is a whole match of several hands), with a delta-method standard
    error; ``num``, ``den`` and ``cross`` (``num * den`` per deal) are other metrics of the game.
    Metrics whose name starts with ``_`` are such helper columns and are not reported; nor is a
    ``category`` (a label per deal, whose mean means nothing: its distribution is other metrics).
    ``doc`` says what the metric is, ``unit`` what its mean is counted in (``simkit metrics``).

    A ``net`` metric of a two-seat game is p1's value minus p2's (gin's ``p1_points``): p2's own
    value is its negative, which is how the analyses (:mod:`simkit.analysis`) read ``p2_points``.
    """
    name: str
    binary: bool = True
    doc: str = ""
    ratio: tuple[str, str, str] | None = None
    unit: str = ""
    net: bool = False
    category: str = ""  # a per-deal label (a seat number, a card's rank), not a quantity: never
    # averaged in a table, kept in the per-deal rows; the text says which metrics report its
    # distribution (Fan-Tan's winner_seat: pK_win)

    @property
    def hidden(self) -> bool:
        """Not reported as a mean: a helper column (``_name``) or a label (``category``)."""
        return self.name.startswith("_") or bool(self.category)

    @property
    def kind(self) -> str:
        """How its number is made (the ``kind`` column of ``simkit metrics`` and the docs)."""
        if self.category:
            return f"a label per deal, in --rows only; {self.category}"
        return ("ratio of sums (delta-method interval)" if self.ratio else
                "proportion (Wilson interval)" if self.binary else "mean (normal interval)")


@dataclass(frozen=True)
class GameSpec:
    """Everything the runner, CLI, analyses and contract tests need to know about a game.

    The parts a game supplies, and what core builds from them (:mod:`simkit.core.play`):

    * ``seats(rules)``: the number of strategy seats (named ``p1``, ``p2``...);
      ``metrics(rules)``: the per-deal metrics, in the order of the kernel's metric vector.
    * ``prepare(rules, strategies, stacked)``: the kernel's records ``(R, S, W)``: rules and
      strategies as named records (:mod:`simkit.core.records`) and the work buffers; ``stacked``
      is ``None`` or a validated ``int64`` array of card codes to deal in that order.
    * ``kernel(R, S, W, state, n, acc, rows, log)``: the ``@njit`` kernel that plays ``n`` deals
      through :func:`simkit.core.deals.deal_loop` and returns the cards dealt.
    * ``pack(rules)``: the codes of the cards a deal is dealt from (a code twice for two decks),
      against which stacked decks are checked.
    * ``log_columns(rules)``: the names of a move-log row's columns (``None``: no move log; the
      golden playthrough is then the deal's metric row).
    * ``replay(rules, log, metrics)``: one unit's move-log row (ints, trailing ``-1`` padding
      removed) and its metric row by name as records a player reads (:mod:`simkit.core.replay`:
      ``deal``, ``seat``, ``action``, ``cards``, ``note``); ``None``: no ``simkit replay``.

    A spec pickles by name (``catalogue`` is the module whose ``get_game`` finds it again), so
    configurations travel to worker processes and Dask without pickling the game's functions.
    """
    name: str
    version: int
    rules: type[Rules]
    strategies: dict[str, StrategyKind]
    default_strategy: str
    seats: Callable[[Rules], int]
    metrics: Callable[[Rules], list[Metric]]
    prepare: Callable
    kernel: Callable
    pack: Callable
    log_columns: Callable | None = None
    replay: Callable | None = None  # replay(rules, log, metrics) -> records (simkit replay)
    presets: dict[str, dict[str, Any]] = field(default_factory=dict)
    preset_docs: dict[str, str] = field(default_factory=dict)  # preset -> one line (simkit rules)
    title: str = ""
    source: str = ""
    bench_n: int = 20_000_000  # deals `simkit bench` times by default (a few seconds' worth)
    bench_units: Callable | None = None  # rules -> (name, count per deal), e.g. ("hands", 2.0)
    notes: Callable | None = None  # notes(rules, strategies) -> lines the table format prints
    # under a run's table (e.g. why a number is 0 by construction)
    exact: Callable | None = None  # exact(rules, strategies, grid_axes) -> (JSON object with
    # "rules", "method", "seconds" and "summary" lines, tidy table); `simkit exact` prints both
    exact_takes: tuple[str, ...] = ()  # what `exact` honours beyond the rules: the --grid axes
    # (e.g. "banker_stop", "p1.t") and the seats whose -s strategy it evaluates ("p1"); anything
    # else is refused (simkit.core.exact.check_request), never silently ignored
    objective: Callable | None = None  # rules -> (seat metric stem, larger is better): what a
    # player of the game tries to maximise, e.g. ("result", True) for p1_result; the analyses' default
    match: dict[str, Any] | None = None  # rules options that make a deal a whole match (gin's
    # unit=match), for match odds; None: the game's unit is already what users play to
    digest_runs: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (game string, strategy strings)
    # pairs that scripts/digest.py runs beyond the default, each preset and each strategy kind:
    # the configurations whose numbers a refactor must keep (its own rules options, seats, units)
    zero_sum: Callable | None = None  # rules -> metric names whose values sum to zero in every
    # deal (chips that only change hands, as in Panguingue; [] for rules with none, as «31»'s
    # single deals); the contract checks the rows
    golden_presets: tuple[str, ...] = ()  # presets with their own golden playthrough
    # (tests/golden/<game>@<preset>.json) beside the default's
    renamed: dict[str, str] = field(default_factory=dict)  # old metric stem or name -> today's,
    # so that a refused ``-m`` name says what it is called now (e.g. hearts points_per_hand)
    catalogue: str = "simkit.games"

    def __reduce__(self):
        return (_from_catalogue, (self.catalogue, self.name))


def _from_catalogue(catalogue: str, name: str) -> GameSpec:
    return importlib.import_module(catalogue).get_game(name)


_CALL = re.compile(r"^\s*([A-Za-z_][\w]*)\s*(?:\((.*)\))?\s*$", re.S)


def split_call(text: str, what: str) -> tuple[str, list[str]]:
    """``name(a,b=c)`` -> ``("name", ["a", "b=c"])``."""
    m = _CALL.match(text or "")
    if not m:
        opened, closed = (text or "").count("("), (text or "").count(")")
        why = (f"{opened - closed} '(' not closed" if opened > closed else
               f"{closed - opened} ')' too many" if closed > opened else "")
        raise SimkitError(f"cannot read {what} {text!r}: " + (f"{why}; " if why else "")
                          + "write NAME or NAME(key=value,...)")
    depth = 0
    for ch in m.group(2) or "":
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            break
    if depth:
        why = "a ')' too many" if depth < 0 else "a '(' not closed"
        raise SimkitError(f"cannot read {what} {text!r}: unbalanced parentheses ({why}); write "
                          f"{m.group(1)}(key=value,...)")
    args = [a.strip() for a in (m.group(2) or "").split(",") if a.strip()]
    return m.group(1), args


def parse_kv(items: list[str], what: str) -> dict[str, str]:
    """``["a=1", "b=2"]`` -> ``{"a": "1", "b": "2"}``; a key given twice is refused (the last
    would silently win)."""
    out = {}
    for it in items:
        if "=" not in it:
            raise SimkitError(f"cannot read {what} {it!r}: write key=value")
        k, v = it.split("=", 1)
        k = k.strip()
        if k in out:
            raise SimkitError(f"{what} {k!r} is given twice ({k}={out[k]} and {k}={v.strip()}): "
                              f"give it once")
        out[k] = v.strip()
    return out


def merge_options(base: dict, extra: dict, where: str = "the game string and -r") -> dict:
    """``base`` (the game string's options) plus ``extra`` (``-r``); an option in both is
    refused, ``preset`` with a word on how presets and options combine."""
    both = [k for k in extra if k in base]
    if both:
        k = both[0]
        if k == "preset":
            raise SimkitError(f"two presets given ({base[k]} in {where.split(' and ')[0]}, "
                              f"{extra[k]} in {where.split(' and ')[-1]}): give one preset and "
                              f"change its options with -r key=value")
        raise SimkitError(f"rules option {k!r} is given twice ({k}={base[k]} and {k}={extra[k]}, "
                          f"in {where}): give it once")
    return {**base, **extra}


def unwrap_overrides(spec: GameSpec, items: list[str]) -> list[str]:
    """``-r`` values as ``key=value`` items: a value written as the game string
    ``GAME(key=value,...)`` (``-r "canasta(preset=cuban)"``) stands for its options when GAME is
    ``spec``'s name; another name is refused with one line saying how to write it."""
    out = []
    for it in items:
        head = it.split("=", 1)[0]
        if "(" in head:
            name, args = split_call(it, "rules option")
            if name != spec.name:
                raise SimkitError(f"cannot read rules option {it!r}: -r takes key=value (or "
                                  f"{spec.name}(key=value,...)), e.g. -r preset=NAME")
            out.extend(args)
        else:
            out.append(it)
    return out


def parse_rules(spec: GameSpec, text: str, overrides: list[str] | dict | None = None) -> Rules:
    """The rules of game string ``text`` (``"ochko(banker_stop=16)"``) plus ``-r key=value``
    overrides; ``text``'s name must be ``spec``'s."""
    name, args = split_call(text, "game")
    if name != spec.name:
        raise SimkitError(f"game string {text!r} is not a {spec.name} game")
    opts = parse_kv(args, "rules option")
    extra = overrides if isinstance(overrides, dict) else \
        parse_kv(unwrap_overrides(spec, list(overrides or [])), "rules option")
    opts = merge_options(opts, extra)
    return rules_from_options(spec, opts)


def rules_from_options(spec: GameSpec, opts: dict[str, Any]) -> Rules:
    opts = dict(opts)
    preset = opts.pop("preset", None)
    base: dict[str, Any] = {}
    if preset is not None:
        if preset not in spec.presets:
            raise SimkitError(f"unknown preset {preset!r} for {spec.name}: available presets are "
                              f"{', '.join(spec.presets) or '(none)'}")
        base = dict(spec.presets[preset])
    base.update(opts)
    return spec.rules.build(base)


def game_string(spec: GameSpec, rules: Rules) -> str:
    c = rules.canonical()
    return f"{spec.name}({c})" if c else spec.name


def parse_strategy(spec: GameSpec, text: str) -> Strategy:
    """Parse ``stand_at(16)`` or ``stand_at(t=16)`` for ``spec``'s strategy kinds."""
    name, args = split_call(text, "strategy")
    if name not in spec.strategies:
        raise SimkitError(f"unknown strategy {name!r} for {spec.name}: available strategies are "
                          f"{', '.join(spec.strategies)}")
    kind = spec.strategies[name]
    values: dict[str, Any] = {}
    names = [p.name for p in kind.params]
    for i, a in enumerate(args):
        if "=" in a:
            k, v = (s.strip() for s in a.split("=", 1))
        elif i < len(names):
            k, v = names[i], a
        else:
            raise SimkitError(f"too many values for {name}: its parameters are "
                              f"{', '.join(names) or '(none)'}")
        if k not in names:
            raise SimkitError(f"unknown parameter {k!r} of strategy {name}: its parameters are "
                              f"{', '.join(names) or '(none)'}")
        if k in values:
            raise SimkitError(f"parameter {k!r} of strategy {name} is given twice in {text!r}: "
                              f"give it once")
        values[k] = v
    return make_strategy(kind, values)


def make_strategy(kind: StrategyKind, values: dict[str, Any]) -> Strategy:
    params = []
    for p in kind.params:
        v = values.get(p.name, p.default)
        params.append((p.name, coerce(f"{kind.name}.{p.name}", v, p.default, p.range)))
    return Strategy(kind.name, tuple(params))


def seat_names(n: int) -> list[str]:
    return [f"p{i + 1}" for i in range(n)]


def parse_strategies(spec: GameSpec, rules: Rules, items: list[str] | dict | None) -> tuple[Strategy, ...]:
    """``["p1=stand_at(16)", ...]`` -> one :class:`Strategy` per seat (the default elsewhere)."""
    seats = seat_names(spec.seats(rules))
    chosen: dict[str, Strategy] = {}
    pairs = list(items.items()) if isinstance(items, dict) else [
        tuple(s.split("=", 1)) if "=" in s.split("(")[0] else (None, s) for s in (items or [])]
    for seat, text in pairs:
        if seat is None:
            raise SimkitError(f"cannot read strategy {text!r}: write SEAT=NAME(params), seats are "
                              f"{', '.join(seats)}")
        seat = seat.strip()
        if seat not in seats:
            raise SimkitError(f"unknown seat {seat!r}: this game has seats {', '.join(seats)}")
        if seat in chosen:
            raise SimkitError(f"seat {seat} is given two strategies ({chosen[seat]} and "
                              f"{str(text).strip()}): give each seat once")
        chosen[seat] = text if isinstance(text, Strategy) else parse_strategy(spec, text)
    default = parse_strategy(spec, spec.default_strategy)
    return tuple(chosen.get(s, default) for s in seats)


def resolve_strategies(spec: GameSpec, rules: Rules, strategies) -> tuple[Strategy, ...]:
    """One way in for strategies: ``None`` (every seat its default), ``["p1=stand_at(16)"]`` or
    a dict ``{"p1": "stand_at(16)"}``, or parsed :class:`Strategy` objects, one per seat."""
    if strategies is not None and len(strategies) and all(isinstance(s, Strategy) for s in strategies):
        strategies = tuple(strategies)
        n = spec.seats(rules)
        if len(strategies) != n:
            raise SimkitError(f"{spec.name} with these rules has {n} seats, not {len(strategies)} "
                              f"strategies")
        return strategies
    return parse_strategies(spec, rules, strategies)
