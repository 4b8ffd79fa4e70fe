"""Durak against the PyPI peer durakgame (scripts/compare_durak_peer.py), when it is installed
(the test extra installs it): the opener's win / draw / loss under the peer's rules and bots agree
within 3 standard errors, both measured in the same run."""
import os
import sys

import pytest

pytest.importorskip("durakgame")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts"))


@pytest.mark.slow  # the peer is slow: a random game with many throw-in subsets takes seconds
def test_opener_outcomes_agree_with_durakgame(capsys):
    import compare_durak_peer
    code = compare_durak_peer.main(["-n", "300", "--seed", "3"])
    out = capsys.readouterr().out
    assert "speed, one core" in out
    assert code == 0, out
