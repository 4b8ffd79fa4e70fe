"""The documentation site (issue 29): a page per registered game written from the registry, and
the whole site builds with ``mkdocs build --strict`` (any warning, such as a broken link or a
page left out of the nav, fails)."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from simkit.games import games
from simkit.report import docs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _named(page: str) -> set[str]:
    """Every code span of a page (names are written as `name`)."""
    return set(re.findall(r"`([^`|]+)`", page))


@pytest.fixture(scope="module")
def pages():
    return docs.pages()


def test_every_game_has_a_page_naming_its_options_metrics_strategies_presets(pages):
    assert set(games()) == {os.path.basename(p)[:-3] for p in pages} - {"index"}
    for name, spec in games().items():
        page = pages[f"games/{name}.md"]
        named = _named(page)
        assert spec.source in page, name
        for o in spec.rules.describe():
            assert o["option"] in named, (name, o["option"])
            if o["source"]:
                assert o["source"] in named, (name, o["option"], o["source"])
        base, extra, copies = docs.metrics_sections(spec)
        assert base == [m for m in spec.metrics(spec.rules()) if not m.hidden or m.category]
        for m in base + [m for m, _ in extra]:
            assert m.name in named and (not m.unit or docs.text(m.unit) in page), (name, m.name)
        for p in spec.presets:
            assert p in named, (name, p)
        for kind in spec.strategies.values():
            assert f"### `{kind.name}`" in page, (name, kind.name)
            for p in kind.params:
                assert p.name in named, (name, kind.name, p.name)
        assert ("exact analysis: yes" in page) == (spec.exact is not None), name
        assert f"[`{name}`]({name}.md)" in pages["games/index.md"]


def test_metrics_other_rules_add_are_listed_by_the_rules_that_add_them():
    spec = games()["gin"]
    base, extra, copies = docs.metrics_sections(spec)
    added = {m.name: label for m, label in extra}
    match = [m.name for m in spec.metrics(spec.rules(unit="match")) if not m.hidden]
    # every metric of a whole match is at the default rules, in the table of added ones, or the
    # same seat metric as one of them for another seat
    for m in match:
        stem = re.sub(r"^p\d+_", "", m)
        assert m in {b.name for b in base} or m in added or stem in copies, m
    assert "p1_match_win" in added and "match_win" in copies


def test_text_escapes_markdown_but_keeps_code_spans():
    assert docs.text("a | b <= c, p1_ev *x* [y]") == r"a \| b &lt;= c, p1\_ev \*x\* \[y\]"
    assert docs.text("see `p1_ev | x` and\n  more") == "see `p1_ev | x` and more"


def test_the_site_builds_strict(tmp_path):  # 6-10 s on a loaded 2-core machine: a quick test
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    site = tmp_path / "site"
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q",
                           "-f", os.path.join(ROOT, "mkdocs.yml"), "-d", str(site)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for name in games():
        assert (site / "games" / name / "index.html").is_file(), name
    for page in ("commands/run", "tutorials/ochko-banker", "tutorials/gin-knock",
                 "tutorials/durak-first-move"):
        assert (site / page / "index.html").is_file(), page
    nav = (site / "index.html").read_text(encoding="utf-8")
    for name in games():  # the generated pages are in the navigation, not only linked
        assert f'href="games/{name}/"' in nav, name


def test_write_pages_writes_the_index_and_every_game(tmp_path):
    written = docs.write_pages(str(tmp_path))
    assert len(written) == len(games()) + 1
    for name, spec in games().items():
        assert (tmp_path / "games" / f"{name}.md").read_text(encoding="utf-8") == docs.game_page(spec)


def test_every_command_has_a_page():
    from simkit.cli import cli
    folder = os.path.join(ROOT, "docs", "commands")
    titles = {}
    for f in os.listdir(folder):
        with open(os.path.join(folder, f), encoding="utf-8") as fh:
            titles[f] = fh.readline()
    with open(os.path.join(folder, "index.md"), encoding="utf-8") as fh:
        index = fh.read()
    for name in cli.commands:
        assert any(f != "index.md" and re.search(rf"\b{name}\b", t) for f, t in titles.items()), name
        assert f"`{name}" in index, name


def _doc_commands():
    """Every ``simkit COMMAND GAME ...`` line of the hand-written pages' code blocks, as argv."""
    import shlex
    out = []
    for folder, _, files in os.walk(os.path.join(ROOT, "docs")):
        for f in files:
            text = open(os.path.join(folder, f), encoding="utf-8").read()
            for block in re.findall(r"```bash\n(.*?)```", text, re.S):
                for line in block.splitlines():
                    line = line.split(" #")[0].strip().lstrip("$ ")
                    if line.startswith("simkit "):
                        out.append((f, shlex.split(line)[1:]))
    return out


def test_the_pages_commands_name_games_and_metrics_that_exist():
    """A renamed metric or game breaks its page here, not in a reader's terminal: every game
    string of a command in the docs parses, and every ``-m`` name is one of its metrics."""
    from simkit.analysis.common import expand_metrics
    from simkit.games import parse_game
    cmds = [(f, a) for f, a in _doc_commands() if len(a) > 1 and a[0] in (
        "run", "sweep", "compare", "tournament", "best", "solve", "odds", "exact", "bench",
        "rules", "metrics", "replay")]
    assert len(cmds) >= 20, cmds
    for f, argv in cmds:
        spec, rules = parse_game(argv[1])
        names = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a in ("-m", "--metric")]
        if names:
            expand_metrics(spec, [rules], names)   # refuses an unknown name
