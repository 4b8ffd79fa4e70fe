"""Rules of Очко (21): the banker's round's own options, with their readings of
``shared/rules/000_e1e7c8054592a022.txt`` (:mod:`simkit.engines.banking.rules`)."""
from __future__ import annotations

from simkit.engines.banking.rules import OchkoRules  # noqa: F401
