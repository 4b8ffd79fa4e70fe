"""The documentation site's game pages, written from the registry (issue 29).

``game_page(spec)`` is one Markdown page per registered game: its title and rule text, every rules
option (default, allowed values, meaning, the lines of the rule text it comes from), the presets,
the metrics with their units (at the default rules, then those other rules add), the strategies
with their parameters, the objective, whether ``simkit exact`` serves it and the match rules of
``simkit odds``. The numbers come from the same places ``simkit games``, ``simkit rules`` and
``simkit metrics`` print them from (``Rules.describe``, ``GameSpec.metrics``, the strategy kinds),
so the site cannot say other than the command line. ``write_pages(folder)`` writes them with an
index; ``scripts/make_docs.py`` calls it, and is also the mkdocs hook that makes them at build
time (``mkdocs build --strict``, ``mkdocs serve``).
"""
from __future__ import annotations

import html
import os
import re
from dataclasses import fields

from simkit.core.registry import (GameSpec, Metric, game_string, rules_from_options,
                                   split_call)
from simkit.errors import SimkitError

#: the folder of the game pages inside the site
FOLDER = "games"


def text(s) -> str:
    """Docstring text made safe for a Markdown table cell: code spans kept, the rest escaped."""
    s = " ".join(str(s).split())
    parts = re.split(r"(`[^`]*`)", s)
    out = []
    for i, p in enumerate(parts):
        if i % 2:
            out.append(p)  # a table keeps a code span's | inside its cell
        else:
            p = html.escape(p, quote=False)
            out.append(re.sub(r"([\\*_|\[\]])", r"\\\1", p))
    return "".join(out)


def code(v) -> str:
    """A value as a code span (``true``/``false`` for booleans, as the command line writes them)."""
    if isinstance(v, bool):
        v = "true" if v else "false"
    v = str(v)
    return f"`{v}`" if v != "" else ""


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + [
        "| " + " | ".join(r) + " |" for r in rows]


_SEAT = re.compile(r"^p(\d+)_(.+)$")


def _variations(spec: GameSpec) -> list[tuple[str, object]]:
    """(label, rules) for the rules worth listing metrics under: presets, the match rules, every
    value of a choice or true/false option, and the largest value of a small whole-number one
    (a value another option's check refuses alone is left out)."""
    asks: list[tuple[str, dict]] = [(f"preset={p}", {"preset": p}) for p in spec.presets]
    if spec.match:
        asks.append((",".join(f"{k}={v}" for k, v in spec.match.items()), dict(spec.match)))
    for f in fields(spec.rules):
        md = f.metadata
        if md.get("choices"):
            values = list(md["choices"])
        elif isinstance(f.default, bool):
            values = [not f.default]
        elif isinstance(f.default, int) and md.get("range") and md["range"][1] - md["range"][0] <= 16:
            values = [md["range"][1]]
        else:
            values = []
        asks += [(f"{f.name}={code(v)[1:-1]}", {f.name: v}) for v in values if v != f.default]
    out = []
    for label, opts in asks:
        try:
            out.append((label, rules_from_options(spec, opts)))
        except SimkitError:
            continue
    return out


def _listed(m: Metric) -> bool:
    """A metric the page lists: every reported one, and the labels kept in the rows."""
    return not m.hidden or bool(m.category)


def metrics_sections(spec: GameSpec) -> tuple[list[Metric], list[tuple[Metric, str]], dict[str, str]]:
    """The metrics at the default rules; those other rules add (each with the first rules that
    add it); and the seat metrics whose copies other seat counts add (stem -> rules)."""
    base = [m for m in spec.metrics(spec.rules()) if _listed(m)]
    seen = {m.name for m in base}
    stems = {_SEAT.match(m.name).group(2) for m in base if _SEAT.match(m.name)}
    extra: list[tuple[Metric, str]] = []
    copies: dict[str, str] = {}
    for label, r in _variations(spec):
        for m in spec.metrics(r):
            if not _listed(m) or m.name in seen:
                continue
            seat = _SEAT.match(m.name)
            if seat and seat.group(2) in stems:
                copies.setdefault(seat.group(2), label)
                continue
            seen.add(m.name)
            extra.append((m, label))
            if seat:
                stems.add(seat.group(2))
    return base, extra, copies


