"""Rules as data: frozen dataclasses whose fields declare their allowed values and their source.

A game's rules class subclasses :class:`Rules` and declares each option with :func:`option`::

    @dataclass(frozen=True)
    class OchkoRules(Rules):
        banker_stop: int = option(17, range=(2, 22), doc="banker draws while below this",
                                  source="000:29")

Construction validates every field (type, range or choices) and coerces strings from the command
line (``"16"``, ``"true"``), so a bad value fails with a message naming the option and what is
allowed.  :meth:`Rules.canonical` renders the non-default options, the form used in game strings,
result tables and file names.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, fields
from typing import Any

from simkit.errors import SimkitError

_TRUE = {"1", "true", "yes", "on", "y", "t"}
_FALSE = {"0", "false", "no", "off", "n", "f"}


def option(default, *, range=None, choices=None, doc: str = "", source: str = ""):
    """Declare a rules option: default, allowed ``range=(lo, hi)`` (inclusive) or ``choices``,
    a one-line ``doc`` and the ``source`` lines of the rule text (``"000:29-31"``)."""
    return field(default=default, metadata=dict(range=range, choices=choices, doc=doc,
                                                source=source))


def coerce(name: str, value: Any, default: Any, range=None, choices=None):
    """Convert ``value`` (possibly a string from the CLI) to the type of ``default`` and check it."""
    kind = type(default)
    if kind in (bool, int, float) and isinstance(value, str) and not value.isascii():
        raise SimkitError(f"bad value {value!r} for {name}: write it in ASCII digits and letters; "
                          f"expected {_allowed(kind, range, choices)}")
    try:
        if kind is bool:
            if isinstance(value, str):
                v = value.strip().lower()
                if v not in _TRUE | _FALSE:
                    raise ValueError
                value = v in _TRUE
            elif isinstance(value, (int, float)) and value in (0, 1):
                value = bool(value)
            elif not isinstance(value, bool):
                raise ValueError
        elif kind is int:
            if isinstance(value, bool):
                raise ValueError
            f = float(value)
            if f != int(f):
                raise ValueError
            value = int(f)
        elif kind is float:
            value = float(value)
        elif kind is str:
            value = str(value).strip()
    except (TypeError, ValueError, OverflowError):
        allowed = _allowed(kind, range, choices)
        raise SimkitError(f"bad value {value!r} for {name}: expected {allowed}") from None
    if range is not None and not (range[0] <= value <= range[1]):
        raise SimkitError(f"{name}={value} is out of range: allowed {_allowed(kind, range, choices)}")
    if choices is not None and value not in choices:
        raise SimkitError(f"{name}={value!r} is not allowed: choose one of "
                          f"{', '.join(map(str, choices))}")
    return value


def _allowed(kind, range, choices) -> str:
    if choices is not None:
        return "one of " + ", ".join(map(str, choices))
    if kind is bool:
        return "true or false"
    name = {int: "an integer", float: "a number", str: "text"}[kind]
    return f"{name} in {range[0]}..{range[1]}" if range else name


@dataclass(frozen=True)
class Rules:
    """Base class of every game's rules. Subclasses are frozen dataclasses of :func:`option` s."""

    def __post_init__(self):
        for f in fields(self):
            md = f.metadata
            v = coerce(f.name, getattr(self, f.name), f.default, md.get("range"), md.get("choices"))
            object.__setattr__(self, f.name, v)
        self.check()

    def check(self) -> None:
        """Cross-option checks; override in a game (raise :class:`SimkitError`)."""

    @classmethod
    def build(cls, options: dict[str, Any]) -> "Rules":
        """Validated rules from a mapping of option names to values (strings are coerced)."""
        names = [f.name for f in fields(cls)]
        unknown = [k for k in options if k not in names]
        if unknown:
            raise SimkitError(f"unknown option {unknown[0]!r}: valid options are {', '.join(names)}")
        return cls(**options)

    @classmethod
    def describe(cls) -> list[dict]:
        """One dict per option: name, default, allowed, doc, source."""
        out = []
        for f in fields(cls):
            md = f.metadata
            out.append(dict(option=f.name, default=f.default,
                            allowed=_allowed(type(f.default), md.get("range"), md.get("choices")),
                            doc=md.get("doc", ""), source=md.get("source", "")))
        return out

    def changed(self) -> dict[str, Any]:
        """The options that differ from their defaults, in declaration order."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != f.default}

    def canonical(self) -> str:
        """``k=v,k=v`` of the non-default options (empty for the defaults)."""
        return ",".join(f"{k}={_fmt(v)}" for k, v in self.changed().items())

    def replace(self, **kw) -> "Rules":
        return dataclasses.replace(self, **kw)


def _fmt(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)
