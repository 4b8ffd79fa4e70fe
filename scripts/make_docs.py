"""The documentation site's game pages, from the registry (simkit/report/docs.py).

Two uses:

* ``python scripts/make_docs.py OUTDIR`` writes ``OUTDIR/games/index.md`` and one
  ``OUTDIR/games/GAME.md`` per registered game (to read or diff them without mkdocs);
* ``mkdocs.yml`` names this file as a hook, so ``mkdocs build --strict`` and ``mkdocs serve``
  make the same pages at build time and list them in the site's navigation under "Games".
  Nothing generated is committed: a game added to ``simkit/games/__init__.py`` gets its page.
"""
from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:  # the tree the site documents (mkdocs loads hooks by path)
    sys.path.insert(0, ROOT)

from simkit.report import docs  # noqa: E402

#: the nav entry the game pages replace (mkdocs.yml: ``- Games: games/index.md``)
NAV_TITLE = "Games"


def on_config(config):
    """Put every game's page under the nav's "Games" entry."""
    for i, entry in enumerate(config.nav or []):
        if isinstance(entry, dict) and NAV_TITLE in entry:
            config.nav[i] = {NAV_TITLE: docs.nav()}
            break
    else:
        raise SystemExit(f"mkdocs.yml: the nav has no '{NAV_TITLE}' entry for the game pages")
    return config


def on_files(files, config):
    """Add the generated pages to the site's files."""
    from mkdocs.structure.files import File
    for rel, body in docs.pages().items():
        files.append(File.generated(config, rel, content=body))
    return files


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python scripts/make_docs.py OUTDIR", file=sys.stderr)
        return 2
    for path in docs.write_pages(argv[0]):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