def game_page(spec: GameSpec) -> str:
    """The Markdown page of one game."""
    rules = spec.rules()
    name = spec.name
    lines = [f"# {text(spec.title or name)}", "",
             f"Game string `{name}`, version {spec.version}. Rule text: "
             f"`shared/rules/{spec.source}` (file and lines; `simkit games` lists it). "
             f"This page is written from simkit's registry by `scripts/make_docs.py`; "
             f"`simkit rules {name}` and `simkit metrics {name}` print the same.", ""]
    seats = spec.seats(rules)
    facts = [f"seats at the default rules: {seats} (" + ("`p1`" if seats == 1 else
                                                         f"`p1`..`p{seats}`") + ")",
             f"default strategy in every seat: `{spec.default_strategy}`"]
    if spec.objective:
        stem, larger = spec.objective(rules)
        facts.append(f"objective (what the analyses compare by default): `{stem}` per seat, "
                     f"{'larger' if larger else 'smaller'} is better")
    if spec.exact:
        takes = ", ".join(f"`{t}`" for t in spec.exact_takes)
        facts.append(f"exact analysis: yes, `simkit exact {name}`"
                     + (f" (beyond the rules it takes {takes})" if takes else ""))
    else:
        facts.append("exact analysis: none (`simkit exact` refuses this game)")
    if spec.match:
        m = ",".join(f"{k}={v}" for k, v in spec.match.items())
        facts.append(f"whole match (`simkit odds`): `{name}({m})`")
    else:
        facts.append("whole match: a deal is already what players play to (`simkit odds` refuses it)")
    lines += [f"- {f}" for f in facts] + [""]

    opts = spec.rules.describe()
    lines += ["## Rules options", "",
              f"Set them in the game string (`{name}(key=value,...)`) or with `-r key=value`; "
              f"`preset=NAME` first, then options that change it.", ""]
    lines += _table(["option", "default", "allowed", "meaning", "rule text lines"],
                    [[code(o["option"]), code(o["default"]), text(o["allowed"]), text(o["doc"]),
                      code(o["source"])] for o in opts])
    lines.append("")

    lines += ["## Presets", ""]
    if spec.presets:
        lines += _table(["preset", "options", "what it is"],
                        [[code(p), code(",".join(f"{k}={code(v)[1:-1]}" for k, v in o.items())) or
                          "(the defaults)", text(spec.preset_docs.get(p, ""))]
                         for p, o in spec.presets.items()])
    else:
        lines.append("None.")
    lines.append("")

    base, extra, copies = metrics_sections(spec)
    lines += ["## Metrics", "",
              f"Each is a mean over deals with its 95% interval, in the unit given; "
              f"`-m` names one, or a seat metric's stem. At the default rules "
              f"(`{game_string(spec, rules)}`):", ""]
    lines += _table(["metric", "unit", "interval", "meaning"],
                    [[code(m.name), text(m.unit), m.kind, text(m.doc)] for m in base])
    lines.append("")
    if extra:
        lines += ["Other rules add these metrics (with the first rules tried that add each: the "
                  "presets, the match rules, every value of a choice, a whole-number option at "
                  "the largest value it allows):", ""]
        lines += _table(["metric", "unit", "interval", "with", "meaning"],
                        [[code(m.name), text(m.unit), m.kind, code(label), text(m.doc)]
                         for m, label in extra])
        lines.append("")
    if copies:
        by: dict[str, list[str]] = {}
        for stem, label in copies.items():
            by.setdefault(label, []).append(stem)
        lines += ["The same seat metrics for the other seats those rules have (`p2_...`, "
                  "`p3_...`) come with:", ""]
        lines += [f"- {code(label)}: " + ", ".join(f"`{x}`" for x in stems)
                  for label, stems in by.items()] + [""]

    lines += ["## Strategies", "",
              f"`-s SEAT=NAME(params)`, e.g. `-s p1={_example(spec)}`; parameters by position or "
              f"`name=value`, unnamed ones at their defaults. How each plays: "
              f"`simkit/games/{name}/strategies.py`.", ""]
    for kind in spec.strategies.values():
        mark = f" (default: `{spec.default_strategy}`)" if kind.name == _default_kind(spec) else ""
        lines += [f"### `{kind.name}`{mark}", "", text(kind.doc) or "(no description)", ""]
        if kind.params:
            lines += _table(["parameter", "default", "range", "meaning"],
                            [[code(p.name), code(p.default),
                              f"{code(p.range[0])}..{code(p.range[1])}" if p.range else "",
                              text(p.doc)] for p in kind.params])
            lines.append("")
    lines += ["## Commands", "", "```bash", f"simkit rules {name}", f"simkit metrics {name}",
              f"simkit run {name} -n 1e5 --seed 1"]
    if spec.exact:
        lines.append(f"simkit exact {name}")
    if spec.match:
        lines.append(f"simkit run '{name}({','.join(f'{k}={v}' for k, v in spec.match.items())})' "
                     f"-n 1e3 --seed 1")
    lines += [f"simkit bench {name}", "```", ""]
    return "\n".join(lines)


def _example(spec: GameSpec) -> str:
    """A strategy string to show: the default's kind with its first parameter named."""
    kind = spec.strategies[_default_kind(spec)]
    if not kind.params:
        return kind.name
    p = kind.params[0]
    return f"{kind.name}({p.name}={code(p.default)[1:-1]})"


def _default_kind(spec: GameSpec) -> str:
    return split_call(spec.default_strategy, "strategy")[0]


def index_page(specs: list[GameSpec]) -> str:
    """The games' index: one row per game with a link to its page."""
    rows = [[f"[{code(s.name)}]({s.name}.md)", text(s.title), str(s.version),
             str(len(s.rules.describe())), str(len(s.strategies)), str(len(s.presets)),
             "yes" if s.exact else "", "yes" if s.match else ""] for s in specs]
    return "\n".join(["# Games", "",
                      "Every registered game (`simkit games`), in the catalogue's order. Each page "
                      "is written from the registry when the site is built.", ""]
                     + _table(["game", "title", "version", "options", "strategies", "presets",
                               "exact", "match"], rows) + [""])


def pages() -> dict[str, str]:
    """Site path -> Markdown for the games' index and every registered game's page."""
    from simkit.games import games
    specs = list(games().values())
    out = {f"{FOLDER}/index.md": index_page(specs)}
    for s in specs:
        out[f"{FOLDER}/{s.name}.md"] = game_page(s)
    return out


def nav() -> list[dict[str, str]]:
    """The mkdocs nav entries of the game pages (the index first)."""
    from simkit.games import games
    return [{"All games": f"{FOLDER}/index.md"}] + [
        {s.name: f"{FOLDER}/{s.name}.md"} for s in games().values()]


def write_pages(folder: str) -> list[str]:
    """Write every page under ``folder`` (``folder/games/*.md``); return the paths written."""
    written = []
    for rel, body in pages().items():
        path = os.path.join(folder, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(body)
        written.append(path)
    return written
